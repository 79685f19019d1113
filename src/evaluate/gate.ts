// The gate: which fail-on conditions a run's items meet, and whether the run was verified
// (docs/semantics.md#the-gate). Pure.

import type { FailOnCondition, FixtureRecord, PersonaRecord, RunRecord } from '../types.js';
import { causeGroups, causeLine, type CauseGroup, type CauseGroups, type CauseItem } from './causes.js';
import { meetsChange } from './changes.js';
import { incompleteText } from './shard.js';
import { nearestName } from '../suite/issues.js';
import { listWords, plural, shownAndMore, thousands } from '../words.js';

/** What the gate reads of an item: a fixture, or a persona script (whose reply drift is its transcript drift). */
export type GateItem =
  | (Pick<FixtureRecord, 'label' | 'errored' | 'verdict' | 'drift'> & Partial<Pick<FixtureRecord, 'repeat' | 'slower' | 'stats' | 'spans'>>)
  | (Pick<PersonaRecord, 'label' | 'errored' | 'verdict' | 'drift'> & Partial<Pick<PersonaRecord, 'repeat' | 'slower' | 'stats' | 'turns'>>);

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
    case 'route_changed':
    case 'meaning_changed':
    case 'slower':
      // A change against the baseline (changes.ts): reply or transcript, meaning (`changed` only), route, slower (docs/latency.md).
      return meetsChange(record, condition);
    case 'flaky':
      // A repeated item whose attempts disagree.
      return record.repeat?.flaky === true;
    case 'regressed':
      // The pass rate's drop against the baseline's attempts is significant (docs/statistics.md, "The tier").
      return record.stats?.tier === 'regressed';
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
export type VerifiedRun = { fixtures: readonly GateItem[]; personas?: readonly GateItem[] } & Partial<Pick<RunRecord, 'interrupted' | 'incomplete' | 'agent' | 'configName'>>;

export function verificationOf(run: VerifiedRun, options: { allowIncomplete?: boolean } = {}): Verification {
  return verificationGrouped(run, options).verification;
}

