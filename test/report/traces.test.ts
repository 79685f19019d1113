// What the reports say about spans (docs/traces.md, "In the reports"): "(from trace)" on a call seen
// only in spans (a call the response reported too is shown as the response's), the slower line
// naming the step, and in report.html a turn's span counts, time split and waterfall. Goldens:
// traces.* from hand-made records; records without these fields render as before (the other goldens).

import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { fixtureData, personaData, traceData } from '../../src/report/html/data.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import { sourceMark, spanCountsText, timeSplitText } from '../../src/report/trace.js';
import { check, ctx, fixture, persona, run } from './fixtures.js';
import type { Check, PersonaRecord } from '../../src/types.js';
import { expectGolden } from './helpers.js';
import { failedSpanScript, tracedFixture, tracedScript, tracesRun } from './traces.fixtures.js';

const RUN = tracesRun();

describe('the words for spans', () => {
  it('marks only a call seen in spans alone', () => {
    expect(sourceMark({ source: 'trace' })).toBe(' (from trace)');
    expect(sourceMark({ source: 'both' })).toBe('');
    expect(sourceMark({ source: 'response' })).toBe('');
    expect(sourceMark({})).toBe('');
  });

  it('counts spans, leaving out the parts that are 0', () => {
    expect(spanCountsText({ count: 12, ignored: 2, late: 1 })).toBe('12 spans (2 ignored, 1 late)');
    expect(spanCountsText({ count: 1, ignored: 0, late: 0 })).toBe('1 span');
    expect(spanCountsText({ count: 0, ignored: 0, late: 3 })).toBe('no spans (3 late)');
    expect(timeSplitText({ modelMs: 900, toolMs: 1900, otherMs: 140 })).toBe('model 900 ms · tool 1.9 s · other 140 ms');
  });
});

describe('spans in the surfaces (goldens)', () => {
  it('PR comment, job summary, terminal and JUnit', () => {
    expectGolden('traces.comment.md', renderComment(RUN, ctx));
    expectGolden('traces.summary.md', renderSummary(RUN, ctx));
    expectGolden('traces.terminal.txt', renderTerminal(RUN, { color: false }));
    expectGolden('traces.junit.xml', renderJUnit(RUN));
  });

  it('the transcript marks the call from the trace, not the one the response reported too', () => {
    const md = renderComment(RUN, ctx);
    expect(md).toContain('issue_refund {"orderId": "1234", "amount": 40} → {"refunded": true}  (NOT MOCKED) (from trace)');
    expect(md).toMatch(/find_order \{"orderId": "1234"\} → \{"status": "delivered"\}\n/);
    // A number and its unit joined by a no-break space: the line wraps on a phone (wrap.ts).
    expect(md).toContain('slower: 1.4\u00a0s → 3.2\u00a0s (tool issue_refund 0\u00a0ms → 1.5\u00a0s)');
    const xml = renderJUnit(RUN);
    expect(xml).toContain('[1] tool issue_refund {&quot;orderId&quot;: &quot;1234&quot;, &quot;amount&quot;: 40} (not mocked) (from trace)');
    expect(xml).toContain('[1] tool find_order {&quot;orderId&quot;: &quot;1234&quot;}\n');
  });
});

