// `.agent-replay/config.yml`: schema of the file as written, and its resolution into the `Config`
// of src/config.ts (defaults, preset mapping, `${ENV}` substitution). Overrides live in overrides.ts.

import { z } from 'zod';
import {
  defaultConfig,
  MAX_WAIT_MS,
  NATIVE_MAPPING,
  NATIVE_START,
  OPENAI_CHAT_MAPPING,
  type AgentMapping,
  type AgentPreset,
  type Config,
  type JsonValue,
  type JudgeConfig,
  type JudgeProvider,
} from '../config.js';
import { substituteEnv } from './env.js';
import { positionAt, quote, translateZodIssues, type ConfigIssue, type PathSegment, type SourceFile } from './issues.js';

export const AGENT_PRESETS = ['native', 'openai-chat'] as const satisfies readonly AgentPreset[];
export const JUDGE_PROVIDERS = ['openai', 'anthropic'] as const satisfies readonly JudgeProvider[];

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
});

const agentSchema = z.strictObject({
  url: z.string().nullable().optional(),
  preset: z.enum(AGENT_PRESETS).optional(),
  model: z.string().nullable().optional(),
  headers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable().optional(),
  timeoutMs: ms(1).optional(),
  concurrency: positiveInt.optional(),
  retries: nonNegativeInt.optional(),
  backoffMs: ms(0).optional(),
  request: z.strictObject({ body: jsonTemplate.optional() }).nullable().optional(),
  response: responseSchema.nullable().optional(),
  start: z
    .union([z.boolean(), z.strictObject({ body: jsonTemplate.optional(), response: responseSchema.optional() })], {
      error: 'must be true, false, or a mapping with body and/or response',
    })
    .nullable()
    .optional(),
});

const judgeSchema = z.strictObject({
  provider: z.enum(JUDGE_PROVIDERS).optional(),
  baseUrl: z.string().optional(),
  model: z.string().min(1).optional(),
  apiKey: z.string().nullable().optional(),
  timeoutMs: ms(1).optional(),
  retries: nonNegativeInt.optional(),
  backoffMs: ms(0).optional(),
  label: z.string().nullable().optional(),
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
    })
    .nullable()
    .optional(),
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
    const pos = src ? positionAt(src, path) : { line: null, column: null };
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
 */
