// The time split a slower item's step is named from (docs/traces.md, "Slower"). A repeated item's:
// the step named beside it, and the split an acceptance keeps, are the median attempt's, the attempt
// whose latency is the item's (docs/latency.md, "Slower than the baseline"), not the first attempt's.
// A script's: over the turns timed on both sides.
import { describe, expect, it } from 'vitest';
import { decideAcceptance, decidePersonaAcceptance, itemLatencyMs, scriptLatency } from '../../src/evaluate/index.js';
import { finishFixture, finishScript, policyOf } from '../../src/evaluate/finish.js';
import type { Baseline, FixtureRecord, PersonaBaseline, PersonaRecord, TimeSplit, Turn } from '../../src/types.js';
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

  it('of attempts with the median latency, the first of them (docs/traces.md, "Slower")', () => {
    // Attempts 1 and 2 both took 2.1 s, one waiting on lookup_order, the other not: the first is the median attempt.
    const other: FixtureRecord = fixtureRecord({ latencyMs: 2105, time: { modelMs: 2000, toolMs: 0, otherMs: 105 } });
    const r = finishFixture({ repeat: { count: 3, minPass: 3 } }, [attempt(2105, 2000), other, attempt(2500, 2400)], baseline, policyOf({}));
    expect(r.slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 195, latencyMs: 2000 });
    const d = decideAcceptance(r, 't1', null, baseline);
    expect(d.kind === 'accept' ? d.baseline.time : null).toEqual(split(2000));
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

// A script's step (docs/traces.md, "Slower") is named over the turns timed on both sides: a turn
// whose spans came on one side only is left out of both, or its whole time reads as a step that grew.
describe('a script turn timed on one side only', () => {
  const t = (index: number, latencyMs: number, time: TimeSplit | null): Turn => ({
    index, message: index === 0 ? null : `m${index}`, reply: `r${index}`, route: null, offTrack: [], toolCalls: [], outcome: null, errors: [], durationMs: latencyMs, latencyMs, firstTokenMs: null, time,
  });
  const script = (turns: Turn[]): PersonaRecord =>
    ({
      label: 's', file: 's.yml', line: 1, persona: null, turns, unsent: [], visited: [], outcome: null, checks: [], baseline: null, durationMs: 1, errored: false, error: null, errorKind: null, verdict: 'pass',
      drift: { transcript: null, route: null, verdict: 'no_baseline' }, ...scriptLatency(turns),
    }) as PersonaRecord;
  /** A baseline of message turns 1, 2, ... (no welcome turn), each with its time split or none. */
  const stored = (times: (TimeSplit | null)[], latencyMs: number): PersonaBaseline => ({
    label: 's', kind: 'persona', transcript: times.map((time, i) => ({ message: `m${i + 1}`, reply: `r${i + 1}`, route: null, ...(time !== null ? { time } : {}) })),
    visited: [], outcome: null, verdict: 'pass', latencyMs, acceptedAt: '2026-01-01T00:00:00.000Z', commit: null,
  });
  const evaluation = { definitionHash: 'h', judgeFingerprint: null };
  const lookup = (toolMs: number): TimeSplit => ({ modelMs: 100, toolMs, otherMs: 70, tools: { lookup_order: toolMs } });
  const answer: TimeSplit = { modelMs: 3000, toolMs: 0, otherMs: 100 };

  it('a turn untimed in the baseline and timed now: its model time is not the step that grew', () => {
    // Turn 1's lookup_order went from 200 ms to 2.2 s; turn 2 (a long answer: 3 s of model, no
    // tool) took the same time on both runs, but its spans had not come when it was accepted.
    const baseline = stored([lookup(200), null], 3470);
    const now = script([t(1, 2370, lookup(2200)), t(2, 3100, answer)]);
    const r = finishScript({}, [now], baseline, policyOf({}), evaluation);
    expect(r.slower).toEqual({ baselineMs: 3470, latencyMs: 5470, step: { kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 2200 } });
  });

  it('a turn timed in the baseline and untimed now: its baseline time is left out too', () => {
    const baseline = stored([lookup(200), lookup(200)], 740);
    const now = script([t(1, 2370, lookup(2200)), t(2, 2370, null)]);
    expect(finishScript({}, [now], baseline, policyOf({}), evaluation).slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 2200 });
  });

  it('the time went to a turn untimed now, the turns timed on both no slower: no step named on their noise', () => {
    // Turn 2 took 2 s longer, and its spans did not come; turn 1 took 10 ms more on lookup_order.
    const baseline = stored([lookup(200), lookup(200)], 740);
    const now = script([t(1, 380, lookup(210)), t(2, 2370, null)]);
    expect(finishScript({}, [now], baseline, policyOf({}), evaluation).slower).toEqual({ baselineMs: 740, latencyMs: 2750 });
  });

  it('a script faster than its baseline by the latency rule mirrored records faster; a few ms less does not', () => {
    const baseline = stored([null, null], 5470);
    expect(finishScript({}, [script([t(1, 1000, null), t(2, 1000, null)])], baseline, policyOf({}), evaluation).faster).toEqual({ baselineMs: 5470, latencyMs: 2000 });
    expect(finishScript({}, [script([t(1, 2735, null), t(2, 2730, null)])], baseline, policyOf({}), evaluation).faster).toBeUndefined();
  });

  it('turns are paired by number: a welcome turn new since the baseline does not shift the others', () => {
    const baseline = stored([lookup(200), null], 3470);
    const now = script([t(0, 20, { modelMs: 0, toolMs: 0, otherMs: 20 }), t(1, 2370, lookup(2200)), t(2, 3100, answer)]);
    expect(finishScript({}, [now], baseline, policyOf({}), evaluation).slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 2200 });
  });

  it('a turn on one side only (a longer conversation) counts as it is: it took nothing on the other', () => {
    const baseline = stored([lookup(200)], 370);
    const now = script([t(1, 370, lookup(200)), t(2, 3100, answer)]);
    expect(finishScript({}, [now], baseline, policyOf({}), evaluation).slower?.step).toEqual({ kind: 'model', name: null, baselineMs: 100, latencyMs: 3100 });
  });
});

