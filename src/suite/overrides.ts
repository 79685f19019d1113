// Command-line flags and action inputs, applied after the config file: they win.

import { JUDGE_CLIENT_DEFAULTS, JUDGE_DEFAULTS, MAX_WAIT_MS, type AgentPreset, type Config, type CostConfig, type JudgeConfig, type SimulatorSettings } from '../config.js';
import { JUDGE_PROVIDERS } from '../types.js';
import { droppedKeyWords, keptAddressWords } from './config/judge.js';
import { msRange, urlProblem, urlWithScheme, type IssueAt } from './config/shared.js';
import { quote, type ConfigIssue } from './issues.js';
import type { PathSegment } from './yaml/index.js';
import { MAX_REPEAT } from './repeat.js';

/**
 * Values given outside the config file. An absent (undefined) field leaves the file's value; so
 * does an empty string, which is what an unset action input reads as.
 */
export interface ConfigOverrides {
  agentUrl?: string | null;
  /**
   * Where agentUrl came from when no flag or input gave it as written (a deployment's
   * environment_url + the agent-path input: docs/action.md, "Preview deployments"): the "file" of
   * its issue when it is no address, and the fix; absent: the overrides' source and its fix.
   */
  agentUrlFrom?: { source: string; fix: string };
  /**
   * Replaces `agent.preset` of config.yml before the agent section is resolved, so the preset's
   * request body, response mapping, welcome turn and headers follow it (`probe --preset`).
   */
  agentPreset?: AgentPreset;
  /** Merged over the file's headers, name by name. Values are secrets. */
  agentHeaders?: Record<string, string>;
  agentTimeoutMs?: number;
  concurrency?: number;
  retries?: number;
  /**
   * Merged over the file's judge. When the file has no judge section, any override creates one
   * from the provider's defaults (openai, gpt-4o-mini, api.openai.com unless given). `apiKey` is a secret.
   */
  judge?: Partial<JudgeConfig>;
  capUsd?: number;
  cost?: Partial<CostConfig>;
  regexTimeoutMs?: number;
  regexWorkers?: number;
  /** `--repeat N`: every item's repeat count for this run, its minPass fraction kept (docs/statistics.md, "Adaptive attempts"). */
  repeat?: number;
  /** `--repeat-max M`: every item's most attempts for this run. */
  repeatMax?: number;
}

function given<T>(v: T | undefined | null | ''): v is T {
  return v !== undefined && v !== null && v !== '';
}

/** The address to write when `given` lacks only its scheme (the one its problem names), else an example. */
function schemeExample(given: string, example: string): string {
  const write = urlWithScheme(given);
  return write === null ? `e.g. ${example}` : `with its scheme: ${write}`;
}

/**
 * Mutates `config` (a fresh object owned by the loader) and returns the problems found: errors at
 * `source` (the overrides' origin), and warnings about the config file's judge placed by `file.at`
 * and naming the file as the suite has it (`file.name`: config.yml, or config.yaml).
 */
