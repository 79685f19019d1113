// Flag values of `run` checked before anything is sent (docs/cli.md): --commit is a commit SHA,
// --fail-on a list of known conditions, `none` alone. Each refusal names the flag, the value and
// the fix, and exits 2 with the agent never called.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';

useCleanup();

async function project(): Promise<{ cwd: string; requests: () => number }> {
  const agent = await serve(scriptedAgent({ q: 'an answer' }));
  const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: one\nmessage: q\n' } });
  return { cwd, requests: () => agent.requests.length };
}

describe('run --commit', () => {
  it('refuses what is not a commit SHA, naming the flag, the value and the fix; nothing is sent', async () => {
    for (const bad of ['HEAD', 'main', 'abc12', 'not a sha; <b>x</b>', 'g'.repeat(40), 'a'.repeat(41)]) {
      const { cwd, requests } = await project();
      const r = await cli(['run', '--out', 'r.json', '--commit', bad], cwd);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`agent-replay: --commit must be a commit SHA of 7 to 40 hex digits (0-9, a-f), got ${JSON.stringify(bad)}`);
      expect(r.stderr).toContain('(git rev-parse HEAD), or leave --commit out to use GITHUB_SHA, else git HEAD');
      expect(requests(), bad).toBe(0);
    }
  });

  it('records a short or full SHA (in lower case), and GITHUB_SHA when --commit is not given', async () => {
    const { cwd } = await project();
    expect((await cli(['run', '--out', 'short.json', '--commit', '3F5E2A9'], cwd)).code).toBe(0);
    expect((await readResults(join(cwd, 'short.json'))).commit).toBe('3f5e2a9');
    const full = 'b'.repeat(40);
    expect((await cli(['run', '--out', 'full.json', '--commit', full], cwd)).code).toBe(0);
    expect((await readResults(join(cwd, 'full.json'))).commit).toBe(full);
    expect((await cli(['run', '--out', 'env.json'], cwd, { GITHUB_SHA: 'd'.repeat(40) })).code).toBe(0);
    expect((await readResults(join(cwd, 'env.json'))).commit).toBe('d'.repeat(40));
  });
});
