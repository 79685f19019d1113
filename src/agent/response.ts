// Mapping a parsed agent response to a reply, route, ended flag and off-track signals.

import type { AgentMapping } from '../config.js';
import type { AgentErrorEntry, JsonValue, Route, ToolCall } from '../types.js';
import { describeFound, readPath } from './template.js';

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
  const reply = readPath(json, mapping.reply);
  if (typeof reply !== 'string') {
    return { ok: false, error: `response has no string at "${mapping.reply}" (found ${describeFound(reply)})` };
  }
  return { ok: true, turn: { reply, ...mapSignals(json, mapping) } };
}

// ---- persona scripts (SPEC section 10): tool calls, outcome and errors of a turn ----------------

export interface MappedPersonaFields {
  /** Null: this response does not report tool calls. */
  toolCalls: ToolCall[] | null;
  outcome: string | null;
  outcomeReported: boolean;
  errors: AgentErrorEntry[];
}

export type PersonaMapResult = { ok: true; fields: MappedPersonaFields } | { ok: false; error: string };

/** Longest tool name kept: a name is an identifier, not a document. */
const MAX_TOOL_NAME = 200;

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
  return { ok: true, fields: { toolCalls: toolCalls.value, outcome: outcome.value, outcomeReported: outcome.reported, errors: errors.value } };
}

function readToolCalls(json: unknown, mapping: AgentMapping): { ok: true; value: ToolCall[] | null } | { ok: false; error: string } {
  if (mapping.toolCalls === null) return { ok: true, value: null };
  const value = readPath(json, mapping.toolCalls);
  if (value === undefined || value === null) return { ok: true, value: mapping.absentToolCallsAreNone ? [] : null };
  if (!Array.isArray(value)) return { ok: false, error: `"${mapping.toolCalls}" must be an array of tool calls (found ${describeFound(value)})` };
  const calls: ToolCall[] = [];
  for (const [i, item] of value.entries()) {
    const call = toToolCall(item);
    if (call === null) {
      return {
        ok: false,
        error: `"${mapping.toolCalls}.${i}" is not a tool call: expected {tool, input, output, mocked} or an OpenAI tool call {type, function: {name, arguments}} (found ${describeFound(item)})`,
      };
    }
    calls.push(call);
  }
  return { ok: true, value: calls };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * One reported call. Native `{tool, input, output, mocked}`: a call that does not say `mocked: true`
 * is taken as a real call. OpenAI `tool_calls` entries (function or custom tools) are requests for
 * the caller to run a tool, and agent-replay runs none: they have no side effect (mocked) and no output.
 */
function toToolCall(item: unknown): ToolCall | null {
  if (!isRecord(item)) return null;
  if (isRecord(item.function) && typeof item.function.name === 'string') {
    return { tool: clipName(item.function.name), input: parseArguments(item.function.arguments), output: null, mocked: true };
  }
  if (isRecord(item.custom) && typeof item.custom.name === 'string') {
    return { tool: clipName(item.custom.name), input: jsonOrNull(item.custom.input), output: null, mocked: true };
  }
  if (typeof item.tool !== 'string') return null;
  return { tool: clipName(item.tool), input: jsonOrNull(item.input), output: jsonOrNull(item.output), mocked: item.mocked === true };
}

function clipName(name: string): string {
  return name.length > MAX_TOOL_NAME ? `${name.slice(0, MAX_TOOL_NAME)}…` : name;
}

/** OpenAI sends arguments as JSON text; text that is not JSON is kept as the string it is. */
function parseArguments(value: unknown): JsonValue {
  if (typeof value !== 'string') return jsonOrNull(value);
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

/** Parsed JSON is JSON already; undefined (a missing key) becomes null. */
function jsonOrNull(value: unknown): JsonValue {
  return value === undefined ? null : (value as JsonValue);
}

function readOutcome(json: unknown, path: string | null): { ok: true; value: string | null; reported: boolean } | { ok: false; error: string } {
  if (path === null) return { ok: true, value: null, reported: false };
  const value = readPath(json, path);
  if (value === undefined) return { ok: true, value: null, reported: false };
  if (value === null || typeof value === 'string') return { ok: true, value, reported: true };
  return { ok: false, error: `"${path}" must be "finish", "handoff", "switch" or null (found ${describeFound(value)})` };
}

function readErrors(json: unknown, path: string | null): { ok: true; value: AgentErrorEntry[] } | { ok: false; error: string } {
  if (path === null) return { ok: true, value: [] };
  const value = readPath(json, path);
  if (value === undefined || value === null) return { ok: true, value: [] };
  if (!Array.isArray(value)) return { ok: false, error: `"${path}" must be an array of errors (found ${describeFound(value)})` };
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
