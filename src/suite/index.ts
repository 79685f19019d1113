// Loads a suite from the repository: `<dir>/config.yml`, `<dir>/fixtures/**/*.yml`,
// `<dir>/personas/**/*.yml` (persona scripts), `<dir>/baselines/<label>.json`. Every configuration error of every file is collected and reported
// at once, each with file:line:column, before anything is spent.
//
// Where files may come from: the suite folder, when it is named inside the working directory (the
// repository), must really be inside it; every suite file must really be inside the suite folder.
// A symbolic link that leads elsewhere is refused and never read (see read.ts).

import { existsSync, promises as fs, lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { JUDGE_DEFAULTS, PRESETS, type AgentPreset, type Config } from '../config.js';
import { makeRedactor, rememberSecrets } from '../secrets.js';
import { urlCredentialSecrets } from './url-credentials.js';
import type { Baseline, Fixture, PersonaBaseline, PersonaScript, RemovedBaseline } from '../types.js';
import { checkBaselineFile } from './baselines.js';
import { CONFIG_NAMES, EITHER_CONFIG_NAME, NEW_CONFIG_NAME } from './config-names.js';
import { resolveConfigFile, soundSections, writtenSecretsInText } from './config-file.js';
import { containsPlaceholder } from './config/agent.js';
import { issueMaker, type IssueAt } from './config/shared.js';
import { NO_JUDGE_KEY, noJudgeKeyWords } from './config/judge.js';
import { checkFixtureFile } from './fixtures.js';
import { checkPersonaFile } from './personas.js';
import { boundIssues, type ConfigIssue } from './issues.js';
import { applyOverrides, type ConfigOverrides } from './overrides.js';
import { isInside } from '../fs-safe.js';
import { isLink, linkIssue, outsideIssue, readSuiteText, realPathOrNull, shownInSuite, type SuiteFileRef } from './read.js';
import { readYaml, withYamlPackage, type LoadedYaml } from './yaml/index.js';
import { isSplitNumberMessage } from './yaml/split-number.js';
import { judgeAssertionOf } from '../assertions/list.js';
import { suiteAboveIssue } from './suite-above.js';
import { listAndMore, shownJson, shownShellWord } from '../words.js';

export { baselineSchemas, serializeBaseline, serializePersonaBaseline } from './baselines.js';
export { AGENT_PRESETS } from './config/agent.js';
export { formatIssue, issueCount, type ConfigIssue } from './issues.js';
export { baselinePath, isValidLabel, LABEL_RE, LABEL_RULE } from './labels.js';
import { baselinePath, freeSuggestion, isValidLabel, labelFix, takenLabels, windowsNameIssue, type NextFree } from './labels.js';
import { labelMeantFix, type CommentedValue } from './yaml-traps.js';
import type { ItemFileFindings } from './item-file.js';
export type { ConfigOverrides } from './overrides.js';
export { suiteAboveIssue } from './suite-above.js';
export { noAgentUrlIssue } from './agent-url-missing.js';
export { repoPathOf, type RepoPath } from './repo-path.js';

export interface Suite {
  /** Absolute path of the suite folder. */
  dir: string;
  /** Absolute path of the baselines folder (it may not exist yet). */
  baselinesDir: string;
  config: Config;
  /** Sorted by file path, then by position in the file. */
  fixtures: Fixture[];
  /** Persona scripts (docs/personas.md), sorted like fixtures. */
  personas: PersonaScript[];
  /** Valid baselines by label (orphans included; they only cause a warning). */
  baselines: Map<string, Baseline>;
  /** Valid persona baselines (`kind: "persona"`) by label. */
  personaBaselines: Map<string, PersonaBaseline>;
  /**
   * Places an issue at a value of config.yml (its line and column; none without the file), for a
   * check made after the load (engine.ts, the keys a fork's config.yml may not steer). Placing may
   * need the `yaml` package: call it inside withYamlPackage (suite/yaml/package.ts).
   */
  configAt: IssueAt;
  /** The config file's name as messages say it: config.yml, or config.yaml when that is the file read (CONFIG_NAMES). */
  configName: string;
}

export interface LoadResult {
  /** null when there is any error. */
  suite: Suite | null;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
}

export interface LoadOptions {
  /** The suite folder, relative to cwd or absolute (default layout: `.agent-replay`). */
  dir: string;
  env: Record<string, string | undefined>;
  overrides?: ConfigOverrides;
  /** Base for relative paths and for the file names in issues. Default: process.cwd(). */
  cwd?: string;
  /** Shown as the "file" of issues about overrides. Default: `command-line options`. */
  overridesSource?: string;
  /**
   * The suite is untrusted code ("the head of #12, from a fork"): its config.yml may read the
   * environment only for the keys whose destination the run holds (suite/config-file.ts).
   */
  untrustedSuite?: string | null;
  /**
   * `ignore` for a command that sends nothing (accept, compare): a `${NAME}` in config.yml whose
   * variable is not set (or empty) is left empty, not an error, so that a secret only a run needs
   * (the judge's key) is not asked for (docs/cli.md, "What each command does"). Default `error`.
   */
  unsetVariables?: 'error' | 'ignore';
}

export { CONFIG_NAMES } from './config-names.js';
const EXAMPLE_FIXTURE = 'label: greeting\nmessage: hello';

/**
 * Reads and checks the suite. A suite with a problem to place is read twice: the `yaml` package
 * that places it is imported then (suite/yaml/package.ts), never for a valid suite.
 */
export async function loadSuite(opts: LoadOptions): Promise<LoadResult> {
  return withYamlPackage(() => loadSuiteOnce(opts));
}

async function loadSuiteOnce(opts: LoadOptions): Promise<LoadResult> {
  const paths = suitePaths(opts);
  const found = newFindings(paths);
  const root = suiteRoot(paths, found, opts.dir);
  if (root === null) return finish(paths, found, null, { fixtures: [], personas: [], baselines: new Map(), personaBaselines: new Map() });

  const config = loadConfig(paths, root, opts.env, found, opts.overrides?.agentPreset, opts.untrustedSuite ?? null, opts.unsetVariables);
  if (opts.overrides) overrideConfig(config, opts.overrides, opts.overridesSource ?? 'command-line options', paths, found);
  agentUrlSecrets(config, opts.overrides, found);
  const errorsBeforeItems = found.errors.length;
  const fixtureFiles = await loadFixtures(paths, root, found);
  const personaFiles = await loadPersonas(paths, root, found);
  // One namespace: a label names one baseline file, whether a fixture's or a script's.
  const labels = [...fixtureFiles.labels, ...personaFiles.labels];
  checkLabelsUnique(labels, found);
  freeLabelFixes(labels, [...fixtureFiles.labelsMeant, ...personaFiles.labelsMeant], found.fileOrder);
  requireSomething(paths, fixtureFiles, personaFiles, found);
  // After requireSomething: a suite with no fixtures folder (or a file there) read no item, so
  // it shows no baseline to be an orphan: one error, not also a warning per baseline.
  const items = itemsRead(labels, fixtureFiles.fixtures, personaFiles.personas, found.errors.length === errorsBeforeItems);
  const { baselines, personaBaselines } = await loadBaselines(paths, root, items, found);
  warnJudgeNotConfigured(config, fixtureFiles.fixtures, personaFiles.personas, paths.configShown, found);
  warnSimulatorNotConfigured(config, personaFiles.personas, paths.configShown, found);
  warnPersonaMapping(config, personaFiles.personas, paths.configShown, found);
  return finish(paths, found, config, { fixtures: fixtureFiles.fixtures, personas: personaFiles.personas, baselines, personaBaselines });
}

/**
 * The suite's config.yml alone (with the overrides), for a command that sends one message without
 * replaying the suite (`agent-replay probe`): the fixtures are not read, so a suite with no
 * fixture yet, or with errors in them, can still be probed. Issues are redacted as loadSuite's.
 */
export async function loadSuiteConfig(opts: LoadOptions): Promise<SuiteConfigResult> {
  return withYamlPackage(() => loadSuiteConfigOnce(opts));
}

/** loadSuiteConfig's answer: the config (null on errors), its issues, and the file's name as messages say it (Suite.configName). */
export interface SuiteConfigResult {
  config: Config | null;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /** config.yml, or config.yaml when that is the file read; config.yml, the one to create, when there is none. */
  configName: string;
}

function loadSuiteConfigOnce(opts: LoadOptions): SuiteConfigResult {
  const paths = suitePaths(opts);
  const found = newFindings(paths);
  const root = suiteRoot(paths, found, opts.dir);
  const config = root === null ? null : loadConfig(paths, root, opts.env, found, opts.overrides?.agentPreset, null, opts.unsetVariables);
  if (opts.overrides) overrideConfig(config, opts.overrides, opts.overridesSource ?? 'command-line options', paths, found);
  agentUrlSecrets(config, opts.overrides, found);
  const result = finish(paths, found, config, { fixtures: [], personas: [], baselines: new Map(), personaBaselines: new Map() });
  return { config: result.suite?.config ?? null, errors: result.errors, warnings: result.warnings, configName: paths.configName };
}

// --- the steps, in order ---------------------------------------------------------------------------

interface SuitePaths {
  cwd: string;
  dir: string;
  fixturesDir: string;
  personasDir: string;
  baselinesDir: string;
  /** The config file read (config.yml, else config.yaml); null when there is none. */
  configPath: string | null;
  /** The config file as shown in issues (config.yml when there is none). */
  configShown: string;
  /** The config file's name, without its folder: config.yml, or config.yaml when that is the file read. */
  configName: string;
  /** A path as shown in issues: relative to cwd, forward slashes. */
  show: (p: string) => string;
}

/** What the steps find: every issue, the secrets to redact from them, and the display order of files. */
interface Findings {
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  secrets: string[];
  /** Display order of files: config, fixtures, baselines; issues are grouped by it. */
  fileOrder: string[];
  /** Places an issue at a key of config.yml as read (the overrides' warnings about its judge). */
  configAt: IssueAt;
}

/** Where the suite's files really are: the real suite folder, and how it is shown. */
interface SuiteRoot {
  real: string;
  shown: string;
}

type SeenLabel = ItemFileFindings['labels'][number];

function suitePaths(opts: LoadOptions): SuitePaths {
  // path.resolve() with no argument is the working directory; written so because the bundler
  // treats a literal process.cwd() inside a path expression as an asset to copy.
  const cwd = opts.cwd === undefined ? path.resolve() : path.resolve(opts.cwd);
  const dir = path.resolve(cwd, opts.dir);
  const show = (p: string): string => path.relative(cwd, p).split(path.sep).join('/') || '.';
  // config.yml, else config.yaml: the file read, and the name every message gives it.
  const configPath = firstFile(CONFIG_NAMES.map((n) => path.join(dir, n)));
  return {
    cwd,
    dir,
    fixturesDir: path.join(dir, 'fixtures'),
    personasDir: path.join(dir, 'personas'),
    baselinesDir: path.join(dir, 'baselines'),
    configPath,
    configShown: show(configPath ?? path.join(dir, NEW_CONFIG_NAME)),
    configName: configPath === null ? NEW_CONFIG_NAME : path.basename(configPath),
    show,
  };
}

/**
 * What else stands where the config file goes, said once: config.yaml beside the config.yml that
 * is read, or a folder named like it (neither is read).
 */
function configNamesIssues(paths: SuitePaths, found: Findings): void {
  for (const name of CONFIG_NAMES) {
    const candidate = path.join(paths.dir, name);
    if (candidate === paths.configPath) continue;
    let folder: boolean;
    try {
      folder = lstatSync(candidate).isDirectory();
    } catch {
      continue;
    }
    const shown = paths.show(candidate);
    found.warnings.push(
      folder
        ? { file: shown, line: null, column: null, message: `a folder, not read as the suite's configuration`, fix: `remove or rename the folder; the configuration is a file, ${CONFIG_NAMES.join(' or ')}` }
        : { file: shown, line: null, column: null, message: `not read: the suite's configuration is ${paths.configShown}, and only one is read`, fix: `move its settings into ${paths.configShown} and remove ${shown}` },
    );
  }
}

/**
 * --dir (the dir input) naming a file, a fixture or config.yml itself: said as a file, with the
 * suite folder it is in when there is one (docs/cli.md, "What each command does"), not as a
 * fixtures folder that does not exist under it.
 */
function notAFolderIssue(paths: SuitePaths, shown: string): ConfigIssue | null {
  let isFile: boolean;
  try {
    isFile = !statSync(paths.dir).isDirectory();
  } catch {
    return null;
  }
  if (!isFile) return null;
  // The suite folder holding the file: its parent (config.yml) or grandparent (fixtures/a.yml).
  const above = [path.dirname(paths.dir), path.dirname(path.dirname(paths.dir))].find((d) => [...CONFIG_NAMES, 'fixtures'].some((n) => existsSync(path.join(d, n))));
  return {
    file: shown,
    line: null,
    column: null,
    // The file is named before the message (file: shown): said once.
    message: `a file, not a folder: --dir (the dir input in the Action) takes the suite folder, the one that holds ${EITHER_CONFIG_NAME} and fixtures/`,
    fix:
      above === undefined
        ? 'point --dir (the dir input) at the suite folder (default .agent-replay); none yet? npx agent-replay init writes one'
        : `point --dir (the dir input) at ${paths.show(above)}, the suite folder this file is in`,
  };
}

/** `configAt` places at the config file as shown (the one to create when there is none), until loadConfig reads it. */
function newFindings(paths: SuitePaths): Findings {
  return { errors: [], warnings: [], secrets: [], fileOrder: [], configAt: issueMaker(paths.configShown, null) };
}

/**
 * The real suite folder; null (with an error) when a folder named inside the repository is a
 * link to outside it, or is not here but in a parent folder (suite-above.ts: never read in its
 * place). A folder that does not exist yet is its own root (nothing will be found).
 */
function suiteRoot(paths: SuitePaths, found: Findings, dir: string): SuiteRoot | null {
  const shown = paths.show(paths.dir);
  const file = notAFolderIssue(paths, shown) ?? suiteAboveIssue(paths.cwd, dir, shown);
  if (file !== null) {
    found.errors.push(file);
    return null;
  }
  const real = realPathOrNull(paths.dir);
  if (real === null) return { real: paths.dir, shown };
  const realCwd = realPathOrNull(paths.cwd) ?? paths.cwd;
  if (isInside(paths.cwd, paths.dir) && !isInside(realCwd, real)) {
    found.errors.push(outsideIssue(shown, `the suite folder ${shown}`, 'the repository (the working directory)', 'folder'));
    return null;
  }
  const link = isInside(paths.cwd, paths.dir) ? linkOnTheWay(paths.cwd, paths.dir) : null;
  if (link !== null) {
    // A pull request's edit of the suite is compared by the suite folder's path in the repository:
    // through a link, the files changed are under another path (docs/action.md, "Suite edited").
    const leadsTo = path.relative(realCwd, real).split(path.sep).join('/') || '.';
    found.errors.push({
      file: shown,
      line: null,
      column: null,
      message: `the suite folder ${shown} is reached through a symbolic link (${paths.show(link)}): refused, nothing was read from it`,
      fix: `name the folder it leads to, ${leadsTo}, in --dir (the dir input in the Action): a pull request's change to the suite is compared with its base by the folder's own path`,
    });
    return null;
  }
  return { real, shown };
}

/** The first folder from below `cwd` down to `dir` (inside it) that is a symbolic link; null when none is. */
function linkOnTheWay(cwd: string, dir: string): string | null {
  let at = cwd;
  for (const name of path.relative(cwd, dir).split(path.sep)) {
    if (name === '') continue;
    at = path.join(at, name);
    if (isLink(at)) return at;
  }
  return null;
}

/** config.yml (or .yaml) resolved with defaults; defaults alone when there is none; null on errors. */
/** `preset`: a preset given on the command line, resolved as if config.yml's `agent.preset` said so. */
function loadConfig(paths: SuitePaths, root: SuiteRoot, env: LoadOptions['env'], found: Findings, preset?: AgentPreset, untrustedSuite: string | null = null, unsetVariables: LoadOptions['unsetVariables'] = 'error'): Config | null {
  const configPath = paths.configPath;
  found.fileOrder.push(paths.configShown);
  configNamesIssues(paths, found);
  if (configPath === null) return resolveConfigFile(null, paths.configShown, withPreset({}, preset), env, null, [], preset !== undefined).config;
  const loaded = readYamlFile({ path: configPath, real: null }, paths.configShown, root, found);
  if (!loaded.src) {
    // Not read: its syntax errors may quote a credential written in it (docs/security.md, "Secrets").
    if (loaded.text !== undefined) found.secrets.push(...writtenSecretsInText(loaded.text));
    if (loaded.partly) {
      // Syntax errors: the sections they leave as written are checked, no config is resolved (docs/configuration.md, "How YAML is read").
      const part = soundSections(loaded.partly);
      const data = part.unread.includes('agent') ? part.data : withPreset(part.data, preset);
      const checked = resolveConfigFile(loaded.partly, paths.configShown, data, env, untrustedSuite, part.unread, preset !== undefined && !part.unread.includes('agent'), unsetVariables);
      found.errors.push(...checked.errors);
      found.warnings.push(...checked.warnings);
      found.secrets.push(...checked.secrets);
    }
    return null;
  }
  found.configAt = issueMaker(paths.configShown, loaded.src);
  const resolved = resolveConfigFile(loaded.src, paths.configShown, withPreset(loaded.data, preset), env, untrustedSuite, [], preset !== undefined, unsetVariables);
  found.errors.push(...resolved.errors);
  found.warnings.push(...resolved.warnings);
  found.secrets.push(...resolved.secrets);
  return resolved.config;
}

function withPreset(data: unknown, preset: AgentPreset | undefined): unknown {
  const mapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  // A file or agent section of the wrong shape is left as written, for its error to be reported.
  if (preset === undefined || !(data === null || data === undefined || mapping(data))) return data;
  const file = mapping(data) ? data : {};
  if (!(file.agent === null || file.agent === undefined || mapping(file.agent))) return data;
  return { ...file, agent: { ...(mapping(file.agent) ? file.agent : {}), preset } };
}

/** Flags and action inputs win over the file; their secrets are redacted even when the file has errors. */
function overrideConfig(config: Config | null, overrides: ConfigOverrides, source: string, paths: SuitePaths, found: Findings): void {
  found.secrets.push(...overrideSecrets(overrides));
  const written = config?.judge?.provider;
  if (config) {
    const applied = applyOverrides(config, overrides, source, { at: found.configAt, name: paths.configName });
    found.errors.push(...applied.errors);
    found.warnings.push(...applied.warnings);
  }
  // config.yml's judge without a key, given one by the judge-api-key input (or another address by
  // --judge-url, judge-base-url): the calls carry it, so the warning that they will be refused is not said.
  const judge = config?.judge;
  if (judge && (judge.apiKey !== null || judge.baseUrl !== JUDGE_DEFAULTS[judge.provider].baseUrl)) {
    const kept = found.warnings.filter((w) => !w.message.startsWith(NO_JUDGE_KEY));
    found.warnings.splice(0, found.warnings.length, ...kept);
  } else if (judge && written !== undefined && judge.provider !== written) {
    // Still no key, for the provider the judge-provider input chose: the warning names that one, not the file's.
    const words = noJudgeKeyWords(judge.provider, { provider: written, file: paths.configName });
    for (const [i, w] of found.warnings.entries()) if (w.message.startsWith(NO_JUDGE_KEY)) found.warnings[i] = { ...w, ...words };
  }
}

/**
 * The agent's address, from the file or a flag, may carry a user and password, which its requests
 * send as basic auth: both forms are secrets (docs/configuration.md, "config.yml"); so is a key in
 * its query or path, or the judge's (docs/security.md, "Secrets").
 */
function agentUrlSecrets(config: Config | null, overrides: ConfigOverrides | undefined, found: Findings): void {
  // The file's address and the flag's: an invalid one is quoted in its error, as written.
  const addresses = [config?.agent.url, overrides?.agentUrl, config?.judge?.baseUrl, overrides?.judge?.baseUrl];
  const credentials = [...new Set(addresses.flatMap((url) => urlCredentialSecrets(url)))];
  found.secrets.push(...credentials);
  config?.secrets.push(...credentials);
}

const isYamlName = (name: string): boolean => /\.ya?ml$/i.test(name);

/**
 * A file in the fixtures or personas folder whose name looks meant to be read (`refund.ym`,
 * `refund.yml~`, `refund.json`), or in the baselines folder (`refund.JSON`, `refund.json.orig`,
 * `refund.yml`), is said to be left out, not skipped without a word (docs/fixtures.md, at its top
 * and "Baselines"); other files (a README) are left alone.
 */
function notReadWarning(shown: string, what: 'fixtures' | 'persona scripts' | 'baselines', found: Findings): void {
  const name = shown.slice(shown.lastIndexOf('/') + 1);
  const baselines = what === 'baselines';
  const typo = (baselines ? /\.(?:j[a-z]{0,3}|json\W.*|json[a-z0-9]+|ya?ml)$/i : /\.(?:y[a-z]{0,3}|ya?ml\W.*|ya?ml[a-z0-9]+|json)$/i).exec(name);
  if (typo === null) return;
  const stem = name.slice(0, typo.index);
  const yamlBaseline = baselines && /^\.ya?ml$/i.test(typo[0]);
  found.warnings.push({
    file: shown,
    line: null,
    column: null,
    message: baselines ? 'not read: baselines are read from <label>.json files only' : `not read: ${what} are read from .yml and .yaml files only`,
    fix: yamlBaseline
      ? 'a baseline is the JSON file acceptance writes (agent-replay accept writes <label>.json): move this one out of the folder'
      : `rename it to ${stem}.${baselines ? 'json' : 'yml (YAML; a JSON document is YAML too)'} to have it read, or move it out of the folder`,
  });
}

/**
 * A folder named like a suite file (`fixtures/refund.yml/`, made by `mkdir` where a file was
 * meant) is no file: said as a warning, not passed over, since the file it looks like is not read
 * (docs/fixtures.md, at its top). A fixtures or personas folder's files in it are still read, as
 * any subfolder's; the baselines folder has no subfolders.
 */
function folderNamedLikeFile(shown: string, what: 'fixture' | 'persona script' | 'baseline', found: Findings): void {
  found.warnings.push({
    file: shown,
    line: null,
    column: null,
    message:
      what === 'baseline'
        ? 'a folder, not a baseline file: it is not read, and acceptance cannot write the baseline of that name'
        : `a folder named like a ${what} file: it is read as a subfolder (the .yml and .yaml files in it), not as a ${what}`,
    fix: what === 'baseline' ? 'remove the folder (agent-replay accept writes the baseline as a file)' : `if it was meant to be a ${what} file, remove the folder and write the file in its place; else rename the folder without its .yml or .yaml`,
  });
}

interface FixtureFiles {
  fixtures: Fixture[];
  labels: SeenLabel[];
  labelsMeant: CommentedValue[];
  /** null: no fixtures folder; 'refused': outside the suite folder, or a link; else the number of files read and their errors. */
  listed: number | null | 'refused';
  fileErrors: number;
  /** The folder's files not read (not .yml or .yaml: `notes.txt`, `sub/refund.json`), by their path under the folder. */
  others: string[];
}

async function loadFixtures(paths: SuitePaths, root: SuiteRoot, found: Findings): Promise<FixtureFiles> {
  const fixtures: Fixture[] = [];
  const labels: SeenLabel[] = [];
  const labelsMeant: CommentedValue[] = [];
  const fixturesShown = paths.show(paths.fixturesDir);
  const others: string[] = [];
  const listed = await listSuiteFiles(
    paths.fixturesDir,
    root,
    isYamlName,
    true,
    (file) => {
      others.push(path.relative(paths.fixturesDir, file).split(path.sep).join('/'));
      notReadWarning(paths.show(file), 'fixtures', found);
    },
    (folder) => folderNamedLikeFile(paths.show(folder), 'fixture', found),
    (link, real) => found.errors.push(linkedFolderIssue(paths.show(link), real, root)),
  );
  if (listed !== null && 'refused' in listed) {
    found.errors.push(refusedFolder(listed, fixturesShown, 'the fixtures folder', root));
    return { fixtures, labels, labelsMeant, listed: 'refused', fileErrors: 0, others };
  }
  if (listed === null) return { fixtures, labels, labelsMeant, listed, fileErrors: 0, others };
  namesDifferingInCase(listed.map((ref) => shownUnder(fixturesShown, ref)), 'fixtures', found);
  let fileErrors = 0;
  for (const ref of listed) {
    const shown = shownUnder(fixturesShown, ref);
    found.fileOrder.push(shown);
    const before = found.errors.length;
    const loaded = readYamlFile(ref, shown, root, found);
    if (loaded.src) {
      const checked = checkFixtureFile(loaded.src, loaded.data);
      append(found.errors, checked.errors);
      append(found.warnings, checked.warnings);
      append(fixtures, checked.fixtures);
      append(labels, checked.labels);
      append(labelsMeant, checked.labelsMeant);
    } else if (loaded.partly) {
      // Syntax errors: the items they leave as written are checked, never run (docs/configuration.md, "How YAML is read").
      const checked = checkFixtureFile(loaded.partly, undefined, loaded.errors);
      append(found.errors, checked.errors);
      append(found.warnings, checked.warnings);
      append(labels, checked.labels);
      append(labelsMeant, checked.labelsMeant);
    }
    fileErrors += found.errors.length - before;
  }
  return { fixtures, labels, labelsMeant, listed: listed.length, fileErrors, others };
}

/**
 * `items` added to the end of `to`, one at a time: a file may hold more fixtures (or errors) than
 * push(...items) takes arguments (about 120,000; a suite file may be 8 MiB).
 */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

interface PersonaFiles {
  personas: PersonaScript[];
  labels: SeenLabel[];
  labelsMeant: CommentedValue[];
  /** Files read (0 when there is no personas folder). */
  files: number;
}

/** Files under `<dir>/personas`, read and checked like fixture files; the folder is optional. */
async function loadPersonas(paths: SuitePaths, root: SuiteRoot, found: Findings): Promise<PersonaFiles> {
  const personas: PersonaScript[] = [];
  const labels: SeenLabel[] = [];
  const labelsMeant: CommentedValue[] = [];
  const listed = await listSuiteFiles(
    paths.personasDir,
    root,
    isYamlName,
    true,
    (file) => notReadWarning(paths.show(file), 'persona scripts', found),
    (folder) => folderNamedLikeFile(paths.show(folder), 'persona script', found),
    (link, real) => found.errors.push(linkedFolderIssue(paths.show(link), real, root)),
  );
  if (listed !== null && 'refused' in listed) {
    found.errors.push(refusedFolder(listed, paths.show(paths.personasDir), 'the personas folder', root));
    return { personas, labels, labelsMeant, files: 0 };
  }
  if (listed === null) notAFolder(paths, paths.personasDir, 'persona scripts', found);
  namesDifferingInCase((listed ?? []).map((ref) => paths.show(ref.path)), 'persona scripts', found);
  for (const ref of listed ?? []) {
    const shown = paths.show(ref.path);
    found.fileOrder.push(shown);
    const loaded = readYamlFile(ref, shown, root, found);
    const src = loaded.src ?? loaded.partly;
    if (!src) continue;
    // Syntax errors: the scripts they leave as written are checked, never run (docs/configuration.md, "How YAML is read").
    const checked = checkPersonaFile(src, loaded.data, loaded.src === null ? loaded.errors : null);
    append(found.errors, checked.errors);
    append(found.warnings, checked.warnings);
    if (loaded.src) append(personas, checked.personas);
    append(labels, checked.labels);
    append(labelsMeant, checked.labelsMeant);
  }
  return { personas, labels, labelsMeant, files: listed?.length ?? 0 };
}

/** A suite needs fixtures or persona scripts; a suite of persona scripts alone needs no fixtures folder. */
function requireSomething(paths: SuitePaths, fixtures: FixtureFiles, personas: PersonaFiles, found: Findings): void {
  if (fixtures.listed === 'refused') return;
  if (personas.files > 0) {
    if (fixtures.listed === null) notAFolder(paths, paths.fixturesDir, 'fixtures', found);
    return;
  }
  const fixturesShown = paths.show(paths.fixturesDir);
  if (fixtures.listed === null) {
    const what = existsSync(paths.fixturesDir) ? `${fixturesShown} is a file, not a folder` : `${fixturesShown} does not exist`;
    // The same loader serves the CLI and the Action: name the flag and the input. With no suite
    // folder at all, the fix is init, or (in a workflow) the checkout step (docs/troubleshooting.md).
    const noSuite = existsSync(path.dirname(paths.fixturesDir))
      ? ''
      : '\n  none yet? npx agent-replay init writes one; in a workflow, check out the repository (actions/checkout) before this step';
    found.errors.push(noFixturesIssue(fixturesShown, `no fixtures folder: ${what}`, `\n  or point --dir (the dir input in the Action) at your suite folder${noSuite}`));
  } else if (fixtures.listed === 0) {
    found.errors.push(noYamlIssue(fixturesShown, fixtures.others));
  } else if (fixtures.fixtures.length === 0 && fixtures.fileErrors === 0) {
    found.errors.push(noFixturesIssue(fixturesShown, `no fixtures: the files in ${fixturesShown} define none`, ''));
  }
}

/**
 * A suite folder's fixtures/, personas/ or baselines/ that is a file (or a link to one) is never
 * read: said as an error, not passed over as a folder that is not there, which would run the
 * suite without those items or baselines, every fixture "new" (docs/fixtures.md, "Baselines").
 */
function notAFolder(paths: SuitePaths, folder: string, what: 'fixtures' | 'persona scripts' | 'baselines', found: Findings): void {
  let file: boolean;
  try {
    file = !statSync(folder).isDirectory();
  } catch {
    return;
  }
  if (!file) return;
  const shown = paths.show(folder);
  const holds = what === 'baselines' ? 'the .json files in that folder, one <label>.json per fixture or persona script, written by acceptance' : 'the .yml and .yaml files in that folder';
  found.errors.push({
    file: shown,
    line: null,
    column: null,
    message: `a file, not a folder: ${what} are read from ${holds}, so none was read`,
    fix: `rename or move the file, then make ${shown} a folder${what === 'baselines' ? '' : ` and move the ${what} there`}`,
  });
}

/** Files named in "no fixtures" when the folder holds others than fixtures: a few, then how many more. */
const OTHERS_NAMED = 3;

/**
 * A fixtures folder with no .yml or .yaml file: the files it does hold (`notes.txt`, `refund.json`)
 * named, a few of them, since a fixture written under another name is read as none, with the fix:
 * rename the fixtures among them to .yml, or they are ignored (docs/troubleshooting.md).
 */
function noYamlIssue(fixturesShown: string, others: readonly string[]): ConfigIssue {
  const message = `no fixtures: ${fixturesShown} has no .yml or .yaml file`;
  if (others.length === 0) return noFixturesIssue(fixturesShown, message, '');
  const sorted = [...others].sort();
  const named = listAndMore(sorted, OTHERS_NAMED, (f) => f);
  const one = others.length === 1;
  const issue = noFixturesIssue(fixturesShown, `${message}; it holds ${named}, ${one ? 'which is' : 'which are'} not read`, '');
  // The rename shown on a file likeliest to be a fixture: a JSON one (a JSON document is YAML too), else the first.
  const example = sorted.find((f) => /\.json$/i.test(f)) ?? (sorted[0] as string);
  const dot = example.lastIndexOf('.');
  const renamed = `${dot > example.lastIndexOf('/') + 1 ? example.slice(0, dot) : example}.yml`;
  return {
    ...issue,
    fix: `if ${one ? 'it is a fixture' : 'a fixture is among them'}, rename it to .yml (${example} to ${renamed}; a JSON document is YAML too): ${one ? 'else it is' : 'the others are'} ignored; else ${issue.fix}`,
  };
}

function noFixturesIssue(fixturesShown: string, message: string, moreFix: string): ConfigIssue {
  return {
    file: fixturesShown,
    line: null,
    column: null,
    message,
    fix: `create ${fixturesShown}/greeting.yml containing\n    ${EXAMPLE_FIXTURE.replace('\n', '\n    ')}${moreFix}`,
  };
}

/** Labels name baseline files: unique across the suite, also on case-insensitive file systems. */
function checkLabelsUnique(labels: readonly SeenLabel[], found: Findings): void {
  const firstByLabel = new Map<string, SeenLabel>();
  for (const seen of labels) {
    const key = seen.label.toLowerCase();
    const first = firstByLabel.get(key);
    if (!first) {
      firstByLabel.set(key, seen);
      continue;
    }
    // Said at the item read second (files in path order), naming both places alike: the one a pull
    // request added may be either, and either may be renamed.
    const at = (l: SeenLabel): string => `${l.file}:${l.line ?? '?'}`;
    found.errors.push({
      file: seen.file,
      line: seen.line,
      column: seen.column,
      message:
        first.label === seen.label
          ? `duplicate label ${shownJson(seen.label)}: used at ${at(first)} and at ${at(seen)}`
          : `labels ${shownJson(first.label)} at ${at(first)} and ${shownJson(seen.label)} at ${at(seen)} differ only in case: their baseline files would collide on macOS and Windows`,
      fix: 'rename one of them; labels are unique across the suite because each names its baseline file',
    });
  }
}

/**
 * A label's own error (invalid, a name Windows refuses) was given its fix file by file: made again
 * here, where every label of the suite is known, so that the label it suggests is one no item uses
 * (`refund\u200Bpolicy` is not offered `refund-policy` when another fixture has it), nor one offered
 * to another such label above it (`café` and `cafè` are offered `cafe` and `cafe-2`, not both `cafe`),
 * a label read as a comment (`label: # x`) among them, in file order.
 */
function freeLabelFixes(labels: readonly SeenLabel[], meant: readonly CommentedValue[], fileOrder: readonly string[]): void {
  if (meant.length === 0 && !labels.some((l) => l.issue !== undefined)) return;
  const taken = takenLabels(labels.map((l) => l.label));
  const offered = new Map<string, string>();
  // Labels are only offered here, never taken back: each count resumes where it ended (NextFree).
  const next: NextFree = new Map();
  // In file order (line order across files in the order they were read, Findings.fileOrder, not
  // their shown paths': from inside the fixtures folder, `../personas/p.yml` sorts before `a.yml`),
  // whichever kind comes first: a label read as a comment above an invalid one is offered its label first.
  const asked: ({ kind: 'invalid'; l: SeenLabel; issue: ConfigIssue; file: string; line: number } | { kind: 'comment'; m: CommentedValue; file: string; line: number })[] = [];
  for (const l of labels) if (l.issue !== undefined) asked.push({ kind: 'invalid', l, issue: l.issue, file: l.file, line: l.line ?? 0 });
  // `label: # refund policy`, offered a label close to the comment (yaml-traps.ts, labelMeantFix).
  for (const m of meant) asked.push({ kind: 'comment', m, file: m.issue.file, line: m.issue.line ?? 0 });
  if (meant.length > 0) {
    const rank = new Map(fileOrder.map((file, i) => [file, i]));
    const at = (file: string): number => rank.get(file) ?? fileOrder.length;
    asked.sort((a, b) => at(a.file) - at(b.file) || a.line - b.line);
  }
  for (const a of asked) {
    if (a.kind === 'comment') {
      const { fix, label } = labelMeantFix(a.m.comment, a.m.props, taken, offered, next);
      a.m.issue.fix = `${a.m.why}: ${fix}`;
      if (label !== null) offered.set(label.toLowerCase(), `${shownJson(a.m.comment)} at ${a.file}:${a.m.issue.line ?? '?'}`);
      continue;
    }
    const { l, issue } = a;
    const valid = isValidLabel(l.label);
    const windows = valid ? windowsNameIssue(l.label, taken, offered, next) : null;
    const label = valid ? (windows?.label ?? null) : (freeSuggestion(l.label, taken, offered, next)?.label ?? null);
    issue.fix = valid ? (windows?.fix ?? issue.fix) : labelFix(l.label, taken, offered, next);
    if (label !== null) offered.set(label.toLowerCase(), `${shownJson(l.label)} at ${l.file}:${l.line ?? '?'}`);
  }
}

/**
 * What the fixture and persona files said, as far as a baseline's staleness goes: how often each
 * label was seen (on valid items or not), the kind of the valid item of a label (a persona
 * script's when both have it), and whether every file was read without an error. Only a complete
 * reading proves a baseline stale.
 */
interface ItemsRead {
  seen: (label: string) => number;
  kind: (label: string) => 'fixture' | 'persona' | undefined;
  complete: boolean;
}

/**
 * ItemsRead, its maps made when a baseline first asks: a suite without baselines makes none (two
 * maps of 5,000 labels, docs/performance.md, "2026-12-07 (late morning): the load's instructions").
 */
function itemsRead(labels: readonly SeenLabel[], fixtures: readonly Fixture[], personas: readonly PersonaScript[], complete: boolean): ItemsRead {
  let maps: { seen: Map<string, number>; kinds: Map<string, 'fixture' | 'persona'> } | null = null;
  const made = (): NonNullable<typeof maps> => {
    if (maps !== null) return maps;
    const seen = new Map<string, number>();
    for (const l of labels) seen.set(l.label, (seen.get(l.label) ?? 0) + 1);
    const kinds = new Map<string, 'fixture' | 'persona'>();
    for (const f of fixtures) kinds.set(f.label, 'fixture');
    for (const p of personas) kinds.set(p.label, 'persona');
    return (maps = { seen, kinds });
  };
  return { seen: (label) => made().seen.get(label) ?? 0, kind: (label) => made().kinds.get(label), complete };
}

/**
 * Valid baselines by label, fixture and persona baselines apart. A baseline with no item of its
 * label (an orphan), or whose label is now an item of the other kind, is kept with a warning, and
 * only when the suite proves it: a fixture or persona file with errors may hold the item (a
 * misspelt key, a YAML error), so then nothing is said about staleness, and never "delete".
 */
async function loadBaselines(
  paths: SuitePaths,
  root: SuiteRoot,
  items: ItemsRead,
  found: Findings,
): Promise<{ baselines: Map<string, Baseline>; personaBaselines: Map<string, PersonaBaseline> }> {
  const baselines = new Map<string, Baseline>();
  const personaBaselines = new Map<string, PersonaBaseline>();
  const listed = await listSuiteFiles(
    paths.baselinesDir,
    root,
    (name) => name.endsWith('.json'),
    false,
    (file) => notReadWarning(paths.show(file), 'baselines', found),
    (folder) => folderNamedLikeFile(paths.show(folder), 'baseline', found),
  );
  if (listed !== null && 'refused' in listed) {
    found.errors.push(refusedFolder(listed, paths.show(paths.baselinesDir), 'the baselines folder', root));
    return { baselines, personaBaselines };
  }
  if (listed === null) notAFolder(paths, paths.baselinesDir, 'baselines', found);
  const colliding = caseCollisions(listed ?? [], items, paths, found);
  for (const ref of listed ?? []) {
    const shown = paths.show(ref.path);
    found.fileOrder.push(shown);
    if (colliding.has(ref.path)) continue;
    const read = readSuiteText(ref, shown, root.real, root.shown);
    if ('issue' in read) {
      found.errors.push(read.issue);
      continue;
    }
    const checked = checkBaselineFile(shown, path.basename(ref.path).slice(0, -'.json'.length), read.text);
    found.errors.push(...checked.errors);
    const stored = checked.baseline ?? checked.persona ?? null;
    if (stored === null) continue;
    if ('kind' in stored) personaBaselines.set(stored.label, stored);
    else baselines.set(stored.label, stored);
    const storedKind = 'kind' in stored ? 'persona' : 'fixture';
    const seen = items.seen(stored.label);
    const kind = items.kind(stored.label);
    if (seen === 0 && items.complete) found.warnings.push(orphanWarning(shown, stored.label));
    // The label is on exactly one item, a valid one of the other kind: that item replaced the baseline's.
    else if (seen === 1 && kind !== undefined && kind !== storedKind) found.warnings.push(kindWarning(shown, stored.label, storedKind === 'persona'));
  }
  return { baselines, personaBaselines };
}

/**
 * The suite's baselines whose label no fixture or persona script has now (removed or renamed): the
 * record lists them, so that the comment says what is no longer replayed (docs/results-json.md).
 * A suite is loaded only when every file was read without an error, so none of them can be hiding
 * in a file that did not parse. A label that became an item of the other kind is not removed.
 */
export function removedBaselines(suite: Pick<Suite, 'baselinesDir' | 'fixtures' | 'personas' | 'baselines' | 'personaBaselines'>, cwd: string): RemovedBaseline[] {
  const labels = new Set<string>([...suite.fixtures.map((f) => f.label), ...suite.personas.map((p) => p.label)]);
  const shown = (label: string): string => path.relative(cwd, baselinePath(suite.baselinesDir, label)).split(path.sep).join('/');
  const removed: RemovedBaseline[] = [
    ...[...suite.baselines.keys()].filter((l) => !labels.has(l)).map((label) => ({ label, kind: 'fixture' as const, file: shown(label) })),
    ...[...suite.personaBaselines.keys()].filter((l) => !labels.has(l)).map((label) => ({ label, kind: 'persona' as const, file: shown(label) })),
  ];
  return removed.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

function kindWarning(shown: string, label: string, persona: boolean): ConfigIssue {
  return {
    file: shown,
    line: null,
    column: null,
    message: `${shown} is a ${persona ? 'persona script' : 'fixture'} baseline, but ${shownJson(label)} is a ${persona ? 'fixture' : 'persona script'} now: it is not compared against`,
    fix: `delete ${shown} and accept ${shownJson(label)} again`,
  };
}

/**
 * Fixture or persona files whose paths differ only in case (`Refund.yml`, `refund.yml`): one file on
 * macOS and Windows, where a checkout keeps only one of them and its items are silently not run.
 * So are paths that differ only in how an accented letter is encoded (`café.yml` with é as one
 * character, NFC, and as e and a combining accent, NFD, as macOS writes names): they look alike,
 * and macOS takes them for one file (Windows does not). An error on each but the first
 * (docs/fixtures.md, "A fixture"); both are still read.
 */
function namesDifferingInCase(shown: readonly string[], what: string, found: Findings): void {
  const first = new Map<string, string>();
  for (const file of shown) {
    const key = file.normalize('NFC').toLowerCase();
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, file);
      continue;
    }
    const encoded = file.toLowerCase() !== earlier.toLowerCase();
    const alike = file.normalize('NFC') === earlier.normalize('NFC') ? `looks the same as ${earlier}` : `differs only in case from ${earlier}`;
    found.errors.push({
      file,
      line: null,
      column: null,
      message: encoded
        ? `file name ${alike}, but an accented letter is one character in one and a letter plus a combining accent in the other (Unicode NFC, NFD): macOS takes them for one file, and a checkout there keeps only one, whose ${what} alone would run`
        : `file name differs only in case from ${earlier}: on macOS and Windows they are one file, and a checkout there keeps only one of them, whose ${what} alone would run`,
      fix: `rename one of them (git mv ${shownShellWord(file)} <new name>), or move its ${what} into the other`,
    });
  }
}