export function applyOverrides(config: Config, overrides: ConfigOverrides, source: string, file: { at: IssueAt; name: string }): { errors: ConfigIssue[]; warnings: ConfigIssue[] } {
  const at = file.at;
  const errors: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const warn = (path: readonly PathSegment[], words: { message: string; fix: string }): void => {
    warnings.push(at(path, words.message, words.fix));
  };
  const fail = (message: string, fix: string): void => {
    errors.push({ file: source, line: null, column: null, message, fix });
  };
  const int = (name: string, value: number | undefined, min: number, apply: (v: number) => void): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < min) fail(`${name} must be a whole number of at least ${min}, got ${String(value)}`, `pass ${name} ${min} or more`);
    else apply(value);
  };
  const millis = (name: string, value: number | undefined, min: number, apply: (v: number) => void): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < min || value > MAX_WAIT_MS) fail(`${name} must be ${msRange(min)}, got ${String(value)}`, `pass ${name} from ${min} to ${MAX_WAIT_MS}`);
    else apply(value);
  };
  const money = (name: string, value: number | undefined, apply: (v: number) => void): void => {
    if (value === undefined) return;
    if (!Number.isFinite(value) || value < 0) fail(`${name} must be a number of USD of at least 0, got ${String(value)}`, `pass ${name} 0 or more`);
    else apply(value);
  };

  if (given(overrides.agentUrl)) {
    const problem = urlProblem(overrides.agentUrl);
    const from = overrides.agentUrlFrom;
    const fix = from?.fix ?? `give the full address of the agent, ${schemeExample(overrides.agentUrl, 'https://preview.example.com/api/chat')}`;
    if (problem) errors.push({ file: from?.source ?? source, line: null, column: null, message: `agent URL ${quote(overrides.agentUrl)} ${problem}`, fix });
    else config.agent.url = overrides.agentUrl;
  }
  if (overrides.agentHeaders) {
    for (const [name, value] of Object.entries(overrides.agentHeaders)) {
      config.agent.headers[name] = value;
      config.secrets.push(value);
    }
  }
  millis('agent timeout (ms)', overrides.agentTimeoutMs, 1, (v) => (config.agent.timeoutMs = v));
  int('concurrency', overrides.concurrency, 1, (v) => (config.agent.concurrency = v));
  int('retries', overrides.retries, 0, (v) => (config.agent.retries = v));
  millis('regex timeout (ms)', overrides.regexTimeoutMs, 1, (v) => (config.regex.timeoutMs = v));
  int('regex workers', overrides.regexWorkers, 1, (v) => (config.regex.workers = v));
  for (const key of ['agentTurnUsd', 'judgeCallUsd', 'capUsd'] as const) {
    money(`cost ${key}`, overrides.cost?.[key] ?? undefined, (v) => (config.cost[key] = v));
  }
  // At least the one message turn every fixture sends (docs/semantics.md, "Cost").
  const turns = overrides.cost?.turnsPerFixture ?? undefined;
  if (turns !== undefined) {
    if (!Number.isFinite(turns) || turns < 1) fail(`cost turnsPerFixture must be a number of at least 1, got ${String(turns)}`, 'pass cost turnsPerFixture 1 or more');
    else config.cost.turnsPerFixture = turns;
  }
  money('cost cap (USD)', overrides.capUsd, (v) => (config.cost.capUsd = v));
  repeatFlags(config, overrides, fail);

  const j = overrides.judge;
  if (j && Object.values(j).some((v) => given(v))) {
    const provider = given(j.provider) ? j.provider : (config.judge?.provider ?? 'openai');
    if (!(JUDGE_PROVIDERS as readonly string[]).includes(provider)) {
      fail(`judge provider ${quote(provider)} is not supported; allowed: ${JUDGE_PROVIDERS.join(', ')}`, `use one of: ${JUDGE_PROVIDERS.join(', ')}`);
      return { errors, warnings };
    }
    const from = config.judge;
    const switched = from !== null && from.provider !== provider;
    const base: JudgeConfig =
      from && !switched
        ? from
        : {
            provider,
            // Another provider's judge keeps config.yml's address only when it is not the old provider's own API (a proxy, a gateway).
            baseUrl: from && from.baseUrl !== JUDGE_DEFAULTS[from.provider].baseUrl ? from.baseUrl : JUDGE_DEFAULTS[provider].baseUrl,
            model: JUDGE_DEFAULTS[provider].model,
            // config.yml's key is carried only to config.yml's address, below.
            apiKey: null,
            timeoutMs: from?.timeoutMs ?? JUDGE_CLIENT_DEFAULTS.timeoutMs,
            retries: from?.retries ?? JUDGE_CLIENT_DEFAULTS.retries,
            backoffMs: from?.backoffMs ?? JUDGE_CLIENT_DEFAULTS.backoffMs,
            concurrency: from?.concurrency ?? JUDGE_CLIENT_DEFAULTS.concurrency,
            label: from?.label ?? null,
            // A panel comes only from config.yml and survives a change of the judge's provider.
            ...(from?.panel ? { panel: from.panel.map((m) => keptForOldProvider(m, from)) } : {}),
          };
    const judge: JudgeConfig = { ...base, provider };
    if (given(j.baseUrl)) {
      const problem = urlProblem(j.baseUrl);
      if (problem) fail(`judge base URL ${quote(j.baseUrl)} ${problem}`, `give the API base address, ${schemeExample(j.baseUrl, JUDGE_DEFAULTS[provider].baseUrl)}`);
      else judge.baseUrl = j.baseUrl.replace(/\/+$/, '');
    }
    if (given(j.model)) judge.model = j.model;
    if (given(j.apiKey)) {
      judge.apiKey = j.apiKey;
      config.secrets.push(j.apiKey);
    } else if (switched && from.apiKey !== null) {
      // A key goes only to the address it was written for (docs/judges.md, "The judge-provider input").
      if (judge.baseUrl === from.baseUrl) judge.apiKey = from.apiKey;
      else warn(['judge', 'apiKey'], droppedKeyWords(provider, from.provider, judge.baseUrl, judge.panel !== undefined, file.name));
    }
    if (switched && !given(j.baseUrl) && judge.baseUrl === from.baseUrl && judge.baseUrl !== JUDGE_DEFAULTS[provider].baseUrl) {
      warn(['judge', 'baseUrl'], keptAddressWords(provider, from.provider, judge.baseUrl, file.name));
    }
    if (given(j.label)) judge.label = j.label;
    millis('judge timeout (ms)', j.timeoutMs, 1, (v) => (judge.timeoutMs = v));
    int('judge retries', j.retries, 0, (v) => (judge.retries = v));
    millis('judge backoff (ms)', j.backoffMs, 0, (v) => (judge.backoffMs = v));
    config.judge = judge;
    if (switched) {
      const keptAt = [
        ...(from.panel ?? []).flatMap((m, i) => (keepsJudgeAddress(m, from) ? [`judge.panel[${i}].baseUrl`] : [])),
        ...(config.simulator && keepsJudgeAddress(config.simulator, from) ? ['simulator.baseUrl'] : []),
        ...(config.meaning && keepsJudgeAddress(config.meaning, from) ? ['meaning.baseUrl'] : []),
      ];
      if (keptAt.length > 0) config.judgeBaseUrlKeptAt = keptAt;
      if (config.meaning) config.meaning = keptForOldProvider(config.meaning, from);
      if (config.simulator) config.simulator = keptForOldProvider(config.simulator, from);
    }
  }
  return { errors, warnings };
}

