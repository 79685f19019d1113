// config.yml `traces:` (docs/traces.md, "The traces: section"): where a turn's spans come from, an
// OTLP/HTTP receiver on 127.0.0.1 (`receive`) or a trace store queried by trace id (`query`), and
// how long to wait for them (`waitMs`). Exactly one of receive and query; every problem is reported
// with the file's line beside every other problem of the file. The store's key is a secret: it is
// read from the environment with `${VAR}` and redacted everywhere, and never quoted in a message.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import type { Config } from '../../config.js';
import type { TracesConfig } from '../../types.js';
import { quote } from '../issues.js';
import { headerValue, ms, unsure, urlIssue, type Resolution } from './shared.js';
import { referencedNames } from '../env.js';
import { NEW_CONFIG_NAME } from '../config-names.js';
import { posix } from 'node:path';

export const TRACE_STORES = ['tempo', 'jaeger', 'langfuse'] as const satisfies ReadonlyArray<NonNullable<TracesConfig['query']>['kind']>;

export const TRACES_DEFAULTS = {
  /** How long to wait for a turn's spans (docs/traces.md, "When a turn's spans are complete"). */
  waitMs: 5_000,
  /** The OTLP/HTTP port (the OpenTelemetry SDKs' default endpoint is http://localhost:4318). */
  port: 4318,
} as const;

/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the query sets itself: the key's, and what the answer's form depends on. */
const RESERVED_HEADERS = new Set(['authorization', 'accept', 'host', 'content-length']);

const PORT_RULE = 'must be a port number from 0 to 65535 (0: any free port, said in the log)';

export const schema = onFirstUse(() =>
  z.strictObject({
    receive: z
      .strictObject({
        port: z.number({ error: PORT_RULE }).int({ error: PORT_RULE }).min(0, { error: PORT_RULE }).max(65535, { error: PORT_RULE }).optional(),
      })
      .nullable()
      .optional(),
    query: z
      .strictObject({
        kind: z.enum(TRACE_STORES),
        url: z.string(),
        apiKey: z.string().nullable().optional(),
        headers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable().optional(),
      })
      .nullable()
      .optional(),
    waitMs: ms(0).optional(),
  }),
);

type TracesSection = z.infer<ReturnType<typeof schema>>;

const EXAMPLE_RECEIVE = 'receive: { port: 4318 }';
const EXAMPLE_QUERY = 'query: { kind: tempo, url: https://tempo.example.com, apiKey: "${TRACES_KEY}" }';

/**
 * Sets `config.traces` when the section is given (left null otherwise). `written` is the section as
 * written, for quoting a URL without a substituted secret; the key is never quoted.
 */
