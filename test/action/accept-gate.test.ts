// The accept flow's comment that commits nothing (nothing to accept, a fork's pull request) shows
// the same run against the same baselines as the check did: it says the check's gate as the
// comment's meta kept it, so a check that fails is not shown a ✅ again (docs/action.md, "Accept").
// After a commit the run is shown against the new baselines: no gate line, the ✅ as before.

import { describe, expect, it } from 'vitest';
import { acceptanceComment, type Found } from '../../src/action/accept.js';
import { gateRun } from '../../src/evaluate/index.js';
import { parseCommentMetadata, renderComment, type AcceptanceView } from '../../src/report/index.js';
import type { FixtureRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, resetLines, run, SHA } from '../report/fixtures.js';

const slower = (label: string): FixtureRecord =>
  fixture(label, { baseline: { ...baseline(label, `Reply for ${label}.`), latencyMs: 1200 }, latencyMs: 2940, slower: { baselineMs: 1200, latencyMs: 2940 } } as Partial<FixtureRecord>);

/** The reviewed run and the check's comment on it, with fail-on slower. */
function checked(): { record: RunRecord; found: Pick<Found, 'headSha' | 'runId' | 'gate'>; checkComment: string } {
  resetLines();
  const record = run([slower('refund-policy'), fixture('greeting')]);
  const checkComment = renderComment(record, { ...ctx, gate: gateRun(record, ['newly_failing', 'slower']) });
  const meta = parseCommentMetadata(checkComment);
  return { record, found: { headSha: meta?.headSha as string, runId: Number(meta?.runId), gate: meta?.gate ?? null }, checkComment };
}

const acceptance = (over: Partial<AcceptanceView> = {}): AcceptanceView => ({ accepted: [], refused: [], skipped: ['greeting'], commitSha: null, commitUrl: null, note: 'Nothing to accept: no commit was made.', commands: null, ...over });

/** The report's headline (under the acceptance block's) and the line under it. */
function head(markdown: string): string[] {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => /^### (🟠|✅|🔴|⚪) /u.test(l) && !l.includes('Baselines accepted'));
  return lines.slice(at, at + 2);
}

const FAILS = '**The check fails** (fail-on `slower`): 1 fixture slower than the baseline (`refund-policy`)';

describe("the accept flow's comment keeps the check's result", () => {
  it('nothing to accept: the headline keeps its 🟠 and the line under it, as in the check', () => {
    const { record, found, checkComment } = checked();
    expect(head(checkComment)).toEqual(['### 🟠 No new failures: 1 changed · 1 unchanged', FAILS]);
    const body = acceptanceComment(record, ctx, found, acceptance());
    expect(head(body)).toEqual(head(checkComment));
    // The rewritten comment keeps the gate too: a label applied again says the same.
    expect(parseCommentMetadata(body)?.gate).toEqual(found.gate);
  });

  it("a fork's pull request (commands, no commit): the same 🟠 and line", () => {
    const { record, found, checkComment } = checked();
    const body = acceptanceComment(record, ctx, found, acceptance({ accepted: ['refund-policy'], skipped: ['greeting'], note: 'Not committed: this pull request comes from a fork.', commands: 'git add .' }));
    expect(head(body)).toEqual(head(checkComment));
  });

  it('after a commit of the baselines: the ✅, no gate line, no gate in the meta', () => {
    const { record, found } = checked();
    const body = acceptanceComment(record, ctx, found, acceptance({ accepted: ['refund-policy'], commitSha: 'b'.repeat(40), commitUrl: 'https://github.com/acme/shop-bot/commit/bbbb', note: null }));
    // Accepted, its reply is the baseline now: unchanged.
    expect(head(body)[0]).toBe('### ✅ No regressions: 2 unchanged');
    expect(body).not.toContain('The check fails');
    expect(parseCommentMetadata(body)).toMatchObject({ headSha: SHA, acceptedSha: 'b'.repeat(40) });
    expect(parseCommentMetadata(body)).not.toHaveProperty('gate');
  });

  it('an older comment without the gate: no gate line, the headline as the record alone says', () => {
    const { record, found } = checked();
    const body = acceptanceComment(record, ctx, { ...found, gate: null }, acceptance());
    expect(head(body)[0]).toBe('### ✅ No new failures: 1 changed · 1 unchanged');
    expect(body).not.toContain('The check fails');
  });
});
