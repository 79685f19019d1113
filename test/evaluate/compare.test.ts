// compare (docs/evaluations.md, "Compare"): crafted pairs of runs, one per cause, in the contract's
// order of precedence; the earlier run is always "before"; items only in one run are listed.

import { describe, expect, it } from 'vitest';
import { compareRuns, coverage, type ChangeCause } from '../../src/evaluate/index.js';
import { formatDelta, renderCompareMarkdown, renderCompareText } from '../../src/report/index.js';
import { points, runRateText } from '../../src/report/rates.js';
import { repeated, withRunStats } from '../report/stats-fixtures.js';
import { fixture, persona, refundTurns, route, run, turn } from '../report/fixtures.js';
import type { FixtureRecord, JudgeFingerprint, PersonaRecord, RunRecord, RunStats } from '../../src/types.js';

const T1 = '2026-12-01T09:00:00.000Z';
const T2 = '2026-12-02T09:00:00.000Z';
const FP: JudgeFingerprint = { model: 'openai/gpt-4o-mini', promptVersion: '1', criteria: [{ criterion: 'Polite', threshold: 0.7 }] };

const fx = (label: string, over: Partial<FixtureRecord> = {}): FixtureRecord => fixture(label, { definitionHash: `hash-${label}`, judgeFingerprint: null, ...over });
const errored = (label: string, errorKind: FixtureRecord['errorKind'] = 'timeout', over: Partial<FixtureRecord> = {}): FixtureRecord =>
  fx(label, { errored: true, error: 'x', errorKind, reply: null, route: null, verdict: null, drift: null, ...over } as Partial<FixtureRecord>);
const pr = (label: string, over: Partial<PersonaRecord> = {}): PersonaRecord => persona(label, { definitionHash: `hash-${label}`, judgeFingerprint: FP, ...over });

const at = (startedAt: string, fixtures: FixtureRecord[], personas: PersonaRecord[] = []): RunRecord => run(fixtures, { startedAt, personas });

function causeOf(before: FixtureRecord | PersonaRecord, after: FixtureRecord | PersonaRecord): ChangeCause | null {
  const wrap = (i: FixtureRecord | PersonaRecord, t: string): RunRecord => ('turns' in i ? at(t, [], [i]) : at(t, [i]));
  const c = compareRuns(wrap(before, T1), wrap(after, T2));
  return c.changes[0]?.cause ?? null;
}

