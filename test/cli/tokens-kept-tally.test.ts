// A kept tally gains tokens (docs/latency.md, "Usage"; docs/statistics.md, "A baseline's
// attempts"): a reworded reply (a known variant of its baseline) accepted from fewer attempts keeps
// the stored tally; when that stored baseline kept no tokens (accepted before the agent reported
// any), it gains the run's tokens per attempt counted over the kept tally, so the comparison
// starts. Through `agent-replay run` and `accept` against a real loopback agent, and the comment's
// model of the accept (afterAcceptance) says what the file says.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterAcceptance } from '../../src/report/model.js';
import { usageText } from '../../src/report/usage.js';
import type { Baseline } from '../../src/types.js';
import { agentConfig, baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

const STORED = 'Refunds are accepted within 30 days.';
const NOW = 'You can return items within 30 days for a full refund.';

describe('a kept tally whose baseline has no tokens', () => {
  it('gains the run\'s tokens per attempt over the kept tally, in the file and in the comment\'s model', async () => {
    // Welcome 10 tokens, reply 90: 100 an attempt.
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, usage: { inputTokens: 10, outputTokens: 0 } } };
      return { json: { reply: NOW, route: null, usage: { inputTokens: 60, outputTokens: 30 } } };
    });
    const stored: Baseline = { ...baseline('refund', STORED, null, 'pass'), variants: [NOW], attempts: { passed: 10, total: 10 } };
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: refund, message: refund, assert: { contains: "30 days" }, repeat: { count: 3 } }\n' },
      baselines: [stored],
    });
    expect((await cli(['run', '--out', 'r.json'], cwd)).code).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    expect(record.fixtures[0]?.drift?.meaning).toMatchObject({ value: 'variant' });

    const accepted = await cli(['accept', '--results', 'r.json'], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    const written = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'refund.json'), 'utf8')) as Baseline;
    // The stored tally stands (3 attempts never overwrite 10), and it gains 100 tokens an attempt over it.
    expect(written).toMatchObject({ reply: NOW, attempts: { passed: 10, total: 10 }, usage: { inputTokens: 700, outputTokens: 300 } });

    // The comment after the Action's accept models the same file: the change starts at ±0%.
    const after = afterAcceptance(record, ['refund'], 'c0ffee0');
    expect(after.fixtures[0]?.baseline).toMatchObject({ attempts: { passed: 10, total: 10 }, usage: { inputTokens: 700, outputTokens: 300 } });
    expect(usageText(after)).toBe('agent tokens reported: 300 (210 in, 90 out), ±0% vs baselines');

    // The next run compares against it.
    const again = await cli(['run'], cwd);
    expect(again.stdout).toContain('tokens reported: 300 (210 in, 90 out), ±0% vs baselines');
  });
});
