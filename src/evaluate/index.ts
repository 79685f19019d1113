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
import { causeLine, groupCauses, type CauseGroup, type CauseItem } from './causes.js';

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

/** Did this item go unmeasured: its replay errored, or its check did not run? */
export function isUnverified(record: Pick<GateItem, 'errored' | 'verdict'>): boolean {
  return record.errored || record.verdict === 'not_evaluated';
}

/** Does this fixture or script meet one fail-on condition? */
export function meets(record: Omit<GateItem, 'label'>, condition: FailOnCondition): boolean {
  switch (condition) {
    case 'newly_failing':
      return record.drift?.verdict === 'newly_failing';
    case 'unverified':
      return isUnverified(record);
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
      // A repeated item whose attempts disagree.
      return record.repeat?.flaky === true;
    case 'none':
      return false;
  }
}

/**
 * Was the run verified: every item measured (no errored, no not evaluated), the run not
 * interrupted, the merge complete? What is not, grouped by cause, largest group first.
 */
export interface Verification {
  verified: boolean;
  errored: number;
  notEvaluated: number;
  interrupted: boolean;
  /** A shard merge that lacks shards (and was not allowed to). */
  incomplete: boolean;
  causes: CauseGroup[];
}

/** The run facts the verification reads besides its items. */
export type VerifiedRun = { fixtures: readonly GateItem[]; personas?: readonly GateItem[] } & Partial<Pick<RunRecord, 'interrupted' | 'incomplete' | 'agent'>>;

export function verificationOf(run: VerifiedRun, options: { allowIncomplete?: boolean } = {}): Verification {
  const items: readonly CauseItem[] = [...run.fixtures, ...(Array.isArray(run.personas) ? run.personas : [])];
  const errored = items.filter((i) => i.errored).length;
  const notEvaluated = items.filter((i) => !i.errored && i.verdict === 'not_evaluated').length;
  const interrupted = run.interrupted === true;
  const incomplete = run.incomplete != null && options.allowIncomplete !== true;
  const causes = groupCauses(items, run.agent?.endpoint ?? null);
  return { verified: errored + notEvaluated === 0 && !interrupted && !incomplete, errored, notEvaluated, interrupted, incomplete, causes };
}

/** "5 errored", "2 errored, 1 not evaluated", "interrupted", "an incomplete merge". */
export function unverifiedCounts(v: Verification): string[] {
  const parts: string[] = [];
  if (v.errored > 0) parts.push(`${v.errored} errored`);
  if (v.notEvaluated > 0) parts.push(`${v.notEvaluated} not evaluated`);
  if (v.interrupted) parts.push('the run was interrupted');
  if (v.incomplete) parts.push('shards missing from the merge');
  return parts;
}

/** "Not verified: 5 errored (all 5: HTTP 404 from ...: check agent-path or agent.url)"; null when verified. */
export function unverifiedText(v: Verification): string | null {
  if (v.verified) return null;
  const top = v.causes[0];
  const cause = top ? ` (${causeLine(top, v.errored + v.notEvaluated)})` : '';
  return `Not verified: ${unverifiedCounts(v).join(', ')}${cause}`;
}

export interface GateResult {
  failed: boolean;
  /** One line, e.g. "2 fixtures newly failing (refund-policy, greeting)". */
  reason: string;
  offenders: { condition: FailOnCondition; labels: string[] }[];
  /** Whether the run was verified, whatever fail-on says (the Action's `verified` output). */
  verification: Verification;
  /** The gate failed only because the run was not verified: no regression, nothing else met. */
  unverifiedOnly: boolean;
}

const CONDITION_WORDS: Record<FailOnCondition, string> = {
  newly_failing: 'newly failing',
  unverified: 'not verified',
  failed: 'failing',
  not_evaluated: 'not evaluated',
  errored: 'errored',
  no_baseline: 'without a baseline',
  reply_changed: 'with a changed reply',
  route_changed: 'with a changed route',
  flaky: 'flaky (attempts disagree)',
  none: '',
};

/** The gate over a whole run: its fixtures and its persona scripts, each one item; an interrupted run is not verified. */
export function gateRun(run: VerifiedRun, failOn: readonly FailOnCondition[]): GateResult {
  return gate(run.fixtures, failOn, Array.isArray(run.personas) ? run.personas : [], { ...run, incomplete: undefined });
}

