// Run by vitest before each test file (vitest.config.ts, setupFiles): the folders the file's tests
// made with tempDir (test/support/temp.ts) are removed when it is done, and the record builders'
// line numbers start again at each test. With `isolate: false` a worker's files share the
// builders' counters: a test's lines depended on the tests that ran before it in that worker, and
// the counter's wrap at 400 (since removed: test/report/fixtures.ts) could put a fixture built later
// above one built earlier (a shard merge, which keeps suite order, then came out reordered in one
// full run of three).
// The child processes its hooks started end before the folders go (test/support/children.ts; those
// a test started end with it).
import { afterAll, beforeEach } from 'vitest';
import { endChildren } from './children.js';
import { removeTempDirs } from './temp.js';
import { resetLines } from '../report/fixtures.js';

beforeEach(resetLines);
afterAll(async () => {
  await endChildren();
  await removeTempDirs();
});