describe('a live script\'s calls (docs/personas.md, "Mocks and real tool calls")', () => {
  // In live mode every call runs for real by design: "not mocked" on each would flag what was asked for.
  it('are not marked "not mocked" in the transcript, JUnit or report.html; a mocked script\'s unmocked call still is', () => {
    const live: PersonaRecord = { ...tracedScript(), label: 'live-refund', toolMode: 'live' };
    const mocked: PersonaRecord = { ...tracedScript(), label: 'mocked-refund', toolMode: 'mocked' };
    const both = run([], { personas: [live, mocked] });
    const md = renderComment(both, ctx);
    const section = (label: string): string => md.slice(md.indexOf(`<b>${label}</b>`), md.indexOf('</details>\n\n</details>', md.indexOf(`<b>${label}</b>`)));
    expect(section('live-refund')).toContain('issue_refund {"orderId": "1234", "amount": 40} → {"refunded": true} (from trace)');
    expect(section('live-refund')).not.toContain('NOT MOCKED');
    expect(section('mocked-refund')).toContain('(NOT MOCKED) (from trace)');
    const xml = renderJUnit(both);
    expect(xml).toContain('[1] tool issue_refund {&quot;orderId&quot;: &quot;1234&quot;, &quot;amount&quot;: 40} (from trace)');
    expect(xml.match(/\(not mocked\)/g)).toHaveLength(1);
    // The checks table's observed calls likewise ("other inputs only: turn 1 {...}").
    const calledElsewhere: Check = { ...check.toolCalled('issue_refund', { orderId: '9' }, [], null), observed: [{ tool: 'issue_refund', input: { orderId: '1234' }, output: null, mocked: false, turn: 1 }] } as Check;
    const otherInput = (p: PersonaRecord): PersonaRecord => ({ ...p, checks: [calledElsewhere] });
    const cells = renderComment(run([], { personas: [otherInput(live), otherInput(mocked)] }), ctx).match(/other inputs only: turn 1 `[^`]*`[^|]*/g);
    expect(cells).toEqual(['other inputs only: turn 1 `{"orderId": "1234"}` ', 'other inputs only: turn 1 `{"orderId": "1234"}` (not mocked) ']);
    expect(personaData(otherInput(live)).checks[0]?.observed).toBe('other inputs only: turn 1 {"orderId": "1234"}');
    expect(personaData(otherInput(mocked)).checks[0]?.observed).toBe('other inputs only: turn 1 {"orderId": "1234"} (not mocked)');
    expect(personaData(live).live).toBe(true);
    expect(personaData(mocked).live).toBe(false);
    expect(personaData({ ...mocked, toolMode: undefined }).live).toBe(false);
  });
});

describe('JUnit: a tool call read from spans is agent text (docs/security.md, "Agent text is data")', () => {
  it('drops bidi overrides and isolates from the call, its error and the tool the slower step names', () => {
    // The agent's span says what its tool was named and called with: an override (U+202E) would
    // show the rest of the line reversed in a CI test viewer; an isolate (U+2066..U+2069) likewise.
    const script = failedSpanScript();
    const tool = 'check\u202estock';
    const t = script.turns[0]!;
    t.toolCalls = [{ tool, input: { sku: 'kettle\u2066-1\u2069' }, output: null, mocked: false, source: 'trace' }];
    t.errors = [{ kind: 'span_error', tool, message: `span execute_tool ${tool} failed: timeout\u2067` }];
    script.error = `turn 1: span execute_tool ${tool} failed: timeout\u2067`;
    const slowerFixture = tracedFixture();
    slowerFixture.slower = { baselineMs: 1200, latencyMs: 2900, step: { kind: 'tool', name: 'issue\u202erefund', baselineMs: 0, latencyMs: 1500 } };
    const xml = renderJUnit(run([slowerFixture], { personas: [tracedScript(), script] }));
    expect(xml).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(xml).toContain('[1] tool checkstock {&quot;sku&quot;: &quot;kettle-1&quot;} (not mocked) (from trace)');
    expect(xml).toContain('\nturn 1: span execute_tool checkstock failed: timeout\n');
    expect(xml).toContain('(tool issuerefund 0 ms → 1.5 s)');
  });

  it('keeps the slower line one line when the tool it names holds a newline, as the terminal and the comment do', () => {
    const f = tracedFixture();
    f.slower = { baselineMs: 1200, latencyMs: 2900, step: { kind: 'tool', name: 'issue\nrefund', baselineMs: 0, latencyMs: 1500 } };
    const script = tracedScript();
    script.verdict = 'pass';
    script.drift = { transcript: 'same', route: 'same', verdict: 'still_passing' };
    script.slower = { baselineMs: 1400, latencyMs: 3220, step: { kind: 'tool', name: 'issue\nrefund', baselineMs: 0, latencyMs: 1500 } };
    const xml = renderJUnit(run([f], { personas: [script] }));
    expect(xml).toContain('pass · still passing · slower: 1.2 s → 2.9 s (tool issue ⏎ refund 0 ms → 1.5 s)');
    expect(xml).toContain('<system-out>pass · still passing · slower: 1.4 s → 3.2 s (tool issue ⏎ refund 0 ms → 1.5 s)\n');
    expect(renderTerminal(run([f], { personas: [script] }), { color: false })).toContain('(tool issue ⏎ refund 0 ms → 1.5 s)');
  });
});

describe('report.html data for spans', () => {
  it("a fixture: its calls marked, its counts, its split and its waterfall's bars", () => {
    const d = fixtureData(tracedFixture());
    expect(d.toolCalls).toEqual([{ tool: 'lookup_order', input: '{"orderId": "1234"}', output: '{"status": "delivered"}', mocked: false, trace: true }]);
    expect(d.trace?.spans).toBe('7 spans (2 ignored, 1 late)');
    expect(d.trace?.split).toBe('model 900 ms · tool 1.9 s · other 140 ms');
    expect(d.trace?.latencyMs).toBe(2940);
    expect(d.trace?.bars?.map((b) => [b.name, b.kind, b.depth, b.error])).toEqual([
      ['POST /api/chat', 'other', 0, false],
      ['ai.generateText', 'other', 1, false],
      ['ai.generateText.doGenerate', 'model', 2, false],
      ['ai.toolCall (lookup_order)', 'tool', 2, false],
      ['ai.generateText.doGenerate', 'model', 2, false],
    ]);
  });

  it('a script: each turn its own, the failed span marked, a call from both not marked', () => {
    const turns = personaData(tracedScript()).turns;
    expect(turns[0]?.trace).toEqual({ spans: '2 spans (1 ignored)', split: 'model 0 ms · tool 0 ms · other 120 ms' });
    expect(turns[1]?.toolCalls?.map((c) => [c.tool, c.trace ?? false])).toEqual([['find_order', false], ['issue_refund', true]]);
    const failed = personaData(failedSpanScript()).turns[0]?.trace?.bars;
    expect(failed?.map((b) => b.error)).toEqual([false, true]);
  });

  it('a span that started before the request is drawn up to its own end, its duration its own (docs/traces.md, "In the reports")', () => {
    // A span from 500 ms before the send, ending 98 ms after it, in a 238 ms turn: drawn from 0 to 98 ms,
    // so the scale still ends at the latency; its label keeps the span's 598 ms.
    const w = (name: string, startMs: number, durationMs: number) => ({ name, kind: 'tool' as const, tool: name, startMs, durationMs, depth: 1, status: 'ok' as const });
    const bars = traceData({ latencyMs: 238, waterfall: [w('warm', -500, 598), w('late', -700, 100), w('chat', 100, 105)] }).trace?.bars;
    expect(bars?.map((b) => [b.start, b.dur, b.took])).toEqual([
      [0, 98, 598],
      [0, 0, 100],
      [100, 105, undefined],
    ]);
  });

  it('records without spans carry nothing new', () => {
    expect(traceData({})).toEqual({});
    expect(traceData({ spans: null, time: null, waterfall: null })).toEqual({});
    const f = fixtureData(fixture('plain'));
    expect('trace' in f || 'toolCalls' in f).toBe(false);
    expect(personaData(persona('plain')).turns.every((t) => t.trace === undefined)).toBe(true);
  });

  it('a span name is data: in the page only inside the escaped JSON block', () => {
    const html = renderHtml(RUN, {});
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('\\u003cimg src=x onerror=alert(1)\\u003e');
    expect(html).toContain('(tool lookup_order 200 ms → 1.9 s)');
  });
});
