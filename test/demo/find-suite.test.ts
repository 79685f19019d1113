// Where `agent-replay demo` finds its suite: examples/demo/.agent-replay above its own module, in
// the source tree and in the bundle as dist/ lays it out (scripts/package.mjs: dist/cli.js, the
// demo's code in a chunk under dist/chunks/), never above the script Node started, which under a
// test runner is the runner's, in a node_modules that may be another checkout's (a git worktree
// whose node_modules links to the main checkout). In process: the bundle is imported, not started.

import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLE_OPTIONS } from '../../scripts/bundle.mjs';
import { findDemoSuite } from '../../src/cli/demo.js';
import { tempDir } from '../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the demo suite', () => {
  it('is found beside the module, whatever script Node started', async () => {
    // A runner started from another checkout's node_modules (one with no examples/demo).
    const other = await realpath(await tempDir('agent-replay-other-checkout-'));
    const runner = join(other, 'node_modules', 'vitest', 'vitest.mjs');
    await mkdir(join(other, 'node_modules', 'vitest'), { recursive: true });
    await writeFile(runner, '');
    const started = process.argv[1];
    process.argv[1] = runner;
    try {
      expect(findDemoSuite()).toBe(join(await realpath(ROOT), 'examples', 'demo', '.agent-replay'));
    } finally {
      process.argv[1] = started as string;
    }
  });

  it('is found from the bundle, its code in a chunk under dist/chunks/, the suite beside dist/', { timeout: 60_000 }, async () => {
    const pkg = await realpath(await tempDir('agent-replay-demo-bundle-'));
    await mkdir(join(pkg, 'examples', 'demo', '.agent-replay'), { recursive: true });
    // The CLI's entry imports the demo when the command is run: a chunk, as in dist/.
    await writeFile(join(pkg, 'entry.ts'), `export const demo = () => import(${JSON.stringify(join(ROOT, 'src', 'cli', 'demo.ts'))});\n`);
    // The packages left out of the bundle (a quicker build), read from this checkout's node_modules.
    await symlink(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    const { build } = await import('esbuild');
    const result = await build({ ...BUNDLE_OPTIONS, packages: 'external', entryPoints: [join(pkg, 'entry.ts')], outdir: join(pkg, 'dist'), entryNames: 'cli', chunkNames: 'chunks/[name]-[hash]', target: 'node20', logLevel: 'error', metafile: true });
    expect(Object.keys(result.metafile.outputs).some((o) => /dist\/chunks\/demo-[A-Z0-9]+\.js$/.test(o))).toBe(true);
    const bundled = (await import(pathToFileURL(join(pkg, 'dist', 'cli.js')).href)) as { demo: () => Promise<{ findDemoSuite: () => string }> };
    expect((await bundled.demo()).findDemoSuite()).toBe(join(pkg, 'examples', 'demo', '.agent-replay'));
  });
});
