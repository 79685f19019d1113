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

const lazy = (file) => fileURLToPath(new URL(`./lazy/${file}`, import.meta.url));
const inUndici = (path) => new RegExp(`[\\\\/]node_modules[\\\\/]undici[\\\\/]lib[\\\\/]${path.replaceAll('/', '[\\\\/]').replaceAll('.', '\\.')}$`);

/**
 * What a start does not use, required at the top of a module it loads, taken instead from a
 * module of scripts/lazy/ that loads it on first use (each says when), for `specifier` imported by
 * a file `importer` matches: undici's HTTP/2 client (node:http2; we never ask for h2), node:zlib
 * for undici's fetch (a compressed body), and `tunnel` for @actions/http-client (an agent for a
 * proxy). And node:http wherever a module imports it (an `import`, not a require()): required
 * instead, since under Node 24 the import reads its exports that load Node's own undici.
 * docs/performance.md, "2026-12-06 (morning): what an Action start loads".
 */
export const LAZY_MODULES = Object.freeze([
  { specifier: './client-h2.js', importer: inUndici('dispatcher/client.js'), path: lazy('client-h2.cjs') },
  ...['web/fetch/index.js', 'web/fetch/util.js', 'util/runtime-features.js'].map((file) => ({ specifier: 'node:zlib', importer: inUndici(file), path: lazy('zlib.cjs') })),
  { specifier: 'tunnel', importer: /[\\/]node_modules[\\/]@actions[\\/]http-client[\\/]/, path: lazy('tunnel.cjs') },
  ...['http', 'node:http'].map((specifier) => ({ specifier, importer: /(?:)/, kind: 'import-statement', path: lazy('node-http.cjs') })),
]);

/** Resolves the imports LAZY_MODULES names to its modules of scripts/lazy/. */
export const lazyModules = Object.freeze({
  name: 'lazy-modules',
  setup(build) {
    build.onResolve({ filter: /^(\.\/client-h2\.js|node:zlib|tunnel|(node:)?http)$/ }, (args) => {
      const hit = LAZY_MODULES.find((m) => m.specifier === args.path && m.importer.test(args.importer) && (m.kind === undefined || m.kind === args.kind));
      return hit === undefined ? undefined : { path: hit.path };
    });
  },
});
