// Figures at a unit's edge (docs/latency.md): a count or a duration that rounds up to the next
// unit is shown in it, in every surface ("1M", "1.0 s", "10 s"), never as "1000k" or "1000 ms".

import { describe, expect, it } from 'vitest';
import { compactCount } from '../../src/report/usage.js';
import { msText } from '../../src/report/latency-chart.js';
import { durationText } from '../../src/report/trace.js';

describe('figures at the edge of a unit', () => {
  it('tokens: a count that rounds to 1000 of a unit is one of the next', () => {
    expect([compactCount(842), compactCount(999.6), compactCount(12_400), compactCount(3_100_000)]).toEqual(['842', '1k', '12.4k', '3.1M']);
    expect([compactCount(999_400), compactCount(999_960), compactCount(999_999_999)]).toEqual(['999k', '1M', '1G']);
  });

  it('durations: 999.5 ms is a second, 9.96 s is ten', () => {
    expect([msText(999.4), msText(999.5), msText(9_960), msText(10_000)]).toEqual(['999 ms', '1.0 s', '10 s', '10 s']);
    expect([durationText(999.4), durationText(999.5)]).toEqual(['999 ms', '1.0 s']);
  });
});
