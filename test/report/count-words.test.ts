// Counts written with their digits grouped in every sentence that says one (src/words.ts): "1,234
// fixtures", as the comment's tally and report.html write "1,234 probes", never "1234 fixtures".

import { describe, expect, it } from 'vitest';
import { plural } from '../../src/words.js';
import { renderCapRefusal, renderCapRefusalText } from '../../src/report/cap.js';
import { compareRuns } from '../../src/evaluate/index.js';
import { renderCompareMarkdown, renderCompareText } from '../../src/report/index.js';
import { spanCountsText } from '../../src/report/trace.js';
import { fixture, run, ctx } from './fixtures.js';
import type { FixtureRecord, RunRecord } from '../../src/types.js';
import { unmatchedOnlyText } from '../../src/evaluate/selection.js';
import { causeOf } from '../../src/evaluate/causes.js';
import { combinedWords } from '../../src/action/report.js';
import { acceptedShown } from '../../src/action/accept.js';
import { deadlineWords } from '../../src/action/github-words.js';
import { acceptTallyText, interruptedAcceptText } from '../../src/cli/main.js';
import { noAnswerText } from '../../src/github/octokit.js';
import { attemptsText } from '../../src/http/retry.js';

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
    expect(renderCapRefusalText(estimate, 1_234, 1_500, { dir: 'suite' }, 2_000, 3_000, 4_500)).toContain(`the estimated cost $61.70 ${words} is above`);
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

describe('the last counts written ungrouped, grouped', () => {
  const labels = (n: number): string[] => Array.from({ length: n }, (_, i) => `item-${i}`);

  it("--only's usage error: the suite's labels after the first 20, and 1,201 more", () => {
    // It wrote "+1201 more".
    expect(unmatchedOnlyText(['nope-*'], labels(1_221))).toMatch(/^--only "nope-\*" matches no fixture or persona script label; labels in the suite: item-0, .*, item-19 and 1,201 more$/);
    expect(unmatchedOnlyText(['a', 'b'], [])).toBe('--only "a", "b" match no fixture or persona script label; labels in the suite: (none)');
  });

  it("report mode's log line: combined 2 results files, 1,200 fixtures (1 fixture, never 1 fixtures)", () => {
    const merged = (fixtures: number, personas: number) => ({ fixtures: Array.from({ length: fixtures }, () => fixture('f')), personas: Array.from({ length: personas }, () => ({}) as RunRecord['personas'][number]) });
    expect(combinedWords(2, merged(1_200, 1_001))).toBe('combined 2 results files, 1,200 fixtures, 1,001 persona scripts');
    expect(combinedWords(1, merged(1, 0))).toBe('combined 1 results file, 1 fixture');
  });

  it("accept's tally and its line on an interrupted run: 1,200 items", () => {
    expect(acceptTallyText(1_200, 1_000, 0, 0)).toBe('1,200 accepted, 1,000 refused, 0 unchanged');
    expect(acceptTallyText(1, 0, 2_000, 1_500)).toBe('1 accepted, 0 refused, 2,000 unchanged, 1,500 not written');
    expect(interruptedAcceptText('int.json', 1_200)).toBe('int.json is the record of an interrupted run: only the 1,200 items it finished could be accepted; the others keep their baselines; to replay them, run the suite again: npx agent-replay run');
    expect(interruptedAcceptText('int.json', 1)).toContain('only the item it finished');
  });

  it("GitHub's deadline: within 1,500 ms, 1,200 s, and read back by the words that quote it", () => {
    expect(noAnswerText(1_500, 3)).toBe("no answer from GitHub's API within 1,500 ms (each of the 3 tries waits 1,500 ms): GitHub is slow or down; see https://www.githubstatus.com and re-run the job once it answers");
    expect(noAnswerText(30_000, 4)).toContain('within 30 s (each of the 4 tries waits 30 s)');
    expect(deadlineWords(noAnswerText(1_200_000, 1_001))).toBe("no answer from GitHub's API within 1,200 s (each of the 1,001 tries waits 1,200 s)");
  });

  it("a baseline commit's headline: a, b, c and 1,197 more", () => {
    expect(acceptedShown(labels(1_200))).toBe('item-0, item-1, item-2 and 1,197 more');
    expect(acceptedShown(labels(3))).toBe('item-0, item-1, item-2');
  });

  it("a client's attempts: after 1,200 attempts, and a cause reads either form as one, older records' too", () => {
    expect(attemptsText({ attempts: 1_200 })).toBe('1,200 attempts');
    expect(attemptsText({ attempts: 1 })).toBe('1 attempt');
    const errored = (error: string) => causeOf({ label: 'a', errored: true, verdict: null, errorKind: 'internal', error }, null);
    const grouped = errored('the worker stopped after 1,200 attempts: it ran out');
    expect(grouped).toEqual(errored('the worker stopped after 3 attempts: it ran out'));
    expect(grouped).toEqual(errored('the worker stopped after 1200 attempts: it ran out'));
    expect(grouped?.what).toBe('the worker stopped: it ran out');
    const judged = (detail: string) => causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail }] }, null);
    const down = judged('judge unreachable: the connection was refused after 1,200 attempts');
    expect(down?.what).toBe('judge unreachable: the connection was refused');
    expect(down).toEqual(judged('judge unreachable: the connection was refused after 2 attempts'));
  });
});
