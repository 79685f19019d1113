// Scripted personas (docs/personas.md): one scripted user through a whole conversation.

import type { ErrorKind, Repeat, Route } from './fixture.js';
import type { Meaning } from './meaning.js';
import type { JudgeReuse, PanelMember } from './judge.js';
import type { TokenUsage } from './latency.js';
import type { SpanCounts, TimeSplit, ToolCallSource, WaterfallSpan } from './trace.js';
import type { JsonValue, MatchMode, ToolExpectation } from './tools.js';

/** How a conversation ended, as the agent reports it (`outcome`). */
export type Terminal = 'finish' | 'handoff' | 'switch';

/**
 * A declarative tool mock, sent to the agent with every turn: the agent answers its tool call
 * `tool` with `output` when the call's input matches `input` (absent: any call) by `match`.
 */
export interface Mock {
  tool: string;
  /** Absent: any call of `tool` matches. */
  input?: JsonValue;
  match: MatchMode;
  output: JsonValue;
}

/** A script's `expect` block; at least one expectation is present (else a configuration error). */
export interface PersonaExpect {
  /** Conversations that must all be visited; empty: not checked. */
  conversations: string[];
  /** How the conversation must end; null: not checked. */
  terminal: Terminal | null;
  toolCalled: ToolExpectation[];
  toolNotCalled: ToolExpectation[];
  /** Plain-language statements, each judged separately against the whole transcript. */
  criteria: string[];
  /** Deterministic checks on the replies, each its own check; absent or empty: none. */
  reply?: ReplyExpectation[];
  /** Latency budget in ms for every message turn: one check naming the slowest (docs/latency.md); absent: none. */
  maxTurnLatencyMs?: number;
}

/**
 * Which reply an `expect.reply` entry checks: a message turn number (0 is the welcome turn), the
 * last turn with a reply, or `any` (some reply of the script; the default).
 */
export type ReplyTurn = number | 'last' | 'any';

/** One `expect.reply` entry: a literal, case-sensitive text or a regex (run in the time-limited worker). */
export type ReplyExpectation = { contains: string; turn: ReplyTurn } | { regex: string; flags: string; turn: ReplyTurn };

/** One persona script as loaded from `.agent-replay/personas/*.yml`. */
export interface PersonaScript {
  label: string;
  /** Path of the script file relative to the repository root (or cwd), with forward slashes. */
  file: string;
  /** 1-based line of the script in its file. */
  line: number;
  /** The script's own `repeat` (it replaces config.yml's); absent: the global one applies. */
  repeat?: Repeat;
  /** Optional handle, sent to the agent as `persona`. */
  persona: string | null;
  /** The first user message; null only with a simulated `user` (the simulator then writes message 1 too). */
  opening: string | null;
  /** Scripted follow-ups; always empty with a simulated `user`. */
  followUps: string[];
  /** Message turns allowed (opening + follow-ups); default 20. With a simulated `user`, its `maxTurns`. */
  maxTurns: number;
  /**
   * A simulated user in place of the follow-ups (docs/personas.md, "Simulated users"); absent or
   * null: a scripted persona.
   */
  user?: SimulatedUser | null;
  /** Threshold for criteria; default 0.7. */
  threshold: number;
  mocks: Mock[];
  /**
   * A tool call no mock answered: `error` (mocked mode, the default when the script declares mocks)
   * or `allow` (live mode, the default without mocks). Absent: config.yml's `personas.unmockedTools`,
   * else that default.
   */
  unmockedTools?: 'error' | 'allow';
  expect: PersonaExpect;
}

/** A persona script's simulated user (`user:` instead of `followUps`; docs/simulated-users.md). */
export interface SimulatedUser {
  goal: string;
  instructions: string | null;
  /** Message turns allowed (the opening included), 1 to 20. */
  maxTurns: number;
}

/** A tool call the agent reports for one turn. */
export interface ToolCall {
  tool: string;
  /** The call's input (null when the agent reported none). */
  input: JsonValue;
  /** The call's output (null when the agent reported none). */
  output: JsonValue;
  /** False: the agent ran the real tool (no mock answered it); in mocked mode the script is errored. */
  mocked: boolean;
  /** Where the call was seen (docs/traces.md, "Attribution"); absent: the response, as in records before traces. */
  source?: ToolCallSource;
}

/** An entry of a response's `errors` array; any entry makes the script errored. */
export interface AgentErrorEntry {
  kind: string;
  tool: string | null;
  message: string;
}

