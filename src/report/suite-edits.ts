// What a pull request changed in the suite it is checked by (docs/action.md, "The PR comment",
// "Suite edited"), in the same words on every surface: the comment and the job summary (blocks.ts),
// the terminal (terminal.ts) and report.html (html.ts). Each surface gives `code`, which shows one
// piece of the pull request's text (a label, a file, a check) escaped its own way; the words around
// them are ours and need no escape. `unknown` comes back as it is recorded, for each surface to escape.

import type { BaselineEdit, ConfigEdit, FixtureEdit, SuiteEdits, WorkflowEdit } from '../types.js';
import { LIMITS } from './item-parts.js';
import { listWords, plural, thousands } from '../words.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

/** The most fixtures, scripts and baselines named in each group; the rest are counted. */
export const SUITE_EDITS_SHOWN = 20;

/** The title on a pull request (the Action's comparison); a `run --base` record has its own (suiteEditsParts). */
export const SUITE_EDITS_TITLE = 'This pull request edits the suite';

/** The title on a pull request that changed its workflows and nothing of the suite. */
export const WORKFLOWS_EDITED_TITLE = 'This pull request edits the workflows that run the check';

/** The title on one that changed a local action a workflow uses, or a file a step runs, and nothing of the suite. */
export const RUNS_EDITED_TITLE = 'This pull request edits what runs the check';

/** The title when nothing was found but not everything could be compared (GitHub did not answer, a cap): nothing said to be edited. */
export const SUITE_EDITS_UNKNOWN_TITLE = 'Not known whether this pull request edits the suite';

/**
 * One group of the block: its head (`2 fixture checks changed or removed`), its lines without a
 * bullet, and a note after them that is not one of the things counted in the head (config.yml's
 * inputs that win over its settings).
 */
export interface SuiteEditsGroup {
  head: string;
  lines: string[];
  note?: string;
}

export interface SuiteEditsParts {
  /**
   * `This pull request edits the suite`; from git (the CLI's `run --base main`): `This checkout edits
   * the suite, against main`. With no edit found and not everything compared: `Not known whether
   * this pull request edits the suite` (`... this checkout ...`).
   */
  title: string;
  /** `These results were measured against the suite as this pull request changes it, compared with its base <sha>.` */
  intro: string;
  groups: SuiteEditsGroup[];
  /** Why not everything could be compared, as recorded (unescaped); null when everything was. */
  unknown: string | null;
}

/** `code(text, max)`: the pull request's text, clipped to `max` and escaped for the surface. */
export type CodeOf = (text: string, max: number) => string;

function fixtureLine(f: FixtureEdit, code: CodeOf, configName: string): string {
  const check = (words: string | null): string => (words === null ? 'none (a probe)' : code(words, LIMITS.detail));
  const label = code(f.label, LIMITS.label);
  const file = code(f.file, LIMITS.file);
  // What it replays (a fixture's message, a script's opening...), and its own repeat: fixtures and scripts alike.
  if (f.change === 'script') {
    const part = (words: string | null): string => (words === null ? 'nothing' : code(words, LIMITS.detail));
    if (f.before === null) return `${label} in ${file}: replays ${part(f.after)} now too`;
    if (f.after === null) return `${label} in ${file}: replays ${part(f.before)} no more`;
    return `${label} in ${file}: replayed ${part(f.before)} is now ${part(f.after)}`;
  }
  if (f.change === 'repeat') {
    const repeat = (words: string | null): string => (words === null ? `${configName}'s repeat (none of its own)` : code(words, LIMITS.detail));
    return `${label} in ${file}: ${repeat(f.before)} is now ${repeat(f.after)}`;
  }
  if (f.kind === 'persona') {
    if (f.change === 'deleted') return `${label} deleted from ${file}; its checks were ${f.before === null ? 'none' : code(f.before, LIMITS.detail)}`;
    if (f.before === null) return `${label} in ${file}: check ${check(f.after)} added`;
    if (f.after === null) return `${label} in ${file}: check ${check(f.before)} removed`;
    return `${label} in ${file}: check ${check(f.before)} is now ${check(f.after)}`;
  }
  return f.change === 'deleted' ? `${label} deleted from ${file}; its check was ${check(f.before)}` : `${label} in ${file}: check ${check(f.before)} is now ${check(f.after)}`;
}

