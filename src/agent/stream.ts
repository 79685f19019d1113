// Streamed replies (docs/presets.md, "Streamed replies"): a `text/event-stream` body read to its
// end and decoded into `{reply, toolCalls}`, whatever the format: OpenAI chat completion chunks,
// OpenAI Responses events, Anthropic message stream events, the Vercel AI SDK UI message stream (5
// to 7), Mastra's agent stream (chunks `{type, runId, from, payload}`), a LangGraph run stream
// (`values` events; the last state is decoded like `/runs/wait`), or plain `data:` text (appended as
// it comes). The format is recognised from the events themselves. A format with an end event
// (`[DONE]` or a finish_reason, `response.completed`, `message_stop`, `finish`) that never sends it
// ended early; an error event errors the turn; a stream from which no reply text and no tool call
// could be read is an error naming the events that came, never a silent "". A stream of none of
// these formats whose events are JSON objects is read by the reply path config.yml gives
// (`agent.response.reply`), on each event, as an NDJSON answer's lines are. Pure: the client reads
// the body.

import { ANTHROPIC_NOT_TOOLS, anthropicRefusal, decodeLangGraph, errorText, isRecord, holdsACall, isResponsesToolItem, usageField, type DecodedReply, type DecodeResult } from './decode.js';
import { NO_USAGE, readUsage, type UsageRead } from './usage.js';
import { decodeEachToolCall, deniedOutput, shownName, TOOL_CALL_SHAPES } from './tool-calls.js';
import type { ToolCallOrigin, ToolCallsFrom } from '../config.js';
import { headOf, plural, shownJson } from '../words.js';
import { betterText, likelyText, type LikelyText } from './text-path.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

export interface SseEvent {
  event: string | null;
  data: string;
  /**
   * The first line of the event that is no event-stream field (`- shipped`, `Note: soon`): a text
   * chunk with a newline sent on one `data:` line, whose next lines every reader drops; absent: none.
   */
  stray?: string;
}

/** The fields of an event stream (WHATWG); a line of another name is dropped by every reader. */
const SSE_FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * Splits an event-stream body into events (WHATWG rules): lines end with CRLF, LF or CR; `data:`
 * lines of one event are joined with LF; one space after the colon is dropped; comments (`:`) and
 * events without data are skipped. A line of no field (`stray`) is dropped too, and noted.
 */
export function parseEventStream(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event: string | null = null;
  let data: string[] = [];
  let stray: string | undefined;
  const flush = (): void => {
    if (data.length > 0) events.push({ event, data: data.join('\n'), ...(stray === undefined ? {} : { stray }) });
    event = null;
    data = [];
    stray = undefined;
  };
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (!SSE_FIELDS.has(field)) stray ??= line;
  }
  // An event not followed by a blank line is still delivered: the body ended, not the event.
  flush();
  return events;
}

type Format = 'plain' | 'openai-chat' | 'openai-responses' | 'anthropic' | 'vercel-ai' | 'mastra' | 'langgraph';

/** The end event each format promises, named in the early-end message (plain text and LangGraph have none). */
const END_EVENT: Record<Exclude<Format, 'plain' | 'langgraph'>, string> = {
  'openai-chat': 'data: [DONE] or a finish_reason',
  'openai-responses': 'response.completed',
  anthropic: 'message_stop',
  'vercel-ai': 'finish',
  mastra: 'finish or data: [DONE]',
};

/**
 * LangGraph Platform run stream (`/runs/stream`) event names: the stream mode, optionally with a
 * `|namespace` suffix. A run's stream has no end event: it ends when the run does.
 */
const LANGGRAPH_EVENTS = new Set(['metadata', 'values', 'updates', 'messages', 'messages/partial', 'messages/complete', 'messages/metadata', 'custom', 'debug', 'tasks', 'checkpoints', 'events']);

const ANTHROPIC_TYPES = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping']);
const VERCEL_TYPES = new Set([
  'start', 'finish', 'abort', 'start-step', 'finish-step', 'reset-step', 'text-start', 'text-delta', 'text-end',
  'reasoning-start', 'reasoning-delta', 'reasoning-end', 'tool-input-start', 'tool-input-delta',
  'tool-input-available', 'tool-input-error', 'tool-output-available', 'tool-output-error',
  'tool-approval-request', 'tool-approval-response', 'tool-output-denied', 'source-url', 'source-document', 'file', 'message-metadata',
]);

function formatOf(obj: Record<string, unknown>): Format | null {
  const type = obj.type;
  if (typeof type === 'string') {
    // Mastra's chunks share some of Vercel's names but carry their data under `payload`, beside `runId` and `from`.
    if ('payload' in obj && (typeof obj.runId === 'string' || typeof obj.from === 'string')) return 'mastra';
    if (type.startsWith('response.')) return 'openai-responses';
    if (ANTHROPIC_TYPES.has(type)) return 'anthropic';
    if (VERCEL_TYPES.has(type) || type.startsWith('data-')) return 'vercel-ai';
  }
  if (Array.isArray(obj.choices)) return 'openai-chat';
  return null;
}

interface ChatToolCall {
  name: string;
  arguments: string;
  /** The call's id as its first delta gave it; absent: none given. */
  id?: string;
  /** Where its first delta was (eventItem): what an error about the call names. */
  from: string;
}

interface AnthropicBlock {
  /** `tool_use`, or a tool Anthropic ran: `mcp_tool_use`, `server_tool_use`. */
  type: string;
  id: unknown;
  name: string;
  input: unknown;
  json: string;
  /** Its content_block_start (eventItem). */
  from: string;
}

/** A LangGraph message as a run stream sent it, and where: the path in the event's JSON and the event (eventItem). */
interface GraphMessage {
  id: string | null;
  message: Record<string, unknown>;
  path: string;
  event: string;
  /** A message streamed in chunks (`messages` mode): its tool_call_chunks joined by index. */
  chunks?: Map<number, { name: string; args: string; id?: string }>;
}

class StreamState {
  format: Format | null = null;
  text = '';
  ended = false;
  error: string | null = null;
  /** OpenAI chat `delta.tool_calls`, accumulated by index. */
  chatCalls = new Map<number, ChatToolCall>();
  /** The highest index in chatCalls, kept as they come: a stream of many calls is read in one pass. */
  chatLast: number | null = null;
  /**
   * The key in chatCalls of each delta index's call: the index itself, until a new id comes at it
   * (a server that numbers every call 0, or relays two model calls each numbered from 0): that call
   * takes the next key after every one so far.
   */
  chatSlots = new Map<number, number>();
  /** Anthropic tool_use blocks by content index, their input from input_json_delta. */
  blocks = new Map<number, AnthropicBlock>();
  calls: unknown[] = [];
  /** Where each of `calls` was sent (eventItem), in the same order. */
  callsFrom: string[] = [];
  /** Vercel tool calls by id, to attach the output that follows. */
  vercelCalls = new Map<string, { tool: string; input: unknown; output: unknown; mocked: boolean }>();
  /** Where each of vercelCalls was begun or sent whole, by id (eventItem). */
  vercelFrom = new Map<string, string>();
  /** Vercel: the input text of calls begun by tool-input-start and not yet sent whole, by id. */
  vercelInputs = new Map<string, { text: string; encoding: 'json' | 'text' }>();
  /** Vercel: the calls the provider ran itself (`providerExecuted`: its web search, code execution), skipped. */
  vercelProvider = new Set<string>();
  /** Vercel (AI SDK 7): why a call's approval was refused (tool-approval-response's reason), by call id; '' when none was said (deniedOutput). */
  vercelDenied = new Map<string, string>();
  /** Vercel (AI SDK 7): the call each approval asked about (tool-approval-request), by approval id. */
  vercelApprovals = new Map<string, string>();
  /** Vercel: where the current step's text starts, and the calls it added: what a `reset-step` drops. */
  vercelStepText = 0;
  vercelStepCalls: string[] = [];
  /** Why the model stopped, as the stream said (a finish_reason, finishReason, stop_reason, Mastra's stepResult.reason); null: not said. */
  stopReason: string | null = null;
  /** Responses: the message item the last text delta belonged to. */
  responsesItem: string | null = null;
  /**
   * Responses tool items by item id (or output index when an item has none), in output order: begun
   * by output_item.added, their arguments joined from the deltas, replaced whole by output_item.done
   * and by response.completed's output, each recorded once however many of these came.
   */
  responsesCalls = new Map<string, Record<string, unknown>>();
  /** Where each of responsesCalls was last sent whole, by the same key (eventItem). */
  responsesFrom = new Map<string, string>();
  /** Responses: the `response.created` events so far; an item without an id is keyed by its response's. */
  responsesRun = 0;
  /** Vercel and Mastra: whether the current step has sent text yet (its first text follows an earlier step's after a blank line, stepText). */
  stepSaid = false;
  /** The last LangGraph `values` event: the state the reply is read from, and its number. */
  lastValues: unknown = undefined;
  lastValuesAt = 0;
  /**
   * LangGraph: the run's messages as its events sent them so far (a `values` event's list, then the
   * messages `updates` and `messages` events add or grow, by id): what a stream cut short had begun (streamSoFar).
   */
  graphMessages: GraphMessage[] = [];
  /** Tokens the stream reported (docs/latency.md, "Usage"): the last report wins, each format's totals being cumulative. */
  usage: UsageRead = NO_USAGE;
  /** Anthropic: message_start's usage, which message_delta's cumulative counts update. */
  anthropicUsage: Record<string, unknown> | null = null;
  /** Anthropic: message_delta's `stop_details` when it stopped with `stop_reason: "refusal"`; undefined otherwise. */
  anthropicRefusal: unknown = undefined;
  /** Mastra tool calls by id, to attach the result that follows. */
  mastraCalls = new Map<string, { tool: string; input: unknown; output: unknown; mocked: boolean }>();
  /** Where each of mastraCalls was begun or sent whole, by id (eventItem). */
  mastraFrom = new Map<string, string>();
  /** Mastra: the argument text of calls begun by tool-call-input-streaming-start and not yet sent whole, by id. */
  mastraInputs = new Map<string, string>();
  /**
   * Events that are JSON objects of no known format, read by config.yml's reply path when it gives
   * one: the strings there joined (undefined: no event had one) and the last such event.
   */
  byPath: { reply: string | undefined; last: unknown; textAt?: string } | null = null;
  /** While no event had a string at the reply path: the likeliest text of the events so far (textAtOf). */
  byPathText: LikelyText | null = null;
  /** config.yml's tool-call path read on each such event, joined (JoinedCalls). */
  byPathCalls = new JoinedCalls();
  /** config.yml's tool-call path, read on each event of no known format; null: none given. */
  toolCallsPath: ReplyPath | null = null;
  /** What arrived, for the error when nothing could be read: the first distinct event types (or `data` text). */
  seen: string[] = [];
  /** The events parsed so far, keep-alives and `[DONE]` included: the number of the one being read, as the body shows it. */
  eventNumber = 0;
  /** Events that carried something: every event but keep-alives (KEEP_ALIVES, empty `data:`). */
  events = 0;
  /** Keep-alive events (`event: ping`, `{"type": "ping"}`, an empty `data:`, a plain `data: ping`): no text, no format. */
  pings = 0;
  /**
   * The plain `data: ping` events (isPlainKeepAlive) counted among the pings, their text joined:
   * the reply after all when the stream sent no other text or event (the agent may answer "ping").
   */
  plainPings = { count: 0, text: '' };
  /** config.yml's reply path, read on each event of no known format; null: none given. */
  replyPath: ReplyPath | null = null;
}

