// The calibration's pure core: which baselines are re-judged with which accepted verdict, and the
// figures made of the judge's answers (median, spread, agreement, straddling, grouping by text).

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrationSchema, parseCalibration, type Calibration } from '../../src/calibrate/schema.js';
import { acceptedCriterion, acceptedSingleJudge, baselineTurns, FAILED_BY_ATTEMPTS, otherChecks, planCalibration, type CalibrationTarget } from '../../src/calibrate/plan.js';
import { renderCalibrationMarkdown, renderCalibrationText } from '../../src/calibrate/render.js';
import { calibrateBaseline, estimateCalibration, groupByCriterion, median, summarizeCalibration } from '../../src/calibrate/summary.js';
import type { Baseline, Fixture, JudgeResult, PersonaBaseline, PersonaScript } from '../../src/types.js';
import { CALL_FAILED_HINT, causeOf, JUDGE_CUT_HINT, JUDGE_NO_SCORE_HINT, PANEL_NO_SCORE_HINT, PANEL_NO_SCORE_HINTS } from '../../src/evaluate/index.js';
import { escapeInline } from '../../src/report/escape.js';
import { cliWords } from '../../src/report/terminal.js';
import { calibrationOf } from './calibration.js';
import { createJudge, createPanelJudge } from '../../src/judge/index.js';
import { startPanelJudge } from '../judge/panel-server.js';

const AT = { acceptedAt: '2026-11-01T10:00:00.000Z', commit: null };

function fixture(label: string, assertion: Fixture['assertion']): Fixture {
  return { label, message: `m ${label}`, persona: null, assertion, file: 'fixtures/a.yml', line: 3 };
}

function script(label: string, expect: Partial<PersonaScript['expect']>, threshold = 0.7): PersonaScript {
  return {
    label,
    file: 'personas/p.yml',
    line: 1,
    persona: null,
    opening: 'hi',
    followUps: [],
    maxTurns: 20,
    threshold,
    mocks: [],
    expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [], ...expect },
  };
}

function personaBaseline(label: string, verdict: 'pass' | 'fail', judge?: PersonaBaseline['judge']): PersonaBaseline {
  return {
    label,
    kind: 'persona',
    transcript: [
      { message: null, reply: 'Welcome!', route: null },
      { message: 'hi', reply: 'Hello, order 12', route: { conversation: 'c', stage: 's' } },
    ],
    visited: [],
    outcome: null,
    verdict,
    ...(judge ? { judge } : {}),
    ...AT,
  };
}

const fileOf = (label: string): string => `.agent-replay/baselines/${label}.json`;

