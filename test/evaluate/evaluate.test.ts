import { describe, expect, it } from 'vitest';
import { fixtureRecord } from '../support/fixture-record.js';
import {
  computeDrift,
  decideAcceptance,
  driftVerdict,
  driftedCount,
  estimateCost,
  meaningCallsAtMost,
  turnsPerFixture,
  gate,
  mayRun,
  parseFailOn,
  planAcceptance,
  tallies,
  REFUSE_ERRORED,
  REFUSE_NOT_EVALUATED,
} from '../../src/evaluate/index.js';
import { DEFAULT_COST } from '../../src/config.js';
import { FAIL_ON_CONDITIONS, type Assertion, type Baseline, type Drift, type FixtureRecord, type PersonaDrift, type Verdict } from '../../src/types.js';

const route = { conversation: 'refunds', stage: 'policy' };
const baseline = (verdict: 'pass' | 'fail', reply = 'Refunds within 30 days.'): Baseline => ({
  label: 'refund-policy',
  reply,
  route,
  verdict,
  acceptedAt: '2026-11-01T00:00:00.000Z',
  commit: 'a'.repeat(40),
});

describe('drift verdict: exactly six values', () => {
  it.each<[Verdict, Baseline | null, string]>([
    ['pass', baseline('pass'), 'still_passing'],
    ['fail', baseline('fail'), 'still_failing'],
    ['pass', baseline('fail'), 'newly_passing'],
    ['fail', baseline('pass'), 'newly_failing'],
    ['pass', null, 'no_baseline'],
    ['fail', null, 'no_baseline'],
    ['not_evaluated', null, 'no_baseline'],
    ['not_evaluated', baseline('pass'), 'not_evaluated'],
    ['not_evaluated', baseline('fail'), 'not_evaluated'],
  ])('%s against %o -> %s', (current, b, expected) => {
    expect(driftVerdict(current, b)).toBe(expected);
  });

  it('a green fixture whose check then fails to run is not evaluated, never newly failing', () => {
    expect(driftVerdict('not_evaluated', baseline('pass'))).not.toBe('newly_failing');
  });
});

describe('seed 000 example table (refund-policy, regex "30 days", baseline pass)', () => {
  const b = baseline('pass', 'Refunds are accepted within 30 days of purchase.');
  it('row 1: reworded reply still mentions 30 days -> pass, still passing, reply different', () => {
    expect(computeDrift('pass', 'You have 30 days to return it.', route, b)).toEqual({ reply: 'different', route: 'same', verdict: 'still_passing' });
  });
  it('row 2: reply no longer mentions 30 days -> newly failing', () => {
    expect(computeDrift('fail', 'No refunds, sorry.', route, b).verdict).toBe('newly_failing');
  });
  it('row 3: worker failed to start -> not evaluated; reply and route still compared', () => {
    expect(computeDrift('not_evaluated', b.reply, route, b)).toEqual({ reply: 'same', route: 'same', verdict: 'not_evaluated' });
  });
  it('row 4: saved without a run, worker fails -> no baseline, and nothing can be accepted', () => {
    const d = computeDrift('not_evaluated', 'whatever', route, null);
    expect(d).toEqual({ reply: null, route: null, verdict: 'no_baseline' });
    const decision = decideAcceptance({ label: 'x', errored: false, verdict: 'not_evaluated', reply: 'whatever', route, baseline: null }, 't', null);
    expect(decision).toEqual({ kind: 'refuse', reason: REFUSE_NOT_EVALUATED });
  });
});

describe('reply and route comparison', () => {
  it('is exact text', () => {
    expect(computeDrift('pass', 'Refunds within 30 days. ', route, baseline('pass')).reply).toBe('different');
  });
  it('route differs when stage differs, or one side is missing', () => {
    expect(computeDrift('pass', 'Refunds within 30 days.', { conversation: 'refunds', stage: 'other' }, baseline('pass')).route).toBe('different');
    expect(computeDrift('pass', 'Refunds within 30 days.', null, baseline('pass')).route).toBe('different');
  });
});

const rec = (over: Partial<FixtureRecord>): FixtureRecord => fixtureRecord(over);