/**
 * Baseline files whose names differ only in case (`Refund.json`, `refund.json`: a fixture renamed
 * on a case-sensitive system): one file on macOS and Windows, where a checkout keeps only one of
 * them. Each is an error but the one whose label is an item's (docs/fixtures.md, "A fixture");
 * returns the paths of those errors, which are not read.
 */
function caseCollisions(listed: readonly { path: string }[], items: ItemsRead, paths: SuitePaths, found: Findings): Set<string> {
  const byName = new Map<string, { path: string }[]>();
  for (const ref of listed) {
    const key = path.basename(ref.path).toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), ref]);
  }
  const out = new Set<string>();
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    const labelOf = (ref: { path: string }): string => path.basename(ref.path).slice(0, -'.json'.length);
    const keeper = group.find((ref) => items.seen(labelOf(ref)) > 0) ?? (group[0] as { path: string });
    for (const ref of group) {
      if (ref === keeper) continue;
      out.add(ref.path);
      const shown = paths.show(ref.path);
      const kept = paths.show(keeper.path);
      const isItem = items.seen(labelOf(keeper)) > 0;
      found.errors.push({
        file: shown,
        line: null,
        column: null,
        message: `baseline file ${path.basename(ref.path)} differs only in case from ${path.basename(keeper.path)}: on macOS and Windows they are one file, and a checkout there keeps only one of them`,
        fix: isItem
          ? `delete ${shown} (git rm ${shownShellWord(shown)}): no fixture or persona script is labelled ${shownJson(labelOf(ref))}, and ${kept} is the baseline of ${shownJson(labelOf(keeper))}`
          : `keep the one whose label is a fixture's or persona script's and delete the other (${shown} or ${kept})`,
      });
    }
  }
  return out;
}

