// Acceptance rules: what accepting a run would write, refuse or leave unchanged
// (docs/semantics.md#baselines-and-acceptance). Pure.

import type { Baseline, BaselineJudge, FixtureRecord, PersonaBaseline, PersonaRecord, RunRecord, TimeSplit } from '../types.js';
import { sameJudge } from './definition.js';
import { keptJudgeContradicts, keptJudgePasses } from '../assertions/judge.js';
import { checksOf } from '../assertions/list.js';
import { isRewordedApartFromLatency, rewritesBaseline } from './changes.js';
import { answeredAnotherMessage, sameRoute } from './drift.js';
import { decidePersonaAcceptance } from './personas.js';
import { carriedReplyVariants, fixtureAttemptsAgree, inStoredOrder, sameVariants, variantsFor } from './variants.js';
import { baselineLatency, itemTimeSplit } from './latency.js';
import { attemptsOnly, attemptsToWrite, storedAttemptsStand } from './attempts.js';
import { usagePerAttempt } from './usage.js';
import { onlyPatterns } from './selection.js';
import { causeOf, NO_EVIDENCE, runEvidence, type CauseItem, type RunEvidence } from './causes.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

export type AcceptDecision =
  | { kind: 'accept'; baseline: Baseline }
  | { kind: 'unchanged' }
  | { kind: 'refuse'; reason: string };

export const REFUSE_NOT_EVALUATED = 'not evaluated: run it again';
export const REFUSE_ERRORED = 'errored: no reply to accept';

/**
 * Refusals grouped by their reason, in the order each reason is first given: every report of them
 * (the comment, the job summary, accept's terminal, the commit message) names the items of one
 * reason together and says it once. An agent that rewords every reply gives most of a suite one.
 */
export function byReason<T extends { reason: string }>(refused: readonly T[]): { reason: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const r of refused) groups.set(r.reason, [...(groups.get(r.reason) ?? []), r]);
  return [...groups].map(([reason, items]) => ({ reason, items }));
}

/**
 * The refusal of a not evaluated item with its cause's fix, "not evaluated (regex does not compile):
 * fix the pattern ...; then run it again": run again as it is, a pattern that does not compile, a
 * missing judge or a judge that answers in prose is not evaluated again (docs/semantics.md,
 * "Baselines and acceptance"). REFUSE_NOT_EVALUATED when the cause names no fix. `evidence`: the
 * run's, read over all its items (runEvidence), so the fix is the one the run's report gives the
 * same item (a connection the judge dropped after answering other calls of the run: run it again).
 */
export function notEvaluatedRefusal(item: CauseItem, evidence: RunEvidence = NO_EVIDENCE, file: string = NEW_CONFIG_NAME): string {
  const cause = causeOf(item, null, evidence.answered, evidence.spansCame, evidence.models, file);
  if (cause === null || cause.hint === null) return REFUSE_NOT_EVALUATED;
  return `not evaluated (${cause.what}): ${cause.hint}${/\brun it again\b/.test(cause.hint) ? '' : '; then run it again'}`;
}

/** A decision's refusal, with the fix for a not evaluated item. */
function refusalOf(item: CauseItem, reason: string, evidence: RunEvidence, file: string): string {
  return reason === REFUSE_NOT_EVALUATED ? notEvaluatedRefusal(item, evidence, file) : reason;
}

/**
 * The judge result an acceptance keeps with the reply: only a real score (0..1) with its
 * rationale and a one-criterion fingerprint; anything else (not judged, not evaluated, an older
 * record without a fingerprint) keeps none. It keeps one that says what the accepted verdict says,
 * and an assertion list's judge that passed beside a check that failed (the next run reuses it:
 * docs/fixtures.md, "Judge reuse"). A repeated item's shown attempt may say otherwise than its
 * tally (a judge that did not pass beside a pass, which the loader refuses: keptJudgeContradicts;
 * a lone judge that passed beside a fail, or a list's whose shown attempt passed every check):
 * that one keeps none, and the next run calls the judge.
 */
