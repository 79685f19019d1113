// A reader that stops early (`agent-replay run | head -1`) closes the pipe. The real CLI in a child
// process whose stdout is destroyed after its first chunk: the run still finishes, writes its
// files, exits with the gate's status, and prints no EPIPE stack trace.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { parseRecord } from '../../src/record/index.js';
import { endWithTest } from '../support/children.js';
import { agentConfig, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

it('a closed stdout (| head) drops the rest of the output, keeps the files and the exit status', async () => {
  const agent = await serve((req) => ({ json: { reply: `echo: ${String((req.json as { message: unknown }).message)}`, route: null } }));
  const labels = Array.from({ length: 40 }, (_, i) => `f${i}`);
  const cwd = await makeProject({
    config: agentConfig(agent.url, '  start: false\n'),
    fixtures: { 'f.yml': `fixtures:\n${labels.map((l) => `  - { label: ${l}, message: ${l}, assert: { contains: "nope" } }`).join('\n')}\n` },
  });
  const child = spawn(process.execPath, [CLI, 'run', '--confirm-cost', '--out', 'results.json', '--fail-on', 'failed'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Ended with the test (test/support/children.ts): a failed or timed-out test leaves no CLI running.
  endWithTest(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // Like `head -1`: read one chunk, then close the read end of the pipe.
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));

  expect(stderr).not.toMatch(/EPIPE|Error:/);
  expect(stderr).toMatch(/gate failed: 40 fixtures failing/);
  expect(code).toBe(1);
  const record = parseRecord(await readFile(join(cwd, 'results.json'), 'utf8'), 'results.json');
  expect(record.fixtures).toHaveLength(40);
});
