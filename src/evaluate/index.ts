// The pure core: verdict comparison (drift), tallies, cost estimate, acceptance rules and the gate.
// Data in, data out. Nothing here logs, reads files or talks to the network.

import type {
  Assertion,
  Baseline,
  BaselineJudge,
  Drift,
  DriftVerdict,
  Estimate,
  FailOnCondition,
  FixtureRecord,
  PersonaBaseline,
  PersonaDrift,
  PersonaRecord,
  PersonaScript,
  Route,
  RunRecord,
  Tallies,
  Verdict,
} from '../types.js';
import type { CostConfig } from '../config.js';
import { decidePersonaAcceptance, personaTurns } from './personas.js';
import { attemptRepliesVary, repliesVary } from './repeat.js';
import { sameJudge } from './definition.js';

export * from './personas.js';
import { incompleteText } from './shard.js';

/** The verdict comparison of SPEC section 3: exactly six values. */
export function driftVerdict(current: Verdict, baseline: Pick<Baseline, 'verdict'> | null): DriftVerdict {
  // Precedence: no baseline wins, even when the check was not evaluated this time.
  if (baseline === null) return 'no_baseline';
  if (current === 'not_evaluated') return 'not_evaluated';
  if (baseline.verdict === 'pass') return current === 'pass' ? 'still_passing' : 'newly_failing';
  return current === 'fail' ? 'still_failing' : 'newly_passing';
}

export function sameRoute(a: Route | null, b: Route | null): boolean {
  if (a === null || b === null) return a === b;
  return a.conversation === b.conversation && a.stage === b.stage;
}

/**
 * Drift of a replay that produced a reply. Errored replays have no drift at all (null),
 * which is the caller's business: this function is only called when a reply exists.
 */
export function computeDrift(
  current: Verdict,
  reply: string,
  route: Route | null,
  baseline: Baseline | null,
): Drift {
  const verdict = driftVerdict(current, baseline);
  if (baseline === null) return { reply: null, route: null, verdict };
  return {
    reply: baseline.reply === reply ? 'same' : 'different',
    route: sameRoute(baseline.route, route) ? 'same' : 'different',
    verdict,
  };
}

/** Which tally a fixture counts in: errored has no verdict; a verdict is pass, fail or not evaluated. */
export function tallyOf(f: Pick<FixtureRecord, 'errored' | 'verdict'>): keyof Tallies {
  if (f.errored) return 'errored';
  if (f.verdict === 'pass') return 'passed';
  if (f.verdict === 'fail') return 'failed';
  return 'notEvaluated';
}

/** Totals are derived from the records, never kept as counters. */
export function tallies(fixtures: readonly Pick<FixtureRecord, 'errored' | 'verdict'>[]): Tallies {
  const t: Tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  for (const f of fixtures) t[tallyOf(f)] += 1;
  return t;
}

/** Rounds a dollar amount to a tenth of a cent, avoiding float noise like 0.30000000000000004. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

export function judgeCalls(assertions: readonly (Assertion | null)[]): number {
  return assertions.filter((a) => a?.kind === 'judge').length;
}

/**
 * Agent turns one fixture costs: the configured `turnsPerFixture` when the user set it, else the
 * turns actually sent: the welcome turn (only when the agent has one) and the message.
 */
export function turnsPerFixture(cost: Pick<CostConfig, 'turnsPerFixture'>, welcomeTurn: boolean): number {
  return cost.turnsPerFixture ?? (welcomeTurn ? 2 : 1);
}

/**
 * Estimated cost, computed before anything is spent, from flat per-call guesses. A persona script
 * costs every turn (the welcome turn only when the agent has one) and one judge call per criterion.
 */
export function estimateCost(
  assertions: readonly (Assertion | null)[],
  cost: CostConfig,
  confirmed: boolean,
  agent: { welcomeTurn: boolean },
  personas: readonly Pick<PersonaScript, 'followUps' | 'expect'>[] = [],
): Estimate {
  const scriptTurns = personas.reduce((n, p) => n + personaTurns(p, agent.welcomeTurn), 0);
  const agentUsd = (assertions.length * turnsPerFixture(cost, agent.welcomeTurn) + scriptTurns) * cost.agentTurnUsd;
  const judgeUsd = (judgeCalls(assertions) + criteriaCount(personas)) * cost.judgeCallUsd;
  const usd = roundUsd(agentUsd + judgeUsd);
  return { usd, capUsd: cost.capUsd, aboveCap: usd > cost.capUsd + 1e-12, confirmed };
}

