// Compare two recorded runs (docs/evaluations.md#compare): the change in agreement and why. Items (fixtures
// and persona scripts) are matched by label; each changed item gets its first cause, in the order
// of the contract. The earlier run (by startedAt) is always "before". Pure: no model, no I/O.

import type { CoverageResult, ErrorKind, FixtureRecord, JudgeFingerprint, LatencyThresholds, McNemar, PersonaErrorKind, PersonaRecord, RepeatSummary, RunRecord, RunStats } from '../types.js';
import { agreement, agreementReport, type Agreement, type AgreementGroup } from './agreement.js';
import { causeOf } from './causes.js';
import { baselineMoved, changeBetween, DIMENSIONS, type CauseWords, type DimensionCause } from './changes.js';
import { coverageChange, type CoverageChange } from './coverage.js';
import { judgeDifferences, sameJudge } from './definition.js';
import { isJudgeFlip, judgeFlip, meaningJudgeChange, withMeaningJudgeChange } from './judge-flip.js';
import { kindOf } from './kind.js';
import { DEFAULT_LATENCY } from '../config.js';
import { runsStatsOf } from './run-stats.js';
import { mcnemarExact } from './stats.js';
import { incompleteParts } from './shard.js';
import { plural, thousands, turnWords } from '../words.js';

/** An item's result in one run. */
export type ItemResult = 'pass' | 'fail' | 'not_evaluated' | 'errored';

/**
 * The first cause of an item's change, in contract order: added or removed, definition changed,
 * judge changed, reply or route changed (transcript or route for a persona script), verdict
 * changed, error class changed, the baseline changed between the runs (the same replies, another
 * standing against each run's own baseline), slower.
 */
export type ChangeCause =
  | 'added'
  | 'removed'
  | 'definition_changed'
  | 'judge_changed'
  | 'reply_changed'
  | 'route_changed'
  | 'transcript_changed'
  | 'meaning_changed'
  | 'reworded'
  | 'verdict_changed'
  | 'error_class_changed'
  | 'baseline_changed'
  | 'slower';

export const CHANGE_CAUSES: readonly ChangeCause[] = [
  'added',
  'removed',
  'definition_changed',
  'judge_changed',
  'reply_changed',
  'route_changed',
  'transcript_changed',
  'meaning_changed',
  'reworded',
  'verdict_changed',
  'error_class_changed',
  'baseline_changed',
  'slower',
] as const;

/** How the result moved: fixed (fail or errored → pass), broken (pass → fail or errored), else changed. */
export type Movement = 'fixed' | 'broken' | 'changed';

export interface ItemSide {
  result: ItemResult;
  errorKind: ErrorKind | PersonaErrorKind | null;
  definitionHash: string | null;
  judgeFingerprint: JudgeFingerprint | null;
  /** A repeated item's passes over attempts (absent for an item run once). */
  repeat?: RepeatSummary;
  /** An errored item's error in a few words: "HTTP 503 from the agent", a script's "turn 2: HTTP 503 from the agent" (absent when it did not error). */
  error?: string;
}

export interface ItemChange {
  label: string;
  kind: 'fixture' | 'persona';
  /** Null: the item is only in the after run. */
  before: ItemSide | null;
  /** Null: the item is only in the before run. */
  after: ItemSide | null;
  cause: ChangeCause;
  /** Null for added and removed items. */
  movement: Movement | null;
  /** One line: what changed, e.g. "verdict pass → fail", "judge: threshold 0.7 → 0.8". */
  detail: string;
}

/**
 * A repeated item in both runs whose pass rate of attempts moved while nothing else did, its verdict
 * included (4/5 → 3/5, both passing minPass 3): not a change of the item's, and not "unchanged"
 * either (docs/evaluations.md#compare). Its sides carry the k/N (`repeat`).
 */
export interface AttemptsMove {
  label: string;
  kind: 'fixture' | 'persona';
  before: ItemSide;
  after: ItemSide;
}

export interface RunRef {
  startedAt: string;
  commit: string | null;
  /** The file it was read from, when the caller says (the CLI does). */
  file: string | null;
  /** The record replayed only part of the suite (`--rerun`, `--only`, or a shard). */
  partial: boolean;
  /** Set (true) when the record is one shard or a merge that lacks shards. */
  shards?: true;
  /** With `shards`, which part it is: "shard 2/4", or what the merge lacks ("shard 4/4 missing"). */
  part?: string;
}

