// docs/statistics.md quotes figures computed by src/evaluate/stats.ts: its two tables are
// recomputed here cell by cell, and every figure its prose quotes is checked against the module.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attemptsNeeded, below, fisherOneSided, itemStats, mcnemarExact, wilson, type Tally } from '../../src/evaluate/stats.js';

const DOC = readFileSync(resolve(import.meta.dirname, '../../docs/statistics.md'), 'utf8');
const t = (passed: number, total: number): Tally => ({ passed, total });
const drop = (b: Tally, n: Tally): number => fisherOneSided(b, n).drop;
const p4 = (p: number): string => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));

/** The rows of the table whose header starts with `header`: label cell and the others. */
function table(header: string): { baseline: Tally; cells: string[] }[] {
  const lines = DOC.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  expect(start, `a table starting ${header}`).toBeGreaterThan(0);
  const rows: { baseline: Tally; cells: string[] }[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [label, ...cells] = line.split('|').slice(1, -1).map((c) => c.trim());
    const m = /^(\d+) of (\d+)$/.exec(label ?? '');
    expect(m, line).not.toBeNull();
    rows.push({ baseline: t(Number(m![1]), Number(m![2])), cells });
  }
  return rows;
}

const ATTEMPTS = [1, 2, 3, 5, 10, 20];

