// An error nothing caught in the Action (a bug: thrown in a callback, or a promise no one awaits)
// fails the step as run()'s errors do (src/index.ts): not Node's own stack trace, whose lines the
// runner reads as workflow commands when it quotes an agent's text. It ends the step, once a
// results.json being written is in place; a run that never finishes is said the same way.

import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { nativeEcho } from '../support/agent-server.js';
import { useServers } from '../support/servers.js';
import { tempDir } from '../support/temp.js';
import { crashPreload } from '../support/crash-preload.js';
import { HEAD, makeWorkspace, pullPayload, runAction } from './harness.js';
import { parseRecord } from '../../src/record/index.js';

const servers = useServers(nativeEcho);

it('an uncaught error fails the step as an internal error (exit 3), in one annotation, with no line the runner reads as a command', async () => {
  const dir = await tempDir('agent-replay-crash-');
  const preload = join(dir, 'preload.mjs');
  await writeFile(preload, crashPreload('throw'));
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: one }\n', config: 'agent: { retries: 0 }\n' });
  const run = await runAction({ gh: servers.gh, workspace, inputs: { 'agent-url': servers.agent.url, comment: 'false' }, event: { name: 'pull_request', payload: pullPayload() }, env: { NODE_OPTIONS: `--import=${preload}` } });
  expect(run.code, run.stdout + run.stderr).toBe(3);
  expect(run.stdout).toContain('::error::agent-replay: internal error: the agent said: %0A::add-mask::x%0A##[error]y \\u001b[31mred. This is a bug in agent-replay');
  expect(run.stdout).toContain('please report it');
  const lines = (run.stdout + run.stderr).split(/[\r\n]/);
  // The Action masks its own secrets (::add-mask::<token>): none of the agent's lines is a command.
  expect(lines.filter((l) => /^\s*::add-mask::x|^\s*##\[error\]y/.test(l))).toEqual([]);
  expect(run.stdout + run.stderr).not.toContain('\u001b');
});

it("the step's log closed under it (the runner's pipe gone): the Action ends instead of reporting each failed write to the same pipe", async () => {
  const dir = await tempDir('agent-replay-crash-');
  const preload = join(dir, 'preload.mjs');
  // The log is closed before the Action writes its first line; every write then fails with EPIPE.
  await writeFile(preload, crashPreload('throw'));
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: one }\n', config: 'agent: { retries: 0 }\n' });
  const run = await runAction({
    gh: servers.gh,
    workspace,
    inputs: { 'agent-url': servers.agent.url, comment: 'false' },
    event: { name: 'pull_request', payload: pullPayload() },
    env: { NODE_OPTIONS: `--import=${preload}` },
    onChild: (child) => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  });
  // It ends (before the fix it wrote, failed and reported the failure in a loop until killed), with
  // the bug's status: the uncaught error the preload throws is still the step's failure, and the
  // step ends there, before the replay.
  expect(run.code).toBe(3);
  expect(run.outputs['results-path']).toBeUndefined();
});

/**
 * Loaded before the Action: once the Action opens the file results.json is staged in (the record
 * being written), an error nothing caught is thrown from a callback.
 */