/** Judge calls persona scripts make: one per criterion. */
export function criteriaCount(personas: readonly Pick<PersonaScript, 'expect'>[]): number {
  return personas.reduce((n, p) => n + p.expect.criteria.length, 0);
}

/** A run above the cap spends nothing unless confirmed. */
export function mayRun(estimate: Estimate): boolean {
  return !estimate.aboveCap || estimate.confirmed;
}

export type AcceptDecision =
  | { kind: 'accept'; baseline: Baseline }
  | { kind: 'unchanged' }
  | { kind: 'refuse'; reason: string };

export const REFUSE_NOT_EVALUATED = 'not evaluated: run it again';
export const REFUSE_ERRORED = 'errored: no reply to accept';

/**
 * The judge result an acceptance keeps with the reply (SPEC 12): only a real score (0..1) with its
 * rationale and a one-criterion fingerprint; anything else (not judged, not evaluated, an older
 * record without a fingerprint) keeps none.
 */
export function baselineJudgeOf(record: Partial<Pick<FixtureRecord, 'score' | 'rationale' | 'judgeFingerprint'>>): BaselineJudge | null {
  const { score, rationale, judgeFingerprint } = record;
  if (score === null || score === undefined || !Number.isFinite(score) || score < 0 || score > 1) return null;
  if (rationale === null || rationale === undefined || judgeFingerprint === null || judgeFingerprint === undefined) return null;
  if (judgeFingerprint.criteria.length !== 1) return null;
  return { score, rationale, fingerprint: judgeFingerprint };
}

/**
 * Acceptance follows the current verdict, never the drift label. pass/fail are accepted;
 * not evaluated and errored are refused with their reasons; a baseline that would not change is
 * reported as unchanged so that a second acceptance makes no empty commit.
 *
 * The judge result (SPEC 12) rides along: it is written with every accepted reply that was judged.
 * A baseline whose reply, route and verdict are the same is unchanged when its judge result was
 * judged under the same fingerprint, or when it has none (adding one alone would rewrite every
 * older baseline at once); it is rewritten when the judge changed (criterion, threshold, model,
 * prompt version), since a stale result can never be reused and every run would pay for a call.
 */
export function decideAcceptance(
  record: Pick<FixtureRecord, 'label' | 'errored' | 'verdict' | 'reply' | 'route' | 'baseline' | 'attempts'> &
    Partial<Pick<FixtureRecord, 'score' | 'rationale' | 'judgeFingerprint'>>,
  acceptedAt: string,
  commit: string | null,
  current: Baseline | null = record.baseline,
): AcceptDecision {
  if (record.errored || record.reply === null) return { kind: 'refuse', reason: REFUSE_ERRORED };
  // SPEC 12: a repeated item whose attempts replied differently has no one reply to accept.
  if (record.attempts !== undefined && attemptRepliesVary(record.attempts)) return { kind: 'refuse', reason: repliesVary(record.attempts.length) };
  if (record.verdict !== 'pass' && record.verdict !== 'fail') return { kind: 'refuse', reason: REFUSE_NOT_EVALUATED };
  const judge = baselineJudgeOf(record);
  if (
    current !== null &&
    current.reply === record.reply &&
    sameRoute(current.route, record.route) &&
    current.verdict === record.verdict &&
    (judge === null || current.judge === undefined || sameJudge(current.judge.fingerprint, judge.fingerprint))
  ) {
    return { kind: 'unchanged' };
  }
  return {
    kind: 'accept',
    baseline: { label: record.label, reply: record.reply, route: record.route, verdict: record.verdict, ...(judge !== null ? { judge } : {}), acceptedAt, commit },
  };
}

