// The bench agent's spans (bench/agent-server.ts with BENCH_OTLP_URL set): for each request that
// carries a W3C `traceparent`, five spans in that trace, as an instrumented agent exports them
// (docs/traces.md, "What is read from spans"): the HTTP server span (its parent: the sent span
// id), an agent span under it, and under that a model call, a tool run and a second model call,
// GenAI semantic conventions. Sent as one OTLP/HTTP JSON body right after the reply, as the
// OpenTelemetry SDKs' simple span processor does, so that the top span (it ends last) arrives with
// its children.

import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** The trace id and the sent span id of a `traceparent` header; null when there is none or it is not valid. */
export function parentOf(header: string | string[] | undefined): { traceId: string; spanId: string } | null {
  const m = TRACEPARENT.exec(typeof header === 'string' ? header.trim().toLowerCase() : '');
  return m ? { traceId: m[1]!, spanId: m[2]! } : null;
}

const attr = (key: string, value: string | number): { key: string; value: { stringValue: string } | { intValue: string } } =>
  typeof value === 'number' ? { key, value: { intValue: String(value) } } : { key, value: { stringValue: value } };

/**
 * The OTLP JSON body for one turn: five spans between `startMs` and `endMs` (epoch ms), the tool
 * `lookup_order` taking the middle fifth of the model's work.
 */
export function turnSpansBody(parent: { traceId: string; spanId: string }, startMs: number, endMs: number): string {
  const id = (): string => randomBytes(8).toString('hex');
  const ns = (ms: number): string => String(BigInt(Math.round(ms * 1000)) * 1000n);
  const d = Math.max(0, endMs - startMs);
  const at = (f: number): number => startMs + d * f;
  const server = id();
  const agent = id();
  const span = (spanId: string, parentSpanId: string, name: string, from: number, to: number, attributes: ReturnType<typeof attr>[]): object => ({
    traceId: parent.traceId,
    spanId,
    parentSpanId,
    name,
    kind: parentSpanId === parent.spanId ? 2 : 1,
    startTimeUnixNano: ns(at(from)),
    endTimeUnixNano: ns(at(to)),
    attributes,
    status: { code: 1 },
  });
  // In the order they end, as an SDK's span processor hands them to its exporter: the top span last.
  const spans = [
    span(id(), agent, 'chat bench-model', 0.04, 0.4, [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'bench-model'), attr('gen_ai.usage.input_tokens', 120), attr('gen_ai.usage.output_tokens', 12)]),
    span(id(), agent, 'execute_tool lookup_order', 0.4, 0.6, [
      attr('gen_ai.operation.name', 'execute_tool'),
      attr('gen_ai.tool.name', 'lookup_order'),
      attr('gen_ai.tool.call.arguments', '{"orderId":"1234"}'),
      attr('gen_ai.tool.call.result', '{"status":"delivered"}'),
    ]),
    span(id(), agent, 'chat bench-model', 0.6, 0.96, [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'bench-model'), attr('gen_ai.usage.input_tokens', 150), attr('gen_ai.usage.output_tokens', 30)]),
    span(agent, server, 'invoke_agent bench', 0.02, 0.98, [attr('gen_ai.operation.name', 'invoke_agent')]),
    span(server, parent.spanId, 'POST /chat', 0, 1, [attr('http.request.method', 'POST'), attr('url.path', '/chat')]),
  ];
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: [attr('service.name', 'bench-agent')] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }],
  });
}

/** Posts one turn's spans; a failed export is counted, never thrown (an exporter drops what it cannot send). */
export async function exportTurnSpans(url: string, body: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
