// The resolved configuration of a suite (`.agent-replay/config.yml` after defaults, `${ENV}`
// substitution and command-line / action-input overrides). Plain data; loaded by `suite/`.

import type { JsonValue, JudgeProvider, LatencyThresholds, Repeat, TracesConfig } from './types.js';

export type { JsonValue, JudgeProvider } from './types.js';

/** Every agent preset (docs/presets.md#presets); `agent-replay init` offers the same list. */
export const AGENT_PRESET_NAMES = ['native', 'openai-chat', 'openai-responses', 'anthropic-messages', 'rasa-rest', 'vercel-ai', 'langgraph', 'mastra'] as const;
export type AgentPreset = (typeof AGENT_PRESET_NAMES)[number];

/**
 * How a JSON response body is turned into `{reply, toolCalls}` before the mapping's paths are read,
 * for APIs whose reply is not at one path (a list of content blocks, a list of Rasa messages, the
 * last message of a LangGraph state). Absent: the paths read the body as it is.
 */
export type ResponseDecoder = 'openai-responses' | 'anthropic-messages' | 'rasa-rest' | 'langgraph' | 'mastra';

/**
 * How to talk to the agent. A request body is a JSON template: inside any string,
 * `{{session}}`, `{{message}}`, `{{messages}}`, `{{uiMessages}}`, `{{persona}}`, `{{model}}` and `{{mocks}}` are replaced; a string
 * that is exactly one placeholder is replaced by the raw value (so a null persona stays null, and
 * `{{mocks}}` becomes the script's mock list; a fixture has no mocks and the key is left out).
 * Response fields are dotted paths into the JSON reply (`choices.0.message.content`).
 */
/** Where a joined tool call came from: the line or event ("stream event 4"), and its place in the list there. */
export interface ToolCallOrigin {
  unit: string;
  index: number;
}

/** Where each call of a joined list came from (`items`, in order), and a value of another kind (`other`). */
export interface ToolCallsFrom {
  items: readonly ToolCallOrigin[];
  other?: string;
}

export interface AgentMapping {
  body: JsonValue;
  reply: string;
  /**
   * Where config.yml sets the reply's path to `path` ("config.yml:12"): named when no reply is there.
   * `key` is the setting, when not `agent.response.reply` (the welcome turn's `agent.start.response.reply`).
   */
  replyAt?: { path: string; at: string; key?: string };
  /**
   * An NDJSON answer's mapping (src/agent/http-client.ts, onLastLine): the reply path as configured,
   * applied to each line, while `reply` reads the lines' joined strings; named when no line has one.
   */
  replyPerLine?: string;
  /** `replyPerLine` was read on the events of a stream, not the lines of an NDJSON answer. */
  replyPerEvent?: true;
  /**
   * An NDJSON answer's or a stream's mapping (onLastLine): the tool-call path as configured, read on
   * each line or event, and where each call of the joined list came from, which an error names.
   */
  toolCallsPerLine?: { path: string; from: ToolCallsFrom };
  /**
   * A vendor's body or stream decoded into `{reply, toolCalls}` (DECODED_MAPPING): where each entry
   * of the decoded list was in what the agent sent (`"output.3"`, `"content_block" on stream event
   * 4 (content_block_start)`), which an error names instead of a place in the decoded list.
   */
  toolCallItems?: readonly string[];
  /**
   * config.yml gives the reply path (`agent.response.reply`, the welcome's own): it is read on each
   * event of a stream of no known format too (docs/presets.md, "Streamed replies").
   */
  ownReply?: true;
  conversation: string | null;
  stage: string | null;
  ended: string | null;
  offTrack: string | null;
  /**
   * Persona scripts (docs/presets.md#tool-calls). Tool calls: an array of `{tool, input, output, mocked}`, or
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
  /**
   * Read when `reply` holds no text: the model's refusal, which is then the reply (OpenAI chat's
   * `message.refusal`, a sibling of `content`); absent: none.
   */
  refusal?: string;
  /** Decodes a vendor response into `{reply, toolCalls}` first; the paths then read that object. */
  decode?: ResponseDecoder;
}

