// Shards (docs/action.md, "Shards: one suite over a CI matrix") in the Action: a `shard` check run
// replays its part, takes timings from the last successful default-branch run's artifacts, never
// comments and uploads under its own artifact name; report mode merging shards with one missing
// says so and fails unless allow-incomplete. The Action runs as a child process against the fake
// GitHub (every REST request checked against GitHub's OpenAPI description).

import { describe, expect, it } from 'vitest';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FakeGitHub } from '../support/github-server.js';
import { nativeEcho, type AgentServer } from '../support/agent-server.js';
import { artifactZip } from '../support/zip.js';
import { HEAD, makeWorkspace, pullPayload, runAction, runActionHere, useServers, type ActionRun } from './harness.js';
import { parseRecord } from '../../src/record/index.js';
import { fixture, run as record } from '../report/fixtures.js';
import type { RunRecord } from '../../src/types.js';
import type { ArtifactInfo } from '../../src/github/api.js';
import { isShardArtifact, resultsArtifact } from '../../src/action/history.js';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  nativeEcho,
  (g) => g.addPull('octo', 'shop', { number: 7, headSha: HEAD }),
  (a, g) => {
    agent = a;
    gh = g;
  },
);

const LABELS = Array.from({ length: 8 }, (_, i) => `item-${i}`);
const FIXTURES = `fixtures:\n${LABELS.map((l) => `  - { label: ${l}, message: ${l}, assert: { contains: ${l} } }`).join('\n')}\n`;
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';
const WORKFLOW_REF = 'octo/shop/.github/workflows/agent-replay.yml@refs/pull/7/merge';
const payload = { ...pullPayload(), repository: { default_branch: 'main' } };

function recordOf(r: ActionRun): RunRecord {
  return parseRecord(readFileSync(r.outputs['results-path'] as string, 'utf8'), 'results');
}

/**
 * A shard's check job. Shard 1/2 of the first test is started end to end; the other runs of this
 * file are the Action's run in this process (runActionHere; the report mode's merge is started in
 * test/action/report.test.ts: docs/contributing.md, "One Action start per path").
 */
async function shardCheck(workspace: string, shard: string, env: Record<string, string> = {}): Promise<ActionRun> {
  return (shard === '1/2' ? runAction : runActionHere)({ gh, workspace, inputs: { 'agent-url': agent.url, shard }, event: { name: 'pull_request', payload }, env: { GITHUB_WORKFLOW_REF: WORKFLOW_REF, ...env } });
}

/** A successful push run of main whose two shard artifacts record each item's duration. */
async function pushRunWithShards(id: number, durations: Record<string, number>): Promise<void> {
  const sha = 'a'.repeat(40);
  gh.addWorkflowRun('octo', 'shop', { id, headSha: sha, event: 'push', branch: 'main', workflow: 'agent-replay.yml', conclusion: 'success' });
  const labels = Object.keys(durations);
  const halves = [labels.slice(0, labels.length / 2), labels.slice(labels.length / 2)];
  for (const [i, half] of halves.entries()) {
    const rec = record(half.map((l) => fixture(l, { durationMs: durations[l] as number })), { commit: sha, shard: { index: i + 1, total: 2, suiteHash: 'x' } });
    gh.addArtifact('octo', 'shop', id, { name: `agent-replay-results-${sha}-shard-${i + 1}-of-2`, zip: await artifactZip([{ name: 'results.json', data: JSON.stringify(rec) }]) });
  }
}

/**
 * Shard records of the suite chosen by a hash of each label (no timings), by shard ("2/3"): the
 * check test below that makes two of them keeps them for the report test, which makes only the
 * missing one (docs/contributing.md, "Speed").
 */
const hashShardResults = new Map<string, string>();

