// Opt-in (AGENT_REPLAY_TEST_CPU=<file>, vitest.config.ts's setupFiles): one JSON line per test file
// appended to <file>: the CPU of its worker and of the worker's children while the file ran (read
// from /proc/self/stat, Linux only), and the child processes it started: the Action's and the CLI's
// bundles, git, the rest. docs/contributing.md, "Speed".
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';

const out = process.env.AGENT_REPLAY_TEST_CPU;

/** utime, stime, cutime, cstime of this process in seconds. */
function cpu(): number[] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].map((i) => Number(fields[i]) / 100);
}

// The setup file runs again for each test file of a worker (isolate: false): child_process is patched once.
const shared = globalThis as { agentReplayStarts?: Map<string, number> };
const counts = (shared.agentReplayStarts ??= new Map<string, number>());
if (out !== undefined && !('patched' in counts)) {
  Object.defineProperty(counts, 'patched', { value: true });
  const cp = createRequire(import.meta.url)('node:child_process') as Record<string, (...args: unknown[]) => unknown>;
  const kind = (file: unknown, args: unknown): string => {
    const words = [String(file), ...(Array.isArray(args) ? args.map(String) : [])];
    if (words.some((w) => w.endsWith('action.mjs'))) return 'action';
    if (words.some((w) => w.endsWith('cli.mjs'))) return 'cli';
    const name = String(file).split('/').pop() ?? '';
    return name === 'git' || /^git\s/.test(String(file)) ? 'git' : name === process.execPath.split('/').pop() ? 'node' : 'other';
  };
  const count = (name: string, args: unknown[]): void => {
    const k = name === 'fork' ? 'node' : kind(args[0], args[1]);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  };
  for (const name of ['spawn', 'execFile', 'exec', 'spawnSync', 'execFileSync', 'execSync', 'fork']) {
    const original = cp[name] as (...args: unknown[]) => unknown;
    const counted = function (this: unknown, ...args: unknown[]) {
      count(name, args);
      return original.apply(this, args);
    };
    // util.promisify(execFile) (and exec) is the original's promisify.custom, which starts the
    // child through child_process's own execFile, not the export patched here: it is kept, for
    // its { stdout, stderr }, and counted too.
    const { [promisify.custom]: customDescriptor, ...descriptors } = Object.getOwnPropertyDescriptors(original) as PropertyDescriptorMap & { [promisify.custom]?: PropertyDescriptor };
    Object.defineProperties(counted, descriptors);
    const custom = customDescriptor?.value as ((...args: unknown[]) => unknown) | undefined;
    if (custom !== undefined) {
      Object.defineProperty(counted, promisify.custom, {
        ...customDescriptor,
        value: function (this: unknown, ...args: unknown[]) {
          count(name, args);
          return custom.apply(this, args);
        },
      });
    }
    cp[name] = counted;
  }
  syncBuiltinESMExports();
}

let start: number[] = [];
let started = 0;
beforeAll(() => {
  counts.clear();
  start = cpu();
  started = performance.now();
});
afterAll(() => {
  if (out === undefined) return;
  const now = cpu();
  const d = now.map((v, i) => Math.round((v - (start[i] ?? 0)) * 100) / 100);
  const file = relative(process.cwd(), expect.getState().testPath ?? '');
  appendFileSync(out, JSON.stringify({ file, user: d[0], system: d[1], childUser: d[2], childSystem: d[3], wall: Math.round(performance.now() - started) / 1000, starts: Object.fromEntries(counts) }) + '\n');
});
