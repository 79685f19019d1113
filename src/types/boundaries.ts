// The side-effect boundaries (docs/architecture.md): the agent, the judge, the simulator, the regex worker, the clock.

import type { ErrorKind, Route } from './fixture.js';
import type { JudgeResult, JudgeStructuredOutput } from './judge.js';
import type { TokenUsage, TurnTiming } from './latency.js';
import type { SpanCounts, TimeSplit, WaterfallSpan } from './trace.js';
import type { AgentErrorEntry, Mock, PersonaErrorKind, ToolCall, Turn } from './persona.js';

export interface AgentRequest {
  session: string;
  message: string;
  persona: string | null;
  /**
   * Told as each turn is answered (a welcome turn, a message turn, one answered without a reply),
   * before the outcome: the run's spend counts a turn answered by a fixture that an interrupt
   * abandons in flight (docs/semantics.md, "Cost"). A client that never tells has its turns
   * counted from the outcome.
   */
  onAnswered?: () => void;
}

/** What the agent client returns for one fixture: a reply, or an errored replay. */
export type AgentOutcome =
  | {
      kind: 'replied';
      reply: string;
      route: Route | null;
      offTrack: unknown[];
      ended: boolean;
      /** Number of HTTP turns made (welcome + message). */
      turns: number;
      /** Where the welcome turn landed and what it signalled; null (or absent) without a welcome turn. */
      welcome?: { route: Route | null; offTrack: unknown[] } | null;
      /** The message turn's timing (docs/latency.md); absent from a client that does not measure. */
      timing?: TurnTiming;
      /** The welcome turn's latency; absent without a welcome turn. */
      welcomeLatencyMs?: number;
      /** Tokens the welcome and message turns reported, summed (docs/latency.md, "Usage"); null or absent: none reported. */
      usage?: TokenUsage | null;
      /**
       * The message turn's own share of `usage` (null: it reported none), so that a span reader
       * fills in that turn's alone (docs/traces.md, "Usage"); absent when the welcome turn reported
       * none, and from a client that does not tell the turns apart: `usage` is then the message turn's.
       */
      messageUsage?: TokenUsage | null;
      /**
       * The welcome turn reported tokens in a shape not read, and the message turn's were read:
       * `usage` is the message turn's alone (docs/latency.md, "Usage"); absent otherwise.
       */
      welcomeUsageUnread?: true;
      /**
       * The message turn's tool calls (docs/traces.md, "Fixtures"); null or absent: not reported (no
       * `toolCalls` key, no mapping, or a value of no known shape, then `toolCallsProblem` says so).
       */
      toolCalls?: ToolCall[] | null;
      toolCallsProblem?: string;
      /** The trace id the message turn's `traceparent` carried (docs/traces.md); absent from a client that sends none. */
      traceId?: string;
      /** The message turn's trace context (docs/traces.md): its answered attempt's, for a span reader; absent from a client that sends none. */
      trace?: SentTrace;
      /** What the message turn's spans showed (docs/traces.md, "Fixtures"); absent without a span reader. */
      spans?: SpanCounts | null;
      time?: TimeSplit | null;
      waterfall?: WaterfallSpan[] | null;
      /** Errors the message turn's spans show (an ERROR span): the fixture is errored with the first; absent: none. */
      errors?: AgentErrorEntry[];
    }
  | {
      kind: 'errored';
      errorKind: ErrorKind;
      error: string;
      /** Turns the agent answered before the failure (a welcome turn, a reply without the mapped field); absent: 0. */
      answered?: number;
      /** Tokens those answered turns reported (docs/latency.md, "Usage"): the fixture's record keeps them; absent: none. */
      usage?: TokenUsage;
      /** Where a connection that failed was tried (`127.0.0.1:3000`, `[::1]:3000`), from the error, not its message; absent: not such a failure, or not known. */
      address?: string;
      /**
       * The tool calls the message turn's stream had begun when it ended early, as received (their
       * arguments as far as they came): the errored record keeps them (docs/presets.md, "Streamed
       * replies"); absent: none, or not such a failure.
       */
      toolCalls?: ToolCall[];
    };

