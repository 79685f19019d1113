// Hand-made records of a run that read spans (docs/traces.md, "In the reports"): a fixture whose
// tool call was seen only in its spans, slower with the step named; a persona script with calls
// from the response, from spans and from both, a failed span, and a waterfall per turn.

import type { FixtureRecord, PersonaRecord, RunRecord, Turn, WaterfallSpan } from '../../src/types.js';
import { baseline, check, persona, personaBaseline, resetLines, route, run, turn } from './fixtures.js';

const TRACE_FX = '4bf92f3577b34da6a3ce929d0e0e4736';

export function fixtureWaterfall(): WaterfallSpan[] {
  return [
    { name: 'POST /api/chat', kind: 'other', tool: null, startMs: 4, durationMs: 2930, depth: 0, status: 'ok' },
    { name: 'ai.generateText', kind: 'other', tool: null, startMs: 10, durationMs: 2900, depth: 1, status: 'unset' },
    { name: 'ai.generateText.doGenerate', kind: 'model', tool: null, startMs: 12, durationMs: 520, depth: 2, status: 'unset' },
    { name: 'ai.toolCall', kind: 'tool', tool: 'lookup_order', startMs: 540, durationMs: 1900, depth: 2, status: 'ok' },
    { name: 'ai.generateText.doGenerate', kind: 'model', tool: null, startMs: 2450, durationMs: 380, depth: 2, status: 'unset' },
  ];
}

export function tracedFixture(): FixtureRecord {
  return {
    ...({} as FixtureRecord),
    label: 'order-status',
    file: '.agent-replay/fixtures/orders.yml',
    line: 4,
    message: 'Where is order 1234?',
    persona: null,
    assertion: { kind: 'toolCalled', tool: 'lookup_order', input: { orderId: '1234' }, match: 'subset' },
    reply: 'Order 1234 was delivered on 28 November.',
    route: route('orders', 'status'),
    verdict: 'pass',
    detail: 'called lookup_order {"orderId": "1234"}',
    score: null,
    rationale: null,
    threshold: null,
    errored: false,
    error: null,
    errorKind: null,
    baseline: { ...baseline('order-status', 'Order 1234 was delivered on 28 November.', 'pass', route('orders', 'status')), latencyMs: 1200 },
    drift: { reply: 'same', route: 'same', verdict: 'still_passing' },
    latencyMs: 2940,
    slower: { baselineMs: 1200, latencyMs: 2940, step: { kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 1900 } },
    traceId: TRACE_FX,
    spans: { count: 7, ignored: 2, late: 1 },
    time: { modelMs: 900, toolMs: 1900, otherMs: 140, tools: { lookup_order: 1900 } },
    waterfall: fixtureWaterfall(),
    toolCalls: [{ tool: 'lookup_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false, source: 'trace' }],
  } as FixtureRecord;
}

function tracedTurns(): Turn[] {
  const id = (n: number): string => `${n}bf92f3577b34da6a3ce929d0e0e473${n}`;
  return [
    turn(0, null, "Hi! I'm Shop Bot. How can I help?", route('main', 'welcome'), { traceId: id(0), spans: { count: 2, ignored: 1, late: 0 }, time: { modelMs: 0, toolMs: 0, otherMs: 120 } }),
    turn(1, 'Order 1234 arrived broken', 'I found order 1234: a kettle. I have refunded it.', route('refunds', 'lookup'), {
      latencyMs: 3100,
      traceId: id(1),
      spans: { count: 6, ignored: 1, late: 0 },
      time: { modelMs: 1100, toolMs: 1800, otherMs: 200, tools: { find_order: 300, issue_refund: 1500 } },
      toolCalls: [
        { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: true, source: 'both' },
        { tool: 'issue_refund', input: { orderId: '1234', amount: 40 }, output: { refunded: true }, mocked: false, source: 'trace' },
      ],
      waterfall: [
        { name: 'invoke_agent shop-bot', kind: 'other', tool: null, startMs: 5, durationMs: 3080, depth: 0, status: 'ok' },
        { name: 'chat gpt-4o-mini', kind: 'model', tool: null, startMs: 20, durationMs: 600, depth: 1, status: 'unset' },
        { name: 'execute_tool find_order', kind: 'tool', tool: 'find_order', startMs: 630, durationMs: 300, depth: 1, status: 'ok' },
        { name: 'execute_tool issue_refund', kind: 'tool', tool: 'issue_refund', startMs: 940, durationMs: 1500, depth: 1, status: 'ok' },
        { name: 'chat gpt-4o-mini', kind: 'model', tool: null, startMs: 2450, durationMs: 500, depth: 1, status: 'unset' },
        { name: '<img src=x onerror=alert(1)>', kind: 'other', tool: null, startMs: 2960, durationMs: 40, depth: 1, status: 'unset' },
      ],
    }),
  ];
}

export function tracedScript(): PersonaRecord {
  const turns = tracedTurns();
  const base = personaBaseline('refund-guard', turns);
  return persona('refund-guard', {
    turns,
    checks: [
      { ...check.toolNotCalled('issue_refund', [{ turn: 1, input: { orderId: '1234', amount: 40 } }]), observed: [{ tool: 'issue_refund', input: { orderId: '1234', amount: 40 }, output: null, mocked: false, source: 'trace', turn: 1 }] },
    ],
    outcome: null,
    verdict: 'fail',
    baseline: { ...base, latencyMs: 1400 },
    drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
    latencyMs: 3220,
    slower: { baselineMs: 1400, latencyMs: 3220, step: { kind: 'tool', name: 'issue_refund', baselineMs: 0, latencyMs: 1500 } },
  } as Partial<PersonaRecord>);
}

/** A one-turn script errored by a failed tool span (docs/traces.md, "Errors"). */
export function failedSpanScript(): PersonaRecord {
  const turns: Turn[] = [
    turn(1, 'Is the kettle in stock?', 'Let me check that for you.', route('stock', 'check'), {
      latencyMs: 5200,
      traceId: 'a1f92f3577b34da6a3ce929d0e0e4736',
      spans: { count: 3, ignored: 0, late: 0 },
      time: { modelMs: 400, toolMs: 4700, otherMs: 100, tools: { check_stock: 4700 } },
      toolCalls: [{ tool: 'check_stock', input: { sku: 'kettle-1' }, output: { error: 'inventory service timeout' }, mocked: false, source: 'trace' }],
      errors: [{ kind: 'span_error', tool: 'check_stock', message: 'span execute_tool check_stock failed: inventory service timeout' }],
      waterfall: [
        { name: 'chat gpt-4o-mini', kind: 'model', tool: null, startMs: 15, durationMs: 400, depth: 0, status: 'unset' },
        { name: 'execute_tool check_stock', kind: 'tool', tool: 'check_stock', startMs: 420, durationMs: 4700, depth: 0, status: 'error' },
      ],
    }),
  ];
  return persona('stock-check', {
    turns,
    checks: [{ ...check.toolCalled('check_stock', { sku: 'kettle-1' }, [{ turn: 1, input: { sku: 'kettle-1' } }], 1), observed: [{ tool: 'check_stock', input: { sku: 'kettle-1' }, output: null, mocked: false, source: 'trace', turn: 1 }] }],
    outcome: null,
    errored: true,
    error: 'turn 1: span execute_tool check_stock failed: inventory service timeout',
    errorKind: 'agent_error',
    verdict: null,
    drift: null,
    latencyMs: 5200,
  } as Partial<PersonaRecord>);
}

export function tracesRun(): RunRecord {
  resetLines();
  return run([tracedFixture()], { personas: [tracedScript(), failedSpanScript()] });
}
