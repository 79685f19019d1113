import { promises as fs } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/temp.js';
import { loadSuite, type ConfigIssue, type ConfigOverrides, type LoadResult } from '../../src/suite/index.js';

/** A temporary repository holding `files` (paths relative to it), removed after the test file; returns its path. */
export async function repo(files: Record<string, string>): Promise<string> {
  const root = await tempDir('agent-replay-suite-');
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
  }
  return root;
}

export async function load(
  files: Record<string, string>,
  opts: { env?: Record<string, string | undefined>; overrides?: ConfigOverrides; dir?: string; untrustedSuite?: string } = {},
): Promise<LoadResult & { cwd: string }> {
  const cwd = await repo(files);
  const result = await loadSuite({ dir: opts.dir ?? '.agent-replay', cwd, env: opts.env ?? {}, overrides: opts.overrides, untrustedSuite: opts.untrustedSuite ?? null });
  return { ...result, cwd };
}

/** `file:line: message` for compact assertions. */
export function brief(issues: ConfigIssue[]): string[] {
  return issues.map((i) => `${i.file}:${i.line ?? '-'}: ${i.message}`);
}

export const F = '.agent-replay/fixtures';
export const C = '.agent-replay/config.yml';
export const B = '.agent-replay/baselines';
export const OK_FIXTURE = 'label: ok\nmessage: hi\n';