export interface AgentConfig {
  url: string | null;
  preset: AgentPreset;
  /** Substituted for `{{model}}` (openai-chat, openai-responses, anthropic-messages presets). */
  model: string | null;
  /** Substituted for `{{maxTokens}}` (anthropic-messages preset; default 1024). */
  maxTokens?: number;
  /** Substituted for `{{assistantId}}` (langgraph preset). */
  assistantId?: string | null;
  /** Ask for a streamed reply (`accept: text/event-stream`); the preset's body asks for it too. */
  stream?: boolean;
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

export interface JudgeConfig {
  provider: JudgeProvider;
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  /** Judge calls in flight at most; a 429 for too many in flight halves it for a while (http/limiter.ts). Default 4. */
  concurrency: number;
  /** Shown wherever the judge is named; the demo sets it to make clear it is not a real model. */
  label: string | null;
  /**
   * `judge.panel` (docs/judges.md, "Panels"): 3 or 5 members that judge in place of this judge, each
   * with the keys it sets (the rest come from this judge: `panelMembers` below); absent or null: none.
   */
  panel?: PanelMemberSettings[] | null;
}

/** A panel member as config.yml gives it: the keys it sets. */
export type PanelMemberSettings = Partial<Omit<JudgeConfig, 'panel'>>;

export interface CostConfig {
  agentTurnUsd: number;
  /** Agent turns per fixture; null (the default): the turns actually sent, 2 with a welcome turn, else 1. */
  turnsPerFixture: number | null;
  judgeCallUsd: number;
  capUsd: number;
  /** Per simulator call of a simulated user (docs/personas.md, "Simulated users"); absent: 0.005. */
  simulatorCallUsd?: number;
}

/**
 * `simulator:` of config.yml as written (after `${ENV}`): only the keys given. Each key not given
 * is the judge's (src/simulator/config.ts resolves it when the run starts, after overrides).
 */
export interface SimulatorSettings {
  provider?: JudgeProvider;
  baseUrl?: string;
  model?: string;
  apiKey?: string | null;
}

/** `meaning.check` (docs/meaning.md, "Configuration"): ask the meaning judge when the facts are the same, stop at the facts, or no meaning. */
export const MEANING_CHECKS = ['judge', 'facts', 'off'] as const;
export type MeaningCheck = (typeof MEANING_CHECKS)[number];

/**
 * `meaning:` of config.yml as written (after `${ENV}`): only the keys given. The model keys not
 * given are the judge's (src/judge/meaning-config.ts resolves them when the run starts, after overrides).
 */
export interface MeaningSettings {
  check?: MeaningCheck;
  threshold?: number;
  provider?: JudgeProvider;
  baseUrl?: string;
  model?: string;
  apiKey?: string | null;
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
  /** `coverage.conversations` (docs/evaluations.md#coverage): the conversations the agent has; absent or null: none listed. */
  coverage?: string[] | null;
  /** `repeat` of config.yml (docs/fixtures.md, "Repeat"), for every item without its own; absent: each item runs once. */
  repeat?: Repeat | null;
  /** `personas` of config.yml; absent: every default. */
  personas?: PersonasConfig;
  /** `simulator` of config.yml: the model that plays simulated users; absent: the judge's. */
  simulator?: SimulatorSettings;
  /** `latency` of config.yml (docs/latency.md): when an item is slower than its baseline; absent: DEFAULT_LATENCY. */
  latency?: LatencyThresholds;
  /** `meaning` of config.yml (docs/meaning.md): how a differing reply's meaning is decided; absent: every default. */
  meaning?: MeaningSettings;
  /** `stats` of config.yml (docs/statistics.md, "Configuration"); absent: DEFAULT_ALPHA. */
  stats?: { alpha: number };
  /** `--repeat N` / `--repeat-max M` (docs/statistics.md, "Adaptive attempts"): applied to every item's repeat; absent: none given. */
  repeatFlags?: { count?: number; max?: number };
  /** `traces` of config.yml (docs/traces.md): where a turn's spans come from; null without the section. */
  traces?: TracesConfig | null;
  /**
   * The keys that hold config.yml's `judge.baseUrl` only because they name config.yml's judge
   * provider, which the judge-provider input changed (`judge.panel[2].baseUrl`, `simulator.baseUrl`,
   * `meaning.baseUrl`: docs/judges.md, "The judge-provider input"); absent: none. A refusal of such
   * an address names `judge.baseUrl`, the key the file wrote (engine.ts, keySteered).
   */
  judgeBaseUrlKeptAt?: string[];
}

/** The false alarm rate of the pass-rate tiers (docs/statistics.md, "The tier"). */
export const DEFAULT_ALPHA = 0.05;

/** More than 50% and more than 300 ms over the baseline's latency is slower (docs/latency.md). */
export const DEFAULT_LATENCY: LatencyThresholds = { slowerBy: 0.5, minDeltaMs: 300 };

/** `personas.unmockedTools`: how a script without its own treats a tool call no mock answered; null: by its mocks. */
export interface PersonasConfig {
  unmockedTools: 'error' | 'allow' | null;
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
  body: { model: '{{model}}', messages: '{{messages}}', temperature: 0 },
  reply: 'choices.0.message.content',
  conversation: null,
  stage: null,
  ended: null,
  offTrack: null,
  toolCalls: 'choices.0.message.tool_calls',
  outcome: null,
  errors: null,
  absentToolCallsAreNone: true,
  refusal: 'choices.0.message.refusal',
};

/** What every decoded response (a vendor decoder, a server-sent event stream) is read with. */
const DECODED_FIELDS = {
  reply: 'reply',
  conversation: null,
  stage: null,
  ended: null,
  offTrack: null,
  toolCalls: 'toolCalls',
  outcome: null,
  errors: null,
  absentToolCallsAreNone: true,
} as const satisfies Omit<AgentMapping, 'body'>;

/** Reads a decoded `{reply, toolCalls}` (server-sent events of any format decode to it). */
export const DECODED_MAPPING: AgentMapping = { body: null, ...DECODED_FIELDS };

/** OpenAI Responses API (`POST /v1/responses`): `output[]` message text and function calls. */
export const OPENAI_RESPONSES_MAPPING: AgentMapping = {
  body: { model: '{{model}}', input: '{{messages}}', store: false },
  ...DECODED_FIELDS,
  decode: 'openai-responses',
};

/** Anthropic Messages API (`POST /v1/messages`): text blocks and tool_use blocks of `content[]`. */
export const ANTHROPIC_MESSAGES_MAPPING: AgentMapping = {
  body: { model: '{{model}}', max_tokens: '{{maxTokens}}', messages: '{{messages}}' },
  ...DECODED_FIELDS,
  decode: 'anthropic-messages',
};

/** Rasa REST channel (`POST /webhooks/rest/webhook`): a list of bot messages, texts joined. */
export const RASA_REST_MAPPING: AgentMapping = {
  body: { sender: '{{session}}', message: '{{message}}' },
  ...DECODED_FIELDS,
  decode: 'rasa-rest',
};

/**
 * Vercel AI SDK 5 chat route (what `useChat`'s DefaultChatTransport posts: the whole UI message
 * history on every turn); the reply is always a UI message stream (server-sent events). A persona
 * script's mocks go in a top-level `mocks` field, where `sendMessage(msg, { body })` puts extra fields.
 */
export const VERCEL_AI_MAPPING: AgentMapping = {
  body: { id: '{{session}}', messages: '{{uiMessages}}', trigger: 'submit-message', mocks: '{{mocks}}' },
  ...DECODED_FIELDS,
};

/**
 * LangGraph Platform stateless run (`POST /runs/wait`): the final state's AI messages of the turn. A persona
 * script's mocks go in `config.configurable.mocks`, which a graph's tools read from their RunnableConfig.
 */
export const LANGGRAPH_MAPPING: AgentMapping = {
  body: { assistant_id: '{{assistantId}}', input: { messages: '{{messages}}' }, config: { configurable: { mocks: '{{mocks}}' } } },
  ...DECODED_FIELDS,
  decode: 'langgraph',
};

/**
 * Mastra server agent endpoint (`POST /api/agents/<agentId>/generate`, or `/stream` with
 * `agent.stream: true`): the whole conversation as `messages` on every turn (stateless, no memory
 * option), a persona script's mocks in `requestContext.mocks`, which the server hands to every tool.
 */
export const MASTRA_MAPPING: AgentMapping = {
  body: { messages: '{{messages}}', requestContext: { mocks: '{{mocks}}' } },
  ...DECODED_FIELDS,
  decode: 'mastra',
};

export interface PresetInfo {
  mapping: AgentMapping;
  /** The welcome request, or null: the API has none. */
  start: AgentMapping | null;
  /** How `agent.stream: true` changes the request body; null: the API has no streaming form. */
  streamBody: ((body: JsonValue) => JsonValue) | null;
  /** The reply always streams (the Vercel AI SDK UI message stream). */
  alwaysStreams: boolean;
  /** Headers the API requires besides keys, sent unless `agent.headers` names them (any case). */
  headers?: Record<string, string>;
}

const withStreamTrue = (body: JsonValue): JsonValue =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body, stream: true } : body;
/** OpenAI chat completions stream their token usage (one last chunk) only when asked (docs/latency.md, "Usage"). */
const withStreamUsage = (body: JsonValue): JsonValue =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body, stream: true, stream_options: { include_usage: true } } : body;
const asObject = (body: JsonValue): { [key: string]: JsonValue } =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};

