// The order in which vitest starts the test files (vitest.config.ts, sequence.sequencer): the slowest
// files first, so that the two workers end together, not one of them running a long file alone while
// the other is idle. Vitest's own order goes by the durations the last run wrote to
// node_modules/.vite (a fresh clone has none: the largest files first, and the slow small ones, such
// as browser-lookup.test.ts, came halfway), and a run of one file, or of one test with -t, writes its
// own short duration there: report.test.ts was recorded at 139 ms after such a run, which would
// have started it among the last files of the next full run.
//
// So the order goes by the durations of the last FULL run instead: DurationsRecorder (a reporter,
// vitest.config.ts) writes each file's time to the set-up cache (setup-cache.ts,
// test-durations.json) at the end of a run of every test file with no test name filter, and only
// then; the next run starts the files slowest first by those times, files the record does not know
// (added since) first of all, as vitest does with unknown files. Without a record (a fresh clone,
// or the cache folder removed), or with one that knows fewer than nine in ten of the files, the
// hand-kept SLOWEST_FILES come first and the others follow in vitest's order.

import { relative, sep } from 'node:path';
import { BaseSequencer, type Reporter, type TestModule, type TestRunEndReason, type TestSpecification, type Vitest } from 'vitest/node';
import { readCacheFile, writeCacheFile } from './setup-cache.js';

/**
 * The files that took about 4 s or more, slowest first (the durations of a full run, 2 cores,
 * 2026-12-08, 5,438 tests): the order when no full run has left its durations. The list only
 * orders the files: one missing from it, or a stale time, costs at most a late start.
 */
export const SLOWEST_FILES = [
  'test/action/accept.test.ts',
  'test/report/html.browser.test.ts',
  'test/dist/npx.test.ts',
  'test/report/browser-lookup.test.ts',
  'test/action/events.test.ts',
  'test/action/check.test.ts',
  'test/action/report.test.ts',
  'test/action/monorepo.test.ts',
  'test/action/accept-failures.test.ts',
  'test/e2e/traces-done-when.test.ts',
  'test/action/merge-checkout.test.ts',
  'test/traces/query.test.ts',
  'test/github/api.test.ts',
  'test/suite/hostile.test.ts',
  'test/action/suite-edits.test.ts',
  'test/action/accept-variants.test.ts',
  'test/report/render.test.ts',
  'test/cli/probe.test.ts',
  'test/lint/import-graph.test.ts',
  'test/report/latency-views.test.ts',
  'test/action/history.test.ts',
  'test/http/proxy-faults.test.ts',
  'test/cli/init.test.ts',
  'test/suite/syntax-partly.test.ts',
  'test/report/waterfall.browser.test.ts',
];

/** The set-up cache's file holding the last full run's durations: { "test/x.test.ts": ms }. */
export const DURATIONS_FILE = 'test-durations.json';

/** A file's path relative to the root, with forward slashes (the key of SLOWEST_FILES and of the record). */
function keyOf(root: string, moduleId: string): string {
  return relative(root, moduleId).split(sep).join('/');
}

/**
 * The files in the order to start them. `files` is vitest's order; `recorded` the last full run's
 * durations (null: none), else `fallback` (slowest first) ranks the files it names before the others.
 */
export function slowestFirst(files: readonly string[], recorded: Readonly<Record<string, number>> | null, fallback: readonly string[] = SLOWEST_FILES): string[] {
  // A record that knows fewer than nine in ten of the files (another suite's, or one written by a
  // run that was not a full one) would start most of them as unknown, in vitest's order: the list.
  const durations = recorded !== null && files.filter((f) => Object.hasOwn(recorded, f)).length >= 0.9 * files.length ? recorded : null;
  const rank = (file: string): number => {
    if (durations !== null) {
      const ms = Object.hasOwn(durations, file) ? durations[file] : undefined;
      // unknown to the record (a new file): first, as vitest runs unknown files first
      return typeof ms === 'number' && Number.isFinite(ms) ? -ms : Number.NEGATIVE_INFINITY;
    }
    const i = fallback.indexOf(file);
    return i === -1 ? fallback.length : i;
  };
  return files
    .map((file, i) => ({ file, i, rank: rank(file) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.file);
}

/** The last full run's durations, or null when there is none (or it cannot be read). */
export async function readDurations(): Promise<Record<string, number> | null> {
  const text = await readCacheFile(DURATIONS_FILE);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const out: Record<string, number> = {};
    for (const [file, ms] of Object.entries(value)) if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) out[file] = ms;
    return out;
  } catch {
    return null;
  }
}

/**
 * Whether a run's durations may stand for the next full run: every test file of the suite ran
 * (none left out by a file filter or a shard), no test name filter, not interrupted.
 */
export function isFullRun(run: { ran: number; suite: number; testNamePattern: unknown; shard: unknown; reason: TestRunEndReason }): boolean {
  return run.reason !== 'interrupted' && run.ran > 0 && run.ran === run.suite && run.testNamePattern === undefined && run.shard === undefined;
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const byKey = new Map(sorted.map((spec) => [keyOf(spec.project.config.root, spec.moduleId), spec]));
    return slowestFirst([...byKey.keys()], await readDurations()).map((key) => byKey.get(key)!);
  }
}

/** Writes each file's time at the end of a full run, for SlowestFirst's next order (see the top). */
export class DurationsRecorder implements Reporter {
  private vitest: Vitest | null = null;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): Promise<void> {
    const vitest = this.vitest;
    if (vitest === null) return;
    const suite = (await vitest.globTestSpecifications()).length;
    if (!isFullRun({ ran: modules.length, suite, testNamePattern: vitest.config.testNamePattern, shard: vitest.config.shard, reason })) return;
    const durations: Record<string, number> = {};
    for (const m of modules) {
      const d = m.diagnostic();
      durations[keyOf(m.project.config.root, m.moduleId)] = Math.round(d.prepareDuration + d.setupDuration + d.collectDuration + d.duration);
    }
    await writeCacheFile(DURATIONS_FILE, `${JSON.stringify(durations, null, 1)}\n`);
  }
}
