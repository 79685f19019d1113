// --repeat and --repeat-max keep minPass's fraction (docs/statistics.md, "Adaptive attempts"):
// through the real CLI against a loopback agent, config.yml's `repeat: {count: 3, minPass: 2}` run
// with `--repeat 5 --repeat-max 10` against a 10-attempt baseline. The item passes attempts 1-3,
// 6-9 and fails 4, 5 and 10: 3/5 at the first look leaves its drop unclear, so it gets 5 more, and
// 7/10 is two thirds of 10 rounded up: a pass. Scaled twice (2 of 3 to 4 of 5, then 4 of 5 to 10
// attempts) it needed 8 and failed, a verdict stricter than config.yml says.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, useCleanup } from '../cli/helpers.js';
import { attemptAgent, tenOfTen } from './support.js';

useCleanup();

const FAILING_ATTEMPTS = new Set([4, 5, 10]);

describe('--repeat N with --repeat-max M', () => {
  it('extra attempts need minPass as the fraction config.yml gives, scaled once: 7 of 10 for 2 of 3', async () => {
    const server = await attemptAgent((t) => (FAILING_ATTEMPTS.has(t.attempt) ? 'no' : 'yes'));
    const cwd = await makeProject({
      config: agentConfig(server.url) + 'repeat:\n  count: 3\n  minPass: 2\n',
      fixtures: { 'f.yml': 'fixtures:\n  - { label: refund, message: "refund", assert: { contains: "yes" } }\n' },
      baselines: [tenOfTen('refund')],
    });
    const r = await cli(['run', '--confirm-cost', '--repeat', '5', '--repeat-max', '10', '--fail-on', 'newly_failing', '--out', 'r.json'], cwd);
    const item = (await readResults(join(cwd, 'r.json'))).fixtures[0];
    // 3/5 against 10/10: python3 -c "from scipy.stats import fisher_exact as f; print(f([[3, 2], [10, 0]], alternative='less')[1])"
    //   -> 0.09523809523809526, not below 0.05 / 2 looks, and 40 points down: 5 more attempts.
    // 7/10 against 10/10: ... f([[7, 3], [10, 0]], alternative='less') -> 0.10526315789473684 (likely regressed, 30 points down).
    expect(item?.repeat).toEqual({ count: 10, minPass: 7, passed: 7, flaky: true, plan: { count: 5, minPass: 4, max: 10 } });
    expect(item?.stats?.pDrop).toBeCloseTo(0.10526315789473684, 12);
    expect(item?.stats?.tier).toBe('likely_regressed');
    expect(item?.verdict).toBe('pass');
    expect(item?.drift?.verdict).toBe('still_passing');
    expect(r.stdout).toContain('7/10 attempts passed (minPass 7)');
    expect(r.code).toBe(0);
  });
});
