// A baseline's attempts against an agent that rewords (docs/statistics.md, "A baseline's attempts";
// docs/meaning.md): a reply (a script: its transcript) that differs from the stored baseline only in
// wording is the same measurement, so accepting a run with fewer attempts keeps the stored tally,
// as it does for the very same reply. The agent words each reply one of two ways, in a fixed order.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

/** Every call alternates between two wordings that differ in formatting only (no seed needed: a counter); `third` words them all a third way. */
let calls = 0;
let third = false;
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
  calls += 1;
  if (third) return { json: { reply: '*Refunds* within 30 days!', route: null, ended: false } };
  return { json: { reply: calls % 2 === 0 ? 'Refunds within **30** days' : 'Refunds within 30 days.', route: null, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: policy, message: refunds?, assert: { contains: "30" } }
`;
const SCRIPT = `label: chat
opening: refunds?
followUps: [ "and exchanges?" ]
expect:
  reply: [ { contains: "30", turn: last } ]
`;

describe('accepting a reworded run with fewer attempts', () => {
  it('keeps the stored tally of a fixture and of a persona script', async () => {
    const agent = await serve(handler);
    const config = (repeat: string) => `${agentConfig(agent.url)}cost: { capUsd: 1 }\nmeaning: { check: facts }\n${repeat}`;
    const cwd = await makeProject({ config: config('repeat: { count: 3 }\n'), fixtures: { 'f.yml': FIXTURES }, personas: { 'chat.yml': SCRIPT } });
    const file = async (label: string) => JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', `${label}.json`), 'utf8'));

    expect((await cli(['run', '--out', 'r1.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).stdout).toContain('2 accepted, 0 refused, 0 unchanged');
    expect((await file('policy')).attempts).toEqual({ passed: 3, total: 3 });
    expect((await file('chat')).attempts).toEqual({ passed: 3, total: 3 });

    // One attempt, worded a third way: Reworded, not a new measurement.
    third = true;
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), config(''));
    expect((await cli(['run', '--out', 'r2.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const r2 = await readResults(join(cwd, 'r2.json'));
    expect(r2.fixtures[0]?.drift?.meaning?.value).toMatch(/^(formatting|variant)$/);
    expect(r2.personas?.[0]?.drift?.meaning?.value).toMatch(/^(formatting|variant)$/);
    await cli(['accept', '--results', 'r2.json'], cwd);
    expect((await file('policy')).attempts).toEqual({ passed: 3, total: 3 });
    expect((await file('chat')).attempts).toEqual({ passed: 3, total: 3 });
  });
});

// A repeated run's accept rewrote the baselines of reworded items (the new wording as the reply, the
// run's tally), while the comment said it "keeps the new wording ... as known variants; they need no
// acceptance". The comment now says what accept writes; both are read here.
describe('the accept line of a repeated run with reworded items', () => {
  it('says what accept writes: the new wording as the reply, the old one a known variant, the run\'s attempts', async () => {
    const OLD = 'Refunds within 30 days.';
    const NEW = 'You have 30 days to ask for a refund.';
    // Attempt 10 gets no answer: 9 of 10 pass (minPass 9), the same meaning every time.
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as { session?: string; start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null } };
      if (/-10$/.test(body.session ?? '')) return { status: 503, json: { error: 'busy' } };
      return { json: { reply: NEW, route: null } };
    });
    const stored = { label: 'policy', reply: OLD, variants: [NEW], route: null, verdict: 'pass' as const, attempts: { passed: 10, total: 10 }, acceptedAt: '2026-11-01T10:00:00.000Z', commit: 'a'.repeat(40) };
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\nmeaning: { check: facts }\nrepeat: { count: 10, minPass: 9 }\n`,
      fixtures: { 'f.yml': FIXTURES },
      baselines: [stored],
    });
    expect((await cli(['run', '--out', 'r.json', '--markdown', 'r.md', '--fail-on', 'none'], cwd)).code).toBe(0);
    const r = await readResults(join(cwd, 'r.json'));
    expect(r.fixtures[0]?.drift?.meaning?.value).toBe('variant');
    const md = await readFile(join(cwd, 'r.md'), 'utf8');
    expect(md).toContain('Reworded (1)');
    expect(md).toContain(
      "**Nothing needs accepting**: the 1 reworded item means the same as its baseline. To store its new wording as its baseline reply, the baseline's wording and the other attempts' kept as known variants where they differ by more than formatting, with the run's attempts (`policy`: attempts passed 10/10 → 9/10), so that later runs decide its wordings with no meaning call, apply the `accept-baseline` label",
    );
    expect(md).not.toContain('keeps the new wording');

    expect((await cli(['accept', '--results', 'r.json'], cwd)).stdout).toContain('1 accepted, 0 refused, 0 unchanged');
    const written = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'policy.json'), 'utf8'));
    expect(written).toMatchObject({ reply: NEW, variants: [OLD], attempts: { passed: 9, total: 10 } });
  });
});
