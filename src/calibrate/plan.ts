// What `agent-replay calibrate` re-judges (docs/calibration.md, "What is re-judged"), the pure
// rules: every judged item that has a baseline, with the material the judge reads (a fixture's
// accepted reply, a persona script's accepted transcript) and the verdict a maintainer accepted
// for that one criterion. Nothing here asks the agent or the judge anything.

import { panelVerdict } from '../assertions/judge.js';
import { judgeAssertionOf } from '../assertions/list.js';
import type { Baseline, BaselineVerdict, Fixture, PersonaBaseline, PersonaScript, Turn } from '../types.js';

export type ItemKind = 'fixture' | 'persona';

/**
 * Where the accepted verdict of one criterion comes from:
 * - `stored_result`: the baseline keeps the judge's result for this criterion (score against the
 *   threshold it was judged with);
 * - `baseline_verdict`: the baseline's verdict says it unambiguously (a judged fixture's verdict is
 *   its judge's; a script that passed passed every check; a script whose only check is this
 *   criterion failed on it).
 */
export type AcceptedFrom = 'stored_result' | 'baseline_verdict';

/** What the judge is asked about, exactly as a run asks it. */
export type Material = { kind: 'reply'; reply: string } | { kind: 'transcript'; turns: Turn[] };

/** One baseline to re-judge against one criterion. */
export interface CalibrationTarget {
  criterion: string;
  /** The item's threshold for this criterion today (the fixture's, or the script's). */
  threshold: number;
  kind: ItemKind;
  label: string;
  /** The fixture or script file and line. */
  file: string;
  line: number;
  /** The baseline file, as shown (relative to the working directory). */
  baselineFile: string;
  accepted: BaselineVerdict;
  acceptedFrom: AcceptedFrom;
  material: Material;
}

/** A baseline whose accepted verdict for a criterion cannot be told: not re-judged, named. */
export interface SkippedTarget {
  criterion: string;
  kind: ItemKind;
  label: string;
  file: string;
  line: number;
  baselineFile: string;
  reason: string;
}

/** A judged item with no baseline yet: nothing was accepted, so there is nothing to calibrate against. */
export interface UnbaselinedItem {
  criterion: string;
  kind: ItemKind;
  label: string;
  file: string;
  line: number;
}

export interface CalibrationPlan {
  targets: CalibrationTarget[];
  skipped: SkippedTarget[];
  withoutBaseline: UnbaselinedItem[];
}

export interface PlanInput {
  fixtures: readonly Fixture[];
  personas: readonly PersonaScript[];
  baselines: ReadonlyMap<string, Baseline>;
  personaBaselines: ReadonlyMap<string, PersonaBaseline>;
  /** The baseline file of a label, as shown. */
  baselineFile: (label: string) => string;
}

/**
 * A persona baseline's transcript as the run gave it to the judge: turn 0 is the welcome turn (no
 * message), the message turns are numbered from 1. A baseline keeps messages, replies and routes,
 * not tool calls, so the transcript the judge reads here has no tool-call lines.
 */
export function baselineTurns(b: Pick<PersonaBaseline, 'transcript'>): Turn[] {
  const welcome = b.transcript[0]?.message === null;
  return b.transcript.map((t, i) => ({
    index: welcome ? i : i + 1,
    message: t.message,
    reply: t.reply,
    route: t.route,
    offTrack: [],
    toolCalls: null,
    outcome: null,
    errors: [],
    durationMs: 0,
  }));
}

/**
 * The checks of a script other than its criteria. Read from `expect` generically (every key but
 * `criteria` that is set and not an empty list), so that an expectation added later counts too.
 */
export function otherChecks(expect: PersonaScript['expect']): number {
  let n = 0;
  for (const [key, value] of Object.entries(expect) as [string, unknown][]) {
    if (key === 'criteria' || value === undefined || value === null) continue;
    n += Array.isArray(value) ? value.length : 1;
  }
  return n;
}

/**
 * The accepted verdict of one persona criterion: the stored result when the baseline keeps one for
 * this criterion's text (a panel's by its members' majority); else pass when the script passed (every check passed); else fail when the
 * criterion was the script's only check; else unknown (a failed script without per-criterion
 * results: which check failed is not recorded).
 */
