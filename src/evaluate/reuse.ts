// Judge reuse (docs/fixtures.md#judge-reuse), the pure rules: when a stored baseline's judge result stands for a new
// reply without a judge call, and how the reuse is named. The only source is a stored baseline
// (reviewed in the pull request's diff); nothing is ever reused from another attempt of the run.

import type { Baseline, BaselineJudge, Check, FixtureRecord, JudgeFingerprint, JudgeReuse, PanelMember, PersonaBaseline, PersonaBaselineJudge, PersonaRecord, Turn } from '../types.js';
import { canonicalJson, sameJudge } from './definition.js';
import { sameEndpoint } from '../endpoint.js';
import { keptJudgeContradicts } from '../assertions/judge.js';

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

/** Judge results the run reused (fixtures and persona criteria), derived from its record (totals are never kept as counters). */
export function reusedCount(run: {
  fixtures: readonly Pick<FixtureRecord, 'judgeReused' | 'attempts'>[];
  personas?: readonly Pick<PersonaRecord, 'checks' | 'attempts'>[];
}): number {
  // A repeated item counts each of its attempts (each may have reused the baseline's result).
  const reusedChecks = (checks: readonly Check[]): number => checks.filter((c) => c.kind === 'criterion' && c.reused != null).length;
  const criteria = (run.personas ?? []).reduce((n, p) => n + (p.attempts ? p.attempts.reduce((m, a) => m + reusedChecks(a.checks), 0) : reusedChecks(p.checks)), 0);
  const fixtures = run.fixtures.reduce((n, f) => n + (f.attempts ? f.attempts.filter((a) => a.judgeReused != null).length : f.judgeReused != null ? 1 : 0), 0);
  return fixtures + criteria;
}

// --- persona scripts -------------------------------------------------------------------------------

/** A transcript as the run produced it, for reuse: its judged text's hash and whether redaction changed any of it. */
export interface JudgedTranscript {
  turns: readonly Pick<Turn, 'message' | 'reply'>[];
  /** Hash of the transcript exactly as the judge reads it (tool calls included). */
  hash: string;
  /** Redaction changed some text of it: never reused (two transcripts may look alike once redacted). */
  redacted: boolean;
}

/**
 * The baseline's result for one criterion of a persona script when it may be reused: every message
 * and reply of the transcript is byte-identical to the baseline's, the transcript as the judge reads
 * it (tool calls included) has the same hash, nothing in it was redacted, and the criterion was
 * judged with the same threshold, judge model and judge prompt version. Else null: the judge is called.
 */
export function reusableCriterion(
  baseline: PersonaBaseline | null,
  transcript: JudgedTranscript,
  fingerprint: JudgeFingerprint | null,
  criterion: { criterion: string; threshold: number },
): { score: number; rationale: string; members?: PanelMember[] } | null {
  const judge = baseline?.judge;
  if (baseline === null || judge === undefined || fingerprint === null || transcript.redacted) return null;
  if (judge.model !== fingerprint.model || judge.promptVersion !== fingerprint.promptVersion || judge.transcriptHash !== transcript.hash) return null;
  // Another address is another judge; a baseline from before addresses were kept says none (unknown: as before).
  if (!sameEndpoint(judge.endpoint, fingerprint.endpoint)) return null;
  const b = baseline.transcript;
  const t = transcript.turns;
  if (b.length !== t.length || !b.every((x, i) => x.message === t[i]?.message && x.reply === t[i]?.reply)) return null;
  const kept = judge.criteria.find((c) => c.criterion === criterion.criterion && c.threshold === criterion.threshold);
  if (kept === undefined) return null;
  return { score: kept.score, rationale: kept.rationale, ...(kept.members !== undefined ? { members: kept.members } : {}) };
}

/**
 * The judge results an acceptance keeps with a persona transcript: the criteria that were scored, a
 * passing one beside a check that failed included (the next run reuses it). A criterion that did not
 * pass beside an accepted pass (a repeated script passed by its tally, its shown attempt's criterion
 * failed) is left out, as the loader refuses it (keptJudgeContradicts): the next run judges it anew.
 * So is every criterion of a repeated script failed by its tally whose shown attempt passed every
 * check (docs/fixtures.md, "Judge reuse"): no check failed beside those passes, which are that
 * attempt's, not the accepted verdict; kept, they would pass every later attempt that replays the
 * transcript with no judge call (a deterministic agent's: the accepted fail read as a pass).
 */
export function personaBaselineJudgeOf(
  record: Pick<PersonaRecord, 'checks'> & Partial<Pick<PersonaRecord, 'judgeFingerprint' | 'transcriptHash' | 'verdict' | 'attempts'>>,
): PersonaBaselineJudge | null {
  const fp = record.judgeFingerprint;
  const hash = record.transcriptHash;
  if (fp === null || fp === undefined || hash === null || hash === undefined) return null;
  if (record.verdict === 'fail' && record.attempts?.find((a) => !a.errored)?.verdict === 'pass') return null;
  const criteria = record.checks.flatMap((c) =>
    c.kind === 'criterion' && typeof c.score === 'number' && Number.isFinite(c.score) && c.score >= 0 && c.score <= 1 && c.rationale !== null
      ? [{ criterion: c.expected, threshold: c.threshold, score: c.score, rationale: c.rationale, ...(c.members !== undefined ? { members: c.members } : {}) }]
      : [],
  ).filter((c) => record.verdict !== 'pass' || !keptJudgeContradicts(c, c.threshold, 'pass'));
  if (criteria.length === 0) return null;
  return { model: fp.model, ...(fp.endpoint !== undefined ? { endpoint: fp.endpoint } : {}), promptVersion: fp.promptVersion, transcriptHash: hash, criteria };
}

/** Judged under the same judge (its address when both say it), transcript and criteria (scores aside). */
export function samePersonaJudge(a: PersonaBaselineJudge, b: PersonaBaselineJudge): boolean {
  const key = (j: PersonaBaselineJudge): string =>
    canonicalJson({ model: j.model, promptVersion: j.promptVersion, transcriptHash: j.transcriptHash, criteria: j.criteria.map((c) => [c.criterion, c.threshold]) });
  return key(a) === key(b) && sameEndpoint(a.endpoint, b.endpoint);
}
