// A check that fails on what its headline does not say (docs/action.md, "The PR comment", "A check
// that fails"): with `fail-on: slower` and an item slower, the headline's words stay what happened
// ("No new failures: 1 changed"), its ✅ goes (🟠), and one line under it names what fails the
// check, in the comment, the job summary, the terminal and report.html alike. A gate that passes
// changes nothing; a headline that already says why (a regression, "Not verified") keeps its colour.
// Goldens: gate-fails.*.

import { describe, expect, it } from 'vitest';
import { gateRun, offenderText, type GateResult } from '../../src/evaluate/index.js';
import { renderHtml } from '../../src/report/html.js';
import { renderComment, renderMarkdownReport, renderSummary, renderTerminal } from '../../src/report/index.js';
import { buildModel, headlineParts } from '../../src/report/model.js';
import type { FailOnCondition, FixtureRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, resetLines, route, run } from './fixtures.js';
import { differing } from './meaning-fixtures.js';
import { expectGolden } from './helpers.js';

/** A fixture unchanged against its baseline, 1.2 s then. */
const same = (label: string, over: Partial<FixtureRecord> = {}): FixtureRecord =>
  fixture(label, { baseline: { ...baseline(label, `Reply for ${label}.`), latencyMs: 1200 }, latencyMs: 1250, ...over } as Partial<FixtureRecord>);

const slower = (label: string): FixtureRecord => same(label, { latencyMs: 2940, slower: { baselineMs: 1200, latencyMs: 2940 } } as Partial<FixtureRecord>);

/** For each condition the headline does not say: a run that meets it under a ✅ headline, and the line under it. */
function cases(): { condition: FailOnCondition; run: RunRecord; lead: string; line: string }[] {
  resetLines();
  return [
    {
      condition: 'slower',
      run: run([slower('refund-policy'), slower('opening-hours'), same('greeting')]),
      lead: 'No new failures: 2 changed · 1 unchanged',
      line: 'The check fails (fail-on slower): 2 fixtures slower than the baseline (refund-policy, opening-hours)',
    },
    {
      condition: 'failed',
      run: run([
        same('shipping', { verdict: 'fail', detail: 'reply does not contain "2 days"', baseline: baseline('shipping', 'Reply for shipping.', 'fail'), drift: { reply: 'same', route: 'same', verdict: 'still_failing' } }),
        same('greeting'),
      ]),
      lead: 'No new failures: 1 still failing · 1 unchanged',
      line: 'The check fails (fail-on failed): 1 fixture failing (shipping)',
    },
    {
      condition: 'no_baseline',
      run: run([fixture('new-faq', { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } }), same('greeting')]),
      lead: 'No new failures: 1 new · 1 unchanged',
      line: 'The check fails (fail-on no_baseline): 1 fixture without a baseline (new-faq)',
    },
    {
      condition: 'reply_changed',
      run: run([differing('store-hours', 'We are open every day.', 'Our shops open daily.', null), same('greeting')]),
      lead: 'No new failures: 1 changed · 1 unchanged',
      line: 'The check fails (fail-on reply_changed): 1 fixture with a changed reply (store-hours)',
    },
    {
      condition: 'route_changed',
      run: run([same('refund-policy', { route: route('refunds', 'exceptions'), drift: { reply: 'same', route: 'different', verdict: 'still_passing' } }), same('greeting')]),
      lead: 'No new failures: 1 changed · 1 unchanged',
      line: 'The check fails (fail-on route_changed): 1 fixture with a changed route (refund-policy)',
    },
    {
      condition: 'meaning_changed',
      run: run([
        differing('refund-window', 'Refunds are accepted within 30 days.', 'You can return items within 14 days.', { value: 'changed', by: 'judge', detail: 'the window is shorter', score: 0.2 }),
        same('greeting'),
      ]),
      lead: 'No new failures: 1 changed · 1 unchanged',
      line: 'The check fails (fail-on meaning_changed): 1 fixture changed in meaning (refund-window)',
    },
    {
      condition: 'flaky',
      // Flaky, its verdict as before: unchanged, under "No regressions".
      run: run([same('coin-toss', { repeat: { count: 3, minPass: 2, passed: 2, flaky: true } }), same('greeting')]),
      lead: 'No regressions: 2 unchanged',
      line: 'The check fails (fail-on flaky): 1 fixture whose attempts disagree (coin-toss)',
    },
  ];
}

/** The comment's heading and the line under it. */
function head(markdown: string): string[] {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => l.startsWith('### '));
  return lines.slice(at, at + 2);
}

