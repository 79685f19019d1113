// The one reader of reported tool calls, used wherever a response's tool calls are mapped
// (`response.toolCalls`, every preset). A list at that path may hold, in any mix:
//   - native calls `{tool, input, output, mocked}`;
//   - OpenAI chat `tool_calls` entries `{id, type: 'function', function: {name, arguments}}`, or
//     whole chat messages (an assistant message's `tool_calls`, answered by `role: 'tool'` messages);
//   - OpenAI Responses items `{type: 'function_call', call_id, name, arguments}`, answered by
//     `{type: 'function_call_output', call_id, output}` items (the OpenAI Agents SDK's history writes
//     `callId` and `function_call_result`; its run items wrap them in `rawItem`); the other tool
//     calls of a Responses output and of the Agents SDK's items: `custom_tool_call`, the built-in
//     tools the caller runs (`shell_call`, `local_shell_call`, `computer_call`, `apply_patch_call`,
//     each answered by its `_output` item, the SDK's `computer_call_result`), and an MCP server's
//     tool OpenAI called (`mcp_call`; the SDK's `hosted_tool_call`); the tools OpenAI runs in its own
//     sandbox (web and file search, code interpreter, image generation) are skipped;
//   - Anthropic content blocks `{type: 'tool_use', id, name, input}`, answered by `tool_result` blocks;
//     an MCP server's tool Anthropic called (`mcp_tool_use`, answered by `mcp_tool_result`); the tools
//     it runs itself (`server_tool_use`: web search, code execution), as OpenAI's, are skipped;
//   - AI SDK model message parts `{type: 'tool-call', toolCallId, toolName, input}`, answered by
//     `{type: 'tool-result', toolCallId, output}` parts (`output` is `{type: 'json' | 'text' | ..., value}`),
//     loose or inside messages (`{role: 'assistant', content: [parts]}`), and AI SDK UI message tool
//     parts (`{type: 'tool-<name>' | 'dynamic-tool', toolCallId, input, output}`);
//   - Mastra's `toolCalls` / `toolResults` chunks `{type: 'tool-call' | 'tool-result', payload:
//     {toolCallId, toolName, args, result}}`.
// A call with an answer in the same list ran (mocked: false unless the agent says otherwise) and
// carries that output; a call with none is a request for the caller to run a tool: nothing ran, so
// no output and no side effect. Items that are plainly something else (messages, text blocks,
// reasoning, tool outputs) are skipped; anything else is refused, never silently dropped: a tool
// call the record cannot see could hide a side effect. So is a message whose content holds a part
// that names a tool in a shape this reader does not know (docs/presets.md, "Tool calls").

import type { JsonValue, ToolCall } from '../types.js';
import { pathDeeperThan } from '../record/depth.js';
import { headOf, listAndMore, shownJson } from '../words.js';
import { line } from '../assertions/format.js';

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
  'mcp_tool_result',
  // Anthropic blocks that are no call: a file put in the code execution container, compacted context.
  'container_upload',
  'compaction',
  'tool_call_output_item',
  'message_output_item',
  'reasoning_item',
  'handoff_output_item',
  'handoff_call_item',
  'web_search_call',
  'file_search_call',
  // The tools OpenAI runs in its own sandbox, as its web search: nothing of the caller's is touched,
  // and no mock could answer them (docs/presets.md, "Tool calls").
  'code_interpreter_call',
  'image_generation_call',
  'server_tool_use',
  'custom_tool_call_output',
  'shell_call_output',
  'local_shell_call_output',
  'computer_call_output',
  'computer_call_result',
  'apply_patch_call_output',
  // Responses items that are no call of a tool: the tools an MCP server offers, a tool search, a
  // program the model wrote (its calls come as function_call items), compacted context.
  'mcp_list_tools',
  'mcp_approval_response',
  'tool_search_call',
  'tool_search_output',
  'program',
  'program_output',
  'additional_tools',
  'compaction',
  'tool-result',
  'tool-error',
  'step-start',
  'source-url',
  'source-document',
  'file',
  'image',
]);

