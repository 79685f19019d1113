// What every start of the CLI loads: the bundle's entry and the chunks it imports statically (a
// chunk imported with import() is loaded on first use). The words of a refused YAML file's errors
// (src/suite/yaml/syntax.ts) and the `yaml` package that places them are loaded only when a file
// is refused (docs/performance.md, "2026-12-07 (small hours)"): one static import of
// any of their functions from a module a start loads brings them all back, about 1.5% of a
// one-fixture run's instructions (it happened once: "2026-12-07 (late morning)"). Nor does it
// import node:child_process or node:worker_threads, which only git and the regex workers use.

import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

/**
 * The files a start loads: `entry`, the one module it imports once Node's version is checked
 * (src/cli.ts: `await import('./cli/process.js')`, a chunk of its own), and every chunk reached from
 * them by a static import.
 */
async function startFiles(entry: string): Promise<Map<string, string>> {
  const dir = dirname(entry);
  const out = new Map<string, string>();
  const processChunk = /\bimport\("(\.\/process-[^"]+)"\)/.exec(await readFile(entry, 'utf8'))?.[1];
  expect(processChunk, 'the entry imports the CLI once the Node version is checked').toBeDefined();
  const pending = [entry, join(dir, processChunk as string)];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (out.has(file)) continue;
    const text = await readFile(file, 'utf8');
    out.set(file, text);
    // Static imports only: `import{a as b}from"./chunk.mjs"` and `import"./chunk.mjs"`, never `import("./chunk.mjs")`.
    for (const m of text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^"'();]*?\bfrom\s*)?["'](\.\.?\/[^"']+)["']/g)) pending.push(join(dirname(file), m[1] as string));
  }
  expect(out.size, `the start files found from ${dir}`).toBeGreaterThan(2);
  return out;
}

describe("the CLI's start", () => {
  it("loads neither the refused-file analysis nor the yaml package: they come with a file that is refused", async () => {
    const files = await startFiles(inject('cliBundle'));
    const all = [...files.values()].join('\n');
    // Sanity: the reader every start uses is there, so the walk found the start's chunks.
    expect(/function readLines\(/.test(all)).toBe(true);
    // Asserted as booleans: a failure names the function, not the megabytes it was looked for in.
    for (const name of ['misplacedItemFix', 'nestedItems', 'itemLeftOfList']) expect(new RegExp(`function ${name}\\(`).test(all), `syntax.ts's ${name} on the start path`).toBe(false);
    expect(/class Composer\b/.test(all), "the yaml package's parser on the start path").toBe(false);
  });

  it("imports neither node:child_process nor node:worker_threads: git and the regex workers load them when they first run", async () => {
    const all = [...(await startFiles(inject('cliBundle'))).values()].join('\n');
    // docs/performance.md, "2026-12-07 (midday): the start's path": with the modules they load, 2%
    // of a one-fixture run's instructions, for a run that starts neither git nor a worker.
    for (const name of ['child_process', 'worker_threads']) {
      expect(new RegExp(`(?:\\bfrom|\\bimport)\\s*["'](?:node:)?${name}["']`).test(all), `node:${name} imported on the start path`).toBe(false);
    }
  });
});
