// `agent-replay validate` (configuration only, nothing sent) and `agent-replay report` (merging
// the shards of a matrix without replaying anything).

import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeRecord } from '../../src/record/index.js';
import type { RunRecord } from '../../src/types.js';
import { agentConfig, baseline, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

useCleanup();

describe('validate', () => {
  it('exits 0 with a summary line on a good suite, warns about a pattern that does not compile, sends nothing', async () => {
    const agent = await serve();
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: {
        'a.yml': 'label: greeting\nmessage: hello\nassert: { contains: Welcome }\n',
        'b.yml': 'fixtures:\n  - { label: hours, message: When are you open? }\n  - { label: boots, message: boots?, assert: { regex: "boots (in" } }\n',
      },
      baselines: [baseline('greeting', 'Welcome!', null, 'pass')],
    });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('.agent-replay: 3 fixtures, 1 baseline, no configuration errors (1 warning)\n');
    expect(r.stderr).toMatch(/warning: \.agent-replay\/fixtures\/b\.yml:3(:\d+)?: .*pattern does not compile/);
    expect(agent.requests).toHaveLength(0);
  });

  it('counts in words a newcomer reads as English: 2 baselines, 2 warnings', async () => {
    const cwd = await makeProject({
      fixtures: {
        'a.yml': 'fixtures:\n  - { label: a, message: hi, assert: { regex: "(" } }\n  - { label: b, message: hi, assert: { regex: "[" } }\n',
      },
      baselines: [baseline('a', 'x', null, 'pass'), baseline('b', 'y', null, 'pass')],
    });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('.agent-replay: 2 fixtures, 2 baselines, no configuration errors (2 warnings)\n');
  });

  it('exits 2 and lists every error of every file at once', async () => {
    const agent = await serve();
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: {
        'a.yml': 'label: ok\nmessage: hello\n',
        'b.yml': 'label: bad one\nmessage: hello\n',
        'c.yml': 'label: other\nmessage: hi\nassert: { equals: hi }\n',
      },
    });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: \.agent-replay\/fixtures\/b\.yml:1(:\d+)?: .*label/);
    expect(r.stderr).toMatch(/error: \.agent-replay\/fixtures\/c\.yml:3(:\d+)?: /);
    expect(r.stderr).toContain('2 configuration errors; a run would send nothing until they are fixed.');
    expect(r.stdout).toBe('');
    expect(agent.requests).toHaveLength(0);
    // One error: "it", not "they".
    await rm(join(cwd, '.agent-replay', 'fixtures', 'c.yml'));
    const one = await cli(['validate'], cwd);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('\n1 configuration error; a run would send nothing until it is fixed.\n');
  });

  it('a key or header written literally in config.yml is never printed, not even in the fix for a misspelt key beside it', async () => {
    const cwd = await makeProject({
      config: [
        'judge: { provider: openai, modle: gpt-4o-mini, apiKey: sk-LITERALKEY-123 }',
        'agent:',
        '  url: http://127.0.0.1:9/chat',
        '  hedaers: { Authorization: "Bearer sk-LITHEADER-9", X-Vercel-Protection-Bypass: bypass-LITERAL-77 }',
        'traces: { query: { kind: tempo, url: http://127.0.0.1:9, apiKey: 98765432101234 } }',
        '',
      ].join('\n'),
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' },
    });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    const out = r.stdout + r.stderr;
    // The errors and their fixes are still there...
    expect(out).toContain('did you mean "model"?');
    expect(out).toContain('did you mean "headers"?');
    // ...without the values.
    for (const secret of ['sk-LITERALKEY-123', 'sk-LITHEADER-9', 'bypass-LITERAL-77', '98765432101234']) expect(out).not.toContain(secret);
  });

  it('run: an empty or folder --out is a usage error before the agent is called', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' } });
    const empty = await cli(['run', '--out', ''], cwd);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--out needs a value, got an empty one');
    const folder = await cli(['run', '--out', '.agent-replay', '--markdown', 'm.md'], cwd);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`--out .agent-replay is a folder: give a file path, e.g. --out ${join('.agent-replay', 'results.json')}`);
    expect(agent.requests).toHaveLength(0);
    expect(existsSync(join(cwd, 'm.md'))).toBe(false);
  });

  it('a report path under a file (--markdown, --junit, --html) is a usage error before the agent is called; compare and demo say it in words', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' } });
    await writeFile(join(cwd, 'notes.txt'), 'a file where a folder would go\n');
    for (const [flag, path] of [['--markdown', 'notes.txt/m.md'], ['--junit', 'notes.txt/a/b/j.xml'], ['--html', join(cwd, 'notes.txt', 'r.html')]] as const) {
      const r = await cli(['run', flag, path], cwd);
      expect(r.code, flag).toBe(2);
      expect(r.stderr, flag).toContain(`agent-replay: ${flag} ${path}: notes.txt is a file, not a folder, so nothing can be written under it: give a path in a folder`);
    }
    expect(agent.requests).toHaveLength(0);
    const ok = await cli(['run', '--out', 'r.json'], cwd);
    expect(ok.code, ok.stderr).toBe(0);
    const report = await cli(['report', '--results', 'r.json', '--markdown', 'notes.txt/m.md'], cwd);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('--markdown notes.txt/m.md: notes.txt is a file, not a folder');
    const compare = await cli(['compare', 'r.json', 'r.json', '--markdown', 'notes.txt/c.md'], cwd);
    expect(compare.code).toBe(2);
    // Said before reading either run, as run and report say it (test/cli/output-paths.test.ts).
    expect(compare.stderr).toContain('--markdown notes.txt/c.md: notes.txt is a file, not a folder, so nothing can be written under it');
    quotedAndSaid(compare.stderr, '--markdown <path>: <file> is a file, not a folder, so nothing can be written under it');
    const demo = await cli(['demo', '--out', 'notes.txt/demo'], cwd);
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain(`--out notes.txt/demo: ${join(cwd, 'notes.txt')} is a file, not a folder: give a folder`);
    expect(demo.stdout).toBe('');
    expect(await readFile(join(cwd, 'notes.txt'), 'utf8')).toBe('a file where a folder would go\n');
  });

  it('the summary counts every error, also those a file does not show past its first 20', async () => {
    const items = Array.from({ length: 25 }, (_, i) => `  - { label: e${i}, message: ${i} }`);
    const cwd = await makeProject({ fixtures: { 'many.yml': `fixtures:\n${items.join('\n')}\n` } });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/^error: /gm)).toHaveLength(21);
    expect(r.stderr).toContain('error: .agent-replay/fixtures/many.yml: and 5 more errors in this file');
    expect(r.stderr).toContain('\n25 configuration errors; a run would send nothing until they are fixed.\n');
  });

  it('honours --dir', async () => {
    const cwd = await makeProject({ fixtures: {} });
    const r = await cli(['validate', '--dir', 'elsewhere'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('elsewhere/fixtures');
  });
});

