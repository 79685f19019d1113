// `.agent-replay/config.yml` (docs/configuration.md): the file's schema, assembled from one module
// per section under config/ (each exports its `schema` and its `resolve`), and its resolution into
// the `Config` of src/config.ts, whose defaults live there (defaultConfig, DEFAULT_COST,
// DEFAULT_LATENCY, JUDGE_DEFAULTS, ...). Command-line and action-input overrides live in overrides.ts.

import * as z from 'zod';
import { defaultConfig, type Config } from '../config.js';
import { substituteEnv, type EnvLimit } from './env.js';
import { translateZodIssues, type ConfigIssue } from './issues.js';
import type { PathSegment, SourceFile } from './yaml/index.js';
import * as agent from './config/agent.js';
import * as cost from './config/cost.js';
import * as coverage from './config/coverage.js';
import * as judge from './config/judge.js';
import * as latency from './config/latency.js';
import * as meaning from './config/meaning.js';
import * as personas from './config/personas.js';
import * as regex from './config/regex.js';
import * as repeat from './config/repeat.js';
import { issueMaker, type IssueAt, type Resolution } from './config/shared.js';
import * as simulator from './config/simulator.js';
import * as stats from './config/stats.js';
import * as traces from './config/traces.js';

/** The file: a mapping of sections, each optional, in the order they are resolved. */
const configFileSchema = z.strictObject({
  agent: agent.schema.nullable().optional(),
  judge: judge.schema.nullable().optional(),
  regex: regex.schema.nullable().optional(),
  cost: cost.schema.nullable().optional(),
  coverage: coverage.schema.nullable().optional(),
  repeat: repeat.schema.nullable().optional(),
  personas: personas.schema.nullable().optional(),
  simulator: simulator.schema.nullable().optional(),
  latency: latency.schema.nullable().optional(),
  meaning: meaning.schema,
  stats: stats.schema.nullable().optional(),
  traces: traces.schema.nullable().optional(),
});

type ConfigFile = z.infer<typeof configFileSchema>;

export interface ConfigFileResult {
  /** null when the file has errors. */
  config: Config | null;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /** Every value substituted from the environment (also when the file has errors). */
  secrets: string[];
}

/**
 * Key names whose values are credentials, at any depth and however the key around them is spelt:
 * `apiKey`, a token, an `Authorization` or `X-Api-Key` header, a deployment's protection bypass.
 */
const SECRET_KEY = /api[-_]?key|token$|secret|passw|auth|credential|cookie|bypass|signature/i;
/** A value that is only a `${NAME}` reference: substituted, and a secret then, by substituteEnv. */
const ENV_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Values written literally in config.yml under a credential's key: strings and numbers, as written. */
function writtenSecrets(data: unknown, out: string[] = []): string[] {
  if (data === null || typeof data !== 'object') return out;
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (SECRET_KEY.test(key) && (typeof value === 'string' || typeof value === 'number')) {
      if (!ENV_REFERENCE.test(String(value))) out.push(String(value));
    } else writtenSecrets(value, out);
  }
  return out;
}

/**
 * Validates and resolves the parsed config document. `src` is null when there is no config file
 * (defaults only). Missing environment variables are errors; substituted values become secrets.
 *
 * Steps: the file is a mapping -> its shape (zod) -> `${ENV}` substitution (reported even when the
 * shape is wrong: all errors at once; the sections whose own shape is right are still checked) ->
 * each section's `resolve`, in the schema's order, onto `defaultConfig()`. Each step adds its
 * issues to one `Resolution`.
 */
export function resolveConfigFile(
  src: SourceFile | null,
  file: string,
  data: unknown,
  env: Record<string, string | undefined>,
  untrustedSuite: string | null = null,
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
  const substituted = src ? substituteEnv(raw, env, src, [], untrustedSuite === null ? null : untrustedEnvLimit(untrustedSuite)) : { value: raw, issues: [] as ConfigIssue[], secrets: [] as string[] };
  // A key or header written into the file itself (not from `${ENV}`) is a secret all the same:
  // redacted wherever the run or its errors would show it, a misspelt key's line included.
  substituted.secrets.push(...writtenSecrets(raw));
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

  agent.resolve(config, resolved.agent, written.agent, r);
  judge.resolve(config, resolved.judge, written.judge, r);
  regex.resolve(config, resolved.regex, written.regex, r);
  cost.resolve(config, resolved.cost, written.cost, r);
  if (untrustedSuite !== null) cost.holdForUntrusted(config, resolved.cost, untrustedSuite, r);
  coverage.resolve(config, resolved.coverage, written.coverage, r);
  repeat.resolve(config, resolved.repeat, written.repeat, r);
  personas.resolve(config, resolved.personas, written.personas, r);
  simulator.resolve(config, resolved.simulator, written.simulator, r);
  latency.resolve(config, resolved.latency, written.latency, r);
  meaning.resolve(config, resolved.meaning, written.meaning, r);
  stats.resolve(config, resolved.stats, written.stats, r);
  traces.resolve(config, resolved.traces, written.traces, r);

  return { config: r.errors.length ? null : config, errors: r.errors, warnings: r.warnings, secrets: substituted.secrets };
}

