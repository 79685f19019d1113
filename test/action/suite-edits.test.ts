// A pull request that edits the suite it is checked by (docs/action.md, "The PR comment", "Suite
// edited"): the comment says so in one place, read from GitHub at the pull request's base and head,
// never from the head's own files. Accept commits made by the token's identity are not flagged;
// a commit that only copies their message is.

import { describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { tempDir } from '../support/temp.js';
import { HEAD, pullPayload, runAction, useServers, type ActionRun } from './harness.js';
import { createGitHubApi, type GitHubApi } from '../../src/github/api.js';
import { MAX_PULLS_COMPARED, MAX_SUITE_FILES, pullsCompared, runSuiteEdits, suiteEditsFor } from '../../src/action/suite-edits.js';
import type { PullContext } from '../../src/action/context.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { run } from '../report/fixtures.js';
import { serializeBaseline } from '../../src/suite/index.js';
import type { Baseline, RunRecord, SuiteEdits } from '../../src/types.js';
import { suiteEditsBlock } from '../../src/report/blocks.js';

const BASE = 'b'.repeat(40);
const SUITE = '.agent-replay';

const REPLIES: Record<string, string> = {
  hello: 'Welcome to the  shop!', // the baseline's words, one space more: reworded (formatting)
  refund: 'Refunds within a month.', // the baseline said 30 days
  hours: 'Open 9 to 5.',
};

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  const message = String(body.message);
  return { json: { reply: REPLIES[message] ?? '?', route: { conversation: message, stage: 'answer' }, ended: false } };
};

const baseline = (label: string, message: string, reply: string): Baseline => ({
  label,
  reply,
  route: { conversation: message, stage: 'answer' },
  verdict: 'pass',
  acceptedAt: '2026-11-01T00:00:00.000Z',
  commit: 'a'.repeat(40),
});

const FIXTURES = `fixtures:
  - { label: greeting, message: hello, assert: { contains: Welcome } }
  - { label: refund-policy, message: refund, assert: { contains: "30 days" } }
  - { label: opening-hours, message: hours, assert: { regex: "9 to 5" } }
`;
const WEAKENED = FIXTURES.replace('{ label: refund-policy, message: refund, assert: { contains: "30 days" } }', '{ label: refund-policy, message: refund }');
const WITHOUT_HOURS = FIXTURES.split('\n').filter((l) => !l.includes('opening-hours')).join('\n');

const file = (name: string): string => `${SUITE}/${name}`;
const baselineFile = (b: Baseline): [string, string] => [file(`baselines/${b.label}.json`), serializeBaseline(b)];
const BASE_FILES: Record<string, string> = Object.fromEntries([
  [file('config.yml'), 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n'],
  [file('fixtures/suite.yml'), FIXTURES],
  baselineFile(baseline('greeting', 'hello', 'Welcome to the shop!')),
  baselineFile(baseline('refund-policy', 'refund', 'Refunds within 30 days.')),
  baselineFile(baseline('opening-hours', 'hours', 'Open 9 to 5.')),
]);

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  () => {},
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/** Commits of the pull request's branch, oldest first: a push (`files`, null deletes), or an accept commit made through GitHub as the accept job makes it. */
type Step = { push: Record<string, string | null>; message?: string; author?: string } | { accept: Baseline[] };

/** Pull request 7 from feature onto main at BASE, whose commits are `steps` (the last one is HEAD), on the fake GitHub; a client of it. */
async function pushPull(steps: Step[], baseFiles: Record<string, string> = BASE_FILES): Promise<GitHubApi> {
  gh.setBranch('octo/shop', 'main', BASE, baseFiles);
  gh.setBranch('octo/shop', 'feature', BASE, baseFiles);
  const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    const oid = last ? HEAD : `${String(i + 2)}`.repeat(40).slice(0, 40);
    if ('push' in step) {
      gh.pushOnTop('octo/shop', 'feature', oid, step.message ?? 'Edit the suite', { files: step.push, ...(step.author ? { author: step.author } : {}) });
      continue;
    }
    const at = gh.branch('octo/shop', 'feature')!.head;
    const labels = step.accept.map((b) => b.label);
    await api.createCommitOnBranch({
      repoWithOwner: 'octo/shop',
      branch: 'feature',
      expectedHeadOid: at,
      message: { headline: `Accept agent-replay baselines: ${labels.join(', ')}`, body: `Accepted the replies recorded at ${at} (workflow run 1001):\n\n${labels.map((l) => `- ${l} (pass)`).join('\n')}` },
      additions: step.accept.map((b) => ({ path: file(`baselines/${b.label}.json`), contents: serializeBaseline(b) })),
    });
    // The accept commit's id is the fake's own: a last step needs HEAD, so it is followed by a push in these tests.
    expect(last).toBe(false);
  }
  gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature' });
  return api;
}

