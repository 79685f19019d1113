// Whether the pull request edits the suite it is checked by (docs/action.md, "The PR comment",
// "Suite edited"): fixtures and persona scripts whose checks it changed or removed, those it deleted, baselines it
// changed in a commit other than an accept commit, and the files that run the check (the workflows,
// the local actions they use, the files their steps name). Everything is read from GitHub, at the two
// commits GitHub names (the pull request's base and the replayed head): nothing in the head's
// files can say what the base was.

import { posix } from 'node:path';
import type { ComparedCommit, GitHubApi } from '../github/api.js';
import type { ActionContext, PullContext } from './context.js';
import { gitHubFailure } from './github-words.js';
import type { BaselineEdit, SuiteEdits, WorkflowEdit } from '../types.js';
import { fixtureEdits, type ChangedFixtureFile } from '../suite/edits.js';
import { configEdits, type ChangedConfigFile } from '../suite/config-edits.js';
import { CONFIG_NAMES } from '../suite/index.js';
import { COMMIT_HEADLINE } from './accept.js';
import { sameButStyle } from '../accept/file-style.js';
import { plural, thousands } from '../words.js';
import { readYaml, withYamlPackage } from '../suite/yaml/index.js';
import { actionFolders, inFolder, workflowNamed, type StepsNamed } from './workflow-runs.js';

/** GitHub's comparison lists at most 300 files: with that many, some may be left out. */
const MAX_LISTED_FILES = 300;
/**
 * The most changed files with checks compared (fixture files and persona scripts alike): a bound on
 * the requests, two a file (its text at the base and at the head). Counted by file, never by side:
 * a file read at the base and not at the head would list all its items as deleted.
 */
export const MAX_SUITE_FILES = 50;
/**
 * The most baselines changed outside an accept commit that are read at both commits (two requests
 * each) to tell a file only re-saved with other line endings or a byte-order mark, which is no
 * edit; past them each is listed as edited, as any other.
 */
const MAX_RESTYLED_READ = 20;
/** The most runs of accept and other commits told apart (a request each). */
const MAX_SEGMENTS = 20;
/**
 * The most pull requests of one deployed commit compared with their bases (deployment_status): each
 * comparison is up to about 340 requests (the comparison, two a changed file, two a baseline
 * changed outside an accept commit for the first MAX_RESTYLED_READ, the runs of commits, and for an
 * accept run after a hand edit of its baselines a comparison with the base and up to MAX_RESTYLED_READ
 * baselines read at both, the workflows and local actions read at both commits).
 */
export const MAX_PULLS_COMPARED = 10;

/**
 * A commit that the accept flow made: its message is the accept commit's, and GitHub says the
 * token's own identity (the account this check comments as) made it and signed it, as
 * `createCommitOnBranch` does. A message alone is not enough: anyone can write one.
 */
export function isAcceptCommit(c: ComparedCommit, viewer: string | null): boolean {
  return viewer !== null && c.author === viewer && c.verified === true && hasAcceptMessage(c);
}

