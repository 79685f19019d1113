// A baseline's attempts (docs/statistics.md, "A baseline's attempts"): what acceptance keeps of a
// repeated item's attempts, when a stored tally stands, for fixtures and persona scripts alike.

import { describe, expect, it } from 'vitest';
import { baselineAttemptsOf, decideAcceptance, decidePersonaAcceptance } from '../../src/evaluate/index.js';
import { attemptsToWrite } from '../../src/evaluate/attempts.js';
import type { Baseline, FixtureAttempt, ItemStats, Meaning, PersonaBaseline, PersonaRecord, RepeatSummary, Turn } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const repeat = (passed: number, count: number): RepeatSummary => ({ count, minPass: 1, passed, flaky: passed !== count });
const stored = (over: Partial<Baseline> = {}): Baseline => ({ label: 'f', reply: 'r', route: null, verdict: 'pass', acceptedAt: 't0', commit: null, ...over });
const accept = (rec: Parameters<typeof decideAcceptance>[0], current: Baseline | null) => decideAcceptance(rec, 't1', null, current);

describe('baselineAttemptsOf', () => {
  it('reads the kept tally, else 1 of 1 for a pass and 0 of 1 for a fail', () => {
    expect(baselineAttemptsOf({ verdict: 'pass', attempts: { passed: 7, total: 10 } })).toEqual({ passed: 7, total: 10 });
    expect(baselineAttemptsOf({ verdict: 'pass' })).toEqual({ passed: 1, total: 1 });
    expect(baselineAttemptsOf({ verdict: 'fail' })).toEqual({ passed: 0, total: 1 });
  });
});