/** At most this many distinct event types are named in a "nothing could be read" error. */
const SEEN_NAMED = 6;

/** Event names (the `event:` field, or a JSON event's `type` or `event`) of keep-alives, which carry nothing. */
const KEEP_ALIVES = new Set(['ping', 'heartbeat', 'keepalive', 'keep-alive', 'keep_alive']);

/**
 * A keep-alive: an event named as one (Anthropic's `{"type": "ping"}`, a server's `event: ping` or
 * `heartbeat`), or an unnamed empty `data:`. It holds no text, decides no format and is no event of
 * the reply: a stream of nothing else carried no events (docs/presets.md, "Streamed replies").
 */
function isKeepAlive(ev: SseEvent, obj: unknown): boolean {
  // Dify names its JSON events by `event` (`{"event": "ping"}`), most servers by `type`.
  const name = ev.event ?? (isRecord(obj) && typeof obj.type === 'string' ? obj.type : isRecord(obj) && typeof obj.event === 'string' ? obj.event : null);
  if (name !== null) return KEEP_ALIVES.has(name.toLowerCase());
  return ev.data === '';
}

/**
 * A plain-text keep-alive: an unnamed event whose whole data is a keep-alive's name (`data: ping`,
 * `data: heartbeat`), as some servers send between the text's events. It is no text of the reply
 * when the stream sends anything else; a stream of nothing else is read as that text, since the
 * agent may have answered just "ping" (docs/presets.md, "Streamed replies").
 */
function isPlainKeepAlive(ev: SseEvent): boolean {
  return ev.event === null && KEEP_ALIVES.has(ev.data);
}

/** "only keep-alives: 2 comments, 1 ping": what a stream that carried no events held. */
function keepAlivesOf(state: StreamState, text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const comments = lines.filter((line) => line.startsWith(':')).length;
  // An `event: ping` with no data line (Dify's keep-alive) is no event to the parser (WHATWG): counted here.
  let bare = 0;
  let named: string | null = null;
  let data = false;
  for (const line of [...lines, '']) {
    if (line === '') {
      if (named !== null && !data && KEEP_ALIVES.has(named.toLowerCase())) bare += 1;
      named = null;
      data = false;
    } else if (line.startsWith('data:') || line === 'data') data = true;
    else if (line.startsWith('event:')) named = line.slice(6).replace(/^ /, '');
  }
  const pingCount = state.pings + bare;
  const pings = [...(comments > 0 ? [`${comments} comment${comments === 1 ? '' : 's'}`] : []), ...(pingCount > 0 ? [`${pingCount} ping${pingCount === 1 ? '' : 's'}`] : [])];
  const parts = [...(pings.length > 0 ? [`keep-alives: ${pings.join(', ')}`] : []), ...(state.ended ? ['data: [DONE]'] : [])];
  return parts.length === 0 ? 'an empty body' : `only ${parts.join('; ')}`;
}

function noteSeen(state: StreamState, ev: SseEvent, obj: unknown): void {
  state.events += 1;
  // The agent's words (a type, an event's name, keys), each bounded on the error's line (shownName).
  const name = isRecord(obj) && typeof obj.type === 'string' ? shownName(obj.type) : ev.event !== null ? shownName(ev.event) : isRecord(obj) ? `{${Object.keys(obj).slice(0, 4).map(shownName).join(', ')}}` : ev.data === '' ? 'empty data' : 'text';
  if (state.seen.length < SEEN_NAMED && !state.seen.includes(name)) state.seen.push(name);
}

/** The reasons a model stops at the end of its answer or to run a tool, in each format: not named. */
const USUAL_STOPS = new Set(['stop', 'tool_calls', 'function_call', 'tool-calls', 'end_turn', 'tool_use', 'stop_sequence', 'pause_turn', 'unknown']);

/**
 * Why a stream with nothing to read stopped, when the model said it stopped for another reason
 * than the end of its answer (a content filter, the output token limit, an error): the cause the
 * error names instead of leaving the stream to look empty (docs/presets.md, "Streamed replies").
 */
function stoppedBecause(reason: string | null): string {
  if (reason === null || USUAL_STOPS.has(reason)) return '';
  return ` that stopped with reason "${clip(reason)}"${reason === 'length' || reason === 'max_tokens' ? ' (the output token limit)' : /filter/.test(reason) ? ' (a content filter)' : ''}`;
}

/** "3 events: start, finish" — what a stream held, for its error. */
function arrived(state: StreamState): string {
  if (state.events === 0) return 'no events';
  return `${state.events} event${state.events === 1 ? '' : 's'}: ${state.seen.join(', ')}${state.seen.length === SEEN_NAMED ? ', …' : ''}`;
}

/** Reads the reply path config.yml gives (`agent.response.reply`) in one event's JSON. */
export type ReplyPath = (event: unknown) => unknown;

/**
 * A stream whose events are JSON objects of no known format, read by config.yml's reply path: the
 * strings at the path joined (undefined: no event had one) and the last event, from which the other
 * fields are read, as an NDJSON answer's are (decodeNdjson).
 */
export interface ReadByPath {
  ok: true;
  byPath: { reply: string | undefined; last: unknown; toolCalls: unknown; textAt?: string };
  /** Where each of the joined tool calls came from (JoinedCalls). */
  toolCallsFrom: ToolCallsFrom;
}

/**
 * A decoded stream, or why it failed; `noEvents`: it carried no event at all (only keep-alives), so
 * no reply path or format was wrong.
 */
export type StreamDecoded = DecodeResult | { ok: false; error: string; read: DecodedReply; noEvents: true } | { ok: false; error: string; cut: CutStream };

/**
 * What a stream that ended early had sent of its tool calls (docs/presets.md, "Streamed replies"):
 * each call begun, its arguments as far as they came, and where each was sent; the turn is errored,
 * and a fixture's record keeps them.
 */
export interface CutStream {
  toolCalls: unknown[];
  toolCallItems: string[];
}

/**
 * Decodes an event-stream body into `{reply, toolCalls}`, or says why the stream failed. With
 * `replyPath` (config.yml gives `agent.response.reply`), a stream whose events are JSON objects of
 * no known format is read by that path on each event (docs/presets.md, "Streamed replies");
 * without one, the error's fix names `file`, the suite's config file (Suite.configName).
 */