export function resolveConfigFile(
  src: SourceFile | null,
  file: string,
  data: unknown,
  env: Record<string, string | undefined>,
): ConfigFileResult {
  const errors: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const issueAt = issueMaker(file, src);
  const raw = data === null || data === undefined ? {} : data;

  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push(
      issueAt(
        [],
        `the config file must be a mapping of sections (agent, judge, regex, cost), found ${Array.isArray(raw) ? 'a list' : 'a single value'}`,
        'start the file with a section such as "agent:" followed by indented keys',
      ),
    );
    return { config: null, errors, warnings, secrets: [] };
  }

  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success && src) {
    errors.push(...translateZodIssues({ src, schema: configFileSchema, data: raw, base: [] }, parsed.error.issues));
  }
  // Missing variables are reported even when the shape is wrong: all errors at once.
  const substituted = src
    ? substituteEnv(raw, env, src)
    : { value: raw, issues: [] as ConfigIssue[], secrets: [] as string[] };
  errors.push(...substituted.issues);
  if (!parsed.success) return { config: null, errors, warnings, secrets: substituted.secrets };

  const before = parsed.data;
  const after = configFileSchema.parse(substituted.value);
  const config = defaultConfig();
  config.secrets.push(...substituted.secrets);

  // --- agent -----------------------------------------------------------------------------------
  const agent = after.agent ?? {};
  const preset: AgentPreset = agent.preset ?? 'native';
  config.agent.preset = preset;
  if (agent.url !== undefined && agent.url !== null && agent.url !== '') {
    const problem = urlProblem(agent.url);
    if (problem) {
      errors.push(
        issueAt(
          ['agent', 'url'],
          `agent.url ${quote(before.agent?.url ?? '')} ${problem}`,
          'give the full address of the agent, e.g. url: https://preview.example.com/api/chat',
        ),
      );
    } else {
      config.agent.url = agent.url;
    }
  }
  if (agent.model !== undefined) config.agent.model = agent.model === '' ? null : agent.model;
  if (agent.headers) {
    for (const [name, value] of Object.entries(agent.headers)) config.agent.headers[name] = String(value);
  }
  if (agent.timeoutMs !== undefined) config.agent.timeoutMs = agent.timeoutMs;
  if (agent.concurrency !== undefined) config.agent.concurrency = agent.concurrency;
  if (agent.retries !== undefined) config.agent.retries = agent.retries;
  if (agent.backoffMs !== undefined) config.agent.backoffMs = agent.backoffMs;

  const presetMapping = preset === 'native' ? NATIVE_MAPPING : OPENAI_CHAT_MAPPING;
  const mapping = withResponse({ ...presetMapping, body: agent.request?.body ?? presetMapping.body }, agent.response ?? undefined);
  config.agent.mapping = mapping;

  const presetStartBody = preset === 'native' ? NATIVE_START.body : null;
  const start = agent.start === undefined ? preset === 'native' : agent.start === null ? false : agent.start;
  if (start === false) {
    config.agent.start = null;
  } else {
    const body = start === true ? presetStartBody : (start.body ?? presetStartBody);
    if (body === null) {
      errors.push(
        issueAt(
          ['agent', 'start'],
          `agent.start asks for a welcome turn, but the ${preset} preset has no welcome request`,
          'give the welcome request yourself (start: { body: {...} }) or remove agent.start',
        ),
      );
    } else {
      // The welcome turn reads the same response fields as the message turn unless told otherwise.
      config.agent.start = withResponse({ ...mapping, body }, start === true ? undefined : start.response);
    }
  }

  if (containsPlaceholder(mapping.body, '{{model}}') && config.agent.model === null) {
    warnings.push(
      issueAt(
        agent.request?.body !== undefined ? ['agent', 'request', 'body'] : agent.preset ? ['agent', 'preset'] : ['agent'],
        'the request body uses {{model}} but agent.model is not set: the agent will receive model: null',
        'set agent.model, e.g. model: gpt-4o-mini',
      ),
    );
  }
  if (!containsPlaceholder(mapping.body, '{{message}}')) {
    warnings.push(
      issueAt(
        ['agent', 'request', 'body'],
        'the request body never sends {{message}}: every fixture will send the same request',
        'put "{{message}}" where the agent expects the user message',
      ),
    );
  }

  // --- judge -----------------------------------------------------------------------------------
  if (after.judge) {
    const j = after.judge;
    const provider: JudgeProvider = j.provider ?? 'openai';
    const judge: JudgeConfig = {
      provider,
      baseUrl: JUDGE_DEFAULTS[provider].baseUrl,
      model: j.model ?? JUDGE_DEFAULTS[provider].model,
      apiKey: j.apiKey === undefined || j.apiKey === '' ? null : j.apiKey,
      timeoutMs: j.timeoutMs ?? 30_000,
      retries: j.retries ?? 2,
      backoffMs: j.backoffMs ?? 250,
      label: j.label === undefined || j.label === '' ? null : j.label,
    };
    if (j.baseUrl !== undefined) {
      const problem = urlProblem(j.baseUrl);
      if (problem) {
        errors.push(
          issueAt(
            ['judge', 'baseUrl'],
            `judge.baseUrl ${quote(before.judge?.baseUrl ?? '')} ${problem}`,
            `give the API base address, e.g. baseUrl: ${JUDGE_DEFAULTS[provider].baseUrl}`,
          ),
        );
      } else {
        judge.baseUrl = j.baseUrl.replace(/\/+$/, '');
      }
    }
    config.judge = judge;
    if (judge.apiKey === null && judge.baseUrl === JUDGE_DEFAULTS[provider].baseUrl) {
      warnings.push(
        issueAt(
          ['judge'],
          `judge.apiKey is not set: ${provider} will refuse the calls and judge assertions will be not evaluated`,
          'add apiKey: ${JUDGE_API_KEY} under judge and export JUDGE_API_KEY (a repository secret in a workflow)',
        ),
      );
    }
  }

  // --- regex, cost -----------------------------------------------------------------------------
  if (after.regex?.timeoutMs !== undefined) config.regex.timeoutMs = after.regex.timeoutMs;
  if (after.regex?.workers !== undefined) config.regex.workers = after.regex.workers;
  const cost = after.cost ?? {};
  if (cost.agentTurnUsd !== undefined) config.cost.agentTurnUsd = cost.agentTurnUsd;
  if (cost.turnsPerFixture !== undefined) config.cost.turnsPerFixture = cost.turnsPerFixture;
  if (cost.judgeCallUsd !== undefined) config.cost.judgeCallUsd = cost.judgeCallUsd;
  if (cost.capUsd !== undefined) config.cost.capUsd = cost.capUsd;

  return { config: errors.length ? null : config, errors, warnings, secrets: substituted.secrets };
}

function withResponse(mapping: AgentMapping, response: ResponseFields | undefined): AgentMapping {
  if (!response) return mapping;
  return {
    body: mapping.body,
    reply: response.reply ?? mapping.reply,
    conversation: response.conversation !== undefined ? response.conversation : mapping.conversation,
    stage: response.stage !== undefined ? response.stage : mapping.stage,
    ended: response.ended !== undefined ? response.ended : mapping.ended,
    offTrack: response.offTrack !== undefined ? response.offTrack : mapping.offTrack,
  };
}

function containsPlaceholder(body: JsonValue, placeholder: string): boolean {
  if (typeof body === 'string') return body.includes(placeholder);
  if (Array.isArray(body)) return body.some((b) => containsPlaceholder(b, placeholder));
  if (body !== null && typeof body === 'object') return Object.values(body).some((b) => containsPlaceholder(b, placeholder));
  return false;
}
