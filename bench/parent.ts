// The parent commit beside this one (docs/performance.md, "How the bench measures"): the bench builds
// the commit before this one (HEAD~1, or BENCH_PARENT=<rev>) from git and measures it in the same
// rounds as this commit, so a change of the machine's load moves both figures alike.
//
// The parent's files come from `git archive` into the bench's temporary folder (nothing is added to
// the repository: no worktree, no ref), its node_modules is a link to this checkout's, and its
// replay child and CLI are bundled by this bench's esbuild bundling from the parent's own sources.
// Whatever fails (no parent in a shallow clone or at the first commit, a parent whose bench files
// do not bundle) is a note and an empty parent column, never a crash of the bench.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';

export interface ParentBuild {
  /** What the column is headed with: "parent 1a2b3c4". */
  label: string;
  /** How to start the parent's replay child (node + args before its own arguments); null: it did not bundle. */
  replayChild: string[] | null;
  /** The parent's CLI bundled as dist/ is; null: it did not bundle. */
  cli: string | null;
  /** What went wrong with a part of the build (the parts that built are still measured). */
  notes: string[];
}

/** Runs git in `root`; its stdout, or null when it fails. */
function git(root: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', () => resolve(null));
    child.on('exit', (code) => resolve(code === 0 ? out.trim() : null));
  });
}

/** `git archive <sha> | tar -x -C <dir>`; throws with what failed. */
function extract(root: string, sha: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn('git', ['archive', '--format=tar', sha], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const tar = spawn('tar', ['-x', '-C', dir], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    archive.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    tar.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    archive.stdout.pipe(tar.stdin);
    archive.on('error', reject);
    tar.on('error', reject);
    tar.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git archive | tar exited ${code}: ${err.trim().slice(0, 300)}`))));
  });
}

/**
 * Builds the parent commit for measuring, or says why not (a string: the note to print). `bundle`
 * is the bench's own bundler, given the parent's folder as the root of the entries.
 */
export async function buildParent(
  root: string,
  work: string,
  rev: string,
  bundle: (base: string, entry: string, outfile: string, options?: { minify?: boolean }) => Promise<string>,
): Promise<ParentBuild | string> {
  const sha = await git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  if (sha === null || sha === '') {
    return `no parent column: ${rev} is not a commit here (a shallow clone or the first commit; fetch more history, or set BENCH_PARENT to a commit, or BENCH_PARENT=0 to skip it)`;
  }
  const dir = path.join(work, 'parent');
  try {
    await mkdir(dir, { recursive: true });
    await extract(root, sha, dir);
    await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  } catch (e) {
    return `no parent column: could not check out ${sha.slice(0, 7)} (${(e as Error).message.split('\n')[0]})`;
  }
  const build: ParentBuild = { label: `parent ${sha.slice(0, 7)}`, replayChild: null, cli: null, notes: [] };
  const entry = (p: string): boolean => existsSync(path.join(dir, p));
  try {
    if (!entry('bench/replay-child.ts')) throw new Error('it has no bench/replay-child.ts');
    build.replayChild = [await bundle(dir, 'bench/replay-child.ts', path.join(work, 'parent-replay-child.mjs'))];
  } catch (e) {
    build.notes.push(`${build.label}: its replay child did not bundle (${(e as Error).message.split('\n')[0]}); no parent figure for the replay`);
  }
  try {
    if (!entry('src/cli.ts')) throw new Error('it has no src/cli.ts');
    build.cli = await bundle(dir, 'src/cli.ts', path.join(work, 'parent-cli.mjs'), { minify: true });
  } catch (e) {
    build.notes.push(`${build.label}: its CLI did not bundle (${(e as Error).message.split('\n')[0]}); no parent figure for the cold start`);
  }
  return build;
}
