// Evaluations in the reports (docs/evaluations.md, "In the PR comment and job summary"): agreement
// with not evaluated and errored left out of the denominator, per conversation / file / persona
// tag, coverage gaps and unknowns, "since the previous run" and the trend; read back through
// cmark-gfm as GitHub renders them.

import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/evaluate/index.js';
import { renderComment, renderMarkdownReport, renderSummary, renderTerminal, type ReportContext } from '../../src/report/index.js';
import { renderCompareMarkdown, renderCompareText } from '../../src/report/compare.js';
import { renderHtml } from '../../src/report/html.js';
import type { TrendView } from '../../src/report/context.js';
import type { FixtureRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, HOSTILE, mixed, mixedWithPersonas, route, run } from './fixtures.js';
import { decodeEntities, githubHtml, outsideCode, structure } from './helpers.js';
import { repeated, withRunStats } from './stats-fixtures.js';

const fail = { verdict: 'fail' as const, drift: { reply: 'same' as const, route: 'same' as const, verdict: 'still_failing' as const } };
const notEvaluated = { verdict: 'not_evaluated' as const, drift: { reply: 'same' as const, route: 'same' as const, verdict: 'not_evaluated' as const } };
const errored = { errored: true, error: 'timeout', errorKind: 'timeout', reply: null, route: null, verdict: null, drift: null, detail: null } as const;

function sample(): RunRecord {
  return run([
    fixture('a-pass', { route: route('refunds', 'ask'), baseline: null, drift: { reply: 'same', route: 'same', verdict: 'no_baseline' } }),
    fixture('b-pass', { persona: 'impatient' }),
    fixture('c-fail', { ...fail, persona: 'impatient', file: '.agent-replay/fixtures/other.yml' }),
    fixture('d-not-evaluated', notEvaluated),
    fixture('e-errored', { ...errored, baseline: null } as never),
  ]);
}

