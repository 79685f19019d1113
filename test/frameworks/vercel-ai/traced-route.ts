// An AI SDK 7 route whose spans reach agent-replay, as docs/traces.md ("Set-up: Vercel AI SDK")
// shows it: OpenTelemetry set up once (a tracer provider exporting over OTLP/HTTP, registered with
// its context manager and the W3C traceparent propagator), the AI SDK's @ai-sdk/otel integration
// registered for every call, and each request run under a server span that continues the incoming
// traceparent. The route answers with text alone: the tool calls are in the spans.
import { OpenTelemetry } from '@ai-sdk/otel';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { isStepCount, registerTelemetry, streamText, tool } from 'ai';
import { mockTools } from '../../../src/mocks/index.js';
import { z } from 'zod';
import { db } from './db.js';
import { model } from './model.js';

const tools = {
  find_order: tool({
    description: 'Look up an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => db.orders.find(orderId),
  }),
  issue_refund: tool({
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async (input) => db.refunds.issue(input),
  }),
};

/** Once, at start-up: spans to `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT, agent-replay's receiver in CI); returns the route. */
export function tracedRoute(endpoint: string): (req: Request) => Promise<Response> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'shop' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))],
  });
  provider.register(); // the global tracer provider, its async context and the traceparent propagator
  registerTelemetry(new OpenTelemetry()); // AI SDK 7: every generateText / streamText call makes spans
  const tracer = trace.getTracer('shop');

  return async (req) => {
    const { message, mocks, start } = (await req.json()) as { message?: string; mocks?: unknown; start?: boolean };
    const parent = propagation.extract(context.active(), Object.fromEntries(req.headers));
    const reply = await tracer.startActiveSpan('POST /api/agent', { kind: SpanKind.SERVER }, parent, async (span) => {
      try {
        if (start === true) return 'Hi! How can I help?'; // agent-replay's welcome turn: no model call, still a span
        const result = streamText({ model, prompt: message ?? '', tools: mockTools(tools, mocks), stopWhen: isStepCount(5) });
        return await result.text;
      } finally {
        span.end();
      }
    });
    await provider.forceFlush(); // the turn's spans are sent before the reply
    return Response.json({ reply });
  };
}
