// Where a turn's tool calls come from (docs/traces.md, "Where tool calls come from"): a
// `TurnObserver` applied to every session turn of an agent client, as a decorator beside the spend
// meter. The default reads the response only, so a session behaves exactly as the client's own.
// A span reader plugs in here: `spanObserver(source, read)` takes a `SpanSource` (the receiver or a
// store's query client) and a mapping from spans to a report, and merges what it reads with the
// response's report; a turn whose response held neither a reply nor a tool call is then kept when
// its spans show calls, instead of failing before they were read.

import type { AgentClient, AgentOutcome, AgentSession, SentTrace, SessionTurn, SpanSource, TokenUsage, TurnReport, TurnObserver, TurnSpans } from '../types.js';
import { plusUsage } from '../evaluate/usage.js';

/** Today's behaviour: what the response reports, nothing else. */
export const responseOnly: TurnObserver = {
  beforeSend: () => undefined,
  afterReply: async (_trace, fromResponse) => fromResponse,
};

/**
 * A span-reading observer: registers each sent trace with `source` before the request and, after
 * the reply, collects the turn's spans and lets `read` merge them with the response's report.
 * The span mapping (tool calls, errors, usage, time; docs/traces.md) is `read`'s to decide.
 */
export function spanObserver(source: SpanSource, read: (fromResponse: TurnReport, spans: TurnSpans, trace: SentTrace) => TurnReport): TurnObserver {
  return {
    beforeSend: (trace) => source.register(trace.traceId, trace.spanId),
    afterReply: async (trace, fromResponse) => (trace === null ? fromResponse : read(fromResponse, await source.collect(trace.traceId, trace.spanId), trace)),
  };
}

/**
 * The client with `observer` applied to every session turn (fixtures' turns: docs/traces.md). With
 * the default observer a fixture's outcome is the client's own: what observeOutcome would make of it
 * differs only in forms a fixture's record reads alike (no tool calls as null, no errors, no tokens
 * left out), and skipping it saves an awaited wrapper and a copy of the outcome per fixture
 * (docs/performance.md, "2026-12-07 (midday)").
 */
export function observeTurns(client: AgentClient, observer: TurnObserver): AgentClient {
  return {
    converse: observer === responseOnly ? (request) => client.converse(request) : async (request) => observeOutcome(await client.converse(request), observer),
    session: (request) => observeSession(client.session(request), observer),
    close: () => client.close(),
  };
}

function observeSession(session: AgentSession, observer: TurnObserver): AgentSession {
  return {
    welcome: async () => {
      const turn = await session.welcome();
      return turn === null ? null : observeTurn(turn, observer);
    },
    send: async (message, n) => observeTurn(await session.send(message, n), observer),
  };
}

/** A turn with the observer's report; an errored turn without a reply is kept when the report finds calls. */
export async function observeTurn(turn: SessionTurn, observer: TurnObserver): Promise<SessionTurn> {
  const trace = turn.trace ?? null;
  if (turn.kind === 'replied') return withReport(turn, await observer.afterReply(trace, reportOf(turn)));
  if (turn.withoutReply === undefined) return turn;
  const report = await observer.afterReply(trace, reportOf(turn.withoutReply));
  return report.toolCalls !== null && report.toolCalls.length > 0 ? withReport(turn.withoutReply, report) : turn;
}

function reportOf(turn: SessionTurn & { kind: 'replied' }): TurnReport {
  return { toolCalls: turn.toolCalls, errors: turn.errors, usage: turn.usage ?? null, latencyMs: turn.timing?.latencyMs ?? null };
}

/**
 * A fixture's message turn through the observer (docs/traces.md, "Fixtures"): its tool calls, span
 * errors, usage and time as for a script's turn. A fixture still needs a reply: an errored outcome stays.
 */
export async function observeOutcome(outcome: AgentOutcome, observer: TurnObserver): Promise<AgentOutcome> {
  if (outcome.kind !== 'replied' || outcome.trace === undefined) return outcome;
  // The observer reads the message turn: its own tokens, not the welcome turn's beside them, or a
  // welcome turn that reported tokens would hide the message turn's spans' (docs/traces.md, "Usage").
  const own = outcome.messageUsage !== undefined ? outcome.messageUsage : (outcome.usage ?? null);
  const welcome = outcome.messageUsage !== undefined ? minusUsage(outcome.usage ?? null, own) : null;
  const report = await observer.afterReply(outcome.trace, {
    toolCalls: outcome.toolCalls ?? null,
    errors: outcome.errors ?? [],
    usage: own,
    latencyMs: outcome.timing?.latencyMs ?? null,
  });
  const usage = plusUsage(welcome, report.usage);
  const { toolCallsProblem: _problem, usage: _usage, messageUsage: _messageUsage, ...rest } = outcome;
  const problem = report.toolCallsProblem ?? (report.toolCalls === null ? outcome.toolCallsProblem : undefined);
  return {
    ...rest,
    toolCalls: report.toolCalls,
    ...(problem !== undefined ? { toolCallsProblem: problem } : {}),
    ...(report.errors.length > 0 ? { errors: report.errors } : {}),
    ...(usage !== null ? { usage } : {}),
    ...(outcome.messageUsage !== undefined ? { messageUsage: report.usage } : {}),
    ...(report.spans !== undefined ? { spans: report.spans } : {}),
    ...(report.time !== undefined ? { time: report.time } : {}),
    ...(report.waterfall !== undefined ? { waterfall: report.waterfall } : {}),
  };
}

function withReport(turn: SessionTurn & { kind: 'replied' }, report: TurnReport): SessionTurn {
  // Tokens read from the spans are the turn's: its response's unread usage no longer leaves it without any.
  const { usageUnread: _unread, ...read } = turn;
  return {
    ...(report.usage !== null ? read : turn),
    toolCalls: report.toolCalls,
    errors: report.errors,
    // A turn without tokens keeps its shape (the record says null).
    ...(report.usage !== null ? { usage: report.usage } : {}),
    ...(report.spans !== undefined ? { spans: report.spans } : {}),
    ...(report.time !== undefined ? { time: report.time } : {}),
    ...(report.waterfall !== undefined ? { waterfall: report.waterfall } : {}),
    ...(report.toolCallsProblem !== undefined ? { toolCallsProblem: report.toolCallsProblem } : {}),
  };
}

/** The welcome turn's tokens: the sum less the message turn's own (null: the message turn's were all of it). */
function minusUsage(sum: TokenUsage | null, part: TokenUsage | null): TokenUsage | null {
  if (sum === null) return null;
  if (part === null) return sum;
  return { inputTokens: Math.max(0, sum.inputTokens - part.inputTokens), outputTokens: Math.max(0, sum.outputTokens - part.outputTokens) };
}