/** The pull request of `steps` (pushPull); the check of its head. */
async function checkPull(steps: Step[]): Promise<ActionRun> {
  await pushPull(steps);
  // The checkout: the head's files.
  const workspace = await tempDir('agent-replay-ws-');
  for (const [path, text] of Object.entries(gh.branch('octo/shop', 'feature')!.files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  const payload = pullPayload();
  (payload.pull_request as { base: Record<string, unknown> }).base.sha = BASE;
  return runAction({ gh, workspace, inputs: { 'agent-url': agent.url }, event: { name: 'pull_request', payload } });
}

/**
 * The suite edits of the pull request of `steps` (pushPull) as the check reads them (suiteEditsFor,
 * with the token's login), and their block in the comment (suiteEditsBlock): what a check start
 * would show, without one (docs/contributing.md, "Speed").
 */
async function editsOf(steps: Step[], baseFiles: Record<string, string> = BASE_FILES): Promise<{ edits: SuiteEdits | null; block: string }> {
  const api = await pushPull(steps, baseFiles);
  const edits = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, HEAD, SUITE, () => api.viewerLogin());
  return { edits, block: edits === null ? '' : (suiteEditsBlock({ suiteEdits: edits } as RunRecord) ?? '') };
}

const comment = (): string => gh.comments('octo', 'shop', 7)[0]?.body ?? '';
const record = async (run: ActionRun) => parseRecord(await readFile(run.outputs['results-path'] as string, 'utf8'), 'results.json');
const section = (body: string): string => {
  const start = body.indexOf('#### ✏️ This pull request edits the suite');
  if (start < 0) return '';
  const end = body.indexOf('\n| ', start);
  return body.slice(start, end < 0 ? undefined : end);
};

describe('a pull request that edits its own suite', () => {
  it('says which fixture check was weakened, where the reviewer reads the result, and records it', async () => {
    const run = await checkPull([{ push: { [file('fixtures/suite.yml')]: WEAKENED } }]);
    expect(run.code).toBe(0);
    const s = section(comment());
    expect(s).toContain('These results were measured against the suite as this pull request changes it, compared with its base `bbbbbbb`.');
    expect(s).toContain('**1 fixture check changed or removed**');
    expect(s).toContain('- `refund-policy` in `.agent-replay/fixtures/suite.yml`: check `contains "30 days"` is now none (a probe)');
    expect(s).not.toContain('baseline');
    // In one place: right under the headline, above the tallies; the job summary says the same.
    expect(comment().indexOf('✏️')).toBeLessThan(comment().indexOf('by verdict'));
    expect(section(run.summary)).toBe(s);
    const r = await record(run);
    expect(r.suiteEdits).toEqual({
      base: BASE,
      fixtures: [{ label: 'refund-policy', file: '.agent-replay/fixtures/suite.yml', change: 'assertion', before: 'contains "30 days"', after: null }],
      baselines: [],
      unknown: null,
    });
    // The rewording agent is measured as ever: the reworded greeting and the changed refund reply are in their sections.
    expect(comment()).toMatch(/reworded/);
    expect(comment()).toContain('refund-policy');
    expect(gh.violations).toEqual([]);
  });

  // The other edits take the way of the weakened check above (the comment, the summary, the
  // record) in lines of their own: read and rendered as the check does (editsOf), without a start
  // of the Action each (docs/contributing.md, "Speed").
  it('names a deleted fixture with its check, and the baseline deleted with it by hand', async () => {
    const { block: s } = await editsOf([{ push: { [file('fixtures/suite.yml')]: WITHOUT_HOURS, [file('baselines/opening-hours.json')]: null } }]);
    expect(s).toContain('- `opening-hours` deleted from `.agent-replay/fixtures/suite.yml`; its check was `regex /9 to 5/`');
    expect(s).toContain('**1 baseline edited outside an accept commit**');
    expect(s).toContain('- `.agent-replay/baselines/opening-hours.json` deleted by a commit that is not an accept commit');
  });

  it('flags a baseline edited by hand, also under a copied accept commit message', async () => {
    const edited = serializeBaseline(baseline('refund-policy', 'refund', 'Refunds within a month.'));
    const { edits, block: s } = await editsOf([
      {
        push: { [file('baselines/refund-policy.json')]: edited },
        message: `Accept agent-replay baselines: refund-policy\n\nAccepted the replies recorded at ${BASE} (workflow run 1001):\n\n- refund-policy (pass)`,
        author: 'contributor',
      },
    ]);
    expect(s).toContain('- `.agent-replay/baselines/refund-policy.json` changed by a commit that is not an accept commit');
    expect(s).not.toContain('fixture check');
    // Measured against the edited baseline, the new reply reads as no change: the section is what tells the reviewer.
    expect(edits?.baselines).toEqual([{ file: '.agent-replay/baselines/refund-policy.json', status: 'modified' }]);
  });

  it('a baseline only re-saved with CRLF line endings or a byte-order mark is no edit; one edited besides still is', async () => {
    const stored = serializeBaseline(baseline('refund-policy', 'refund', 'Refunds within 30 days.'));
    const edited = serializeBaseline(baseline('opening-hours', 'hours', 'Open 9 to 6.'));
    const { edits, block: s } = await editsOf([
      // Committed from Windows without core.autocrlf: the repository now stores CRLF (and a mark) for one, and an edit in CRLF for the other.
      { push: { [file('baselines/refund-policy.json')]: `\uFEFF${stored.replace(/\n/g, '\r\n')}`, [file('baselines/opening-hours.json')]: edited.replace(/\n/g, '\r\n') } },
    ]);
    expect(edits?.baselines).toEqual([{ file: '.agent-replay/baselines/opening-hours.json', status: 'modified' }]);
    expect(s).not.toContain('refund-policy');
  });

  it('a pull request that only re-saves a baseline with CRLF line endings edits nothing of the suite', async () => {
    const stored = serializeBaseline(baseline('refund-policy', 'refund', 'Refunds within 30 days.'));
    expect((await editsOf([{ push: { [file('baselines/refund-policy.json')]: stored.replace(/\n/g, '\r\n') } }])).edits).toBeNull();
  });

  it('names the workflow files the pull request changed: they set fail-on and repeat, and a changed one runs a fork\'s check, whose records a workflow_run report comments with', async () => {
    // The inputs of the step are not compared; a workflow that loosened fail-on (or writes its own results.json) read as no edit.
    const workflow = 'on: pull_request\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: agent-replay/agent-replay@v0.1.0\n        with: { fail-on: none }\n';
    const { edits, block: s } = await editsOf([{ push: { '.github/workflows/agent-replay.yml': workflow, '.github/actions/setup/action.yml': 'runs: { using: composite, steps: [] }\n', 'README.md': 'x' } }]);
    expect(edits?.workflows).toEqual([
      { file: '.github/actions/setup/action.yml', status: 'added' },
      { file: '.github/workflows/agent-replay.yml', status: 'added' },
    ]);
    expect(s).toContain('#### ✏️ This pull request edits the workflows that run the check');
    expect(s).toContain(
      '**2 workflow files changed: a workflow decides what the check runs and with which inputs (`fail-on`, `repeat`, the judge), and its steps can rewrite the checked-out suite (fixtures, baselines, `config.yml`) or the agent\'s address before the check reads them, none of which is compared, and a run of a workflow a pull request changed can write any results**',
    );
    expect(s).toContain('- `.github/workflows/agent-replay.yml` added');
    expect(s).not.toContain('README');
    // Kept in results.json as read.
    const kept = parseRecord(serializeRecord({ ...run([], {}), suiteEdits: edits! }), 'results.json');
    expect(kept.suiteEdits?.workflows).toEqual(edits?.workflows);
  });

  it('names the files of a local action a workflow uses outside .github/actions, and the files its run: steps name, with what uses or names each', async () => {
    // The check's workflow at the base: a local action of tools/, a script, a step in a working directory; the action's own step runs a file too.
    const workflow = [
      'on: pull_request',
      'jobs:',
      '  check:',
      '    runs-on: ubuntu-latest',
      '    defaults: { run: { working-directory: app } }',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: bash ../scripts/setup.sh --quiet && node tools/seed.mjs',
      '      - run: "./start.sh > /tmp/log 2>&1 &"',
      '        working-directory: ${{ github.workspace }}/server',
      '      - uses: ./tools/replay-action',
      '        with: { fail-on: regression }',
      '',
    ].join('\n');
    const base = {
      ...BASE_FILES,
      '.github/workflows/agent-replay.yml': workflow,
      'tools/replay-action/action.yml': 'runs:\n  using: composite\n  steps:\n    - run: node tools/inner.mjs\n      shell: bash\n    - uses: ./tools/inner-action\n',
      'tools/inner-action/action.yml': 'runs: { using: docker, image: Dockerfile }\n',
    };
    const { edits, block: s } = await editsOf(
      [
        {
          push: {
            'tools/replay-action/replay.sh': 'exit 0\n',
            'tools/inner-action/Dockerfile': 'FROM scratch\n',
            'tools/inner.mjs': '',
            'scripts/setup.sh': 'export AGENT_URL=https://elsewhere.example\n',
            'app/tools/seed.mjs': '',
            'server/start.sh': '',
            // Not run by a workflow: not named.
            'tools/seed.mjs': '',
            'scripts/other.sh': '',
            'README.md': 'x',
          },
        },
      ],
      base,
    );
    expect(edits?.workflows).toEqual([
      { file: 'app/tools/seed.mjs', status: 'added', by: '.github/workflows/agent-replay.yml' },
      { file: 'scripts/setup.sh', status: 'added', by: '.github/workflows/agent-replay.yml' },
      { file: 'server/start.sh', status: 'added', by: '.github/workflows/agent-replay.yml' },
      { file: 'tools/inner-action/Dockerfile', status: 'added', action: './tools/inner-action', by: 'tools/replay-action/action.yml' },
      { file: 'tools/inner.mjs', status: 'added', by: 'tools/replay-action/action.yml' },
      { file: 'tools/replay-action/replay.sh', status: 'added', action: './tools/replay-action', by: '.github/workflows/agent-replay.yml' },
    ]);
    expect(edits?.unknown).toBeNull();
    expect(s).toContain('#### ✏️ This pull request edits what runs the check');
    expect(s).toContain(
      '**6 files that run the check (2 files of local actions, 4 files steps name) changed: they can change what the check runs and with which inputs (`fail-on`, `repeat`, the judge), and rewrite the checked-out suite (fixtures, baselines, `config.yml`) or the agent\'s address before the check reads them, none of which is compared, and can write any results**',
    );
    expect(s).toContain('These results were measured by the check as this pull request changes what runs it, compared with its base `bbbbbbb`.');
    expect(s).toContain('- `tools/replay-action/replay.sh` added, a file of the local action `./tools/replay-action`, which `.github/workflows/agent-replay.yml` uses');
    expect(s).toContain('- `tools/inner.mjs` added, named by a `run:` step of `tools/replay-action/action.yml`');
    expect(s).toContain('- `scripts/setup.sh` added, named by a `run:` step of `.github/workflows/agent-replay.yml`');
    // Kept in results.json as read.
    const kept = parseRecord(serializeRecord({ ...run([], {}), suiteEdits: edits! }), 'results.json');
    expect(kept.suiteEdits?.workflows).toEqual(edits?.workflows);
  });

  it('names the files a JavaScript action of the repository itself runs (uses: ./), its action.yml, and a local action of a workflow the pull request adds', async () => {
    const base = {
      ...BASE_FILES,
      '.github/workflows/dogfood.yml': 'on: pull_request\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n',
      'action.yml': "runs:\n  using: node24\n  main: 'dist/index.js'\n",
    };
    const { edits, block: s } = await editsOf(
      [
        {
          push: {
            'dist/index.js': 'process.exit(0)\n',
            'action.yml': "runs:\n  using: node24\n  main: 'dist/index.js'\n  post: 'dist/post.js'\n",
            'src/main.ts': '',
            '.github/workflows/extra.yml': 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./ci/act\n',
            'ci/act/action.yaml': 'runs: { using: composite, steps: [] }\n',
          },
        },
      ],
      base,
    );
    expect(edits?.workflows).toEqual([
      { file: '.github/workflows/extra.yml', status: 'added' },
      { file: 'action.yml', status: 'modified', action: './', by: '.github/workflows/dogfood.yml' },
      { file: 'ci/act/action.yaml', status: 'added', action: './ci/act', by: '.github/workflows/extra.yml' },
      { file: 'dist/index.js', status: 'added', action: './', by: '.github/workflows/dogfood.yml' },
    ]);
    expect(s).toContain('#### ✏️ This pull request edits what runs the check');
    expect(s).toContain('**4 files that run the check (1 workflow file, 3 files of local actions) changed: ');
    expect(s).toContain("- `dist/index.js` added, a file of this repository's own action (`./`), which `.github/workflows/dogfood.yml` uses");
    expect(s).not.toContain('src/main.ts');
  });

  it('says a workflow or action.yml that does not read as YAML, whose local actions and files were not looked for', async () => {
    const base = { ...BASE_FILES, '.github/workflows/broken.yml': 'jobs: [\n' };
    const { edits } = await editsOf([{ push: { 'scripts/setup.sh': '' } }], base);
    expect(edits?.workflows).toBeUndefined();
    expect(edits?.unknown).toBe(
      '.github/workflows/broken.yml at the base and at the head does not read as YAML, so the local actions and files it runs were not looked for.',
    );
  });

  // GitHub reads a workflow's anchors and aliases, and a `<<` as the ordinary key it is in YAML 1.2
  // (a matrix entry's, here): refused as a merge key, the workflow made every pull request that
  // touched a code file read "Not known whether this pull request edits the suite".
  it('reads a workflow with anchors, aliases and a `<<` key as GitHub does: the files its steps run are named', async () => {
    const workflow = [
      'on: pull_request',
      'jobs:',
      '  check:',
      '    runs-on: ubuntu-latest',
      '    strategy:',
      '      matrix:',
      '        include:',
      '          - &linux { os: ubuntu-latest, node: 20 }',
      '          - <<: *linux',
      '            node: 24',
      '    steps:',
      '      - &setup',
      '        run: bash scripts/setup.sh',
      '  again:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - *setup',
      '',
    ].join('\n');
    const base = { ...BASE_FILES, '.github/workflows/ci.yml': workflow };
    const { edits } = await editsOf([{ push: { 'scripts/setup.sh': 'exit 0\n', 'scripts/other.sh': '' } }], base);
    expect(edits?.workflows).toEqual([{ file: 'scripts/setup.sh', status: 'added', by: '.github/workflows/ci.yml' }]);
    expect(edits?.unknown).toBeNull();
  });

  it('names the files of a local action whose action.yml the pull request broke, by its folder, and says it did not read', async () => {
    const used = { ...BASE_FILES, '.github/workflows/ci.yml': 'jobs:\n  a:\n    steps:\n      - uses: ./tools/x\n', 'tools/x/action.yml': 'runs: { using: composite, steps: [] }\n' };
    const broke = await editsOf([{ push: { 'tools/x/action.yml': 'runs: [\n' } }], used);
    expect(broke.edits?.workflows).toEqual([{ file: 'tools/x/action.yml', status: 'modified', action: './tools/x', by: '.github/workflows/ci.yml' }]);
    expect(broke.edits?.unknown).toBe('tools/x/action.yml at the head does not read as YAML, so the local actions and files it runs were not looked for.');
  });

  it('says the workflows after an edit of the suite, under the suite\'s title', async () => {
    const workflow = 'on: pull_request\n';
    const both = await editsOf([{ push: { [file('fixtures/suite.yml')]: WEAKENED, '.github/workflows/agent-replay.yml': workflow } }]);
    expect(both.block).toContain('#### ✏️ This pull request edits the suite');
    expect(both.block.indexOf('fixture check')).toBeLessThan(both.block.indexOf('workflow file changed'));
  });

  it('takes no commit after a workflow change for an accept commit: a workflow commits as the accept flow does, also one changed back before the head', async () => {
    const rewritten = baseline('refund-policy', 'refund', 'Refunds within a month.');
    const { edits, block: s } = await editsOf([
      { push: { '.github/workflows/commit.yml': 'on: push\n' }, message: 'Add a workflow' },
      { accept: [rewritten] },
      { push: { '.github/workflows/commit.yml': null }, message: 'Remove it' },
    ]);
    expect(edits?.workflows).toBeUndefined();
    expect(edits?.baselines).toEqual([{ file: '.agent-replay/baselines/refund-policy.json', status: 'modified' }]);
    expect(s).toContain('- `.agent-replay/baselines/refund-policy.json` changed by a commit that is not an accept commit');
    expect(edits?.unknown).toBe(
      'a commit before an accept commit changed .github/workflows/commit.yml, and a workflow can commit as the accept flow does, so the baselines of the accept commits after it are listed as edited.',
    );
  });

  it('takes no commit after a change of a local action a workflow uses for an accept commit', async () => {
    const base = { ...BASE_FILES, '.github/workflows/push.yml': 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./tools/push\n' };
    const rewritten = baseline('refund-policy', 'refund', 'Refunds within a month.');
    const { edits } = await editsOf(
      [{ push: { 'tools/push/action.yml': 'runs: { using: composite, steps: [] }\n' }, message: 'Add an action' }, { accept: [rewritten] }, { push: { 'tools/push/action.yml': null }, message: 'Remove it' }],
      base,
    );
    expect(edits?.baselines).toEqual([{ file: '.agent-replay/baselines/refund-policy.json', status: 'modified' }]);
    expect(edits?.unknown).toBe(
      'a commit before an accept commit changed tools/push/action.yml (which a workflow runs), and a workflow can commit as the accept flow does, so the baselines of the accept commits after it are listed as edited.',
    );
  });

  it('does not flag a baseline an accept commit made, but flags one edited by hand after it', async () => {
    const accepted = baseline('refund-policy', 'refund', 'Refunds within a month.');
    const { block: s } = await editsOf([
      { accept: [accepted] },
      { push: { [file('baselines/opening-hours.json')]: serializeBaseline(baseline('opening-hours', 'hours', 'Open 10 to 4.')) }, message: 'Tidy a baseline' },
    ]);
    expect(s).toContain('- `.agent-replay/baselines/opening-hours.json` changed by a commit that is not an accept commit');
    expect(s).not.toContain('refund-policy');
    expect(gh.violations).toEqual([]);
  });

  it('still flags a baseline edited by hand that an accept commit rewrote after: the acceptance of a reworded reply keeps the hand edit as a variant', async () => {
    // The hand edit makes the regressed reply the baseline; the agent then words it otherwise, which reads as
    // reworded, and its acceptance keeps the hand-written reply beside it (docs/meaning.md, "Variants").
    const handEdited = baseline('refund-policy', 'refund', 'Refunds within a month.');
    const accepted: Baseline = { ...baseline('refund-policy', 'refund', 'Refunds within a month!'), variants: ['Refunds within a month.'] };
    const { edits, block: s } = await editsOf([
      { push: { [file('baselines/refund-policy.json')]: serializeBaseline(handEdited) }, message: 'Tidy a baseline' },
      { accept: [accepted] },
      { push: { 'src/app.ts': 'export const x = 1;\n' } },
    ]);
    expect(edits?.baselines).toEqual([{ file: '.agent-replay/baselines/refund-policy.json', status: 'modified' }]);
    expect(s).toContain('- `.agent-replay/baselines/refund-policy.json` changed by a commit that is not an accept commit');
    expect(gh.violations).toEqual([]);
  });

  it('takes a baseline for the accept commit\'s when the hand edit before it was undone, or only re-saved it with CRLF line endings', async () => {
    const stored = BASE_FILES[file('baselines/refund-policy.json')] as string;
    const hours = BASE_FILES[file('baselines/opening-hours.json')] as string;
    const { edits } = await editsOf([
      { push: { [file('baselines/refund-policy.json')]: serializeBaseline(baseline('refund-policy', 'refund', 'Refunds within a month.')), [file('baselines/opening-hours.json')]: hours.replace(/\n/g, '\r\n') }, message: 'Tidy the baselines' },
      { push: { [file('baselines/refund-policy.json')]: stored }, message: 'Undo it' },
      { accept: [baseline('refund-policy', 'refund', 'Refunds within 30 days, no questions.'), baseline('opening-hours', 'hours', 'Open from 9 to 5.')] },
      { push: { 'src/app.ts': 'export const x = 1;\n' } },
    ]);
    expect(edits).toBeNull();
    expect(gh.violations).toEqual([]);
  });

  it('shows no section when the pull request leaves the suite as it was', async () => {
    const run = await checkPull([{ push: { 'src/app.ts': 'export const x = 1;\n' } }]);
    expect(comment()).not.toContain('edits the suite');
    expect((await record(run)).suiteEdits).toBeUndefined();
  });
});

describe('the suite edits read from GitHub, without a run', () => {
  it('compares at most MAX_SUITE_FILES changed fixture and persona files, each whole (its base and its head), and says how many were not', async () => {
    const MAX = 3; // MAX_SUITE_FILES in a test that reads few files
    expect(MAX_SUITE_FILES).toBe(50);
    const name = (i: number): string => file(`fixtures/f${i}.yml`);
    const fixture = (i: number, check: string): string => `label: f${i}\nmessage: m\nassert: { contains: ${check} }\n`;
    const files = { ...BASE_FILES, ...Object.fromEntries(Array.from({ length: MAX }, (_, i) => [name(i), fixture(i, 'x')])) };
    gh.setBranch('octo/shop', 'main', BASE, files);
    gh.setBranch('octo/shop', 'feature', BASE, files);
    // A new persona script first (one side to read), then every fixture file's check changed (two sides each): MAX + 1 files, 2 * MAX + 1 sides.
    const pushed = { [file('personas/new.yml')]: 'label: new\nopening: hi\nexpect:\n  terminal: finish\n', ...Object.fromEntries(Array.from({ length: MAX }, (_, i) => [name(i), fixture(i, 'y')])) };
    gh.pushOnTop('octo/shop', 'feature', HEAD, 'Change every check', { files: pushed });
    const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
    const edits = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, HEAD, SUITE, async () => null, MAX);
    // The persona script and MAX - 1 fixture files compared whole; the last fixture file not at all
    // (never read at the base alone, which would call its fixture deleted).
    expect(edits).toEqual({
      base: BASE,
      fixtures: Array.from({ length: MAX - 1 }, (_, i) => ({ label: `f${i}`, file: name(i), change: 'assertion', before: 'contains "x"', after: 'contains "y"' })),
      baselines: [],
      unknown: `this pull request changes ${MAX + 1} fixture and persona files: the first ${MAX} were compared, 1 other was not.`,
    });
  });

  it('says a fixture file over 1 MB (GitHub gives no text of it) not compared, never its fixtures deleted', async () => {
    const files = { ...BASE_FILES, [file('fixtures/big.yml')]: 'label: big\nmessage: m\nassert: { contains: x }\n' };
    gh.setBranch('octo/shop', 'main', BASE, files);
    gh.setBranch('octo/shop', 'feature', BASE, files);
    gh.pushOnTop('octo/shop', 'feature', HEAD, 'A large fixture file', { files: { [file('fixtures/big.yml')]: `label: big\nmessage: m\nassert: { contains: x }\n${'#'.repeat(1024 * 1024)}\n` } });
    const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
    const edits = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, HEAD, SUITE, async () => null);
    expect(edits).toEqual({
      base: BASE,
      fixtures: [],
      baselines: [],
      unknown: `1 fixture or persona file is over 1 MB (GitHub gives no text of a file that large), so the items in it were not compared: ${file('fixtures/big.yml')}.`,
    });
  });

  it('compares the persona scripts a pull request changed, check by check', async () => {
    const SCRIPT = 'label: refund-dialog\nopening: I want my money back\nexpect:\n  toolNotCalled: [{ tool: issue_refund }]\n  criteria: [stays polite]\n';
    const files = { ...BASE_FILES, [file('personas/refund.yml')]: SCRIPT };
    gh.setBranch('octo/shop', 'main', BASE, files);
    gh.setBranch('octo/shop', 'feature', BASE, files);
    gh.pushOnTop('octo/shop', 'feature', HEAD, 'Loosen the refund script', { files: { [file('personas/refund.yml')]: SCRIPT.replace('  toolNotCalled: [{ tool: issue_refund }]\n', '') } });
    const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
    const edits = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, HEAD, SUITE, async () => null);
    expect(edits).toEqual({
      base: BASE,
      fixtures: [{ label: 'refund-dialog', kind: 'persona', file: file('personas/refund.yml'), change: 'assertion', before: 'toolNotCalled issue_refund', after: null }],
      baselines: [],
      unknown: null,
    });
  });

  it('lists the settings of config.yml that change what is replayed or a verdict, old and new, never a credential, and says a config.yml that does not read', async () => {
    // The base: `agent:\n  retries: 0\ncost: { capUsd: 1 }\n` (BASE_FILES).
    const CONFIG = [
      'agent:',
      '  retries: 3', // no verdict changes: not listed
      '  url: https://user:pw-hidden@agent.example/api/K9f8d7s6a5q4w3e2r1t0?key=query-hidden',
      '  headers: { X-Tenant: tenant-hidden }',
      'judge:',
      '  model: gpt-4o',
      '  apiKey: sk-live-key-hidden',
      '  baseUrl: https://proxy.example/v1/AbCdEf1234567890XyZ',
      '  timeoutMs: 5000', // not listed
      'repeat: { count: 3, minPass: 2 }',
      'meaning: { threshold: 0.9 }',
      'cost: { capUsd: 5 }', // not listed
      '',
    ].join('\n');
    gh.setBranch('octo/shop', 'main', BASE, BASE_FILES);
    gh.setBranch('octo/shop', 'feature', BASE, BASE_FILES);
    gh.pushOnTop('octo/shop', 'feature', HEAD, 'Another judge', { files: { [file('config.yml')]: CONFIG } });
    const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
    const edits = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, HEAD, SUITE, async () => null);
    const at = file('config.yml');
    expect(edits).toEqual({
      base: BASE,
      fixtures: [],
      config: [
        { file: at, setting: 'agent.url', change: 'setting', before: null, after: '"https://agent.example/api/***"' },
        { file: at, setting: 'agent.headers.X-Tenant', change: 'secret', before: null, after: 'set' },
        { file: at, setting: 'judge.model', change: 'setting', before: null, after: '"gpt-4o"' },
        { file: at, setting: 'judge.apiKey', change: 'secret', before: null, after: 'set' },
        { file: at, setting: 'judge.baseUrl', change: 'setting', before: null, after: '"https://proxy.example/v1/***"' },
        // The base writes none of these: each reads its default there (one attempt; 0.8).
        { file: at, setting: 'repeat.count', change: 'setting', before: '1', after: '3', default: 'before' },
        { file: at, setting: 'repeat.minPass', change: 'setting', before: '1', after: '2', default: 'before' },
        { file: at, setting: 'meaning.threshold', change: 'setting', before: '0.8', after: '0.9', default: 'before' },
        // What the judge added brings, written by neither side: its provider, and the meaning check by the judge.
        { file: at, setting: 'judge.provider', change: 'setting', before: null, after: '"openai"', default: 'after' },
        { file: at, setting: 'meaning.check', change: 'setting', before: '"facts"', after: '"judge"', default: 'both' },
      ],
      baselines: [],
      unknown: null,
    });
    // In the comment's block, under the fixtures' and before the baselines': no credential anywhere.
    const block = suiteEditsBlock({ suiteEdits: edits } as RunRecord) ?? '';
    expect(block).toContain('**10 settings of `config.yml` changed (every item\'s replay or verdict can differ)**');
    expect(block).toContain('- `meaning.check` in `.agent-replay/config.yml`: `"facts"` (the default) is now `"judge"` (the default)\n');
    // The base has no judge: nothing to default to.
    expect(block).toContain('- `judge.model` in `.agent-replay/config.yml`: not set is now `"gpt-4o"`');
    expect(block).toContain('- `repeat.count` in `.agent-replay/config.yml`: `1` (the default) is now `3`');
    // The inputs of the step that set these settings over config.yml are not compared: said after them.
    expect(block).toContain(
      '- `meaning.check` in `.agent-replay/config.yml`: `"facts"` (the default) is now `"judge"` (the default)\n\n' +
        'An input of the workflow step sets its setting over `config.yml` when a step gives it (`agent-url` or `agent-path` over `agent.url`, `agent-headers` over `agent.headers`, ' +
        "`judge-provider` over `judge.provider`, `judge-base-url` over `judge.baseUrl`, `judge-model` over `judge.model`, `judge-api-key` over `judge.apiKey`, `repeat` over `repeat.count`); the run does not record its step's inputs, and inputs are not compared.",
    );
    expect(block).toContain('- `judge.apiKey` in `.agent-replay/config.yml`: set now (a credential: its value is not shown)');
    expect(`${JSON.stringify(edits)}${block}`).not.toMatch(/hidden|AbCdEf1234567890XyZ|K9f8d7s6a5q4w3e2r1t0/);

    // Another push: the head's config.yml no longer reads. Said, nothing else compared, no failure.
    gh.pushOnTop('octo/shop', 'feature', 'c'.repeat(40), 'Break the config', { files: { [file('config.yml')]: 'judge: [\n  model: x\n' } });
    const broken = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, 'c'.repeat(40), SUITE, async () => null);
    expect(broken?.config).toEqual([{ file: at, setting: null, change: 'unreadable', before: null, after: expect.stringMatching(/^does not read as YAML( \(line \d+\))?$/) }]);
    expect(suiteEditsBlock({ suiteEdits: broken } as RunRecord)).toContain('**`config.yml` not compared**\n\n- `.agent-replay/config.yml` at the head does not read as YAML');

    // Another: over 1 MB, which GitHub gives no text of. Said too large, never read as a config.yml removed.
    const LARGE = 'd'.repeat(40);
    gh.pushOnTop('octo/shop', 'feature', LARGE, 'A large config', { files: { [file('config.yml')]: `judge: { model: gpt-4o }\n${'#'.repeat(1024 * 1024)}\n` } });
    const large = await suiteEditsFor(api, { owner: 'octo', repo: 'shop' }, BASE, LARGE, SUITE, async () => null);
    expect(large?.config).toEqual([{ file: at, setting: null, change: 'unreadable', before: null, after: 'is over 1 MB (GitHub gives no text of a file that large)' }]);
    expect(suiteEditsBlock({ suiteEdits: large } as RunRecord)).toContain(
      '- `.agent-replay/config.yml` at the head is over 1 MB (GitHub gives no text of a file that large): its settings were not compared',
    );
  });

  it('compares the suite edits of at most MAX_PULLS_COMPARED pull requests of a deployed commit, and says so in the log and in the others\' comments', () => {
    expect(MAX_PULLS_COMPARED).toBe(10);
    const pull = (n: number, baseSha: string | null = BASE): PullContext =>
      ({ number: n, headSha: HEAD, headRef: `b${n}`, headRepoFullName: 'octo/shop', baseRepoFullName: 'octo/shop', baseSha, isFork: false, labels: [] });
    const pulls = [...Array.from({ length: 11 }, (_, i) => pull(i + 1)), pull(12, null)];
    const c = pullsCompared(pulls);
    expect(pulls.filter(c.compared).map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(c.note).toBe('the deployed commit is the head of 12 open pull requests, and the suite edits of the first 10 only are compared with their bases; not #11, #12');
    expect(c.left(pulls[10]!)).toEqual({
      base: BASE,
      fixtures: [],
      baselines: [],
      unknown: "the deployed commit is the head of 12 open pull requests, and the suite edits of the first 10 only are compared with their bases: this pull request's were not compared.",
    });
    expect(c.left(pulls[11]!)).toBeNull();
    // As many as the bound: all compared, nothing said.
    expect(pullsCompared(pulls.slice(0, 10)).note).toBeNull();
    // Counts group their digits as every count the reports write (src/words.ts).
    const many = Array.from({ length: 1234 }, (_, i) => pull(i + 1));
    expect(pullsCompared(many, 1000).note).toMatch(/^the deployed commit is the head of 1,234 open pull requests, and the suite edits of the first 1,000 only are compared with their bases; not #1001, /);
  });
});

