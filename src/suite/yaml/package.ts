// The `yaml` package, imported on first need (docs/performance.md, "2026-12-02 (late morning): the
// cold start again"): it places problems in a file and words syntax errors (docs/architecture.md,
// "Reading YAML"), which a valid suite never asks for, so a run does not compile it at start
// (in dist/ it is a chunk of its own). Reading is synchronous; placing a problem is the one thing
// that needs the package: a reading that needs it before it is loaded throws YamlNotLoaded, and
// `withYamlPackage` loads it and reads again. What else only such a reading runs is loaded with it
// (`loadWithPackage`: read.ts's words of a refused file's syntax errors).

import type * as Yaml from 'yaml';

let loaded: typeof Yaml | null = null;
const companions: (() => Promise<void>)[] = [];
/** How many of `companions` have run (one added after the package was loaded runs at the next need). */
let ran = 0;

/** Has `load` run with the package's import, on the same first need (before any reading retried). */
export function loadWithPackage(load: () => Promise<void>): void {
  companions.push(load);
}

/** The package and every companion loaded. */
function ready(): boolean {
  return loaded !== null && ran === companions.length;
}

/** Thrown by a reading that needed the `yaml` package before it was loaded; `withYamlPackage` catches it. */
export class YamlNotLoaded extends Error {
  override name = 'YamlNotLoaded';
  constructor() {
    super('the `yaml` package is not loaded yet: read through withYamlPackage(), or await loadYamlPackage() first');
  }
}

/** Imports the `yaml` package (once), with its companions. */
export async function loadYamlPackage(): Promise<typeof Yaml> {
  if (!ready()) {
    const upTo = companions.length;
    const [mod] = await Promise.all([import('yaml') as Promise<typeof Yaml & { default?: typeof Yaml }>, ...companions.slice(ran, upTo).map((load) => load())]);
    // Under Node's loader the names are on the namespace; bundled (esbuild's chunk of the package's
    // CommonJS build, dist/chunks/) only on its default export.
    loaded = typeof mod.parseDocument === 'function' ? mod : mod.default ?? mod;
    ran = Math.max(ran, upTo);
  }
  return loaded as typeof Yaml;
}


/** The `yaml` package; throws YamlNotLoaded when it is not loaded yet. */
export function yamlPackage(): typeof Yaml {
  if (loaded === null) throw new YamlNotLoaded();
  return loaded;
}

/**
 * Runs `read`; when it needed the `yaml` package before it was loaded (a problem to place, a value
 * to quote as written), loads the package and runs `read` again from the start. `read` must have
 * no effect but its result (the suite loader reads files and returns what it found).
 */
export async function withYamlPackage<T>(read: () => T | Promise<T>): Promise<T> {
  if (ready()) return read();
  try {
    return await read();
  } catch (e) {
    if (!(e instanceof YamlNotLoaded)) throw e;
  }
  await loadYamlPackage();
  return read();
}
