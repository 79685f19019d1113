// `.agent-replay/config.yml`: schema of the file as written, and its resolution into the `Config`
// of src/config.ts (defaults, preset mapping, `${ENV}` substitution). Overrides live in overrides.ts.

import { z } from 'zod';
import {
  defaultConfig,
  MAX_WAIT_MS,
  AGENT_PRESET_NAMES,
  DEFAULT_LATENCY,
  DEFAULT_MAX_TOKENS,
  PRESETS,
  type AgentMapping,
  type AgentPreset,
  type Config,
  type JsonValue,
  type JudgeConfig,
  type JudgeProvider,
  type PanelMemberSettings,
  type SimulatorSettings,
} from '../config.js';
import { JUDGE_PROVIDERS } from '../types.js';
import { MAX_WAIT_FOR_AGENT_S } from '../agent/ready.js';
import { substituteEnv } from './env.js';
import { checkRepeat, repeatSchema } from './repeat.js';
import { meaningSchema, resolveMeaningSection } from './meaning-config.js';
import { quote, translateZodIssues, type ConfigIssue } from './issues.js';
import type { PathSegment, SourceFile } from './yaml/index.js';

export const AGENT_PRESETS = AGENT_PRESET_NAMES satisfies readonly AgentPreset[];
export { JUDGE_PROVIDERS };

/** Judge calls in flight at most when config.yml does not say (`judge.concurrency`). */
export const JUDGE_CONCURRENCY = 4;

export const JUDGE_DEFAULTS: Record<JudgeProvider, { baseUrl: string; model: string }> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5' },
};

export function isJsonValue(v: unknown): v is JsonValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJsonValue);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every(isJsonValue);
  return false;
}

const positiveInt = z.number().int().min(1);
const nonNegativeInt = z.number().int().min(0);

/** The allowed range of a millisecond setting, in words (also used for flags and inputs). */
export function msRange(min: number): string {
  return `a whole number of milliseconds from ${min} to ${MAX_WAIT_MS} (10 minutes)`;
}

/** A millisecond setting: `min`..MAX_WAIT_MS (a timer beyond 2^31-1 ms would fire at once). */
function ms(min: number) {
  const error = `must be ${msRange(min)}`;
  return z.number().int().min(min, { error }).max(MAX_WAIT_MS, { error });
}
const usd = z.number().min(0);
const jsonTemplate = z.custom<JsonValue>(isJsonValue, {
  error: 'must be JSON data (strings, numbers, true/false, null, lists and mappings)',
});
const fieldPath = z.string().min(1);

const responseSchema = z.strictObject({
  reply: fieldPath.optional(),
  conversation: fieldPath.nullable().optional(),
  stage: fieldPath.nullable().optional(),
  ended: fieldPath.nullable().optional(),
  offTrack: fieldPath.nullable().optional(),
  toolCalls: fieldPath.nullable().optional(),
  outcome: fieldPath.nullable().optional(),
  errors: fieldPath.nullable().optional(),
});

const agentSchema = z.strictObject({
  url: z.string().nullable().optional(),
  preset: z.enum(AGENT_PRESETS).optional(),
  model: z.string().nullable().optional(),
  maxTokens: z.number().int({ error: 'must be a whole number of tokens, at least 1' }).min(1, { error: 'must be a whole number of tokens, at least 1' }).optional(),
  assistantId: z.string().nullable().optional(),
  stream: z.boolean().optional(),
  headers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable().optional(),
  timeoutMs: ms(1).optional(),
  concurrency: positiveInt.optional(),
  retries: nonNegativeInt.optional(),
  backoffMs: ms(0).optional(),
  waitForAgent: z
    .number()
    .int({ error: `must be a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}` })
    .min(0, { error: `must be a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}` })
    .max(MAX_WAIT_FOR_AGENT_S, { error: `must be a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}` })
    .optional(),
  request: z.strictObject({ body: jsonTemplate.optional() }).nullable().optional(),
  response: responseSchema.nullable().optional(),
  start: z
    .union([z.boolean(), z.strictObject({ body: jsonTemplate.optional(), response: responseSchema.optional() })], {
      error: 'must be true, false, or a mapping with body and/or response',
    })
    .nullable()
    .optional(),
});