/** report.html with the gate; its links as without a context (the run's commit, no repository). */
const html = (r: RunRecord, gate: GateResult): string => renderHtml(r, { context: { repositoryUrl: null, headSha: r.commit, gate } });

/** The terminal's first two lines. */
const terminalHead = (r: RunRecord, gate: GateResult | null): string[] => renderTerminal(r, { color: false, gate }).split('\n').slice(0, 2);

describe('a check that fails on what the headline does not say', () => {
  for (const c of cases()) {
    it(`fail-on ${c.condition}: the headline keeps its words, loses its ✅, and the line under it names the condition and the items`, () => {
      const gate = gateRun(c.run, [c.condition]);
      expect(gate.failed).toBe(true);
      // Without the gate (a record shown again), the headline says what happened, with its ✅.
      expect(headlineParts(buildModel(c.run)).icon).toBe('✅');
      expect(head(renderComment(c.run, ctx))[0]).toBe(`### ✅ ${c.lead}`);

      const code = c.line.replace(/\(fail-on (\w+)\)/, '(fail-on `$1`)').replace(/\(([^()]*)\)$/, (_, labels: string) => `(${labels.split(', ').map((l) => `\`${l}\``).join(', ')})`);
      const markdown = [`### 🟠 ${c.lead}`, code.replace('The check fails', '**The check fails**')];
      expect(head(renderComment(c.run, { ...ctx, gate }))).toEqual(markdown);
      expect(head(renderSummary(c.run, { ...ctx, gate }))).toEqual(markdown);
      expect(head(renderMarkdownReport(c.run, { gate }))).toEqual(markdown);
      expect(terminalHead(c.run, gate)).toEqual([`agent-replay: ${c.lead}`, `  ${c.line}`]);

      const page = html(c.run, gate);
      expect(page).toContain(`<p class="headline warn">${c.lead}</p>`);
      expect(page).not.toContain('class="headline good"');
      expect(page.replace(/<\/?(code|b)>/g, '')).toContain(`<p class="gate">${c.line}</p>`);
    });
  }

  it('the gate passing with the same items changes nothing: fail-on none, or the default gate', () => {
    for (const c of cases()) {
      for (const failOn of [['none'], ['newly_failing', 'unverified']] as FailOnCondition[][]) {
        const gate = gateRun(c.run, failOn);
        expect(gate.failed).toBe(false);
        expect(renderComment(c.run, { ...ctx, gate })).toBe(renderComment(c.run, ctx));
        expect(renderSummary(c.run, { ...ctx, gate })).toBe(renderSummary(c.run, ctx));
        expect(renderTerminal(c.run, { color: true, gate })).toBe(renderTerminal(c.run, { color: true }));
        expect(html(c.run, gate)).toBe(renderHtml(c.run, {}));
      }
    }
  });

  it('the terminal paints the headline yellow, not green, and the line under it yellow too', () => {
    const c = cases()[0] as ReturnType<typeof cases>[number];
    const [headline, line] = renderTerminal(c.run, { color: true, gate: gateRun(c.run, ['slower']) }).split('\n');
    expect(headline).toBe(`\u001b[1m\u001b[33magent-replay: ${c.lead}\u001b[0m\u001b[0m`);
    expect(line).toBe(`\u001b[33m  ${c.line}\u001b[0m`);
    expect(renderTerminal(c.run, { color: true }).split('\n')[0]).toContain('\u001b[32m');
  });

  it('names every condition met that the headline does not say, in fail-on order, the first 5 labels of each (goldens)', () => {
    resetLines();
    const many = run([...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(slower), same('coin-toss', { repeat: { count: 3, minPass: 2, passed: 2, flaky: true } })]);
    const gate = gateRun(many, ['newly_failing', 'flaky', 'slower']);
    expect(terminalHead(many, gate)[1]).toBe('  The check fails (fail-on flaky, slower): 1 fixture whose attempts disagree (coin-toss); 7 fixtures slower than the baseline (a, b, c, d, e and 2 more)');
    expectGolden('gate-fails.comment.md', renderComment(many, { ...ctx, gate }));
    expectGolden('gate-fails.terminal.txt', renderTerminal(many, { color: false, gate }));
  });

  it('a label is written for its surface: a code span in markdown (one line, no control), escaped in report.html, its controls shown in the terminal', () => {
    resetLines();
    const odd = run([slower('a`b<i>\u001b[31mx')]);
    const gate = gateRun(odd, ['slower']);
    expect(head(renderComment(odd, { ...ctx, gate }))[1]).toBe('**The check fails** (fail-on `slower`): 1 fixture slower than the baseline (``a`b<i>[31mx``)');
    expect(html(odd, gate)).toContain('(<code>a`b&lt;i&gt;');
    expect(terminalHead(odd, gate)[1]).toBe('  The check fails (fail-on slower): 1 fixture slower than the baseline (a`b<i>\\u001b[31mx)');
  });
});

