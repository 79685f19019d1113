// `.agent-replay/config.yml` (docs/configuration.md): the file's schema, assembled from one module
// per section under config/ (each exports its `schema` and its `resolve`), and its resolution into
// the `Config` of src/config.ts, whose defaults live there (defaultConfig, DEFAULT_COST,
// DEFAULT_LATENCY, JUDGE_DEFAULTS, ...). Command-line and action-input overrides live in overrides.ts.

import { posix } from 'node:path';
import * as z from 'zod';
import { defaultConfig, type Config } from '../config.js';
import { substituteEnv, type EnvLimit } from './env.js';
import { allowedKeysAt, quotedNumber, siblingsAt, suggest, translateZodIssues, valueAt, type ConfigIssue } from './issues.js';
import { colonsLeftOutOfIssues, pathText, type PathSegment, type SourceFile } from './yaml/index.js';
import { onFirstUse } from '../patterns.js';
import { blockTextAtKeys } from './item-file.js';
import * as agent from './config/agent.js';
import * as cost from './config/cost.js';
import * as coverage from './config/coverage.js';
import * as judge from './config/judge.js';
import * as latency from './config/latency.js';
import * as meaning from './config/meaning.js';
import * as personas from './config/personas.js';
import * as regex from './config/regex.js';
import * as repeat from './config/repeat.js';
import { absent, issueMaker, type IssueAt, type Resolution } from './config/shared.js';
import { urlCredentialSecrets } from './url-credentials.js';
import { SECRET_KEY } from './secret-key.js';
import * as simulator from './config/simulator.js';
import * as stats from './config/stats.js';
import * as traces from './config/traces.js';

/**
 * Each section's schema in the file (nullable and optional), in the order they are resolved, built
 * on first use: a run builds the schemas of the sections its file has, not the others' (a file
 * without `traces:` builds none of traces': docs/performance.md, "2026-12-07 (small hours): the
 * session's figures").
 */
const SECTION_SCHEMAS = {
  agent: onFirstUse(() => agent.schema().nullable().optional()),
  judge: onFirstUse(() => judge.schema().nullable().optional()),
  regex: onFirstUse(() => regex.schema().nullable().optional()),
  cost: onFirstUse(() => cost.schema().nullable().optional()),
  coverage: onFirstUse(() => coverage.schema().nullable().optional()),
  repeat: onFirstUse(() => repeat.schema().nullable().optional()),
  personas: onFirstUse(() => personas.schema().nullable().optional()),
  simulator: onFirstUse(() => simulator.schema().nullable().optional()),
  latency: onFirstUse(() => latency.schema().nullable().optional()),
  meaning: meaning.schema,
  stats: onFirstUse(() => stats.schema().nullable().optional()),
  traces: onFirstUse(() => traces.schema().nullable().optional()),
};

type SectionKey = keyof typeof SECTION_SCHEMAS;

/** The file's sections, in the order they are resolved. */
const SECTION_KEYS = Object.keys(SECTION_SCHEMAS) as SectionKey[];

type ConfigFile = { [K in SectionKey]?: z.infer<ReturnType<(typeof SECTION_SCHEMAS)[K]>> };

/** Every section's schema: for a file with a key that is no section (its fix may name a section's keys). */
const everySection = onFirstUse(() => z.strictObject(Object.fromEntries(SECTION_KEYS.map((key) => [key, SECTION_SCHEMAS[key]()]))));

/**
 * The file's schema for `data`: the schemas of the sections it has, and of all when it has a key
 * that is no section (`costs:`, told what `cost:` takes). The same keys either way, so that an
 * unknown key is told the same. `agent:` with the schemas of its own keys (agent.schemaFor) unless
 * `everyAgentKey`: a file that fails is checked again with every key's, so that its issues are told
 * as they always were.
 */
