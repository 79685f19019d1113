// .ci/run runs the AI SDK 7 and Mastra framework tests a second time on the Node those releases
// declare (`ai` 7 and `@mastra/core` need Node >= 22), with AGENT_REPLAY_EXPECT_NODE set to its
// major: this file checks that the tests, and the CLI they start (support.ts runs it with
// process.execPath), really ran on it. Without the variable (npm run test:frameworks) it is skipped.

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const expected = process.env.AGENT_REPLAY_EXPECT_NODE;

describe.skipIf(expected === undefined)(`the Node major the step asked for (${expected ?? 'none'})`, () => {
  it('runs these tests and the processes they start with process.execPath', () => {
    expect(process.versions.node.split('.')[0]).toBe(expected);
    expect(execFileSync(process.execPath, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim()).toBe(expected);
  });
});