export interface GroupComparison {
  key: string;
  before: AgreementGroup | null;
  after: AgreementGroup | null;
}

export interface Comparison {
  before: RunRef;
  after: RunRef;
  /** The arguments were given after-first: they were swapped so that the earlier run is "before". */
  swapped: boolean;
  agreement: {
    before: Agreement;
    after: Agreement;
    /** after.percent - before.percent in percentage points; null when either is n/a. */
    deltaPoints: number | null;
  };
  /** Agreement over the items in both runs only: the part of the change not due to added or removed items. */
  common: { before: Agreement; after: Agreement };
  groups: { byConversation: GroupComparison[]; byFile: GroupComparison[]; byPersona: GroupComparison[] };
  /** Every changed item (those only in one run included), in label order. */
  changes: ItemChange[];
  /** Changed items counted by first cause (every cause present, zeros included). */
  causes: Record<ChangeCause, number>;
  fixed: string[];
  broken: string[];
  /** Labels only in the before run / only in the after run. */
  onlyBefore: string[];
  onlyAfter: string[];
  /** Repeated items in both runs whose pass rate of attempts alone moved, in label order; not in `changes`. */
  attemptsMoved: AttemptsMove[];
  /** Items in both runs with no change at all, their pass rate of attempts included. */
  unchanged: number;
  /** Both runs recorded coverage and neither is partial: each side and what changed; else null. */
  coverage: { before: CoverageResult; after: CoverageResult; change: CoverageChange } | null;
  /** One line: why agreement changed, e.g. "2 items added; 1 reply changed; 1 item's pass rate of attempts moved, not its verdict". */
  summary: string;
  /** McNemar's exact test over the paired items (docs/evaluations.md#compare). */
  mcnemar: PairedMcNemar;
  /**
   * The pass rate of attempts over the items in both runs, by the run's own rule (run-stats.ts
   * runsStatsOf), when both runs repeated some item; null otherwise, or when the caller asked for
   * none (docs/evaluations.md#compare).
   */
  passRate: RunStats | null;
}

/**
 * McNemar's exact test over the items in both runs with a verdict (pass or fail) in each: `pairs`
 * such items, of which `newlyFailing` passed before and fail after, `newlyPassing` the reverse
 * (docs/statistics.md, "The run: the paired bootstrap and McNemar"). The items in both runs it
 * leaves out are counted, so that the output can say why a "broken" item is not "newly failing"
 * (docs/evaluations.md#compare): `errored` errored in either run, `notEvaluated` the others not
 * evaluated in either run.
 */
export interface PairedMcNemar extends McNemar {
  pairs: number;
  errored: number;
  notEvaluated: number;
}

/** McNemar's test over paired items (before, after), leaving out those errored or not evaluated on either side. */
export function pairedMcNemar(pairs: readonly (readonly [Pick<Item, 'errored' | 'verdict'>, Pick<Item, 'errored' | 'verdict'>])[]): PairedMcNemar {
  let n = 0;
  let newlyFailing = 0;
  let newlyPassing = 0;
  let errored = 0;
  let notEvaluated = 0;
  for (const [x, y] of pairs) {
    const rx = resultOf(x);
    const ry = resultOf(y);
    if (rx === 'errored' || ry === 'errored') errored += 1;
    else if (rx === 'not_evaluated' || ry === 'not_evaluated') notEvaluated += 1;
    if ((rx !== 'pass' && rx !== 'fail') || (ry !== 'pass' && ry !== 'fail')) continue;
    n += 1;
    if (rx === 'pass' && ry === 'fail') newlyFailing += 1;
    if (rx === 'fail' && ry === 'pass') newlyPassing += 1;
  }
  return { pairs: n, newlyFailing, newlyPassing, p: mcnemarExact(newlyFailing, newlyPassing), errored, notEvaluated };
}

type Item = FixtureRecord | PersonaRecord;

export function resultOf(i: Pick<Item, 'errored' | 'verdict'>): ItemResult {
  if (i.errored) return 'errored';
  return i.verdict ?? 'not_evaluated';
}

function side(i: Item): ItemSide {
  return {
    result: resultOf(i),
    errorKind: i.errorKind,
    definitionHash: i.definitionHash ?? null,
    judgeFingerprint: i.judgeFingerprint ?? null,
    ...(i.repeat !== undefined ? { repeat: i.repeat } : {}),
    ...(errorWords(i) !== null ? { error: errorWords(i) as string } : {}),
  };
}

