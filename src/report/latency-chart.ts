// The job summary's turn latency chart (docs/latency.md, "Views"): p50 and p95 of this run's
// message turns against the same figures over the baselines' latency, as a text bar chart in a
// code block. A code block renders the same in every GitHub markdown surface (a job summary, the
// CLI's markdown report, an editor) and carries no markup to escape: only numbers go in it.

import { itemLatencyMs, nearestRank } from '../evaluate/latency.js';
import type { RunRecord } from '../types.js';
import { durationText, thousands } from '../words.js';

/** Width of the longest bar, in characters. */
const BAR = 28;
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `value` against `max`, in eighths of a character. */
export function barText(value: number, max: number, width = BAR): string {
  if (max <= 0) return '';
  const eighths = Math.round((Math.max(0, value) / max) * width * 8);
  const full = Math.floor(eighths / 8);
  return '█'.repeat(full) + EIGHTHS[eighths % 8]!;
}

export interface LatencyFigures {
  /** The run's message turns (results.json's `latency`). */
  now: { turns: number; p50Ms: number; p95Ms: number };
  /**
   * Over the fixtures whose baseline kept a latency (a script's baseline keeps only its
   * conversation's sum), their baselines' and the same fixtures' now, each as compared with its
   * baseline (a repeated fixture's: its attempts' median); null when no baseline kept one.
   */
  baselines: { turns: number; p50Ms: number; p95Ms: number; now: { p50Ms: number; p95Ms: number } } | null;
  /** Persona scripts whose baseline kept a latency: their conversation's total, not a turn's. */
  scriptBaselines: number;
  /** Fixtures whose baseline kept a latency but that were not measured now (errored): not compared. */
  unmeasured: number;
}

/** The run's figures and the baselines', or null when no turn was measured. */
export function latencyFigures(run: Pick<RunRecord, 'fixtures' | 'personas' | 'latency'>): LatencyFigures | null {
  const now = run.latency;
  if (now == null) return null;
  // Like with like (docs/latency.md, "Views"): the baselines against the same fixtures now, so that
  // a script's turns or a new fixture, which no baseline figure stands for, do not read as a change.
  const before: number[] = [];
  const after: number[] = [];
  let unmeasured = 0;
  for (const f of run.fixtures) {
    const ms = f.baseline?.latencyMs;
    const nowMs = itemLatencyMs(f);
    if (typeof ms !== 'number') continue;
    if (typeof nowMs !== 'number') {
      unmeasured++;
      continue;
    }
    before.push(ms);
    after.push(nowMs);
  }
  before.sort((a, b) => a - b);
  after.sort((a, b) => a - b);
  const baselines =
    before.length === 0 ? null : { turns: before.length, p50Ms: nearestRank(before, 50), p95Ms: nearestRank(before, 95), now: { p50Ms: nearestRank(after, 50), p95Ms: nearestRank(after, 95) } };
  const scriptBaselines = (run.personas ?? []).filter((p) => typeof p.baseline?.latencyMs === 'number').length;
  return { now: { turns: now.turns, p50Ms: now.p50Ms, p95Ms: now.p95Ms }, baselines, scriptBaselines, unmeasured };
}

/** The chart block (a heading, a line, the code block), or null when no turn was measured. */
export function latencyChartBlock(run: Pick<RunRecord, 'fixtures' | 'personas' | 'latency'>): string | null {
  const fig = latencyFigures(run);
  if (fig === null) return null;
  const b = fig.baselines;
  // With baselines, "now" is the same fixtures' (like with like); without, the run's turns.
  const now = b === null ? fig.now : b.now;
  const max = Math.max(now.p95Ms, b?.p95Ms ?? 0, 1);
  const rows: [string, string, number][] = [
    ['p50', 'now', now.p50Ms],
    ...(b ? ([['', 'baselines', b.p50Ms]] as [string, string, number][]) : []),
    ['p95', 'now', now.p95Ms],
    ...(b ? ([['', 'baselines', b.p95Ms]] as [string, string, number][]) : []),
  ];
  const lines = rows.map(([p, who, ms]) => `${p.padEnd(4)} ${who.padEnd(10)} ${barText(ms, max).padEnd(BAR + 1)} ${durationText(ms)}`.trimEnd());
  const turns = (n: number): string => `${thousands(n)} ${n === 1 ? 'turn' : 'turns'}`;
  return `#### Turn latency\n\n${overLine(fig)}\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\``;

  function overLine(f: LatencyFigures): string {
    const base = f.baselines;
    if (base === null) {
      // A script's baseline keeps its conversation's total, not its turns': no per-turn figure, but said (docs/latency.md, "Views").
      const scripts = f.scriptBaselines;
      const kept = scripts === 1 ? "the persona script's baseline keeps only its conversation's total" : `the ${thousands(scripts)} persona scripts' baselines keep only each conversation's total`;
      const notNow = f.unmeasured === 1 ? 'the 1 fixture whose baseline kept a latency was not measured now' : `the ${thousands(f.unmeasured)} fixtures whose baseline kept a latency were not measured now`;
      const none = f.unmeasured > 0 ? `none compared (${notNow})` : scripts === 0 ? 'none kept a latency yet' : `none per turn (${kept}: a slower script says so on its line)`;
      return `now: ${turns(f.now.turns)} of this run; baselines: ${none}`;
    }
    const fixtures = base.turns === 1 ? '1 fixture whose baseline kept a latency, its message turn' : `${thousands(base.turns)} fixtures whose baseline kept a latency, their message turns`;
    const same = f.now.turns === base.turns && f.now.p50Ms === base.now.p50Ms && f.now.p95Ms === base.now.p95Ms;
    const run = same ? '' : `; this run's ${turns(f.now.turns)}: p50 ${durationText(f.now.p50Ms)}, p95 ${durationText(f.now.p95Ms)}`;
    return `now and baselines: the ${fixtures}${run}`;
  }
}
