// Bundles the entries into the committed dist/ (the CLI and the Action with esbuild, the mocks with ncc): dist/cli.js (the CLI, the
// package's bin) with its chunks in dist/chunks/, dist/index.js (the Action) with its chunks in dist/action-chunks/, and dist/mocks.js +
// dist/mocks.d.ts (the package's `agent-replay/mocks` export). Output is deterministic so CI can diff it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, transformSync } from 'esbuild';
import { actionsUndici, BUNDLE_OPTIONS, lazyModules } from './bundle.mjs';

const entries = [
  // The CLI is bundled by esbuild, not ncc: one ESM file whose modules are hoisted into one scope, started
  // in about two thirds of the time of ncc's (webpack's module wrappers and its handling of the entry's
  // top-level await), docs/performance.md "2026-12-02 (morning): the cold start".
  // Both with what a start does not use loaded on first use (scripts/lazy/): docs/performance.md,
  // "2026-12-06 (morning): what an Action start loads".
  { src: 'src/cli.ts', out: 'cli.js', shebang: true, esbuild: true, chunks: 'chunks', plugins: [lazyModules] },
  // The Action too, since 2026-12-05 (late evening): as the tests' bundles of it are made (the same
  // options, scripts/bundle.mjs), and with @actions' undici bound to the two modules they use
  // (scripts/actions-undici.mjs): docs/performance.md, "The Action's undici".
  { src: 'src/index.ts', out: 'index.js', shebang: false, esbuild: true, chunks: 'action-chunks', plugins: [actionsUndici, lazyModules] },
  { src: 'src/mocks/index.ts', out: 'mocks.js', shebang: false },
];
const only = process.argv.slice(2);
rmSync('build/ncc', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
// ncc's chunks of the Action, from before it was bundled by esbuild, go when it is rebuilt.
if (only.length === 0 || only.includes('index.js')) {
  for (const f of readdirSync('dist', { withFileTypes: true })) if (/^\d+\.index\.js$/.test(f.name)) rmSync(join('dist', f.name));
}
for (const entry of entries) {
  if (only.length > 0 && !only.includes(entry.out)) continue;
  if (entry.esbuild) {
    const result = await build({
      ...BUNDLE_OPTIONS,
      entryPoints: [entry.src],
      target: 'node20',
      write: false,
      outdir: 'dist',
      entryNames: entry.out.replace(/\.js$/, ''),
      // Code splitting: what a module imports dynamically (the span sources with protobufjs, the
      // `yaml` package for placing a problem, the artifact client) is a chunk loaded only when used,
      // not compiled at every start (docs/performance.md, "2026-12-02 (late morning): the cold start again").
      chunkNames: `${entry.chunks}/[name]-[hash]`,
      plugins: entry.plugins ?? [],
      logLevel: 'warning',
    });
    const main = join(process.cwd(), 'dist', entry.out);
    if (!result.outputFiles.some((f) => f.path === main)) throw new Error(`${entry.src}: esbuild wrote no ${main}`);
    rmSync(join('dist', entry.chunks), { recursive: true, force: true });
    for (const file of result.outputFiles) {
      let code = file.text.replace(/^#!.*\n/, '');
      const isMain = file.path === main;
      if (isMain && entry.shebang) code = `#!/usr/bin/env node\n${code}`;
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, code);
      if (isMain && entry.shebang) chmodSync(file.path, 0o755);
      console.log(`${relative(process.cwd(), file.path)}: ${(code.length / 1024).toFixed(0)} KiB`);
    }
    continue;
  }
  const outDir = join('build/ncc', entry.out.replace('.js', ''));
  execFileSync(process.execPath, ['node_modules/@vercel/ncc/dist/ncc/cli.js', 'build', entry.src, '-o', outDir, '--target', 'es2022', '-q'], {
    stdio: 'inherit',
  });
  const files = readdirSync(outDir);
  const extra = files.filter((f) => !['index.js', 'package.json'].includes(f));
  if (extra.length > 0) throw new Error(`ncc emitted files we do not ship: ${extra.join(', ')}; bundle them or inline them`);
  let code = readFileSync(join(outDir, 'index.js'), 'utf8');
  // ncc's asset relocator rewrites some path expressions into paths inside dist/: never wanted here.
  if (code.includes('__nccwpck_require__.ab +')) throw new Error(`${entry.src}: ncc rewrote a path expression into an asset path; build that path without path.resolve/join of a literal`);
  code = code.replace(/^#!.*\n/, '');
  // Start-up cost is parse + UTF-8 decode of the bundle: ASCII-only text decodes on the fast path,
  // and whitespace/syntax minification (names kept, for readable stack traces) parses faster.
  code = transformSync(code, { format: 'esm', charset: 'ascii', minifyWhitespace: true, minifySyntax: true, target: 'es2022', legalComments: 'none' }).code;
  if (entry.shebang) code = `#!/usr/bin/env node\n${code}`;
  writeFileSync(join('dist', entry.out), code);
  if (entry.shebang) chmodSync(join('dist', entry.out), 0o755);
  console.log(`dist/${entry.out}: ${(code.length / 1024).toFixed(0)} KiB`);
}
// The declarations of agent-replay/mocks: one self-contained file (its public types are its own).
if (only.length === 0 || only.includes('mocks.js')) {
  const typesDir = 'build/mocks-types';
  rmSync(typesDir, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', 'src/mocks/index.ts', '--declaration', '--emitDeclarationOnly', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--rootDir', 'src', '--outDir', typesDir],
    { stdio: 'inherit' },
  );
  const dts = readFileSync(join(typesDir, 'mocks', 'index.d.ts'), 'utf8');
  if (/^\s*import\b/m.test(dts) || /from '\./.test(dts)) throw new Error('dist/mocks.d.ts must not import other files: give src/mocks/index.ts its own public types');
  writeFileSync(join('dist', 'mocks.d.ts'), dts);
  console.log('dist/mocks.d.ts');
}
