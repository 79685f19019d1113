// The Action's start loads only the parts of undici it uses. @actions/core (through
// @actions/http-client) and @actions/github import undici's index for ProxyAgent and fetch; the
// index loads all of undici and sets globalThis.Headers and its kin, which wakes Node's own copy of
// undici: 131 M instructions of a 697 M start (callgrind; docs/performance.md, "the Action bundled by
// esbuild, and its undici"). The bundles give those packages scripts/actions-undici.mjs instead.
// Read from the tests' bundle of the Action, which scripts/package.mjs builds as dist/ is
// (scripts/bundle.mjs): the modules a start loads (the entry and the chunks it imports statically).

import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

/** The text of `entry` and of every chunk it imports statically, transitively. */
async function loadedAtStart(entry: string): Promise<Map<string, string>> {
  const dir = dirname(entry);
  const seen = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    const text = await readFile(file, 'utf8');
    seen.set(file, text);
    // esbuild's static imports: `import{a as b}from"./chunk-X.mjs"` and `import"./chunk-X.mjs"`; a
    // dynamic `import("./x.mjs")` is loaded on first use, not at start.
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*"(\.\/[^"]+)"/g)) queue.push(join(dir, m[1] as string));
  }
  return seen;
}

/** esbuild writes `class X extends Y {}` as `X=class extends Y{}` when it minifies syntax. */
const definesClass = (name: string): RegExp => new RegExp(`\\b${name}=class\\b|\\bclass ${name}\\b`);

describe("the Action's start", () => {
  it("loads undici's ProxyAgent and fetch for @actions, not undici's whole index, and leaves Node's own fetch classes alone", async () => {
    const loaded = await loadedAtStart(inject('actionBundle'));
    expect(loaded.size).toBeGreaterThan(1);
    const text = [...loaded.values()].join('\n');
    const has = (pattern: RegExp): boolean => pattern.test(text);
    // What the Action uses is there: the proxy agent @actions/http-client builds, undici's fetch.
    expect({ ProxyAgent: has(definesClass('ProxyAgent')), fetch: has(/\bfetchFinale\b/) }).toEqual({ ProxyAgent: true, fetch: true });
    // Parts of undici only its index loads, and its setting of the global fetch classes.
    expect({
      MockAgent: has(definesClass('MockAgent')),
      WebSocket: has(definesClass('WebSocket')),
      EventSource: has(definesClass('EventSource')),
      'globalThis.Headers =': has(/globalThis\.Headers\s*=/),
    }).toEqual({ MockAgent: false, WebSocket: false, EventSource: false, 'globalThis.Headers =': false });
  });
});
