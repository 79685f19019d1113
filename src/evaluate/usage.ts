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

/**
 * The tokens reported against the baselines' (docs/latency.md, "Usage"). `total` is every item's
 * tokens; the change is taken only over the items that reported tokens now and whose baseline kept
 * some (`compared` of them), so new items, or items the agent reported nothing for, do not read as a
 * rise. A repeated item's tokens are the sum over its attempts, and so are its baseline's: each
 * side is compared per attempt (its attempts now, the baseline's kept tally), so that 9 attempts
 * against a baseline of 3 are not +200%. `now` and `before` are those per-attempt sums. `change`
 * is a fraction (0.18 is +18%), null when no item compares or the baselines' sum is 0.
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
  const add = (item: Pick<FixtureRecord, 'usage' | 'repeat'>, baseline: { usage?: TokenUsage | null; attempts?: { total: number } } | null | undefined): void => {
    const usage = item.usage;
    if (usage == null || baseline?.usage == null) return;
    compared++;
    now += totalTokens(usage) / Math.max(1, item.repeat?.count ?? 1);
    before += totalTokens(baseline.usage) / Math.max(1, baseline.attempts?.total ?? 1);
  };
  for (const f of fixtures) add(f, f.baseline);
  for (const p of personas) add(p, p.baseline);
  return { total, compared, now, before, change: compared > 0 && before > 0 ? now / before - 1 : null };
}
