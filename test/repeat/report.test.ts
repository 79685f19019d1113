// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it"): a repeated item
// shows k/N (passes/attempts) in every report, "(flaky)" when its attempts disagree, and the
// headline area names the flaky items. Goldens: repeat.*.

import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/evaluate/compare.js';
import { renderCompareMarkdown, renderCompareText } from '../../src/report/compare.js';
import { renderHtml } from '../../src/report/html.js';
import { itemsData, type FixtureData, type PersonaData } from '../../src/report/html/data.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import { attemptsHead } from '../../src/report/item-parts.js';
import { itemBlock } from '../../src/report/items.js';
import { itemView } from '../../src/report/model.js';
import { profile } from '../../src/report/profile.js';
import type { FixtureAttempt, FixtureRecord, PersonaAttempt, PersonaRecord, ReplayedPersonaRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, decisiveScript, fixture, persona, resetLines, route, run } from '../report/fixtures.js';
import { expectGolden, toHtml } from '../report/helpers.js';

function attempt(reply: string | null, verdict: FixtureAttempt['verdict'], detail: string): FixtureAttempt {
  const errored = reply === null;
  return {
    errored,
    error: errored ? detail : null,
    errorKind: errored ? 'http' : null,
    reply,
    route: errored ? null : route('refunds', 'policy'),
    verdict,
    detail,
    score: null,
    rationale: null,
    durationMs: 400,
  };
}

function repeated(): RunRecord {
  resetLines();
  const yes = 'Returns are accepted within 30 days.';
  const no = 'Returns are accepted within 14 days.';
  const fixtures: FixtureRecord[] = [
    fixture('refund-window', {
      assertion: { kind: 'contains', value: '30 days' },
      reply: yes,
      route: route('refunds', 'policy'),
      verdict: 'fail',
      detail: '1/3 attempts passed (minPass 2), flaky; attempt 2: reply does not contain "30 days"',
      drift: { reply: 'same', route: 'same', verdict: 'newly_failing' },
      baseline: baseline('refund-window', yes, 'pass', route('refunds', 'policy')),
      repeat: { count: 3, minPass: 2, passed: 1, flaky: true },
      attempts: [attempt(yes, 'pass', 'reply contains "30 days"'), attempt(no, 'fail', 'reply does not contain "30 days"'), attempt(no, 'fail', 'reply does not contain "30 days"')],
    }),
    fixture('greeting', {
      detail: '3/3 attempts passed (minPass 3); attempt 1: contains "Reply": found',
      repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
      baseline: baseline('greeting', 'Reply for greeting.'),
      drift: { reply: 'same', route: 'same', verdict: 'still_passing' },
    }),
    fixture('order-status', {
      errored: true,
      error: 'HTTP 500 from the agent',
      errorKind: 'http',
      reply: null,
      route: null,
      verdict: null,
      drift: null,
      detail: '0/2 attempts passed (minPass 2); attempt 1: HTTP 500 from the agent',
      repeat: { count: 2, minPass: 2, passed: 0, flaky: false },
      attempts: [attempt(null, null, 'HTTP 500 from the agent'), attempt(null, null, 'HTTP 500 from the agent')],
    }),
    fixture('opening-hours', { baseline: baseline('opening-hours', 'Reply for opening-hours.'), drift: { reply: 'same', route: 'same', verdict: 'still_passing' } }),
  ];
  const script: PersonaRecord = { ...persona('refund-dialog'), repeat: { count: 2, minPass: 1, passed: 1, flaky: true } };
  return run(fixtures, { personas: [script] });
}

/** Built once: the builders number lines as they go. */
const REPEATED = repeated();

