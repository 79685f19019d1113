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

/** A bare "fork" with branch `branch`, and a clone of it on the default branch. */
export async function setUpFork(branch: string, existing: Record<string, string>): Promise<Setup> {
  const root = await tempDir('agent-replay-fork-');
  const origin = join(root, 'fork.git');
  const seed = join(root, 'seed');
  git(root, 'init', '-q', '--bare', origin);
  git(root, 'init', '-q', '-b', 'main', seed);
  await writeFile(join(seed, 'README.md'), 'shop\n');
  for (const [path, text] of Object.entries(existing)) {
    await mkdir(join(seed, path, '..'), { recursive: true });
    await writeFile(join(seed, path), text);
  }
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'initial');
  git(seed, 'push', '-q', origin, `main:refs/heads/${branch}`, 'main:refs/heads/main');
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
