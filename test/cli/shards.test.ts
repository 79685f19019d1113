// Shards (docs/action.md, "Shards: one suite over a CI matrix") end to end with the real CLI and a
// real loopback agent: a suite run as 3 shards and merged by `report` has the same items as one
// full run; a missing shard makes the merge incomplete (exit 1, said under the headline, nothing
// removed) unless --allow-incomplete.

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import type { RunRecord } from '../../src/types.js';
import type { Comparison } from '../../src/evaluate/index.js';
import { serializeRecord } from '../../src/record/index.js';
import { fixture, run } from '../report/fixtures.js';

useCleanup();

const LABELS = ['ok-1', 'ok-2', 'ok-3', 'ok-4', 'ok-5', 'ok-6', 'fail-1', 'refund-a', 'refund-b'];
const FIXTURES = [
  'fixtures:',
  ...LABELS.map((l) => `  - { label: ${l}, message: ${l}, assert: { contains: "${l.startsWith('fail') ? 'fixed' : `echo: ${l}`}" } }`),
  '',
].join('\n');
const SCRIPT = 'label: refund-script\nopening: script-open\nfollowUps: [ script-follow ]\nexpect:\n  conversations: [ c ]\n';
const ALL = [...LABELS, 'refund-script'].sort();

async function setUp(): Promise<{ cwd: string; agent: AgentServer }> {
  const agent = await serve(scriptedAgent({}));
  const cwd = await makeProject({ config: agentConfig(agent.url, 'cost:\n  capUsd: 5\n'), fixtures: { 'all.yml': FIXTURES }, personas: { 'refund.yml': SCRIPT } });
  return { cwd, agent };
}

/** The message turns the agent received since `from`. */
function messages(agent: AgentServer, from: number): string[] {
  return agent.requests
    .slice(from)
    .map((r) => (r.json as { message?: unknown } | undefined)?.message)
    .filter((m): m is string => typeof m === 'string');
}

/** What a run says of each item, without timings: label -> verdict and reply(s). */
function items(r: RunRecord): Record<string, unknown> {
  return Object.fromEntries([
    ...r.fixtures.map((f) => [f.label, { verdict: f.verdict, reply: f.reply, definitionHash: f.definitionHash }]),
    ...r.personas.map((p) => [p.label, { verdict: p.verdict, replies: p.turns.map((t) => t.reply), definitionHash: p.definitionHash }]),
  ]);
}

function labelsOf(r: RunRecord): string[] {
  return [...r.fixtures, ...r.personas].map((i) => i.label).sort();
}

