// An error nothing caught in the real CLI (a bug: thrown in a callback, or a promise no one awaits)
// is said as main() says a bug, through the workflow-command guard (src/cli/process.ts): not
// Node's own stack trace, which could quote an agent's text as a workflow command, with exit 1.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { spawnCli } from './helpers.js';
import { tempDir } from '../support/temp.js';
import { crashPreload } from '../support/crash-preload.js';

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

for (const how of ['throw', 'reject'] as const) {
  it(`an uncaught error (${how}) is an internal error, exit 3, through the guard, its control characters escaped`, async () => {
    const dir = await tempDir('agent-replay-crash-');
    const preload = join(dir, 'preload.mjs');
    await writeFile(preload, crashPreload(how));
    for (const debug of ['0', '1']) {
      const r = await spawnCli(CLI, ['--version'], dir, { PATH: process.env.PATH ?? '', NODE_OPTIONS: `--import=${preload}`, AGENT_REPLAY_DEBUG: debug });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^agent-replay: internal error: the agent said: \n/);
      expect(r.stderr).toMatch(/This is a bug in agent-replay .*please report it/);
      expect(r.stderr).toContain('\\u001b[31mred');
      expect(r.stderr).not.toContain('\u001b');
      // No line the runner reads as a workflow command.
      expect(r.stderr.split(/[\r\n]/).filter((l) => /^\s*::|##\[/.test(l))).toEqual([]);
      expect(/\n\s+at /.test(r.stderr)).toBe(debug === '1');
    }
  });
}
