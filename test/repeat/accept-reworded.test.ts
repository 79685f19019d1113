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