/**
 * An errored item's error in a few words: the cause the run's Errored section groups it under
 * (causes.ts), with the turn a script stopped on: "HTTP 503 from the agent", "turn 2: HTTP 503
 * from the agent" (docs/evaluations.md#compare); null when it did not error.
 */
function errorWords(i: Item): string | null {
  if (!i.errored) return null;
  const what = causeOf(i, null)?.what ?? '';
  const turn = kindOf(i) === 'script' ? scriptErrorTurn(i.error ?? '') : undefined;
  const words = [turn, what].filter((x): x is string => x !== undefined && x !== '').join(': ');
  return words === '' ? null : words;
}

/**
 * The turn a script's error names before its colon, as every surface names it (turnWords): "turn 2",
 * "turn 0 (welcome)"; a record written before 2026-12-06 named its welcome turn "welcome turn" (the
 * agent client's errors) or "turn 0" (an errors entry), read as that turn too.
 */
function scriptErrorTurn(error: string): string | undefined {
  const m = /^(?:welcome turn|turn (\d+))(?: \(welcome\))?: /.exec(error);
  return m === null ? undefined : turnWords(Number(m[1] ?? 0));
}

/** An item's result, an error named: "pass", "errored (HTTP 503 from the agent)". */
function resultWithError(i: Item): string {
  const words = errorWords(i);
  return words === null ? resultOf(i) : `${resultOf(i)} (${words})`;
}

/** "runs once", "repeat 3, minPass 2", or with extra attempts "repeat 3, minPass 2, max 10". */
function repeatWords(r: Pick<RepeatSummary, 'count' | 'minPass'> | undefined, max?: number): string {
  const head = r === undefined || r.count <= 1 ? 'runs once' : `repeat ${r.count}, minPass ${r.minPass}`;
  return max === undefined ? head : `${head}, max ${max}`;
}

/**
 * What defines an item's attempts on each side, in words, or null when they cannot differ
 * (docs/evaluations.md#compare): the repeat it ran with (`repeat.plan`) when it could make extra
 * attempts, whose `count` (the attempts made) varies from run to run; else the attempts made. A
 * side without a plan (no `max`, or a record from before plans) is read by its count and minPass
 * alone, and one that made extra attempts (more than one look) without a plan says nothing.
 */
function repeatChange(before: Item, after: Item): [string, string] | null {
  const b = before.repeat?.plan;
  const a = after.repeat?.plan;
  if (b !== undefined && a !== undefined) {
    const words: [string, string] = [repeatWords(b, b.max), repeatWords(a, a.max)];
    return words[0] === words[1] ? null : words;
  }
  if (b === undefined && a === undefined) {
    const words: [string, string] = [repeatWords(before.repeat), repeatWords(after.repeat)];
    if (words[0] === words[1] || [before, after].some((i) => (i.stats?.looks ?? 1) > 1)) return null;
    return words;
  }
  // One side planned, the other not: the plan's batch against the other's attempts, when they are its batch.
  const planned = (b ?? a) as NonNullable<RepeatSummary['plan']>;
  const other = b === undefined ? before : after;
  if ((other.stats?.looks ?? 1) > 1) return null;
  const words = [repeatWords(planned), repeatWords(other.repeat)];
  if (words[0] === words[1]) return null;
  return b === undefined ? [repeatWords(other.repeat), repeatWords(planned, planned.max)] : [repeatWords(planned, planned.max), repeatWords(other.repeat)];
}

/**
 * What a verdict change says beside its move ("pass → errored"), which the before and after say
 * already: the error, "before: <error>" for an item fixed since ("before, on turn 2: <error>" for a
 * script's, not "before: turn 2: ..."), a judge that answered the same reply differently in full,
 * or nothing (docs/evaluations.md#compare).
 */
export function verdictMoveDetail(c: Pick<ItemChange, 'before' | 'after' | 'detail'>): string {
  // The judge that answered the same reply differently is said in full: the move alone reads as the agent's.
  if (isJudgeFlip(c.detail)) return c.detail;
  if (c.after?.error !== undefined) return c.after.error;
  if (c.before?.error === undefined) return '';
  const turn = /^(turn \d+(?: \(welcome\))?): (.*)$/s.exec(c.before.error);
  return turn === null ? `before: ${c.before.error}` : `before, on ${turn[1] as string}: ${turn[2] as string}`;
}

