// OTLP trace data -> `Span` (docs/traces.md, "How spans are read"): the one conversion shared by the
// receiver (protobuf bodies decoded by protobufjs, and OTLP JSON bodies), Tempo and Jaeger. The
// shapes differ only in small ways, all read here:
//   - ids: bytes (protobuf), hex (OTLP JSON, Jaeger) or base64 (Tempo, the protobuf JSON mapping),
//     told apart by their length;
//   - times: a string of nanoseconds (JSON, and protobuf longs decoded as strings) or a number;
//   - enums: numbers (OTLP JSON) or names (`STATUS_CODE_ERROR`, Tempo);
//   - the spans of a resource under `scopeSpans` or the older `instrumentationLibrarySpans`.

import protobuf from 'protobufjs/light.js';
import type { Span, SpanAttributeValue } from '../types.js';
import { OTLP_DESCRIPTOR } from './proto/descriptor.js';
import { MAX_TOOL_CALL_DEPTH } from '../agent/tool-calls.js';

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace);
const ExportRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const ExportResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
const RpcStatus = root.lookupType('google.rpc.Status');

/** What a body held: its spans, and how many were rejected (no valid trace or span id) with why. */
export interface SpansRead {
  spans: Span[];
  rejected: number;
  rejectedWhy: string | null;
}

/** Thrown for a body that is not OTLP trace data at all (the receiver answers 400 with its message). */
export class OtlpFormatError extends Error {
  override name = 'OtlpFormatError';
}

