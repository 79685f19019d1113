// Evaluations end to end (docs/evaluations.md) with the real CLI and a real loopback agent:
// coverage in the record, definitionHash per item, `run --rerun` and `--only` replaying exactly the
// right items (counted at the agent), and `compare` on two real records.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import type { Comparison } from '../../src/evaluate/index.js';
import type { EngineDeps } from '../../src/engine.js';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';

useCleanup();

// These runs hold a not evaluated and an errored item on purpose: the lenient gate, so that
// their exit status says what these tests are about (the default gate would call them not verified).
const LENIENT = ['--fail-on', 'newly_failing'];

const FIXTURES = [
  'fixtures:',
  '  - { label: ok-1, message: ok-1, assert: { contains: "echo: ok-1" } }',
  '  - { label: fail-1, message: fail-1, assert: { contains: "fixed" } }',
  '  - { label: ne-1, message: ne-1, assert: { judge: "The reply is polite.", threshold: 0.7 } }',
  '  - { label: err-1, message: err-1, assert: { contains: "x" } }',
  '  - { label: refund-a, message: refund-a, assert: { contains: "refund-a" } }',
  '  - { label: refund-b, message: refund-b, assert: { contains: "refund-b" } }',
  '',
].join('\n');

// A script that fails (it expects a conversation the agent never visits): opening + one follow-up.
const SCRIPT = 'label: refund-script\nopening: script-open\nfollowUps: [ script-follow ]\nexpect:\n  conversations: [ nowhere ]\n';

const COVERAGE = 'cost:\n  capUsd: 5\ncoverage:\n  conversations: [ c, "conversations:welcome", shipping ]\n';

/** A wall clock one minute later at every reading, so that runs are ordered without sleeping. */
function steppingClock(): EngineDeps {
  let t = Date.parse('2026-12-01T09:00:00.000Z');
  return {
    wallClock: () => {
      t += 60_000;
      return new Date(t);
    },
  };
}

/** The message turns the agent received since `from` (welcome turns have no message). */
function messages(agent: AgentServer, from = 0): string[] {
  return agent.requests
    .slice(from)
    .map((r) => (r.json as { message?: unknown } | undefined)?.message)
    .filter((m): m is string => typeof m === 'string')
    .sort();
}

async function setUp(): Promise<{ cwd: string; agent: AgentServer; answers: Record<string, string | { status: number }>; engine: EngineDeps }> {
  const answers: Record<string, string | { status: number }> = { 'err-1': { status: 500 } };
  const agent = await serve(scriptedAgent(answers));
  const cwd = await makeProject({ config: agentConfig(agent.url, COVERAGE), fixtures: { 'all.yml': FIXTURES }, personas: { 'refund.yml': SCRIPT } });
  return { cwd, agent, answers, engine: steppingClock() };
}

