// The project's own GitHub workflows (.github/workflows; docs/contributing.md, "Continuous
// integration" and "Releasing"): each one passes GitHub's workflow parser and schema
// (@actions/workflow-parser), every third-party action is pinned to a full commit SHA with its
// version in a comment, the dogfood workflow runs the Action from the checkout with inputs
// action.yml declares, and the release workflow publishes with provenance and notes from
// CHANGELOG.md.

import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { PINNED } from '../../src/cli/init.js';
import { releaseNotes } from '../../scripts/release-notes.mjs';

const run = promisify(execFile);

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  if?: string;
}
interface Job {
  'runs-on': string;
  permissions?: Record<string, string>;
  strategy?: { matrix: Record<string, unknown[]> };
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const DIR = '.github/workflows';
const EXPECTED = ['check-dist.yml', 'ci.yml', 'dogfood.yml', 'release.yml'];

async function workflows(): Promise<Record<string, { text: string; yaml: Workflow }>> {
  const out: Record<string, { text: string; yaml: Workflow }> = {};
  for (const name of (await readdir(DIR)).sort()) {
    const text = await readFile(join(DIR, name), 'utf8');
    out[name] = { text, yaml: parse(text) as Workflow };
  }
  return out;
}

const steps = (w: Workflow): Step[] => Object.values(w.jobs).flatMap((j) => j.steps);
const runs = (w: Workflow): string => steps(w).map((s) => s.run ?? '').join('\n');

describe('.github/workflows', () => {
  it("are the four workflows, each passing GitHub's workflow parser and schema without an error", async () => {
    const files = await workflows();
    expect(Object.keys(files)).toEqual(EXPECTED);
    for (const [name, { text }] of Object.entries(files)) {
      const parsed = parseWorkflow({ name, content: text }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message), name).toEqual([]);
      expect(parsed.value, name).toBeDefined();
      // the model GitHub builds from it (jobs, needs, matrix, steps) has no error either
      const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
      expect(template.errors ?? [], name).toEqual([]);
      expect(Object.keys(template.jobs ?? {}).length, name).toBeGreaterThan(0);
    }
  });

  it('pin every third-party action to a full commit SHA with its version in a comment, the same SHA everywhere', async () => {
    const files = await workflows();
    const pins = new Map<string, Set<string>>();
    let count = 0;
    for (const [name, { text, yaml }] of Object.entries(files)) {
      for (const s of steps(yaml)) {
        if (s.uses === undefined || s.uses === './') continue;
        count++;
        expect(s.uses, name).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
        // the version comment, as Dependabot writes and updates it
        const line = text.split('\n').find((l) => l.includes(`uses: ${s.uses}`));
        expect(line, `${name}: ${s.uses}`).toMatch(/ # v\d+\.\d+\.\d+$/);
        const [action] = s.uses.split('@') as [string];
        pins.set(action, (pins.get(action) ?? new Set()).add(line!.trim()));
      }
    }
    expect(count).toBeGreaterThan(5);
    for (const [action, lines] of pins) expect([...lines], action).toHaveLength(1);
    expect([...pins.keys()].sort()).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact']);
  });

  it("pin each action at the major that init's workflows and the docs' examples name it by (PINNED): a major Dependabot moves here is moved there too", async () => {
    const tags = new Map(Object.values(PINNED).map((uses) => uses.split('@') as [string, string]));
    const majors = new Set<string>();
    for (const [name, { text }] of Object.entries(await workflows())) {
      for (const m of text.matchAll(/uses: ([\w.-]+\/[\w.-]+)@[0-9a-f]{40} # (v\d+)\.\d+\.\d+$/gm)) {
        expect(tags.get(m[1]!), `${name}: ${m[0]}`).toBe(m[2]);
        majors.add(m[1]!);
      }
    }
    expect([...majors].sort()).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact']);
  });

  it('ask for read-only contents by default; only the release job writes, and only the dogfood job comments', async () => {
    const files = await workflows();
    for (const [name, { yaml }] of Object.entries(files)) expect(yaml.permissions?.contents, name).toBe('read');
    expect(files['dogfood.yml']!.yaml.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', actions: 'read' });
    expect(files['release.yml']!.yaml.jobs.publish!.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    for (const name of ['ci.yml', 'check-dist.yml']) expect(files[name]!.yaml.permissions, name).toEqual({ contents: 'read' });
  });

  it('ci runs the README test command, typecheck, lint and the framework tests on Node 20 and 24, with the browser tests required', async () => {
    const { yaml } = (await workflows())['ci.yml']!;
    expect(Object.keys(yaml.on).sort()).toEqual(['pull_request', 'push', 'workflow_dispatch']);
    const job = yaml.jobs.test!;
    expect(job.strategy!.matrix.node).toEqual([20, 24]);
    expect(job.env).toEqual({ AGENT_REPLAY_REQUIRE_BROWSER: '1' });
    const commands = job.steps.map((s) => s.run).filter((r): r is string => r !== undefined && !r.includes('\n'));
    expect(commands).toEqual(['npm ci --no-audit --no-fund', 'npm test', 'npm run typecheck', 'npm run lint', 'npm run test:frameworks']);
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    for (const script of ['test', 'typecheck', 'lint', 'test:frameworks']) expect(pkg.scripts[script], script).toBeDefined();
  });

  it('check-dist rebuilds dist/ and uploads the expected one when it differs', async () => {
    const { yaml } = (await workflows())['check-dist.yml']!;
    const job = yaml.jobs['check-dist']!;
    expect(job.steps.map((s) => s.run?.split('\n')[0] ?? s.uses?.split('@')[0])).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'npm ci --no-audit --no-fund',
      'npm run package',
      'if [ -n "$(git status --porcelain -- dist/)" ]; then',
      'actions/upload-artifact',
    ]);
    expect(job.steps.at(-1)).toMatchObject({ if: "${{ failure() && steps.diff.outcome == 'failure' }}", with: { name: 'dist', path: 'dist/' } });
    expect(job.steps.at(-2)!.id).toBe('diff');
  });

  it('every job that rebuilds dist/ (check-dist, the release) does it on Node 20, the Node dist/ is built with', async () => {
    const rebuilt: string[] = [];
    for (const [name, { yaml }] of Object.entries(await workflows())) {
      for (const [id, job] of Object.entries(yaml.jobs)) {
        const at = job.steps.findIndex((s) => s.run?.split('\n').some((l) => l.trim() === 'npm run package'));
        if (at < 0) continue;
        rebuilt.push(`${name} ${id}`);
        const node = job.steps.slice(0, at).filter((s) => s.uses?.startsWith('actions/setup-node@')).at(-1);
        expect(node?.with?.['node-version'], `${name} ${id}`).toBe(20);
      }
    }
    expect(rebuilt).toEqual(['check-dist.yml check-dist', 'release.yml test']);
  });

  it('dogfood runs the Action from the checkout (uses: ./) against the demo agent it starts, on pull requests, with inputs action.yml declares', async () => {
    const { yaml } = (await workflows())['dogfood.yml']!;
    expect(Object.keys(yaml.on)).toEqual(['pull_request']);
    const job = Object.values(yaml.jobs)[0]!;
    const demo = job.steps.find((s) => s.id === 'demo');
    expect(demo?.run).toContain('node --import tsx scripts/demo-agent.ts .tmp/demo-agent.env');
    expect(demo?.run).toContain('>> "$GITHUB_OUTPUT"');
    const action = job.steps.filter((s) => s.uses === './');
    expect(action).toHaveLength(1);
    // it checks out the head, not GitHub's merge commit, which check mode refuses (docs/action.md, "Check: replay on every pull request")
    const checkout = job.steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout).toHaveLength(1);
    expect(checkout[0]!.with).toMatchObject({ ref: '${{ github.event.pull_request.head.sha }}' });
    expect(job.steps.indexOf(checkout[0]!)).toBeLessThan(job.steps.indexOf(action[0]!));
    const declared = Object.keys((parse(await readFile('action.yml', 'utf8')) as { inputs: Record<string, unknown> }).inputs);
    const given = Object.keys(action[0]!.with ?? {});
    expect(given.length).toBeGreaterThan(0);
    expect(given.filter((k) => !declared.includes(k))).toEqual([]);
    expect(action[0]!.with).toMatchObject({ dir: 'examples/demo/.agent-replay', 'agent-url': '${{ steps.demo.outputs.agent-url }}', 'judge-base-url': '${{ steps.demo.outputs.judge-base-url }}' });
    // the step after it reads outputs action.yml declares
    const outputs = Object.keys((parse(await readFile('action.yml', 'utf8')) as { outputs: Record<string, unknown> }).outputs);
    const read = [...JSON.stringify(job.steps).matchAll(/steps\.replay\.outputs\.([\w-]+)/g)].map((m) => m[1]!);
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((o) => !outputs.includes(o))).toEqual([]);
  });

  it('release tests the tag, publishes with provenance, writes the notes from CHANGELOG.md and moves the major tag', async () => {
    const { yaml } = (await workflows())['release.yml']!;
    expect(yaml.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+', 'v[0-9]+.[0-9]+.[0-9]+-*'] } });
    expect(yaml.jobs.test!.env).toEqual({ AGENT_REPLAY_REQUIRE_BROWSER: '1' });
    expect(runs(yaml)).toMatch(/^npm test$/m);
    expect(yaml.jobs.publish).toMatchObject({ needs: 'test' });
    const publish = runs({ ...yaml, jobs: { publish: yaml.jobs.publish! } });
    expect(publish).toContain('*) npm publish --provenance --access public ;;');
    expect(publish).toContain('node scripts/release-notes.mjs "$TAG" > "$RUNNER_TEMP/notes.md"');
    expect(publish).toContain('gh release create "$TAG" --verify-tag');
    expect(publish).toContain('git push -f origin "refs/tags/$major"');
    // npm provenance needs the package's repository to be this GitHub repository
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { repository?: { url: string } };
    expect(pkg.repository?.url).toBe('git+https://github.com/agent-replay/agent-replay.git');
  });

  it('dependabot updates the npm installs and the actions', async () => {
    const config = parse(await readFile('.github/dependabot.yml', 'utf8')) as { version: number; updates: { 'package-ecosystem': string; directory: string }[] };
    expect(config.version).toBe(2);
    expect(config.updates.map((u) => `${u['package-ecosystem']} ${u.directory}`)).toEqual(['npm /', 'npm /test/frameworks', 'github-actions /']);
  });
});

describe('scripts/release-notes.mjs', () => {
  const temps: string[] = [];
  afterAll(async () => {
    for (const t of temps) await rm(t, { recursive: true, force: true });
  });

  async function notes(changelog: string, version: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-notes-'));
    temps.push(dir);
    await writeFile(join(dir, 'CHANGELOG.md'), changelog);
    return run(process.execPath, ['scripts/release-notes.mjs', version, join(dir, 'CHANGELOG.md')]).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  }

  const changelog = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '- not yet',
    '',
    '## [1.2.0] - 2027-01-10',
    '',
    '### Fixed',
    '',
    '- the comment',
    '',
    '## [1.1.10] - 2026-12-20',
    '',
    '- older',
    '',
    '## [1.1.1] - 2026-12-19',
    '',
    '[1.2.0]: https://github.com/agent-replay/agent-replay/compare/v1.1.10...v1.2.0',
    '',
  ].join('\n');

  // The script is started once for each way it ends (the notes printed, none: exit 1); the other
  // versions are asked of releaseNotes, whose notes it prints and whose null is its exit 1.
  it("prints the tagged version's section without its heading, from v1.2.0 or 1.2.0", async () => {
    expect(await notes(changelog, 'v1.2.0')).toEqual({ code: 0, stdout: '### Fixed\n\n- the comment\n', stderr: '' });
    expect(releaseNotes(changelog, '1.1.10')).toBe('- older');
  });

  it('fails naming the file and what to add when the version has no section, or an empty one', async () => {
    const missing = await notes(changelog, 'v1.1.1');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/CHANGELOG\.md: no notes for v1\.1\.1: add a "## \[1\.1\.1\] - YYYY-MM-DD" section/);
    expect(releaseNotes(changelog, 'v1.1.1')).toBeNull();
    expect(releaseNotes(changelog, 'v1.1')).toBeNull();
    expect(releaseNotes(changelog, 'v2.0.0')).toBeNull();
  });

  it('CHANGELOG.md and SECURITY.md are at the root, the changelog with an entry for what comes next', async () => {
    const text = await readFile('CHANGELOG.md', 'utf8');
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    // the section the next release will be tagged from: the current version's, or Unreleased until it is named
    expect(text).toMatch(new RegExp(`^## \\[(Unreleased|${pkg.version.replace(/\./g, '\\.')})\\]`, 'm'));
    expect(await readFile('SECURITY.md', 'utf8')).toContain('## Reporting a vulnerability');
  });
});
