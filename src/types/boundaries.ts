// The side-effect boundaries (docs/architecture.md): the agent, the judge, the simulator, the regex worker, the clock.

import type { ErrorKind, Route } from './fixture.js';
import type { JudgeResult, JudgeStructuredOutput } from './judge.js';
import type { TokenUsage, TurnTiming } from './latency.js';
import type { AgentErrorEntry, Mock, PersonaErrorKind, ToolCall, Turn } from './persona.js';

export interface AgentRequest {
  session: string;
  message: string;
  persona: string | null;
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
       * The message turn's tool calls (docs/traces.md, "Fixtures"); null or absent: not reported (no
       * `toolCalls` key, no mapping, or a value of no known shape, then `toolCallsProblem` says so).
       */
      toolCalls?: ToolCall[] | null;
      toolCallsProblem?: string;
    }
  | {
      kind: 'errored';
      errorKind: ErrorKind;
      error: string;
      /** Turns the agent answered before the failure (a welcome turn, a reply without the mapped field); absent: 0. */
      answered?: number;
    };

/** Opens a persona session: every turn carries the session id, the persona and the mocks. */
export interface SessionRequest {
  session: string;
  persona: string | null;
  mocks: Mock[];
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
    }
  | { kind: 'errored'; errorKind: PersonaErrorKind; error: string };

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
  sleep(ms: number): Promise<void>;
}
