// A rendering (--markdown, --junit, --html) that cannot be written once the run is over (here a
// folder that is a link out of the working folder, which agent-replay never writes through): the
// others are still written, the summary names every file that was, and the error names the flag
// (docs/troubleshooting.md, "Results and exit statuses"). The CLI in-process (`cli`, as
// usage.test.ts calls it), the process's working folder the project's for the run: a link is
// refused when it leads out of the working folder (repositoryFor, src/fs-safe.ts), as it is for
// a user who runs agent-replay in the project.

import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { agentConfig, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

/** The CLI in-process with `cwd` as the process's working folder too, as a user's shell gives it; the worker's is back after. */
async function cliIn(cwd: string, argv: string[], env: Record<string, string>): ReturnType<typeof cli> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await cli(argv, cwd, env);
  } finally {
    process.chdir(before);
  }
}

it('run and report: a rendering refused at write time leaves the others written and the results line printed, exit 2', async () => {
  const agent = await serve();
  const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n'), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' } });
  const elsewhere = await tempDir('agent-replay-elsewhere-');
  await symlink(elsewhere, join(cwd, 'out'));
  await mkdir(join(cwd, 'reports'));
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, NO_COLOR: '1' };

  const run = await cliIn(cwd, ['run', '--out', 'results.json', '--markdown', 'out/report.md', '--junit', 'reports/junit.xml', '--html', 'reports/report.html'], env);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain(`agent-replay: refusing to write ${join(cwd, 'out', 'report.md')}`);
  expect(run.stdout).toContain(`results: ${join(cwd, 'results.json')}\njunit: ${join(cwd, 'reports', 'junit.xml')}\nhtml: ${join(cwd, 'reports', 'report.html')}\n`);
  expect(run.stdout).not.toContain('markdown:');
  expect(existsSync(join(cwd, 'reports', 'junit.xml'))).toBe(true);
  expect(existsSync(join(cwd, 'reports', 'report.html'))).toBe(true);
  expect(await readdir(elsewhere)).toEqual([]);

  const report = await cliIn(cwd, ['report', '--results', 'results.json', '--markdown', 'reports/merged.md', '--html', 'out/merged.html'], env);
  expect(report.code, report.stderr).toBe(2);
  expect(report.stderr).toContain(`agent-replay: refusing to write ${join(cwd, 'out', 'merged.html')}`);
  expect(report.stdout).toContain(`markdown: ${join(cwd, 'reports', 'merged.md')}\n`);
  expect(existsSync(join(cwd, 'reports', 'merged.md'))).toBe(true);
  expect(await readdir(elsewhere)).toEqual([]);
});
