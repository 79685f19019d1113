// report.html's forest plot (docs/statistics.md, "In the reports"): per repeated item, its baseline's
// pass rate against now with their 95% intervals, regressed first; labels escaped; no request. Real
// headless Chromium on a real file. AGENT_REPLAY_SCREENSHOT=/tmp/x.png keeps a screenshot of the panel.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { STYLE } from '../../src/report/html/assets.js';
import { forestPanel } from '../../src/report/html/forest.js';
import { CHART_COLOURS } from '../../src/report/html/palette.js';
import { forestRows } from '../../src/report/rates.js';
import type { RunRecord } from '../../src/types.js';
import { HOSTILE, mixed } from './fixtures.js';
import { repeated, statsRun, withRunStats } from './stats-fixtures.js';
import { launchChromium, openReport, SKIP_BROWSER_TESTS } from '../support/browser.js';

describe('report.html forest plot', () => {
  // Launched by the one test that draws, so that without a browser only that test fails (or is skipped).
  let browser: Browser | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-replay-forest-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rows: every item with stats against a baseline, worst tier first, then the smaller drop p', () => {
    expect(forestRows(statsRun().fixtures).map((r) => [r.label, r.tier])).toEqual([
      ['refund-window', 'regressed'],
      ['greeting', 'regressed'],
      ['order-status', 'likely_regressed'],
      ['shipping-times', 'improved'],
      ['store-locations', 'too_few'],
      ['opening-hours', 'steady'],
    ]);
  });

  it('no item with stats against a baseline: no panel', () => {
    expect(renderHtml(mixed())).not.toContain('<h3>Pass rates</h3>');
  });

  it('escapes a hostile label in the plot', () => {
    const record = withRunStats([repeated(HOSTILE, { passed: 10, total: 10 }, { passed: 0, total: 3 }, 2)]);
    const html = renderHtml(record);
    const svg = html.slice(html.indexOf('<svg class="forest"'), html.indexOf('</svg>', html.indexOf('<svg class="forest"')));
    expect(svg).not.toMatch(/<script|<img|<\/details|<!--/i);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const c of ['\u202E', '\u001b', '\u0007']) expect(svg).not.toContain(c);
  });

  it("every colour it draws is the palette's, and the dark page's stylesheet recolours each whose dark version differs", () => {
    // The stylesheet's dark rules repeated the chart's values by hand: a colour changed in one place
    // lost its dark version without a word. Both now come from palette.ts's one table.
    const drawn = new Set([...forestPanel(forestRows(statsRun().fixtures)).matchAll(/ (?:fill|stroke)="(#[0-9a-f]{6})"/g)].map((m) => m[1]));
    const palette = Object.values(CHART_COLOURS);
    expect([...drawn].filter((c) => !palette.some((p) => p.light === c))).toEqual([]);
    const dark = STYLE.slice(STYLE.indexOf('@media (prefers-color-scheme:dark)'));
    for (const c of palette) {
      for (const attr of ['fill', 'stroke']) {
        const rule = `svg [${attr}="${c.light}"]{${attr}:${c.dark}}`;
        expect(dark.includes(rule), rule).toBe(c.light !== c.dark);
      }
    }
    // Every tier's colour is drawn (the run holds each tier), and the baseline's grey.
    expect(drawn).toEqual(new Set([CHART_COLOURS.fail.light, CHART_COLOURS.warn.light, CHART_COLOURS.pass.light, CHART_COLOURS.accent.light, CHART_COLOURS.tooFew.light, CHART_COLOURS.baseline.light, CHART_COLOURS.muted.light, CHART_COLOURS.grid.light, CHART_COLOURS.fg.light]));
  });

  it("the stylesheet's colour variables, light and dark, are the palette's values for the roles it has", () => {
    // :root repeated the table's values by hand: a colour changed in palette.ts left the page's text,
    // pills and trend line in the old one. Each --<role> of the table now comes from it.
    const dark = STYLE.indexOf('@media (prefers-color-scheme:dark)');
    const vars = (from: number): Map<string, string> => {
      const block = STYLE.slice(STYLE.indexOf(':root{', from), STYLE.indexOf('}', STYLE.indexOf(':root{', from)));
      return new Map([...block.matchAll(/--([a-z-]+):(#[0-9a-f]{6})/g)].map((m) => [m[1]!, m[2]!]));
    };
    for (const [scheme, at] of [['light', 0], ['dark', dark]] as const) {
      const declared = vars(at);
      const shared = Object.entries(CHART_COLOURS).filter(([role]) => declared.has(role));
      expect(shared.map(([role]) => role), scheme).toEqual(['fg', 'muted', 'fail', 'warn', 'pass', 'accent']);
      for (const [role, c] of shared) expect(`--${role}:${declared.get(role)}`, scheme).toBe(`--${role}:${c[scheme]}`);
    }
    // The trend chart's grid is the table's too, on both pages.
    expect(STYLE).toContain(`svg.trend .grid{stroke:${CHART_COLOURS.grid.light};`);
    expect(STYLE.slice(dark)).toContain(`svg.trend .grid{stroke:${CHART_COLOURS.grid.dark}}`);
  });

  it("a grid grey or the page's background changed in the table is changed in every rule that paints it, on both pages", async () => {
    // The items' and checks' borders repeated the grid's greys by hand (#eaeef2, #262c36), and the dark
    // page's background, chips and empty side-by-side cells its #0d1117: changed in palette.ts, they kept the old ones.
    vi.resetModules();
    const palette = await import('../../src/report/html/palette.js');
    const grid = palette.CHART_COLOURS.grid;
    const { bg, soft } = palette.PAGE_COLOURS;
    const old = [grid.light, grid.dark, bg.light, bg.dark, soft.light, soft.dark];
    Object.assign(grid, { light: '#0000a1', dark: '#0000a2' });
    Object.assign(bg, { light: '#0000b1', dark: '#0000b2' });
    Object.assign(soft, { light: '#0000c1', dark: '#0000c2' });
    const { STYLE: restyled } = await import('../../src/report/html/assets.js');
    vi.resetModules();
    // No old value is left (a hex colour is whole: #fff is not the start of #fff5f4).
    for (const c of old) expect(restyled, c).not.toMatch(new RegExp(`${c}(?![0-9a-f])`));
    const dark = restyled.slice(restyled.indexOf('@media (prefers-color-scheme:dark)'));
    expect(restyled).toContain('.item{border-bottom:1px solid #0000a1}');
    expect(restyled).toContain('table.checks td,table.checks th{border-bottom:1px solid #0000a1;');
    expect(restyled).toContain('color:var(--fg);background:#0000b1}');
    expect(dark).toContain('.item,table.checks td,table.checks th{border-color:#0000a2}');
    expect(dark).toContain('body,.filters,.chip span,.reply.user{background:#0000b2}');
    expect(dark).toContain('.chip input:checked+span{color:#0000b2}');
    expect(dark).toContain('table.sbs td.none{background:repeating-linear-gradient(135deg,#0000b2,#0000b2 4px,#0000c2 4px,#0000c2 8px)}');
  });

  // Skipped, with one line saying so, when no browser is installed (test/support/browser.ts).
  it.skipIf(SKIP_BROWSER_TESTS)('draws baseline and now with their intervals on one scale, coloured by tier; no request, no error', { timeout: 60_000 }, async () => {
    const record: RunRecord = statsRun();
    browser = await launchChromium();
    const { page, requests, errors, url } = await openReport(browser, join(dir, 'forest.html'), renderHtml(record));

    const panel = page.locator('.panel', { has: page.locator('h3', { hasText: 'Pass rates' }) });
    await panel.scrollIntoViewIfNeeded();
    expect(await panel.isVisible()).toBe(true);
    const rows = await panel.locator('svg.forest g.forest-row').evaluateAll((gs) =>
      gs.map((g) => {
        const box = (el: Element | null): { x: number; w: number } => {
          const r = (el as SVGGraphicsElement | null)?.getBoundingClientRect();
          return { x: r?.x ?? NaN, w: r?.width ?? NaN };
        };
        const lines = g.querySelectorAll('line');
        return {
          label: g.getAttribute('data-label'),
          tier: g.getAttribute('data-tier'),
          baseline: box(g.querySelector('circle')),
          now: box(g.querySelector('rect')),
          // The first line of each interval spans it.
          baselineCi: box(lines[0] ?? null),
          nowCi: box(lines[3] ?? null),
          text: g.querySelectorAll('text')[1]?.textContent,
          colour: g.querySelector('rect')?.getAttribute('fill'),
        };
      }),
    );
    expect(rows.map((r) => r.label)).toEqual(['refund-window', 'greeting', 'order-status', 'shipping-times', 'store-locations', 'opening-hours']);
    const first = rows[0]!;
    expect(first.text).toBe('10/10 → 0/3 regressed');
    expect(first.colour).toBe('#cf222e');
    // 10/10 sits right of 0/3, and the baseline's interval [0.72, 1] is narrower than now's [0, 0.56].
    expect(first.baseline.x).toBeGreaterThan(first.now.x);
    expect(first.baselineCi.w).toBeLessThan(first.nowCi.w);
    expect(first.nowCi.w / first.baselineCi.w).toBeCloseTo(0.5615 / 0.2775, 1);
    expect(rows.find((r) => r.label === 'shipping-times')?.colour).toBe('#1a7f37');
    // On a dark page each mark takes its palette's dark colour (the stylesheet's rules by value).
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      const fills = await panel.locator('svg.forest g.forest-row').first().evaluate((g) => [g.querySelector('rect'), g.querySelector('circle'), g.querySelector('text')].map((e) => getComputedStyle(e as Element).fill));
      const rgb = (hex: string): string => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
      expect(fills).toEqual([rgb(CHART_COLOURS.fail.dark), rgb(CHART_COLOURS.baseline.dark), rgb(CHART_COLOURS.fg.dark)]);
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    const shot = await panel.screenshot();
    expect(shot.length).toBeGreaterThan(5_000);
    if (process.env.AGENT_REPLAY_SCREENSHOT) await writeFile(process.env.AGENT_REPLAY_SCREENSHOT, shot);
    // On a phone (390 px) the plot keeps its text readable, 10 px and more, and scrolls in its panel;
    // shrunk to the panel's width it was 5 px. The page itself does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    const smallest = await panel.locator('svg.forest').evaluate((svg) =>
      Math.min(...[...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size')) * ((svg as SVGSVGElement).getScreenCTM()?.a ?? 0))),
    );
    expect(smallest).toBeGreaterThanOrEqual(9);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
