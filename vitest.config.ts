import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-framework tests have their own install and config: npm run test:frameworks.
    exclude: ['**/node_modules/**', 'test/frameworks/**'],
    testTimeout: 20000,
    hookTimeout: 20000,
    pool: 'forks',
    // @actions/workflow-parser imports its schema JSON without `with { type: 'json' }`, which Node
    // refuses; let Vite transform it.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
