// Langfuse's observations -> `Span` (docs/traces.md, "Query: Langfuse"), from either API: v2's
// `GET /api/public/v2/observations?traceId=<id>` (Langfuse v4, and Cloud since the v1 trace endpoint
// was removed there: `{data, meta: {cursor}}`, input and output as text) or v1's
// `GET /api/public/traces/<id>` (TraceWithFullDetails: `observations`). Each observation is a span:
// its id, parentObservationId, name, startTime / endTime (ISO), and level ERROR as status error with
// its statusMessage. Langfuse keeps an OpenTelemetry span's attributes in the observation's metadata:
// under `attributes` (v1, and rows v4 copied from v3), or flattened into `attributes.<key>` keys (v4);
// every value as text (a number as "123", a list as its JSON text; the whole map sometimes as JSON
// text). They are kept as they come (the span mapping reads a count given as text); and a TOOL or
// GENERATION observation also gets the GenAI semantic-convention attributes its own fields say (tool
// name, input and output; model and usage), unless the span had them, so the span mapping reads a
// tool call or a model call whichever SDK reported it to Langfuse.

import type { Span, SpanAttributeValue } from '../types.js';
import { MAX_TOOL_CALL_DEPTH, nestsDeeperThan } from '../agent/tool-calls.js';
import { TOO_DEEP_TEXT } from './otlp.js';

/** The spans of a v1 trace answer (`observations`); throws on a body that is no Langfuse trace. */
export function spansOfLangfuse(body: unknown): Span[] {
  if (!isObject(body) || !Array.isArray(body.observations)) throw new Error('not a Langfuse trace: expected an object with observations');
  const traceId = typeof body.id === 'string' ? body.id.toLowerCase() : '';
  return spansOfObservations(body.observations, traceId);
}

/** One page of v2 observations: its spans and the cursor of the next page (null: the last). Throws on a body that is no such page. */
export function spansOfLangfusePage(body: unknown, traceId: string): { spans: Span[]; cursor: string | null } {
  if (!isObject(body) || !Array.isArray(body.data)) throw new Error('not Langfuse observations: expected an object with data');
  const meta = isObject(body.meta) ? body.meta : {};
  const cursor = typeof meta.cursor === 'string' && meta.cursor !== '' ? meta.cursor : null;
  return { spans: spansOfObservations(body.data, traceId), cursor };
}