describe('a run records coverage and each item\'s definition', () => {
  it('coverage: gaps and unknowns over all items and turns; definitionHash on fixtures and scripts', async () => {
    const { cwd, agent, engine } = await setUp();
    const r = await cli(['run', ...LENIENT, '--out', 'first.json'], cwd, {}, { engine });
    expect(r.code).toBe(0);
    const record = await readResults(join(cwd, 'first.json'));
    expect(record.coverage).toEqual({ listed: ['c', 'conversations:welcome', 'shipping'], visited: ['c', 'welcome'], gaps: ['shipping'], unknown: [] });
    expect(record.selection).toBeUndefined();
    for (const item of [...record.fixtures, ...record.personas]) expect(item.definitionHash).toMatch(/^[0-9a-f]{16}$/);
    const ne = record.fixtures.find((f) => f.label === 'ne-1');
    expect(ne?.judgeFingerprint).toEqual({ model: null, promptVersion: JUDGE_PROMPT_VERSION, criteria: [{ criterion: 'The reply is polite.', threshold: 0.7 }] });
    expect(record.fixtures.find((f) => f.label === 'ok-1')?.judgeFingerprint).toBeNull();
    expect(messages(agent)).toEqual(['err-1', 'fail-1', 'ne-1', 'ok-1', 'refund-a', 'refund-b', 'script-follow', 'script-open']);
  });

  it('a coverage list with a repeated name is a configuration error at its line', async () => {
    const cwd = await makeProject({ config: 'coverage:\n  conversations:\n    - refunds\n    - conversations:refunds\n', fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('config.yml:4:');
    expect(r.stderr).toContain('coverage.conversations lists "conversations:refunds" twice (also entry 1)');
  });
});

describe('run --rerun and --only replay exactly the selected items', () => {
  it('--rerun replays what failed, was not evaluated or errored; --only by glob; both together', async () => {
    const { cwd, agent, engine } = await setUp();
    expect((await cli(['run', ...LENIENT, '--out', 'first.json'], cwd, {}, { engine })).code).toBe(0);
    const first = await readResults(join(cwd, 'first.json'));
    expect(Object.fromEntries([...first.fixtures, ...first.personas].map((i) => [i.label, i.errored ? 'errored' : i.verdict]))).toEqual({
      'ok-1': 'pass',
      'fail-1': 'fail',
      'ne-1': 'not_evaluated',
      'err-1': 'errored',
      'refund-a': 'pass',
      'refund-b': 'pass',
      'refund-script': 'fail',
    });

    let from = agent.requests.length;
    const rerun = await cli(['run', ...LENIENT, '--rerun', 'first.json', '--out', 'rerun.json'], cwd, {}, { engine });
    expect(rerun.code).toBe(0);
    expect(messages(agent, from)).toEqual(['err-1', 'fail-1', 'ne-1', 'script-follow', 'script-open']);
    expect(rerun.stderr).toContain('partial run: 4 items replayed (what failed, was not evaluated or errored in first.json); the record lists only those.');
    const r2 = await readResults(join(cwd, 'rerun.json'));
    expect([...r2.fixtures, ...r2.personas].map((i) => i.label).sort()).toEqual(['err-1', 'fail-1', 'ne-1', 'refund-script']);
    expect(r2.selection).toEqual({ rerunOf: 'first.json', only: null, labels: ['fail-1', 'ne-1', 'err-1', 'refund-script'] });
    expect(r2.tallies).toEqual({ passed: 0, failed: 2, notEvaluated: 1, errored: 1 });

    from = agent.requests.length;
    const only = await cli(['run', ...LENIENT, '--only', 'refund-*, ok-1', '--out', 'only.json'], cwd, {}, { engine });
    expect(only.code).toBe(0);
    expect(messages(agent, from)).toEqual(['ok-1', 'refund-a', 'refund-b', 'script-follow', 'script-open']);
    const r3 = await readResults(join(cwd, 'only.json'));
    expect(r3.selection).toEqual({ rerunOf: null, only: ['refund-*', 'ok-1'], labels: ['ok-1', 'refund-a', 'refund-b', 'refund-script'] });

    from = agent.requests.length;
    const both = await cli(['run', ...LENIENT, '--rerun', 'first.json', '--only', 'refund-?,refund-s*', '--out', 'both.json'], cwd, {}, { engine });
    expect(both.code).toBe(0);
    expect(messages(agent, from)).toEqual(['script-follow', 'script-open']);
    expect((await readResults(join(cwd, 'both.json'))).personas.map((p) => p.label)).toEqual(['refund-script']);
  });

  it('a glob that matches no label is a usage error naming it; nothing is sent', async () => {
    const { cwd, agent } = await setUp();
    const r = await cli(['run', ...LENIENT, '--only', 'ok-1,nope-*'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--only "nope-*" matches no fixture or persona script label');
    const missing = await cli(['run', ...LENIENT, '--rerun', 'nope.json'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: does not exist; give the path of a results\.json written by agent-replay/);
    expect(agent.requests).toEqual([]);
  });

  it('a --rerun of a run where everything passed replays nothing and says so', async () => {
    const agent = await serve(scriptedAgent({}));
    const engine = steppingClock();
    const cwd2 = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: ok-1\nmessage: ok-1\nassert: { contains: ok }\n' } });
    expect((await cli(['run', ...LENIENT, '--out', 'first.json'], cwd2, {}, { engine })).code).toBe(0);
    const from = agent.requests.length;
    const r = await cli(['run', ...LENIENT, '--rerun', 'first.json', '--out', 'again.json'], cwd2, {}, { engine });
    expect(r.code).toBe(0);
    expect(agent.requests.length).toBe(from);
    expect(r.stderr).toContain('partial run: 0 items replayed');
    const again = await readResults(join(cwd2, 'again.json'));
    expect(again.fixtures).toEqual([]);
    expect(again.selection?.labels).toEqual([]);
  });
});

describe('run --rerun after the suite changed', () => {
  it('labels of the record no longer in the suite are named and skipped', async () => {
    const { cwd, agent, engine } = await setUp();
    expect((await cli(['run', ...LENIENT, '--out', 'first.json'], cwd, {}, { engine })).code).toBe(0);
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'all.yml'), FIXTURES.replace(/^ {2}- \{ label: fail-1.*\n/m, ''));
    const from = agent.requests.length;
    const r = await cli(['run', ...LENIENT, '--rerun', 'first.json', '--out', 'again.json'], cwd, {}, { engine });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('not replayed: fail-1 (in first.json but no longer in the suite)');
    expect(messages(agent, from)).toEqual(['err-1', 'ne-1', 'script-follow', 'script-open']);
  });
});

describe('compare two recorded runs', () => {
  it('the earlier run is before whatever the order; fixed items and items only in one run; exit 0', async () => {
    const { cwd, answers, engine } = await setUp();
    expect((await cli(['run', ...LENIENT, '--out', 'first.json'], cwd, {}, { engine })).code).toBe(0);
    answers['fail-1'] = 'now fixed'; // the agent changed: fail-1's reply now contains "fixed"
    expect((await cli(['run', ...LENIENT, '--rerun', 'first.json', '--out', 'second.json'], cwd, {}, { engine })).code).toBe(0);

    const r = await cli(['compare', 'second.json', 'first.json', '--markdown', 'compare.md', '--out', 'diff.json'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('they were swapped');
    // What changed, the cause said once.
    expect(r.stdout).toMatch(/fail-1 +fail → pass +reply changed: "[^"\n]*" → "now fixed"$/m);
    expect(r.stdout).not.toContain('reply changed: reply changed');
    const diff = JSON.parse(await readFile(join(cwd, 'diff.json'), 'utf8')) as Comparison;
    expect(diff.swapped).toBe(true);
    expect([diff.before.file, diff.after.file]).toEqual(['first.json', 'second.json']);
    expect(diff.fixed).toEqual(['fail-1']);
    // The items the rerun did not replay are not "removed": the rerun is part of the suite.
    expect(diff.onlyBefore).toEqual([]);
    expect(diff.causes.removed).toBe(0);
    expect(diff.after.partial).toBe(true);
    // Before: 3 passed, 2 failed (1 not evaluated, 1 errored beside it); after: 1 passed, 1 failed.
    expect([diff.agreement.before.percent, diff.agreement.after.percent]).toEqual([60, 50]);
    const md = await readFile(join(cwd, 'compare.md'), 'utf8');
    expect(md).toContain('**Agreement**: 60% → 50% (−10 points)');
    expect(md).not.toContain('### Only in the before run');
    expect(md).toContain('Over the items in both runs only: 0% → 50%.');

    const wrong = await cli(['compare', 'first.json'], cwd);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('compare needs exactly two results files');
  });
});

describe('compare reads config.yml\'s latency thresholds', () => {
  // 1.0 s → 1.4 s: 40 % and 400 ms slower. Not slower by the defaults (more than 50 %), slower by 20 %.
  async function records(cwd: string): Promise<void> {
    const { fixture, run } = await import('../report/fixtures.js');
    const at = (startedAt: string, latencyMs: number) => run([fixture('refund', { latencyMs }), fixture('hours', { latencyMs: 500 })], { startedAt });
    await writeFile(join(cwd, 'a.json'), JSON.stringify(at('2026-12-01T09:00:00.000Z', 1000)));
    await writeFile(join(cwd, 'b.json'), JSON.stringify(at('2026-12-01T10:00:00.000Z', 1400)));
  }

  it('latency.slowerBy 0.2 makes a 40 % slower item "slower"; the defaults do not', async () => {
    const configured = await makeProject({ config: 'latency:\n  slowerBy: 0.2\n  minDeltaMs: 100\n' });
    await records(configured);
    const r = await cli(['compare', 'a.json', 'b.json'], configured);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/refund +pass → pass +slower: 1\.0 s → 1\.4 s$/m);
    expect(r.stdout).toContain('why: 1 item slower');

    const defaults = await makeProject({});
    await records(defaults);
    const d = await cli(['compare', 'a.json', 'b.json'], defaults);
    expect(d.stdout).toContain('why: nothing changed');
    expect(d.stderr).toBe('');
  });

  it('from a subfolder of the repository: says the suite is in a parent folder, with the fix, not "run validate"; the defaults apply, and --dir reads it', async () => {
    const root = await makeProject({ config: 'latency:\n  slowerBy: 0.2\n  minDeltaMs: 100\n' });
    await mkdir(join(root, '.git'));
    const sub = join(root, 'src', 'lib');
    await mkdir(sub, { recursive: true });
    await records(sub);
    const r = await cli(['compare', 'a.json', 'b.json'], sub);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `compare: .agent-replay: no suite folder here (${sub}), but a parent folder holds one: ../../.agent-replay; it was not read, so "slower" uses the default thresholds (latency.slowerBy 0.5, latency.minDeltaMs 300)\n` +
        `  fix: run from ${root} (cd ../..), where .agent-replay is, or give --dir ../../.agent-replay (the dir input in the Action)\n`,
    );
    expect(r.stdout).toContain('why: nothing changed');
    const given = await cli(['compare', 'a.json', 'b.json', '--dir', '../../.agent-replay'], sub);
    expect(given.stderr).toBe('');
    expect(given.stdout).toContain('why: 1 item slower');
  });

  it('a config.yml with errors is said in one line; the defaults apply and compare still runs', async () => {
    // A variable not set is no error for compare (it reads only the thresholds): a bad value is.
    const cwd = await makeProject({ config: 'latency:\n  slowerBy: 0.2\njudge:\n  apiKey: ${NOT_SET_ANYWHERE}\n  timeoutMs: -5\n' });
    await records(cwd);
    const r = await cli(['compare', 'a.json', 'b.json', '--dir', '.agent-replay'], cwd);
    expect(r.code).toBe(0);
    // The command that lists them, as typed (accept's "run the suite first, npx agent-replay run" is said so).
    expect(r.stderr).toContain("compare: .agent-replay's config.yml not read (1 error: see it with npx agent-replay validate); \"slower\" uses the default thresholds");
    expect(r.stdout).toContain('why: nothing changed');
    // Another suite folder: the command names it.
    const other = await makeProject({});
    await mkdir(join(other, 'suites', 'a'), { recursive: true });
    await writeFile(join(other, 'suites', 'a', 'config.yml'), 'latency:\n  slowerBy: -1\n  minDeltaMs: x\n');
    await records(other);
    const o = await cli(['compare', 'a.json', 'b.json', '--dir', 'suites/a'], other);
    expect(o.code).toBe(0);
    expect(o.stderr).toContain("compare: suites/a's config.yml not read (2 errors: see them with npx agent-replay validate --dir suites/a); \"slower\" uses");
    // A folder with an escape sequence in its name: shown escaped, and the command names it as bash reads it (docs/cli.md, "Paths in the commands it prints").
    await mkdir(join(other, 's\u001b[2Jx'), { recursive: true });
    await writeFile(join(other, 's\u001b[2Jx', 'config.yml'), 'latency:\n  slowerBy: -1\n');
    const e = await cli(['compare', 'a.json', 'b.json', '--dir', 's\u001b[2Jx'], other);
    expect(e.stderr).toContain(String.raw`compare: s\u001b[2Jx's config.yml not read (1 error: see it with npx agent-replay validate --dir $'s\033[2Jx'); "slower" uses`);
    expect(e.stderr).not.toContain('\u001b');
    // A suite whose file is config.yaml (docs/configuration.md): that file is named, not a config.yml it does not have.
    await mkdir(join(other, 'y'), { recursive: true });
    await writeFile(join(other, 'y', 'config.yaml'), 'latency:\n  slowerBy: -1\n');
    const y = await cli(['compare', 'a.json', 'b.json', '--dir', 'y'], other);
    expect(y.stderr).toContain("compare: y's config.yaml not read (1 error: see it with npx agent-replay validate --dir y); \"slower\" uses");
  });
});