describe('docs/statistics.md', () => {
  it("quotes the drop's p of every attempt failing as the module computes it", () => {
    const rows = table('| baseline | 0 of 1 |');
    expect(rows.length).toBe(6);
    for (const { baseline, cells } of rows) expect(cells).toEqual(ATTEMPTS.map((n) => p4(drop(baseline, t(0, n)))));
  });

  it('quotes the most passes that are still regressed at 0.05', () => {
    const rows = table('| baseline | of 1 |');
    expect(rows.length).toBe(6);
    for (const { baseline, cells } of rows) {
      const most = ATTEMPTS.map((n) => {
        let k = -1;
        for (let passed = 0; passed <= n; passed++) if (below(drop(baseline, t(passed, n)), 0.05)) k = passed;
        return k < 0 ? '—' : `${k} of ${n}`;
      });
      expect(cells).toEqual(most);
      // The table's rule is the tier's.
      for (const [i, n] of ATTEMPTS.entries()) {
        const k = cells[i] === '—' ? -1 : Number(cells[i]!.split(' ')[0]);
        if (k >= 0) expect(itemStats(baseline, t(k, n), { alpha: 0.05, maxLooks: 1 })?.tier).toBe('regressed');
      }
    }
  });

  it('quotes its worked figures as the module computes them', () => {
    const quotes: [string, boolean][] = [
      [`10/10 is [${wilson(t(10, 10))[0].toFixed(2)}, 1]`, true],
      [`0/3 is [0, ${wilson(t(0, 3))[1].toFixed(2)}]`, true],
      [`10/10 → 0/3 gives pDrop = ${drop(t(10, 10), t(0, 3)).toFixed(4)}`, true],
      [`5/5 → 4/5 gives ${drop(t(5, 5), t(4, 5)).toFixed(1)}`, true],
      [`9/10 → 1/3 (pDrop ${drop(t(9, 10), t(1, 3)).toFixed(3)}, ${Math.round((0.9 - 1 / 3) * 100)} points down) is \`likely_regressed\``, itemStats(t(9, 10), t(1, 3), { alpha: 0.05, maxLooks: 1 })?.tier === 'likely_regressed'],
      ['5/5 → 4/5 is `steady`', itemStats(t(5, 5), t(4, 5), { alpha: 0.05, maxLooks: 1 })?.tier === 'steady'],
      [`1/1 → 0/3 (pDrop ${drop(t(1, 1), t(0, 3)).toFixed(2)}) is \`too_few\``, itemStats(t(1, 1), t(0, 3), { alpha: 0.05, maxLooks: 1 })?.tier === 'too_few'],
      ['So 10/10 → 0/3 is `regressed`', itemStats(t(10, 10), t(0, 3), { alpha: 0.05, maxLooks: 1 })?.tier === 'regressed'],
      [`0/2 against a 1-attempt baseline (pDrop ${drop(t(1, 1), t(0, 2)).toFixed(2)}) needs\n${attemptsNeeded(t(1, 1), t(0, 2), 0.05)}`, itemStats(t(1, 1), t(0, 2), { alpha: 0.05, maxLooks: 1 })?.tier === 'too_few'],
      [`0/1 against 4/5 needs ${attemptsNeeded(t(4, 5), t(0, 1), 0.05)}`, itemStats(t(4, 5), t(0, 1), { alpha: 0.05, maxLooks: 1 })?.tier === 'too_few'],
      ['1/2 against 3/3 no number up to 20 would', attemptsNeeded(t(3, 3), t(1, 2), 0.05) === null],
      [`3 newly failing and 1 newly passing give p = ${mcnemarExact(3, 1).toFixed(3)}`, true],
      [`6 newly failing and none newly passing give p = ${mcnemarExact(6, 0).toFixed(3)}`, true],
      ['**3/3 against 0/3 can never reach p < 0.05**: it is exactly 1/20 = 0.05', Math.abs(drop(t(3, 3), t(0, 3)) - 1 / 20) < 1e-15 && !below(drop(t(3, 3), t(0, 3)), 0.05)],
      [`10/10 → 0/3 gives ${drop(t(10, 10), t(0, 3)).toFixed(4)} and 10/10 → 1/3 gives\n  ${drop(t(10, 10), t(1, 3)).toFixed(4)} (11/286)`, Math.abs(drop(t(10, 10), t(1, 3)) - 11 / 286) < 1e-15],
      [`10/10 → 2/3 gives ${drop(t(10, 10), t(2, 3)).toFixed(4)}, not`, !below(drop(t(10, 10), t(2, 3)), 0.05)],
      [`(p = 1/21 = ${drop(t(1, 1), t(0, 20)).toFixed(4)})`, Math.abs(drop(t(1, 1), t(0, 20)) - 1 / 21) < 1e-15 && attemptsNeeded(t(1, 1), t(0, 1), 0.05) === 20],
    ];
    for (const [quote, holds] of quotes) {
      expect(DOC, quote).toContain(quote);
      expect(holds, quote).toBe(true);
    }
    // Neither 3 attempts against 3 nor fewer than 20 against 1 can call a drop.
    for (let k = 0; k <= 3; k++) expect(below(drop(t(3, 3), t(k, 3)), 0.05)).toBe(false);
  });
});

