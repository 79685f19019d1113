// The CLI's entry turns on Node's compile cache (Node 22.1 and later) where the CLI is likely to
// start again, and leaves it off in CI, where a first start would pay for writing it
// (docs/performance.md, "2026-12-03: the compile cache"). The cache goes to the temp folder: each
// case gives the real CLI process its own (TMPDIR) and looks at what it left there.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/**
 * `agent-replay --version` in a child process whose temp folder is `tmp` (a new empty one by
 * default); the files the cache left there, and stderr (Node's own account of the cache with
 * NODE_DEBUG_NATIVE=COMPILE_CACHE).
 */
async function versionWith(
  env: Record<string, string>,
  tmp?: string,
): Promise<{ status: number | null; stdout: string; stderr: string; cached: string[]; tmp: string }> {
  const dir = tmp ?? (await mkdtemp(join(tmpdir(), 'agent-replay-compile-cache-')));
  if (tmp === undefined) dirs.push(dir);
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: dir };
  const r = spawnSync(process.execPath, [CLI, '--version'], { env: { ...base, ...env }, encoding: 'utf8' });
  const cacheDir = join(dir, 'node-compile-cache');
  const cached = existsSync(cacheDir) ? await readdir(cacheDir, { recursive: true }) : [];
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, cached, tmp: dir };
}

describe.runIf(hasCompileCache)(`on a Node with a compile cache (${process.version})`, () => {
  it('a start outside CI leaves the compiled code in the temp folder, and a second start reads it', async () => {
    const first = await versionWith({});
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    // A folder per Node version, holding a file per module compiled.
    expect(first.cached.length).toBeGreaterThan(2);
    const second = await versionWith({ NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, first.tmp);
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // The module with the CLI's own code (src/cli/process.ts and what it imports) came from the cache.
    expect(second.stderr).toMatch(/V8 code cache for ESM file:\/\/\S*\/process-\S+\.mjs was accepted/);
  });

  it('in CI (CI=true, as GitHub Actions sets it) nothing is written', async () => {
    const r = await versionWith({ CI: 'true' });
    expect(r.status).toBe(0);
    expect(r.cached).toEqual([]);
  });

  it('CI=false counts as not in CI; NODE_DISABLE_COMPILE_CACHE=1 turns it off anywhere', async () => {
    expect((await versionWith({ CI: 'false' })).cached.length).toBeGreaterThan(2);
    const off = await versionWith({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.status).toBe(0);
    expect(off.cached).toEqual([]);
  });
});

describe.skipIf(hasCompileCache)(`on a Node without a compile cache (${process.version})`, () => {
  it('the CLI starts as before and writes nothing to the temp folder', async () => {
    const r = await versionWith({});
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(r.cached).toEqual([]);
  });
});
