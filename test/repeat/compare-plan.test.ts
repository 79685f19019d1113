// compare reads an item's repeat from what it ran with, not from the attempts it made
// (docs/evaluations.md#compare; docs/statistics.md, "Adaptive attempts"): two real runs of one
// suite, `repeat: {count: 3, minPass: 2, max: 6}` against a 10-attempt baseline. In the first the
// item passes its 3 attempts and settles; in the second only attempt 1 passes, 1/3 leaves the drop
// unclear (p = 11/286 = 0.0385, not below 0.05 / 2 looks), so it makes 6. Nothing in the suite
// changed: the cause is what the item told the user, attempt 2's reply ("yes" → "no", named
// before the verdict as any reply is: docs/evaluations.md#compare), not "definition changed
// (repeat 3, minPass 2 → repeat 6, minPass 4)". A record written before plans (no `repeat.plan`)
// says no definition change either.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, useCleanup } from '../cli/helpers.js';
import { attemptAgent, tenOfTen } from './support.js';

useCleanup();

describe('compare of two runs whose adaptive attempts differ', () => {
  it('names the attempt whose reply changed, never a definition change, when the suite is the same', async () => {
    let run = 1;
    const server = await attemptAgent((t) => (run === 1 || t.attempt === 1 ? 'yes' : 'no'));
    const cwd = await makeProject({
      config: agentConfig(server.url) + 'repeat:\n  count: 3\n  minPass: 2\n  max: 6\n',
      fixtures: { 'f.yml': 'fixtures:\n  - { label: refund, message: "refund", assert: { contains: "yes" } }\n' },
      baselines: [tenOfTen('refund')],
    });
    await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'first.json'], cwd);
    run = 2;
    await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'second.json'], cwd);
    const first = (await readResults(join(cwd, 'first.json'))).fixtures[0];
    const second = (await readResults(join(cwd, 'second.json'))).fixtures[0];
    // python3 -c "from scipy.stats import fisher_exact as f; print(f([[1, 2], [10, 0]], alternative='less')[1])" -> 0.03846153846153846
    expect(second?.repeat).toEqual({ count: 6, minPass: 4, passed: 1, flaky: true, plan: { count: 3, minPass: 2, max: 6 } });
    expect(first?.repeat).toEqual({ count: 3, minPass: 2, passed: 3, flaky: false, plan: { count: 3, minPass: 2, max: 6 } });

    const r = await cli(['compare', 'first.json', 'second.json', '--out', 'diff.json'], cwd);
    expect(r.stdout).not.toContain('definition changed');
    expect(r.stdout).toMatch(/refund +pass 3\/3 → fail 1\/6 \(flaky\) +reply changed: attempt 2's reply changed: "yes" → "no"/);
    const diff = JSON.parse(await readFile(join(cwd, 'diff.json'), 'utf8')) as { changes: { label: string; cause: string }[] };
    expect(diff.changes.map((i) => [i.label, i.cause])).toEqual([['refund', 'reply_changed']]);

    // Records written before plans: the run that made extra attempts cannot say what it ran with.
    for (const name of ['first.json', 'second.json']) {
      const record = JSON.parse(await readFile(join(cwd, name), 'utf8')) as { fixtures: { repeat: { plan?: unknown } }[] };
      for (const f of record.fixtures) delete f.repeat.plan;
      await writeFile(join(cwd, `old-${name}`), JSON.stringify(record));
    }
    const old = await cli(['compare', 'old-first.json', 'old-second.json'], cwd);
    expect(old.stdout).not.toContain('definition changed');
    expect(old.stdout).toMatch(/refund +pass 3\/3 → fail 1\/6 \(flaky\) +reply changed: attempt 2's reply changed: "yes" → "no"/);

    // A batch that did change is still said, from the plans.
    await writeFile(join(cwd, '.agent-replay/config.yml'), agentConfig(server.url) + 'repeat:\n  count: 2\n  minPass: 2\n  max: 6\n');
    await cli(['run', '--confirm-cost', '--fail-on', 'none', '--out', 'third.json'], cwd);
    const changed = await cli(['compare', 'second.json', 'third.json'], cwd);
    expect(changed.stdout).toContain('definition changed: repeat 3, minPass 2, max 6 → repeat 2, minPass 2, max 6');
  });
});
