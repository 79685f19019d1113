// SPEC 12 "Judge reuse", the pure rules: when a stored baseline's judge result stands for a new
// reply without a judge call, and how the reuse is named. The only source is a stored baseline
// (reviewed in the pull request's diff); nothing is ever reused from another attempt of the run.

import type { Baseline, BaselineJudge, FixtureRecord, JudgeFingerprint, JudgeReuse } from '../types.js';
import { sameJudge } from './definition.js';

/**
 * The baseline's judge result when it may be reused for this reply: the reply as recorded is
 * byte-identical to the baseline's, the reply as the agent sent it is the same text (a reply that
 * carried a secret was redacted, so two different replies could look alike: it is always judged
 * afresh), and the baseline was judged under the same fingerprint (criterion, threshold, judge
 * model, judge prompt version). Else null: the judge is called.
 */
export function reusableJudge(
  baseline: Baseline | null,
  reply: { sent: string; recorded: string },
  fingerprint: JudgeFingerprint | null,
): BaselineJudge | null {
  const judge = baseline?.judge;
  if (baseline === null || judge === undefined || fingerprint === null) return null;
  if (reply.sent !== reply.recorded || reply.recorded !== baseline.reply) return null;
  return sameJudge(judge.fingerprint, fingerprint) ? judge : null;
}

/** Where a reused result came from, as recorded. */
export function judgeReuseOf(baseline: Pick<Baseline, 'commit' | 'acceptedAt'>): JudgeReuse {
  return { commit: baseline.commit, acceptedAt: baseline.acceptedAt };
}

/** "reused from abc1234", or "reused from the baseline accepted 2026-11-30" when it has no commit. */
export function reuseWords(source: JudgeReuse): string {
  if (source.commit !== null && source.commit !== '') return `reused from ${source.commit.slice(0, 7)}`;
  return `reused from the baseline accepted ${source.acceptedAt.slice(0, 10)}`;
}

/** Judge results the run reused, derived from its record (totals are never kept as counters). */
export function reusedCount(run: { fixtures: readonly Pick<FixtureRecord, 'judgeReused'>[] }): number {
  return run.fixtures.filter((f) => f.judgeReused != null).length;
}