export function acceptedCriterion(
  baseline: Pick<PersonaBaseline, 'verdict' | 'judge'> & Partial<Pick<PersonaBaseline, 'attempts'>>,
  criterion: string,
  onlyCheck: boolean,
): { accepted: BaselineVerdict; from: AcceptedFrom } | { unknown: string } {
  const stored = baseline.judge?.criteria.find((c) => c.criterion === criterion);
  if (stored !== undefined) {
    // A panel's result was decided by its members' majority, not by its median score (docs/judges.md, "Panels").
    const verdict = stored.members !== undefined ? panelVerdict(stored.members, stored.threshold).verdict : stored.score >= stored.threshold ? 'pass' : 'fail';
    if (verdict === 'pass' || verdict === 'fail') return { accepted: verdict, from: 'stored_result' };
  }
  if (baseline.verdict === 'pass') return { accepted: 'pass', from: 'baseline_verdict' };
  if (passedInPart(baseline)) return { unknown: FAILED_BY_ATTEMPTS };
  if (onlyCheck) return { accepted: 'fail', from: 'baseline_verdict' };
  return { unknown: 'the script failed when accepted and its baseline keeps no judge result for this criterion, so which check failed is not known' };
}

/** The verdict of a fixture baseline's kept judge result for `criterion`: its score against the threshold it was judged with (a panel's, its members' majority); null when it keeps none for it, or a panel's gives none. */
function keptVerdict(baseline: Pick<Baseline, 'judge'>, criterion: string): BaselineVerdict | null {
  const stored = baseline.judge;
  const judged = stored?.fingerprint.criteria[0];
  if (stored === undefined || judged === undefined || judged.criterion !== criterion) return null;
  const verdict = stored.members !== undefined ? panelVerdict(stored.members, judged.threshold).verdict : stored.score >= judged.threshold ? 'pass' : 'fail';
  return verdict === 'pass' || verdict === 'fail' ? verdict : null;
}

/**
 * The accepted verdict of the judge check in a fixture's list of checks (docs/calibration.md, "What
 * is re-judged"): the baseline's stored judge result for this criterion (its score against the
 * threshold it was judged with; a panel's by its members' majority); else pass when the fixture was
 * accepted as pass (every check passed); else unknown: a list accepted as fail without a stored
 * result does not say which check failed.
 */
export function acceptedListJudge(baseline: Pick<Baseline, 'verdict' | 'judge'>, criterion: string): { accepted: BaselineVerdict; from: AcceptedFrom } | { unknown: string } {
  const verdict = keptVerdict(baseline, criterion);
  if (verdict !== null) return { accepted: verdict, from: 'stored_result' };
  if (baseline.verdict === 'pass') return { accepted: 'pass', from: 'baseline_verdict' };
  return { unknown: 'the fixture failed when accepted and its baseline keeps no judge result for this criterion, so which check failed is not known' };
}

/**
 * A repeated item accepted as fail whose attempts passed in part: its verdict is its tally's, not
 * its kept reply's or transcript's, which may be an attempt that passed; acceptance keeps no judge
 * result then (docs/fixtures.md, "Judge reuse"), so the judge's accepted verdict on it is not known.
 */
function passedInPart(baseline: { verdict: BaselineVerdict; attempts?: { passed: number; total: number } | undefined }): boolean {
  const a = baseline.attempts;
  return baseline.verdict === 'fail' && a !== undefined && a.passed > 0;
}

/** Why such a baseline is skipped (passedInPart). */
export const FAILED_BY_ATTEMPTS = 'it failed by its attempts when accepted, some of which passed, and its baseline keeps no judge result for this criterion, so whether the one it keeps passed is not known';

/** Why a judged fixture's baseline is skipped when its verdict and the judge result it keeps say otherwise (acceptedSingleJudge). */
export const SINGLE_JUDGE_CONTRADICTION =
  'the baseline says "fail" beside a kept judge result for this criterion that passes, and the judge is the fixture\'s only check, so the two contradict (a verdict corrected by hand, or a fixture that had other checks when accepted) and the accepted verdict is not known';