/** verificationOf, with the cause group each unverified item went into (causeGroups): the reports list each item under it, decided once. */
export function verificationGrouped(run: VerifiedRun, options: { allowIncomplete?: boolean } = {}): { verification: Verification; groupOf: CauseGroups['of'] } {
  const items: readonly CauseItem[] = [...run.fixtures, ...(Array.isArray(run.personas) ? run.personas : [])];
  let errored = 0;
  let notEvaluated = 0;
  for (const i of items) {
    if (i.errored) errored++;
    else if (i.verdict === 'not_evaluated') notEvaluated++;
  }
  const interrupted = run.interrupted === true;
  const incomplete = run.incomplete != null && options.allowIncomplete !== true;
  const causes = causeGroups(items, run.agent?.endpoint ?? null, run.configName);
  return { verification: { verified: errored + notEvaluated === 0 && !interrupted && !incomplete, errored, notEvaluated, interrupted, incomplete, causes: causes.groups }, groupOf: causes.of };
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

/**
 * "Not verified: 5 errored (all 5: HTTP 404 from ...: check agent-path or agent.url)"; null when
 * verified. `lead` is "not verified" where the text follows a colon or another reason mid-sentence.
 */
export function unverifiedText(v: Verification, lead = 'Not verified'): string | null {
  if (v.verified) return null;
  const top = v.causes[0];
  const cause = top ? ` (${causeLine(top, v.errored + v.notEvaluated)})` : '';
  return `${lead}: ${unverifiedCounts(v).join(', ')}${cause}`;
}

/** A fail-on condition met, by which items: `fixtures` and `scripts` count them (fixtures first in `labels`). */
export interface Offender {
  condition: FailOnCondition;
  labels: string[];
  fixtures: number;
  scripts: number;
}

export interface GateResult {
  failed: boolean;
  /** One line, e.g. "2 fixtures newly failing (refund-policy, greeting)". */
  reason: string;
  offenders: Offender[];
  /** Whether the run was verified, whatever fail-on says (the Action's `verified` output). */
  verification: Verification;
  /** The gate failed only because the run was not verified: no regression, nothing else met. */
  unverifiedOnly: boolean;
}

/**
 * A fail-on condition in words, after a count: "2 newly failing". Followed by the items' labels in
 * parentheses (offenderText), so none of them holds its own: "1 fixture flaky (attempts disagree)
 * (coin-toss)" read as two asides, the second one's subject unclear.
 */
export const CONDITION_WORDS: Record<FailOnCondition, string> = {
  newly_failing: 'newly failing',
  unverified: 'not verified',
  failed: 'failing',
  not_evaluated: 'not evaluated',
  errored: 'errored',
  no_baseline: 'without a baseline',
  reply_changed: 'with a changed reply',
  route_changed: 'with a changed route',
  meaning_changed: 'changed in meaning',
  flaky: 'whose attempts disagree',
  slower: 'slower than the baseline',
  regressed: 'whose pass rate regressed',
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

/**
 * One condition met, in words: "2 fixtures slower than the baseline (refund-policy, greeting)", the
 * first 5 labels named, each written by `label` for its surface (a code span in markdown). The
 * counts say how many more: a gate read back from a comment keeps only the labels it names, and one
 * with no room for any says where they are: "(not named here: see the check's job summary)".
 */
export function offenderText(o: Offender, label: (text: string) => string = (text) => text): string {
  const named = o.labels.slice(0, 5);
  const more = o.fixtures + o.scripts - named.length;
  const shown = named.length === 0 ? NOT_NAMED : shownAndMore(named.map(label), more);
  return `${countNoun(o.fixtures, o.scripts)} ${CONDITION_WORDS[o.condition]} (${shown})`;
}

/** A condition whose labels a gate read back from a comment had no room to keep: where they are named. */
const NOT_NAMED = "not named here: see the check's job summary";

/** "2 fixtures", "1 persona script", "3 items (fixtures and persona scripts)", "1,234 fixtures": grouped as every count (src/words.ts). */
function countNoun(fixtures: number, scripts: number): string {
  const n = fixtures + scripts;
  if (scripts === 0) return plural(n, 'fixture', 'fixtures');
  if (fixtures === 0) return plural(n, 'persona script', 'persona scripts');
  return `${thousands(n)} items (${countNoun(fixtures, 0)}, ${countNoun(0, scripts)})`;
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
      return { condition, labels: [...f, ...p], fixtures: f.length, scripts: p.length };
    })
    .filter((o) => o.labels.length > 0);
  const runUnverified = failOn.includes('unverified') && (verification.interrupted || verification.incomplete);
  if (offenders.length === 0 && !runUnverified) return { failed: false, reason: 'gate passed', offenders: [], verification, unverifiedOnly: false };
  // The regression (and any other condition met) leads; "not verified" follows, with its cause.
  const parts = offenders.filter((o) => o.condition !== 'unverified').map((o) => offenderText(o));
  const unverifiedMet = runUnverified || offenders.some((o) => o.condition === 'unverified');
  // The reason is read after "gate failed: " or a regression's "; ": mid-sentence, so in lower case
  // (docs/cli.md, "The gate and the exit status"); the headline's "Not verified" starts its line.
  const notVerified = unverifiedMet ? unverifiedText(verification, 'not verified') : null;
  if (notVerified !== null) parts.push(notVerified);
  return {
    failed: true,
    reason: parts.join('; '),
    offenders,
    verification,
    unverifiedOnly: unverifiedMet && offenders.every((o) => o.condition === 'unverified'),
  };
}

/** The gate when fail-on is not given: a regression, or a run that was not verified. */
export const DEFAULT_FAIL_ON: readonly FailOnCondition[] = ['newly_failing', 'unverified'];

/** Parses a fail-on list such as "newly_failing,errored"; throws naming the bad value and the allowed set. */
export function parseFailOn(text: string, allowed: readonly FailOnCondition[]): FailOnCondition[] {
  const written = text.split(/[\s,]+/).filter((s) => s.length > 0);
  // A dash may stand for an underscore (docs/cli.md, "The gate and the exit status"); the case may not: conditions are lower case.
  const items = written.map((s) => s.replace(/-/g, '_'));
  if (items.length === 0) return [...DEFAULT_FAIL_ON];
  for (const [i, item] of items.entries()) {
    if (!(allowed as readonly string[]).includes(item)) {
      // A condition written short ("slow"), misspelt ("errors") or in capitals ("Newly-Failing") names the one meant, by the rule of every hint;
      // the value is quoted as written, its dashes too.
      const meant = nearestName(item, allowed);
      throw new Error(`fail-on: "${written[i]}" is not a known condition${meant === null ? '; allowed' : `: did you mean "${meant}"? Allowed`}: ${allowed.join(', ')}`);
    }
  }
  const conditions = [...new Set(items as FailOnCondition[])];
  // `none` is the gate of no condition (docs/semantics.md, "The gate"): beside a condition it would
  // say both, so it stands alone.
  const others = conditions.filter((c) => c !== 'none');
  if (conditions.includes('none') && others.length > 0) {
    throw new Error(`fail-on: "none" (no condition) cannot be combined with ${listWords(others.map((c) => `"${c}"`))}; give none alone, or the conditions without none (allowed: ${allowed.join(', ')})`);
  }
  return conditions;
}
