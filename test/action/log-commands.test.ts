// No line of outside text in the Action's log is a workflow command (docs/security.md, "Agent text
// is data"). The Action runs as a child process; its stdout and stderr are read with the rules of
// GitHub's runner (test/support/runner-commands.ts). Its own commands come from @actions/core
// (annotations, ::add-mask:: of its token): what the tests look for are the hostile texts' commands,
// a `##[` command (the Action writes none), a stop-commands, or a mask of anything but its token.
// The annotations' own texts are read in this process too, from what @actions/core writes (no
// child): each shows a control character of outside text as its escape, and names its file by its
// real path.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { annotations, runnerCommands, stdoutOf } from '../support/runner-commands.js';
import { artifactZip, renameEntry } from '../support/zip.js';
import { fixture, run as record } from '../report/fixtures.js';
import { serializeRecord } from '../../src/record/index.js';
import { markerLine, metaLine } from '../../src/report/metadata.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers, type ActionRun } from './harness.js';
import { annotateConfigIssues, configErrorsFailure } from '../../src/action/check.js';
import { RecordWriteError } from '../../src/record/index.js';
import * as log from '../../src/action/log.js';
import { labelWord, shownJson, terminalLine } from '../../src/words.js';
import type { ConfigIssue } from '../../src/suite/issues.js';

/** Lines that would mask "secret", stop the runner's commands, and add an error annotation. */
const HOSTILE = 'ok\n::add-mask::secret\n  ::stop-commands::x\n##[error]pwned\n';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (body.message === 'fail') return { status: 500, headers: { 'content-type': 'text/plain' }, body: HOSTILE };
    return { json: { reply: HOSTILE, route: { conversation: 'c', stage: 's' } } };
  },
  (g) => g.addPull('octo', 'shop', { number: 7, headSha: HEAD }),
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/** The commands of the run's output the Action did not mean to give. */
function foreignCommands(run: ActionRun): string[] {
  return runnerCommands(`${run.stdout}\n${run.stderr}`)
    .filter((c) => c.form === '##[' || c.name === 'stop-commands' || (c.name === 'add-mask' && c.data !== gh.token) || c.line !== c.line.trimStart())
    .map((c) => c.line);
}

/** What a reader of the log sees: the guard adds only invisible word joiners. */
const seen = (run: ActionRun): string => run.stdout.replace(/\u2060/g, '');