describe('a headline that already says why the check fails keeps its colour', () => {
  it('a regression stays red; the line names only what the headline does not say', () => {
    resetLines();
    const r = run([
      same('refund-policy', { verdict: 'fail', detail: 'no match', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } }),
      slower('opening-hours'),
    ]);
    expect(head(renderComment(r, { ...ctx, gate: gateRun(r, ['newly_failing']) }))).toEqual(head(renderComment(r, ctx)));
    const gate = gateRun(r, ['newly_failing', 'slower']);
    expect(head(renderComment(r, { ...ctx, gate }))).toEqual(['### 🔴 1 newly failing · 1 changed', '**The check fails** (fail-on `slower`): 1 fixture slower than the baseline (`opening-hours`)']);
    expect(html(r, gate)).toContain('<p class="headline bad">');
  });

  it('"Not verified" stays grey with its cause; a condition it does not say is named between the two', () => {
    resetLines();
    const errored = fixture('order-status', {
      errored: true,
      verdict: null,
      reply: null,
      route: null,
      error: 'message turn: no answer from the agent within 30000 ms',
      errorKind: 'timeout',
      detail: 'message turn: no answer from the agent within 30000 ms',
      drift: null,
    } as Partial<FixtureRecord>);
    const r = run([errored, slower('opening-hours')]);
    const plain = head(renderComment(r, ctx));
    expect(plain[0]).toMatch(/^### ⚪ Not verified: 1 changed · 1 errored$/);
    expect(plain[1]).toMatch(/^\*\*Cause\*\*: /);
    // The default gate fails on it: the headline says why.
    expect(renderComment(r, { ...ctx, gate: gateRun(r, ['newly_failing', 'unverified']) })).toBe(renderComment(r, ctx));
    const gate = gateRun(r, ['unverified', 'slower']);
    const lines = renderComment(r, { ...ctx, gate }).split('\n');
    const at = lines.indexOf(plain[0] as string);
    expect(lines.slice(at, at + 3)).toEqual([plain[0], '**The check fails** (fail-on `slower`): 1 fixture slower than the baseline (`opening-hours`)', plain[1]]);
    expect(html(r, gate)).toContain('<p class="headline grey">');
    expect(terminalHead(r, gate)).toEqual(['agent-replay: Not verified: 1 changed · 1 errored', '  The check fails (fail-on slower): 1 fixture slower than the baseline (opening-hours)']);
  });

  it('an interrupted run, whose gate is not applied, says nothing of it', () => {
    resetLines();
    const r = run([slower('opening-hours')], { interrupted: true });
    const gate = gateRun(r, ['slower']);
    expect(gate.failed).toBe(true);
    expect(renderComment(r, { ...ctx, gate })).toBe(renderComment(r, ctx));
    expect(renderTerminal(r, { color: false, gate })).toBe(renderTerminal(r, { color: false }));
  });

  // A gate read back from a comment keeps the labels there was room for (src/report/metadata.ts, storedGate):
  // one with no room for any says where they are named, as the other truncations do, not "(2 not named)".
  it('a condition kept without a label says where its items are named', () => {
    const kept = { condition: 'slower' as const, labels: [], fixtures: 2, scripts: 0 };
    expect(offenderText(kept)).toBe("2 fixtures slower than the baseline (not named here: see the check's job summary)");
    expect(offenderText({ ...kept, condition: 'flaky', fixtures: 1, scripts: 2 })).toBe("3 items (1 fixture, 2 persona scripts) whose attempts disagree (not named here: see the check's job summary)");
    expect(offenderText({ ...kept, labels: ['a'] }, (l) => `\`${l}\``)).toBe('2 fixtures slower than the baseline (`a` and 1 more)');
    // One aside, the labels: "1 fixture regressed (pass rate dropped) (a)" read as two.
    expect(offenderText({ ...kept, condition: 'regressed', labels: ['a'], fixtures: 1 })).toBe('1 fixture whose pass rate regressed (a)');
  });
});
