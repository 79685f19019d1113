// Slower than the baseline (docs/latency.md) through the real CLI: a loopback agent whose handler
// moves the agent client's injected clock by the delay of the moment, so the latencies are exact
// and nothing sleeps. Accepted at 50 ms, slowed to 600 ms: every item is slower, shown beside its
// drift and in the Changed section; `--fail-on slower` fails the gate, the default gate passes.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import type { Clock } from '../../src/types.js';
import { nativeEcho } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import type { CliIO } from '../../src/cli/output.js';

useCleanup();

const FIXTURES = {
  'f.yml': 'fixtures:\n' + ['refund', 'hours', 'shipping'].map((l) => `  - { label: ${l}, message: "${l}?", assert: { contains: "echo" } }\n`).join(''),
};

/** An agent that takes `delay.ms` on the client's clock for every request. */
async function timedProject(configExtra = ''): Promise<{ cwd: string; delay: { ms: number }; io: Partial<CliIO> }> {
  const clock: Clock & { t: number } = { t: 0, now: () => clock.t, sleep: async () => undefined };
  const delay = { ms: 50 };
  const server = await serve((req) => {
    clock.t += delay.ms;
    return nativeEcho(req);
  });
  const cwd = await makeProject({ config: agentConfig(server.url, `  concurrency: 1\n${configExtra}`), fixtures: FIXTURES });
  return { cwd, delay, io: { engine: { clock, makeAgent: (config) => createHttpAgentClient(config.agent, { clock }) } } };
}

async function acceptedAt50(configExtra = ''): Promise<{ cwd: string; delay: { ms: number }; io: Partial<CliIO> }> {
  const p = await timedProject(configExtra);
  expect((await cli(['run', '--out', 'r1.json'], p.cwd, {}, p.io)).code).toBe(0);
  expect((await cli(['accept', '--results', 'r1.json'], p.cwd, {}, p.io)).code).toBe(0);
  return p;
}

describe('slower than the baseline', () => {
  it('an agent slowed from 50 ms to 600 ms: every item slower, fail-on slower exits 1, the default gate passes', async () => {
    const { cwd, delay, io } = await acceptedAt50();
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'refund.json'), 'utf8')) as Record<string, unknown>;
    // The fixture's message turn (the welcome turn is timed apart, as welcomeLatencyMs).
    expect(stored.latencyMs).toBe(50);

    delay.ms = 600;
    const passing = await cli(['run', '--out', 'r2.json', '--markdown', 'r2.md'], cwd, {}, io);
    expect(passing.code).toBe(0);
    const record = await readResults(join(cwd, 'r2.json'));
    expect(record.fixtures.map((f) => [f.label, f.verdict, f.drift?.verdict, f.slower])).toEqual([
      ['refund', 'pass', 'still_passing', { baselineMs: 50, latencyMs: 600 }],
      ['hours', 'pass', 'still_passing', { baselineMs: 50, latencyMs: 600 }],
      ['shipping', 'pass', 'still_passing', { baselineMs: 50, latencyMs: 600 }],
    ]);
    expect(passing.stdout).toContain('refund · pass · still passing · slower: 50 ms → 600 ms');
    const markdown = await readFile(join(cwd, 'r2.md'), 'utf8');
    expect(markdown).toContain('slower: 50\u00a0ms → 600\u00a0ms'); // a number and its unit kept on one line (wrap.ts)
    expect(markdown).toMatch(/Changed/);

    const gated = await cli(['run', '--out', 'r3.json', '--fail-on', 'slower', '--markdown', 'r3.md'], cwd, {}, io);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toContain('3 fixtures slower than the baseline');
    // The summary and the markdown report say it under the headline, whose words stay what happened
    // (docs/cli.md, "The gate and the exit status"); the default gate's run above says nothing of it.
    expect(gated.stdout.split('\n').slice(0, 2)).toEqual(['agent-replay: No new failures: 3 changed', '  The check fails (fail-on slower): 3 fixtures slower than the baseline (refund, hours, shipping)']);
    expect(await readFile(join(cwd, 'r3.md'), 'utf8')).toContain('### 🟠 No new failures: 3 changed\n**The check fails** (fail-on `slower`): 3 fixtures slower than the baseline (`refund`, `hours`, `shipping`)\n');
    expect(passing.stdout).not.toContain('The check fails');
    expect(markdown).toContain('### ✅ No new failures: 3 changed\n');

    // Accepting the slower replies accepts their latency: the next run at 600 ms is not slower.
    const accepted = await cli(['accept', '--results', 'r2.json'], cwd, {}, io);
    expect(accepted.stdout).toContain('3 accepted');
    const again = await cli(['run', '--out', 'r4.json', '--fail-on', 'slower'], cwd, {}, io);
    expect(again.code).toBe(0);
    expect((await readResults(join(cwd, 'r4.json'))).fixtures.map((f) => f.slower)).toEqual([undefined, undefined, undefined]);
  });
});