/** Every preset: its request body and response mapping, its welcome turn and its streaming form. */
export const PRESETS: Record<AgentPreset, PresetInfo> = {
  native: { mapping: NATIVE_MAPPING, start: NATIVE_START, streamBody: null, alwaysStreams: false },
  'openai-chat': { mapping: OPENAI_CHAT_MAPPING, start: null, streamBody: withStreamUsage, alwaysStreams: false },
  'openai-responses': { mapping: OPENAI_RESPONSES_MAPPING, start: null, streamBody: withStreamTrue, alwaysStreams: false },
  'anthropic-messages': {
    mapping: ANTHROPIC_MESSAGES_MAPPING,
    start: null,
    streamBody: withStreamTrue,
    alwaysStreams: false,
    headers: { 'anthropic-version': '2023-06-01' },
  },
  'rasa-rest': { mapping: RASA_REST_MAPPING, start: null, streamBody: null, alwaysStreams: false },
  'vercel-ai': { mapping: VERCEL_AI_MAPPING, start: null, streamBody: null, alwaysStreams: true },
  // Streaming posts to `/runs/stream` (agent.url) with stream_mode "values": the last state is the reply.
  langgraph: { mapping: LANGGRAPH_MAPPING, start: null, streamBody: (body) => ({ ...asObject(body), stream_mode: 'values' }), alwaysStreams: false },
  // Streaming posts the same body to `/stream` (agent.url): Mastra's chunk stream, read by the stream decoder.
  mastra: { mapping: MASTRA_MAPPING, start: null, streamBody: (body) => body, alwaysStreams: false },
};

