// The commands the comment gives for a fork's pull request, run for real: in a clone of a
// "fork" (real git, a bare repository as its remote), with a fake `gh` on PATH that serves the
// artifact the accept job uploaded (the staged files, laid out as uploadArtifact(name, paths,
// root) stores them: relative to root) and, like gh, refuses to overwrite an existing file.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkCommands, stageBaselineFiles } from '../../src/action/accept.js';

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
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV }).trim();

interface Setup {
  clone: string;
  origin: string;
  env: NodeJS.ProcessEnv;
  ghLog: string;
  artifacts: string;
}

/** A bare "fork" with branch `branch`, and a clone of it on the default branch. */
async function setUp(branch: string, existing: Record<string, string>): Promise<Setup> {
  const root = await mkdtemp(join(tmpdir(), 'agent-replay-fork-'));
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

function runCommands(s: Setup, commands: string): { code: number; stderr: string } {
  const r = spawnSync('bash', ['-e', '-c', commands], { cwd: s.clone, env: s.env, encoding: 'utf8' });
  return { code: r.status ?? -1, stderr: r.stderr };
}

/** The file as pushed to the fork's branch. */
const pushed = (s: Setup, branch: string, path: string) => git(s.origin, 'show', `refs/heads/${branch}:${path}`);

const files = [
  { path: '.agent-replay/baselines/greeting.json', contents: '{\n  "label": "greeting",\n  "reply": "Welcome!"\n}\n' },
  { path: '.agent-replay/baselines/refund-policy.json', contents: '{\n  "label": "refund-policy",\n  "reply": "It\'s 30 days.\\nAGENT_REPLAY_EOF"\n}\n' },
];

describe('fork instructions, run in a real clone', () => {
  it('downloads the artifact from the base repository and puts every file in the baselines folder, over existing ones', async () => {
    const s = await setUp('feature', { '.agent-replay/baselines/greeting.json': '{"old": true}\n', '.agent-replay/config.yml': 'agent: {}\n' });
    // What the accept job uploads, stored the way the artifact service stores it.
    const staged = await stageBaselineFiles(files);
    const name = 'agent-replay-baselines-1111111111111111111111111111111111111111';
    for (const p of staged.paths) await cp(p, join(s.artifacts, '2002', name, relative(staged.root, p)), { recursive: true });

    const commands = forkCommands({ files, headRef: 'feature', baselinesDir: '.agent-replay/baselines', download: { runId: '2002', repo: 'octo/shop', artifactName: name } });
    expect(commands).toContain(`gh run download 2002 -R 'octo/shop' -n '${name}' -D "$tmp"`);
    const r = runCommands(s, commands);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(s.ghLog, 'utf8')).toContain('-R octo/shop');
    for (const f of files) expect(pushed(s, 'feature', f.path) + '\n').toBe(f.contents);
    expect(git(s.origin, 'log', '-1', '--format=%s', 'refs/heads/feature')).toBe('Accept agent-replay baselines');
    // Nothing else was added: no download folder, no stray files.
    expect(git(s.origin, 'ls-tree', '-r', '--name-only', 'refs/heads/feature').split('\n').sort()).toEqual([
      '.agent-replay/baselines/greeting.json',
      '.agent-replay/baselines/refund-policy.json',
      '.agent-replay/config.yml',
      'README.md',
    ]);
    expect(git(s.clone, 'status', '--porcelain')).toBe('');
  });

  it('creates a missing baselines folder (a custom suite dir) when the files come inline', async () => {
    const s = await setUp("o'brien/fix", { 'suite/agent/config.yml': 'agent: {}\n' });
    const inline = files.map((f) => ({ ...f, path: f.path.replace('.agent-replay', 'suite/agent') }));
    expect(existsSync(join(s.clone, 'suite/agent/baselines'))).toBe(false);
    const commands = forkCommands({ files: inline, headRef: "o'brien/fix", baselinesDir: 'suite/agent/baselines', download: null });
    const r = runCommands(s, commands);
    expect(r.code, r.stderr).toBe(0);
    for (const f of inline) expect(pushed(s, "o'brien/fix", f.path) + '\n').toBe(f.contents);
    expect(readFileSync(s.ghLog, 'utf8')).toBe(''); // gh was not needed
  });

  it('the artifact holds the files flat, named by label', async () => {
    const staged = await stageBaselineFiles(files);
    expect(readdirSync(staged.root).sort()).toEqual(['greeting.json', 'refund-policy.json']);
    expect(staged.paths.map((p) => relative(staged.root, p)).sort()).toEqual(['greeting.json', 'refund-policy.json']);
  });
});

