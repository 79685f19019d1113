// The run's pass-rate line never reads 100% beside a failure, nor 0% beside a pass
// (docs/statistics.md, "The run's pass-rate line"): through the real CLI, 100 fixtures with
// 3-attempt baselines that all passed, `repeat: {count: 3, minPass: 2}`, and one attempt of one
// item failing. The mean rate now is (99 + 2/3) / 100 = 0.99667: it read "pass rate 100% → 100%:
// 0 points", a perfect run. It read ">99%", with −1 point, then; shown to the tenth as agreement is,
// it reads "99.7%", with −0.3 points, in the terminal, the comment and report.html alike
// (">99.9%" below that: test/report/tiers.test.ts).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRateText } from '../../src/report/rates.js';
import type { Baseline } from '../../src/types.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

const LABELS = Array.from({ length: 100 }, (_, i) => `i${String(i).padStart(3, '0')}`);

const baseline = (label: string): Baseline => ({
  label,
  reply: 'yes',
  route: null,
  verdict: 'pass',
  attempts: { passed: 3, total: 3 },
  acceptedAt: '2026-11-01T10:00:00.000Z',
  commit: 'a'.repeat(40),
});

describe("the run's pass-rate line", () => {
  it('never says 100% for a mean rate below 1: 99.7%, on every surface', async () => {
    const server = await serve((req) => {
      const body = req.json as { message: string; session: string; start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null } };
      const failing = body.message === 'i000' && body.session.endsWith('-3');
      return { json: { reply: failing ? 'no' : 'yes', route: null } };
    });
    const cwd = await makeProject({
      config: agentConfig(server.url, '  concurrency: 8\n') + 'repeat: { count: 3, minPass: 2 }\n',
      fixtures: { 'f.yml': 'fixtures:\n' + LABELS.map((l) => `  - { label: ${l}, message: "${l}", assert: { contains: "yes" } }\n`).join('') },
      baselines: LABELS.map(baseline),
    });
    const r = await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'r.json', '--markdown', 'r.md', '--html', 'r.html'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const stats = (await readResults(join(cwd, 'r.json'))).stats;
    expect(stats?.before).toBe(1);
    expect(stats?.now).toBeCloseTo((99 + 2 / 3) / 100, 12);
    expect(stats?.pooled).toMatchObject({ before: { passed: 300, total: 300 }, now: { passed: 299, total: 300 } });
    const line = runRateText(stats!);
    expect(line).toMatch(/^pass rate of attempts 100% → 99.7%: −0.3 points \(95% interval of the change: /);
    expect(r.stdout).toContain(line);
    expect(await readFile(join(cwd, 'r.md'), 'utf8')).toContain('**Pass rate of attempts 100% → 99.7%**: −0.3 points (95% interval of the change:');
    expect(await readFile(join(cwd, 'r.html'), 'utf8')).toMatch(/Pass rate of attempts 100% → 99.7%[^]{0,40}−0.3 points \(95% interval of the change:/);
  });
});
