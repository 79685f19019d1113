import { describe, expect, it } from 'vitest';
import { fasterThanBaseline, itemLatencyMs, nearestRank, runLatency, scriptLatency, slowerStep, slowerText, slowerThanBaseline, sumTimeSplits, turnLatencyCheck } from '../../src/evaluate/index.js';
import type { FixtureRecord, PersonaRecord, Turn } from '../../src/types.js';
import { scriptTimeSplits } from '../../src/evaluate/latency.js';

const turn = (index: number, latencyMs?: number | null, firstTokenMs?: number | null): Turn => ({
  index, message: index === 0 ? null : `m${index}`, reply: 'r', route: null, offTrack: [], toolCalls: null, outcome: null, errors: [], durationMs: 0,
  ...(latencyMs === undefined ? {} : { latencyMs, firstTokenMs: firstTokenMs ?? null }),
});

describe('nearestRank', () => {
  it('takes the value at rank ceil(p/100 x n)', () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([nearestRank(ten, 50), nearestRank(ten, 95), nearestRank([7], 95), nearestRank([1, 2], 50)]).toEqual([5, 10, 7, 1]);
  });
});

describe('runLatency', () => {
  it('is over fixture message turns and persona message turns, welcome turns excluded; null when none was measured', () => {
    const fixtures = [{ latencyMs: 30, welcomeLatencyMs: 5000 }, { latencyMs: 10 }, { latencyMs: null }, {}] as FixtureRecord[];
    const personas = [{ turns: [turn(0, 9000), turn(1, 20), turn(2, 40)] }] as PersonaRecord[];
    expect(runLatency(fixtures, personas)).toEqual({ turns: 4, p50Ms: 20, p95Ms: 40 });
    expect(runLatency([{}] as FixtureRecord[], [{ turns: [turn(1)] }] as PersonaRecord[])).toBeNull();
  });
});

describe('scriptLatency', () => {
  it('sums the measured turns, welcome included; null when none was', () => {
    expect(scriptLatency([turn(0, 100), turn(1, 250, 40), turn(2, 300, 60)])).toEqual({ latencyMs: 650, firstTokenMs: 100 });
    expect(scriptLatency([turn(1), turn(2)])).toEqual({ latencyMs: null, firstTokenMs: null });
  });
});

describe('turnLatencyCheck', () => {
  it('is not evaluated when no message turn was measured (a welcome turn alone does not count)', () => {
    expect(turnLatencyCheck(100, [turn(0, 5000), turn(1)])).toEqual({ kind: 'maxTurnLatency', expected: 100, observed: null, turn: null, status: 'not_evaluated', detail: 'no message turn was measured' });
  });
});