/** `max_tokens` of the anthropic-messages preset when `agent.maxTokens` is not set. */
export const DEFAULT_MAX_TOKENS = 1024;

/**
 * The longest wait any millisecond setting may ask for: 10 minutes. Node's timers hold at most
 * 2^31-1 ms (about 24.8 days) and silently fire after 1 ms beyond that, so an unchecked
 * 3,000,000,000 would become no timeout at all; nothing in a replay needs to wait longer.
 */
export const MAX_WAIT_MS = 600_000;

export const DEFAULT_COST: CostConfig = { agentTurnUsd: 0.01, turnsPerFixture: null, judgeCallUsd: 0.005, capUsd: 0.1 };

/** `cost.simulatorCallUsd` when config.yml does not set it. */
export const DEFAULT_SIMULATOR_CALL_USD = 0.005;

/**
 * The judge's settings that config.yml, the flags and the inputs leave out (docs/judges.md): each
 * provider's own API address and model, and the client's timeout, retries, backoff and concurrency.
 * The simulator and a panel member of another provider than the judge's start from the same.
 */
export const JUDGE_DEFAULTS: Record<JudgeProvider, { baseUrl: string; model: string }> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5' },
};

/** `judge.timeoutMs`, `retries`, `backoffMs` and `concurrency` (calls in flight at most) when nothing sets them. */
export const JUDGE_CLIENT_DEFAULTS: Readonly<Pick<JudgeConfig, 'timeoutMs' | 'retries' | 'backoffMs' | 'concurrency'>> = {
  timeoutMs: 30_000,
  retries: 2,
  backoffMs: 250,
  concurrency: 4,
};

