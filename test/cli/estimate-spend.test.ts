// The estimate against what the run spent (docs/semantics.md, "Cost"; docs/meaning.md, "Costs";
// docs/statistics.md, "The estimate"), through the real CLI: a loopback agent, the demo judge as
// the meaning judge, and results.json's estimate read beside its spend counters.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import type { Baseline } from '../../src/types.js';
import type { AgentHandler } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();
let demo: DemoServer;
beforeAll(async () => {
  demo = await startDemoServer();
});
afterAll(() => demo.close());

const COMMIT = 'c'.repeat(40);
// Words with no number in them, so the facts rule never decides and every differing reply asks the meaning judge.
const WORDS = ['indeed', 'truly', 'surely', 'kindly', 'gladly', 'warmly', 'happily', 'gently', 'nicely', 'fondly', 'calmly', 'boldly'];

/** The native protocol with a welcome turn; once `vary` is set, every reply (the welcome too) is worded anew. */
function rewordingAgent(): { handler: AgentHandler; vary: () => void } {
  let n = 0;
  let varying = false;
  const word = (text: string): string => (varying ? `${text} ${WORDS[n++ % WORDS.length] as string}` : text);
  return {
    vary: () => void (varying = true),
    handler: (req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: word('Welcome to the shop!'), route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
      return { json: { reply: word(`ok: ${String(body.message)}`), route: { conversation: 'c', stage: 's' }, offTrack: [], ended: false } };
    },
  };
}

const meaningJudge = (): string => `judge:\n  provider: openai\n  baseUrl: "${demo.judgeBaseUrl}"\n  apiKey: x\n  model: demo\nmeaning: { check: judge }\n`;

describe('the estimate is an upper bound of the meaning calls made', () => {
  it("a persona script's welcome turn is a reply compared: its meaning calls are counted", async () => {
    const agent = rewordingAgent();
    const server = await serve(agent.handler);
    const cwd = await makeProject({
      config: `${agentConfig(server.url)}${meaningJudge()}cost: { capUsd: 5 }\n`,
      personas: { 'p.yml': 'label: script\nopening: hello\nfollowUps: [more]\nexpect: { reply: [ { contains: "ok" } ] }\nrepeat: { count: 2, minPass: 1 }\n' },
    });
    const first = await cli(['run', '--out', 'r1.json', '--commit', COMMIT, '--fail-on', 'none'], cwd);
    expect(first.code, first.stderr).toBe(0);
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).code).toBe(0);

    agent.vary();
    const second = await cli(['run', '--out', 'r2.json', '--commit', COMMIT, '--fail-on', 'none'], cwd);
    expect(second.code, second.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r2.json'));
    // 3 replies (welcome, opening, follow-up) x (2 attempts against the baseline + attempt 2 against attempt 1).
    expect(record.spend?.meaningCalls).toBe(9);
    expect(record.estimate.meaningCalls).toBe(9);
  });
});

describe("adaptive attempts: the range's low end", () => {
  it('counts the meaning calls of the attempts at count, not those of max', async () => {
    const server = await serve(rewordingAgent().handler);
    const base: Baseline = { label: 'f', reply: 'ok: hi', route: null, verdict: 'pass', attempts: { passed: 9, total: 10 }, acceptedAt: '2026-11-01T10:00:00.000Z', commit: 'a'.repeat(40) };
    const cwd = await makeProject({
      config: `${agentConfig(server.url)}${meaningJudge()}repeat: { count: 3, minPass: 2, max: 9 }\ncost: { capUsd: 0.01, agentTurnUsd: 0.01, judgeCallUsd: 0.001 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: f, message: hi, assert: { contains: ok } }\n' },
      baselines: [base],
    });
    const r = await cli(['run', '--out', 'r.json', '--commit', COMMIT, '--fail-on', 'none', '--confirm-cost'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    // max: 9 attempts x 2 turns x $0.01 + (9 against the baseline + 8 against attempt 1) x $0.001.
    expect(record.estimate).toMatchObject({ usd: 0.197, meaningCalls: 17 });
    // at count: 3 x 2 x $0.01 + (3 + 2) x $0.001.
    expect(record.estimate.adaptive).toEqual({ items: 1, lowUsd: 0.065 });
  });
});

describe('no judge configured: the estimate counts no judge call', () => {
  it('a judge assertion and a script criterion are not evaluated, so a run at the cap without them is not refused for them', async () => {
    const server = await serve();
    const cwd = await makeProject({
      // Two fixtures and one script of one message, each with a welcome turn: 6 agent turns at $0.01 = the cap.
      config: `${agentConfig(server.url)}cost: { capUsd: 0.06 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: judged, message: a, assert: { judge: "is polite" } }\n  - { label: plain, message: b }\n' },
      personas: { 'p.yml': 'label: script\nopening: c\nexpect: { criteria: [polite] }\n' },
    });
    const r = await cli(['run', '--out', 'r.json', '--commit', COMMIT, '--fail-on', 'none'], cwd);
    expect(r.stderr).not.toContain('not run: the estimated cost');
    expect(r.code, r.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    expect(record.estimate).toMatchObject({ usd: 0.06, capUsd: 0.06, aboveCap: false });
    expect(record.spend).toMatchObject({ judgeCalls: 0 });
    expect(record.fixtures.find((f) => f.label === 'judged')?.verdict).toBe('not_evaluated');
  });
});

describe('no simulator configured: the estimate counts no simulator call', () => {
  it("a simulated script's live turns are not evaluated without simulator: or judge:, so they are not priced", async () => {
    const server = await serve();
    const cwd = await makeProject({
      // maxTurns 2 with a welcome turn: 3 agent turns at $0.01 = the cap; 2 simulator calls would be $0.01 more.
      config: `${agentConfig(server.url)}cost: { capUsd: 0.03 }\n`,
      personas: { 'p.yml': 'label: sim\nopening: hello\nuser: { goal: get a refund, maxTurns: 2 }\nexpect: { terminal: finish }\n' },
    });
    const r = await cli(['run', '--out', 'r.json', '--commit', COMMIT, '--fail-on', 'none'], cwd);
    expect(r.stderr).not.toContain('not run: the estimated cost');
    expect(r.code, r.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    expect(record.estimate).toMatchObject({ usd: 0.03, capUsd: 0.03, aboveCap: false });
    expect(record.personas[0]?.verdict).toBe('not_evaluated');
  });
});