export const TOOL_CALL_SHAPES =
  '{tool, input, output, mocked}, an OpenAI tool call {type, function: {name, arguments}}, a Responses function_call item {type, call_id, name, arguments}, an Anthropic tool_use block {type, id, name, input}, an AI SDK tool-call part {type, toolCallId, toolName, input} or a Mastra tool-call chunk {type, payload: {toolCallId, toolName, args}}';

/**
 * The deepest a call's input or output may nest (docs/presets.md, "Tool calls"): tool arguments
 * take a few levels. Deeper (`[[[[...`, a hundred thousand levels in a few hundred kilobytes) would
 * exhaust the stack of every reader after this one, so the call is refused here, with the reason.
 */
export const MAX_TOOL_CALL_DEPTH = 256;

/** Does a JSON value nest deeper than `max` arrays and objects? (record/depth.ts walks it, with a stack of its own.) */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  return pathDeeperThan(value, max) !== null;
}

/** `found` says what the refused item was (its type and keys), for the error. */
export type ToolCallsResult = { ok: true; value: ToolCall[] } | { ok: false; index: number; found: string };

/** What an item is, for an error: `an object of type "x" (keys: a, b)`, an array, a string... */
export function describeShape(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value !== 'object') return typeof value === 'string' ? 'a string' : `${typeof value} ${String(value)}`;
  const record = value as Record<string, unknown>;
  const type = typeof record.type === 'string' ? ` of type ${JSON.stringify(headOf(record.type, 60))}` : '';
  return `an object${type} (keys: ${keysText(record)})`;
}

/** The most keys of an agent's object an error lists (keysText), and the most characters of each. */
const KEYS_SHOWN = 8;
const KEY_CHARS = 60;

/**
 * The keys of an agent's object, for an error's "(keys: ...)": the agent's text, so each on one line
 * and bounded (line), the first KEYS_SHOWN of them and how many more ("none": no key), so that no
 * answer's key of 5,000 characters, nor its ten thousand keys, go whole into results.json
 * (docs/security.md, "Agent text is data").
 */
export function keysText(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  if (keys.length === 0) return 'none';
  return listAndMore(keys, KEYS_SHOWN, shownName);
}