export function baselineJudgeOf(record: Partial<Pick<FixtureRecord, 'score' | 'rationale' | 'judgeFingerprint' | 'members' | 'verdict' | 'assertion' | 'attempts'>>): BaselineJudge | null {
  const { score, rationale, judgeFingerprint, members, verdict } = record;
  if (score === null || score === undefined || !Number.isFinite(score) || score < 0 || score > 1) return null;
  if (rationale === null || rationale === undefined || judgeFingerprint === null || judgeFingerprint === undefined) return null;
  const criterion = judgeFingerprint.criteria[0];
  if (judgeFingerprint.criteria.length !== 1 || criterion === undefined) return null;
  // A panel's result keeps every member's answer: a reuse decides the verdict from them again.
  const judge = { score, rationale, fingerprint: judgeFingerprint, ...(members != null ? { members } : {}) };
  if (verdict === 'pass' && keptJudgeContradicts(judge, criterion.threshold, verdict)) return null;
  // A lone judge decided each attempt: one that passed beside a fail is a repeated item's shown attempt, not its verdict.
  const alone = checksOf(record.assertion ?? null).length <= 1;
  // So is a list's whose shown attempt (the first that replied) passed every check: no other check failed beside it.
  const shownPassed = record.attempts?.find((a) => !a.errored)?.verdict === 'pass';
  return verdict === 'fail' && (alone || shownPassed) && keptJudgePasses(judge, criterion.threshold) ? null : judge;
}

/**
 * Acceptance follows the current verdict, never the drift label. pass/fail are accepted;
 * not evaluated and errored are refused with their reasons; a baseline that would not change is
 * reported as unchanged so that a second acceptance makes no empty commit.
 *
 * The judge result rides along: it is written with every accepted reply that was judged.
 * A baseline whose reply, route and verdict are the same is unchanged when its judge result was
 * judged under the same fingerprint, or when it has none (adding one alone would rewrite every
 * older baseline at once); it is rewritten when the judge changed (criterion, threshold, model,
 * prompt version), since a stale result can never be reused and every run would pay for a call.
 *
 * Variants (docs/meaning.md, "Variants"): the accepted reply keeps those of the reply it replaces
 * when its meaning says it tells the user the same (carriedReplyVariants), and a repeated item's
 * attempts that differ in wording only become variants too; attempts that differ in meaning are
 * refused (docs/meaning.md, "Repeats"). A baseline whose variants would change is rewritten.
 */
type Acceptable = Pick<FixtureRecord, 'errored' | 'verdict' | 'reply' | 'attempts'>;

/** Why `record` has no reply to accept, or what it would accept: its verdict, reply and the agreement of its attempts. */
function acceptable(record: Acceptable): { reason: string } | { agreement: { variants: string[] }; verdict: 'pass' | 'fail'; reply: string } {
  if (record.errored || record.reply === null) return { reason: REFUSE_ERRORED };
  // A repeated item whose attempts differ in meaning (or, with no meaning recorded, in any way) has no one reply to accept.
  const agreement = record.attempts !== undefined ? fixtureAttemptsAgree(record.reply, record.attempts) : { kind: 'agree' as const, variants: [] };
  if (agreement.kind === 'refuse') return { reason: agreement.reason };
  if (record.verdict !== 'pass' && record.verdict !== 'fail') return { reason: REFUSE_NOT_EVALUATED };
  return { agreement, verdict: record.verdict, reply: record.reply };
}

/**
 * decideAcceptance's kind alone, for counting (the run's next step, src/report/to-accept.ts): an item
 * with no baseline, or whose reply is not its baseline's, that has a reply to accept is accepted
 * whatever it replied (only the same reply can leave a baseline unchanged), so the baseline it would
 * write, and the variants of its reply, are not built.
 */
export function acceptanceKind(record: Parameters<typeof decideAcceptance>[0], commit: string | null): AcceptDecision['kind'] {
  if (record.baseline === null || record.baseline.reply !== record.reply) return 'reason' in acceptable(record) ? 'refuse' : 'accept';
  return decideAcceptance(record, '', commit).kind;
}

