// report.html's latency view (docs/latency.md, "Views"): per item, its baseline's latency against
// now as a pair of bars on one scale, the most slowed-down first, with the run's p50 / p95 turn
// latency marked across. An inline SVG with presentation attributes and classes only (the page's
// Content-Security-Policy allows no inline style); every text through the HTML escaper.

import { itemLatencyMs } from '../../evaluate/latency.js';
import { chartAttr, chartText as h } from '../escape.js';
import { isPersona, SCRIPT_MARK, type Item } from '../model.js';
import type { RunLatency } from '../../types.js';
import { durationText, headOf, thousands } from '../../words.js';

/** Rows drawn; the rest are counted under the chart. */
export const LATENCY_ROWS = 25;

const W = 720;
const ROW = 26;
const LABEL_W = 200;
// Wide enough for the longest figures with their word ("12.3 s → 45.6 s, slower") in a wider font than Chromium's here.
const VALUE_W = 170;
const TOP = 34;
const BOTTOM = 22;

export interface LatencyRow {
  label: string;
  script: boolean;
  nowMs: number;
  /** The baseline's latency; null when there is no baseline or it kept none. */
  beforeMs: number | null;
  slower: boolean;
  /** Faster than its baseline by the latency rule mirrored (the record's `faster`): a decrease within it is about the same. */
  faster: boolean;
}

/** Every item with a measured latency: slowed-down most first, then those without a baseline figure, slowest first. */
export function latencyRows(items: readonly Item[]): LatencyRow[] {
  const rows: LatencyRow[] = [];
  for (const f of items) {
    // The record says which items are slower (config.yml's latency rule), and against what: a
    // repeated item's figures are its attempts' median (docs/latency.md, "Slower than the baseline"),
    // slower or not, as its baseline's is; not the latency of the attempt the record shows.
    const now = f.slower != null ? f.slower.latencyMs : itemLatencyMs(f);
    if (typeof now !== 'number') continue;
    const slower = f.slower != null;
    const before = f.slower != null ? f.slower.baselineMs : typeof f.baseline?.latencyMs === 'number' ? f.baseline.latencyMs : null;
    rows.push({ label: f.label, script: isPersona(f), nowMs: now, beforeMs: before, slower, faster: !slower && f.faster != null });
  }
  const delta = (r: LatencyRow): number => (r.beforeMs === null ? -Infinity : r.nowMs - r.beforeMs);
  return rows.sort((a, b) => {
    if ((a.beforeMs === null) !== (b.beforeMs === null)) return a.beforeMs === null ? 1 : -1;
    return a.beforeMs === null ? b.nowMs - a.nowMs : delta(b) - delta(a) || b.nowMs - a.nowMs;
  });
}

function clipLabel(label: string, n = 30): string {
  return label.length <= n ? label : `${headOf(label, n - 1)}…`;
}

/**
 * The items past the drawn rows, counted by what they are (docs/latency.md, "Views"): those with a
 * baseline figure are less slowed down than every row drawn; those with no baseline latency (no
 * baseline, or one that kept none) have nothing to compare, and are not "less slowed down".
 */
function restText(rest: readonly LatencyRow[]): string {
  const unmeasured = rest.filter((r) => r.beforeMs === null).length;
  const slowed = rest.length - unmeasured;
  const more = (n: number): string => `and ${thousands(n)} more ${n === 1 ? 'item' : 'items'}`;
  if (unmeasured === 0) return `${more(slowed)}, less slowed down`;
  if (slowed === 0) return `${more(unmeasured)} with no baseline latency`;
  // Each count says what it counts, as the Pass rates panel's line does ("and 3 more items, in the
  // same order"): "and 580 more items, less slowed down, and 20 with no baseline latency".
  return `${more(slowed)}, less slowed down, and ${thousands(unmeasured)} with no baseline latency`;
}