describe('tallies are derived from records', () => {
  it('counts each state once; errored has no verdict', () => {
    const t = tallies([
      rec({ verdict: 'pass' }),
      rec({ verdict: 'pass' }),
      rec({ verdict: 'fail' }),
      rec({ verdict: 'not_evaluated' }),
      rec({ errored: true, verdict: null, reply: null, drift: null }),
    ]);
    expect(t).toEqual({ passed: 2, failed: 1, notEvaluated: 1, errored: 1 });
  });
});

describe('cost estimate', () => {
  const WELCOME = { welcomeTurn: true };
  const contains: Assertion = { kind: 'contains', value: 'x' };
  const judge: Assertion = { kind: 'judge', criterion: 'c', threshold: 0.7 };
  it('uses the documented defaults (docs/semantics.md, Cost): 2 turns x $0.01 per fixture, $0.005 per judge call', () => {
    const e = estimateCost([contains, judge, null], DEFAULT_COST, false, WELCOME);
    expect(e.usd).toBe(0.065);
    expect(e.capUsd).toBe(0.1);
    expect(e.aboveCap).toBe(false);
  });
  it('meaning calls at most (docs/meaning.md, Costs): per attempt against a baseline, per attempt after the first against attempt 1, at the judge call price', () => {
    expect(meaningCallsAtMost([])).toBe(0);
    // A fixture with a baseline, run once: one call at most; without one: none.
    expect(meaningCallsAtMost([{ replies: 1, attempts: 1, baseline: true }])).toBe(1);
    expect(meaningCallsAtMost([{ replies: 1, attempts: 1, baseline: false }])).toBe(0);
    // Repeated 3 times: 3 against the baseline, 2 against attempt 1; without a baseline only the 2.
    expect(meaningCallsAtMost([{ replies: 1, attempts: 3, baseline: true }])).toBe(5);
    expect(meaningCallsAtMost([{ replies: 1, attempts: 3, baseline: false }])).toBe(2);
    // A script of 4 turns with a baseline, run once: one per turn.
    expect(meaningCallsAtMost([{ replies: 4, attempts: 1, baseline: true }])).toBe(4);
    const e = estimateCost([null], DEFAULT_COST, false, WELCOME, [], 1, 4);
    expect(e).toEqual({ usd: 0.04, capUsd: 0.1, aboveCap: false, confirmed: false, meaningCalls: 4 });
    // The cap counts them: 4 fixtures (0.08) and 5 meaning calls (0.025) are above $0.10.
    expect(mayRun(estimateCost([null, null, null, null], DEFAULT_COST, false, WELCOME, [], 1, 5))).toBe(false);
  });
  it('five fixtures are exactly at the cap ($0.10) and not above it', () => {
    const e = estimateCost([null, null, null, null, null], DEFAULT_COST, false, WELCOME);
    expect(e).toEqual({ usd: 0.1, capUsd: 0.1, aboveCap: false, confirmed: false });
    expect(mayRun(e)).toBe(true);
  });
  it('above the cap, nothing runs unless confirmed', () => {
    const six = [null, null, null, null, null, null];
    expect(mayRun(estimateCost(six, DEFAULT_COST, false, WELCOME))).toBe(false);
    const confirmed = estimateCost(six, DEFAULT_COST, true, WELCOME);
    expect(confirmed).toEqual({ usd: 0.12, capUsd: 0.1, aboveCap: true, confirmed: true });
    expect(mayRun(confirmed)).toBe(true);
  });
  it('counts one turn per fixture when the agent has no welcome turn', () => {
    expect(estimateCost([contains, judge, null], DEFAULT_COST, false, { welcomeTurn: false }).usd).toBe(0.035);
    expect(turnsPerFixture(DEFAULT_COST, false)).toBe(1);
    expect(turnsPerFixture(DEFAULT_COST, true)).toBe(2);
  });
  it('keeps an explicit turnsPerFixture, with or without a welcome turn', () => {
    const three = { ...DEFAULT_COST, turnsPerFixture: 3 };
    expect(estimateCost([null], three, false, { welcomeTurn: false }).usd).toBe(0.03);
    expect(estimateCost([null], three, false, WELCOME).usd).toBe(0.03);
    expect(estimateCost([null], { ...DEFAULT_COST, turnsPerFixture: 2 }, false, { welcomeTurn: false }).usd).toBe(0.02);
  });
  it('honours configured prices', () => {
    expect(estimateCost([judge], { agentTurnUsd: 0.002, turnsPerFixture: 1, judgeCallUsd: 0.01, capUsd: 5 }, false, WELCOME).usd).toBe(0.012);
  });
});

