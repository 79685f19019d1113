// `run --base REV` (docs/cli.md, "What each command does"): what the working tree changed in the
// suite since a git revision, said as the Action says it of a pull request (docs/action.md, "The PR
// comment", "Suite edited"), as this checkout's edits against REV. Real git in a temp folder; the
// base's files are read with git, no checkout. One repository for the file, built once (each git
// start is a process, 0.3 s and more at load): the tests that follow the first only read it.

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfig, baseline, cli, makeProject, readResults, useCleanup } from './helpers.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { tempDir } from '../support/temp.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { gitSuiteEdits, resolveBase } from '../../src/cli/suite-edits.js';
import { checkedOutCommit } from '../../src/action/checkout.js';

useCleanup();

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();

const FIXTURES = `fixtures:
  - { label: refund, message: "refund?", assert: { contains: "echo" } }
  - { label: hours, message: "hours?", assert: { regex: "echo" } }
  - { label: greeting, message: "hi?" }
`;
const SCRIPT = 'label: refund-dialog\nopening: I want my money back\nexpect:\n  toolNotCalled: [{ tool: issue_refund }]\n  criteria: [stays polite]\n';
const BASELINE = serializeBaseline(baseline('refund', 'echo: refund?', null, 'pass'));

let agent: AgentServer;
/** The repository: main has the suite (a fixture file, a persona script, a baseline); branch `feature`, checked out, loosened it in one commit. */
let cwd: string;
/** main's commit. */
let main: string;

beforeAll(async () => {
  agent = await startAgentServer();
  cwd = await tempDir('agent-replay-base-');
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'personas'));
  await mkdir(join(dir, 'baselines'));
  await writeFile(join(dir, 'config.yml'), agentConfig(agent.url));
  await writeFile(join(dir, 'fixtures/suite.yml'), FIXTURES);
  // A persona script the run does not replay (--only), whose checks and opening the branch changes.
  await writeFile(join(dir, 'personas/refund.yml'), SCRIPT);
  await writeFile(join(dir, 'baselines/refund.json'), BASELINE);
  git(cwd, 'init', '-q');
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-q', '-m', 'The suite');
  git(cwd, 'checkout', '-q', '-b', 'feature');
  // Committed on the branch: a check taken out, a fixture deleted, a script's check removed and its opening changed.
  await writeFile(join(dir, 'fixtures/suite.yml'), FIXTURES.replace('assert: { contains: "echo" } }', '}').replace(/ {2}- \{ label: hours.*\n/, ''));
  await writeFile(join(dir, 'personas/refund.yml'), SCRIPT.replace('  toolNotCalled: [{ tool: issue_refund }]\n', '').replace('my money back', 'a refund'));
  git(cwd, 'commit', '-q', '-am', 'Loosen the suite');
  main = (await readFile(join(cwd, '.git/refs/heads/main'), 'utf8')).trim();
});

afterAll(async () => {
  await agent.close();
});