/** Opens a persona session: every turn carries the session id, the persona and the mocks. */
export interface SessionRequest {
  session: string;
  persona: string | null;
  mocks: Mock[];
  /** Told as each turn is answered, before the turn resolves (AgentRequest.onAnswered). */
  onAnswered?: () => void;
}

/** One turn of a session, as the agent answered it (before anything is recorded). */
export type SessionTurn =
  | {
      kind: 'replied';
      reply: string;
      route: Route | null;
      offTrack: unknown[];
      ended: boolean;
      /** Null: the response does not report tool calls (no `toolCalls` key, or no mapping). */
      toolCalls: ToolCall[] | null;
      outcome: string | null;
      /** The response reports outcomes (has the key `outcome`, even null, under a mapping). */
      outcomeReported: boolean;
      errors: AgentErrorEntry[];
      /** The turn's timing (docs/latency.md); absent from a client that does not measure. */
      timing?: TurnTiming;
      /** Tokens the turn reported (docs/latency.md, "Usage"); null or absent: none reported. */
      usage?: TokenUsage | null;
      /** Present (true) only when the response reported tokens in a shape not read: told apart from none reported (Turn.usageUnread). */
      usageUnread?: true;
      /** The trace context the turn's answered request carried (docs/traces.md, "traceparent", "Retried requests"); absent from a client that sends none. */
      trace?: SentTrace;
      /** The turn's spans, counted, and where its time went (docs/traces.md); absent without a span reader. */
      spans?: SpanCounts | null;
      time?: TimeSplit | null;
      waterfall?: WaterfallSpan[] | null;
      /** Why the turn's tool calls are unknown although tracing is on (docs/traces.md, "When spans do not arrive"). */
      toolCallsProblem?: string;
    }
  | {
      kind: 'errored';
      errorKind: PersonaErrorKind;
      error: string;
      trace?: SentTrace;
      /**
       * The response held neither a reply nor a tool call: the turn as a calls-only turn (reply ''),
       * for a `TurnObserver` that finds its calls elsewhere (spans) to answer with; otherwise the
       * error stands (docs/traces.md, "Where tool calls come from").
       */
      withoutReply?: SessionTurn & { kind: 'replied' };
      /** The agent answered the turn, with a response that could not be used: a turn answered all the same (the run's spend). */
      answered?: true;
      /** Tokens that answered turn reported (docs/latency.md, "Usage"): the script's usage keeps them; absent: none. */
      usage?: TokenUsage;
      /** Where a connection that failed was tried (`127.0.0.1:3000`); absent: not such a failure, or not known. */
      address?: string;
      /**
       * The tool calls the turn's stream had begun when it was cut short, as received: the script's
       * errored record keeps them (docs/presets.md, "Streamed replies"); absent: none, or not such a failure.
       */
      toolCalls?: ToolCall[];
    };

/** The trace context a request carried: `traceparent`'s trace id and parent span id (docs/traces.md). */
export interface SentTrace {
  /** 32 lower-case hex digits: the turn's, shared by its retried attempts. */
  traceId: string;
  /** 16 lower-case hex digits: the span id sent as the parent of the agent's spans, one per attempt (docs/traces.md, "Retried requests"). */
  spanId: string;
}

/** What a turn reports beside its reply: the tool calls, errors and usage, and what spans add. */
export interface TurnReport {
  /** Null: not reported. */
  toolCalls: ToolCall[] | null;
  errors: AgentErrorEntry[];
  /** Null: none reported. */
  usage: TokenUsage | null;
  spans?: SpanCounts | null;
  time?: TimeSplit | null;
  waterfall?: WaterfallSpan[] | null;
  /** Set by a span reader when the turn's spans could not be read: its tool calls are then unknown (null), with this cause. */
  toolCallsProblem?: string;
  /** The turn's latency (request sent to last byte), for the time split; null or absent: not measured. */
  latencyMs?: number | null;
}