describe('compare: the first cause of each changed fixture', () => {
  it('nothing changed: no cause, counted unchanged', () => {
    const c = compareRuns(at(T1, [fx('a')]), at(T2, [fx('a')]));
    expect(c.changes).toEqual([]);
    expect(c.unchanged).toBe(1);
    expect(c.summary).toBe('nothing changed');
  });

  it('added and removed: items only in one run, listed', () => {
    const c = compareRuns(at(T1, [fx('a'), fx('gone')]), at(T2, [fx('a'), fx('new', { verdict: 'fail' })]));
    expect(c.changes.map((x) => [x.label, x.cause, x.movement])).toEqual([
      ['gone', 'removed', null],
      ['new', 'added', null],
    ]);
    expect(c.onlyBefore).toEqual(['gone']);
    expect(c.onlyAfter).toEqual(['new']);
    expect(c.summary).toBe('1 item added; 1 item removed');
    // Agreement: 100% → 50% entirely because of the added failing item; over the common items: unchanged.
    expect([c.agreement.before.percent, c.agreement.after.percent, c.agreement.deltaPoints]).toEqual([100, 50, -50]);
    expect([c.common.before.percent, c.common.after.percent]).toEqual([100, 100]);
  });

  it('definition changed wins over everything after it (judge, reply, verdict)', () => {
    const after = fx('a', { definitionHash: 'other', judgeFingerprint: FP, reply: 'new reply', verdict: 'fail' });
    expect(causeOf(fx('a'), after)).toBe('definition_changed');
  });

  it('judge changed comes before reply and verdict', () => {
    const before = fx('a', { judgeFingerprint: FP });
    const after = fx('a', { judgeFingerprint: { ...FP, criteria: [{ criterion: 'Polite', threshold: 0.9 }] }, reply: 'other', verdict: 'fail' });
    const c = compareRuns(at(T1, [before]), at(T2, [after]));
    expect(c.changes[0]).toMatchObject({ cause: 'judge_changed', detail: 'judge changed: threshold 0.7 → 0.9', movement: 'broken' });
  });

  it('a changed reply says what changed, and the text renderers say the cause once', () => {
    const c = compareRuns(at(T1, [fx('a', { reply: 'We are open 9:00-17:00, Monday to Friday.' })]), at(T2, [fx('a', { reply: 'We are open 9:00-18:00, Monday to Friday.' })]));
    expect(c.changes[0]?.detail).toBe('reply changed: "We are open 9:00-17:00, Monday to Friday." → "We are open 9:00-18:00, Monday to Friday."');
    const text = renderCompareText(c);
    expect(text).toContain('a  pass → pass  reply changed: "We are open 9:00-17:00, Monday to Friday." → "We are open 9:00-18:00, Monday to Friday."');
    const md = renderCompareMarkdown(c);
    expect(md).toContain('| reply changed | "We are open 9');
    expect(md).not.toContain('| reply changed | reply changed');
    const routed = renderCompareText(compareRuns(at(T1, [fx('a')]), at(T2, [fx('a', { route: route('billing', 'x') })])));
    expect(routed).toContain('route changed: main/answer → billing/x');
  });

  it("names look-alike letters and invisible characters in a changed reply's detail, in markdown and text", () => {
    // A Cyrillic а (U+0430) in a Latin word and a zero-width space: both sides would read the same.
    const c = compareRuns(at(T1, [fx('a', { reply: 'Pay at paypal.com' })]), at(T2, [fx('a', { reply: 'Pay at p\u0430ypal.com\u200b' })]));
    const md = renderCompareMarkdown(c);
    const text = renderCompareText(c);
    for (const out of [md, text]) {
      expect(out).toContain('p⟨U+0430⟩ypal.com⟨U+200B⟩');
      expect(out).not.toContain('p\u0430ypal');
      expect(out).not.toContain('\u200b');
    }
  });

  it("names a word written wholly in look-alikes in a changed reply's detail: Cyrillic `раураӏ` reads as paypal", () => {
    const c = compareRuns(at(T1, [fx('a', { reply: 'Pay at paypal.com' })]), at(T2, [fx('a', { reply: 'Pay at \u0440\u0430\u0443\u0440\u0430\u04cf.com' })]));
    for (const out of [renderCompareMarkdown(c), renderCompareText(c)]) expect(out).toContain('"Pay at ⟨U+0440⟩⟨U+0430⟩⟨U+0443⟩⟨U+0440⟩⟨U+0430⟩⟨U+04CF⟩.com"');
  });

  it('reply changed comes before route and verdict', () => {
    expect(causeOf(fx('a'), fx('a', { reply: 'different', route: route('other', 'x'), verdict: 'fail' }))).toBe('reply_changed');
  });

  it('route changed (same reply)', () => {
    const c = compareRuns(at(T1, [fx('a')]), at(T2, [fx('a', { route: route('billing', 'x') })]));
    expect(c.changes[0]).toMatchObject({ cause: 'route_changed', detail: 'route changed (main/answer → billing/x)', movement: 'changed' });
  });

  it('verdict changed (same reply and route: e.g. the judge scored differently); fixed and broken', () => {
    const c = compareRuns(at(T1, [fx('a', { verdict: 'fail' }), fx('b')]), at(T2, [fx('a'), fx('b', { verdict: 'not_evaluated' })]));
    expect(c.changes.map((x) => [x.label, x.cause, x.detail, x.movement])).toEqual([
      ['a', 'verdict_changed', 'verdict fail → pass', 'fixed'],
      ['b', 'verdict_changed', 'verdict pass → not_evaluated', 'changed'],
    ]);
    expect(c.fixed).toEqual(['a']);
    expect(c.broken).toEqual([]);
  });

  it('a replay that errors now is a verdict change (broken), not a reply change, and names its error', () => {
    const c = compareRuns(at(T1, [fx('a')]), at(T2, [errored('a', 'http', { error: 'message turn: agent returned HTTP 503 after 1 attempt: {"error":"Service Unavailable"}' })]));
    expect(c.changes[0]).toMatchObject({ cause: 'verdict_changed', detail: 'verdict pass → errored (HTTP 503 from the agent)', movement: 'broken', after: { result: 'errored', error: 'HTTP 503 from the agent' } });
    expect(c.broken).toEqual(['a']);
    expect(renderCompareText(c)).toContain('a  pass → errored  verdict changed: HTTP 503 from the agent\n');
    expect(renderCompareMarkdown(c)).toContain('| `a` | pass | errored | verdict changed | HTTP 503 from the agent |');
  });

  it('an item label with a backtick, a pipe or a control keeps its table row, list line and terminal line whole (labels come from the pull request)', () => {
    const label = 'a`b|c';
    const c = compareRuns(at(T1, [fx(label), fx('gone')]), at(T2, [fx(label, { verdict: 'fail' }), fx('new')]));
    const md = renderCompareMarkdown(c);
    expect(md).toContain('| ``a`b\\|c`` | pass | fail | verdict changed |  |');
    expect(md).toContain('- `gone`: pass');
    const row = md.split('\n').find((l) => l.startsWith('| ``a'));
    // Four cell separators besides the escaped pipe: the row has the table's five cells.
    expect(row?.replace(/\\\|/g, '').split('|').length).toBe(7);
    const text = renderCompareText(compareRuns(at(T1, [fx('x\u001b[2Jy')]), at(T2, [fx('x\u001b[2Jy', { verdict: 'fail' })])));
    expect(text).not.toContain('\u001b');
  });

  it('a verdict change says the move once: beside the before and after, the detail is the error alone, or nothing', () => {
    const err = errored('a', 'http', { error: 'message turn: agent returned HTTP 503 after 1 attempt' });
    const broken = compareRuns(at(T1, [fx('a'), fx('b')]), at(T2, [err, fx('b', { verdict: 'fail' })]));
    const fixed = compareRuns(at(T1, [err]), at(T2, [fx('a')]));
    for (const out of [renderCompareText(broken), renderCompareMarkdown(broken), renderCompareText(fixed), renderCompareMarkdown(fixed)]) {
      expect(out).not.toMatch(/verdict changed(?::| \|) (?:pass|fail|errored) -/);
      expect(out).not.toContain('verdict pass');
    }
    expect(renderCompareText(broken)).toContain('b  pass → fail  verdict changed\n');
    expect(renderCompareMarkdown(broken)).toContain('| `b` | pass | fail | verdict changed |  |');
    expect(renderCompareText(fixed)).toContain('a  errored → pass  verdict changed: before: HTTP 503 from the agent\n');
    expect(renderCompareMarkdown(fixed)).toContain('| `a` | errored | pass | verdict changed | before\\: HTTP 503 from the agent |');
  });

  it('error class changed: errored in both runs, for different reasons', () => {
    const c = compareRuns(
      at(T1, [errored('a', 'timeout', { error: 'message turn: no answer from the agent within 30000 ms' })]),
      at(T2, [errored('a', 'http', { error: 'message turn: agent returned HTTP 503 after 1 attempt' })]),
    );
    // The errors in words, as the run's Errored section groups them, not their kinds ("timeout → http").
    expect(c.changes[0]).toMatchObject({ cause: 'error_class_changed', detail: 'no answer from the agent within 30,000 ms → HTTP 503 from the agent' });
    expect(renderCompareText(c)).toContain('a  errored → errored  error class changed: no answer from the agent within 30,000 ms → HTTP 503 from the agent\n');
    expect(causeOf(errored('a', 'http'), errored('a', 'http'))).toBeNull();
  });

  it('older records without hashes or fingerprints never show a definition or judge change', () => {
    const old = fixture('a', { reply: 'old' });
    const now = fx('a', { reply: 'new', judgeFingerprint: FP });
    expect(causeOf(old, now)).toBe('reply_changed');
  });

  it('the same reply, another standing against a baseline accepted between the runs: the baseline changed, never "nothing changed"', () => {
    const REPLY = 'Returns are accepted within 14 days of delivery.';
    const stored = (reply: string): NonNullable<FixtureRecord['baseline']> => ({ label: 'a', reply, route: route('main', 'answer'), verdict: 'pass', acceptedAt: '2026-11-30T10:00:00Z', commit: 'a1b2c3d' });
    const before = fx('a', { reply: REPLY, baseline: stored('Returns are accepted within 30 days of delivery.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const after = fx('a', { reply: REPLY, baseline: stored(REPLY), drift: { reply: 'same', route: 'same', verdict: 'still_passing' } });
    const c = compareRuns(at(T1, [before]), at(T2, [after]));
    expect(c.changes[0]).toMatchObject({ cause: 'baseline_changed', detail: 'the item before: reply changed; now: the same as the baseline; the baseline changed between the runs' });
    expect(c.summary).toBe('1 baseline changed between the runs');
    expect(renderCompareText(c)).toContain('why: 1 baseline changed between the runs\n');
    expect(renderCompareText(c)).toContain('a  pass → pass  baseline changed: the item before: reply changed; now: the same as the baseline; the baseline changed between the runs\n');
    // The same standing against each (both the same as their baseline): nothing moved it.
    expect(causeOf({ ...after, baseline: stored('Other.') }, after)).toBeNull();
    // The same baseline: the standing moved with nothing the runs told (a hand edit) is not called the baseline's.
    expect(causeOf({ ...before, baseline: stored(REPLY) }, after)).toBeNull();
  });
});

describe('compare: persona scripts are items like fixtures', () => {
  it('definition, judge, transcript, route, verdict and error class, in that order', () => {
    const turns = refundTurns();
    const reworded = turns.map((t, i) => (i === 2 ? { ...t, reply: 'Order found.' } : t));
    const rerouted = turns.map((t, i) => (i === 3 ? { ...t, route: route('refunds', 'done') } : t));
    expect(causeOf(pr('p'), pr('p', { definitionHash: 'x', turns: reworded }))).toBe('definition_changed');
    expect(causeOf(pr('p'), pr('p', { judgeFingerprint: { ...FP, model: 'anthropic/claude' }, turns: reworded }))).toBe('judge_changed');
    expect(causeOf(pr('p'), pr('p', { turns: reworded, verdict: 'fail' }))).toBe('transcript_changed');
    expect(causeOf(pr('p'), pr('p', { turns: turns.slice(0, 3) }))).toBe('transcript_changed');
    expect(causeOf(pr('p'), pr('p', { turns: rerouted }))).toBe('route_changed');
    expect(causeOf(pr('p'), pr('p', { verdict: 'fail' }))).toBe('verdict_changed');
    const err = (kind: 'unmocked_tool' | 'agent_error'): PersonaRecord => pr('p', { errored: true, error: 'x', errorKind: kind, verdict: null, drift: null } as Partial<PersonaRecord>);
    expect(causeOf(err('unmocked_tool'), err('agent_error'))).toBe('error_class_changed');
    expect(causeOf(pr('p'), pr('p'))).toBeNull();
  });

  it('a simulated conversation that ended another way, every reply the same: transcript changed, saying how each ended', () => {
    const sim = (endedBy: 'agent' | 'simulator' | 'max_turns', doneReason: string | null): PersonaRecord['simulation'] => ({ goal: 'Get a refund', instructions: null, liveFromTurn: null, endedBy, doneReason, calls: 0, retries: 0, fault: null });
    // Both runs against one baseline the agent ended, with meaning.check off (no meaning to name it):
    // the later run's simulated user was done where the agent no longer ended it.
    const baseline = { ...(pr('p').baseline as NonNullable<PersonaRecord['baseline']>), simulation: { doneReason: null, goal: 'Get a refund', instructions: null, persona: null } };
    const other = { transcript: 'different' as const, route: 'same' as const, verdict: 'still_passing' as const };
    const byAgent = pr('p', { baseline, simulation: sim('agent', null) });
    const byUser = pr('p', { baseline, simulation: sim('simulator', 'refund confirmed'), drift: other });
    const c = compareRuns(at(T1, [], [byAgent]), at(T2, [], [byUser]));
    expect(c.changes[0]).toMatchObject({ label: 'p', cause: 'transcript_changed', detail: 'transcript changed (ended by the agent → ended by the simulated user)' });
    expect(causeOf(byUser, pr('p', { baseline, simulation: sim('max_turns', null) }))).toBe('transcript_changed');
    // The same ending (the done reason's words aside): unchanged.
    expect(causeOf(byUser, pr('p', { baseline, simulation: sim('simulator', 'the refund is on its way'), drift: other }))).toBeNull();
    expect(causeOf(byAgent, pr('p', { baseline, simulation: sim('agent', null) }))).toBeNull();
  });

  it("a scripted conversation the agent ended on the script's last message in one run and not in the other, every reply the same: transcript changed, saying who ended each", () => {
    const other = { transcript: 'different' as const, route: 'same' as const, verdict: 'still_passing' as const };
    const both = pr('p', { endedBy: 'both' });
    const script = pr('p', { endedBy: 'script', drift: other });
    const c = compareRuns(at(T1, [], [both]), at(T2, [], [script]));
    expect(c.changes[0]).toMatchObject({ label: 'p', cause: 'transcript_changed', detail: "transcript changed (ended by the agent on the script's last message → ended by the script)" });
    // The agent ended it at the same turn in both (only the script's length differs there), or one run does not keep it: unchanged.
    expect(causeOf(both, pr('p', { endedBy: 'agent' }))).toBeNull();
    expect(causeOf(pr('p'), script)).toBeNull();
  });

  it('a script errored by an HTTP 503 on turn 2: its cause is the error, not the transcript the error cut short', () => {
    const turns = refundTurns();
    const stopped = pr('p', {
      turns: turns.slice(0, 2),
      errored: true,
      error: 'turn 2: agent returned HTTP 503 after 1 attempt: {"error":"Service Unavailable"}',
      errorKind: 'http',
      verdict: null,
      drift: null,
    } as Partial<PersonaRecord>);
    const c = compareRuns(at(T1, [], [pr('p')]), at(T2, [], [stopped]));
    expect(c.changes[0]).toMatchObject({ label: 'p', cause: 'verdict_changed', detail: 'verdict pass → errored (turn 2: HTTP 503 from the agent)', movement: 'broken' });
    expect(renderCompareText(c)).toMatch(/^ {2}p {2}pass → errored {2}verdict changed: turn 2: HTTP 503 from the agent$/m);
    expect(renderCompareMarkdown(c)).toContain('| `p` (script) | pass | errored | verdict changed | turn 2\\: HTTP 503 from the agent |');
    expect(renderCompareText(c) + renderCompareMarkdown(c)).not.toContain('transcript changed');
    // Fixed the other way round; errored in both runs for the same reason on another turn: unchanged.
    const fixed = compareRuns(at(T1, [], [stopped]), at(T2, [], [pr('p')]));
    expect(fixed.changes[0]?.detail).toBe('verdict errored (turn 2: HTTP 503 from the agent) → pass');
    // The error it had before, with its turn, in words: not "before: turn 2: ..." (three colons).
    expect(renderCompareText(fixed)).toMatch(/^ {2}p {2}errored → pass {2}verdict changed: before, on turn 2: HTTP 503 from the agent$/m);
    const later = { ...stopped, turns: turns.slice(0, 3), error: 'turn 3: agent returned HTTP 503 after 1 attempt' } as PersonaRecord;
    expect(causeOf(stopped, later)).toBeNull();
    // An error on the welcome turn keeps its name, "turn 0 (welcome)", before and after.
    const atWelcome = { ...stopped, turns: turns.slice(0, 1), error: 'turn 0 (welcome): the agent reported an error (crm_down): CRM unreachable', errorKind: 'agent_error' } as PersonaRecord;
    expect(compareRuns(at(T1, [], [pr('p')]), at(T2, [], [atWelcome])).changes[0]?.detail).toMatch(/^verdict pass → errored \(turn 0 \(welcome\): /);
    expect(renderCompareText(compareRuns(at(T1, [], [atWelcome]), at(T2, [], [pr('p')])))).toMatch(/verdict changed: before, on turn 0 \(welcome\): the agent reported an error \(crm_down\): CRM unreachable$/m);
    // The agent client's own error on the welcome turn names it so too; a record written before read "welcome turn: " (or "turn 0: ") and is named the same.
    for (const error of ['turn 0 (welcome): agent returned HTTP 503 after 1 attempt', 'welcome turn: agent returned HTTP 503 after 1 attempt', 'turn 0: agent returned HTTP 503 after 1 attempt']) {
      const refused = { ...stopped, turns: [], error, errorKind: 'http' } as PersonaRecord;
      expect(compareRuns(at(T1, [], [pr('p')]), at(T2, [], [refused])).changes[0]?.detail).toBe('verdict pass → errored (turn 0 (welcome): HTTP 503 from the agent)');
      expect(renderCompareText(compareRuns(at(T1, [], [refused]), at(T2, [], [pr('p')])))).toMatch(/^ {2}p {2}errored → pass {2}verdict changed: before, on turn 0 \(welcome\): HTTP 503 from the agent$/m);
    }
  });

  it('a label that was a fixture and is now a script: definition changed', () => {
    const c = compareRuns(at(T1, [fx('same')]), at(T2, [], [pr('same', { turns: [turn(1, 'hi', 'hello', null)] })]));
    expect(c.changes[0]).toMatchObject({ label: 'same', kind: 'persona', cause: 'definition_changed' });
  });
});

describe('compare: before is the earlier run', () => {
  const early = at(T1, [fx('a', { verdict: 'fail' }), fx('b')]);
  const late = at(T2, [fx('a'), fx('b')]);

  it('in argument order: not swapped', () => {
    const c = compareRuns(early, late, { first: 'early.json', second: 'late.json' });
    expect(c.swapped).toBe(false);
    expect([c.before.file, c.after.file]).toEqual(['early.json', 'late.json']);
    expect(c.fixed).toEqual(['a']);
  });

  it('later run first: swapped, the same comparison, and said so', () => {
    const c = compareRuns(late, early, { first: 'late.json', second: 'early.json' });
    const straight = compareRuns(early, late, { first: 'early.json', second: 'late.json' });
    expect(c.swapped).toBe(true);
    expect({ ...c, swapped: false }).toEqual(straight);
    expect(renderCompareText(c)).toContain('they were swapped, so that the earlier run (by startedAt) is "before"');
    expect(renderCompareMarkdown(c)).toContain('they were swapped');
    expect(renderCompareMarkdown(straight)).not.toContain('swapped');
  });
});

describe('compare: coverage and rendering', () => {
  it('carries both runs\' coverage and its change', () => {
    const before = run([fx('a')], { startedAt: T1, coverage: { listed: ['a', 'b'], visited: ['a'], gaps: ['b'], unknown: [] } });
    const after = run([fx('a')], { startedAt: T2, coverage: { listed: ['a', 'b'], visited: ['b'], gaps: ['a'], unknown: [] } });
    const c = compareRuns(before, after);
    expect(c.coverage?.change).toEqual({ newGaps: ['a'], closedGaps: ['b'], newUnknown: [], goneUnknown: [] });
    expect(compareRuns(at(T1, []), after).coverage).toBeNull();
  });

  it('the text says the unknown conversations as the markdown does', () => {
    const before = run([fx('a')], { startedAt: T1, coverage: { listed: ['a', 'b'], visited: ['a'], gaps: ['b'], unknown: [] } });
    const after = run([fx('a')], { startedAt: T2, coverage: { listed: ['a', 'b'], visited: ['a', 'b', 'upsell'], gaps: [], unknown: ['upsell'] } });
    const c = compareRuns(before, after);
    expect(renderCompareMarkdown(c)).toContain('Unknown conversations: 0 → 1 (new: upsell).');
    expect(renderCompareText(c)).toContain('coverage: gaps 1 → 0 (new: none; closed: b) · unknown conversations 0 → 1 (new: upsell)\n');
  });

  it('markdown escapes what came from the records', () => {
    const hostile = '<img src=x onerror=alert(1)> @octocat #1';
    const before = at(T1, [fx('a', { file: hostile })]);
    const after = at(T2, [fx('a', { file: hostile, route: route(hostile, 'x') })]);
    const md = renderCompareMarkdown(compareRuns(before, after));
    expect(md).not.toContain('<img');
    expect(md).not.toContain('@octocat');
    expect(md).toContain('&lt;img');
    expect(md).toContain('| `a` | pass | pass | route changed |');
    expect(md).toContain('**Agreement**: 100% → 100% (0 points)');
  });
});

describe("compare: McNemar's exact test over the paired items", () => {
  it('counts the flips among items with a verdict in both runs; errored, added and removed items are left out', () => {
    const before = at(T1, [fx('a'), fx('b'), fx('c'), fx('d', { verdict: 'fail' }), fx('e'), errored('f'), fx('gone')]);
    const after = at(T2, [fx('a', { verdict: 'fail' }), fx('b', { verdict: 'fail' }), fx('c', { verdict: 'fail' }), fx('d'), fx('e'), fx('f', { verdict: 'fail' }), fx('new', { verdict: 'fail' })]);
    const c = compareRuns(before, after);
    expect(c.mcnemar).toEqual({ pairs: 5, newlyFailing: 3, newlyPassing: 1, p: expect.closeTo(0.625, 12) as unknown as number, errored: 1, notEvaluated: 0 });
    expect(renderCompareText(c)).toContain('  mcnemar: over 5 items with a verdict in both runs, 3 newly failing, 1 newly passing: p = 0.63, within noise');
    expect(renderCompareMarkdown(c)).toContain('**McNemar**: over 5 items with a verdict in both runs, 3 newly failing, 1 newly passing: p = 0.63, within noise.');
  });

  it('beside "Broken", the items that errored are named as not counted, and Broken says how many are newly failing', () => {
    // Three items pass before and error now (HTTP 503): broken, but not "newly failing"; one fails now; one not evaluated now.
    const err = (l: string): FixtureRecord => errored(l, 'http', { error: 'message turn: agent returned HTTP 503 after 1 attempt' });
    const before = at(T1, [fx('a'), fx('b'), fx('c'), fx('d'), fx('e'), fx('f', { verdict: 'fail' })]);
    const after = at(T2, [err('a'), err('b'), err('c'), fx('d', { verdict: 'fail' }), fx('e', { verdict: 'not_evaluated' }), fx('f')]);
    const c = compareRuns(before, after);
    expect(c.mcnemar).toMatchObject({ pairs: 2, newlyFailing: 1, newlyPassing: 1, errored: 3, notEvaluated: 1 });
    const md = renderCompareMarkdown(c);
    expect(md).toContain(
      '**McNemar**: over 2 items with a verdict in both runs, 1 newly failing, 1 newly passing: p = 1, within noise. Not counted: 3 items errored in a run, 1 item not evaluated in a run (not checked, so neither pass nor fail).',
    );
    expect(md).toContain('Fixed: 1. Broken: 4 (1 newly failing, 3 errored now).');
    expect(renderCompareText(c)).toContain(
      '  mcnemar: over 2 items with a verdict in both runs, 1 newly failing, 1 newly passing: p = 1, within noise; not counted: 3 items errored in a run, 1 item not evaluated in a run (not checked, so neither pass nor fail)\n',
    );
    // The other way round: fixed items that errored before.
    expect(renderCompareMarkdown(compareRuns(at(T1, [err('a'), fx('d', { verdict: 'fail' })]), at(T2, [fx('a'), fx('d')])))).toContain('Fixed: 2 (1 newly passing, 1 errored before). Broken: 0.');
    // Nothing left out: no "not counted".
    expect(renderCompareText(compareRuns(at(T1, [fx('a')]), at(T2, [fx('a', { verdict: 'fail' })])))).not.toContain('not counted');
  });

  it('six newly failing and none newly passing is beyond noise (p = 2/64); no flip gives p = 1', () => {
    const labels = ['a', 'b', 'c', 'd', 'e', 'f'];
    const c = compareRuns(at(T1, labels.map((l) => fx(l))), at(T2, labels.map((l) => fx(l, { verdict: 'fail' }))));
    expect(c.mcnemar.p).toBeCloseTo(2 / 64, 12);
    expect(renderCompareText(c)).toContain('6 newly failing, 0 newly passing: p = 0.031, beyond noise');
    expect(compareRuns(at(T1, [fx('a')]), at(T2, [fx('a')])).mcnemar).toEqual({ pairs: 1, newlyFailing: 0, newlyPassing: 0, p: 1, errored: 0, notEvaluated: 0 });
  });
});

describe('compare: a partial run (--rerun, --only)', () => {
  it('an item the partial run did not replay is neither removed nor added; the agreement over the items in both runs is said', () => {
    const full = at(T1, [fx('a', { verdict: 'fail' }), fx('b'), fx('c', { verdict: 'fail' })]);
    const rerun = run([fx('a'), fx('c', { verdict: 'fail' })], { startedAt: T2, selection: { rerunOf: 'results.json', only: null, labels: ['a', 'c'] } });
    const c = compareRuns(full, rerun);
    expect(c.after.partial).toBe(true);
    expect(c.onlyBefore).toEqual([]);
    expect(c.causes.removed).toBe(0);
    expect(c.fixed).toEqual(['a']);
    expect(c.summary).toBe('1 verdict changed');
    expect(renderCompareText(c)).toContain('over the items in both runs only: 0% → 50%');
    expect(renderCompareMarkdown(c)).toContain('Over the items in both runs only: 0% → 50%.');
    // Given the other way round (the partial run earlier), the items it did not replay are not "added".
    const later = { ...full, startedAt: '2026-12-03T09:00:00.000Z' };
    expect(compareRuns(rerun, later).onlyAfter).toEqual([]);
  });

  it('two partial runs with no item in common: not "nothing changed", no coverage change', () => {
    const sel = (labels: string[]) => ({ rerunOf: null, only: labels, labels });
    const cov = (visited: string[]) => coverage(['refunds', 'handoff'], visited);
    const one = run([fx('refund-a', { verdict: 'fail' }), fx('refund-b')], { startedAt: T1, selection: sel(['refund-a', 'refund-b']), coverage: cov(['refunds']) });
    const two = run([fx('hand-a')], { startedAt: T2, selection: sel(['hand-a']), coverage: cov(['handoff']) });
    const c = compareRuns(one, two);
    expect(c.changes).toEqual([]);
    expect(c.summary).toBe('no item in both runs');
    expect(c.coverage).toBeNull();
    expect(renderCompareText(c)).toContain('over the items in both runs only: no item in both runs');
    expect(renderCompareMarkdown(c)).toContain('Over the items in both runs only: no item in both runs.');
  });
});

describe('compare: the change in agreement, said exactly', () => {
  it('a change that rounds to 0.0 points is not "0 points"', () => {
    // None at all: "0 points", as the run's pass-rate line writes it (report/rates.ts), not "no change".
    expect(formatDelta(0)).toBe('0 points');
    expect(formatDelta(0)).toBe(points(0.8, 0.8));
    expect(formatDelta(100 / 3000)).toBe('+<0.1 points');
    expect(formatDelta(-0.04)).toBe('−<0.1 points');
    expect(formatDelta(-1)).toBe('−1 point');
    const all = (n: number, failed: number, t: string): RunRecord => at(t, Array.from({ length: n }, (_, i) => fx(`i${i}`, i < failed ? { verdict: 'fail' } : {})));
    const text = renderCompareText(compareRuns(all(3000, 0, T1), all(3000, 1, T2)));
    expect(text).toContain('agreement: 100% → >99.9% (−<0.1 points)');
  });

  it("a fall is signed with the minus sign (U+2212) as the run's pass-rate line signs it, in the agreement and the group tables", () => {
    // 7 of 8 passing → 4 of 8: −37.5 points; the run's report writes "−16 points" (report/rates.ts).
    const labels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const c = compareRuns(at(T1, labels.map((l) => fx(l, l === 'h' ? { verdict: 'fail' } : {}))), at(T2, labels.map((l) => fx(l, 'efgh'.includes(l) ? { verdict: 'fail' } : {}))));
    const text = renderCompareText(c);
    const md = renderCompareMarkdown(c);
    expect(text).toContain('agreement: 87.5% → 50% (\u221237.5 points)');
    expect(md).toContain('**Agreement**: 87.5% → 50% (\u221237.5 points)');
    expect(md).toContain('| 87.5% | 50% | \u221237.5 points |');
    // No hyphen-minus before a number anywhere a difference is written.
    expect(`${text}${md}`).not.toMatch(/\(-\d|\| -\d|\(-</);
    expect(formatDelta(12.5)).toBe('+12.5 points');
  });
});

describe("compare on the terminal: an agent's control characters", () => {
  it('are shown as escapes, as the run summary shows them, and dropped in markdown (docs/security.md, "Agent text is data")', () => {
    // A route and an error that hold an ANSI colour: the terminal must show it, and act on none.
    const c = compareRuns(
      at(T1, [fx('a'), errored('c', 'agent_error', { error: 'boom \u001b[31mdown' })]),
      at(T2, [fx('a', { route: route('bill\u001b[31ming', 'x') }), fx('c')]),
    );
    const text = renderCompareText(c);
    expect(text).toContain('route changed: main/answer → bill\\u001b[31ming/x');
    expect(text).toContain('verdict changed: before: boom \\u001b[31mdown');
    expect(text).not.toContain('\u001b');
    const md = renderCompareMarkdown(c);
    expect(md).not.toContain('\u001b');
    expect(md).not.toContain('u001b');
    expect(md).toContain('bill\\[31ming/x');
  });
});

describe('compare --markdown: bounded as run --markdown is (docs/cli.md, "What each command does")', () => {
  // Every changed item is a row (its detail clipped): 5,000 long labels whose replies changed make a file over GitHub's 1 MiB for a step summary.
  const long = (n: number, side: string): string => `${side} ${String(n)} `.padEnd(300, side === 'was' ? 'a' : 'b');
  const labels = Array.from({ length: 5000 }, (_, i) => `item-${String(i).padStart(4, '0')}-`.padEnd(60, 'x'));
  const c = compareRuns(at(T1, labels.map((l, i) => fx(l, { reply: long(i, 'was') }))), at(T2, labels.map((l, i) => fx(l, { reply: long(i, 'now') }))));

  it('is cut on a line to 1 MiB, says so last as run --markdown does, and names where the full comparison is', () => {
    const md = renderCompareMarkdown(c);
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(1_048_576);
    // It counts the items it left out: those whose row is not above it.
    const shown = labels.filter((l) => md.includes(`| \`${l}\` |`)).length;
    expect(shown).toBeGreaterThan(0);
    expect(md.slice(md.lastIndexOf('\n\n'))).toBe(
      `\n\n> ✂️ Cut to fit the report limit of 1,048,576 bytes: ${(5000 - shown).toLocaleString('en-US')} of 5,000 items left out. The full comparison is in what \`agent-replay compare\` prints (and in its \`--out\` file, when given).\n`,
    );
    expect(md).toContain(`| \`${labels[0]!}\` | pass | pass | reply changed |`);
    expect(md).not.toContain(labels[4999]!);
    // What the terminal prints is whole.
    expect(renderCompareText(c)).toContain(`${labels[4999]!}  pass → pass  reply changed`);
    // A comparison that fits is as it was: no cut line.
    expect(renderCompareMarkdown(c, {}, { maxBytes: 10_000_000 })).not.toContain('Cut to fit');
    expect(renderCompareMarkdown(c, {}, { maxBytes: 10_000_000 })).toContain(labels[4999]!);
  });
});

describe('compare: the pass rate of attempts between two repeated runs (docs/evaluations.md#compare)', () => {
  // Six items of 5 attempts: 23/30 passes before, 18/30 after. compare said only McNemar's verdict flips.
  const before = [4, 4, 4, 4, 4, 3];
  const after = [3, 3, 3, 3, 3, 3];
  const labels = ['a', 'b', 'c', 'd', 'e', 'f'];
  const runA = (): RunRecord => ({ ...withRunStats(labels.map((l, i) => repeated(l, null, { passed: before[i] as number, total: 5 }, 3))), startedAt: T1 });
  // The later run against baselines of the earlier run's attempts: its own line is of the same pair.
  const runB = (): RunRecord => ({ ...withRunStats(labels.map((l, i) => repeated(l, { passed: before[i] as number, total: 5 }, { passed: after[i] as number, total: 5 }, 3))), startedAt: T2 });

  it("gives the run's own line, by the same function and with the same figures, over the items in both runs", () => {
    const a = runA();
    const b = runB();
    const c = compareRuns(a, b);
    expect(b.stats).toBeDefined();
    expect(c.passRate).toEqual(b.stats);
    const own = runRateText(b.stats as RunStats);
    expect(own).toMatch(/^pass rate of attempts 76\.7% → 60%: −16\.7 points \(95% interval of the change: −\d+ to [−+]\d+\) over 6 items with a baseline/);
    expect(renderCompareText(c)).toContain(`\n  ${own.replace('with a baseline', 'in both runs')}\n`);
    const head = own.slice(0, own.indexOf(': '));
    expect(renderCompareMarkdown(c)).toContain(`\n**P${head.slice(1)}**: ${own.slice(head.length + 2).replace('with a baseline', 'in both runs')}.\n`);
    // The arguments given after-first: the same line.
    expect(compareRuns(b, a).passRate).toEqual(b.stats);
  });

  it('says the items whose pass rate of attempts moved without their verdict, with their k/N, never "nothing changed" nor a changed verdict', () => {
    const c = compareRuns(runA(), runB());
    expect(c.changes).toEqual([]);
    expect(c.causes.verdict_changed).toBe(0);
    expect(c.attemptsMoved.map((m) => [m.label, m.before.repeat?.passed, m.after.repeat?.passed])).toEqual([['a', 4, 3], ['b', 4, 3], ['c', 4, 3], ['d', 4, 3], ['e', 4, 3]]);
    // f stayed 3/5: it alone is unchanged.
    expect(c.unchanged).toBe(1);
    expect(c.summary).toBe("5 items' pass rates of attempts moved, not their verdicts");
    const text = renderCompareText(c);
    expect(text).toContain("\nwhy: 5 items' pass rates of attempts moved, not their verdicts (1 unchanged)\n");
    expect(text).toMatch(/\n {2}a {2}pass 4\/5( \(flaky\))? → pass 3\/5( \(flaky\))? {2}pass rate of attempts moved, verdict unchanged\n/);
    expect(text).not.toMatch(/^ {2}f /m);
    const md = renderCompareMarkdown(c);
    expect(md).toContain("**Why**: 5 items' pass rates of attempts moved, not their verdicts (1 unchanged).");
    expect(md).toContain('### Pass rate of attempts moved, verdict unchanged\n\n| item | before | after |\n| --- | --- | --- |\n| `a` | pass 4/5');
    expect(md).not.toContain('### Changed items');
    // One item alone, beside a real change: counted in the summary after the causes.
    const one = compareRuns(at(T1, [fx('x'), ...runA().fixtures.slice(0, 1)]), at(T2, [fx('x', { verdict: 'fail' }), ...runB().fixtures.slice(0, 1)]));
    expect(one.summary).toBe("1 verdict changed; 1 item's pass rate of attempts moved, not its verdict");
  });

  it('gives none unless both runs are repeated: McNemar alone weighs single attempts', () => {
    const once = at(T1, labels.map((l) => fx(l)));
    const c = compareRuns(once, runB());
    expect(c.passRate).toBeNull();
    expect(renderCompareText(c)).not.toContain('pass rate of attempts');
    expect(renderCompareMarkdown(c)).not.toContain('Pass rate of attempts');
  });
});