function orphanWarning(shown: string, label: string): ConfigIssue {
  return {
    file: shown,
    line: null,
    column: null,
    message: `orphan baseline: no fixture or persona script is labelled ${shownJson(label)}`,
    fix: `delete ${shown} if the fixture (or script) was removed, or restore one with label: ${label} (a renamed fixture needs its baseline renamed too)`,
  };
}

function warnJudgeNotConfigured(config: Config | null, fixtures: readonly Fixture[], personas: readonly PersonaScript[], configShown: string, found: Findings): void {
  if (!config || config.judge) return;
  const judged = fixtures.filter((f) => judgeAssertionOf(f.assertion) !== null);
  const first = judged[0];
  if (first) {
    found.warnings.push({
      file: first.file,
      line: first.line,
      column: null,
      message: `${judged.length} fixture${judged.length === 1 ? ' uses a judge assertion' : 's use judge assertions'} (first: ${shownJson(first.label)}) but no judge is configured: ${judged.length === 1 ? 'it is' : 'they are'} not evaluated`,
      fix: JUDGE_FIX(configShown),
    });
  }
  const withCriteria = personas.filter((p) => p.expect.criteria.length > 0);
  const firstScript = withCriteria[0];
  if (firstScript) {
    found.warnings.push({
      file: firstScript.file,
      line: firstScript.line,
      column: null,
      message: `${withCriteria.length} persona script${withCriteria.length === 1 ? ' has' : 's have'} criteria (first: ${shownJson(firstScript.label)}) but no judge is configured: the criteria are not evaluated`,
      fix: JUDGE_FIX(configShown),
    });
  }
}