/** What changed of a group's items: `checks changed or removed`, `what is replayed changed`, `checks, what is replayed or repeat changed`. */
function whatChanged(items: readonly FixtureEdit[]): string {
  const parts = [
    items.some((f) => f.change === 'assertion' || f.change === 'deleted') ? 'checks' : null,
    items.some((f) => f.change === 'script') ? 'what is replayed' : null,
    items.some((f) => f.change === 'repeat') ? 'repeat' : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 1 && parts[0] === 'checks') return 'checks changed or removed';
  return `${listWords(parts, 'or')} changed`;
}

/**
 * A setting of config.yml, old -> new (`judge.model` in `.agent-replay/config.yml`: `"gpt-4o"` is
 * now `"gpt-4o-mini"`), a side that does not write it read as its default (`0.05` (the default));
 * a credential only said changed; a file not compared on one side (it does not read, it is over
 * 1 MB), why.
 */
function configLine(c: ConfigEdit, code: CodeOf): string {
  const file = code(c.file, LIMITS.file);
  if (c.change === 'unreadable' || c.setting === null) {
    // Our own words (`does not read as YAML (line 3)`), kept to letters, digits and brackets: a record read back may hold anything.
    const why = (text: string | null): string | null => (text === null ? null : text.replace(/[^A-Za-z0-9 ()]/g, '').slice(0, 80));
    const sides = [why(c.before), why(c.after)].map((w, i) => (w === null ? null : `at the ${i === 0 ? 'base' : 'head'} ${w}`)).filter((w) => w !== null);
    return `${file} ${sides.length === 0 ? 'does not read' : sides.join(' and ')}: its settings were not compared`;
  }
  const setting = code(c.setting, LIMITS.label);
  if (c.change === 'secret') {
    const what = c.before === null ? 'set now' : c.after === null ? 'no longer set' : 'changed';
    return `${setting} in ${file}: ${what} (a credential: its value is not shown)`;
  }
  const value = (words: string | null, side: 'before' | 'after'): string => {
    const byDefault = c.default === side || c.default === 'both' ? ' (the default)' : '';
    return words === null ? `not set${byDefault}` : `${code(words, LIMITS.detail)}${byDefault}`;
  };
  return `${setting} in ${file}: ${value(c.before, 'before')} is now ${value(c.after, 'after')}`;
}

/**
 * The Action's inputs (action.yml) and the CLI's flags that set a setting of config.yml for the
 * run they are given to, over the file's value. Not compared: the block says so beside an edit of
 * one of these settings (docs/action.md, "Suite edited").
 */
const OVERRIDDEN_BY: readonly { setting: string; inputs: readonly string[]; flags: readonly string[] }[] = [
  { setting: 'agent.url', inputs: ['agent-url', 'agent-path'], flags: ['--agent-url'] },
  { setting: 'agent.headers', inputs: ['agent-headers'], flags: [] },
  { setting: 'judge.provider', inputs: ['judge-provider'], flags: [] },
  { setting: 'judge.baseUrl', inputs: ['judge-base-url'], flags: ['--judge-url'] },
  { setting: 'judge.model', inputs: ['judge-model'], flags: [] },
  { setting: 'judge.apiKey', inputs: ['judge-api-key'], flags: [] },
  { setting: 'repeat.count', inputs: ['repeat'], flags: ['--repeat'] },
  { setting: 'repeat.max', inputs: ['repeat-max'], flags: ['--repeat-max'] },
];

/**
 * The line after config.yml's settings when an edited one can be set by an input of the step (a
 * flag, from git): `An input of the workflow step sets its setting over config.yml when a step
 * gives it (judge-model over judge.model); ...`; null when none can.
 */
function overriddenLine(config: readonly ConfigEdit[], git: boolean, code: CodeOf, configName: string): string | null {
  const edited = config.map((c) => c.setting).filter((s): s is string => s !== null);
  const over = OVERRIDDEN_BY.filter((o) => (git ? o.flags : o.inputs).length > 0 && edited.some((s) => s === o.setting || s.startsWith(`${o.setting}.`)));
  if (over.length === 0) return null;
  const names = over.map((o) => `${(git ? o.flags : o.inputs).map((n) => code(n, LIMITS.label)).join(' or ')} over ${code(o.setting, LIMITS.label)}`);
  // Whether this run's step (or command) gave one is not recorded: said as the rule it is, not as what this run did.
  const file = code(configName, LIMITS.file);
  return git
    ? `A flag of the command sets its setting over ${file} when a command gives it (${names.join(', ')}); the run does not record its flags, and flags are not compared.`
    : `An input of the workflow step sets its setting over ${file} when a step gives it (${names.join(', ')}); the run does not record its step's inputs, and inputs are not compared.`;
}

