// No line of outside text in the Action's log is a workflow command (docs/security.md, "Agent text
// is data"). The Action runs as a child process; its stdout and stderr are read with the rules of
// GitHub's runner (test/support/runner-commands.ts). Its own commands come from @actions/core
// (annotations, ::add-mask:: of its token): what the tests look for are the hostile texts' commands,
// a `##[` command (the Action writes none), a stop-commands, or a mask of anything but its token.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { runnerCommands } from '../support/runner-commands.js';
import { artifactZip, renameEntry } from '../support/zip.js';
import { fixture, run as record } from '../report/fixtures.js';
import { serializeRecord } from '../../src/record/index.js';
import { markerLine, metaLine } from '../../src/report/metadata.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers, type ActionRun } from './harness.js';

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

it('check mode: a reply, an error body, a fixture file name, a deployment\'s environment and the previous run\'s artifact entry name are logged with no command in them', async () => {
  const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: hi, assert: { contains: nope } }\n  - { label: b, message: fail }\n', config: 'agent: { retries: 0 }\n' });
  await writeFile(join(workspace, '.agent-replay', 'fixtures', `x${HOSTILE}.yml`), 'fixtures:\n  - { label: c, message: hi }\n');
  // The comment the previous run posted names its run and artifact; the artifact's one entry has a
  // name that is not a plain relative path, which the log line quotes.
  const artifactName = `agent-replay-results-${HEAD}`;
  gh.addComment('octo', 'shop', 7, { body: `${markerLine('agent-replay')}\n${metaLine({ headSha: HEAD, runId: '1001', artifactName })}\nearlier`, user: gh.viewer });
  gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
  const zip = renameEntry(await artifactZip([{ name: `${'r'.repeat(21)}.json`, data: '{}' }]), `${'r'.repeat(21)}.json`, '../##[add-mask]secret.json');
  gh.addArtifact('octo', 'shop', 1001, { name: artifactName, zip });
  const deployment = { deployment: { sha: HEAD, environment: 'preview' }, deployment_status: { state: 'success', environment: `preview${HOSTILE}` } };
  const run = await runAction({ gh, workspace, inputs: { 'agent-url': agent.url }, event: { name: 'deployment_status', payload: deployment } });

  expect(run.code, run.stdout + run.stderr).toBe(1); // a fails, b errors
  // The lines were logged, as written but for the invisible word joiners ...
  expect(seen(run)).toContain(`deployment_status: the preview${HOSTILE} deployment of ${HEAD.slice(0, 7)} is the head of #7`);
  expect(seen(run)).toContain('since the previous run: run 1001 not compared: the results artifact could not be read (corrupt zip archive: the entry name "../##[add-mask]secret.json"');
  // ... and none of them is a command.
  expect(foreignCommands(run)).toEqual([]);
  expect(run.stdout).toContain(`::add-mask::${gh.token}`);
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
  expect(seen(run)).toContain(`accept: the label "bug${HOSTILE}" is not accept-baseline; nothing to do.`);
  expect(foreignCommands(run)).toEqual([]);
});
