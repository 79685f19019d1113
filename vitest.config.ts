import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
    pool: 'forks',
    // The entries bundled once per run for the tests that start them as child processes.
    globalSetup: ['test/support/entry-bundles.ts'],
    // @actions/workflow-parser imports its schema JSON without `with { type: 'json' }`, which Node
    // refuses; let Vite transform it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
