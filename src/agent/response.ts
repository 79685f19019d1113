// Mapping a parsed agent response to a reply, route, ended flag and off-track signals.

import type { AgentMapping } from '../config.js';
import type { AgentErrorEntry, Route, ToolCall } from '../types.js';
import { describeFound, readPath } from './template.js';
import { likelyTextPath } from './text-path.js';
import { decodeToolCalls, describeShape, findToolCallPaths, MAX_TOOL_CALL_DEPTH, nestsDeeperThan, TOOL_CALL_SHAPES } from './tool-calls.js';
import { shownJson } from '../words.js';

export interface MappedTurn {
  reply: string;
  route: Route | null;
  ended: boolean;
  offTrack: unknown[];
}

export type MapResult = { ok: true; turn: MappedTurn } | { ok: false; error: string };

/** The parts of a response that do not depend on the reply (used for the welcome turn too). */
export function mapSignals(json: unknown, mapping: AgentMapping): Omit<MappedTurn, 'reply'> {
  let route: Route | null = null;
  if (mapping.conversation !== null && mapping.stage !== null) {
    const conversation = readPath(json, mapping.conversation);
    const stage = readPath(json, mapping.stage);
    if (typeof conversation === 'string' && typeof stage === 'string') route = { conversation, stage };
  }
  const ended = mapping.ended === null ? false : readPath(json, mapping.ended) === true;
  const offTrackValue = mapping.offTrack === null ? undefined : readPath(json, mapping.offTrack);
  const offTrack = Array.isArray(offTrackValue) ? offTrackValue : [];
  return { route, ended, offTrack };
}

/**
 * Maps a response with the configured dotted paths. The reply must be a string; route is set only
 * when both its paths are configured and both hold strings; `ended` is true only for a boolean
 * true; `offTrack` is the array at its path, or [].
 */
export function mapResponse(json: unknown, mapping: AgentMapping): MapResult {
  const found = readReply(json, mapping);
  const reply = (found === null || found === undefined) && callsOnly(json, mapping) ? '' : found;
  if (typeof reply !== 'string') return { ok: false, error: noReplyAt(json, mapping.reply, reply, mapping) };
  return { ok: true, turn: { reply, ...mapSignals(json, mapping) } };
}

/**
 * "response has no string at PATH (found ...)": what was found there and the response's shape, and,
 * for a dotted path that stops part way (`data.text` in `{data: {answer}}`, `choices.0...` in
 * `{choices: []}`), the last part that is there and what it holds in place of the next one, so
 * that the path to write is in the message, and, when nothing is at the path, where the answer's
 * likeliest reply string is (`its text may be at "message"`) (docs/presets.md, "Any JSON API").
 */
export function noReplyAt(json: unknown, path: string, found: unknown, mapping?: Pick<AgentMapping, 'replyAt' | 'replyPerLine' | 'replyPerEvent'>): string {
  // An NDJSON answer, or a stream of the agent's own events: the path as configured, read on each line (`json` is {reply, last}).
  const perLine = mapping?.replyPerLine;
  // The line of config.yml that sets this path, when it does (a preset's own path has none).
  const at = mapping?.replyAt !== undefined && mapping.replyAt.path === (perLine ?? path) ? `; ${mapping.replyAt.key ?? 'agent.response.reply'} is set at ${mapping.replyAt.at}` : '';
  if (perLine !== undefined) {
    const read = json !== null && typeof json === 'object' ? (json as { last?: unknown; textAt?: unknown }) : {};
    const [lines, line] = mapping?.replyPerEvent === true ? ['stream events', 'event'] : ['NDJSON lines', 'line'];
    // Where the lines' or events' text is (the likeliest over them all, stream.ts textAtOf), named as a JSON answer's is.
    const lineTextAt = typeof read.textAt === 'string' ? `; its text may be at ${shownJson(read.textAt)}` : '';
    return `response has no string at "${perLine}" on any of its ${lines} (the last ${line} is ${describeShape(read.last)}${stoppedAt(read.last, perLine)}${lineTextAt})${at}`;
  }
  // Nothing at the path: where the answer's text is, so that the path to write is named (`{message: "..."}` read at "reply").
  const text = found === undefined ? likelyTextPath(json, path) : null;
  const textAt = text === null ? '' : `; its text may be at ${shownJson(text)}`;
  return `response has no string at "${path}" (found ${describeFound(found)}${found === undefined ? stoppedAt(json, path) : ''}; the response is ${describeShape(json)}${textAt})${at}`;
}

/**
 * A welcome answer read with a reply path config.yml sets for it (`agent.start.response.reply`) that
 * holds no value there, in an answer that has other fields: most likely a typo in the path, said
 * (docs/presets.md, "Any JSON API"); null when the welcome is simply silent: no such path, a null or
 * a string ('' included) there, only tool calls, or an answer with no fields (a 204, `{}`).
 */
