// Meaning during a run (docs/meaning.md, "The ladder"): the ladder of evaluate/meaning/ bound to the
// run's meaning judge. The cheap rungs (normalize, variants, facts) decide without a call; only
// what they cannot decide waits for the meaning judge, whose calls run at judge.concurrency beside
// the agent calls of the other items. Never throws.

import type { MeaningCheck } from '../config.js';
import { judgedMeaning, meaningWithoutModel, noMeaningJudgeCause } from '../evaluate/meaning/index.js';
import type { ConversationTurn, MeaningAnswer, MeaningRequest } from '../judge/meaning.js';
import type { Meaning } from '../types/meaning.js';

/** The run's meaning settings and its meaning judge (null: none configured). */
export interface MeaningRung {
  check: MeaningCheck;
  threshold: number;
  ask: ((request: MeaningRequest) => Promise<MeaningAnswer>) | null;
  /** Told when normalize, a variant or the facts decided, with no call (spend: meaningAvoided). */
  onAvoided?: () => void;
  /** The suite's config file (Suite.configName), named by the cause with no meaning judge configured; absent: config.yml. */
  configName?: string;
}

/** What the replies answer: the conversation before and the user's message (null for a welcome turn). */
export interface MeaningContext {
  before: readonly ConversationTurn[];
  message: string | null;
}

/** Is a meaning computed at all this run? `check: off` (or no rung) asks nothing and records none. */
export function meaningOn(rung: MeaningRung | null | undefined): rung is MeaningRung {
  return rung != null && rung.check !== 'off';
}

/** The meaning of `now` against `baseline` (null: not computed: a reply missing, equal, or meaning off). */
export async function meaningOf(
  rung: MeaningRung | null | undefined,
  baseline: string | null,
  now: string | null,
  variants: readonly string[],
  context: MeaningContext,
): Promise<Meaning | null> {
  if (!meaningOn(rung)) return null;
  const cheap = meaningWithoutModel(baseline, now, variants, rung.check);
  if (cheap !== 'judge') {
    if (cheap !== null && (cheap.by === 'normalize' || cheap.by === 'variant' || cheap.by === 'facts')) rung.onAvoided?.();
    return cheap;
  }
  if (rung.ask === null) return { value: 'unchecked', by: null, detail: noMeaningJudgeCause(rung.configName) };
  let answer: MeaningAnswer;
  try {
    answer = await rung.ask({ before: context.before, message: context.message, baseline: baseline as string, now: now as string });
  } catch (err) {
    answer = { ok: false, reason: `meaning judge failed: ${err instanceof Error ? err.message : String(err)}`, reused: false };
  }
  return judgedMeaning(answer, rung.threshold);
}
