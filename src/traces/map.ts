// What is read from a turn's spans (docs/traces.md, "What is read from spans"): tool calls merged
// with the response's, errors, token usage, where the time went, and how many spans were of no kind
// read here. Pure: spans in, plain data out; no clock, no I/O. The receiver and the query clients
// hand over `Span[]`; the replay path calls `readTurnSpans` once per turn after collecting them.
//
// Three families of span are read, each by its own attributes (never by a vendor's name alone):
//   - OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name` execute_tool (a tool) or
//     chat / text_completion / generate_content (a model call); the AI SDK 7 integration
//     (`@ai-sdk/otel`) and Mastra's `@mastra/otel-exporter` write these, with `invoke_agent` for the
//     agent-level span and AI SDK 7's `agent_step` for its steps, which are not read (docs/traces.md,
//     "Set-up: Vercel AI SDK" and "Set-up: Mastra");
//   - the AI SDK's own spans (AI SDK 5 and `LegacyOpenTelemetry`): `ai.toolCall` (a tool),
//     `ai.<op>.doGenerate` / `ai.<op>.doStream` (a model call); `ai.generateText` / `ai.streamText`
//     repeat their steps' usage and are not read;
//   - OpenInference: `openinference.span.kind` TOOL (a tool) or LLM (a model call).

import { jsonEqual } from '../evaluate/match.js';
import { headOf } from '../words.js';
import { MAX_REPORTED_TOKENS } from '../agent/usage.js';
import { MAX_TOOL_CALL_DEPTH, nestsDeeperThan } from '../agent/tool-calls.js';
import type { AgentErrorEntry, JsonValue, Span, SpanAttributeValue, SpanCounts, TimeSplit, TokenUsage, ToolCall } from '../types.js';

export type SpanKind = 'model' | 'tool';

/** Longest tool name kept, as for the response's calls: a name is an identifier, not a document. */
const MAX_TOOL_NAME = 200;
/** Longest error message kept from a span's status. */
const MAX_MESSAGE = 500;

const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);
/** The AI SDK's model-call spans: `ai.generateText.doGenerate`, `ai.streamText.doStream`, `ai.generateObject.doGenerate`, ... */
const AI_SDK_MODEL_CALL = /^ai\.[A-Za-z]+\.do(?:Generate|Stream)$/;
/** The message of the error `agent-replay/mocks` throws for a call no mock answers (src/mocks/index.ts). */
const UNMOCKED_PREFIX = 'agent-replay: no mock answers ';

/** The AI SDK names its spans by operation id; `ai.operationId` is the same id, kept when a span is renamed. */
function aiSdkOperation(span: Span): string {
  const id = span.attributes['ai.operationId'];
  return typeof id === 'string' ? id : span.name;
}

/** Is this span a model call, a tool execution, or of no kind read here (null)? */
export function spanKind(span: Span): SpanKind | null {
  const op = span.attributes['gen_ai.operation.name'];
  if (op === 'execute_tool') return 'tool';
  if (typeof op === 'string' && MODEL_OPERATIONS.has(op)) return 'model';
  const aiOp = aiSdkOperation(span);
  if (aiOp === 'ai.toolCall') return 'tool';
  if (AI_SDK_MODEL_CALL.test(aiOp)) return 'model';
  const oi = span.attributes['openinference.span.kind'];
  if (typeof oi === 'string') {
    if (oi.toUpperCase() === 'TOOL') return 'tool';
    if (oi.toUpperCase() === 'LLM') return 'model';
  }
  return null;
}

function text(value: SpanAttributeValue | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The tool a tool span ran: its convention's attribute, else the GenAI span name `execute_tool <name>`. */
export function toolNameOf(span: Span): string {
  const a = span.attributes;
  const named = text(a['gen_ai.tool.name']) ?? text(a['ai.toolCall.name']) ?? text(a['tool.name']);
  const fromSpanName = /^execute_tool (.+)$/.exec(span.name)?.[1] ?? null;
  return headOf(named ?? fromSpanName ?? span.name, MAX_TOOL_NAME);
}

/**
 * An attribute as a JSON value: JSON text parsed, other text kept as text, absent as null. JSON that
 * nests deeper than a tool call may (MAX_TOOL_CALL_DEPTH, docs/traces.md) is kept as its text too.
 */
function jsonOf(value: SpanAttributeValue | undefined): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return value;
  try {
    const parsed = JSON.parse(value) as JsonValue;
    return nestsDeeperThan(parsed, MAX_TOOL_CALL_DEPTH) ? value : parsed;
  } catch {
    return value;
  }
}

