// The colours report.html's charts draw with presentation attributes (forest.ts: the page's
// Content-Security-Policy allows no inline style), each with its dark version in one table. The
// stylesheet's dark rules are written from it (assets.ts), so that a colour changed here keeps its
// dark version: the rules used to repeat each value by hand, and a changed one lost its dark colour.
// The stylesheet's colour variables (--fg, --pass, ...) are written from the same table, with the
// page's own colours beside it, so that the text and the charts never say one role in two values.
// GitHub's light and dark colours, as the page's (docs/action.md, "report.html").

/** Light and dark, per role. A grey that reads on both backgrounds (3:1 or more) keeps one value. */
export const CHART_COLOURS = {
  fg: { light: '#1f2328', dark: '#e6edf3' },
  muted: { light: '#59636e', dark: '#9198a1' },
  grid: { light: '#eaeef2', dark: '#262c36' },
  fail: { light: '#cf222e', dark: '#f85149' },
  warn: { light: '#9a6700', dark: '#d29922' },
  pass: { light: '#1a7f37', dark: '#3fb950' },
  accent: { light: '#0969da', dark: '#4493f8' },
  // The baseline's grey, in the pass-rate chart and on the latency chart's track: 3.2:1 and more on
  // both pages' panels and tracks (WCAG's 3:1 for graphics).
  baseline: { light: '#818b98', dark: '#818b98' },
  tooFew: { light: '#6e7781', dark: '#6e7781' },
} as const;

/** The dark page's rules: every drawn fill or stroke of a light value becomes its dark one. */
export function darkChartRules(): string {
  return Object.values(CHART_COLOURS)
    .filter((c) => c.light !== c.dark)
    .map((c) => `svg [fill="${c.light}"]{fill:${c.dark}}svg [stroke="${c.light}"]{stroke:${c.dark}}`)
    .join('\n');
}

/** The page's own colours, light and dark, that no chart draws: its background, borders, panels, diff marks. */
export const PAGE_COLOURS = {
  bg: { light: '#fff', dark: '#0d1117' },
  line: { light: '#d1d9e0', dark: '#3d444d' },
  soft: { light: '#f6f8fa', dark: '#151b23' },
  'del-bg': { light: '#ffebe9', dark: '#3c1e23' },
  'del-mark': { light: '#ffc1bd', dark: '#8e1519' },
  'ins-bg': { light: '#e6ffec', dark: '#13291c' },
  'ins-mark': { light: '#a6f0b8', dark: '#1f6f3b' },
} as const;

/** The stylesheet's colour variables, in the order it declares them, each from one of the two tables. */
const ROOT_COLOURS: ReadonlyArray<readonly [string, { light: string; dark: string }]> = [
  ['fg', CHART_COLOURS.fg],
  ['muted', CHART_COLOURS.muted],
  ['line', PAGE_COLOURS.line],
  ['soft', PAGE_COLOURS.soft],
  ['pass', CHART_COLOURS.pass],
  ['fail', CHART_COLOURS.fail],
  ['warn', CHART_COLOURS.warn],
  ['del-bg', PAGE_COLOURS['del-bg']],
  ['del-mark', PAGE_COLOURS['del-mark']],
  ['ins-bg', PAGE_COLOURS['ins-bg']],
  ['ins-mark', PAGE_COLOURS['ins-mark']],
  ['accent', CHART_COLOURS.accent],
];

/** The declarations of `:root`'s colour variables for the light or the dark page (`--fg:#1f2328;...`). */
export function rootColourVars(scheme: 'light' | 'dark'): string {
  return ROOT_COLOURS.map(([name, c]) => `--${name}:${c[scheme]}`).join(';');
}
