// The comment after acceptance (docs/action.md, "Accept") compares the run with the baselines as
// acceptance wrote them: a reworded fixture accepted from fewer attempts keeps the stored tally and
// the tokens counted over it (docs/statistics.md, "A baseline's attempts"; docs/latency.md,
// "Usage"), so the comment's baseline and its tokens line say what the committed file says.

import { describe, expect, it } from 'vitest';
import { decideAcceptance } from '../../src/evaluate/index.js';
import { afterAcceptance } from '../../src/report/model.js';
import { usageText } from '../../src/report/usage.js';
import type { Baseline, RunRecord } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const stored: Baseline = {
  label: 'f',
  reply: 'Refunds within 30 days.',
  route: null,
  verdict: 'pass',
  attempts: { passed: 10, total: 10 },
  usage: { inputTokens: 2000, outputTokens: 0 },
  acceptedAt: 't0',
  commit: null,
};

const reworded = fixtureRecord({
  reply: 'You get a refund up to 30 days.',
  baseline: stored,
  repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
  usage: { inputTokens: 300, outputTokens: 0 },
  drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'reworded', by: 'judge', detail: null, score: 0.9 } },
});

describe('the comment after acceptance', () => {
  it("models a reworded fixture's baseline with the kept tally and tokens, as acceptance wrote it", () => {
    const written = decideAcceptance(reworded, 't1', 'c0ffee0');
    expect(written).toMatchObject({ kind: 'accept', baseline: { attempts: { passed: 10, total: 10 }, usage: { inputTokens: 2000, outputTokens: 0 } } });
    const run = { fixtures: [reworded], personas: [], commit: 'c0ffee0' } as unknown as RunRecord;
    const after = afterAcceptance(run, ['f'], 'c0ffee0');
    expect(after.fixtures[0]?.baseline).toMatchObject({ attempts: { passed: 10, total: 10 }, usage: { inputTokens: 2000, outputTokens: 0 } });
    // 100 tokens an attempt now against the committed 200: the next run says -50%, and so does the comment.
    expect(usageText(after)).toBe('agent tokens reported: 300 (300 in, 0 out), -50% vs baselines');
  });

  it('an accepted item its stored baseline already matches keeps that baseline whole (tally, tokens), as the file stands', () => {
    const same = fixtureRecord({
      reply: stored.reply,
      baseline: stored,
      repeat: { count: 3, minPass: 3, passed: 3, flaky: false },
      usage: { inputTokens: 600, outputTokens: 0 },
      drift: { reply: 'same', route: 'same', verdict: 'still_passing' },
    });
    expect(decideAcceptance(same, 't1', 'c0ffee0').kind).toBe('unchanged');
    const after = afterAcceptance({ fixtures: [same], personas: [], commit: 'c0ffee0' } as unknown as RunRecord, ['f'], 'c0ffee0');
    expect(after.fixtures[0]?.baseline).toEqual(stored);
    expect(usageText(after)).toBe('agent tokens reported: 600 (600 in, 0 out), ±0% vs baselines');
  });
});
