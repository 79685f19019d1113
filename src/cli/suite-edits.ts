// `run --base REV` (docs/cli.md, "What each command does"): what the working tree changed in the
// suite since REV, as the Action says it of a pull request (docs/action.md, "The PR comment",
// "Suite edited"). Read with git, never by a checkout: the changed paths from `git diff` of the
// merge base against the working tree (and the untracked files), the base's side of each fixture
// and persona file from `git cat-file`, the working tree's side from the files themselves.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaselineEdit, ConfigEdit, SuiteEdits } from '../types.js';
import { fixtureEdits, type ChangedFixtureFile } from '../suite/edits.js';
import { configEdits } from '../suite/config-edits.js';
import { CONFIG_NAMES } from '../suite/index.js';
import { UsageError } from '../engine.js';
import { runGit } from '../git-command.js';
import { sameButStyle } from '../accept/file-style.js';
import { shownShellWord, terminalLine } from '../words.js';

/**
 * What `run --base` compares with: the repository's root, the suite folder in it (`.agent-replay/`,
 * `''` at the root), the commit REV names, and the environment git runs with (the CLI's io.env).
 */
export interface GitBase {
  root: string;
  prefix: string;
  rev: string;
  sha: string;
  env: Record<string, string | undefined>;
}

/** git's own words for a failed command: its stderr's first line, or the error's message. */
function gitWords(e: unknown): string {
  const err = e as { stderr?: Buffer | string; message?: string; code?: unknown };
  if (err.code === 'ENOENT') return 'git is not installed (or not on PATH)';
  const text = (Buffer.isBuffer(err.stderr) ? err.stderr.toString('utf8') : (err.stderr ?? '')).trim().split('\n')[0];
  return text || String(err.message ?? e);
}

/**
 * Checks `--base REV` before anything is sent: git runs, the suite folder is in a repository, and
 * REV names a commit there. A usage error that says which and what to do otherwise.
 */
export async function resolveBase(rev: string, suiteDir: string, env: Record<string, string | undefined>): Promise<GitBase> {
  const git = (cwd: string, args: readonly string[]): Promise<Buffer> => runGit(cwd, args, { env });
  if (rev.startsWith('-')) throw new UsageError(`--base ${shownShellWord(rev)}: a revision does not start with "-": give a branch, tag or commit (--base main)`);
  let top: string;
  try {
    top = (await git(suiteDir, ['rev-parse', '--show-toplevel', '--show-prefix'])).toString('utf8');
  } catch (e) {
    // The folder and git's words (which may quote it) on the message's one line (terminalLine).
    const why = terminalLine(gitWords(e));
    throw new UsageError(`--base ${shownShellWord(rev)}: the suite folder ${terminalLine(suiteDir)} is not read with git (${why}): --base compares the suite with a git revision, so run in a git repository or leave --base out`);
  }
  const [root = '', prefix = ''] = top.split('\n');
  let sha: string;
  try {
    sha = (await git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).toString('utf8').trim();
  } catch {
    sha = '';
  }
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) {
    throw new UsageError(`--base ${shownShellWord(rev)}: no commit of that name in the repository at ${terminalLine(root)} (git rev-parse ${shownShellWord(rev)}): give a branch, tag or commit it has, e.g. fetch it first (git fetch origin main, then --base origin/main)`);
  }
  return { root, prefix, rev, sha, env };
}

/** One changed path: git's status letter, the path, and the path before a rename or copy. */
interface Changed {
  status: string;
  path: string;
  previous?: string;
}

/** `git diff --name-status -z` of the merge base against the working tree. */
function parseNameStatus(out: Buffer): Changed[] {
  const parts = out.toString('utf8').split('\0');
  const rows: Changed[] = [];
  for (let i = 0; i + 1 < parts.length; ) {
    const letter = (parts[i] as string).charAt(0);
    if (letter === 'R' || letter === 'C') {
      rows.push({ status: letter, previous: parts[i + 1] as string, path: parts[i + 2] as string });
      i += 3;
    } else {
      rows.push({ status: letter, path: parts[i + 1] as string });
      i += 2;
    }
  }
  return rows;
}

/** GitHub's words for a change (the Action records these): added, modified, removed, renamed. */
function statusWord(letter: string): string {
  return letter === 'A' || letter === 'C' ? 'added' : letter === 'D' ? 'removed' : letter === 'R' ? 'renamed' : 'modified';
}

