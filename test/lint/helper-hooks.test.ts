// A test helper module (a .ts file under test/ that is not a test file) must not register a vitest
// hook at its top level: the workers run their files in one module graph (vitest.config.ts,
// `isolate: false`), so such a hook is registered for the first file of a worker that imports the
// helper and for no other. Removing the helpers' temporary folders that way left about 350 folders
// in the system's temporary folder each run. Hooks belong in a function a test file calls (test/cli/helpers.ts's
// useCleanup) or in a setup file (test/support/temp-setup.ts).

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// The set-up files vitest.config.ts names (cpu-record.ts only with AGENT_REPLAY_TEST_CPU set): run for every test file.
const SETUP_FILES = new Set(['test/support/temp-setup.ts', 'test/support/cpu-record.ts']);

function helperModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'frameworks' ? [] : helperModules(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [relative(ROOT, full)] : [];
  });
}

describe('test helpers', () => {
  it('register no vitest hook at their top level (it would run for one test file of a worker only)', () => {
    const helpers = helperModules(join(ROOT, 'test'));
    expect(helpers).toContain('test/suite/helpers.ts');
    const offending = helpers
      .filter((file) => !SETUP_FILES.has(file))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/^(?:afterAll|afterEach|beforeAll|beforeEach)\(/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offending).toEqual([]);
  });
});