function firstPresent(attributes: Span['attributes'], keys: readonly string[]): SpanAttributeValue | undefined {
  for (const k of keys) if (attributes[k] !== undefined) return attributes[k];
  return undefined;
}

const INPUT_KEYS = ['gen_ai.tool.call.arguments', 'ai.toolCall.args', 'input.value'];
const OUTPUT_KEYS = ['gen_ai.tool.call.result', 'ai.toolCall.result', 'output.value'];

/**
 * A LangChain tool's result as OpenInference's LangChain instrumentation records it,
 * `{"output": <the ToolMessage serialized>}`, read as the message's text content (JSON text parsed);
 * anything else as it is (docs/traces.md, "Set-up: LangGraph / LangChain").
 */
function unwrapToolMessage(output: JsonValue): JsonValue {
  if (!isObject(output) || Object.keys(output).length !== 1) return output;
  const message = output['output'];
  if (!isObject(message) || message['lc'] !== 1 || message['type'] !== 'constructor') return output;
  const id = message['id'];
  const kwargs = message['kwargs'];
  if (!Array.isArray(id) || id[id.length - 1] !== 'ToolMessage' || !isObject(kwargs) || typeof kwargs['content'] !== 'string') return output;
  return jsonOf(kwargs['content']);
}

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The call a tool span records. `mocked: false`: a tool span is a tool that ran, and a span has no
 * word for "a mock answered"; the mocks decide afterwards, as for the vendor formats' calls (the
 * call's output equals a matching mock's output: docs/traces.md, "Mocked or real").
 * A failed tool with no recorded result has output `{error: <status message>}`, as a response's tool error.
 */
function callOf(span: Span): ToolCall {
  const a = span.attributes;
  const result = firstPresent(a, OUTPUT_KEYS);
  const output = result === undefined && span.status === 'error' ? { error: span.statusMessage ?? 'the tool failed' } : unwrapToolMessage(jsonOf(result));
  return { tool: toolNameOf(span), input: jsonOf(firstPresent(a, INPUT_KEYS)), output, mocked: false, source: 'trace' };
}

/**
 * The spans below a span (its descendants), found when asked and kept: a walk with a stack of its
 * own, so a chain thousands of spans deep is read like a flat one (a parent loop in malformed data
 * is walked once).
 */
function descendantsOf(spans: readonly Span[]): { get(id: string): Span[] } {
  const children = new Map<string, Span[]>();
  for (const s of spans) {
    if (s.parentSpanId === null) continue;
    const list = children.get(s.parentSpanId);
    if (list === undefined) children.set(s.parentSpanId, [s]);
    else list.push(s);
  }
  const memo = new Map<string, Span[]>();
  return {
    get(id) {
      const known = memo.get(id);
      if (known) return known;
      const out: Span[] = [];
      const seen = new Set<string>([id]);
      const stack = [...(children.get(id) ?? [])].reverse();
      while (stack.length > 0) {
        const c = stack.pop() as Span;
        if (seen.has(c.spanId)) continue;
        seen.add(c.spanId);
        out.push(c);
        const grand = children.get(c.spanId);
        if (grand !== undefined) for (let i = grand.length - 1; i >= 0; i--) stack.push(grand[i] as Span);
      }
      memo.set(id, out);
      return out;
    },
  };
}

const byStart = (a: Span, b: Span): number => a.startMs - b.startMs || a.endMs - b.endMs || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

// --- intervals --------------------------------------------------------------------------------------

type Interval = [number, number];

/** Sorted, disjoint intervals covering the same time. */
function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

const length = (intervals: readonly Interval[]): number => intervals.reduce((sum, [s, e]) => sum + (e - s), 0);

/** The time in `a` not in `b` (both unions). */
function minus(a: readonly Interval[], b: readonly Interval[]): number {
  let total = length(a);
  for (const [as, ae] of a) for (const [bs, be] of b) total -= Math.max(0, Math.min(ae, be) - Math.max(as, bs));
  return total;
}

