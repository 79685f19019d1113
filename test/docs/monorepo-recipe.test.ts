// The two workflows of docs/action.md, "Two suites in one repository", are workflows GitHub's own
// parser accepts, with one agent-replay step per suite: the check's and the accept's name the same
// folders, each step its own, and the second runs after a failed first. The shards recipe's merge
// job downloads its own suite's shards by name, not another suite's that report mode would skip.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';
import { artifactNameFor } from '../../src/action/context.js';

interface Step {
  uses?: string;
  if?: string;
  with?: Record<string, string>;
}
type Workflow = { jobs: Record<string, { steps: Step[] }> };

async function recipes(heading = '## Two suites in one repository'): Promise<string[]> {
  const doc = await readFile('docs/action.md', 'utf8');
  const start = doc.indexOf(heading);
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

const ours = (w: Workflow): Step[] => Object.values(w.jobs).flatMap((j) => j.steps).filter((s) => s.uses?.startsWith('agent-replay/agent-replay@'));

describe('the monorepo recipe', () => {
  it("passes GitHub's workflow schema: a check step and an accept step per suite, the second after a failed first", async () => {
    const [check, accept] = await recipes();
    expect(accept).toBeDefined();
    for (const [name, text] of [['agent-replay.yml', check], ['agent-replay-accept.yml', accept]] as const) {
      const parsed = parseWorkflow({ name, content: text as string }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message), name).toEqual([]);
    }
    const checks = ours(parse(check as string) as Workflow);
    const accepts = ours(parse(accept as string) as Workflow);
    const dirs = checks.map((s) => s.with?.dir);
    expect(dirs).toEqual(['apps/support/.agent-replay', 'apps/sales/.agent-replay']);
    expect(accepts.map((s) => s.with?.dir)).toEqual(dirs);
    expect(accepts.map((s) => s.with?.mode)).toEqual(['accept', 'accept']);
    for (const steps of [checks, accepts]) expect(steps[1]?.if).toBe('${{ !cancelled() }}');
    // The accept steps find the check workflow's comments: its name is their comment-key.
    expect(new Set(accepts.map((s) => s.with?.['comment-key']))).toEqual(new Set([(parse(check as string) as { name: string }).name]));
  });
});

describe('the shards recipe', () => {
  it("downloads its own suite's shards of the run's commit only, by name: not another suite's, nor a merged record", async () => {
    const [workflow] = await recipes('## Shards: one suite over a CI matrix');
    const steps = Object.values((parse(workflow as string) as Workflow).jobs).flatMap((j) => j.steps);
    const pattern = steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))?.with?.pattern ?? '';
    const sha = 'a'.repeat(40);
    // The expression stands for the commit the shards recorded; download-artifact's `*` is any characters but /.
    const re = new RegExp(`^${pattern.replace(/\$\{\{[^}]*\}\}/g, sha).replace(/[.-]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    for (const name of [artifactNameFor(sha, 1, { index: 1, total: 4 }), artifactNameFor(sha, 2, { index: 4, total: 4 })]) expect(re.test(name), name).toBe(true);
    const others = [
      artifactNameFor(sha, 1, { index: 1, total: 2 }, 'apps/sales/.agent-replay'),
      artifactNameFor(sha, 1),
      artifactNameFor('b'.repeat(40), 1, { index: 1, total: 4 }),
    ];
    for (const name of others) expect(re.test(name), name).toBe(false);
  });
});