export function resolve(config: Config, resolved: TracesSection | null | undefined, written: TracesSection | null | undefined, r: Resolution): void {
  if (!resolved) return;
  const receive = resolved.receive ?? null;
  const query = resolved.query ?? null;
  if (receive && query) {
    r.errors.push(
      r.issueAt(['traces'], 'traces has both receive and query: spans come from one place', `keep receive for an agent started in the same job, or query for a deployed agent whose spans go to a trace store`),
    );
    return;
  }
  if (!receive && !query) {
    // A receive or query with a shape error of its own (already said) is not missing.
    if (unsure(r, ['traces', 'receive'], ['traces', 'query'])) return;
    r.errors.push(r.issueAt(['traces'], "traces needs receive or query: where the agent's spans come from", `add ${EXAMPLE_RECEIVE} (an agent started in the same job) or ${EXAMPLE_QUERY}`));
    return;
  }
  const waitMs = resolved.waitMs ?? TRACES_DEFAULTS.waitMs;
  if (receive) {
    // Where the file sets the port, for the error of a port in use (src/traces/receiver.ts).
    const at = receive.port === undefined || r.src === null ? null : r.issueAt(['traces', 'receive', 'port'], '', '');
    const portAt = at === null ? {} : { portAt: at.line === null ? at.file : `${at.file}:${String(at.line)}` };
    // The file's name, where a default port in use is told to set another (config.yaml when that is the suite's).
    const name = r.src === null ? NEW_CONFIG_NAME : posix.basename(r.issueAt(['traces'], '', '').file);
    config.traces = { receive: { port: receive.port ?? TRACES_DEFAULTS.port, ...portAt, ...(name === NEW_CONFIG_NAME ? {} : { configName: name }) }, query: null, waitMs };
    return;
  }
  const q = query!;
  const writtenQuery = written?.query ?? null;
  let ok = !unsure(r, ['traces', 'query', 'url']);
  const issue = ok ? urlIssue('traces.query.url', shownUrl(writtenQuery?.url ?? ''), q.url, { what: "the store's base address", key: 'url', example: exampleUrl(q.kind) }) : null;
  if (issue !== null) {
    ok = false;
    r.errors.push(r.issueAt(['traces', 'query', 'url'], issue.message, issue.fix));
  } else if (ok && new URL(q.url).search !== '') {
    ok = false;
    // From `${NAME}`: the variable is named, its value (a token in the query, say) never shown.
    const names = referencedNames(writtenQuery?.url ?? '');
    r.errors.push(
      r.issueAt(
        ['traces', 'query', 'url'],
        `traces.query.url ${quote(shownUrl(writtenQuery?.url ?? ''))} has a query string${names.length > 0 ? ` with the value of ${names.join(' and ')}` : ''}: the trace's path is added to the base address`,
        names.length > 0
          ? `give ${names.join(' and ')} the store's base address without "?...", e.g. ${exampleUrl(q.kind)} (its value is not shown here: an address may carry a password or a token)`
          : `give the store's base address without "?...", e.g. url: ${exampleUrl(q.kind)}`,
      ),
    );
  }
  const apiKey = q.apiKey === undefined || q.apiKey === null || q.apiKey === '' ? null : q.apiKey;
  if (q.kind === 'langfuse' && (apiKey === null || !/^[^:]+:.+$/s.test(apiKey)) && !unsure(r, ['traces', 'query', 'apiKey'])) {
    ok = false;
    r.errors.push(
      r.issueAt(
        apiKey === null ? ['traces', 'query'] : ['traces', 'query', 'apiKey'],
        apiKey === null ? "traces.query.apiKey is not set: Langfuse answers only with a project's keys" : 'traces.query.apiKey for Langfuse must be "public:secret" (the project\'s public key, a colon, its secret key)',
        'set apiKey: "${LANGFUSE_PUBLIC_KEY}:${LANGFUSE_SECRET_KEY}" and export both (repository secrets in a workflow)',
      ),
    );
  }
  const writtenKey = writtenQuery?.apiKey;
  if (apiKey !== null && typeof writtenKey === 'string' && !writtenKey.includes('${')) {
    // A key written into config.yml is in the repository for anyone who can read it.
    r.warnings.push(r.issueAt(['traces', 'query', 'apiKey'], 'traces.query.apiKey is written in the file: anyone who can read the repository can use it', 'move it to a secret and write apiKey: "${TRACES_KEY}" (export TRACES_KEY, or set it from secrets in the workflow env)'));
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(q.headers ?? {})) {
    const at = ['traces', 'query', 'headers', name];
    if (!HEADER_NAME.test(name)) {
      ok = false;
      r.errors.push(r.issueAt(at, `traces.query.headers has ${quote(name)}, which is not an HTTP header name`, 'use letters, digits and - only, e.g. X-Scope-OrgID: my-tenant'));
    } else if (RESERVED_HEADERS.has(name.toLowerCase())) {
      ok = false;
      r.errors.push(r.issueAt(at, `traces.query.headers sets ${name}, which agent-replay sets itself`, name.toLowerCase() === 'authorization' ? 'give the key as traces.query.apiKey (user:password for basic auth), from a secret' : `remove ${name}`));
    } else {
      headers[name] = headerValue(value, at, r);
    }
  }
  if (!ok) return;
  // The key is a secret even when written in the file: never printed, logged or written; so is
  // the form it is sent in as basic auth (a store that echoes its Authorization header shows that).
  // A `user:password` key (Langfuse's public:secret, Grafana Cloud's instance:token) is sent as basic
  // auth: a store that quotes the decoded password alone ("invalid token glc_...") must not show it.
  if (apiKey !== null) {
    config.secrets.push(apiKey, Buffer.from(apiKey, 'utf8').toString('base64'));
    if (apiKey.includes(':')) config.secrets.push(apiKey.slice(apiKey.indexOf(':') + 1));
  }
  // Where the file sets each key, for the store's errors that name it (src/traces/index.ts).
  const at: Partial<Record<'kind' | 'url' | 'apiKey' | 'headers', string>> = {};
  for (const key of ['kind', 'url', 'apiKey', 'headers'] as const) {
    const pos = r.src === null || writtenQuery?.[key] === undefined ? null : r.issueAt(['traces', 'query', key], '', '');
    if (pos !== null && pos.line !== null) at[key] = `${pos.file}:${String(pos.line)}`;
  }
  config.traces = { receive: null, query: { kind: q.kind, url: q.url.replace(/\/+$/, ''), apiKey, ...(Object.keys(headers).length > 0 ? { headers } : {}), ...(Object.keys(at).length > 0 ? { at } : {}) }, waitMs };
}

/** A URL as shown in a message: without a user and password (`https://user:p@ss@host` -> `https://host`: up to the last `@`, as URLs read it). */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}

function exampleUrl(kind: NonNullable<TracesConfig['query']>['kind']): string {
  return { tempo: 'https://tempo.example.com', jaeger: 'http://127.0.0.1:16686', langfuse: 'https://cloud.langfuse.com' }[kind];
}