describe('a run\'s suite edits, for its record and each pull request\'s comment (runSuiteEdits, as check and report modes wire them)', () => {
  const pull = (n: number, baseSha: string | null = BASE): PullContext =>
    ({ number: n, headSha: HEAD, headRef: `b${n}`, headRepoFullName: 'octo/shop', baseRepoFullName: 'octo/shop', baseSha, isFork: false, labels: [] });
  const at = (p: PullContext | null) => ({ owner: 'octo', repo: 'shop', sha: HEAD, pull: p });
  const WEAK = { base: BASE, fixtures: [{ label: 'refund-policy', file: file('fixtures/suite.yml'), change: 'assertion', before: 'contains "30 days"', after: null }], baselines: [], unknown: null };
  const setUp = () => {
    gh.setBranch('octo/shop', 'main', BASE, BASE_FILES);
    gh.setBranch('octo/shop', 'feature', BASE, BASE_FILES);
    gh.pushOnTop('octo/shop', 'feature', HEAD, 'Weaken a check', { files: { [file('fixtures/suite.yml')]: WEAKENED } });
    return createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
  };
  const compares = (): number => gh.requests.filter((r) => r.path.includes('/compare/')).length;

  it('compares one pull request for the record, and the first `max` of several each for its own comment, the others said not compared', async () => {
    const api = setUp();
    const warnings: string[] = [];
    const one = await runSuiteEdits(api, at(pull(7)), [pull(7)], SUITE, (l) => warnings.push(l));
    expect(one.run).toEqual(WEAK);
    expect(one.note).toBeNull();
    expect(await one.forPull(pull(7))).toBe(one.run);
    expect(compares()).toBe(1);
    // A deployed commit that heads three pull requests, two compared: none for the record, nothing asked until a comment is written.
    const three = [pull(1), pull(2), pull(3)];
    const several = await runSuiteEdits(api, at(null), three, SUITE, (l) => warnings.push(l), 2);
    expect(several.run).toBeNull();
    expect(compares()).toBe(1);
    expect(several.note).toBe('the deployed commit is the head of 3 open pull requests, and the suite edits of the first 2 only are compared with their bases; not #3');
    expect(await several.forPull(pull(2))).toEqual(WEAK);
    expect(await several.forPull(pull(3))).toEqual({ base: BASE, fixtures: [], baselines: [], unknown: "the deployed commit is the head of 3 open pull requests, and the suite edits of the first 2 only are compared with their bases: this pull request's were not compared." });
    expect(compares()).toBe(2);
    expect(warnings).toEqual([]);
  });

  it('asks GitHub nothing without a token to ask with (comment: false) or a suite folder in the repository, and says a comparison GitHub refused', async () => {
    const api = setUp();
    const none = await runSuiteEdits(null, at(pull(7)), [pull(7), pull(8)], SUITE, () => {}, 1);
    expect([none.run, none.note, await none.forPull(pull(7)), await none.forPull(pull(8))]).toEqual([null, null, null, null]);
    const outside = await runSuiteEdits(api, at(pull(7)), [pull(7)], null, () => {});
    expect(outside.run).toBeNull();
    expect(gh.requests).toEqual([]);
    // GitHub refuses the comparison: the block says so, never "nothing changed", and the log warns.
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/compare/{basehead}', status: 404 });
    const warnings: string[] = [];
    const refused = await runSuiteEdits(api, at(pull(7)), [pull(7)], SUITE, (l) => warnings.push(l));
    expect(refused.run).toMatchObject({ base: BASE, fixtures: [], baselines: [] });
    expect(refused.run?.unknown).toMatch(/^the pull request could not be compared with its base: /);
    expect(warnings).toEqual([expect.stringMatching(/^suite edits: not compared with the base bbbbbbb: /)]);
  });
});
