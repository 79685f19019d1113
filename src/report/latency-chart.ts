// The job summary's turn latency chart (docs/latency.md, "Views"): p50 and p95 of this run's
// message turns against the same figures over the baselines' latency, as a text bar chart in a
// code block. A code block renders the same in every GitHub markdown surface (a job summary, the
// CLI's markdown report, an editor) and carries no markup to escape: only numbers go in it.

import { nearestRank } from '../evaluate/latency.js';
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
  now: { turns: number; p50Ms: number; p95Ms: number };
  /** Over the fixtures whose baseline kept a latency (a script's baseline keeps only its conversation's sum); null when none did. */
  baselines: { turns: number; p50Ms: number; p95Ms: number } | null;
  /** Persona scripts whose baseline kept a latency: their conversation's total, not a turn's. */
  scriptBaselines: number;
}

/** The run's figures and the baselines', or null when no turn was measured. */
export function latencyFigures(run: Pick<RunRecord, 'fixtures' | 'personas' | 'latency'>): LatencyFigures | null {
  const now = run.latency;
  if (now == null) return null;
  const before: number[] = [];
  for (const f of run.fixtures) {
    const ms = f.baseline?.latencyMs;
    if (typeof ms === 'number') before.push(ms);
  }
  before.sort((a, b) => a - b);
  const baselines = before.length === 0 ? null : { turns: before.length, p50Ms: nearestRank(before, 50), p95Ms: nearestRank(before, 95) };
  const scriptBaselines = (run.personas ?? []).filter((p) => typeof p.baseline?.latencyMs === 'number').length;
  return { now: { turns: now.turns, p50Ms: now.p50Ms, p95Ms: now.p95Ms }, baselines, scriptBaselines };
}

/** The chart block (a heading, a line, the code block), or null when no turn was measured. */
export function latencyChartBlock(run: Pick<RunRecord, 'fixtures' | 'personas' | 'latency'>): string | null {
  const fig = latencyFigures(run);
  if (fig === null) return null;
  const b = fig.baselines;
  const max = Math.max(fig.now.p95Ms, b?.p95Ms ?? 0, 1);
  const rows: [string, string, number][] = [
    ['p50', 'now', fig.now.p50Ms],
    ...(b ? ([['', 'baselines', b.p50Ms]] as [string, string, number][]) : []),
    ['p95', 'now', fig.now.p95Ms],
    ...(b ? ([['', 'baselines', b.p95Ms]] as [string, string, number][]) : []),
  ];
  const lines = rows.map(([p, who, ms]) => `${p.padEnd(4)} ${who.padEnd(10)} ${barText(ms, max).padEnd(BAR + 1)} ${durationText(ms)}`.trimEnd());
  const turns = (n: number): string => `${thousands(n)} ${n === 1 ? 'turn' : 'turns'}`;
  // A script's baseline keeps its conversation's total, not its turns': no per-turn figure, but said (docs/latency.md, "Views").
  const scripts = fig.scriptBaselines;
  const kept = scripts === 1 ? "the persona script's baseline keeps only its conversation's total" : `the ${thousands(scripts)} persona scripts' baselines keep only each conversation's total`;
  const none = scripts === 0 ? 'none kept a latency yet' : `none per turn (${kept}: a slower script says so on its line)`;
  const over = `now: ${turns(fig.now.turns)} of this run; baselines: ${b ? `${turns(b.turns)} (the fixtures' accepted replies)` : none}`;
  return `#### Turn latency\n\n${over}\n\n\`\`\`text\n${lines.join('\n')}\n\`\`\``;
}
