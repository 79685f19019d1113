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
  | (Pick<FixtureRecord, 'usage' | 'usagePartial' | 'repeat' | 'errored'> & { attempts?: readonly { errored: boolean; usage?: TokenUsage | null; usagePartial?: true }[] | undefined })
  | (Pick<PersonaRecord, 'usage' | 'repeat' | 'errored' | 'turns'> & { attempts?: readonly { errored: boolean; turns: readonly Turn[] }[] | undefined });

/**
 * Whether a script's tokens are some turns' alone (docs/latency.md, "Usage"): a message turn
 * reported none, or none read, or the welcome turn's were not read (`usageUnread`), beside a turn
 * that reported some. A welcome turn that reports none is not: many agents' greeting calls no model.
 */
export function scriptUsagePartial(turns: readonly Turn[]): boolean {
  return turns.some((t) => t.usage != null) && turns.some((t) => t.usage == null && (t.message !== null || t.usageUnread === true));
}

/** An item's tokens per attempt, and whether it has none only because its tokens are some turns' alone (`partial`). */
function perAttemptOf(item: UsageItem): { usage: TokenUsage | null; partial: boolean } {
  if (item.repeat === undefined || item.repeat.count < 2) {
    if (item.errored || item.usage == null) return { usage: null, partial: false };
    if ('turns' in item ? scriptUsagePartial(item.turns) : item.usagePartial === true) return { usage: null, partial: true };
    return { usage: { inputTokens: item.usage.inputTokens, outputTokens: item.usage.outputTokens }, partial: false };
  }
  const each = (item.attempts ?? []).map((a) =>
    'turns' in a ? { errored: a.errored, usage: scriptUsage(a.turns), partial: scriptUsagePartial(a.turns) } : { errored: a.errored, usage: a.usage, partial: a.usagePartial === true },
  );
  if (each.every((a) => a.usage === undefined)) {
    if (item.usage == null) return { usage: null, partial: false };
    const n = item.repeat.count;
    return { usage: { inputTokens: item.usage.inputTokens / n, outputTokens: item.usage.outputTokens / n }, partial: false };
  }
  let sum: TokenUsage | null = null;
  let n = 0;
  let partial = false;
  for (const a of each) {
    if (a.errored || a.usage == null) continue;
    if (a.partial) {
      partial = true;
      continue;
    }
    sum = plusUsage(sum, a.usage);
    n++;
  }
  return sum === null ? { usage: null, partial } : { usage: { inputTokens: sum.inputTokens / n, outputTokens: sum.outputTokens / n }, partial: false };
}

/**
 * An item's tokens per attempt (docs/latency.md, "Usage"): the mean over its attempts that replied
 * (a fixture) or completed (a script) and reported tokens. An attempt that errored is left out:
 * its few tokens (a welcome turn answered before the failure) are spent and stay in the item's
 * `usage` and the run's total, but averaged with whole attempts they would read as a drop. So is
 * one whose tokens are some turns' alone (the welcome turn's, the message turn's unread or not
 * reported: `usagePartial`, a script's scriptUsagePartial), for the same reason. Null when no such
 * attempt reported any (an errored item among them). A repeated fixture from a record written
 * before its attempts kept their tokens is read as before: its sum over every attempt.
 */
export function usagePerAttempt(item: UsageItem): TokenUsage | null {
  return perAttemptOf(item).usage;
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
 * when no item compares or the baselines' sum is 0. `partial`: the items whose baseline kept tokens
 * left out because their tokens now are some turns' alone (a welcome turn's, beside a message turn
 * that reported none or none read), which would read as a drop; said beside the change.
 */
export interface UsageSummary {
  total: TokenUsage;
  compared: number;
  now: number;
  before: number;
  change: number | null;
  partial: number;
}

export function usageSummary(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[]): UsageSummary | null {
  const total = runUsage(fixtures, personas);
  if (total === null) return null;
  let compared = 0;
  let now = 0;
  let before = 0;
  let partial = 0;
  const add = (item: UsageItem, baseline: { usage?: TokenUsage | null; attempts?: { total: number } } | null | undefined): void => {
    const read = perAttemptOf(item);
    if (baseline?.usage == null) return;
    if (read.usage === null) {
      if (read.partial) partial++;
      return;
    }
    compared++;
    now += totalTokens(read.usage);
    before += totalTokens(baseline.usage) / Math.max(1, baseline.attempts?.total ?? 1);
  };
  for (const f of fixtures) add(f, f.baseline);
  for (const p of personas) add(p, p.baseline);
  return { total, compared, now, before, change: compared > 0 && before > 0 ? (now - before) / before : null, partial };
}