/** A key or a name of the agent's (an event's type) on an error's line: one line, KEY_CHARS at most (line). */
export function shownName(name: string): string {
  return line(name, KEY_CHARS);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An Agents SDK run item (`{type: 'tool_call_item', rawItem}`) is read as its raw item; a Mastra
 * chunk (`{type: 'tool-call' | 'tool-result', payload: {...}}`) as its payload with the chunk's type.
 */
function raw(item: unknown): unknown {
  if (!isRecord(item)) return item;
  if (isRecord(item.rawItem)) return item.rawItem;
  if ((item.type === 'tool-call' || item.type === 'tool-result' || item.type === 'tool-error') && isRecord(item.payload)) return { ...item.payload, type: item.type };
  return item;
}

function callId(item: Record<string, unknown>): string | null {
  for (const key of ['call_id', 'callId', 'tool_call_id', 'tool_use_id', 'toolCallId', 'id']) if (typeof item[key] === 'string') return item[key];
  return null;
}

/** What answers each call, by call id: Responses / Agents SDK outputs, Anthropic tool_result blocks, chat tool messages. */
function outputsOf(items: readonly unknown[], out = new Map<string, JsonValue>()): Map<string, JsonValue> {
  for (const wrapped of items) {
    const item = raw(wrapped);
    if (!isRecord(item)) continue;
    // An AI SDK model message's parts answer calls too (a `role: 'tool'` message of tool-result parts).
    if (typeof item.role === 'string' && Array.isArray(item.content)) outputsOf(item.content, out);
    const id = callId(item);
    if (id === null) continue;
    if (item.type === 'function_call_output' || item.type === 'function_call_result') {
      // A run item keeps the tool's own return value beside its raw item.
      const value = isRecord(wrapped) && wrapped !== item && wrapped.output !== undefined ? wrapped.output : outputValue(item.output);
      out.set(id, jsonOrNull(value));
    } else if (typeof item.type === 'string' && BUILT_IN_OUTPUTS.has(item.type)) {
      // apply_patch_call_output: `status: 'failed'` with the reason as its output. A computer
      // action's output is a screenshot: kept without its image (a data URL of a whole screen).
      const value = isRecord(item.output) && item.output.type === 'computer_screenshot' ? { type: 'computer_screenshot' } : outputValue(item.output);
      out.set(id, item.status === 'failed' ? { error: jsonOrNull(value) } : jsonOrNull(value));
    } else if (item.type === 'tool_result' || item.type === 'mcp_tool_result') {
      // `is_error`: the tool threw (a tool_result the Anthropic SDK's tool runner or an agent loop of
      // one's own wrote; an MCP server's tool that failed), as a LangGraph tool message of status
      // "error" is: its output is `{error}` (docs/personas.md, "Other APIs").
      out.set(id, item.is_error === true ? { error: blocksText(item.content) } : blocksText(item.content));
    } else if (item.type === 'tool-result') {
      // AI SDK: `output` ({type: 'json' | 'text' | 'error-text' | ..., value}; v4: `result`); Mastra: `result`.
      out.set(id, jsonOrNull(sdkOutput(item.output !== undefined ? item.output : item.result)));
    } else if (item.type === 'tool-error') {
      out.set(id, { error: jsonOrNull(item.error) });
    } else if (item.role === 'tool' && typeof item.tool_call_id === 'string') {
      out.set(item.tool_call_id, blocksText(item.content));
    }
  }
  return out;
}

/** An AI SDK tool output `{type: 'json' | 'text' | 'error-text' | 'error-json' | 'content', value}` as its value. */
function sdkOutput(value: unknown): unknown {
  if (isRecord(value) && typeof value.type === 'string' && 'value' in value) {
    if (value.type === 'error-text' || value.type === 'error-json') return { error: value.value };
    return value.value;
  }
  return value;
}

/** A Responses output (text, or a list of parts) or an Agents SDK output (`{type: 'text', text}`). */
function outputValue(value: unknown): unknown {
  if (isRecord(value) && value.type === 'text' && typeof value.text === 'string') return value.text;
  if (Array.isArray(value)) return blocksText(value);
  return value;
}

/** Content as text: a string, or the text of its text blocks joined. Other content is kept as it is. */
export function blocksText(content: unknown): JsonValue {
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
  // The item each call came from (an item may hold several: a message), for the error.
  const itemOf: number[] = [];
  for (const [index, wrapped] of items.entries()) {
    while (itemOf.length < calls.length) itemOf.push(index - 1);
    const item = raw(wrapped);
    if (!isRecord(item)) return { ok: false, index, found: describeShape(item) };
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
    } else if (item.type === 'mcp_tool_use' && typeof item.name === 'string') {
      // Anthropic's MCP connector called the server's tool: it ran (mocked false), answered or not.
      const id = callId(item);
      calls.push({ tool: clipName(item.name), input: jsonOrNull(item.input), output: id !== null ? (outputs.get(id) ?? null) : null, mocked: false });
    } else if (isServerToolResult(item)) {
      // The result of a tool Anthropic ran in its sandbox (server_tool_use, skipped): no call either.
      continue;
    } else if (item.type === 'custom_tool_call' && typeof item.name === 'string') {
      // A custom tool's input is free text, sent as it is.
      calls.push(answered(callId(item), item.name, jsonOrNull(item.input)));
    } else if (typeof item.type === 'string' && item.type in BUILT_IN_CALLS) {
      const builtIn = BUILT_IN_CALLS[item.type]!;
      calls.push(answered(callId(item), builtIn.tool, jsonOrNull(builtIn.input(item))));
    } else if (item.type === 'hosted_tool_call' && typeof item.name === 'string') {
      const call = hostedCall(item.name, item);
      if (call !== null) calls.push(call);
    } else if (typeof item.type === 'string' && HOSTED_ITEMS.has(item.type)) {
      // The same tools as a Responses output lists them: the item is its own data.
      const call = hostedCall(item.type, { providerData: item, output: item.output });
      if (call !== null) calls.push(call);
    } else if (item.type === 'tool-call' && typeof item.toolName === 'string') {
      // AI SDK 5+ `input`, AI SDK 4 and Mastra `args`.
      calls.push(answered(callId(item), item.toolName, jsonOrNull(item.input !== undefined ? item.input : item.args)));
    } else if (isUiToolPart(item)) {
      const call = uiToolCall(item);
      if (call !== null) calls.push(call);
    } else if (typeof item.role === 'string') {
      // A chat message: an assistant's tool calls are calls (OpenAI `tool_calls`, AI SDK content
      // parts, UI message parts); any other message is skipped.
      if (Array.isArray(item.tool_calls)) {
        for (const c of item.tool_calls) {
          if (!isRecord(c) || !isRecord(c.function) || typeof c.function.name !== 'string') return { ok: false, index, found: `a message whose tool_calls entry is ${describeShape(c)}` };
          calls.push(answered(callId(c), c.function.name, parseArguments(c.function.arguments)));
        }
      }
      for (const list of [item.content, item.parts]) {
        if (!Array.isArray(list)) continue;
        for (const part of list) {
          if (!isRecord(part) || typeof part.type !== 'string') continue;
          if (part.type === 'tool-call' && typeof part.toolName === 'string') calls.push(answered(callId(part), part.toolName, jsonOrNull(part.input !== undefined ? part.input : part.args)));
          else if (part.type === 'tool_use' && typeof part.name === 'string') calls.push(answered(callId(part), part.name, jsonOrNull(part.input)));
          else if (isUiToolPart(part)) {
            const call = uiToolCall(part);
            if (call !== null) calls.push(call);
          }
          else if (!NOT_CALLS.has(part.type) && namesATool(part)) return { ok: false, index, found: `a message whose part ${describeShape(part)} speaks of a tool in a shape not known` };
        }
      }
    } else if (typeof item.type === 'string' && NOT_CALLS.has(item.type)) {
      continue;
    } else {
      return { ok: false, index, found: describeShape(item) };
    }
  }
  while (itemOf.length < calls.length) itemOf.push(items.length - 1);
  for (const [i, c] of calls.entries()) {
    const part = nestsDeeperThan(c.input, MAX_TOOL_CALL_DEPTH) ? 'input' : nestsDeeperThan(c.output, MAX_TOOL_CALL_DEPTH) ? 'output' : null;
    if (part !== null) return { ok: false, index: itemOf[i] ?? 0, found: `a call of ${shownJson(c.tool)} whose ${part} nests deeper than ${MAX_TOOL_CALL_DEPTH} levels` };
  }
  return { ok: true, value: calls };
}

