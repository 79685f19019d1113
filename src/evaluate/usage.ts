// Token usage over the recorded items (docs/latency.md, "Usage"): a script's sum, a run's sum, and
// the change against the baselines' tokens. Pure. Null is "none reported", never zero: an item
// whose agent reports nothing adds nothing, and a run where no turn reported any has no usage.

import type { FixtureRecord, PersonaRecord, TokenUsage, Turn } from '../types.js';

/** a + b where null (or absent) is "none reported": null + null is null. */
export function plusUsage(a: TokenUsage | null | undefined, b: TokenUsage | null | undefined): TokenUsage | null {
  if (a == null) return b == null ? null : { inputTokens: b.inputTokens, outputTokens: b.outputTokens };
  if (b == null) return { inputTokens: a.inputTokens, outputTokens: a.outputTokens };
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

function totalTokens(u: TokenUsage): number {
  return u.inputTokens + u.outputTokens;
}

/** A persona script's usage: the sum over its completed turns, welcome included; null when none reported. */
export function scriptUsage(turns: readonly Turn[]): TokenUsage | null {
  let sum: TokenUsage | null = null;
  for (const t of turns) sum = plusUsage(sum, t.usage);
  return sum;
}

/** The run's usage: the sum over its items (repeated attempts are in their item's record); null when none reported. */
export function runUsage(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[]): TokenUsage | null {
  let sum: TokenUsage | null = null;
  for (const f of fixtures) sum = plusUsage(sum, f.usage);
  for (const p of personas) sum = plusUsage(sum, p.usage);
  return sum;
}

/** An item as its tokens per attempt are read: a fixture's or a persona script's record. */
type UsageItem =
  | (Pick<FixtureRecord, 'usage' | 'repeat' | 'errored'> & { attempts?: readonly { errored: boolean; usage?: TokenUsage | null }[] | undefined })
  | (Pick<PersonaRecord, 'usage' | 'repeat' | 'errored'> & { attempts?: readonly { errored: boolean; turns: readonly Turn[] }[] | undefined });

/**
 * An item's tokens per attempt (docs/latency.md, "Usage"): the mean over its attempts that replied
 * (a fixture) or completed (a script) and reported tokens. An attempt that errored is left out:
 * its few tokens (a welcome turn answered before the failure) are spent and stay in the item's
 * `usage` and the run's total, but averaged with whole attempts they would read as a drop. Null
 * when no such attempt reported any (an errored item among them). A repeated fixture from a
 * record written before its attempts kept their tokens is read as before: its sum over every attempt.
 */
export function usagePerAttempt(item: UsageItem): TokenUsage | null {
  if (item.repeat === undefined || item.repeat.count < 2) return item.errored || item.usage == null ? null : { inputTokens: item.usage.inputTokens, outputTokens: item.usage.outputTokens };
  const each = (item.attempts ?? []).map((a) => ({ errored: a.errored, usage: 'turns' in a ? scriptUsage(a.turns) : a.usage }));
  if (each.every((a) => a.usage === undefined)) {
    if (item.usage == null) return null;
    const n = item.repeat.count;
    return { inputTokens: item.usage.inputTokens / n, outputTokens: item.usage.outputTokens / n };
  }
  let sum: TokenUsage | null = null;
  let n = 0;
  for (const a of each) {
    if (a.errored || a.usage == null) continue;
    sum = plusUsage(sum, a.usage);
    n++;
  }
  return sum === null ? null : { inputTokens: sum.inputTokens / n, outputTokens: sum.outputTokens / n };
}

/**
 * The tokens a baseline keeps beside a tally of `attempts` (docs/latency.md, "Usage"): tokens per
 * attempt times the attempts, in whole tokens, so that the baseline reads per attempt as the run
 * did. Exact for an item whose every attempt replied: the sum the run reported.
 */
export function usageOver(perAttempt: TokenUsage, attempts: number): TokenUsage {
  return { inputTokens: Math.round(perAttempt.inputTokens * attempts), outputTokens: Math.round(perAttempt.outputTokens * attempts) };
}

/**
 * The tokens reported against the baselines' (docs/latency.md, "Usage"). `total` is every item's
 * tokens, errored attempts' included; the change is taken only over the items that reported tokens
 * now on an attempt that replied and whose baseline kept some (`compared` of them), so new items,
 * errored items, or items the agent reported nothing for, do not read as a change. Each side is
 * compared per attempt: now, the mean over the attempts that replied (usagePerAttempt); the
 * baseline, its tokens over its kept tally, so that 9 attempts against a baseline of 3 are not
 * +200%. `now` and `before` are those per-attempt sums. `change` is a fraction (0.18 is +18%), null
 * when no item compares or the baselines' sum is 0.
 */
export interface UsageSummary {
  total: TokenUsage;
  compared: number;
  now: number;
  before: number;
  change: number | null;
}

export function usageSummary(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[]): UsageSummary | null {
  const total = runUsage(fixtures, personas);
  if (total === null) return null;
  let compared = 0;
  let now = 0;
  let before = 0;
  const add = (item: UsageItem, baseline: { usage?: TokenUsage | null; attempts?: { total: number } } | null | undefined): void => {
    const usage = usagePerAttempt(item);
    if (usage == null || baseline?.usage == null) return;
    compared++;
    now += totalTokens(usage);
    before += totalTokens(baseline.usage) / Math.max(1, baseline.attempts?.total ?? 1);
  };
  for (const f of fixtures) add(f, f.baseline);
  for (const p of personas) add(p, p.baseline);
  return { total, compared, now, before, change: compared > 0 && before > 0 ? (now - before) / before : null };
}
