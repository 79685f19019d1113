// Slower than the baseline (docs/latency.md) in every surface: "slower: 1.2 s → 2.9 s" beside the
// drift, and a slower item whose verdict did not change in the Changed section. Goldens: slower.*.

import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/evaluate/compare.js';
import { renderCompareText } from '../../src/report/compare.js';
import { renderHtml } from '../../src/report/html.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import { driftMarkdown } from '../../src/report/items.js';
import { afterAcceptance, buildModel, itemView } from '../../src/report/model.js';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, persona, resetLines, route, run } from './fixtures.js';
import { expectGolden } from './helpers.js';

function slowerRun(): RunRecord {
  resetLines();
  const same = (label: string, over: Partial<FixtureRecord>): FixtureRecord =>
    fixture(label, { baseline: { ...baseline(label, `Reply for ${label}.`), latencyMs: 1200 }, drift: { reply: 'same', route: 'same', verdict: 'still_passing' }, latencyMs: 1250, ...over } as Partial<FixtureRecord>);
  return run([
    same('refund-policy', { latencyMs: 2940, slower: { baselineMs: 1200, latencyMs: 2940 } }),
    same('opening-hours', {}),
    fixture('shipping', {
      assertion: { kind: 'contains', value: '2 days' },
      reply: 'Shipping takes 5 days.',
      route: route('shipping', 'answer'),
      verdict: 'fail',
      detail: 'reply does not contain "2 days"',
      baseline: { ...baseline('shipping', 'Shipping takes 2 days.', 'pass', route('shipping', 'answer')), latencyMs: 300 },
      drift: { reply: 'different', route: 'same', verdict: 'newly_failing' },
      latencyMs: 900,
      slower: { baselineMs: 300, latencyMs: 900 },
    }),
  ]);
}

const SLOWER = slowerRun();
/** The comment with its no-break spaces (a number and its unit, wrap.ts) read as spaces. */
const spaced = (md: string): string => md.replaceAll('\u00a0', ' ');

describe('a slower item', () => {
  it('sits in Changed when its verdict did not change; newly failing stays first', () => {
    const model = buildModel(SLOWER);
    expect(model.sections.changed.map((f) => f.label)).toEqual(['refund-policy']);
    expect(model.sections.newly_failing.map((f) => f.label)).toEqual(['shipping']);
    expect(model.sections.unchanged.map((f) => f.label)).toEqual(['opening-hours']);
  });

  it('PR comment, job summary and terminal say it beside the drift (goldens)', () => {
    expectGolden('slower.comment.md', renderComment(SLOWER, ctx));
    expectGolden('slower.summary.md', renderSummary(SLOWER, ctx));
    expectGolden('slower.terminal.txt', renderTerminal(SLOWER, { color: false }));
  });

  it('report.html names it, and compare finds it between two runs', () => {
    expect(renderHtml(SLOWER, {})).toContain('slower: 1.2 s → 2.9 s');
    const before: RunRecord = { ...SLOWER, startedAt: '2026-11-30T00:00:00.000Z', fixtures: SLOWER.fixtures.map((f) => ({ ...f, latencyMs: f.baseline?.latencyMs ?? null, slower: undefined })) };
    const text = renderCompareText(compareRuns(before, SLOWER));
    expect(text).toContain('slower: 1.2 s → 2.9 s');
  });

  it('every surface writes a move with one arrow, →, never "->" beside it (docs/cli.md)', () => {
    const before: RunRecord = { ...SLOWER, startedAt: '2026-11-30T00:00:00.000Z', fixtures: SLOWER.fixtures.map((f) => ({ ...f, route: route('billing', 'refund'), verdict: 'pass', latencyMs: f.baseline?.latencyMs ?? null, slower: undefined }) as FixtureRecord) };
    const surfaces = {
      comment: renderComment(SLOWER, ctx),
      summary: renderSummary(SLOWER, ctx),
      terminal: renderTerminal(SLOWER, { color: false }),
      junit: renderJUnit(SLOWER),
      html: renderHtml(SLOWER, {}),
      compare: renderCompareText(compareRuns(before, SLOWER)),
    };
    for (const [surface, text] of Object.entries(surfaces)) {
      expect(spaced(text), surface).toMatch(/ → /);
      expect(spaced(text), surface).not.toMatch(/ (?:->|-&gt;|-\\>) /);
    }
    // A route and a verdict that moved, in compare's words: one arrow on the line, as the comment has it.
    expect(surfaces.compare).toMatch(/ shipping +pass → fail +route changed: billing\/refund → shipping\/answer\n/);
  });
});

describe('the call to accept a slower item (docs/latency.md)', () => {
  it('counts a slower item whose pass/fail result did not change apart: accepting stores its latency', () => {
    expect(renderComment(SLOWER, ctx)).toContain(
      '**To accept** the new or changed pass/fail result as a baseline, and the latency of 1 slower fixture, apply the `accept-baseline` label to this pull request.',
    );
    // Only slower: no new or changed pass/fail result is named at all.
    const onlySlower: RunRecord = { ...SLOWER, fixtures: SLOWER.fixtures.filter((f) => f.label !== 'shipping') };
    const md = renderComment(onlySlower, ctx);
    expect(md).toContain('**To accept** the latency of 1 slower fixture, apply the `accept-baseline` label to this pull request.');
    expect(md).not.toContain('pass/fail result');
  });
});