const PRELOAD_WHILE_WRITING = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const open = fs.promises.open;
let armed = true;
fs.promises.open = async (path, ...rest) => {
  const handle = await open(path, ...rest);
  if (armed && /\\.results\\.json\\.[0-9a-f]{16}\\.tmp$/.test(String(path))) {
    armed = false;
    setImmediate(() => { throw new TypeError('a bug while the record is written'); });
  }
  return handle;
};
syncBuiltinESMExports();
`;

it('an uncaught error ends the step: one "please report" annotation, exit 3, after the results.json being written is in place, and nothing after it (no comment)', async () => {
  const dir = await tempDir('agent-replay-crash-');
  const preload = join(dir, 'preload.mjs');
  await writeFile(preload, PRELOAD_WHILE_WRITING);
  servers.gh.addPull('octo', 'shop', { number: 7, headSha: HEAD });
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: one }\n', config: 'agent: { retries: 0 }\n' });
  const run = await runAction({ gh: servers.gh, workspace, inputs: { 'agent-url': servers.agent.url }, event: { name: 'pull_request', payload: pullPayload() }, env: { NODE_OPTIONS: `--import=${preload}` } });

  expect(run.code, run.stdout + run.stderr).toBe(3);
  const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/^::error::agent-replay: internal error: a bug while the record is written\. This is a bug in agent-replay.*please report it/);
  // The record the crash came in the middle of is whole ...
  const record = parseRecord(readFileSync(join(workspace, 'agent-replay-results', 'results.json'), 'utf8'), 'results.json');
  expect(record.fixtures.map((f) => f.label)).toEqual(['a']);
  // ... and the run went no further: before the fix it went on, uploaded, and commented.
  expect(servers.gh.comments('octo', 'shop', 7)).toEqual([]);
  expect(run.stdout).not.toContain('comment:');
  expect(run.stderr).toBe('');
});

/**
 * Loaded before the Action: as PRELOAD_WHILE_WRITING, and the rename that puts the record in place
 * never finishes, as on a hung file system (its pending call keeps the process alive).
 */
const PRELOAD_WRITE_HANGS = `${PRELOAD_WHILE_WRITING.replace('syncBuiltinESMExports();', '')}
const rename = fs.promises.rename;
fs.promises.rename = (from, to) => (/\\.results\\.json\\.[0-9a-f]{16}\\.tmp$/.test(String(from)) ? new Promise(() => { setInterval(() => {}, 60_000); }) : rename(from, to));
syncBuiltinESMExports();
`;

it('an uncaught error while the record is written on a hung disk: the step ends after a bounded wait (exit 3), saying the record may be missing or incomplete', { timeout: 20_000 }, async () => {
  const dir = await tempDir('agent-replay-crash-');
  const preload = join(dir, 'preload.mjs');
  await writeFile(preload, PRELOAD_WRITE_HANGS);
  servers.gh.addPull('octo', 'shop', { number: 7, headSha: HEAD });
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: one }\n', config: 'agent: { retries: 0 }\n' });
  // The wait is injected: no test sleeps the 5 s the Action waits.
  const env = { NODE_OPTIONS: `--import=${preload}`, AGENT_REPLAY_TEST_RECORD_WAIT_MS: '0' };
  const run = await runAction({
    gh: servers.gh,
    workspace,
    inputs: { 'agent-url': servers.agent.url },
    event: { name: 'pull_request', payload: pullPayload() },
    env,
    // A step that waits without end (before the fix: until the job's 6 h timeout) is killed, not left behind.
    onChild: (child) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('close', () => clearTimeout(kill));
    },
  });

  expect(run.code, run.stdout + run.stderr).toBe(3);
  const target = join(workspace, 'agent-replay-results', 'results.json');
  expect(run.stdout).toContain(`::warning::agent-replay: ${target} was still being written 0 s after the internal error; the step ends without waiting longer (a slow or hung disk?): the record may be missing or incomplete`);
  expect(run.stdout.split('\n').filter((l) => l.startsWith('::error::'))).toHaveLength(1);
  expect(servers.gh.comments('octo', 'shop', 7)).toEqual([]);
});

/** Loaded before the Action: reading the event payload never finishes, and nothing else is left to do. */
const PRELOAD_NEVER_SETTLES = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const readFile = fs.promises.readFile;
fs.promises.readFile = (path, ...rest) => (String(path).endsWith('event.json') ? new Promise(() => {}) : readFile(path, ...rest));
syncBuiltinESMExports();
`;

it("a run that stops without finishing (a promise that never settles) is said as an internal error, exit 3, not Node's exit 13", async () => {
  const dir = await tempDir('agent-replay-crash-');
  const preload = join(dir, 'preload.mjs');
  await writeFile(preload, PRELOAD_NEVER_SETTLES);
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: one }\n' });
  const run = await runAction({ gh: servers.gh, workspace, inputs: { 'agent-url': servers.agent.url }, event: { name: 'pull_request', payload: pullPayload() }, env: { NODE_OPTIONS: `--import=${preload}` } });

  expect(run.code, run.stdout + run.stderr).toBe(3);
  expect(run.stdout).toMatch(/^::error::agent-replay: internal error: the run stopped before it finished: something it waited for never happened\. This is a bug in agent-replay.*please report it/m);
  expect(run.stderr).not.toMatch(/unsettled top-level await/);
});
