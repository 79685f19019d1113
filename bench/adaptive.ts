// `npm run bench -- adaptive`: adaptive attempts (docs/statistics.md, "Adaptive attempts") counted in
// attempts, not milliseconds, so the figures are the same on every machine: outcomes come from a
// seeded generator.
//
// 250 fixtures with 10-attempt baselines drawn at a pass probability of 0.9: 200 unchanged (still
// 0.9) and 50 dropped to 0.2. The same items are replayed twice through the real runner against a
// loopback HTTP agent: `repeat: {count: 3, minPass: 2, max: 10}` (adaptive) and a fixed
// `repeat: {count: 10, minPass: 7}`. Printed: the attempts each spends on the unchanged and the
// dropped items, and the regressions each finds (and false alarms). Target: the adaptive run spends
// under half the fixed run's attempts on the unchanged items.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpAgentClient } from '../src/agent/index.js';
import { createRegexPool } from '../src/assertions/index.js';
import { defaultConfig } from '../src/config.js';
import { seededRandom } from '../src/evaluate/stats.js';
import { policyOf } from '../src/evaluate/finish.js';
import { replay } from '../src/replay/index.js';
import { percentFigure } from './figures.js';
import type { Baseline, Fixture, Repeat, RunRecord } from '../src/types.js';

const SEED = 'bench-adaptive';
const UNCHANGED = 200;
const DROPPED = 50;

export interface AdaptiveRow {
  figure: string;
  measured: string;
  target: string;
  ok: boolean | null;
}

interface RunFigures {
  unchangedAttempts: number;
  droppedAttempts: number;
  /** Dropped items called regressed. */
  found: number;
  /** Unchanged items called regressed. */
  falseAlarms: number;
}

const labels = [...Array.from({ length: UNCHANGED }, (_, i) => `u${i + 1}`), ...Array.from({ length: DROPPED }, (_, i) => `d${i + 1}`)];
const draw = (key: string, p: number): boolean => seededRandom(`${SEED}/${key}`)() < p;
const passesNow = (label: string, k: number): boolean => draw(`now/${label}/${k}`, label.startsWith('d') ? 0.2 : 0.9);

function baselineOf(label: string): Baseline {
  const passed = Array.from({ length: 10 }, (_, k) => draw(`baseline/${label}/${k + 1}`, 0.9)).filter(Boolean).length;
  return { label, reply: 'yes', route: null, verdict: 3 * passed >= 20 ? 'pass' : 'fail', attempts: { passed, total: 10 }, acceptedAt: '2026-01-01T00:00:00.000Z', commit: null };
}

function figuresOf(run: RunRecord): RunFigures {
  const attempts = (prefix: string): number => run.fixtures.filter((f) => f.label.startsWith(prefix)).reduce((n, f) => n + (f.repeat?.count ?? 1), 0);
  const regressed = (prefix: string): number => run.fixtures.filter((f) => f.label.startsWith(prefix) && f.stats?.tier === 'regressed').length;
  return { unchangedAttempts: attempts('u'), droppedAttempts: attempts('d'), found: regressed('d'), falseAlarms: regressed('u') };
}

export async function measureAdaptive(): Promise<{ adaptive: RunFigures; fixed: RunFigures }> {
  // Each attempt's session ends in -k (replay/repeat.ts): the agent answers attempt k of an item from the generator.
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: string; session: string };
      const k = Number(/-(\d+)$/.exec(body.session)?.[1] ?? '1');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ reply: passesNow(body.message, k) ? 'yes' : 'no', route: null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`;
  const agent = createHttpAgentClient({ ...defaultConfig().agent, url, start: null, concurrency: 16, retries: 0 });
  const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
  const fixtures: Fixture[] = labels.map((label) => ({ label, message: label, persona: null, assertion: { kind: 'contains', value: 'yes' }, file: 'bench.yml', line: 1 }));
  const baselines = { fixtures: new Map(labels.map((l) => [l, baselineOf(l)])), personas: new Map() };
  const runWith = async (repeat: Repeat): Promise<RunFigures> =>
    figuresOf(
      await replay({ fixtures, personas: [], baselines }, { agent, regex, judge: null, sessionId: (f) => `bench-${f.label}` }, {
        concurrency: 16,
        estimate: { usd: 0, capUsd: 1, aboveCap: false, confirmed: false },
        commit: null,
        tool: { name: 'agent-replay', version: 'bench' },
        agentHost: null,
        judgeName: null,
        policy: policyOf({ repeat }),
      }),
    );
  try {
    return { adaptive: await runWith({ count: 3, minPass: 2, max: 10 }), fixed: await runWith({ count: 10, minPass: 7 }) };
  } finally {
    await agent.close();
    await regex.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The bench's rows (bench/run.ts prints them with the others). */
export async function adaptiveRows(): Promise<AdaptiveRow[]> {
  const { adaptive, fixed } = await measureAdaptive();
  const share = adaptive.unchangedAttempts / fixed.unchangedAttempts;
  const line = (f: RunFigures): string =>
    `unchanged ${f.unchangedAttempts} attempts (${(f.unchangedAttempts / UNCHANGED).toFixed(2)} each), dropped ${f.droppedAttempts}; regressed: ${f.found}/${DROPPED} dropped, ${f.falseAlarms}/${UNCHANGED} unchanged`;
  return [
    { figure: `adaptive attempts: ${UNCHANGED} unchanged (0.9) + ${DROPPED} dropped (0.2 from 0.9), 10-attempt baselines`, measured: '', target: '', ok: null },
    { figure: '  fixed repeat {count: 10}', measured: line(fixed), target: '', ok: null },
    { figure: '  adaptive repeat {count: 3, max: 10}', measured: line(adaptive), target: '', ok: null },
    { figure: '  adaptive / fixed attempts on unchanged items', measured: percentFigure(share), target: '< 50%', ok: share < 0.5 },
  ];
}