export function welcomeReplyMissed(json: unknown, mapping: AgentMapping): string | null {
  if (mapping.replyAt?.key === undefined) return null;
  const found = readReply(json, mapping);
  if (typeof found === 'string' || found === null || callsOnly(json, mapping)) return null;
  // An NDJSON answer or a stream read by the path (`{reply, last}`): its fields are its last line's.
  const body = mapping.replyPerLine === undefined ? json : json !== null && typeof json === 'object' ? (json as { last?: unknown }).last : undefined;
  if (body === null || typeof body !== 'object' || Object.keys(body).length === 0) return null;
  return noReplyAt(json, mapping.reply, found, mapping);
}

/** Where a dotted path stops in `json` below its first part: `: "data" is an object (keys: answer), with no "text"`; '' otherwise. */
function stoppedAt(json: unknown, path: string): string {
  const parts = path.split('.');
  for (let n = parts.length - 1; n >= 1; n--) {
    const prefix = parts.slice(0, n).join('.');
    const value = readPath(json, prefix);
    if (value !== undefined) return `: "${prefix}" is ${describeShape(value)}, with no ${shownJson(parts[n])}`;
  }
  return '';
}

/**
 * The value at the reply path; where that holds no text (null or absent) and the mapping has a
 * refusal path holding text, the refusal: the model declined, and its refusal is what the user reads.
 */
export function readReply(json: unknown, mapping: AgentMapping): unknown {
  const found = readPath(json, mapping.reply);
  if ((found !== null && found !== undefined) || mapping.refusal === undefined) return found;
  const refusal = readPath(json, mapping.refusal);
  return typeof refusal === 'string' ? refusal : found;
}

/**
 * An answer that is only tool calls (OpenAI chat `content: null` with `tool_calls`, and the like):
 * its reply is '' rather than missing, for fixtures and persona turns alike.
 */
export function callsOnly(json: unknown, mapping: AgentMapping): boolean {
  const calls = readToolCalls(json, mapping);
  return calls.ok && calls.value !== null && calls.value.length > 0;
}

// ---- persona scripts (docs/personas.md): tool calls, outcome and errors of a turn ---------------

export interface MappedPersonaFields {
  /** Null: this response does not report tool calls. */
  toolCalls: ToolCall[] | null;
  outcome: string | null;
  outcomeReported: boolean;
  errors: AgentErrorEntry[];
}

export type PersonaMapResult = { ok: true; fields: MappedPersonaFields } | { ok: false; error: string };

/**
 * Reads `toolCalls`, `outcome` and `errors` with the mapping's paths. A missing value means "not
 * reported" (tool calls, outcome) or "none" (errors); a value of the wrong shape is an invalid
 * response, never silently dropped: a tool call the record cannot see could hide a side effect.
 */
export function mapPersonaFields(json: unknown, mapping: AgentMapping): PersonaMapResult {
  const toolCalls = readToolCalls(json, mapping);
  if (!toolCalls.ok) return toolCalls;
  const outcome = readOutcome(json, mapping.outcome);
  if (!outcome.ok) return outcome;
  const errors = readErrors(json, mapping.errors);
  if (!errors.ok) return errors;
  const offTrack = deepOffTrack(json, mapping.offTrack);
  if (offTrack !== null) return { ok: false, error: offTrack };
  return { ok: true, fields: { toolCalls: toolCalls.value, outcome: outcome.value, outcomeReported: outcome.reported, errors: errors.value } };
}

/**
 * A turn's tool calls at the mapping's path: null when not reported, an error for a value of no
 * known shape. Fixtures read their message turn's calls with it (docs/traces.md, "Fixtures").
 */
export function readToolCalls(json: unknown, mapping: AgentMapping): { ok: true; value: ToolCall[] | null } | { ok: false; error: string } {
  if (mapping.toolCalls === null) return { ok: true, value: null };
  const value = readPath(json, mapping.toolCalls);
  if (value === undefined || value === null) return { ok: true, value: mapping.absentToolCallsAreNone ? [] : null };
  if (!Array.isArray(value)) return { ok: false, error: `${toolCallsAt(mapping)} must be an array of tool calls (found ${describeFound(value)})` };
  const decoded = decodeToolCalls(value);
  if (decoded.ok) return decoded;
  return { ok: false, error: `${toolCallsAt(mapping, decoded.index)} is not a tool call: expected ${TOOL_CALL_SHAPES} (found ${decoded.found})` };
}

/**
 * The tool-call path, or one item of its list, as the user finds it: `"tool_calls.1"`; for the
 * calls joined over an NDJSON answer's lines or a stream's events, the path as configured and the
 * line or event that sent the item (`"delta.tool_calls.1" on stream event 4`), never its place in
 * the joined list, which is in no body (docs/presets.md, "Streamed replies"); for a vendor's body
 * or stream, decoded, the entry by the vendor's own path and the event that sent it (toolCallItems).
 */