/** The first cause of a change between two runs of one item, with its detail; null: unchanged. */
export function firstCause(before: Item, after: Item, latency: LatencyThresholds = DEFAULT_LATENCY): { cause: ChangeCause; detail: string } | null {
  // Older records have no hash or fingerprint: an unknown definition is never called "changed".
  if (before.definitionHash != null && after.definitionHash != null && before.definitionHash !== after.definitionHash) {
    return { cause: 'definition_changed', detail: `definition changed (${before.definitionHash} → ${after.definitionHash})` };
  }
  // How many attempts and passes decide the verdict is part of what defines the item.
  const repeat = repeatChange(before, after);
  if (repeat !== null) return { cause: 'definition_changed', detail: `definition changed (${repeat[0]} → ${repeat[1]})` };
  if (before.judgeFingerprint !== undefined && after.judgeFingerprint !== undefined && !sameJudge(before.judgeFingerprint, after.judgeFingerprint)) {
    return { cause: 'judge_changed', detail: `judge changed: ${judgeDifferences(before.judgeFingerprint, after.judgeFingerprint).join(', ')}` };
  }
  // What the item told the user (reply or transcript, route): the change dimensions of changes.ts.
  // Not for an item that errored in either run: its replies stop where the error stopped them, so a
  // shorter transcript or a missing route is the error's doing, and the error is what changed
  // (docs/evaluations.md#compare).
  if (!before.errored && !after.errored) {
    const content = changeBetween(before, after, 'content', latency);
    if (content !== null) return content;
  }
  const rb = resultOf(before);
  const ra = resultOf(after);
  if (rb !== ra) return { cause: 'verdict_changed', detail: judgeFlip(before, after) ?? `verdict ${resultWithError(before)} → ${resultWithError(after)}` };
  if (before.errored && after.errored && before.errorKind !== after.errorKind) {
    // The errors in words ("HTTP 503 from the agent"), as the run's Errored section groups them; the kind when it has none.
    return { cause: 'error_class_changed', detail: `${errorWords(before) ?? before.errorKind} → ${errorWords(after) ?? after.errorKind}` };
  }
  // The same replies, another standing: a baseline accepted between the runs moved the item, not the agent.
  const baseline = baselineMoved(before, after);
  if (baseline !== null) return { cause: 'baseline_changed', detail: baseline };
  // Last: the same result, only slower, by config.yml's latency thresholds (docs/latency.md).
  return changeBetween(before, after, 'speed', latency);
}

/** Both runs repeated the item and its passes over attempts are another rate (4/5 → 3/5; not 4/5 → 8/10). */
function attemptsMoved(before: Item, after: Item): boolean {
  const b = before.repeat;
  const a = after.repeat;
  return b !== undefined && a !== undefined && b.passed * a.count !== a.passed * b.count;
}

/** A repeated item whose passes over attempts alone moved, as every report titles its list (docs/evaluations.md#compare). */
export const ATTEMPTS_MOVED_TITLE = 'Pass rate of attempts moved, verdict unchanged';

const RESULT_WORDS: Record<ItemResult, string> = { pass: 'pass', fail: 'fail', not_evaluated: 'not evaluated', errored: 'errored' };

/** An item's result on one side, as compare and the comment write it: "pass", a repeated item's "pass 4/5", "fail 2/3 (flaky)". */
export function sideWords(s: ItemSide): string {
  const k = s.repeat === undefined ? '' : ` ${s.repeat.passed}/${s.repeat.count}${s.repeat.flaky ? ' (flaky)' : ''}`;
  return RESULT_WORDS[s.result] + k;
}

/** "1 item's pass rate of attempts moved, not its verdict", "5 items' pass rates of attempts moved, not their verdicts". */
export function attemptsMovedWords(n: number): string {
  return n === 1 ? "1 item's pass rate of attempts moved, not its verdict" : `${thousands(n)} items' pass rates of attempts moved, not their verdicts`;
}

export function movementOf(before: ItemResult, after: ItemResult): Movement {
  const bad = (r: ItemResult): boolean => r === 'fail' || r === 'errored';
  if (bad(before) && after === 'pass') return 'fixed';
  if (before === 'pass' && bad(after)) return 'broken';
  return 'changed';
}

function byLabel(run: Pick<RunRecord, 'fixtures' | 'personas'>): Map<string, Item> {
  return new Map<string, Item>([...run.fixtures, ...run.personas].map((i) => [i.label, i]));
}

