// How the report.html tests find a browser (test/support/browser.ts; docs/contributing.md, "Tests"):
// the lookup order over real files in a temp dir, the list of browser test files kept equal to the
// files that launch one, and a real vitest run of a browser test file without a browser: skipped
// with one line and green, or failed when AGENT_REPLAY_REQUIRE_BROWSER=1.

import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_FILES, findChromium } from '../support/browser.js';

const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'agent-replay-browser-'));
  temps.push(d);
  return d;
}

async function exe(path: string, mode = 0o755): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '#!/bin/sh\n');
  await chmod(path, mode);
  return path;
}

describe('findChromium', () => {
  it('looks on PATH, then in Playwright\'s and Puppeteer\'s caches; a file that is not executable does not count', async () => {
    const home = await tempDir();
    const bin = join(home, 'bin');
    const env = (over: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ PATH: bin, ...over });
    expect(findChromium(env({}), home)).toMatchObject({ found: false, looked: expect.stringContaining('chromium, chromium-browser, google-chrome') });

    const puppeteer = await exe(join(home, '.cache/puppeteer/chrome/linux-131.0.6778.204/chrome-linux64/chrome'));
    expect(findChromium(env({}), home)).toEqual({ found: true, path: puppeteer, source: 'Puppeteer' });

    await exe(join(home, '.cache/ms-playwright/chromium-999/chrome-linux64/chrome'));
    const newest = await exe(join(home, '.cache/ms-playwright/chromium-1255/chrome-linux64/chrome'));
    expect(findChromium(env({}), home)).toEqual({ found: true, path: newest, source: 'Playwright' });
    const shell = await exe(join(home, 'pw/chromium_headless_shell-1255/chrome-headless-shell-linux64/chrome-headless-shell'));
    expect(findChromium(env({ PLAYWRIGHT_BROWSERS_PATH: join(home, 'pw') }), home)).toEqual({ found: true, path: shell, source: 'Playwright' });

    await exe(join(bin, 'chromium'), 0o644);
    expect(findChromium(env({}), home)).toMatchObject({ source: 'Playwright' });
    const onPath = await exe(join(bin, 'google-chrome'));
    expect(findChromium(env({}), home)).toEqual({ found: true, path: onPath, source: 'PATH' });
  });

  it('AGENT_REPLAY_CHROMIUM wins, and when it points nowhere nothing else is tried', async () => {
    const home = await tempDir();
    const onPath = await exe(join(home, 'bin', 'chromium'));
    const mine = await exe(join(home, 'my-chrome'));
    expect(findChromium({ PATH: dirname(onPath), AGENT_REPLAY_CHROMIUM: mine }, home)).toEqual({ found: true, path: mine, source: 'AGENT_REPLAY_CHROMIUM' });
    expect(findChromium({ PATH: dirname(onPath), AGENT_REPLAY_CHROMIUM: join(home, 'nowhere') }, home)).toEqual({
      found: false,
      looked: `AGENT_REPLAY_CHROMIUM=${join(home, 'nowhere')} (no executable there)`,
    });
  });

  it('BROWSER_TEST_FILES names every test file that launches a browser', async () => {
    const files: string[] = [];
    for (const entry of await readdir('test', { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.test.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      if (path.startsWith(join('test', 'frameworks'))) continue;
      if (/import \{[^}]*\blaunchChromium\b[^}]*\} from/.test(await readFile(path, 'utf8'))) files.push(path.split('\\').join('/'));
    }
    expect(files.sort()).toEqual([...BROWSER_TEST_FILES].sort());
  });
});

interface VitestRun {
  code: number;
  stdout: string;
}

/** A real `vitest run FILE` in a child process, without this run's vitest variables. */
function vitest(file: string, env: NodeJS.ProcessEnv): Promise<VitestRun> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'AGENT_REPLAY_REQUIRE_BROWSER' && k !== 'AGENT_REPLAY_CHROMIUM'));
  return new Promise((resolve) => {
    execFile(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', file, '--reporter=default'], { env: { ...clean, NO_COLOR: '1', ...env }, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: stdout + stderr }),
    );
  });
}

describe('a run without a browser', () => {
  const nowhere = join(tmpdir(), 'agent-replay-no-such-chromium');

  it('skips the browser tests with one line saying which and how to run them, and passes', { timeout: 120_000 }, async () => {
    const run = await vitest('test/report/latency-views.test.ts', { AGENT_REPLAY_CHROMIUM: nowhere });
    expect(run.code, run.stdout).toBe(0);
    const lines = run.stdout.split('\n').filter((l) => l.includes('browser tests skipped'));
    expect(lines).toEqual([
      `report.html browser tests skipped (no headless Chromium: looked for AGENT_REPLAY_CHROMIUM=${nowhere} (no executable there)): ${BROWSER_TEST_FILES.join(', ')}. To run them: apt-get install -y chromium (Debian/Ubuntu), or AGENT_REPLAY_CHROMIUM=/path/to/chrome, or a browser from \`npx playwright install chromium\`. AGENT_REPLAY_REQUIRE_BROWSER=1 makes a missing browser a failure.`,
    ]);
    expect(run.stdout).toMatch(/Tests\s+\d+ passed \| 1 skipped/);
  });

  it('fails the browser tests when AGENT_REPLAY_REQUIRE_BROWSER=1', { timeout: 120_000 }, async () => {
    const run = await vitest('test/report/latency-views.test.ts', { AGENT_REPLAY_CHROMIUM: nowhere, AGENT_REPLAY_REQUIRE_BROWSER: '1' });
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).not.toContain('browser tests skipped');
    expect(run.stdout).toContain('headless Chromium not found');
    // only the test that draws fails: the file's other tests still run and pass
    expect(run.stdout).toMatch(/Tests\s+1 failed \| \d+ passed/);
  });
});
