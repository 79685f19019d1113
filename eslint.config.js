import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// What the pure layers may not import: modules with side effects ...
const SIDE_EFFECTS = ['node:*', '!node:crypto', 'fs', 'path', 'undici', '@actions/*', '../agent/*', '../judge/*', '../http/*', '../simulator/*', '../fs-safe.js', '../github/*'];
// ... and the drivers, which import every layer.
const DRIVERS = ['../replay/*', '../action/*', '../cli/*', '../cli.js', '../engine.js', '../main.js', '../index.js', '../interrupt.js', '../demo/*'];

const EXIT_RULE = {
  selector: "CallExpression[callee.object.name='process'][callee.property.name='exit']",
  message: "Only the entries may exit the process: the CLI's src/cli/process.ts, and the Action's src/index.ts on an error nothing caught.",
};
// Every message uses the straight apostrophe ('), never the curly one (U+2019, U+2018), written
// as itself or as an escape. A pattern that reads a reply's curly quotes (a regex literal) may.
const CURLY_QUOTE = '[Uu]201[89]|\u2018|\u2019';
const CURLY_MESSAGE = "A message uses the straight apostrophe ' (\"the agent's\"), as every other message does: not the curly one (U+2019).";
const SRC_SYNTAX = [
  EXIT_RULE,
  { selector: `Literal[raw=/${CURLY_QUOTE}/]:not([regex])`, message: CURLY_MESSAGE },
  { selector: `TemplateElement[value.raw=/${CURLY_QUOTE}/]`, message: CURLY_MESSAGE },
  { selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']", message: "import * as z from 'zod' (docs/performance.md): a named z import keeps all of zod in the bundle." },
];
const UNGUARDED_LOG = [
  { selector: "CallExpression[callee.object.name='core'][callee.property.name='info']", message: 'Log with info() of src/action/log.ts: core.info writes its text raw, and a line of it could be a workflow command.' },
  {
    selector: "CallExpression[callee.object.name='core'][callee.property.name=/^(warning|error|notice|setFailed)$/]",
    message: 'Annotate with warning(), error(), notice() or failed() of src/action/log.ts: @actions/core escapes only %, \\r and \\n of the text, and a control character of outside text would reach the log.',
  },
  { selector: "CallExpression[callee.object.name='console']", message: 'No console in src/: the CLI writes through its guarded writers, the Action through src/action/log.ts (a line of outside text could be a workflow command).' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        EXIT_RULE,
      ],
    },
  },
  // What ships (src/): zod as a namespace, since through the named z export the bundle keeps all of
  // zod, its error locales included (docs/performance.md). Test apps under test/frameworks mirror
  // users' code and import it as users do.
  //
  // What is written to a GitHub Actions log goes through the workflow-command guard
  // (src/workflow-commands.ts; docs/security.md, "Agent text is data"): the Action's plain lines
  // through src/action/log.ts, the CLI's through its writers; core.info and console write a line
  // of outside text as it is, and the runner would run it as a workflow command.
  //
  // Node's global fetch classes are its own copy of undici, loaded on their first use (25-50 ms of
  // CPU); the HTTP code uses undici's modules, which it loads anyway (docs/performance.md, "The
  // Action's undici").
  {
    files: ['src/**'],
    rules: {
      'no-restricted-syntax': ['error', ...SRC_SYNTAX, ...UNGUARDED_LOG],
      'no-restricted-globals': [
        'error',
        ...['Response', 'Headers', 'Request', 'FormData'].map((name) => ({
          name,
          message: `Node's global ${name} loads Node's own copy of undici on first use: import it from undici's module (src/github/octokit.ts does).`,
        })),
      ],
    },
  },
  { files: ['src/action/log.ts', 'src/github/octokit.ts'], rules: { 'no-restricted-syntax': ['error', ...SRC_SYNTAX] } },
  { files: ['src/index.ts'], rules: { 'no-restricted-syntax': ['error', ...SRC_SYNTAX.filter((r) => r !== EXIT_RULE), ...UNGUARDED_LOG] } },
  // The import rule (docs/architecture.md, 'The import rule'): evaluate/ and report/ import nothing
  // with side effects (node:crypto's hash has none) and nothing of a later layer or a driver.
  // scripts/import-graph.mjs checks the same order for every layer, and that src/ has no circle.
  {
    files: ['src/evaluate/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...SIDE_EFFECTS, ...DRIVERS, '../record/*', '../report/*'] }],
    },
  },
  {
    files: ['src/report/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...SIDE_EFFECTS, ...DRIVERS] }],
    },
  },
  { files: ['src/cli/process.ts', 'bench/**', 'scripts/**'], rules: { 'no-restricted-syntax': 'off' } },
  // The bundles' modules loaded on first use (scripts/bundle.mjs, lazyModules): CommonJS, whose
  // require() inside a function esbuild bundles without running it at start.
  { files: ['scripts/lazy/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
