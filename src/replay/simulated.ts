// One simulated script's conversation (docs/personas.md, "Simulated users"): simulate once, replay
// until the agent diverges. The baseline's user messages are sent word for word while every agent
// reply equals the baseline's reply of the same turn; from the first turn whose reply differs
// (turn t), the simulator writes the message of turn t+1 and every later one, live to the end. An
// unchanged replay ends where the baseline ended (its stored done reason), with no simulator call.
// The conversation ends when the simulator is done, the agent ends it, at user.maxTurns (not an
// error: the checks decide), on a simulator fault (the script is then not evaluated) or on an
// agent fault (errored).

import type { AgentClient, PersonaBaseline, PersonaScript, SimulatedUser, SimulationRecord, Simulator, Turn, TurnSource } from '../types.js';
import { transcriptText } from '../judge/prompt.js';
import { toTurn, type Transcript } from './turns.js';
import { meaningOf, meaningOn, type MeaningRung } from './meaning.js';

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
}

const NO_SIMULATOR = 'simulator unreachable: no simulator is configured (set simulator: or judge: in config.yml)';

type BaselineTurn = PersonaBaseline['transcript'][number];

/** The baseline's turns by turn number (the welcome turn 0 when the baseline has one, the opening 1). */
export function baselineTurns(baseline: PersonaBaseline | null): Map<number, BaselineTurn> {
  const out = new Map<number, BaselineTurn>();
  if (baseline === null) return out;
  const welcome = baseline.transcript[0]?.message === null;
  baseline.transcript.forEach((t, i) => out.set(welcome ? i : i + 1, t));
  return out;
}

export async function converseSimulated(
  script: PersonaScript,
  user: SimulatedUser,
  baseline: PersonaBaseline | null,
  deps: SimulationDeps,
): Promise<{ transcript: Transcript; simulation: SimulationRecord }> {
  const session = deps.agent.session({ session: deps.session, persona: script.persona, mocks: script.mocks });
  const stored = baselineTurns(baseline);
  const turns: Turn[] = [];
  const sim: SimulationRecord = { goal: user.goal, liveFromTurn: null, endedBy: 'max_turns', doneReason: null, calls: 0, retries: 0, fault: null };
  let outcomesReported = false;
  let redacted = false;
  // With no baseline every turn is simulated; with one, stored messages go until a reply differs.
  let live = baseline === null;
  const done = (failure: Transcript['failure'], unsent: string[] = []): { transcript: Transcript; simulation: SimulationRecord } => ({
    transcript: { turns, unsent, failure, outcomesReported, redacted },
    simulation: sim,
  });
  const record = (index: number, message: string | null, answer: Parameters<typeof toTurn>[2], t0: number, source: TurnSource | null): Turn => {
    outcomesReported ||= answer.outcomeReported;
    const turn = toTurn(index, message, answer, 0, deps.redact);
    redacted ||= transcriptText([turn]) !== transcriptText([toTurn(index, message, answer, 0, (t) => t)]);
    const full: Turn = { ...turn, durationMs: Math.round(deps.now() - t0), ...(source !== null ? { source } : {}) };
    turns.push(full);
    return full;
  };
  /**
   * After a turn's reply: the agent diverges at the first turn the baseline lacks, or whose reply
   * differs (with meaning.check off) or differs in meaning (`changed` or `unchecked`); from there
   * the rest is live. A reworded reply keeps the stored messages going. The turn keeps its meaning.
   */
  const compare = async (turn: Turn): Promise<void> => {
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
  };

  const w0 = deps.now();
  const welcome = await session.welcome();
  if (welcome !== null) {
    if (welcome.kind === 'errored') {
      sim.endedBy = 'agent_fault';
      return done(welcome, script.opening !== null ? [script.opening] : []);
    }
    await compare(record(0, null, welcome, w0, null));
    if (welcome.ended) {
      sim.endedBy = 'agent_fault';
      return done({ errorKind: 'ended_in_welcome', error: 'the conversation ended during the welcome turn: no message was sent' }, script.opening !== null ? [script.opening] : []);
    }
  }

  for (let t = 1; t <= user.maxTurns; t++) {
    const kept = stored.get(t);
    let message: string;
    let source: TurnSource;
    if (t === 1 && script.opening !== null) {
      message = script.opening;
      source = 'script';
    } else if (!live && kept !== undefined && kept.message !== null) {
      message = kept.message;
      source = 'baseline';
      deps.onBaselineTurn?.();
    } else if (!live && kept === undefined && baseline?.simulation?.doneReason != null) {
      // The accepted conversation ended here because the simulator was done: so does this one.
      sim.endedBy = 'simulator';
      sim.doneReason = baseline.simulation.doneReason;
      return done(null);
    } else {
      live = true;
      if (deps.simulator === null) {
        sim.endedBy = 'simulator_fault';
        sim.fault = NO_SIMULATOR;
        return done(null);
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
        return done(null);
      }
      if (answer.kind === 'done') {
        sim.endedBy = 'simulator';
        sim.doneReason = deps.redact(answer.reason);
        return done(null);
      }
      message = answer.message;
      source = 'simulator';
      sim.liveFromTurn ??= t;
    }
    const t0 = deps.now();
    const answer = await session.send(message, t);
    if (answer.kind === 'errored') {
      sim.endedBy = 'agent_fault';
      return done(answer, [deps.redact(message)]);
    }
    const turn = record(t, deps.redact(message), answer, t0, source);
    await compare(turn);
    if (answer.ended) {
      sim.endedBy = 'agent';
      return done(null);
    }
  }
  return done(null);
}
