// A baseline's attempts (docs/statistics.md, "A baseline's attempts"): what acceptance keeps of a
// repeated item's attempts, and how a baseline's attempts are read. Pure.

import type { BaselineAttempts, BaselineVerdict, ItemStats, RepeatSummary, Tier, TokenUsage, Verdict } from '../types.js';
import { usageOver } from './usage.js';

/** A baseline's attempts: the kept tally, or, for one accepted from a single attempt (or older), 1 of 1 or 0 of 1. */
export function baselineAttemptsOf(b: { verdict: BaselineVerdict; attempts?: BaselineAttempts }): BaselineAttempts {
  return b.attempts !== undefined ? { passed: b.attempts.passed, total: b.attempts.total } : { passed: b.verdict === 'pass' ? 1 : 0, total: 1 };
}

/** The attempts an acceptance keeps: a repeated item's passes of attempts made; none for an item run once. */
export function acceptedAttemptsOf(record: { repeat?: Pick<RepeatSummary, 'passed' | 'count'> | undefined }): { attempts?: BaselineAttempts } {
  return record.repeat !== undefined && record.repeat.count > 1 ? { attempts: { passed: record.repeat.passed, total: record.repeat.count } } : {};
}

/**
 * Does the stored baseline's tally stand when its reply (or transcript) and verdict are accepted
 * unchanged? Yes when the run's attempts give the same tally, and when the run made fewer
 * attempts than the baseline holds: a pull request's 3 attempts never overwrite a 10-attempt
 * baseline of the same reply. A run with as many attempts or more and another tally rewrites it
 * (a nightly `--repeat 10` refreshes the rate). An item whose pass rate moved (tier regressed,
 * likely regressed or improved) is rewritten whatever its attempts: accepting it accepts the new rate,
 * as accepting a slower item accepts its latency.
 */
export function storedAttemptsStand(
  current: { verdict: BaselineVerdict; attempts?: BaselineAttempts },
  record: { verdict: Verdict; repeat?: Pick<RepeatSummary, 'passed' | 'count'> | undefined; stats?: Pick<ItemStats, 'tier'> | undefined },
): boolean {
  if (record.stats !== undefined && MOVED.has(record.stats.tier)) return false;
  const stored = baselineAttemptsOf(current);
  const run = acceptedAttemptsOf(record).attempts ?? { passed: record.verdict === 'pass' ? 1 : 0, total: 1 };
  return run.total < stored.total || (run.passed === stored.passed && run.total === stored.total);
}

/**
 * The attempts an acceptance writes, and the tokens beside them (docs/statistics.md, "A baseline's
 * attempts"; docs/latency.md, "Usage"). A reply (a script: its transcript) that differs from the
 * stored baseline only in wording (the item is Reworded: docs/meaning.md) is the same measurement
 * as the stored one, so its tally stands as it would for the very same reply (storedAttemptsStand),
 * and so do the tokens counted over those attempts: the two are read together (tokens per attempt).
 * So is the very same reply (transcript), route and verdict when the file is rewritten for another
 * reason (slower, a judge changed, a variant added): the stored tally stands as it does when
 * nothing else changed. A stored baseline without tokens (accepted before the agent reported any)
 * gains the run's beside its kept tally: the run's tokens per attempt counted over that tally, so
 * that the comparison starts. Any other new reply is a new measurement, written with the run's
 * attempts and its tokens per attempt counted over them. `perAttempt` is the item's tokens per
 * attempt (usagePerAttempt: the attempts that replied), null when none reported any.
 */
export function attemptsToWrite(
  current: { verdict: BaselineVerdict; attempts?: BaselineAttempts; usage?: TokenUsage | null } | null,
  record: { verdict: Verdict; repeat?: Pick<RepeatSummary, 'passed' | 'count'> | undefined; stats?: Pick<ItemStats, 'tier'> | undefined; perAttempt: TokenUsage | null },
  sameMeasurement: boolean,
): { attempts?: BaselineAttempts; usage?: TokenUsage } {
  if (sameMeasurement && current !== null && current.verdict === record.verdict && storedAttemptsStand(current, record)) {
    const usage = current.usage ?? (record.perAttempt !== null ? usageOver(record.perAttempt, baselineAttemptsOf(current).total) : null);
    return {
      ...(current.attempts !== undefined ? { attempts: { passed: current.attempts.passed, total: current.attempts.total } } : {}),
      ...(usage != null ? { usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } } : {}),
    };
  }
  const attempts = acceptedAttemptsOf(record);
  return { ...attempts, ...(record.perAttempt !== null ? { usage: usageOver(record.perAttempt, attempts.attempts?.total ?? 1) } : {}) };
}

/** The attempts of attemptsToWrite's answer alone, for a baseline that places its tokens elsewhere. */
export function attemptsOnly(t: { attempts?: BaselineAttempts }): { attempts?: BaselineAttempts } {
  return t.attempts !== undefined ? { attempts: t.attempts } : {};
}

/** Tiers of a pass rate that moved against the baseline's (docs/statistics.md, "The tier"). */
const MOVED: ReadonlySet<Tier> = new Set<Tier>(['regressed', 'likely_regressed', 'improved']);
