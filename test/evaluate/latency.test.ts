import { describe, expect, it } from 'vitest';
import { nearestRank, runLatency, scriptLatency, turnLatencyCheck } from '../../src/evaluate/index.js';
import type { FixtureRecord, PersonaRecord, Turn } from '../../src/types.js';

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
