// Tokens the agent reported (docs/latency.md, "Usage"), shown beside the estimate (which stays an
// estimate in USD, never a bill): "agent tokens reported: 12.4k (9.1k in, 3.3k out), +18% vs
// baselines". Whose they are is said: the agent's turns', never the judge's, the meaning judge's or
// the simulator's, whose calls are counted as calls (spend.ts). Null when no turn of the run
// reported usage, so a run without any renders exactly as before.

import { usageSummary } from '../evaluate/usage.js';
import type { RunRecord } from '../types.js';

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

/** The usage line's text, or null when nothing was reported. */
export function usageText(run: Pick<RunRecord, 'fixtures' | 'personas'>): string | null {
  const s = usageSummary(run.fixtures, run.personas ?? []);
  if (s === null) return null;
  const total = s.total.inputTokens + s.total.outputTokens;
  const head = `agent tokens reported: ${compactCount(total)} (${compactCount(s.total.inputTokens)} in, ${compactCount(s.total.outputTokens)} out)`;
  return s.change === null ? head : `${head}, ${changeText(s.change)} vs baselines`;
}
