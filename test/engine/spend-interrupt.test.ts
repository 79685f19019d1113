// Spend on an interrupted run (docs/semantics.md, "Cost"): a fixture abandoned in flight after its
// welcome turn was answered still counts that turn, against a real loopback agent whose message
// turn hangs until the run is interrupted.

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import { runCheck } from '../../src/engine.js';
import type { Clock } from '../../src/types.js';
import { nativeEcho, startAgentServer } from '../support/agent-server.js';

const { servers, dirs } = closedAfterEach();

const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };

describe('spend on an interrupted run', () => {
  it('counts the welcome turn a fixture abandoned in flight had answered', async () => {
    const interrupt = new AbortController();
    // "one" answers both turns; "two" answers its welcome turn, then its message turn hangs and
    // the run is interrupted as it arrives.
    const agent = await startAgentServer((req) => {
      const body = req.json as { start?: boolean; message?: string; session?: string };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, usage: { inputTokens: 5, outputTokens: 2 } } };
      if (body.message === 'two') {
        interrupt.abort(new Error('interrupted by SIGINT'));
        return 'hang';
      }
      return nativeEcho(req);
    });
    servers.push(agent);
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-spend-interrupt-'));
    dirs.push(cwd);
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await writeFile(join(dir, 'config.yml'), `agent:\n  url: ${agent.url}/chat\n  retries: 0\n  concurrency: 1\ncost: { capUsd: 5 }\n`);
    await writeFile(join(dir, 'fixtures', 'f.yml'), 'fixtures:\n  - { label: one, message: one }\n  - { label: two, message: two }\n');
    const result = await runCheck({ dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null }, { clock, signal: interrupt.signal });
    if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}`);
    expect(result.record.interrupted).toBe(true);
    expect(result.record.fixtures.map((f) => f.label)).toEqual(['one']);
    // Three turns were answered: one's welcome and message, two's welcome.
    expect(agent.requests.length).toBe(4);
    expect(result.record.spend).toMatchObject({ agentTurns: 3, agentRetries: 0 });
  });

  it("counts a persona script's turn answered while its spans were awaited when the run was interrupted", async () => {
    const interrupt = new AbortController();
    const agent = await startAgentServer(nativeEcho);
    servers.push(agent);
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-spend-interrupt-'));
    dirs.push(cwd);
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'personas'), { recursive: true });
    await writeFile(join(dir, 'config.yml'), `agent:\n  url: ${agent.url}/chat\n  retries: 0\ncost: { capUsd: 5 }\n`);
    await writeFile(join(dir, 'personas', 'p.yml'), 'personas:\n  - label: refund\n    opening: I want a refund\n    followUps: [ "Order 1234" ]\n    expect: { reply: [ { contains: echo } ] }\n');
    // The observer waits for the opening turn's spans (docs/traces.md) and the run is interrupted meanwhile.
    let reports = 0;
    const result = await runCheck(
      { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null },
      {
        clock,
        signal: interrupt.signal,
        makeTurnObserver: () => ({
          beforeSend: () => undefined,
          afterReply: async (_trace, fromResponse) => {
            if (++reports < 2) return fromResponse;
            interrupt.abort(new Error('interrupted by SIGINT'));
            return new Promise<never>(() => undefined);
          },
        }),
      },
    );
    if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}`);
    expect(result.record.interrupted).toBe(true);
    // The welcome turn and the opening were answered; the follow-up was never sent.
    expect(agent.requests.length).toBe(2);
    expect(result.record.spend).toMatchObject({ agentTurns: 2, agentRetries: 0 });
  });
});