/** The kind `compare` writes ("persona" for a script, as its JSON always said). */
function itemKind(i: Item): ItemChange['kind'] {
  return kindOf(i) === 'script' ? 'persona' : 'fixture';
}

function compareGroups(before: readonly AgreementGroup[], after: readonly AgreementGroup[]): GroupComparison[] {
  const keys = [...new Set([...before.map((g) => g.key), ...after.map((g) => g.key)])].sort();
  return keys.map((key) => ({ key, before: before.find((g) => g.key === key) ?? null, after: after.find((g) => g.key === key) ?? null }));
}

/** How each cause is said (a change dimension's words are its own: changes.ts). */
export const CAUSE_WORDS: Record<ChangeCause, CauseWords> = {
  added: { title: 'added', one: 'item added', many: 'items added' },
  removed: { title: 'removed', one: 'item removed', many: 'items removed' },
  definition_changed: { title: 'definition changed', one: 'definition changed', many: 'definitions changed' },
  judge_changed: { title: 'judge changed', one: 'judge changed', many: 'judges changed' },
  ...dimensionCauseWords(),
  verdict_changed: { title: 'verdict changed', one: 'verdict changed', many: 'verdicts changed' },
  error_class_changed: { title: 'error class changed', one: 'error class changed', many: 'error classes changed' },
  baseline_changed: { title: 'baseline changed', one: 'baseline changed between the runs', many: 'baselines changed between the runs' },
};

function dimensionCauseWords(): Record<DimensionCause, CauseWords> {
  const rules: readonly { cause: DimensionCause; causeWords: CauseWords; otherCause?: { cause: DimensionCause; words: CauseWords } }[] = Object.values(DIMENSIONS);
  return Object.fromEntries(rules.flatMap((d) => [[d.cause, d.causeWords], ...(d.otherCause ? [[d.otherCause.cause, d.otherCause.words]] : [])])) as Record<DimensionCause, CauseWords>;
}

/** "2 items added", "1 reply changed". */
export function causeWords(cause: ChangeCause, n: number): string {
  const w = CAUSE_WORDS[cause];
  return plural(n, w.one, w.many);
}

/** One shard's record, or a merge that lacks shards: items it does not list were not replayed, not removed. */
function lacksShards(run: RunRecord): boolean {
  return run.shard != null || run.incomplete != null;
}

/** A record of part of the suite (a shard, a merge lacking shards, `--rerun` or `--only`): items it does not list were not replayed. */
function isPartial(run: RunRecord): boolean {
  return run.selection != null || lacksShards(run);
}

function refOf(run: RunRecord, file: string | null): RunRef {
  return { startedAt: run.startedAt, commit: run.commit, file, partial: isPartial(run), ...(lacksShards(run) ? { shards: true as const, part: partOf(run) } : {}) };
}

/** Which part of the suite a shard's record or a merge lacking shards is, so that the one compared is never just "a part". */
function partOf(run: RunRecord): string {
  if (run.shard != null) return `shard ${run.shard.index}/${run.shard.total}`;
  return run.incomplete == null ? 'a merge lacking shards' : `a merge lacking shards: ${incompleteParts(run.incomplete)}`;
}

/**
 * Compares two runs. The one that started earlier is "before" whatever the argument order
 * (`swapped` says when the arguments were after-first); equal start times keep the order given.
 * `latency`: config.yml's thresholds for "slower" (docs/latency.md); absent, its defaults.
 * `passRate: false`: no pass rate of attempts (a bootstrap), for a caller that shows none (the
 * Action's "since the previous run").
 */