// A repeated script's latency (docs/latency.md, "Slower than the baseline") is the median over its
// attempts that did not error: an attempt that errored on turn 2 of 3 summed 2 turns, not a whole
// conversation, and its split is of that part.
describe('a repeated script with attempts that errored part-way', () => {
  const t = (index: number, latencyMs: number, toolMs: number): Turn => ({
    index, message: `m${index}`, reply: `r${index}`, route: null, offTrack: [], toolCalls: [], outcome: null, errors: [], durationMs: latencyMs, latencyMs, firstTokenMs: null,
    time: { modelMs: 100, toolMs, otherMs: latencyMs - 100 - toolMs, tools: { lookup_order: toolMs } },
  });
  const whole = [t(1, 1000, 200), t(2, 1000, 200), t(3, 1000, 200)];
  const attempt = (turns: Turn[], errored: boolean): PersonaRecord =>
    ({
      label: 's', file: 's.yml', line: 1, persona: null, turns, unsent: [], visited: [], outcome: null, checks: [], baseline: null, durationMs: 1,
      errored, error: errored ? 'turn 2: the agent reported an error' : null, errorKind: errored ? 'agent_error' : null, verdict: errored ? null : 'pass',
      drift: errored ? null : { transcript: null, route: null, verdict: 'no_baseline' }, ...scriptLatency(turns),
    }) as PersonaRecord;
  const baseline: PersonaBaseline = {
    label: 's', kind: 'persona', transcript: whole.map((x) => ({ message: x.message, reply: x.reply, route: null, time: x.time as TimeSplit })),
    visited: [], outcome: null, verdict: 'pass', latencyMs: 3000, acceptedAt: '2026-01-01T00:00:00.000Z', commit: null,
  };
  const evaluation = { definitionHash: 'h', judgeFingerprint: null };
  // Attempts 1 and 2 errored on turn 2 (1.5 s each); attempt 3 ran the whole conversation as fast as the baseline.
  const attempts = [attempt([t(1, 1000, 200), t(2, 500, 0)], true), attempt([t(1, 1000, 200), t(2, 500, 0)], true), attempt(whole, false)];

  it('its latency, the one compared and accepted, is the completed attempts\' median', () => {
    const r = finishScript({ repeat: { count: 3, minPass: 1 } }, attempts, baseline, policyOf({}), evaluation);
    expect(r.verdict).toBe('pass');
    expect(itemLatencyMs(r)).toBe(3000);
    const d = decidePersonaAcceptance(r, 't1', null, null);
    expect(d.kind === 'accept' ? [d.baseline.latencyMs, d.baseline.transcript.map((x) => x.time?.toolMs)] : d).toEqual([3000, [200, 200, 200]]);
  });

  it('an accepted whole conversation is not slower than the partial one it was compared with', () => {
    // Accepted from these attempts, then run again with every attempt whole: the same speed, not slower.
    const accepted = decidePersonaAcceptance(finishScript({ repeat: { count: 3, minPass: 1 } }, attempts, baseline, policyOf({}), evaluation), 't1', null, null);
    if (accepted.kind !== 'accept') throw new Error(accepted.kind);
    const again = finishScript({ repeat: { count: 3, minPass: 1 } }, [attempt(whole, false), attempt(whole, false), attempt(whole, false)], accepted.baseline, policyOf({}), evaluation);
    expect(again.slower).toBeUndefined();
  });
});

