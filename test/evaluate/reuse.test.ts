// Judge reuse (docs/fixtures.md, "Judge reuse"), the pure rules: what acceptance keeps, when a kept
// result stands for a new reply, and how its source is named.

import { beforeAll, describe, expect, it } from 'vitest';
import { baselineJudgeOf, decideAcceptance, personaBaselineJudgeOf, reusableCriterion, reusableJudge, reusedCount, reuseWords } from '../../src/evaluate/index.js';
import type { Baseline, Check, JudgeFingerprint, PersonaBaseline } from '../../src/types.js';
import { checkBaselineFile, serializeBaseline } from '../../src/suite/baselines.js';
import { loadYamlPackage } from '../../src/suite/yaml/package.js';

const FP: JudgeFingerprint = { model: 'openai/m', promptVersion: '1', criteria: [{ criterion: 'polite', threshold: 0.7 }] };
const stored = (over: Partial<Baseline> = {}): Baseline => ({
  label: 'a',
  reply: 'Hello.',
  route: null,
  verdict: 'pass',
  judge: { score: 0.9, rationale: 'kind', fingerprint: FP },
  acceptedAt: '2026-11-30T10:00:00.000Z',
  commit: 'abcdef0123456789abcdef0123456789abcdef01',
  ...over,
});

describe('reusableJudge', () => {
  const same = { sent: 'Hello.', recorded: 'Hello.' };
  it('reuses only a byte-identical, unredacted reply under the same fingerprint', () => {
    expect(reusableJudge(stored(), same, FP)).toEqual({ score: 0.9, rationale: 'kind', fingerprint: FP });
    expect(reusableJudge(stored(), { sent: 'Hello!', recorded: 'Hello!' }, FP)).toBeNull();
    expect(reusableJudge(stored(), { sent: 'Hello. ', recorded: 'Hello. ' }, FP)).toBeNull();
    // Redaction made the reply look like the baseline's: never reused.
    expect(reusableJudge(stored({ reply: 'token ***' }), { sent: 'token s3cret', recorded: 'token ***' }, FP)).toBeNull();
  });

  it('needs a stored result and the same model, prompt version, criterion and threshold', () => {
    const { judge: _none, ...older } = stored();
    expect(reusableJudge(older, same, FP)).toBeNull();
    expect(reusableJudge(null, same, FP)).toBeNull();
    expect(reusableJudge(stored(), same, null)).toBeNull();
    expect(reusableJudge(stored(), same, { ...FP, model: 'openai/other' })).toBeNull();
    expect(reusableJudge(stored(), same, { ...FP, promptVersion: '2' })).toBeNull();
    expect(reusableJudge(stored(), same, { ...FP, criteria: [{ criterion: 'polite', threshold: 0.71 }] })).toBeNull();
    expect(reusableJudge(stored(), same, { ...FP, criteria: [{ criterion: 'Polite', threshold: 0.7 }] })).toBeNull();
  });
});

describe('acceptance keeps the judge result', () => {
  const record = { label: 'a', errored: false as const, verdict: 'pass' as const, reply: 'Hello.', route: null, baseline: null, score: 0.9, rationale: 'kind', judgeFingerprint: FP };

  it('writes score, rationale and fingerprint with a judged reply, none without a score', () => {
    const d = decideAcceptance(record, 'T', 'c');
    expect(d).toEqual({ kind: 'accept', baseline: { label: 'a', reply: 'Hello.', route: null, verdict: 'pass', judge: { score: 0.9, rationale: 'kind', fingerprint: FP }, acceptedAt: 'T', commit: 'c' } });
    expect(baselineJudgeOf({ ...record, score: null })).toBeNull();
    expect(baselineJudgeOf({ ...record, judgeFingerprint: null })).toBeNull();
    expect(baselineJudgeOf({ score: 0.9, rationale: 'kind' })).toBeNull();
    expect(baselineJudgeOf({ ...record, score: 1.5 })).toBeNull();
  });

  it('is unchanged for the same reply and fingerprint, or when only the judge result would be added', () => {
    expect(decideAcceptance(record, 'T', 'c', stored({ judge: { score: 0.8, rationale: 'other run', fingerprint: FP } }))).toEqual({ kind: 'unchanged' });
    const { judge: _none, ...older } = stored();
    expect(decideAcceptance(record, 'T', 'c', older)).toEqual({ kind: 'unchanged' });
  });

  it('rewrites a baseline whose judge result was judged under another fingerprint', () => {
    const d = decideAcceptance(record, 'T', 'c', stored({ judge: { score: 0.9, rationale: 'kind', fingerprint: { ...FP, model: 'openai/old' } } }));
    expect(d.kind).toBe('accept');
    expect(d.kind === 'accept' && d.baseline.judge?.fingerprint.model).toBe('openai/m');
  });
});

