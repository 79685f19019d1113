// The two pieces of undici we use: the Agent (a keep-alive connection pool per origin) and the
// request API. Imported from their own files instead of undici's index, which also loads fetch,
// WebSocket, EventSource, caching, mocks and more: that halves the CLI bundle and its start time.

import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

export type Agent = UndiciAgent;
export const Agent = AgentImpl as unknown as typeof UndiciAgent;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** `undici.request(url, opts)` with an explicit dispatcher. */
export function request(url: string | URL, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher, ...rest } = opts;
  return (apiRequest as (this: Dispatcher, o: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>).call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: rest.method ?? 'GET',
  });
}