/** The panel, or '' when no item was measured. */
export function latencyPanel(items: readonly Item[], latency: RunLatency | null | undefined): string {
  const all = latencyRows(items);
  if (all.length === 0) return '';
  const rows = all.slice(0, LATENCY_ROWS);
  const max = Math.max(1, ...rows.map((r) => Math.max(r.nowMs, r.beforeMs ?? 0)), latency?.p95Ms ?? 0);
  const plotW = W - LABEL_W - VALUE_W;
  const x = (ms: number): number => LABEL_W + (Math.max(0, ms) / max) * plotW;
  const H = TOP + rows.length * ROW + BOTTOM;
  const parts: string[] = [];
  // p50 / p95 of the run's message turns, across every row.
  if (latency != null) {
    for (const [name, ms] of [
      ['p50', latency.p50Ms],
      ['p95', latency.p95Ms],
    ] as const) {
      const mx = x(ms).toFixed(1);
      parts.push(`<line x1="${mx}" x2="${mx}" y1="${TOP - 6}" y2="${H - BOTTOM}" class="mark"/>`);
      parts.push(`<text x="${mx}" y="${name === 'p50' ? TOP - 20 : TOP - 9}" class="axis" text-anchor="middle">${name} ${h(durationText(ms))}</text>`);
    }
  }
  rows.forEach((r, i) => {
    const y = TOP + i * ROW;
    const kind = r.slower ? 'now slow' : r.faster ? 'now fast' : 'now';
    const change = r.beforeMs === null ? 'no baseline latency' : `${durationText(r.beforeMs)} → ${durationText(r.nowMs)}`;
    // Slower and faster in words, as the pass-rate chart says its tier: the bar's red or green alone is
    // lost on a reader who cannot tell them apart, or who hears the chart (docs/action.md, "Accessibility").
    const word = r.slower ? 'slower' : r.faster ? 'faster' : null;
    const title = `<title>${h(r.label)}: ${h(change)}${word === null ? '' : ` (${word})`}</title>`;
    parts.push(`<g class="row${r.slower ? ' slower' : ''}" data-label="${chartAttr(r.label)}">${title}`);
    parts.push(`<text x="${LABEL_W - 8}" y="${y + 13}" class="label" text-anchor="end">${r.script ? `${SCRIPT_MARK} ` : ''}${h(clipLabel(r.label))}</text>`);
    parts.push(`<rect x="${LABEL_W}" y="${y + 3}" width="${plotW}" height="16" class="track"/>`);
    if (r.beforeMs !== null) parts.push(`<rect x="${LABEL_W}" y="${y + 3}" width="${(x(r.beforeMs) - LABEL_W).toFixed(1)}" height="6" class="before"/>`);
    parts.push(`<rect x="${LABEL_W}" y="${y + 10}" width="${Math.max(1, x(r.nowMs) - LABEL_W).toFixed(1)}" height="9" class="${kind}"/>`);
    parts.push(`<text x="${W - VALUE_W + 8}" y="${y + 14}" class="value${r.slower ? ' slow' : ''}">${h(change)}${word === null ? '' : `, ${word}`}</text>`);
    parts.push('</g>');
  });
  parts.push(`<text x="${LABEL_W}" y="${H - 6}" class="axis">0</text><text x="${LABEL_W + plotW}" y="${H - 6}" class="axis" text-anchor="end">${h(durationText(max))}</text>`);
  const slower = all.filter((r) => r.slower).length;
  const label = `Latency per item, baseline against now: ${thousands(all.length)} items measured${slower > 0 ? `, ${thousands(slower)} slower` : ''}`;
  const svg = `<svg class="latency" viewBox="0 0 ${W} ${H}" role="img" aria-label="${chartAttr(label)}">${parts.join('')}</svg>`;
  const legend =
    `<p class="meta lat-legend"><span class="key before"></span> baseline <span class="key now"></span> now <span class="key fast"></span> faster <span class="key slow"></span> slower ` +
    `(than its baseline by more than the latency rule) · a fixture's message turn, a script's whole conversation${latency != null ? ' · p50 / p95: the run\'s message turns' : ''}</p>`;
  const more = all.length > rows.length ? `<p class="meta">${h(restText(all.slice(rows.length)))}</p>` : '';
  return `<div class="panel wide"><h3>Latency</h3>${legend}${svg}${more}</div>`;
}
