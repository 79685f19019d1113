// The commit of the working tree, read from .git without spawning git (a process spawn is a
// noticeable part of a short run). Handles a worktree or submodule `.git` file, a symbolic HEAD,
// loose and packed refs, and a detached HEAD. Anything unexpected: null (the commit is optional).

import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const SHA = /^[0-9a-f]{40}$/;

async function gitDirOf(start: string): Promise<string | null> {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, '.git');
    try {
      const s = await stat(candidate);
      if (s.isDirectory()) return candidate;
      const text = await readFile(candidate, 'utf8');
      const m = /^gitdir: (.+)$/m.exec(text);
      if (m) return isAbsolute(m[1] as string) ? (m[1] as string).trim() : resolve(dir, (m[1] as string).trim());
      return null;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  }
}

async function readRef(gitDir: string, ref: string): Promise<string | null> {
  // A worktree keeps HEAD locally and shares refs with the main repository (commondir).
  const dirs = [gitDir];
  try {
    const common = (await readFile(join(gitDir, 'commondir'), 'utf8')).trim();
    dirs.push(resolve(gitDir, common));
  } catch {
    /* not a worktree */
  }
  for (const dir of dirs) {
    try {
      const sha = (await readFile(join(dir, ref), 'utf8')).trim();
      if (SHA.test(sha)) return sha;
    } catch {
      /* not a loose ref here */
    }
    try {
      const packed = await readFile(join(dir, 'packed-refs'), 'utf8');
      for (const line of packed.split('\n')) {
        const [sha, name] = line.split(' ');
        if (name === ref && sha && SHA.test(sha)) return sha;
      }
    } catch {
      /* no packed refs */
    }
  }
  return null;
}

export async function gitHead(cwd: string): Promise<string | null> {
  try {
    const gitDir = await gitDirOf(cwd);
    if (gitDir === null) return null;
    const head = (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim();
    if (SHA.test(head)) return head;
    const m = /^ref: (refs\/\S+)$/.exec(head);
    return m ? await readRef(gitDir, m[1] as string) : null;
  } catch {
    return null;
  }
}
