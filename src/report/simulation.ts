// A simulated user (docs/simulated-users.md) in words, shared by every renderer: who wrote each user
// message (the script, the baseline replayed word for word, or the simulator live), from which turn
// the user was simulated live, how the conversation ended, and the simulator calls it cost.
// Plain text: each renderer escapes it for its own markup (the goal, the simulator's done reason
// and its fault come from the suite, the simulator and the network: untrusted).

import type { PersonaRecord, SimulationRecord, TurnSource } from '../types.js';
import { thousands } from './model.js';

/** A user message's origin, after the turn number: "3 · User (simulated)". */
export const SOURCE_WORDS: Record<TurnSource, string> = {
  script: 'script',
  baseline: 'from the baseline',
  simulator: 'simulated',
};

/** The same after "user message" (the terminal's diff key): "user message from the script", never "user message script". */
export const MESSAGE_SOURCE_WORDS: Record<TurnSource, string> = { ...SOURCE_WORDS, script: 'from the script' };

/**
 * "user simulated from turn 3"; "user replayed from the baseline" when every message came from the
 * script or the baseline; null when none did, or a simulator fault ended it before a live turn.
 */
export function liveWords(p: PersonaRecord, s: SimulationRecord): string | null {
  if (s.liveFromTurn !== null) return `user simulated from turn ${thousands(s.liveFromTurn)}`;
  // A fault on the way to a live turn: the ending says which message could not be written.
  if (s.endedBy === 'simulator_fault') return null;
  if (p.turns.some((t) => t.source === 'baseline')) return 'user replayed from the baseline';
  return null;
}

/** The last message turn that was sent, or null. */
function lastMessageTurn(p: Pick<PersonaRecord, 'turns'>): number | null {
  for (let i = p.turns.length - 1; i >= 0; i--) {
    const t = p.turns[i];
    if (t && t.message !== null) return t.index;
  }
  return null;
}

/**
 * How the conversation ended: "the simulated user was done: refund confirmed", "the agent ended it
 * on turn 4"; the turn limit with the setting that set it and where, as every other limit is said:
 * "the turn limit was reached on turn 6 (user.maxTurns: 6 in .agent-replay/personas/refunds.yml:5)".
 */
export function endedWords(p: Pick<PersonaRecord, 'turns' | 'file' | 'line'>, s: SimulationRecord): string {
  const last = lastMessageTurn(p);
  const on = last === null ? '' : ` on turn ${thousands(last)}`;
  switch (s.endedBy) {
    case 'simulator':
      return s.doneReason ? `the simulated user was done: ${s.doneReason}` : 'the simulated user was done';
    case 'agent':
      return `the agent ended the conversation${on}`;
    case 'max_turns':
      // The last message turn is the limit: the replay stops after user.maxTurns message turns (src/replay/simulated.ts).
      return `the turn limit was reached${on} (user.maxTurns${last === null ? '' : `: ${thousands(last)}`} in ${p.file}:${p.line})`;
    case 'simulator_fault':
      return `the simulator could not write the message of turn ${thousands((last ?? 0) + 1)}`;
    case 'agent_fault':
      return `an agent error stopped it${on}`;
  }
}

/** "2 simulator calls (1 retry)", "no simulator call". */
export function callsWords(s: SimulationRecord): string {
  if (s.calls === 0 && s.retries === 0) return 'no simulator call';
  const retries = s.retries > 0 ? ` (${thousands(s.retries)} ${s.retries === 1 ? 'retry' : 'retries'})` : '';
  return `${thousands(s.calls)} simulator ${s.calls === 1 ? 'call' : 'calls'}${retries}`;
}

/**
 * What the simulator cost: `callsWords` for one conversation; for a repeated script (every attempt
 * simulates on its own), every attempt's calls and retries, as spend counts them, then the shown
 * attempt's: "6 simulator calls (1 retry) over 3 attempts (2 in attempt 1)".
 */
export function costWords(p: PersonaRecord, s: SimulationRecord): string {
  const attempts = p.attempts ?? [];
  if (attempts.length < 2) return callsWords(s);
  const all = attempts.reduce((sum, a) => ({ calls: sum.calls + (a.simulation?.calls ?? 0), retries: sum.retries + (a.simulation?.retries ?? 0) }), { calls: 0, retries: 0 });
  const total = callsWords({ ...s, ...all });
  if (all.calls === 0 && all.retries === 0) return total;
  // The attempt shown is the first that did not error (as its "attempt N:" says), else the first.
  const shown = Math.max(0, attempts.findIndex((a) => !a.errored)) + 1;
  return `${total} over ${thousands(attempts.length)} attempts (${s.calls === 0 ? 'none' : thousands(s.calls)} in attempt ${thousands(shown)})`;
}

/** The facts after the goal, in order: from which turn it was live, how it ended, what it cost. */
export function simulationFacts(p: PersonaRecord, s: SimulationRecord): string[] {
  const live = liveWords(p, s);
  return [...(live === null ? [] : [live]), `ended: ${endedWords(p, s)}`, costWords(p, s)];
}

/** The fault's first line: "simulator unreachable: HTTP 503 from https://sim.example/v1"; null when there is none. */
export function faultLine(s: SimulationRecord | undefined): string | null {
  if (s === undefined || s.fault === null || s.fault.trim() === '') return null;
  return s.fault.trim().split(/\r\n|\r|\n/)[0] ?? null;
}
