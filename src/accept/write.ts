// Writes accepted baselines: one file per fixture or persona script, stable key order, trailing newline, and never a
// path outside the baselines folder: baselinePath refuses any label that would escape it, the
// baselines folder must really be inside the suite folder (not a link to elsewhere), and each file
// is written through an exclusively created temporary file renamed over the target, so a link
// planted at `<label>.json` (or anywhere else in the folder) is replaced, never written through.

import path from 'node:path';
import { writeFileSafely } from '../fs-safe.js';
import type { Baseline, PersonaBaseline } from '../types.js';
import { baselinePath, serializeBaseline } from '../suite/index.js';

/** Returns the written paths, in the order given. `suiteDir` defaults to the folder holding `baselinesDir`. */
export async function writeBaselines(baselinesDir: string, baselines: readonly (Baseline | PersonaBaseline)[], suiteDir = path.dirname(path.resolve(baselinesDir))): Promise<string[]> {
  const paths = baselines.map((b) => baselinePath(baselinesDir, b.label)); // validate all before writing any
  for (const [i, b] of baselines.entries()) {
    await writeFileSafely(paths[i] as string, serializeBaseline(b), { within: suiteDir });
  }
  return paths;
}
