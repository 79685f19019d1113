// Pass-rate statistics in a real run (docs/statistics.md): a loopback agent whose pass or fail per
// item and attempt is drawn from a seeded generator, 10-attempt baselines, `repeat: {count: 3}`;
// each item's recorded stats equal the statistics module's over the same outcomes, the record is one
// results.json accepts, and `fail-on: regressed` fails the run only for the item that dropped.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { gateRun, itemStats, seededRandom } from '../../src/evaluate/index.js';
import { policyOf } from '../../src/evaluate/finish.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { replay } from '../../src/replay/index.js';
import type { Baseline, Fixture } from '../../src/types.js';
import { startAgentServer } from '../support/agent-server.js';
import { replayOptions } from '../support/replay-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS = replayOptions({ concurrency: 4, policy: policyOf({ repeat: { count: 3, minPass: 2 } }) });

const fixture = (label: string): Fixture => ({ label, message: label, persona: null, assertion: { kind: 'contains', value: 'yes' }, file: '.agent-replay/fixtures/f.yml', line: 1 });
const baseline = (label: string): Baseline =>
  ({ label, reply: 'yes', route: null, verdict: 'pass', attempts: { passed: 10, total: 10 }, acceptedAt: '2026-01-01T00:00:00.000Z', commit: null }) as Baseline;

describe('stats in a repeated run against 10-attempt baselines (real HTTP, seeded outcomes)', () => {
  it('records each item\'s stats as the module computes them from the same outcomes; fail-on: regressed meets only the dropped item', async () => {
    // Each item passes an attempt with its probability, drawn from a generator seeded by item and attempt.
    const probability: Record<string, number> = { steady: 0.9, dropped: 0 };
    const passes = (label: string, attempt: string): boolean => seededRandom(`${label}/${attempt}`)() < (probability[label] as number);
    const server = await startAgentServer((req) => {
      const body = req.json as { message: string; session: string };
      const attempt = /-(\d+)$/.exec(body.session)?.[1] ?? '1';
      return { json: { reply: passes(body.message, attempt) ? 'yes' : 'no', route: null } };
    });
    cleanups.push(() => server.close());
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, concurrency: 8, retries: 0 });
    cleanups.push(() => agent.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());

    const labels = ['steady', 'dropped'];
    const run = await replay(
      { fixtures: labels.map(fixture), personas: [], baselines: { fixtures: new Map(labels.map((l) => [l, baseline(l)])), personas: new Map() } },
      { agent, regex, judge: null, sessionId: (f) => `s-${f.label}` },
      OPTIONS,
    );
    const written = JSON.parse(JSON.stringify(run)) as unknown;
    expect(runRecordSchema.parse(written)).toEqual(written);

    for (const f of run.fixtures) {
      const now = { passed: [1, 2, 3].filter((k) => passes(f.label, String(k))).length, total: 3 };
      expect(f.stats).toEqual(itemStats({ passed: 10, total: 10 }, now, { alpha: 0.05, maxLooks: 1 }));
    }
    const [steady, dropped] = run.fixtures;
    // 10/10 -> 0/3: p = 1/286, regressed.
    expect(dropped?.stats).toMatchObject({ passed: 0, total: 3, tier: 'regressed' });
    expect(dropped?.stats?.pDrop).toBeCloseTo(1 / 286, 12);
    expect(steady?.stats?.tier).not.toBe('regressed');
    const gate = gateRun(run, ['regressed']);
    expect(gate.offenders).toEqual([{ condition: 'regressed', labels: ['dropped'], fixtures: 1, scripts: 0 }]);
    expect(gateRun({ ...run, fixtures: [steady!] }, ['regressed']).failed).toBe(false);
  });
});
