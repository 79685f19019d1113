// What @actions/http-client and @actions/github take from undici, ProxyAgent and fetch, from the
// two modules that define them. Both packages import undici's index, which loads every part of
// undici (its mock agent, cache, WebSocket, EventSource, cookie parsing) and sets globalThis.Headers
// and its kin, which wakes Node's own copy of undici: about a tenth of an Action run's
// instructions. The bundles of the Action (scripts/package.mjs, and the tests' in
// test/support/entry-bundles.ts) resolve those packages' `undici` to this file
// (scripts/bundle.mjs, actionsUndici); our own code imports undici's modules by path already
// (src/http/). docs/performance.md, "The Action's undici".
import apiConnect from 'undici/lib/api/api-connect.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import UndiciProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import fetchModule from 'undici/lib/web/fetch/index.js';

/**
 * undici's ProxyAgent, whose client to the proxy can open a tunnel. A tunnel (CONNECT: every
 * request to GitHub's API through HTTPS_PROXY or HTTP_PROXY) is opened by the `connect` API method,
 * which undici's index adds to every dispatcher's prototype and its own files do not: without it,
 * each GitHub call behind a proxy failed with `this[kClient].connect is not a function`
 * (src/http/proxy-agent.ts gives our own clients theirs the same way; test/action/proxy.test.ts).
 */
export class ProxyAgent extends UndiciProxyAgent {
  constructor(opts) {
    super({ clientFactory: (origin, o) => Object.assign(new Pool(origin, o), { connect: apiConnect }), ...opts });
  }
}

/** As undici's index wraps it: the caller's stack on an error (undici's own is an async one). */
export function fetch(init, options = undefined) {
  return fetchModule.fetch(init, options).catch((err) => {
    if (err && typeof err === 'object') Error.captureStackTrace(err, fetch);
    throw err;
  });
}