function configFileSchema(data: object, everyAgentKey: boolean): z.ZodObject {
  if (!Object.keys(data).every((key) => Object.hasOwn(SECTION_SCHEMAS, key))) return everySection();
  const sectionSchema = (key: SectionKey): z.ZodType =>
    !Object.hasOwn(data, key) ? absent() : key === 'agent' && !everyAgentKey ? agent.schemaFor((data as { agent?: unknown }).agent).nullable().optional() : SECTION_SCHEMAS[key]();
  return z.strictObject(Object.fromEntries(SECTION_KEYS.map((key) => [key, sectionSchema(key)])));
}

export interface ConfigFileResult {
  /** null when the file has errors. */
  config: Config | null;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /** Every value substituted from the environment (also when the file has errors). */
  secrets: string[];
}

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

/** The addresses written in config.yml (`url`, `baseUrl`), at any depth. */
function writtenAddresses(data: unknown, out: string[] = []): string[] {
  if (data === null || typeof data !== 'object') return out;
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (/^(?:url|baseUrl)$/.test(key) && typeof value === 'string') out.push(value);
    else writtenAddresses(value, out);
  }
  return out;
}

/**
 * The values written after a credential's key on the lines of a config.yml that YAML cannot read
 * (so no value is known): the rest of the line as written, and without YAML's indicators and
 * quotes around it, which is how a syntax error quotes it (an alias's name, a tag, a token).
 */
