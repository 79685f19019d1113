// The import-graph check run by `npm run lint` (docs/architecture.md, 'The import rule'): it reads
// every import and re-export of src/ (type-only ones too) with the TypeScript compiler's
// pre-processor and fails when
//   - modules import each other in a circle (each circle is listed with its files), or
//   - a layer imports a later layer (suite -> judge -> simulator -> evaluate -> record -> report -> calibrate -> github), or
//     any layer imports a driver (replay/, engine.ts, action/, cli/, ...: they import every layer), or
//   - the CLI imports report/index.ts, which loads every renderer (it imports them on demand).
//
//   node scripts/import-graph.mjs [root]     (root: the repository, default the working directory)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

// TypeScript (one 9 MB CommonJS file) loaded with require: `import ts from 'typescript'` made Node's
// ESM loader first scan the whole file for module syntax, then lex it for its named exports, before
// running it (0.6 s of the check's 1.35 s; the check runs five times in test/lint/import-graph.test.ts).
const ts = createRequire(import.meta.url)('typescript');

/** The layers in order: a module may import its own layer and earlier ones, never a later one. */
export const LAYERS = [
  { name: 'suite', paths: ['src/suite/', 'src/config.ts'] },
  // The model clients: they read their configuration (suite) and nothing the run decides.
  { name: 'judge', paths: ['src/judge/'] },
  { name: 'simulator', paths: ['src/simulator/'] },
  { name: 'evaluate', paths: ['src/evaluate/'] },
  { name: 'record', paths: ['src/record/'] },
  { name: 'report', paths: ['src/report/'] },
  { name: 'calibrate', paths: ['src/calibrate/'] },
  { name: 'github', paths: ['src/github/'] },
];

/** The drivers: they run the layers (the replay runner, the engine, the Action, the CLI). */
export const DRIVERS = ['src/replay/', 'src/engine.ts', 'src/action/', 'src/cli/', 'src/cli.ts', 'src/main.ts', 'src/index.ts', 'src/interrupt.ts', 'src/demo/'];

const within = (file, path) => (path.endsWith('/') ? file.startsWith(path) : file === path);
const layerOf = (file) => LAYERS.findIndex((l) => l.paths.some((p) => within(file, p)));
const isDriver = (file) => DRIVERS.some((p) => within(file, p));

function sourceFiles(root, dir) {
  const out = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) out.push(...sourceFiles(root, rel));
    else if (rel.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** Every relative import of every file under src/: file -> [{ target, line }]. */
export function importGraph(root) {
  const files = sourceFiles(root, 'src');
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    // The line of an import from its offset: a full parse of each file only for this made the
    // check slow enough to time out its test on a busy machine.
    const lineAt = (pos) => {
      let line = 1;
      for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line += 1;
      return line;
    };
    const edges = [];
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = relative(root, join(root, dirname(file), ref.fileName.replace(/\.js$/, '.ts'))).split(sep).join('/');
      if (!known.has(target)) continue;
      edges.push({ target, line: lineAt(ref.pos) });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The circles: strongly connected components of more than one file (or a file importing itself). */
export function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).some((e) => e.target === v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** One import in a circle's files that closes it, to name where to cut. */
function circleEdges(graph, component) {
  const inside = new Set(component);
  return component.flatMap((f) => (graph.get(f) ?? []).filter((e) => inside.has(e.target)).map((e) => `${f}:${e.line} -> ${e.target}`));
}

/** Imports against the layer order: "file:line imports target (why)". */
export function upwardImports(graph) {
  const out = [];
  for (const [file, edges] of graph) {
    const from = layerOf(file);
    if (from === -1) continue;
    for (const { target, line } of edges) {
      const to = layerOf(target);
      if (isDriver(target)) out.push(`${file}:${line} imports ${target}, a driver (the ${LAYERS[from].name} layer may not import what runs it)`);
      else if (to > from) out.push(`${file}:${line} imports ${target} (${LAYERS[to].name} comes after ${LAYERS[from].name}: move what both need down, or pass it in)`);
    }
  }
  return out;
}

/**
 * The CLI's imports of the report's barrel: "file:line imports src/report/index.ts (...)". The barrel
 * loads every renderer; a `run` without --markdown, --junit or --html loads none of those, and the
 * CLI imports each only when asked to write it (docs/architecture.md, 'The import rule').
 */
export function cliBarrelImports(graph) {
  const out = [];
  for (const [file, edges] of graph) {
    if (!file.startsWith('src/cli/') && file !== 'src/cli.ts') continue;
    for (const { target, line } of edges) {
      if (target === 'src/report/index.ts') out.push(`${file}:${line} imports src/report/index.ts, which loads every renderer (import the report module that exports what is used)`);
    }
  }
  return out;
}

/** The problems found under root, one message each; empty when the graph is clean. */
export function check(root) {
  const graph = importGraph(root);
  const problems = [];
  for (const c of circles(graph)) {
    problems.push(`import circle of ${c.length} files: ${c.join(', ')}\n    ${circleEdges(graph, c).join('\n    ')}\n    fix: move what they share into a module that imports none of them`);
  }
  problems.push(...upwardImports(graph));
  problems.push(...cliBarrelImports(graph));
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? process.cwd();
  const problems = check(root);
  for (const p of problems) console.error(`import-graph: ${p}`);
  if (problems.length > 0) {
    console.error(`import-graph: ${problems.length} problem(s) in ${join(root, 'src')}; the rule: docs/architecture.md, 'The import rule'`);
    process.exitCode = 1;
  }
}
