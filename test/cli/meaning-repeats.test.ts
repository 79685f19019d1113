// Repeats against a baseline (docs/meaning.md, "Repeats"), through the real CLI and a loopback
// agent whose attempts answer in turn: one attempt that changes a fact keeps the item out of
// Reworded and meets `meaning_changed`; attempt 1 is the first attempt that replied.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { agentConfig, baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

/** Answers the message turns in the order given (a status: that HTTP error), then the last again. */
function inTurn(answers: readonly (string | { status: number })[]): AgentHandler {
  let n = 0;
  return (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
    const answer = answers[Math.min(n++, answers.length - 1)] as string | { status: number };
    if (typeof answer !== 'string') return { status: answer.status, json: { error: 'down' } };
    return { json: { reply: answer, route: { conversation: 'c', stage: 'returns' }, offTrack: [], ended: false } };
  };
}

async function run(answers: readonly (string | { status: number })[]): Promise<{ code: number; meaning: unknown; markdown: string }> {
  const agent = await serve(inTurn(answers));
  const cwd = await makeProject({
    config: `${agentConfig(agent.url, '  concurrency: 1\n')}cost: { capUsd: 1 }\n`,
    fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns?, assert: { contains: days }, repeat: { count: 3, minPass: 1 } }\n' },
    baselines: [baseline('returns', 'You can return items within 30 days.', { conversation: 'c', stage: 'returns' }, 'pass')],
  });
  const r = await cli(['run', '--out', 'r.json', '--markdown', 'm.md', '--fail-on', 'meaning_changed'], cwd);
  const record = await readResults(join(cwd, 'r.json'));
  return { code: r.code, meaning: record.fixtures[0]?.drift?.meaning, markdown: await readFile(join(cwd, 'm.md'), 'utf8') };
}

describe('repeats against a baseline', () => {
  it('one attempt that changes a fact: changed in meaning (named), not Reworded, and meaning_changed fails the gate', async () => {
    const r = await run(['You can return items within 30 days!', 'You can return items within 14 days.', 'You can return items within 30 days!']);
    expect(r.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'attempt 2: numbers 30 → 14' });
    expect(r.code).toBe(1);
    expect(r.markdown).not.toMatch(/Reworded/);
    expect(r.markdown).toContain('attempt 2: numbers 30 → 14');
  });

  it('attempt 1 errored: the attempts are compared with the first that replied, and the change is still found', async () => {
    const r = await run([{ status: 500 }, 'You can return items within 30 days!', 'You can return items within 14 days.']);
    expect(r.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'attempt 3: numbers 30 → 14' });
    expect(r.code).toBe(1);
  });

  it('attempts that only reword each other stay Reworded, and the gate passes', async () => {
    const r = await run(['You can return items within 30 days!', 'You can return items within 30 days', 'You can return items within **30** days']);
    expect(r.meaning).toMatchObject({ value: 'formatting', by: 'normalize' });
    expect(r.code).toBe(0);
  });
});