describe('slower than the baseline', () => {
  const t = { slowerBy: 0.5, minDeltaMs: 300 };
  it('needs more than both thresholds, strictly', () => {
    // 1000 → 1500: 50 % and 500 ms over: not more than 50 %.
    expect(slowerThanBaseline(1500, 1000, t)).toBeNull();
    expect(slowerThanBaseline(1501, 1000, t)).toEqual({ baselineMs: 1000, latencyMs: 1501 });
    // 100 → 400: 300 % over, but not more than 300 ms.
    expect(slowerThanBaseline(400, 100, t)).toBeNull();
    expect(slowerThanBaseline(401, 100, t)).toEqual({ baselineMs: 100, latencyMs: 401 });
    // Faster, equal, or either side unmeasured: never slower.
    expect(slowerThanBaseline(100, 1000, t)).toBeNull();
    expect(slowerThanBaseline(null, 100, t)).toBeNull();
    expect(slowerThanBaseline(900, undefined, t)).toBeNull();
    expect(slowerThanBaseline(900, null, t)).toBeNull();
  });

  it('faster is the same rule mirrored: the baseline more than both thresholds over now, so 210 ms → 209 ms is about the same', () => {
    expect(fasterThanBaseline(209, 210, t)).toBeNull();
    // 1500 → 1000: the baseline 500 ms and 50 % over now: not more than 50 %.
    expect(fasterThanBaseline(1000, 1500, t)).toBeNull();
    expect(fasterThanBaseline(999, 1500, t)).toEqual({ baselineMs: 1500, latencyMs: 999 });
    // 400 → 100: 300 % under, but not more than 300 ms.
    expect(fasterThanBaseline(100, 400, t)).toBeNull();
    expect(fasterThanBaseline(100, 401, t)).toEqual({ baselineMs: 401, latencyMs: 100 });
    // Slower, or either side unmeasured: never faster.
    expect(fasterThanBaseline(1000, 100, t)).toBeNull();
    expect(fasterThanBaseline(null, 1000, t)).toBeNull();
    expect(fasterThanBaseline(100, undefined, t)).toBeNull();
  });

  it('exactly the fraction over is not more than it, whatever its binary product', () => {
    // 1500 x 0.29 is 434.99999999999994 in floating point: 1500 → 1935 (435 ms, exactly 29 %) was slower.
    const by29 = { slowerBy: 0.29, minDeltaMs: 300 };
    expect(1500 * 0.29).toBeLessThan(435);
    expect(slowerThanBaseline(1935, 1500, by29)).toBeNull();
    expect(slowerThanBaseline(1935.5, 1500, by29)).toEqual({ baselineMs: 1500, latencyMs: 1935.5 });
    expect(slowerThanBaseline(3741, 2900, by29)).toBeNull();
    expect(slowerThanBaseline(1300.5, 1000, { slowerBy: 0.3, minDeltaMs: 300 })).toEqual({ baselineMs: 1000, latencyMs: 1300.5 });
  });

  it('a repeated item uses the median of its attempts; a script sums its turns', () => {
    const attempts = (...ms: (number | null)[]) => ms.map((latencyMs) => ({ latencyMs }));
    expect(itemLatencyMs({ latencyMs: 5000, attempts: attempts(5000, 50, 70) })).toBe(70);
    expect(itemLatencyMs({ latencyMs: 40, attempts: attempts(40, 60, 1000, 80) })).toBe(70);
    // An attempt that did not answer has no latency: the median is over those measured.
    expect(itemLatencyMs({ latencyMs: null, attempts: attempts(null, 90, 30) })).toBe(60);
    expect(itemLatencyMs({ latencyMs: 12 })).toBe(12);
    expect(itemLatencyMs({})).toBeUndefined();
    const t2 = (a: number, b: number) => ({ turns: [turn(1, a), turn(2, b)] });
    expect(itemLatencyMs({ latencyMs: 300, attempts: [t2(100, 200), t2(1000, 2000), t2(50, 50)] })).toBe(300);
  });

  it('says it in seconds from one second up', () => {
    expect(slowerText({ baselineMs: 1200, latencyMs: 2940 })).toBe('1.2 s → 2.9 s');
    expect(slowerText({ baselineMs: 50, latencyMs: 600.4 })).toBe('50 ms → 600 ms');
    // A median of 999 and 1000 ms: a second once rounded, never "1000 ms".
    expect(slowerText({ baselineMs: 600, latencyMs: 999.5 })).toBe('600 ms → 1.0 s');
  });

  it('names the step that grew most when there is one (docs/traces.md, "Slower"), and says nothing more without', () => {
    expect(slowerText({ baselineMs: 1200, latencyMs: 2900, step: { kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 1900 } })).toBe('1.2 s → 2.9 s (tool lookup_order 200 ms → 1.9 s)');
    expect(slowerText({ baselineMs: 1200, latencyMs: 2900, step: { kind: 'model', name: null, baselineMs: 800, latencyMs: 2100 } })).toBe('1.2 s → 2.9 s (model 800 ms → 2.1 s)');
    expect(slowerText({ baselineMs: 1200, latencyMs: 2900, step: { kind: 'other', name: null, baselineMs: 100, latencyMs: 900 } })).toBe('1.2 s → 2.9 s (other 100 ms → 900 ms)');
    expect(slowerText({ baselineMs: 1200, latencyMs: 2900, step: { kind: 'tool', name: null, baselineMs: 100, latencyMs: 900 } })).toBe('1.2 s → 2.9 s (tools 100 ms → 900 ms)');
    expect(slowerText({ baselineMs: 1200, latencyMs: 2900, step: null })).toBe('1.2 s → 2.9 s');
  });
});

