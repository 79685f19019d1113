// Temporary folders made by the test helpers, removed when the test file that made them is done.
//
// The workers run their files in one module graph (vitest.config.ts, `isolate: false`): a helper
// module is evaluated once per worker, so a hook it registers at its top level runs for the first
// file that imports it and for no other, and the folders the other files made stayed in the system's
// temporary folder (about 350 a run). The removal is registered by a setup file instead
// (test/support/temp-setup.ts), which vitest runs for every test file.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new folder in the system's temporary folder, removed after the current test file. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder made by tempDir so far (the setup file's afterAll). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
