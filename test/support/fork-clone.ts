// A "fork" to run the accept flow's fork commands in for real: a bare repository with a branch,
// a clone of it, and a fake `gh` on PATH that serves the artifact the accept job uploaded (stored
// as uploadArtifact(name, paths, root) stores it: relative to root) from the base repository only
// (-R), and, like gh, refuses to overwrite an existing file.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './temp.js';

const FAKE_GH = `#!/bin/bash
set -e
printf '%s\\n' "$*" >> "$FAKE_GH_LOG"
if [ "$1 $2" != "run download" ]; then echo "fake gh: only run download" >&2; exit 2; fi
run="$3"; shift 3
repo=""; name=""; dir="."
while [ $# -gt 0 ]; do
  case "$1" in
    -R) repo="$2"; shift 2;;
    -n) name="$2"; shift 2;;
    -D) dir="$2"; shift 2;;
    *) echo "fake gh: unknown flag $1" >&2; exit 2;;
  esac
done
# Without -R, gh looks in the clone's own repository (the fork), where the run does not exist.
if [ "$repo" != "$FAKE_GH_REPO" ]; then echo "could not find any workflow run with ID $run in \${repo:-the fork}" >&2; exit 1; fi
src="$FAKE_GH_ARTIFACTS/$run/$name"
if [ ! -d "$src" ]; then echo "no artifact matches $name" >&2; exit 1; fi
(cd "$src" && find . -type f) | while read -r f; do
  t="$dir/$f"
  if [ -e "$t" ]; then echo "$t already exists" >&2; exit 1; fi
  mkdir -p "$(dirname "$t")"
  cp "$src/$f" "$t"
done
`;

/** Whoever runs the tests: commits need an identity, and the machine's git config may have none. */
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Fork Owner', GIT_AUTHOR_EMAIL: 'fork@example.com', GIT_COMMITTER_NAME: 'Fork Owner', GIT_COMMITTER_EMAIL: 'fork@example.com' };
export const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();

export interface Setup {
  clone: string;
  origin: string;
  env: NodeJS.ProcessEnv;
  ghLog: string;
  artifacts: string;
}

/**
 * A path as git fast-import reads it: C-quoted when it holds a `"`, a backslash or a control
 * character (a line break), with those and every byte past ASCII written as an escape, as git quotes.
 */
function quotedPath(path: string): string {
  const bytes = [...Buffer.from(path, 'utf8')];
  const plain = (b: number): boolean => b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c;
  if (bytes.every((b) => plain(b) || b >= 0x80)) return path;
  const escaped = bytes.map((b) => (plain(b) ? String.fromCharCode(b) : b === 0x22 || b === 0x5c ? `\\${String.fromCharCode(b)}` : `\\${b.toString(8).padStart(3, '0')}`));
  return `"${escaped.join('')}"`;
}

/**
 * One commit of README.md and `files` on `refs/heads/main` and `refs/heads/<branch>`, as a git
 * fast-import stream: one git process writes it into the bare repository, where a seed repository
 * took four (init, add, commit, push) and the push's own.
 */
function initialCommit(branch: string, files: Record<string, string>): Buffer {
  const all = [['README.md', 'shop\n'], ...Object.entries(files)];
  const data = (text: string): Buffer[] => [Buffer.from(`data ${Buffer.byteLength(text)}\n`), Buffer.from(text), Buffer.from('\n')];
  const who = `Fork Owner <fork@example.com> ${Math.floor(Date.now() / 1000)} +0000`;
  const commit = all.length + 1;
  return Buffer.concat([
    ...all.flatMap(([, text], i) => [Buffer.from(`blob\nmark :${i + 1}\n`), ...data(text!)]),
    Buffer.from(`commit refs/heads/main\nmark :${commit}\nauthor ${who}\ncommitter ${who}\n`),
    ...data('initial\n'),
    Buffer.from(all.map(([path], i) => `M 100644 :${i + 1} ${quotedPath(path!)}\n`).join('')),
    Buffer.from(`\nreset refs/heads/${branch}\nfrom :${commit}\n\n`),
  ]);
}

/**
 * A bare "fork" with branch `branch`, and a clone of it on its default branch, `main` (as a fork's
 * owner clones it, then checks out the pull request's branch). The bare repository's HEAD names
 * `main` (--initial-branch), the branch initialCommit writes: git's own default (`master`, or the
 * machine's init.defaultBranch) is a branch it does not have, and the clone would check nothing out
 * and warn on stderr ("remote HEAD refers to nonexistent ref").
 */
export async function setUpFork(branch: string, existing: Record<string, string>): Promise<Setup> {
  const root = await tempDir('agent-replay-fork-');
  const origin = join(root, 'fork.git');
  git(root, 'init', '-q', '--bare', '--initial-branch=main', origin);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: origin, input: initialCommit(branch, existing), env: GIT_ENV });
  const clone = join(root, 'clone');
  git(root, 'clone', '-q', origin, clone);
  const bin = join(root, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'gh'), FAKE_GH);
  await chmod(join(bin, 'gh'), 0o755);
  const ghLog = join(root, 'gh.log');
  await writeFile(ghLog, '');
  const artifacts = join(root, 'artifacts');
  const env = { ...GIT_ENV, PATH: `${bin}:${process.env.PATH ?? ''}`, FAKE_GH_LOG: ghLog, FAKE_GH_REPO: 'octo/shop', FAKE_GH_ARTIFACTS: artifacts };
  return { clone, origin, env, ghLog, artifacts };
}

export function runCommands(s: Setup, commands: string): { code: number; stderr: string } {
  const r = spawnSync('bash', ['-e', '-c', commands], { cwd: s.clone, env: s.env, encoding: 'utf8' });
  return { code: r.status ?? -1, stderr: r.stderr };
}

/** The file as pushed to the fork's branch. */
export const pushed = (s: Setup, branch: string, path: string) => git(s.origin, 'show', `refs/heads/${branch}:${path}`);
