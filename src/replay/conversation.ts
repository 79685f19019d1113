// The one conversation loop of a persona script (docs/personas.md), scripted or simulated: one
// session; the welcome turn when the agent has one; then user messages in order, each from a
// `MessageSource` (the script's opening and follow-ups, or the baseline and the simulator); every
// answered turn recorded, its agent-supplied texts redacted (replay/turns.ts). An agent failure
// keeps the turns that completed; the agent ending the conversation leaves the rest unsent.

import type { AgentSession, SessionTurn, Turn, TurnSource } from '../types.js';
import { transcriptText } from '../judge/prompt.js';
import { toTurn, type Transcript } from './turns.js';

/** The next user message, or the end of the conversation (the source says why, if it keeps a record). */
export type NextMessage = { kind: 'send'; message: string; recorded: string; source: TurnSource | null } | { kind: 'end' };

/** Where a conversation's user messages come from. */
export interface MessageSource {
  /** The message of turn `t` (1: the opening); `turns` are the turns recorded so far. */
  next(t: number, turns: readonly Turn[]): Promise<NextMessage>;
  /** The messages left unsent when the conversation stops before turn `t` (`message`: turn t's, when it failed). */
  unsentFrom(t: number, message: string | null): string[];
  /** Told of each recorded turn, the welcome turn included; may replace it in `turns` (a meaning). */
  heard?(turn: Turn, turns: Turn[]): Promise<void>;
}

/** How the conversation stopped: the agent failed, the agent ended it, or the source had no next message. */
export type Stop = 'agent_fault' | 'agent' | 'source';

export interface ConversationDeps {
  now: () => number;
  redact: (text: string) => string;
}

const ENDED_IN_WELCOME = 'the conversation ended during the welcome turn: no message was sent';

export async function converse(session: AgentSession, source: MessageSource, deps: ConversationDeps): Promise<{ transcript: Transcript; stop: Stop }> {
  const turns: Turn[] = [];
  let outcomesReported = false;
  let redacted = false;
  const done = (stop: Stop, failure: Transcript['failure'], unsent: string[]): { transcript: Transcript; stop: Stop } => ({
    transcript: { turns, unsent, failure, outcomesReported, redacted },
    stop,
  });
  const record = async (index: number, message: string | null, answer: SessionTurn & { kind: 'replied' }, t0: number, from: TurnSource | null): Promise<void> => {
    outcomesReported ||= answer.outcomeReported;
    const turn = toTurn(index, message, answer, 0, deps.redact);
    // Did redaction change anything the judge reads? Compared once per turn, on the turn's text.
    redacted ||= transcriptText([turn]) !== transcriptText([toTurn(index, message, answer, 0, (t) => t)]);
    const full: Turn = { ...turn, durationMs: Math.round(deps.now() - t0), ...(from !== null ? { source: from } : {}) };
    turns.push(full);
    await source.heard?.(full, turns);
  };

  const w0 = deps.now();
  const welcome = await session.welcome();
  if (welcome !== null) {
    if (welcome.kind === 'errored') return done('agent_fault', failureOf(welcome), source.unsentFrom(1, null));
    await record(0, null, welcome, w0, null);
    if (welcome.ended) return done('agent_fault', { errorKind: 'ended_in_welcome', error: ENDED_IN_WELCOME }, source.unsentFrom(1, null));
  }
  for (let t = 1; ; t++) {
    const next = await source.next(t, turns);
    if (next.kind === 'end') return done('source', null, []);
    const t0 = deps.now();
    const answer = await session.send(next.message, t);
    if (answer.kind === 'errored') return done('agent_fault', failureOf(answer), source.unsentFrom(t, next.message));
    await record(t, next.recorded, answer, t0, next.source);
    // Ending early is not an error: what was not sent is recorded as unsent.
    if (answer.ended) return done('agent', null, source.unsentFrom(t + 1, null));
  }
}

function failureOf(turn: SessionTurn & { kind: 'errored' }): NonNullable<Transcript['failure']> {
  return {
    errorKind: turn.errorKind,
    error: turn.error,
    ...(turn.usage !== undefined ? { usage: turn.usage } : {}),
    ...(turn.address !== undefined ? { address: turn.address } : {}),
    ...(turn.toolCalls !== undefined && turn.toolCalls.length > 0 ? { toolCalls: turn.toolCalls } : {}),
  };
}
