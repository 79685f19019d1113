// A simulated user through the Action, end to end: the check run plays the user live (the demo
// simulator on real loopback HTTP) against the demo agent and passes; the accept-baseline label
// then commits the transcript with the messages' sources. Every REST request and GraphQL document
// is checked against GitHub's published descriptions.

import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { keepReviewedRun, makeWorkspace, pullPayload, runAction, runAcceptLabel, useServers, seedPullForAccept } from './harness.js';
import { parseRecord } from '../../src/record/index.js';
import { DemoAgent } from '../../src/demo/agent.js';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import type { PersonaBaseline } from '../../src/types.js';

const demo = new DemoAgent();
const handler: AgentHandler = (req) => {
  const out = demo.handle((req.json ?? {}) as Record<string, unknown>);
  return { status: out.status, json: out.body };
};

const FIXTURES = 'fixtures:\n  - { label: refund-policy, message: Can I get my money back?, assert: { contains: 30 days } }\n';
const PERSONA = `label: refund-sim
user:
  goal: Get a refund for order 1234, which arrived broken.
  maxTurns: 5
mocks:
  - { tool: find_order, input: { orderId: "1234" }, output: { status: delivered, item: hiking boots, total: 40 } }
  - { tool: issue_refund, input: { orderId: "1234" }, output: { refundId: R-1 } }
expect:
  terminal: finish
  toolCalled: [ { tool: issue_refund, input: { orderId: "1234" } } ]
`;

let simulator: DemoServer;
beforeAll(async () => {
  simulator = await startDemoServer();
});
afterAll(async () => {
  await simulator.close();
});

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  seedPullForAccept,
  (a, g) => {
    agent = a;
    gh = g;
  },
);

describe('a simulated user through the Action', () => {
  it('check: the simulated script passes live; accept: the label commits its transcript with the sources', async () => {
    const ws = await makeWorkspace({ fixtures: FIXTURES, config: `agent:\n  retries: 0\nsimulator: { baseUrl: "${simulator.judgeBaseUrl}", model: demo }\ncost: { capUsd: 1 }\n` });
    await mkdir(join(ws, '.agent-replay', 'personas'), { recursive: true });
    await writeFile(join(ws, '.agent-replay', 'personas', 'refund.yml'), PERSONA);
    const run = await runAction({ gh, workspace: ws, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'newly_failing' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(gh.violations).toEqual([]);
    const text = readFileSync(run.outputs['results-path'] as string, 'utf8');
    const record = parseRecord(text, 'results.json');
    const p = record.personas[0]!;
    expect(p).toMatchObject({ label: 'refund-sim', errored: false, verdict: 'pass', outcome: 'finish', drift: { verdict: 'no_baseline' } });
    expect(p.simulation).toMatchObject({ liveFromTurn: 1, endedBy: 'agent', calls: 3, fault: null });
    expect(record.spend).toMatchObject({ simulatorCalls: 3 });
    expect(gh.comments('octo', 'shop', 7).some((c) => c.body.includes('refund-sim'))).toBe(true);

    await keepReviewedRun(gh, run.outputs['artifact-name'] as string, text);
    const accept = await runAcceptLabel(gh);
    expect(accept.code, accept.stdout + accept.stderr).toBe(0);
    expect(gh.violations).toEqual([]);
    const file = gh.commits[0]?.additions.find((a) => a.path === '.agent-replay/baselines/refund-sim.json');
    expect(file).toBeDefined();
    const written = JSON.parse(file!.contents) as PersonaBaseline;
    expect(written.transcript).toEqual(p.turns.map((t) => ({ message: t.message, reply: t.reply, route: t.route, ...(t.source ? { source: t.source } : {}) })));
    expect(written.transcript.map((t) => t.source ?? null)).toEqual([null, 'simulator', 'simulator', 'simulator']);
    expect(written.simulation).toEqual({ doneReason: null, goal: 'Get a refund for order 1234, which arrived broken.', instructions: null, persona: null });
    expect(accept.outputs.accepted).toContain('refund-sim');
  });
});