/**
 * When the file's shape is wrong somewhere, the sections whose own shape is right still get their
 * checks (a duplicated coverage name, a bad repeat, an agent URL, ...), so that every error of the
 * file shows at once instead of one pass per fix. A section with a shape error is left to it.
 */
function checkSoundSections(raw: object, substituted: unknown, r: Resolution): void {
  const shape = configFileSchema.shape;
  const section = <K extends 'agent' | 'judge' | 'coverage' | 'repeat' | 'meaning' | 'traces'>(key: K): { written: ConfigFile[K]; resolved: ConfigFile[K] } | null => {
    const written = shape[key].safeParse((raw as Record<string, unknown>)[key]);
    const resolved = shape[key].safeParse(isMapping(substituted) ? (substituted as Record<string, unknown>)[key] : undefined);
    return written.success && resolved.success ? { written: written.data as ConfigFile[K], resolved: resolved.data as ConfigFile[K] } : null;
  };
  const config = defaultConfig();
  const agentSection = section('agent');
  if (agentSection) agent.resolve(config, agentSection.resolved, agentSection.written, r);
  const judgeSection = section('judge');
  if (judgeSection) judge.resolve(config, judgeSection.resolved, judgeSection.written, r);
  const coverageSection = section('coverage');
  if (coverageSection) coverage.resolve(config, coverageSection.resolved, coverageSection.written, r);
  const repeatSection = section('repeat');
  if (repeatSection) repeat.resolve(config, repeatSection.resolved, repeatSection.written, r);
  const meaningSection = section('meaning');
  if (meaningSection) meaning.resolve(config, meaningSection.resolved, meaningSection.written, r);
  const tracesSection = section('traces');
  if (tracesSection) traces.resolve(config, tracesSection.resolved, tracesSection.written, r);
}

function isMapping(raw: unknown): raw is object {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

function notAMappingIssue(issueAt: IssueAt, raw: unknown): ConfigIssue {
  return issueAt(
    [],
    `the config file must be a mapping of sections (${Object.keys(configFileSchema.shape).join(', ')}), found ${Array.isArray(raw) ? 'a list' : 'a single value'}`,
    'start the file with a section such as "agent:" followed by indented keys',
  );
}

/**
 * What a config.yml from untrusted code may read from the environment (docs/security.md, "Forks and
 * deployment_status"): the keys whose destination the run holds to the provider's own API or the
 * workflow's judge-base-url (the judge's, a panel member's, the simulator's, the meaning judge's
 * apiKey). Anywhere else (an agent header, a request body, a trace store's key or headers) the
 * file would choose who receives the value.
 */
function untrustedEnvLimit(untrustedSuite: string): EnvLimit {
  const keyPaths = (path: readonly PathSegment[]): boolean => {
    const [section, a, b, c] = path;
    if (path.length === 2 && a === 'apiKey') return section === 'judge' || section === 'simulator' || section === 'meaning';
    return path.length === 4 && section === 'judge' && a === 'panel' && typeof b === 'number' && c === 'apiKey';
  };
  return {
    allowed: keyPaths,
    refused: (name, path) => ({
      message: `\${${name}} in ${pathText(path)} was not read: the commit is ${untrustedSuite}, whose config.yml may read the environment only for the apiKey of a judge, panel member, simulator or meaning judge (sent only to its provider)`,
      fix: 'give the value from the workflow instead (the agent-headers input for an agent header), or run the suite from a trusted commit',
    }),
  };
}

/** `agent.headers.X-Token`, `judge.panel[1].apiKey`. */
function pathText(path: readonly PathSegment[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

