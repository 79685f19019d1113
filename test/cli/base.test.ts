// `run --base REV` (docs/cli.md, "What each command does"): what the working tree changed in the
// suite since a git revision, said as the Action says it of a pull request (docs/action.md, "The PR
// comment", "Suite edited"). Real git in a temp folder; the base's files are read with git, no checkout.

import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { gitSuiteEdits, resolveBase } from '../../src/cli/suite-edits.js';

useCleanup();

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();

const FIXTURES = `fixtures:
  - { label: refund, message: "refund?", assert: { contains: "echo" } }
  - { label: hours, message: "hours?", assert: { regex: "echo" } }
  - { label: greeting, message: "hi?" }
`;
const SCRIPT = 'label: refund-dialog\nopening: I want my money back\nexpect:\n  toolNotCalled: [{ tool: issue_refund }]\n  criteria: [stays polite]\n';

/** A repository whose main branch has the suite (a fixture file, a persona script, a baseline), on a branch `feature`. */
async function repo(url: string): Promise<string> {
  const cwd = await makeProject({ config: agentConfig(url), fixtures: { 'suite.yml': FIXTURES }, baselines: [baseline('refund', 'echo: refund?', null, 'pass')] });
  await mkdir(join(cwd, '.agent-replay/personas'), { recursive: true });
  // A persona script the run does not replay (--only), whose checks the branch changes.
  await writeFile(join(cwd, '.agent-replay/personas/refund.yml'), SCRIPT);
  git(cwd, 'init', '-q');
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-q', '-m', 'The suite');
  git(cwd, 'checkout', '-q', '-b', 'feature');
  return cwd;
}

describe('run --base', () => {
  it('says what the branch and the working tree changed in the suite since the base, in the terminal, report.html and results.json', async () => {
    const agent = await serve();
    const cwd = await repo(agent.url);
    const main = git(cwd, 'rev-parse', 'main');
    // Committed on the branch: a check taken out, a fixture deleted, a script's check removed.
    await writeFile(join(cwd, '.agent-replay/fixtures/suite.yml'), FIXTURES.replace('assert: { contains: "echo" } }', '}').replace(/ {2}- \{ label: hours.*\n/, ''));
    await writeFile(join(cwd, '.agent-replay/personas/refund.yml'), SCRIPT.replace('  toolNotCalled: [{ tool: issue_refund }]\n', ''));
    git(cwd, 'commit', '-q', '-am', 'Loosen the suite');
    // Not committed: a baseline edited by hand; new on main since the branch: nothing of the suite.
    await writeFile(join(cwd, '.agent-replay/baselines/refund.json'), serializeBaseline(baseline('refund', 'edited by hand', null, 'pass')));
    const r = await cli(['run', '--base', 'main', '--only', 'refund,greeting', '--html', 'r.html'], cwd);
    expect(r.stderr).not.toContain('agent-replay:');
    expect(r.code).toBe(0);
    // A checkout against a revision, not a pull request: the revision named as given.
    expect(r.stdout).toContain(
      `This checkout edits the suite, against main.\n  These results were measured against the suite as this checkout has it (uncommitted and untracked files included), compared with main (${main.slice(0, 7)}).\n`,
    );
    expect(r.stdout).not.toContain('pull request');
    expect(r.stdout).toContain('  2 fixture checks changed or removed:\n    - refund in .agent-replay/fixtures/suite.yml: check contains "echo" is now none (a probe)\n    - hours deleted from .agent-replay/fixtures/suite.yml; its check was regex /echo/\n');
    expect(r.stdout).toContain('  1 persona script with checks changed or removed:\n    - refund-dialog in .agent-replay/personas/refund.yml: check toolNotCalled issue_refund removed\n');
    expect(r.stdout).toContain('  1 baseline changed since the base (git cannot tell an accept commit apart: baselines accepted on this branch are listed too):\n    - .agent-replay/baselines/refund.json changed since the base\n');
    const record = await readResults(join(cwd, '.agent-replay/results/results.json'));
    expect(record.suiteEdits).toEqual({
      base: main,
      fixtures: [
        { label: 'refund', file: '.agent-replay/fixtures/suite.yml', change: 'assertion', before: 'contains "echo"', after: null },
        { label: 'hours', file: '.agent-replay/fixtures/suite.yml', change: 'deleted', before: 'regex /echo/', after: null },
        { label: 'refund-dialog', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'assertion', before: 'toolNotCalled issue_refund', after: null },
      ],
      baselines: [{ file: '.agent-replay/baselines/refund.json', status: 'modified' }],
      unknown: null,
      source: 'git',
      rev: 'main',
    });
    expect(await readFile(join(cwd, 'r.html'), 'utf8')).toContain('<div class="notice suite-edits">');
    // The base was read with git, no checkout: the working tree is as it was.
    expect(git(cwd, 'status', '--porcelain', '--untracked-files=no')).toBe('M .agent-replay/baselines/refund.json');

    // Nothing of the suite changed since the base (the baseline committed, compared with HEAD): no edits.
    git(cwd, 'commit', '-q', '-am', 'Edit the baseline');
    expect(await gitSuiteEdits(await resolveBase('HEAD', join(cwd, '.agent-replay')))).toBeNull();
  });

  it('refuses a revision git does not know, and a suite outside a repository, before anything is sent', async () => {
    const agent = await serve();
    const cwd = await repo(agent.url);
    const unknown = await cli(['run', '--base', 'origin/nope'], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("agent-replay: --base origin/nope: no commit of that name in the repository at ");
    expect(unknown.stderr).toContain('give a branch, tag or commit it has, e.g. fetch it first (git fetch origin main, then --base origin/main)');
    const dash = await cli(['run', '--base=-x'], cwd);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('--base -x: a revision does not start with "-"');
    await rm(join(cwd, '.git'), { recursive: true, force: true });
    const outside = await cli(['run', '--base', 'main'], cwd);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('agent-replay: --base main: the suite folder ');
    expect(outside.stderr).toContain('is not read with git (fatal: not a git repository');
    expect(agent.requests).toHaveLength(0);
  });
});
