// A repeated item's time split (docs/traces.md, "Slower"): the step named beside a slower repeated
// item, and the split an acceptance keeps, are the median attempt's, the attempt whose latency is the
// item's (docs/latency.md, "Slower than the baseline"), not the first attempt's.
import { describe, expect, it } from 'vitest';
import { decideAcceptance } from '../../src/evaluate/index.js';
import { finishFixture, policyOf } from '../../src/evaluate/finish.js';
import type { Baseline, FixtureRecord, TimeSplit } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const split = (toolMs: number): TimeSplit => ({ modelMs: 100, toolMs, otherMs: 5, tools: { lookup_order: toolMs } });
const attempt = (latencyMs: number, toolMs: number): FixtureRecord => fixtureRecord({ latencyMs, time: split(toolMs) });
const baseline: Baseline = { label: 'f', reply: 'r', route: null, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00.000Z', latencyMs: 300, time: split(195) } as Baseline;

describe('a repeated item\'s time split', () => {
  it('names the step from the attempt whose latency is the median, not the first attempt', () => {
    // Attempt 1 was as fast as the baseline; attempts 2 and 3 waited 2 s on lookup_order: the median is 2.1 s.
    const r = finishFixture({ repeat: { count: 3, minPass: 3 } }, [attempt(305, 200), attempt(2105, 2000), attempt(2110, 2005)], baseline, policyOf({}));
    expect(r.slower).toEqual({ baselineMs: 300, latencyMs: 2105, step: { kind: 'tool', name: 'lookup_order', baselineMs: 195, latencyMs: 2000 } });
  });

  it('an even count: the slower of the two middle attempts', () => {
    const r = finishFixture({ repeat: { count: 4, minPass: 4 } }, [attempt(305, 200), attempt(300, 195), attempt(2105, 2000), attempt(2500, 2400)], baseline, policyOf({}));
    expect(r.slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 195, latencyMs: 2000 });
  });

  it('an acceptance keeps the median attempt\'s split beside the median latency', () => {
    const r = finishFixture({ repeat: { count: 3, minPass: 3 } }, [attempt(305, 200), attempt(2105, 2000), attempt(2110, 2005)], baseline, policyOf({}));
    const d = decideAcceptance(r, 't1', null, baseline);
    expect(d.kind).toBe('accept');
    if (d.kind === 'accept') {
      expect(d.baseline.latencyMs).toBe(2105);
      expect(d.baseline.time).toEqual(split(2000));
    }
  });
});