/** C0 and C1 controls but tab and line feed, and bidi overrides: what the log must not get from outside text. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

it('check mode: a reply, an error body, a fixture file name, a deployment\'s environment and the previous run\'s artifact entry name are logged with no command in them', async () => {
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: hi, assert: { contains: nope } }\n  - { label: b, message: fail }\n', config: 'agent: { retries: 0 }\ntraces: { query: { kind: tempo, url: "http://127.0.0.1:9/t\\e[2J" }, waitMs: 0 }\n' });
  await writeFile(join(workspace, '.agent-replay', 'fixtures', `x${HOSTILE}.yml`), 'fixtures:\n  - { label: c, message: hi }\n');
  // A file of comments only: a warning, whose annotation quotes the file's name.
  await writeFile(join(workspace, '.agent-replay', 'fixtures', 'y\u001b[2J.yml'), '# - { label: d, message: hi }\n');
  // The comment the previous run posted names its run and artifact; the artifact's one entry has a
  // name that is not a plain relative path, which the log line quotes.
  const artifactName = `agent-replay-results-${HEAD}`;
  gh.addComment('octo', 'shop', 7, { body: `${markerLine('agent-replay')}\n${metaLine({ headSha: HEAD, runId: '1001', artifactName })}\nearlier`, user: gh.viewer });
  gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
  const zip = renameEntry(await artifactZip([{ name: `${'r'.repeat(21)}.json`, data: '{}' }]), `${'r'.repeat(21)}.json`, '../##[add-mask]secret.json');
  gh.addArtifact('octo', 'shop', 1001, { name: artifactName, zip });
  const deployment = { deployment: { sha: HEAD, environment: 'preview' }, deployment_status: { state: 'success', environment: `preview${HOSTILE}` } };
  // A results path whose folder's name holds a line break and an ESC: its `results:` line names it on that line.
  const results = 'out\nr\u001b[2J/results.json';
  const run = await runAction({ gh, workspace, inputs: { 'agent-url': agent.url, 'results-path': results }, event: { name: 'deployment_status', payload: deployment } });

  expect(run.code, run.stdout + run.stderr).toBe(1); // a fails, b errors
  expect(run.outputs['results-path']).toBe(join(workspace, results));
  expect(seen(run)).toContain(`results: ${join(workspace, 'out ⏎ r\\u001b[2J', 'results.json')}\n`);
  // The lines were logged, each on its one line (the environment's line breaks as ⏎) ...
  expect(seen(run)).toContain(`deployment_status: the ${terminalLine(`preview${HOSTILE}`)} deployment of ${HEAD.slice(0, 7)} is the head of #7`);
  expect(seen(run)).toContain('since the previous run: run 1001 not compared: the results artifact could not be read (corrupt zip archive: the entry name "../##[add-mask]secret.json"');
  // The trace store's address from config.yml, its ESC shown as its escape (before, it reached the log as it is).
  expect(seen(run)).toContain('traces: reading spans from tempo at http://127.0.0.1:9/t\\u001b[2J\n');
  // ... and none of them is a command.
  expect(foreignCommands(run)).toEqual([]);
  expect(run.stdout).toContain(`::add-mask::${gh.token}`);
  // The warning names the file by its real path, and its text shows the name's ESC as its escape.
  const empty = annotations(run.stdout).find((a) => a.properties.file === '.agent-replay/fixtures/y\u001b[2J.yml');
  expect(empty?.text).toMatch(/^\.agent-replay\/fixtures\/y\\u001b\[2J\.yml:1:1: the file holds only comments/);
  for (const a of annotations(run.stdout)) expect(a.text).not.toMatch(CONTROL);
});

it('report mode: the names of results files given twice are logged with no command in them', async () => {
  const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
  await mkdir(join(workspace, 'shards'));
  // The same run twice (a re-run of the check): the log says which file is used.
  const recorded = (startedAt: string): string => serializeRecord(record([fixture('a')], { commit: HEAD, startedAt }));
  await writeFile(join(workspace, 'shards', 'a.json'), recorded('2026-12-01T10:00:00.000Z'));
  await writeFile(join(workspace, 'shards', `b${HOSTILE}.json`), recorded('2026-12-01T11:00:00.000Z'));
  const run = await runAction({
    gh,
    workspace,
    inputs: { mode: 'report', results: 'shards', comment: 'false' },
    event: { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1001, head_sha: HEAD, pull_requests: [{ number: 7 }] } } },
  });

  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(seen(run)).toContain(`report: the whole run is given twice (shards/a.json and shards/b${HOSTILE}.json`);
  expect(foreignCommands(run)).toEqual([]);
});

it("accept mode: a label's name from the event is logged with no command in it", async () => {
  const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
  const run = await runAction({ gh, workspace, inputs: { mode: 'accept' }, event: { name: 'pull_request_target', payload: pullPayload({ action: 'labeled', label: `bug${HOSTILE}` }) } });

  expect(run.code, run.stdout + run.stderr).toBe(0);
  // The label quoted as JSON, its line breaks as their escapes: one line (a warning: the job ran for a label its step does not accept).
  expect(seen(run)).toContain(`accept: the job ran for the label ${shownJson(`bug${HOSTILE}`)}, applied to pull request #7, but its agent-replay step accepts the accept-baseline label`);
  expect(foreignCommands(run)).toEqual([]);
});

it("a configuration issue's annotation shows a control character of its file's name and of the line it quotes as its escape, and names the file by its real path", () => {
  const file = '.agent-replay/fixtures/x\u001b[2J\nred\u009b31m.yml';
  const warning: ConfigIssue = { file, line: 3, column: 5, message: 'unknown key "mesage" (\u202eright-to-left)', fix: 'rename the key, so that line 3 reads\n    message: "\u001b[31mhi"' };
  const error: ConfigIssue = { file: '.agent-replay/config.yml', line: 2, column: null, message: 'invalid value \u0007', fix: 'write a number' };
  const out = stdoutOf(() => annotateConfigIssues([error], [warning]));
  const [w, e] = annotations(out);
  // Before, the ESC, the C1 CSI, the bidi override and the bell reached the log as they are, and the
  // name's line break split the annotation's first line.
  expect(w).toEqual({
    name: 'warning',
    text: String.raw`.agent-replay/fixtures/x\u001b[2J ⏎ red\u009b31m.yml:3:5: unknown key "mesage" (\u202eright-to-left)` + '\n  fix: rename the key, so that line 3 reads\n' + String.raw`    message: "\u001b[31mhi"`,
    properties: { file, line: '3', col: '5' },
  });
  expect(e).toEqual({ name: 'error', text: '.agent-replay/config.yml:2: invalid value \\u0007\n  fix: write a number', properties: { file: '.agent-replay/config.yml', line: '2' } });
  for (const a of [w, e]) expect(a?.text).not.toMatch(CONTROL);
});

it("every annotation and the step's failure the Action writes shows a control character as its escape; its file stays the real path", () => {
  const hostile = 'a\u001b[2Jb\u0085c\u009b1m\rd';
  const exitCode = process.exitCode;
  const out = stdoutOf(() => {
    log.warning(`artifact ${hostile} not uploaded`);
    log.error(`${hostile}: newly failing`, { title: `agent-replay: ${hostile} newly failing`, file: `f/${hostile}.yml`, startLine: 4 });
    log.notice(`skipped: ${hostile}`);
    log.failed(`baselines not accepted: ${hostile}`);
  });
  const shown = String.raw`a\u001b[2Jb\u0085c\u009b1m\u000dd`;
  expect(annotations(out)).toEqual([
    { name: 'warning', text: `artifact ${shown} not uploaded`, properties: {} },
    { name: 'error', text: `${shown}: newly failing`, properties: { title: `agent-replay: ${shown} newly failing`, file: `f/${hostile}.yml`, line: '4' } },
    { name: 'notice', text: `skipped: ${shown}`, properties: {} },
    { name: 'error', text: `baselines not accepted: ${shown}`, properties: {} },
  ]);
  process.exitCode = exitCode; // log.failed set it to 1
});

it('a configuration issue in a file outside the workspace (a dir input of ../ or an absolute path) is annotated without a file: its text names it', () => {
  const issue = (file: string): ConfigIssue => ({ file, line: 1, column: 1, message: 'unknown key "mesage"', fix: 'rename it' });
  const out = stdoutOf(() => annotateConfigIssues([], [issue('../shared/.agent-replay/fixtures/a.yml'), issue('/srv/suite/fixtures/a.yml'), issue('..x/fixtures/a.yml')]));
  // Before, each was given as the annotation's file, which GitHub cannot link.
  expect(annotations(out).map((a) => [a.text.split('\n')[0], a.properties])).toEqual([
    ['../shared/.agent-replay/fixtures/a.yml:1:1: unknown key "mesage"', {}],
    ['/srv/suite/fixtures/a.yml:1:1: unknown key "mesage"', {}],
    ['..x/fixtures/a.yml:1:1: unknown key "mesage"', { file: '..x/fixtures/a.yml', line: '1', col: '1' }],
  ]);
});

it("the GitHub client's debug lines show a control character as their escape", () => {
  const out = stdoutOf(() => log.gitHubLog.debug('GET /repos/o/r/pulls/7 - 404 x\u001b[2Jy\u009b31m\rz\u202e'));
  const debug = runnerCommands(out).filter((c) => c.name === 'debug');
  // Before, the ESC, the C1 CSI, the carriage return and the bidi override reached the log as they are.
  expect(debug.map((c) => c.data)).toEqual([String.raw`GET /repos/o/r/pulls/7 - 404 x\u001b[2Jy\u009b31m\u000dz\u202e`]);
  expect(debug[0]?.line).not.toMatch(CONTROL);
});

it("a log line and the GitHub client's warnings show a control character of outside text as its escape", () => {
  const hostile = 'label a\u001b[2Jb\u009b1m\rc\u202ed';
  const shown = String.raw`label a\u001b[2Jb\u009b1m\u000dc\u202ed`;
  const out = stdoutOf(() => log.info(`accept: the label "${hostile}" is not accept-baseline`));
  // Before, the ESC, the C1 CSI, the bidi override and the carriage return (a second line to the runner) reached the log as they are.
  expect(out).toBe(`accept: the label "${shown}" is not accept-baseline\n`);
  const warned: string[] = [];
  const warn = console.warn;
  const error = console.error;
  console.warn = (text: string) => void warned.push(text);
  console.error = (text: string) => void warned.push(text);
  try {
    log.gitHubLog.warn(`deprecated: ${hostile}`);
    log.gitHubLog.error(`failed: ${hostile}`);
  } finally {
    console.warn = warn;
    console.error = error;
  }
  expect(warned).toEqual([`deprecated: ${shown}`, `failed: ${shown}`]);
});

it("the step's failure that names a folder (the dir input, the results path) keeps a line break of its name on the annotation's one line", () => {
  // An annotation keeps the line breaks of its text (@actions/core escapes them as %0A): a folder's
  // name is shown on its line as the terminal shows it (terminalLine), its escape sequence too.
  const dir = 'my\nsuite\u001b[2J';
  const exitCode = process.exitCode;
  const out = stdoutOf(() => {
    log.failed(configErrorsFailure(2, dir));
    log.failed(new RecordWriteError(`/w/${dir}/results.json`, new Error('EACCES'), `/tmp/r\n/results.json`).message);
  });
  const [config, record] = annotations(out);
  expect(config?.text).toBe(String.raw`2 configuration errors in my ⏎ suite\u001b[2J; nothing was sent to the agent`);
  expect(record?.text).toMatch(/^could not write the results to \/w\/my ⏎ suite\\u001b\[2J\/results\.json: EACCES; the record was written to \/tmp\/r ⏎ \/results\.json instead\. /);
  for (const a of [config, record]) expect(a?.text).not.toMatch(/[\r\n]/);
  process.exitCode = exitCode; // log.failed set it to 1
});

it('a label holding an escape sequence or an invisible control, without white space, is quoted as JSON with it escaped (labelWord), as one holding a line break is', () => {
  expect(labelWord('accept\u001b[2Kbaseline')).toBe('"accept\\u001b[2Kbaseline"');
  expect(labelWord('accept\u202Eenilesab')).toBe('"accept\\u202eenilesab"');
  expect(labelWord('accept\u0007')).toBe('"accept\\u0007"');
  // A label a person would write stays as it is.
  expect(labelWord('accept-baseline')).toBe('accept-baseline');
  expect(labelWord('accept-✓')).toBe('accept-✓');
});