/**
 * A panel member, the meaning judge or the simulator of config.yml under a judge of another
 * provider (docs/judges.md, "The judge-provider input"): one that names config.yml's provider keeps
 * the address, model and key it took from config.yml's judge (one of another provider than the
 * judge's takes none of them); the others follow the judge, as written.
 */
function keptForOldProvider<T extends SimulatorSettings>(settings: T, from: JudgeConfig): T {
  if (settings.provider !== from.provider) return settings;
  const own = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  return { baseUrl: from.baseUrl, model: from.model, apiKey: from.apiKey, ...own } as T;
}

/** Whether keptForOldProvider gives `settings` config.yml's judge address (it names none of its own). */
function keepsJudgeAddress(settings: SimulatorSettings, from: JudgeConfig): boolean {
  return settings.provider === from.provider && settings.baseUrl === undefined;
}

/**
 * `--repeat N` and `--repeat-max M` (docs/statistics.md, "Adaptive attempts"): each a whole number
 * from 1 to 20, and M not below N when both are given. Kept on the config as given; every item's
 * repeat is resolved with them (evaluate/finish.ts, `itemRepeat`).
 */
function repeatFlags(config: Config, overrides: ConfigOverrides, fail: (message: string, fix: string) => void): void {
  const flags: { count?: number; max?: number } = {};
  const check = (name: string, value: number | undefined, set: (v: number) => void): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < 1 || value > MAX_REPEAT) fail(`${name} must be a whole number from 1 to ${MAX_REPEAT}, got ${String(value)}`, `pass ${name} 3, for example`);
    else set(value);
  };
  check('--repeat', overrides.repeat, (v) => (flags.count = v));
  check('--repeat-max', overrides.repeatMax, (v) => (flags.max = v));
  if (flags.count !== undefined && flags.max !== undefined && flags.max < flags.count) {
    fail(`--repeat-max ${flags.max} is below --repeat ${flags.count}`, `pass --repeat-max ${flags.count} or more, or a smaller --repeat`);
    return;
  }
  if (flags.count !== undefined || flags.max !== undefined) config.repeatFlags = flags;
}