describe('check mode with the shard input', () => {
  it('replays its shard balanced by the default branch timings, posts no comment, uploads under the shard name', async () => {
    // One slow item: balanced by time, it is alone in its shard.
    await pushRunWithShards(501, Object.fromEntries(LABELS.map((l, i) => [l, i === 3 ? 5000 : 100])));
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    const runs: ActionRun[] = [];
    const recs: RunRecord[] = [];
    for (const shard of ['1/2', '2/2']) {
      const r = await shardCheck(workspace, shard);
      runs.push(r);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('timings: 8 durations from run 501 of the default branch');
      expect(r.stdout).toMatch(/shard [12]\/2: \d of 8 items \(balanced by the durations of a previous run\)/);
      expect(r.stdout).toContain('no pull request comment from this job; the merge job (mode: report) posts it');
      recs.push(recordOf(r));
    }
    expect(runs[0]?.outputs['artifact-name']).toBe(`agent-replay-results-${HEAD}-shard-1-of-2`);
    expect(runs[1]?.outputs['artifact-name']).toBe(`agent-replay-results-${HEAD}-shard-2-of-2`);
    expect(runs[0]?.outputs['comment-status']).toBe('skipped');
    // The longest item alone in shard 1; the 7 others in shard 2.
    expect(recs[0]?.fixtures.map((f) => f.label)).toEqual(['item-3']);
    expect(recs[1]?.fixtures).toHaveLength(7);
    expect(recs.map((r) => r.shard?.index)).toEqual([1, 2]);
    expect(recs[0]?.shard?.suiteHash).toBe(recs[1]?.shard?.suiteHash);
    expect(runs[0]?.summary).toContain('**Shard 1/2** of the suite: this run replayed only its part.');
    // report.html of the last job (both wrote to the same workspace).
    expect(readFileSync(join(dirname(runs[1]?.outputs['results-path'] as string), 'report.html'), 'utf8')).toContain('Shard 2/2 of the suite: this run replayed only its part');
    // The workflow's runs are listed once per shard, for the timings: a shard has no trend of its own.
    expect(gh.requests.filter((q) => q.operation === 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs')).toHaveLength(2);
    expect(runs[0]?.summary).not.toContain('Agreement on');
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(0);
    expect(gh.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('without a recorded default-branch run it goes by the label hash and says so; the job does not fail', async () => {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    const r = await shardCheck(workspace, '2/3');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('timings: no readable results in the last successful main runs of agent-replay.yml; shards are chosen by a hash of each label');
    expect(r.stdout).toMatch(/shard 2\/3: \d of 8 items \(chosen by a hash of each label\)/);
    // Read before the next run writes the same workspace's results.json.
    hashShardResults.set('2/3', readFileSync(r.outputs['results-path'] as string, 'utf8'));
    const failed = await shardCheck(workspace, '1/3', { GITHUB_WORKFLOW_REF: '' });
    expect(failed.code).toBe(0);
    expect(failed.stdout).toContain('timings: none (the workflow file is unknown: GITHUB_WORKFLOW_REF is not set)');
    hashShardResults.set('1/3', readFileSync(failed.outputs['results-path'] as string, 'utf8'));
  });

  // A bad shard input ("5/4") fails the step quoting it: readInputs (test/action/inputs.test.ts), as every bad input (test/action/check.test.ts).
  it('the timings input names a results file', async () => {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    // A folder whose name holds a line break: the log line names it on that line.
    await mkdir(join(workspace, 'prev\nx'), { recursive: true });
    const durations = record(LABELS.map((l, i) => fixture(l, { durationMs: i === 5 ? 9000 : 10 })));
    await writeFile(join(workspace, 'prev\nx', 'results.json'), JSON.stringify(durations));
    const r = await runActionHere({ gh, workspace, inputs: { 'agent-url': agent.url, shard: '1/2', timings: 'prev\nx/results.json' }, event: { name: 'pull_request', payload } });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('timings: 8 durations from prev ⏎ x/results.json\n');
    expect(recordOf(r).fixtures.map((f) => f.label)).toEqual(['item-5']);
    expect(agent.requests.length).toBeGreaterThan(0);
  });
});

describe('report mode with shards', () => {
  async function threeShards(): Promise<string> {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    await mkdir(join(workspace, 'shards'), { recursive: true });
    for (const i of [1, 2, 3]) {
      const made = hashShardResults.get(`${i}/3`);
      if (made !== undefined) {
        await writeFile(join(workspace, 'shards', `shard-${i}.json`), made);
        continue;
      }
      const r = await runActionHere({ gh, workspace, inputs: { 'agent-url': agent.url, shard: `${i}/3` }, event: { name: 'pull_request', payload: pullPayload() } });
      expect(r.code, r.stdout).toBe(0);
      await copyFile(r.outputs['results-path'] as string, join(workspace, 'shards', `shard-${i}.json`));
    }
    return workspace;
  }

  it('all shards: one comment with every item; a missing shard: "incomplete" under the headline and the job fails, unless allow-incomplete', async () => {
    const workspace = await threeShards();
    const event = { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1001, head_sha: HEAD, pull_requests: [{ number: 7 }] } } };
    const all = await runActionHere({ gh, workspace, inputs: { mode: 'report', results: 'shards/*.json' }, event });
    expect(all.code, all.stdout).toBe(0);
    expect(recordOf(all).fixtures.map((f) => f.label).sort()).toEqual(LABELS);
    expect(gh.comments('octo', 'shop', 7)[0]?.body).not.toContain('incomplete');

    const gone = parseRecord(readFileSync(join(workspace, 'shards', 'shard-2.json'), 'utf8'), 'shard-2').fixtures.map((f) => f.label);
    await rm(join(workspace, 'shards', 'shard-2.json'));
    const part = await runActionHere({ gh, workspace, inputs: { mode: 'report', results: 'shards' }, event });
    expect(part.code).toBe(1);
    expect(part.stdout).toContain('::warning::report: incomplete: shard 2/3 missing');
    expect(part.stdout).toContain('::error::agent-replay gate failed: incomplete: shard 2/3 missing');
    expect(part.outputs.gate).toBe('failed');
    const body = gh.comments('octo', 'shop', 7)[0]?.body ?? '';
    const lines = body.split('\n');
    const head = lines.findIndex((l) => l.startsWith('### '));
    expect(lines.slice(head + 1, head + 4).join('\n')).toContain('**incomplete: shard 2/3 missing.**');
    for (const label of gone) expect(body).not.toContain(label);
    expect(part.summary).toContain('**incomplete: shard 2/3 missing.**');

    const allowed = await runActionHere({ gh, workspace, inputs: { mode: 'report', results: 'shards', 'allow-incomplete': 'true' }, event });
    expect(allowed.code, allowed.stdout).toBe(0);
    expect(allowed.stdout).toContain('(allow-incomplete: true, so the gate ignores it)');
    expect(allowed.outputs.gate).toBe('passed');
    expect(gh.violations).toEqual([]);
  });
});

describe('which artifact of a run holds its results', () => {
  const a = (id: number, name: string, expired = false): ArtifactInfo => ({ id, name, expired, sizeInBytes: 1 });

  it('the whole run (a check of the whole suite or the merge of its shards) before any shard, newest first', () => {
    const sha = 'c'.repeat(40);
    const shards = [a(1, `agent-replay-results-${sha}-shard-1-of-2`), a(2, `agent-replay-results-${sha}-shard-2-of-2`), a(5, `agent-replay-results-${sha}-shard-2-of-2-attempt-2`)];
    expect(resultsArtifact([...shards, a(3, `agent-replay-results-${sha}`), a(4, 'other')])?.id).toBe(3);
    expect(resultsArtifact([...shards, a(3, `agent-replay-results-${sha}`, true)])?.id).toBe(5);
    expect(isShardArtifact(`agent-replay-results-${sha}-shard-2-of-2-attempt-2`)).toBe(true);
    expect(isShardArtifact(`agent-replay-results-${sha}-attempt-2`)).toBe(false);
  });
});