const intervalOf = (s: Span): Interval => [s.startMs, Math.max(s.startMs, s.endMs)];

// --- the turn -----------------------------------------------------------------------------------------

export interface TurnForSpans {
  /** The trace id sent in the turn's `traceparent`: only this trace's spans are the turn's. */
  traceId: string;
  /** The turn's latency (request sent to last byte), or null when unmeasured: other time is then 0. */
  latencyMs: number | null;
}

/** What the response itself reported for the turn. */
export interface ResponseSide {
  /** Null when the agent does not report tool calls. */
  toolCalls: ToolCall[] | null;
  usage: TokenUsage | null;
  /** The errors the response reported (absent: none): a tool span's error they already name is not read again. */
  errors?: readonly AgentErrorEntry[];
}

export interface SpanReading {
  /**
   * The response's calls merged with the spans' (docs/traces.md, "Tool calls"). With no span of the
   * turn, the response's calls exactly as they were (null stays null: nothing is known).
   */
  toolCalls: ToolCall[] | null;
  /**
   * One entry per ERROR span of the turn (an error its parent repeats with the same message counted
   * once, and a tool's error the response reported with the same message left to the response's entry).
   */
  errors: AgentErrorEntry[];
  /** The response's own usage when it has one, else the sum over the model-call spans, else null. */
  usage: TokenUsage | null;
  /** Null when the turn has no span. */
  time: TimeSplit | null;
  /** `late` is the source's to count (spans that arrive after this reading). */
  counts: Omit<SpanCounts, 'late'>;
}

/**
 * The spans of the attempt that answered a turn (docs/traces.md, "Retried requests"). Each attempt
 * of a turn sends its own parent span id in the turn's trace; when the turn was `retried`, a span is
 * the turn's only when its chain of parents, through the spans at hand, reaches `answered` (the
 * answered attempt's span id): the spans under a failed attempt's id are that attempt's, and a root
 * or a span whose chain stops at a span not at hand cannot be shown to be the answered attempt's, so
 * neither is read. A turn sent once reads every span it is given, roots included. A walk with a
 * stack of its own, each span decided once (a parent loop in malformed data is no chain).
 */
export function spansOfAttempt(spans: readonly Span[], answered: string, retried: boolean): readonly Span[] {
  if (!retried) return spans;
  const byId = new Map(spans.map((s) => [s.spanId, s] as const));
  const under = new Map<string, boolean>();
  const isUnder = (span: Span): boolean => {
    const path: string[] = [];
    const onPath = new Set<string>();
    let verdict = false;
    for (let s: Span | undefined = span; s !== undefined; ) {
      const known = under.get(s.spanId);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      path.push(s.spanId);
      onPath.add(s.spanId);
      if (s.parentSpanId === answered) {
        verdict = true;
        break;
      }
      const parent: Span | undefined = s.parentSpanId === null ? undefined : byId.get(s.parentSpanId);
      s = parent === undefined || onPath.has(parent.spanId) ? undefined : parent;
    }
    for (const id of path) under.set(id, verdict);
    return verdict;
  };
  return spans.filter(isUnder);
}

/** The most spans one turn is read from (docs/traces.md, "What is read from spans"): a turn is a few dozen. */
export const MAX_TURN_SPANS = 2000;

/** Read one turn's spans (docs/traces.md, "What is read from spans"). */
export function readTurnSpans(allSpans: readonly Span[], turn: TurnForSpans, response: ResponseSide): SpanReading {
  const all = allSpans.filter((s) => s.traceId === turn.traceId).sort(byStart);
  if (all.length === 0) return { toolCalls: response.toolCalls, errors: [], usage: response.usage, time: null, counts: { count: 0, ignored: 0 } };
  // A turn is read from its first MAX_TURN_SPANS spans by start; the others are counted as ignored.
  const spans = all.length > MAX_TURN_SPANS ? all.slice(0, MAX_TURN_SPANS) : all;
  const beyond = all.length - spans.length;
  const kinds = new Map(spans.map((s) => [s.spanId, spanKind(s)] as const));
  const below = descendantsOf(spans);
  const kindOf = (s: Span): SpanKind | null => kinds.get(s.spanId) ?? null;
  const tools = spans.filter((s) => kindOf(s) === 'tool');
  const models = spans.filter((s) => kindOf(s) === 'model');

  // Two instrumentations of one tool (an OpenInference TOOL span around a GenAI execute_tool span of
  // the same tool) are one call: the innermost span is the call.
  const callSpans = tools.filter((s) => !(below.get(s.spanId) ?? []).some((d) => kindOf(d) === 'tool' && toolNameOf(d) === toolNameOf(s)));
  return {
    toolCalls: mergeCalls(response.toolCalls, callSpans.map(callOf)),
    errors: errorsOf(spans, below, kindOf, response.errors ?? []),
    usage: response.usage ?? usageOf(models, below, kindOf),
    time: timeOf(models, tools, turn.latencyMs),
    counts: { count: all.length, ignored: beyond + spans.filter((s) => kindOf(s) === null && s.status !== 'error').length },
  };
}