function spansOfObservations(observations: readonly unknown[], traceId: string): Span[] {
  const out: Span[] = [];
  for (const o of observations) {
    if (!isObject(o) || typeof o.id !== 'string') continue;
    const startMs = timeOf(o.startTime);
    if (startMs === null) continue;
    const endMs = timeOf(o.endTime);
    const metadata = objectOf(o.metadata);
    const attributes = attributesOf(nested(metadata, 'attributes'));
    const type = typeof o.type === 'string' ? o.type.toUpperCase() : 'SPAN';
    const name = typeof o.name === 'string' && o.name !== '' ? o.name : type.toLowerCase();
    attributes['langfuse.observation.type'] = type;
    if (type === 'TOOL') toolAttributes(attributes, name, o);
    if (type === 'GENERATION') generationAttributes(attributes, o);
    const error = o.level === 'ERROR';
    const serviceName = nested(metadata, 'resourceAttributes')?.['service.name'];
    out.push({
      traceId: typeof o.traceId === 'string' && o.traceId !== '' ? o.traceId.toLowerCase() : traceId,
      spanId: o.id.toLowerCase(),
      parentSpanId: typeof o.parentObservationId === 'string' && o.parentObservationId !== '' ? o.parentObservationId.toLowerCase() : null,
      name,
      startMs,
      endMs: endMs === null || endMs < startMs ? startMs : endMs,
      status: error ? 'error' : 'unset',
      statusMessage: error && typeof o.statusMessage === 'string' && o.statusMessage !== '' ? o.statusMessage : null,
      attributes,
      service: typeof serviceName === 'string' && serviceName !== '' ? serviceName : null,
    });
  }
  return out.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** metadata[key] as a map: the object (or JSON text) under it, merged with the `key.<name>` keys v4 flattens it into. */
function nested(metadata: Record<string, unknown> | null, key: string): Record<string, unknown> | null {
  if (metadata === null) return null;
  // By name in a Map: a name is the agent's, and may be `constructor` or `__proto__`.
  const out = new Map(Object.entries(objectOf(metadata[key]) ?? {}));
  const prefix = `${key}.`;
  for (const [k, v] of Object.entries(metadata)) if (k.startsWith(prefix) && k.length > prefix.length && !out.has(k.slice(prefix.length))) out.set(k.slice(prefix.length), v);
  return out.size === 0 ? null : Object.fromEntries(out);
}

/** The attributes a span names its tool by, in each convention (docs/traces.md, "Tool calls"). */
const TOOL_NAME_KEYS = ['gen_ai.tool.name', 'ai.toolCall.name', 'tool.name'];

function toolAttributes(attributes: Record<string, SpanAttributeValue>, name: string, o: Record<string, unknown>): void {
  attributes['gen_ai.operation.name'] ??= 'execute_tool';
  // The observation's name is the span's, and an AI SDK tool span is named "ai.toolCall": a tool
  // name the span gave in its own convention is the tool's (docs/traces.md, "Query: Langfuse").
  if (!TOOL_NAME_KEYS.some((k) => typeof attributes[k] === 'string' && attributes[k] !== '')) attributes['gen_ai.tool.name'] = name;
  if (o.input !== undefined && o.input !== null) attributes['gen_ai.tool.call.arguments'] ??= textOf(o.input);
  if (o.output !== undefined && o.output !== null) attributes['gen_ai.tool.call.result'] ??= textOf(o.output);
}

function generationAttributes(attributes: Record<string, SpanAttributeValue>, o: Record<string, unknown>): void {
  attributes['gen_ai.operation.name'] ??= 'chat';
  if (typeof o.model === 'string' && o.model !== '') attributes['gen_ai.request.model'] ??= o.model;
  // usageDetails (input, output, total) is current; usage (input, output) is v1's deprecated form.
  const details = objectOf(o.usageDetails) ?? {};
  const usage = objectOf(o.usage) ?? {};
  const input = numberOf(details.input) ?? numberOf(usage.input);
  const output = numberOf(details.output) ?? numberOf(usage.output);
  if (input !== null) attributes['gen_ai.usage.input_tokens'] = numberOf(attributes['gen_ai.usage.input_tokens']) ?? input;
  if (output !== null) attributes['gen_ai.usage.output_tokens'] = numberOf(attributes['gen_ai.usage.output_tokens']) ?? output;
}

/** metadata.attributes: values kept as Langfuse returns them (text); a value of another type, as it comes, or as JSON text. */
function attributesOf(map: Record<string, unknown> | null): Record<string, SpanAttributeValue> {
  // Defined, never set: a key named `__proto__` is kept as a key.
  return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]): [string, SpanAttributeValue] => [key, attributeValue(value)]));
}

function attributeValue(value: unknown): SpanAttributeValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return value as Array<string | number | boolean | null>;
  return jsonText(value);
}

/** JSON text of a value, or, nesting deeper than a tool call's input may, the text an OTLP attribute that does reads as (otlp.ts): JSON.stringify would recurse past the stack. */
function jsonText(value: unknown): string {
  return nestsDeeperThan(value, MAX_TOOL_CALL_DEPTH) ? TOO_DEEP_TEXT : JSON.stringify(value);
}

/** An object, or the object a JSON text holds (Langfuse returns nested metadata either way), or null. */
function objectOf(v: unknown): Record<string, unknown> | null {
  if (isObject(v)) return v;
  if (typeof v === 'string' && v.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(v);
      return isObject(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }
  return null;
}

function numberOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) return Number(v);
  return null;
}

function textOf(v: unknown): string {
  return typeof v === 'string' ? v : jsonText(v);
}

function timeOf(v: unknown): number | null {
  if (typeof v !== 'string' || v === '') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
