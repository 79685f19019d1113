// Tokens the agent reported (docs/latency.md, "Usage"), shown beside the estimate (which stays an
// estimate in USD, never a bill): "agent tokens reported: 12.4k (9.1k in, 3.3k out), +18% vs
// baselines". Whose they are is said: the agent's turns', never the judge's, the meaning judge's or
// the simulator's, whose calls are counted as calls (spend.ts). Null when no turn of the run
// reported usage, so a run without any renders exactly as before.

import { usageSummary, type UsageSummary } from '../evaluate/usage.js';
import type { RunRecord } from '../types.js';
import { plural } from '../words.js';

/** 842, 12.4k, 3.1M: one decimal below a hundred of the unit and whole units above, a half rounded up. */
export function compactCount(n: number): string {
  if (Math.round(n) < 1000) return String(Math.round(n));
  const units: [number, string][] = [
    [1e3, 'k'],
    [1e6, 'M'],
    [1e9, 'G'],
  ];
  // The smallest unit whose rounded figure stays below 1000: 999,960 is "1M", never "1000k". The
  // tenths are counted in whole numbers, so that 1,150 is "1.2k" as 1,250 is "1.3k" ((1.15).toFixed(1)
  // is "1.1": 1.15 is not held exactly).
  for (const [size, unit] of units) {
    const tenths = Math.round((n * 10) / size);
    const shown = tenths >= 1000 ? Math.round(n / size) : tenths / 10;
    if (shown < 1000 || unit === 'G') return `${String(shown)}${unit}`;
  }
  return String(Math.round(n));
}

/** "+18%", "-3%", "±0%": the change against the baselines, whole percent, a half away from ±0% either way. */
export function changeText(change: number): string {
  // Math.round alone takes -0.5 to 0 and +0.5 to 1: a rise and a drop of the same size read alike.
  const pct = Math.sign(change) * Math.round(Math.abs(change) * 100);
  if (pct === 0) return '±0%';
  return pct > 0 ? `+${pct}%` : `${pct}%`;
}

/**
 * The change against the baselines in words, "+18% vs baselines", and the items left out of it
 * because their tokens are some turns' alone (UsageSummary.partial), "1 item left out: its turns
 * did not all report tokens"; with items left out and none compared, "none compared with
 * baselines". Each null when there is nothing to say.
 */
export function usageChangeWords(s: UsageSummary): { change: string | null; leftOut: string | null } {
  const leftOut = s.partial === 0 ? null : `${plural(s.partial, 'item', 'items')} left out: ${s.partial === 1 ? 'its' : 'their'} turns did not all report tokens`;
  const change = s.change !== null ? `${changeText(s.change)} vs baselines` : leftOut !== null && s.compared === 0 ? 'none compared with baselines' : null;
  return { change, leftOut };
}

/** The usage line's text, or null when nothing was reported. */
export function usageText(run: Pick<RunRecord, 'fixtures' | 'personas'>): string | null {
  const s = usageSummary(run.fixtures, run.personas ?? []);
  if (s === null) return null;
  const total = s.total.inputTokens + s.total.outputTokens;
  const head = `agent tokens reported: ${compactCount(total)} (${compactCount(s.total.inputTokens)} in, ${compactCount(s.total.outputTokens)} out)`;
  const { change, leftOut } = usageChangeWords(s);
  return `${head}${change === null ? '' : `, ${change}`}${leftOut === null ? '' : ` (${leftOut})`}`;
}
