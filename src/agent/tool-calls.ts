// The one reader of reported tool calls, used wherever a response's tool calls are mapped
// (`response.toolCalls`, every preset). A list at that path may hold, in any mix:
//   - native calls `{tool, input, output, mocked}`;
//   - OpenAI chat `tool_calls` entries `{id, type: 'function', function: {name, arguments}}`, or
//     whole chat messages (an assistant message's `tool_calls`, answered by `role: 'tool'` messages);
//   - OpenAI Responses items `{type: 'function_call', call_id, name, arguments}`, answered by
//     `{type: 'function_call_output', call_id, output}` items (the OpenAI Agents SDK's history writes
//     `callId` and `function_call_result`; its run items wrap them in `rawItem`);
//   - Anthropic content blocks `{type: 'tool_use', id, name, input}`, answered by `tool_result` blocks.
// A call with an answer in the same list ran (mocked: false unless the agent says otherwise) and
// carries that output; a call with none is a request for the caller to run a tool: nothing ran, so
// no output and no side effect. Items that are plainly something else (messages, text blocks,
// reasoning, tool outputs) are skipped; anything else is refused, never silently dropped: a tool
// call the record cannot see could hide a side effect.

import type { JsonValue, ToolCall } from '../types.js';

/** Longest tool name kept: a name is an identifier, not a document. */
const MAX_TOOL_NAME = 200;

/** Item types that are not calls: skipped (outputs are read for the calls they answer). */
const NOT_CALLS = new Set([
  'message',
  'text',
  'reasoning',
  'thinking',
  'redacted_thinking',
  'function_call_output',
  'function_call_result',
  'tool_result',
  'tool_call_output_item',
  'message_output_item',
  'reasoning_item',
  'handoff_output_item',
  'handoff_call_item',
  'web_search_call',
  'file_search_call',
]);

export const TOOL_CALL_SHAPES =
  '{tool, input, output, mocked}, an OpenAI tool call {type, function: {name, arguments}}, a Responses function_call item {type, call_id, name, arguments} or an Anthropic tool_use block {type, id, name, input}';

export type ToolCallsResult = { ok: true; value: ToolCall[] } | { ok: false; index: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An Agents SDK run item (`{type: 'tool_call_item', rawItem}`) is read as its raw item. */
function raw(item: unknown): unknown {
  return isRecord(item) && isRecord(item.rawItem) ? item.rawItem : item;
}

function callId(item: Record<string, unknown>): string | null {
  for (const key of ['call_id', 'callId', 'tool_call_id', 'tool_use_id', 'id']) if (typeof item[key] === 'string') return item[key];
  return null;
}

/** What answers each call, by call id: Responses / Agents SDK outputs, Anthropic tool_result blocks, chat tool messages. */
function outputsOf(items: readonly unknown[]): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  for (const wrapped of items) {
    const item = raw(wrapped);
    if (!isRecord(item)) continue;
    const id = callId(item);
    if (id === null) continue;
    if (item.type === 'function_call_output' || item.type === 'function_call_result') {
      // A run item keeps the tool's own return value beside its raw item.
      const value = isRecord(wrapped) && wrapped !== item && wrapped.output !== undefined ? wrapped.output : outputValue(item.output);
      out.set(id, jsonOrNull(value));
    } else if (item.type === 'tool_result') {
      out.set(id, blocksText(item.content));
    } else if (item.role === 'tool' && typeof item.tool_call_id === 'string') {
      out.set(item.tool_call_id, blocksText(item.content));
    }
  }
  return out;
}

/** A Responses output (text, or a list of parts) or an Agents SDK output (`{type: 'text', text}`). */
function outputValue(value: unknown): unknown {
  if (isRecord(value) && value.type === 'text' && typeof value.text === 'string') return value.text;
  if (Array.isArray(value)) return blocksText(value);
  return value;
}

/** Content as text: a string, or the text of its text blocks joined. Other content is kept as it is. */
function blocksText(content: unknown): JsonValue {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((b) => isRecord(b) && typeof b.text === 'string')) return content.map((b) => (b as { text: string }).text).join('');
  return jsonOrNull(content);
}

/** Every call of a mapped list, in order; the index of the first item that is no tool call and nothing known. */
export function decodeToolCalls(items: readonly unknown[]): ToolCallsResult {
  const outputs = outputsOf(items);
  const calls: ToolCall[] = [];
  const answered = (id: string | null, name: string, input: JsonValue): ToolCall =>
    id !== null && outputs.has(id) ? { tool: clipName(name), input, output: outputs.get(id) ?? null, mocked: false } : { tool: clipName(name), input, output: null, mocked: true };
  for (const [index, wrapped] of items.entries()) {
    const item = raw(wrapped);
    if (!isRecord(item)) return { ok: false, index };
    if (typeof item.tool === 'string') {
      calls.push({ tool: clipName(item.tool), input: jsonOrNull(item.input), output: jsonOrNull(item.output), mocked: item.mocked === true });
    } else if (isRecord(item.function) && typeof item.function.name === 'string') {
      calls.push(answered(callId(item), item.function.name, parseArguments(item.function.arguments)));
    } else if (isRecord(item.custom) && typeof item.custom.name === 'string') {
      calls.push(answered(callId(item), item.custom.name, jsonOrNull(item.custom.input)));
    } else if (item.type === 'function_call' && typeof item.name === 'string') {
      calls.push(answered(callId(item), item.name, parseArguments(item.arguments)));
    } else if (item.type === 'tool_use' && typeof item.name === 'string') {
      calls.push(answered(callId(item), item.name, jsonOrNull(item.input)));
    } else if (typeof item.role === 'string') {
      // A chat message: an assistant's tool calls are calls; any other message is skipped.
      if (!Array.isArray(item.tool_calls)) continue;
      for (const c of item.tool_calls) {
        if (!isRecord(c) || !isRecord(c.function) || typeof c.function.name !== 'string') return { ok: false, index };
        calls.push(answered(callId(c), c.function.name, parseArguments(c.function.arguments)));
      }
    } else if (typeof item.type === 'string' && NOT_CALLS.has(item.type)) {
      continue;
    } else {
      return { ok: false, index };
    }
  }
  return { ok: true, value: calls };
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
