// Vitest global set-up: bundles the two entries (src/index.ts, the Action; src/cli.ts, the CLI)
// from the current sources once per test run, with esbuild, into a temp folder. Tests that run an
// entry as a child process start `node <bundle>` instead of `node --import tsx <entry>.ts`: the same
// code in the same kind of process (env, cwd, signals, exit code), without tsx compiling and
// resolving a few hundred modules in every child. The committed dist/ is not used here; the
// tests about the shipped bundle (test/dist/, the demo's dist test) run dist/ itself.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the bundled src/index.ts (ESM). */
    actionBundle: string;
    /** Absolute path of the bundled src/cli.ts (ESM). */
    cliBundle: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-replay-test-bundles-'));
  const entries = { action: 'src/index.ts', cli: 'src/cli.ts' } as const;
  await build({
    entryPoints: Object.entries(entries).map(([out, src]) => ({ in: src, out })),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    // As scripts/package.mjs leaves dist/: ASCII-only text (decoded on V8's fast path; 87 ms of each
    // Action start decoded the 7 MB bundle's UTF-8 otherwise) and whitespace and syntax minified,
    // names kept for readable stack traces: an Action start 525 -> 391 ms (median of 11).
    charset: 'ascii',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'error',
    // Bundled CommonJS dependencies call require(): give the ESM chunks one.
    banner: { js: "import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);" },
  });
  project.provide('actionBundle', join(dir, 'action.mjs'));
  project.provide('cliBundle', join(dir, 'cli.mjs'));
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
