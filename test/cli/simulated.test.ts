// A simulated user end to end through the CLI (docs/personas.md, "Simulated users"): `run` plays
// the user live against the demo agent with the demo simulator (real loopback HTTP), `accept
// --results` stores the messages it wrote with their source, and the next `run` replays them word
// for word with no simulator call.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DemoAgent } from '../../src/demo/agent.js';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import type { PersonaBaseline } from '../../src/types.js';
import { cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();
let simulator: DemoServer | null = null;
afterEach(async () => {
  await simulator?.close();
  simulator = null;
});

const SCRIPT = `label: refund-sim
persona: impatient-refund-seeker
user:
  goal: Get a refund for order 1234, which arrived broken.
  maxTurns: 5
mocks:
  - { tool: find_order, input: { orderId: "1234" }, output: { status: delivered, item: boots, total: 40 } }
  - { tool: issue_refund, input: { orderId: "1234" }, output: { refundId: R-1 } }
expect:
  terminal: finish
  toolCalled: [ { tool: issue_refund, input: { orderId: "1234" } } ]
`;

describe('agent-replay run with a simulated user', () => {
  it('run (live), accept --results, run again: the same transcript with no simulator call', async () => {
    const demo = new DemoAgent();
    const agent = await serve((req) => {
      const out = demo.handle((req.json ?? {}) as Record<string, unknown>);
      return { status: out.status, json: out.body };
    });
    simulator = await startDemoServer();
    const cwd = await makeProject({ config: `agent:\n  url: ${agent.url}\n  retries: 0\nsimulator: { baseUrl: "${simulator.judgeBaseUrl}", model: demo }\ncost: { capUsd: 1 }\n`, personas: { 'refund.yml': SCRIPT } });

    const first = await cli(['run', '--out', 'r1.json', '--commit', 'c'.repeat(40), '--fail-on', 'none'], cwd);
    expect(first.code, first.stderr).toBe(0);
    const r1 = await readResults(join(cwd, 'r1.json'));
    const live = r1.personas[0]!;
    expect(live).toMatchObject({ verdict: 'pass', outcome: 'finish', drift: { verdict: 'no_baseline' } });
    expect(live.turns.map((t) => [t.message, t.source ?? null])).toEqual([
      [null, null],
      ['I want my money back', 'simulator'],
      ['Order 1234', 'simulator'],
      ['It arrived broken', 'simulator'],
    ]);
    expect(live.simulation).toMatchObject({ liveFromTurn: 1, endedBy: 'agent', calls: 3 });
    expect(r1.spend).toMatchObject({ simulatorCalls: 3, baselineTurns: 0 });

    const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('accepted  refund-sim (pass) → ');
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'refund-sim.json'), 'utf8')) as PersonaBaseline;
    expect(stored.transcript.map((t) => t.source ?? null)).toEqual([null, 'simulator', 'simulator', 'simulator']);
    expect(stored.simulation).toEqual({ doneReason: null, goal: 'Get a refund for order 1234, which arrived broken.', instructions: null, persona: 'impatient-refund-seeker' });

    const second = await cli(['run', '--out', 'r2.json', '--commit', 'c'.repeat(40)], cwd);
    expect(second.code, second.stderr).toBe(0);
    const r2 = await readResults(join(cwd, 'r2.json'));
    const replayed = r2.personas[0]!;
    expect(replayed).toMatchObject({ verdict: 'pass', drift: { transcript: 'same', route: 'same', verdict: 'still_passing' } });
    expect(replayed.turns.map((t) => t.message)).toEqual(live.turns.map((t) => t.message));
    expect(replayed.turns.map((t) => t.source ?? null)).toEqual([null, 'baseline', 'baseline', 'baseline']);
    expect(replayed.simulation).toMatchObject({ liveFromTurn: null, calls: 0 });
    expect(r2.spend).toMatchObject({ simulatorCalls: 0, baselineTurns: 3 });
  });

  it('a run above the cost cap names the simulator calls it would make, and sends nothing', async () => {
    let agentRequests = 0;
    const agent = await serve(() => {
      agentRequests++;
      return { status: 200, json: { reply: 'never asked' } };
    });
    simulator = await startDemoServer();
    const cwd = await makeProject({ config: `agent:\n  url: ${agent.url}\nsimulator: { baseUrl: "${simulator.judgeBaseUrl}", model: demo }\ncost: { capUsd: 0.01 }\n`, personas: { 'refund.yml': SCRIPT } });
    const refused = await cli(['run', '--out', 'r.json'], cwd);
    expect(refused.code).toBe(2);
    // maxTurns 5: five simulator calls at most, besides the script itself.
    expect(refused.stderr).toContain('for 6 agent turns (0 fixtures, 1 persona script) and 5 simulator calls is above the cost cap $0.01');
    expect(agentRequests).toBe(0);
  });
});