/**
 * Where a turn's tool calls, errors and usage come from (docs/traces.md, "Where tool calls come
 * from"): applied to the agent's sessions as a decorator (agent/observe.ts), as the spend meter
 * is. The default reads the response only; a span reader (a `SpanSource`) merges what the turn's
 * spans show.
 */
export interface TurnObserver {
  /** Before each attempt of a turn is sent, with the trace context it carries (a receiver keeps that trace's spans): a retried attempt, the same trace id with a span id of its own. */
  beforeSend(trace: SentTrace): void;
  /** After the turn was answered, with the answered attempt's trace context: the turn's report from its response, merged with whatever this observer reads elsewhere. */
  afterReply(trace: SentTrace | null, fromResponse: TurnReport): Promise<TurnReport>;
}

/** A multi-turn conversation with the agent: the welcome turn, then messages in order. */
export interface AgentSession {
  /** Null when the agent has no welcome turn. */
  welcome(): Promise<SessionTurn | null>;
  /** `turn` numbers the message from 1 (the opening), for error messages. */
  send(message: string, turn: number): Promise<SessionTurn>;
}

/** The side-effect boundary to the agent under test. */
export interface AgentClient {
  converse(request: AgentRequest): Promise<AgentOutcome>;
  /** A persona script's session (docs/personas.md). */
  session(request: SessionRequest): AgentSession;
  close(): Promise<void>;
}

/** The side-effect boundary to the judge model. */
export interface Judge {
  /** Human description, e.g. "openai gpt-4o-mini" or "demo judge (not a real model)". */
  readonly name: string;
  score(criterion: string, reply: string): Promise<JudgeResult>;
  /** One criterion of a persona script against the whole transcript (rationale asked before score). */
  scoreTranscript(criterion: string, transcript: readonly Turn[]): Promise<JudgeResult>;
  /** A real model's client: whether it still asks through the schema mechanism; absent: no such mechanism. */
  structuredOutput?(): JudgeStructuredOutput;
  close(): Promise<void>;
}

/** What the simulator is asked for one user message (docs/personas.md, "Simulated users"); every text already redacted. */
export interface SimulatorRequest {
  goal: string;
  instructions: string | null;
  persona: string | null;
  /** The message turn whose user message is asked for (1 is the opening). */
  turn: number;
  maxTurns: number;
  /** The conversation so far (the welcome turn included when there is one). */
  transcript: readonly Turn[];
}

/** The simulator's answer: the next user message, done (goal reached or given up), or a fault. */
export type SimulatorAnswer =
  | { kind: 'message'; message: string; retries: number }
  | { kind: 'done'; reason: string; retries: number }
  | { kind: 'fault'; fault: string; retries: number };

/** The side-effect boundary to the model that plays a simulated user. */
export interface Simulator {
  /** Human description, e.g. "openai gpt-4o-mini". */
  readonly name: string;
  next(request: SimulatorRequest): Promise<SimulatorAnswer>;
  /** Whether it still asks through the provider's schema mechanism, or fell back to the plain prompt and why. */
  structuredOutput?(): JudgeStructuredOutput;
  close(): Promise<void>;
}

export type RegexResult =
  | { kind: 'matched'; match: string }
  | { kind: 'no_match' }
  | { kind: 'compile_error'; message: string }
  | { kind: 'timeout'; budgetMs: number }
  | { kind: 'worker_failed'; message: string };

/** Runs a regular expression against text with a time budget (worker pool). */
export interface RegexEvaluator {
  test(pattern: string, flags: string, text: string): Promise<RegexResult>;
  /** Starts up to `count` workers now (at the start of a run), so the first evaluation finds them ready. */
  warm?(count: number): void;
  close(): Promise<void>;
}

/** Injected time, so tests never sleep. */
export interface Clock {
  now(): number;
  /** Ends after `ms`; an abort of `signal` may end it sooner (the real clock clears its timer, so none outlives the wait). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