/** What the gate reads of an item: a fixture, or a persona script (whose reply drift is its transcript drift). */
export type GateItem =
  | (Pick<FixtureRecord, 'label' | 'errored' | 'verdict' | 'drift'> & Partial<Pick<FixtureRecord, 'repeat'>>)
  | (Pick<PersonaRecord, 'label' | 'errored' | 'verdict' | 'drift'> & Partial<Pick<PersonaRecord, 'repeat'>>);

function replyChanged(drift: Drift | PersonaDrift | null): boolean {
  if (drift === null) return false;
  return 'reply' in drift ? drift.reply === 'different' : drift.transcript === 'different';
}

/** Does this fixture or script meet one fail-on condition? */
export function meets(record: Omit<GateItem, 'label'>, condition: FailOnCondition): boolean {
  switch (condition) {
    case 'newly_failing':
      return record.drift?.verdict === 'newly_failing';
    case 'failed':
      return !record.errored && record.verdict === 'fail';
    case 'not_evaluated':
      return !record.errored && record.verdict === 'not_evaluated';
    case 'errored':
      return record.errored;
    case 'no_baseline':
      return record.drift?.verdict === 'no_baseline';
    case 'reply_changed':
      return replyChanged(record.drift);
    case 'route_changed':
      return record.drift?.route === 'different';
    case 'flaky':
      // SPEC 12: a repeated item whose attempts disagree.
      return record.repeat?.flaky === true;
    case 'none':
      return false;
  }
}

export interface GateResult {
  failed: boolean;
  /** One line, e.g. "2 fixtures newly failing (refund-policy, greeting)". */
  reason: string;
  offenders: { condition: FailOnCondition; labels: string[] }[];
}

const CONDITION_WORDS: Record<FailOnCondition, string> = {
  newly_failing: 'newly failing',
  failed: 'failing',
  not_evaluated: 'not evaluated',
  errored: 'errored',
  no_baseline: 'without a baseline',
  reply_changed: 'with a changed reply',
  route_changed: 'with a changed route',
  flaky: 'flaky (attempts disagree)',
  none: '',
};

/** The gate over a whole run: its fixtures and its persona scripts, each one item. */
export function gateRun(run: Pick<RunRecord, 'fixtures' | 'personas'>, failOn: readonly FailOnCondition[]): GateResult {
  return gate(run.fixtures, failOn, run.personas);
}

/**
 * The gate of a merged (report mode) run: an incomplete merge (SPEC 12: a shard missing or a
 * foreign one excluded) fails unless `allowIncomplete`; then fail-on applies as for any run.
 */
export function gateMerged(run: Pick<RunRecord, 'fixtures' | 'personas' | 'incomplete'>, failOn: readonly FailOnCondition[], allowIncomplete: boolean): GateResult {
  const g = gateRun(run, failOn);
  if (run.incomplete == null || allowIncomplete) return g;
  const reason = `${incompleteText(run.incomplete)} (merge every shard, or allow a partial merge with --allow-incomplete / allow-incomplete: true)`;
  return { failed: true, reason: g.failed ? `${reason}; ${g.reason}` : reason, offenders: g.offenders };
}

/** "2 fixtures", "1 persona script", "3 items (fixtures and persona scripts)". */
function countNoun(fixtures: number, scripts: number): string {
  const n = fixtures + scripts;
  if (scripts === 0) return `${n} ${n === 1 ? 'fixture' : 'fixtures'}`;
  if (fixtures === 0) return `${n} persona ${n === 1 ? 'script' : 'scripts'}`;
  return `${n} items (${countNoun(fixtures, 0)}, ${countNoun(0, scripts)})`;
}

export function gate(fixtures: readonly GateItem[], failOn: readonly FailOnCondition[], personas: readonly GateItem[] = []): GateResult {
  const offenders = failOn
    .filter((c) => c !== 'none')
    .map((condition) => {
      const f = fixtures.filter((x) => meets(x, condition)).map((x) => x.label);
      const p = personas.filter((x) => meets(x, condition)).map((x) => x.label);
      return { condition, labels: [...f, ...p], counts: [f.length, p.length] as const };
    })
    .filter((o) => o.labels.length > 0);
  if (offenders.length === 0) return { failed: false, reason: 'gate passed', offenders: [] };
  const parts = offenders.map((o) => {
    const shown = o.labels.slice(0, 5).join(', ') + (o.labels.length > 5 ? `, +${o.labels.length - 5} more` : '');
    return `${countNoun(o.counts[0], o.counts[1])} ${CONDITION_WORDS[o.condition]} (${shown})`;
  });
  return { failed: true, reason: parts.join('; '), offenders: offenders.map(({ condition, labels }) => ({ condition, labels })) };
}

