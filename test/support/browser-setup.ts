// Vitest global set-up: says once per run, in one line, when the report.html browser tests are
// skipped for want of a browser (test/support/browser.ts finds one; docs/contributing.md, "Tests").

import { browserRequired, findChromium, skipLine } from './browser.js';

export default function setup(): void {
  const lookup = findChromium();
  if (lookup.found) return;
  if (browserRequired()) {
    process.stdout.write(`\nAGENT_REPLAY_REQUIRE_BROWSER is set and no headless Chromium was found (looked for ${lookup.looked}): the report.html browser tests will fail.\n\n`);
  } else {
    process.stdout.write(`\n${skipLine(lookup)}\n\n`);
  }
}
