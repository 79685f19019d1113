// A panel of judges end to end through the CLI (docs/judges.md, "Panels"): `run` against a real
// loopback agent and one loopback judge server that answers per model, so that it plays every
// member; what it received is the truth for spend, and results.json, the markdown and report.html
// are read as written.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';
import type { Baseline, RunRecord } from '../../src/types.js';
import type { TestServer } from '../judge/server.js';
import { startPanelJudge } from '../judge/panel-server.js';
import { agentConfig, byLabel, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';

useCleanup();

let judge: TestServer;
beforeAll(async () => {
  judge = await startPanelJudge();
});
afterAll(() => judge.close());

const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);

// Each criterion tells the members how to answer (test/judge/panel-server.ts): P pass, F fail, U/H unusable.
const FIXTURES = [
  'fixtures:',
  '  - { label: two-pass, message: a, assert: { judge: "split PPF" } }',
  '  - { label: one-pass, message: b, assert: { judge: "split FPF" } }',
  '  - { label: two-unusable, message: c, assert: { judge: "split PUH" } }',
  '  - { label: plain, message: d, assert: { contains: "echo" } }',
  '',
].join('\n');
const SCRIPT = 'label: script\nopening: hello\nexpect: { criteria: [ "split PFP", "split FFP" ] }\n';

function panelConfig(agentUrl: string, models: readonly string[], secret = 'sk-panel-secret'): string {
  const members = models.map((m) => `    - { model: ${m} }`).join('\n');
  return `${agentConfig(agentUrl)}judge:\n  provider: openai\n  baseUrl: "${judge.url}"\n  apiKey: ${secret}\n  retries: 0\n  backoffMs: 0\n  panel:\n${members}\ncost: { capUsd: 5, agentTurnUsd: 0.01, judgeCallUsd: 0.005 }\n`;
}

async function project(models: readonly string[] = ['m0', 'm1', 'm2']): Promise<{ cwd: string }> {
  const agent = await serve(scriptedAgent({}));
  const cwd = await makeProject({ config: panelConfig(agent.url, models), fixtures: { 'f.yml': FIXTURES }, personas: { 'p.yml': SCRIPT } });
  return { cwd };
}

async function run(cwd: string, out: string, commit: string, extra: string[] = []): Promise<RunRecord> {
  const r = await cli(['run', '--out', out, '--commit', commit, '--fail-on', 'none', ...extra], cwd);
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  return readResults(join(cwd, out));
}

const modelsAsked = (from: number): string[] => judge.received.slice(from).map((r) => (r.body as { model: string }).model);

