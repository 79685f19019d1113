// A file's or folder's name (a --results, --out or --markdown path, a suite folder) can hold a
// control character, a line break or a bidi override: nothing the CLI prints sends one raw to the
// terminal (docs/security.md, "Agent text is data"), and the workflows init writes read the folder
// it was given. The CLI in-process (`cli`), real files in temporary folders.

import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { tempDir } from '../support/temp.js';
import { findDemoSuite, runDemo } from '../../src/cli/demo.js';
import { errorLine, writeText } from '../../src/cli/output.js';
import { loadProbeFixture } from '../../src/cli/probe.js';
import { loadYamlPackage } from '../../src/suite/yaml/index.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { mixed } from '../report/fixtures.js';
import { agentConfig, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

/** What a terminal would act on: C0 and C1 controls (tab and line feed aside), DEL, bidi overrides. */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** Each line printed holds no such character. */
function noRaw(text: string): void {
  for (const line of text.split('\n')) expect(RAW.test(line), JSON.stringify(line)).toBe(false);
}

describe("init's workflows for a folder whose name YAML or a terminal would not take as it is", () => {
  it.each([
    ['an escape sequence', 's\u001b[2Jx'],
    ['a line break', 'my\nsuite'],
    ['a quote, a colon and a #', 'a"b: c #d'],
    ['a DEL', 'del\u007fx'],
    ['a C1 control (CSI)', 'c1\u009b31mx'],
    ['a next-line (NEL)', 'nel\u0085x'],
    ['a bidi override', 'bidi\u202ex'],
    ['a line separator', 'ls\u2028x'],
  ])('%s: each workflow passes GitHub\'s parser and its dir input names that folder', async (_what, dir) => {
    const cwd = join(await tempDir('agent-replay-rawnames-'), 'repo');
    await mkdir(cwd);
    const run = await cli(['init', '--dir', dir], cwd);
    expect(run.code, run.stderr).toBe(0);
    noRaw(run.stdout);
    noRaw(run.stderr);
    // Each line that names the folder names it on that line (a line break shown as ` ⏎ `), the commands as the shell reads it.
    // eslint-disable-next-line no-control-regex
    const oneLine = dir.replace(/[\n\u2028]/gu, ' ⏎ ').replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(run.stdout).toContain(`created  ${oneLine}/config.yml\n`);
    expect(run.stdout).toContain(`(${oneLine}/fixtures/*.yml)`);
    expect(run.stdout).toContain(`the header in ${oneLine}/config.yml`);
    for (const name of ['agent-replay.yml', 'agent-replay-accept.yml', 'agent-replay-report.yml']) {
      const text = await readFile(join(cwd, '.github/workflows', name), 'utf8');
      const parsed = parseWorkflow({ name, content: text }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message), `${name}\n${text}`).toEqual([]);
      // The file itself holds no character a YAML reader refuses or reads as a line break.
      noRaw(text);
      expect(text, name).not.toMatch(/[\u0085\u2028\u2029]/u);
      const jobs = (parse(text) as { jobs: Record<string, { steps: { with?: Record<string, unknown> }[] }> }).jobs;
      const dirs = Object.values(jobs).flatMap((j) => j.steps.flatMap((s) => (s.with?.dir === undefined ? [] : [s.with.dir])));
      expect(dirs, name).toEqual([dir]);
      // The Action reads the same folder from its input.
      expect(readInputs(envInputGetter({ INPUT_DIR: String(dirs[0]), INPUT_MODE: name === 'agent-replay.yml' ? 'check' : name.includes('accept') ? 'accept' : 'report' })).dir, name).toBe(dir);
    }
  });
});

/** The CLI in-process with `cwd` as the process's working folder too (a link out of it is refused: src/fs-safe.ts repositoryFor), as a user's shell gives it. */
async function cliIn(cwd: string, argv: string[]): ReturnType<typeof cli> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await cli(argv, cwd, { NO_COLOR: '1' });
  } finally {
    process.chdir(before);
  }
}

/** A results file, a file where a folder goes, a link out of the working folder, and a pattern, each named with an escape sequence. */
const RESULTS = 'r\u001b[2J.json';
const BLOCKED = 'blk\u001b[2J';
const LINK = 'lnk\u001b[31m';
const shown = (name: string): string => name.replaceAll('\u001b', '\\u001b');

