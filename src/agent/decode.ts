// Vendor response bodies whose reply is not at one dotted path, decoded into `{reply, toolCalls}`
// (read by DECODED_MAPPING's paths). Shapes from the vendors' SDK types: npm `openai` (Response),
// `@anthropic-ai/sdk` (Message), `@langchain/langgraph-sdk` (runs.wait), and Rasa's REST channel.
// Tool calls come out as the vendor's own items (a Responses `function_call` item, an Anthropic
// `tool_use` block) or native `{tool, input, output, mocked}`, and are read by the one tool-call
// reader every mapped path uses (tool-calls.ts).

import type { ResponseDecoder } from '../config.js';
import { describeFound } from './template.js';
import { bodyUsage, readUsage, sumUsage, type UsageRead } from './usage.js';
import { toolOutput } from '../record/tool-output.js';
import { blocksText, decodeToolCalls, keysText } from './tool-calls.js';

/**
 * `reply` is undefined when the response holds no text and no tool call. `toolCalls` is null when
 * the format does not report tool calls (Rasa, plain text streams): the checks that need them are
 * then not evaluated, rather than passed on an empty list.
 */
export interface DecodedReply {
  reply: string | undefined;
  toolCalls: unknown[] | null;
  /**
   * Where each entry of `toolCalls` was in what the agent sent, as the user finds it there (`"output.3"`,
   * `"content_block" on stream event 4 (content_block_start)`): what an error about it names; absent: not known.
   */
  toolCallItems?: string[];
  /** The tokens the response reported (docs/latency.md, "Usage"); absent: none. */
  usage?: UsageRead;
  /** Why `reply` is undefined when the response says so (an Anthropic refusal); absent: it does not. */
  why?: string;
}

/**
 * A failure; `read`, when a stream ended as its format ends but held no reply text and no tool call:
 * what it held (its tool calls, none, and its usage), as a whole body read without a reply is kept.
 */
export type DecodeResult = { ok: true; value: DecodedReply } | { ok: false; error: string; read?: DecodedReply };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function decodeBody(decoder: ResponseDecoder, json: unknown): DecodeResult {
  switch (decoder) {
    case 'openai-responses':
      return decodeOpenAIResponse(json);
    case 'anthropic-messages':
      return decodeAnthropicMessage(json);
    case 'rasa-rest':
      return decodeRasa(json);
    case 'langgraph':
      return decodeLangGraph(json);
    case 'mastra':
      return decodeMastra(json);
  }
}

/** `usage` only when the response said something about tokens, so a decoded reply without any keeps its shape. */
export function usageField(usage: UsageRead): { usage?: UsageRead } {
  return usage.kind === 'none' ? {} : { usage };
}

