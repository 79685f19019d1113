// `npm run bench -- meaning`: the meaning ladder's cost (docs/meaning.md, "Costs") on 5,000 items
// whose every reply differs from its baseline, decided by normalize, variants and facts (the rungs
// that ask no model; the items only a judge could decide have paid for their facts too).
//
// Replies of about 300 characters in the shape of a support agent's answers, with numbers, an
// amount, a time, a code, a URL and an address: a fifth differ only in formatting, a fifth are
// known variants, a fifth change one number, and two fifths are reworded with the same facts.

import { meaningWithoutModel } from '../src/evaluate/meaning/index.js';

export interface LadderFigures {
  items: number;
  /**
   * CPU time of the whole ladder over every pair, in ms (the median of `rounds`). CPU, not wall:
   * the ladder is CPU-bound in one thread, so on an idle machine the two are equal, and on a busy
   * one the CPU time is not inflated by waiting for a core.
   */
  ms: number;
  /** How many pairs each outcome decided ("formatting", "variant", "changed", "judge"). */
  decided: Record<string, number>;
}

function baselineOf(i: number): string {
  return `Refunds are accepted within ${(i % 50) + 10} days of delivery. To start one, open **Orders**, pick order R-${5000 + i} and tap *Return*. The fee is $${(i % 9) + 1}.99, refunded to your card within 5-7 business days. Questions? Write to help@example.com or see https://example.com/returns/${i} before 6pm.`;
}

/** The new reply of item `i`, and the baseline's variants. */
function pairOf(i: number): { baseline: string; now: string; variants: string[] } {
  const baseline = baselineOf(i);
  const days = (i % 50) + 10;
  const reworded = `You can return items within ${days} days after delivery for a full refund. Go to Orders, choose R-${5000 + i}, then tap Return. A $${(i % 9) + 1}.99 fee applies and comes back to your card in 5-7 business days. Need help? Email help@example.com or visit https://example.com/returns/${i} before 18:00.`;
  switch (i % 5) {
    case 0:
      return { baseline, now: `> ${baseline.replace(/\*\*/g, '').replace(/\*/g, '_').replace(' and tap', '\n> and  tap')}`, variants: [] };
    case 1:
      return { baseline, now: reworded, variants: [`Returns are fine for ${days} days.`, reworded] };
    case 2:
      return { baseline, now: baseline.replace(`within ${days} days`, `within ${days + 7} days`), variants: [] };
    default:
      return { baseline, now: reworded, variants: [] };
  }
}

export function measureLadder(items = 5000, rounds = 3): LadderFigures {
  const pairs = Array.from({ length: items }, (_, i) => pairOf(i));
  const times: number[] = [];
  let decided: Record<string, number> = {};
  for (let r = 0; r < rounds; r++) {
    const counts: Record<string, number> = {};
    const started = process.cpuUsage();
    for (const p of pairs) {
      const m = meaningWithoutModel(p.baseline, p.now, p.variants, 'judge');
      const key = m === null ? 'none' : m === 'judge' ? 'judge' : m.value;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
    decided = counts;
  }
  times.sort((a, b) => a - b);
  return { items, ms: times[Math.floor(times.length / 2)] as number, decided };
}
