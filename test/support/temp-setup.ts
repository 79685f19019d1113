// Run by vitest before each test file (vitest.config.ts, setupFiles): the folders the file's tests
// made with tempDir (test/support/temp.ts) are removed when it is done.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);