describe('acceptance follows the current verdict, not the drift label', () => {
  it('accepts pass and fail', () => {
    for (const verdict of ['pass', 'fail'] as const) {
      const d = decideAcceptance({ label: 'a', errored: false, verdict, reply: 'new', route, baseline: null }, 'T', 'c'.repeat(40));
      expect(d).toEqual({ kind: 'accept', baseline: { label: 'a', reply: 'new', route, verdict, acceptedAt: 'T', commit: 'c'.repeat(40) } });
    }
  });
  it('refuses not evaluated and errored with their reasons', () => {
    expect(decideAcceptance({ label: 'a', errored: false, verdict: 'not_evaluated', reply: 'r', route, baseline: baseline('pass') }, 'T', null)).toEqual({
      kind: 'refuse',
      reason: 'not evaluated: run it again',
    });
    expect(decideAcceptance({ label: 'a', errored: true, verdict: null, reply: null, route: null, baseline: null }, 'T', null)).toEqual({
      kind: 'refuse',
      reason: 'errored: no reply to accept',
    });
    expect(REFUSE_ERRORED).toBe('errored: no reply to accept');
  });
  it('reports an identical baseline as unchanged (no empty commit)', () => {
    const b = baseline('pass');
    expect(decideAcceptance({ label: b.label, errored: false, verdict: 'pass', reply: b.reply, route, baseline: b }, 'T', null)).toEqual({ kind: 'unchanged' });
  });
  it('plans a whole run, honouring --only and reporting unknown labels', () => {
    const run = {
      commit: 'd'.repeat(40),
      fixtures: [
        rec({ label: 'a', verdict: 'pass', reply: 'A' }),
        rec({ label: 'b', verdict: 'not_evaluated' }),
        rec({ label: 'c', errored: true, verdict: null, reply: null, drift: null }),
        rec({ label: 'd', verdict: 'fail', reply: 'D' }),
      ],
    };
    const all = planAcceptance(run, new Map(), { only: null, acceptedAt: 'T' });
    expect(all.accepted.map((b) => [b.label, b.verdict, b.commit])).toEqual([
      ['a', 'pass', 'd'.repeat(40)],
      ['d', 'fail', 'd'.repeat(40)],
    ]);
    expect(all.refused).toEqual([
      { label: 'b', reason: REFUSE_NOT_EVALUATED },
      { label: 'c', reason: REFUSE_ERRORED },
    ]);
    const some = planAcceptance(run, new Map(), { only: ['d', 'zzz'], acceptedAt: 'T' });
    expect(some.accepted.map((b) => b.label)).toEqual(['d']);
    expect(some.unknown).toEqual(['zzz']);
  });
});

