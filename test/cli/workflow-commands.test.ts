// An agent's reply printed in a GitHub Actions log must not be read as a workflow command
// (docs/security.md, "Agent text is data"). The real CLI in a child process, its stdout and stderr
// read line by line with the rules of GitHub's runner (test/support/runner-commands.ts).

import { expect, inject, it } from 'vitest';
import { workflowCommandGuard } from '../../src/workflow-commands.js';
import { agentConfig, makeProject, serve, spawnCli, useCleanup } from './helpers.js';
import { runnerCommands as commandsOf } from '../support/runner-commands.js';

useCleanup();

/** The lines the runner would run as commands. */
const runnerCommands = (output: string): string[] => commandsOf(output).map((c) => c.line);

const CLI = inject('cliBundle');

it('a reply or an error body that holds workflow commands is printed with none the runner would run', async () => {
  const reply = 'see ##[add-mask]x\n::add-mask::hunter2\n  ::set-output name=verified::true\r::stop-commands::tok\nmore';
  const agent = await serve((req) => {
    const message = (req.json as { message?: string }).message;
    if (message === 'fail') return { status: 500, headers: { 'content-type': 'text/plain' }, body: 'broke ##[set-output name=verified;]true' };
    return { json: { reply, route: null } };
  });
  const cwd = await makeProject({
    config: agentConfig(agent.url, '  start: false\n'),
    fixtures: { 'f.yml': 'fixtures:\n  - { label: hostile, message: hi, assert: { contains: "nope" } }\n  - { label: errored, message: fail }\n' },
  });
  const r = await spawnCli(CLI, ['run', '--out', 'results.json'], cwd, { PATH: process.env.PATH ?? '', HOME: cwd, GITHUB_ACTIONS: 'true', CI: 'true', NO_COLOR: '1' });

  expect(r.code).toBe(1);
  expect(r.stdout).toContain('add-mask::hunter2');
  expect(r.stdout).toContain('see #\u2060#[add-mask]x');
  expect(`${r.stdout}${r.stderr}`).toContain('broke #\u2060#[set-output');
  expect(runnerCommands(r.stdout)).toEqual([]);
  expect(runnerCommands(r.stderr)).toEqual([]);
  // What a reader sees is the reply as written: the guard adds only invisible word joiners.
  expect(r.stdout.replace(/\u2060/g, '')).toContain('  ::set-output name=verified::true');
});

it('a line written in pieces is guarded as one line, and text mid-line is left as it is', () => {
  const guard = workflowCommandGuard();
  const out = ['  ', '::add-mask::a\n', 'x ::add-mask::b', '\r', '\t', '::error::c\n'].map(guard).join('');
  expect(runnerCommands(out)).toEqual([]);
  expect(out.replace(/\u2060/g, '')).toBe('  ::add-mask::a\nx ::add-mask::b\r\t::error::c\n');
  expect(out).toContain('x ::add-mask::b');
});

it('white space the runner trims and JavaScript does not (U+0085, next line) is leading white space too', () => {
  const out = workflowCommandGuard()('\u0085::add-mask::a\n\u00a0\u3000::error::b\n');
  expect(runnerCommands(out)).toEqual([]);
  expect(out.replace(/\u2060/g, '')).toBe('\u0085::add-mask::a\n\u00a0\u3000::error::b\n');
});
