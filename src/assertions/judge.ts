import type { Judge, JudgeResult, Outcome } from '../types.js';
import { formatPair, line } from './format.js';

export const NO_JUDGE_REASON = 'no judge configured (add a judge section to config.yml)';

/**
 * Maps a judge's answer to a verdict: pass iff score >= threshold; no answer is not evaluated.
 * `source` names where a reused answer came from ("reused from abc1234"): it goes into the detail
 * before the rationale, so that a clipped detail line still says it.
 */
export function judgeOutcome(result: JudgeResult, threshold: number, source: string | null = null): Outcome {
  if (!result.ok) {
    return { verdict: 'not_evaluated', detail: `judge unreachable: ${line(result.reason)}`, score: null, threshold, rationale: null };
  }
  const { score, rationale } = result;
  const [s, t] = formatPair(score, threshold);
  const passed = score >= threshold;
  return {
    verdict: passed ? 'pass' : 'fail',
    detail: `score ${s} ${passed ? '>=' : '<'} threshold ${t}${source === null ? '' : `, ${source}`}: ${rationale}`,
    score,
    threshold,
    rationale,
  };
}

export async function evaluateJudge(criterion: string, threshold: number, reply: string, judge: Judge | null): Promise<Outcome> {
  if (judge === null) return judgeOutcome({ ok: false, reason: NO_JUDGE_REASON }, threshold);
  let result: JudgeResult;
  try {
    result = await judge.score(criterion, reply);
  } catch (err) {
    result = { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  return judgeOutcome(result, threshold);
}
