// From the judge's answers to the calibration's figures (docs/calibration.md, "How to read it"),
// pure: a baseline's score is the median of its usable scores, its spread max - min; a criterion
// (baselines grouped by criterion text) has an agreement, a spread (the largest of its baselines')
// and a count of straddling baselines (median within 0.1 of the threshold).

import type { BaselineVerdict, Estimate, JudgeResult } from '../types.js';
import { roundUsd } from '../evaluate/estimate.js';
import { panelRationale, panelVerdict } from '../assertions/judge.js';
import type { AcceptedFrom, CalibrationPlan, CalibrationTarget, ItemKind, SkippedTarget, UnbaselinedItem } from './plan.js';

/** A median this close to the threshold (either side, inclusive) straddles it. */
const STRADDLE_MARGIN = 0.1;

/** Figures are kept to a millionth, so 0.9 - 0.2 reads 0.7, not 0.7000000000000001. */
function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return round6(s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2);
}

/** One baseline re-judged. */
export interface BaselineCalibration {
  label: string;
  kind: ItemKind;
  file: string;
  line: number;
  baselineFile: string;
  threshold: number;
  accepted: BaselineVerdict;
  acceptedFrom: AcceptedFrom;
  /** The usable scores, in the order the calls were made. */
  scores: number[];
  /** Why each answer that gave no usable score gave none. */
  notUsable: string[];
  median: number | null;
  spread: number | null;
  /** The verdict of the median (median >= threshold), a panel's by its members' majority; null without a usable score. */
  judged: BaselineVerdict | null;
  /** The judged verdict is the accepted one; null without a usable score. */
  agrees: boolean | null;
  straddling: boolean;
  /** The rationale of the answer whose score is nearest the median; a panel's answer's as a run shows it (its first member agreeing with its verdict). */
  rationale: string | null;
}

export interface CriterionCalibration {
  criterion: string;
  /** The distinct thresholds of its items, ascending. */
  thresholds: number[];
  /** Baselines re-judged. */
  baselines: number;
  /** Of them, those with a usable score: the agreement's denominator. */
  scored: number;
  /** Of those, the ones whose judged verdict is the accepted one. */
  agreeing: number;
  /** agreeing / scored; null when no baseline got a usable score. */
  agreement: number | null;
  /** The largest spread of its baselines; null when none got a usable score. */
  spread: number | null;
  straddling: number;
  /** Answers that gave no usable score (counted, never a score). */
  notUsableAnswers: number;
  /** agreeing / scored < --min-agreement, the fraction unrounded (false when no minimum is given or agreement is null). */
  belowMinAgreement: boolean;
  items: BaselineCalibration[];
}

export interface CalibrationEstimate extends Estimate {
  /** Judge calls: baselines x repeat (x the members of a panel). */
  calls: number;
  baselines: number;
  repeat: number;
  judgeCallUsd: number;
  /** A panel of judges: its size (every member is called); absent for a single judge. */
  members?: number;
}

/**
 * Calls = baselines x repeat, each at `judgeCallUsd` (the same guess as a run's estimate); a panel
 * of judges multiplies them by its `members`.
 */
export function estimateCalibration(baselines: number, repeat: number, cost: { judgeCallUsd: number; capUsd: number }, confirmed: boolean, members = 1): CalibrationEstimate {
  const calls = baselines * repeat * members;
  const usd = roundUsd(calls * cost.judgeCallUsd);
  return { calls, baselines, repeat, judgeCallUsd: cost.judgeCallUsd, ...(members > 1 ? { members } : {}), usd, capUsd: cost.capUsd, aboveCap: usd > cost.capUsd + 1e-12, confirmed };
}

/**
 * A panel's answers (docs/judges.md, "Panels"): each answer's verdict is its members' majority, as a
 * run decides it (its median can meet the threshold while only 1 of 3 members passes); the
 * baseline's judged verdict is that of most of its answers. Null for a single judge's answers, or
 * on a tie between them (the median decides then).
 */
function panelJudged(usable: readonly Extract<JudgeResult, { ok: true }>[], threshold: number): BaselineVerdict | null {
  if (usable.length === 0 || usable.some((a) => a.members === undefined)) return null;
  const verdicts = usable.map((a) => panelVerdict(a.members ?? [], threshold).verdict);
  const pass = verdicts.filter((v) => v === 'pass').length;
  const fail = verdicts.filter((v) => v === 'fail').length;
  return pass > fail ? 'pass' : fail > pass ? 'fail' : null;
}