/** OpenAI Responses `Response`: `output[]` items; message items hold `output_text` and `refusal` parts. */
export function decodeOpenAIResponse(json: unknown): DecodeResult {
  if (!isRecord(json) || !Array.isArray(json.output)) return { ok: false, error: `response is not an OpenAI Responses object: no "output" list (found ${describeFound(isRecord(json) ? json.output : json)})` };
  if (isRecord(json.error) && typeof json.error.message === 'string') return { ok: false, error: `the response failed: ${json.error.message}` };
  // As a stream's `response.incomplete` does (docs/presets.md, "Presets"): a response the model was
  // stopped in (`max_output_tokens`, `content_filter`) is no reply, however much text it holds.
  if (json.status === 'incomplete') {
    const reason = isRecord(json.incomplete_details) && typeof json.incomplete_details.reason === 'string' ? ` (${json.incomplete_details.reason})` : '';
    return { ok: false, error: `the response is incomplete${reason}: the model was stopped before it finished` };
  }
  // One text per message item: an Agents SDK run lists a message for each model call (one before a
  // tool call, one after); they are joined with a blank line, not run together, and the parts of
  // one message as sent (docs/presets.md, "Presets").
  const texts: string[] = [];
  const toolCalls: unknown[] = [];
  const toolCallItems: string[] = [];
  for (const [i, item] of json.output.entries()) {
    if (!isRecord(item)) continue;
    if (item.type === 'message' && Array.isArray(item.content)) {
      const parts: string[] = [];
      for (const part of item.content) {
        if (!isRecord(part)) continue;
        if (part.type === 'output_text' && typeof part.text === 'string') parts.push(part.text);
        // The model's refusal is the message the user reads.
        else if (part.type === 'refusal' && typeof part.refusal === 'string') parts.push(part.refusal);
      }
      if (parts.length > 0) texts.push(parts.join(''));
    } else if (isResponsesToolItem(item)) {
      // Every other item goes to the tool-call reader: a function call, the result the agent lists
      // beside it (it ran the tool; the reader pairs them), a built-in or hosted tool's call (a
      // shell command the Agents SDK ran, an MCP server's tool), and an item it does not know,
      // which it reports instead of the call being dropped (docs/presets.md, "Tool calls").
      toolCalls.push(item);
      toolCallItems.push(`"output.${i}"`);
    }
  }
  const said = texts.filter((t) => t !== '');
  const reply = texts.length > 0 || holdsACall(toolCalls) ? said.join('\n\n') : undefined;
  return { ok: true, value: { reply, toolCalls, toolCallItems, ...usageField(bodyUsage(json)) } };
}

/** Anthropic content blocks that hold no tool call: text and the model's thinking. */
export const ANTHROPIC_NOT_TOOLS = new Set(['text', 'thinking', 'redacted_thinking']);

/** Responses output items that hold no tool call: messages, the model's reasoning, compacted context. */
const RESPONSES_NOT_TOOLS = new Set(['message', 'reasoning', 'compaction']);

/** A Responses output item (or an Agents SDK item) the tool-call reader is given. */
export function isResponsesToolItem(item: Record<string, unknown>): boolean {
  return !RESPONSES_NOT_TOOLS.has(String(item.type));
}

/**
 * Whether Responses items (or Anthropic blocks) hold a tool call, which makes an answer without
 * text the reply "": results or skipped items alone (a web search) do not. Items the reader refuses count as a call, so the
 * turn keeps them and reports them rather than calling the answer empty.
 */
export function holdsACall(items: readonly unknown[]): boolean {
  const calls = decodeToolCalls(items);
  return !calls.ok || calls.value.length > 0;
}

/** Anthropic `Message`: `content[]` blocks; text blocks are the reply, tool_use blocks are calls. */
export function decodeAnthropicMessage(json: unknown): DecodeResult {
  if (isRecord(json) && json.type === 'error') return { ok: false, error: `the API returned an error: ${errorText(json.error)}` };
  if (!isRecord(json) || !Array.isArray(json.content)) return { ok: false, error: `response is not an Anthropic message: no "content" list (found ${describeFound(isRecord(json) ? json.content : json)})` };
  const texts: string[] = [];
  const toolCalls: unknown[] = [];
  const toolCallItems: string[] = [];
  for (const [i, block] of json.content.entries()) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    // Every other block but thinking goes to the tool-call reader: a tool_use, the tools Anthropic
    // ran (an MCP server's, its own) with their results, and a block it does not know, which it
    // reports rather than the call being dropped (docs/presets.md, "Tool calls").
    else if (!ANTHROPIC_NOT_TOOLS.has(String(block.type))) {
      toolCalls.push(block);
      toolCallItems.push(`"content.${i}"`);
    }
  }
  const reply = texts.length > 0 || holdsACall(toolCalls) ? texts.join('') : undefined;
  const decoded: DecodeResult = { ok: true, value: { reply, toolCalls, toolCallItems, ...usageField(bodyUsage(json)) } };
  if (decoded.ok && decoded.value.reply === undefined && json.stop_reason === 'refusal') decoded.value.why = anthropicRefusal(json.stop_details);
  return decoded;
}