describe('report', () => {
  /** One real run, split into two shards by fixture. */
  async function shards(): Promise<{ cwd: string; full: RunRecord }> {
    const agent = await serve(scriptedAgent({ b: 'B-now', d: { status: 500 } }));
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`,
      fixtures: {
        'f.yml': [
          'fixtures:',
          '  - { label: a, message: a, assert: { contains: "echo: a" } }',
          '  - { label: b, message: b, assert: { contains: B-then } }',
          '  - { label: c, message: c, assert: { regex: "(" } }',
          '  - { label: d, message: d }',
          '',
        ].join('\n'),
      },
      baselines: [baseline('b', 'B-then', { conversation: 'c', stage: 'b' }, 'pass')],
    });
    expect((await cli(['run', '--out', 'full.json', '--commit', 'd'.repeat(40), '--fail-on', 'none'], cwd)).code).toBe(0);
    const full = await readResults(join(cwd, 'full.json'));
    const shard = (labels: string[], usd: number): RunRecord => ({
      ...full,
      estimate: { ...full.estimate, usd },
      // Deliberately wrong: the merge derives the tallies from the fixtures again.
      tallies: { passed: 0, failed: 0, notEvaluated: 0, errored: 0 },
      fixtures: full.fixtures.filter((f) => labels.includes(f.label)),
    });
    await writeFile(join(cwd, 'a.json'), serializeRecord(shard(['a', 'c'], 0.04)));
    await writeFile(join(cwd, 'b.json'), serializeRecord(shard(['b', 'd'], 0.04)));
    return { cwd, full };
  }

  it('merges two shards into one record and a markdown report, tallies derived again', async () => {
    const { cwd, full } = await shards();
    const r = await cli(['report', '--results', 'a.json', '--results', 'b.json', '--out', 'merged.json', '--markdown', 'm.md'], cwd);
    expect(r.code).toBe(1); // b is newly failing; the default gate applies to reports too
    expect(r.stderr).toContain('newly failing (b)');
    const merged = await readResults(join(cwd, 'merged.json'));
    // In the suite's order, as the full run lists them (not a.json's then b.json's).
    expect(merged.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'c', 'd']);
    expect(merged.tallies).toEqual({ passed: 1, failed: 1, notEvaluated: 1, errored: 1 });
    expect(merged.tallies).toEqual(full.tallies);
    expect(merged.estimate.usd).toBe(0.08);
    expect(merged.commit).toBe('d'.repeat(40));
    const md = await readFile(join(cwd, 'm.md'), 'utf8');
    for (const label of ['a', 'b', 'c', 'd']) expect(md).toContain(label);
    expect(r.stdout).toMatch(/passed 1/);

    const ok = await cli(['report', '--results', 'a.json', '--results', 'b.json', '--fail-on', 'none'], cwd);
    expect(ok.code).toBe(0);
  });

  it('rejects overlapping shards, naming the fixture and both files, and writes nothing', async () => {
    const { cwd } = await shards();
    // Two files with the same items (one file given twice is said to be given twice: shards.test.ts).
    await copyFile(join(cwd, 'a.json'), join(cwd, 'a-copy.json'));
    const r = await cli(['report', '--results', 'a.json', '--results', 'a-copy.json', '--out', 'merged.json', '--markdown', 'm.md'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('runs overlap');
    expect(r.stderr).toContain('"a" (the run a.json and the run a-copy.json)');
    expect(r.stderr).toContain('"c"');
    expect(existsSync(join(cwd, 'merged.json'))).toBe(false);
    expect(existsSync(join(cwd, 'm.md'))).toBe(false);
  });

  it('rejects shards recorded at different commits', async () => {
    const { cwd } = await shards();
    const other = JSON.parse(await readFile(join(cwd, 'b.json'), 'utf8')) as RunRecord;
    await writeFile(join(cwd, 'b.json'), serializeRecord({ ...other, commit: 'e'.repeat(40) }));
    const r = await cli(['report', '--results', 'a.json', '--results', 'b.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('different commits');
    expect(r.stderr).toContain(`the run b.json at ${'e'.repeat(40)}`);
  });

  it('checks --fail-on before writing anything', async () => {
    const { cwd } = await shards();
    const r = await cli(['report', '--results', 'a.json', '--out', 'merged.json', '--fail-on', 'bogus'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"bogus" is not a known condition');
    expect(existsSync(join(cwd, 'merged.json'))).toBe(false);
  });

  it('needs at least one --results file', async () => {
    const cwd = await makeProject({});
    const r = await cli(['report'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('report needs at least one --results file\n');
  });

  it('with no --results after a run: names the file the run wrote and the command to give it', async () => {
    const cwd = await makeProject({});
    await mkdir(join(cwd, '.agent-replay', 'results'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'results', 'results.json'), '{}\n');
    const r = await cli(['report'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("agent-replay: report needs at least one --results file: the last run's is .agent-replay/results/results.json (agent-replay report --results .agent-replay/results/results.json)\n");
  });
});