describe('k/N in every report', () => {
  it('PR comment, job summary, terminal and JUnit (goldens)', () => {
    expectGolden('repeat.comment.md', renderComment(REPEATED, ctx));
    expectGolden('repeat.summary.md', renderSummary(REPEATED, ctx));
    expectGolden('repeat.terminal.txt', renderTerminal(REPEATED, { color: false }));
    expectGolden('repeat.junit.xml', renderJUnit(REPEATED));
  });

  it('the comment shows k/N where each repeated item appears and names the flaky ones under the headline', () => {
    const md = renderComment(REPEATED, ctx);
    const html = toHtml(md);
    expect(html).toContain('fail 1/3 (flaky)');
    expect(html).toContain('errored 0/2');
    expect(html).toContain('pass 1/2 (flaky)');
    // Each attempt's words are joined by no-break spaces (item-parts.ts attemptsHead), read here as spaces.
    const spaced = md.replaceAll('\u00a0', ' ');
    expect(spaced).toContain("**Attempts** (1/3 passed, 2 needed): 1: ✅ pass · 2: ❌ fail · 3: ❌ fail; the reply below is attempt 1's (the other attempts, compared with it: 2 replied otherwise, meaning not compared)");
    expect(spaced).toContain('**Attempts** (0/2 passed, 2 needed): 1: ⚪ errored (HTTP error) · 2: ⚪ errored (HTTP error)');
    expect(md).toMatch(/^🎲 \*\*2 flaky items\*\*: the attempts disagree \(passes\/attempts shown as k\/N\): `refund-window`, `refund-dialog`$/m);
    // The mention sits right under the headline (and the cause line that is part of it).
    const lines = md.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('**Cause**: '));
    const head = lines.findIndex((l) => l.startsWith('### '));
    expect(lines[head + 1]).toMatch(/^🎲 /);
    // An item run once has no k/N.
    expect(html).not.toMatch(/opening-hours<\/b> · pass \d/);
  });

  it("the attempts line labels each attempt's number, its words kept on one line: not '2 ❌ fail', which read as a count beside '1/3 passed'", () => {
    const head = attemptsHead({ passed: 1, count: 3, minPass: 2 }, [
      { errored: false, errorKind: null, verdict: 'pass' },
      { errored: false, errorKind: null, verdict: 'fail' },
      { errored: true, errorKind: 'http', verdict: null },
    ]);
    const NB = '\u00a0';
    expect(head).toBe(`**Attempts** (1/3 passed, 2 needed): 1:${NB}✅${NB}pass · 2:${NB}❌${NB}fail · 3:${NB}⚪${NB}errored${NB}(HTTP${NB}error)`);
    // Between attempts the line still wraps.
    expect(head).toContain(' · 2:');
  });

  it("an errored attempt's kind is said in the words JUnit's type uses, and an internal error is just \"errored\", not \"errored (errored)\"", () => {
    const repeat = { passed: 1, count: 5, minPass: 1 };
    const at = (errorKind: FixtureAttempt['errorKind'] | 'unmocked_tool') => ({ errored: true, errorKind, verdict: null });
    expect(attemptsHead(repeat, [{ errored: false, errorKind: null, verdict: 'pass' }, at('timeout'), at('invalid_json'), at('unmocked_tool'), at('internal'), at(null)]).replaceAll('\u00a0', ' ')).toBe(
      '**Attempts** (1/5 passed, 1 needed): 1: ✅ pass · 2: ⚪ errored (timeout) · 3: ⚪ errored (not JSON) · 4: ⚪ errored (unmocked tool) · 5: ⚪ errored · 6: ⚪ errored',
    );
  });

  it('terminal, JUnit and report.html', () => {
    const t = renderTerminal(REPEATED, { color: false });
    // Under the headline and its cause line.
    expect(t.split('\n')[1]).toMatch(/^ {2}cause: /);
    expect(t.split('\n')[2]).toBe('2 flaky items (attempts disagree; passes/attempts shown as k/N): refund-window, refund-dialog');
    expect(t).toMatch(/refund-window · fail 1\/3 \(flaky\) · newly failing/);
    expect(renderJUnit(REPEATED)).toContain('fail 1/3 (flaky) · newly failing');
    const page = renderHtml(REPEATED);
    expect(page).toContain('<span class="pill fail">fail 1/3 (flaky)</span>');
    expect(page).toContain('2 flaky items (attempts disagree; passes/attempts shown as k/N): refund-window, refund-dialog');
  });

  it('compare shows k/N on both sides of a changed repeated item', () => {
    const before = REPEATED;
    const after = structuredClone(REPEATED);
    after.fixtures[0] = { ...after.fixtures[0]!, verdict: 'pass', repeat: { count: 3, minPass: 2, passed: 3, flaky: false } } as FixtureRecord;
    const c = compareRuns(before, { ...after, startedAt: '2026-12-02T09:00:00.000Z' });
    expect(renderCompareText(c)).toContain('refund-window  fail 1/3 (flaky) → pass 3/3  verdict changed');
    expect(renderCompareMarkdown(c)).toContain('| `refund-window` | fail 1/3 (flaky) | pass 3/3 | verdict changed |');
  });

  it('compare names a change of count or minPass as a definition change, not as the agent\'s', () => {
    const after = structuredClone(REPEATED);
    after.fixtures[0] = { ...after.fixtures[0]!, verdict: 'pass', repeat: { count: 3, minPass: 1, passed: 1, flaky: true } } as FixtureRecord;
    const c = compareRuns(REPEATED, { ...after, startedAt: '2026-12-02T09:00:00.000Z' });
    expect(c.changes.find((x) => x.label === 'refund-window')).toMatchObject({ cause: 'definition_changed', detail: 'definition changed (repeat 3, minPass 2 → repeat 3, minPass 1)' });
    // An item that now runs once where it ran 3 times.
    const once = structuredClone(REPEATED);
    const { repeat: _r, attempts: _a, ...plain } = once.fixtures[0]!;
    once.fixtures[0] = plain as FixtureRecord;
    expect(compareRuns(REPEATED, { ...once, startedAt: '2026-12-02T09:00:00.000Z' }).changes.find((x) => x.label === 'refund-window')?.detail).toBe('definition changed (repeat 3, minPass 2 → runs once)');
  });

  it('a repeated persona script shown in full lists its attempts', () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const other = base.turns.map((t) => ({ ...t, reply: `${t.reply} (again)` }));
    // Attempt 1 failed: one of its checks failed, as a fail's checks do (the item's checks are attempt 1's).
    const failed = base.checks.map((c, i) => (i === 0 ? { ...c, status: 'fail' as const, detail: 'the agent never reached refunds' } : c));
    const attempts = [
      { errored: false, error: null, errorKind: null, verdict: 'fail' as const, turns: base.turns, unsent: [], visited: base.visited, outcome: base.outcome, checks: failed, durationMs: 900 },
      { errored: false, error: null, errorKind: null, verdict: 'pass' as const, turns: other, unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900 },
    ];
    for (const a of attempts) expect(a.checks.some((c) => c.status === 'fail'), 'an attempt fails exactly when a check of its fails').toBe(a.verdict === 'fail');
    const script: PersonaRecord = {
      ...base,
      checks: failed,
      verdict: 'fail',
      drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 2, minPass: 2, passed: 1, flaky: true },
      attempts,
    };
    const md = renderComment(run([], { personas: [script] }), ctx);
    // The checks are attempt 1's, and say so where the item's verdict is a fail.
    const count = `${base.checks.length - 1} of ${base.checks.length} checks passed`;
    expect(md).toContain(`<br>attempt 1: ${count} · ❌ conversations (fail): the agent never reached refunds</summary>`);
    expect(renderTerminal(run([], { personas: [script] }), { color: false })).toContain(`\n      attempt 1: ${count}\n`);
    // report.html's row says it too, in the same words as the comment (docs/fixtures.md, "Reports").
    const row = /<span class="why">([^<]*)<\/span>/.exec(renderHtml(run([], { personas: [script] })))?.[1];
    expect(row).toBe(`attempt 1: ${count} · ❌ conversations (fail): the agent never reached refunds`);
    expect(md.replaceAll('\u00a0', ' ')).toContain("**Attempts** (1/2 passed, 2 needed): 1: ❌ fail · 2: ✅ pass; the checks and transcript shown are attempt 1's (the other attempts, compared with it: 1 replied otherwise, meaning not compared)");
    // Cut to its brief form the transcript is left out: the line does not say it is shown.
    const brief = itemBlock(itemView(script), 'brief', ctx, profile('comment', undefined));
    expect(brief).toContain('Transcript left out to fit the size limit');
    expect(brief.replaceAll('\u00a0', ' ')).toContain("1: ❌ fail · 2: ✅ pass; the checks shown and the transcript are attempt 1's (the other attempts, compared with it: 1 replied otherwise, meaning not compared)\n");
    expect(brief).not.toContain('transcript shown');
  });

  it('a repeated script that fails while attempt 1 passed names the attempt that failed, and its failed check, on every surface', () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const failing = base.checks.map((c, i) => (i === 0 ? { ...c, status: 'fail' as const, detail: 'the agent never reached refunds' } : c));
    const one = { errored: false, error: null, errorKind: null, unsent: [], visited: base.visited, outcome: base.outcome, turns: base.turns, durationMs: 900 };
    const script: PersonaRecord = {
      ...base,
      verdict: 'fail',
      drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 3, minPass: 3, passed: 2, flaky: true },
      attempts: [
        { ...one, verdict: 'pass' as const, checks: base.checks },
        { ...one, verdict: 'fail' as const, checks: failing },
        { ...one, verdict: 'pass' as const, checks: base.checks },
      ],
    };
    const record = run([], { personas: [script] });
    const count = `${base.checks.length - 1} of ${base.checks.length} checks passed`;
    const md = renderComment(record, ctx);
    expect(md).toContain(`<br>attempt 2: ${count} · ❌ `);
    expect(md).toContain(`the checks and transcript shown are attempt 1's, then attempt 2's checks, the first that failed`);
    expect(md).toContain("**Attempt 2's checks** (❌ fail):");
    expect(md).toContain('the agent never reached refunds');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain(`attempt 2: ${count}`);
    expect(terminal).toContain(': the agent never reached refunds');
    const row = /<span class="why">([^<]*)<\/span>/.exec(renderHtml(record))?.[1];
    expect(row).toContain(`attempt 2: ${count} · ❌ `);
    // JUnit's failure message was empty: attempt 1 failed no check.
    const junit = renderJUnit(record);
    expect(junit).toMatch(/<failure message="attempt 2: [^"]*the agent never reached refunds[^"]*"/);
    expect(junit).toContain('attempt 2&apos;s checks:');
    // Its line, as a fixture's body and every other surface give it: k/N, "(flaky)" and the drift (it said "verdict: fail").
    expect(junit).toContain('type="newly failing">fail 2/3 (flaky) · newly failing\n');
    expect(terminal).toContain('fail 2/3 (flaky) · newly failing · ');
  });

  it('a repeated script that failed because some attempts errored names the first errored attempt and its error, in a fixture\'s words, on every surface (docs/personas.md, "How verdicts combine")', () => {
    // 3 of 5 attempts got HTTP 503, 2 passed: fail 2/5 (minPass 3). The line read "attempt 4: all 5 checks passed", JUnit's failure message "attempt 4: ".
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const error = 'message turn 2: agent returned HTTP 503 after 1 attempt: down';
    const one = { unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900 };
    const down = { ...one, errored: true, error, errorKind: 'http' as const, verdict: null, turns: base.turns.slice(0, 2) };
    const ok = { ...one, errored: false, error: null, errorKind: null, verdict: 'pass' as const, turns: base.turns };
    const script: PersonaRecord = {
      ...base,
      verdict: 'fail',
      drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 5, minPass: 3, passed: 2, flaky: true },
      attempts: [down, down, down, ok, ok],
    };
    const record = run([], { personas: [script] });
    const line = `2/5 attempts passed (minPass 3), 3 errored, flaky; attempt 1: ${error}`;
    const md = renderComment(record, ctx);
    expect(md).toContain(`<br>${line}</summary>`);
    expect(md).not.toContain('attempt 4: all');
    expect(renderTerminal(record, { color: false })).toContain(`\n      ${line}\n`);
    expect(/<span class="why">([^<]*)<\/span>/.exec(renderHtml(record))?.[1]).toBe(line);
    expect(renderJUnit(record)).toContain(`<failure message="${line}"`);
    // An attempt that failed is still the one named when there is one.
    const failing = base.checks.map((c, i) => (i === 0 ? { ...c, status: 'fail' as const, detail: 'the agent never reached refunds' } : c));
    const mixed = run([], { personas: [{ ...script, repeat: { count: 3, minPass: 3, passed: 1, flaky: true }, attempts: [down, ok, { ...ok, verdict: 'fail' as const, checks: failing }] }] });
    expect(renderTerminal(mixed, { color: false })).toContain(`attempt 3: ${base.checks.length - 1} of ${base.checks.length} checks passed`);
  });

  it('a repeated script whose failing attempt replied otherwise shows that reply beside its checks: the comment, the terminal and JUnit', () => {
    const { script, lastIndex } = decisiveScript((turn) => `turn ${turn}: reply does not contain "30 days"`);
    const record = run([], { personas: [script] });
    const md = renderComment(record, ctx);
    expect(md).toContain(`then attempt 2's checks, the first that failed, and its turn ${lastIndex}`);
    expect(md).toContain(`**Attempt 2, turn ${lastIndex}**, against attempt 1's (\`-\` attempt 1, \`+\` attempt 2`);
    expect(md).toContain('+ Refunds take 90 days.');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain(`attempt 2's turn ${lastIndex} vs attempt 1's (- attempt 1, + attempt 2`);
    expect(terminal).toContain('+ Refunds take 90 days.');
    // The diff has attempt 1's last reply already: it is not shown a second time as "last reply".
    expect(terminal).not.toContain('last reply,');
    const junit = renderJUnit(record);
    expect(junit).toContain(`attempt 2&apos;s turn ${lastIndex}: Refunds take 90 days.`);
    expect(junit).toContain('transcript (attempt 1):');
  });

  it("a repeated script whose failing attempt greeted otherwise names that turn 'turn 0 (welcome)', as every surface names it: the comment, the terminal, JUnit and report.html", () => {
    const { script } = decisiveScript(() => 'the greeting does not name Shop Bot');
    const attempts = script.attempts as PersonaAttempt[];
    const second = attempts[1] as PersonaAttempt;
    // Attempt 2 greeted otherwise (its other turns as attempt 1's): the turn its checks read is the welcome turn.
    const greeted = { ...second, turns: (attempts[0] as PersonaAttempt).turns.map((t) => (t.index === 0 ? { ...t, reply: 'Hello, I am Kettle Bot.' } : t)) };
    const record = run([], { personas: [{ ...script, attempts: [attempts[0], greeted, attempts[2]] } as PersonaRecord] });
    const md = renderComment(record, ctx);
    expect(md).toContain("then attempt 2's checks, the first that failed, and its turn 0 (welcome)");
    expect(md).toContain("**Attempt 2, turn 0 (welcome)**, against attempt 1's");
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain("attempt 2's turn 0 (welcome) vs attempt 1's (- attempt 1, + attempt 2");
    expect(renderJUnit(record)).toContain('attempt 2&apos;s turn 0 (welcome): Hello, I am Kettle Bot.');
    const data = itemsData(record.personas)[0] as PersonaData;
    expect(data.decisive?.turn?.name).toBe('turn 0 (welcome)');
    expect(data.attempts?.[1]).toMatchObject({ note: 'turn 0 (welcome)', reply: 'Hello, I am Kettle Bot.' });
    for (const out of [md, terminal, renderJUnit(record)]) expect(out).not.toMatch(/turn 0(?! \\?\(welcome)/);
  });

  it("a failing attempt's welcome turn the attempt shown lacks reads 'turn 0, the welcome (attempt 1 has no such turn)' on the terminal, not two brackets in a row", () => {
    const { script } = decisiveScript(() => 'the greeting does not name Shop Bot');
    const attempts = script.attempts as PersonaAttempt[];
    const first = attempts[0] as PersonaAttempt;
    // Attempt 1 has no turn at all (turns are paired by their index); attempt 2 was greeted, and its checks read that turn.
    const ungreeted = { ...first, turns: [] };
    const greeted = { ...(attempts[1] as PersonaAttempt), turns: first.turns.map((t) => (t.index === 0 ? { ...t, reply: 'Hello, I am Kettle Bot.' } : t)) };
    const record = run([], { personas: [{ ...script, turns: ungreeted.turns, attempts: [ungreeted, greeted, attempts[2]] } as PersonaRecord] });
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain("attempt 2's turn 0, the welcome (attempt 1 has no such turn):");
    expect(terminal).not.toMatch(/\) \(|\)\)/);
  });

  it("a failing attempt's changed turn is set beside the shown attempt's turn of the same index when the shown attempt lacks a turn before it: the comment, the terminal and report.html", () => {
    const { script, lastIndex } = decisiveScript((turn) => `turn ${turn}: reply does not contain "30 days"`);
    const attempts = script.attempts as PersonaAttempt[];
    const first = attempts[0] as PersonaAttempt;
    const second = attempts[1] as PersonaAttempt;
    // Attempt 1 (the one shown) was not greeted: it has no turn 0, so its turns sit one place before attempt 2's
    // (was: paired by place, attempt 2's changed last turn read "attempt 1 has no such turn").
    const ungreeted = { ...first, turns: first.turns.filter((t) => t.index !== 0) };
    const turns = second.turns.map((t) => (t.index === lastIndex ? { ...t, meaning: { value: 'changed' as const, by: 'facts' as const, detail: 'numbers 30 → 90' } } : t));
    const record = run([], { personas: [{ ...script, turns: ungreeted.turns, attempts: [ungreeted, { ...second, turns }, attempts[2]] } as PersonaRecord] });
    const md = renderComment(record, ctx);
    expect(md).toContain(`**Attempt 2, turn ${lastIndex}**, against attempt 1's`);
    expect(md).toContain("- I'm sorry it arrived broken.");
    expect(md).toContain('+ Refunds take 90 days.');
    expect(md).not.toContain('has no such turn');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain(`attempt 2's turn ${lastIndex} vs attempt 1's`);
    expect(terminal).not.toContain('has no such turn');
    const data = itemsData(record.personas)[0] as PersonaData;
    expect(data.decisive?.turn).toMatchObject({ name: `turn ${lastIndex}`, shown: (ungreeted.turns.at(-1) as PersonaAttempt['turns'][number]).reply, reply: 'Refunds take 90 days.' });
  });

  it('with an agent that rewords every reply, the failing attempt\'s turn shown is the one that changed in meaning, not the first reworded one: every surface', () => {
    const { script, lastIndex } = decisiveScript((turn) => `turn ${turn}: reply does not contain "30 days"`);
    const attempts = script.attempts as NonNullable<ReplayedPersonaRecord['attempts']>;
    const second = attempts[1] as (typeof attempts)[number];
    const last = second.turns.length - 1;
    // Attempt 2 rewords every turn before the last (reworded against attempt 1), and changes the last one's facts.
    const turns = second.turns.map((t, i) =>
      i === last ? { ...t, meaning: { value: 'changed' as const, by: 'facts' as const, detail: 'numbers 30 → 90' } } : { ...t, reply: `In other words: ${t.reply}`, meaning: { value: 'reworded' as const, by: 'judge' as const, detail: null, score: 0.95 } },
    );
    const record = run([], { personas: [{ ...script, attempts: [attempts[0], { ...second, turns }, attempts[2]] } as PersonaRecord] });
    const md = renderComment(record, ctx);
    expect(md).toContain(`then attempt 2's checks, the first that failed, and its turn ${lastIndex}`);
    expect(md).toContain(`**Attempt 2, turn ${lastIndex}**, against attempt 1's`);
    expect(md).toContain('+ Refunds take 90 days.');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain(`attempt 2's turn ${lastIndex} vs attempt 1's`);
    expect(terminal).not.toContain('In other words');
    expect(renderJUnit(record)).toContain(`attempt 2&apos;s turn ${lastIndex}: Refunds take 90 days.`);
    // A rendering with no diffs (the one fit.ts measures with) adds no empty part: no run of blank lines.
    const sketch = itemBlock(itemView(record.personas[0] as PersonaRecord), 'full', ctx, { ...profile('comment', undefined), diffs: false });
    expect(sketch).toContain('**Attempt 2\'s checks**');
    expect(sketch).not.toContain('\n\n\n');
    // The line names the turn only where it follows: not in that rendering, nor in the brief one.
    expect(sketch).toContain("then attempt 2's checks, the first that failed");
    expect(sketch).not.toContain(`and its turn ${lastIndex}`);
    const brief = itemBlock(itemView(record.personas[0] as PersonaRecord), 'brief', ctx, profile('comment', undefined));
    expect(brief).toContain("then attempt 2's checks, the first that failed");
    expect(brief).not.toContain(`and its turn ${lastIndex}`);
  });

  it('a passing repeated script whose line names "attempt 2: turn 3 changed in meaning" shows that turn against attempt 1\'s: the comment, the terminal and JUnit (docs/meaning.md, "Repeats")', () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const one = { errored: false, error: null, errorKind: null, unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900 };
    const changed = base.turns.map((t) => (t.index === 3 ? { ...t, reply: 'A colleague will refund 90 EUR.' } : t));
    const detail = 'attempt 2: turn 3 changed in meaning: numbers 50 → 90';
    const script: PersonaRecord = {
      ...base,
      drift: { transcript: 'same', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail } },
      repeat: { count: 2, minPass: 2, passed: 2, flaky: false },
      attempts: [
        { ...one, verdict: 'pass' as const, turns: base.turns },
        { ...one, verdict: 'pass' as const, turns: changed, meaning: { value: 'changed', by: 'facts', detail: 'turn 3 changed in meaning: numbers 50 → 90' } },
      ],
    } as PersonaRecord;
    const record = run([], { personas: [script] });
    const md = renderComment(record, ctx);
    expect(md).toContain(detail);
    expect(md).toContain("**Attempt 2, turn 3**, against attempt 1's (`-` attempt 1, `+` attempt 2");
    expect(md).toContain('+ A colleague will refund 90 EUR.');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain("attempt 2's turn 3 vs attempt 1's (- attempt 1, + attempt 2");
    expect(terminal).toContain('+ A colleague will refund 90 EUR.');
    const junit = renderJUnit(record);
    expect(junit).toContain('attempt 2&apos;s turn 3: A colleague will refund 90 EUR.');
    expect(junit).toContain('transcript (attempt 1):');
    // A line that names no attempt's turn ("attempt 2: turns 4 → 5") adds no such diff.
    const turns: PersonaRecord = { ...script, drift: { ...script.drift, meaning: { value: 'changed', by: 'turns', detail: 'attempt 2: turns 4 → 5' } } } as PersonaRecord;
    expect(renderComment(run([], { personas: [turns] }), ctx)).not.toContain('**Attempt 2, turn');
    // A detail that only reads so (the shown attempt's own, in a judge's words) names no attempt: attempt 2's own meaning is another.
    const wording: PersonaRecord = {
      ...script,
      drift: { ...script.drift, meaning: { value: 'changed', by: 'judge', detail: 'attempt 2: turn 3 of the refund flow was skipped' } },
    } as PersonaRecord;
    const own = renderComment(run([], { personas: [wording] }), ctx);
    expect(own).toContain('attempt 2: turn 3 of the refund flow was skipped');
    expect(own).not.toContain('**Attempt 2, turn');
    expect(renderTerminal(run([], { personas: [wording] }), { color: false })).not.toContain("attempt 2's turn 3 vs");
    expect(renderJUnit(run([], { personas: [wording] }))).not.toContain('attempt 2&apos;s turn 3:');
    // A rendering with no diffs (the one fit.ts measures with) adds no empty part for the named turn.
    const sketch = itemBlock(itemView(script), 'full', ctx, { ...profile('comment', undefined), diffs: false });
    expect(sketch).toContain(detail);
    expect(sketch).not.toContain('\n\n\n');
  });

  it('a passing repeated fixture whose line reads "changed in meaning: attempt 2: numbers 30 → 14" shows attempt 2\'s reply against attempt 1\'s: the comment, the terminal and JUnit (docs/meaning.md, "Repeats")', () => {
    const shown = 'You can return items within 30 days.';
    const other = 'You can return items within 14 days.';
    const changed = { value: 'changed' as const, by: 'facts' as const, detail: 'numbers 30 → 14' };
    const f = fixture('return-window', {
      assertion: { kind: 'contains', value: 'return' },
      reply: shown,
      detail: '2/2 attempts passed (minPass 2); attempt 1: reply contains "return"',
      baseline: baseline('return-window', 'Returns are accepted within 30 days.'),
      drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { ...changed, detail: 'attempt 2: numbers 30 → 14' } },
      repeat: { count: 2, minPass: 2, passed: 2, flaky: false },
      attempts: [attempt(shown, 'pass', 'reply contains "return"'), { ...attempt(other, 'pass', 'reply contains "return"'), meaning: changed }],
    });
    const record = run([f]);
    const md = renderComment(record, ctx);
    expect(md).toContain('attempt 2: numbers 30 → 14');
    expect(md).toContain("**Attempt 2's reply**, against attempt 1's (`-` attempt 1, `+` attempt 2");
    expect(md).toMatch(/^\+ You can return items within ⟦14⟧ days\.$/m);
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain("attempt 2's reply vs attempt 1's (- attempt 1, + attempt 2");
    expect(terminal).toMatch(/^ *\+ You can return items within ⟦14⟧ days\.$/m);
    // JUnit's changed pass names that attempt's reply too, not only the one the detail names.
    expect(renderJUnit(record)).toContain(`attempt 2&apos;s reply:\n${other}`);
    // Not twice: an attempt whose reply is shown already as the one the detail names (a fail's first failing attempt).
    const failed = {
      ...f,
      verdict: 'fail',
      drift: { ...f.drift, verdict: 'newly_failing' },
      detail: '1/2 attempts passed (minPass 2); attempt 2: reply does not contain "30 days"',
      repeat: { count: 2, minPass: 2, passed: 1, flaky: true },
      attempts: [attempt(shown, 'pass', 'reply contains "30 days"'), { ...attempt(other, 'fail', 'reply does not contain "30 days"'), meaning: changed }],
    } as FixtureRecord;
    const once = renderComment(run([failed]), ctx);
    expect(once).toContain("**Attempt 2's reply** (❌ fail)");
    expect(once).not.toContain("**Attempt 2's reply**, against");
    // The attempts line names that reply only where it follows: not in the brief form, which leaves replies out.
    expect(once).toContain("the reply below is attempt 1's (the other attempts, compared with it: 1 changed in meaning), then attempt 2's, the first that failed");
    const brief = itemBlock(itemView(failed), 'brief', ctx, profile('comment', undefined));
    // Nor "below": the reply is left out too.
    expect(brief).toContain('Reply left out to fit the size limit');
    expect(brief.replaceAll('\u00a0', ' ')).toContain("1: ✅ pass · 2: ❌ fail; the reply is attempt 1's (the other attempts, compared with it: 1 changed in meaning)\n");
    expect(brief).not.toContain('reply below');
    expect(brief).not.toContain("then attempt 2's");
    expect(brief).not.toContain("**Attempt 2's reply**");
    expect(renderTerminal(run([failed]), { color: false })).not.toContain("attempt 2's reply vs");
    expect(renderJUnit(run([failed])).split('attempt 2&apos;s reply:')).toHaveLength(2);
    // A detail that only reads like another attempt's (the judge's own words) names none.
    const judged = { ...f, drift: { ...f.drift, meaning: { value: 'changed', by: 'judge', detail: 'attempt 2: numbers 30 → 14' } }, attempts: [f.attempts?.[0], { ...f.attempts?.[1], meaning: { ...changed, value: 'reworded' } }] } as FixtureRecord;
    expect(renderComment(run([judged]), ctx)).not.toContain("**Attempt 2's reply**");
    expect(renderJUnit(run([judged]))).not.toContain('attempt 2&apos;s reply');
  });

  it('with meaning.check off, repeated fixtures changed only by another attempt: the introduction names that attempt, and the shared cause names each item\'s own attempt on its line (docs/meaning.md, "Repeats")', () => {
    resetLines();
    const yes = 'Returns are accepted within 30 days.';
    const no = 'Returns are accepted within thirty days.';
    // Attempt 1 replayed the baseline word for word; a later one replied otherwise (evaluate/variants.ts, unmeasuredAttemptMeaning).
    const otherwise = (label: string, number: number): FixtureRecord =>
      fixture(label, {
        reply: yes,
        baseline: baseline(label, yes),
        detail: '3/3 attempts passed (minPass 3); attempt 1: contains "Reply": found',
        drift: { reply: 'same', route: 'same', verdict: 'still_passing', meaning: { value: 'unchecked', by: null, detail: `attempt ${number}: replied otherwise than attempt 1` } },
        repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
        attempts: [1, 2, 3].map((n) => attempt(n === number ? no : yes, 'pass', 'contains "Reply": found')),
      });
    const record = run([otherwise('refund-window', 2), otherwise('return-window', 3)]);
    const md = renderComment(record, ctx);
    // The reply shown is the baseline's: what differs is another attempt, and the introduction says so.
    expect(md).toContain('#### 🟡 Changed (2)\n\nThe reply, the route or an attempt other than the one shown differs from the baseline, or the check passes now.');
    // One cause, said once with no attempt in it; each item's line names its own.
    expect(md).toContain('Meaning not checked for all 2\\: replied otherwise than attempt 1.');
    expect(md).toContain('<b>refund-window</b> · pass 3/3 · still passing · meaning not checked: attempt 2 · ');
    expect(md).toContain('<b>return-window</b> · pass 3/3 · still passing · meaning not checked: attempt 3 · ');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain('Changed (2)\n  Meaning not checked for all 2: replied otherwise than attempt 1\n');
    expect(terminal).toContain('~ return-window · pass 3/3 · still passing · meaning not checked: attempt 3 · ');
    // The run says meaning.check was off (its record's meaning): the line says so once, in the suite's config file's name.
    resetLines();
    const off = run([otherwise('refund-window', 2), otherwise('return-window', 3)], { meaning: { check: 'off', model: null, promptVersion: '1' }, configName: 'config.yaml' });
    const offMd = renderComment(off, ctx);
    expect(offMd).toContain('Meaning not checked for all 2\\: replied otherwise than attempt 1; meaning.check is off in config.yaml.');
    expect(offMd.split('meaning.check is off')).toHaveLength(2);
    expect(renderTerminal(off, { color: false })).toContain('Changed (2)\n  Meaning not checked for all 2: replied otherwise than attempt 1; meaning.check is off in config.yaml\n');
    // Grouped, each item's line does not say it again.
    expect(renderTerminal(off, { color: false }).split('meaning.check is off')).toHaveLength(2);
    // One item alone has no shared line: its own line says meaning.check is off, once.
    resetLines();
    const alone = run([otherwise('refund-window', 2)], { meaning: { check: 'off', model: null, promptVersion: '1' }, configName: 'config.yaml' });
    const aloneMd = renderComment(alone, ctx);
    expect(aloneMd).toContain('<b>refund-window</b> · pass 3/3 · still passing · meaning not checked: attempt 2: replied otherwise than attempt 1; meaning.check is off in config.yaml · ');
    expect(aloneMd.split('meaning.check is off')).toHaveLength(2);
    const aloneTerminal = renderTerminal(alone, { color: false });
    expect(aloneTerminal).toContain('~ refund-window · pass 3/3 · still passing · meaning not checked: attempt 2: replied otherwise than attempt 1; meaning.check is off in config.yaml · ');
    expect(aloneTerminal.split('meaning.check is off')).toHaveLength(2);
    // report.html and JUnit have no shared line: each such item says it on its own.
    for (const record of [off, alone]) {
      const n = record.fixtures.length;
      expect(renderHtml(record).split('meaning not checked: attempt ')).toHaveLength(n + 1);
      expect(renderHtml(record).split('replied otherwise than attempt 1; meaning.check is off in config.yaml')).toHaveLength(n + 1);
      expect(renderJUnit(record).split('replied otherwise than attempt 1; meaning.check is off in config.yaml')).toHaveLength(n + 1);
    }
    // An item whose reply shown differs keeps the usual introduction.
    resetLines();
    const usual = renderComment(run([fixture('hours', { reply: 'Open 9 to 6.', baseline: baseline('hours', 'Open 9 to 5.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } })]), ctx);
    expect(usual).toContain('\n\nThe reply or the route differs from the baseline, or the check passes now.\n');
  });

  it("a reply check on a numbered turn does not say the turn twice in the terminal: `reply contains \"$50\", turn 2: reply does not contain`", () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const check = { kind: 'reply' as const, status: 'fail' as const, expected: { contains: '$50', turn: 2 }, detail: 'turn 2: reply does not contain "$50"' };
    const script: PersonaRecord = { ...base, verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' }, checks: [check] } as PersonaRecord;
    const terminal = renderTerminal(run([], { personas: [script] }), { color: false });
    expect(terminal).toContain('✗ reply contains "$50", turn 2 (fail): reply does not contain "$50"');
    expect(terminal).not.toContain('turn 2: turn 2:');
  });

  it('says what the other attempts were against the one shown, in the terms acceptance decides on, once for every surface (docs/meaning.md, "Repeats")', () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const other = base.turns.map((t) => ({ ...t, reply: `${t.reply} (again)` }));
    const reworded = { value: 'reworded' as const, by: 'judge' as const, detail: 'turn 1 reworded', score: 0.9 };
    const one = { errored: false, error: null, errorKind: null, unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900 };
    const script: PersonaRecord = {
      ...base,
      verdict: 'fail',
      drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 2, minPass: 2, passed: 1, flaky: true },
      attempts: [
        { ...one, verdict: 'fail' as const, turns: base.turns },
        { ...one, verdict: 'pass' as const, turns: other, meaning: reworded },
      ],
    };
    const words = 'the other attempts, compared with it: 1 reworded';
    expect(renderComment(run([], { personas: [script] }), ctx)).toContain(`the checks and transcript shown are attempt 1's (${words})`);
    // Six attempts, six replies: three reworded and two changed in meaning against attempt 1 read as
    // what they are, not as "6 different replies", on the comment, the terminal and report.html alike.
    const changed = { value: 'changed' as const, by: 'facts' as const, detail: 'numbers 30 → 14' };
    const said = (n: number): FixtureAttempt => ({ ...attempt(`Returns: ${30 + n} days, said ${n}.`, 'pass', 'ok'), meaning: reworded });
    const f = fixture('window', {
      reply: 'Returns: 30 days.',
      verdict: 'fail',
      drift: { reply: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 6, minPass: 6, passed: 4, flaky: true },
      attempts: [
        attempt('Returns: 30 days.', 'pass', 'ok'),
        said(1),
        { ...attempt('Returns: 14 days.', 'fail', 'no'), meaning: changed },
        said(2),
        { ...attempt('Returns: 7 days.', 'fail', 'no'), meaning: changed },
        said(3),
      ],
    });
    const counted = '2 changed in meaning, 3 reworded';
    expect(renderComment(run([f]), ctx)).toContain(`the reply below is attempt 1's (the other attempts, compared with it: ${counted}), then attempt 3's, the first that failed`);
    expect(renderTerminal(run([f]), { color: false })).toContain(`\n      the other attempts, compared with attempt 1: ${counted}\n`);
    // report.html's own sentence, its capital by the product's rule (words.ts), not by the page's script.
    expect((itemsData([f])[0] as FixtureData).attemptsOthers).toBe(`The other attempts, compared with attempt 1: ${counted}.`);
    // One that replied the same, one not checked: every attempt after the shown one is counted once.
    const unchecked = { value: 'unchecked' as const, by: 'facts' as const, detail: 'the facts are the same and meaning.check is facts' };
    const mixed = fixture('mixed', { ...f, label: 'mixed', attempts: [...(f.attempts ?? []).slice(0, 3), attempt('Returns: 30 days.', 'pass', 'ok'), { ...attempt('Returns: 30 days!', 'pass', 'ok'), meaning: unchecked }] });
    expect((itemsData([mixed])[0] as FixtureData).attemptsOthers).toBe('The other attempts, compared with attempt 1: 1 changed in meaning, 1 not checked for meaning, 1 reworded, 1 replied the same.');
    // Every attempt replied the same: nothing to say.
    const same = fixture('same', { ...f, label: 'same', attempts: [attempt('Returns: 30 days.', 'pass', 'ok'), attempt('Returns: 30 days.', 'fail', 'no')] });
    expect((itemsData([same])[0] as FixtureData).attemptsOthers).toBeUndefined();
    expect(renderComment(run([same]), ctx)).toContain("the reply below is attempt 1's\n");
  });

  it("report.html's attempts table says of each attempt whether it changed in meaning or was only reworded against the one shown (docs/meaning.md, \"Repeats\")", () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const one = { errored: false, error: null, errorKind: null, unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900 };
    // Attempts 2 and 3 both differ first at turn 1; only attempt 3 changed in meaning (at turn 3).
    const reworded = base.turns.map((t) => (t.index === 1 ? { ...t, reply: `${t.reply} Thanks.` } : t));
    const changed = reworded.map((t) => (t.index === 3 ? { ...t, reply: 'A colleague will refund 90 EUR.' } : t));
    const script: PersonaRecord = {
      ...base,
      verdict: 'fail',
      drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 5, minPass: 5, passed: 3, flaky: true },
      attempts: [
        { ...one, errored: true, error: 'agent returned HTTP 502', errorKind: 'http', verdict: null, turns: [] },
        { ...one, verdict: 'pass' as const, turns: base.turns },
        { ...one, verdict: 'pass' as const, turns: reworded, meaning: { value: 'reworded', by: 'judge', detail: 'turn 1 reworded', score: 0.93 } },
        { ...one, verdict: 'fail' as const, turns: changed, meaning: { value: 'changed', by: 'facts', detail: 'turn 3 changed in meaning: numbers 50 → 90' } },
        { ...one, verdict: 'pass' as const, turns: base.turns },
      ],
    };
    const rows = (itemsData([script])[0] as PersonaData).attempts ?? [];
    expect(rows.map((r) => [r.note ?? null, r.standing ?? null])).toEqual([
      [null, null],
      ['the transcript below', null],
      ['turn 1', 'Against attempt 2: reworded (judge 0.93)'],
      ['turn 1', 'Against attempt 2: turn 3 changed in meaning: numbers 50 → 90'],
      ["the same replies as attempt 2's", null],
    ]);
    // A fixture's rows likewise: its facts, or that no meaning was compared (meaning.check off).
    const f = fixture('window', {
      reply: 'Returns: 30 days.',
      verdict: 'fail',
      drift: { reply: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 3, minPass: 3, passed: 2, flaky: true },
      attempts: [attempt('Returns: 30 days.', 'pass', 'ok'), { ...attempt('Returns: 14 days.', 'fail', 'no'), meaning: { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' } }, attempt('Returns are 30 days.', 'pass', 'ok')],
    });
    expect(((itemsData([f])[0] as FixtureData).attempts ?? []).map((r) => r.standing ?? null)).toEqual([
      null,
      'Against attempt 1: changed in meaning: numbers 30 → 14',
      'Against attempt 1: replied otherwise, meaning not compared',
    ]);
  });

  it("report.html's attempts table pairs an attempt's turns with the shown attempt's by index: one without the welcome is told so, not its turn 1 set against the welcome", () => {
    const base = persona('refund-chat') as ReplayedPersonaRecord;
    const one = { errored: false, error: null, errorKind: null, unsent: [], visited: base.visited, outcome: base.outcome, checks: base.checks, durationMs: 900, verdict: 'pass' as const };
    expect(base.turns[0]?.index).toBe(0);
    // Attempt 2 was not greeted: turns 1 onwards, each the reply attempt 1 had (was: "turn 1", its reply set against the welcome by place).
    const ungreeted = base.turns.filter((t) => t.index !== 0);
    // Attempt 3 lacks turn 1 alone, its turn 2 the same: it is turn 1 it lacks, not turn 2 that differs.
    const gapped = base.turns.filter((t) => t.index !== 1);
    const script: PersonaRecord = {
      ...base,
      repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
      attempts: [
        { ...one, turns: base.turns },
        { ...one, turns: ungreeted },
        { ...one, turns: gapped },
      ],
    };
    const rows = (itemsData([script])[0] as PersonaData).attempts ?? [];
    expect(rows.map((r) => [r.note ?? null, r.reply ?? null])).toEqual([
      ['the transcript below', null],
      ['no turn 0 (welcome)', null],
      ['no turn 1', null],
    ]);
  });

  it('a reworded repeated item keeps its k/N, "(flaky)" and pass rate on its line (docs/fixtures.md, "Reports")', () => {
    const reworded = { value: 'reworded' as const, by: 'judge' as const, detail: 'same facts', score: 0.9 };
    const f = fixture('window', {
      reply: 'You have 30 days.',
      baseline: { ...baseline('window', 'Returns: 30 days.'), attempts: { passed: 5, total: 5 } },
      verdict: 'pass',
      drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: reworded },
      repeat: { count: 5, minPass: 3, passed: 3, flaky: true },
      attempts: [attempt('You have 30 days.', 'pass', 'ok'), attempt('You have 30 days.', 'pass', 'ok'), attempt('You have 30 days.', 'fail', 'no'), attempt('You have 30 days.', 'pass', 'ok'), attempt('You have 30 days.', 'fail', 'no')],
      stats: { passed: 3, total: 5, rate: 0.6, ci: [0.23, 0.88], baseline: { passed: 5, total: 5 }, pDrop: 0.222, pRise: 1, tier: 'steady', attemptsNeeded: null, looks: 1, maxLooks: 1 },
    } as Partial<FixtureRecord>);
    const record = run([f]);
    expect(renderTerminal(record, { color: false })).toContain('≈ window · reworded (judge 0.90) · pass 3/5 (flaky) · pass rate 5/5 → 3/5: within noise · ');
    expect(renderComment(record, ctx)).toContain('<b>window</b> · judge 0.90 · pass 3/5 (flaky) · pass rate 5/5 → 3/5: within noise · ');
    // JUnit's line, the verdict first, as docs/meaning.md quotes it.
    expect(renderJUnit(record)).toContain('<system-out>pass 3/5 (flaky) · still passing · reply changed · reworded (judge 0.90) · pass rate 5/5 → 3/5: within noise</system-out>');
  });

  it('the footer names a changed item the label would refuse for attempts that differ in meaning, with accept\'s reason; not an unchanged one', () => {
    const changed = { value: 'changed' as const, by: 'facts' as const, detail: 'amounts USD 50 → USD 75' };
    const yes = 'Shipping is free on orders over $50.';
    const no = 'Shipping is free on orders over $75.';
    const shipping = fixture('shipping', {
      reply: yes,
      verdict: 'fail',
      baseline: baseline('shipping', yes),
      drift: { reply: 'same', route: 'same', verdict: 'newly_failing' },
      repeat: { count: 3, minPass: 3, passed: 2, flaky: true },
      attempts: [attempt(yes, 'pass', 'ok'), { ...attempt(no, 'fail', 'no'), meaning: changed }, attempt(yes, 'pass', 'ok')],
    });
    // Unchanged (the same reply and verdict as its baseline): refused too, but its baseline stays either way.
    const steady = fixture('steady', {
      reply: yes,
      baseline: baseline('steady', yes),
      drift: { reply: 'same', route: 'same', verdict: 'still_passing' },
      repeat: { count: 3, minPass: 2, passed: 2, flaky: true },
      attempts: [attempt(yes, 'pass', 'ok'), { ...attempt(no, 'fail', 'no'), meaning: changed }, attempt(yes, 'pass', 'ok')],
    });
    const said =
      'The label would refuse `shipping` (replies differ in meaning across 3 attempts\\: attempt 2\\: amounts USD 50 → USD 75): a repeated item is accepted only when its attempts agree (the same reply, or the same meaning).';
    const hours = fixture('hours', { reply: 'Open 9 to 6.', baseline: baseline('hours', 'Open 9 to 5.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const md = renderComment(run([shipping, steady, hours]), ctx);
    expect(md).toContain(`**To accept** the new or changed pass/fail result as a baseline, apply the \`accept-baseline\` label to this pull request. ${said} Not evaluated and errored fixtures are never accepted.`);
    expect(md).not.toContain('refuse `steady`');
    // With nothing else to accept, the footer does not say there is nothing to accept and stop there.
    const alone = renderComment(run([shipping]), ctx);
    expect(alone).toContain(`Nothing the label would accept. ${said}`);
    expect(alone).not.toContain('Nothing to accept: no pass or fail reply differs from its baseline.');
  });

  it('the footer names items the label would refuse for one reason together, the reason said once; another reason apart', () => {
    const unchecked = { value: 'unchecked' as const, by: null, detail: 'the facts are the same and meaning.check is facts, which asks no model' };
    const changed = { value: 'changed' as const, by: 'facts' as const, detail: 'amounts USD 50 → USD 75' };
    const reworded = (label: string, meaning: typeof unchecked | typeof changed) => {
      const a = `${label}: first wording.`;
      return fixture(label, {
        reply: a,
        baseline: baseline(label, `${label}: the baseline's wording.`),
        drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
        repeat: { count: 2, minPass: 2, passed: 2, flaky: false },
        attempts: [attempt(a, 'pass', 'ok'), { ...attempt(`${label}: second wording.`, 'pass', 'ok'), meaning }],
      });
    };
    const md = renderComment(run([reworded('refund', unchecked), reworded('shipping', changed), reworded('hours', unchecked), reworded('price', unchecked)]), ctx);
    const reason = 'replies vary across 2 attempts, their meaning not checked\\: attempt 2\\: the facts are the same and meaning.check is facts, which asks no model';
    expect(md).toContain(`The label would refuse \`refund\`, \`hours\` and \`price\` (${reason}); \`shipping\` (replies differ in meaning across 2 attempts\\: attempt 2\\: amounts USD 50 → USD 75): a repeated item`);
    expect(md.split('their meaning not checked')).toHaveLength(2);
  });

  it("the footer's rule of agreement names who ended the conversation when it refuses a script for that, and only then (docs/meaning.md, \"Repeats\")", () => {
    // Every attempt replied alike; the agent ended attempt 2's conversation on the script's last message, not attempt 1's or 3's.
    const { script } = decisiveScript(() => 'unused');
    const [same] = script.attempts as PersonaAttempt[];
    const ending = {
      ...script,
      label: 'refund-ending',
      verdict: 'pass',
      endedBy: 'script',
      repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
      attempts: [{ ...same, endedBy: 'script' }, { ...same, endedBy: 'both' }, { ...same, endedBy: 'script' }],
    } as PersonaRecord;
    const md = renderComment(run([], { personas: [ending] }), ctx);
    expect(md).toContain(
      "The label would refuse `refund-ending` (conversations ended differently across 3 attempts\\: attempt 2\\: the agent ended the conversation on turn 3, where attempt 1's agent did not end it): " +
        'a repeated item is accepted only when its attempts agree (the same reply, or the same meaning, and for a script the agent ending the conversation in all of them or in none).',
    );
    // Its attempts line counts attempt 2 by its ending, not as changed in meaning: its replies are attempt 1's.
    expect(md).toContain('(the other attempts, compared with it: 1 whose conversation ended otherwise, 1 replied the same)');
    // A refusal for replies alone keeps the short rule.
    expect(renderComment(run([], { personas: [{ ...script, verdict: 'fail' } as PersonaRecord] }), ctx)).toMatch(/accepted only when its attempts agree \(the same reply, or the same meaning\)\./);
  });

  it('a run without repeated items renders no k/N and no flaky line', () => {
    const plain = run([fixture('a')]);
    expect(renderComment(plain, ctx)).not.toContain('flaky');
    expect(renderTerminal(plain, { color: false })).not.toContain('flaky');
  });
});
