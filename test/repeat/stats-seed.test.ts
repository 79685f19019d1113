// The run's bootstrap seed (docs/statistics.md, "How they are computed"; docs/results-json.md):
// results.json records it as `stats.seed`, two runs of the same suite with the same outcomes write
// byte-identical statistics, and the recorded seed alone, with the recorded tallies, gives the
// recorded interval again. Through the real CLI against a loopback agent whose pass or fail per
// item and attempt is fixed.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairedBootstrap, statsSeed } from '../../src/evaluate/index.js';
import type { Baseline } from '../../src/types.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

/** Passes of each item's 5 attempts now; every baseline is 5 of 5. */
const PASSES: Record<string, number> = { a: 3, b: 5, c: 4, d: 0 };
const LABELS = Object.keys(PASSES);

const baseline = (label: string): Baseline => ({
  label,
  reply: 'yes',
  route: null,
  verdict: 'pass',
  attempts: { passed: 5, total: 5 },
  acceptedAt: '2026-11-01T10:00:00.000Z',
  commit: 'a'.repeat(40),
});

describe("the run's bootstrap seed", () => {
  it('is recorded in results.json; the same suite and outcomes give byte-identical stats, and the seed reproduces the interval', async () => {
    const server = await serve((req) => {
      const body = req.json as { message: string; session: string; start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null } };
      const k = Number(/-(\d+)$/.exec(body.session)?.[1] ?? '1');
      return { json: { reply: k <= (PASSES[body.message] as number) ? 'yes' : 'no', route: null } };
    });
    const cwd = await makeProject({
      config: agentConfig(server.url) + 'repeat:\n  count: 5\n  minPass: 3\n',
      fixtures: { 'f.yml': 'fixtures:\n' + LABELS.map((l) => `  - { label: ${l}, message: "${l}", assert: { contains: "yes" } }\n`).join('') },
      baselines: LABELS.map(baseline),
    });
    const first = await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'one.json'], cwd);
    const second = await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'two.json'], cwd);
    expect([first.code, second.code]).toEqual([0, 0]);
    const one = await readResults(join(cwd, 'one.json'));
    const two = await readResults(join(cwd, 'two.json'));
    expect(one.fixtures.map((f) => [f.label, f.stats?.passed, f.stats?.total])).toEqual(LABELS.map((l) => [l, PASSES[l], 5]));

    // The seed is in the record: the suite hash over the items' labels and definitions.
    expect(one.stats?.seed).toBe(statsSeed(one.fixtures));
    expect(JSON.stringify(two.stats)).toBe(JSON.stringify(one.stats));
    expect(JSON.stringify(two.fixtures.map((f) => f.stats))).toBe(JSON.stringify(one.fixtures.map((f) => f.stats)));

    // From the record alone: the recorded tallies and the recorded seed give the recorded interval.
    const pairs = one.fixtures.map((f) => {
      const s = f.stats!;
      return { before: s.baseline.passed / s.baseline.total, now: s.passed / s.total, tallies: { before: s.baseline, now: { passed: s.passed, total: s.total } } };
    });
    expect(pairedBootstrap(pairs, one.stats!.seed!)?.ci).toEqual(one.stats?.ci);
  }, 60_000);
});
