// The estimate of a run with adaptive attempts is a range on every surface (docs/statistics.md,
// "The estimate"): through the real CLI, `repeat: {count: 3, minPass: 2, max: 9}` against a
// 10-attempt baseline, at $0.01 a turn (welcome and message: 2 turns an attempt). At most 9
// attempts, $0.18; at count, $0.06. report.html's card said "≈ $0.18" alone, the upper bound read
// as the estimate, where the terminal and the comment said "≈ $0.06–$0.18" and why.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/types.js';
import { agentConfig, cli, makeProject, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

const BASELINE: Baseline = {
  label: 'refund',
  reply: 'yes',
  route: null,
  verdict: 'pass',
  attempts: { passed: 9, total: 10 },
  acceptedAt: '2026-11-01T10:00:00.000Z',
  commit: 'a'.repeat(40),
};

describe('the estimate with adaptive attempts', () => {
  it('is the same range, with its reason, in the terminal, the comment and report.html', async () => {
    const server = await serve((req) => {
      const body = req.json as { start?: boolean };
      return { json: { reply: body.start === true ? 'Welcome!' : 'yes', route: null } };
    });
    const cwd = await makeProject({
      config: agentConfig(server.url) + 'repeat: { count: 3, minPass: 2, max: 9 }\ncost: { agentTurnUsd: 0.01, capUsd: 1 }\n',
      fixtures: { 'f.yml': 'fixtures:\n  - { label: refund, message: "refund", assert: { contains: "yes" } }\n' },
      baselines: [BASELINE],
    });
    const r = await cli(['run', '--fail-on', 'none', '--out', 'r.json', '--markdown', 'r.md', '--html', 'r.html'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const range = '≈ $0.06–$0.18';
    const why = 'at most: extra attempts for up to 1 item whose drop is unclear';
    expect(r.stdout).toContain(`${range} estimated (cap $1.00, ${why})`);
    expect(await readFile(join(cwd, 'r.md'), 'utf8')).toContain(`${range} estimated (cap $1.00, ${why})`);
    const html = await readFile(join(cwd, 'r.html'), 'utf8');
    expect(html).toContain(range);
    expect(html).toContain(`estimated cost (cap $1.00, ${why})`);
  });
});
