// Counts written with their digits grouped in every sentence that says one (src/words.ts): "1,234
// fixtures", as the comment's tally and report.html write "1,234 probes", never "1234 fixtures".

import { describe, expect, it } from 'vitest';
import { plural } from '../../src/words.js';
import { renderCapRefusal, renderCapRefusalText } from '../../src/report/cap.js';
import { compareRuns } from '../../src/evaluate/index.js';
import { renderCompareMarkdown, renderCompareText } from '../../src/report/index.js';
import { spanCountsText } from '../../src/report/trace.js';
import { fixture, run, ctx } from './fixtures.js';
import type { FixtureRecord } from '../../src/types.js';

const many = (n: number, prefix: string, over: Partial<FixtureRecord> = {}): FixtureRecord[] =>
  Array.from({ length: n }, (_, i) => fixture(`${prefix}-${i}`, { definitionHash: `hash-${prefix}-${i}`, judgeFingerprint: null, ...over }));

describe('a count of a thousand or more is written 1,234', () => {
  it('plural groups the digits, and keeps the one for 1', () => {
    expect([plural(1, 'fixture', 'fixtures'), plural(999, 'fixture', 'fixtures'), plural(1_234, 'fixture', 'fixtures'), plural(1_234_567, 'item', 'items')]).toEqual(['1 fixture', '999 fixtures', '1,234 fixtures', '1,234,567 items']);
  });

  it("the cost cap's refusal: 1,234 fixtures, in the comment and on the terminal", () => {
    // The refusal wrote "for 1234 fixtures, 2000 persona scripts and 1500 judge calls".
    const estimate = { usd: 61.7, capUsd: 10, aboveCap: true, confirmed: false, meaningCalls: 1_100 };
    const words = 'for 4,500 agent turns (1,234 fixtures, 2,000 persona scripts), 1,500 judge calls, 1,100 meaning calls at most and 3,000 simulator calls';
    expect(renderCapRefusal(estimate, 1_234, 1_500, ctx, 2_000, 3_000, {}, 4_500)).toContain(`**≈ $61.70 estimated** ${words}; the cap`);
    expect(renderCapRefusalText(estimate, 1_234, 1_500, 'suite', 2_000, 3_000, 4_500)).toContain(`the estimated cost $61.70 ${words} is above`);
  });

  it("compare's agreement, McNemar, fixed and broken and unchanged counts", () => {
    // "Before: 3234 items passed, 0 failed, 1000 not evaluated" beside "McNemar: over 2234 items".
    const before = run([...many(1_234, 'f'), ...many(1_000, 'e'), ...many(1_000, 'n', { verdict: 'not_evaluated' }), ...many(1_000, 'u')], { startedAt: '2026-12-01T09:00:00.000Z' });
    const after = run(
      [...many(1_234, 'f', { verdict: 'fail' }), ...many(1_000, 'e', { errored: true, error: 'x', errorKind: 'timeout', reply: null, route: null, verdict: null, drift: null } as Partial<FixtureRecord>), ...many(1_000, 'n', { verdict: 'not_evaluated' }), ...many(1_000, 'u')],
      { startedAt: '2026-12-02T09:00:00.000Z' },
    );
    const c = compareRuns(before, after);
    const text = renderCompareText(c);
    const markdown = renderCompareMarkdown(c);
    for (const out of [text, markdown]) {
      expect(out).toContain('3,234 items passed, 0 failed, 1,000 not evaluated');
      expect(out).toContain('1,000 items passed, 1,234 failed, 1,000 not evaluated, 1,000 errored');
      expect(out).toContain('over 2,234 items with a verdict in both runs, 1,234 newly failing');
      expect(out).toContain('2,234 verdicts changed (2,000 unchanged)');
    }
    expect(markdown).toContain('Fixed: 0. Broken: 2,234 (1,234 newly failing, 1,000 errored now).');
    // No count above is left ungrouped (the item labels below are "f-1234", not a count).
    for (const out of [text, markdown]) expect(out.split(/\n {2}[efnu]-|\n\| /)[0]).not.toMatch(/(?<![-\d,.:])\d{4,}(?![-\d,:])/);
  });

  it('the span count of a turn', () => {
    expect(spanCountsText({ count: 1_234, ignored: 1_000, late: 1 })).toBe('1,234 spans (1,000 ignored, 1 late)');
    expect(spanCountsText({ count: 1, ignored: 0, late: 0 })).toBe('1 span');
  });
});