export function decodeEventStream(text: string): StreamDecoded;
export function decodeEventStream(text: string, replyPath: ReplyPath | undefined, toolCallsPath?: ReplyPath, file?: string): StreamDecoded | ReadByPath;
export function decodeEventStream(text: string, replyPath?: ReplyPath, toolCallsPath?: ReplyPath, file: string = NEW_CONFIG_NAME): StreamDecoded | ReadByPath {
  const state = new StreamState();
  state.replyPath = replyPath ?? null;
  state.toolCallsPath = toolCallsPath ?? null;
  for (const ev of parseEventStream(text)) {
    onEvent(state, ev);
    if (state.error !== null) return { ok: false, error: state.error };
  }
  // Nothing but plain `data: ping` events (and other keep-alives): their text is the reply, as the
  // agent may have answered just that; among any other event they were keep-alives (isPlainKeepAlive).
  if (state.format === null && state.events === 0 && state.plainPings.count > 0) {
    state.format = 'plain';
    state.text = state.plainPings.text;
    state.events = state.plainPings.count;
    state.pings -= state.plainPings.count;
    state.seen.push('text');
  }
  // No event of a known format and no plain text: the events are the agent's own JSON.
  if (state.format === null && state.byPath !== null) return { ok: true, byPath: { ...state.byPath, toolCalls: state.byPathCalls.value() }, toolCallsFrom: state.byPathCalls.origins() };
  const format = state.format ?? 'plain';
  if (format === 'langgraph') {
    if (state.lastValues === undefined) return { ok: false, error: 'the LangGraph stream sent no values event (stream it with stream_mode "values")' };
    const decoded = decodeLangGraph(state.lastValues);
    // Its calls are where the last values event holds them.
    if (!decoded.ok || decoded.value.toolCallItems === undefined) return decoded;
    return { ok: true, value: { ...decoded.value, toolCallItems: decoded.value.toolCallItems.map((item) => `${item} on stream event ${state.lastValuesAt} (values)`) } };
  }
  const placed = placedCalls(state);
  const toolCalls = placed.map((p) => p.call);
  // Where each call was sent, which an error about it names instead of its place in this list (docs/presets.md, "Streamed replies").
  const toolCallItems = placed.length === 0 ? {} : { toolCallItems: placed.map((p) => p.from) };
  if (format !== 'plain' && !state.ended) {
    const { said, cut } = cutOf(state, format);
    return { ok: false, error: `the stream ended early: no ${END_EVENT[format]} event (${said})`, cut };
  }
  // A Responses or Anthropic stream's items may be results or skipped items alone (a web search): no call (decode.ts, holdsACall).
  if (state.text === '' && (toolCalls.length === 0 || ((format === 'openai-responses' || format === 'anthropic') && !holdsACall(toolCalls)))) {
    const read = { reply: undefined, toolCalls: format === 'plain' ? null : toolCalls, ...(format === 'plain' ? {} : toolCallItems), ...usageField(state.usage) };
    if (state.anthropicRefusal !== undefined) return { ok: false, error: anthropicRefusal(state.anthropicRefusal), read };
    // Only keep-alives (comments, pings) or nothing: no event came that any path or format could read.
    if (state.events === 0) {
      return { ok: false, error: `no reply text and no tool call could be read from the stream: it carried no events (${keepAlivesOf(state, text)}); the agent ended the stream without answering`, read, noEvents: true };
    }
    // Every event a JSON object of no known format: the agent's own, which a reply path of config.yml's reads (docs/presets.md, "Streamed replies").
    if (state.format === null && state.events > 0) {
      return { ok: false, error: `no reply text and no tool call could be read from the stream (JSON events of no known format, ${arrived(state)}): set agent.response.reply in ${file} to the path of the text in each event`, read };
    }
    const what = format === 'plain' ? 'a stream of plain data' : `a ${format} stream${stoppedBecause(state.stopReason)}`;
    return { ok: false, error: `no reply text and no tool call could be read from the stream (${what}, ${arrived(state)})`, read };
  }
  // Plain text reports no tool calls (null: not reported); the vendor formats do (none is []).
  return { ok: true, value: { reply: state.text, toolCalls: format === 'plain' ? null : toolCalls, ...(format === 'plain' ? {} : toolCallItems), ...usageField(state.usage) } };
}

/** Every call the stream sent, and where each was sent (eventItem), in the order the record lists them. */
function placedCalls(state: StreamState): { call: unknown; from: string }[] {
  return [
    ...state.calls.map((call, i) => ({ call, from: state.callsFrom[i]! })),
    ...[...state.responsesCalls.entries()].map(([key, call]) => ({ call, from: state.responsesFrom.get(key)! })),
    ...[...state.chatCalls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => ({ call: { type: 'function', ...(c.id === undefined ? {} : { id: c.id }), function: { name: c.name, arguments: c.arguments } }, from: c.from })),
    ...[...state.vercelCalls.entries()].map(([id, call]) => ({ call, from: state.vercelFrom.get(id)! })),
    ...[...state.mastraCalls.entries()].map(([id, call]) => ({ call, from: state.mastraFrom.get(id)! })),
  ];
}

/**
 * What a stream of a vendor's format that stopped before its end event had sent: "anthropic stream,
 * 9 characters received, 2 tool calls begun: track_order, refund", and the calls begun. Every call
 * begun is kept as received, an Anthropic tool_use block still open among them (its input the JSON
 * so far); one the tool-call reader refuses is named by where it was sent, the others kept: the turn
 * is errored, and the record keeps them (docs/presets.md, "Streamed replies").
 */
function cutOf(state: StreamState, format: Exclude<Format, 'plain' | 'langgraph'>): { said: string; cut: CutStream } {
  const placed = placedCalls(state);
  const got = textReceived(state.text);
  const open = [...state.blocks.values()].map((b) => ({ call: { type: b.type, ...(typeof b.id === 'string' ? { id: b.id } : {}), name: b.name, input: b.json === '' ? b.input : parseJsonText(b.json) }, from: b.from }));
  const cut = { toolCalls: [...placed.map((p) => p.call), ...open.map((o) => o.call)], toolCallItems: [...placed.map((p) => p.from), ...open.map((o) => o.from)] };
  return { said: `${format} stream, ${got} received${begunCalls(cut)}`, cut };
}

/**
 * A stream as far as it came, when its body broke off, its deadline came or the run was interrupted
 * while it was still coming (docs/presets.md, "Streamed replies"): what it had sent, and the calls it
 * had begun, as an early end says them (cutOf). A LangGraph run stream's are those of the messages
 * its `values`, `updates` and `messages` events had sent (graphCut); the agent's own JSON's, those at
 * config.yml's tool-call path (`toolCallsName`) on its events so far (ownCut). Null: plain text,
 * which carries no tool calls, or nothing of a format read.
 */
export function streamSoFar(text: string, replyPath?: ReplyPath, toolCallsPath?: ReplyPath, toolCallsName?: string): { said: string; cut: CutStream } | null {
  const state = new StreamState();
  state.replyPath = replyPath ?? null;
  state.toolCallsPath = toolCallsPath ?? null;
  for (const ev of parseEventStream(text)) {
    onEvent(state, ev);
    if (state.error !== null) break;
  }
  const format = state.format;
  if (format === null && state.byPath !== null) return ownCut(state, toolCallsName ?? 'toolCalls');
  if (format === 'langgraph') return graphCut(state);
  if (format === null || format === 'plain') return null;
  return cutOf(state, format);
}

/** "no text", "9 characters", "1,234 characters": the reply text a cut stream had sent, its count grouped as every count (src/words.ts). */
function textReceived(text: string): string {
  return text.length === 0 ? 'no text' : plural(text.length, 'character', 'characters');
}

/**
 * A stream of the agent's own JSON cut short: the text read by config.yml's reply path so far, and
 * the calls at its tool-call path joined over the events (JoinedCalls), each named by that path and
 * the event that sent it (`"delta.tool_calls.0" on stream event 3`).
 */
function ownCut(state: StreamState, toolCallsName: string): { said: string; cut: CutStream } {
  const value = state.byPathCalls.value();
  const from = state.byPathCalls.origins().items;
  const toolCalls = Array.isArray(value) ? value : [];
  const toolCallItems = toolCalls.map((_, i) => {
    const at = from[i];
    return at === undefined ? `"${toolCallsName}"` : `"${toolCallsName}.${at.index}" on ${at.unit}`;
  });
  const cut = { toolCalls, toolCallItems };
  return { said: `a stream of the agent's own JSON, ${textReceived(state.byPath?.reply ?? '')} received${begunCalls(cut)}`, cut };
}

/**
 * A LangGraph run stream cut short: its messages so far read as a whole state is (decodeLangGraph),
 * the calls of the run's last turn begun (their arguments as far as they came), each named by where
 * its message was sent (`"agent.messages.0.tool_calls.0" on stream event 3 (updates)`).
 */
function graphCut(state: StreamState): { said: string; cut: CutStream } {
  const decoded = decodeLangGraph({ messages: state.graphMessages.map((g) => g.message) });
  const read = decoded.ok ? decoded.value : { reply: undefined, toolCalls: [], toolCallItems: [] };
  const toolCallItems = (read.toolCallItems ?? []).map((item) => {
    const m = /^"messages\.(\d+)\.(.*)"$/.exec(item);
    const g = m === null ? undefined : state.graphMessages[Number(m[1])];
    if (m === null || g === undefined) return item;
    // A message streamed in chunks: its calls are its chunks' tool_call_chunks, from its first event on.
    return g.chunks === undefined ? `"${g.path}.${m[2]!}" on ${g.event}` : `"${g.path}.tool_call_chunks" on ${g.event}`;
  });
  const cut = { toolCalls: read.toolCalls ?? [], toolCallItems };
  return { said: `langgraph stream, ${textReceived(read.reply ?? '')} received${begunCalls(cut)}`, cut };
}