describe('accepting a fixture keeps its attempts', () => {
  it('writes passes of attempts made for a repeated item, nothing for one run once', () => {
    const d = accept(fixtureRecord({ repeat: repeat(2, 3) }), null);
    expect(d).toMatchObject({ kind: 'accept', baseline: { verdict: 'pass', attempts: { passed: 2, total: 3 } } });
    const once = accept(fixtureRecord({}), null);
    expect(once.kind === 'accept' && 'attempts' in once.baseline).toBe(false);
  });

  it('a new reply takes the run\'s attempts, even fewer than the stored ones', () => {
    expect(accept(fixtureRecord({ reply: 'new', repeat: repeat(3, 3) }), stored({ attempts: { passed: 10, total: 10 } }))).toMatchObject({
      kind: 'accept',
      baseline: { reply: 'new', attempts: { passed: 3, total: 3 } },
    });
    const once = accept(fixtureRecord({ reply: 'new' }), stored({ attempts: { passed: 10, total: 10 } }));
    expect(once.kind === 'accept' && 'attempts' in once.baseline).toBe(false);
  });

  it('the same reply keeps a stored tally from as many attempts or more; a run with as many or more and another tally rewrites it', () => {
    const ten = stored({ attempts: { passed: 10, total: 10 } });
    // Fewer attempts than the baseline holds never overwrite it.
    expect(accept(fixtureRecord({ repeat: repeat(2, 3) }), ten)).toEqual({ kind: 'unchanged' });
    expect(accept(fixtureRecord({}), ten)).toEqual({ kind: 'unchanged' });
    // The same tally: unchanged.
    expect(accept(fixtureRecord({ repeat: repeat(10, 10) }), ten)).toEqual({ kind: 'unchanged' });
    // A nightly refresh of as many attempts with another tally: rewritten.
    expect(accept(fixtureRecord({ repeat: repeat(9, 10) }), ten)).toMatchObject({ kind: 'accept', baseline: { attempts: { passed: 9, total: 10 } } });
    // An older baseline (1 of 1) accepted again from a repeated run gains its attempts.
    expect(accept(fixtureRecord({ repeat: repeat(3, 3) }), stored())).toMatchObject({ kind: 'accept', baseline: { attempts: { passed: 3, total: 3 } } });
    // ... and from a single passing attempt stays as it is.
    expect(accept(fixtureRecord({}), stored())).toEqual({ kind: 'unchanged' });
  });

  it('the same reply rewritten for another reason (slower, a new variant) keeps a stored tally from more attempts, and its tokens', () => {
    const ten = stored({ attempts: { passed: 10, total: 10 }, latencyMs: 10, usage: { inputTokens: 1000, outputTokens: 500 } });
    const usage = { inputTokens: 300, outputTokens: 150 };
    const slower = accept(fixtureRecord({ repeat: repeat(3, 3), latencyMs: 100, slower: { baselineMs: 10, latencyMs: 100 }, usage }), ten);
    expect(slower).toMatchObject({ kind: 'accept', baseline: { latencyMs: 100, attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1000, outputTokens: 500 } } });
    const variant = accept(fixtureRecord({ repeat: repeat(3, 3), usage, attempts: [attempt('r', 'pass'), attempt('r, worded otherwise', 'pass', 'reworded'), attempt('r', 'pass')] }), ten);
    expect(variant).toMatchObject({ kind: 'accept', baseline: { variants: ['r, worded otherwise'], attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1000, outputTokens: 500 } } });
    // As many attempts as the baseline holds, with another tally: the run's attempts and tokens.
    expect(accept(fixtureRecord({ repeat: repeat(9, 10), latencyMs: 100, slower: { baselineMs: 10, latencyMs: 100 }, usage }), ten)).toMatchObject({
      kind: 'accept',
      baseline: { attempts: { passed: 9, total: 10 }, usage },
    });
  });

  it('a reworded reply that is also slower keeps the stored tally and its tokens, as the same reply slower does', () => {
    const ten = stored({ attempts: { passed: 10, total: 10 }, latencyMs: 10, usage: { inputTokens: 1000, outputTokens: 500 } });
    const reworded = { value: 'reworded', by: 'judge', detail: null, score: 0.9 } as const;
    const over = {
      reply: 'r, worded otherwise',
      baseline: ten,
      repeat: repeat(3, 3),
      latencyMs: 100,
      slower: { baselineMs: 10, latencyMs: 100 },
      usage: { inputTokens: 300, outputTokens: 150 },
      drift: { reply: 'different' as const, route: 'same' as const, verdict: 'still_passing' as const, meaning: reworded },
    };
    expect(accept(fixtureRecord(over), ten)).toMatchObject({
      kind: 'accept',
      baseline: { reply: 'r, worded otherwise', latencyMs: 100, attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1000, outputTokens: 500 } },
    });
    // Changed in meaning and slower: a new measurement, the run's attempts and tokens.
    const changed = fixtureRecord({ ...over, drift: { ...over.drift, meaning: { value: 'changed', by: 'judge', detail: 'x', score: 0.1 } } });
    expect(accept(changed, ten)).toMatchObject({ kind: 'accept', baseline: { attempts: { passed: 3, total: 3 }, usage: { inputTokens: 300, outputTokens: 150 } } });
  });

  it('an item whose pass rate moved is rewritten with the run\'s attempts, even fewer than the stored ones; a steady one is not', () => {
    const ten = stored({ attempts: { passed: 10, total: 10 } });
    const stats = (tier: ItemStats['tier']): ItemStats => ({ ...STATS, tier });
    for (const tier of ['regressed', 'likely_regressed', 'improved'] as const) {
      expect(accept(fixtureRecord({ repeat: repeat(1, 3), stats: stats(tier) }), ten), tier).toMatchObject({ kind: 'accept', baseline: { attempts: { passed: 1, total: 3 } } });
    }
    for (const tier of ['steady', 'too_few'] as const) expect(accept(fixtureRecord({ repeat: repeat(1, 3), stats: stats(tier) }), ten), tier).toEqual({ kind: 'unchanged' });
  });
});

const attempt = (reply: string, verdict: 'pass' | 'fail', meaning?: 'reworded'): FixtureAttempt => ({
  errored: false,
  error: null,
  errorKind: null,
  reply,
  route: null,
  ...(meaning !== undefined ? { meaning: { value: meaning, by: 'judge', detail: '' } as Meaning } : {}),
  verdict,
  detail: '',
  score: null,
  rationale: null,
  durationMs: 1,
});
const STATS: ItemStats = { passed: 1, total: 3, rate: 1 / 3, ci: [0.06, 0.79], baseline: { passed: 10, total: 10 }, pDrop: 0.0385, pRise: 1, tier: 'steady', attemptsNeeded: null, looks: 1, maxLooks: 1 };