/** An ExportTraceServiceRequest in protobuf. */
export function spansOfProtobuf(body: Uint8Array): SpansRead {
  let message: protobuf.Message;
  try {
    message = ExportRequest.decode(body);
  } catch (e) {
    throw new OtlpFormatError(`not an OTLP ExportTraceServiceRequest in protobuf: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Longs as strings of nanoseconds, bytes as Uint8Array, enums as numbers: what spansOfOtlp reads.
  const data = ExportRequest.toObject(message, { longs: String, enums: Number, defaults: false, arrays: true });
  return spansOfOtlp(data);
}

/** OTLP trace data as an object: `{resourceSpans}` (OTLP JSON, Jaeger's `result`, Tempo v2's `trace`) or Tempo's `{batches}`. */
export function spansOfOtlp(data: unknown): SpansRead {
  if (!isObject(data)) throw new OtlpFormatError('not OTLP trace data: expected an object with resourceSpans');
  const resources = data.resourceSpans ?? data.batches ?? [];
  if (!Array.isArray(resources)) throw new OtlpFormatError('not OTLP trace data: resourceSpans is not a list');
  const out: SpansRead = { spans: [], rejected: 0, rejectedWhy: null };
  for (const rs of resources) {
    if (!isObject(rs)) throw new OtlpFormatError('not OTLP trace data: an entry of resourceSpans is not an object');
    const resourceAttributes = isObject(rs.resource) ? attributesOf(rs.resource.attributes) : {};
    const serviceName = resourceAttributes['service.name'];
    const service = typeof serviceName === 'string' && serviceName !== '' ? serviceName : null;
    const scopes = rs.scopeSpans ?? rs.instrumentationLibrarySpans ?? [];
    if (!Array.isArray(scopes)) throw new OtlpFormatError('not OTLP trace data: scopeSpans is not a list');
    for (const scope of scopes) {
      if (!isObject(scope)) throw new OtlpFormatError('not OTLP trace data: an entry of scopeSpans is not an object');
      const spans = scope.spans ?? [];
      if (!Array.isArray(spans)) throw new OtlpFormatError('not OTLP trace data: spans is not a list');
      for (const raw of spans) {
        if (!isObject(raw)) throw new OtlpFormatError('not OTLP trace data: a span is not an object');
        const span = spanOf(raw, service);
        if (typeof span === 'string') {
          out.rejected += 1;
          out.rejectedWhy ??= span;
        } else out.spans.push(span);
      }
    }
  }
  return out;
}

/** One span, or why it was rejected. */
function spanOf(raw: Record<string, unknown>, service: string | null): Span | string {
  const traceId = idOf(raw.traceId, 16);
  if (traceId === null || /^0+$/.test(traceId)) return `a span has no valid trace id (16 bytes)`;
  const spanId = idOf(raw.spanId, 8);
  if (spanId === null || /^0+$/.test(spanId)) return `a span has no valid span id (8 bytes)`;
  const parent = idOf(raw.parentSpanId, 8);
  const startMs = msOf(raw.startTimeUnixNano);
  const endMs = msOf(raw.endTimeUnixNano);
  const start = startMs ?? endMs ?? 0;
  const attributes = attributesOf(raw.attributes);
  const status = isObject(raw.status) ? raw.status : {};
  const code = statusOf(status.code);
  const message = typeof status.message === 'string' && status.message !== '' ? status.message : null;
  return {
    traceId,
    spanId,
    parentSpanId: parent === null || /^0+$/.test(parent) ? null : parent,
    name: typeof raw.name === 'string' ? raw.name : '',
    startMs: start,
    endMs: endMs === null || endMs < start ? start : endMs,
    status: code,
    statusMessage: message ?? (code === 'error' ? exceptionMessage(raw.events) : null),
    attributes,
    service,
  };
}

/** An id as lower-case hex: from bytes, hex or base64 (told apart by length), or null. */
export function idOf(value: unknown, bytes: 8 | 16): string | null {
  if (value instanceof Uint8Array) return value.length === bytes ? Buffer.from(value).toString('hex') : null;
  if (typeof value !== 'string' || value === '') return null;
  if (value.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(value)) return value.toLowerCase();
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && value.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3)) {
    const buf = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return buf.length === bytes ? buf.toString('hex') : null;
  }
  return null;
}

/** The latest time a span may carry: 1 January 2200, in ms since the epoch (anything later is not a clock). */
const LATEST_MS = 7_258_118_400_000;

/**
 * Nanoseconds since the epoch (a string of digits or a number) as fractional milliseconds, or null;
 * null too for a time after 2200, which no clock wrote (an overflowing or made-up value would
 * otherwise become a time split of 10^34 ms, accepted into a baseline).
 */
export function msOf(value: unknown): number | null {
  let ms: number | null = null;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) ms = value / 1e6;
  else if (typeof value === 'string' && /^\d{1,30}$/.test(value) && !/^0+$/.test(value)) {
    const n = BigInt(value);
    ms = Number(n / 1_000_000n) + Number(n % 1_000_000n) / 1e6;
  }
  return ms !== null && ms <= LATEST_MS ? ms : null;
}

function statusOf(code: unknown): Span['status'] {
  if (code === 2 || code === 'STATUS_CODE_ERROR' || code === 'ERROR') return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK' || code === 'OK') return 'ok';
  return 'unset';
}

/** The message of the span's first `exception` event (the OpenTelemetry exception convention), or null. */
function exceptionMessage(events: unknown): string | null {
  if (!Array.isArray(events)) return null;
  for (const event of events) {
    if (!isObject(event) || event.name !== 'exception') continue;
    const attributes = attributesOf(event.attributes);
    const message = attributes['exception.message'] ?? attributes['exception.type'];
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
}

/**
 * A list of OTLP KeyValue as a flat record (the last of a repeated key wins). Keys are defined, never
 * set: they are the agent's, and one named `__proto__` is a key like any other (docs/traces.md).
 */
export function attributesOf(list: unknown): Record<string, SpanAttributeValue> {
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(
    list
      .filter((kv): kv is Record<string, unknown> & { key: string } => isObject(kv) && typeof kv.key === 'string')
      .map((kv) => {
        try {
          return [kv.key, valueOf(kv.value)];
        } catch (e) {
          if (!(e instanceof TooDeepError)) throw e;
          return [kv.key, TOO_DEEP_TEXT];
        }
      }),
  );
}

/**
 * What an attribute whose lists and maps nest deeper than a tool call's input may
 * (MAX_TOOL_CALL_DEPTH) reads as (docs/traces.md, "How spans are read"): reading it further, and
 * the JSON text made of it, would exhaust the stack. The span is kept, so a tool call it reports
 * is still a call, its input this text, never a call not made.
 */
export const TOO_DEEP_TEXT = `(not read: nests deeper than ${MAX_TOOL_CALL_DEPTH} levels of lists and maps)`;

/** Thrown by dataOf past MAX_TOOL_CALL_DEPTH levels; attributesOf reads the attribute as TOO_DEEP_TEXT. */
class TooDeepError extends Error {}

/** An OTLP AnyValue flattened: scalars as themselves, arrays of scalars as arrays, the rest as JSON text. */
function valueOf(v: unknown): SpanAttributeValue {
  const data = dataOf(v, 0);
  if (data === null || typeof data !== 'object') return data;
  if (Array.isArray(data) && data.every((x) => x === null || typeof x !== 'object')) return data as Array<string | number | boolean | null>;
  return JSON.stringify(data);
}

/** An OTLP AnyValue as JSON data (lists and maps nested as they are; bytes as base64); `levels`: the lists and maps it is in. */
function dataOf(v: unknown, levels: number): string | number | boolean | null | unknown[] | Record<string, unknown> {
  if (!isObject(v)) return null;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (v.intValue !== undefined && v.intValue !== null) return Number(v.intValue);
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if ((isObject(v.arrayValue) || isObject(v.kvlistValue)) && levels + 1 > MAX_TOOL_CALL_DEPTH) throw new TooDeepError();
  if (isObject(v.arrayValue)) return Array.isArray(v.arrayValue.values) ? v.arrayValue.values.map((x) => dataOf(x, levels + 1)) : [];
  if (isObject(v.kvlistValue)) {
    const values: unknown[] = Array.isArray(v.kvlistValue.values) ? v.kvlistValue.values : [];
    return Object.fromEntries(values.filter((kv): kv is Record<string, unknown> & { key: string } => isObject(kv) && typeof kv.key === 'string').map((kv) => [kv.key, dataOf(kv.value, levels + 1)]));
  }
  if (v.bytesValue instanceof Uint8Array) return Buffer.from(v.bytesValue).toString('base64');
  if (typeof v.bytesValue === 'string') return v.bytesValue;
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

/** The ExportTraceServiceResponse of an accepted body, in the request's encoding (partial success when spans were rejected). */
export function exportResponse(encoding: 'protobuf' | 'json', read: SpansRead): { body: Uint8Array | string } {
  const partial = read.rejected > 0 ? { partialSuccess: { rejectedSpans: read.rejected, errorMessage: read.rejectedWhy ?? '' } } : {};
  if (encoding === 'json') return { body: JSON.stringify(read.rejected > 0 ? { partialSuccess: { rejectedSpans: String(read.rejected), errorMessage: read.rejectedWhy ?? '' } } : {}) };
  return { body: ExportResponse.encode(ExportResponse.fromObject(partial)).finish() };
}

/** A google.rpc.Status, the body of an OTLP/HTTP error answer, in the request's encoding (JSON when it is unknown). */
export function statusBody(encoding: 'protobuf' | 'json', code: number, message: string): Uint8Array | string {
  if (encoding === 'json') return JSON.stringify({ code, message });
  return RpcStatus.encode(RpcStatus.fromObject({ code, message })).finish();
}