/**
 * A LangGraph run stream's event, for its messages so far (StreamState.graphMessages): a `values`
 * event's state replaces them; an `updates` event's node outputs (`{agent: {messages: [...]}}`) and
 * `messages/partial` or `messages/complete` lists add each message, or replace the one of its id; a
 * `messages` event (`[chunk, metadata]`) grows the message of its id, its `tool_call_chunks` joined.
 */
function onGraphEvent(state: StreamState, name: string, obj: unknown): void {
  const mode = name.split('|')[0]!;
  const type = name === mode ? mode : name;
  const event = eventItem(state, null, type);
  if (mode === 'values') {
    if (!isRecord(obj) || !Array.isArray(obj.messages)) return;
    state.graphMessages = obj.messages.flatMap((m: unknown, i) => (isRecord(m) ? [{ id: typeof m.id === 'string' ? m.id : null, message: m, path: `messages.${i}`, event }] : []));
  } else if (mode === 'updates') {
    if (!isRecord(obj)) return;
    for (const [node, update] of Object.entries(obj)) {
      if (!isRecord(update)) continue;
      const messages = Array.isArray(update.messages) ? update.messages : isRecord(update.messages) ? [update.messages] : [];
      const listed = Array.isArray(update.messages);
      messages.forEach((m: unknown, i) => {
        if (isRecord(m)) putGraphMessage(state, m, listed ? `${node}.messages.${i}` : `${node}.messages`, event);
      });
    }
  } else if (mode === 'messages/partial' || mode === 'messages/complete') {
    if (Array.isArray(obj)) obj.forEach((m: unknown, i) => isRecord(m) && putGraphMessage(state, m, String(i), event));
  } else if (mode === 'messages') {
    const chunk = Array.isArray(obj) ? obj[0] : undefined;
    if (isRecord(chunk)) growGraphMessage(state, chunk, event);
  }
}

/** A whole message: replaces the one of its id, else is added. */
function putGraphMessage(state: StreamState, m: Record<string, unknown>, path: string, event: string): void {
  const id = typeof m.id === 'string' ? m.id : null;
  const at = id === null ? -1 : state.graphMessages.findIndex((g) => g.id === id);
  const entry = { id, message: m, path, event };
  if (at === -1) state.graphMessages.push(entry);
  else state.graphMessages[at] = entry;
}

/**
 * A `messages` event's chunk (`AIMessageChunk`): its text and `tool_call_chunks` (`{index, id, name,
 * args}`, the args in pieces) join the message of its id, whose calls are the pieces so far, their
 * args parsed when they are whole JSON (else the text as far as it came); a message sent whole there
 * (a tool's, or one a node did not stream) is put as it is.
 */
function growGraphMessage(state: StreamState, chunk: Record<string, unknown>, event: string): void {
  const streamed = Array.isArray(chunk.tool_call_chunks) || (typeof chunk.type === 'string' && chunk.type.endsWith('Chunk'));
  if (!streamed || (typeof chunk.type === 'string' && chunk.type !== 'ai' && !chunk.type.startsWith('AI'))) {
    putGraphMessage(state, chunk, '0', event);
    return;
  }
  const id = typeof chunk.id === 'string' ? chunk.id : null;
  let g = id === null ? undefined : state.graphMessages.find((m) => m.id === id && m.chunks !== undefined);
  if (g === undefined) {
    g = { id, message: { type: 'ai', content: '', tool_calls: [] }, path: '0', event, chunks: new Map() };
    state.graphMessages.push(g);
  }
  const chunks = g.chunks!;
  if (typeof chunk.content === 'string') g.message.content = `${String(g.message.content)}${chunk.content}`;
  // Content as blocks (a model of Anthropic's through LangChain): their text is the message's text,
  // counted in a cut stream's "N characters received" (a tool_use or input_json_delta block has none).
  else if (Array.isArray(chunk.content)) g.message.content = `${String(g.message.content)}${chunkBlocksText(chunk.content)}`;
  for (const [j, piece] of (Array.isArray(chunk.tool_call_chunks) ? chunk.tool_call_chunks : []).entries()) {
    if (!isRecord(piece)) continue;
    const index = typeof piece.index === 'number' ? piece.index : j;
    const call = chunks.get(index) ?? { name: '', args: '' };
    if (typeof piece.name === 'string' && piece.name !== call.name) call.name += piece.name;
    if (typeof piece.args === 'string') call.args += piece.args;
    if (call.id === undefined && typeof piece.id === 'string') call.id = piece.id;
    chunks.set(index, call);
  }
  g.message.tool_calls = [...chunks.values()].map((c) => ({ name: c.name, args: c.args === '' ? {} : parseJsonText(c.args), ...(c.id === undefined ? {} : { id: c.id }) }));
}

/** The text of a message chunk's content blocks: strings, and `text` (or a delta's `text_delta`) blocks' text. */
function chunkBlocksText(blocks: unknown[]): string {
  return blocks.map((b) => (typeof b === 'string' ? b : isRecord(b) && (b.type === 'text' || b.type === 'text_delta') && typeof b.text === 'string' ? b.text : '')).join('');
}

/** At most this many tool names are named in an early end's message. */
const BEGUN_NAMED = 5;

/**
 * ", 2 tool calls begun: track_order, refund": the calls a stream cut early had begun, by name when
 * the reader reads them; one it refuses is counted apart and the first such named by where it was
 * sent, with what it is (", 2 tool calls begun: track_order, 1 unreadable; \"content_block\" on
 * stream event 5 (content_block_start) is not a tool call: ..."), the others kept (decodeEachToolCall).
 */
function begunCalls(cut: CutStream): string {
  if (cut.toolCalls.length === 0) return '';
  const read = decodeEachToolCall(cut.toolCalls);
  const names = read.value.length > 0 ? `: ${read.value.slice(0, BEGUN_NAMED).map((c) => clip(c.tool)).join(', ')}${read.value.length > BEGUN_NAMED ? ', …' : ''}` : '';
  const first = read.refused[0];
  const refused = first === undefined ? '' : `${names === '' ? ':' : ','} ${read.refused.length} unreadable; ${cut.toolCallItems[first.index] ?? `call ${first.index + 1}`} is not a tool call: expected ${TOOL_CALL_SHAPES} (found ${first.found})`;
  return `, ${cut.toolCalls.length} tool call${cut.toolCalls.length === 1 ? '' : 's'} begun${names}${refused}`;
}

/**
 * An entry of a vendor's stream as the user finds it in the body: the path in the event's JSON and
 * the event, counted from the stream's first, keep-alives included, with the event's type when it
 * has one (`"content_block" on stream event 4 (content_block_start)`); without a path, the event itself.
 */
function eventItem(state: StreamState, path: string | null, type?: unknown): string {
  const event = `stream event ${state.eventNumber}${typeof type === 'string' ? ` (${type})` : ''}`;
  return path === null ? event : `"${path}" on ${event}`;
}

function onEvent(state: StreamState, ev: SseEvent): void {
  state.eventNumber += 1;
  if (ev.data === '[DONE]') {
    state.ended = true;
    return;
  }
  let obj: unknown;
  try {
    obj = JSON.parse(ev.data);
  } catch {
    obj = undefined;
  }
  // A line of the text sent without its own `data:` (a chunk holding a newline written as one
  // `data: ${chunk}` line): every reader drops it, so the reply would lack it (docs/presets.md, "Streamed replies").
  if (ev.stray !== undefined && !isRecord(obj) && (state.format === null || state.format === 'plain')) {
    state.error = `stream event ${state.eventNumber} holds a line that is no event-stream field (${shownJson(ev.stray.length <= 60 ? ev.stray : `${headOf(ev.stray, 59)}…`)}): a text chunk with a newline sent on one data: line, whose next lines every event-stream reader (agent-replay's, a browser's EventSource) drops, so the reply would lack them; send each line of a chunk as its own data: line`;
    return;
  }
  if (ev.event !== 'error' && !(isRecord(obj) && obj.type === 'error') && isKeepAlive(ev, obj)) {
    state.pings += 1;
    return;
  }
  if (isPlainKeepAlive(ev)) {
    state.pings += 1;
    state.plainPings.count += 1;
    state.plainPings.text += ev.data;
    return;
  }
  noteSeen(state, ev, obj);
  if (isRecord(obj) && (ev.event === 'error' || obj.type === 'error' || (obj.error !== undefined && obj.error !== null && formatOf(obj) === null))) {
    state.error = `the stream sent an error event: ${errorEventText(obj)}`;
    return;
  }
  // An `event: error` whose data is text, not an object (`event: error` / `data: Internal error`):
  // an error all the same, never text of the reply (docs/presets.md, "Streamed replies").
  if (ev.event === 'error') {
    state.error = `the stream sent an error event: ${clip(ev.data.replace(/\s+/g, ' ').trim()) || '(no message)'}`;
    return;
  }
  // Text read by config.yml's reply path makes the stream the agent's own: a later event that looks
  // like a known format's (a `{"type": "finish"}`, a `{"choices": []}`) is read by the path too, and
  // one that is not a JSON object adds nothing, so that the text read so far is kept (docs/presets.md, "Streamed replies").
  if (state.format === null && state.byPath !== null && state.byPath.reply !== undefined) {
    if (isRecord(obj)) readByPath(state, obj);
    return;
  }
  if (ev.event !== null && LANGGRAPH_EVENTS.has(ev.event.split('|')[0]!) && (state.format === null || state.format === 'langgraph')) {
    state.format = 'langgraph';
    if (ev.event === 'values') {
      state.lastValues = obj;
      state.lastValuesAt = state.eventNumber;
    }
    onGraphEvent(state, ev.event, obj);
    return;
  }
  const format = isRecord(obj) ? formatOf(obj) : null;
  if (format === null || !isRecord(obj)) {
    // A JSON object of no known format (a server's `{"status": "working"}`, its metadata) is no
    // text: skipped, as comments are, and named among the events a missing reply lists; it does not
    // make the stream plain text either (docs/presets.md, "Streamed replies"). With a reply path of
    // config.yml's, such events are the agent's own format: the string at the path is text.
    if (isRecord(obj)) {
      readByPath(state, obj);
      return;
    }
    // Not an event of a known format: plain text, appended as it comes, unless the stream is of a
    // known format (whose other events, such as metadata, carry no reply text).
    if (state.format === null || state.format === 'plain') {
      state.format = 'plain';
      state.text += ev.data;
    }
    return;
  }
  state.format ??= format;
  if (format === 'openai-chat') {
    onChatUsage(state, obj);
    onChatChunk(state, obj);
  }
  else if (format === 'openai-responses') onResponsesEvent(state, obj);
  else if (format === 'anthropic') onAnthropicEvent(state, obj);
  else if (format === 'mastra') onMastraChunk(state, obj);
  else onVercelPart(state, obj);
}