describe('accepting a persona script keeps its attempts', () => {
  const turn = (index: number): Turn => ({
    index,
    message: index === 0 ? null : `m${index}`,
    reply: `r${index}`,
    route: null,
    offTrack: [],
    toolCalls: [],
    outcome: null,
    errors: [],
    durationMs: 1,
  });
  const record = (over: Partial<PersonaRecord>): PersonaRecord =>
    ({
      label: 'p',
      file: 'p.yml',
      line: 1,
      persona: null,
      turns: [turn(0), turn(1)],
      unsent: [],
      visited: [],
      outcome: null,
      checks: [],
      baseline: null,
      durationMs: 2,
      errored: false,
      error: null,
      errorKind: null,
      verdict: 'pass',
      drift: { transcript: null, route: null, verdict: 'no_baseline' },
      ...over,
    }) as PersonaRecord;
  const current = (over: Partial<PersonaBaseline> = {}): PersonaBaseline => ({
    label: 'p',
    kind: 'persona',
    transcript: [turn(0), turn(1)].map((t) => ({ message: t.message, reply: t.reply, route: t.route })),
    visited: [],
    outcome: null,
    verdict: 'pass',
    acceptedAt: 't0',
    commit: null,
    ...over,
  });

  it('by the same rules', () => {
    expect(decidePersonaAcceptance(record({ repeat: repeat(4, 5) }), 't1', null, null)).toMatchObject({ kind: 'accept', baseline: { attempts: { passed: 4, total: 5 } } });
    expect(decidePersonaAcceptance(record({ repeat: repeat(4, 5) }), 't1', null, current({ attempts: { passed: 10, total: 10 } }))).toEqual({ kind: 'unchanged' });
    expect(decidePersonaAcceptance(record({ repeat: repeat(4, 5) }), 't1', null, current({ attempts: { passed: 5, total: 5 } }))).toMatchObject({
      kind: 'accept',
      baseline: { attempts: { passed: 4, total: 5 } },
    });
    expect(decidePersonaAcceptance(record({}), 't1', null, current())).toEqual({ kind: 'unchanged' });
    // The same transcript rewritten for being slower keeps the stored tally and its tokens.
    const slower = record({ repeat: repeat(4, 5), latencyMs: 100, slower: { baselineMs: 10, latencyMs: 100 }, usage: { inputTokens: 50, outputTokens: 5 } });
    expect(decidePersonaAcceptance(slower, 't1', null, current({ attempts: { passed: 10, total: 10 }, latencyMs: 10, usage: { inputTokens: 100, outputTokens: 10 } }))).toMatchObject({
      kind: 'accept',
      baseline: { latencyMs: 100, attempts: { passed: 10, total: 10 }, usage: { inputTokens: 100, outputTokens: 10 } },
    });
    // ... and a stored script without tokens gains the run's, per attempt over the kept tally (5 attempts, 10 tokens each).
    expect(decidePersonaAcceptance(slower, 't1', null, current({ attempts: { passed: 10, total: 10 }, latencyMs: 10 }))).toMatchObject({
      kind: 'accept',
      baseline: { attempts: { passed: 10, total: 10 }, usage: { inputTokens: 100, outputTokens: 10 } },
    });
  });
});

describe('the tokens written beside the attempts (docs/latency.md, "Usage")', () => {
  const current = { verdict: 'pass' as const, attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1000, outputTokens: 500 } };
  // 330 in and 160 out over its 3 attempts.
  const record = { verdict: 'pass' as const, repeat: { passed: 3, count: 3, minPass: 2, flaky: false }, perAttempt: { inputTokens: 110, outputTokens: 160 / 3 } };

  it('a reworded reply whose tally stands keeps the tokens counted over that tally: the two are read per attempt together', () => {
    expect(attemptsToWrite(current, record, true)).toEqual({ attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1000, outputTokens: 500 } });
  });

  it("a kept tally whose stored baseline has no tokens gains the run's tokens per attempt, counted over that tally", () => {
    const { usage: _none, ...without } = current;
    expect(attemptsToWrite(without, record, true)).toEqual({ attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1100, outputTokens: 533 } });
    expect(attemptsToWrite({ ...without, usage: null }, record, true)).toEqual({ attempts: { passed: 10, total: 10 }, usage: { inputTokens: 1100, outputTokens: 533 } });
    // A baseline accepted from one attempt (no tally): one attempt's tokens.
    expect(attemptsToWrite({ verdict: 'pass' }, { verdict: 'pass', perAttempt: { inputTokens: 40, outputTokens: 2 } }, true)).toEqual({ usage: { inputTokens: 40, outputTokens: 2 } });
    // Nothing reported now either: still none.
    expect(attemptsToWrite(without, { ...record, perAttempt: null }, true)).toEqual({ attempts: { passed: 10, total: 10 } });
  });

  it("a new measurement writes the run's attempts and the run's tokens", () => {
    expect(attemptsToWrite(current, record, false)).toEqual({ attempts: { passed: 3, total: 3 }, usage: { inputTokens: 330, outputTokens: 160 } });
    // Nothing reported now: no tokens written.
    expect(attemptsToWrite(current, { ...record, perAttempt: null }, false)).toEqual({ attempts: { passed: 3, total: 3 } });
  });
});