export function decideAcceptance(
  record: Pick<FixtureRecord, 'label' | 'errored' | 'verdict' | 'reply' | 'route' | 'baseline' | 'attempts'> &
    Partial<Pick<FixtureRecord, 'message' | 'persona' | 'assertion' | 'score' | 'rationale' | 'judgeFingerprint' | 'members' | 'latencyMs' | 'slower' | 'usage' | 'repeat' | 'drift' | 'stats' | 'time'>>,
  acceptedAt: string,
  commit: string | null,
  stored: Baseline | null = record.baseline,
): AcceptDecision {
  const checked = acceptable(record);
  if ('reason' in checked) return { kind: 'refuse', reason: checked.reason };
  const { agreement, verdict, reply } = checked;
  const judge = baselineJudgeOf(record);
  // A baseline that answered another message than the record's (the fixture edited since: docs/meaning.md,
  // "An edited fixture") is no earlier measurement of this reply: no variants, tally or tokens carried from it.
  const asked = record.message === undefined ? null : { message: record.message, persona: record.persona ?? null };
  const answered = (b: Baseline | null): Baseline | null => (b !== null && asked !== null && answeredAnotherMessage(b, asked) ? null : b);
  // The same reply word for word is the same measurement whatever it answered: it is not rewritten only to keep the new message.
  const current = stored !== null && stored.reply === reply ? stored : answered(stored);
  const compared = answered(record.baseline);
  const variants = inStoredOrder(current, reply, variantsFor(reply, [...agreement.variants, ...carriedReplyVariants(current, compared, { reply, verdict, meaning: record.drift?.meaning })]));
  const sameReply = current !== null && current.reply === reply && sameRoute(current.route, record.route);
  if (
    current !== null &&
    // A slower item is rewritten: accepting it accepts its new latency (docs/latency.md).
    !rewritesBaseline(record) &&
    sameReply &&
    current.verdict === verdict &&
    // A repeated item's tally is part of what is accepted (docs/statistics.md, "A baseline's attempts").
    storedAttemptsStand(current, { verdict, repeat: record.repeat, stats: record.stats }) &&
    (judge === null || current.judge === undefined || sameJudge(current.judge.fingerprint, judge.fingerprint)) &&
    sameVariants(current.variants, variants)
  ) {
    return { kind: 'unchanged' };
  }
  // The same reply (route), or one that only changed wording against the stored one, keeps its tally
  // and its tokens, whatever else rewrites the file (docs/statistics.md, "A baseline's attempts").
  const sameMeasurement =
    current !== null && (sameReply || (compared?.reply === current.reply && isRewordedApartFromLatency(record)));
  const tally = attemptsToWrite(current, { verdict, repeat: record.repeat, stats: record.stats, perAttempt: usagePerAttempt(record) }, sameMeasurement);
  return {
    kind: 'accept',
    baseline: {
      label: record.label,
      // What the reply answered (docs/meaning.md, "An edited fixture"): the fixture's message, and its persona tag when it has one.
      ...(asked !== null ? { message: asked.message, ...(asked.persona !== null ? { persona: asked.persona } : {}) } : {}),
      reply,
      ...(variants.length > 0 ? { variants } : {}),
      route: record.route,
      verdict,
      ...attemptsOnly(tally),
      ...(judge !== null ? { judge } : {}),
      ...baselineLatency(record),
      // The item's tokens, for the change against baselines (docs/latency.md, "Usage"); only when reported; kept with a kept tally.
      ...(tally.usage !== undefined ? { usage: tally.usage } : {}),
      // The message turn's time split from its spans, for naming the step that grew (docs/traces.md,
      // "Slower"): a repeated fixture's median attempt's, beside its median latency.
      ...timeOf(itemTimeSplit(record)),
      acceptedAt,
      commit,
    },
  };
}

const timeOf = (time: TimeSplit | null): { time?: TimeSplit } => (time !== null ? { time } : {});

/** A baseline file's content: a fixture's, or a persona script's (`kind: "persona"`). */
export type StoredBaseline = Baseline | PersonaBaseline;

export interface AcceptPlan {
  accepted: StoredBaseline[];
  refused: { label: string; reason: string }[];
  /** Already the stored baseline: nothing to write. */
  unchanged: string[];
  /** Patterns of --only (labels or globs) that match no item of the run. */
  unknown: string[];
}

/**
 * Why a recorded reply may not be accepted under the item's definition now (its message, assertion,
 * expectations or mocks edited since the run): its verdict was reached under the old one. Null when
 * the definitions agree, or either is unknown (a record written before definition hashes).
 */
function definitionChanged(item: { label: string; definitionHash?: string | null | undefined }, suite: { dir: string; definitions?: ReadonlyMap<string, string> } | undefined): string | null {
  const now = suite?.definitions?.get(item.label);
  if (now === undefined || item.definitionHash == null || item.definitionHash === now) return null;
  return `${item.label} was edited in ${suite?.dir ?? 'the suite'} since the run (its message, check or expectations), so its verdict is the old definition's: run it again, then accept`;
}

