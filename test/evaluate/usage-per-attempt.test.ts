// An item's tokens per attempt (docs/latency.md, "Usage"): the mean over the attempts that replied
// (a script: completed), errored attempts' tokens kept in the totals only; a record written before
// attempts kept their tokens is read as its sum over every attempt.

import { describe, expect, it } from 'vitest';
import { usagePerAttempt, usageSummary } from '../../src/evaluate/usage.js';
import type { PersonaRecord, TokenUsage, Turn } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const turn = (usage: TokenUsage | null): Turn => ({ message: 'm', reply: 'r', route: null, usage }) as unknown as Turn;
const repeat = { count: 3, minPass: 2, passed: 2, flaky: true };

describe('tokens per attempt', () => {
  it("a persona script's errored attempt keeps its welcome turn's tokens in the total, not in the mean", () => {
    const attempts = [
      { errored: false, turns: [turn({ inputTokens: 10, outputTokens: 0 }), turn({ inputTokens: 60, outputTokens: 30 })] },
      { errored: true, turns: [turn({ inputTokens: 10, outputTokens: 0 })] },
      { errored: false, turns: [turn({ inputTokens: 10, outputTokens: 0 }), turn({ inputTokens: 60, outputTokens: 30 })] },
    ];
    const script = {
      label: 'refund',
      errored: false,
      repeat,
      attempts,
      usage: { inputTokens: 150, outputTokens: 60 },
      baseline: { usage: { inputTokens: 210, outputTokens: 90 }, attempts: { passed: 3, total: 3 } },
    } as unknown as PersonaRecord;
    expect(usageSummary([], [script])).toEqual({ total: { inputTokens: 150, outputTokens: 60 }, compared: 1, now: 100, before: 100, change: 0 });
    expect(usagePerAttempt(script)).toEqual({ inputTokens: 70, outputTokens: 30 });
  });

  it('an errored item is not compared: its tokens are spent, not a drop', () => {
    const errored = fixtureRecord({ errored: true, reply: null, verdict: null, usage: { inputTokens: 10, outputTokens: 0 }, baseline: { label: 'f', reply: 'r', route: null, verdict: 'pass', usage: { inputTokens: 70, outputTokens: 30 }, acceptedAt: 't', commit: null } });
    expect(usageSummary([errored], [])).toEqual({ total: { inputTokens: 10, outputTokens: 0 }, compared: 0, now: 0, before: 0, change: null });
    expect(usagePerAttempt(errored)).toBeNull();
  });

  it('a repeated fixture from an older record (no tokens on its attempts) reads as its sum over every attempt', () => {
    const older = fixtureRecord({ repeat: { ...repeat, passed: 3, flaky: false }, usage: { inputTokens: 300, outputTokens: 0 }, attempts: [] });
    expect(usagePerAttempt(older)).toEqual({ inputTokens: 100, outputTokens: 0 });
  });
});
