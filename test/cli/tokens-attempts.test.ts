// A repeated item's tokens per attempt (docs/latency.md, "Usage"), through `agent-replay run` and
// `accept` against a real loopback agent: an attempt that errored after its welcome turn was
// answered keeps that turn's few tokens in the run's total, and is not averaged with the attempts
// that replied, neither in the change against the baselines nor in the tokens acceptance writes.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/types.js';
import { baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

const REPLY = 'Refunds within 30 days.';

/** Welcome turns report 10 tokens, replies 90: 100 an attempt that replied. The second message is refused (400) after its welcome turn. */
async function agentWithOneErroredAttempt(): Promise<string> {
  let messages = 0;
  const agent = await serve((req) => {
    const body = (req.json ?? {}) as { start?: boolean };
    if (body.start === true) return { json: { reply: 'Welcome!', route: null, usage: { inputTokens: 10, outputTokens: 0 } } };
    if ((req.json as { message?: string }).message === 'hours' || ++messages === 2) return { status: 400, json: { error: 'bad request' } };
    return { json: { reply: REPLY, route: { conversation: 'c', stage: 'refund' }, usage: { inputTokens: 60, outputTokens: 30 } } };
  });
  return agent.url;
}

const FIXTURES = { 'f.yml': 'fixtures:\n  - { label: refund, message: refund, assert: { contains: "30 days" }, repeat: { count: 3, minPass: 2 } }\n' };

describe('a repeated item with an errored attempt: tokens per attempt', () => {
  it('compares the attempts that replied against the baseline, and keeps the errored attempt in the total', async () => {
    const url = await agentWithOneErroredAttempt();
    const stored: Baseline = { ...baseline('refund', REPLY, { conversation: 'c', stage: 'refund' }, 'pass'), attempts: { passed: 3, total: 3 }, usage: { inputTokens: 210, outputTokens: 90 } };
    // A fixture run once that errors after its welcome turn: its 10 tokens are spent, not a drop from its baseline's 100.
    const hours: Baseline = { ...baseline('hours', 'Open 9 to 5.', null, 'pass'), usage: { inputTokens: 70, outputTokens: 30 } };
    const fixtures = { 'f.yml': `${FIXTURES['f.yml']}  - { label: hours, message: hours }\n` };
    const cwd = await makeProject({ config: `agent:\n  url: ${url}\n  retries: 0\n  backoffMs: 0\n`, fixtures, baselines: [stored, hours] });
    const r = await cli(['run', '--out', 'results.json', '--markdown', 'report.md', '--concurrency', '1'], cwd);
    const record = await readResults(join(cwd, 'results.json'));
    const item = record.fixtures.find((f) => f.label === 'refund');
    expect(record.fixtures.find((f) => f.label === 'hours')).toMatchObject({ errored: true, usage: { inputTokens: 10, outputTokens: 0 } });
    expect(item?.repeat).toMatchObject({ count: 3, passed: 2 });
    expect(item?.attempts?.map((a) => a.errored)).toEqual([false, true, false]);
    // Every token reported is spent: two attempts of 100 and the errored one's welcome turn.
    expect(item?.usage).toEqual({ inputTokens: 150, outputTokens: 60 });
    expect(item?.attempts?.map((a) => a.usage ?? null)).toEqual([{ inputTokens: 70, outputTokens: 30 }, { inputTokens: 10, outputTokens: 0 }, { inputTokens: 70, outputTokens: 30 }]);
    expect(record.usage).toEqual({ inputTokens: 160, outputTokens: 60 });
    // 100 an attempt that replied, as on the baseline: no change (averaging the errored attempt's 10
    // in read -30%, and the errored fixture's 10 against its baseline's 100 read -60% in all).
    expect(r.stdout).toContain('tokens reported: 220 (160 in, 60 out), ±0% vs baselines');
    expect(await readFile(join(cwd, 'report.md'), 'utf8')).toContain('tokens reported: 220 (160 in, 60 out), ±0% vs baselines');
  });

  it('accept writes the tokens of the attempts that replied, counted over the tally it writes', async () => {
    const url = await agentWithOneErroredAttempt();
    const cwd = await makeProject({ config: `agent:\n  url: ${url}\n  retries: 0\n  backoffMs: 0\n`, fixtures: FIXTURES });
    expect((await cli(['run', '--concurrency', '1'], cwd)).code).toBe(0);
    const accepted = await cli(['accept'], cwd);
    expect(accepted.code).toBe(0);
    const written = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'refund.json'), 'utf8')) as Baseline;
    expect(written.attempts).toEqual({ passed: 2, total: 3 });
    // 100 an attempt, over 3 attempts: the next run with the same agent reads ±0%, not +43%.
    expect(written.usage).toEqual({ inputTokens: 210, outputTokens: 90 });
    const again = await cli(['run', '--concurrency', '1'], cwd);
    expect(again.stdout).toContain('±0% vs baselines');
  });
});
