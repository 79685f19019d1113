// Accept mode commits persona baselines (`kind: "persona"`) next to fixture baselines and refuses
// an errored script, through the Action against the OpenAPI-checked fake GitHub.
import { describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer } from '../support/agent-server.js';
import { shopAgentHandler } from '../support/shop-agent.js';
import { HEAD, keepReviewedRun, makeWorkspace, pullPayload, runAction, runAcceptLabel, useServers, seedPullForAccept } from './harness.js';
import { parseRecord } from '../../src/record/index.js';
import type { PersonaBaseline } from '../../src/types.js';

const SCRIPTS = `personas:
  - label: refund-handoff
    opening: I want my money back
    followUps: [ "Order 1234", "It arrived broken" ]
    mocks: [ { tool: find_order, input: { orderId: "1234" }, output: { status: delivered } } ]
    expect: { conversations: [ refunds, handoff ], terminal: handoff, toolCalled: [ { tool: find_order } ] }
  - label: refund-unmocked
    opening: Order 55
    unmockedTools: error
    expect: { toolCalled: [ { tool: find_order } ] }
`;

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  shopAgentHandler(),
  seedPullForAccept,
  (a, g) => {
    agent = a;
    gh = g;
  },
);

describe('accept mode with persona scripts', () => {
  it('commits the reviewed script transcripts as persona baselines and refuses the errored one', async () => {
    const workspace = await makeWorkspace({ fixtures: 'label: greeting\nmessage: hello\n', config: 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n' });
    await mkdir(join(workspace, '.agent-replay', 'personas'));
    await writeFile(join(workspace, '.agent-replay', 'personas', 'refunds.yml'), SCRIPTS);
    const check = await runAction({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const text = await readFile(check.outputs['results-path'] as string, 'utf8');
    const record = parseRecord(text, 'results.json');
    expect(record.personas.map((p) => [p.label, p.errored ? 'errored' : p.verdict])).toEqual([
      ['refund-handoff', 'pass'],
      ['refund-unmocked', 'errored'],
    ]);
    expect(check.outputs).toMatchObject({ passed: '2', errored: '1' });
    await keepReviewedRun(gh, check.outputs['artifact-name'] as string, text);

    const accept = await runAcceptLabel(gh);
    expect(accept.code, accept.stdout + accept.stderr).toBe(0);
    expect(gh.violations).toEqual([]);
    expect(gh.commits).toHaveLength(1);
    const commit = gh.commits[0]!;
    expect(commit.additions.map((a) => a.path).sort()).toEqual(['.agent-replay/baselines/greeting.json', '.agent-replay/baselines/refund-handoff.json']);
    expect(commit.body).toContain('- refund-handoff (pass)');
    expect(commit.body).toContain('- refund-unmocked: errored: the run did not complete');
    const stored = JSON.parse(commit.additions.find((a) => a.path.endsWith('refund-handoff.json'))!.contents) as PersonaBaseline;
    const recorded = record.personas[0]!;
    expect(stored).toEqual({
      label: 'refund-handoff',
      kind: 'persona',
      transcript: recorded.turns.map((t) => ({ message: t.message, reply: t.reply, route: t.route })),
      // The agent ended the conversation (its handoff) on the script's last message (docs/personas.md, "Baselines and drift").
      endedBy: 'both',
      visited: ['conversations:welcome', 'conversations:refunds', 'refunds', 'handoff'],
      outcome: 'handoff',
      verdict: 'pass',
      // The script's latency: the sum over its turns, as the run recorded it (docs/latency.md).
      latencyMs: recorded.latencyMs,
      acceptedAt: expect.any(String),
      commit: HEAD,
    });
    expect(accept.outputs).toMatchObject({ accepted: 'greeting,refund-handoff', refused: 'refund-unmocked' });
  });
});
