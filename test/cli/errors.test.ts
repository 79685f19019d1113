// What the CLI says and returns when something goes wrong: the user's to fix (2) or a bug (3).

import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { describeFailure, EXIT, UserError } from '../../src/errors.js';
import { GitHubError } from '../../src/github/errors.js';
import { InputError } from '../../src/action/inputs.js';
import { RecordError } from '../../src/record/index.js';
import { agentConfig, cli, makeProject, scriptedAgent, serve, useCleanup } from './helpers.js';

useCleanup();

const FIXTURES = { 'f.yml': 'fixtures:\n  - { label: a, message: hello }\n' };

describe('internal errors', () => {
  it('a bug exits 3 and says "internal error" with a request to report it, without a stack', async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9/chat'), fixtures: FIXTURES });
    const r = await cli(['run'], cwd, {}, {
      engine: {
        makeAgent: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'reply')");
        },
      },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^agent-replay: internal error: Cannot read properties of undefined \(reading 'reply'\)\. This is a bug in agent-replay/);
    expect(r.stderr).toMatch(/please report it/);
    expect(r.stderr).not.toMatch(/configuration error/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('AGENT_REPLAY_DEBUG=1 adds the stack trace', async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9/chat'), fixtures: FIXTURES });
    const r = await cli(['run'], cwd, { AGENT_REPLAY_DEBUG: '1' }, {
      engine: {
        makeAgent: () => {
          throw new Error('boom');
        },
      },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/internal error: boom/);
    expect(r.stderr).toMatch(/\n\s+at /);
  });

  it("an error's message and stack show an agent's control characters as escapes, as the summary does (docs/security.md, \"Agent text is data\")", async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9/chat'), fixtures: FIXTURES });
    const r = await cli(['run'], cwd, { AGENT_REPLAY_DEBUG: '1' }, {
      engine: {
        makeAgent: () => {
          throw new Error('reply \u001b[2J\u202eboom');
        },
      },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^agent-replay: internal error: reply \\u001b\[2J\\u202eboom\. This is a bug/);
    expect(r.stderr).toMatch(/\nError: reply \\u001b\[2J\\u202eboom\n\s+at /);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('\u202e');
  });

  it('a results file that is not a record is the user\'s to fix: exit 2, no "internal error"', async () => {
    const cwd = await makeProject({ fixtures: FIXTURES });
    const r = await cli(['report', '--results', 'missing.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing\.json: does not exist; give the path of a results\.json written by agent-replay/);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('an output path the system refuses is reported as such: exit 2, no "internal error"', async () => {
    const agent = await serve(scriptedAgent({}));
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: FIXTURES });
    await mkdir(join(cwd, 'taken.json'));
    const r = await cli(['run', '--out', 'taken.json'], cwd);
    // The record went to a temporary folder instead (the message names it): removed with the test's.
    const fallback = /the record was written to (\S+) instead/.exec(r.stderr)?.[1];
    if (fallback !== undefined) onTestFinished(() => rm(dirname(fallback), { recursive: true, force: true }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/taken\.json/);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});

describe('describeFailure', () => {
  it('tells the user\'s failures from bugs', () => {
    const hint = 'see the log';
    for (const e of [
      new UserError('x'),
      new InputError('input mode: "z" is not allowed'),
      new RecordError('r.json', 'is not a valid agent-replay results file'),
      new GitHubError({ request: 'POST /x', status: 403, kind: 'forbidden', detail: 'no' }),
      Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES', syscall: 'open' }),
    ]) {
      expect(describeFailure(e, hint)).toMatchObject({ internal: false, exitCode: EXIT.usage });
    }
    const bug = describeFailure(new RangeError('Invalid array length'), hint);
    expect(bug).toEqual({
      internal: true,
      exitCode: EXIT.internal,
      message: expect.stringMatching(/^internal error: Invalid array length\. This is a bug .* \(see the log\)\.$/),
    });
    expect(describeFailure('thrown string', hint).message).toMatch(/^internal error: thrown string\./);
  });
});
