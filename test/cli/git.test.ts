import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { describe, expect, it } from 'vitest';
import { gitHead } from '../../src/cli/git.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

describe('gitHead reads the commit without spawning git', () => {
  it('agrees with git rev-parse HEAD for a branch, a subfolder, packed refs, a detached HEAD and a worktree', async () => {
    const repo = await tempDir('agent-replay-git-');
    git(repo, 'init', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'one');
    await mkdir(join(repo, 'sub', 'deeper'), { recursive: true });
    expect(await gitHead(join(repo, 'sub', 'deeper'))).toBe(git(repo, 'rev-parse', 'HEAD'));
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'two');
    git(repo, 'pack-refs', '--all');
    expect(await gitHead(repo)).toBe(git(repo, 'rev-parse', 'HEAD'));
    git(repo, 'checkout', '-q', '--detach', 'HEAD~1');
    expect(await gitHead(repo)).toBe(git(repo, 'rev-parse', 'HEAD'));
    git(repo, 'checkout', '-q', 'main');
    const wt = join(await tempDir('agent-replay-git-wt-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    git(wt, 'commit', '-q', '--allow-empty', '-m', 'three');
    expect(await gitHead(wt)).toBe(git(wt, 'rev-parse', 'HEAD'));
    expect(await gitHead(wt)).not.toBe(await gitHead(repo));
  });

  it('is null outside a repository and for a repository with no commits', async () => {
    const empty = await tempDir('agent-replay-nogit-');
    expect(await gitHead(empty)).toBeNull();
    git(empty, 'init', '-q');
    expect(await gitHead(empty)).toBeNull();
  });
});
