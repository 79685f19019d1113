// A baseline's attempts (docs/statistics.md, "A baseline's attempts") through the CLI, against a
// real loopback agent and real files: `accept` writes a repeated item's passes of attempts, the
// next run reads them back into its record, a run with fewer attempts leaves them, and a run with
// as many and another tally rewrites them.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

/** "shaky" fails its second attempt with HTTP 500 while `broken` is set; every reply is the same text. */
let broken = true;
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
  const attempt = /-(\d+)$/.exec(String(body.session))?.[1];
  if (body.message === 'shaky' && broken && attempt === '2') return { status: 500, body: 'down' };
  return { json: { reply: 'always the same', route: null, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: steady, message: hello, assert: { contains: same } }
  - { label: shaky, message: shaky, assert: { contains: same } }
`;

describe('accepting a repeated run keeps its attempts', () => {
  it('writes them, reads them back, keeps them against fewer attempts and refreshes them from as many', async () => {
    const agent = await serve(handler);
    const config = (repeat: string) => `${agentConfig(agent.url)}cost: { capUsd: 1 }\n${repeat}`;
    const cwd = await makeProject({ config: config('repeat: { count: 3, minPass: 2 }\n'), fixtures: { 'f.yml': FIXTURES } });
    const dir = join(cwd, '.agent-replay', 'baselines');
    const file = (label: string) => readFile(join(dir, `${label}.json`), 'utf8');
    const setConfig = (repeat: string) => writeFile(join(cwd, '.agent-replay', 'config.yml'), config(repeat));

    broken = true;
    expect((await cli(['run', '--out', 'r1.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const first = await cli(['accept', '--results', 'r1.json'], cwd);
    expect(first.stdout).toContain('2 accepted, 0 refused, 0 unchanged');
    expect(JSON.parse(await file('steady'))).toMatchObject({ verdict: 'pass', attempts: { passed: 3, total: 3 } });
    expect(JSON.parse(await file('shaky'))).toMatchObject({ verdict: 'pass', attempts: { passed: 2, total: 3 } });
    // Right after the verdict, in the stable form.
    expect(await file('shaky')).toContain('"verdict": "pass",\n  "attempts": {\n    "passed": 2,\n    "total": 3\n  },\n');

    // The next run compares against them: its record carries the baseline's attempts.
    await setConfig('');
    expect((await cli(['run', '--out', 'r2.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const r2 = await readResults(join(cwd, 'r2.json'));
    expect(r2.fixtures.map((f) => [f.label, f.baseline?.attempts])).toEqual([
      ['steady', { passed: 3, total: 3 }],
      ['shaky', { passed: 2, total: 3 }],
    ]);
    // One attempt of the same reply never overwrites three.
    const before = [await file('steady'), await file('shaky')];
    expect((await cli(['accept', '--results', 'r2.json'], cwd)).stdout).toContain('0 accepted, 0 refused, 2 unchanged');
    expect([await file('steady'), await file('shaky')]).toEqual(before);

    // Three attempts again, all passing now: shaky's tally is refreshed, steady's stands.
    broken = false;
    await setConfig('repeat: { count: 3, minPass: 2 }\n');
    expect((await cli(['run', '--out', 'r3.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    expect((await cli(['accept', '--results', 'r3.json'], cwd)).stdout).toContain('1 accepted, 0 refused, 1 unchanged');
    expect(JSON.parse(await file('shaky')).attempts).toEqual({ passed: 3, total: 3 });
    expect(await file('steady')).toBe(before[0]);
  });
});