/** A file's change as GitHub lists it, in words: `deleted`, `added`, `renamed`, `changed`. */
function didWords(status: string): string {
  return status === 'removed' ? 'deleted' : status === 'added' ? 'added' : status === 'renamed' ? 'renamed' : 'changed';
}

function baselineLine(b: BaselineEdit, code: CodeOf, git: boolean): string {
  return `${code(b.file, LIMITS.file)} ${didWords(b.status)} ${git ? 'since the base' : 'by a commit that is not an accept commit'}`;
}

/**
 * The head of the files that run the check: `2 workflow files changed: ...`; with local actions'
 * files and files steps name, each kind counted (`4 files that run the check (1 workflow file, 2 files of
 * local actions, 1 file a step names) changed: ...`). Each says what such a file can do that is not
 * compared: the inputs, and the suite and agent's address a step rewrites before the check reads them
 * (docs/security.md, "A pull request that edits its own check").
 */
function workflowsHead(workflows: readonly WorkflowEdit[], code: CodeOf, configName: string): string {
  const inputs = `(${code('fail-on', LIMITS.label)}, ${code('repeat', LIMITS.label)}, the judge)`;
  // The comparison reads the suite from GitHub: a step that rewrites the checked-out copy (or exports another agent's address) is not seen by it.
  const rewrite = `rewrite the checked-out suite (fixtures, baselines, ${code(configName, LIMITS.file)}) or the agent's address before the check reads them`;
  const files = workflows.filter((w) => w.by === undefined).length;
  const actions = workflows.filter((w) => w.action !== undefined).length;
  const scripts = workflows.length - files - actions;
  if (actions === 0 && scripts === 0) {
    return `${plural(files, 'workflow file', 'workflow files')} changed: a workflow decides what the check runs and with which inputs ${inputs}, and its steps can ${rewrite}, none of which is compared, and a run of a workflow a pull request changed can write any results`;
  }
  const kinds = [
    files > 0 ? plural(files, 'workflow file', 'workflow files') : null,
    actions > 0 ? plural(actions, 'file of a local action', 'files of local actions') : null,
    scripts > 0 ? plural(scripts, 'file a step names', 'files steps name') : null,
  ].filter((k): k is string => k !== null);
  const they = workflows.length === 1 ? 'it' : 'they';
  const what = kinds.length === 1 ? kinds[0] : `${plural(workflows.length, 'file that runs the check', 'files that run the check')} (${kinds.join(', ')})`;
  return `${what} changed: ${they} can change what the check runs and with which inputs ${inputs}, and ${rewrite}, none of which is compared, and can write any results`;
}

/**
 * A file that runs the check: `.github/workflows/x.yml changed`; `tools/replay/index.js changed, a
 * file of the local action ./tools/replay, which .github/workflows/x.yml uses`; `scripts/setup.sh
 * changed, named by a run: step of .github/workflows/x.yml`.
 */
function workflowLine(w: WorkflowEdit, code: CodeOf): string {
  const file = `${code(w.file, LIMITS.file)} ${didWords(w.status)}`;
  if (w.by === undefined) return file;
  const by = code(w.by, LIMITS.file);
  if (w.action === undefined) return `${file}, named by a ${code('run:', LIMITS.label)} step of ${by}`;
  // `uses: ./`: the repository is the action.
  const action = w.action === './' ? `this repository's own action (${code('./', LIMITS.file)})` : `the local action ${code(w.action, LIMITS.file)}`;
  return `${file}, a file of ${action}, which ${by} uses`;
}

function shown<T>(items: readonly T[], line: (x: T) => string): string[] {
  return [
    ...items.slice(0, SUITE_EDITS_SHOWN).map(line),
    ...(items.length > SUITE_EDITS_SHOWN ? [`… and ${thousands(items.length - SUITE_EDITS_SHOWN)} more (results.json lists them all)`] : []),
  ];
}

