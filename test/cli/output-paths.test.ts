// Two of a command's outputs on one file, or a report written over a results file the command
// reads, are usage errors said before anything is sent or written: the later write would replace
// the earlier (`run --out r.json --markdown r.json` left markdown where the results were), and a
// report over `report --results r.json` or `compare a.json b.json --out a.json` destroyed a
// recorded run (docs/cli.md, "What each command does").

import { readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, scriptedAgent, serve, useCleanup } from './helpers.js';

useCleanup();

async function recorded(): Promise<{ cwd: string; requests: () => number }> {
  const agent = await serve(scriptedAgent({ a: 'A-reply' }));
  const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: passing\nmessage: a\nassert: { contains: A-reply }\n' } });
  const r = await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd);
  expect(r.code).toBe(0);
  return { cwd, requests: () => agent.requests.length };
}

describe('an output path written with backslashes (typed on Windows) on macOS or Linux', () => {
  it.skipIf(sep !== '/')('is refused with the path in slashes, as --dir is, before anything is sent; a file already so named is written as named', async () => {
    const agent = await serve(scriptedAgent({ a: 'A-reply' }));
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: passing\nmessage: a\n' } });
    for (const flag of ['--out', '--markdown', '--junit', '--html']) {
      const r = await cli(['run', flag, 'out\\r.x', '--fail-on', 'none'], cwd);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toBe(
        `agent-replay: ${flag} 'out\\r.x': on this system a backslash is part of a file's name, not a separator, so this would write one file named 'out\\r.x': give ${flag} out/r.x, with slashes\n`,
      );
    }
    expect(agent.requests.length).toBe(0);
    expect(existsSync(join(cwd, 'out\\r.x'))).toBe(false);
    await writeFile(join(cwd, 'odd\\name.json'), '');
    expect((await cli(['run', '--out', 'odd\\name.json', '--fail-on', 'none'], cwd)).code).toBe(0);
  });
});

describe('outputs on one file, or over a results file read', () => {
  it('run: two flags naming one file, or a report on the default results file, are refused before anything is sent', async () => {
    const { cwd, requests } = await recorded();
    const sent = requests();
    const same = await cli(['run', '--out', 'x.json', '--markdown', './x.json'], cwd);
    expect(same.code).toBe(2);
    expect(same.stderr).toBe('agent-replay: --markdown ./x.json is also --out: each file written needs its own path (the later write would replace the earlier)\n');
    const onDefault = await cli(['run', '--junit', '.agent-replay/results/results.json'], cwd);
    expect(onDefault.code).toBe(2);
    expect(onDefault.stderr).toContain('--junit .agent-replay/results/results.json is also the results file (.agent-replay/results/results.json, where --out writes by default)');
    const onRerun = await cli(['run', '--rerun', 'r.json', '--html', 'r.json'], cwd);
    expect(onRerun.code).toBe(2);
    expect(onRerun.stderr).toContain('--html r.json is --rerun, a results file this command reads: writing there would replace it; give another path');
    expect(requests()).toBe(sent);
    // A rerun that records over the file it reruns is what was asked.
    const rerun = await cli(['run', '--rerun', 'r.json', '--out', 'r.json', '--fail-on', 'none'], cwd);
    expect(rerun.code).toBe(0);
  });

  it('report: a report over a --results file is refused and the file kept; --out over it (the merged record) is not', async () => {
    const { cwd } = await recorded();
    const before = await readFile(join(cwd, 'r.json'), 'utf8');
    const r = await cli(['report', '--results', 'r.json', '--markdown', 'r.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--markdown r.json is --results r.json, a results file this command reads: writing there would replace it; give another path');
    expect(await readFile(join(cwd, 'r.json'), 'utf8')).toBe(before);
    expect((await cli(['report', '--results', 'r.json', '--out', 'r.json', '--fail-on', 'none'], cwd)).code).toBe(0);
  });

  it('compare: --out or --markdown over BEFORE.json or AFTER.json is refused and the run kept', async () => {
    const { cwd } = await recorded();
    expect((await cli(['run', '--out', 's.json', '--fail-on', 'none'], cwd)).code).toBe(0);
    const before = await readFile(join(cwd, 'r.json'), 'utf8');
    const out = await cli(['compare', 'r.json', 's.json', '--out', 'r.json'], cwd);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--out r.json is BEFORE.json (r.json), a results file this command reads: writing there would replace it; give another path');
    const md = await cli(['compare', 'r.json', 's.json', '--markdown', 's.json'], cwd);
    expect(md.code).toBe(2);
    expect(md.stderr).toContain('--markdown s.json is AFTER.json (s.json)');
    expect(await readFile(join(cwd, 'r.json'), 'utf8')).toBe(before);
    const ok = await cli(['compare', 'r.json', 's.json', '--out', 'c.json', '--markdown', 'c.md'], cwd);
    expect(ok.code).toBe(0);
    // Where the files went, after the comparison, as run and report say it.
    expect(ok.stdout.endsWith(`\ncomparison: ${join(cwd, 'c.json')}\nmarkdown: ${join(cwd, 'c.md')}\n`)).toBe(true);
    expect(existsSync(join(cwd, 'c.md'))).toBe(true);
  });

  it('calibrate: --out and --markdown on one file, or --out on a folder, are refused before any judge call is paid for', async () => {
    const { cwd } = await recorded();
    const same = await cli(['calibrate', '--out', 'c.json', '--markdown', 'c.json'], cwd);
    expect(same.code).toBe(2);
    expect(same.stderr).toBe('agent-replay: --markdown c.json is also --out: each file written needs its own path (the later write would replace the earlier)\n');
    const folder = await cli(['calibrate', '--out', '.agent-replay'], cwd);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('--out .agent-replay is a folder: give a file path');
  });
});