/**
 * The gate of a merged (report mode) run: an incomplete merge (a shard missing or a foreign one
 * excluded) fails unless `allowIncomplete`, also the lenient gate; then fail-on applies as for any run.
 */
export function gateMerged(run: VerifiedRun, failOn: readonly FailOnCondition[], allowIncomplete: boolean): GateResult {
  const personas = Array.isArray(run.personas) ? run.personas : [];
  const g = gate(run.fixtures, failOn, personas, allowIncomplete ? { ...run, incomplete: undefined } : run);
  if (run.incomplete == null || allowIncomplete) return g;
  const reason = `${incompleteText(run.incomplete)} (merge every shard, or allow a partial merge with --allow-incomplete / allow-incomplete: true)`;
  return { ...g, failed: true, reason: g.failed ? `${reason}; ${g.reason}` : reason, unverifiedOnly: g.failed ? g.unverifiedOnly : true };
}

/** "2 fixtures", "1 persona script", "3 items (fixtures and persona scripts)". */
function countNoun(fixtures: number, scripts: number): string {
  const n = fixtures + scripts;
  if (scripts === 0) return `${n} ${n === 1 ? 'fixture' : 'fixtures'}`;
  if (fixtures === 0) return `${n} persona ${n === 1 ? 'script' : 'scripts'}`;
  return `${n} items (${countNoun(fixtures, 0)}, ${countNoun(0, scripts)})`;
}

/**
 * The gate: which fail-on conditions the items meet. `run` adds what the run as a whole says
 * (interrupted, an incomplete merge, the agent's endpoint for the causes); `unverified` is met by
 * any errored or not evaluated item and by an interrupted or incomplete run.
 */
export function gate(
  fixtures: readonly GateItem[],
  failOn: readonly FailOnCondition[],
  personas: readonly GateItem[] = [],
  run: Partial<Pick<RunRecord, 'interrupted' | 'incomplete' | 'agent'>> = {},
): GateResult {
  const verification = verificationOf({ ...run, fixtures, personas });
  const offenders = failOn
    .filter((c) => c !== 'none')
    .map((condition) => {
      const f = fixtures.filter((x) => meets(x, condition)).map((x) => x.label);
      const p = personas.filter((x) => meets(x, condition)).map((x) => x.label);
      return { condition, labels: [...f, ...p], counts: [f.length, p.length] as const };
    })
    .filter((o) => o.labels.length > 0);
  const runUnverified = failOn.includes('unverified') && (verification.interrupted || verification.incomplete);
  if (offenders.length === 0 && !runUnverified) return { failed: false, reason: 'gate passed', offenders: [], verification, unverifiedOnly: false };
  // The regression (and any other condition met) leads; "not verified" follows, with its cause.
  const parts = offenders
    .filter((o) => o.condition !== 'unverified')
    .map((o) => {
      const shown = o.labels.slice(0, 5).join(', ') + (o.labels.length > 5 ? `, +${o.labels.length - 5} more` : '');
      return `${countNoun(o.counts[0], o.counts[1])} ${CONDITION_WORDS[o.condition]} (${shown})`;
    });
  const unverifiedMet = runUnverified || offenders.some((o) => o.condition === 'unverified');
  const notVerified = unverifiedMet ? unverifiedText(verification) : null;
  if (notVerified !== null) parts.push(notVerified);
  return {
    failed: true,
    reason: parts.join('; '),
    offenders: offenders.map(({ condition, labels }) => ({ condition, labels })),
    verification,
    unverifiedOnly: unverifiedMet && offenders.every((o) => o.condition === 'unverified'),
  };
}

/** The gate when fail-on is not given: a regression, or a run that was not verified. */
export const DEFAULT_FAIL_ON: readonly FailOnCondition[] = ['newly_failing', 'unverified'];

/** Parses a fail-on list such as "newly_failing,errored"; throws naming the bad value and the allowed set. */
export function parseFailOn(text: string, allowed: readonly FailOnCondition[]): FailOnCondition[] {
  const items = text
    .split(/[\s,]+/)
    .map((s) => s.trim().replace(/-/g, '_'))
    .filter((s) => s.length > 0);
  if (items.length === 0) return [...DEFAULT_FAIL_ON];
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
export * from './causes.js';
