// What acceptance would write is read back as the loader reads it (src/accept/screen.ts): a refusal
// blames an edited results file only when the record's own tally or judge result contradicts its
// verdict (docs/semantics.md, "Baselines and acceptance").

import { describe, expect, it } from 'vitest';
import { screenAccepted } from '../../src/accept/screen.js';
import type { Baseline } from '../../src/types.js';

const FP = { model: 'openai/m', promptVersion: '1', criteria: [{ criterion: 'polite', threshold: 0.7 }] };
const baseline = (over: Partial<Baseline>): Baseline => ({ label: 'a', reply: 'Hello.', route: null, verdict: 'pass', acceptedAt: 'T', commit: null, ...over });
const refusals = async (b: Baseline): Promise<string[]> =>
  (await screenAccepted({ accepted: [b], refused: [], unchanged: [], unknown: [] }, '.agent-replay/baselines')).refused.map((r) => r.reason);

describe('screenAccepted', () => {
  it("writes a list's fail beside its passing judge", async () => {
    expect(await refusals(baseline({ verdict: 'fail', judge: { score: 0.9, rationale: 'kind', fingerprint: FP } }))).toEqual([]);
  });

  it('asks whether the results file was edited when its tally or judge result contradicts the verdict', async () => {
    expect(await refusals(baseline({ attempts: { passed: 0, total: 3 } }))).toEqual([
      'its record contradicts itself, so the baseline would not load: 0 of 3 attempts passed, which contradicts the accepted verdict "pass"; was the results file edited? run it again',
    ]);
    expect(await refusals(baseline({ judge: { score: 0.2, rationale: 'rude', fingerprint: FP } }))).toEqual([
      'its record contradicts itself, so the baseline would not load: judge.score 0.2 < threshold 0.7 contradicts the accepted verdict "pass"; was the results file edited? run it again',
    ]);
  });

  it('never blames the results file for what acceptance itself got wrong', async () => {
    // Eleven wordings: acceptance keeps at most ten, so only agent-replay could have written them.
    const [reason] = await refusals(baseline({ variants: Array.from({ length: 11 }, (_, i) => `Hi ${i}.`) }));
    expect(reason).toBe(
      'the baseline it would write would not load: variants lists 11 replies; a baseline keeps at most 10 (the newest first); nothing was written for it: run it again, and report it with this message if it happens again',
    );
  });
});
