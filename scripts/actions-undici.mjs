// What @actions/http-client and @actions/github take from undici, ProxyAgent and fetch, from the
// two modules that define them. Both packages import undici's index, which loads every part of
// undici (its mock agent, cache, WebSocket, EventSource, cookie parsing) and sets globalThis.Headers
// and its kin, which wakes Node's own copy of undici: about a tenth of an Action run's
// instructions. The bundles of the Action (scripts/package.mjs, and the tests' in
// test/support/entry-bundles.ts) resolve those packages' `undici` to this file
// (scripts/bundle.mjs, actionsUndici); our own code imports undici's modules by path already
// (src/http/). docs/performance.md, "The Action's undici".
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import fetchModule from 'undici/lib/web/fetch/index.js';

export { ProxyAgent };

/** As undici's index wraps it: the caller's stack on an error (undici's own is an async one). */
export function fetch(init, options = undefined) {
  return fetchModule.fetch(init, options).catch((err) => {
    if (err && typeof err === 'object') Error.captureStackTrace(err, fetch);
    throw err;
  });
}
