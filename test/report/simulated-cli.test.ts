// Simulated users through the CLI, rendered from real records (docs/simulated-users.md): a loopback
// agent (native protocol, welcome turn) and the loopback simulator of test/simulator/server.ts,
// real files, `run --markdown --junit --html`, `accept`. The first run simulates live; the accepted
// baseline replays with no simulator call; a reply changed at turn 2 makes the user live from turn
// 3; an unreachable simulator leaves the script not evaluated (grey, exit 1 as unverified).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';
import { playUntil, startSimulatorServer } from '../simulator/server.js';
import type { AgentHandler } from '../support/agent-server.js';
import { githubHtml } from './helpers.js';

useCleanup();

const SCRIPT = `label: refund-sim
opening: I want my money back
user:
  goal: Get a refund for order 1234
  maxTurns: 5
expect: { conversations: [refunds] }
`;

/** The agent: a welcome, then a reply built from the message; `reword` changes the reply of that turn. */
function agent(state: { reword: number | null }): AgentHandler {
  const turns = new Map<string, number>();
  return (req) => {
    const body = (req.json ?? {}) as { session: string; message?: string; start?: boolean };
    if (body.start === true) return { json: { reply: 'Welcome to the shop!', route: { conversation: 'welcome', stage: 'hello' }, ended: false } };
    const n = (turns.get(body.session) ?? 0) + 1;
    turns.set(body.session, n);
    const reply = state.reword === n ? `Reply ${n}, said differently.` : `Reply ${n} to: ${String(body.message)}`;
    return { json: { reply, route: { conversation: 'refunds', stage: `s${n}` }, ended: false } };
  };
}

/** "2 · User (from the baseline)" for each user message of the rendered markdown, in order. */
function userLabels(md: string): string[] {
  return [...githubHtml(md).matchAll(/<strong>Turn (\d+) · User<\/strong> \(([^)]*)\):/g)].map((m) => `${m[1]} ${m[2]}`);
}

function factsLine(md: string): string {
  return md.split('\n').find((l) => l.startsWith('≈ ')) ?? '';
}

describe('simulated users from the CLI, on every surface', () => {
  it('simulated live, accepted, replayed unchanged, live from turn 3, and a simulator fault', async () => {
    const state: { reword: number | null } = { reword: null };
    const shop = await serve(agent(state));
    const sim = await startSimulatorServer(playUntil(3));
    try {
      // The simulator takes its retries and backoff from the judge: no real wait between retries. The
      // cap leaves room for the meaning calls the estimate counts once a baseline exists (docs/meaning.md, "Costs").
      const config = (simulatorUrl: string): string => agentConfig(shop.url, `judge: { backoffMs: 0 }\nsimulator: { baseUrl: "${simulatorUrl}", model: sim-model }\ncost: { capUsd: 1 }\n`);
      const cwd = await makeProject({ config: config(sim.url), personas: { 'refund.yml': SCRIPT } });
      const runOnce = async (name: string): Promise<{ code: number; stdout: string; md: string; junit: string; html: string }> => {
        const r = await cli(['run', '--out', `${name}.json`, '--markdown', `${name}.md`, '--junit', `${name}.xml`, '--html', `${name}.html`, '--commit', 'c'.repeat(40)], cwd);
        const read = (ext: string): Promise<string> => readFile(join(cwd, `${name}.${ext}`), 'utf8');
        return { code: r.code, stdout: r.stdout, md: await read('md'), junit: await read('xml'), html: await read('html') };
      };

      // 1. No baseline: the opening is the script's, every later message the simulator's.
      const first = await runOnce('r1');
      expect(first.code, first.stdout).toBe(0);
      expect(userLabels(first.md)).toEqual(['1 script', '2 simulated', '3 simulated']);
      expect(first.md).toContain('user simulated from turn 2');
      expect(first.md).toMatch(/ended\\: the simulated user was done\\: goal reached after 3 turns · 3 simulator calls/);
      expect(factsLine(first.md)).toContain(', 3 simulator calls made');
      expect(factsLine(first.md)).not.toContain('replayed from baselines');
      expect(first.stdout).toContain('simulated user: user simulated from turn 2 · ended: the simulated user was done: goal reached after 3 turns · 3 simulator calls');
      const calls = sim.asks.length;

      // 2. Accepted, then replayed against an unchanged agent: the stored messages, no simulator call.
      expect((await cli(['accept', '--results', 'r1.json'], cwd)).code).toBe(0);
      const second = await runOnce('r2');
      expect(second.code, second.stdout).toBe(0);
      expect(sim.asks.length).toBe(calls);
      expect(factsLine(second.md)).toContain('2 user turns replayed from baselines');
      expect(factsLine(second.md)).not.toContain('simulator call');
      expect(second.md).toContain('### ✅ No regressions: 1 unchanged');
      const replayed = (await readResults(join(cwd, 'r2.json'))).personas[0];
      expect(replayed?.simulation).toMatchObject({ liveFromTurn: null, endedBy: 'simulator', calls: 0 });
      expect(second.html).toContain('"source":"from the baseline"');
      expect(second.html).not.toContain('"source":"simulated"');

      // 3. The reply of turn 2 changed: turns 1-2 replayed, the simulator live from turn 3.
      state.reword = 2;
      const third = await runOnce('r3');
      expect(third.code, third.stdout).toBe(0);
      expect(userLabels(third.md)).toEqual(['2 from the baseline', '1 script', '2 from the baseline', '3 simulated']);
      expect(third.md).toContain('the check passed · user simulated from turn 3');
      expect(third.md).toContain('First difference from the baseline: Turn 2');
      expect(third.stdout).toContain('Turn 2 reply vs baseline (- baseline, + new, user message from the baseline):');
      expect(third.junit).toContain('tests="1" failures="0" errors="0" skipped="0"');

      // 4. The simulator is gone when it is needed: not evaluated, grey, its cause named; never a failure.
      await sim.close();
      const fourth = await runOnce('r4');
      expect(fourth.code).toBe(1);
      const head = fourth.md.split('\n').find((l) => l.startsWith('### ')) ?? '';
      expect(head).toMatch(/^### ⚪ Not verified: /);
      expect(fourth.md).toMatch(/\*\*Cause\*\*: simulator unreachable/);
      expect(fourth.md).toMatch(/<summary>⚪ 🎭 script <b>refund-sim<\/b> · not evaluated · drift unknown · transcript changed · [^<]*<code>[^<]*<\/code><br>simulator unreachable: /);
      expect(fourth.md).toContain('⚪ **Not evaluated**: the simulator could not play the user, so the agent was not measured (not a failure).');
      expect(fourth.md).not.toContain('❌');
      expect(fourth.md).toContain('ended\\: the simulator could not write the message of turn 3 · 1 simulator call');
      expect(fourth.md).not.toContain('user replayed from the baseline');
      expect(fourth.junit).toContain('failures="0" errors="0" skipped="1"');
      expect(fourth.junit).toMatch(/<skipped message="not evaluated \(not a failure\): simulator unreachable: /);
      expect(fourth.stdout.split('\n')[0]).toMatch(/^agent-replay: Not verified: /);
    } finally {
      await sim.close().catch(() => undefined);
    }
  });
});