describe('planCalibration', () => {
  it('takes a judged fixture with its baseline reply and verdict; skips other assertions; lists judged items without a baseline', () => {
    const baselines = new Map<string, Baseline>([
      ['a', { label: 'a', reply: 'ra', route: null, verdict: 'fail', ...AT }],
      ['plain', { label: 'plain', reply: 'x', route: null, verdict: 'pass', ...AT }],
    ]);
    const plan = planCalibration({
      fixtures: [fixture('a', { kind: 'judge', criterion: 'Is kind', threshold: 0.6 }), fixture('plain', { kind: 'contains', value: 'x' }), fixture('new', { kind: 'judge', criterion: 'Is kind', threshold: 0.6 })],
      personas: [],
      baselines,
      personaBaselines: new Map(),
      baselineFile: fileOf,
    });
    expect(plan.targets).toEqual([
      { criterion: 'Is kind', threshold: 0.6, kind: 'fixture', label: 'a', file: 'fixtures/a.yml', line: 3, baselineFile: '.agent-replay/baselines/a.json', accepted: 'fail', acceptedFrom: 'baseline_verdict', material: { kind: 'reply', reply: 'ra' } },
    ]);
    expect(plan.withoutBaseline).toEqual([{ criterion: 'Is kind', kind: 'fixture', label: 'new', file: 'fixtures/a.yml', line: 3 }]);
    expect(plan.skipped).toEqual([]);
  });

  it('says the accepted verdict came from the stored judge result when the baseline keeps one for the same criterion', () => {
    const b: Baseline = { label: 'a', reply: 'ra', route: null, verdict: 'pass', judge: { score: 0.8, rationale: 'ok', fingerprint: { model: 'm', promptVersion: '2', criteria: [{ criterion: 'Is kind', threshold: 0.6 }] } }, ...AT };
    const plan = planCalibration({ fixtures: [fixture('a', { kind: 'judge', criterion: 'Is kind', threshold: 0.6 })], personas: [], baselines: new Map([['a', b]]), personaBaselines: new Map(), baselineFile: fileOf });
    expect(plan.targets[0]?.acceptedFrom).toBe('stored_result');
    expect(plan.targets[0]?.accepted).toBe('pass');
  });

  it('a judge in a list of checks: its stored result, else a passed fixture, else skipped and named (docs/calibration.md)', () => {
    const list = (criterion: string): Fixture['assertion'] => ({ kind: 'all', assertions: [{ kind: 'contains', value: 'refund' }, { kind: 'judge', criterion, threshold: 0.7 }] });
    const judge = (score: number, criterion = 'Is kind'): Baseline['judge'] => ({ score, rationale: 'r', fingerprint: { model: 'm', promptVersion: '3', criteria: [{ criterion, threshold: 0.5 }] } });
    const baselines = new Map<string, Baseline>([
      // Accepted as fail (the contains failed), the judge passed at the threshold it was judged with.
      ['stored', { label: 'stored', reply: 'r1', route: null, verdict: 'fail', judge: judge(0.6), ...AT }],
      ['passed', { label: 'passed', reply: 'r2', route: null, verdict: 'pass', ...AT }],
      ['unknown', { label: 'unknown', reply: 'r3', route: null, verdict: 'fail', judge: judge(0.9, 'Another text'), ...AT }],
    ]);
    const plan = planCalibration({
      fixtures: [fixture('stored', list('Is kind')), fixture('passed', list('Is kind')), fixture('unknown', list('Is kind')), fixture('new', list('Is kind'))],
      personas: [],
      baselines,
      personaBaselines: new Map(),
      baselineFile: fileOf,
    });
    expect(plan.targets.map((t) => [t.label, t.threshold, t.accepted, t.acceptedFrom, t.material])).toEqual([
      ['stored', 0.7, 'pass', 'stored_result', { kind: 'reply', reply: 'r1' }],
      ['passed', 0.7, 'pass', 'baseline_verdict', { kind: 'reply', reply: 'r2' }],
    ]);
    expect(plan.skipped.map((x) => [x.label, x.kind, x.baselineFile])).toEqual([['unknown', 'fixture', '.agent-replay/baselines/unknown.json']]);
    expect(plan.withoutBaseline).toEqual([{ criterion: 'Is kind', kind: 'fixture', label: 'new', file: 'fixtures/a.yml', line: 3 }]);
  });

  it('persona criteria: stored result, else a passed script, else the only check, else unknown (skipped and named)', () => {
    const stored = personaBaseline('stored', 'fail', { model: 'm', promptVersion: '2', transcriptHash: 'h', criteria: [{ criterion: 'A', threshold: 0.5, score: 0.9, rationale: 'r' }, { criterion: 'B', threshold: 0.5, score: 0.1, rationale: 'r' }] });
    const plan = planCalibration({
      fixtures: [],
      personas: [
        script('stored', { criteria: ['A', 'B'], terminal: 'finish' }),
        script('passed', { criteria: ['A', 'A', 'C'] }),
        script('only', { criteria: ['D'] }),
        script('ambiguous', { criteria: ['E'], terminal: 'finish' }),
        script('none', { criteria: ['F'] }),
      ],
      baselines: new Map(),
      personaBaselines: new Map([
        ['stored', stored],
        ['passed', personaBaseline('passed', 'pass')],
        ['only', personaBaseline('only', 'fail')],
        ['ambiguous', personaBaseline('ambiguous', 'fail')],
      ]),
      baselineFile: fileOf,
    });
    expect(plan.targets.map((t) => [t.label, t.criterion, t.accepted, t.acceptedFrom])).toEqual([
      ['stored', 'A', 'pass', 'stored_result'],
      ['stored', 'B', 'fail', 'stored_result'],
      ['passed', 'A', 'pass', 'baseline_verdict'],
      ['passed', 'C', 'pass', 'baseline_verdict'],
      ['only', 'D', 'fail', 'baseline_verdict'],
    ]);
    expect(plan.skipped.map((s) => [s.label, s.criterion, s.baselineFile])).toEqual([['ambiguous', 'E', '.agent-replay/baselines/ambiguous.json']]);
    expect(plan.skipped[0]?.reason).toContain('which check failed is not known');
    expect(plan.withoutBaseline.map((w) => w.label)).toEqual(['none']);
    const t = plan.targets[0] as CalibrationTarget;
    expect(t.material).toEqual({ kind: 'transcript', turns: baselineTurns(stored) });
  });

  it('numbers the baseline transcript as a run does: the welcome turn 0, message turns from 1', () => {
    expect(baselineTurns(personaBaseline('x', 'pass')).map((t) => [t.index, t.message])).toEqual([[0, null], [1, 'hi']]);
    const noWelcome = { transcript: [{ message: 'hi', reply: 'a', route: null }, { message: 'again', reply: 'b', route: null }] };
    expect(baselineTurns(noWelcome).map((t) => t.index)).toEqual([1, 2]);
  });

  it('counts the other checks of a script from every expectation that is set', () => {
    expect(otherChecks(script('x', { criteria: ['a'] }).expect)).toBe(0);
    expect(otherChecks(script('x', { criteria: ['a'], conversations: ['c'], toolCalled: [{ tool: 't', input: null, match: 'subset' }], maxTurnLatencyMs: 100 }).expect)).toBe(3);
  });

  it('acceptedCriterion prefers the stored result over the verdict', () => {
    const b = personaBaseline('x', 'pass', { model: null, promptVersion: '2', transcriptHash: 'h', criteria: [{ criterion: 'A', threshold: 0.5, score: 0.5, rationale: '' }] });
    expect(acceptedCriterion(b, 'A', false)).toEqual({ accepted: 'pass', from: 'stored_result' });
    expect(acceptedCriterion({ verdict: 'fail' }, 'A', false)).toHaveProperty('unknown');
  });

  it('a repeated item accepted as fail by attempts that passed in part, with no judge result kept, is not read as a fail of the one it keeps (docs/fixtures.md, "Judge reuse")', () => {
    // Acceptance keeps none when its shown attempt passed: the transcript or reply kept may be one the judge passed.
    expect(acceptedCriterion({ verdict: 'fail', attempts: { passed: 2, total: 3 } }, 'A', true)).toEqual({ unknown: FAILED_BY_ATTEMPTS });
    expect(acceptedSingleJudge({ verdict: 'fail', attempts: { passed: 2, total: 3 } }, 'A')).toEqual({ unknown: FAILED_BY_ATTEMPTS });
    // No attempt passed, or run once: the fail is the judge's, as before.
    expect(acceptedCriterion({ verdict: 'fail', attempts: { passed: 0, total: 3 } }, 'A', true)).toEqual({ accepted: 'fail', from: 'baseline_verdict' });
    expect(acceptedSingleJudge({ verdict: 'fail' }, 'A')).toEqual({ accepted: 'fail', from: 'baseline_verdict' });
  });

  it.each([
    ['fixture', 'reply', 'replied'],
    ['persona', 'transcript', 'completed'],
  ] as const)("the %s skipped for it: its next step says what run's acceptance keeps a judge result, not any run with the judge", (kind, what, first) => {
    // Accepted from a run failed by its attempts again while the attempt shown passed, the new baseline keeps none either.
    const one = { criterion: 'C', kind, label: 's', file: 'f.yml', line: 1, baselineFile: '.agent-replay/baselines/s.json', reason: FAILED_BY_ATTEMPTS };
    const c = calibrationOf(summarizeCalibration({ targets: [], skipped: [one], withoutBaseline: [] }, [], null), 0, null);
    const words =
      `(a ${what} accepted unchanged leaves a baseline as it is; a ${what} accepted from a run that again fails by its attempts while the attempt shown (the first that ${first}) passes keeps none either: ` +
      'accept from a run whose attempt shown fails where its attempts fail, or passes where they pass; read the run\'s result first: accepting says its verdict is right';
    expect(renderCalibrationText(c)).toContain(`${words}): rm .agent-replay/baselines/s.json, then`);
    expect(renderCalibrationMarkdown(c)).toContain(escapeInline(words));
    // Such a fixture's judge is its only check (acceptedSingleJudge): no "another check fails" beside it.
    expect(renderCalibrationText(c)).not.toContain('another check fails');
    // Another reason's step is as it was.
    const other = calibrationOf(summarizeCalibration({ targets: [], skipped: [{ ...one, reason: 'which check failed is not known' }], withoutBaseline: [] }, [], null), 0, null);
    expect(renderCalibrationText(other)).not.toContain('fails by its attempts');
  });

  it("acceptedCriterion reads a panel's stored result by its members' majority, as the run decided it (docs/judges.md, \"Panels\")", () => {
    // 0.9, 0.5 and a member with no score: the median 0.7 meets the threshold, but 1 of 3 passed: the run failed it.
    const members = [
      { label: 'a', score: 0.9, rationale: 'yes', reason: null },
      { label: 'b', score: 0.5, rationale: 'no', reason: null },
      { label: 'c', score: null, rationale: null, reason: 'HTTP 503' },
    ];
    const b = personaBaseline('x', 'fail', { model: 'panel: openai/a, openai/b, openai/c', promptVersion: '2', transcriptHash: 'h', criteria: [{ criterion: 'A', threshold: 0.7, score: 0.7, rationale: 'yes', members }] });
    expect(acceptedCriterion(b, 'A', false)).toEqual({ accepted: 'fail', from: 'stored_result' });
  });
});