/**
 * The accepted verdict of a fixture whose only check is a judge (docs/calibration.md, "What is
 * re-judged"): its baseline's verdict is the judge's, and the judge result it keeps for this
 * criterion says the same (acceptance keeps only one that agrees; the loader refuses a pass beside
 * one that does not pass). A fail beside a kept result that passes, the loader cannot tell from a
 * list's whose other check failed; with the fixture known it is a contradiction: unknown, not a
 * stored agreement. But a repeated item whose attempts passed in part failed by its tally while its
 * shown attempt, the reply kept, passed: the kept result is that reply's verdict.
 */
export function acceptedSingleJudge(baseline: Pick<Baseline, 'verdict' | 'judge' | 'attempts'>, criterion: string): { accepted: BaselineVerdict; from: AcceptedFrom } | { unknown: string } {
  const verdict = keptVerdict(baseline, criterion);
  if (verdict === null) return baseline.verdict === 'fail' && passedInPart(baseline) ? { unknown: FAILED_BY_ATTEMPTS } : { accepted: baseline.verdict, from: 'baseline_verdict' };
  if (verdict === baseline.verdict) return { accepted: verdict, from: 'stored_result' };
  const a = baseline.attempts;
  if (verdict === 'pass' && a !== undefined && a.passed > 0 && a.passed < a.total) return { accepted: 'pass', from: 'stored_result' };
  return { unknown: SINGLE_JUDGE_CONTRADICTION };
}

/**
 * Everything to re-judge, in suite order (fixtures, then persona scripts, each as loaded). A fixture
 * counts when its assertion is a judge: its single check, so its baseline's verdict is the judge's
 * verdict, unless the judge result it keeps says otherwise (acceptedSingleJudge);
 * or when its list of checks holds a judge, whose accepted verdict `acceptedListJudge` tells.
 * A persona script counts once per criterion (a criterion listed twice, once).
 */
export function planCalibration(input: PlanInput): CalibrationPlan {
  const targets: CalibrationTarget[] = [];
  const skipped: SkippedTarget[] = [];
  const withoutBaseline: UnbaselinedItem[] = [];
  for (const f of input.fixtures) {
    const a = judgeAssertionOf(f.assertion);
    if (a === null) continue;
    const b = input.baselines.get(f.label);
    const where = { criterion: a.criterion, kind: 'fixture' as const, label: f.label, file: f.file, line: f.line };
    if (b === undefined) {
      withoutBaseline.push(where);
      continue;
    }
    if (f.assertion?.kind === 'all' && f.assertion.assertions.length > 1) {
      const baselineFile = input.baselineFile(f.label);
      const verdict = acceptedListJudge(b, a.criterion);
      if ('unknown' in verdict) skipped.push({ ...where, baselineFile, reason: verdict.unknown });
      else targets.push({ ...where, threshold: a.threshold, baselineFile, accepted: verdict.accepted, acceptedFrom: verdict.from, material: { kind: 'reply', reply: b.reply } });
      continue;
    }
    const baselineFile = input.baselineFile(f.label);
    const verdict = acceptedSingleJudge(b, a.criterion);
    if ('unknown' in verdict) skipped.push({ ...where, baselineFile, reason: verdict.unknown });
    else targets.push({ ...where, threshold: a.threshold, baselineFile, accepted: verdict.accepted, acceptedFrom: verdict.from, material: { kind: 'reply', reply: b.reply } });
  }
  for (const p of input.personas) {
    const criteria = [...new Set(p.expect.criteria)];
    if (criteria.length === 0) continue;
    const b = input.personaBaselines.get(p.label);
    const onlyCheck = criteria.length === 1 && otherChecks(p.expect) === 0;
    const turns = b === undefined ? [] : baselineTurns(b);
    for (const criterion of criteria) {
      const where = { criterion, kind: 'persona' as const, label: p.label, file: p.file, line: p.line };
      if (b === undefined) {
        withoutBaseline.push(where);
        continue;
      }
      const baselineFile = input.baselineFile(p.label);
      const verdict = acceptedCriterion(b, criterion, onlyCheck);
      if ('unknown' in verdict) {
        skipped.push({ ...where, baselineFile, reason: verdict.unknown });
        continue;
      }
      targets.push({ ...where, threshold: p.threshold, baselineFile, accepted: verdict.accepted, acceptedFrom: verdict.from, material: { kind: 'transcript', turns } });
    }
  }
  return { targets, skipped, withoutBaseline };
}