/**
 * Why an Anthropic message that stopped with `stop_reason: "refusal"` (its streaming classifiers
 * intervened) has no reply: its `stop_details` category and explanation when it sent them. Text
 * sent before the refusal is the reply, as the user saw it.
 */
export function anthropicRefusal(details: unknown): string {
  const category = isRecord(details) && typeof details.category === 'string' ? `, category ${details.category}` : '';
  const explanation = isRecord(details) && typeof details.explanation === 'string' ? `: ${details.explanation}` : '';
  return `the model refused to answer (stop_reason "refusal"${category}) and sent no text${explanation}`;
}

/**
 * Rasa REST channel (rasa/core/channels/rest.py, channel.py): `[{recipient_id, text?, image?, buttons?,
 * attachment?, custom?}]`, one message per part of the bot's responses (Rasa splits a text at blank
 * lines). The reply is what a user reads: each message's text, then its buttons (quick replies come
 * as buttons too), one line each in the form Rasa's own shell prints them (`button_to_string` in
 * Rasa's CLI utilities: "1: Yes (/affirm)", other attributes after " - " as JSON with sorted keys),
 * so a changed, added or removed button is a changed reply (docs/presets.md). Messages are joined
 * by a blank line, which gives a split text back whole. Images, attachments and custom payloads are
 * not text to compare (an image URL may be signed per request). An empty list is Rasa's answer when
 * the bot said nothing and also when handling the message failed (200 `[]` after an exception or a
 * lock timeout), said so.
 */
export function decodeRasa(json: unknown): DecodeResult {
  if (!Array.isArray(json)) return { ok: false, error: `response is not a Rasa REST reply: expected a list of messages (found ${describeFound(json)})` };
  if (json.length === 0) {
    return { ok: false, error: 'Rasa answered an empty list: the bot said nothing, or Rasa failed to handle the message (it answers [] after an exception, a lock timeout or with no model loaded): see the Rasa server log' };
  }
  const parts = json.flatMap((item) => {
    if (!isRecord(item)) return [];
    const lines = [...(typeof item.text === 'string' ? [item.text] : []), ...rasaButtonLines(item.buttons)];
    return lines.length === 0 ? [] : [lines.join('\n')];
  });
  if (parts.length === 0) {
    const kinds = [...new Set(json.flatMap((item) => (isRecord(item) ? ['image', 'buttons', 'custom', 'attachment'].filter((k) => item[k] !== undefined && item[k] !== null) : [])))];
    return { ok: false, error: `Rasa answered ${String(json.length)} ${json.length === 1 ? 'message' : 'messages'} with no text${kinds.length > 0 ? ` (${kinds.join(', ')} only)` : ''}: agent-replay reads the text and buttons of a Rasa reply` };
  }
  return { ok: true, value: { reply: parts.join('\n\n'), toolCalls: null } };
}

/** A message's buttons as Rasa's shell prints them: "1: Yes (/affirm)", "2: Map - {"type": "web_url", "url": "https://..."}". */
function rasaButtonLines(buttons: unknown): string[] {
  if (!Array.isArray(buttons)) return [];
  return buttons.flatMap((button, i) => {
    if (!isRecord(button)) return [];
    const { title, payload, ...rest } = button;
    const shown = (v: unknown): string => (typeof v === 'string' ? v : sortedJson(v));
    const details = Object.keys(rest).length === 0 ? '' : ` - ${sortedJson(rest)}`;
    return [`${i + 1}: ${title === undefined ? '' : shown(title)}${payload === undefined ? '' : ` (${shown(payload)})`}${details}`];
  });
}

/** JSON with sorted keys and Python's separators (", ", ": "), as `json.dumps(value, sort_keys=True)` writes it. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(', ')}]`;
  if (isRecord(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}: ${sortedJson(value[k])}`).join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * LangGraph `runs.wait`: the thread state's values. The reply is the text of the AI messages after
 * the last human message, one per model call (the text a model said before its tool call, then its
 * answer), joined with a blank line as the chat shows them apart; the tool calls are theirs, each
 * with the output of the tool message that answers it (the graph ran the tool: a real call).
 */