function target(label: string, criterion: string, accepted: 'pass' | 'fail', threshold = 0.7): CalibrationTarget {
  return { criterion, threshold, kind: 'fixture', label, file: 'f.yml', line: 1, baselineFile: fileOf(label), accepted, acceptedFrom: 'baseline_verdict', material: { kind: 'reply', reply: label } };
}
const ok = (score: number, rationale = `r${score}`): JudgeResult => ({ ok: true, score, rationale });

const bad: JudgeResult = { ok: false, reason: 'no usable score in output: "meh"' };

describe('the figures', () => {
  it('median of odd and even counts, to a millionth', () => {
    expect(median([0.9, 0.1, 0.5])).toBe(0.5);
    expect(median([0.1, 0.2])).toBe(0.15);
    expect(median([])).toBeNull();
  });

  it('a baseline: median of usable scores, spread max - min, judged by the median, straddling within 0.1, unusable answers counted', () => {
    const b = calibrateBaseline(target('a', 'C', 'pass'), [ok(0.6), bad, ok(0.9), ok(0.75)]);
    expect(b).toMatchObject({ scores: [0.6, 0.9, 0.75], notUsable: ['no usable score in output: "meh"'], median: 0.75, spread: 0.3, judged: 'pass', agrees: true, straddling: true, rationale: 'r0.75' });
    const far = calibrateBaseline(target('b', 'C', 'pass'), [ok(0.2)]);
    expect(far).toMatchObject({ median: 0.2, spread: 0, judged: 'fail', agrees: false, straddling: false });
    const edge = calibrateBaseline(target('c', 'C', 'fail'), [ok(0.6)]);
    expect(edge).toMatchObject({ judged: 'fail', agrees: true, straddling: true });
    const none = calibrateBaseline(target('d', 'C', 'pass'), [bad, bad]);
    expect(none).toMatchObject({ median: null, spread: null, judged: null, agrees: null, straddling: false, notUsable: [bad.reason, bad.reason] });
  });

  it("a panel's answer is judged by its members' majority, as a run decides it, not by its median (docs/calibration.md)", () => {
    const member = (score: number | null) => ({ label: `m${score}`, score, rationale: score === null ? null : `r${score}`, reason: score === null ? 'HTTP 503' : null });
    // 0.9, 0.5 and no score: median 0.7 >= 0.7, but only 1 of 3 members passes: a run fails it.
    const panel = (scores: (number | null)[], median: number): JudgeResult => ({ ok: true, score: median, rationale: 'r', members: scores.map(member) });
    const one = calibrateBaseline(target('a', 'C', 'fail'), [panel([0.9, 0.5, null], 0.7)]);
    expect(one).toMatchObject({ median: 0.7, judged: 'fail', agrees: true });
    // Repeated: most answers' verdicts decide (2 fail by majority, 1 pass), whatever the median of scores.
    const three = calibrateBaseline(target('b', 'C', 'pass'), [panel([0.9, 0.5, null], 0.7), panel([0.9, 0.5, null], 0.7), panel([0.9, 0.9, 0.9], 0.9)]);
    expect(three).toMatchObject({ median: 0.7, judged: 'fail', agrees: false });
  });

  it('a criterion groups baselines by text: agreement over usable scores, largest spread, below --min-agreement', () => {
    const items = [
      { criterion: 'C', result: calibrateBaseline(target('a', 'C', 'pass'), [ok(0.9), ok(0.7)]) },
      { criterion: 'D', result: calibrateBaseline(target('x', 'D', 'pass', 0.5), [ok(0.9)]) },
      { criterion: 'C', result: calibrateBaseline(target('b', 'C', 'pass'), [ok(0.1), ok(0.3)]) },
      { criterion: 'C', result: calibrateBaseline(target('c', 'C', 'fail', 0.5), [ok(0.2), ok(0.2)]) },
      { criterion: 'C', result: calibrateBaseline(target('d', 'C', 'fail'), [bad]) },
    ];
    const [c, d] = groupByCriterion(items, 0.7);
    expect(c).toMatchObject({ criterion: 'C', thresholds: [0.5, 0.7], baselines: 4, scored: 3, agreeing: 2, agreement: 0.666667, spread: 0.2, straddling: 1, notUsableAnswers: 1, belowMinAgreement: true });
    expect(c?.items.map((i) => i.label)).toEqual(['a', 'b', 'c', 'd']);
    expect(d).toMatchObject({ criterion: 'D', agreement: 1, belowMinAgreement: false });
    expect(groupByCriterion(items, null)[0]?.belowMinAgreement).toBe(false);
  });

  it('a criterion with no usable score has no agreement and is never below the minimum', () => {
    const [c] = groupByCriterion([{ criterion: 'C', result: calibrateBaseline(target('a', 'C', 'pass'), [bad]) }], 0.9);
    expect(c).toMatchObject({ agreement: null, spread: null, belowMinAgreement: false });
  });

  it('130,000 baselines of one criterion: grouped in one pass, the largest spread without spreading them as arguments', () => {
    const base = calibrateBaseline(target('a', 'C', 'pass'), [ok(0.9), ok(0.7)]);
    const widest = calibrateBaseline(target('b', 'C', 'pass'), [ok(0.9), ok(0.4)]);
    const items = Array.from({ length: 130_000 }, (_, i) => ({ criterion: 'C', result: i === 65_000 ? widest : base }));
    const [c] = groupByCriterion(items, null);
    expect(c).toMatchObject({ criterion: 'C', baselines: 130_000, scored: 130_000, spread: 0.5 });
  });

  it('summarizes a plan with its answers in place', () => {
    const plan = { targets: [target('a', 'C', 'pass'), target('b', 'C', 'fail')], skipped: [], withoutBaseline: [] };
    const s = summarizeCalibration(plan, [[ok(0.9)], [ok(0.9)]], null);
    expect(s.criteria[0]).toMatchObject({ agreeing: 1, scored: 2, agreement: 0.5 });
  });

  it('an agreement short of every baseline never reads 100% (nor one above none 0%), and the minimum keeps its decimals', () => {
    const targets = Array.from({ length: 200 }, (_, i) => target(`t${i}`, 'C', i === 0 ? 'fail' : 'pass'));
    const figures = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, targets.map(() => [ok(0.9)]), 0.995);
    expect(figures.criteria[0]).toMatchObject({ agreeing: 199, scored: 200, agreement: 0.995, belowMinAgreement: false });
    const low = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, targets.map((_, i) => [ok(i === 0 ? 0.1 : 0.2)]), null);
    const calibration = (f: typeof figures, minAgreement: number | null): Calibration => calibrationOf(f, 200, minAgreement);
    const text = renderCalibrationText(calibration(figures, 0.995));
    // Beside the minimum 99.5%, which it meets, 199/200 reads 99.5% (99% would read as short of it).
    expect(text).toContain(' 99.5% (199/200) ');
    expect(text).toContain('Every criterion with a score agrees at least 99.5% (--min-agreement 0.995).');
    expect(renderCalibrationMarkdown(calibration(figures, 0.995))).toContain('99.5% \\(199/200\\)');
    expect(renderCalibrationText(calibration(figures, null))).toContain(' 99% (199/200) ');
    expect(renderCalibrationText(calibration(low, null))).toContain('1% (1/200)');
  });

  it('the percent is never on the other side of --min-agreement than the fraction: 47/52 against 0.9035 reads 90.38%, not 90%', () => {
    // 47/52 = 0.903846...: at or above 0.9035 (90.35%), and Math.round(90.38) is 90, under it.
    const targets = Array.from({ length: 52 }, (_, i) => target(`t${i}`, 'C', i < 5 ? 'fail' : 'pass'));
    const figures = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, targets.map(() => [ok(0.9)]), 0.9035);
    expect(figures.criteria[0]).toMatchObject({ agreeing: 47, scored: 52, belowMinAgreement: false });
    const text = renderCalibrationText(calibrationOf(figures, 52, 0.9035));
    expect(text).toContain(' 90.38% (47/52) ');
    expect(text).toContain('Every criterion with a score agrees at least 90.35% (--min-agreement 0.9035).');
    // Without a minimum, the whole percent.
    expect(renderCalibrationText(calibrationOf(summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, targets.map(() => [ok(0.9)]), null), 52, null))).toContain(' 90% (47/52) ');
  });

  it('a spread is rounded half up as written: 0.9 - 0.595 = 0.305 reads 0.31 (toFixed gave 0.30, under "above 0.3")', () => {
    const b = calibrateBaseline(target('a', 'C', 'pass'), [ok(0.9), ok(0.595)]);
    expect(b.spread).toBe(0.305);
    const [c] = groupByCriterion([{ criterion: 'C', result: b }], null);
    const figures = { criteria: [c as NonNullable<typeof c>], skipped: [], withoutBaseline: [] };
    expect(renderCalibrationText(calibrationOf(figures, 1, null))).toMatch(/ {2}C +1 +100% \(1\/1\) +0\.31 +1\n/);
    expect(renderCalibrationMarkdown(calibrationOf(figures, 1, null))).toContain('| C | 1 | 100% \\(1/1\\) | 0.31 | 1 |');
  });

  it('a median is rounded half up as the spread is: (0.123 + 0.124) / 2 = 0.1235 reads 0.124 (toFixed gave 0.123)', () => {
    const b = calibrateBaseline(target('a', 'C', 'pass'), [ok(0.123), ok(0.124)]);
    expect(b.median).toBe(0.1235);
    const [c] = groupByCriterion([{ criterion: 'C', result: b }], null);
    const figures = { criteria: [c as NonNullable<typeof c>], skipped: [], withoutBaseline: [] };
    expect(renderCalibrationText(calibrationOf(figures, 1, null))).toContain('accepted pass, judged fail: median 0.124 (2 scores, 0.123 .. 0.124) against 0.7\n');
    expect(renderCalibrationMarkdown(calibrationOf(figures, 1, null))).toContain('accepted pass, judged fail\\: median 0.124 \\(2 scores, 0.123 .. 0.124\\) against 0.7');
  });

  it('a median is never shown on the other side of its threshold: 0.6999 against 0.7 reads 0.6999, not 0.7 beside "judged fail"', () => {
    const targets = [target('a', 'C', 'pass'), target('b', 'C', 'pass'), target('c', 'C', 'pass')];
    const figures = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, [[ok(0.6999)], [ok(0.69999)], [ok(0.69949)]], null);
    const text = renderCalibrationText(calibrationOf(figures, 3, null));
    expect(text).toContain(`    ${fileOf('a')}  accepted pass, judged fail: 0.6999 against 0.7\n`);
    expect(text).toContain(`    ${fileOf('b')}  accepted pass, judged fail: 0.69999 against 0.7\n`);
    // Three decimals where they stay below it.
    expect(text).toContain(`    ${fileOf('c')}  accepted pass, judged fail: 0.699 against 0.7\n`);
    expect(renderCalibrationMarkdown(calibrationOf(figures, 3, null))).toContain('accepted pass, judged fail\\: 0.6999 against 0.7');
  });

  it('baselines under one cause each with a text of its own: the first 20 on their lines, the rest named in one line, on the terminal and in markdown', () => {
    const targets = Array.from({ length: 23 }, (_, i) => target(`t${i}`, 'C', 'pass'));
    const prose = (i: number): JudgeResult => ({ ok: false, reason: `no usable score in output: "prose ${i}"`, answered: true });
    const c = calibrationOf(summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, targets.map((_, i) => [prose(i)]), null), 23, null);
    const lines = renderCalibrationText(c).split('\n');
    const from = lines.indexOf('No usable score (23): counted, never a score; left out of the agreement');
    expect(lines.slice(from + 1, from + 3)).toEqual(['  all 23: the judge answered without a usable score', `    ${fileOf('t0')}  "C": no usable score in output: "prose 0"`]);
    expect(lines.filter((l) => l.includes(': no usable score in output: "prose '))).toHaveLength(20);
    expect(lines.slice(from + 22, from + 24)).toEqual(['    … and 3 more, each with a reason of its own (calibration.json, written with --out, keeps every reason):', '      "C": .agent-replay/baselines/: t20.json, t21.json, t22.json']);
    const md = renderCalibrationMarkdown(c);
    expect(md).toContain('### No usable score (23)\n\n**all 23\\: the judge answered without a usable score**\n\n- `.agent-replay/baselines/t0.json`: C: no usable score in output\\: "prose 0"\n');
    expect(md).toContain('\n- … and 3 more, each with a reason of its own \\(calibration.json, written with --out, keeps every reason\\): C: `.agent-replay/baselines/`: `t20.json`, `t21.json`, `t22.json`\n');
  });

  it("the Straddling list's count is the table's: a straddling baseline that disagrees is counted there and listed under Disagreements", () => {
    // a: accepted pass, judged 0.75 (straddles, agrees); b: accepted fail, judged 0.72 (straddles, disagrees).
    const targets = [target('a', 'C', 'pass'), target('b', 'C', 'fail')];
    const figures = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, [[ok(0.75)], [ok(0.72)]], null);
    expect(figures.criteria[0]).toMatchObject({ straddling: 2 });
    const c = calibrationOf(figures, 2, null);
    const text = renderCalibrationText(c);
    expect(text).toContain('Straddling (2): the score sits within 0.1 of the threshold, so a small change flips it; 1 more is listed under Disagreements\n');
    expect(text.split('\n').filter((l) => l.includes(fileOf('b')))).toHaveLength(1);
    const md = renderCalibrationMarkdown(c);
    expect(md).toContain('### Straddling (2)\n\nThe score sits within 0.1 of the threshold; 1 more is listed under Disagreements.\n');
  });

  it('a criterion of any length is cut, saying so, in every place the markdown names it (a job summary over its limit is dropped whole)', () => {
    // 200,000 characters: the criterion is the suite's text. a: straddles and agrees; b: disagrees; c: skipped.
    const long = `The agent ${'politely '.repeat(22_222)}apologises`;
    const targets = [target('a', long, 'pass'), target('b', long, 'fail')];
    const skipped = [{ ...target('c', long, 'pass'), reason: 'the fixture failed when accepted' }];
    const c = calibrationOf(summarizeCalibration({ targets, skipped, withoutBaseline: [] }, [[ok(0.75)], [ok(0.9)]], null), 2, null);
    const md = renderCalibrationMarkdown(c);
    const shown = escapeInline(`${long.slice(0, 159)}…`);
    expect(md).toContain(`| ${shown} | 2 |`);
    expect(md).toContain(`- **${shown}** (`);
    expect(md).toContain(`- \`${fileOf('a')}\`: ${shown}: `);
    expect(md).toContain(`- \`${fileOf('c')}\`: ${shown}: the fixture failed when accepted`);
    expect(md.length).toBeLessThan(10_000);
  });

  it("the table's columns line up on a terminal with a criterion in Japanese, with an emoji or an accent", () => {
    const criteria = ['返金は30日以内と答える', 'Polite 👍🏽 reply', 'Re\u0301ponse polie', 'Plain'];
    const targets = criteria.map((c, i) => target(`t${i}`, c, 'pass'));
    const figures = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, targets.map(() => [ok(0.9)]), null);
    const lines = renderCalibrationText(calibrationOf(figures, 4, null)).split('\n');
    const row = (c: string): string => lines.find((l) => l.startsWith(`  ${c}`)) ?? '';
    // Each criterion padded to the widest, 返金は30日以内と答える: 10 wide characters and 2 digits, 22 columns.
    expect(row('返金は30日以内と答える')).toMatch(/^ {2}返金は30日以内と答える {2}1 /);
    expect(row('Polite')).toMatch(/^ {2}Polite 👍🏽 reply {9}1 /);
    expect(row('Re\u0301ponse')).toMatch(/^ {2}Re\u0301ponse polie {11}1 /);
    expect(row('Plain')).toMatch(/^ {2}Plain {19}1 /);
  });

  it("an agent's or judge's control characters are shown as escapes on the terminal, as the run's summary shows them, and dropped in markdown", () => {
    // docs/security.md, "Agent text is data": a criterion with a bidi override, a rationale that clears the screen, an unusable answer in red.
    const targets = [target('a', 'Polite \u202eylno', 'pass'), target('b', 'Polite \u202eylno', 'pass')];
    const figures = summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, [[ok(0.1, 'rude\u001b[2J')], [{ ok: false, reason: 'no score: \u001b[31mmeh' }]], 0.9);
    const c = calibrationOf(figures, 2, 0.9);
    const text = renderCalibrationText(c);
    expect(text).toContain('  "Polite \\u202eylno" (');
    expect(text).toContain('      judge: rude\\u001b[2J\n');
    expect(text).toContain(': no score: \\u001b[31mmeh\n');
    expect(text).toContain('below --min-agreement 0.9 (90%): "Polite \\u202eylno"');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
    const md = renderCalibrationMarkdown(c);
    expect(md).not.toContain('\u001b');
    expect(md).not.toContain('\u202e');
    expect(md).not.toContain('u001b');
    expect(md).toContain('rude\\[2J');
  });

  it("a baseline's path with control characters is escaped on every line that names it: Disagreements, Straddling and a single Skipped, as the grouped lists escape it", () => {
    // A folder name is the repository's text: an escape in it must not clear the screen or turn the terminal red.
    const odd = (label: string): string => `.agent-replay/baselines/\u001b[2J${label}\u202e.json`;
    const at = (t: CalibrationTarget): CalibrationTarget => ({ ...t, baselineFile: odd(t.label) });
    // a disagrees (accepted pass, 0.1); b straddles (accepted pass, 0.75); one skipped.
    const targets = [at(target('a', 'C', 'pass')), at(target('b', 'C', 'pass'))];
    const skipped = [{ criterion: 'C', kind: 'fixture' as const, label: 's', file: 'f.yml', line: 1, baselineFile: odd('s'), reason: 'which check failed is not known' }];
    const c = calibrationOf(summarizeCalibration({ targets, skipped, withoutBaseline: [] }, [[ok(0.1)], [ok(0.75)]], null), 2, null);
    const text = renderCalibrationText(c);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u202e');
    const shown = (label: string): string => `.agent-replay/baselines/\\u001b[2J${label}\\u202e.json`;
    expect(text).toContain(`\n    ${shown('a')}  accepted pass, judged fail: 0.1 against 0.7\n`);
    expect(text).toContain(`\n  ${shown('b')}  "C"  accepted pass, judged pass: 0.75 against 0.7\n`);
    expect(text).toContain(`\n  ${shown('s')}  "C": which check failed is not known\n`);
    const md = renderCalibrationMarkdown(c);
    expect(md).not.toContain('\u001b');
    expect(md).not.toContain('\u202e');
    for (const label of ['a', 'b', 's']) expect(md).toContain(`- \`.agent-replay/baselines/[2J${label}.json\`: `);
  });

  it("the Skipped next step's rm names a path with control characters as it is: pasted into bash it removes that file, in the terminal and in markdown", async () => {
    // Before, the path was quoted for the shell and then escaped for the terminal: rm '.../\u001b[2Js.json' named no file.
    const dir = await mkdtemp(join(tmpdir(), 'calib3-'));
    try {
      const odd = `.agent-replay/base\tlines/\u001b[2Js\u202e it's \\ é.json`;
      await mkdir(join(dir, '.agent-replay', 'base\tlines'), { recursive: true });
      await writeFile(join(dir, odd), '{}');
      const skipped = [{ criterion: 'C', kind: 'fixture' as const, label: 's', file: 'f.yml', line: 1, baselineFile: odd, reason: 'which check failed is not known' }];
      const c = { ...calibrationOf(summarizeCalibration({ targets: [], skipped, withoutBaseline: [] }, [], null), 0, null), suite: 'suites/\u001bx' };
      const text = renderCalibrationText(c);
      expect(text).not.toContain('\u001b');
      const word = String.raw`$'.agent-replay/base\011lines/\033[2Js\342\200\256 it\'s \\ é.json'`;
      expect(text).toContain(`: rm ${word}, then npx agent-replay run --dir $'suites/\\033x' --only s, then npx agent-replay accept --dir $'suites/\\033x'\n`);
      // Pasted as printed, the command removes the real file.
      const rmLine = /: (rm .*), then npx agent-replay run/.exec(text)?.[1] ?? '';
      execFileSync('bash', ['-c', rmLine], { cwd: dir });
      await expect(readFile(join(dir, odd))).rejects.toThrow(/ENOENT/);
      // Markdown escapes the same word for display (its backslashes and quotes shown as written), nothing dropped.
      expect(renderCalibrationMarkdown(c)).toContain(escapeInline(`rm ${word}, then`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a clipped rationale never ends in half an escape', () => {
    // The rationale is cut at 160 characters as shown; its escape straddles the cut.
    const rationale = `${'x'.repeat(155)}\u001b[2J and more`;
    const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass'), target('b', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[ok(0.1, rationale)], [ok(0.9)]], 0.9);
    const text = renderCalibrationText(calibrationOf(figures, 2, 0.9));
    const judgeLine = text.split('\n').find((l) => l.startsWith('      judge: '));
    expect(judgeLine).toBe(`      judge: ${'x'.repeat(155)}…`);
  });

  it("an answer cut at the model's token limit is listed with the limit's fix, not the prompt-following one (docs/judges.md, \"What the judge reads\")", () => {
    const cut: JudgeResult = { ok: false, reason: 'the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read', answered: true };
    const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass'), target('b', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[cut], [cut]], null);
    const text = renderCalibrationText(calibrationOf(figures, 2, null));
    expect(text).toContain(`  fix: ${JUDGE_CUT_HINT}\n`);
    expect(text).not.toContain(JUDGE_NO_SCORE_HINT);
  });

  it("a panel's members cut at their token limit, or answering without a score, get the fixes a run gives them (docs/judges.md, \"Panels\")", async () => {
    // A real panel of three over one loopback judge server: member K answers by the K-th letter (L cut at the limit, U prose, P 0.9).
    const server = await startPanelJudge();
    const panel = createPanelJudge(['m0', 'm1', 'm2'].map((model) => createJudge({ provider: 'openai', baseUrl: server.url, model, apiKey: 'sk-k', timeoutMs: 5_000, retries: 0, backoffMs: 0, concurrency: 2, label: null })));
    try {
      const cut = await panel.score('split LLP', 'the reply');
      const mixed = await panel.score('split LUP', 'the reply');
      const panelCutFix = JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of those members' models at their endpoints (judge.panel, else judge.model)");
      const allCut = renderCalibrationText(calibrationOf(summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[cut]], null), 1, null));
      expect(allCut).toContain('"C": panel: 2 of 3 members gave no usable score (2 usable needed): openai m0: the answer was cut at the model');
      expect(allCut).toContain(`  fix: ${panelCutFix}\n`);
      expect(allCut).not.toContain(JUDGE_NO_SCORE_HINT);
      const both = summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[mixed]], null);
      // One member cut: its fix says so (it read "of those members' models at their endpoints").
      const oneCutFix = JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of that member's model at its endpoint (judge.panel, else judge.model)");
      // The members' model is their own, else the judge's (it read "use a judge model that follows the prompt, ...").
      expect(PANEL_NO_SCORE_HINT).toBe(JUDGE_NO_SCORE_HINT.replace('follows the prompt,', 'follows the prompt (judge.panel, else judge.model),'));
      expect(renderCalibrationText(calibrationOf(both, 1, null))).toContain(`  fix: ${PANEL_NO_SCORE_HINT}\n  fix: ${oneCutFix}\n`);
      expect(renderCalibrationMarkdown(calibrationOf(both, 1, null))).toContain(`Fix: ${escapeInline(oneCutFix)}`);
      expect(renderCalibrationText(calibrationOf(both, 1, null))).not.toContain('those members');
      // Answers of one member cut and of two: the limit's fix once, said of those members (it holds for both).
      const ofBoth = renderCalibrationText(calibrationOf(summarizeCalibration({ targets: [target('a', 'C', 'pass'), target('b', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[mixed], [cut]], null), 2, null));
      expect(ofBoth).toContain(`  fix: ${PANEL_NO_SCORE_HINT}\n  fix: ${panelCutFix}\n`);
      expect(ofBoth).not.toContain(oneCutFix);
      // One member not reached (HTTP 503), one answering in prose: both fixes, as each member's kind has its own.
      const split = await panel.score('split HUP', 'the reply');
      const unreachedFix = causeOf({ errored: false, verdict: 'not_evaluated', detail: 'judge unreachable: HTTP 503' } as Parameters<typeof causeOf>[0], null)?.hint as string;
      const twoWays = renderCalibrationText(calibrationOf(summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[split]], null), 1, null));
      expect(twoWays).toContain(`  fix: ${PANEL_NO_SCORE_HINT}\n  fix: ${unreachedFix}\n`);
    } finally {
      await panel.close();
      await server.close();
    }
  });

  it('a judge or a panel not reached (HTTP 503, a timeout) gets the fix a run\'s cause gives it, once, on the terminal and in markdown', () => {
    const down: JudgeResult = { ok: false, reason: 'HTTP 503 after 3 attempts' };
    const slow: JudgeResult = { ok: false, reason: 'no answer from the judge within 30000 ms (2 attempts)' };
    const panelDown: JudgeResult = { ok: false, reason: 'panel: 2 of 3 members gave no usable score (2 usable needed): openai a: HTTP 503; openai b: HTTP 503' };
    // The run's fix for the same reason, as its cause reads a judge check's detail.
    const runFix = causeOf({ errored: false, verdict: 'not_evaluated', detail: `judge unreachable: ${down.reason}` } as Parameters<typeof causeOf>[0], null)?.hint;
    expect(runFix).toBe("the judge's endpoint failed: see its status or log, and run it again");
    // A timeout's fix is its own (judge.timeoutMs), printed once too.
    const slowFix = causeOf({ errored: false, verdict: 'not_evaluated', detail: `judge unreachable: ${slow.reason}` } as Parameters<typeof causeOf>[0], null)?.hint;
    expect(slowFix).toMatch(/^raise judge\.timeoutMs/);
    const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass'), target('b', 'C', 'pass'), target('c', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[down], [slow], [panelDown]], null);
    const text = renderCalibrationText(calibrationOf(figures, 3, null));
    expect(text.split(`  fix: ${runFix}\n`)).toHaveLength(2);
    // In the CLI's words, as a run's terminal says it: --judge-url, not the Action's judge-base-url input.
    expect(text.split(`  fix: ${cliWords(slowFix as string)}\n`)).toHaveLength(2);
    const md = renderCalibrationMarkdown(calibrationOf(figures, 3, null));
    expect(md.split(`Fix: ${escapeInline(runFix as string)}`)).toHaveLength(2);
    // A model that answered without a score is not told to check the address: only its own fix.
    const own = summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[bad]], null);
    expect(renderCalibrationText(calibrationOf(own, 1, null))).not.toContain(runFix);
  });

  it('a judge model that declined gets the fix a run\'s cause gives it (the no-score one), alone or as a panel member', () => {
    const declined: JudgeResult = { ok: false, reason: 'the judge model declined: "I cannot grade this."', answered: true };
    const runFix = causeOf({ errored: false, verdict: 'not_evaluated', detail: `judge gave no usable answer: ${declined.reason}` } as Parameters<typeof causeOf>[0], null)?.hint;
    expect(runFix).toBe(JUDGE_NO_SCORE_HINT);
    const panelDeclined: JudgeResult = { ok: false, reason: 'panel: 2 of 3 members gave no usable score (2 usable needed): openai a: the judge model declined: "no"; openai b: the judge model declined: "no"', answered: true };
    // A panel's members' model is theirs, else the judge's; 2 of them, each its own: PANEL_NO_SCORE_HINTS (it read "a judge model that follows" of both).
    for (const [answer, fix] of [[declined, JUDGE_NO_SCORE_HINT], [panelDeclined, PANEL_NO_SCORE_HINTS]] as const) {
      const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[answer]], null);
      const text = renderCalibrationText(calibrationOf(figures, 1, null));
      expect(text.split(`  fix: ${fix}\n`)).toHaveLength(2);
      expect(text).not.toContain('judge.timeoutMs');
      expect(renderCalibrationMarkdown(calibrationOf(figures, 1, null))).toContain(`Fix: ${escapeInline(fix)}`);
    }
  });

  // A fix to copy (the proxy's credentials' form) in the markdown, a step summary: copied as written,
  // with no invisible word joiner after its `@` (report/escape.ts, escapeFix; docs/security.md).
  it('a fix in the markdown is copied as written: http://user:password@host:port in code, no word joiner', () => {
    const refused: JudgeResult = { ok: false, reason: 'the proxy refused the tunnel (CONNECT): HTTP 407' };
    const md = renderCalibrationMarkdown(calibrationOf(summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[refused]], null), 1, null));
    expect(md).toContain('Fix: the proxy wants credentials, or refused those given\\: check the user and password in HTTPS\\_PROXY \\(`http://user:password@host:port`\\)');
    expect(md).not.toContain('@&#8288;host');
  });

  it('a connection the judge dropped after it gave another baseline a usable score reads run-again, not its settings; with no score at all, its log or a proxy in front of it', () => {
    const dropped: JudgeResult = { ok: false, reason: 'the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET) after 3 attempts' };
    const targets = [target('a', 'C', 'pass'), target('b', 'C', 'pass')];
    const answered = renderCalibrationText(calibrationOf(summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, [[ok(0.9)], [dropped]], null), 2, null));
    expect(answered).toContain(
      '  fix: the judge answered other calls of this calibration, so --judge-url (judge.baseUrl), judge.model and the judge key work: it, or a gateway or proxy in front of it, closed these connections (a restart, or connections dropped under load): run it again, and lower judge.concurrency if it recurs\n',
    );
    expect(answered).not.toContain('fix: check --judge-url');
    const md = renderCalibrationMarkdown(calibrationOf(summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, [[ok(0.9)], [dropped]], null), 2, null));
    expect(md).toContain(`Fix: ${escapeInline('the judge answered other calls of this calibration, so --judge-url (judge.baseUrl)')}`);
    // No usable score anywhere: nothing says its settings work.
    const none = renderCalibrationText(calibrationOf(summarizeCalibration({ targets, skipped: [], withoutBaseline: [] }, [[dropped], [dropped]], null), 2, null));
    expect(none).toContain("  fix: see the judge's log for a crash on the request, or a proxy in front of it that closes connections\n");
    expect(none).not.toContain('answered other calls');
  });

  it('answers agent-replay could not ask for ("judge call failed: ...") are listed with the fix a run gives them, on the terminal and in markdown', () => {
    const failed: JudgeResult = { ok: false, reason: 'judge call failed: no boundary could be drawn' };
    const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass'), target('b', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[failed], [bad]], null);
    const text = renderCalibrationText(calibrationOf(figures, 2, null));
    expect(text).toContain(`"C": judge call failed: no boundary could be drawn\n`);
    expect(text).toContain(`  fix: ${JUDGE_NO_SCORE_HINT}\n  fix: ${CALL_FAILED_HINT}\n`);
    const md = renderCalibrationMarkdown(calibrationOf(figures, 2, null));
    expect(md).toContain(`\n\nFix: ${escapeInline(CALL_FAILED_HINT)}\n`);
    const own = summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[bad]], null);
    expect(renderCalibrationText(calibrationOf(own, 1, null))).not.toContain(CALL_FAILED_HINT);
  });

  it('a judge that fell back to the plain prompt says so in one line, as a run does but for the calibration (no run); a structured one says nothing', () => {
    const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[ok(0.9)]], null);
    const plain = calibrationOf(figures, 1, null);
    plain.judge.structuredOutput = { structured: false, reason: "HTTP 400: 'response_format' of type 'json_schema' is not supported" };
    expect(renderCalibrationText(plain).split('\n')[1]).toBe(
      "judge: the endpoint refused structured output (HTTP 400: 'response_format' of type 'json_schema' is not supported); the judge used the plain prompt for the rest of the calibration",
    );
    expect(renderCalibrationMarkdown(plain)).toContain(
      "\n\njudge: the endpoint refused structured output (`HTTP 400: 'response_format' of type 'json_schema' is not supported`); the judge used the plain prompt for the rest of the calibration\n",
    );
    const structured = calibrationOf(figures, 1, null);
    structured.judge.structuredOutput = { structured: true };
    expect(renderCalibrationText(structured)).not.toContain('structured output');
    expect(renderCalibrationMarkdown(structured)).not.toContain('structured output');
  });

  it('the headline names where the judge was asked: a panel\u2019s addresses each once, a token in a path hidden; nothing in a file from before it was kept', () => {
    const figures = summarizeCalibration({ targets: [target('a', 'C', 'pass')], skipped: [], withoutBaseline: [] }, [[ok(0.9)]], null);
    const c = calibrationOf(figures, 1, null);
    // A panel of three, two of them at a gateway whose path carries a key (a file written before such a segment was hidden).
    c.judge.endpoint = 'https://gw.example/key/sk4f9aC2b7D1e8F3a6B0/v1, https://gw.example/key/sk4f9aC2b7D1e8F3a6B0/v1, https://api.anthropic.com/v1';
    const head = renderCalibrationText(c).split('\n')[0];
    expect(head).toBe('calibrate: 1 criterion, 1 baseline re-judged once each by openai m1 at https://gw.example/key/***/v1, https://api.anthropic.com/v1: 1 judge call, ≈ $0.005 estimated');
    expect(renderCalibrationMarkdown(c)).not.toContain('sk4f9aC2');
    expect(renderCalibrationMarkdown(c)).toContain('api.anthropic.com');
    delete c.judge.endpoint;
    expect(renderCalibrationText(c).split('\n')[0]).toBe('calibrate: 1 criterion, 1 baseline re-judged once each by openai m1: 1 judge call, ≈ $0.005 estimated');
  });

  it('the estimate: baselines x repeat judge calls at judgeCallUsd, against the cap', () => {
    expect(estimateCalibration(3, 2, { judgeCallUsd: 0.005, capUsd: 0.1 }, false)).toEqual({ calls: 6, baselines: 3, repeat: 2, judgeCallUsd: 0.005, usd: 0.03, capUsd: 0.1, aboveCap: false, confirmed: false });
    expect(estimateCalibration(3, 1, { judgeCallUsd: 0.5, capUsd: 1 }, false).aboveCap).toBe(true);
    expect(estimateCalibration(2, 1, { judgeCallUsd: 0.5, capUsd: 1 }, false).aboveCap).toBe(false);
  });
});

describe('calibration.json', () => {
  it('every field of the schema is described in docs/calibration.md, and a malformed file is refused naming the field', async () => {
    const doc = await readFile('docs/calibration.md', 'utf8');
    const section = doc.slice(doc.indexOf('## calibration.json'));
    for (const key of Object.keys(calibrationSchema().shape)) expect(section, key).toContain(`\`${key}`);
    const item = calibrationSchema().shape.criteria.element.shape.items.element.shape;
    for (const key of Object.keys(item)) expect(section, key).toContain(key);
    expect(() => parseCalibration('{"calibrationVersion": 2}', 'c.json')).toThrow(/^c\.json: not a calibration\.json of version 1: calibrationVersion: /);
    expect(() => parseCalibration('nope', 'c.json')).toThrow(/^c\.json: not JSON/);
  });
});
