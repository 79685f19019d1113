// `agent-replay accept --results`: baselines from a recorded run, refusals reported, never a path
// outside the baselines folder.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeBaseline } from '../../src/suite/index.js';
import { acceptRunStep, commitBaselinesStep } from '../../src/cli/main.js';
import { docsUrl } from '../../src/version.js';
import { agentConfig, cli, listTree, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

useCleanup();

const COMMIT = 'c'.repeat(40);
const NOW = '2026-12-01T12:00:00.000Z'; // the helpers' io.now

/** A project with a recorded run: pass, fail, not evaluated, errored and a probe. */
async function recordedProject(): Promise<string> {
  const agent = await serve(scriptedAgent({ a: 'A-reply', b: 'B-reply', c: 'C-reply', d: { status: 500 }, e: 'E-reply' }));
  const cwd = await makeProject({
    config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`,
    fixtures: {
      'f.yml': [
        'fixtures:',
        '  - { label: passing, message: a, assert: { contains: A-reply } }',
        '  - { label: failing, message: b, assert: { contains: nope } }',
        '  - { label: unevaluated, message: c, assert: { regex: "(" } }',
        '  - { label: broken, message: d }',
        '  - { label: probe, message: e }',
        '',
      ].join('\n'),
    },
  });
  const r = await cli(['run', '--out', 'r.json', '--commit', COMMIT, '--fail-on', 'none'], cwd);
  expect(r.code).toBe(0);
  // What comes next: the pass and fail replies (not the not evaluated or errored ones), from the file --out named.
  expect(r.stdout.endsWith('\nnext: to accept the 3 new or changed pass/fail results as baselines: npx agent-replay accept --results r.json\n')).toBe(true);
  return cwd;
}

const baselinesDir = (cwd: string): string => join(cwd, '.agent-replay', 'baselines');

describe('accept', () => {
  it('writes one stable baseline per accepted fixture and reports every refusal with its reason', async () => {
    const cwd = await recordedProject();
    const record = await readResults(join(cwd, 'r.json'));
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(0);

    expect(await listTree(baselinesDir(cwd))).toEqual(['failing.json', 'passing.json', 'probe.json']);
    for (const label of ['passing', 'failing', 'probe']) {
      const f = record.fixtures.find((x) => x.label === label);
      const expected = serializeBaseline({
        label,
        // The message the reply answered (docs/meaning.md, "An edited fixture").
        message: f?.message as string,
        reply: f?.reply as string,
        route: f?.route ?? null,
        verdict: f?.verdict as 'pass' | 'fail',
        // The accepted item's latency, as the run recorded it (docs/latency.md).
        latencyMs: f?.latencyMs ?? null,
        acceptedAt: NOW,
        commit: COMMIT,
      });
      expect(await readFile(join(baselinesDir(cwd), `${label}.json`), 'utf8')).toBe(expected);
    }
    expect(JSON.parse(await readFile(join(baselinesDir(cwd), 'failing.json'), 'utf8')).verdict).toBe('fail');
    expect(r.stdout).toMatch(/accepted +passing \(pass\)/);
    expect(r.stdout).toMatch(/accepted +failing \(fail\)/);
    // Its cause's fix: run again as it is, a pattern that does not compile is not evaluated again.
    expect(r.stdout).toContain('refused   unevaluated: not evaluated (regex does not compile): fix the pattern in the fixture file named on each item; then run it again');
    expect(r.stdout).toContain('refused   broken: errored: no reply to accept');
    // Each refusal ends where its item is defined, as the run's lines do.
    for (const label of ['unevaluated', 'broken']) {
      const f = record.fixtures.find((x) => x.label === label);
      expect(r.stdout.split('\n').find((l) => l.startsWith(`refused   ${label}: `))?.endsWith(` · ${f?.file ?? ''}:${f?.line ?? 0}`)).toBe(true);
    }
    expect(r.stdout).toContain('3 accepted, 2 refused, 0 unchanged');
    // What comes next: the baselines are files in the working tree until they are committed.
    expect(r.stdout.endsWith('\nnext: commit them (git add .agent-replay/baselines): the check on a pull request compares with the baselines of the commit it replays\n')).toBe(true);

    // The accepted baselines are what the next run compares against.
    const next = await cli(['run', '--out', 'r2.json', '--fail-on', 'none'], cwd);
    expect(next.code).toBe(0);
    expect(next.stdout).not.toContain('next: to accept'); // every pass and fail is its baseline's
    const drift = (await readResults(join(cwd, 'r2.json'))).fixtures.map((f) => [f.label, f.drift?.verdict ?? null]);
    expect(drift).toEqual([
      ['passing', 'still_passing'],
      ['failing', 'still_failing'],
      ['unevaluated', 'no_baseline'],
      ['broken', null],
      ['probe', 'still_passing'],
    ]);
  });

  it('accepting the same results again changes nothing and says so', async () => {
    const cwd = await recordedProject();
    expect((await cli(['accept', '--results', 'r.json'], cwd)).code).toBe(0);
    const before = await Promise.all(['passing', 'failing', 'probe'].map((l) => readFile(join(baselinesDir(cwd), `${l}.json`), 'utf8')));
    const again = await cli(['accept', '--results', 'r.json'], cwd, {}, { now: () => new Date('2027-01-01T00:00:00.000Z') });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('unchanged passing (already the baseline)');
    expect(again.stdout).toContain('0 accepted, 2 refused, 3 unchanged');
    expect(again.stdout).not.toContain('next: commit'); // nothing written, nothing to commit
    const after = await Promise.all(['passing', 'failing', 'probe'].map((l) => readFile(join(baselinesDir(cwd), `${l}.json`), 'utf8')));
    expect(after).toEqual(before);
  });

  it('--only limits acceptance to the labels given', async () => {
    const cwd = await recordedProject();
    const r = await cli(['accept', '--results', 'r.json', '--only', 'failing, unevaluated'], cwd);
    expect(r.code).toBe(0);
    expect(await listTree(baselinesDir(cwd))).toEqual(['failing.json']);
    expect(r.stdout).toContain('refused   unevaluated: not evaluated (regex does not compile): fix the pattern in the fixture file named on each item; then run it again');
    expect(r.stdout).not.toContain('passing');
    expect(r.stdout).toContain('1 accepted, 1 refused, 0 unchanged');
  });

  it('an unknown label in --only is exit 2 and nothing is written', async () => {
    const cwd = await recordedProject();
    const r = await cli(['accept', '--results', 'r.json', '--only', 'passing,pasing'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not found pasing');
    expect(r.stderr).toContain('nothing was accepted');
    expect(existsSync(baselinesDir(cwd))).toBe(false);
  });

  it('--only takes the globs of run --only (* and ?), matched the same way; a pattern that matches nothing writes nothing', async () => {
    const cwd = await recordedProject();
    // fail* and ?robe: failing and probe; the empty entry and the space are dropped as run's are.
    const r = await cli(['accept', '--results', 'r.json', '--only', 'fail*, ,?robe'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(await listTree(baselinesDir(cwd))).toEqual(['failing.json', 'probe.json']);
    expect(r.stdout).toContain('2 accepted, 0 refused, 0 unchanged');
    // run --only selects the same items with the same patterns.
    const run = await cli(['run', '--out', 'r2.json', '--only', 'fail*, ,?robe', '--fail-on', 'none'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect((await readResults(join(cwd, 'r2.json'))).selection?.labels).toEqual(['failing', 'probe']);

    const none = await recordedProject();
    const typo = await cli(['accept', '--results', 'r.json', '--only', 'pass*,zz*'], none);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('not found zz*: no fixture or persona script label in r.json matches it');
    expect(typo.stderr).toContain('nothing was accepted');
    expect(existsSync(baselinesDir(none))).toBe(false);
    // A pattern is not a regular expression: "." is a dot.
    const dot = await cli(['accept', '--results', 'r.json', '--only', 'pass.ng'], none);
    expect(dot.code).toBe(2);
    const empty = await cli(['accept', '--results', 'r.json', '--only', ','], none);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--only needs at least one label or glob, e.g. --only refund-*,greeting');
  });

  it('says to commit what it wrote, with the folder as a shell word from the working directory', () => {
    expect(commitBaselinesStep('.agent-replay', 1)).toBe('next: commit it (git add .agent-replay/baselines): the check on a pull request compares with the baselines of the commit it replays');
    expect(commitBaselinesStep('my suite', 2)).toContain("git add 'my suite/baselines'");
    expect(commitBaselinesStep('.', 2)).toContain('(git add baselines)');
    expect(commitBaselinesStep('.agent-replay', 0)).toBeNull();
  });

  it("after a run, says the command that accepts its new or changed pass/fail results, with the run's folder and file", () => {
    expect(acceptRunStep(1, '.agent-replay', undefined)).toBe('next: to accept the new or changed pass/fail result as a baseline: npx agent-replay accept');
    expect(acceptRunStep(1200, 'bots/my suite', 'out/r.json')).toBe("next: to accept the 1,200 new or changed pass/fail results as baselines: npx agent-replay accept --dir 'bots/my suite' --results out/r.json");
    expect(acceptRunStep(0, '.agent-replay', undefined)).toBeNull();
    // After a failed gate (a newly failing item), not advice to accept it unread.
    expect(acceptRunStep(2, '.agent-replay', undefined, true)).toBe('next: if what the gate failed on is intended, to accept the 2 new or changed pass/fail results as baselines: npx agent-replay accept');
  });

  it('in CI, says what applies there: the label in a pull request\'s GitHub Actions job, nothing in another CI job (was: npx agent-replay accept, into a checkout no one commits)', () => {
    const label =
      `next: to accept the 3 new or changed pass/fail results as baselines, a reviewer applies the accept-baseline label to the pull request once its comment is read (${docsUrl('action.md', 'Accept: the label commits the reviewed replies')}): accept in this job would write them into a checkout no one commits`;
    for (const event of ['pull_request', 'pull_request_target']) expect(acceptRunStep(3, '.agent-replay', 'r.json', false, { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_NAME: event }, 'accept-baseline')).toBe(label);
    expect(acceptRunStep(3, '.agent-replay', 'r.json', true, { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' }, 'accept-baseline')).toMatch(/^next: if what the gate failed on is intended, to accept the 3 .* accept-baseline label/);
    for (const env of [{ CI: 'true' }, { CI: '1' }, { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push' }, { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_NAME: 'deployment_status' }]) {
      expect(acceptRunStep(3, '.agent-replay', 'r.json', false, env), JSON.stringify(env)).toBeNull();
    }
    // Not CI: the command, as before.
    for (const env of [{}, { CI: 'false' }, { CI: '0' }, { CI: '' }]) expect(acceptRunStep(3, '.agent-replay', 'r.json', false, env)).toBe('next: to accept the 3 new or changed pass/fail results as baselines: npx agent-replay accept --results r.json');
  });

  it('the record of an interrupted run: its finished items are accepted, and a line says the others were not in it', async () => {
    const cwd = await recordedProject();
    const record = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as { interrupted: boolean; fixtures: { label: string }[] };
    record.interrupted = true;
    record.fixtures = record.fixtures.filter((f) => f.label === 'passing');
    await writeFile(join(cwd, 'int.json'), JSON.stringify(record));
    const r = await cli(['accept', '--results', 'int.json'], cwd);
    expect(r.code).toBe(0);
    expect(await listTree(baselinesDir(cwd))).toEqual(['passing.json']);
    expect(r.stdout).toContain(
      '\n1 accepted, 0 refused, 0 unchanged\nint.json is the record of an interrupted run: only the item it finished could be accepted; the others keep their baselines; to replay them, run the suite again: npx agent-replay run\n',
    );
    const whole = await cli(['accept', '--results', 'r.json'], cwd);
    expect(whole.stdout).not.toContain('interrupted');
    // A suite in another folder: the command names it.
    await rename(join(cwd, '.agent-replay'), join(cwd, 'my suite'));
    await writeFile(join(cwd, 'moved.json'), (await readFile(join(cwd, 'int.json'), 'utf8')).replaceAll('.agent-replay', 'my suite'));
    const elsewhere = await cli(['accept', '--dir', 'my suite', '--results', 'moved.json'], cwd);
    expect(elsewhere.stderr).toBe('');
    expect(elsewhere.stdout).toContain("run the suite again: npx agent-replay run --dir 'my suite'\n");
  });

  it('rejects a tampered results.json whose label would escape the baselines folder', async () => {
    const cwd = await recordedProject();
    const record = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as { fixtures: { label: string }[] };
    (record.fixtures[0] as { label: string }).label = '../../evil';
    await writeFile(join(cwd, 'evil.json'), JSON.stringify(record));
    const before = await listTree(cwd);
    const r = await cli(['accept', '--results', 'evil.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('evil.json');
    expect(r.stderr).toContain('fixtures.0.label');
    expect(await listTree(cwd)).toEqual(before);
    expect(existsSync(join(cwd, '..', 'evil.json'))).toBe(false);
  });

  it('refuses a fixture the suite no longer has, instead of writing an orphan baseline', async () => {
    const cwd = await recordedProject();
    await writeFile(
      join(cwd, '.agent-replay', 'fixtures', 'f.yml'),
      'fixtures:\n  - { label: passing, message: a, assert: { contains: A-reply } }\n  - { label: renamed, message: b }\n',
    );
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(0);
    expect(await listTree(baselinesDir(cwd))).toEqual(['passing.json']);
    expect(r.stdout).toContain('refused   failing: no fixture is labelled failing in .agent-replay: was it renamed or removed?');
    expect(r.stdout).toContain('1 accepted, 4 refused, 0 unchanged');
  });

  it('refuses an item recorded as a fixture whose label is a persona script now, and keeps that script baseline', async () => {
    const cwd = await recordedProject();
    const personaBaseline = serializeBaseline({
      kind: 'persona',
      label: 'failing',
      transcript: [{ message: 'hi', reply: 'hello', route: null }],
      visited: [],
      outcome: 'finish',
      verdict: 'pass',
      acceptedAt: '2026-11-30T10:00:00.000Z',
      commit: 'abc123',
    } as never);
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), 'fixtures:\n  - { label: passing, message: a, assert: { contains: A-reply } }\n');
    await mkdir(join(cwd, '.agent-replay', 'personas'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), 'personas:\n  - label: failing\n    opening: hi\n    expect: { terminal: finish }\n');
    await mkdir(baselinesDir(cwd), { recursive: true });
    await writeFile(join(baselinesDir(cwd), 'failing.json'), personaBaseline);
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('refused   failing: failing is a persona script in .agent-replay now, and the run recorded it as a fixture: run it again, then accept');
    expect(await readFile(join(baselinesDir(cwd), 'failing.json'), 'utf8')).toBe(personaBaseline);
  });

  it('refuses a baseline its own record contradicts (a results file edited by hand): the suite still loads', async () => {
    const cwd = await recordedProject();
    const record = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as { fixtures: { label: string; repeat?: unknown }[] };
    // A pass from 0 of 3 passing attempts: the loader refuses such a baseline (docs/statistics.md).
    const passing = record.fixtures.find((f) => f.label === 'passing') as { repeat?: unknown };
    passing.repeat = { count: 3, minPass: 1, passed: 0, flaky: false };
    await writeFile(join(cwd, 'edited.json'), JSON.stringify(record));
    const r = await cli(['accept', '--results', 'edited.json'], cwd);
    expect(r.stdout).toMatch(/refused {3}passing: its record contradicts itself, so the baseline would not load: .*0 of 3 attempts passed.*; was the results file edited\? run it again/);
    expect(await listTree(baselinesDir(cwd))).toEqual(['failing.json', 'probe.json']);
    const validate = await cli(['validate'], cwd);
    expect(validate.code).toBe(0);
  });

  it('a folder where a baseline file goes: the others are written, that one is named with its fix, refusals still printed, exit 2', async () => {
    const cwd = await recordedProject();
    await mkdir(join(baselinesDir(cwd), 'failing.json'), { recursive: true });
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`not written failing: a folder stands at ${join(baselinesDir(cwd), 'failing.json')}: remove it (a baseline is a file), then accept again`);
    expect(r.stdout).toContain('refused   broken: errored: no reply to accept');
    expect(r.stdout).toMatch(/accepted +passing \(pass\)/);
    expect(r.stdout).toContain('2 accepted, 2 refused, 0 unchanged, 1 not written');
    expect((await listTree(baselinesDir(cwd))).filter((f) => !f.startsWith('failing.json'))).toEqual(['passing.json', 'probe.json']);
  });

  it('a baselines folder that cannot be made: nothing is written, the error names the folder and the fix', async () => {
    const cwd = await recordedProject();
    // A dangling link where the baselines folder goes.
    await symlink(join(cwd, 'gone'), baselinesDir(cwd));
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('refused   broken: errored: no reply to accept');
    expect(r.stderr).toContain('nothing was accepted: ');
    expect(r.stderr).toContain(`check that ${baselinesDir(cwd)} is a folder (or can be made one) that you can write to, then accept again`);
    expect(existsSync(join(cwd, 'gone'))).toBe(false);
  });

  it("refuses a reply recorded under a fixture's old definition (its check edited since the run)", async () => {
    const cwd = await recordedProject();
    // passing's check now asks for something its recorded reply was never checked against.
    const file = join(cwd, '.agent-replay', 'fixtures', 'f.yml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('{ label: passing, message: a, assert: { contains: A-reply } }', '{ label: passing, message: a, assert: { contains: "14 days" } }'));
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('refused   passing: passing was edited in .agent-replay since the run (its message, check or expectations), so its verdict is the old definition');
    expect(await listTree(baselinesDir(cwd))).toEqual(['failing.json', 'probe.json']);
  });

  it("refuses a run of another suite folder (run --dir elsewhere, accept without it): names that folder and the --dir to give, writes nothing", async () => {
    // Two suites in one repository (a monorepo's two bots), each with the same starting fixture:
    // the other suite's replies must not become this one's baselines (docs/cli.md, "What each command does").
    const cwd = await recordedProject();
    const agent = await serve(scriptedAgent({ a: 'Other-reply' }));
    await mkdir(join(cwd, 'bots', 'other suite', 'fixtures'), { recursive: true });
    await writeFile(join(cwd, 'bots', 'other suite', 'config.yml'), agentConfig(agent.url));
    await writeFile(join(cwd, 'bots', 'other suite', 'fixtures', 'f.yml'), 'fixtures:\n  - { label: passing, message: a, assert: { contains: A-reply } }\n');
    const ran = await cli(['run', '--dir', 'bots/other suite', '--out', 'other.json', '--commit', COMMIT, '--fail-on', 'none'], cwd);
    expect(ran.code).toBe(0);
    const before = await listTree(cwd);
    const r = await cli(['accept', '--results', 'other.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "agent-replay: other.json: it is a run of the suite in bots/other suite (its first item is bots/other suite/fixtures/f.yml), not of .agent-replay; its replies would be written where that suite does not read them, so nothing was written: give --dir 'bots/other suite'\nRun 'agent-replay accept --help' for its options.\n",
    );
    expect(r.stdout).toBe('');
    expect(await listTree(cwd)).toEqual(before);
    // With the --dir it names, the same file is accepted into its own suite.
    const ok = await cli(['accept', '--results', 'other.json', '--dir', 'bots/other suite'], cwd);
    expect(ok.code).toBe(0);
    expect(JSON.parse(await readFile(join(cwd, 'bots', 'other suite', 'baselines', 'passing.json'), 'utf8'))).toMatchObject({ reply: 'Other-reply' });
    expect(existsSync(join(baselinesDir(cwd), 'passing.json'))).toBe(false);
  });

  it('a run made at the root, accepted from a subfolder with --dir ../.agent-replay: the same suite, accepted; another suite still refused', async () => {
    // The record names its files from the folder it ran in (.agent-replay/fixtures/f.yml), not from the subfolder.
    const cwd = await recordedProject();
    const sub = join(cwd, 'src');
    await mkdir(join(cwd, 'bots', 'other', 'fixtures'), { recursive: true });
    await mkdir(sub);
    const other = await cli(['accept', '--results', '../r.json', '--dir', '../bots/other'], sub);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('../r.json: it is a run of the suite in .agent-replay (its first item is .agent-replay/fixtures/f.yml), not of ../bots/other;');
    expect(existsSync(baselinesDir(cwd))).toBe(false);
    const r = await cli(['accept', '--results', '../r.json', '--dir', '../.agent-replay'], sub);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/accepted +passing \(pass\)/);
    expect(await listTree(baselinesDir(cwd))).toEqual(['failing.json', 'passing.json', 'probe.json']);
  });

  it('a suite with configuration errors: they are listed, and the count says nothing was accepted (accept sends nothing to the agent)', async () => {
    const cwd = await recordedProject();
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), 'agent:\n  timeoutMs: 0\n');
    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: .agent-replay/config.yml:2:14: agent.timeoutMs must be a whole number');
    expect(r.stderr.endsWith('\n1 configuration error; nothing was accepted.\n')).toBe(true);
    expect(existsSync(baselinesDir(cwd))).toBe(false);
  });

  it('needs exactly one readable --results file; without one, the default run output', async () => {
    const cwd = await recordedProject();
    const none = await cli(['accept'], cwd);
    expect(none.code).toBe(2);
    // Accepting before any run: what comes first, not an errno (docs/cli.md, "What each command does").
    expect(none.stderr).toBe(
      "agent-replay: no run to accept: .agent-replay/results/results.json does not exist; run the suite first, npx agent-replay run (it writes the results there), or give --results FILE\nRun 'agent-replay accept --help' for its options.\n",
    );
    const elsewhere = await cli(['accept', '--dir', 'qa'], cwd);
    expect(elsewhere.stderr).toContain('no run to accept: qa/results/results.json does not exist; run the suite first, npx agent-replay run --dir qa (it writes the results there)');
    const two = await cli(['accept', '--results', 'r.json', '--results', 'r.json'], cwd);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('accept takes one --results file, got 2');
    const missing = await cli(['accept', '--results', 'nope.json'], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: does not exist; give the path of a results.json written by agent-replay');
    quotedAndSaid(missing.stderr, '<file>: does not exist; give the path of a results.json written by agent-replay');
  });
});