/** What a reader sees, code spans included: tags dropped, entities decoded, spaces collapsed. */
const text = (md: string): string => decodeEntities(githubHtml(md).replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

/** The rows of the table whose first header is `head`: cells as text. */
function tableRows(html: string, head: string): string[][] {
  const table = new RegExp(`<table>\\s*<thead>\\s*<tr>\\s*<th>${head}</th>[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...(r[1] as string).matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => decodeEntities((c[1] as string).replace(/<[^>]+>/g, '')).trim()));
}

describe('agreement', () => {
  it('is passed / (passed + failed), with not evaluated and errored beside it, left out of the denominator', () => {
    const md = renderComment(sample(), ctx);
    expect(text(md)).toContain('📊 Agreement 66.7% : 2 of 3 items passed; 1 not evaluated and 1 errored left out of the denominator');
    // One line in the headline area: right after the facts, before the first section.
    const lines = md.split('\n');
    const at = lines.findIndex((l) => l.startsWith('📊 '));
    expect(lines.slice(at + 1).find((l) => l !== '')).toMatch(/^#### /);
    expect(lines.filter((l) => l.startsWith('📊 '))).toHaveLength(1);
  });

  it('says items, of a repeated run too, on every surface: never read as the attempts the pass-rate line under it counts', () => {
    // Three items of 5 attempts each: 15 attempts, 3 items. "2 of 3 passed" beside "Pass rate of attempts" read as attempts.
    const rep = (label: string, passed: number, verdict: 'pass' | 'fail') =>
      fixture(label, { verdict, repeat: { count: 5, minPass: 3, passed, flaky: passed > 0 && passed < 5 }, ...(verdict === 'fail' ? { drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } } : {}) } as never);
    const record = run([rep('a', 5, 'pass'), rep('b', 4, 'pass'), rep('c', 2, 'fail')]);
    expect(text(renderComment(record, ctx))).toContain('📊 Agreement 66.7% : 2 of 3 items passed');
    expect(renderTerminal(record, { color: false })).toContain('agreement: 66.7% (2 of 3 items passed)');
    expect(renderHtml(record)).toContain('<b>66.7%</b> agreement: 2 of 3 items passed.</p>');
    // One item alone is "1 of 1 item".
    expect(text(renderComment(run([rep('a', 5, 'pass')]), ctx))).toContain('📊 Agreement 100% : 1 of 1 item passed');
    // compare says the items beside agreement too.
    const after = run([rep('a', 5, 'pass'), rep('b', 2, 'fail'), rep('c', 2, 'fail')]);
    const c = compareRuns({ ...record, startedAt: '2026-01-01T00:00:00.000Z' }, { ...after, startedAt: '2026-01-02T00:00:00.000Z' });
    expect(renderCompareText(c)).toContain('  before: 2 items passed, 1 failed\n  after:  1 item passed, 2 failed\n');
    expect(renderCompareMarkdown(c)).toContain('Before: 2 items passed, 1 failed. After: 1 item passed, 2 failed.');
  });

  it('says n/a when nothing passed or failed', () => {
    expect(text(renderComment(run([fixture('x', notEvaluated)]), ctx))).toContain('Agreement n/a : nothing passed or failed; 1 not evaluated left out of the denominator');
  });

  it('per conversation, file and persona tag: collapsed in the comment, open in the summary', () => {
    const comment = githubHtml(renderComment(sample(), ctx));
    const details = /<details><summary>Agreement by conversation, file and persona<\/summary>([\s\S]*?)<\/details>/.exec(comment)?.[1] ?? '';
    expect(details).not.toBe('');
    // Two columns, every number in the second, so the tables fit a 390 px phone (five scrolled sideways).
    expect(tableRows(details, 'conversation')).toEqual([
      ['main', '50% · 1 passed, 1 failed, 1 left out'],
      ['refunds', '100% · 1 passed, 0 failed, 0 left out'],
    ]);
    expect(tableRows(details, 'file')).toEqual([
      ['.agent-replay/fixtures/other.yml', '0% · 0 passed, 1 failed, 0 left out'],
      ['.agent-replay/fixtures/suite.yml', '100% · 2 passed, 0 failed, 2 left out'],
    ]);
    expect(tableRows(details, 'persona')).toEqual([['impatient', '50% · 1 passed, 1 failed, 0 left out']]);
    expect(details.match(/<th[ >]/g)).toHaveLength(6);
    const summary = githubHtml(renderSummary(sample(), ctx));
    expect(summary).not.toContain('<summary>Agreement by');
    expect(tableRows(summary, 'conversation')).toHaveLength(2);
  });

  it('keeps the comment\'s sections whole: every item still in exactly one section', () => {
    const md = renderComment(mixedWithPersonas(), ctx);
    const s = structure(md);
    expect(s.sections.every((x) => x.title !== '?' && x.count === x.labels.length + x.counted)).toBe(true);
  });

  it('escapes hostile group names (conversation, persona tag) like agent text', () => {
    const hostile = run([fixture('h', { route: route(HOSTILE, 'x'), baseline: null, drift: { reply: 'same', route: 'same', verdict: 'no_baseline' }, persona: '@octocat <img src=x>' })]);
    const html = githubHtml(renderComment(hostile, ctx));
    expect(html).not.toMatch(/<img|<script|<a href="https?:\/\/(?!github\.com\/acme)/);
    expect(html).toContain('@\u2060octocat');
    expect(outsideCode(html)).not.toMatch(/@(?!\u2060)octocat/);
  });
});

describe('coverage', () => {
  const covered = (): RunRecord => ({ ...sample(), coverage: { listed: ['refunds', 'orders', 'handoff'], visited: ['refunds', 'main'], gaps: ['orders', 'handoff'], unknown: ['main'] } });

  it('names the gaps in the line and lists gaps and unknown conversations in the details', () => {
    const t = text(renderComment(covered(), ctx));
    expect(t).toContain('left out of the denominator · coverage: 2 conversations never visited');
    expect(t).toContain('Coverage : 1 of 3 listed conversations visited.');
    expect(t).toContain('Never visited (gaps): orders , handoff');
    expect(t).toContain('Visited but not listed in coverage.conversations : main');
  });

  it('shows the change against the compared run', () => {
    const before: RunRecord = { ...sample(), startedAt: '2026-11-30T09:00:00.000Z', coverage: { listed: ['refunds', 'orders', 'handoff'], visited: ['refunds', 'handoff'], gaps: ['orders'], unknown: [] } };
    const after = covered();
    const md = renderComment(after, { ...ctx, previous: { runId: '41', comparison: compareRuns(before, after) } });
    expect(text(md)).toContain('Since the previous run: new gaps handoff ; newly unknown main .');
  });

  it('is absent when the record has none', () => {
    expect(text(renderComment(sample(), ctx))).not.toMatch(/Coverage|coverage:/);
  });
});

describe('since the previous run', () => {
  const before = (): RunRecord => ({ ...run([fixture('a'), fixture('b', fail), fixture('c')]), startedAt: '2026-11-30T09:00:00.000Z' });
  const after = (): RunRecord => run([fixture('a'), fixture('b'), fixture('c', fail), fixture('d')]);

  it('counts fixed, broken and changed, with the labels in a collapsed block', () => {
    const c: ReportContext = { ...ctx, previous: { runId: '41', comparison: compareRuns(before(), after()) } };
    const md = renderComment(after(), c);
    const t = text(md);
    expect(t).toContain('since the previous run: 1 fixed · 1 broken · 1 changed');
    expect(t).toContain('Since the previous run (run 41): 1 fixed · 1 broken · 1 changed · agreement 66.7% → 75%');
    const details = /<details><summary>What moved since the previous run<\/summary>([\s\S]*?)<\/details>/.exec(githubHtml(md))?.[1] ?? '';
    expect(text(details)).toMatch(/Broken \(1\) c : pass → fail Fixed \(1\) b : fail → pass Changed \(1\) d : only in the after run \(pass\)/);
  });

  it('counts a reply reworded since the previous run as reworded, apart from changed, as the sections do: a rerun of an agent that rewords reads "reworded", not "changed"', () => {
    // Both runs against one baseline, each the same in meaning: compare's cause is "reworded" (docs/evaluations.md, "Compare").
    const base = baseline('refund', 'Refunds within 30 days.');
    const reworded = (reply: string, score: number): FixtureRecord =>
      fixture('refund', { reply, baseline: base, drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'reworded', by: 'judge', detail: null, score } } } as Partial<FixtureRecord>);
    const b = { ...run([reworded('You may return items within 30 days.', 0.95), fixture('a'), fixture('c')]), startedAt: '2026-11-30T09:00:00.000Z' };
    const a = run([reworded('You can send back items within 30 days.', 0.9), fixture('a'), fixture('c', fail)]);
    const comparison = compareRuns(b, a);
    expect(comparison.changes.map((ch) => [ch.label, ch.cause])).toEqual(expect.arrayContaining([['refund', 'reworded']]));
    const md = renderComment(a, { ...ctx, previous: { runId: '41', comparison } });
    const t = text(md);
    expect(t).toContain('since the previous run: 1 broken · 1 reworded');
    expect(t).toContain('Since the previous run (run 41): 1 broken · 1 reworded · agreement');
    const details = /<details><summary>What moved since the previous run<\/summary>([\s\S]*?)<\/details>/.exec(githubHtml(md))?.[1] ?? '';
    expect(text(details)).toMatch(/Broken \(1\) c : pass → fail Reworded \(1\) refund : reworded \(judge 0\.90\)/);
    expect(text(details)).not.toContain('Changed (');
  });

  it('names the error of an item that errored now, or errored before and is fixed since, beside its move', () => {
    const err = (label: string): FixtureRecord =>
      fixture(label, { errored: true, error: 'message turn: agent returned HTTP 503 after 1 attempt', errorKind: 'http', reply: null, route: null, verdict: null, drift: null } as Partial<FixtureRecord>);
    const b = { ...run([fixture('a'), err('b')]), startedAt: '2026-11-30T09:00:00.000Z' };
    const a = run([err('a'), fixture('b')]);
    const md = renderComment(a, { ...ctx, previous: { runId: '41', comparison: compareRuns(b, a) } });
    const details = /<details><summary>What moved since the previous run<\/summary>([\s\S]*?)<\/details>/.exec(githubHtml(md))?.[1] ?? '';
    expect(text(details)).toContain('a : pass → errored · HTTP 503 from the agent');
    expect(text(details)).toContain('b : errored → pass · before: HTTP 503 from the agent');
  });

  it('is one line when nothing changed, and absent on the first run', () => {
    const same = run([fixture('a')]);
    const md = renderComment(same, { ...ctx, previous: { runId: '41', comparison: compareRuns({ ...same, startedAt: '2026-11-30T09:00:00.000Z' }, same) } });
    expect(text(md)).toContain('since the previous run: nothing changed');
    expect(md).not.toContain('What moved');
    expect(renderComment(same, ctx)).not.toMatch(/previous run/i);
  });

  it('counts the repeated items whose pass rate of attempts alone moved, never "nothing changed" (docs/evaluations.md#compare)', () => {
    const earlier = { ...withRunStats(['a', 'b'].map((l) => repeated(l, null, { passed: 4, total: 5 }, 3))), startedAt: '2026-11-30T09:00:00.000Z' };
    const later = withRunStats(['a', 'b'].map((l) => repeated(l, { passed: 4, total: 5 }, { passed: l === 'a' ? 3 : 4, total: 5 }, 3)));
    const md = renderComment(later, { ...ctx, previous: { runId: '41', comparison: compareRuns(earlier, later) } });
    expect(text(md)).toContain('since the previous run: 1 pass rate of attempts moved');
    expect(text(md)).not.toContain('nothing changed');
    // Nothing else changed: the details list it all the same, with its passes over attempts, as compare does.
    const details = /<details><summary>What moved since the previous run<\/summary>([\s\S]*?)<\/details>/.exec(githubHtml(md))?.[1] ?? '';
    expect(text(details)).toMatch(/Pass rate of attempts moved, verdict unchanged \(1\) a : pass 4\/5 \(flaky\) → pass 3\/5 \(flaky\)/);
    expect(text(details)).not.toMatch(/\bb :/);
    // The job summary lists it too, without the fold.
    expect(renderSummary(later, { ...ctx, previous: { runId: '41', comparison: compareRuns(earlier, later) } })).toContain('- `a`: pass 4/5 (flaky) → pass 3/5 (flaky)');
  });

  it('one calm line when the previous run could not be read', () => {
    const md = renderComment(run([fixture('a')]), { ...ctx, previous: { runId: '41', unavailable: 'the results artifact has expired' } });
    expect(text(md)).toContain('Since the previous run: not compared (the results artifact has expired).');
  });
});

describe('trend', () => {
  const point = (runId: string, commit: string, passed: number, failed: number) => ({
    runId,
    commit,
    startedAt: '2026-11-30T09:00:00.000Z',
    agreement: { passed, failed, notEvaluated: 0, errored: 0, total: passed + failed, percent: passed + failed === 0 ? null : (passed / (passed + failed)) * 100 },
  });
  const trend: TrendView = { branch: 'main', includesThisRun: false, points: [point('1', 'a'.repeat(40), 82, 18), point('2', 'b'.repeat(40), 85, 15), point('3', 'c'.repeat(40), 91, 9)] };

  it('is a compact row in the comment and a Mermaid line chart in the summary', () => {
    const c = { ...ctx, trend };
    expect(text(renderComment(mixed(), c))).toContain('📈 Agreement on main (last 3 recorded runs): 82% → 85% → 91% · this run: 62.5%');
    expect(renderComment(mixed(), c)).not.toContain('```mermaid');
    const summary = renderSummary(mixed(), c);
    expect(summary).toContain('```mermaid\nxychart-beta\n  title "Agreement on main (%)"\n  x-axis ["aaaaaaa", "bbbbbbb", "ccccccc"]\n  y-axis "agreement (%)" 0 --> 100\n  line [82, 85, 91]\n```');
    expect(renderMarkdownReport(mixed(), c)).toContain('xychart-beta');
  });

  it('keeps an untrusted branch name out of the chart\'s syntax', () => {
    const summary = renderSummary(mixed(), { ...ctx, trend: { ...trend, branch: 'x"]\n  line [1' } });
    const chart = /```mermaid\n([\s\S]*?)```/.exec(summary)?.[1] ?? '';
    expect(chart.split('\n').filter((l) => l.trim().startsWith('line'))).toHaveLength(1);
    expect(chart).toContain('title "Agreement on x_____line__1 (%)"');
  });
});

