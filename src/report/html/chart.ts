// The agreement trend as an inline SVG line chart: one point per recorded run, oldest left.
// Presentation attributes only (no style attributes: the page's Content-Security-Policy allows
// no inline styles but its one stylesheet). Every text through the HTML escaper.

import { chartAttr, chartText as h } from '../escape.js';
import { agreementBasis } from '../evaluations.js';

/**
 * One recorded run of the default branch, for the trend. The shape of report/context.ts's
 * TrendPoint (check mode's trend lookup), so its points can be passed as they are.
 */
export interface HtmlTrendPoint {
  runId: string;
  commit: string | null;
  startedAt: string;
  /** `percent`: agreement 0-100, null when nothing passed or failed; the items left out of it, when known (a recorded run's agreement has them). */
  agreement: { percent: number | null; passed: number; failed: number; notEvaluated?: number; errored?: number };
}

/** What the x axis says: the short sha, else the run id. */
function labelOf(p: HtmlTrendPoint): string {
  return p.commit && /^[0-9a-f]{7,64}$/i.test(p.commit) ? p.commit.slice(0, 7) : `run ${p.runId}`;
}

// Drawn as wide as its panel is at its narrowest (310 px: a 390 px phone, or two columns at 740 px),
// so that its 11 px text is 11 px there too; drawn 400 wide, it shrank to 8.6 px. A wider panel
// shows it no larger than 200 px high (the stylesheet's svg.trend), its text about 11.6 px.
const W = 310;
const H = 190;
/** The most x-axis labels: an 11-character one ("run 1234567", about 62 wide) never meets the next. */
const X_LABELS = 3;
/** The longest x-axis label, in characters (the width X_LABELS and PAD.right are set for). */
const LABEL_MAX = 11;

/**
 * The x-axis label: labelOf whole when it fits, else cut visibly, its end kept: a GitHub run id
 * (10-11 digits) reads "run …543210", never "run 1234567", a wrong number with no sign it was cut.
 * The point's tooltip has it whole.
 */
function axisLabelOf(p: HtmlTrendPoint): string {
  const whole = labelOf(p);
  if (whole.length <= LABEL_MAX) return whole;
  const head = whole.startsWith('run ') ? 'run …' : '…';
  return head + whole.slice(whole.length - (LABEL_MAX - head.length));
}
// The right pad holds half the last label (it was cut off at the chart's edge), the left one the
// y axis's "100%".
const PAD = { left: 40, right: 32, top: 12, bottom: 30 };

function pct(p: number): string {
  const r = Math.round(p * 10) / 10;
  return `${Number.isInteger(r) ? r.toFixed(0) : r.toFixed(1)}%`;
}

/** The chart, or null when there are no points. */
export function trendSvg(points: readonly HtmlTrendPoint[]): string | null {
  if (points.length === 0) return null;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number): number => PAD.left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (p: number): number => PAD.top + plotH - (Math.max(0, Math.min(100, p)) / 100) * plotH;
  const parts: string[] = [];
  for (const tick of [0, 25, 50, 75, 100]) {
    const ty = y(tick).toFixed(1);
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${ty}" y2="${ty}" class="grid"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${ty}" class="axis" text-anchor="end" dominant-baseline="middle">${tick}%</text>`);
  }
  // The line breaks where a run has no agreement (nothing passed or failed).
  let run: string[] = [];
  const lines: string[] = [];
  points.forEach((p, i) => {
    const percent = p.agreement.percent;
    if (percent === null) {
      if (run.length > 1) lines.push(run.join(' '));
      run = [];
    } else run.push(`${x(i).toFixed(1)},${y(percent).toFixed(1)}`);
  });
  if (run.length > 1) lines.push(run.join(' '));
  for (const l of lines) parts.push(`<polyline points="${l}" class="trend-line" fill="none"/>`);
  const every = Math.ceil(points.length / X_LABELS);
  points.forEach((p, i) => {
    const cx = x(i).toFixed(1);
    const { percent } = p.agreement;
    const value = percent === null ? 'n/a' : pct(percent);
    // Of items, in the agreement line's words (docs/evaluations.md#agreement): a repeated run's "8 passed" read as attempts.
    const basis = agreementBasis({ notEvaluated: 0, errored: 0, ...p.agreement });
    const title = `<title>${h(labelOf(p))} · ${h(p.startedAt)} · agreement ${value} (${h(basis)})</title>`;
    if (percent !== null) parts.push(`<circle cx="${cx}" cy="${y(percent).toFixed(1)}" r="4" class="trend-point">${title}</circle>`);
    else parts.push(`<text x="${cx}" y="${(PAD.top + plotH - 4).toFixed(1)}" class="axis" text-anchor="middle">n/a${title}</text>`);
    if ((points.length - 1 - i) % every === 0) {
      parts.push(`<text x="${cx}" y="${H - 12}" class="axis" text-anchor="middle">${h(axisLabelOf(p))}</text>`);
    }
  });
  const last = (points[points.length - 1] as HtmlTrendPoint).agreement.percent;
  const label = `Agreement over the last ${points.length} recorded ${points.length === 1 ? 'run' : 'runs'}; latest ${last === null ? 'n/a' : pct(last)}`;
  return `<svg class="trend" viewBox="0 0 ${W} ${H}" role="img" aria-label="${chartAttr(label)}">${parts.join('')}</svg>`;
}