describe('docs/statistics.md, a baseline that passed every attempt', () => {
  /** P(tier) for an unchanged item at true rate r, n attempts now, against `baseline`: the module's tier over Bin(n, r). */
  function tierRate(baseline: Tally, n: number, r: number, tier: string): number {
    let p = 0;
    let choose = 1;
    for (let k = 0; k <= n; k++) {
      if (k > 0) choose = (choose * (n - k + 1)) / k;
      if (itemStats(baseline, t(k, n), { alpha: 0.05, maxLooks: 1 })?.tier === tier) p += choose * r ** k * (1 - r) ** (n - k);
    }
    return p;
  }
  const pct = (p: number): string => `${(Math.round(p * 1000) / 10).toString()}%`;

  it('quotes the false alarms against 10/10 and 5/5 at a true rate of 0.8 as the module gives them (and SciPy)', () => {
    // SciPy 1.17.1, the tier of docs/statistics.md "The tier" over binom.pmf(k, n, 0.8) with
    // hypergeom(nb + n, kb + k, n).cdf(k) as pDrop: against 10/10, regressed 0.1040 / 0.0579 / 0.1209 and
    // likely 0 / 0.2048 / 0.2013 at n = 3 / 5 / 10; against 5/5, regressed 0.0080 / 0.0067 / 0.0064 and
    // likely 0.0960 / 0.0512 / 0.1145.
    const ten = [3, 5, 10].map((n) => [tierRate(t(10, 10), n, 0.8, 'regressed'), tierRate(t(10, 10), n, 0.8, 'likely_regressed')]);
    const five = [3, 5, 10].map((n) => [tierRate(t(5, 5), n, 0.8, 'regressed'), tierRate(t(5, 5), n, 0.8, 'likely_regressed')]);
    expect(ten.flat().map((p) => p.toFixed(4))).toEqual(['0.1040', '0.0000', '0.0579', '0.2048', '0.1209', '0.2013']);
    expect(five.flat().map((p) => p.toFixed(4))).toEqual(['0.0080', '0.0960', '0.0067', '0.0512', '0.0064', '0.1145']);
    const flat = DOC.replace(/\s+/g, ' ');
    expect(flat).toContain(`against 10/10, \`regressed\` is given in ${pct(ten[0]![0]!)} of runs of 3 attempts, ${pct(ten[1]![0]!)} of runs of 5 and ${pct(ten[2]![0]!)} of runs of 10`);
    expect(flat).toContain(`(\`likely_regressed\` in ${pct(ten[0]![1]!)}, ${pct(ten[1]![1]!)} and ${pct(ten[2]![1]!)})`);
    expect(flat).toContain(`against 5/5, \`regressed\` in ${pct(five[0]![0]!)}, ${pct(five[1]![0]!)} and ${pct(five[2]![0]!)}`);
    expect(flat).toContain(`(\`likely_regressed\` in ${pct(five[0]![1]!)}, ${pct(five[1]![1]!)} and ${pct(five[2]![1]!)})`);
    // One attempt: a failing one against 5/5 is likely regressed (p = 1/6), as often as the item fails.
    expect(Math.abs(drop(t(5, 5), t(0, 1)) - 1 / 6)).toBeLessThan(1e-15);
    expect(tierRate(t(5, 5), 1, 0.8, 'likely_regressed')).toBeCloseTo(0.2, 12);
    expect(flat).toContain('every failing attempt against 5/5 or more is `likely_regressed` (5/5 → 0/1: p = 1/6), as often as the item fails (20%)');
    // alpha is broken only by the choice of baseline: drawn at the same rate, 10/10's row stays under 0.05 (0.0150 at n = 10, SciPy).
  });
});

describe('docs/statistics.md, adaptive attempts', () => {
  it('quotes the most passes still regressed at 0.05 / 4 at each look of count 3, max 10', () => {
    const lines = DOC.split('\n').map((l) => l.trim());
    const start = lines.findIndex((l) => l.startsWith('| baseline | of 3 | of 6 |'));
    expect(start).toBeGreaterThan(0);
    const looks = [3, 6, 9, 10];
    let rows = 0;
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      const [label, ...cells] = line.split('|').slice(1, -1).map((c) => c.trim());
      const [bp, bt] = /^(\d+) of (\d+)$/.exec(label ?? '')!.slice(1).map(Number) as [number, number];
      const most = looks.map((n) => {
        let k = -1;
        for (let passed = 0; passed <= n; passed++) if (below(drop(t(bp, bt), t(passed, n)), 0.05 / 4)) k = passed;
        return k < 0 ? '—' : `${k} of ${n}`;
      });
      expect(cells).toEqual(most);
      rows += 1;
    }
    expect(rows).toBe(3);
    expect(DOC).toContain(`9/10 → 0/3 (pDrop ${drop(t(9, 10), t(0, 3)).toFixed(3)}`);
    expect(DOC).toContain(`0/6 gives ${drop(t(9, 10), t(0, 6)).toFixed(4)} and 1/6 gives ${drop(t(9, 10), t(1, 6)).toFixed(4)}`);
  });
});
