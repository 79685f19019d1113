// A rendering (--markdown, --junit, --html) that cannot be written once the run is over (here a
// folder that is a link out of the working folder, which agent-replay never writes through): the
// others are still written, the summary names every file that was, and the error names the flag
// (docs/troubleshooting.md, "Results and exit statuses"). The real CLI in a child process, whose
// working folder is the project's.

import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { agentConfig, makeProject, serve, spawnCli, useCleanup } from './helpers.js';

useCleanup();

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

it('run and report: a rendering refused at write time leaves the others written and the results line printed, exit 2', async () => {
  const agent = await serve();
  const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n'), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' } });
  const elsewhere = await tempDir('agent-replay-elsewhere-');
  await symlink(elsewhere, join(cwd, 'out'));
  await mkdir(join(cwd, 'reports'));
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, NO_COLOR: '1' };

  const run = await spawnCli(CLI, ['run', '--out', 'results.json', '--markdown', 'out/report.md', '--junit', 'reports/junit.xml', '--html', 'reports/report.html'], cwd, env);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`agent-replay: refusing to write ${join(cwd, 'out', 'report.md')}`);
  expect(run.stdout).toContain(`results: ${join(cwd, 'results.json')}\njunit: ${join(cwd, 'reports', 'junit.xml')}\nhtml: ${join(cwd, 'reports', 'report.html')}\n`);
  expect(run.stdout).not.toContain('markdown:');
  expect(existsSync(join(cwd, 'reports', 'junit.xml'))).toBe(true);
  expect(existsSync(join(cwd, 'reports', 'report.html'))).toBe(true);
  expect(await readdir(elsewhere)).toEqual([]);

  const report = await spawnCli(CLI, ['report', '--results', 'results.json', '--markdown', 'reports/merged.md', '--html', 'out/merged.html'], cwd, env);
  expect(report.code, report.stderr).toBe(2);
  expect(report.stderr).toContain(`agent-replay: refusing to write ${join(cwd, 'out', 'merged.html')}`);
  expect(report.stdout).toContain(`markdown: ${join(cwd, 'reports', 'merged.md')}\n`);
  expect(existsSync(join(cwd, 'reports', 'merged.md'))).toBe(true);
  expect(await readdir(elsewhere)).toEqual([]);
});