/**
 * Every call of a list whose items stand apart, as the calls a stream cut early had begun: an item
 * the reader refuses (decodeToolCalls) is left out and said, by its index in `items` and what it is,
 * and the others are read, so that one call cut unreadable does not lose the rest (docs/presets.md,
 * "Streamed replies").
 */
export function decodeEachToolCall(items: readonly unknown[]): { value: ToolCall[]; refused: { index: number; found: string }[] } {
  const refused: { index: number; found: string }[] = [];
  let left = items.map((item, index) => ({ item, index }));
  // Each refusal leaves one item out: at most items.length + 1 reads.
  for (;;) {
    const read = decodeToolCalls(left.map((l) => l.item));
    if (read.ok) return { value: read.value, refused };
    const out = left[read.index];
    // Never an index outside the list; were it one, nothing is read rather than looping.
    if (out === undefined) return { value: [], refused: [...refused, { index: read.index, found: read.found }] };
    refused.push({ index: out.index, found: read.found });
    left = left.filter((l) => l !== out);
  }
}

/**
 * The built-in tools of the Responses API and the OpenAI Agents SDK that the caller runs (the SDK
 * runs them itself: a shell command, a computer action, a patch), by their call item's type: the
 * tool's name in the record and what it was asked to do. Each is answered by its output item (by
 * call id, as a function call is): with one it ran, without one it is a request.
 */