/**
 * Simulated users with neither `simulator:` nor `judge:` (docs/personas.md, "Simulated users"): a
 * stored baseline can still be replayed, but every live turn is a simulator fault (not evaluated).
 */
function warnSimulatorNotConfigured(config: Config | null, personas: readonly PersonaScript[], configShown: string, found: Findings): void {
  if (!config || config.judge || config.simulator) return;
  const simulated = personas.filter((p) => p.user);
  const first = simulated[0];
  if (!first) return;
  found.warnings.push({
    file: first.file,
    line: first.line,
    column: null,
    message: `${simulated.length} persona script${simulated.length === 1 ? ' has' : 's have'} a simulated user (first: ${shownJson(first.label)}) but no simulator is configured: a turn the baseline cannot replay is not evaluated`,
    fix: `add a simulator section to ${configShown} (provider, baseUrl, model, apiKey), or a judge section, whose model then plays the user too`,
  });
}

/**
 * What the agent mapping cannot carry for the scripts: mocks never sent (a request template without
 * {{mocks}}), tool calls, outcomes or routes never read (a null path, or a preset whose API has
 * none): those checks would not be evaluated. The fix offered is one the configured preset can take:
 * a response path for a body of one's own (or the native protocol), else a check the API supports.
 */
function warnPersonaMapping(config: Config | null, personas: readonly PersonaScript[], configShown: string, found: Findings): void {
  if (!config || personas.length === 0) return;
  const { mapping, start, preset } = config.agent;
  const warn = (scripts: readonly PersonaScript[], message: (first: PersonaScript, n: number) => string, fix: string): void => {
    const first = scripts[0];
    if (first) found.warnings.push({ file: first.file, line: first.line, column: null, message: message(first, scripts.length), fix });
  };
  const those = (n: number): string => (n === 1 ? 'script' : `${n} scripts`);
  const head = (p: PersonaScript, n: number, verb: [string, string]): string => `persona ${those(n)} (first: ${shownJson(p.label)}) ${n === 1 ? verb[0] : verb[1]}`;
  // A vendor API behind a preset's own body: its response has only what that API reports.
  const presetBody = PRESETS[preset].mapping.body;
  const streamBody = PRESETS[preset].streamBody?.(presetBody) ?? null;
  const vendor = preset !== 'native' && [presetBody, streamBody].some((b) => b !== null && JSON.stringify(b) === JSON.stringify(mapping.body));
  const instead = (what: string): string => `the ${preset} preset's API reports no ${what}`;
  const bodies = [mapping.body, ...(start ? [start.body] : [])];
  warn(
    personas.filter((p) => p.mocks.length > 0 && !bodies.every((b) => containsPlaceholder(b, '{{mocks}}'))),
    (p, n) =>
      vendor
        ? `${head(p, n, ['has', 'have'])} mocks, but the ${preset} preset sends no mocks (the API has no such field): the agent will not see them`
        : `${head(p, n, ['has', 'have'])} mocks, but the agent request body does not send {{mocks}} on every turn: the agent will not see them`,
    vendor
      ? `remove the script's mocks to test the agent's tools live, or give agent.request.body in ${configShown} with "{{mocks}}" where your endpoint reads them`
      : `put "{{mocks}}" where the agent expects its tool mocks in agent.request.body (and agent.start.body) of ${configShown}`,
  );
  const noToolCalls = mapping.toolCalls === null || (vendor && mapping.decode === 'rasa-rest');
  warn(
    personas.filter((p) => noToolCalls && p.expect.toolCalled.length + p.expect.toolNotCalled.length > 0),
    (p, n) => `${head(p, n, ['checks', 'check'])} tool calls, but ${mapping.toolCalls === null ? 'agent.response.toolCalls is null' : instead('tool calls')}: those checks are not evaluated`,
    mapping.toolCalls === null
      ? `agent-replay probe "MESSAGE" (one that makes the agent call a tool) names the path in the actual response that holds tool calls, if one does: set agent.response.toolCalls in ${configShown} to it; if none does, remove toolCalled / toolNotCalled or use expect.reply`
      : 'remove toolCalled / toolNotCalled from the script, or check the replies with expect.reply',
  );
  warn(
    personas.filter((p) => mapping.outcome === null && p.expect.terminal !== null),
    (p, n) => `${head(p, n, ['checks', 'check'])} the terminal outcome, but ${vendor ? instead('outcomes') : 'agent.response.outcome is null'}: that check is not evaluated`,
    vendor
      ? 'remove expect.terminal, or check how the conversation ends with expect.reply (e.g. { contains: "...", turn: last }) or a criterion'
      : `if the agent's response says how the conversation ended, set agent.response.outcome in ${configShown} to that path; if it does not, remove expect.terminal`,
  );
  warn(
    personas.filter((p) => start === null && (p.expect.reply ?? []).some((r) => r.turn === 0)),
    (p, n) => `${head(p, n, ['checks', 'check'])} the reply of turn 0, the welcome turn, but the agent has no welcome turn: that check will fail`,
    `check turn 1 (the opening) or later, or give the welcome request in agent.start of ${configShown}`,
  );
  warn(
    personas.filter((p) => (mapping.conversation === null || mapping.stage === null) && p.expect.conversations.length > 0),
    (p, n) => `${head(p, n, ['checks', 'check'])} conversations, but ${vendor ? instead('routes') : 'agent.response.conversation or agent.response.stage is null'}: that check is not evaluated`,
    vendor
      ? 'remove expect.conversations, or check the replies with expect.reply or a criterion'
      : `set agent.response.conversation and agent.response.stage in ${configShown} to the paths of the route in the agent's response`,
  );
}