describe('gate', () => {
  const fixtures = [
    rec({ label: 'ok' }),
    rec({ label: 'regressed', verdict: 'fail', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } }),
    rec({ label: 'grey', verdict: 'not_evaluated', drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' } }),
    rec({ label: 'broken', errored: true, verdict: null, reply: null, drift: null }),
  ];
  it('fails on newly failing, naming the fixtures', () => {
    const g = gate(fixtures, ['newly_failing']);
    expect(g.failed).toBe(true);
    expect(g.reason).toBe('1 fixture newly failing (regressed)');
  });
  it('not evaluated and errored do not fail the lenient gate', () => {
    expect(gate(fixtures.filter((f) => f.label !== 'regressed'), ['newly_failing']).failed).toBe(false);
    expect(gate(fixtures, ['errored', 'not_evaluated']).reason).toBe('1 fixture errored (broken); 1 fixture not evaluated (grey)');
  });
  it('none never fails', () => {
    expect(gate(fixtures, ['none']).failed).toBe(false);
  });
  it('parses lists and rejects unknown conditions with the allowed set', () => {
    expect(parseFailOn('newly-failing, errored', FAIL_ON_CONDITIONS)).toEqual(['newly_failing', 'errored']);
    expect(parseFailOn('', FAIL_ON_CONDITIONS)).toEqual(['newly_failing', 'unverified']);
    expect(() => parseFailOn('sometimes', FAIL_ON_CONDITIONS)).toThrow(/^fail-on: "sometimes" is not a known condition; allowed: newly_failing, unverified, failed/);
    // A condition written short or misspelt names the one meant first.
    expect(() => parseFailOn('slow', FAIL_ON_CONDITIONS)).toThrow(/^fail-on: "slow" is not a known condition: did you mean "slower"\? Allowed: newly_failing, unverified, failed/);
    expect(() => parseFailOn('newly_failing,errors', FAIL_ON_CONDITIONS)).toThrow(/^fail-on: "errors" is not a known condition: did you mean "errored"\? Allowed:/);
    expect(() => parseFailOn('regresed', FAIL_ON_CONDITIONS)).toThrow(/did you mean "regressed"\?/);
  });
  it('names the condition meant by the one rule of every hint, as the CLI names a flag: in any case, short or misspelt (suite/issues.ts nearestName)', () => {
    // Written in capitals and short, as `--Confirm` names --confirm-cost.
    // The value is quoted as written, its dashes too: the dash stands for an underscore only in a condition that is one.
    expect(() => parseFailOn('NOT-EVAL', FAIL_ON_CONDITIONS)).toThrow(/^fail-on: "NOT-EVAL" is not a known condition: did you mean "not_evaluated"\? Allowed:/);
    // Conditions are lower case (docs/semantics.md, "The gate"): one in another case is refused, naming it as written.
    expect(() => parseFailOn('errored, Newly-Failing', FAIL_ON_CONDITIONS)).toThrow(/^fail-on: "Newly-Failing" is not a known condition: did you mean "newly_failing"\? Allowed:/);
    expect(() => parseFailOn('Regr', FAIL_ON_CONDITIONS)).toThrow(/did you mean "regressed"\?/);
    expect(() => parseFailOn('Errors', FAIL_ON_CONDITIONS)).toThrow(/did you mean "errored"\?/);
    // From three letters: "re" is the start of reply_changed, route_changed and regressed, and names none.
    expect(() => parseFailOn('re', FAIL_ON_CONDITIONS)).toThrow(/^fail-on: "re" is not a known condition; allowed:/);
  });
});

describe('driftedCount (the Action output "drifted")', () => {
  const fixture = (drift: Drift | null) => ({ drift });
  const script = (drift: PersonaDrift | null) => ({ drift });
  it('counts an item whose reply or transcript, route or verdict changed; not an errored one, nor one that only stayed the same', () => {
    const same: Drift = { reply: 'same', route: 'same', verdict: 'still_passing' };
    const run = {
      fixtures: [
        fixture(null),
        fixture(same),
        fixture({ reply: null, route: null, verdict: 'no_baseline' }),
        fixture({ ...same, reply: 'different' }),
        fixture({ ...same, route: 'different' }),
        fixture({ ...same, verdict: 'newly_failing' }),
        fixture({ ...same, verdict: 'newly_passing' }),
        fixture({ ...same, verdict: 'still_failing' }),
      ],
      personas: [script(null), script({ transcript: 'same', route: 'same', verdict: 'still_passing' }), script({ transcript: 'different', route: 'same', verdict: 'still_passing' })],
    };
    expect(driftedCount(run)).toBe(5);
  });

  it('counts a slower item, as the comment puts it under Changed: one definition (docs/action.md, Outputs)', () => {
    const same: Drift = { reply: 'same', route: 'same', verdict: 'still_passing' };
    const slower = { baselineMs: 1200, latencyMs: 2940 };
    const scriptSame: PersonaDrift = { transcript: 'same', route: 'same', verdict: 'still_passing' };
    const run = { fixtures: [{ errored: false, drift: same, slower }, { errored: false, drift: same }], personas: [{ errored: false, drift: scriptSame, slower }] };
    expect(driftedCount(run)).toBe(2);
  });
});