/** An event of the agent's own JSON: the string at config.yml's reply path joins the reply (none given: skipped). */
function readByPath(state: StreamState, obj: Record<string, unknown>): void {
  if (state.replyPath === null) return;
  const part = state.replyPath(obj);
  const joined = typeof part === 'string' ? (state.byPath?.reply ?? '') + part : state.byPath?.reply;
  if (joined === undefined) state.byPathText = betterText(state.byPathText, likelyText(obj, ''));
  state.byPath = { reply: joined, last: obj, ...textAtOf(joined, state.byPathText) };
  if (state.toolCallsPath !== null) state.byPathCalls.add(state.toolCallsPath(obj), `stream event ${state.eventNumber}`);
}

/** `chat.completion.chunk`: `choices[0].delta.content` and `delta.tool_calls[]` by index. */
function onChatChunk(state: StreamState, obj: Record<string, unknown>): void {
  const choice = Array.isArray(obj.choices) ? obj.choices[0] : undefined;
  if (!isRecord(choice)) return;
  const delta = isRecord(choice.delta) ? choice.delta : {};
  if (typeof delta.content === 'string') state.text += delta.content;
  // A refusal streams in its own field (content null): it is what the user reads, so it is the reply.
  if (typeof delta.refusal === 'string') state.text += delta.refusal;
  if (Array.isArray(delta.tool_calls)) {
    for (const [j, part] of delta.tool_calls.entries()) {
      if (!isRecord(part)) continue;
      const index = typeof part.index === 'number' ? indexedSlot(state, part.index, part.id) : unindexedSlot(state, part.id);
      const call = state.chatCalls.get(index) ?? { name: '', arguments: '', from: eventItem(state, `choices.0.delta.tool_calls.${j}`) };
      if (call.id === undefined && typeof part.id === 'string') call.id = part.id;
      const fn = isRecord(part.function) ? part.function : {};
      // The name comes once, or split across deltas; some servers (MiniMax through NVIDIA NIM,
      // Fireworks) send it whole in every delta, which the OpenAI SDK reads as the name again, not
      // a longer one: a delta that repeats the name so far adds nothing (docs/presets.md, "Presets").
      if (typeof fn.name === 'string' && fn.name !== call.name) call.name += fn.name;
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      state.chatCalls.set(index, call);
      state.chatLast = state.chatLast === null ? index : Math.max(state.chatLast, index);
    }
  }
  if (typeof choice.finish_reason === 'string') {
    state.ended = true;
    state.stopReason = choice.finish_reason;
  }
}

/**
 * Where a tool-call delta with an `index` goes: the call at that index, unless it brings an id other
 * than that call's, which starts the next call rather than its name and arguments being glued to the
 * last one's (docs/presets.md, "Presets").
 */
function indexedSlot(state: StreamState, index: number, id: unknown): number {
  const slot = state.chatSlots.get(index);
  if (slot === undefined && !state.chatCalls.has(index)) {
    state.chatSlots.set(index, index);
    return index;
  }
  const key = slot ?? index;
  const current = state.chatCalls.get(key)?.id;
  if (typeof id !== 'string' || current === undefined || id === current) return key;
  const next = (state.chatLast ?? -1) + 1;
  state.chatSlots.set(index, next);
  return next;
}

/**
 * Where a tool-call delta without an `index` goes (Gemini's OpenAI-compatible API sends none, each
 * parallel call whole with its own id): a new id starts the next call, a delta without one (or with
 * the same) continues the last; never every call merged into one (docs/presets.md, "Presets").
 */
function unindexedSlot(state: StreamState, id: unknown): number {
  const last = state.chatLast ?? -1;
  if (last === -1) return 0;
  const current = state.chatCalls.get(last)?.id;
  return typeof id === 'string' && current !== undefined && id !== current ? last + 1 : last;
}

/** `usage` of a chat chunk (the last one, with `stream_options.include_usage`; often `choices: []`). */
function onChatUsage(state: StreamState, obj: Record<string, unknown>): void {
  const read = readUsage(obj.usage);
  if (read.kind !== 'none') state.usage = read;
}

/** Responses streaming events: text deltas, finished tool call items, completion or failure. */
function onResponsesEvent(state: StreamState, obj: Record<string, unknown>): void {
  switch (obj.type) {
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      if (typeof obj.delta !== 'string' || obj.delta === '') return;
      // Another message item's text follows the last one's after a blank line, as a whole response's does (decodeOpenAIResponse).
      if (typeof obj.item_id === 'string') {
        if (state.responsesItem !== null && obj.item_id !== state.responsesItem && state.text !== '') state.text += '\n\n';
        state.responsesItem = obj.item_id;
      }
      state.text += obj.delta;
      return;
    case 'response.created':
      state.responsesRun += 1;
      return;
    case 'response.output_item.added':
    case 'response.output_item.done':
      // Every item but a message or reasoning goes to the tool-call reader, as a whole response's do
      // (decodeOpenAIResponse): a function call, a built-in or hosted tool's call, or an item it
      // reports. One begun (added) and never marked done is still the call, its arguments the deltas
      // joined; the done item replaces it (docs/presets.md, "Streamed replies").
      if (isRecord(obj.item) && isResponsesToolItem(obj.item)) setResponsesCall(state, responsesKey(state, obj.item.id, obj.output_index), { ...obj.item }, eventItem(state, 'item', obj.type));
      return;
    case 'response.function_call_arguments.delta':
    case 'response.custom_tool_call_input.delta': {
      const field = obj.type === 'response.function_call_arguments.delta' ? 'arguments' : 'input';
      const item = state.responsesCalls.get(responsesKey(state, obj.item_id, obj.output_index));
      if (item !== undefined && typeof obj.delta === 'string') item[field] = (typeof item[field] === 'string' ? item[field] : '') + obj.delta;
      return;
    }
    case 'response.function_call_arguments.done':
    case 'response.custom_tool_call_input.done': {
      const [field, type] = obj.type === 'response.function_call_arguments.done' ? ['arguments', 'function_call'] : ['input', 'custom_tool_call'];
      const key = responsesKey(state, obj.item_id, obj.output_index);
      const item = state.responsesCalls.get(key);
      if (typeof obj[field] !== 'string') return;
      if (item !== undefined) item[field] = obj[field];
      // No output_item.added before it (a server that sends only these): the call as the event names it.
      else if (typeof obj.name === 'string') setResponsesCall(state, key, { type, ...(typeof obj.item_id === 'string' ? { id: obj.item_id } : {}), name: obj.name, [field]: obj[field] }, eventItem(state, null, obj.type));
      return;
    }
    case 'response.completed': {
      state.ended = true;
      const response = isRecord(obj.response) ? obj.response : {};
      // The response's output is every item whole: a server may send it alone, without item events;
      // an item already read is replaced by its final form, never added again.
      if (Array.isArray(response.output)) {
        response.output.forEach((item: unknown, i) => {
          if (isRecord(item) && isResponsesToolItem(item)) setResponsesCall(state, responsesKey(state, item.id, i), item, eventItem(state, `response.output.${i}`, obj.type));
        });
      }
      const read = readUsage(response.usage);
      if (read.kind !== 'none') state.usage = read;
      return;
    }
    case 'response.failed': {
      const response = isRecord(obj.response) ? obj.response : {};
      state.error = `the stream reported response.failed: ${errorText(response.error)}`;
      return;
    }
    case 'response.incomplete': {
      const response = isRecord(obj.response) ? obj.response : {};
      const details = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
      state.error = `the stream reported response.incomplete${typeof details === 'string' ? ` (${details})` : ''}`;
      return;
    }
  }
}

/** A Responses item read whole, and where it was (an item read again is kept in its last form, named where that came). */
function setResponsesCall(state: StreamState, key: string, item: Record<string, unknown>, from: string): void {
  state.responsesCalls.set(key, item);
  state.responsesFrom.set(key, from);
}