/** The block's parts, in its order: fixtures, persona scripts, config.yml, baselines, workflows; then why not everything was compared. */
export function suiteEditsParts(e: SuiteEdits, code: CodeOf, configName: string = NEW_CONFIG_NAME): SuiteEditsParts {
  const fixtures = e.fixtures.filter((f) => f.kind !== 'persona');
  const scripts = e.fixtures.filter((f) => f.kind === 'persona');
  const groups: SuiteEditsGroup[] = [];
  // From git (the CLI's --base) no commit is known to be an accept commit: every changed baseline is listed, and said so.
  const git = e.source === 'git';
  if (fixtures.length > 0) {
    // Checks alone: one line a fixture, counted as checks (`2 fixture checks changed or removed`).
    const head = fixtures.every((f) => f.change === 'assertion' || f.change === 'deleted')
      ? `${plural(fixtures.length, 'fixture check', 'fixture checks')} changed or removed`
      : `${plural(new Set(fixtures.map((f) => f.label)).size, 'fixture', 'fixtures')} with ${whatChanged(fixtures)}`;
    groups.push({ head, lines: shown(fixtures, (f) => fixtureLine(f, code, configName)) });
  }
  if (scripts.length > 0) {
    // A script can have several lines (its checks, what it replays, its repeat): counted once.
    const count = new Set(scripts.map((f) => f.label)).size;
    groups.push({ head: `${plural(count, 'persona script', 'persona scripts')} with ${whatChanged(scripts)}`, lines: shown(scripts, (f) => fixtureLine(f, code, configName)) });
  }
  const config = e.config ?? [];
  if (config.length > 0) {
    // config.yml's settings apply to every item: another judge model or repeat is another verdict for all.
    const name = code(config[0]!.file.split('/').pop() ?? config[0]!.file, LIMITS.file);
    const head = config.every((c) => c.change === 'unreadable')
      ? `${name} not compared`
      : `${plural(config.filter((c) => c.change !== 'unreadable').length, 'setting', 'settings')} of ${name} changed (every item's replay or verdict can differ)`;
    const over = overriddenLine(config, git, code, configName);
    groups.push({ head, lines: shown(config, (c) => configLine(c, code)), ...(over === null ? {} : { note: over }) });
  }
  if (e.baselines.length > 0) {
    const head = git
      ? `${plural(e.baselines.length, 'baseline', 'baselines')} changed since the base (git cannot tell an accept commit apart: baselines accepted on this branch are listed too)`
      : `${plural(e.baselines.length, 'baseline', 'baselines')} edited outside an accept commit`;
    groups.push({ head, lines: shown(e.baselines, (b) => baselineLine(b, code, git)) });
  }
  const workflows = e.workflows ?? [];
  if (workflows.length > 0) {
    // The inputs and steps of the run are not recorded: a changed workflow is said, never compared.
    groups.push({ head: workflowsHead(workflows, code, configName), lines: shown(workflows, (w) => workflowLine(w, code)) });
  }
  const base = code(e.base.slice(0, 7), LIMITS.ref);
  // From git there is no pull request: the checkout (its working tree) is compared with the revision given to --base.
  const rev = e.rev === undefined ? null : code(e.rev, LIMITS.ref);
  const against = rev === null ? base : `${rev} (${base})`;
  if (groups.length === 0) {
    // Nothing found, and not everything compared (or nothing at all): no title saying it edits the suite.
    return {
      title: !git ? SUITE_EDITS_UNKNOWN_TITLE : `Not known whether this checkout edits the suite${rev === null ? '' : `, against ${rev}`}`,
      intro: !git
        ? `These results were measured against the suite as this pull request changes it; no edit was found in what could be compared with its base ${base}.`
        : `These results were measured against the suite as this checkout has it (uncommitted and untracked files included); no edit was found in what could be compared with ${against}.`,
      groups,
      unknown: e.unknown,
    };
  }
  const onlyWorkflows = groups.length === 1 && workflows.length > 0;
  return {
    title: !git ? (onlyWorkflows ? (workflows.every((w) => w.by === undefined) ? WORKFLOWS_EDITED_TITLE : RUNS_EDITED_TITLE) : SUITE_EDITS_TITLE) : `This checkout edits the suite${rev === null ? '' : `, against ${rev}`}`,
    intro: git
      ? `These results were measured against the suite as this checkout has it (uncommitted and untracked files included), compared with ${against}.`
      : onlyWorkflows
        ? `These results were measured by the check as this pull request changes what runs it, compared with its base ${base}.`
        : `These results were measured against the suite as this pull request changes it, compared with its base ${base}.`,
    groups,
    unknown: e.unknown,
  };
}
