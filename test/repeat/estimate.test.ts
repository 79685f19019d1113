// Repeat and cost (docs/semantics.md, "Cost"): the estimate is a worst case, so a repeated item
// costs every attempt; spend counts what the real loopback agent and judge answered.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import { runCheck, type CheckOptions } from '../../src/engine.js';
import type { Clock } from '../../src/types.js';
import { nativeEcho, startAgentServer, type AgentServer } from '../support/agent-server.js';
import { json, startServer, type TestServer } from '../judge/server.js';
import { capRefusalText } from '../../src/cli/main.js';

const { servers, dirs } = closedAfterEach();

const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };
const judgeAnswer = json(200, { choices: [{ message: { role: 'assistant', content: '{"rationale": "fine", "score": 0.9}' } }] });

async function project(agentUrl: string, judgeUrl: string, capUsd: number): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-repeat-'));
  dirs.push(cwd);
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'personas'), { recursive: true });
  await writeFile(
    join(dir, 'config.yml'),
    `agent:\n  url: ${agentUrl}\n  retries: 0\n` +
      `judge: { provider: openai, baseUrl: "${judgeUrl}", model: m, apiKey: k, retries: 0 }\n` +
      `cost: { capUsd: ${capUsd}, agentTurnUsd: 0.01, judgeCallUsd: 0.005 }\nrepeat: { count: 2, minPass: 1 }\n`,
  );
  await writeFile(
    join(dir, 'fixtures', 'f.yml'),
    `fixtures:\n  - { label: judged, message: hello, assert: { judge: "polite" }, repeat: { count: 3 } }\n  - { label: plain, message: plain }\n`,
  );
  await writeFile(join(dir, 'personas', 'p.yml'), `label: refund\nopening: I want a refund\nfollowUps: [ "Order 1234" ]\nexpect: { criteria: [ Stayed polite ] }\n`);
  return cwd;
}

function options(cwd: string): CheckOptions {
  return { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null };
}

async function pair(): Promise<{ agent: AgentServer; judge: TestServer }> {
  const agent = await startAgentServer(nativeEcho);
  const judge = await startServer([judgeAnswer]);
  servers.push(agent, judge);
  return { agent, judge };
}

describe('repeat: estimate and spend', () => {
  // Turns: judged 3 x (welcome + message), plain 2 x 2 (the global repeat), the script 2 x (welcome,
  // opening, follow-up) = 6 + 4 + 6 = 16 turns at 0.01; judge calls: 3 + 2 x 1 criterion = 5 at 0.005;
  // meaning calls at most (docs/meaning.md, "Costs"; no baselines): each attempt after the first
  // against attempt 1, per reply: judged 2, plain 1, the script 3 (its welcome turn and 2 message
  // turns: a welcome turn's reply gets a meaning too, docs/meaning.md, "Persona scripts") = 6 at 0.005.
  const worstCase = 16 * 0.01 + 5 * 0.005 + 6 * 0.005;

  it('the estimate multiplies every item by its count; spend counts what was really asked', async () => {
    const { agent, judge } = await pair();
    const result = await runCheck(options(await project(`${agent.url}/chat`, judge.url, 5)), { clock });
    if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}`);
    expect(result.record.estimate.usd).toBeCloseTo(worstCase, 9);
    expect(result.record.spend).toMatchObject({ agentTurns: 16, judgeCalls: 5 });
    expect(agent.requests).toHaveLength(16);
    expect(judge.received).toHaveLength(5);
    expect(result.record.fixtures.map((f) => [f.label, f.repeat?.count])).toEqual([['judged', 3], ['plain', 2]]);
    expect(result.record.personas[0]?.repeat).toMatchObject({ count: 2, minPass: 1, passed: 2 });
    // The run's repeat, by which a merge tells shards run alike (docs/results-json.md): config.yml's, no flag given.
    expect(result.record.repeat).toEqual({ count: 2, minPass: 1 });
  });

  it('a cap below the worst case refuses the run before anything is spent, counting every attempt\'s judge calls', async () => {
    const { agent, judge } = await pair();
    const result = await runCheck(options(await project(`${agent.url}/chat`, judge.url, 0.17)), { clock });
    expect(result).toMatchObject({ kind: 'refused', judgeCalls: 5, fixtureCount: 2, personaCount: 1, agentTurns: 16 });
    if (result.kind !== 'refused') throw new Error(`expected a refusal, got ${result.kind}`);
    expect(result.estimate.usd).toBeCloseTo(worstCase, 9);
    // Every count the estimate priced, so that the figure adds up by hand: 16 turns, not "2 fixtures and 1 persona script" alone.
    const text = capRefusalText(result.estimate, result.fixtureCount, result.judgeCalls, { dir: 'suite' }, result.personaCount, result.simulatorCalls, result.agentTurns);
    expect(text).toContain('the estimated cost $0.215 for 16 agent turns (2 fixtures, 1 persona script), 5 judge calls and 6 meaning calls at most is above the cost cap $0.17.');
    expect(agent.requests).toHaveLength(0);
    expect(judge.received).toHaveLength(0);
  });
});