/**
 * A Responses item's key in StreamState.responsesCalls: its id, or, when it has none, its output
 * index in the response being streamed (a stream relaying several responses numbers each from 0).
 */
function responsesKey(state: StreamState, id: unknown, outputIndex: unknown): string {
  return typeof id === 'string' ? `id:${id}` : `index:${state.responsesRun}:${typeof outputIndex === 'number' ? outputIndex : -1}`;
}

/** Anthropic message stream: text_delta into the reply, tool_use blocks with input_json_delta. */
function onAnthropicEvent(state: StreamState, obj: Record<string, unknown>): void {
  const index = typeof obj.index === 'number' ? obj.index : -1;
  switch (obj.type) {
    case 'content_block_start': {
      const block = isRecord(obj.content_block) ? obj.content_block : {};
      if ((block.type === 'tool_use' || block.type === 'mcp_tool_use' || block.type === 'server_tool_use') && typeof block.name === 'string') {
        state.blocks.set(index, { type: block.type, id: block.id, name: block.name, input: block.input ?? null, json: '', from: eventItem(state, 'content_block', obj.type) });
      } else if (block.type === 'text') {
        if (typeof block.text === 'string') state.text += block.text;
      } else if (!ANTHROPIC_NOT_TOOLS.has(String(block.type))) {
        // A tool's result block (it comes whole) or a block the tool-call reader reports, as a whole message's (decodeAnthropicMessage).
        state.calls.push(block);
        state.callsFrom.push(eventItem(state, 'content_block', obj.type));
      }
      return;
    }
    case 'content_block_delta': {
      const delta = isRecord(obj.delta) ? obj.delta : {};
      if (delta.type === 'text_delta' && typeof delta.text === 'string') state.text += delta.text;
      else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
        const block = state.blocks.get(index);
        if (block) block.json += delta.partial_json;
      }
      return;
    }
    case 'content_block_stop': {
      const block = state.blocks.get(index);
      if (!block) return;
      state.blocks.delete(index);
      state.calls.push({ type: block.type, ...(typeof block.id === 'string' ? { id: block.id } : {}), name: block.name, input: block.json === '' ? block.input : parseJsonText(block.json) });
      state.callsFrom.push(block.from);
      return;
    }
    case 'message_start': {
      const usage = isRecord(obj.message) ? obj.message.usage : undefined;
      state.anthropicUsage = isRecord(usage) ? { ...usage } : null;
      state.usage = readUsage(usage);
      return;
    }
    case 'message_delta': {
      if (isRecord(obj.delta) && obj.delta.stop_reason === 'refusal') state.anthropicRefusal = obj.delta.stop_details ?? null;
      if (isRecord(obj.delta) && typeof obj.delta.stop_reason === 'string') state.stopReason = obj.delta.stop_reason;
      // Cumulative counts: a number here replaces message_start's (a null leaves it).
      if (!isRecord(obj.usage)) return;
      const merged: Record<string, unknown> = { ...(state.anthropicUsage ?? {}) };
      // Defined, never assigned: a key is the agent's, and `__proto__` would set the prototype, whose
      // counts the usage schema would then read as if sent (docs/latency.md, "Usage: tokens reported").
      for (const [key, value] of Object.entries(obj.usage)) if (value !== null && value !== undefined) Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
      state.anthropicUsage = merged;
      state.usage = readUsage(merged);
      return;
    }
    case 'message_stop':
      state.ended = true;
      return;
  }
}

/**
 * Vercel AI SDK 5 UI message stream parts. A tool with an output ran on the server (a real call);
 * so did one whose execute threw (`tool-output-error`: output `{error}`); one with neither is a
 * client-side tool the caller was asked to run (nothing ran: mocked), and so is an invalid call
 * (`tool-input-error`: nothing ran, output `{error}`).
 */
function onVercelPart(state: StreamState, obj: Record<string, unknown>): void {
  // A tool the provider ran in its own sandbox (`providerExecuted`: OpenAI's web search, Anthropic's
  // code execution) is skipped, as the other presets skip such tools: it touches nothing of yours and
  // no mock could answer it. Any of its parts may say so; the call goes, and stays gone (docs/presets.md, "Presets").
  if (typeof obj.toolCallId === 'string' && (obj.providerExecuted === true || state.vercelProvider.has(obj.toolCallId))) {
    state.vercelProvider.add(obj.toolCallId);
    state.vercelCalls.delete(obj.toolCallId);
    state.vercelInputs.delete(obj.toolCallId);
    return;
  }
  switch (obj.type) {
    case 'text-delta':
      if (typeof obj.delta === 'string') stepText(state, obj.delta);
      return;
    case 'start-step':
      state.vercelStepText = state.text.length;
      state.vercelStepCalls = [];
      state.stepSaid = false;
      return;
    case 'reset-step':
      // AI SDK 7: the step is dropped and streamed again. Its client removes every part since the
      // step's start-step (from the message's start without one): its text and the tool calls it
      // made; an output it brought for an earlier step's call stays with that call (docs/presets.md, "Streamed replies").
      state.text = state.text.slice(0, state.vercelStepText);
      for (const id of state.vercelStepCalls) {
        state.vercelCalls.delete(id);
        state.vercelInputs.delete(id);
      }
      state.vercelStepCalls = [];
      state.stepSaid = false;
      return;
    case 'tool-input-start':
      // The input streams in pieces after this (tool-input-delta), then comes whole
      // (tool-input-available). A call whose input never came whole (the stream stopped, or a route
      // that writes its own parts sent the output straight after the pieces) is still the one call,
      // its input the pieces joined (docs/presets.md, "Streamed replies").
      if (typeof obj.toolCallId === 'string' && typeof obj.toolName === 'string' && !state.vercelCalls.has(obj.toolCallId)) {
        addVercelCall(state, obj.toolCallId, eventItem(state, null, obj.type), { tool: obj.toolName, input: null, output: null, mocked: true });
        state.vercelInputs.set(obj.toolCallId, { text: '', encoding: obj.inputEncoding === 'text' ? 'text' : 'json' });
      }
      return;
    case 'tool-input-delta': {
      const pending = typeof obj.toolCallId === 'string' ? state.vercelInputs.get(obj.toolCallId) : undefined;
      const call = typeof obj.toolCallId === 'string' ? state.vercelCalls.get(obj.toolCallId) : undefined;
      if (pending === undefined || call === undefined || typeof obj.inputTextDelta !== 'string') return;
      pending.text += obj.inputTextDelta;
      call.input = pending.encoding === 'text' ? pending.text : parseJsonText(pending.text);
      return;
    }
    case 'tool-input-available':
      if (typeof obj.toolCallId === 'string') state.vercelInputs.delete(obj.toolCallId);
      if (typeof obj.toolCallId === 'string' && typeof obj.toolName === 'string') {
        addVercelCall(state, obj.toolCallId, eventItem(state, null, obj.type), { tool: obj.toolName, input: obj.input ?? null, output: null, mocked: true });
      }
      return;
    case 'tool-input-error':
      // The model called a tool with input its schema refused, or one the route does not have (the
      // AI SDK's invalid tool call, sent instead of tool-input-available): a call all the same, as
      // the chat shows it, but nothing ran (no side effect), its error the output (docs/presets.md, "Presets").
      if (typeof obj.toolCallId === 'string') state.vercelInputs.delete(obj.toolCallId);
      if (typeof obj.toolCallId === 'string' && typeof obj.toolName === 'string') {
        addVercelCall(state, obj.toolCallId, eventItem(state, null, obj.type), { tool: obj.toolName, input: obj.input ?? null, output: { error: typeof obj.errorText === 'string' ? obj.errorText : 'the tool input was invalid' }, mocked: true });
      }
      return;
    case 'tool-output-available': {
      const call = typeof obj.toolCallId === 'string' ? state.vercelCalls.get(obj.toolCallId) : undefined;
      if (call) {
        call.output = obj.output ?? null;
        call.mocked = false;
      }
      return;
    }
    case 'tool-output-error': {
      // The server ran the tool and it threw: a real call (never answered by a mock), its error kept.
      const call = typeof obj.toolCallId === 'string' ? state.vercelCalls.get(obj.toolCallId) : undefined;
      if (call) {
        call.output = { error: typeof obj.errorText === 'string' ? obj.errorText : 'the tool failed' };
        call.mocked = false;
      }
      return;
    }
    case 'tool-approval-request':
      // AI SDK 7: the call waits for an approval; a refusal (tool-approval-response) may say why.
      if (typeof obj.approvalId === 'string' && typeof obj.toolCallId === 'string') state.vercelApprovals.set(obj.approvalId, obj.toolCallId);
      return;
    case 'tool-approval-response': {
      const id = typeof obj.approvalId === 'string' ? state.vercelApprovals.get(obj.approvalId) : undefined;
      if (id !== undefined && obj.approved === false) state.vercelDenied.set(id, typeof obj.reason === 'string' ? obj.reason : '');
      return;
    }
    case 'tool-output-denied': {
      // AI SDK 7: the call's approval was refused, so it never ran: a call all the same, as the chat
      // shows it, with nothing run (no side effect), its output saying it was denied and why, when
      // the stream said (docs/presets.md, "Presets").
      const call = typeof obj.toolCallId === 'string' ? state.vercelCalls.get(obj.toolCallId) : undefined;
      if (call) {
        call.output = deniedOutput('tool-output-denied', state.vercelDenied.get(obj.toolCallId as string));
        call.mocked = true;
      }
      return;
    }
    case 'abort':
      // AI SDK 7 says why (`reason`: the route's abort signal's reason, a step or time limit).
      state.error = `the stream was aborted by the agent (an abort part${typeof obj.reason === 'string' && obj.reason.trim() !== '' ? `: ${clip(obj.reason.replace(/\s+/g, ' ').trim())}` : ''})`;
      return;
    case 'finish':
      state.ended = true;
      if (typeof obj.finishReason === 'string') state.stopReason = obj.finishReason;
      onVercelMetadata(state, obj);
      return;
    case 'start':
    case 'message-metadata':
      onVercelMetadata(state, obj);
      return;
  }
}

