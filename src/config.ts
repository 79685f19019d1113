// The resolved configuration of a suite (`.agent-replay/config.yml` after defaults, `${ENV}`
// substitution and command-line / action-input overrides). Plain data; loaded by `suite/`.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type AgentPreset = 'native' | 'openai-chat';

/**
 * How to talk to the agent. A request body is a JSON template: inside any string,
 * `{{session}}`, `{{message}}`, `{{persona}}`, `{{model}}` and `{{mocks}}` are replaced; a string
 * that is exactly one placeholder is replaced by the raw value (so a null persona stays null, and
 * `{{mocks}}` becomes the script's mock list; a fixture has no mocks and the key is left out).
 * Response fields are dotted paths into the JSON reply (`choices.0.message.content`).
 */
export interface AgentMapping {
  body: JsonValue;
  reply: string;
  conversation: string | null;
  stage: string | null;
  ended: string | null;
  offTrack: string | null;
  /**
   * Persona scripts (SPEC section 10). Tool calls: an array of `{tool, input, output, mocked}`, or
   * of OpenAI `tool_calls` (`{type: 'function', function: {name, arguments}}`); null: not reported.
   */
  toolCalls: string | null;
  /** `finish` | `handoff` | `switch` | null; a null path: outcomes not reported. */
  outcome: string | null;
  /** An array of `{kind, tool, message}`; any entry makes a script errored. */
  errors: string | null;
  /**
   * When the value at `toolCalls` is missing: true means "no tool calls" (OpenAI omits
   * `tool_calls` when the model calls none), false means "not reported" (the native protocol).
   */
  absentToolCallsAreNone: boolean;
}

export interface AgentConfig {
  url: string | null;
  preset: AgentPreset;
  /** Substituted for `{{model}}` (openai-chat preset). */
  model: string | null;
  /** Header values after `${ENV}` substitution. */
  headers: Record<string, string>;
  timeoutMs: number;
  concurrency: number;
  /** Retries after the first attempt, on network errors, 429 and 5xx. */
  retries: number;
  /** Base of the jittered exponential backoff, in ms. */
  backoffMs: number;
  /** The message turn. */
  mapping: AgentMapping;
  /** The welcome turn that opens the session, or null for none. */
  start: AgentMapping | null;
  /** Seconds to poll the agent URL (GET) until it answers, before the first fixture; 0: no wait. */
  waitForAgent: number;
}

export type JudgeProvider = 'openai' | 'anthropic';

export interface JudgeConfig {
  provider: JudgeProvider;
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  /** Shown wherever the judge is named; the demo sets it to make clear it is not a real model. */
  label: string | null;
}

export interface CostConfig {
  agentTurnUsd: number;
  /** Agent turns per fixture; null (the default): the turns actually sent, 2 with a welcome turn, else 1. */
  turnsPerFixture: number | null;
  judgeCallUsd: number;
  capUsd: number;
}

export interface RegexConfig {
  timeoutMs: number;
  /** Worker threads in the pool. */
  workers: number;
}

export interface Config {
  agent: AgentConfig;
  /** null when no judge is configured: judge assertions are then not evaluated. */
  judge: JudgeConfig | null;
  regex: RegexConfig;
  cost: CostConfig;
  /** Every value that came from `${ENV}`: never printed, logged or written. */
  secrets: string[];
  /** `coverage.conversations` (SPEC section 11): the conversations the agent has; absent or null: none listed. */
  coverage?: string[] | null;
}

export const NATIVE_MAPPING: AgentMapping = {
  body: { session: '{{session}}', message: '{{message}}', persona: '{{persona}}', mocks: '{{mocks}}' },
  reply: 'reply',
  conversation: 'route.conversation',
  stage: 'route.stage',
  ended: 'ended',
  offTrack: 'offTrack',
  toolCalls: 'toolCalls',
  outcome: 'outcome',
  errors: 'errors',
  absentToolCallsAreNone: false,
};

export const NATIVE_START: AgentMapping = {
  body: { session: '{{session}}', persona: '{{persona}}', start: true, mocks: '{{mocks}}' },
  reply: 'reply',
  conversation: 'route.conversation',
  stage: 'route.stage',
  ended: 'ended',
  offTrack: 'offTrack',
  toolCalls: 'toolCalls',
  outcome: 'outcome',
  errors: 'errors',
  absentToolCallsAreNone: false,
};

export const OPENAI_CHAT_MAPPING: AgentMapping = {
  body: { model: '{{model}}', messages: [{ role: 'user', content: '{{message}}' }], temperature: 0 },
  reply: 'choices.0.message.content',
  conversation: null,
  stage: null,
  ended: null,
  offTrack: null,
  toolCalls: 'choices.0.message.tool_calls',
  outcome: null,
  errors: null,
  absentToolCallsAreNone: true,
};

/**
 * The longest wait any millisecond setting may ask for: 10 minutes. Node's timers hold at most
 * 2^31-1 ms (about 24.8 days) and silently fire after 1 ms beyond that, so an unchecked
 * 3,000,000,000 would become no timeout at all; nothing in a replay needs to wait longer.
 */
export const MAX_WAIT_MS = 600_000;

export const DEFAULT_COST: CostConfig = { agentTurnUsd: 0.01, turnsPerFixture: null, judgeCallUsd: 0.005, capUsd: 0.1 };

export function defaultConfig(): Config {
  return {
    agent: {
      url: null,
      preset: 'native',
      model: null,
      headers: {},
      timeoutMs: 30_000,
      concurrency: 4,
      retries: 2,
      backoffMs: 250,
      mapping: NATIVE_MAPPING,
      start: NATIVE_START,
      waitForAgent: 0,
    },
    judge: null,
    regex: { timeoutMs: 100, workers: 2 },
    cost: { ...DEFAULT_COST },
    secrets: [],
  };
}
