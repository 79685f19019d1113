// An item none of whose attempts was checked measured nothing of its pass rate (docs/statistics.md,
// "Which items get `stats`"; docs/semantics.md, "Not verified"): through the real CLI, an agent
// that answers HTTP 503 to one message every time, against a 10-attempt baseline, with
// `repeat: {count: 3, minPass: 2, max: 9}` and `--fail-on newly_failing,regressed`. The item read
// "errored 0/3 · pass rate 10/10 → 0/3 (p = 0.003; regressed below 0.0167): regressed", the headline
// counted it red as regressed and the gate failed "1 fixture regressed (pass rate dropped)", for an
// outage the same report calls "not a failure". It has no stats now: not verified, never regressed.
// The run's pass-rate line leaves it out, and says so beside its count of items.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentReply } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, useCleanup } from '../cli/helpers.js';
import { attemptAgent, tenOfTen, type Turn } from './support.js';

useCleanup();

/** "yes" to every message but "down", which gets an HTTP 503 at every attempt. */
const downAnswers503 = (t: Turn): string | AgentReply => (t.message === 'down' ? { status: 503, json: { error: 'down' } } : 'yes');

describe('an item whose every attempt errored', () => {
  it('has no stats, no tier and no regression: the run is not verified, and the gate on regressed passes', async () => {
    const server = await attemptAgent(downAnswers503);
    const cwd = await makeProject({
      config: agentConfig(server.url) + 'repeat: { count: 3, minPass: 2, max: 9 }\n',
      fixtures: { 'f.yml': 'fixtures:\n  - { label: down, message: "down", assert: { contains: "yes" } }\n  - { label: up, message: "up", assert: { contains: "yes" } }\n' },
      baselines: [tenOfTen('down'), tenOfTen('up')],
    });
    const r = await cli(['run', '--confirm-cost', '--fail-on', 'newly_failing,regressed', '--out', 'r.json', '--markdown', 'r.md'], cwd);
    const record = await readResults(join(cwd, 'r.json'));
    const down = record.fixtures.find((f) => f.label === 'down');
    expect(down?.errored).toBe(true);
    // Every attempt errored: no extra attempt (3 made), and nothing measured.
    expect(down?.attempts?.length).toBe(3);
    expect(down?.stats).toBeUndefined();
    expect(r.stdout).not.toMatch(/regressed/);
    expect(r.stdout).toContain('Not verified');
    expect(r.code).toBe(0);
  });

  it("is left out of the run's pass rate, and the line says so beside its count", async () => {
    const server = await attemptAgent(downAnswers503);
    const cwd = await makeProject({
      config: agentConfig(server.url) + 'repeat: { count: 3, minPass: 2 }\n',
      fixtures: { 'f.yml': 'fixtures:\n  - { label: down, message: "down", assert: { contains: "yes" } }\n  - { label: up, message: "up", assert: { contains: "yes" } }\n' },
      baselines: [tenOfTen('down'), tenOfTen('up')],
    });
    const r = await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'r.json', '--markdown', 'r.md', '--html', 'r.html'], cwd);
    expect((await readResults(join(cwd, 'r.json'))).stats?.items).toBe(1);
    // Agreement says "1 errored left out of the denominator"; the pass rate's count said "over 1 item with a baseline" of two.
    const words = 'over 1 item with a baseline (1 errored left out)';
    expect(r.stdout).toContain(words);
    expect(await readFile(join(cwd, 'r.md'), 'utf8')).toContain(words);
    expect(await readFile(join(cwd, 'r.html'), 'utf8')).toContain(words);
  });
});