/** A Vercel tool call by its id; one the current step adds is the step's (a `reset-step` drops it). */
function addVercelCall(state: StreamState, id: string, from: string, call: { tool: string; input: unknown; output: unknown; mocked: boolean }): void {
  if (!state.vercelCalls.has(id)) state.vercelStepCalls.push(id);
  state.vercelCalls.set(id, call);
  state.vercelFrom.set(id, from);
}

/**
 * A step's text (Vercel's text-delta, Mastra's). Each step is a call of the model; the text of a
 * step after an earlier step's (a reply before a tool call and the one after it) is another part of
 * the message, shown apart by the chat: the two are joined with a blank line, not run together; the
 * parts of one step run on as sent (docs/presets.md, "Streamed replies").
 */
function stepText(state: StreamState, text: string): void {
  if (text === '') return;
  if (!state.stepSaid && state.text !== '') state.text += '\n\n';
  state.stepSaid = true;
  state.text += text;
}

/**
 * Mastra agent stream chunks (`@mastra/core` ChunkType: `{type, runId, from, payload}`, sent as
 * `data:` events and closed by `data: [DONE]`): `text-delta` payload text (each step's apart,
 * stepText), `tool-call` /
 * `tool-result` payloads (a call with a result ran on the server: a real call), `finish` with the
 * run's usage in `payload.output.usage`; `error` and `tripwire` (a processor stopped the run) fail the turn.
 */
function onMastraChunk(state: StreamState, obj: Record<string, unknown>): void {
  const payload = isRecord(obj.payload) ? obj.payload : {};
  switch (obj.type) {
    case 'text-delta':
      if (typeof payload.text === 'string') stepText(state, payload.text);
      return;
    case 'step-start':
    case 'step-finish':
      // A step (a call of the model) begins or ends: the next step's text is shown apart, as
      // @mastra/react and a chatRoute's chat show it (docs/frameworks/mastra.md, "What each check needs").
      state.stepSaid = false;
      return;
    case 'tool-call-input-streaming-start':
      // The arguments stream in pieces (tool-call-delta), then the call comes whole (tool-call): a
      // call whose whole never came is still the one call, its input the pieces joined (docs/presets.md, "Streamed replies").
      if (typeof payload.toolCallId === 'string' && typeof payload.toolName === 'string' && !state.mastraCalls.has(payload.toolCallId)) {
        state.mastraCalls.set(payload.toolCallId, { tool: payload.toolName, input: null, output: null, mocked: true });
        state.mastraFrom.set(payload.toolCallId, eventItem(state, 'payload', obj.type));
        state.mastraInputs.set(payload.toolCallId, '');
      }
      return;
    case 'tool-call-delta': {
      const id = typeof payload.toolCallId === 'string' ? payload.toolCallId : undefined;
      const text = id === undefined ? undefined : state.mastraInputs.get(id);
      const call = id === undefined ? undefined : state.mastraCalls.get(id);
      if (id === undefined || text === undefined || call === undefined || typeof payload.argsTextDelta !== 'string') return;
      state.mastraInputs.set(id, text + payload.argsTextDelta);
      call.input = parseJsonText(text + payload.argsTextDelta);
      return;
    }
    case 'tool-call':
      if (typeof payload.toolCallId === 'string') state.mastraInputs.delete(payload.toolCallId);
      if (typeof payload.toolCallId === 'string' && typeof payload.toolName === 'string') {
        state.mastraCalls.set(payload.toolCallId, { tool: payload.toolName, input: payload.args ?? null, output: null, mocked: true });
        state.mastraFrom.set(payload.toolCallId, eventItem(state, 'payload', obj.type));
      }
      return;
    case 'tool-result': {
      const call = typeof payload.toolCallId === 'string' ? state.mastraCalls.get(payload.toolCallId) : undefined;
      if (call) {
        call.output = payload.isError === true ? { error: payload.result ?? null } : (payload.result ?? null);
        call.mocked = false;
      }
      return;
    }
    case 'tool-error': {
      const call = typeof payload.toolCallId === 'string' ? state.mastraCalls.get(payload.toolCallId) : undefined;
      if (call) {
        call.output = { error: errorText(payload.error) };
        call.mocked = false;
      }
      return;
    }
    case 'tripwire':
      state.error = `the agent stopped the run (tripwire): ${typeof payload.reason === 'string' ? payload.reason : 'no reason given'}`;
      return;
    case 'abort':
      state.error = 'the stream was aborted by the agent (an abort chunk)';
      return;
    case 'finish': {
      state.ended = true;
      if (isRecord(payload.stepResult) && typeof payload.stepResult.reason === 'string') state.stopReason = payload.stepResult.reason;
      const output = isRecord(payload.output) ? payload.output : {};
      const read = readUsage(output.usage);
      if (read.kind !== 'none') state.usage = read;
      return;
    }
  }
}

/**
 * Tokens in a Vercel AI SDK message metadata (`start`, `finish` and `message-metadata` parts): the
 * SDK sends what the route's `messageMetadata` returns, so the route puts the model's usage there,
 * as `usage` (or `totalUsage`): `messageMetadata: ({ part }) => part.type === 'finish' ? { usage:
 * part.totalUsage } : undefined` (docs/frameworks/vercel-ai.md).
 */
function onVercelMetadata(state: StreamState, obj: Record<string, unknown>): void {
  const meta = obj.messageMetadata;
  if (!isRecord(meta)) return;
  const read = readUsage(meta.usage ?? meta.totalUsage);
  if (read.kind !== 'none') state.usage = read;
}

/**
 * An error event's message: Vercel `{type: 'error', errorText}`, Mastra `{type: 'error', payload: {error}}`, OpenAI Responses
 * `{type: 'error', code, message}`, Anthropic `{type: 'error', error: {type, message}}`, or an
 * OpenAI chat `{error: {type, message}}`.
 */
function errorEventText(obj: Record<string, unknown>): string {
  if (typeof obj.errorText === 'string') return obj.errorText;
  // Mastra: `{type: 'error', payload: {error: {message} | string}}`.
  if (isRecord(obj.payload) && obj.payload.error !== undefined && obj.payload.error !== null) return errorText(obj.payload.error);
  if (typeof obj.error === 'string' && typeof obj.message === 'string') return `${obj.error}: ${obj.message}`;
  if (obj.error !== undefined && obj.error !== null) return errorText(obj.error);
  if (typeof obj.message === 'string') return typeof obj.code === 'string' ? `${obj.code}: ${obj.message}` : obj.message;
  return errorText(obj);
}

/** At most 200 characters of an error event's text. */
function clip(text: string): string {
  return text.length <= 200 ? text : `${headOf(text, 199)}…`;
}

/** Accumulated tool input: JSON when it parses, else the text as sent. */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The tool calls of an answer read line by line or event by event (NDJSON, a stream of the agent's
 * own JSON): config.yml's `response.toolCalls` path read on each, the lists joined in order, as the
 * reply's pieces are (docs/presets.md, "Streamed replies"). A call sent in pieces, as OpenAI's
 * streamed `tool_calls` deltas are (`{index, id, function: {name, arguments: ""}}`, then
 * `{index, function: {arguments: "{\"ci"}}`...), is put together as one call with its whole
 * arguments: a piece joins the call at its `index` unless it names another id (a later model call of
 * the same answer numbers its calls from 0 again). A call with an id sent again is one call, its
 * last form kept. A list sent again in full with more at its end (a snapshot of the calls so far,
 * its last call perhaps grown: longer arguments, an output come) adds only what is new. Each call
 * keeps where it came from (the line or event, its place in that list), for the error that names it.
 */
class JoinedCalls {
  private readonly items: { value: unknown; from: ToolCallOrigin }[] = [];
  /** A value at the path that is no list (the tool-call reader reports it, never drops it); null: a null there. */
  private other: { value: unknown; from: string } | undefined = undefined;
  private lists = 0;
  private readonly pieces = new Map<number, { id?: string; type: 'function'; function: { name: string; arguments: unknown } }>();
  /** Calls with an id, by their kind and id: where they are in `items`. */
  private readonly byId = new Map<string, number>();
  /** The last list of calls without pieces: each item's JSON and where it went in `items` (-1: nowhere, merged by id). */
  private previous: { text: string; at: number; value: unknown }[] = [];