const BUILT_IN_CALLS: Record<string, { tool: string; input: (item: Record<string, unknown>) => unknown }> = {
  shell_call: { tool: 'shell', input: (item) => item.action },
  local_shell_call: { tool: 'local_shell', input: (item) => item.action },
  computer_call: { tool: 'computer', input: (item) => item.action ?? item.actions },
  apply_patch_call: { tool: 'apply_patch', input: (item) => item.operation },
};

/** An Anthropic server tool's result block: `web_search_tool_result`, `code_execution_tool_result`, ... (skipped). */
function isServerToolResult(item: Record<string, unknown>): boolean {
  return typeof item.type === 'string' && item.type.endsWith('_tool_result') && item.type !== 'mcp_tool_result' && typeof item.tool_use_id === 'string';
}

/** The Responses output items of tools OpenAI ran that hostedCall reads. */
const HOSTED_ITEMS = new Set(['mcp_call', 'mcp_approval_request']);

/** The output items that answer them (the Agents SDK's computer result is `computer_call_result`). */
const BUILT_IN_OUTPUTS = new Set(['custom_tool_call_output', 'shell_call_output', 'local_shell_call_output', 'computer_call_output', 'computer_call_result', 'apply_patch_call_output']);

/**
 * A tool OpenAI called during the response (the Agents SDK's `hosted_tool_call` names it by the
 * Responses item type and keeps that item as `providerData`; a Responses output holds the item
 * itself): an MCP server's tool by its own name, its arguments the input and its output or error
 * the output (it reached the server: a real call); an MCP call waiting for approval is a request
 * (nothing ran). The tools OpenAI runs in its sandbox (web and file search, code interpreter, image
 * generation) are skipped, as their Responses items are (NOT_CALLS), and so is a listing of an MCP
 * server's tools: null. A hosted tool of another name is a call by that name.
 */
function hostedCall(name: string, item: Record<string, unknown>): ToolCall | null {
  const data = isRecord(item.providerData) ? item.providerData : {};
  switch (name) {
    case 'mcp_call':
    case 'mcp_approval_request': {
      const tool = typeof data.name === 'string' ? data.name : name;
      const input = parseArguments(item.arguments ?? data.arguments);
      if (name === 'mcp_approval_request') return { tool: clipName(tool), input, output: null, mocked: true };
      const error = data.error ?? null;
      return { tool: clipName(tool), input, output: error !== null ? { error: jsonOrNull(error) } : jsonOrNull(item.output ?? data.output ?? null), mocked: false };
    }
    case 'web_search_call':
    case 'file_search_call':
    case 'code_interpreter_call':
    case 'image_generation_call':
    case 'mcp_list_tools':
      return null;
    default:
      return { tool: clipName(name), input: parseArguments(item.arguments ?? null), output: jsonOrNull(item.output ?? null), mocked: false };
  }
}

/** An AI SDK UI message tool part: `tool-<name>` (static) or `dynamic-tool` with `toolName`. */
function isUiToolPart(item: Record<string, unknown>): boolean {
  if (typeof item.toolCallId !== 'string' || typeof item.type !== 'string') return false;
  if (item.type === 'dynamic-tool') return typeof item.toolName === 'string';
  return item.type.startsWith('tool-') && item.type.length > 5 && item.type !== 'tool-call' && item.type !== 'tool-result' && item.type !== 'tool-error';
}