describe('run --base', () => {
  it('says what the branch and the working tree changed in the suite since the base, in the terminal, report.html and results.json', async () => {
    // Not committed: a baseline edited by hand; new on main since the branch: nothing of the suite.
    const baselineFile = join(cwd, '.agent-replay/baselines/refund.json');
    await writeFile(baselineFile, serializeBaseline(baseline('refund', 'edited by hand', null, 'pass')));
    const r = await cli(['run', '--base', 'main', '--only', 'refund,greeting', '--html', 'r.html'], cwd);
    expect(r.stderr).not.toContain('agent-replay:');
    expect(r.code).toBe(0);
    // A checkout against a revision, not a pull request: the revision named as given.
    expect(r.stdout).toContain(
      `This checkout edits the suite, against main.\n  These results were measured against the suite as this checkout has it (uncommitted and untracked files included), compared with main (${main.slice(0, 7)}).\n`,
    );
    expect(r.stdout).not.toContain('pull request');
    expect(r.stdout).toContain('  2 fixture checks changed or removed:\n    - refund in .agent-replay/fixtures/suite.yml: check contains "echo" is now none (a probe)\n    - hours deleted from .agent-replay/fixtures/suite.yml; its check was regex /echo/\n');
    expect(r.stdout).toContain(
      '  1 persona script with checks or what is replayed changed:\n' +
        '    - refund-dialog in .agent-replay/personas/refund.yml: check toolNotCalled issue_refund removed\n' +
        '    - refund-dialog in .agent-replay/personas/refund.yml: replayed opening "I want my money back" is now opening "I want a refund"\n',
    );
    expect(r.stdout).toContain('  1 baseline changed since the base (git cannot tell an accept commit apart: baselines accepted on this branch are listed too):\n    - .agent-replay/baselines/refund.json changed since the base\n');
    const record = await readResults(join(cwd, '.agent-replay/results/results.json'));
    expect(record.suiteEdits).toEqual({
      base: main,
      fixtures: [
        { label: 'refund', file: '.agent-replay/fixtures/suite.yml', change: 'assertion', before: 'contains "echo"', after: null },
        { label: 'hours', file: '.agent-replay/fixtures/suite.yml', change: 'deleted', before: 'regex /echo/', after: null },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'assertion', before: 'toolNotCalled issue_refund', after: null },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'script', before: 'opening "I want my money back"', after: 'opening "I want a refund"' },
      ],
      baselines: [{ file: '.agent-replay/baselines/refund.json', status: 'modified' }],
      unknown: null,
      source: 'git',
      rev: 'main',
    });
    expect(await readFile(join(cwd, 'r.html'), 'utf8')).toContain('<div class="notice suite-edits"><p><b>This checkout edits the suite, against <code>main</code>.</b>');
    // The base was read with git, no checkout: the working tree is as it was.
    expect(git(cwd, 'status', '--porcelain', '--untracked-files=no')).toBe('M .agent-replay/baselines/refund.json');

    // Nothing of the suite changed since the base (the baseline as committed, compared with HEAD): no edits.
    await writeFile(baselineFile, BASELINE);
    expect(await gitSuiteEdits(await resolveBase('HEAD', join(cwd, '.agent-replay'), {}))).toBeNull();
  });

  it('a baseline re-saved with CRLF line endings or a byte-order mark (its text otherwise as committed) is no edit; an edited one still is', async () => {
    const baselineFile = join(cwd, '.agent-replay/baselines/refund.json');
    const fixtures = join(cwd, '.agent-replay/fixtures/suite.yml');
    const wasFixtures = await readFile(fixtures, 'utf8');
    try {
      // Not committed, in a checkout without core.autocrlf: git lists both files as modified (as below).
      await writeFile(baselineFile, `\uFEFF${BASELINE.replace(/\n/g, '\r\n')}`);
      await writeFile(fixtures, wasFixtures.replace(/\n/g, '\r\n'));
      expect(await gitSuiteEdits(await resolveBase('HEAD', join(cwd, '.agent-replay'), {}))).toBeNull();
      // Its reply edited too: an edit, whatever its line endings.
      await writeFile(baselineFile, serializeBaseline(baseline('refund', 'edited by hand', null, 'pass')).replace(/\n/g, '\r\n'));
      expect((await gitSuiteEdits(await resolveBase('HEAD', join(cwd, '.agent-replay'), {})))?.baselines).toEqual([{ file: '.agent-replay/baselines/refund.json', status: 'modified' }]);
    } finally {
      await writeFile(baselineFile, BASELINE);
      await writeFile(fixtures, wasFixtures);
    }
  });

  it('names a fixture whose message changed and an item whose repeat changed, read with git (no run)', async () => {
    const fixtures = join(cwd, '.agent-replay/fixtures/suite.yml');
    const script = join(cwd, '.agent-replay/personas/refund.yml');
    const [wasFixtures, wasScript] = [await readFile(fixtures, 'utf8'), await readFile(script, 'utf8')];
    try {
      // Not committed: the greeting sends another message and must pass 1 of 3; the script must pass 2 of 2.
      await writeFile(fixtures, wasFixtures.replace('{ label: greeting, message: "hi?" }', '{ label: greeting, message: "hello?", repeat: { count: 3, minPass: 1 } }'));
      await writeFile(script, `${wasScript}repeat: { count: 2 }\n`);
      const edits = await gitSuiteEdits(await resolveBase('main', join(cwd, '.agent-replay'), {}));
      expect(edits?.fixtures).toEqual([
        { label: 'refund', file: '.agent-replay/fixtures/suite.yml', change: 'assertion', before: 'contains "echo"', after: null },
        { label: 'hours', file: '.agent-replay/fixtures/suite.yml', change: 'deleted', before: 'regex /echo/', after: null },
        { label: 'greeting', file: '.agent-replay/fixtures/suite.yml', change: 'script', before: 'message "hi?"', after: 'message "hello?"' },
        { label: 'greeting', file: '.agent-replay/fixtures/suite.yml', change: 'repeat', before: null, after: 'repeat count 3, minPass 1' },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'assertion', before: 'toolNotCalled issue_refund', after: null },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'script', before: 'opening "I want my money back"', after: 'opening "I want a refund"' },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'repeat', before: null, after: 'repeat count 2, minPass 2' },
      ]);
    } finally {
      await writeFile(fixtures, wasFixtures);
      await writeFile(script, wasScript);
    }
  });

  it('lists the settings of config.yml the working tree changed, old and new, and says a config.yml that does not read, read with git (no run)', async () => {
    const config = join(cwd, '.agent-replay/config.yml');
    const was = await readFile(config, 'utf8');
    try {
      // Not committed: fewer retries (no verdict changes: not listed), a judge with a key, a stricter latency threshold.
      await writeFile(config, `${was.replace('retries: 0', 'retries: 4')}judge: { model: gpt-4o, apiKey: sk-never-shown }\nlatency: { slowerBy: 0.2 }\n`);
      const edits = await gitSuiteEdits(await resolveBase('main', join(cwd, '.agent-replay'), {}));
      expect(edits?.config).toEqual([
        { file: '.agent-replay/config.yml', setting: 'judge.model', change: 'setting', before: null, after: '"gpt-4o"' },
        { file: '.agent-replay/config.yml', setting: 'judge.apiKey', change: 'secret', before: null, after: 'set' },
        { file: '.agent-replay/config.yml', setting: 'latency.slowerBy', change: 'setting', before: '0.5', after: '0.2', default: 'before' },
        // What the judge added brings by default: its provider and address, the meaning check by the judge.
        { file: '.agent-replay/config.yml', setting: 'judge.provider', change: 'setting', before: null, after: '"openai"', default: 'after' },
        { file: '.agent-replay/config.yml', setting: 'judge.baseUrl', change: 'setting', before: null, after: '"https://api.openai.com/v1"', default: 'after' },
        { file: '.agent-replay/config.yml', setting: 'meaning.check', change: 'setting', before: '"facts"', after: '"judge"', default: 'both' },
      ]);
      expect(JSON.stringify(edits)).not.toContain('sk-never-shown');
      // A config.yml that does not read in the working tree: said, nothing of it compared, no failure.
      await writeFile(config, 'agent: [\n');
      const broken = await gitSuiteEdits(await resolveBase('main', join(cwd, '.agent-replay'), {}));
      expect(broken?.unknown).toBeNull();
      expect(broken?.config).toEqual([{ file: '.agent-replay/config.yml', setting: null, change: 'unreadable', before: null, after: expect.stringMatching(/^does not read as YAML/) }]);
    } finally {
      await writeFile(config, was);
    }
  });

  it('refuses a revision git does not know, and a suite outside a repository, before anything is sent', async () => {
    const sent = agent.requests.length;
    const unknown = await cli(['run', '--base', 'origin/nope'], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("agent-replay: --base origin/nope: no commit of that name in the repository at ");
    expect(unknown.stderr).toContain('give a branch, tag or commit it has, e.g. fetch it first (git fetch origin main, then --base origin/main)');
    const dash = await cli(['run', '--base=-x'], cwd);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('--base -x: a revision does not start with "-"');
    const outside = await cli(['run', '--base', 'main'], await makeProject({ config: agentConfig(agent.url), fixtures: { 'suite.yml': FIXTURES } }));
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('agent-replay: --base main: the suite folder ');
    expect(outside.stderr).toContain('is not read with git (fatal: not a git repository');
    expect(agent.requests).toHaveLength(sent);
  });
});

describe('git, for run --base and for the Action\'s checkout check', () => {
  it('runs with the environment it is given (the CLI\'s io.env, the Action\'s deps.env), not the process\'s', async () => {
    const elsewhere = { GIT_DIR: join(cwd, 'no-such-git-dir') };
    // The same folder, read through the given environment: no repository there.
    const r = await cli(['run', '--base', 'main'], cwd, elsewhere);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not read with git (fatal: not a git repository');
    expect(await checkedOutCommit(cwd, elsewhere)).toBeNull();
    expect((await checkedOutCommit(cwd, {}))?.sha).toBe((await readFile(join(cwd, '.git/refs/heads/feature'), 'utf8')).trim());
  });
});
