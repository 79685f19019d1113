// The messages docs/troubleshooting.md quotes, held against what the tool prints: the page's quote,
// with `<...>` for a value of the run and `...` for words left out, must be in the text, so that
// neither changes alone. Used by test/docs/troubleshooting.test.ts and by the tests that already
// make the failure a quote names (a real TLS server, a real proxy), which hold its quote where the
// message is made instead of making it again.

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

export const TROUBLESHOOTING = readFileSync('docs/troubleshooting.md', 'utf8');

/** Is `quoted` said in `text`: its parts between `<...>` and `...`, in order, each where the one before it ends when nothing stands between them. */
export function says(text: string, quoted: string): boolean {
  const parts = quoted.split(/(\s*\.\.\.\s*|<[^>]+>)/);
  let from = 0;
  let free = false;
  for (const part of parts) {
    if (part === '') continue;
    if (/^\s*\.\.\.\s*$|^<[^>]+>$/.test(part)) {
      free = true;
      continue;
    }
    const at = text.indexOf(part, from);
    if (at < 0 || (!free && from > 0 && at !== from)) return false;
    from = at + part.length;
    free = false;
  }
  return true;
}

/**
 * The page quotes `quoted`, and `text` says it. `run` maps a value the page writes as an example
 * (`127.0.0.1:3000`, `http://proxy.corp:3128`) to the value of this run, put in its place before
 * the quote is looked for in `text`.
 */
export function quotedAndSaid(text: string, quoted: string, run: Record<string, string> = {}): void {
  expect(TROUBLESHOOTING, 'docs/troubleshooting.md quotes it').toContain(`\`${quoted}\``);
  let here = quoted;
  for (const [example, value] of Object.entries(run)) {
    expect(here, `the quote writes ${example}`).toContain(example);
    here = here.split(example).join(value);
  }
  expect(says(text, here), `the tool does not say\n  ${here}\nin\n${text}`).toBe(true);
}