export function decodeLangGraph(json: unknown): DecodeResult {
  if (isRecord(json) && isRecord(json.__error__)) {
    const e = json.__error__;
    return { ok: false, error: `the run failed: ${String(e.error ?? 'error')}: ${String(e.message ?? '')}` };
  }
  if (!isRecord(json) || !Array.isArray(json.messages)) return { ok: false, error: `response is not a LangGraph state: no "messages" list (found ${describeFound(isRecord(json) ? json.messages : json)})` };
  // Each message with its place in the state's list, which an error about its calls names.
  const messages = json.messages.flatMap((m: unknown, at) => (isRecord(m) ? [{ m, at }] : []));
  let start = 0;
  messages.forEach(({ m }, i) => {
    if (messageType(m) === 'human') start = i + 1;
  });
  const turn = messages.slice(start);
  const outputs = new Map<string, unknown>();
  // A tool that threw answers with a tool message of `status: "error"` (LangChain's tool node catches
  // it for the model to see): its output is `{error}`, as a thrown AI SDK or Mastra tool's is (docs/presets.md, "Presets").
  for (const { m } of turn) if (messageType(m) === 'tool' && typeof m.tool_call_id === 'string') outputs.set(m.tool_call_id, m.status === 'error' ? { error: toolMessageOutput(m.content) } : toolMessageOutput(m.content));
  const toolCalls: unknown[] = [];
  const toolCallItems: string[] = [];
  const texts: string[] = [];
  // Each AI message of the turn reports its own call's tokens: the turn's are their sum.
  const usage = sumUsage(turn.filter(({ m }) => messageType(m) === 'ai').map(({ m }) => readUsage(m.usage_metadata)));
  for (const { m, at } of turn) {
    if (messageType(m) !== 'ai') continue;
    const text = contentText(m.content);
    // Every AI message the chat shows (useStream, Agent Chat UI), not the last alone: the text
    // before a tool call is what the user read too (docs/presets.md, "Presets").
    if (text !== '') texts.push(text);
    for (const [j, call] of (Array.isArray(m.tool_calls) ? m.tool_calls : []).entries()) {
      if (!isRecord(call) || typeof call.name !== 'string') continue;
      const id = typeof call.id === 'string' ? call.id : null;
      const ran = id !== null && outputs.has(id);
      toolCalls.push({ tool: call.name, input: call.args ?? null, output: ran ? outputs.get(id) : null, mocked: !ran });
      toolCallItems.push(`"messages.${at}.tool_calls.${j}"`);
    }
    // A call whose arguments LangChain could not parse (`invalid_tool_calls`): no tool node runs it,
    // so it is a call that ran nothing, its error the output, as the AI SDK's invalid tool call is
    // (docs/presets.md, "Presets"); dropped, a model that called the tool wrongly looked like one that never called it.
    for (const [j, call] of (Array.isArray(m.invalid_tool_calls) ? m.invalid_tool_calls : []).entries()) {
      if (!isRecord(call) || typeof call.name !== 'string') continue;
      toolCalls.push({ tool: call.name, input: call.args ?? null, output: { error: typeof call.error === 'string' ? call.error : 'the call\'s arguments could not be parsed' }, mocked: true });
      toolCallItems.push(`"messages.${at}.invalid_tool_calls.${j}"`);
    }
  }
  const reply = texts.length > 0 ? texts.join('\n\n') : toolCalls.length > 0 ? '' : undefined;
  return { ok: true, value: { reply, toolCalls, toolCallItems, ...usageField(usage) } };
}

/**
 * Mastra `agent.generate` result (`/api/agents/<id>/generate`): `text` is the reply; the run's
 * `toolCalls` and `toolResults` chunks (`{type, payload: {toolCallId, toolName, args, result}}`)
 * go to the tool-call reader together with the tool-result parts of its `steps`, which pairs each
 * call with its result (the agent ran it).
 * A failed run answers `{error}` (HTTP 500, or an `error` beside the output).
 */
