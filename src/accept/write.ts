// Writes accepted baselines: one file per fixture, stable key order, trailing newline, and never a
// path outside the baselines folder (baselinePath refuses any label that would escape it).

import { mkdir, writeFile, rename } from 'node:fs/promises';
import type { Baseline } from '../types.js';
import { baselinePath, serializeBaseline } from '../suite/index.js';

/** Returns the written paths, in the order given. */
export async function writeBaselines(baselinesDir: string, baselines: readonly Baseline[]): Promise<string[]> {
  const paths = baselines.map((b) => baselinePath(baselinesDir, b.label)); // validate all before writing any
  if (baselines.length > 0) await mkdir(baselinesDir, { recursive: true });
  for (const [i, b] of baselines.entries()) {
    const path = paths[i] as string;
    const tmp = `${path}.tmp`;
    await writeFile(tmp, serializeBaseline(b), 'utf8');
    await rename(tmp, path);
  }
  return paths;
}