/** Why a recorded item has no place in the suite now: its label is gone, or names an item of the other kind. */
function notInSuite(label: string, kind: string, now: string | null, dir: string): string {
  return now === null
    ? `no ${kind} is labelled ${label} in ${dir}: was it renamed or removed?`
    : `${label} is a ${now} in ${dir} now, and the run recorded it as a ${kind}: run it again, then accept`;
}

/**
 * Decides, per fixture of a recorded run, what acceptance would write. `current` holds the
 * baselines stored now (which may differ from those the run compared against).
 */
export function planAcceptance(
  run: Pick<RunRecord, 'fixtures' | 'commit' | 'configName'> & { personas?: readonly PersonaRecord[] },
  current: ReadonlyMap<string, StoredBaseline>,
  options: {
    /** --only's patterns (labels, `*` and `?` globs: the matcher of run --only), or null for every item. */
    only: readonly string[] | null;
    acceptedAt: string;
    /**
     * The suite's fixture and persona script labels: a reply for any other label, or for an item
     * of the other kind, is refused, not written as an orphan baseline.
     */
    suite?: {
      fixtures: ReadonlySet<string>;
      personas: ReadonlySet<string>;
      dir: string;
      /** Each item's definition hash as the suite defines it now: a reply recorded under another definition is refused. */
      definitions?: ReadonlyMap<string, string>;
    };
  },
): AcceptPlan {
  const patterns = options.only === null ? null : onlyPatterns(options.only);
  const skipped = (label: string): boolean => patterns !== null && !patterns.some((p) => p.matches(label));
  const plan: AcceptPlan = { accepted: [], refused: [], unchanged: [], unknown: [] };
  // Over the whole run, whatever --only selects: the run's report read each cause so.
  const evidence = runEvidence([...run.fixtures, ...(run.personas ?? [])]);
  // The fixes name the suite's config file (docs/results-json.md, `configName`).
  const file = run.configName ?? NEW_CONFIG_NAME;
  for (const f of run.fixtures) {
    if (skipped(f.label)) continue;
    const stored = current.get(f.label) ?? null;
    const decision = decideAcceptance(f, options.acceptedAt, run.commit, stored !== null && !('kind' in stored) ? stored : null);
    const changed = decision.kind === 'accept' ? definitionChanged(f, options.suite) : null;
    if (decision.kind === 'accept' && options.suite && !options.suite.fixtures.has(f.label)) {
      plan.refused.push({ label: f.label, reason: notInSuite(f.label, 'fixture', options.suite.personas.has(f.label) ? 'persona script' : null, options.suite.dir) });
    } else if (changed !== null) plan.refused.push({ label: f.label, reason: changed });
    else if (decision.kind === 'accept') plan.accepted.push(decision.baseline);
    else if (decision.kind === 'refuse') plan.refused.push({ label: f.label, reason: refusalOf(f, decision.reason, evidence, file) });
    else plan.unchanged.push(f.label);
  }
  for (const p of run.personas ?? []) {
    if (skipped(p.label)) continue;
    const stored = current.get(p.label) ?? null;
    const decision = decidePersonaAcceptance(p, options.acceptedAt, run.commit, stored !== null && 'kind' in stored ? stored : null);
    const changed = decision.kind === 'accept' ? definitionChanged(p, options.suite) : null;
    if (decision.kind === 'accept' && options.suite && !options.suite.personas.has(p.label)) {
      plan.refused.push({ label: p.label, reason: notInSuite(p.label, 'persona script', options.suite.fixtures.has(p.label) ? 'fixture' : null, options.suite.dir) });
    } else if (changed !== null) plan.refused.push({ label: p.label, reason: changed });
    else if (decision.kind === 'accept') plan.accepted.push(decision.baseline);
    else if (decision.kind === 'refuse') plan.refused.push({ label: p.label, reason: refusalOf(p, decision.reason, evidence, file) });
    else plan.unchanged.push(p.label);
  }
  if (patterns !== null) {
    const present = [...run.fixtures, ...(run.personas ?? [])].map((f) => f.label);
    plan.unknown = patterns.filter((p) => !present.some(p.matches)).map((p) => p.pattern);
  }
  return plan;
}
