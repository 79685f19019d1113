// Late spans under a traceparent of your own (docs/traces.md, "Counts"): every turn of the run goes
// out in one trace, and each turn's `spans.late` counts the spans that came after its own spans were
// read and before the next turn was sent, not the whole trace's. The real receiver, fed by the
// OpenTelemetry SDK's OTLP/HTTP exporter, read through the run's span observer.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { causeOf, groupCauses } from '../../src/evaluate/causes.js';
import { evaluateToolAssertion } from '../../src/assertions/tools.js';
import { fillLateSpans, traceObserver } from '../../src/traces/index.js';
import { startReceiver, type Receiver } from '../../src/traces/receiver.js';
import type { FixtureRecord, PersonaRecord, SpanCounts } from '../../src/types.js';
import { docsUrl } from '../../src/version.js';
import { sentContext } from '../support/otel-spans.js';

const open: Receiver[] = [];
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
  for (const r of open.splice(0)) await r.close();
});

// The traceparent fixed in agent.headers: every turn sends this trace id and span id.
const SENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

describe('late spans of turns that share one trace', () => {
  it("counts each turn's own late spans", async () => {
    const r = await startReceiver({ port: 0, waitMs: 5000 });
    open.push(r);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    providers.push(provider);
    const tracer = provider.getTracer('agent');
    const parent = trace.setSpanContext(context.active(), { ...SENT, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    /** `n` spans under the sent span, exported. */
    const spans = async (name: string, n: number): Promise<void> => {
      for (let i = 0; i < n; i++) tracer.startSpan(name, {}, parent).end();
      await provider.forceFlush();
    };
    const observer = traceObserver(r, { endpoint: `${r.endpoint}/v1/traces`, receiving: true, waitMs: 5000 });
    const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };
    const turn = async (): Promise<SpanCounts> => {
      observer.beforeSend(SENT);
      await spans('POST /chat', 1);
      const read = await observer.afterReply(SENT, report);
      return read.spans as SpanCounts;
    };

    const first = await turn();
    await spans('background write', 2); // after the first turn was read, before the second was sent
    const second = await turn();
    await spans('background write', 1); // after the second turn was read
    expect([first.count, second.count]).toEqual([1, 4]);

    const record = { fixtures: [{ traceId: SENT.traceId, spans: first }, { traceId: SENT.traceId, spans: second }] as unknown as FixtureRecord[], personas: [] };
    fillLateSpans(record, r);
    expect(record.fixtures.map((f) => f.spans?.late)).toEqual([2, 1]);
  });

  it('a turn none of whose spans came counts its own late spans too', async () => {
    // waitMs 0: the first turn's spans are read at once, before any came.
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    providers.push(provider);
    const tracer = provider.getTracer('agent');
    const parent = trace.setSpanContext(context.active(), { ...SENT, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const spans = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) tracer.startSpan('POST /chat', {}, parent).end();
      await provider.forceFlush();
    };
    const observer = traceObserver(r, { endpoint: `${r.endpoint}/v1/traces`, receiving: true, waitMs: 0 });
    const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };
    observer.beforeSend(SENT);
    const first = (await observer.afterReply(SENT, report)).spans as SpanCounts;
    expect(first.count).toBe(0);
    await spans(2); // late for the first turn
    observer.beforeSend(SENT);
    await spans(1);
    const second = (await observer.afterReply(SENT, report)).spans as SpanCounts;
    expect(second.count).toBe(3);
    await spans(1); // late for the second turn

    const record = { fixtures: [{ traceId: SENT.traceId, spans: first }, { traceId: SENT.traceId, spans: second }] as unknown as FixtureRecord[], personas: [] };
    fillLateSpans(record, r);
    expect(record.fixtures.map((f) => f.spans?.late)).toEqual([2, 1]);
  });
});

// A turn none of whose spans came within waitMs, whose spans then came (docs/traces.md, "When a
// turn's spans are complete"): the agent exports and continues the traceparent, too late. At the
// run's end (fillLateSpans) its cause is reworded to say so, with the fix (forceFlush, or a longer
// traces.waitMs), not "does the agent export there" nor "give every request a span of its own".
const OTHER = { traceId: '5cf92f3577b34da6a3ce929d0e0e4737', spanId: '11f067aa0ba902b8' };

