// Headless Chromium for the report.html tests: Debian's `chromium` driven by playwright-core.
// Nothing is downloaded or installed here: without the browser the tests fail and say how to get it.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.AGENT_REPLAY_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `headless Chromium not found at ${CHROMIUM}: the report.html tests need Debian's chromium ` +
        '(apt-get install -y chromium; .ci/run installs it) or AGENT_REPLAY_CHROMIUM=/path/to/chromium. Nothing was installed.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
