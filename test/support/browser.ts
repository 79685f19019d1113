// Headless Chromium for the report.html tests, driven by playwright-core. Nothing is downloaded or
// installed here: the tests use a browser already on the machine, found in this order:
//   1. AGENT_REPLAY_CHROMIUM=/path/to/chrome (when set, only that path: no fallback);
//   2. chromium, chromium-browser, google-chrome, google-chrome-stable or chrome on PATH
//      (Debian's `apt-get install chromium` puts /usr/bin/chromium there), then the usual
//      install folders of Chrome and Chromium on macOS and Windows;
//   3. a browser Playwright downloaded (PLAYWRIGHT_BROWSERS_PATH or its cache folder);
//   4. a browser Puppeteer downloaded (PUPPETEER_CACHE_DIR or ~/.cache/puppeteer).
// Without one, the browser tests are skipped and the run says so in one line (browser-setup.ts);
// AGENT_REPLAY_REQUIRE_BROWSER=1 (set by .ci/run and the CI workflow) makes a missing browser a
// failure instead. See docs/contributing.md, "Tests".

import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../scripts/chromium-args.mjs';

/** The test files that drive a browser (a test keeps this list equal to the importers of launchChromium). */
export const BROWSER_TEST_FILES = ['test/report/html.browser.test.ts', 'test/report/latency-views.test.ts', 'test/report/forest.browser.test.ts', 'test/report/waterfall.browser.test.ts'] as const;

export const HOW_TO_RUN =
  'apt-get install -y chromium (Debian/Ubuntu), or AGENT_REPLAY_CHROMIUM=/path/to/chrome, or a browser from `npx playwright install chromium`';

export type ChromiumLookup =
  | { found: true; path: string; source: string }
  | { found: false; /** what was looked for, for the message */ looked: string };

const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

const SYSTEM_PATHS = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true })); // the newest revision first
  } catch {
    return [];
  }
}

/** Browsers Playwright downloaded (Linux layouts), the newest revision first. */
function playwrightCandidates(env: NodeJS.ProcessEnv, home: string): string[] {
  const root = env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0' ? env.PLAYWRIGHT_BROWSERS_PATH : join(home, '.cache', 'ms-playwright');
  const out: string[] = [];
  for (const d of subdirs(root)) {
    if (d.startsWith('chromium-')) out.push(join(root, d, 'chrome-linux64', 'chrome'), join(root, d, 'chrome-linux', 'chrome'));
    if (d.startsWith('chromium_headless_shell-')) {
      out.push(join(root, d, 'chrome-headless-shell-linux64', 'chrome-headless-shell'), join(root, d, 'chrome-linux', 'headless_shell'));
    }
  }
  return out;
}

/** Browsers Puppeteer downloaded (Linux layouts): <cache>/chrome/linux-<version>/chrome-linux64/chrome, and the headless shell. */
function puppeteerCandidates(env: NodeJS.ProcessEnv, home: string): string[] {
  const root = env.PUPPETEER_CACHE_DIR ?? join(home, '.cache', 'puppeteer');
  return [
    ...subdirs(join(root, 'chrome')).map((v) => join(root, 'chrome', v, 'chrome-linux64', 'chrome')),
    ...subdirs(join(root, 'chrome-headless-shell')).map((v) => join(root, 'chrome-headless-shell', v, 'chrome-headless-shell-linux64', 'chrome-headless-shell')),
  ];
}

/** Finds a Chromium or Chrome already on this machine (see the order at the top of this file). */
export function findChromium(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): ChromiumLookup {
  const override = env.AGENT_REPLAY_CHROMIUM;
  if (override !== undefined && override !== '') {
    return executable(override) ? { found: true, path: override, source: 'AGENT_REPLAY_CHROMIUM' } : { found: false, looked: `AGENT_REPLAY_CHROMIUM=${override} (no executable there)` };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of PATH_NAMES) {
      const path = join(dir, process.platform === 'win32' ? `${name}.exe` : name);
      if (executable(path)) return { found: true, path, source: 'PATH' };
    }
  }
  for (const path of SYSTEM_PATHS) if (executable(path)) return { found: true, path, source: 'system' };
  for (const path of playwrightCandidates(env, home)) if (executable(path)) return { found: true, path, source: 'Playwright' };
  for (const path of puppeteerCandidates(env, home)) if (executable(path)) return { found: true, path, source: 'Puppeteer' };
  return { found: false, looked: `${PATH_NAMES.join(', ')} on PATH, Chrome's install folders, Playwright's and Puppeteer's browser caches` };
}

