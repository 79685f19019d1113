// The esbuild options every bundle of an entry shares: the committed dist/ (scripts/package.mjs)
// and the tests' bundles of the same entries (test/support/entry-bundles.ts), so that what the tests
// start is built as what ships.
import { fileURLToPath } from 'node:url';

/**
 * ESM for Node, bundled, dynamically imported modules split into chunks loaded when first used;
 * ASCII-only text (decoded on V8's fast path) and whitespace and syntax minified, names kept for
 * readable stack traces (docs/performance.md).
 */
export const BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  charset: 'ascii',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // Bundled CommonJS dependencies (undici, yaml) call require(): give the ESM chunks one.
  banner: { js: "import { createRequire as __arCreateRequire } from 'node:module'; const require = __arCreateRequire(import.meta.url);" },
});

const ACTIONS_UNDICI = fileURLToPath(new URL('./actions-undici.mjs', import.meta.url));

/**
 * `undici` imported by an @actions package is scripts/actions-undici.mjs: the two things those
 * packages take from it without undici's whole index (that file says why).
 */
export const actionsUndici = Object.freeze({
  name: 'actions-undici',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) => (/[\\/]node_modules[\\/]@actions[\\/]/.test(args.importer) ? { path: ACTIONS_UNDICI } : undefined));
  },
});