describe('the step that grew most', () => {
  const split = (modelMs: number, toolMs: number, otherMs: number, tools?: Record<string, number>) => ({ modelMs, toolMs, otherMs, ...(tools ? { tools } : {}) });

  it.each([
    ['a tool that grew most, by name', split(500, 1900, 100, { lookup_order: 1900 }), split(500, 200, 100, { lookup_order: 200 }), { kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 1900 }],
    ['of two tools, the one that grew more', split(0, 1000, 0, { a: 600, b: 700 }), split(0, 600, 0, { a: 100, b: 500 }), { kind: 'tool', name: 'a', baselineMs: 100, latencyMs: 600 }],
    ['a tool new since the baseline took 0 there', split(100, 900, 0, { fresh: 900 }), split(100, 0, 0), { kind: 'tool', name: 'fresh', baselineMs: 0, latencyMs: 900 }],
    ['the model', split(2100, 200, 100, { t: 200 }), split(800, 200, 100, { t: 200 }), { kind: 'model', name: null, baselineMs: 800, latencyMs: 2100 }],
    ['other', split(100, 0, 900), split(100, 0, 100), { kind: 'other', name: null, baselineMs: 100, latencyMs: 900 }],
    ['neither side names its tools: their total, unnamed', split(0, 900, 0), split(0, 100, 0), { kind: 'tool', name: null, baselineMs: 100, latencyMs: 900 }],
    ['a tie goes to the tool, then the model', split(300, 300, 300, { t: 300 }), split(100, 100, 100, { t: 100 }), { kind: 'tool', name: 't', baselineMs: 100, latencyMs: 300 }],
    ['a tie between model and other goes to the model', split(300, 0, 300), split(100, 0, 100), { kind: 'model', name: null, baselineMs: 100, latencyMs: 300 }],
  ])('%s', (_, now, baseline, step) => {
    expect(slowerStep(now, baseline)).toEqual(step);
  });

  it('no step grew: null', () => {
    expect(slowerStep(split(100, 100, 100, { t: 100 }), split(100, 200, 100, { t: 200 }))).toBeNull();
  });

  it("sums an item's turns, each tool by name; null with no split at all", () => {
    expect(sumTimeSplits([split(100, 50, 10, { a: 50 }), null, split(200, 70, 20, { a: 30, b: 40 }), undefined, split(1, 0, 1)])).toEqual(split(301, 120, 31, { a: 80, b: 40 }));
    expect(sumTimeSplits([split(1, 0, 1), split(2, 0, 2)])).toEqual(split(3, 0, 3));
    expect(sumTimeSplits([null, undefined])).toBeNull();
  });

  it("a tool named like an object's own machinery (constructor, toString, __proto__) is a tool like any other", () => {
    // Tool names come from the agent's spans: as the reader records them (JSON keeps `__proto__` as a key).
    const tools = (entries: [string, number][]): Record<string, number> => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as Record<string, number>;
    const turn1 = split(0, 900, 0, tools([['constructor', 600], ['__proto__', 300]]));
    const turn2 = split(0, 50, 0, tools([['toString', 50]]));
    expect(JSON.stringify(sumTimeSplits([turn1, turn2]))).toBe(JSON.stringify(split(0, 950, 0, tools([['constructor', 600], ['__proto__', 300], ['toString', 50]]))));
    // A tool new since the baseline took 0 there, whatever its name.
    expect(slowerStep(split(0, 900, 0, tools([['constructor', 900]])), split(0, 0, 0, {}))).toEqual({ kind: 'tool', name: 'constructor', baselineMs: 0, latencyMs: 900 });
    expect(slowerStep(split(0, 900, 0, tools([['__proto__', 900]])), split(0, 100, 0, tools([['lookup', 100]])))).toEqual({ kind: 'tool', name: '__proto__', baselineMs: 0, latencyMs: 900 });
  });
});

describe('scriptTimeSplits: a baseline transcript of 130,000 turns (a baseline file may be 8 MB)', () => {
  it('its turns that have none now are summed one by one, with no RangeError', () => {
    const time = { modelMs: 1, toolMs: 2, otherMs: 0, tools: {} };
    const transcript = Array.from({ length: 130_000 }, (_, i) => ({ message: i === 0 ? null : 'm', time }));
    const splits = scriptTimeSplits([], transcript);
    expect(splits.now).toBeNull();
    expect(splits.baseline).toMatchObject({ modelMs: 130_000, toolMs: 260_000 });
  });
});