function hasAcceptMessage(c: ComparedCommit): boolean {
  return c.message.startsWith(COMMIT_HEADLINE) && /\n\nAccepted the replies recorded at [0-9a-f]{40} \(/.test(c.message);
}

/**
 * A file of the repository's workflows (`.github/workflows/`) or of an action kept beside them
 * (`.github/actions/`): it decides what the check runs and with which inputs, none of which the
 * record holds (docs/action.md, "Suite edited").
 */
export function isWorkflowFile(path: string): boolean {
  return path.startsWith('.github/workflows/') || path.startsWith('.github/actions/');
}

/** The most workflow files read at each commit for what they run (a request each). */
export const MAX_WORKFLOWS_READ = 40;
/** The most local actions read at each commit for what they run (up to two requests each). */
export const MAX_ACTIONS_READ = 10;

/**
 * A file outside `.github/` that a workflow runs (workflow-runs.ts): one of a local action's
 * (`dir`, `.` for `uses: ./`; its action.yml and the files in `folders`), or a file a `run:` step
 * runs. `by`: the workflow (or composite action) that uses or names it.
 */
type RunRule = { kind: 'action'; dir: string; folders: string[]; by: string } | { kind: 'script'; path: string; by: string };

/** The values of a workflow or action.yml as YAML reads them; undefined when it does not read. */
async function yamlValues(path: string, text: string): Promise<unknown> {
  // As GitHub reads a workflow: anchors and aliases, and a `<<` as an ordinary key, not a merge
  // (docs/action.md, "Suite edited").
  return withYamlPackage(() => readYaml(path, text, { mergeKeys: 'ordinary' }).data);
}

/** What the workflows at one commit run (runRules): the rules, the files that did not read and why, and the caps reached. */
interface RunsAt {
  rules: RunRule[];
  unread: Map<string, string>;
  notes: string[];
}

/**
 * What the workflows at `ref` run from the repository (RunRule): their local actions (those an
 * action uses in turn included) and the files their `run:` steps run. What could not be read is
 * returned to be said, never taken as running nothing.
 */
async function runRules(github: GitHubApi, at: { owner: string; repo: string }, ref: string, side: string): Promise<RunsAt> {
  const out: RunsAt = { rules: [], unread: new Map(), notes: [] };
  const folder = await github.getContent(at.owner, at.repo, '.github/workflows', ref);
  if (folder?.kind !== 'folder') return out;
  const files = folder.entries.filter((e) => e.type === 'file' && /\.ya?ml$/i.test(e.name)).map((e) => e.path).sort();
  if (files.length > MAX_WORKFLOWS_READ) {
    out.notes.push(`${thousands(files.length)} workflow files at the ${side}: the first ${thousands(MAX_WORKFLOWS_READ)} were read for the local actions and files they run, ${plural(files.length - MAX_WORKFLOWS_READ, 'the other was', 'the others were')} not`);
  }
  const actions: { dir: string; by: string }[] = [];
  const named = (by: string, n: StepsNamed): void => {
    for (const dir of n.actions) if (!actions.some((a) => a.dir === dir)) actions.push({ dir, by });
    for (const path of n.paths) out.rules.push({ kind: 'script', path, by });
  };
  /** The values of a file read, or undefined with why it was not (said in the block). */
  const values = async (path: string, text: string | null): Promise<unknown> => {
    const data = text === null ? undefined : await yamlValues(path, text);
    if (data === undefined) out.unread.set(path, text === null ? 'is over 1 MB (GitHub gives no text of a file that large)' : 'does not read as YAML');
    return data;
  };
  const texts = await Promise.all(files.slice(0, MAX_WORKFLOWS_READ).map(async (path) => ({ path, file: await github.getContent(at.owner, at.repo, path, ref) })));
  for (const { path, file } of texts) {
    if (file?.kind !== 'file') continue;
    const data = await values(path, file.text);
    if (data !== undefined) named(path, workflowNamed(data));
  }
  // Each local action once, those a composite action uses after it, up to MAX_ACTIONS_READ.
  for (let i = 0; i < actions.length; i++) {
    const { dir, by } = actions[i] as { dir: string; by: string };
    if (i >= MAX_ACTIONS_READ) {
      out.notes.push(`the workflows at the ${side} use ${thousands(actions.length)} local actions: the first ${thousands(MAX_ACTIONS_READ)} were read for what they run, ${plural(actions.length - MAX_ACTIONS_READ, 'the other was', 'the others were')} not`);
      break;
    }
    let read = false;
    for (const name of ['action.yml', 'action.yaml']) {
      const path = dir === '.' ? name : `${dir}/${name}`;
      const file = await github.getContent(at.owner, at.repo, path, ref);
      if (file?.kind !== 'file') continue;
      read = true;
      const inner: StepsNamed = { actions: [], paths: [] };
      out.rules.push({ kind: 'action', dir, folders: actionFolders(dir, await values(path, file.text), inner), by });
      named(path, inner);
      break;
    }
    // No action.yml at this commit: its folder all the same, as a workflow that uses it would fail on any of its files.
    if (!read) out.rules.push({ kind: 'action', dir, folders: [dir], by });
  }
  return out;
}

/**
 * What could not be read of the workflows and local actions at both commits, for the block:
 * `.github/workflows/x.yml at the base and at the head does not read as YAML, so ...`; then the caps reached.
 */
function runsUnknown(base: RunsAt, head: RunsAt): string[] {
  const paths = [...new Set([...base.unread.keys(), ...head.unread.keys()])].sort();
  const lines = paths.map((path) => {
    const [b, h] = [base.unread.get(path), head.unread.get(path)];
    const sides = b !== undefined && h !== undefined && b === h ? [`at the base and at the head ${b}`] : [b === undefined ? null : `at the base ${b}`, h === undefined ? null : `at the head ${h}`].filter((x): x is string => x !== null);
    return `${path} ${sides.join(' and ')}, so the local actions and files it runs were not looked for`;
  });
  return [...lines, ...base.notes, ...head.notes];
}

/** The rule by which a workflow runs `path`, or null: a local action's action.yml or a file in its folders, a file a `run:` step runs. */
function ruleFor(rules: readonly RunRule[], path: string): RunRule | null {
  return rules.find((r) =>
    r.kind === 'script'
      ? r.path === path
      : path === (r.dir === '.' ? 'action.yml' : `${r.dir}/action.yml`) || path === (r.dir === '.' ? 'action.yaml' : `${r.dir}/action.yaml`) || r.folders.some((f) => inFolder(path, f)),
  ) ?? null;
}

/** The suite folder's path in the repository (`.` or `apps/a/.agent-replay`), or null when it is outside. */
export function suiteRepoPath(suitePath: string | undefined, dirInput: string): string | null {
  if (suitePath !== undefined) return suitePath;
  const dir = posix.normalize(dirInput.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (dir === '' || dir.startsWith('/') || dir === '..' || dir.startsWith('../')) return null;
  return dir;
}

/**
 * The suite edits between `base` (the pull request's base commit) and `head`, or null when the pull
 * request changed nothing of them. `viewer`: the token's login, which made the accept commits, asked
 * only when a changed baseline may come from one. `maxFiles`: MAX_SUITE_FILES (a test gives fewer).
 */
export async function suiteEditsFor(
  github: GitHubApi,
  at: { owner: string; repo: string },
  base: string,
  head: string,
  suiteDir: string,
  viewer: () => Promise<string | null>,
  maxFiles = MAX_SUITE_FILES,
): Promise<SuiteEdits | null> {
  const { owner, repo } = at;
  const c = await github.compareCommits(owner, repo, base, head);
  const from = c.mergeBase ?? base;
  const prefix = suiteDir === '.' ? '' : `${suiteDir}/`;
  // Fixture files and persona script files (docs/personas.md): both hold checks.
  const kindOf = (p: string): 'fixture' | 'persona' | null =>
    !/\.ya?ml$/i.test(p) ? null : p.startsWith(`${prefix}fixtures/`) ? 'fixture' : p.startsWith(`${prefix}personas/`) ? 'persona' : null;
  const isItemFile = (p: string): boolean => kindOf(p) !== null;
  const isBaseline = (p: string): boolean => p.startsWith(`${prefix}baselines/`) && p.endsWith('.json');
  const unknown: string[] = [];
  if (c.files.length >= MAX_LISTED_FILES) unknown.push(`GitHub lists only the first ${thousands(MAX_LISTED_FILES)} files this pull request changes`);

  // Fixtures and scripts: the changed files' texts at the base and at the head, compared by label.
  const changedFiles: { path: string; at: string }[][] = [];
  for (const f of c.files) {
    const sides: { path: string; at: string }[] = [];
    if (f.status !== 'added' && isItemFile(f.previous ?? f.path)) sides.push({ path: f.previous ?? f.path, at: from });
    if (f.status !== 'removed' && isItemFile(f.path)) sides.push({ path: f.path, at: head });
    if (sides.length > 0) changedFiles.push(sides);
  }
  const left = changedFiles.length - maxFiles;
  if (left > 0) unknown.push(`this pull request changes ${thousands(changedFiles.length)} fixture and persona files: the first ${thousands(maxFiles)} were compared, ${plural(left, 'other was', 'others were')} not`);
  // A side GitHub gives no text of (a file over 1 MB) is there all the same: its file is not compared, and said, never read as deleted.
  const texts = await Promise.all(changedFiles.slice(0, maxFiles).map((sides) => Promise.all(sides.map(async (s) => {
    const file = await github.getContent(owner, repo, s.path, s.at);
    return { ...s, there: file?.kind === 'file', text: file?.kind === 'file' ? file.text : null };
  }))));
  const large = texts.filter((sides) => sides.some((s) => s.there && s.text === null));
  if (large.length > 0) {
    // Each by its path at the head (at the base when it was removed).
    const paths = large.map((sides) => (sides[sides.length - 1] as { path: string }).path);
    unknown.push(`${plural(large.length, 'fixture or persona file is', 'fixture and persona files are')} over 1 MB (GitHub gives no text of a file that large), so the items in ${large.length === 1 ? 'it' : 'them'} were not compared: ${paths.join(', ')}`);
  }
  const files: ChangedFixtureFile[] = texts.filter((sides) => !large.includes(sides)).flat().map((s) => ({
    path: s.path,
    kind: kindOf(s.path) ?? 'fixture',
    before: s.at === from ? s.text : null,
    after: s.at === head ? s.text : null,
  }));
  const fixtures = await fixtureEdits(files);

  // config.yml (else config.yaml) at both commits, when the pull request changed either: its
  // settings that change what is replayed or how verdicts are reached.
  const configPaths = CONFIG_NAMES.map((n) => `${prefix}${n}`);
  const config = c.files.some((f) => configPaths.includes(f.path) || (f.previous !== undefined && configPaths.includes(f.previous)))
    ? await configEdits(await configSides(github, at, configPaths, from, head))
    : [];

  // What the workflows run from outside `.github/` (their local actions, the files their `run:` steps
  // run), read at both commits when a changed file could be one of them: a file of neither the
  // suite nor the workflows.
  const isSuiteFile = (p: string): boolean => isItemFile(p) || isBaseline(p) || configPaths.includes(p);
  const outside = (p: string | undefined): boolean => p !== undefined && !isSuiteFile(p) && !isWorkflowFile(p);
  let rulesRead: Promise<RunRule[]> | null = null;
  const rules = (): Promise<RunRule[]> =>
    (rulesRead ??= Promise.all([runRules(github, at, from, 'base'), runRules(github, at, head, 'head')]).then(([a, b]) => {
      unknown.push(...runsUnknown(a, b));
      return [...a.rules, ...b.rules];
    }));
  /** Whether a workflow runs a changed file outside `.github/`: a file of a local action it uses, a path a step names. */
  const runs = async (p: string | undefined): Promise<boolean> => outside(p) && ruleFor(await rules(), p as string) !== null;

  // Baselines: each changed one, made by an accept commit or not. Runs of accept commits and of
  // other commits are compared one by one, so that a hand edit under a later acceptance of
  // another baseline is still seen; the last run that touched a file decides, unless it is an
  // accept run after a hand edit of that file (below).
  const changedBaselines = c.files.filter((f) => isBaseline(f.path) || (f.previous !== undefined && isBaseline(f.previous)));
  /**
   * Which of `paths` differ at `commit` from the base, other than in line endings and byte-order mark
   * (read for the first MAX_RESTYLED_READ of all calls; all of them when GitHub may not list every file).
   */
  let restyleReads = MAX_RESTYLED_READ;
  const editedSince = async (paths: readonly string[], commit: string): Promise<Set<string>> => {
    if (paths.length === 0) return new Set();
    const since = await github.compareCommits(owner, repo, from, commit);
    if (since.files.length >= MAX_LISTED_FILES) return new Set(paths);
    const changed = since.files.filter((f) => paths.includes(f.path) || (f.previous !== undefined && paths.includes(f.previous)));
    const read = changed.filter((f) => f.status === 'modified').slice(0, restyleReads).map((f) => f.path);
    restyleReads -= read.length;
    const restyled = await restyledBaselines(github, at, read, from, commit);
    return new Set(changed.filter((f) => !restyled.has(f.path)).flatMap((f) => [f.path, f.previous]).filter((p): p is string => p !== undefined));
  };
  const madeBy = new Map<string, 'accept' | 'other'>();
  if (changedBaselines.length > 0) {
    const complete = c.commits.length === c.totalCommits;
    if (!complete) unknown.push(`GitHub lists only ${thousands(c.commits.length)} of the ${thousands(c.totalCommits)} commits, so no baseline is taken as made by an accept commit`);
    const login = complete && c.commits.some(hasAcceptMessage) ? await viewer() : null;
    const accepts = c.commits.map((k) => complete && isAcceptCommit(k, login));
    if (accepts.some(Boolean)) {
      let prev = from;
      let segments = 0;
      // A workflow changed before an accept commit could have made it: a workflow's token commits as
      // the same identity, so no later commit is taken as the accept flow's (said in the block).
      let workflowBefore: string | null = null;
      let distrusted = false;
      for (let i = 0; i < c.commits.length; ) {
        let j = i;
        while (j + 1 < c.commits.length && accepts[j + 1] === accepts[i]) j++;
        const end = (c.commits[j] as ComparedCommit).sha;
        if (++segments > MAX_SEGMENTS) {
          unknown.push(`more than ${thousands(MAX_SEGMENTS)} runs of accept and other commits, so the later ones are not told apart`);
          break;
        }
        const seg = await github.compareCommits(owner, repo, prev, end);
        // An accept commit writes baselines and nothing else: one that touched another file is not ours.
        const ours = accepts[i] === true && workflowBefore === null && seg.files.every((f) => isBaseline(f.path) && f.status !== 'renamed');
        if (accepts[i] === true && workflowBefore !== null && !distrusted && seg.files.some((f) => isBaseline(f.path))) {
          unknown.push(`a commit before an accept commit changed ${workflowBefore}, and a workflow can commit as the accept flow does, so the baselines of the accept commits after it are listed as edited`);
          distrusted = true;
        }
        if (accepts[i] !== true && workflowBefore === null) {
          for (const f of seg.files) {
            if (workflowBefore !== null) break;
            const workflow = isWorkflowFile(f.path) || (f.previous !== undefined && isWorkflowFile(f.previous));
            if (workflow) workflowBefore = f.path;
            else if ((await runs(f.path)) || (await runs(f.previous))) workflowBefore = `${f.path} (which a workflow runs)`;
          }
        }
        const touched = seg.files.flatMap((f) => [f.path, f.previous]).filter((p): p is string => p !== undefined && isBaseline(p));
        // An accept commit that rewrites a baseline edited by hand before it keeps that edit's reply
        // when it accepts a rewording (as the previous reply, a variant: docs/meaning.md, "Variants"),
        // so the baseline stays the hand edit's unless the edit was undone before the accept commit.
        const kept = ours ? await editedSince(touched.filter((p) => madeBy.get(p) === 'other'), prev) : new Set<string>();
        for (const p of touched) madeBy.set(p, ours && !kept.has(p) ? 'accept' : 'other');
        prev = end;
        i = j + 1;
      }
    }
  }
  const outsideAccepts = changedBaselines.filter((f) => madeBy.get(f.path) !== 'accept');
  // A baseline whose text changed only in its line endings or byte-order mark (a Windows editor
  // re-saved it, a repository renormalized) reads as it did: no edit (docs/action.md, "Suite edited").
  const restyled = await restyledBaselines(github, at, outsideAccepts.filter((f) => f.status === 'modified').slice(0, MAX_RESTYLED_READ).map((f) => f.path), from, head);
  const baselines: BaselineEdit[] = outsideAccepts.filter((f) => !restyled.has(f.path)).map((f) => ({ file: f.path, status: f.status }));
  // The workflows: what runs the check, with which inputs (fail-on, repeat, the judge), and, for a
  // fork's pull request, the run whose records a workflow_run report comments with.
  // The local actions they use and the files their steps name: each with what uses or names it.
  const workflows: WorkflowEdit[] = [];
  const found = c.files.some((f) => outside(f.path) || outside(f.previous)) ? await rules() : [];
  for (const f of c.files) {
    if (isWorkflowFile(f.path) || (f.previous !== undefined && isWorkflowFile(f.previous))) {
      workflows.push({ file: f.path, status: f.status });
      continue;
    }
    const rule = [f.path, f.previous].filter(outside).map((p) => ruleFor(found, p as string)).find((r) => r !== null) ?? null;
    if (rule !== null) workflows.push({ file: f.path, status: f.status, ...(rule.kind === 'action' ? { action: rule.dir === '.' ? './' : `./${rule.dir}` } : {}), by: rule.by });
  }
  workflows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  if (fixtures.length === 0 && config.length === 0 && baselines.length === 0 && workflows.length === 0 && unknown.length === 0) return null;
  return {
    base: from,
    fixtures,
    ...(config.length > 0 ? { config } : {}),
    baselines,
    ...(workflows.length > 0 ? { workflows } : {}),
    unknown: unknown.length > 0 ? `${unknown.join('; ')}.` : null,
  };
}

/** Of the baseline files at `paths`, those whose text at `head` is the one at `base` but for its line endings and byte-order mark. */
async function restyledBaselines(github: GitHubApi, at: { owner: string; repo: string }, paths: readonly string[], base: string, head: string): Promise<Set<string>> {
  const text = async (path: string, ref: string): Promise<string | null> => {
    const file = await github.getContent(at.owner, at.repo, path, ref);
    return file?.kind === 'file' ? file.text : null;
  };
  const same = await Promise.all(paths.map(async (path) => {
    const [was, now] = await Promise.all([text(path, base), text(path, head)]);
    return was !== null && now !== null && sameButStyle(was, now);
  }));
  return new Set(paths.filter((_, i) => same[i]));
}

/**
 * The config file read at each commit (config.yml, else config.yaml, as the suite loads it): its
 * path and text (null: GitHub gave none, as for a file over 1 MB: said, never read as no file), or null.
 */
async function configSides(github: GitHubApi, at: { owner: string; repo: string }, paths: readonly string[], from: string, head: string): Promise<ChangedConfigFile> {
  const side = async (ref: string): Promise<{ path: string; text: string | null } | null> => {
    const texts = await Promise.all(paths.map(async (path): Promise<{ path: string; text: string | null } | null> => {
      const file = await github.getContent(at.owner, at.repo, path, ref);
      return file?.kind === 'file' ? { path, text: file.text } : null;
    }));
    return texts.find((t) => t !== null) ?? null;
  };
  const [before, after] = await Promise.all([side(from), side(head)]);
  return { before, after };
}

/**
 * The pull requests of a deployed commit whose suite edits are compared: the first `max` (in the
 * order they are commented on). `note`, when some are left out: what the log says, and `left(pull)`
 * the block a left-out pull request's comment shows instead (null without a base to name).
 */
export function pullsCompared(
  pulls: readonly PullContext[],
  max = MAX_PULLS_COMPARED,
): { compared: (pull: PullContext) => boolean; note: string | null; left: (pull: PullContext) => SuiteEdits | null } {
  const first = new Set(pulls.slice(0, max).map((p) => p.number));
  const others = pulls.filter((p) => !first.has(p.number)).map((p) => `#${p.number}`);
  const head = `the deployed commit is the head of ${thousands(pulls.length)} open pull requests, and the suite edits of the first ${thousands(max)} only are compared with their bases`;
  return {
    compared: (pull) => first.has(pull.number),
    note: others.length === 0 ? null : `${head}; not ${others.join(', ')}`,
    left: (pull) => (pull.baseSha === null ? null : { base: pull.baseSha, fixtures: [], baselines: [], unknown: `${head}: this pull request's were not compared.` }),
  };
}

/**
 * What the pull request changed in the suite it is checked by, against its base (docs/action.md,
 * "The PR comment", "Suite edited"); null without a token to ask with (`comment: false` asks GitHub
 * nothing), outside a pull request, or when it changed nothing of it. GitHub not answering is
 * `warn`ed and said in the block, never taken as "nothing changed".
 */
export async function pullSuiteEdits(
  gh: GitHubApi | null,
  at: Pick<ActionContext, 'owner' | 'repo' | 'sha'>,
  pull: PullContext | null,
  suiteDir: string | null,
  warn: (line: string) => void,
): Promise<SuiteEdits | null> {
  if (gh === null || pull === null || pull.baseSha === null || at.sha === null || suiteDir === null) return null;
  try {
    return await suiteEditsFor(gh, at, pull.baseSha, at.sha, suiteDir, () => gh.viewerLogin());
  } catch (e) {
    const why = gitHubFailure(e, 'contents: read');
    warn(`suite edits: not compared with the base ${pull.baseSha.slice(0, 7)}: ${why}`);
    return { base: pull.baseSha, fixtures: [], baselines: [], unknown: `the pull request could not be compared with its base: ${why}.` };
  }
}

/** A run's suite edits: the record's, and each pull request comment's. */
export interface RunSuiteEdits {
  /**
   * The run's (results.json, the job summary, report.html): its one pull request's edits. Null
   * with several pull requests (a deployed commit: each has its own base), with none, or when
   * nothing of the suite changed.
   */
  run: SuiteEdits | null;
  /** What the log says when some of several pull requests are not compared (pullsCompared); null otherwise. */
  note: string | null;
  /** The block of a pull request's comment: with several, its own (compared, or said not compared); otherwise the run's. */
  forPull: (pull: PullContext) => Promise<SuiteEdits | null>;
}

/**
 * The suite edits of a run at `at.sha` for its pull requests (`pulls`; `at.pull`, the event's, first
 * when it has one), as check and report modes show them (docs/action.md, "The PR comment", "Suite
 * edited"). `gh` null (`comment: false`, or no token) asks GitHub nothing: none. With several pull
 * requests the first `max` are compared, each when its comment is written; the others' comments say
 * theirs were not.
 */
export async function runSuiteEdits(
  gh: GitHubApi | null,
  at: Pick<ActionContext, 'owner' | 'repo' | 'sha' | 'pull'>,
  pulls: readonly PullContext[],
  suiteDir: string | null,
  warn: (line: string) => void,
  max = MAX_PULLS_COMPARED,
): Promise<RunSuiteEdits> {
  const several = pulls.length > 1;
  // Each comparison is many requests: a commit that heads many pull requests compares the first few (log and comments say so).
  const comparing = pullsCompared(pulls, max);
  const canCompare = gh !== null && suiteDir !== null && at.sha !== null;
  const run = several ? null : await pullSuiteEdits(gh, at, at.pull ?? pulls[0] ?? null, suiteDir, warn);
  return {
    run,
    note: several && canCompare ? comparing.note : null,
    forPull: async (pull) => {
      if (!several) return run;
      if (comparing.compared(pull)) return pullSuiteEdits(gh, at, pull, suiteDir, warn);
      return canCompare ? comparing.left(pull) : null;
    },
  };
}
