// The label run's `next:` line names in a pull request's job (docs/cli.md, "What each command
// does"): the accept workflow's accept-label, read from the repository's workflow files, init's
// own accept workflow among them; the accept workflow's, unnamed, when they do not tell it.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptWorkflowLabel, repositoryAcceptLabel } from '../../src/suite/accept-label.js';
import { acceptRunStep } from '../../src/cli/main.js';
import { agentConfig, cli, makeProject, scriptedAgent, serve, useCleanup } from './helpers.js';
import { tempDir } from '../support/temp.js';

useCleanup();

/** GitHub Actions, a pull request's job. */
const PULL_JOB = { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_NAME: 'pull_request' };

/** init's accept workflow, its step's accept-label renamed (init writes the default, beside its job's if:). */
async function initAccept(root: string, label: string): Promise<string> {
  const file = join(root, '.github', 'workflows', 'agent-replay-accept.yml');
  const text = await readFile(file, 'utf8');
  expect(text.match(/^ {10}accept-label: accept-baseline /gm)).toHaveLength(1);
  await writeFile(file, text.replace(/^( {10}accept-label:) accept-baseline /m, `$1 ${label} `));
  return file;
}

describe("the accept label in run's next step", () => {
  it("is the repository's accept workflow's accept-label (init's workflows: the default), and unnamed where the workflows do not tell one", async () => {
    const root = await tempDir('agent-replay-label-');
    await mkdir(join(root, '.git'));
    expect((await cli(['init'], root)).code).toBe(0);
    const suite = join(root, '.agent-replay');
    // init's accept workflow: the default, in its step's accept-label and its job's if:.
    expect(await repositoryAcceptLabel(suite)).toBe('accept-baseline');
    const file = await initAccept(root, 'approve-replies');
    let renamed = await readFile(file, 'utf8');
    // accept-label renamed, init's if: left waiting for accept-baseline: neither label accepts, none is named.
    expect(renamed).toContain("if: github.event.label.name == 'accept-baseline'");
    expect(await repositoryAcceptLabel(suite)).toBeNull();
    expect(await acceptWorkflowLabel(suite)).toEqual({ label: 'approve-replies', file: '.github/workflows/agent-replay-accept.yml', runsFor: { file: '.github/workflows/agent-replay-accept.yml', label: 'accept-baseline' } });
    // Renamed together (the if: in another case, as GitHub's == compares text): the label.
    renamed = renamed.replace("github.event.label.name == 'accept-baseline'", "${{ 'Approve-Replies' == github.event.label.name }}");
    await writeFile(file, renamed);
    expect(await repositoryAcceptLabel(suite)).toBe('approve-replies');
    // A suite in a folder below the root: the root's workflows.
    await mkdir(join(root, 'apps', 'sales', '.agent-replay'), { recursive: true });
    expect(await repositoryAcceptLabel(join(root, 'apps', 'sales', '.agent-replay'))).toBe('approve-replies');
    // A second accept workflow (another suite's) with the same label in another case: one label, as GitHub matches it.
    const second = join(root, '.github', 'workflows', 'sales-accept.yml');
    await writeFile(second, renamed.replace('approve-replies', 'Approve-Replies'));
    expect(await repositoryAcceptLabel(suite)).toBe('approve-replies');
    // Not told: two labels, a label only the run knows, a workflow that does not read, no accept step, no workflows up to the repository's root.
    await writeFile(second, renamed.replace('approve-replies', 'accept-sales'));
    expect(await repositoryAcceptLabel(suite)).toBeNull();
    await writeFile(second, renamed.replace('approve-replies', '${{ vars.ACCEPT_LABEL }}'));
    expect(await repositoryAcceptLabel(suite)).toBeNull();
    await writeFile(second, 'jobs: [uses: agent-replay/agent-replay@v1\n');
    expect(await repositoryAcceptLabel(suite)).toBeNull();
    await writeFile(second, 'on: push\n');
    await writeFile(file, renamed.replace('mode: accept', 'mode: check'));
    expect(await repositoryAcceptLabel(suite)).toBeNull();
    const bare = await tempDir('agent-replay-label-');
    await mkdir(join(bare, '.git'));
    await mkdir(join(bare, '.agent-replay'));
    expect(await repositoryAcceptLabel(join(bare, '.agent-replay'))).toBeNull();
  });

  it('names the label it is given, else the accept workflow\'s by its input, never a wrong name (was: always accept-baseline)', () => {
    expect(acceptRunStep(3, '.agent-replay', 'r.json', false, PULL_JOB, 'approve-replies')).toContain(', a reviewer applies the approve-replies label to the pull request once its comment is read (');
    expect(acceptRunStep(1, '.agent-replay', 'r.json', false, PULL_JOB, 'ok to accept')).toContain('a reviewer applies the "ok to accept" label to the pull request');
    // An escape sequence and a U+2028 in it: each as its escape, one backslash (was "ok\\u001b ⏎ x", the backslash doubled); without a space, on its line.
    expect(acceptRunStep(1, '.agent-replay', 'r.json', false, PULL_JOB, 'ok\u001b[2J to\u2028accept')).toContain(String.raw`a reviewer applies the "ok\u001b[2J to\u2028accept" label to the pull request`);
    expect(acceptRunStep(1, '.agent-replay', 'r.json', false, PULL_JOB, 'ok\u001b[2J')).toContain(String.raw`a reviewer applies the ok\u001b[2J label to the pull request`);
    const unknown = acceptRunStep(3, '.agent-replay', 'r.json', false, PULL_JOB, null);
    expect(unknown).toContain("a reviewer applies the accept workflow's label (the accept-label input of its agent-replay step) to the pull request once its comment is read (");
    expect(unknown).not.toContain('accept-baseline');
  });

  it("a run in a pull request's job names the label of the repository's accept workflow", async () => {
    const agent = await serve(scriptedAgent({ a: 'A-reply' }));
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: passing, message: a, assert: { contains: A-reply } }\n' } });
    await mkdir(join(cwd, '.git'));
    await mkdir(join(cwd, '.github', 'workflows'), { recursive: true });
    await writeFile(
      join(cwd, '.github', 'workflows', 'accept.yml'),
      'on: { pull_request_target: { types: [labeled] } }\njobs:\n  accept:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: agent-replay/agent-replay@v0.1.0\n        with: { mode: accept, accept-label: approve-replies }\n',
    );
    const r = await cli(['run', '--out', 'r.json', '--commit', 'c'.repeat(40)], cwd, PULL_JOB);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\nnext: to accept the new or changed pass\/fail result as a baseline, a reviewer applies the approve-replies label to the pull request once its comment is read \(/);
  });
});