export function decodeMastra(json: unknown): DecodeResult {
  if (!isRecord(json)) return { ok: false, error: `response is not a Mastra generate result (found ${describeFound(json)})` };
  if (json.error !== undefined && json.error !== null) return { ok: false, error: `the agent failed: ${errorText(json.error)}` };
  if (typeof json.text !== 'string' && !Array.isArray(json.toolCalls)) return { ok: false, error: `response is not a Mastra generate result: no "text" and no "toolCalls" (keys: ${keysText(json)})` };
  if (json.finishReason === 'tripwire' || isRecord(json.tripwire)) {
    const reason = isRecord(json.tripwire) && typeof json.tripwire.reason === 'string' ? json.tripwire.reason : 'no reason given';
    return { ok: false, error: `the agent stopped the run (tripwire): ${reason}` };
  }
  // `toolResults` leaves out a tool that threw; the steps' content keeps its tool-result part
  // (output `{type: 'error-text', value}`), so the call is a real call that failed, not a request.
  const placed = (list: unknown, path: string): { item: unknown; at: string }[] => (Array.isArray(list) ? list.map((item: unknown, i) => ({ item, at: `"${path}.${i}"` })) : []);
  const stepResults = (Array.isArray(json.steps) ? json.steps : []).flatMap((step: unknown, s) =>
    isRecord(step) ? placed(step.content, `steps.${s}.content`).filter(({ item }) => isRecord(item) && (item.type === 'tool-result' || item.type === 'tool-error')) : [],
  );
  // Each entry with where it is in the result, which an error about it names.
  const entries = [...placed(json.toolCalls, 'toolCalls'), ...stepResults, ...placed(json.toolResults, 'toolResults')];
  const toolCalls = entries.map(({ item }) => item);
  const toolCallItems = entries.map(({ at }) => at);
  const text = typeof json.text === 'string' ? json.text : '';
  const hasCalls = toolCalls.some((c) => isRecord(c) && c.type === 'tool-call');
  return { ok: true, value: { reply: text !== '' || hasCalls ? text : undefined, toolCalls, toolCallItems, ...usageField(readUsage(json.totalUsage ?? json.usage)) } };
}

/**
 * A tool message's content as the tool returned it: JSON text of an object or array is read back
 * (record/tool-output.ts). Content of text blocks (an MCP server's tool answers `[{type: 'text',
 * text}]`, which LangChain keeps as blocks) is their text, as a chat tool message's is (tool-calls.ts).
 */
function toolMessageOutput(content: unknown): unknown {
  const text = blocksText(content ?? null);
  return typeof text === 'string' ? toolOutput(text) : text;
}

/** `type` of a serialized LangChain message (`human`/`ai`/`tool`), or its OpenAI-style role. */
function messageType(m: Record<string, unknown>): string | null {
  if (typeof m.type === 'string') return m.type;
  if (m.role === 'user') return 'human';
  if (m.role === 'assistant') return 'ai';
  return typeof m.role === 'string' ? m.role : null;
}

/** A message's content: a string, or a list of blocks whose text blocks are joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (typeof b === 'string' ? b : isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/** An error object's message (`{type, message}`), or a short description. */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isRecord(error)) {
    const message = typeof error.message === 'string' ? error.message : null;
    const type = typeof error.type === 'string' ? error.type : typeof error.code === 'string' ? error.code : null;
    if (message !== null) return type !== null ? `${type}: ${message}` : message;
    if (type !== null) return type;
    // A wrapper whose own message is not serialized: Mastra's MastraError (a stream's tool-error
    // chunk) carries the thrown error under `cause`, whose message /generate records (docs/presets.md, "Presets").
    if (isRecord(error.cause) || typeof error.cause === 'string') return errorText(error.cause);
  }
  return describeFound(error);
}
