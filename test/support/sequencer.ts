// The order in which vitest starts the test files (vitest.config.ts, sequence.sequencer): the slowest
// files first, so that the two workers end together, not one of them running a long file alone while
// the other is idle. Vitest's own order goes by the durations the last run wrote to
// node_modules/.vite (a fresh clone has none: the largest files first, and the slow small ones, such
// as browser-lookup.test.ts, came halfway), and a run of one file, or of one test with -t, writes its
// own short duration there: report.test.ts was recorded at 139 ms after such a run, which would
// have started it among the last files of the next full run. The files below come first in this
// order; the others follow in vitest's.

import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took about 4 s or more, slowest first (`npx vitest run --reporter=json`, 2 cores,
 * 2026-12-05). The list only orders the files: one missing from it, or a stale time, costs at most
 * a late start.
 */
export const SLOWEST_FILES = [
  'test/action/accept.test.ts',
  'test/action/check.test.ts',
  'test/report/html.browser.test.ts',
  'test/action/accept-failures.test.ts',
  'test/action/events.test.ts',
  'test/report/browser-lookup.test.ts',
  'test/dist/npx.test.ts',
  'test/action/report.test.ts',
  'test/report/render.test.ts',
  'test/action/history.test.ts',
  'test/action/merge-checkout.test.ts',
  'test/action/shards.test.ts',
  'test/lint/import-graph.test.ts',
  'test/action/accept-variants.test.ts',
  'test/cli/probe.test.ts',
  'test/e2e/traces-done-when.test.ts',
  'test/cli/init.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const i = SLOWEST_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).split(sep).join('/'));
      return i === -1 ? SLOWEST_FILES.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.spec);
  }
}