  /** `unit`: where the value was read, as the user finds it ("event 4", "line 4"). */
  add(value: unknown, unit: string): void {
    if (value === undefined) return;
    if (!Array.isArray(value)) {
      if (this.other === undefined || this.other.value === null) this.other = { value, from: unit };
      return;
    }
    this.lists += 1;
    const hasPieces = value.some((item) => isRecord(item) && typeof item.index === 'number' && isRecord(item.function));
    // A snapshot: the last list again, in full, with more after it (deltas carry pieces: never one).
    let start = 0;
    if (!hasPieces && this.previous.length > 0 && value.length >= this.previous.length) {
      const last = this.previous.length - 1;
      const same = this.previous.slice(0, last).every((p, i) => p.text === JSON.stringify(value[i]));
      const lastItem = this.previous[last]!;
      if (same && lastItem.text === JSON.stringify(value[last])) start = this.previous.length;
      else if (same && lastItem.at !== -1 && grownFrom(lastItem.value, value[last])) {
        this.items[lastItem.at] = { value: value[last], from: { unit, index: last } };
        start = this.previous.length;
      }
    }
    const seen: { text: string; at: number; value: unknown }[] = this.previous.slice(0, start);
    for (const [index, item] of value.entries()) {
      if (index < start) continue;
      const from = { unit, index };
      if (isRecord(item) && typeof item.index === 'number' && isRecord(item.function)) this.addPiece(item.index, item, item.function, from);
      else if (isRecord(item) && typeof (item.id ?? item.call_id ?? item.toolCallId) === 'string') {
        const key = JSON.stringify([item.type ?? item.role ?? null, item.id ?? item.call_id ?? item.toolCallId]);
        const at = this.byId.get(key);
        if (at === undefined) {
          this.byId.set(key, this.items.length);
          seen.push({ text: JSON.stringify(item), at: this.items.length, value: item });
          this.items.push({ value: item, from });
        } else {
          this.items[at] = { value: item, from };
          seen.push({ text: JSON.stringify(item), at, value: item });
        }
      } else {
        seen.push({ text: JSON.stringify(item), at: this.items.length, value: item });
        this.items.push({ value: item, from });
      }
    }
    this.previous = hasPieces ? [] : seen;
  }

  private addPiece(index: number, item: Record<string, unknown>, fn: Record<string, unknown>, from: ToolCallOrigin): void {
    let call = this.pieces.get(index);
    if (call === undefined || (typeof item.id === 'string' && call.id !== undefined && item.id !== call.id)) {
      call = { ...(typeof item.id === 'string' ? { id: item.id } : {}), type: 'function', function: { name: '', arguments: '' } };
      this.pieces.set(index, call);
      this.items.push({ value: call, from });
    }
    if (call.id === undefined && typeof item.id === 'string') call.id = item.id;
    // As a chat stream's deltas (onChatChunk): a name sent again whole adds nothing.
    if (typeof fn.name === 'string' && fn.name !== call.function.name) call.function.name += fn.name;
    if (typeof fn.arguments === 'string' && typeof call.function.arguments === 'string') call.function.arguments += fn.arguments;
    else if (fn.arguments !== undefined) call.function.arguments = fn.arguments;
  }

  /** The joined list; a value of another kind when one came (no list: that value, null included); undefined: the path was in no line. */
  value(): unknown {
    if (this.other !== undefined && this.other.value !== null) return this.other.value;
    return this.lists > 0 ? this.items.map((i) => i.value) : this.other?.value;
  }

  /** Where each call of value() came from, and where a value of another kind did: what an error names. */
  origins(): ToolCallsFrom {
    return { items: this.items.map((i) => i.from), ...(this.other === undefined ? {} : { other: this.other.from }) };
  }
}

/**
 * Whether `next` is `prev` sent again further on: the same call, its strings longer (arguments
 * streamed on) and perhaps fields added or filled in (an output come where it was null, `mocked`
 * turned false as the tool ran), nothing else changed.
 */
function grownFrom(prev: unknown, next: unknown): boolean {
  if (typeof prev === 'string' && typeof next === 'string') return next.startsWith(prev);
  if (isRecord(prev) && isRecord(next)) return Object.entries(prev).every(([key, value]) => key in next && grownField(key, value, next[key]));
  return JSON.stringify(prev) === JSON.stringify(next);
}

/** One field of a call sent again (grownFrom): its name, kind or id never grows (`search` then `search_web` are two calls). */
function grownField(key: string, prev: unknown, next: unknown): boolean {
  if (NAMES.has(key)) return JSON.stringify(prev) === JSON.stringify(next);
  // A null is a field not filled in yet (a call's output before its tool answered); `mocked` turns false when the tool has run.
  if (prev === null || (key === 'mocked' && prev === true)) return prev === null || typeof next === 'boolean';
  return grownFrom(prev, next);
}

/** The fields of a call that name it (grownFrom): equal or another call. */
const NAMES = new Set(['name', 'tool', 'toolName', 'type', 'role', 'id', 'call_id', 'toolCallId']);

/**
 * NDJSON (`application/x-ndjson`): each non-empty line is JSON; the strings at the reply path are
 * concatenated (a line without one adds nothing). Returns the joined reply (undefined when no line
 * had one), the tool calls at `toolCallsPath` joined over the lines (JoinedCalls), and the last
 * line, from which the other fields are read.
 */
export function decodeNdjson(text: string, replyPath: (line: unknown) => unknown, toolCallsPath?: ReplyPath): { ok: true; reply: string | undefined; last: unknown; toolCalls: unknown; toolCallsFrom: ToolCallsFrom; textAt?: string } | { ok: false; error: string } {
  let reply: string | undefined;
  let last: unknown = null;
  let guess: LikelyText | null = null;
  const calls = new JoinedCalls();
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      last = JSON.parse(line) as unknown;
    } catch {
      return { ok: false, error: `NDJSON line ${i + 1} is not valid JSON: ${line.length > 80 ? `${headOf(line, 79)}…` : line}` };
    }
    const part = replyPath(last);
    if (typeof part === 'string') reply = (reply ?? '') + part;
    else if (reply === undefined) guess = betterText(guess, likelyText(last, ''));
    if (toolCallsPath !== undefined) calls.add(toolCallsPath(last), `NDJSON line ${i + 1}`);
  }
  return { ok: true, reply, last, toolCalls: calls.value(), toolCallsFrom: calls.origins(), ...textAtOf(reply, guess) };
}

/**
 * Where an NDJSON answer's or a stream's text is when no line or event had a string at the reply
 * path: the likeliest text over them all (the last is often only a `done`), for the missing reply
 * to name the path to write (src/agent/response.ts, noReplyAt); nothing once a reply was read.
 */
function textAtOf(reply: string | undefined, guess: LikelyText | null): { textAt?: string } {
  return reply === undefined && guess !== null ? { textAt: guess.path } : {};
}

/**
 * Watches an event-stream body as it arrives and says when the first token of the reply has come
 * (docs/latency.md, "What is measured"): only complete events count, so a chunk that ends mid-event
 * waits for the rest. `push` returns 'text' once an event with non-empty reply text has been seen
 * (the caller stops pushing then: the decoding of the whole body happens once it has ended), 'ping'
 * for the chunk that completes the first plain `data: ping` (isPlainKeepAlive), which is the reply
 * only if the stream sends nothing else, and false otherwise. `end`, given the body's last
 * characters not pushed, reads the last event too (a body may end without a blank line after it)
 * and says whether the reply's first token was in it ('text') or was the first plain ping ('pings':
 * a stream of nothing else, whose reply is their text, as decodeEventStream reads it); null: no
 * reply text, or its first token already reported.
 */
export function watchFirstText(replyPath?: ReplyPath): { push(chunk: string): 'text' | 'ping' | false; end(rest?: string): 'text' | 'pings' | null } {
  const state = new StreamState();
  state.replyPath = replyPath ?? null;
  let pending = '';
  let seen = false;
  const read = (complete: string): 'text' | 'ping' | false => {
    const pinged = state.plainPings.count > 0;
    for (const ev of parseEventStream(complete)) {
      onEvent(state, ev);
      if (state.error !== null) return false;
      // A LangGraph stream carries whole states, not deltas: its text is not counted here.
      if (state.format !== 'langgraph' && (state.text !== '' || (state.format === null && (state.byPath?.reply ?? '') !== ''))) {
        seen = true;
        return 'text';
      }
    }
    return !pinged && state.plainPings.count > 0 ? 'ping' : false;
  };
  return {
    push(chunk: string): 'text' | 'ping' | false {
      if (seen) return 'text';
      if (state.error !== null) return false;
      pending += chunk;
      const end = lastEventEnd(pending);
      if (end === -1) return false;
      const complete = pending.slice(0, end);
      pending = pending.slice(end);
      return read(complete);
    },
    end(rest = ''): 'text' | 'pings' | null {
      if (seen || state.error !== null) return null;
      const last = pending + rest;
      pending = '';
      if (read(last) === 'text') return 'text';
      // Nothing but plain pings (and other keep-alives): their text is the reply (decodeEventStream).
      return state.error === null && state.format === null && state.events === 0 && state.plainPings.count > 0 ? 'pings' : null;
    },
  };
}

/** The index just past the last blank line (an event's end), or -1 when no event has ended yet. */
function lastEventEnd(text: string): number {
  let end = -1;
  for (const boundary of ['\n\n', '\r\n\r\n', '\r\r', '\r\n\n', '\n\r\n']) {
    const i = text.lastIndexOf(boundary);
    if (i !== -1) end = Math.max(end, i + boundary.length);
  }
  return end;
}
