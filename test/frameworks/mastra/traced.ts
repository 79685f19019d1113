// The example agent (mastra/index.ts) with Mastra's own OpenTelemetry export, as docs/traces.md
// ("Set-up: Mastra") shows it: @mastra/observability with @mastra/otel-exporter sending to an
// OTLP/HTTP endpoint, and each turn continuing the incoming traceparent as Mastra's tracingOptions.
import type { IncomingHttpHeaders } from 'node:http';
import { Mastra } from '@mastra/core';
import { Observability } from '@mastra/observability';
import { OtelExporter } from '@mastra/otel-exporter';
import { ROOT_CONTEXT, defaultTextMapGetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { support } from './index.js';

/** The agent in a Mastra instance that exports its spans to `endpoint` (e.g. http://127.0.0.1:4318). */
export function tracedMastra(endpoint: string): Mastra {
  return new Mastra({
    agents: { support },
    observability: new Observability({
      configs: {
        otel: {
          serviceName: 'shop',
          exporters: [new OtelExporter({ provider: { custom: { endpoint: `${endpoint}/v1/traces`, protocol: 'http/protobuf' } } })],
        },
      },
    }),
  });
}

const propagator = new W3CTraceContextPropagator();

/** One turn: the agent's spans join the trace of the incoming traceparent and are sent before the reply. */
export async function answer(mastra: Mastra, headers: IncomingHttpHeaders, message: string): Promise<string> {
  const parent = trace.getSpanContext(propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter));
  const tracingOptions = parent ? { traceId: parent.traceId, parentSpanId: parent.spanId } : {};
  const result = await mastra.getAgent('support').generate(message, { tracingOptions });
  await mastra.observability.getDefaultInstance()?.flush();
  return result.text;
}
