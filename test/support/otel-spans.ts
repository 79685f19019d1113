// Test-only: spans made by the real OpenTelemetry SDK (BasicTracerProvider with an
// InMemorySpanExporter), as our `Span` (src/types/trace.ts), and the context manager Node needs for
// parent spans to carry across `await` (the SDK's own lives in @opentelemetry/context-async-hooks,
// which is not installed: this is the same AsyncLocalStorage idea in a few lines).

import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanStatusCode, TraceFlags, context, trace, type Context, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Span, SpanAttributeValue } from '../../src/types.js';

class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as unknown as (...a: unknown[]) => unknown;
    return ((...a: unknown[]) => this.with(ctx, () => fn(...a))) as unknown as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** Register the context manager once per process (the API keeps one globally). */
let registered = false;
export function useAsyncContext(): void {
  if (!registered) registered = context.setGlobalContextManager(new AsyncLocalContextManager());
}

/** A tracer provider whose spans are kept in memory, with `service.name` on its resource. */
export function memoryTracing(): { provider: BasicTracerProvider; exporter: InMemorySpanExporter } {
  useAsyncContext();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { provider, exporter };
}

/** The context a `traceparent` header starts: the sent span as a remote, sampled parent. */
export function sentContext(traceId: string, spanId: string): Context {
  return trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
}

const ms = ([s, ns]: [number, number]): number => s * 1000 + ns / 1e6;

function attributeValue(v: unknown): SpanAttributeValue | undefined {
  if (v === undefined) return undefined;
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : (x as string | number | boolean | null)));
  return String(v);
}

/** One SDK span as our Span: times in ms, ERROR's message from the status or the exception event. */
export function toSpan(s: ReadableSpan): Span {
  const attributes: Record<string, SpanAttributeValue> = {};
  for (const [k, v] of Object.entries(s.attributes)) {
    const value = attributeValue(v);
    if (value !== undefined) attributes[k] = value;
  }
  const exception = s.events.find((e) => e.name === 'exception')?.attributes?.['exception.message'];
  const status = s.status.code === SpanStatusCode.ERROR ? 'error' : s.status.code === SpanStatusCode.OK ? 'ok' : 'unset';
  const service = s.resource.attributes['service.name'];
  return {
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId ?? null,
    name: s.name,
    startMs: ms(s.startTime),
    endMs: ms(s.endTime),
    status,
    statusMessage: status === 'error' ? (s.status.message || (typeof exception === 'string' ? exception : null)) : null,
    attributes,
    service: typeof service === 'string' ? service : null,
  };
}
