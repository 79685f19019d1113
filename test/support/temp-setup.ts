// Run by vitest before each test file (vitest.config.ts, setupFiles): the folders the file's tests
// made with tempDir (test/support/temp.ts) are removed when it is done, and the record builders'
// line numbers start again at each test. With `isolate: false` a worker's files share the
// builders' counters: a test's lines depended on the tests that ran before it in that worker, and
// the counter's wrap at 400 (since removed: test/report/fixtures.ts) could put a fixture built later
// above one built earlier (a shard merge, which keeps suite order, then came out reordered in one
// full run of three).
// The child processes its hooks started end before the folders go (test/support/children.ts; those
// a test started end with it). @actions/core's job summary keeps the GITHUB_STEP_SUMMARY path it read
// on its first write (its private `_filePath`) and what was added but not written: a file that ran
// the Action in this process left the next file's summaries going to its own path, removed by then
// ("job summary not written: ENOENT", test/action/report.test.ts after fork-walk.test.ts).
import * as core from '@actions/core';
import { afterAll, beforeEach } from 'vitest';
import { endChildren } from './children.js';
import { removeTempDirs } from './temp.js';
import { resetLines } from '../report/fixtures.js';

beforeEach(resetLines);
afterAll(async () => {
  (core.summary as unknown as { _filePath?: string })._filePath = undefined;
  core.summary.emptyBuffer();
  await endChildren();
  await removeTempDirs();
});