describe('a slower item in JUnit', () => {
  it('a passing slower item keeps a <system-out> that says so; a newly failing one says it in its failure (golden)', () => {
    const xml = renderJUnit(SLOWER);
    expectGolden('slower.junit.xml', xml);
    const testcase = (label: string): string => new RegExp(`<testcase [^>]*name="${label}"[^>]*?(/>|>[\\s\\S]*?</testcase>)`).exec(xml)?.[0] ?? '';
    expect(testcase('refund-policy')).toContain('<system-out>pass · still passing · slower: 1.2 s → 2.9 s');
    expect(testcase('shipping')).toContain('<failure');
    expect(testcase('shipping')).toContain('slower: 300 ms → 900 ms');
    expect(testcase('opening-hours')).toMatch(/\/>$/);
  });
});

describe('a slower item after acceptance', () => {
  it('is no longer slower: the comment posted after accepting it says the baseline holds its latency', () => {
    const accepted = {
      ...ctx,
      acceptance: { accepted: ['refund-policy'], refused: [], skipped: [], commitSha: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe', commitUrl: null, note: null },
    };
    const md = renderComment(SLOWER, accepted);
    expect(md).toContain('Baselines accepted');
    // The baseline now holds 2.9 s: "slower: 1.2 s → 2.9 s" would ask again for what was accepted.
    expect(md).not.toContain('1.2 s → 2.9 s');
    expect(md).not.toContain('slower than its baseline');
    const model = buildModel(afterAcceptance(SLOWER, ['refund-policy'], 'c0ffee0'));
    expect(model.sections.changed).toEqual([]);
    expect(model.sections.unchanged.map((f) => f.label)).toEqual(['refund-policy', 'opening-hours']);
    // Accepted under the same thresholds, it would now be compared with its own latency.
    expect(model.sections.unchanged[0]?.baseline?.latencyMs).toBe(2940);
  });

  it('a slower persona script likewise reads unchanged once accepted', () => {
    const script = persona('refund-dialog', { latencyMs: 4000, slower: { baselineMs: 1500, latencyMs: 4000 } } as Partial<PersonaRecord>);
    const record = run([], { personas: [script] });
    expect(buildModel(record).sections.changed).toEqual([script]);
    const after = afterAcceptance(record, ['refund-dialog'], 'c0ffee0');
    expect(buildModel(after).sections.unchanged.map((p) => p.label)).toEqual(['refund-dialog']);
    expect(after.personas[0]?.slower).toBeUndefined();
  });
});

describe('a slower item whose traces name the step that grew (docs/traces.md, "Slower")', () => {
  const step = { kind: 'tool' as const, name: 'lookup_order', baselineMs: 200, latencyMs: 1900 };
  const withStep = (name: string): RunRecord => ({
    ...SLOWER,
    fixtures: SLOWER.fixtures.map((f) => (f.label === 'refund-policy' ? { ...f, slower: { baselineMs: 1200, latencyMs: 2940, step: { ...step, name } } } : f)),
  });

  it('every surface says the step beside the latency', () => {
    const run = withStep('lookup_order');
    const words = 'slower: 1.2 s → 2.9 s (tool lookup_order 200 ms → 1.9 s)';
    // The comment's and job summary's item lines join a number and its unit by a no-break space (wrap.ts).
    expect(spaced(renderComment(run, ctx))).toContain(words.replaceAll('>', '&gt;'));
    expect(spaced(renderSummary(run, ctx))).toContain(words.replaceAll('>', '&gt;'));
    expect(renderTerminal(run, { color: false })).toContain(words);
    expect(renderJUnit(run)).toContain(words.replaceAll('>', '&gt;'));
    expect(renderHtml(run, {})).toContain(words.replaceAll('>', '&gt;'));
  });

  it("a tool name from the agent's spans is data: escaped in markdown, so it cannot open a table cell or a link", () => {
    const run = withStep('x|y](https://evil.example)<b>');
    expect(spaced(renderComment(run, ctx))).toContain('(tool x|y](https:/&#8288;/evil.example)&lt;b&gt; 200 ms → 1.9 s)'); // inside an HTML <summary>: HTML-escaped, its address broken
    const item = run.fixtures.find((f) => f.label === 'refund-policy');
    if (!item) throw new Error('no refund-policy');
    const cell = driftMarkdown(itemView(item)); // the compact table's drift cell: markdown-escaped
    expect(cell).toContain('tool x\\|y\\]');
    expect(cell).not.toContain('<b>');
    // Our own words are left as they were when no step names a tool (the goldens above hold them byte for byte).
    const plain = SLOWER.fixtures.find((f) => f.label === 'refund-policy');
    expect(plain && driftMarkdown(itemView(plain))).toBe('still passing · slower: 1.2 s → 2.9 s');
  });
});