/** AGENT_REPLAY_REQUIRE_BROWSER=1 (or true): a missing browser fails the browser tests instead of skipping them. */
export function browserRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.AGENT_REPLAY_REQUIRE_BROWSER === '1' || env.AGENT_REPLAY_REQUIRE_BROWSER === 'true';
}

export const CHROMIUM: ChromiumLookup = findChromium();

/** Whether this run skips the browser tests: no browser found, and none required. */
export const SKIP_BROWSER_TESTS = !CHROMIUM.found && !browserRequired();

/** The one line a run without a browser prints (browser-setup.ts). */
export function skipLine(lookup: ChromiumLookup): string {
  const looked = lookup.found ? '' : lookup.looked;
  return `report.html browser tests skipped (no headless Chromium: looked for ${looked}): ${BROWSER_TEST_FILES.join(', ')}. To run them: ${HOW_TO_RUN}. AGENT_REPLAY_REQUIRE_BROWSER=1 makes a missing browser a failure.`;
}

export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM.found) {
    throw new Error(`headless Chromium not found (looked for ${CHROMIUM.looked}) and AGENT_REPLAY_REQUIRE_BROWSER is set: the report.html tests need a browser. ${HOW_TO_RUN}. Nothing was installed.`);
  }
  // Imported here, not at the top: finding a browser (browser-setup.ts, in vitest's main process
  // before any test starts) and a run without one do not load playwright-core (0.6 s).
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM.path, args: [...CHROMIUM_ARGS], headless: true });
}

/** A page openReport opened, and what it did. */
export interface OpenedReport {
  page: Page;
  /** Every request the page made (the document itself included). */
  requests: string[];
  /** The message of each dialog the page opened (each dismissed). */
  dialogs: string[];
  /** The page's uncaught errors, and its console errors and warnings. */
  errors: string[];
  /** The report's file:// URL. */
  url: string;
}

/** What a page does while it shows one report: recorded by the listeners set up once per page. */
interface Recording {
  url: string;
  requests: string[];
  dialogs: string[];
  errors: string[];
}

/** A page whose every request, dialog and error goes to the report it shows now (`current()`). */
async function recordingPage(browser: Browser, viewport: { width: number; height: number }, current: () => Recording): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('request', (r) => current().requests.push(r.url()));
  await page.route('**/*', (r) => (r.request().url() === current().url ? r.continue() : r.abort()));
  page.on('dialog', (d) => {
    current().dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') current().errors.push(m.text());
  });
  page.on('pageerror', (e) => current().errors.push(e.message));
  return page;
}

/** `html` (a report.html) written to `file` and loaded from file:// in a new page of `browser`: anything else it asks the network for is refused, and recorded. */
export async function openReport(browser: Browser, file: string, html: string, viewport = { width: 1280, height: 900 }): Promise<OpenedReport> {
  await writeFile(file, html);
  const recording: Recording = { url: pathToFileURL(file).href, requests: [], dialogs: [], errors: [] };
  const page = await recordingPage(browser, viewport, () => recording);
  await page.goto(recording.url, { waitUntil: 'load' });
  return { page, ...recording };
}

/**
 * One page that a test file's tests share, each report loaded in turn: a new page is a new context
 * and renderer in Chromium (html.browser.test.ts's 22 pages were 16 s of its 23 s of CPU). Each
 * `open` goes through about:blank first, so nothing of the last report is left: its document,
 * script state and scroll are gone, the viewport is set again, and what it did late (an error, a
 * request) is not counted for the next one. A test does not close the page (`close()` does, in
 * afterAll).
 */
export class ReportTab {
  private recording: Recording = { url: 'about:blank', requests: [], dialogs: [], errors: [] };
  private page: Page | undefined;

  constructor(private readonly browser: Browser) {}

  /** As openReport, in the shared page. */
  async open(file: string, html: string, viewport = { width: 1280, height: 900 }): Promise<OpenedReport> {
    await writeFile(file, html);
    if (this.page === undefined || this.page.isClosed()) {
      this.page = await recordingPage(this.browser, viewport, () => this.recording);
    } else {
      await this.page.goto('about:blank');
      await this.page.setViewportSize(viewport);
    }
    const recording: Recording = { url: pathToFileURL(file).href, requests: [], dialogs: [], errors: [] };
    this.recording = recording;
    await this.page.goto(recording.url, { waitUntil: 'load' });
    return { page: this.page, ...recording };
  }

  async close(): Promise<void> {
    await this.page?.close();
  }
}
