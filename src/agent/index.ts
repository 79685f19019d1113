// The agent boundary: the HTTP client and the pure mapping helpers it is built from.

export { createHttpAgentClient, buildHeaders, snippet, SNIPPET_LENGTH, MAX_RESPONSE_BYTES } from './http-client.js';
export type { AgentClientDeps } from './http-client.js';
export { observeTurns, observeTurn, responseOnly, spanObserver } from './observe.js';
export { renderTemplate, readPath, describeFound } from './template.js';
export type { TemplateValues } from './template.js';
export { mapResponse, mapSignals, toolCallsHint } from './response.js';
export { findToolCallPaths } from './tool-calls.js';
export { decodeBody } from './decode.js';
export type { DecodedReply, DecodeResult } from './decode.js';
export { decodeEventStream, decodeNdjson, parseEventStream } from './stream.js';
export type { SseEvent } from './stream.js';
export type { MappedTurn, MapResult } from './response.js';
export { backoffDelay, parseRetryAfter, MAX_RETRY_AFTER_MS } from '../http/retry.js';
