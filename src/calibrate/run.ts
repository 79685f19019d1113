// Re-judging the planned baselines through the `Judge` interface (the run's client, or whatever
// judge the configuration makes): each target `repeat` times, at most `concurrency` calls at once.
// Answers keep their place (target, then attempt), so the figures never depend on which call
// finished first.

import type { Judge, JudgeResult } from '../types.js';
import type { CalibrationTarget } from './plan.js';

export interface RejudgeOptions {
  repeat: number;
  /** Calls in flight at most (the judge client may hold fewer: its own limiter decides). */
  concurrency: number;
  /** Told after each answer: done of total. */
  onAnswer?: (done: number, total: number) => void;
}

function ask(judge: Judge, t: CalibrationTarget): Promise<JudgeResult> {
  return t.material.kind === 'reply' ? judge.score(t.criterion, t.material.reply) : judge.scoreTranscript(t.criterion, t.material.turns);
}

/** `result[i][k]`: the k-th answer for `targets[i]`. A judge that throws is an answer with no usable score. */
export async function rejudge(targets: readonly CalibrationTarget[], judge: Judge, options: RejudgeOptions): Promise<JudgeResult[][]> {
  const answers: JudgeResult[][] = targets.map(() => []);
  const total = targets.length * options.repeat;
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let job = next++; job < total; job = next++) {
      const i = Math.floor(job / options.repeat);
      const k = job % options.repeat;
      const target = targets[i] as CalibrationTarget;
      let answer: JudgeResult;
      try {
        answer = await ask(judge, target);
      } catch (e) {
        answer = { ok: false, reason: `judge call failed: ${e instanceof Error ? e.message : String(e)}` };
      }
      (answers[i] as JudgeResult[])[k] = answer;
      done += 1;
      options.onAnswer?.(done, total);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, total)) }, worker));
  return answers;
}
