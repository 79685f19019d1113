// One simulated script's conversation (docs/simulated-users.md, "Simulate once, replay until the
// agent diverges"): the baseline's user messages are sent word for word while every agent reply
// means what the baseline's reply of the same turn meant (the same bytes, or formatting, a known
// variant, reworded: docs/meaning.md, "Simulated users"); from the first turn whose reply diverges
// (turn t), the simulator writes the message of turn t+1 and every later one, live to the end. An
// unchanged or reworded replay ends where the baseline ended (its stored done reason), with no
// simulator call.
// The conversation ends when the simulator is done, the agent ends it, at user.maxTurns (not an
// error: the checks decide), on a simulator fault (the script is then not evaluated) or on an
// agent fault (errored).

import type { AgentClient, PersonaBaseline, PersonaScript, SimulatedUser, SimulationRecord, Simulator, TurnSource } from '../types.js';
import type { Transcript } from './turns.js';
import { converse, type MessageSource, type NextMessage } from './conversation.js';
import { meaningOf, meaningOn, type MeaningRung } from './meaning.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

export interface SimulationDeps {
  agent: AgentClient;
  /** Null: no simulator configured (a live turn is then a fault). */
  simulator: Simulator | null;
  now: () => number;
  redact: (text: string) => string;
  session: string;
  /** Told for each user message sent from the baseline (spend: baselineTurns). */
  onBaselineTurn?: () => void;
  /** With a meaning check, the agent diverges on meaning, not on bytes (docs/meaning.md, "Simulated users"). */
  meaning?: MeaningRung | null;
  /** The suite's config file (Suite.configName), named by the fault with no simulator configured; absent: config.yml. */
  configName?: string;
}

/**
 * Nothing to reach, so never "unreachable" ("simulator unreachable: no simulator is configured (...)"
 * before 2026-12-06; src/evaluate/causes.ts reads both), naming the suite's config file as results.json keeps it.
 */
function noSimulator(file: string = NEW_CONFIG_NAME): string {
  return `no simulator configured (set simulator: or judge: in ${file})`;
}

type BaselineTurn = PersonaBaseline['transcript'][number];

/** The baseline's turns by turn number (the welcome turn 0 when the baseline has one, the opening 1). */
export function baselineTurns(baseline: PersonaBaseline | null): Map<number, BaselineTurn> {
  const out = new Map<number, BaselineTurn>();
  if (baseline === null) return out;
  const welcome = baseline.transcript[0]?.message === null;
  baseline.transcript.forEach((t, i) => out.set(welcome ? i : i + 1, t));
  return out;
}

/**
 * Were the baseline's messages written for another user than the script's now
 * (docs/simulated-users.md)? Another scripted opening (one added, removed or edited), another goal,
 * other instructions or another persona (the simulator is shown it): what differs ("the opening",
 * "the goal", "the instructions", "the persona"), else null. Then none is replayed: they would test
 * the old script. A baseline accepted before the goal (or the persona) was kept does not say what
 * it was written for; its opening does (as recorded: redacted, so `redact` is the run's redactor).
 */
export function writtenForAnotherUser(script: Pick<PersonaScript, 'opening' | 'persona'>, user: SimulatedUser, baseline: PersonaBaseline, redact: (text: string) => string = (t) => t): string | null {
  // The first message turn: who wrote it says whether the baseline had a scripted opening.
  const first = baseline.transcript.find((t) => t.message !== null);
  const opening = script.opening === null ? null : redact(script.opening);
  if (first?.source !== undefined && (first.source === 'script' ? first.message : null) !== opening) return 'the opening';
  const stored = baseline.simulation;
  if (stored?.goal === undefined) return null;
  if (stored.goal !== user.goal) return 'the goal';
  if ((stored.instructions ?? null) !== user.instructions) return 'the instructions';
  return stored.persona !== undefined && stored.persona !== script.persona ? 'the persona' : null;
}

