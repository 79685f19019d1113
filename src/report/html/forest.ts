// report.html's forest plot (docs/statistics.md, "In the reports"): per repeated item, the
// baseline's pass rate against now, each with its 95% Wilson interval, on one 0-100% scale;
// regressed items first. An inline SVG with presentation attributes only (the page's
// Content-Security-Policy allows no inline style, and the stylesheet's hash stays as it is); every
// text through the HTML escaper.

import { chartAttr, chartText as h } from '../escape.js';
import { CHART_COLOURS } from './palette.js';
import { SCRIPT_MARK } from '../model.js';
import type { ForestRow } from '../rates.js';
import { TIER_WORDS } from '../rates.js';
import type { Tier } from '../../types.js';
import { headOf, thousands } from '../../words.js';

/** Rows drawn; the rest are counted under the chart. */
export const FOREST_ROWS = 40;

const W = 720;
const ROW = 24;
const LABEL_W = 200;
const VALUE_W = 190;
const TOP = 40;
const BOTTOM = 24;

/** The colour of now's mark, by tier: the page's red, amber, green, blue and grey. */
const TIER_COLOUR: Record<Tier, string> = {
  regressed: CHART_COLOURS.fail.light,
  likely_regressed: CHART_COLOURS.warn.light,
  improved: CHART_COLOURS.pass.light,
  steady: CHART_COLOURS.accent.light,
  too_few: CHART_COLOURS.tooFew.light,
};
// The stylesheet's dark rules recolour these by value, from the same table (palette.ts).
const BASELINE = CHART_COLOURS.baseline.light;
const MUTED = CHART_COLOURS.muted.light;
const GRID = CHART_COLOURS.grid.light;
const FG = CHART_COLOURS.fg.light;

function clipLabel(label: string, n = 28): string {
  return label.length <= n ? label : `${headOf(label, n - 1)}…`;
}

/** One interval with its point: a line from lo to hi and a mark at the rate. */
function interval(x: (r: number) => number, y: number, ci: readonly [number, number], rate: number | null, colour: string, shape: 'circle' | 'square'): string {
  const parts = [`<line x1="${x(ci[0]).toFixed(1)}" x2="${x(ci[1]).toFixed(1)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="2"/>`];
  for (const end of ci) parts.push(`<line x1="${x(end).toFixed(1)}" x2="${x(end).toFixed(1)}" y1="${y - 3}" y2="${y + 3}" stroke="${colour}" stroke-width="1.5"/>`);
  if (rate !== null) {
    const cx = x(rate).toFixed(1);
    parts.push(shape === 'circle' ? `<circle cx="${cx}" cy="${y}" r="4.5" fill="${colour}"/>` : `<rect x="${(x(rate) - 4).toFixed(1)}" y="${y - 4}" width="8" height="8" fill="${colour}"/>`);
  }
  return parts.join('');
}

/** The panel, or '' when no item has a pass rate against a baseline. */
export function forestPanel(all: readonly ForestRow[]): string {
  if (all.length === 0) return '';
  const rows = all.slice(0, FOREST_ROWS);
  const plotW = W - LABEL_W - VALUE_W;
  const x = (r: number): number => LABEL_W + Math.min(1, Math.max(0, r)) * plotW;
  const H = TOP + rows.length * ROW + BOTTOM;
  const parts: string[] = [];
  // Legend, then the grid at every 25 points.
  parts.push(`<circle cx="${LABEL_W + 6}" cy="12" r="4.5" fill="${BASELINE}"/><text x="${LABEL_W + 15}" y="16" font-size="11" fill="${MUTED}">baseline</text>`);
  parts.push(`<rect x="${LABEL_W + 76}" y="8" width="8" height="8" fill="${TIER_COLOUR.steady}"/><text x="${LABEL_W + 89}" y="16" font-size="11" fill="${MUTED}">now (colour: tier) · lines: 95% intervals</text>`);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const tx = x(tick).toFixed(1);
    parts.push(`<line x1="${tx}" x2="${tx}" y1="${TOP - 8}" y2="${H - BOTTOM}" stroke="${GRID}" stroke-width="1"/>`);
    parts.push(`<text x="${tx}" y="${H - 8}" font-size="11" fill="${MUTED}" text-anchor="middle">${Math.round(tick * 100)}%</text>`);
  }
  rows.forEach((r, i) => {
    const y = TOP + i * ROW;
    const colour = TIER_COLOUR[r.tier];
    const title = `<title>${h(r.label)}: ${h(r.words)}</title>`;
    parts.push(`<g class="forest-row" data-label="${chartAttr(r.label)}" data-tier="${r.tier}">${title}`);
    parts.push(`<text x="${LABEL_W - 8}" y="${y + 4}" font-size="12" fill="${FG}" text-anchor="end">${r.script ? `${SCRIPT_MARK} ` : ''}${h(clipLabel(r.label))}</text>`);
    parts.push(interval(x, y - 4, r.baselineCi, r.baselineRate, BASELINE, 'circle'));
    parts.push(interval(x, y + 4, r.ci, r.rate, colour, 'square'));
    const bold = r.tier === 'regressed' ? ' font-weight="600"' : '';
    parts.push(`<text x="${W - VALUE_W + 10}" y="${y + 4}" font-size="12" fill="${r.tier === 'steady' || r.tier === 'too_few' ? FG : colour}"${bold}>${h(r.counts)} ${h(TIER_WORDS[r.tier])}</text>`);
    parts.push('</g>');
  });
  const counts = new Map<Tier, number>();
  for (const r of all) counts.set(r.tier, (counts.get(r.tier) ?? 0) + 1);
  const tally = [...counts.entries()].map(([t, n]) => `${thousands(n)} ${TIER_WORDS[t]}`).join(', ');
  const label = `Pass rate per repeated item, baseline against now with 95% intervals: ${thousands(all.length)} items (${tally})`;
  const svg = `<svg class="forest" width="100%" viewBox="0 0 ${W} ${H}" role="img" aria-label="${chartAttr(label)}">${parts.join('')}</svg>`;
  const note = `<p class="meta">Baseline (grey) against now, coloured by tier: regressed first. A line is the 95% interval of a pass rate; the tier comes from Fisher's exact test on the counts, not from whether the lines overlap. ${h(tally)}.</p>`;
  const more = all.length > rows.length ? `<p class="meta">and ${thousands(all.length - rows.length)} more ${all.length - rows.length === 1 ? 'item' : 'items'}, in the same order</p>` : '';
  return `<div class="panel wide"><h3>Pass rates</h3>${note}${svg}${more}</div>`;
}