/**
 * Attribution (docs/traces.md, "Tool calls"): a response call and a trace call of the same tool with
 * deep-equal inputs are one call, `source: both`, kept as the response reported it; each response
 * call pairs with at most one span, in order. The response's calls come first (in its order), then
 * the calls seen only in spans, by start time.
 */
export function mergeCalls(responseCalls: readonly ToolCall[] | null, traceCalls: readonly ToolCall[]): ToolCall[] {
  const unpaired = [...traceCalls];
  const calls = responseCalls ?? [];
  const both = calls.map((call) => {
    const i = unpaired.findIndex((t) => t.tool === call.tool && jsonEqual(t.input, call.input));
    if (i >= 0) unpaired.splice(i, 1);
    return i >= 0;
  });
  // A span that did not record its arguments (the GenAI conventions leave them opt-in) is the call of
  // the same tool the response reported, once no span with its input is left: the one call is not
  // listed twice (docs/traces.md, "Attribution"). So is a span that recorded its input as bare text
  // (OpenInference's LangChain instrumentation writes a tool of one text argument, `{input: "1234"}` in
  // the response, as `input.value: 1234`) when that text is the response's one argument.
  calls.forEach((call, k) => {
    if (both[k] === true) return;
    const i = unpaired.findIndex((t) => t.tool === call.tool && (t.input === null || (typeof t.input === 'string' && soleText(call.input) === t.input)));
    if (i >= 0) unpaired.splice(i, 1);
    both[k] = i >= 0;
  });
  const out = calls.map((call, k): ToolCall => ({ ...call, source: both[k] === true ? 'both' : 'response' }));
  return [...out, ...unpaired.map((c): ToolCall => ({ ...c, source: 'trace' }))];
}

/** The text of an input of one argument whose value is text (`{input: "1234"}`), else null. */
function soleText(input: JsonValue): string | null {
  if (!isObject(input)) return null;
  const keys = Object.keys(input);
  const value = keys.length === 1 ? input[keys[0] as string] : undefined;
  return typeof value === 'string' ? value : null;
}

/**
 * An entry per ERROR span, in start order: kind `unmocked_tool` when the message is, or holds, the
 * one `agent-replay/mocks` throws for a call no mock answers (the OpenAI Agents SDK wraps a tool's
 * error: `Error running tool (non-fatal): {"tool_name": ..., "error": "UnmockedToolError: ..."}`),
 * else `span_error`. An error that a parent
 * span repeats with the same message (an exception propagating up) is the child's alone, and a
 * model call's error is none when the call was tried again and answered, and a tool's error is the
 * response's entry when the response reported an error of the same tool with the same message (docs/traces.md, "Errors").
 */