const JUDGE_FIX = (configShown: string): string =>
  `add a judge section to ${configShown}:\n    judge:\n      provider: openai\n      model: gpt-4o-mini\n      apiKey: \${JUDGE_API_KEY}`;

/** Issues redacted, grouped by file in display order and bounded per file; the suite when there is no error. */
type SuiteItems = Pick<Suite, 'fixtures' | 'personas' | 'baselines' | 'personaBaselines'>;

function finish(paths: SuitePaths, found: Findings, config: Config | null, items: SuiteItems): LoadResult {
  const secrets = [...found.secrets, ...(config?.secrets ?? [])];
  // Remembered for the last-resort error handlers, which see an unexpected error after the load (src/secrets.ts).
  rememberSecrets(secrets);
  const redact = makeRedactor(secrets);
  const tidy = (issues: ConfigIssue[], noun: 'errors' | 'warnings'): ConfigIssue[] =>
    boundIssues(
      sortIssues(
        oneSplitNumber(issues).map((i) => ({ ...i, message: redact(i.message), fix: redact(i.fix) })),
        found.fileOrder,
      ),
      noun,
    );
  const result: LoadResult = { suite: null, errors: tidy(found.errors, 'errors'), warnings: tidy(found.warnings, 'warnings') };
  if (result.errors.length === 0 && config) {
    result.suite = { dir: paths.dir, baselinesDir: paths.baselinesDir, config, ...items, configAt: found.configAt, configName: paths.configName };
  }
  return result;
}

