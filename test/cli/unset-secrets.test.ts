// Commands that send nothing read config.yml without the secrets a run needs (docs/cli.md, "What
// each command does"): a maintainer accepts a hosted model's reworded run, or compares two runs, in
// a shell where the judge's key is not set, as the fork flow's commands are run in a clone.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { completion } from '../simulator/server.js';
import { startServer } from '../judge/server.js';
import { agentConfig, baseline, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

const BASELINE = 'You can return items within 30 days.';
/** A hosted model: every call words the same facts its own way. */
const WORDINGS = ['Returns are accepted for 30 days.', 'You have 30 days to send an item back.', 'Items can be returned within 30 days.'];

function rewording(): AgentHandler {
  let n = 0;
  return (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
    return { json: { reply: WORDINGS[n++ % WORDINGS.length], route: null, ended: false } };
  };
}

async function project(): Promise<string> {
  const agent = await serve(rewording());
  // The meaning judge: the same meaning, whatever it is asked.
  const judge = await startServer([completion('{"difference": "", "score": 0.95}')]);
  const cwd = await makeProject({
    config: `${agentConfig(agent.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: "\${JUDGE_API_KEY}", retries: 0 }\nlatency: { minDeltaMs: 100000 }\ncost: { capUsd: 1 }\n`,
    fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns?, assert: { contains: "30 days" } }\n' },
    baselines: [baseline('returns', BASELINE, null, 'pass')],
  });
  const run = await cli(['run', '--out', 'r.json'], cwd, { JUDGE_API_KEY: 'sk-judge' });
  await judge.close();
  expect(run.stdout).toContain('Reworded (1)');
  return cwd;
}

describe('a secret the command does not use', () => {
  it('accept: a reworded run is accepted with the judge key not set, its old reply kept as a variant', async () => {
    const cwd = await project();
    const r = await cli(['accept', '--results', 'r.json'], cwd, {});
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('accepted  returns (pass; reworded: its earlier wording kept as a known variant)');
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'returns.json'), 'utf8')) as Record<string, unknown>;
    expect(stored.reply).toBe(WORDINGS[0]);
    expect(stored.variants).toEqual([BASELINE]);
  });

  it("compare: config.yml's latency thresholds are read with the judge key not set", async () => {
    const cwd = await project();
    const r = await cli(['compare', 'r.json', 'r.json'], cwd, {});
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('not read');
  });

  it('validate still says a variable that is not set, with its line and the fix', async () => {
    const cwd = await project();
    const r = await cli(['validate'], cwd, {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('config.yml:5');
    expect(r.stderr).toContain('environment variable JUDGE_API_KEY is not set');
  });
});