describe('what acceptance keeps loads', () => {
  // The loader places a refusal at its line with the `yaml` package.
  beforeAll(loadYamlPackage);
  const record = { label: 'a', errored: false as const, reply: 'Hello.', route: null, baseline: null, rationale: 'kind', judgeFingerprint: FP };
  const written = (r: Parameters<typeof decideAcceptance>[0]): Baseline => {
    const d = decideAcceptance(r, 'T', 'c');
    if (d.kind !== 'accept') throw new Error(`not accepted: ${JSON.stringify(d)}`);
    return d.baseline;
  };
  const loadErrors = (b: Baseline): string[] => checkBaselineFile('b/a.json', 'a', serializeBaseline(b)).errors.map((e) => e.message);

  it("keeps a list's passing judge beside its failed check, and the loader reads it", () => {
    // assert: [{ contains: "30 days" }, { judge: polite }]: contains failed, the judge passed.
    const list = { kind: 'all' as const, assertions: [{ kind: 'contains' as const, value: '30 days' }, { kind: 'judge' as const, criterion: 'polite', threshold: 0.7 }] };
    const b = written({ ...record, assertion: list, verdict: 'fail', score: 0.9 });
    expect(b.judge?.score).toBe(0.9);
    expect(loadErrors(b)).toEqual([]);
    // A lone judge that passed beside a fail is a repeated item's shown attempt, not its verdict: none is kept.
    const lone = written({ ...record, assertion: list.assertions[1], verdict: 'fail', score: 0.9, repeat: { count: 3, minPass: 2, passed: 1, flaky: true } } as never);
    expect(lone.judge).toBeUndefined();
    // Nor does a list failed by its attempts whose shown attempt passed every check: the judge's pass
    // stands beside no failed check, and kept it would pass every later attempt that replies it again.
    const attempt = (verdict: 'pass' | 'fail' | null, errored = false) => ({ errored, verdict, reply: errored ? null : 'Hello.' });
    const tallied = written({ ...record, assertion: list, verdict: 'fail', score: 0.9, attempts: [attempt(null, true), attempt('pass'), attempt('fail')] } as never);
    expect(tallied.judge).toBeUndefined();
    // One whose shown attempt failed its other check keeps the judge's pass, as a list run once does.
    expect(written({ ...record, assertion: list, verdict: 'fail', score: 0.9, attempts: [attempt('fail'), attempt('pass'), attempt('fail')] } as never).judge?.score).toBe(0.9);
  });

  it("keeps no judge for a repeated item passed by its tally while its shown attempt's judge failed", () => {
    const b = written({ ...record, verdict: 'pass', score: 0.4, repeat: { count: 3, minPass: 2, passed: 2, flaky: true } } as never);
    expect(b.judge).toBeUndefined();
    expect(loadErrors(b)).toEqual([]);
    const panel = written({ ...record, verdict: 'pass', score: 0.9, members: [
        { label: 'openai/a', score: 0.9, rationale: 'ok', reason: null },
        { label: 'openai/b', score: 0.2, rationale: 'no', reason: null },
        { label: 'openai/c', score: 0.1, rationale: 'no', reason: null },
      ] } as never);
    expect(panel.judge).toBeUndefined();
  });

  it("a persona script keeps its passing criteria beside a failed check, and drops a failed criterion beside a pass", () => {
    const criterion = (expected: string, score: number): Check => ({ kind: 'criterion', status: score >= 0.7 ? 'pass' : 'fail', detail: '', expected, observed: null, score, threshold: 0.7, rationale: 'r' });
    const terminal: Check = { kind: 'terminal', status: 'fail', detail: '', expected: 'finish', observed: 'handoff' };
    const fp = { judgeFingerprint: FP, transcriptHash: 'h1' };
    // A failing deterministic check beside passing criteria: a fail that keeps both scores.
    expect(personaBaselineJudgeOf({ ...fp, verdict: 'fail', checks: [terminal, criterion('polite', 0.9), criterion('brief', 0.8)] })?.criteria.map((c) => c.criterion)).toEqual(['polite', 'brief']);
    // A repeated script passed by its tally, its shown attempt's criterion under the threshold: that one is judged anew.
    const kept = personaBaselineJudgeOf({ ...fp, verdict: 'pass', checks: [criterion('polite', 0.9), criterion('brief', 0.4)] });
    expect(kept?.criteria.map((c) => c.criterion)).toEqual(['polite']);
    const script = { label: 'a', kind: 'persona' as const, transcript: [{ message: 'hi', reply: 'Hello.', route: null }], visited: [], outcome: null, acceptedAt: 'T', commit: null };
    expect(checkBaselineFile('b/a.json', 'a', serializeBaseline({ ...script, verdict: 'pass', judge: kept ?? undefined })).errors).toEqual([]);
    // A repeated script failed by its tally whose shown attempt (the first that did not error) passed every check keeps none;
    // one whose shown attempt failed a check keeps its passing criteria, as a run once does.
    const attempt = (verdict: 'pass' | 'fail' | null, errored = false) => ({ errored, verdict }) as NonNullable<Parameters<typeof personaBaselineJudgeOf>[0]['attempts']>[number];
    const checks = [criterion('polite', 0.9)];
    expect(personaBaselineJudgeOf({ ...fp, verdict: 'fail', checks, attempts: [attempt(null, true), attempt('pass'), attempt('fail')] })).toBeNull();
    expect(personaBaselineJudgeOf({ ...fp, verdict: 'fail', checks: [terminal, ...checks], attempts: [attempt('fail'), attempt('fail'), attempt('pass')] })?.criteria.map((c) => c.criterion)).toEqual(['polite']);
  });

  it('still refuses a pass edited in beside a judge that did not pass', () => {
    expect(loadErrors(stored({ judge: { score: 0.4, rationale: 'rude', fingerprint: FP } }))).toEqual(['baseline: judge.score 0.4 < threshold 0.7 contradicts the accepted verdict "pass"']);
  });
});