/** A project whose suite is in `dir`, a real agent's config.yml and one fixture file. */
async function suiteIn(dir: string, fixtures: string, file = 'f.yml'): Promise<{ agent: Awaited<ReturnType<typeof serve>>; cwd: string }> {
  const agent = await serve();
  const cwd = await makeProject({});
  await mkdir(join(cwd, dir, 'fixtures'), { recursive: true });
  await writeFile(join(cwd, dir, 'config.yml'), agentConfig(agent.url, '  start: false\n'));
  await writeFile(join(cwd, dir, 'fixtures', file), fixtures);
  return { agent, cwd };
}

describe('the paths a command was given, in the lines it prints after it started', () => {
  it('run, accept and report: a results file, --out, --markdown and --rerun named with an escape sequence are shown, never sent', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n'), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi, assert: { contains: nope } }\n' } });
    await writeFile(join(cwd, BLOCKED), 'a file where a folder should be\n');
    await symlink(await tempDir('agent-replay-elsewhere-'), join(cwd, LINK));

    const first = await cliIn(cwd, ['run', '--out', RESULTS, '--fail-on', 'none', '--commit', 'abcdef1']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`results: ${join(cwd, shown(RESULTS))}\n`);
    noRaw(first.stdout + first.stderr);

    // --rerun's file (the partial run's line), a results path that cannot be written (its error and
    // the results: line), a rendering refused at write time.
    const again = await cliIn(cwd, ['run', '--rerun', RESULTS, '--out', `${BLOCKED}/r.json`, '--markdown', `${LINK}/report.md`, '--fail-on', 'none']);
    const fallback = /the record was written to (\S+) instead/.exec(again.stderr)?.[1];
    if (fallback !== undefined) await rm(dirname(fallback), { recursive: true, force: true });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain(`errored in ${shown(RESULTS)});`);
    expect(again.stderr).toContain(`agent-replay: could not write the results to ${join(cwd, shown(BLOCKED), 'r.json')}: `);
    expect(again.stderr).toContain(`agent-replay: refusing to write ${join(cwd, shown(LINK), 'report.md')}: `);
    expect(again.stdout).toContain(`(not ${join(cwd, shown(BLOCKED), 'r.json')}: see below)`);
    noRaw(again.stdout + again.stderr);

    // accept: a pattern that matches nothing, and the record of an interrupted run.
    const unknown = await cliIn(cwd, ['accept', '--results', RESULTS, '--only', 'no\u001b[1mpe']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`not found ${shown('no\u001b[1mpe')}: no fixture or persona script label in ${shown(RESULTS)} matches it\nnothing was accepted; labels in ${shown(RESULTS)}: a\n`);
    const record = JSON.parse(await readFile(join(cwd, RESULTS), 'utf8')) as { interrupted: boolean };
    await writeFile(join(cwd, `int${RESULTS}`), JSON.stringify({ ...record, interrupted: true }));
    const interrupted = await cliIn(cwd, ['accept', '--results', `int${RESULTS}`]);
    expect(interrupted.code, interrupted.stderr).toBe(0);
    expect(interrupted.stdout).toContain(`\nint${shown(RESULTS)} is the record of an interrupted run: `);
    noRaw(interrupted.stdout + interrupted.stderr);
    // No run yet in a suite folder whose name holds a line break: the file on one line, the command as bash reads it.
    const none = await cliIn(cwd, ['accept', '--dir', 'my\nsuite']);
    expect(none.stderr).toContain(`agent-replay: no run to accept: my ⏎ suite/results/results.json does not exist; run the suite first, npx agent-replay run --dir $'my\\012suite' (it writes`);

    // report: a file that is not there and one given twice (each refused), then a run given twice
    // (the merge's note), a rendering refused at write time.
    const refused = await cliIn(cwd, ['report', '--results', `gone${RESULTS}`, '--results', RESULTS, '--results', `./${RESULTS}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`agent-replay: --results ./${shown(RESULTS)}: the same file as --results ${shown(RESULTS)} (${join(cwd, shown(RESULTS))}), given twice`);
    expect(refused.stderr).toContain(`agent-replay: ${join(cwd, `gone${shown(RESULTS)}`)}: does not exist`);
    noRaw(refused.stdout + refused.stderr);
    const report = await cliIn(cwd, ['report', '--results', RESULTS, '--results', `int${RESULTS}`, '--markdown', `${LINK}/merged.md`, '--fail-on', 'none']);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain(`the whole run is given twice (${shown(RESULTS)} and int${shown(RESULTS)}: `);
    expect(report.stderr).toContain(`agent-replay: refusing to write ${join(cwd, shown(LINK), 'merged.md')}: `);
    noRaw(report.stdout + report.stderr);
  });

  it("run with configuration errors: a --markdown that cannot be written is said with its path shown", async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9'), fixtures: { 'f.yml': 'fixtures:\n  - { label: a }\n' } });
    await symlink(await tempDir('agent-replay-elsewhere-'), join(cwd, LINK));
    const r = await cliIn(cwd, ['run', '--markdown', `${LINK}/report.md`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`agent-replay: refusing to write ${join(cwd, shown(LINK), 'report.md')}: `);
    noRaw(r.stdout + r.stderr);
  });

  it("the summary's 'every item is in FILE' names the results file as given, shown", () => {
    const text = renderTerminal(mixed(), { color: false, where: RESULTS });
    expect(text).toContain(`not listed; every item is in ${shown(RESULTS)}\n`);
    noRaw(text);
  });

  it("run's cost refusal and calibrate's missing judge name the suite's config.yml with the escape shown", async () => {
    const cwd = await makeProject({});
    const dir = 's\u001b[2Jx';
    await mkdir(join(cwd, dir, 'fixtures'), { recursive: true });
    await writeFile(join(cwd, dir, 'config.yml'), `${agentConfig('http://127.0.0.1:9')}cost: { agentTurnUsd: 1, capUsd: 0.5 }\n`);
    await writeFile(join(cwd, dir, 'fixtures', 'f.yml'), 'fixtures:\n  - { label: a, message: hi }\n');
    const refused = await cli(['run', '--dir', dir, '--out', 'r.json'], cwd);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`raise cost.capUsd in ${shown(dir)}/config.yml.\n`);
    noRaw(refused.stdout + refused.stderr);
    const calibrate = await cli(['calibrate', '--dir', dir], cwd);
    expect(calibrate.code).toBe(2);
    expect(calibrate.stderr).toContain(`error: ${shown(dir)}/config.yml: no judge is configured: `);
    noRaw(calibrate.stdout + calibrate.stderr);
  });

  it("accept in a suite folder named with an escape sequence: each baseline's line names its file with the escape shown", async () => {
    const dir = 's\u001b[2Jx';
    const { cwd } = await suiteIn(dir, 'fixtures:\n  - { label: a, message: hi, assert: { contains: hi } }\n');
    expect((await cli(['run', '--dir', dir], cwd)).code).toBe(0);
    const accepted = await cli(['accept', '--dir', dir], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain(`→ ${join(cwd, shown(dir), 'baselines', 'a.json')}\n`);
    noRaw(accepted.stdout + accepted.stderr);
  });

  it("an error a command stops with names each path on its one line: a --rerun file that does not exist, an --out that is a folder", async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9'), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' } });
    const rerun = await cliIn(cwd, ['run', '--rerun', 'a\nb\u001b[2J.json']);
    expect(rerun.code).toBe(2);
    // Before, the name's line break was a line break of the error: "agent-replay: .../a" then "b.json: does not exist".
    expect(rerun.stderr).toContain(`agent-replay: ${join(cwd, 'a ⏎ b\\u001b[2J.json')}: does not exist; give the path of a results.json written by agent-replay\n`);
    await mkdir(join(cwd, 'my\nout'));
    const folder = await cliIn(cwd, ['run', '--out', 'my\nout']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`agent-replay: --out $'my\\012out' is a folder: give a file path, e.g. --out $'my\\012out/results.json'\n`);
    // A report under a file, and one path given to two flags.
    await writeFile(join(cwd, 'no\ntes'), 'a file\n');
    const under = await cliIn(cwd, ['run', '--markdown', 'no\ntes/r.md']);
    expect(under.code).toBe(2);
    expect(under.stderr).toContain(`agent-replay: --markdown $'no\\012tes/r.md': no ⏎ tes is a file, not a folder, so nothing can be written under it: give a path in a folder\n`);
    const twice = await cliIn(cwd, ['run', '--out', 'r\n.json', '--markdown', 'r\n.json']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`agent-replay: --markdown $'r\\012.json' is also --out: `);
    noRaw(rerun.stderr + folder.stderr + under.stderr + twice.stderr);
  });

  it("run's log line names a trace store's address from config.yml with its escape shown", async () => {
    const agent = await serve();
    const store = await serve(() => ({ status: 404, body: '' }));
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  start: false\n  retries: 0\ntraces:\n  query: { kind: tempo, url: "${store.url.replace(/\/chat$/, '')}/t\\e[2J" }\n  waitMs: 0\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi }\n' },
    });
    const r = await cliIn(cwd, ['run', '--fail-on', 'none']);
    // Before, the ESC of config.yml's address reached the terminal as it is.
    expect(r.stderr).toContain(`traces: reading spans from tempo at ${store.url.replace(/\/chat$/, '')}/t\\u001b[2J\n`);
    noRaw(r.stdout + r.stderr);
  });

  it("probe --save's refusals name the suite's files on their one line", async () => {
    const dir = 'my\nsuite';
    const { agent, cwd } = await suiteIn(dir, 'fixtures:\n  - { label: hello, message: hi }\n  - { label: other, message: hi }\n', 'hello.yml');
    const exists = await cliIn(cwd, ['probe', 'hi', '--dir', dir, '--save', 'hello']);
    expect(exists.code).toBe(2);
    // Before, the folder's line break split each error over two lines.
    expect(exists.stderr).toContain('agent-replay: --save hello: my ⏎ suite/fixtures/hello.yml exists; probe never overwrites a file.');
    const taken = await cliIn(cwd, ['probe', 'hi', '--dir', dir, '--save', 'OTHER']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('agent-replay: --save OTHER: the label "other" is already used at my ⏎ suite/fixtures/hello.yml:3;');
    expect(agent.requests).toHaveLength(0);
  });

  it("probe's refusal of a probe the loader refuses: each issue's file on its one line, its escape shown", async () => {
    await loadYamlPackage();
    let thrown: unknown;
    try {
      loadProbeFixture('my\nsu\u001bite/fixtures/probe.yml', 'label: probe\nmessage: " "\n');
    } catch (e) {
      thrown = e;
    }
    // Before, the name's line break split the issue's first line in two, the ESC sent as it is.
    expect((thrown as Error).message).toBe(
      'the probe is not a valid fixture:\n  my ⏎ su\\u001bite/fixtures/probe.yml:2:10: fixture "probe": message is empty\n    fix: write the user message to send to the agent',
    );
  });

  it('errorLine: one line, a control character and a line break shown as escapes', () => {
    expect(errorLine('could not write a\u001b[2Jb\nc: no')).toBe('agent-replay: could not write a\\u001b[2Jb ⏎ c: no\n');
  });

  it("writeText (compare's and calibrate's --out and --markdown): a path that cannot be written is named on the error's one line", async () => {
    // The error reaches the CLI's catch, which shows control characters but keeps line breaks: before, the name split it.
    const dir = await tempDir('agent-replay-rawnames-');
    await writeFile(join(dir, 'blk\nx'), 'a file where a folder should be\n');
    const error = await writeText(join(dir, 'blk\nx', 'r.md'), 'text', 'markdown').catch((e: unknown) => e);
    expect((error as Error).message).toContain(`could not write --markdown ${join(dir, 'blk ⏎ x', 'r.md')}: `);
    expect((error as Error).message).not.toMatch(/[\r\n]/);
  });
});

describe('demo, from an installation whose folder holds an escape sequence', () => {
  it('names the suite folder, and a configuration error of its files, with the escape shown', async () => {
    const root = join(await tempDir('agent-replay-demo-'), 'd\u001b[31mx');
    const suite = join(root, '.agent-replay');
    await cp(findDemoSuite(), suite, { recursive: true });
    await writeFile(join(suite, 'fixtures', 'bad\u001b[2J.yml'), 'fixtures:\n  - { label: a }\n');
    let stdout = '';
    let stderr = '';
    const code = await runDemo({ out: await tempDir('agent-replay-demo-out-'), suite }, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, color: false, env: {}, cwd: root });
    expect(code).toBe(2);
    expect(stdout).toContain(`suite: ${shown(suite)}\n`);
    expect(stderr).toContain(`error: ${shown('.agent-replay/fixtures/bad\u001b[2J.yml')}:`);
    noRaw(stdout + stderr);
  });
});
