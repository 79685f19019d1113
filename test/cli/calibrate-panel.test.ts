// `agent-replay calibrate` with a panel of judges (docs/judges.md, "Panels"): every member re-judges
// each baseline, the estimate and spend count every member's call, and the calibration names the
// panel. One loopback judge server answers per model (test/judge/panel-server.ts).

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCalibration } from '../../src/calibrate/schema.js';
import type { TestServer } from '../judge/server.js';
import { startPanelJudge } from '../judge/panel-server.js';
import { agentConfig, baseline, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

let judge: TestServer;
beforeAll(async () => {
  judge = await startPanelJudge();
});
afterAll(() => judge.close());

const FIXTURES = [
  'fixtures:',
  '  - { label: a, message: a, assert: { judge: "split PPF" } }',
  '  - { label: b, message: b, assert: { judge: "split PPF" } }',
  '',
].join('\n');

async function project(cost: string): Promise<string> {
  const agent = await serve(() => ({ status: 500, json: { error: 'the agent must not be called' } }));
  const members = ['m0', 'm1', 'm2'].map((m) => `    - { model: ${m} }`).join('\n');
  return makeProject({
    config: `${agentConfig(agent.url)}judge:\n  baseUrl: "${judge.url}"\n  apiKey: k\n  retries: 0\n  panel:\n${members}\ncost: ${cost}\n`,
    fixtures: { 'f.yml': FIXTURES },
    baselines: [baseline('a', 'reply a', null, 'pass'), baseline('b', 'reply b', null, 'pass')],
  });
}

describe('calibrate with a panel of judges', () => {
  it('asks every member about every baseline and counts each call', async () => {
    const cwd = await project('{ capUsd: 5 }');
    const before = judge.received.length;
    const r = await cli(['calibrate', '--out', 'calibration.json'], cwd);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const c = parseCalibration(await readFile(join(cwd, 'calibration.json'), 'utf8'), 'calibration.json');
    expect(judge.received.slice(before).map((x) => (x.body as { model: string }).model).sort()).toEqual(['m0', 'm0', 'm1', 'm1', 'm2', 'm2']);
    expect(c.estimate).toMatchObject({ calls: 6, baselines: 2, repeat: 1, members: 3 });
    expect(c.spend.judgeCalls).toBe(6);
    expect(c.judge.model).toBe('panel: openai/m0, openai/m1, openai/m2');
    expect(c.judge.name).toBe('panel of 3: openai m0, openai m1, openai m2');
  });

  it("judges a panel's answer by its members' majority, as a run does, not by its median", async () => {
    // Members answer 0.9, 0.5 and prose: the median 0.7 meets the threshold, but 1 of 3 passes: a run fails it.
    const agent = await serve(() => ({ status: 500, json: { error: 'the agent must not be called' } }));
    const members = ['m0', 'm1', 'm2'].map((m) => `    - { model: ${m} }`).join('\n');
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}judge:\n  baseUrl: "${judge.url}"\n  apiKey: k\n  retries: 0\n  panel:\n${members}\ncost: { capUsd: 5 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: split, message: s, assert: { judge: "scores 0.9,0.5,x", threshold: 0.7 } }\n' },
      baselines: [baseline('split', 'reply s', null, 'fail')],
    });
    const r = await cli(['calibrate', '--out', 'calibration.json'], cwd);
    expect(r.code).toBe(0);
    const c = parseCalibration(await readFile(join(cwd, 'calibration.json'), 'utf8'), 'calibration.json');
    expect(c.criteria[0]?.items[0]).toMatchObject({ accepted: 'fail', median: 0.7, judged: 'fail', agrees: true });
    expect(r.stdout).toContain('The judge agrees with every accepted verdict it scored (1 of 1).');
  });

  it("shows a panel's rationale as a run does: the first member that agrees with the verdict, not the one nearest the median", async () => {
    // Members answer 0.9, 0.6 and 0.2 against 0.5: 2 of 3 pass; the median, 0.6, is member 1's, the first passing member is 0.
    const agent = await serve(() => ({ status: 200, json: { reply: 'reply s', route: null, offTrack: [], ended: false } }));
    const members = ['m0', 'm1', 'm2'].map((m) => `    - { model: ${m} }`).join('\n');
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  retries: 0\n  start: false\njudge:\n  baseUrl: "${judge.url}"\n  apiKey: k\n  retries: 0\n  panel:\n${members}\ncost: { capUsd: 5 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: split, message: s, assert: { judge: "scores 0.9,0.6,0.2", threshold: 0.5 } }\n' },
      baselines: [baseline('split', 'reply s', null, 'pass')],
    });
    const run = await cli(['run', '--out', 'r.json', '--commit', 'c'.repeat(40), '--fail-on', 'none'], cwd);
    expect(run.code, run.stderr).toBe(0);
    const ran = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as { fixtures: { rationale: string | null }[] };
    expect(ran.fixtures[0]?.rationale).toBe('member 0 says 0.9');

    const r = await cli(['calibrate', '--out', 'calibration.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const c = parseCalibration(await readFile(join(cwd, 'calibration.json'), 'utf8'), 'calibration.json');
    expect(c.criteria[0]?.items[0]).toMatchObject({ median: 0.6, judged: 'pass', rationale: 'member 0 says 0.9' });

    // The member's rationale is redacted as the panel's was: a configured secret never shows.
    const key = 'member 0 says';
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), (await readFile(join(cwd, '.agent-replay', 'config.yml'), 'utf8')).replace('apiKey: k', 'apiKey: ${JUDGE_KEY}'));
    const secret = await cli(['calibrate', '--out', 'secret.json', '--markdown', 'secret.md'], cwd, { JUDGE_KEY: key });
    expect(secret.code, secret.stderr).toBe(0);
    const s = parseCalibration(await readFile(join(cwd, 'secret.json'), 'utf8'), 'secret.json');
    expect(s.criteria[0]?.items[0]?.rationale).toBe('*** 0.9');
    expect(`${secret.stdout}${await readFile(join(cwd, 'secret.md'), 'utf8')}`).not.toContain(key);
  });

  it('the cap refusal counts the members', async () => {
    const cwd = await project('{ capUsd: 0.02, judgeCallUsd: 0.005 }');
    const before = judge.received.length;
    const r = await cli(['calibrate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('for 6 judge calls (2 baselines x --repeat 1 x 3 panel members x $0.005 a call) is above the cost cap');
    expect(judge.received.length).toBe(before);
  });
});
