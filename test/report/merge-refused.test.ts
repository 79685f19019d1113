// The comment of a refused merge in report mode (docs/action.md, "Shards: one suite over a CI
// matrix"): its fix is said of the records given, shards or a check's runs.

import { describe, expect, it } from 'vitest';
import { renderMergeRefused } from '../../src/report/merge-refused.js';
import { ctx } from './fixtures.js';

const reason = 'shards were recorded at different commits: ...';

describe('renderMergeRefused', () => {
  it("says \"every shard\" and \"each shard's artifact\" only of shards; a fork's single run is the run, in its artifact", () => {
    // Was: "each shard's results are still in its own artifact" also of a fork's workflow_run report of one run, which has no shards.
    expect(renderMergeRefused(reason, ctx, { shards: true, files: 4 })).toContain(
      "Fix what it names, then run the check again (every shard, then this report): each shard's results are still in its own artifact.\n",
    );
    const single = renderMergeRefused("report mode: no results file is a run of .agent-replay, this step's dir input: ...", ctx, { shards: false, files: 1 });
    expect(single).toContain('**The results file could not be reported**, so this commit has no report and the check failed:');
    expect(single).toContain("Fix what it names, then run the check again, then this report: the run's results are still in its artifact.\n");
    expect(single).not.toMatch(/shard/);
    // One file, read or not: nothing to merge, so not "results not merged" (was, of every refusal).
    expect(single).toContain('\n## agent-replay: results not reported\n');
    expect(renderMergeRefused(reason, ctx, { shards: false, files: 0, unread: 1 })).toContain('\n## agent-replay: results not reported\n');
    expect(renderMergeRefused(reason, ctx, { shards: false, files: 1, unread: 1 })).toContain('\n## agent-replay: results not merged\n');
    expect(renderMergeRefused(reason, ctx, { shards: true, files: 4 })).toContain('\n## agent-replay: results not merged\n');
    // Two runs (a check and its re-run, each attempt's artifact downloaded): each run's.
    expect(renderMergeRefused(reason, ctx, { shards: false, files: 2 })).toContain(
      "Fix what it names, then run the check again, then this report: each run's results are still in its own artifact.\n",
    );
  });
});

describe('a long refusal', () => {
  it('keeps the fix of ours at its end whole, what happened cut (clipDetail, as an item\'s detail line)', () => {
    // Was: cut at 3,000 characters from the start, the fix after what happened lost.
    const long = `results file shard-1/results.json is not a results file: ${'the schema says no; '.repeat(200)}found 3 errors; give the path of a results.json written by agent-replay run`;
    const text = renderMergeRefused(long, ctx, { shards: true, files: 2 });
    const quoted = text.split('\n').find((l) => l.startsWith('> ')) ?? '';
    expect(quoted).toMatch(/…; give the path of a results\.json written by agent-replay run$/);
    expect(quoted.length).toBeLessThan(3100);
  });
});