describe('naming and counting reuse', () => {
  it('names the short commit, else the acceptance date; counts from the record', () => {
    expect(reuseWords({ commit: 'abcdef0123456789', acceptedAt: '2026-11-30T10:00:00Z' })).toBe('reused from abcdef0');
    expect(reuseWords({ commit: null, acceptedAt: '2026-11-30T10:00:00Z' })).toBe('reused from the baseline accepted 2026-11-30');
    expect(reusedCount({ fixtures: [{ judgeReused: { commit: null, acceptedAt: 'T' } }, { judgeReused: null }, {}] })).toBe(1);
  });
});

describe('reusableCriterion (persona scripts)', () => {
  const pb = (over: Partial<PersonaBaseline> = {}): PersonaBaseline => ({
    label: 'p',
    kind: 'persona',
    transcript: [
      { message: null, reply: 'Welcome', route: null },
      { message: 'hi', reply: 'Hello.', route: null },
    ],
    visited: [],
    outcome: null,
    verdict: 'pass',
    judge: { model: 'openai/m', promptVersion: '1', transcriptHash: 'h1', criteria: [{ criterion: 'polite', threshold: 0.7, score: 0.8, rationale: 'kind' }] },
    acceptedAt: 'T',
    commit: null,
    ...over,
  });
  const turns = [
    { message: null, reply: 'Welcome' },
    { message: 'hi', reply: 'Hello.' },
  ];
  const ok = { turns, hash: 'h1', redacted: false };
  const c = { criterion: 'polite', threshold: 0.7 };

  it('reuses a criterion of an identical, unredacted transcript judged the same way', () => {
    expect(reusableCriterion(pb(), ok, FP, c)).toEqual({ score: 0.8, rationale: 'kind' });
  });

  it('judges afresh on any difference', () => {
    expect(reusableCriterion(pb(), { ...ok, redacted: true }, FP, c)).toBeNull();
    expect(reusableCriterion(pb(), { ...ok, hash: 'h2' }, FP, c)).toBeNull(); // e.g. other tool calls
    expect(reusableCriterion(pb(), { ...ok, turns: [turns[0]!, { message: 'hi', reply: 'Hello!' }] }, FP, c)).toBeNull();
    expect(reusableCriterion(pb(), { ...ok, turns: [turns[0]!, { message: 'hey', reply: 'Hello.' }] }, FP, c)).toBeNull();
    expect(reusableCriterion(pb(), { ...ok, turns: turns.slice(1) }, FP, c)).toBeNull();
    expect(reusableCriterion(pb(), ok, { ...FP, model: 'openai/other' }, c)).toBeNull();
    expect(reusableCriterion(pb(), ok, { ...FP, promptVersion: '2' }, c)).toBeNull();
    expect(reusableCriterion(pb(), ok, FP, { criterion: 'polite', threshold: 0.8 })).toBeNull();
    expect(reusableCriterion(pb(), ok, FP, { criterion: 'brief', threshold: 0.7 })).toBeNull();
    expect(reusableCriterion(pb({ judge: undefined }), ok, FP, c)).toBeNull();
    expect(reusableCriterion(null, ok, FP, c)).toBeNull();
  });
});
