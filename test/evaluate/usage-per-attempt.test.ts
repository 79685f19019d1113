// An item's tokens per attempt (docs/latency.md, "Usage"): the mean over the attempts that replied
// (a script: completed), errored attempts' tokens kept in the totals only; a record written before
// attempts kept their tokens is read as its sum over every attempt.

import { describe, expect, it } from 'vitest';
import { scriptUsagePartial, usagePerAttempt, usageSummary } from '../../src/evaluate/usage.js';
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
    expect(usageSummary([], [script])).toEqual({ total: { inputTokens: 150, outputTokens: 60 }, compared: 1, now: 100, before: 100, change: 0, partial: 0 });
    expect(usagePerAttempt(script)).toEqual({ inputTokens: 70, outputTokens: 30 });
  });

  it('an errored item is not compared: its tokens are spent, not a drop', () => {
    const errored = fixtureRecord({ errored: true, reply: null, verdict: null, usage: { inputTokens: 10, outputTokens: 0 }, baseline: { label: 'f', reply: 'r', route: null, verdict: 'pass', usage: { inputTokens: 70, outputTokens: 30 }, acceptedAt: 't', commit: null } });
    expect(usageSummary([errored], [])).toEqual({ total: { inputTokens: 10, outputTokens: 0 }, compared: 0, now: 0, before: 0, change: null, partial: 0 });
    expect(usagePerAttempt(errored)).toBeNull();
  });

  it("an item whose tokens are some turns' alone is left out of the change and counted, not read as a drop", () => {
    const kept = { label: 'f', reply: 'r', route: null, verdict: 'pass' as const, usage: { inputTokens: 70, outputTokens: 30 }, acceptedAt: 't', commit: null };
    // The welcome turn reported 10, the message turn none read: 10 against 100 was -90%.
    const welcomeOnly = fixtureRecord({ usage: { inputTokens: 10, outputTokens: 0 }, usagePartial: true, baseline: kept });
    const whole = fixtureRecord({ label: 'g', usage: { inputTokens: 80, outputTokens: 30 }, baseline: { ...kept, label: 'g' } });
    expect(usagePerAttempt(welcomeOnly)).toBeNull();
    expect(usageSummary([welcomeOnly, whole], [])).toEqual({ total: { inputTokens: 90, outputTokens: 30 }, compared: 1, now: 110, before: 100, change: 0.1, partial: 1 });
    expect(usageSummary([welcomeOnly], [])).toEqual({ total: { inputTokens: 10, outputTokens: 0 }, compared: 0, now: 0, before: 0, change: null, partial: 1 });
    // A repeated fixture: the mean over its attempts whose tokens are whole.
    const attempts = [
      { errored: false, error: null, errorKind: null, reply: 'r', route: null, verdict: 'pass' as const, detail: '', score: null, rationale: null, usage: { inputTokens: 10, outputTokens: 0 }, usagePartial: true as const, durationMs: 1 },
      { errored: false, error: null, errorKind: null, reply: 'r', route: null, verdict: 'pass' as const, detail: '', score: null, rationale: null, usage: { inputTokens: 70, outputTokens: 30 }, durationMs: 1 },
    ];
    expect(usagePerAttempt(fixtureRecord({ repeat: { ...repeat, count: 2 }, usage: { inputTokens: 80, outputTokens: 30 }, attempts }))).toEqual({ inputTokens: 70, outputTokens: 30 });
    expect(usagePerAttempt(fixtureRecord({ repeat: { ...repeat, count: 2 }, usage: { inputTokens: 20, outputTokens: 0 }, attempts: [attempts[0]!, attempts[0]!] }))).toBeNull();
  });

  it("a script's message turn that reported no tokens beside turns that did leaves it out; a welcome turn that reported none does not", () => {
    const welcome = (usage: TokenUsage | null): Turn => ({ ...turn(usage), message: null }) as Turn;
    const script = (turns: Turn[]) => ({ label: 's', errored: false, turns, usage: { inputTokens: 60, outputTokens: 30 }, baseline: { usage: { inputTokens: 100, outputTokens: 50 } } }) as unknown as PersonaRecord;
    const gap = script([welcome({ inputTokens: 10, outputTokens: 0 }), turn({ inputTokens: 50, outputTokens: 30 }), turn(null)]);
    expect(scriptUsagePartial(gap.turns)).toBe(true);
    expect(usageSummary([], [gap])).toMatchObject({ compared: 0, change: null, partial: 1 });
    const quietWelcome = script([welcome(null), turn({ inputTokens: 30, outputTokens: 15 }), turn({ inputTokens: 30, outputTokens: 15 })]);
    expect(scriptUsagePartial(quietWelcome.turns)).toBe(false);
    expect(usageSummary([], [quietWelcome])).toMatchObject({ compared: 1, change: -0.4, partial: 0 });
    // A welcome turn whose tokens were reported in a shape not read is not a quiet one: the message
    // turns' 60 alone read as -40% against a baseline that counted the welcome's too.
    const unreadWelcome = script([{ ...welcome(null), usageUnread: true }, turn({ inputTokens: 30, outputTokens: 15 }), turn({ inputTokens: 30, outputTokens: 15 })]);
    expect(scriptUsagePartial(unreadWelcome.turns)).toBe(true);
    expect(usageSummary([], [unreadWelcome])).toMatchObject({ compared: 0, change: null, partial: 1 });
    // ... nor alone: with no turn's tokens read, the script has none to compare, partial or not.
    expect(scriptUsagePartial([{ ...welcome(null), usageUnread: true }, turn(null)])).toBe(false);
  });

  it('a repeated fixture from an older record (no tokens on its attempts) reads as its sum over every attempt', () => {
    const older = fixtureRecord({ repeat: { ...repeat, passed: 3, flaky: false }, usage: { inputTokens: 300, outputTokens: 0 }, attempts: [] });
    expect(usagePerAttempt(older)).toEqual({ inputTokens: 100, outputTokens: 0 });
  });
});