export function writtenSecretsInText(text: string): string[] {
  const out: string[] = [];
  // Only the key and its colon are matched, so that `judge: { apiKey: ... }` finds apiKey as well;
  // `apiKey:sk-...` (no space) is text to YAML, but its error shows the line with the space put in.
  for (const m of text.matchAll(/([A-Za-z0-9_-]+)["']?[ \t]*:[ \t]*(?=\S)/g)) {
    if (!SECRET_KEY.test(m[1] as string)) continue;
    const start = (m.index as number) + m[0].length;
    const newline = text.indexOf('\n', start);
    // A flow mapping's next entry and a comment end the value.
    const written = text.slice(start, newline === -1 ? text.length : newline).replace(/[ \t]+#.*$/, '').split(/,\s/)[0]!.trim();
    const bare = written.replace(/^[*&!|>'"{[%@`\s-]+/, '').replace(/['"\]},\s]+$/, '');
    for (const value of [written, bare]) if (!ENV_REFERENCE.test(value)) out.push(value);
  }
  return out;
}

/**
 * Validates and resolves the parsed config document. `src` is null when there is no config file
 * (defaults only). Missing environment variables are errors; substituted values become secrets.
 *
 * Steps: the file is a mapping -> its shape (zod) -> `${ENV}` substitution (reported even when the
 * shape is wrong: all errors at once; each section is still checked on its sound part, see
 * checkSoundSections and docs/architecture.md, "Reading config.yml") ->
 * each section's `resolve`, in the schema's order, onto `defaultConfig()`. Each step adds its
 * issues to one `Resolution`.
 */
export function resolveConfigFile(
  src: SourceFile | null,
  file: string,
  data: unknown,
  env: Record<string, string | undefined>,
  untrustedSuite: string | null = null,
  /** Sections a syntax error left unread (soundSections): not checked, and no config is resolved. */
  unread: readonly string[] = [],
  /** agent.preset in `data` is the flag `--preset`'s, not the file's (Resolution.presetFromFlag). */
  presetFromFlag = false,
  /** `ignore`: a `${NAME}` not set is left empty, not an error (LoadOptions.unsetVariables). */
  unsetVariables: 'error' | 'ignore' = 'error',
): ConfigFileResult {
  const r: Resolution = { src, issueAt: issueMaker(file, src), errors: [], warnings: [], presetFromFlag };
  // The file's own name (config.yml, or config.yaml) in what it does not read, or a fork's commit is refused or held to.
  const name = posix.basename(file);
  const raw = data === null || data === undefined ? {} : data;
  if (!isMapping(raw)) {
    r.errors.push(notAMappingIssue(r.issueAt, raw));
    return { config: null, errors: r.errors, warnings: r.warnings, secrets: [] };
  }

  let schema = configFileSchema(raw, false);
  let parsed = schema.safeParse(raw);
  if (!parsed.success) {
    schema = configFileSchema(raw, true);
    parsed = schema.safeParse(raw);
  }
  if (!parsed.success && src) {
    const ctx = { src, schema, data: raw, base: [] };
    const said = translateZodIssues(ctx, parsed.error.issues);
    // `agent:`, then `  url http://...` and `  timeoutMs 5`: its keys each written without the ":", one text to YAML.
    colonsLeftOutOfIssues(ctx, parsed.error.issues, said);
    r.errors.push(...said);
  }
  // A `${NAME}` where the schema wants no text (`concurrency: ${N}`) is said once, as that (its fix
  // says a reference gives text): the variable is not also read, nor said to be unset.
  const notText = new Set(parsed.success ? [] : parsed.error.issues.filter((i) => i.code === 'invalid_type' && i.expected !== 'string').map((i) => JSON.stringify(i.path)));
  const skip = (path: readonly PathSegment[]): boolean => notText.has(JSON.stringify(path));
  const substituted = src ? substituteEnv(raw, env, src, name, [], untrustedSuite === null ? null : untrustedEnvLimit(untrustedSuite, name), skip) : { value: raw, issues: [] as ConfigIssue[], secrets: [] as string[], unread: [] as PathSegment[][], unset: [] as ConfigIssue[] };
  // A key or header written into the file itself (not from `${ENV}`) is a secret all the same:
  // redacted wherever the run or its errors would show it, a misspelt key's line included.
  substituted.secrets.push(...writtenSecrets(raw));
  // So are the credentials an address carries (agent.url, a judge's baseUrl...: a user and password,
  // a key in its query or path), though the address does not parse (its error quotes it).
  substituted.secrets.push(...writtenAddresses(raw).flatMap(urlCredentialSecrets));
  r.errors.push(...(unsetVariables === 'ignore' ? substituted.issues.filter((i) => !substituted.unset.includes(i)) : substituted.issues));
  // A value whose `${NAME}` was not read is checked once, as that reference: not again as the
  // text left without it (`${PREVIEW_URL}/api/chat` is not "not a valid URL" as well).
  r.leftOut = [...substituted.unread, ...unread.map((key) => [key])];
  if (!parsed.success || unread.length > 0) {
    checkSoundSections(schema, raw, substituted.value, r, unread);
    blockTextAtColumn(src, raw, r.errors);
    return { config: null, errors: r.errors, warnings: r.warnings, secrets: substituted.secrets };
  }

  // `written` is the file as written (for quoting in messages: never a substituted secret);
  // `resolved` has the environment's values.
  const written = parsed.data as ConfigFile;
  const resolved = schema.parse(substituted.value) as ConfigFile;
  const config = defaultConfig();
  config.secrets.push(...substituted.secrets);

  agent.resolve(config, resolved.agent, written.agent, r);
  judge.resolve(config, resolved.judge, written.judge, r);
  regex.resolve(config, resolved.regex, written.regex, r);
  cost.resolve(config, resolved.cost, written.cost, r);
  if (untrustedSuite !== null) cost.holdForUntrusted(config, resolved.cost, untrustedSuite, name, r);
  coverage.resolve(config, resolved.coverage, written.coverage, r);
  repeat.resolve(config, resolved.repeat, written.repeat, r);
  personas.resolve(config, resolved.personas, written.personas, r);
  simulator.resolve(config, resolved.simulator, written.simulator, r);
  latency.resolve(config, resolved.latency, written.latency, r);
  meaning.resolve(config, resolved.meaning, written.meaning, r);
  stats.resolve(config, resolved.stats, written.stats, r);
  traces.resolve(config, resolved.traces, written.traces, r);
  blockTextAtColumn(src, raw, r.errors);

  return { config: r.errors.length ? null : config, errors: r.errors, warnings: r.warnings, secrets: substituted.secrets };
}

/**
 * `conversations:`, `- |`, then `- refund` at its "-"'s column (an empty item, then one more): said
 * as in a fixture file (item-file.ts, blockTextAtKeys), in the same run as a syntax error elsewhere.
 */
function blockTextAtColumn(src: SourceFile | null, raw: unknown, errors: ConfigIssue[]): void {
  if (src !== null) blockTextAtKeys(src, [{ data: raw, path: [] }], errors);
}

/**
 * A config.yml with syntax errors: the sections they leave as written (SourceFile.entriesAt), and
 * the keys of the others, to check the sound ones without a config (docs/configuration.md, "How
 * YAML is read"). Nothing when the file is not a mapping as far as YAML read it.
 */
export function soundSections(src: SourceFile): { data: Record<string, unknown>; unread: string[] } {
  const entries = src.entriesAt([]) ?? [];
  const data: Record<string, unknown> = {};
  const unread: string[] = [];
  for (const e of entries) {
    if (e.sound) data[String(e.key)] = e.value;
    else unread.push(String(e.key));
  }
  return { data, unread: entries.length === 0 ? [...SECTION_KEYS] : unread };
}

/**
 * When the file's shape is wrong somewhere, every section still gets its checks (a duplicated
 * coverage name, a bad repeat, an agent URL, a stream the preset cannot send, ...), so that every
 * error of the file shows at once instead of one pass per fix. A section with shape errors is
 * checked on its sound part (`soundPart`): the values the schema refused, already reported, are
 * left out, and a check that reads one of them (or its absence) waits (`unsure` in config/shared.ts).
 */
function checkSoundSections(schema: z.ZodObject, raw: object, substituted: unknown, r: Resolution, unread: readonly string[]): void {
  const config = defaultConfig();
  const at = (value: unknown, key: string): unknown => (isMapping(value) ? (value as Record<string, unknown>)[key] : undefined);
  for (const key of SECTION_KEYS) {
    if (unread.includes(key)) continue;
    const part = soundPart(schema.shape[key] as z.ZodType, key, at(raw, key), at(substituted, key));
    if (part === null) continue;
    const rs: Resolution = { ...r, leftOut: [...(r.leftOut ?? []), ...part.leftOut] };
    // Each section's resolve takes its own section's type; soundPart parsed both with its schema.
    const resolveSection = SECTIONS[key].resolve as (config: Config, resolved: unknown, written: unknown, r: Resolution) => void;
    resolveSection(config, part.resolved, part.written, rs);
  }
}

const SECTIONS = { agent, judge, regex, cost, coverage, repeat, personas, simulator, latency, meaning, stats, traces } satisfies Record<SectionKey, unknown>;

/** At most this many rounds of leaving values out (each round leaves out at least one value). */
const MAX_ROUNDS = 100;

/**
 * The part of a section that its schema accepts, as written and with the environment's values: each
 * value the schema refuses is left out (a key of a mapping; the whole list, for an item of a list,
 * so that the others keep their places; the mapping around a required key that is missing), until
 * what is left passes. `leftOut` lists their paths, and the key a misspelt key stands for
 * (`prset:` leaves `preset` unknown, not the native default). Null when nothing of the section is
 * left (not a mapping, or no sound part).
 */
function soundPart(schema: z.ZodType, key: string, written: unknown, resolved: unknown): { written: unknown; resolved: unknown; leftOut: PathSegment[][] } | null {
  const values = [structuredClone(written), structuredClone(resolved)];
  const leftOut: PathSegment[][] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const results = values.map((v) => schema.safeParse(v));
    if (results.every((p) => p.success)) return { written: results[0]!.data, resolved: results[1]!.data, leftOut };
    // What this round leaves out, decided on the values as they are, then taken out of both.
    const targets: PathSegment[][] = [];
    const replaced = new Set<string>();
    for (const issue of results.flatMap((p) => p.error?.issues ?? [])) {
      const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
      if (issue.code === 'unrecognized_keys') {
        const allowed = allowedKeysAt(schema, path);
        for (const unknownKey of issue.keys) {
          targets.push([...path, unknownKey]);
          const meant = suggest(unknownKey, allowed);
          if (meant !== null) leftOut.push([key, ...path, meant]);
        }
        continue;
      }
      // A number in quotes (`count: "3"`), already said with its fix: read as that number, so that
      // the checks beside it (`minPass: 5` against that count) are said with it, not after the fix.
      // (Both values' parses name it: the second finds it replaced already.) Only a number its fix
      // writes, within the bound of a key beside it: `minPass: "5"` beside `count: 3` was told the
      // range, and is not said again as `minPass 5` with another example.
      if (issue.code === 'invalid_type' && path.length > 0) {
        if (replaced.has(JSON.stringify(path))) continue;
        const meant = quotedNumber(schema, path, valueAt(values[0], path), siblingsAt(values[0], path));
        if (meant !== null && values.every((v) => valueAt(v, path) === valueAt(values[0], path))) {
          for (const v of values) (valueAt(v, path.slice(0, -1)) as Record<string, unknown>)[String(path.at(-1))] = meant;
          replaced.add(JSON.stringify(path));
          continue;
        }
      }
      let target = path;
      // A required key that is missing: its mapping goes.
      if (values.every((v) => valueAt(v, target) === undefined)) target = target.slice(0, -1);
      // An item of a list: the whole list, so that no other item takes its index.
      while (typeof target.at(-1) === 'number') target = target.slice(0, -1);
      if (target.length === 0) return null;
      targets.push(target);
      leftOut.push([key, ...target]);
    }
    let progress = replaced.size > 0;
    for (const target of targets) for (const v of values) progress = remove(v, target) || progress;
    if (!progress) return null;
  }
  return null;
}

/** Deletes the key at `path` (its last segment) from its mapping; false when there was none. */
function remove(data: unknown, path: readonly PathSegment[]): boolean {
  const parent = valueAt(data, path.slice(0, -1));
  const last = path.at(-1);
  if (!isMapping(parent) || last === undefined || !Object.hasOwn(parent, String(last))) return false;
  delete (parent as Record<string, unknown>)[String(last)];
  return true;
}

function isMapping(raw: unknown): raw is object {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

function notAMappingIssue(issueAt: IssueAt, raw: unknown): ConfigIssue {
  return issueAt(
    [],
    `the config file must be a mapping of sections (${SECTION_KEYS.join(', ')}), found ${Array.isArray(raw) ? 'a list' : 'a single value'}`,
    'start the file with a section such as "agent:" followed by indented keys',
  );
}

/**
 * What a config file (`file`: config.yml, or config.yaml) from untrusted code may read from the
 * environment (docs/security.md, "Forks and deployment_status"): the keys whose destination the
 * run holds to the provider's own API or the workflow's judge-base-url (the judge's, a panel
 * member's, the simulator's, the meaning judge's apiKey). Anywhere else (an agent header, a request body, a trace store's key or headers) the
 * file would choose who receives the value.
 */
function untrustedEnvLimit(untrustedSuite: string, file: string): EnvLimit {
  const keyPaths = (path: readonly PathSegment[]): boolean => {
    const [section, a, b, c] = path;
    if (path.length === 2 && a === 'apiKey') return section === 'judge' || section === 'simulator' || section === 'meaning';
    return path.length === 4 && section === 'judge' && a === 'panel' && typeof b === 'number' && c === 'apiKey';
  };
  return {
    allowed: keyPaths,
    refused: (name, path) => ({
      message: `\${${name}} in ${pathText(path)} was not read: the commit is ${untrustedSuite}, whose ${file} may read the environment only for the apiKey of a judge, panel member, simulator or meaning judge (sent only to its provider)`,
      fix: 'give the value from the workflow instead (the agent-headers input for an agent header), or run the suite from a trusted commit',
    }),
  };
}
