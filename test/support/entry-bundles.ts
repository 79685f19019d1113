// Vitest global set-up: bundles the two entries (src/index.ts, the Action; src/cli.ts, the CLI)
// from the current sources with esbuild, into a folder of the set-up cache (setup-cache.ts). Tests
// that run an entry as a child process start `node <bundle>` instead of `node --import tsx <entry>.ts`:
// the same code in the same kind of process (env, cwd, signals, exit code), without tsx compiling and
// resolving a few hundred modules in every child. The committed dist/ is not used here; the tests
// about the shipped bundle (test/dist/, the demo's dist test) run dist/ itself.
//
// The bundles are kept under the hash of what esbuild read to make them (every input file named by
// its metafile, with its content), of the files under src/ (a new file can change what an import
// resolves to), of tsconfig.json, package.json and the installed dependencies' lock, of esbuild's
// version and of the options below: a run whose sources did not change reuses them (esbuild took
// about a second of each run's start), and any change makes new ones.

import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { actionsUndici, BUNDLE_OPTIONS, lazyModules } from '../../scripts/bundle.mjs';
import { cachedEntry, hashOf, keepEntry, newEntryFolder, readCacheFile, writeCacheFile } from './setup-cache.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the bundled src/index.ts (ESM). */
    actionBundle: string;
    /** Absolute path of the bundled src/cli.ts (ESM). */
    cliBundle: string;
  }
}

const ENTRIES = { action: 'src/index.ts', cli: 'src/cli.ts' } as const;

const OPTIONS: BuildOptions = {
  // As scripts/package.mjs builds dist/ (scripts/bundle.mjs): ASCII-only text (decoded on V8's fast
  // path; 87 ms of each Action start decoded the 7 MB bundle's UTF-8 otherwise) and whitespace and
  // syntax minified, names kept for readable stack traces (an Action start 525 -> 391 ms, median of
  // 11); @actions' undici bound to the two modules they use (scripts/actions-undici.mjs); what a
  // start does not use loaded on first use (scripts/lazy/).
  ...BUNDLE_OPTIONS,
  entryPoints: Object.entries(ENTRIES).map(([out, src]) => ({ in: src, out })),
  outExtension: { '.js': '.mjs' },
  target: 'node20',
  logLevel: 'error',
};

/** The files under src/, by name. */
async function sourceNames(): Promise<string[]> {
  return (await readdir('src', { recursive: true })).map((p) => p.split('\\').join('/')).sort();
}

/** The cache key of bundles made from `inputs` (paths as esbuild's metafile gives them) as they are now. */
async function keyOf(setting: string, inputs: readonly string[]): Promise<string> {
  const read = (path: string): Promise<Buffer | string> => readFile(path).catch(() => '\0missing');
  const fixed = await Promise.all(['tsconfig.json', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'].map(read));
  const contents = await Promise.all(inputs.map(read));
  return hashOf([setting, ...fixed, (await sourceNames()).join('\n'), ...inputs.flatMap((path, i) => [path, contents[i] as Buffer | string])]);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The shared options' module is in the key too: its plugin is code, not options JSON.stringify sees.
  const setting = hashOf([createRequire(import.meta.url)('esbuild/package.json').version as string, JSON.stringify(OPTIONS), await readFile('scripts/bundle.mjs')]);
  // The inputs of the last bundles made with these options: when every one of them (and the rest of
  // the key) is as it was, so is the build (an input not among them is reached only through one).
  const indexName = `bundle-inputs-${setting}.json`;
  const lastInputs = await readCacheFile(indexName);
  let dir = lastInputs === null ? null : await cachedEntry('bundles', await keyOf(setting, JSON.parse(lastInputs) as string[]));
  let unkept: string | null = null;
  if (dir === null) {
    const made = await newEntryFolder('bundles');
    const started = Date.now();
    const { build } = await import('esbuild');
    const result = await build({ ...OPTIONS, plugins: [actionsUndici, lazyModules], outdir: made, metafile: true });
    const inputs = Object.keys(result.metafile.inputs).sort();
    // A file saved while esbuild ran may be newer than what it read: these bundles serve this run only.
    const mtimes = await Promise.all(inputs.map((path) => stat(path).then((s) => s.mtimeMs)));
    if (mtimes.some((m) => m >= started - 1000)) {
      dir = unkept = made;
    } else {
      dir = await keepEntry(made, 'bundles', await keyOf(setting, inputs));
      await writeCacheFile(indexName, JSON.stringify(inputs));
    }
  }
  project.provide('actionBundle', join(dir, 'action.mjs'));
  project.provide('cliBundle', join(dir, 'cli.mjs'));
  return async () => {
    if (unkept !== null) await rm(unkept, { recursive: true, force: true });
  };
}