describe('run --shard i/n and report', () => {
  it('3 shards replay each item once and merge into the same items as one full run', async () => {
    const { cwd, agent } = await setUp();
    expect((await cli(['run', '--out', 'full.json'], cwd)).code).toBe(0);
    const full = await readResults(join(cwd, 'full.json'));
    expect(labelsOf(full)).toEqual(ALL);

    const from = agent.requests.length;
    const shards: RunRecord[] = [];
    let counted = 0;
    for (const i of [1, 2, 3]) {
      const r = await cli(['run', '--shard', `${i}/3`, '--out', `s${i}.json`], cwd);
      expect(r.code).toBe(0);
      const rec = await readResults(join(cwd, `s${i}.json`));
      shards.push(rec);
      const n = rec.fixtures.length + rec.personas.length;
      counted += n;
      expect(r.stderr).toContain(`shard ${i}/3: ${n} of 10 items (chosen by a hash of each label)`);
      expect(rec.shard).toEqual({ index: i, total: 3, suiteHash: shards[0]?.shard?.suiteHash, partition: shards[0]?.shard?.partition });
      expect(rec.shard?.partition).toMatch(/^[0-9a-f]{16}$/);
      expect(rec.shard?.suiteHash).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(counted).toBe(10);
    // Every item replayed by exactly one shard: the agent saw each message once.
    expect(messages(agent, from).sort()).toEqual([...LABELS, 'script-follow', 'script-open'].sort());
    // The estimate covers only the shard's items.
    expect(shards.reduce((sum, s) => sum + s.estimate.usd, 0)).toBeCloseTo(full.estimate.usd, 6);
    for (const s of shards) expect(s.estimate.usd).toBeLessThan(full.estimate.usd);

    const merged = await cli(['report', '--results', 's1.json', '--results', 's2.json', '--results', 's3.json', '--out', 'merged.json', '--markdown', 'm.md'], cwd);
    expect(merged.code).toBe(0);
    const m = await readResults(join(cwd, 'merged.json'));
    expect(items(m)).toEqual(items(full));
    expect(m.tallies).toEqual(full.tallies);
    expect(m.shard).toBeUndefined();
    expect(m.incomplete).toBeUndefined();
    expect(await readFile(join(cwd, 'm.md'), 'utf8')).not.toContain('incomplete');
    // In the suite's order, as one run lists them, whatever order the shards are given in.
    const order = (r: RunRecord): string[] => [...r.fixtures, ...r.personas].map((i) => i.label);
    expect(order(m)).toEqual(order(full));
    expect((await cli(['report', '--results', 's3.json', '--results', 's1.json', '--results', 's2.json', '--out', 'again.json'], cwd)).code).toBe(0);
    expect(order(await readResults(join(cwd, 'again.json')))).toEqual(order(full));
  });

  it('a missing shard: exit 1, "incomplete: shard 2/3 missing" under the headline, nothing removed; --allow-incomplete applies fail-on only', async () => {
    const { cwd } = await setUp();
    expect((await cli(['run', '--out', 'full.json'], cwd)).code).toBe(0);
    for (const i of [1, 2, 3]) expect((await cli(['run', '--shard', `${i}/3`, '--out', `s${i}.json`], cwd)).code).toBe(0);
    const s2 = await readResults(join(cwd, 's2.json'));
    const gone = labelsOf(s2);

    const r = await cli(['report', '--results', 's1.json', '--results', 's3.json', '--out', 'part.json', '--markdown', 'm.md', '--junit', 'j.xml', '--html', 'r.html'], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gate failed: incomplete: shard 2/3 missing (merge every shard, or allow a partial merge with --allow-incomplete');
    expect(r.stdout.split('\n')[1]).toBe('incomplete: shard 2/3 missing');
    const md = await readFile(join(cwd, 'm.md'), 'utf8');
    const lines = md.split('\n');
    const head = lines.findIndex((l) => l.startsWith('### '));
    expect(lines[head + 2]).toBe('> [!WARNING]');
    expect(lines[head + 3]).toContain('> **incomplete: shard 2/3 missing.**');
    for (const label of gone) expect(md).not.toContain(label);
    expect(await readFile(join(cwd, 'j.xml'), 'utf8')).toContain('value="incomplete: shard 2/3 missing"');
    expect(await readFile(join(cwd, 'r.html'), 'utf8')).toContain('incomplete: shard 2/3 missing');

    // Compared with the full run, the missing shard's items are not "removed".
    const cmp = await cli(['compare', 'full.json', 'part.json', '--out', 'cmp.json'], cwd);
    expect(cmp.code).toBe(0);
    const c = JSON.parse(await readFile(join(cwd, 'cmp.json'), 'utf8')) as Comparison;
    expect(c.onlyBefore).toEqual([]);
    expect(c.causes.removed).toBe(0);
    expect(cmp.stdout).not.toMatch(/removed/);

    const part = await readResults(join(cwd, 'part.json'));
    expect(part.incomplete).toEqual({ total: 3, suiteHash: s2.shard?.suiteHash, missing: [2], foreign: [] });
    const allowed = await cli(['report', '--results', 's1.json', '--results', 's3.json', '--allow-incomplete'], cwd);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('incomplete: shard 2/3 missing');
    // fail-on still applies: "failed" fails when fail-1 is in a shard that was given.
    const failOn = await cli(['report', '--results', 's1.json', '--results', 's3.json', '--allow-incomplete', '--fail-on', 'failed'], cwd);
    expect(failOn.code).toBe(gone.includes('fail-1') ? 0 : 1);
    // --fail-on none still fails an incomplete merge, and report's help says so rather than "never fail".
    const none = await cli(['report', '--results', 's1.json', '--results', 's3.json', '--fail-on', 'none'], cwd);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('gate failed: incomplete: shard 2/3 missing');
    for (const command of ['report', 'run']) {
      const help = (await cli([command, '--help'], cwd)).stdout.replace(/\s+/g, ' ');
      expect(help, command).toContain('(none alone: no condition fails it, but report still fails an incomplete merge without --allow-incomplete; default');
      expect(help, command).not.toContain('never fail');
    }
  });

  it('report names every --results file it cannot use, each with its reason and fix, then exits 2 with nothing written', async () => {
    const cwd = await makeProject({});
    await writeFile(join(cwd, 'bad.json'), '{bad');
    await writeFile(join(cwd, 'bad2.json'), '{}');
    const r = await cli(['report', '--results', 'nope.json', '--results', 'bad.json', '--results', 'bad2.json', '--out', 'm.json'], cwd);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`agent-replay: ${join(cwd, 'nope.json')}: does not exist; give the path of a results.json written by agent-replay`);
    // `{bad` stops the parser at its second character, not at its end: no results file cut short, another file.
    expect(lines[1]).toMatch(new RegExp(`^agent-replay: ${join(cwd, 'bad\\.json')}: not valid JSON .*: expected a results\\.json written by agent-replay$`));
    expect(lines[2]).toMatch(new RegExp(`^agent-replay: ${join(cwd, 'bad2\\.json')}: is not a valid agent-replay results file .*; give a results\\.json written by agent-replay \\(the run's --out, or its results artifact\\)$`));
    expect(r.stdout).toBe('');
    expect(existsSync(join(cwd, 'm.json'))).toBe(false);
  });

  it('report says a --results file given twice is given twice, not that shards overlap', async () => {
    const { cwd } = await setUp();
    expect((await cli(['run', '--out', 'r.json'], cwd)).code).toBe(0);
    for (const again of ['r.json', './r.json', join(cwd, 'r.json')]) {
      const r = await cli(['report', '--results', 'r.json', '--results', again], cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`agent-replay: --results ${again}: the same file as --results r.json (${join(cwd, 'r.json')}), given twice; give each shard's results.json once\n`);
      expect(r.stderr).not.toContain('overlap');
    }
  });

  it('report refuses the runs of two suites of one repository (their suitePath), naming each file\'s suite and the command for each; nothing is written', async () => {
    const cwd = await makeProject({});
    const at = (suitePath: string, labels: string[]): string =>
      serializeRecord(run(labels.map((l) => fixture(l, { file: `${suitePath}/fixtures/suite.yml` })), { suitePath }));
    await writeFile(join(cwd, 'support.json'), at('apps/support/.agent-replay', ['refund']));
    await writeFile(join(cwd, 'sales.json'), at('apps/sales/.agent-replay', ['pricing']));
    await writeFile(join(cwd, 'sales 2.json'), at('apps/sales/.agent-replay/', ['discount']));
    // A record that does not say its suite (made outside a git repository, or by an older agent-replay).
    const { suitePath: _unsaid, ...older } = JSON.parse(at('apps/sales/.agent-replay', ['upsell'])) as RunRecord;
    await writeFile(join(cwd, 'older.json'), JSON.stringify(older));
    const r = await cli(['report', '--results', 'support.json', '--results', 'sales.json', '--results', 'older.json', '--results', 'sales 2.json', '--out', 'm.json', '--markdown', 'm.md'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'agent-replay: the --results files are runs of 2 suites (their suitePath): support.json is a run of the suite in apps/support/.agent-replay; sales.json, sales 2.json are runs of the suite in apps/sales/.agent-replay. ' +
        'A report is of one suite, and these would be merged as one run, so nothing was written: ' +
        "report each suite on its own: agent-replay report --results support.json, then agent-replay report --results sales.json --results 'sales 2.json' " +
        '(older.json does not say its suite: add it to the command of its suite)\n',
    );
    expect(r.stdout).toBe('');
    expect(existsSync(join(cwd, 'm.json')) || existsSync(join(cwd, 'm.md'))).toBe(false);
    // One suite's files, and a record that does not say its suite beside them, merge as before.
    const one = await cli(['report', '--results', 'sales.json', '--results', 'sales 2.json', '--results', 'older.json', '--out', 'm.json'], cwd);
    expect(one.code, one.stderr).toBe(0);
    expect(labelsOf(await readResults(join(cwd, 'm.json')))).toEqual(['discount', 'pricing', 'upsell']);
  });

  it("compare --markdown and its terminal output name the suite its runs are of (their suitePath), as run's --markdown does", async () => {
    const cwd = await makeProject({});
    const at = (suitePath: string | undefined, labels: string[]): string =>
      serializeRecord(run(labels.map((l) => fixture(l)), suitePath === undefined ? {} : { suitePath }));
    await writeFile(join(cwd, 'sales.json'), at('apps/sales/.agent-replay', ['pricing']));
    await writeFile(join(cwd, 'sales 2.json'), at('apps/sales/.agent-replay/', ['pricing', 'discount']));
    await writeFile(join(cwd, 'support.json'), at('apps/support/.agent-replay', ['refund']));
    await writeFile(join(cwd, 'root.json'), at('.agent-replay', ['refund']));
    await writeFile(join(cwd, 'older.json'), at(undefined, ['refund']));
    await writeFile(join(cwd, 'evil.json'), at('apps/evil\u001b[31m\n::error::x/.agent-replay', ['refund']));
    const compared = async (first: string, second: string): Promise<{ md: string; stdout: string }> => {
      const r = await cli(['compare', first, second, '--markdown', 'c.md'], cwd);
      expect(r.code, r.stderr).toBe(0);
      return { md: await readFile(join(cwd, 'c.md'), 'utf8'), stdout: r.stdout };
    };
    // One suite in another folder: above the heading, and on the terminal's first line.
    const one = await compared('sales.json', 'sales 2.json');
    expect(one.md).toMatch(/^\*\*Suite\*\* `apps\/sales\/\.agent-replay`\n\n## agent-replay: compare two runs\n/);
    expect(one.stdout).toMatch(/^suite: apps\/sales\/\.agent-replay\nbefore: sales\.json, /);
    // Runs of two suites: each run's on its line.
    const two = await compared('support.json', 'sales.json');
    expect(two.md).toMatch(/^- \*\*Before\*\*: `support\.json`.*, suite `apps\/support\/\.agent-replay`$/m);
    expect(two.md).toMatch(/^- \*\*After\*\*: `sales\.json`.*, suite `apps\/sales\/\.agent-replay`$/m);
    expect(two.stdout).toMatch(/^before: support\.json, .*, suite apps\/support\/\.agent-replay\nafter: {2}sales\.json, .*, suite apps\/sales\/\.agent-replay\n/m);
    expect(two.stdout).not.toMatch(/^suite: /m);
    // The default folder, and a record that does not say its suite beside it: nothing, as for one suite.
    for (const out of [await compared('root.json', 'older.json'), await compared('older.json', 'older.json')]) {
      expect(out.md).not.toContain('**Suite**');
      expect(out.md).not.toContain(', suite `');
      expect(out.stdout).not.toMatch(/^suite: |, suite /m);
    }
    // A record's suitePath is data: on one line, its control characters as escapes.
    const evil = (await compared('evil.json', 'evil.json')).stdout;
    expect(evil.split('\n')[0]).toBe('suite: apps/evil\\u001b[31m ⏎ ::error::x/.agent-replay');
    expect(evil).not.toContain('\u001b');
  });

  it('a shard of another suite is excluded and named', async () => {
    const { cwd } = await setUp();
    for (const i of [1, 2]) expect((await cli(['run', '--shard', `${i}/2`, '--out', `s${i}.json`], cwd)).code).toBe(0);
    expect((await cli(['run', '--shard', '1/3', '--out', 'other.json'], cwd)).code).toBe(0);
    const r = await cli(['report', '--results', 's1.json', '--results', 's2.json', '--results', 'other.json', '--out', 'm.json'], cwd);
    expect(r.code).toBe(1);
    const suite = (await readResults(join(cwd, 's1.json'))).shard?.suiteHash;
    expect(r.stdout).toContain(`incomplete: excluded (another suite, shard count or split): other.json (shard 1/3 of suite ${suite})`);
    expect(labelsOf(await readResults(join(cwd, 'm.json')))).toEqual(ALL);
  });

  it('--timings balances by the durations of a record; --only selects within the shard', async () => {
    const { cwd, agent } = await setUp();
    expect((await cli(['run', '--out', 'full.json'], cwd)).code).toBe(0);
    const a = await cli(['run', '--shard', '1/2', '--timings', 'full.json', '--out', 't1.json'], cwd);
    const b = await cli(['run', '--shard', '2/2', '--timings', 'full.json', '--out', 't2.json'], cwd);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.stderr).toMatch(/shard 1\/2: \d+ of 10 items \(balanced by the durations of a previous run\)/);
    const [t1, t2] = [await readResults(join(cwd, 't1.json')), await readResults(join(cwd, 't2.json'))];
    expect([...labelsOf(t1), ...labelsOf(t2)].sort()).toEqual(ALL);

    // --only picks among the whole suite's labels, then the shard keeps its part of them.
    const from = agent.requests.length;
    const only = await cli(['run', '--shard', '1/2', '--timings', 'full.json', '--only', 'ok-*', '--out', 'o1.json'], cwd);
    expect(only.code).toBe(0);
    const o1 = await readResults(join(cwd, 'o1.json'));
    const expected = labelsOf(t1).filter((l) => l.startsWith('ok-'));
    expect(labelsOf(o1)).toEqual(expected);
    expect(o1.selection?.labels.slice().sort()).toEqual(expected);
    expect(messages(agent, from).sort()).toEqual(expected);
  });

  it('bad --shard values and --timings without --shard are usage errors; nothing is sent', async () => {
    const { cwd, agent } = await setUp();
    for (const bad of ['0/3', '4/3', '1/300', 'two/3', '3']) {
      const r = await cli(['run', '--shard', bad], cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--shard must be i/n with whole numbers 1 <= i <= n <= 256 (e.g. 2/4), got "${bad}"`);
    }
    const t = await cli(['run', '--timings', 'x.json'], cwd);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('--timings balances shards: give it with --shard i/n');
    const missing = await cli(['run', '--shard', '1/2', '--timings', 'nope.json'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.json: does not exist; give the path of a results\.json written by agent-replay/);
    expect(agent.requests).toEqual([]);
  });
});
