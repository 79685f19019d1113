// The last-resort error handlers (the Action's run(), the CLI's main()) redact every secret the run
// read, not only the inputs they know by name: a value config.yml read through ${NAME} (an agent
// header, a trace store's key) that ends in an unexpected error's message is *** in the failure
// annotation, the debug stack and the CLI's stderr.

import { afterEach, describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/index.js';
import { reportFailure } from '../../src/main.js';
import { cli, makeProject, useCleanup } from '../cli/helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { stdoutOf } from '../support/runner-commands.js';

useCleanup();

const HEADER_TOKEN = 'hdr-7f3a9c2e5b1d-secret';
const TRACES_KEY = 'pk-lf-2b8e:sk-lf-91c4d7a0';
const CONFIG = `agent:
  url: http://127.0.0.1:9/chat
  retries: 0
  headers:
    Authorization: Bearer \${AGENT_TOKEN}
traces:
  query:
    kind: langfuse
    url: http://127.0.0.1:9
    apiKey: \${LANGFUSE_KEYS}
`;
const FIXTURES = { 'f.yml': 'fixtures:\n  - { label: a, message: hello }\n' };
const ENV = { AGENT_TOKEN: HEADER_TOKEN, LANGFUSE_KEYS: TRACES_KEY };

const exitCode = process.exitCode;
afterEach(() => {
  process.exitCode = exitCode;
});

describe("the Action's last-resort handler", () => {
  it('redacts a config.yml secret read through ${NAME} from an unexpected error\'s annotation and debug stack', async () => {
    const cwd = await makeProject({ config: CONFIG, fixtures: FIXTURES });
    const loaded = await loadSuite({ dir: '.agent-replay', env: ENV, cwd });
    expect(loaded.errors).toEqual([]);
    // A bug after the load whose message quotes the values (as a TypeError quoting a header would).
    const bug = new TypeError(`cannot send header Authorization: Bearer ${HEADER_TOKEN} to the store with ${TRACES_KEY.split(':')[1]!}`);
    const out = stdoutOf(() => reportFailure(bug, { 'INPUT_GITHUB-TOKEN': 'ghs_inputtoken123' }));
    expect(out).toContain('::error::agent-replay: internal error: cannot send header Authorization: Bearer *** to the store with ***');
    quotedAndSaid(out, 'internal error: ...');
    expect(out).toContain('::debug::TypeError: cannot send header Authorization: Bearer *** to the store with ***');
    expect(out).not.toContain(HEADER_TOKEN);
    expect(out).not.toContain('sk-lf-91c4d7a0');
    expect(process.exitCode).toBe(3);
  });

  it('still redacts the token inputs by name when the failure came before the inputs were read', () => {
    const out = stdoutOf(() => reportFailure(new Error('bad token ghs_beforeinputs9 in INPUT_X'), { 'INPUT_GITHUB-TOKEN': 'ghs_beforeinputs9' }));
    expect(out).toContain('bad token *** in INPUT_X');
  });
});

describe("the CLI's last-resort handler", () => {
  it('redacts a config.yml secret from an unexpected error after the suite is loaded', async () => {
    const cwd = await makeProject({ config: CONFIG, fixtures: FIXTURES });
    const r = await cli(['run'], cwd, { ...ENV, AGENT_REPLAY_DEBUG: '1' }, {
      engine: {
        makeAgent: (config) => {
          throw new TypeError(`invalid header value ${config.agent.headers['Authorization'] ?? ''}`);
        },
      },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^agent-replay: internal error: invalid header value Bearer \*\*\*\. This is a bug/m);
    expect(r.stderr).toContain('TypeError: invalid header value Bearer ***\n'); // the stack, asked for
    expect(r.stderr).not.toContain(HEADER_TOKEN);
  });
});