// --- files -----------------------------------------------------------------------------------------

function overrideSecrets(o: ConfigOverrides): string[] {
  const out = Object.values(o.agentHeaders ?? {});
  if (o.judge?.apiKey) out.push(o.judge.apiKey);
  return out;
}

/** A YAML suite file read safely and parsed; its errors are added to `found`. */
function readYamlFile(ref: SuiteFileRef, shown: string, root: SuiteRoot, found: Findings): LoadedYaml & { text?: string } {
  const read = readSuiteText(ref, shown, root.real, root.shown);
  if ('issue' in read) {
    found.errors.push(read.issue);
    return { src: null, data: undefined, errors: [read.issue] };
  }
  const loaded = readYaml(shown, read.text);
  found.errors.push(...loaded.errors);
  if (loaded.warnings !== undefined) found.warnings.push(...loaded.warnings);
  return { ...loaded, text: read.text };
}

/** The first candidate that exists and is not a folder (a link is taken as is: reading it decides). */
function firstFile(candidates: string[]): string | null {
  for (const candidate of candidates) {
    try {
      if (!lstatSync(candidate).isDirectory()) return candidate;
    } catch {
      // not there: try the next one
    }
  }
  return null;
}

/**
 * Files under `folder` whose name passes `keep`, sorted by path; null when `folder` is not a
 * folder; refused when it resolves outside the suite folder or is itself a link (a link to
 * elsewhere inside it: docs/security.md, "Hostile files"). Folders are walked without
 * following links, so the real path of every entry that is not itself a link is known.
 */
