// Colour in the CLI's summary: the real CLI in a child process whose stdout is a pipe, with the
// variables a user sets (FORCE_COLOR, NO_COLOR, TERM), reporting a real results file.

import { describe, expect, inject, it } from 'vitest';
import { colorOutput } from '../../src/cli/output.js';
import { agentConfig, cli, makeProject, serve, spawnCli, useCleanup } from './helpers.js';

useCleanup();

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

const ESC = '\x1b[';

describe('colour', () => {
  it('FORCE_COLOR colours the summary in a pipe; FORCE_COLOR=0, NO_COLOR and no terminal leave it plain', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: a\nmessage: hi\nassert: { contains: "nope" }\n' } });
    expect((await cli(['run', '--out', 'results.json'], cwd)).code).toBe(0);
    const report = (env: NodeJS.ProcessEnv) => spawnCli(CLI, ['report', '--results', 'results.json'], cwd, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env });

    const forced = await report({ FORCE_COLOR: '1' });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`${ESC}1m`);
    expect(forced.stdout).toContain('New, no baseline');
    const plain = await report({});
    expect(plain.stdout).toContain('New, no baseline');
    expect(plain.stdout + plain.stderr).not.toContain('\x1b');
    // The other variables, in a pipe, as the CLI reads them (colorOutput(env, stdout.isTTY)): a start each showed only this.
    // FORCE_COLOR wins over NO_COLOR, as in Node.
    expect(colorOutput({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }, { FORCE_COLOR: 'false' }]) expect(colorOutput(env, false), JSON.stringify(env)).toBe(false);
  });

  it('on a terminal: coloured unless FORCE_COLOR=0, NO_COLOR or TERM=dumb says otherwise', () => {
    expect(colorOutput({}, true)).toBe(true);
    expect(colorOutput({ NO_COLOR: '' }, true)).toBe(true);
    expect(colorOutput({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorOutput({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorOutput({ TERM: 'dumb' }, true)).toBe(false);
    expect(colorOutput({ FORCE_COLOR: '', TERM: 'dumb' }, false)).toBe(true);
  });
});
