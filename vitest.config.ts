import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowestFirst, { DurationsRecorder } from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-framework tests have their own install and config: npm run test:frameworks.
    exclude: ['**/node_modules/**', 'test/frameworks/**'],
    // A test that starts the Action three to six times takes 5-12 s on an idle 2-core machine and
    // went past 20 s in full runs beside other work (shards, merge-checkout, accept): the limit
    // catches a hang, not a slow machine.
    testTimeout: 60000,
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine,
    // idle while the Action and CLI child processes run. Two workers there halved the wall time
    // (test/action: 157 s -> 80 s measured on 2 shared cores) for the same CPU time; a worker a core
    // waits on those children still, and one more than the cores keeps them busy: npm test on an idle
    // 2-core machine 183.5 s with 2 workers, 154.2 s with 3, 161.4 s with 4 (each worker imports the
    // sources once; 2026-12-05, docs/contributing.md, "Speed").
    maxWorkers: Math.max(3, availableParallelism() + 1),
    // A worker runs its test files in one module graph instead of a fresh one per file: importing
    // the sources again for each of the 184 files took 128 s of the workers' 436 s (npm test 265 s
    // -> 147 s on 2 cores). A test file that needs a graph of its own calls vi.resetModules() and
    // imports dynamically (test/suite/yaml-package.test.ts); shared test builders reset their
    // counters (test/report/fixtures.ts resetLines).
    isolate: false,
    // With one module graph per worker, an environment variable a test stubs (vi.stubEnv) outlived
    // it into the next file of the worker: GITHUB_OUTPUT left naming a removed workspace failed an
    // in-process accept job's core.setOutput two files later. Every stub is undone after its test.
    unstubEnvs: true,
    // The entries bundled for the tests that start them as child processes; GitHub's OpenAPI
    // description trimmed for the fake GitHub server (openapi-trim.ts), both kept between runs under
    // the hash of what they are made from (setup-cache.ts); the one line saying the browser tests
    // are skipped when no browser is installed.
    // Run before each test file: the temporary folders its tests made are removed when it is done
    // (a helper's own top-level hook would run for the first file of a worker only, see above).
    setupFiles: [...(process.env.AGENT_REPLAY_TEST_CPU !== undefined ? ['test/support/cpu-record.ts'] : []), 'test/support/temp-setup.ts'],
    // The slowest files start first, by the durations of the last full run (DurationsRecorder keeps
    // them; without them, a list kept by hand), whatever a run of one file left in node_modules/.vite
    // (test/support/sequencer.ts): otherwise one worker can end the run alone on a long file.
    sequence: { sequencer: SlowestFirst },
    reporters: ['default', new DurationsRecorder()],
    // Each run transformed every source and test file again (15.7 s of CPU) and the workers imported
    // them (29.9 s); kept on disk between runs under the hash of each file, a run whose files did not
    // change transforms almost nothing (3.5 s, imports 18.3 s; 2026-12-05, 2 cores). Beside the
    // bundles' cache (setup-cache.ts), so that every checkout of the project shares it; a fresh
    // machine starts without it (docs/contributing.md, "Speed").
    experimental: { fsModuleCache: true, fsModuleCachePath: join(tmpdir(), 'agent-replay-test-cache', 'vitest-modules') },
    globalSetup: ['test/support/entry-bundles.ts', 'test/support/openapi-trim.ts', 'test/support/browser-setup.ts'],
    // @actions/workflow-parser imports its schema JSON without `with { type: 'json' }`, which Node
    // refuses; let Vite transform it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