describe('a panel of three judges, end to end', () => {
  it('decides each item by a majority of members and records every member; estimate and spend count every member call', async () => {
    const { cwd } = await project();
    const before = judge.received.length;
    const record = await run(cwd, 'r.json', C1, ['--markdown', 'comment.md', '--html', 'report.html']);
    const f = byLabel(record);
    expect(f.get('two-pass')).toMatchObject({ verdict: 'pass', score: 0.9, rationale: 'm0: meets it' });
    expect(f.get('one-pass')).toMatchObject({ verdict: 'fail', score: 0.2, rationale: 'm0: misses it' });
    expect(f.get('two-unusable')).toMatchObject({ verdict: 'not_evaluated', score: null });
    expect(f.get('two-unusable')?.detail).toMatch(/^judge unreachable: panel: 2 of 3 members gave no usable score \(2 usable needed; 1 unreachable, 1 gave no usable answer\): openai m1: .*; openai m2: HTTP 503: overloaded$/);
    expect(f.get('two-pass')?.members).toEqual([
      { label: 'openai m0', score: 0.9, rationale: 'm0: meets it', reason: null },
      { label: 'openai m1', score: 0.9, rationale: 'm1: meets it', reason: null },
      { label: 'openai m2', score: 0.2, rationale: 'm2: misses it', reason: null },
    ]);
    expect(f.get('plain')).not.toHaveProperty('members');
    // The fingerprint names every member in order, and where each is asked.
    expect(f.get('two-pass')?.judgeFingerprint).toEqual({
      model: 'panel: openai/m0, openai/m1, openai/m2',
      endpoint: [judge.url, judge.url, judge.url].join(', '),
      promptVersion: JUDGE_PROMPT_VERSION,
      criteria: [{ criterion: 'split PPF', threshold: 0.7 }],
    });
    const script = record.personas[0]!;
    const criteria = script.checks.filter((c) => c.kind === 'criterion');
    expect(criteria.map((c) => c.status)).toEqual(['pass', 'fail']);
    expect(criteria[0]?.kind === 'criterion' && criteria[0].members?.map((m) => m.score)).toEqual([0.9, 0.2, 0.9]);
    expect(script.verdict).toBe('fail');
    expect(record.judge.name).toBe('panel of 3: openai m0, openai m1, openai m2');

    // 3 judged fixtures + 2 criteria, each asked of 3 members.
    expect(modelsAsked(before).sort()).toEqual([...Array(5).fill('m0'), ...Array(5).fill('m1'), ...Array(5).fill('m2')]);
    expect(record.spend).toMatchObject({ judgeCalls: 15, judgeReused: 0 });
    // Agent: 4 fixtures x 2 turns (welcome + message) + the script's 2 turns = 10 x 0.01; judge: 15 x 0.005.
    expect(record.estimate.usd).toBeCloseTo(0.1 + 0.075, 10);

    const md = await readFile(join(cwd, 'comment.md'), 'utf8');
    // One line per member (untrusted text escaped: the colons of a rationale too).
    expect(md).toContain('**Panel** · 2 of 3 members pass (2 needed):\n- `openai m0`: 0.90 pass\\: m0\\: meets it\n- `openai m1`: 0.90 pass\\: m1\\: meets it\n- `openai m2`: 0.20 fail\\: m2\\: misses it');
    expect(md).toContain('**Panel** · 1 of 3 members pass (2 needed; 1 gave a usable score):');
    expect(md).toContain('**Panel** for "split PFP" · 2 of 3 members pass (2 needed):');
    expect(md).toContain('- `openai m2`: no usable score\\: HTTP 503\\: overloaded');
    const html = await readFile(join(cwd, 'report.html'), 'utf8');
    expect(html).toContain('openai m2: 0.20 fail: m2: misses it');
    expect(html).not.toContain('sk-panel-secret');
    expect(JSON.stringify(record)).not.toContain('sk-panel-secret');
  });

  it('the estimate counts every member before anything is spent: a cap the panel exceeds refuses the run', async () => {
    const agent = await serve(scriptedAgent({}));
    const cwd = await makeProject({
      config: panelConfig(agent.url, ['m0', 'm1', 'm2']).replace('capUsd: 5', 'capUsd: 0.15'),
      fixtures: { 'f.yml': FIXTURES },
      personas: { 'p.yml': SCRIPT },
    });
    const before = judge.received.length;
    const r = await cli(['run', '--out', 'r.json', '--commit', C1], cwd);
    // 0.10 of agent turns + 15 judge calls x 0.005 = 0.175 > 0.15 (a single judge would be 0.125).
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/0\.175|0\.18/);
    expect(judge.received.length).toBe(before);
  });

  it('accept keeps the members in the baseline; a rerun reuses them with no call; changing one member invalidates the reuse', async () => {
    const { cwd } = await project();
    await run(cwd, 'r1.json', C1);
    const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
    expect(accepted.code).toBe(0);
    const kept = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'two-pass.json'), 'utf8')) as Baseline;
    expect(kept.judge?.members?.map((m) => m.label)).toEqual(['openai m0', 'openai m1', 'openai m2']);
    expect(kept.judge?.fingerprint.model).toBe('panel: openai/m0, openai/m1, openai/m2');

    const before = judge.received.length;
    const second = await run(cwd, 'r2.json', C2);
    // Only two-unusable is asked again (not evaluated, so it was not accepted): once per member.
    expect(modelsAsked(before).sort()).toEqual(['m0', 'm1', 'm2']);
    expect(second.spend).toMatchObject({ judgeCalls: 3, judgeReused: 4 });
    const again = byLabel(second);
    expect(again.get('two-pass')).toMatchObject({ verdict: 'pass', score: 0.9 });
    expect(again.get('two-pass')?.judgeReused).toBeTruthy();
    expect(again.get('two-pass')?.members).toEqual(kept.judge?.members);
    expect(again.get('one-pass')).toMatchObject({ verdict: 'fail' });
    expect(second.personas[0]?.checks.filter((c) => c.kind === 'criterion' && c.reused != null)).toHaveLength(2);

    // The third member changes its model: every judged item is asked again, of every member.
    const configPath = join(cwd, '.agent-replay', 'config.yml');
    await writeFile(configPath, (await readFile(configPath, 'utf8')).replace('{ model: m2 }', '{ model: m2-new }'));
    const third = await run(cwd, 'r3.json', C2);
    expect(modelsAsked(before).filter((m) => m === 'm2')).toHaveLength(1);
    expect(modelsAsked(before).filter((m) => m === 'm2-new')).toHaveLength(5);
    expect(third.spend).toMatchObject({ judgeCalls: 5 * 3, judgeReused: 0 });
    expect(byLabel(third).get('two-pass')?.judgeReused ?? null).toBeNull();
  });

  it('a member whose endpoint refuses structured output falls back alone; the record and report.html say so in one line', async () => {
    const { cwd } = await project(['m0', 'plain', 'm2']);
    const record = await run(cwd, 'r.json', C1, ['--html', 'report.html']);
    expect(record.judge).toMatchObject({ structured: false, structuredFallback: "openai plain: HTTP 400: response_format 'json_schema' is not supported" });
    expect(byLabel(record).get('two-pass')?.members?.[1]).toMatchObject({ label: 'openai plain', score: 0.8 });
    const html = await readFile(join(cwd, 'report.html'), 'utf8');
    expect(html).toContain(
      '<p class="meta judge-mode">judge: the endpoint refused structured output (&quot;openai plain: HTTP 400: response_format &#39;json_schema&#39; is not supported&quot;); the judge used the plain prompt for the rest of the run</p>',
    );
  });
});