/** One turn of a persona transcript. */
export interface Turn {
  /** 0 for the welcome turn, then 1 (the opening), 2, ... */
  index: number;
  /** The user's message; null for the welcome turn. */
  message: string | null;
  reply: string;
  route: Route | null;
  /** When this reply differs from the baseline's at the same turn (docs/meaning.md, "Persona scripts"); absent otherwise and in older records. */
  meaning?: Meaning | null;
  offTrack: unknown[];
  /** Null when the agent did not report tool calls for this turn (no `toolCalls` key / mapped path null). */
  toolCalls: ToolCall[] | null;
  /** The reported outcome (`finish`, `handoff`, `switch`, or whatever else the agent said), or null. */
  outcome: string | null;
  errors: AgentErrorEntry[];
  durationMs: number;
  /** Request sent to last byte (docs/latency.md); absent in older records and from unmeasured clients. */
  latencyMs?: number | null;
  /** Request sent to the first non-empty text delta of a streamed reply; null when not streamed. */
  firstTokenMs?: number | null;
  /** Tokens the turn reported (docs/latency.md, "Usage"); null or absent: none reported. */
  usage?: TokenUsage | null;
  /**
   * Present (true) only when the turn's response reported tokens in a shape not read (`usage` is
   * then null): a welcome turn's, beside turns whose tokens were read, leaves the script's tokens
   * some turns' alone, as a message turn's none does (docs/latency.md, "Usage"). Absent in older records.
   */
  usageUnread?: true;
  /**
   * Who wrote the user's message, on the message turns of a simulated script only (docs/simulated-users.md):
   * the script (its `opening`), the baseline (a stored message replayed word for word) or the simulator (live).
   */
  source?: TurnSource;
  /** The trace id sent in this turn's `traceparent` (docs/traces.md); absent in older records. */
  traceId?: string | null;
  /** This turn's spans, counted (docs/traces.md); absent or null without `traces:`. */
  spans?: SpanCounts | null;
  /** Where this turn's time went, from its spans (docs/traces.md, "Time"); absent or null without spans. */
  time?: TimeSplit | null;
  /** This turn's spans for report.html's waterfall (docs/traces.md); absent or null without spans. */
  waterfall?: WaterfallSpan[] | null;
  /** Why this turn's tool calls are unknown although tracing is on (docs/traces.md, "When spans do not arrive"); absent otherwise. */
  toolCallsProblem?: string;
}

export type TurnSource = 'script' | 'baseline' | 'simulator';

export type CheckStatus = 'pass' | 'fail' | 'not_evaluated';

/** A reported tool call with the turn it was made in. */
export interface ObservedToolCall extends ToolCall {
  turn: number;
}

interface CheckBase {
  status: CheckStatus;
  /** Why: what was visited and missing, what was observed, the score against the threshold, or why it did not run. */
  detail: string;
}

/** One check of a persona script; each toolCalled / toolNotCalled entry and each criterion is its own. */
export type Check =
  | (CheckBase & {
      kind: 'conversations';
      expected: string[];
      /** Every conversation visited, in first-visit order (welcome included). */
      observed: string[];
    })
  | (CheckBase & {
      kind: 'terminal';
      expected: Terminal;
      /** The outcome of the turn that ended the conversation, else of the last turn. */
      observed: string | null;
    })
  | (CheckBase & {
      kind: 'toolCalled' | 'toolNotCalled';
      expected: ToolExpectation;
      /** Every reported call of the expected tool (any input), in order. */
      observed: ObservedToolCall[];
      /** Turn of the first matching call, or null when none matched. */
      turn: number | null;
    })
  | (CheckBase & {
      kind: 'reply';
      expected: ReplyExpectation;
      /** The reply the check decided on (the matching one for `any`), or null when there is none. */
      observed: string | null;
      /** The turn of that reply, or null. */
      turn: number | null;
    })
  | (CheckBase & {
      kind: 'maxTurnLatency';
      /** The budget in ms. */
      expected: number;
      /** The slowest message turn's latency in ms, or null when no message turn was measured. */
      observed: number | null;
      /** The slowest message turn, or null. */
      turn: number | null;
    })
  | (CheckBase & {
      kind: 'criterion';
      /** The statement judged. */
      expected: string;
      observed: null;
      score: number | null;
      threshold: number;
      rationale: string | null;
      /** Set when the score was reused from the baseline (no judge call); absent otherwise. */
      reused?: JudgeReuse | null;
      /** A panel of judges: every member's answer, in the panel's order; absent for a single judge. */
      members?: PanelMember[];
    });

/**
 * Why a script is errored: a replay failure of any turn, a response whose tool calls, outcome or
 * errors have the wrong shape, a real (unmocked) tool call, or an error the agent itself reported.
 */
export type PersonaErrorKind = ErrorKind | 'invalid_response' | 'unmocked_tool' | 'agent_error';
