// A LangGraph route (langchain's createAgent, agent.ts) that answers with text alone and exports its
// spans: OpenInference's LangChain instrumentation makes a span per chain, model call and tool (tool
// spans carry `openinference.span.kind: TOOL`, `tool.name`, `input.value`, `output.value`), sent
// with the OTLP/HTTP exporter to `endpoint`, each request under the incoming traceparent.
// docs/traces.md "Set-up: LangGraph / LangChain" quotes the code between the markers; the framework
// test traces-langgraph.test.ts runs it and checks the docs quote it unchanged.

import type { IncomingHttpHeaders } from 'node:http';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { ROOT_CONTEXT, SpanKind, defaultTextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { graph } from './agent.js';

export type Chat = (headers: IncomingHttpHeaders, body: { message?: string; start?: boolean; mocks?: unknown }) => Promise<string>;

// --- docs/traces.md: Set-up: LangGraph / LangChain ---
export function tracedChat(endpoint: string): Chat {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'shop-graph' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))],
  });
  // LangChain's callbacks module is instrumented by hand (its module layout defeats auto-patching).
  new LangChainInstrumentation({ tracerProvider: provider }).manuallyInstrument(CallbackManagerModule);
  const tracer = provider.getTracer('shop-graph');
  const propagator = new W3CTraceContextPropagator();

  return async (headers, body) => {
    const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const reply = await tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER }, parent, async (span) => {
      try {
        if (body.start === true) return 'Welcome!'; // a turn with no tool still gets its span
        const state = await graph.invoke({ messages: [{ role: 'user', content: body.message ?? '' }] }, { configurable: { mocks: body.mocks } });
        return String(state.messages.at(-1)?.content ?? '');
      } finally {
        span.end();
      }
    });
    await provider.forceFlush();
    return reply;
  };
}
// --- end ---