export function compareRuns(first: RunRecord, second: RunRecord, files: { first?: string; second?: string } = {}, options: { latency?: LatencyThresholds; passRate?: boolean } = {}): Comparison {
  const swapped = Date.parse(second.startedAt) < Date.parse(first.startedAt);
  const [before, after] = swapped ? [second, first] : [first, second];
  const [beforeFile, afterFile] = swapped ? [files.second ?? null, files.first ?? null] : [files.first ?? null, files.second ?? null];
  const b = byLabel(before);
  const a = byLabel(after);
  const labels = [...new Set([...b.keys(), ...a.keys()])].sort();
  // An item missing from a partial record (a shard's, a merge that lacks shards, a `--rerun` or
  // `--only` run) was not replayed there, not added or removed: it is left out of the comparison.
  const beforeLacks = isPartial(before);
  const afterLacks = isPartial(after);
  const changes: ItemChange[] = [];
  const commonBefore: Item[] = [];
  const commonAfter: Item[] = [];
  const moved: AttemptsMove[] = [];
  let unchanged = 0;
  // Another meaning judge on each side: its flips are not one judge disagreeing with itself.
  const meaningJudge = meaningJudgeChange(before.meaning, after.meaning);
  for (const label of labels) {
    const x = b.get(label);
    const y = a.get(label);
    if ((x === undefined && beforeLacks) || (y === undefined && afterLacks)) continue;
    if (x === undefined && y !== undefined) {
      changes.push({ label, kind: itemKind(y), before: null, after: side(y), cause: 'added', movement: null, detail: `only in the after run (${resultOf(y)})` });
      continue;
    }
    if (y === undefined && x !== undefined) {
      changes.push({ label, kind: itemKind(x), before: side(x), after: null, cause: 'removed', movement: null, detail: `only in the before run (${resultOf(x)})` });
      continue;
    }
    if (x === undefined || y === undefined) continue;
    commonBefore.push(x);
    commonAfter.push(y);
    if (kindOf(x) !== kindOf(y)) {
      // A fixture became a persona script under the same label (or back): its definition changed.
      changes.push({ label, kind: itemKind(y), before: side(x), after: side(y), cause: 'definition_changed', movement: movementOf(resultOf(x), resultOf(y)), detail: `was a ${kindOf(x) === 'script' ? 'persona script' : 'fixture'}` });
      continue;
    }
    const cause = firstCause(x, y, options.latency ?? DEFAULT_LATENCY);
    if (cause === null) {
      // A pass rate of attempts that moved beside the same verdict is said, never "nothing changed".
      if (attemptsMoved(x, y)) moved.push({ label, kind: itemKind(y), before: side(x), after: side(y) });
      else unchanged += 1;
      continue;
    }
    changes.push({ label, kind: itemKind(y), before: side(x), after: side(y), ...cause, detail: withMeaningJudgeChange(cause.detail, meaningJudge), movement: movementOf(resultOf(x), resultOf(y)) });
  }
  const causes = Object.fromEntries(CHANGE_CAUSES.map((c) => [c, changes.filter((ch) => ch.cause === c).length])) as Record<ChangeCause, number>;
  const ab = agreement([...before.fixtures, ...before.personas]);
  const aa = agreement([...after.fixtures, ...after.personas]);
  const rb = agreementReport(before);
  const ra = agreementReport(after);
  const summaryParts = CHANGE_CAUSES.filter((c) => causes[c] > 0).map((c) => causeWords(c, causes[c]));
  // A partial record's coverage is of the items it replayed; two partial records may share no item
  // at all: then nothing is said to have changed, nor any gap (docs/evaluations.md#compare).
  const partial = beforeLacks || afterLacks;
  const noneInBoth = commonBefore.length === 0 && summaryParts.length === 0 && labels.length > 0;
  if (moved.length > 0) summaryParts.push(attemptsMovedWords(moved.length));
  return {
    before: refOf(before, beforeFile),
    after: refOf(after, afterFile),
    swapped,
    agreement: { before: ab, after: aa, deltaPoints: ab.percent === null || aa.percent === null ? null : aa.percent - ab.percent },
    common: { before: agreement(commonBefore), after: agreement(commonAfter) },
    groups: {
      byConversation: compareGroups(rb.byConversation, ra.byConversation),
      byFile: compareGroups(rb.byFile, ra.byFile),
      byPersona: compareGroups(rb.byPersona, ra.byPersona),
    },
    changes,
    causes,
    fixed: changes.filter((c) => c.movement === 'fixed').map((c) => c.label),
    broken: changes.filter((c) => c.movement === 'broken').map((c) => c.label),
    onlyBefore: changes.filter((c) => c.cause === 'removed').map((c) => c.label),
    onlyAfter: changes.filter((c) => c.cause === 'added').map((c) => c.label),
    attemptsMoved: moved,
    unchanged,
    coverage: !partial && before.coverage != null && after.coverage != null ? { before: before.coverage, after: after.coverage, change: coverageChange(before.coverage, after.coverage) } : null,
    summary: noneInBoth ? 'no item in both runs' : summaryParts.length === 0 ? 'nothing changed' : summaryParts.join('; '),
    mcnemar: pairedMcNemar(commonBefore.map((x, i) => [x, commonAfter[i] as Item] as const)),
    passRate: options.passRate === false ? null : runsStatsOf(before, after),
  };
}