const judgeKeys = {
  provider: z.enum(JUDGE_PROVIDERS).optional(),
  baseUrl: z.string().optional(),
  model: z.string().min(1).optional(),
  apiKey: z.string().nullable().optional(),
  timeoutMs: ms(1).optional(),
  retries: nonNegativeInt.optional(),
  backoffMs: ms(0).optional(),
  concurrency: positiveInt.optional(),
  label: z.string().nullable().optional(),
};

/** The sizes a panel of judges may have (docs/judges.md, "Panels"): odd, so that a majority always exists. */
export const PANEL_SIZES = [3, 5] as const;

const judgeSchema = z.strictObject({
  ...judgeKeys,
  // A panel of judges: each member sets the keys of a judge it changes (docs/judges.md, "Panels").
  panel: z.array(z.strictObject(judgeKeys)).nullable().optional(),
});

export const configFileSchema = z.strictObject({
  agent: agentSchema.nullable().optional(),
  judge: judgeSchema.nullable().optional(),
  regex: z.strictObject({ timeoutMs: ms(1).optional(), workers: positiveInt.optional() }).nullable().optional(),
  cost: z
    .strictObject({
      agentTurnUsd: usd.optional(),
      turnsPerFixture: usd.optional(),
      judgeCallUsd: usd.optional(),
      capUsd: usd.optional(),
      simulatorCallUsd: usd.optional(),
    })
    .nullable()
    .optional(),
  // The conversations the agent has, for coverage gaps (docs/evaluations.md#coverage).
  coverage: z.strictObject({ conversations: z.array(z.string()).nullable().optional() }).nullable().optional(),
  // Every item runs `count` times unless it has its own `repeat` (docs/fixtures.md, "Repeat").
  repeat: repeatSchema.nullable().optional(),
  // Persona scripts: how a script without its own unmockedTools treats a tool call no mock answered.
  personas: z.strictObject({ unmockedTools: z.enum(['error', 'allow']).nullable().optional() }).nullable().optional(),
  // The model that plays simulated users (docs/personas.md, "Simulated users"); each key not given is the judge's.
  simulator: z
    .strictObject({
      provider: z.enum(JUDGE_PROVIDERS).optional(),
      baseUrl: z.string().optional(),
      model: z.string().min(1).optional(),
      apiKey: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  // When an item is slower than its baseline (docs/latency.md): both strict, "more than".
  latency: z
    .strictObject({
      slowerBy: z.number().min(0, { error: 'must be a fraction of the baseline latency, 0 or more (0.5 is 50 % slower)' }).optional(),
      minDeltaMs: ms(0).optional(),
    })
    .nullable()
    .optional(),
  // How a reply that differs from its baseline gets its meaning (docs/meaning.md).
  meaning: meaningSchema,
});

export type ConfigFile = z.infer<typeof configFileSchema>;
type ResponseFields = z.infer<typeof responseSchema>;

export interface ConfigFileResult {
  /** null when the file has errors. */
  config: Config | null;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /** Every value substituted from the environment (also when the file has errors). */
  secrets: string[];
}

/** An issue in the config file, at the node of `path` (or without position when there is no file). */
export type IssueAt = (path: readonly PathSegment[], message: string, fix: string) => ConfigIssue;

export function issueMaker(file: string, src: SourceFile | null): IssueAt {
  return (path, message, fix) => {
    const pos = src ? src.valueAt(path) : { line: null, column: null };
    return { file, line: pos.line, column: pos.column, message, fix };
  };
}

/** http(s) URL check; returns a reason or null. */
export function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `uses ${url.protocol.replace(/:$/, '')}, not http or https`;
  return null;
}

/**
 * Validates and resolves the parsed config document. `src` is null when there is no config file
 * (defaults only). Missing environment variables are errors; substituted values become secrets.
 *
 * Steps: the file is a mapping -> its shape (zod) -> `${ENV}` substitution (reported even when the
 * shape is wrong: all errors at once) -> agent (url, settings, mapping, welcome turn, template
 * warnings) -> judge -> regex and cost. Each step adds its issues to one `Resolution`.
 */
export function resolveConfigFile(
  src: SourceFile | null,
  file: string,
  data: unknown,
  env: Record<string, string | undefined>,
): ConfigFileResult {
  const r: Resolution = { src, issueAt: issueMaker(file, src), errors: [], warnings: [] };
  const raw = data === null || data === undefined ? {} : data;
  if (!isMapping(raw)) {
    r.errors.push(notAMappingIssue(r.issueAt, raw));
    return { config: null, errors: r.errors, warnings: r.warnings, secrets: [] };
  }

  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success && src) {
    r.errors.push(...translateZodIssues({ src, schema: configFileSchema, data: raw, base: [] }, parsed.error.issues));
  }
  const substituted = src ? substituteEnv(raw, env, src) : { value: raw, issues: [] as ConfigIssue[], secrets: [] as string[] };
  r.errors.push(...substituted.issues);
  if (!parsed.success) {
    checkSoundSections(raw, substituted.value, r);
    return { config: null, errors: r.errors, warnings: r.warnings, secrets: substituted.secrets };
  }

  // `written` is the file as written (for quoting in messages: never a substituted secret);
  // `resolved` has the environment's values.
  const written = parsed.data;
  const resolved = configFileSchema.parse(substituted.value);
  const config = defaultConfig();
  config.secrets.push(...substituted.secrets);

  resolveAgent(config, resolved.agent ?? {}, written.agent ?? {}, r);
  if (resolved.judge) config.judge = resolveJudge(resolved.judge, written.judge ?? {}, r);
  applyRegexAndCost(config, resolved);
  const coverage = resolveCoverage(written.coverage?.conversations ?? null, r);
  if (coverage !== null) config.coverage = coverage;
  const repeat = checkRepeat(written.repeat, ['repeat'], '', (path, message, fix) => r.errors.push(r.issueAt(path, message, fix)));
  if (repeat !== null) config.repeat = repeat;
  if (resolved.personas) config.personas = { unmockedTools: resolved.personas.unmockedTools ?? null };
  if (resolved.simulator) config.simulator = resolveSimulatorSettings(resolved.simulator, written.simulator ?? {}, r);
  if (resolved.meaning) config.meaning = resolveMeaningSection(resolved.meaning, written.meaning ?? {}, r.issueAt, r.errors);
  if (resolved.latency) {
    config.latency = { slowerBy: resolved.latency.slowerBy ?? DEFAULT_LATENCY.slowerBy, minDeltaMs: resolved.latency.minDeltaMs ?? DEFAULT_LATENCY.minDeltaMs };
  }

  return { config: r.errors.length ? null : config, errors: r.errors, warnings: r.warnings, secrets: substituted.secrets };
}