describe('spans that came after the wait', () => {
  it("reword the turn's cause: they came late, flush or wait longer", async () => {
    // waitMs 0: the turn is read at once, before its spans are exported.
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    providers.push(provider);
    const endpoint = `${r.endpoint}/v1/traces`;
    const observer = traceObserver(r, { endpoint, receiving: true, waitMs: 0 });
    const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };

    observer.beforeSend(SENT);
    const fixtureTurn = await observer.afterReply(SENT, report);
    observer.beforeSend(OTHER);
    const scriptTurn = await observer.afterReply(OTHER, report);
    expect(fixtureTurn.toolCallsProblem).toBe(`no spans for trace ${SENT.traceId} within 0 s: none came to ${endpoint} for this request; does the agent export there, with a span for each request it answers?`);

    // The agent's spans, exported after the turns were read: a server span and a tool span under it.
    const tracer = provider.getTracer('agent');
    const top = tracer.startSpan('POST /chat', {}, sentContext(SENT.traceId, SENT.spanId));
    top.end();
    tracer.startSpan('POST /chat', {}, sentContext(OTHER.traceId, OTHER.spanId)).end();
    await provider.forceFlush();

    const problem = fixtureTurn.toolCallsProblem as string;
    const check = evaluateToolAssertion({ kind: 'toolCalled', tool: 'find_order', match: 'subset' }, null, problem);
    const fixture = {
      label: 'order', errored: false, verdict: 'not_evaluated', detail: check.detail, traceId: SENT.traceId, spans: fixtureTurn.spans as SpanCounts,
      checks: [{ status: 'pass' as const, detail: 'reply contains "1234"' }, { status: 'not_evaluated' as const, detail: check.detail }],
    };
    const turnProblem = scriptTurn.toolCallsProblem as string;
    const persona = {
      label: 'chat', errored: false, verdict: 'not_evaluated', detail: `turn 1: ${turnProblem} (mocked mode: an unmocked call there could not be seen)`,
      turns: [{ index: 1, traceId: OTHER.traceId, spans: scriptTurn.spans as SpanCounts, toolCallsProblem: turnProblem }],
      checks: [{ kind: 'toolNotCalled', status: 'not_evaluated' as const, detail: `turn 1: ${turnProblem}` }],
    };
    const record = { fixtures: [fixture] as unknown as FixtureRecord[], personas: [persona] as unknown as PersonaRecord[] };
    fillLateSpans(record, r);

    const late = `no spans for trace ${SENT.traceId} within 0 s: 1 span came to ${endpoint} after it; have the agent flush its spans before it replies (forceFlush), or raise traces.waitMs`;
    expect(fixture.spans.late).toBe(1);
    expect(fixture.detail).toBe(late);
    expect(fixture.checks.map((c) => c.detail)).toEqual(['reply contains "1234"', late]);
    const lateOther = `no spans for trace ${OTHER.traceId} within 0 s: 1 span came to ${endpoint} after it; have the agent flush its spans before it replies (forceFlush), or raise traces.waitMs`;
    expect(persona.turns[0]!.toolCallsProblem).toBe(lateOther);
    expect(persona.checks[0]!.detail).toBe(`turn 1: ${lateOther}`);
    expect(persona.detail).toBe(`turn 1: ${lateOther} (mocked mode: an unmocked call there could not be seen)`);

    // The run's cause: one group, the late spans' fix, not "point OTEL_EXPORTER_OTLP_ENDPOINT" nor "a span per request".
    const hint = `have the agent flush its spans before it replies (forceFlush), or raise traces.waitMs (${docsUrl('traces.md', "When a turn's spans are complete")})`;
    expect(causeOf(fixture, null)).toEqual({ key: 'traces:late', what: "a turn's spans came after the wait of 0 s", hint });
    expect(groupCauses([fixture, persona], null)).toEqual([{ key: 'traces:late', what: "a turn's spans came after the wait of 0 s", hint, labels: ['order', 'chat'] }]);
  });

  it('leave the cause of a turn whose spans never came as it was', async () => {
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const endpoint = `${r.endpoint}/v1/traces`;
    const observer = traceObserver(r, { endpoint, receiving: true, waitMs: 0 });
    observer.beforeSend(SENT);
    const turn = await observer.afterReply(SENT, { toolCalls: null, errors: [], usage: null, latencyMs: 10 });
    const fixture = { label: 'order', errored: false, verdict: 'not_evaluated', detail: turn.toolCallsProblem as string, traceId: SENT.traceId, spans: turn.spans as SpanCounts };
    fillLateSpans({ fixtures: [fixture] as unknown as FixtureRecord[], personas: [] }, r);
    expect(fixture.spans.late).toBe(0);
    expect(fixture.detail).toBe(`no spans for trace ${SENT.traceId} within 0 s: none came to ${endpoint} for this request; does the agent export there, with a span for each request it answers?`);
    expect(causeOf(fixture, null)?.key).toBe('traces:no-spans');
  });
});