/**
 * A panel member's judge (docs/judges.md, "Panels"): the keys it sets, the rest from `judge`. A
 * member of another provider than the judge's takes that provider's default address and model
 * instead of the judge's, and never the judge's API key (a key belongs to one vendor).
 */
export function panelMemberConfig(judge: JudgeConfig, m: PanelMemberSettings): JudgeConfig {
  const provider = m.provider ?? judge.provider;
  const same = provider === judge.provider;
  return {
    provider,
    baseUrl: m.baseUrl ?? (same ? judge.baseUrl : JUDGE_DEFAULTS[provider].baseUrl),
    model: m.model ?? (same ? judge.model : JUDGE_DEFAULTS[provider].model),
    apiKey: m.apiKey !== undefined ? m.apiKey : same ? judge.apiKey : null,
    timeoutMs: m.timeoutMs ?? judge.timeoutMs,
    retries: m.retries ?? judge.retries,
    backoffMs: m.backoffMs ?? judge.backoffMs,
    concurrency: m.concurrency ?? judge.concurrency,
    label: m.label ?? null,
  };
}

/**
 * The model the meaning judge or the simulated users ask (docs/meaning.md, "Configuration";
 * docs/personas.md, "Simulated users"): the model keys `given`, each other taken from the judge as a
 * panel member takes it (panelMemberConfig), or, with no judge, the openai provider's defaults; the
 * client settings the judge's (JUDGE_CLIENT_DEFAULTS without one); no label. The run
 * (meaningRunConfig, simulatorConfig) and the suite's edits (src/suite/config-edits.ts) read it here.
 */
export function modelFromJudge(judge: JudgeConfig | null, given: SimulatorSettings): JudgeConfig {
  const { panel: _panel, ...from } = judge ?? { provider: 'openai' as const, ...JUDGE_DEFAULTS.openai, apiKey: null, ...JUDGE_CLIENT_DEFAULTS, label: null };
  const own = { provider: given.provider, baseUrl: given.baseUrl, model: given.model, apiKey: given.apiKey };
  return panelMemberConfig(from, Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined)));
}

/** The judges of a panel in order, or null when the judge has none. */
export function panelMembers(judge: JudgeConfig): JudgeConfig[] | null {
  return judge.panel ? judge.panel.map((m) => panelMemberConfig(judge, m)) : null;
}

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
      stream: false,
    },
    judge: null,
    regex: { timeoutMs: 100, workers: 2 },
    cost: { ...DEFAULT_COST },
    secrets: [],
    traces: null,
  };
}