export async function converseSimulated(
  script: PersonaScript,
  user: SimulatedUser,
  baseline: PersonaBaseline | null,
  deps: SimulationDeps,
): Promise<{ transcript: Transcript; simulation: SimulationRecord }> {
  const session = deps.agent.session({ session: deps.session, persona: script.persona, mocks: script.mocks });
  const stored = baselineTurns(baseline);
  const sim: SimulationRecord = { goal: user.goal, instructions: user.instructions, liveFromTurn: null, endedBy: 'max_turns', doneReason: null, calls: 0, retries: 0, fault: null };
  // With no baseline every turn is simulated, and so it is when the stored messages were written
  // for another goal or other instructions; otherwise stored messages go until the agent diverges.
  let live = baseline === null || writtenForAnotherUser(script, user, baseline, deps.redact) !== null;
  const end: NextMessage = { kind: 'end' };
  const source: MessageSource = {
    /**
     * After a turn's reply: the agent diverges at the first turn the baseline lacks, or whose reply
     * differs (with meaning.check off) or differs in meaning (`changed` or `unchecked`); from there
     * the rest is live. A reworded reply keeps the stored messages going. The turn keeps its meaning.
     */
    heard: async (turn, turns) => {
      if (live) return;
      const kept = stored.get(turn.index);
      if (kept === undefined) {
        live = true;
        return;
      }
      if (kept.reply === turn.reply) return;
      if (!meaningOn(deps.meaning)) {
        live = true;
        return;
      }
      const at = turns.indexOf(turn);
      const before = turns.slice(0, at).map((x) => ({ message: x.message, reply: x.reply }));
      const meaning = await meaningOf(deps.meaning, kept.reply, turn.reply, kept.variants ?? [], { before, message: turn.message });
      if (meaning !== null) turns[at] = { ...turn, meaning };
      if (meaning === null || meaning.value === 'changed' || meaning.value === 'unchecked') live = true;
    },
    // Only the opening is known before it is sent; a failed turn's message is recorded redacted.
    unsentFrom: (t, message) => (message !== null ? [deps.redact(message)] : t === 1 && script.opening !== null ? [script.opening] : []),
    next: async (t, turns) => {
      if (t > user.maxTurns) return end;
      const kept = stored.get(t);
      const send = (message: string, from: TurnSource): NextMessage => ({ kind: 'send', message, recorded: deps.redact(message), source: from });
      if (t === 1 && script.opening !== null) return send(script.opening, 'script');
      if (!live && kept !== undefined && kept.message !== null) {
        deps.onBaselineTurn?.();
        return send(kept.message, 'baseline');
      }
      if (!live && kept === undefined && baseline?.simulation?.doneReason != null) {
        // The accepted conversation ended here because the simulator was done: so does this one.
        sim.endedBy = 'simulator';
        sim.doneReason = baseline.simulation.doneReason;
        return end;
      }
      live = true;
      if (deps.simulator === null) {
        sim.endedBy = 'simulator_fault';
        sim.fault = noSimulator(deps.configName);
        return end;
      }
      sim.calls += 1;
      const answer = await deps.simulator.next({
        goal: deps.redact(user.goal),
        instructions: user.instructions === null ? null : deps.redact(user.instructions),
        persona: script.persona === null ? null : deps.redact(script.persona),
        turn: t,
        maxTurns: user.maxTurns,
        transcript: turns.map((x) => ({ ...x, message: x.message === null ? null : deps.redact(x.message) })),
      });
      sim.retries += answer.retries;
      if (answer.kind === 'fault') {
        sim.endedBy = 'simulator_fault';
        sim.fault = deps.redact(answer.fault);
        return end;
      }
      if (answer.kind === 'done') {
        sim.endedBy = 'simulator';
        sim.doneReason = deps.redact(answer.reason);
        return end;
      }
      sim.liveFromTurn ??= t;
      return send(answer.message, 'simulator');
    },
  };
  const { transcript, stop } = await converse(session, source, deps);
  if (stop === 'agent_fault') sim.endedBy = 'agent_fault';
  else if (stop === 'agent') sim.endedBy = 'agent';
  return { transcript, simulation: sim };
}
