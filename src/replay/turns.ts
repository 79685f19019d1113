// What one persona turn becomes in the record, shared by scripted and simulated conversations
// (replay/personas.ts, replay/simulated.ts): every agent-supplied text redacted.

import { toolOutput } from '../record/tool-output.js';
import type { AgentErrorEntry, JsonValue, PersonaErrorKind, SessionTurn, TokenUsage, ToolCall, Turn } from '../types.js';

export interface Transcript {
  turns: Turn[];
  unsent: string[];
  /** `usage`: the tokens the failing turn reported when the agent answered it (docs/latency.md, "Usage"). */
  /** `address`: where a connection that failed was tried (SessionTurn's); `toolCalls`: the calls its stream had begun when cut short, as received. */
  failure: { errorKind: PersonaErrorKind; error: string; usage?: TokenUsage; address?: string; toolCalls?: ToolCall[] } | null;
  outcomesReported: boolean;
  /** Redaction changed some text of a turn (then no judge result is reused). */
  redacted?: boolean;
}

/** Every agent-supplied text is redacted before it is recorded, compared or sent to the judge. */
export function toTurn(index: number, message: string | null, a: SessionTurn & { kind: 'replied' }, durationMs: number, redact: (t: string) => string): Turn {
  return {
    index,
    message,
    reply: redact(a.reply),
    route: a.route === null ? null : { conversation: redact(a.route.conversation), stage: redact(a.route.stage) },
    offTrack: a.offTrack.map((o) => redactJson(o as JsonValue, redact)),
    toolCalls: a.toolCalls === null ? null : recordedToolCalls(a.toolCalls, redact),
    outcome: a.outcome === null ? null : redact(a.outcome),
    errors: a.errors.map((e): AgentErrorEntry => ({ kind: redact(e.kind), tool: e.tool === null ? null : redact(e.tool), message: redact(e.message) })),
    durationMs,
    ...(a.timing === undefined ? {} : { latencyMs: a.timing.latencyMs, firstTokenMs: a.timing.firstTokenMs }),
    usage: a.usage ?? null,
    ...(a.usageUnread === true && a.usage == null ? { usageUnread: true as const } : {}),
    // The trace id the turn's request carried (docs/traces.md, "traceparent"); ids are hex, nothing to redact.
    ...(a.trace === undefined ? {} : { traceId: a.trace.traceId }),
    // What the turn's spans showed (docs/traces.md): only when a span reader read them.
    ...(a.spans === undefined ? {} : { spans: a.spans }),
    ...(a.time === undefined ? {} : { time: a.time }),
    ...(a.waterfall === undefined ? {} : { waterfall: a.waterfall?.map((w) => ({ ...w, name: redact(w.name), tool: w.tool === null ? null : redact(w.tool) })) ?? null }),
    ...(a.toolCallsProblem === undefined ? {} : { toolCallsProblem: a.toolCallsProblem }),
  };
}

/** Tool calls as recorded, for scripts and fixtures alike: the output in one shape, every text redacted. */
export function recordedToolCalls(calls: readonly ToolCall[], redact: (t: string) => string): ToolCall[] {
  // `source` (docs/traces.md, "Attribution") only when a span reader set it: records without traces keep their shape.
  return calls.map((c): ToolCall => ({ tool: redact(c.tool), input: redactJson(c.input, redact), output: redactJson(toolOutput(c.output), redact), mocked: c.mocked, ...(c.source !== undefined ? { source: c.source } : {}) }));
}

function redactJson(value: JsonValue, redact: (t: string) => string): JsonValue {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact));
  if (value !== null && typeof value === 'object') {
    // Defined, never set: a key is the agent's and may be `__proto__` (an assignment would set the prototype).
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactJson(v, redact)]));
  }
  return value;
}