export function calibrateBaseline(target: CalibrationTarget, answers: readonly JudgeResult[]): BaselineCalibration {
  const usable = answers.filter((a): a is Extract<JudgeResult, { ok: true }> => a.ok);
  const scores = usable.map((a) => a.score);
  const notUsable = answers.flatMap((a) => (a.ok ? [] : [a.reason]));
  const m = median(scores);
  const spread = scores.length === 0 ? null : round6(Math.max(...scores) - Math.min(...scores));
  const judged = m === null ? null : (panelJudged(usable, target.threshold) ?? (m >= target.threshold ? 'pass' : 'fail'));
  let nearest: (typeof usable)[number] | null = null;
  for (const a of usable) if (m !== null && (nearest === null || Math.abs(a.score - m) < Math.abs(nearest.score - m))) nearest = a;
  // A panel's answer shows the rationale a run shows for it: its first member that agrees with its
  // members' verdict (docs/judges.md, "Panels"), not the member nearest its median.
  const rationale = nearest === null ? null : nearest.members === undefined ? nearest.rationale : panelRationale(nearest.members, target.threshold, panelVerdict(nearest.members, target.threshold).verdict, nearest.rationale);
  return {
    label: target.label,
    kind: target.kind,
    file: target.file,
    line: target.line,
    baselineFile: target.baselineFile,
    threshold: target.threshold,
    accepted: target.accepted,
    acceptedFrom: target.acceptedFrom,
    scores,
    notUsable,
    median: m,
    spread,
    judged,
    agrees: judged === null ? null : judged === target.accepted,
    straddling: m !== null && Math.abs(m - target.threshold) <= STRADDLE_MARGIN + 1e-9,
    rationale,
  };
}

/** Baselines grouped by criterion text, in the order each criterion first appears. */
export function groupByCriterion(items: readonly { criterion: string; result: BaselineCalibration }[], minAgreement: number | null): CriterionCalibration[] {
  const groups = new Map<string, BaselineCalibration[]>();
  // Appended in place: a copy per baseline made grouping quadratic (20,000 baselines of one criterion took 17 s).
  for (const { criterion, result } of items) {
    const list = groups.get(criterion);
    if (list === undefined) groups.set(criterion, [result]);
    else list.push(result);
  }
  return [...groups].map(([criterion, list]) => {
    const scored = list.filter((b) => b.median !== null);
    const agreeing = scored.filter((b) => b.agrees === true).length;
    const agreement = scored.length === 0 ? null : round6(agreeing / scored.length);
    // The largest by a loop: a criterion may have more baselines than Math.max(...spreads) takes arguments.
    let spread: number | null = null;
    for (const b of scored) spread = Math.max(spread ?? 0, b.spread as number);
    return {
      criterion,
      thresholds: [...new Set(list.map((b) => b.threshold))].sort((a, b) => a - b),
      baselines: list.length,
      scored: scored.length,
      agreeing,
      agreement,
      spread,
      straddling: list.filter((b) => b.straddling).length,
      notUsableAnswers: list.reduce((n, b) => n + b.notUsable.length, 0),
      // The fraction itself, not its six decimals: 2/3 is below --min-agreement 0.6666667, though 0.666667 is not.
      belowMinAgreement: minAgreement !== null && scored.length > 0 && agreeing / scored.length < minAgreement,
      items: list,
    };
  });
}

/** Everything the surfaces show and calibration.json keeps, but the run's metadata. */
export interface CalibrationFigures {
  criteria: CriterionCalibration[];
  skipped: SkippedTarget[];
  withoutBaseline: UnbaselinedItem[];
}

/** `answers[i]` are the N answers for `plan.targets[i]`. */
export function summarizeCalibration(plan: CalibrationPlan, answers: readonly (readonly JudgeResult[])[], minAgreement: number | null): CalibrationFigures {
  const items = plan.targets.map((t, i) => ({ criterion: t.criterion, result: calibrateBaseline(t, answers[i] ?? []) }));
  return { criteria: groupByCriterion(items, minAgreement), skipped: plan.skipped, withoutBaseline: plan.withoutBaseline };
}