async function listSuiteFiles(
  folder: string,
  root: SuiteRoot,
  keep: (name: string) => boolean,
  recursive: boolean,
  /** Told of each file `keep` refused (its path). */
  onSkipped?: (file: string) => void,
  /** Told of each folder whose name `keep` takes (`refund.yml/`): it is walked as any folder (when recursive), never read as a file. */
  onFolderNamedLikeFile?: (folder: string) => void,
  /** Told of each symbolic link to a folder met in a recursive walk (the link, where it leads): it is not followed. */
  onLinkedFolder?: (link: string, real: string) => void,
): Promise<ListedFile[] | null | RefusedFolder> {
  try {
    if (!(await fs.stat(folder)).isDirectory()) return null;
  } catch {
    return null;
  }
  const realFolder = realPathOrNull(folder);
  if (realFolder === null) return null;
  if (!isInside(root.real, realFolder)) return { refused: 'outside', real: realFolder };
  if (isLink(folder)) return { refused: 'link', real: realFolder };
  const out: ListedFile[] = [];
  // Each file's path under the folder is built as the walk goes (it is the sort key, and how the
  // file is shown): path.relative per file cost ~5 ms at 500 files.
  // A git repository of its own inside the folder (a submodule): its files change with a commit id.
  let nested: string | null = null;
  const walk = async (dir: string, realDir: string, relDir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    if (entries.some((e) => e.name === '.git')) {
      nested = realDir;
      return;
    }
    for (const entry of entries) {
      if (nested !== null) return;
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const real = path.join(realDir, entry.name);
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (keep(entry.name)) onFolderNamedLikeFile?.(full);
        if (recursive) await walk(full, real, rel);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && keep(entry.name)) {
        out.push({ path: full, real: entry.isSymbolicLink() ? null : real, rel });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        // A link to a folder is no subfolder: walked, its items would be read through the link.
        const leadsTo = recursive && entry.isSymbolicLink() ? linkedFolder(full) : null;
        if (leadsTo !== null) onLinkedFolder?.(full, leadsTo);
        else onSkipped?.(full);
      }
    }
  };
  await walk(folder, realFolder, '');
  if (nested !== null) return { refused: 'repository', real: nested };
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** Where the symbolic link `link` leads when that is a folder; null when it leads to a file or nowhere. */
function linkedFolder(link: string): string | null {
  const real = realPathOrNull(link);
  try {
    return real !== null && statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/**
 * A suite folder not walked: it resolves outside the suite folder, is a link to elsewhere inside it
 * (`real`: where it leads), or holds a git repository of its own, a submodule (`real`: its folder).
 */
interface RefusedFolder {
  refused: 'outside' | 'link' | 'repository';
  real: string;
}

/** The error of a folder not walked (`what`: `the fixtures folder`): where it leads is named only inside the suite folder. */
function refusedFolder(folder: RefusedFolder, shown: string, what: string, root: SuiteRoot): ConfigIssue {
  if (folder.refused === 'outside') return outsideIssue(shown, `${what} ${shown}`, `the suite folder ${root.shown}`, 'folder');
  if (folder.refused === 'link') return linkIssue(shown, `${what} ${shown}`, shownInSuite(folder.real, root.real, root.shown), 'folder');
  return {
    file: shown,
    line: null,
    column: null,
    message: `${what} ${shown} holds a git repository of its own (a submodule) in ${shownInSuite(folder.real, root.real, root.shown)}: refused, nothing was read from it`,
    fix: "copy its files into the suite's own repository: a pull request that moves a submodule to another commit changes its files without their comparison with its base",
  };
}

/**
 * A subfolder of fixtures/ or personas/ that is a symbolic link: refused as a suite file that is
 * one (docs/security.md, "Hostile files"), an error rather than a folder passed over, whose items
 * would silently not run.
 */
function linkedFolderIssue(shown: string, real: string, root: SuiteRoot): ConfigIssue {
  return isInside(root.real, real)
    ? linkIssue(shown, 'the folder', shownInSuite(real, root.real, root.shown), 'folder')
    : outsideIssue(shown, 'the folder', `the suite folder ${root.shown}`, 'folder');
}

/** A file listed in a suite folder, with its path under that folder in forward slashes (`group/refunds.yml`). */
interface ListedFile extends SuiteFileRef {
  rel: string;
}

/** How a listed file is shown (SuitePaths.show, without a path.relative per file): its folder as shown, then its path under it. */
function shownUnder(folderShown: string, ref: ListedFile): string {
  return folderShown === '.' ? ref.rel : `${folderShown}/${ref.rel}`;
}

/** Grouped by file in display order, then by line and column; stable otherwise. */
/**
 * A number split by a comma inside `{ }` (`max: 1,000`), said once where it is written: a check of
 * the part YAML read (`repeat.max 1 is not a whole number from count (3) to 20`, at the same place)
 * is not said beside it, and of the same number said by the YAML syntax check, which knows no
 * setting's range (`1,000,000`: keys written twice), and by the checker with its range
 * (issues.ts, splitNumberIssue), the checker's words, said last, are kept.
 */
function oneSplitNumber(issues: ConfigIssue[]): ConfigIssue[] {
  const place = (i: ConfigIssue): string => `${i.file}:${String(i.line)}:${String(i.column)}`;
  const last = new Map<string, ConfigIssue>();
  for (const i of issues) if (isSplitNumberMessage(i.message)) last.set(place(i), i);
  return issues.filter((i) => !last.has(place(i)) || last.get(place(i)) === i);
}

function sortIssues(issues: ConfigIssue[], fileOrder: string[]): ConfigIssue[] {
  const rank = (file: string): number => {
    const i = fileOrder.indexOf(file);
    return i === -1 ? fileOrder.length : i;
  };
  return issues
    .map((issue, index) => ({ issue, index }))
    .sort(
      (a, b) =>
        rank(a.issue.file) - rank(b.issue.file) ||
        (a.issue.line ?? 0) - (b.issue.line ?? 0) ||
        (a.issue.column ?? 0) - (b.issue.column ?? 0) ||
        a.index - b.index,
    )
    .map((x) => x.issue);
}