/**
 * The output of an AI SDK call whose approval was refused (AI SDK 7): it did not run, and why, when
 * the approval said (docs/presets.md, "Presets"). `said`: the part or state that says so.
 */
export function deniedOutput(said: string, reason: unknown): { error: string } {
  const why = typeof reason === 'string' ? reason.replace(/\s+/g, ' ').trim() : '';
  return { error: `the call was denied (${said})${why === '' ? '' : `: ${why.length <= 200 ? why : `${headOf(why, 199)}…`}`}; it did not run` };
}

/**
 * A UI tool part ran on the server when it has an output (or an error): a real call; one denied
 * ran nothing, its output saying so; else a request. One the provider ran itself
 * (`providerExecuted`) is skipped, as a stream's is (null).
 */
function uiToolCall(item: Record<string, unknown>): ToolCall | null {
  if (item.providerExecuted === true) return null;
  const name = item.type === 'dynamic-tool' ? String(item.toolName) : String(item.type).slice('tool-'.length);
  if (item.state === 'output-denied') return { tool: clipName(name), input: jsonOrNull(item.input), output: deniedOutput('output-denied', isRecord(item.approval) ? item.approval.reason : undefined), mocked: true };
  if (item.state === 'output-available' || item.output !== undefined) return { tool: clipName(name), input: jsonOrNull(item.input), output: jsonOrNull(item.output), mocked: false };
  if (item.state === 'output-error') return { tool: clipName(name), input: jsonOrNull(item.input), output: { error: jsonOrNull(item.errorText) }, mocked: false };
  return { tool: clipName(name), input: jsonOrNull(item.input), output: null, mocked: true };
}

/** A content part of a shape this reader does not know that still speaks of a tool: refused, not skipped. */
function namesATool(part: Record<string, unknown>): boolean {
  return /tool|function/i.test(String(part.type)) || ['toolName', 'toolCallId', 'tool_call_id', 'name', 'function'].some((k) => k in part);
}

function clipName(name: string): string {
  return name.length > MAX_TOOL_NAME ? `${headOf(name, MAX_TOOL_NAME)}…` : name;
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

/** How deep and how wide `findToolCallPaths` looks: a response body, not a document. */
const SEARCH_DEPTH = 6;
const SEARCH_ITEMS = 50;

/**
 * The dotted paths (`response.toolCalls` syntax, array indexes as segments) of the lists in a
 * response that hold tool calls this reader reads, shallowest first, at most `limit`: what a hint
 * may offer as `agent.response.toolCalls` (docs/presets.md, "Tool calls"). A list that reads as
 * calls is not searched further; none found means no path would read a tool call from this response.
 */
export function findToolCallPaths(json: unknown, limit = 3): string[] {
  const found: string[] = [];
  let level: [string, unknown][] = [['', json]];
  for (let depth = 0; depth <= SEARCH_DEPTH && level.length > 0 && found.length < limit; depth++) {
    const next: [string, unknown][] = [];
    for (const [path, value] of level) {
      if (found.length >= limit) break;
      const at = (key: string): string => (path === '' ? key : `${path}.${key}`);
      if (Array.isArray(value)) {
        const decoded = value.length > 0 ? decodeToolCalls(value) : null;
        if (decoded?.ok && decoded.value.length > 0) {
          found.push(path);
          continue;
        }
        value.slice(0, SEARCH_ITEMS).forEach((item, i) => next.push([at(String(i)), item]));
      } else if (isRecord(value)) {
        for (const [key, item] of Object.entries(value).slice(0, SEARCH_ITEMS)) if (!key.includes('.')) next.push([at(key), item]);
      }
    }
    level = next;
  }
  return found;
}