/**
 * When the file's shape is wrong somewhere, the sections whose own shape is right still get their
 * checks (a duplicated coverage name, a bad repeat, an agent URL, ...), so that every error of the
 * file shows at once instead of one pass per fix. A section with a shape error is left to it.
 */
function checkSoundSections(raw: object, substituted: unknown, r: Resolution): void {
  const shape = configFileSchema.shape;
  const section = <K extends 'agent' | 'judge' | 'coverage' | 'repeat' | 'meaning'>(key: K): { written: ConfigFile[K]; resolved: ConfigFile[K] } | null => {
    const written = shape[key].safeParse((raw as Record<string, unknown>)[key]);
    const resolved = shape[key].safeParse(isMapping(substituted) ? (substituted as Record<string, unknown>)[key] : undefined);
    return written.success && resolved.success ? { written: written.data as ConfigFile[K], resolved: resolved.data as ConfigFile[K] } : null;
  };
  const config = defaultConfig();
  const agent = section('agent');
  if (agent) resolveAgent(config, agent.resolved ?? {}, agent.written ?? {}, r);
  const judge = section('judge');
  if (judge?.resolved) resolveJudge(judge.resolved, judge.written ?? {}, r);
  const coverage = section('coverage');
  if (coverage) resolveCoverage(coverage.written?.conversations ?? null, r);
  const repeat = section('repeat');
  if (repeat) checkRepeat(repeat.written, ['repeat'], '', (path, message, fix) => r.errors.push(r.issueAt(path, message, fix)));
  const meaning = section('meaning');
  if (meaning?.resolved) resolveMeaningSection(meaning.resolved, meaning.written ?? {}, r.issueAt, r.errors);
}

/** Issues collected while resolving, and how to place one. */
interface Resolution {
  src: SourceFile | null;
  issueAt: IssueAt;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
}

type AgentSection = NonNullable<ConfigFile['agent']>;
type JudgeSection = NonNullable<ConfigFile['judge']>;

