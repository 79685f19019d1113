// An interrupted run, as a user or a cancelled job does it: the real CLI in a child process, a
// real slow loopback agent, a real signal once some fixtures have finished.

import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parseRecord } from '../../src/record/index.js';
import { endWithTest } from '../support/children.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { agentConfig, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

const LABELS = ['one', 'two', 'three', 'four', 'five', 'six'];
const FIXTURES = {
  'f.yml': `fixtures:\n${LABELS.map((l) => `  - { label: ${l}, message: ${l}, assert: { contains: "echo: ${l}" } }`).join('\n')}\n`,
};

describe.each([
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const)('a run interrupted by %s', (signal, expectedCode) => {
  it(`records what finished, marked interrupted, says so, and exits ${expectedCode}`, async () => {
    // Answers the first three messages at once; the fourth hangs (a slow agent) until the signal.
    let fourthArrived: () => void = () => undefined;
    const fourth = new Promise<void>((resolve) => (fourthArrived = resolve));
    const agent = await serve((req) => {
      const message = String((req.json as { message: unknown }).message);
      if (message === 'seven') return 'hang';
      if (['one', 'two', 'three'].includes(message)) return { json: { reply: `echo: ${message}`, route: { conversation: 'c', stage: message } } };
      fourthArrived();
      return 'hang';
    });
    // A persona script in the suite, in flight on the other slot when the signal comes (its agent
    // hangs): none finished, and the count is still of items, fixtures and scripts alike, not "fixtures".
    const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n'), fixtures: FIXTURES, personas: { 'p.yml': 'label: chat\nopening: seven\nexpect:\n  reply: [ { contains: "echo" } ]\n' } });
    const child = spawn(process.execPath, [CLI, 'run', '--concurrency', '2', '--out', 'results.json'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Ended with the test (test/support/children.ts): a failed or timed-out test leaves no CLI running.
    endWithTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The script holds one slot; on the other, one fixture at a time: the fourth request arrives only after three fixtures finished.
    await fourth;
    child.kill(signal);
    const code = await exited;

    expect({ code, stderr }).toMatchObject({ code: expectedCode });
    expect(stderr).toMatch(new RegExp(`interrupted by ${signal}: 3 of 7 items finished; the record lists only those and is marked interrupted. The other 4 were not recorded`));
    quotedAndSaid(stderr, 'interrupted by SIGTERM: 3 of 6 fixtures finished ...', { SIGTERM: signal, '3 of 6 fixtures': '3 of 7 items' });
    expect(stdout).toMatch(/results: .*results\.json/);
    const record = parseRecord(await readFile(join(cwd, 'results.json'), 'utf8'), 'results.json');
    expect(record.interrupted).toBe(true);
    expect(record.fixtures.map((f) => [f.label, f.verdict])).toEqual([
      ['one', 'pass'],
      ['two', 'pass'],
      ['three', 'pass'],
    ]);
    expect(record.tallies).toEqual({ passed: 3, failed: 0, notEvaluated: 0, errored: 0 });
    // results.json was streamed: its temporary files are gone.
    expect((await readdir(cwd)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Nothing after the fourth fixture was sent.
    expect(record.personas).toEqual([]);
    expect(agent.requests.map((r) => (r.json as { message: string }).message).sort()).toEqual(['four', 'one', 'seven', 'three', 'two']);
  });
});
