// Judge reuse (docs/fixtures.md, "Judge reuse") in the reports: an item whose score was reused from
// its baseline says so where its score is shown (comment, summary, terminal), and the facts line
// counts calls made and results reused beside the estimate.

import { describe, expect, it } from 'vitest';
import { renderComment, renderSummary, renderTerminal } from '../../src/report/index.js';
import { checksTable } from '../../src/report/persona.js';
import { check, ctx, fixture, route, run } from './fixtures.js';

const JUDGE = { kind: 'judge' as const, criterion: 'The reply is polite', threshold: 0.7 };

/** A judged item whose score came from its baseline; its route changed, so the comment shows it in full. */
function reusedRun() {
  const reused = fixture('greeting', {
    assertion: JUDGE,
    route: route('main', 'other-stage'),
    detail: 'score 0.90 >= threshold 0.70, reused from a1b2c3d: polite and brief',
    score: 0.9,
    threshold: 0.7,
    rationale: 'polite and brief',
    drift: { reply: 'same', route: 'different', verdict: 'still_passing' },
    judgeReused: { commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', acceptedAt: '2026-11-30T10:00:00Z' },
  });
  const judged = fixture('refund', {
    assertion: JUDGE,
    reply: 'Something new.',
    detail: 'score 0.40 < threshold 0.70: curt',
    verdict: 'fail',
    score: 0.4,
    threshold: 0.7,
    rationale: 'curt',
    drift: { reply: 'different', route: 'same', verdict: 'newly_failing' },
  });
  return run([reused, judged], { spend: { agentTurns: 4, agentRetries: 0, judgeCalls: 1, judgeRetries: 0, judgeReused: 1 } });
}

describe('reused judge results in the reports', () => {
  it('the comment names the baseline commit beside the reused score, and only there', () => {
    const comment = renderComment(reusedRun(), ctx);
    const judgeLines = comment.split('\n').filter((l) => l.startsWith('**Judge**'));
    // Newly failing first, then the changed route.
    expect(judgeLines).toEqual(['**Judge**: curt', '**Judge** (reused from a1b2c3d, no judge call): polite and brief']);
    expect(comment).toContain('1 judge call made, 1 judge result reused');
  });

  it('a baseline without a commit is named by its acceptance date', () => {
    const r = reusedRun();
    const f = r.fixtures[0]!;
    r.fixtures[0] = { ...f, judgeReused: { commit: null, acceptedAt: '2026-11-30T10:00:00Z' } };
    expect(renderComment(r, ctx)).toContain('**Judge** (reused from the baseline accepted 2026-11-30, no judge call)');
  });

  it('the summary and the terminal show calls made and reused beside the estimate', () => {
    for (const out of [renderSummary(reusedRun(), ctx), renderTerminal(reusedRun(), { color: false })]) {
      const facts = out.split('\n').find((l) => l.includes('estimated')) ?? '';
      expect(facts).toMatch(/estimated \(cap \$[\d.]+\) · 4 agent turns, 1 judge call made, 1 judge result reused/);
    }
  });
});

describe('reused persona criteria in the checks table', () => {
  it('says where the score came from beside it', () => {
    const judged = check.criterion('Stayed polite', 0.9, 'kind throughout');
    const reused = { ...judged, reused: { commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', acceptedAt: '2026-11-30T10:00:00Z' } } as typeof judged;
    const rows = checksTable([judged, reused], false).split('\n').slice(2);
    expect(rows[0]).toContain('score 0.90 (threshold 0.70): kind throughout');
    expect(rows[0]).not.toContain('reused');
    expect(rows[1]).toContain('score 0.90 (threshold 0.70), reused from a1b2c3d: kind throughout');
  });
});
