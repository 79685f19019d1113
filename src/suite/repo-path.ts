// Where a suite folder is in its repository: results.json records it (`suitePath`), so that accept
// matches a run to the suite it ran by path, never by the folder's name alone, which two suites of
// one repository can share (`apps/a/.agent-replay`, `apps/b/.agent-replay`: docs/results-json.md).

import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The suite folder's repository: its root and the suite folder from there, a POSIX path (`.` for the root itself). */
export interface RepoPath {
  root: string;
  path: string;
}

/**
 * The nearest folder from `suiteDir` up that holds `.git` (a folder, or the file of a worktree or
 * a submodule), and the suite folder relative to it; null outside a repository.
 */
export async function repoPathOf(suiteDir: string): Promise<RepoPath | null> {
  const abs = resolve(suiteDir);
  let dir = abs;
  for (;;) {
    try {
      await stat(join(dir, '.git'));
      return { root: dir, path: relative(dir, abs).split(sep).join('/') || '.' };
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  }
}