function errorsOf(spans: readonly Span[], below: { get(id: string): Span[] }, kindOf: (s: Span) => SpanKind | null, reported: readonly AgentErrorEntry[]): AgentErrorEntry[] {
  const failed = spans.filter((s) => s.status === 'error');
  const repeated = (s: Span): boolean => (below.get(s.spanId) ?? []).some((d) => d.status === 'error' && d.statusMessage === s.statusMessage);
  // A model call tried again (the same span name under the same parent, started once it had ended)
  // and answered: a provider's 429 or 529 that the framework's own retry absorbed (the AI SDK retries
  // twice by default), not an agent error. A call of the same name that ran beside it (started before
  // it ended: two questions asked at once) did not answer for it. Within a millisecond: the
  // OpenTelemetry JS SDK stamps a start in whole milliseconds, an end to the fraction. A tool's
  // failure stands: the agent may have told the user.
  const retried = (s: Span): boolean =>
    s.parentSpanId !== null &&
    kindOf(s) === 'model' &&
    spans.some((o) => o !== s && o.parentSpanId === s.parentSpanId && o.name === s.name && o.status !== 'error' && o.startMs > s.endMs - 1 && kindOf(o) === 'model');
  // One failure reported twice, once in the response's errors and once as its tool span's status.
  const told = (s: Span): boolean => kindOf(s) === 'tool' && s.statusMessage !== null && reported.some((e) => e.tool === toolNameOf(s) && e.message.trim() === (s.statusMessage as string).trim());
  return failed
    .filter((s) => !repeated(s) && !retried(s) && !told(s))
    .map((s): AgentErrorEntry => {
      const message = headOf(s.statusMessage ?? '', MAX_MESSAGE);
      return {
        kind: message.includes(UNMOCKED_PREFIX) ? 'unmocked_tool' : 'span_error',
        tool: kindOf(s) === 'tool' ? toolNameOf(s) : null,
        message: `span ${headOf(s.name, MAX_TOOL_NAME)} failed${message === '' ? ' (status ERROR, no message)' : `: ${message}`}`,
      };
    });
}

/** A token count attribute: a whole number from 0 to MAX_REPORTED_TOKENS (an integer as text too), else null (docs/traces.md, "Usage"). */
function countOf(value: SpanAttributeValue | undefined): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_REPORTED_TOKENS ? n : null;
}

const INPUT_TOKEN_KEYS = ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.token_count.prompt'];
const OUTPUT_TOKEN_KEYS = ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.token_count.completion'];

function tokensOf(span: Span): TokenUsage | null {
  const input = countOf(firstPresent(span.attributes, INPUT_TOKEN_KEYS));
  const output = countOf(firstPresent(span.attributes, OUTPUT_TOKEN_KEYS));
  return input === null && output === null ? null : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/**
 * Usage from spans: the sum over model-call spans only (agent-level spans repeat their steps' sums);
 * a model-call span with a model-call span below it that reports tokens (two instrumentations of one
 * call) counts only through the inner one. Null when no model-call span reports tokens.
 */
function usageOf(models: readonly Span[], below: { get(id: string): Span[] }, kindOf: (s: Span) => SpanKind | null): TokenUsage | null {
  const counted = models.filter((s) => !(below.get(s.spanId) ?? []).some((d) => kindOf(d) === 'model' && tokensOf(d) !== null));
  const reported = counted.map(tokensOf).filter((t): t is TokenUsage => t !== null);
  if (reported.length === 0) return null;
  return { inputTokens: reported.reduce((n, t) => n + t.inputTokens, 0), outputTokens: reported.reduce((n, t) => n + t.outputTokens, 0) };
}

/**
 * Time split (docs/traces.md, "Time"): tool time is the union of the tool spans' intervals; model
 * time the union of the model-call spans' intervals less any tool time inside them (a tool run within
 * a model span is tool time, never counted twice); other is the latency less both, not below 0.
 * Each tool's time is the union of its own spans. Whole milliseconds.
 */
function timeOf(models: readonly Span[], tools: readonly Span[], latencyMs: number | null): TimeSplit {
  const toolUnion = union(tools.map(intervalOf));
  const toolMs = Math.round(length(toolUnion));
  const modelMs = Math.round(minus(union(models.map(intervalOf)), toolUnion));
  const otherMs = latencyMs === null ? 0 : Math.max(0, Math.round(latencyMs) - modelMs - toolMs);
  const split: TimeSplit = { modelMs, toolMs, otherMs };
  if (tools.length > 0) {
    const byTool = new Map<string, Interval[]>();
    for (const s of tools) {
      const list = byTool.get(toolNameOf(s));
      if (list === undefined) byTool.set(toolNameOf(s), [intervalOf(s)]);
      else list.push(intervalOf(s));
    }
    split.tools = Object.fromEntries([...byTool.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, iv]) => [name, Math.round(length(union(iv)))]));
  }
  return split;
}