/** The blobs `rev:path` of each path, by one `git cat-file --batch`; null for a path not there. */
async function blobsAt(root: string, sha: string, paths: readonly string[], env: Record<string, string | undefined>): Promise<(string | null)[]> {
  if (paths.length === 0) return [];
  const out = await runGit(root, ['cat-file', '--batch'], { env, input: Buffer.from(paths.map((p) => `${sha}:${p}\n`).join('')) });
  const texts: (string | null)[] = [];
  let at = 0;
  for (let i = 0; i < paths.length; i++) {
    const end = out.indexOf(0x0a, at);
    const header = out.subarray(at, end).toString('utf8');
    at = end + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (m === null) {
      texts.push(null); // "<name> missing", or not a blob
      continue;
    }
    const size = Number(m[2]);
    texts.push(m[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : null);
    at += size + 1;
  }
  return texts;
}

/**
 * The suite edits of the working tree since the merge base of `base` and HEAD (REV itself when
 * they have none), or null when nothing of the suite changed. Every changed baseline is listed:
 * git cannot say who made a commit, so no accept commit is told apart (`source: 'git'`). A git
 * that fails here is said in `unknown`, never taken as "nothing changed".
 */
export async function gitSuiteEdits(base: GitBase): Promise<SuiteEdits | null> {
  const { root, prefix } = base;
  const git = (cwd: string, args: readonly string[]): Promise<Buffer> => runGit(cwd, args, { env: base.env });
  let from = base.sha;
  try {
    from = (await git(root, ['merge-base', base.sha, 'HEAD'])).toString('utf8').trim() || base.sha;
  } catch {
    // No common history (or no HEAD yet): compared with REV itself, as GitHub compares with the base.
  }
  try {
    const configPaths = CONFIG_NAMES.map((n) => `${prefix}${n}`);
    const folders = [...['fixtures', 'personas', 'baselines'].map((f) => `${prefix}${f}`), ...configPaths];
    const diff = parseNameStatus(await git(root, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', from, '--', ...folders]));
    const untracked = (await git(root, ['ls-files', '-z', '--others', '--exclude-standard', '--', ...folders])).toString('utf8').split('\0').filter((p) => p !== '');
    const changed: Changed[] = [...diff, ...untracked.map((path) => ({ status: 'A', path }))];
    const kindOf = (p: string): 'fixture' | 'persona' | null =>
      !/\.ya?ml$/i.test(p) ? null : p.startsWith(`${prefix}fixtures/`) ? 'fixture' : p.startsWith(`${prefix}personas/`) ? 'persona' : null;
    const isBaseline = (p: string): boolean => p.startsWith(`${prefix}baselines/`) && p.endsWith('.json');

    // Fixtures and scripts: each changed file's text at the base (git) and in the working tree.
    const sides: ({ path: string; at: 'base' } | { path: string; at: 'head' })[] = [];
    for (const f of changed) {
      const was = f.previous ?? f.path;
      if (f.status !== 'A' && f.status !== 'C' && kindOf(was) !== null) sides.push({ path: was, at: 'base' });
      if (f.status !== 'D' && kindOf(f.path) !== null) sides.push({ path: f.path, at: 'head' });
    }
    const baseTexts = await blobsAt(root, from, sides.filter((s) => s.at === 'base').map((s) => s.path), base.env);
    let b = 0;
    const files: ChangedFixtureFile[] = [];
    for (const s of sides) {
      const text = s.at === 'base' ? (baseTexts[b++] ?? null) : await readFile(join(root, ...s.path.split('/')), 'utf8').catch(() => null);
      files.push({ path: s.path, kind: kindOf(s.path) ?? 'fixture', before: s.at === 'base' ? text : null, after: s.at === 'head' ? text : null });
    }
    const fixtures = await fixtureEdits(files);
    // config.yml (else config.yaml) at the base and in the working tree, when either changed.
    let config: ConfigEdit[] = [];
    if (changed.some((f) => configPaths.includes(f.path) || (f.previous !== undefined && configPaths.includes(f.previous)))) {
      const wasTexts = await blobsAt(root, from, configPaths, base.env);
      const nowTexts = await Promise.all(configPaths.map((p) => readFile(join(root, ...p.split('/')), 'utf8').catch(() => null)));
      const side = (texts: readonly (string | null)[]): { path: string; text: string } | null => {
        const i = texts.findIndex((t) => t !== null);
        return i < 0 ? null : { path: configPaths[i] as string, text: texts[i] as string };
      };
      config = await configEdits({ before: side(wasTexts), after: side(nowTexts) });
    }
    const changedBaselines = changed.filter((f) => isBaseline(f.path) || (f.previous !== undefined && isBaseline(f.previous)));
    // A baseline whose text changed only in its line endings or byte-order mark (re-saved by a Windows
    // editor, in a checkout without core.autocrlf) reads as it did: no edit.
    const modified = changedBaselines.filter((f) => f.status === 'M');
    const was = await blobsAt(root, from, modified.map((f) => f.path), base.env);
    const now = await Promise.all(modified.map((f) => readFile(join(root, ...f.path.split('/')), 'utf8').catch(() => null)));
    const restyled = new Set(modified.filter((_, i) => was[i] != null && now[i] != null && sameButStyle(was[i] as string, now[i] as string)));
    const baselines: BaselineEdit[] = changedBaselines.filter((f) => !restyled.has(f)).map((f) => ({ file: f.path, status: statusWord(f.status) }));
    if (fixtures.length === 0 && config.length === 0 && baselines.length === 0) return null;
    return { base: from, fixtures, ...(config.length > 0 ? { config } : {}), baselines, unknown: null, source: 'git', rev: base.rev };
  } catch (e) {
    return { base: from, fixtures: [], baselines: [], unknown: `the working tree could not be compared with ${base.rev} (${from.slice(0, 7)}): ${gitWords(e)}.`, source: 'git', rev: base.rev };
  }
}