describe('size', () => {
  it('drops the details, keeping the line, when they would take too much of a small limit', () => {
    const c: ReportContext = { ...ctx, trend: { branch: 'main', includesThisRun: false, points: [] } };
    const big = run(Array.from({ length: 60 }, (_, i) => fixture(`f${i}`, { file: `.agent-replay/fixtures/file-${i}.yml`, route: route(`conv-${i}`, 'x') })));
    const full = renderComment(big, c);
    expect(full).toContain('Agreement by conversation and file');
    expect(full).toContain('_and 30 more_');
    const small = renderComment(big, c, { maxChars: 9_000 });
    expect(small.length).toBeLessThanOrEqual(9_000);
    expect(small).toContain('📊 **Agreement 100%**');
    expect(small).not.toContain('Agreement by conversation and file');
  });

  it('terminal: agreement, per group and coverage, one line each', () => {
    const out = renderTerminal({ ...sample(), coverage: { listed: ['refunds', 'orders'], visited: ['refunds', 'main'], gaps: ['orders'], unknown: ['main'] } }, { color: false });
    expect(out).toContain('agreement: 66.7% (2 of 3 items passed; 1 not evaluated and 1 errored left out of the denominator)\n  by conversation: main 50% · refunds 100%\n');
    expect(out).toContain('  by persona: impatient 50%\n');
    expect(out).toContain('coverage: never visited: orders · not listed: main\n');
  });
});

describe('groups past the terminal line', () => {
  it('counts the groups not shown with their digits grouped, as every count is: "and 1,001 more"', () => {
    const fixtures = Array.from({ length: 1013 }, (_, i) => fixture(`f${i}`, { file: `.agent-replay/fixtures/f${String(i).padStart(4, '0')}.yml` }));
    const out = renderTerminal(run(fixtures), { color: false });
    expect(out).toMatch(/by file: \.agent-replay\/fixtures\/f0000\.yml 100% · .* · and 1,001 more\n/);
  });
});

describe('an incomplete merge that excluded many files', () => {
  it('counts the files not named with their digits grouped: "and 1,005 more"', () => {
    const foreign = Array.from({ length: 1010 }, (_, i) => `shard-${i}.json (another suite)`);
    const comment = renderComment(run([fixture('a')], { incomplete: { total: 2, suiteHash: 'h', missing: [], foreign } }), ctx);
    expect(comment).toContain(' and 1,005 more.**');
  });
});
