// The workflow_dispatch recipe of docs/action.md ("Calibrate the judge on demand") is a workflow
// GitHub's own parser accepts, and its command line is one the CLI's option table accepts.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parseArgv } from '../../src/cli/options.js';

async function recipe(): Promise<string> {
  const doc = await readFile('docs/action.md', 'utf8');
  const section = doc.slice(doc.indexOf('## Calibrate the judge on demand'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('no yaml block under "Calibrate the judge on demand"');
  return block;
}

describe('the calibrate workflow recipe', () => {
  it("passes GitHub's workflow schema and runs a calibrate command the CLI accepts", async () => {
    const text = await recipe();
    const parsed = parseWorkflow({ name: 'calibrate.yml', content: text }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const run = /run: npx agent-replay@[\d.]+ (calibrate [^\n]*)/.exec(text)?.[1];
    expect(run).toBeDefined();
    const argv = (run as string).replace('"$REPEAT"', '3').split(' ');
    expect(parseArgv(argv)).toMatchObject({ kind: 'command', command: 'calibrate', values: { repeat: '3', 'min-agreement': '0.8', out: 'calibration.json', markdown: 'calibration.md' } });
  });
});