/** Parses a fail-on list such as "newly_failing,errored"; throws naming the bad value and the allowed set. */
export function parseFailOn(text: string, allowed: readonly FailOnCondition[]): FailOnCondition[] {
  const items = text
    .split(/[\s,]+/)
    .map((s) => s.trim().replace(/-/g, '_'))
    .filter((s) => s.length > 0);
  if (items.length === 0) return ['newly_failing'];
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw new Error(`fail-on: "${item}" is not a known condition; allowed: ${allowed.join(', ')}`);
    }
  }
  return [...new Set(items as FailOnCondition[])];
}

/** A baseline file's content: a fixture's, or a persona script's (`kind: "persona"`). */
export type StoredBaseline = Baseline | PersonaBaseline;

export interface AcceptPlan {
  accepted: StoredBaseline[];
  refused: { label: string; reason: string }[];
  /** Already the stored baseline: nothing to write. */
  unchanged: string[];
  /** Labels asked for with --only that the run does not contain. */
  unknown: string[];
}

/**
 * Decides, per fixture of a recorded run, what acceptance would write. `current` holds the
 * baselines stored now (which may differ from those the run compared against).
 */
export function planAcceptance(
  run: Pick<RunRecord, 'fixtures' | 'commit'> & { personas?: readonly PersonaRecord[] },
  current: ReadonlyMap<string, StoredBaseline>,
  options: {
    only: readonly string[] | null;
    acceptedAt: string;
    /** The suite's fixture labels: a reply for any other label is refused, not written as an orphan baseline. */
    suite?: { labels: ReadonlySet<string>; dir: string };
  },
): AcceptPlan {
  const only = options.only === null ? null : new Set(options.only);
  const plan: AcceptPlan = { accepted: [], refused: [], unchanged: [], unknown: [] };
  for (const f of run.fixtures) {
    if (only !== null && !only.has(f.label)) continue;
    const stored = current.get(f.label) ?? null;
    const decision = decideAcceptance(f, options.acceptedAt, run.commit, stored !== null && !('kind' in stored) ? stored : null);
    if (decision.kind === 'accept' && options.suite && !options.suite.labels.has(f.label)) {
      plan.refused.push({ label: f.label, reason: `no fixture is labelled ${f.label} in ${options.suite.dir}: was it renamed or removed?` });
    } else if (decision.kind === 'accept') plan.accepted.push(decision.baseline);
    else if (decision.kind === 'refuse') plan.refused.push({ label: f.label, reason: decision.reason });
    else plan.unchanged.push(f.label);
  }
  for (const p of run.personas ?? []) {
    if (only !== null && !only.has(p.label)) continue;
    const stored = current.get(p.label) ?? null;
    const decision = decidePersonaAcceptance(p, options.acceptedAt, run.commit, stored !== null && 'kind' in stored ? stored : null);
    if (decision.kind === 'accept' && options.suite && !options.suite.labels.has(p.label)) {
      plan.refused.push({ label: p.label, reason: `no persona script is labelled ${p.label} in ${options.suite.dir}: was it renamed or removed?` });
    } else if (decision.kind === 'accept') plan.accepted.push(decision.baseline);
    else if (decision.kind === 'refuse') plan.refused.push({ label: p.label, reason: decision.reason });
    else plan.unchanged.push(p.label);
  }
  if (only !== null) {
    const present = new Set([...run.fixtures, ...(run.personas ?? [])].map((f) => f.label));
    plan.unknown = [...only].filter((l) => !present.has(l));
  }
  return plan;
}

export * from './agreement.js';
export * from './coverage.js';
export * from './definition.js';
export * from './compare.js';
export * from './selection.js';
export * from './repeat.js';
export * from './reuse.js';
export * from './shard.js';
