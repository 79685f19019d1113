// Flag values of `run` checked before anything is sent (docs/cli.md): --commit is a commit SHA,
// --fail-on a list of known conditions, `none` alone. Each refusal names the flag, the value and
// the fix, and exits 2 with the agent never called.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import { webhookExample } from '../support/webhooks.js';

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
      expect(r.stderr).toContain("(git rev-parse HEAD), or leave --commit out to use the pull request's head on its event in GitHub Actions, else GITHUB_SHA, else git HEAD");
      expect(requests(), bad).toBe(0);
    }
  });

  it("records a short or full SHA (in lower case), GITHUB_SHA when --commit is not given, and the pull request's head on its event", async () => {
    const { cwd } = await project();
    expect((await cli(['run', '--out', 'short.json', '--commit', '3F5E2A9'], cwd)).code).toBe(0);
    expect((await readResults(join(cwd, 'short.json'))).commit).toBe('3f5e2a9');
    const full = 'b'.repeat(40);
    expect((await cli(['run', '--out', 'full.json', '--commit', full], cwd)).code).toBe(0);
    expect((await readResults(join(cwd, 'full.json'))).commit).toBe(full);
    expect((await cli(['run', '--out', 'env.json'], cwd, { GITHUB_SHA: 'd'.repeat(40) })).code).toBe(0);
    expect((await readResults(join(cwd, 'env.json'))).commit).toBe('d'.repeat(40));
    expect((await cli(['run', '--out', 'upper.json'], cwd, { GITHUB_SHA: 'E'.repeat(40) })).code).toBe(0);
    expect((await readResults(join(cwd, 'upper.json'))).commit).toBe('e'.repeat(40));
    // A pull_request job: the pull request's head from the event's payload (GitHub's example), not GITHUB_SHA, the merge commit (test/cli/commit.test.ts).
    const payload = webhookExample('pull_request', (e) => e.action === 'synchronize');
    const event = join(cwd, 'event.json');
    await writeFile(event, JSON.stringify(payload));
    expect((await cli(['run', '--out', 'pull.json'], cwd, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_SHA: 'f'.repeat(40) })).code).toBe(0);
    expect((await readResults(join(cwd, 'pull.json'))).commit).toBe((payload.pull_request as { head: { sha: string } }).head.sha);
  });

  it('holds GITHUB_SHA to the same rule when --commit is not given: empty is unset, anything else not a SHA is refused; nothing is sent', async () => {
    for (const bad of ['HEAD', 'refs/heads/main', 'not a sha; <b>x</b>']) {
      const { cwd, requests } = await project();
      const r = await cli(['run', '--out', 'r.json'], cwd, { GITHUB_SHA: bad });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`agent-replay: GITHUB_SHA must be a commit SHA of 7 to 40 hex digits (0-9, a-f), got ${JSON.stringify(bad)}: unset it to use git HEAD, or give --commit SHA`);
      expect(requests(), bad).toBe(0);
    }
    const { cwd } = await project();
    // --commit wins over a GITHUB_SHA that is not a SHA; an empty GITHUB_SHA is as if unset (no git here: null).
    expect((await cli(['run', '--out', 'given.json', '--commit', 'abcdef1'], cwd, { GITHUB_SHA: 'HEAD' })).code).toBe(0);
    expect((await readResults(join(cwd, 'given.json'))).commit).toBe('abcdef1');
    expect((await cli(['run', '--out', 'empty.json'], cwd, { GITHUB_SHA: '' })).code).toBe(0);
    expect((await readResults(join(cwd, 'empty.json'))).commit).toBe(null);
  });
});

describe('run --fail-on and report --fail-on', () => {
  it('refuses none beside another condition, and an unknown condition, naming the value and the valid ones; nothing is sent', async () => {
    const cases: [string, string][] = [
      ['none,failed', '--fail-on: "none" (no condition) cannot be combined with "failed"; give none alone, or the conditions without none (allowed: newly_failing, unverified, failed, not_evaluated,'],
      ['newly_failing, none, errored', '--fail-on: "none" (no condition) cannot be combined with "newly_failing" and "errored"; give none alone'],
      ['x,none', '--fail-on: "x" is not a known condition; allowed: newly_failing, unverified, failed,'],
      [' , ', '--fail-on needs at least one condition, comma-separated (allowed: newly_failing, unverified, failed,'],
    ];
    for (const [list, said] of cases) {
      const { cwd, requests } = await project();
      const r = await cli(['run', '--out', 'r.json', '--fail-on', list], cwd);
      expect(r.code, list).toBe(2);
      expect(r.stderr).toContain(`agent-replay: ${said}`);
      expect(r.stderr).toContain("Run 'agent-replay run --help' for its options.");
      expect(requests(), list).toBe(0);
    }
    const { cwd } = await project();
    expect((await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const report = await cli(['report', '--results', 'r.json', '--fail-on', 'failed,none'], cwd);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('agent-replay: --fail-on: "none" (no condition) cannot be combined with "failed"');
    expect(report.stdout).toBe('');
  });
});