function toolCallsAt(mapping: AgentMapping, index?: number): string {
  // A vendor's body or stream: the entry as the vendor sent it (`"output.3"`, `"choices.0.delta.tool_calls.1" on stream event 3`).
  const item = index === undefined ? undefined : mapping.toolCallItems?.[index];
  if (item !== undefined) return item;
  const perLine = mapping.toolCallsPerLine;
  if (perLine === undefined) return `"${mapping.toolCalls}${index === undefined ? '' : `.${index}`}"`;
  if (index === undefined) return `"${perLine.path}"${perLine.from.other === undefined ? '' : ` on ${perLine.from.other}`}`;
  const from = perLine.from.items[index];
  return from === undefined ? `"${perLine.path}"` : `"${perLine.path}.${from.index}" on ${from.unit}`;
}

/**
 * What a response says of its tool calls, for `probe` (docs/presets.md, "Tool calls"): the calls
 * read at `response.toolCalls`, or, when that path reads none (null, or absent from this response),
 * the paths in the response that do hold tool calls, named only when there are some: a hint never
 * offers a path this response does not have.
 */
export function toolCallsHint(json: unknown, mapping: AgentMapping): string {
  const read = readToolCalls(json, mapping);
  if (!read.ok) return read.error;
  if (read.value !== null && mapping.toolCalls !== null) {
    const names = read.value.map((c) => c.tool).join(', ');
    return `${read.value.length === 0 ? 'none' : names} (read at ${mapping.toolCallsPerLine === undefined ? `"${mapping.toolCalls}"` : `"${mapping.toolCallsPerLine.path}" on each ${mapping.replyPerEvent === true ? 'event' : 'line'}`})`;
  }
  const why = mapping.toolCalls === null ? 'not reported (no agent.response.toolCalls path)' : `not reported (${mapping.toolCallsPerLine === undefined ? `"${mapping.toolCalls}" is not in the response` : `"${mapping.toolCallsPerLine.path}" is in none of its ${mapping.replyPerEvent === true ? 'stream events' : 'NDJSON lines'}`})`;
  const paths = findToolCallPaths(json);
  if (paths.length === 0) return `${why}; nothing in the response is a list of tool calls, so no path would read one`;
  const shown = paths.map((p) => (p === '' ? 'the response itself ("")' : `"${p}"`)).join(' or ');
  return `${why}; the response holds tool calls at ${shown}: set agent.response.toolCalls to ${paths.length === 1 ? 'it' : 'one of them'}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readOutcome(json: unknown, path: string | null): { ok: true; value: string | null; reported: boolean } | { ok: false; error: string } {
  if (path === null) return { ok: true, value: null, reported: false };
  const value = readPath(json, path);
  if (value === undefined) return { ok: true, value: null, reported: false };
  if (value === null || typeof value === 'string') return { ok: true, value, reported: true };
  return { ok: false, error: `"${path}" must be "finish", "handoff", "switch" or null (found ${describeFound(value)})` };
}

/**
 * A script's turn keeps its off-track signals as the agent sent them, JSON read again by the record's
 * readers, which recurse: one nesting deeper than a tool call may (MAX_TOOL_CALL_DEPTH) is an invalid
 * response, as such a call is (docs/presets.md, "Tool calls"). Null: none is.
 */
function deepOffTrack(json: unknown, path: string | null): string | null {
  const value = path === null ? undefined : readPath(json, path);
  if (!Array.isArray(value)) return null;
  const i = value.findIndex((item) => nestsDeeperThan(item, MAX_TOOL_CALL_DEPTH));
  return i < 0 ? null : `"${path}.${i}" nests deeper than ${MAX_TOOL_CALL_DEPTH} levels of lists and objects`;
}

function readErrors(json: unknown, path: string | null): { ok: true; value: AgentErrorEntry[] } | { ok: false; error: string } {
  if (path === null) return { ok: true, value: [] };
  const value = readPath(json, path);
  if (value === undefined || value === null) return { ok: true, value: [] };
  if (!Array.isArray(value)) return { ok: false, error: `"${path}" must be an array of errors (found ${describeFound(value)})` };
  // An entry that is not an object is kept as its JSON text, which JSON.stringify writes by recursing (docs/presets.md, "Tool calls").
  const deep = value.findIndex((item) => !isRecord(item) && nestsDeeperThan(item, MAX_TOOL_CALL_DEPTH));
  if (deep >= 0) return { ok: false, error: `"${path}.${deep}" nests deeper than ${MAX_TOOL_CALL_DEPTH} levels of lists and objects` };
  return {
    ok: true,
    value: value.map((item): AgentErrorEntry => {
      if (typeof item === 'string') return { kind: 'error', tool: null, message: item };
      if (!isRecord(item)) return { kind: 'error', tool: null, message: JSON.stringify(item) ?? String(item) };
      return {
        kind: typeof item.kind === 'string' ? item.kind : 'error',
        tool: typeof item.tool === 'string' ? item.tool : null,
        message: typeof item.message === 'string' ? item.message : '',
      };
    }),
  };
}
