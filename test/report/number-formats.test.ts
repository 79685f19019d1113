// Figures at a unit's edge (docs/latency.md): a count or a duration that rounds up to the next
// unit is shown in it, in every surface ("1M", "1.0 s", "10 s"), never as "1000k" or "1000 ms".

import { describe, expect, it } from 'vitest';
import { compactCount } from '../../src/report/usage.js';
import { latencyChartBlock } from '../../src/report/latency-chart.js';
import { latencyPanel } from '../../src/report/html/latency.js';
import { slowerText } from '../../src/evaluate/latency.js';
import { durationText } from '../../src/words.js';
import { SCRIPT } from '../../src/report/html/assets.js';
import { renderHtml } from '../../src/report/html.js';
import { renderComment } from '../../src/report/markdown.js';
import { baseline, ctx, fixture, persona, run } from './fixtures.js';
import { repeated } from './stats-fixtures.js';

describe('figures at the edge of a unit', () => {
  it('tokens: a count that rounds to 1000 of a unit is one of the next', () => {
    expect([compactCount(842), compactCount(999.6), compactCount(12_400), compactCount(3_100_000)]).toEqual(['842', '1k', '12.4k', '3.1M']);
    expect([compactCount(999_400), compactCount(999_960), compactCount(999_999_999)]).toEqual(['999k', '1M', '1G']);
  });

  it('tokens: a half tenth of a unit rounds up, whatever its binary fraction', () => {
    // (1.15).toFixed(1) is "1.1" (1.15 is stored as 1.1499...), while 1,250 gave "1.3k" and 1,450 "1.4k".
    expect([1_050, 1_150, 1_250, 1_450, 1_950, 12_350, 12_450, 149_500, 1_150_000].map(compactCount)).toEqual(['1.1k', '1.2k', '1.3k', '1.5k', '2k', '12.4k', '12.5k', '150k', '1.2M']);
    expect([99_940, 99_950, 99_960].map(compactCount)).toEqual(['99.9k', '100k', '100k']);
  });

  it('durations: 999.5 ms is a second, 9.96 s is ten', () => {
    expect([durationText(999.4), durationText(999.5), durationText(9_960), durationText(10_000)]).toEqual(['999 ms', '1.0 s', '10.0 s', '10.0 s']);
  });

  it('durations: a half tenth of a second rounds up, whatever its binary fraction', () => {
    // (1950 / 1000).toFixed(1) is "1.9" (1.95 is stored as 1.9499...), while 1250 gave "1.3".
    expect([1_050, 1_150, 1_250, 1_450, 1_950, 9_950, 12_345].map(durationText)).toEqual(['1.1 s', '1.2 s', '1.3 s', '1.5 s', '2.0 s', '10.0 s', '12.3 s']);
    expect(durationText(1_234_560)).toBe('1,234.6 s');
  });

  it("one latency reads the same on the slower line, report.html's panel and the job summary's chart", () => {
    // A script's whole conversation often takes over 10 s: the panel beside the item's line said
    // "12 s" where the line said "slower: 1.2 s → 12.3 s".
    const slower = { baselineMs: 1_150, latencyMs: 12_345 };
    const item = fixture('refund-dialog', { latencyMs: 12_345, baseline: { ...baseline('refund-dialog', 'Reply.'), latencyMs: 1_150 }, slower });
    const r = run([item], { latency: { turns: 1, p50Ms: 12_345, p95Ms: 12_345 } });
    expect(slowerText(slower)).toBe('1.2 s → 12.3 s');
    expect(latencyPanel(r.fixtures, r.latency)).toContain('>1.2 s → 12.3 s, slower</text>');
    expect(latencyPanel(r.fixtures, r.latency)).toContain('p95 12.3 s');
    expect(latencyChartBlock(r)).toContain('  12.3 s\n');
    expect(latencyChartBlock(r)).toContain('  1.2 s\n');
  });

  it("the comment's item line keeps a quantity on one line: a number and its unit, a p-value", () => {
    // A <summary> wraps at any space: on a 390 px phone "slower: 1.2 s → 2.9 s" broke as "1.2" | "s → 2.9 s".
    const NB = '\u00a0';
    const slower = { baselineMs: 1_150, latencyMs: 2_900 };
    const slow = fixture('refund-policy', { latencyMs: 2_900, baseline: { ...baseline('refund-policy', 'Reply.'), latencyMs: 1_150 }, slower });
    const script = persona('refund-dialog', { slower } as never);
    const rate = repeated('refund-window', { passed: 10, total: 10 }, { passed: 0, total: 3 }, 2);
    const md = renderComment(run([slow, rate], { personas: [script] }), ctx);
    const summary = (label: string): string => md.split('\n').find((l) => l.startsWith('<details') && l.includes(`<b>${label}</b>`)) ?? '';
    expect(summary('refund-policy')).toContain(`slower: 1.2${NB}s → 2.9${NB}s`);
    expect(summary('refund-dialog')).toContain(`slower: 1.2${NB}s → 2.9${NB}s`);
    expect(summary('refund-window')).toContain(`pass rate 10/10 → 0/3 (p${NB}=${NB}0.003)`);
    // Only the quantities: the words around them still wrap.
    expect(summary('refund-window')).toContain(' · newly failing · pass rate ');
  });

  it("report.html's span waterfall writes a duration as the server does (its script's own ms())", () => {
    // The page's script cannot import words.ts: its ms() is checked against durationText here.
    const source = /function ms\(v\) \{[^\n]*\n?[^\n]*\}/.exec(SCRIPT)?.[0] ?? '';
    expect(source).not.toBe('');
    const ms = new Function(`${source}; return ms;`)() as (v: number) => string;
    const values = [0.4, 12, 999.4, 999.5, 1_050, 1_150, 1_250, 1_450, 1_950, 9_950, 9_960, 12_345, 59_950, 600_000];
    expect(values.map(ms)).toEqual(values.map(durationText));
  });

  it("a count of probes is grouped in the comment's tally as on report.html's pass card: 1,234, not 1234", () => {
    // The comment wrote "1235 (1234 probes)" where the card said "passed (1,234 probes)".
    const probes = Array.from({ length: 1_234 }, (_, i) => fixture(`probe-${i}`, { assertion: null, detail: 'probe: no assertion' }));
    const r = run([fixture('refund-policy'), ...probes]);
    // Its words joined by no-break spaces: the narrow count column wrapped "(1,234" | "probes)".
    expect(renderComment(r, ctx)).toContain('| ✅ passed | 1,235\u00a0(1,234\u00a0probes) |');
    expect(renderHtml(r)).toContain('<span class="k">passed (1,234 probes)</span>');
  });

  it("a run's duration in the comment's footer and report.html's line as every duration is written: 1,234.6 s, not 1234.6 s", () => {
    // A run of 20 minutes said "in 1234.6 s" where its items' latencies read "1,234.6 s".
    const r = run([fixture('refund-policy')], { durationMs: 1_234_560 });
    expect(renderComment(r, ctx)).toContain(' · 1 fixture in 1,234.6 s</sub>');
    expect(renderHtml(r)).toContain(' · 1,234.6 s · ');
    // A half tenth rounds up as every duration does ((1.95).toFixed(1) said "1.9 s").
    expect(renderComment(run([fixture('refund-policy')], { durationMs: 1_950 }), ctx)).toContain(' in 2.0 s</sub>');
  });

  it("report.html's latency panel counts its items grouped: 1,200 items measured", () => {
    const items = Array.from({ length: 1_200 }, (_, i) => fixture(`f-${i}`, { latencyMs: 1_000 + i, baseline: { ...baseline(`f-${i}`, 'Reply.'), latencyMs: 900 } }));
    const r = run(items, { latency: { turns: 1_200, p50Ms: 1_600, p95Ms: 2_100 } });
    expect(latencyPanel(r.fixtures, r.latency)).toContain('aria-label="Latency per item, baseline against now: 1,200 items measured');
  });
});
