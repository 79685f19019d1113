// The nightly recipe of docs/statistics.md ("A nightly refresh of the baselines") is a workflow
// GitHub's own parser accepts, and its run and accept command lines are ones the CLI accepts.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';
import { parseArgv } from '../../src/cli/options.js';

async function recipe(): Promise<string> {
  const doc = await readFile('docs/statistics.md', 'utf8');
  const section = doc.slice(doc.indexOf('### A nightly refresh of the baselines'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('no yaml block under "A nightly refresh of the baselines"');
  return block;
}

describe('the nightly baselines recipe', () => {
  it("passes GitHub's workflow schema, runs on a schedule and by hand, and may push a branch and open a pull request", async () => {
    const text = await recipe();
    const parsed = parseWorkflow({ name: 'nightly.yml', content: text }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const yaml = parse(text) as { on: Record<string, unknown>; permissions: Record<string, string> };
    expect(Object.keys(yaml.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(yaml.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
  });

  it('runs 10 attempts per item without gating, then accepts: command lines the CLI parses', async () => {
    const text = await recipe();
    const commands = [...text.matchAll(/run: npx agent-replay@[\d.]+ ([^\n]*)/g)].map((m) => (m[1] as string).replace('"$AGENT_URL"', 'https://agent.example.com').split(' '));
    expect(commands).toHaveLength(2);
    expect(parseArgv(commands[0] as string[])).toMatchObject({
      kind: 'command',
      command: 'run',
      values: { repeat: '10', 'fail-on': 'none', 'agent-url': 'https://agent.example.com' },
    });
    expect(parseArgv(commands[1] as string[])).toMatchObject({ kind: 'command', command: 'accept' });
  });
});
