// An OpenAI Agents SDK route's spans, as docs/traces.md ("Set-up: OpenAI Agents SDK") shows them:
// OpenInference's instrumentation for the SDK replaces its trace processors (and so its default
// export to OpenAI) with one that makes OpenTelemetry spans, sent with the OTLP/HTTP exporter to
// `endpoint`; each request runs in a server span under the incoming traceparent, the turn's spans
// sent before the reply.
import type { IncomingHttpHeaders } from 'node:http';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import * as agents from '@openai/agents';
import { ROOT_CONTEXT, SpanKind, defaultTextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

/** The SDK's spans as OpenTelemetry spans sent to `endpoint` (e.g. http://127.0.0.1:4318), not to OpenAI. */
export function traceAgents(endpoint: string): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'shop-agents' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))],
  });
  provider.register(); // its context manager carries the request's span across `await`
  agents.setTracingDisabled(false); // the SDK turns its tracing off when NODE_ENV is "test"
  new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);
  return provider;
}

const propagator = new W3CTraceContextPropagator();

/** One request's `work` (its agent runs) in a server span under the incoming traceparent; its spans are sent before it returns. */
export async function inRequestSpan<T>(provider: NodeTracerProvider, headers: IncomingHttpHeaders, work: () => Promise<T>): Promise<T> {
  const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  try {
    return await provider.getTracer('shop-agents').startActiveSpan('POST /chat', { kind: SpanKind.SERVER }, parent, async (span) => {
      try {
        return await work();
      } finally {
        span.end();
      }
    });
  } finally {
    await provider.forceFlush();
  }
}
