// Spend's agent counts (docs/semantics.md, "Cost") against a real loopback agent: the requests the
// agent received, how many of them were retries, and the turns it answered, said the same in the
// terminal, results.json and the markdown comment.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import { nativeEcho } from '../support/agent-server.js';

useCleanup();

const COMMIT = 'c'.repeat(40);

async function ran(handler: Parameters<typeof serve>[0]): Promise<{ stdout: string; markdown: string; spend: unknown; received: number }> {
  const server = await serve(handler);
  const cwd = await makeProject({
    config: agentConfig(`${server.url}/chat`).replace('retries: 0', 'retries: 2'),
    fixtures: { 'f.yml': 'label: greeting\nmessage: hello\nassert: { contains: echo }\n' },
  });
  const r = await cli(['run', '--out', 'r.json', '--markdown', 'r.md', '--commit', COMMIT, '--fail-on', 'none'], cwd);
  expect(r.code, r.stderr).toBe(0);
  const record = await readResults(join(cwd, 'r.json'));
  return { stdout: r.stdout, markdown: await readFile(join(cwd, 'r.md'), 'utf8'), spend: record.spend, received: server.requests.length };
}

describe("the agent's requests, retries and turns answered", () => {
  it('a turn that errors after its retries: every request the agent received is counted, the retries among them', async () => {
    const run = await ran(() => ({ status: 503, body: 'busy' }));
    // The welcome turn: 1 request and 2 retries, none answered; the message turn is never sent.
    expect(run.received).toBe(3);
    expect(run.spend).toMatchObject({ agentTurns: 0, agentRequests: 3, agentRetries: 2 });
    // It read "0 agent turns (2 retries)": retries of nothing, and the first request nowhere.
    const words = '0 agent turns answered in 3 requests (2 retries)';
    expect(run.stdout).toContain(`estimated (cap $0.10) · ${words} · agent`);
    expect(run.markdown).toContain(`estimated (cap $0.10) · ${words} · agent`);
  });

  it('a turn answered after a retry reads as turns answered in more requests', async () => {
    const run = await ran((req) => (req.index === 0 ? { status: 503, body: 'busy' } : nativeEcho(req)));
    expect(run.received).toBe(3);
    expect(run.spend).toMatchObject({ agentTurns: 2, agentRequests: 3, agentRetries: 1 });
    expect(run.stdout).toContain('· 2 agent turns answered in 3 requests (1 retry) ·');
    expect(run.markdown).toContain('· 2 agent turns answered in 3 requests (1 retry) ·');
  });

  it('without a retry or an unanswered request, the turns alone', async () => {
    const run = await ran(nativeEcho);
    expect(run.spend).toMatchObject({ agentTurns: 2, agentRequests: 2, agentRetries: 0 });
    expect(run.stdout).toContain('· 2 agent turns ·');
    expect(run.markdown).toContain('· 2 agent turns ·');
  });
});
