// Who ended a scripted conversation, compared (docs/personas.md, "Baselines and drift"): against the
// baseline's, and a repeated script's attempts against the one shown (docs/meaning.md, "Repeats").
// Data in, words out.

import type { ScriptEnding } from '../types.js';
import { thousands } from '../words.js';

/** Did the agent end a scripted conversation (`agent`, or `both` on the script's last message)? */
const agentEnded = (e: ScriptEnding): boolean => e !== 'script';

/**
 * A scripted conversation that the agent ended where the other one (`whose` agent: "the
 * baseline's", "attempt 1's") did not, or the reverse, over the same messages and turns, its last
 * turn `turn`: "the agent did not end the conversation, where attempt 1's agent ended it on turn 3".
 * Null when both ended it alike, or the other's ending is not known.
 */
export function endingChange(now: ScriptEnding, before: ScriptEnding | undefined, turn: number, whose: string): string | null {
  if (before === undefined || agentEnded(before) === agentEnded(now)) return null;
  return agentEnded(now)
    ? `the agent ended the conversation on turn ${thousands(turn)}, where ${whose} agent did not end it`
    : `the agent did not end the conversation, where ${whose} agent ended it on turn ${thousands(turn)}`;
}

/** A scripted conversation as an attempt of a repeated script keeps it: its turns' messages and who ended it. */
interface EndedConversation {
  turns: readonly { message: string | null; index: number }[];
  endedBy?: ScriptEnding;
}

/**
 * A repeated script's attempt against the first that did not error, attempt `n`, the one shown
 * (docs/meaning.md, "Repeats"): over the same messages and turns, the agent ended one conversation
 * and not the other. Null when they ended it alike, their messages or turns differ (which the
 * replies and the number of turns already tell), or either does not say who ended it.
 */
export function attemptEndingChange(attempt: EndedConversation, first: EndedConversation, n: number): string | null {
  const same = attempt.turns.length === first.turns.length && attempt.turns.every((t, i) => t.message === first.turns[i]?.message);
  if (!same || attempt.endedBy === undefined) return null;
  return endingChange(attempt.endedBy, first.endedBy, attempt.turns.at(-1)?.index ?? 0, `attempt ${n}'s`);
}

/** attemptEndingChange's words, wherever a text quotes them. */
const ATTEMPT_ENDING = /the agent (?:ended the conversation on turn [\d,]+, where attempt [\d,]+'s agent did not end it|did not end the conversation, where attempt [\d,]+'s agent ended it on turn [\d,]+)/;

/**
 * Does acceptance's refusal ("replies differ in meaning across 3 attempts: attempt 2: the agent
 * ended the conversation on turn 3, where attempt 1's agent did not end it") name an attempt whose
 * conversation ended otherwise than the one shown (attemptEndingChange)?
 */
export function refusedForEnding(reason: string): boolean {
  return ATTEMPT_ENDING.test(reason);
}