function isMapping(raw: unknown): raw is object {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

function notAMappingIssue(issueAt: IssueAt, raw: unknown): ConfigIssue {
  return issueAt(
    [],
    `the config file must be a mapping of sections (agent, judge, regex, cost, coverage, repeat, personas, latency, meaning), found ${Array.isArray(raw) ? 'a list' : 'a single value'}`,
    'start the file with a section such as "agent:" followed by indented keys',
  );
}

/** agent: url, plain settings, the request/response mapping of the preset, the welcome turn. */
function resolveAgent(config: Config, agent: AgentSection, written: AgentSection, r: Resolution): void {
  const preset: AgentPreset = agent.preset ?? 'native';
  config.agent.preset = preset;
  resolveAgentUrl(config, agent.url, written.url, r);
  applyAgentSettings(config, agent, r);
  const info = PRESETS[preset];
  const presetMapping = info.mapping;
  const stream = resolveStream(preset, agent, r);
  config.agent.stream = stream;
  const presetBody = stream && info.streamBody !== null ? info.streamBody(presetMapping.body) : presetMapping.body;
  // Only a preset that reads the raw answer (openai-chat) lends its persona paths to response paths of one's own.
  const lends = preset !== 'native' && presetMapping.decode === undefined && !info.alwaysStreams;
  const mapping = withResponse({ ...presetMapping, body: agent.request?.body ?? presetBody }, agent.response ?? undefined, lends);
  config.agent.mapping = mapping;
  config.agent.start = resolveWelcomeTurn(preset, agent.start, agent.request?.body !== undefined, mapping, r);
  warnAboutTemplate(config, agent, mapping, r);
}

/**
 * Whether replies are asked for as a stream: `agent.stream` (default false), always for vercel-ai.
 * A preset whose API has no streaming form cannot stream (a custom request body may: the agent
 * then decides what it sends, and any stream is read).
 */
function resolveStream(preset: AgentPreset, agent: AgentSection, r: Resolution): boolean {
  const info = PRESETS[preset];
  if (info.alwaysStreams) return true;
  if (agent.stream !== true) return false;
  if (info.streamBody === null && agent.request?.body === undefined) {
    r.errors.push(
      r.issueAt(
        ['agent', 'stream'],
        `agent.stream is true, but the ${preset} preset has no streaming form`,
        'remove agent.stream (streams are read whenever the agent sends one), or give the request body yourself',
      ),
    );
    return false;
  }
  return true;
}

function resolveAgentUrl(config: Config, url: string | null | undefined, writtenUrl: string | null | undefined, r: Resolution): void {
  if (url === undefined || url === null || url === '') return;
  const problem = urlProblem(url);
  if (!problem) {
    config.agent.url = url;
    return;
  }
  r.errors.push(
    r.issueAt(
      ['agent', 'url'],
      `agent.url ${quote(writtenUrl ?? '')} ${problem}`,
      'give the full address of the agent, e.g. url: https://preview.example.com/api/chat',
    ),
  );
}

function applyAgentSettings(config: Config, agent: AgentSection, r: Resolution): void {
  if (agent.model !== undefined) config.agent.model = agent.model === '' ? null : agent.model;
  const preset = agent.preset ?? 'native';
  if (agent.maxTokens !== undefined) config.agent.maxTokens = agent.maxTokens;
  else if (preset === 'anthropic-messages') config.agent.maxTokens = DEFAULT_MAX_TOKENS;
  if (agent.assistantId !== undefined) config.agent.assistantId = agent.assistantId === '' ? null : agent.assistantId;
  else if (preset === 'langgraph') config.agent.assistantId = null;
  if (agent.headers) {
    // A header written as a number or true/false is sent exactly as written (`X-Version: 1.10`
    // sends 1.10, not the 1.1 that YAML reads).
    for (const [name, value] of Object.entries(agent.headers)) {
      const written = typeof value === 'string' || r.src === null ? null : r.src.writtenAt(['agent', 'headers', name]);
      config.agent.headers[name] = written ?? String(value);
    }
  }
  for (const [name, value] of Object.entries(PRESETS[preset].headers ?? {})) {
    const named = Object.keys(config.agent.headers).some((h) => h.toLowerCase() === name);
    if (!named) config.agent.headers[name] = value;
  }
  if (agent.timeoutMs !== undefined) config.agent.timeoutMs = agent.timeoutMs;
  if (agent.concurrency !== undefined) config.agent.concurrency = agent.concurrency;
  if (agent.retries !== undefined) config.agent.retries = agent.retries;
  if (agent.backoffMs !== undefined) config.agent.backoffMs = agent.backoffMs;
  if (agent.waitForAgent !== undefined) config.agent.waitForAgent = agent.waitForAgent;
}

/**
 * The welcome turn's mapping, or null for none. It reads the message turn's response fields unless
 * told otherwise. A request body of one's own (a custom mapping) has no welcome turn unless
 * `agent.start` asks for one: the preset's welcome request belongs to the preset's own body.
 */
function resolveWelcomeTurn(preset: AgentPreset, startSetting: AgentSection['start'], customBody: boolean, mapping: AgentMapping, r: Resolution): AgentMapping | null {
  const presetStartBody = PRESETS[preset].start?.body ?? null;
  const start = startSetting === undefined ? presetStartBody !== null && !customBody : startSetting === null ? false : startSetting;
  if (start === false) return null;
  const body = start === true ? presetStartBody : (start.body ?? presetStartBody);
  if (body === null) {
    r.errors.push(
      r.issueAt(
        ['agent', 'start'],
        `agent.start asks for a welcome turn, but the ${preset} preset has no welcome request`,
        'give the welcome request yourself (start: { body: {...} }) or remove agent.start',
      ),
    );
    return null;
  }
  return withResponse({ ...mapping, body }, start === true ? undefined : start.response, true);
}

function warnAboutTemplate(config: Config, agent: AgentSection, mapping: AgentMapping, r: Resolution): void {
  if (containsPlaceholder(mapping.body, '{{model}}') && config.agent.model === null) {
    r.warnings.push(
      r.issueAt(
        agent.request?.body !== undefined ? ['agent', 'request', 'body'] : agent.preset ? ['agent', 'preset'] : ['agent'],
        'the request body uses {{model}} but agent.model is not set: the agent will receive model: null',
        'set agent.model, e.g. model: gpt-4o-mini',
      ),
    );
  }
  if (containsPlaceholder(mapping.body, '{{assistantId}}') && (config.agent.assistantId ?? null) === null) {
    r.warnings.push(
      r.issueAt(
        agent.preset ? ['agent', 'preset'] : ['agent'],
        'the request body uses {{assistantId}} but agent.assistantId is not set: the agent will receive assistant_id: null',
        'set agent.assistantId to the graph or assistant id, e.g. assistantId: agent',
      ),
    );
  }
  if (!['{{message}}', '{{messages}}', '{{uiMessages}}'].some((p) => containsPlaceholder(mapping.body, p))) {
    r.warnings.push(
      r.issueAt(
        ['agent', 'request', 'body'],
        'the request body never sends {{message}}, {{messages}} or {{uiMessages}}: every fixture will send the same request',
        'put "{{message}}" where the agent expects the user message (or "{{messages}}" where it expects the chat history)',
      ),
    );
  }
}

/** judge: the provider's defaults, then the file's values; a warning when no API key can work. */
function resolveJudge(j: JudgeSection, written: JudgeSection, r: Resolution): JudgeConfig {
  const provider: JudgeProvider = j.provider ?? 'openai';
  const judge: JudgeConfig = {
    provider,
    baseUrl: JUDGE_DEFAULTS[provider].baseUrl,
    model: j.model ?? JUDGE_DEFAULTS[provider].model,
    apiKey: j.apiKey === undefined || j.apiKey === '' ? null : j.apiKey,
    timeoutMs: j.timeoutMs ?? 30_000,
    retries: j.retries ?? 2,
    backoffMs: j.backoffMs ?? 250,
    concurrency: j.concurrency ?? JUDGE_CONCURRENCY,
    label: j.label === undefined || j.label === '' ? null : j.label,
  };
  if (j.baseUrl !== undefined) {
    const problem = urlProblem(j.baseUrl);
    if (problem) {
      r.errors.push(
        r.issueAt(
          ['judge', 'baseUrl'],
          `judge.baseUrl ${quote(written.baseUrl ?? '')} ${problem}`,
          `give the API base address, e.g. baseUrl: ${JUDGE_DEFAULTS[provider].baseUrl}`,
        ),
      );
    } else {
      judge.baseUrl = j.baseUrl.replace(/\/+$/, '');
    }
  }
  if (j.panel) {
    judge.panel = resolvePanel(j.panel, written.panel ?? [], judge, r);
    return judge;
  }
  if (judge.apiKey === null && judge.baseUrl === JUDGE_DEFAULTS[provider].baseUrl) {
    r.warnings.push(
      r.issueAt(
        ['judge'],
        `judge.apiKey is not set: ${provider} will refuse the calls and judge assertions will be not evaluated`,
        'add apiKey: ${JUDGE_API_KEY} under judge and export JUDGE_API_KEY (a repository secret in a workflow)',
      ),
    );
  }
  return judge;
}

type PanelSection = NonNullable<JudgeSection['panel']>;

/**
 * judge.panel: 3 or 5 members, each keeping only the keys it sets (the rest are the judge's when
 * the panel is used: `panelMembers` below, so that an Action input that changes the judge changes
 * the members that inherit from it). A member's baseUrl is checked like the judge's; a member that
 * ends up with no API key for a provider's own address is warned about like the judge.
 */
function resolvePanel(panel: PanelSection, written: PanelSection, judge: JudgeConfig, r: Resolution): PanelMemberSettings[] {
  if (!(PANEL_SIZES as readonly number[]).includes(panel.length)) {
    r.errors.push(
      r.issueAt(
        ['judge', 'panel'],
        `judge.panel has ${panel.length} member${panel.length === 1 ? '' : 's'}; a panel has ${PANEL_SIZES.join(' or ')} members (an odd number, so that a majority always exists)`,
        panel.length < 3
          ? 'add members until there are 3, or remove judge.panel to use the judge alone'
          : panel.length === 4
            ? 'remove one member to make 3, or add one to make 5'
            : `remove ${panel.length - 5} member${panel.length === 6 ? '' : 's'} to make 5`,
      ),
    );
  }
  return panel.map((m, i) => {
    const settings: PanelMemberSettings = {};
    for (const key of ['provider', 'model', 'timeoutMs', 'retries', 'backoffMs', 'concurrency'] as const) {
      if (m[key] !== undefined) (settings as Record<string, unknown>)[key] = m[key];
    }
    if (m.apiKey !== undefined) settings.apiKey = m.apiKey === '' ? null : m.apiKey;
    if (m.label !== undefined && m.label !== null && m.label !== '') settings.label = m.label;
    if (m.baseUrl !== undefined) {
      const problem = urlProblem(m.baseUrl);
      const provider = m.provider ?? judge.provider;
      if (problem) {
        r.errors.push(
          r.issueAt(
            ['judge', 'panel', i, 'baseUrl'],
            `judge.panel[${i}].baseUrl ${quote(written[i]?.baseUrl ?? '')} ${problem}`,
            `give the API base address, e.g. baseUrl: ${JUDGE_DEFAULTS[provider].baseUrl}`,
          ),
        );
      } else {
        settings.baseUrl = m.baseUrl.replace(/\/+$/, '');
      }
    }
    const member = panelMemberConfig(judge, settings);
    if (member.apiKey === null && member.baseUrl === JUDGE_DEFAULTS[member.provider].baseUrl) {
      r.warnings.push(
        r.issueAt(
          ['judge', 'panel', i],
          `judge.panel[${i}] (${member.provider} ${member.model}) has no API key: ${member.provider} will refuse its calls and the panel may not reach a majority`,
          member.provider === judge.provider
            ? 'add apiKey: ${JUDGE_API_KEY} under judge (the members inherit it) or under this member'
            : `add apiKey: \${${member.provider.toUpperCase()}_API_KEY} under this member (a member of another provider than the judge's does not inherit the judge's key)`,
        ),
      );
    }
    return settings;
  });
}

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

/** The judges of a panel in order, or null when the judge has none. */
export function panelMembers(judge: JudgeConfig): JudgeConfig[] | null {
  return judge.panel ? judge.panel.map((m) => panelMemberConfig(judge, m)) : null;
}

function applyRegexAndCost(config: Config, file: ConfigFile): void {
  if (file.regex?.timeoutMs !== undefined) config.regex.timeoutMs = file.regex.timeoutMs;
  if (file.regex?.workers !== undefined) config.regex.workers = file.regex.workers;
  const cost = file.cost ?? {};
  if (cost.agentTurnUsd !== undefined) config.cost.agentTurnUsd = cost.agentTurnUsd;
  if (cost.turnsPerFixture !== undefined) config.cost.turnsPerFixture = cost.turnsPerFixture;
  if (cost.judgeCallUsd !== undefined) config.cost.judgeCallUsd = cost.judgeCallUsd;
  if (cost.capUsd !== undefined) config.cost.capUsd = cost.capUsd;
  if (cost.simulatorCallUsd !== undefined) config.cost.simulatorCallUsd = cost.simulatorCallUsd;
}

type SimulatorSection = NonNullable<ConfigFile['simulator']>;

/** simulator: only the keys given (the rest is the judge's when the run starts); a base URL must be http(s). */
function resolveSimulatorSettings(s: SimulatorSection, written: SimulatorSection, r: Resolution): SimulatorSettings {
  const out: SimulatorSettings = {};
  if (s.provider !== undefined) out.provider = s.provider;
  if (s.model !== undefined) out.model = s.model;
  if (s.apiKey !== undefined) out.apiKey = s.apiKey === '' ? null : s.apiKey;
  if (s.baseUrl !== undefined) {
    const problem = urlProblem(s.baseUrl);
    if (problem) {
      r.errors.push(
        r.issueAt(['simulator', 'baseUrl'], `simulator.baseUrl ${quote(written.baseUrl ?? '')} ${problem}`, `give the API base address, e.g. baseUrl: ${JUDGE_DEFAULTS[s.provider ?? 'openai'].baseUrl}`),
      );
    } else out.baseUrl = s.baseUrl.replace(/\/+$/, '');
  }
  return out;
}

/** coverage.conversations: names, each once (the `conversations:` prefix rule decides what "once" means). */
function resolveCoverage(list: readonly string[] | null, r: Resolution): string[] | null {
  if (list === null) return null;
  const seen = new Map<string, number>();
  list.forEach((name, i) => {
    const at: PathSegment[] = ['coverage', 'conversations', i];
    const bare = name.startsWith('conversations:') ? name.slice('conversations:'.length) : name;
    if (bare.trim() === '') {
      r.errors.push(r.issueAt(at, `coverage.conversations[${i}] is empty`, 'give the name of a conversation as the agent reports it in route.conversation, or remove the entry'));
      return;
    }
    const first = seen.get(bare);
    if (first !== undefined) {
      r.errors.push(r.issueAt(at, `coverage.conversations lists ${quote(name)} twice (also entry ${first + 1})`, 'list each conversation once'));
      return;
    }
    seen.set(bare, i);
  });
  return [...list];
}

/**
 * Response paths of one's own read the body as it is: a preset's decoding (mapping.decode) is
 * dropped, and the persona paths not given (toolCalls, outcome, errors) are not read unless
 * `lend` (the preset reads them from the raw answer too): another API's `toolCalls` or `errors`
 * key is not the native protocol's (docs/presets.md, "Any JSON API: templates and paths").
 */
function withResponse(mapping: AgentMapping, response: ResponseFields | undefined, lend: boolean): AgentMapping {
  if (!response) return mapping;
  const own = lend ? mapping : { ...mapping, toolCalls: null, outcome: null, errors: null };
  return {
    body: mapping.body,
    reply: response.reply ?? mapping.reply,
    conversation: response.conversation !== undefined ? response.conversation : mapping.conversation,
    stage: response.stage !== undefined ? response.stage : mapping.stage,
    ended: response.ended !== undefined ? response.ended : mapping.ended,
    offTrack: response.offTrack !== undefined ? response.offTrack : mapping.offTrack,
    toolCalls: response.toolCalls !== undefined ? response.toolCalls : own.toolCalls,
    outcome: response.outcome !== undefined ? response.outcome : own.outcome,
    errors: response.errors !== undefined ? response.errors : own.errors,
    // A path of one's own follows the native rule (a missing value: not reported); the preset's path keeps the preset's rule.
    absentToolCallsAreNone: response.toolCalls !== undefined && response.toolCalls !== mapping.toolCalls ? false : mapping.absentToolCallsAreNone,
  };
}

export function containsPlaceholder(body: JsonValue, placeholder: string): boolean {
  if (typeof body === 'string') return body.includes(placeholder);
  if (Array.isArray(body)) return body.some((b) => containsPlaceholder(b, placeholder));
  if (body !== null && typeof body === 'object') return Object.values(body).some((b) => containsPlaceholder(b, placeholder));
  return false;
}
