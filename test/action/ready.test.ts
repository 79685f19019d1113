// Check mode with wait-for-agent when the preview never comes up: one clear failure, in the log and
// the comment; nothing replayed (not one POST), nothing spent, no results recorded.

import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer } from '../support/agent-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers } from './harness.js';
import { parseCommentMetadata } from '../../src/report/index.js';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  () => ({ status: 503, body: 'preview is starting' }),
  (g) => {
    g.addPull('octo', 'shop', { number: 7, headSha: HEAD });
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

describe('check mode, agent not ready', () => {
  it('fails with "agent not ready after N s", says so in the comment, and sends the agent no POST', async () => {
    const before = agent.requests.length;
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n', config: 'agent:\n  retries: 0\n' });
    // A config.yaml suite: the comment's fix names the file it has (docs/configuration.md).
    await rename(join(workspace, '.agent-replay', 'config.yml'), join(workspace, '.agent-replay', 'config.yaml'));
    const run = await runAction({ gh, workspace, inputs: { 'agent-url': agent.url, 'wait-for-agent': '45' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/::error::agent not ready after 45 s: \d+ polls \(GET\), the last one got HTTP 503; nothing was replayed and nothing was spent/);
    expect(agent.requests.length - before).toBeGreaterThan(1);
    expect(agent.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('agent not ready after 45 s');
    expect(comments[0]!.body).toContain('or raise `wait-for-agent` (`agent.waitForAgent` in config.yaml) if the agent starts slowly.');
    expect(parseCommentMetadata(comments[0]!.body)).toMatchObject({ marker: 'agent-replay', headSha: HEAD });
    expect(run.summary).toContain('agent not ready after 45 s');
    expect(run.outputs).toMatchObject({ gate: 'failed', 'comment-status': 'created' });
    expect(run.outputs['results-path']).toBeUndefined();
    expect(gh.violations).toEqual([]);
  });

  it('rejects a wait-for-agent that is not whole seconds from 0 to 600', async () => {
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: g, message: hello }\n' });
    const before = agent.requests.length;
    const run = await runAction({ gh, workspace, inputs: { 'agent-url': agent.url, 'wait-for-agent': '601' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::agent-replay: input wait-for-agent: "601" is not a whole number of seconds from 0 to 600');
    expect(agent.requests).toHaveLength(before);
  });
});
