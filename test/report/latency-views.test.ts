// The latency views (docs/latency.md, "Views"): the job summary's turn latency chart (p50 / p95
// against the baselines') and report.html's per-item bars, drawn in headless Chromium: slowed-down
// items first, the run's p50 / p95 marked, no request made, and the tokens card beside the estimate.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComment, renderMarkdownReport, renderSummary } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { barText, latencyChartBlock } from '../../src/report/latency-chart.js';
import { durationText } from '../../src/words.js';
import { latencyPanel, latencyRows } from '../../src/report/html/latency.js';
import { DEFAULT_LATENCY } from '../../src/config.js';
import { fasterThanBaseline, itemLatencyMs, slowerThanBaseline } from '../../src/evaluate/latency.js';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, mixed, personaScripts, run } from './fixtures.js';
import { launchChromium, openReport, SKIP_BROWSER_TESTS } from '../support/browser.js';

/**
 * A fixture measured at `now` ms whose baseline kept `before` ms (null: a baseline without latency),
 * marked slower by the replay's own rule under the default thresholds (more than 50% and 300 ms over), or
 * faster by it mirrored (the baseline as much over now).
 */
function timed(label: string, now: number, before: number | null, over: Partial<FixtureRecord> = {}): FixtureRecord {
  const b = { ...baseline(label, `Reply for ${label}.`), ...(before === null ? {} : { latencyMs: before }) };
  const s = slowerThanBaseline(now, before, DEFAULT_LATENCY);
  const slower = s === null ? {} : { slower: s };
  const f = fasterThanBaseline(now, before, DEFAULT_LATENCY);
  const faster = f === null ? {} : { faster: f };
  return fixture(label, { latencyMs: now, firstTokenMs: null, welcomeLatencyMs: null, baseline: b, ...slower, ...faster, ...over });
}

function timedRun(): RunRecord {
  return run(
    [
      timed('refund-policy', 2900, 1200),
      timed('opening-hours', 400, 380),
      timed('shipping-times', 650, 900),
      timed('order-status', 1600, 1000),
      timed('new-greeting', 700, null, { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } }),
    ],
    { latency: { turns: 5, p50Ms: 700, p95Ms: 2900 } },
  );
}

describe('the job summary chart', () => {
  it('bars in eighths, times in ms then s', () => {
    expect(barText(1, 1, 4)).toBe('████');
    expect(barText(0.5, 1, 4)).toBe('██');
    expect(barText(1, 8, 4)).toBe('▌');
    expect(barText(0, 1, 4)).toBe('');
    expect([durationText(820), durationText(1949), durationText(12_400)]).toEqual(['820 ms', '1.9 s', '12.4 s']);
  });

  it("p50 / p95 of this run's turns against the baselines' (fixtures whose baseline kept a latency), in the summary and markdown report only", () => {
    const r = timedRun();
    // Baselines 380, 900, 1000, 1200: nearest rank p50 is the 2nd (900), p95 the 4th (1200); the
    // same 4 fixtures now, 400, 650, 1600, 2900: 650 and 2900 (new-greeting, no baseline, is left out).
    const block = [
      '#### Turn latency',
      '',
      "now and baselines: the 4 fixtures whose baseline kept a latency, their message turns; this run's 5 turns: p50 700 ms, p95 2.9 s",
      '',
      '```text',
      'p50  now        ██████▎                       650 ms',
      '     baselines  ████████▊                     900 ms',
      'p95  now        ████████████████████████████  2.9 s',
      '     baselines  ███████████▋                  1.2 s',
      '```',
    ].join('\n');
    expect(latencyChartBlock(r)).toBe(block);
    expect(renderSummary(r, ctx)).toContain(block);
    expect(renderMarkdownReport(r, ctx)).toContain(block);
    // The PR comment stays short: no chart there.
    expect(renderComment(r, ctx)).not.toContain('Turn latency');
  });

  it('no baseline latency yet: only this run; no measured turn: no chart at all', () => {
    const r = run([timed('a', 300, null)], { latency: { turns: 1, p50Ms: 300, p95Ms: 300 } });
    expect(latencyChartBlock(r)).toContain('baselines: none kept a latency yet');
    expect(latencyChartBlock(r)).not.toContain('baselines  ');
    expect(latencyChartBlock(mixed())).toBeNull();
    expect(renderSummary(mixed(), ctx)).not.toContain('Turn latency');
  });
});

describe("the chart compares the baselines with the same fixtures now", () => {
  it("a persona script's turns and a new fixture are in the run's figures, not in the comparison: nothing slowed down reads as nothing slowed down", () => {
    // Every fixture as fast as its baseline (200 ms); the script's turns take 600 ms (a longer
    // context), as they did before. Over all 6 turns p95 is 600 ms, against the fixtures'
    // baselines' 200 ms: the chart read as a tripled p95 where no item got slower.
    const fixtures = [timed('a', 200, 200), timed('b', 200, 200), timed('new-one', 210, null, { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } })];
    const script = personaScripts().filter((p) => !p.errored)[0]!;
    const scripts = [{ ...script, turns: script.turns.map((t) => ({ ...t, latencyMs: 600 })), baseline: script.baseline === null ? null : { ...script.baseline, latencyMs: 1800 } } as PersonaRecord];
    const r = run(fixtures, { personas: scripts, latency: { turns: 6, p50Ms: 210, p95Ms: 600 } });
    const block = latencyChartBlock(r) ?? '';
    expect(block).toContain("now and baselines: the 2 fixtures whose baseline kept a latency, their message turns; this run's 6 turns: p50 210 ms, p95 600 ms");
    expect(block).toContain('p95  now        ████████████████████████████  200 ms\n     baselines  ████████████████████████████  200 ms');
    expect(block.split('```text')[1]).not.toContain('600 ms');
  });

  it('fixtures whose baseline kept a latency but that were not measured now are not "none kept a latency yet"', () => {
    const errored = timed('a', 0, 900, { latencyMs: undefined, errored: true });
    const r = run([errored, timed('new-one', 210, null, { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } })], { latency: { turns: 1, p50Ms: 210, p95Ms: 210 } });
    const block = latencyChartBlock(r) ?? '';
    expect(block).not.toContain('none kept a latency yet');
    expect(block).toContain("now: 1 turn of this run; baselines: none compared (the 1 fixture whose baseline kept a latency was not measured now)");
  });

  it("a repeated fixture is compared by its latency as compared with its baseline (its attempts' median), not its shown attempt's", () => {
    const attempts = [2000, 300, 310].map((latencyMs) => ({ errored: false, error: null, errorKind: null, reply: 'r', route: null, verdict: 'pass' as const, detail: '', score: null, rationale: null, latencyMs, durationMs: latencyMs }));
    const r = run([timed('repeated', 2000, 300, { attempts, slower: undefined })], { latency: { turns: 1, p50Ms: 2000, p95Ms: 2000 } });
    const block = latencyChartBlock(r) ?? '';
    expect(block).toContain('p50  now        ████████████████████████████  310 ms\n     baselines  ███████████████████████████▏  300 ms');
    expect(block).toContain('the 1 fixture whose baseline kept a latency, its message turn;');
    expect(block).toContain("this run's 1 turn: p50 2.0 s, p95 2.0 s");
  });
});

describe("the chart's baselines when only persona scripts' baselines kept a latency", () => {
  it('says the scripts\' baselines keep a conversation\'s total, not "none kept a latency yet"', () => {
    const scripts = personaScripts()
      .filter((p) => !p.errored)
      .slice(0, 2)
      .map((p) => ({ ...p, turns: p.turns.map((t) => ({ ...t, latencyMs: 400 })), baseline: p.baseline === null ? null : { ...p.baseline, latencyMs: 1500 } }) as PersonaRecord);
    const r = run([], { personas: scripts, latency: { turns: 6, p50Ms: 400, p95Ms: 400 } });
    const block = latencyChartBlock(r) ?? '';
    expect(block).not.toContain('none kept a latency yet');
    expect(block).toContain("now: 6 turns of this run; baselines: none per turn (the 2 persona scripts' baselines keep only each conversation's total: a slower script says so on its line)");
    expect(block).not.toContain('baselines  ');
  });
});

describe('report.html latency view', () => {
  // Launched by the one test that draws, so that without a browser only that test fails (or is skipped).
  let browser: Browser | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-replay-latency-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('orders the most slowed-down first, items without a baseline figure last, and says which are slower', () => {
    expect(latencyRows(timedRun().fixtures).map((r) => [r.label, r.slower])).toEqual([
      ['refund-policy', true],
      ['order-status', true],
      ['opening-hours', false],
      ['shipping-times', false],
      ['new-greeting', false],
    ]);
  });

  it('paints an item faster only when the record says so, by the latency rule mirrored: 210 ms -> 209 ms is about the same', () => {
    const bar = (f: FixtureRecord): string => /<rect [^>]*class="(now[^"]*)"/.exec(latencyPanel([f], null))?.[1] ?? '';
    expect(bar(timed('same', 209, 210))).toBe('now');
    expect(bar(timed('faster', 900, 1500))).toBe('now fast');
    expect(bar(timed('slower', 2900, 1200))).toBe('now slow');
  });

  it('says slower and faster in words beside the figures, not only by the bar\'s red or green', () => {
    // A reader who cannot tell red from green, or who hears the chart, read 1.5 s → 900 ms as "about the same".
    const value = (f: FixtureRecord): string => /<text [^>]*class="value[^"]*">([^<]*)<\/text>/.exec(latencyPanel([f], null))?.[1] ?? '';
    expect(value(timed('same', 209, 210))).toBe('210 ms → 209 ms');
    expect(value(timed('faster', 900, 1500))).toBe('1.5 s → 900 ms, faster');
    expect(value(timed('slower', 2900, 1200))).toBe('1.2 s → 2.9 s, slower');
    expect(latencyPanel([timed('faster', 900, 1500)], null)).toContain('<title>faster: 1.5 s → 900 ms (faster)</title>');
  });

  it("draws a repeated item's median latency, the one compared with its baseline, not its shown attempt's", () => {
    // Attempt 1 (the one the record shows) waited 2 s; the median of 2000, 300, 310 ms is 310 ms,
    // as fast as the baseline's 300 ms: not slower, and not drawn as the most slowed-down item.
    const attempts = [2000, 300, 310].map((latencyMs) => ({ errored: false, error: null, errorKind: null, reply: 'r', route: null, verdict: 'pass' as const, detail: '', score: null, rationale: null, latencyMs, durationMs: latencyMs }));
    const repeated: FixtureRecord = { ...timed('repeated', 2000, 300, { attempts }), slower: undefined };
    expect(slowerThanBaseline(itemLatencyMs(repeated), 300, DEFAULT_LATENCY)).toBeNull();
    const rows = latencyRows([timed('order-status', 1600, 1000), repeated]);
    expect(rows.map((r) => [r.label, r.nowMs, r.beforeMs])).toEqual([
      ['order-status', 1600, 1000],
      ['repeated', 310, 300],
    ]);
  });

  it('counts the items past the first 25 by what they are: less slowed down, or with no baseline figure to compare', () => {
    const count = (fixtures: FixtureRecord[]): string => latencyPanel(fixtures, null);
    const slowed = Array.from({ length: 26 }, (_, i) => timed(`item-${String(i).padStart(2, '0')}`, 1000 + i, 1000));
    const unmeasured = (n: number): FixtureRecord[] => Array.from({ length: n }, (_, i) => timed(`new-${String(i)}`, 500, null, { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } }));
    expect(count(slowed)).toContain('>and 1 more item, less slowed down</p>');
    // Items with no baseline latency are drawn last: past 25, none of them is "less slowed down".
    expect(count([...slowed.slice(0, 24), ...unmeasured(3)])).toContain('>and 2 more items with no baseline latency</p>');
    // Each count says what it counts: "and 3 more items: 1 less slowed down, ..." read as if 1 were a figure of the 3.
    expect(count([...slowed, ...unmeasured(2)])).toContain('>and 1 more item, less slowed down, and 2 with no baseline latency</p>');
    const many = Array.from({ length: 605 }, (_, i) => timed(`item-${String(i).padStart(3, '0')}`, 1000 + i, 1000));
    expect(count([...many, ...unmeasured(20)])).toContain('>and 580 more items, less slowed down, and 20 with no baseline latency</p>');
    expect(latencyPanel(slowed.slice(0, 25), null)).not.toContain('more item');
  });

  // Skipped, with one line saying so, when no browser is installed (test/support/browser.ts).
  it.skipIf(SKIP_BROWSER_TESTS)('draws a bar pair per item with the p50 / p95 marks, and the tokens card beside the estimate; no request, no error', { timeout: 60_000 }, async () => {
    const scripts = personaScripts() as PersonaRecord[];
    const script = { ...scripts[0]!, latencyMs: 5200, baseline: scripts[0]!.baseline === null ? null : { ...scripts[0]!.baseline, latencyMs: 5000 } } as PersonaRecord;
    const r = timedRun();
    r.fixtures[0] = { ...r.fixtures[0]!, usage: { inputTokens: 9000, outputTokens: 3400 }, baseline: { ...r.fixtures[0]!.baseline!, usage: { inputTokens: 8000, outputTokens: 2500 } } } as FixtureRecord;
    const record = { ...r, personas: [script] };
    browser = await launchChromium();
    const { page, requests, errors, url } = await openReport(browser, join(dir, 'latency.html'), renderHtml(record));

    const panel = page.locator('.panel', { has: page.locator('h3', { hasText: 'Latency' }) });
    await panel.scrollIntoViewIfNeeded();
    expect(await panel.isVisible()).toBe(true);
    const rows = await panel.locator('svg.latency g.row').evaluateAll((gs) =>
      gs.map((g) => ({ label: g.getAttribute('data-label'), slower: g.classList.contains('slower'), now: Number(g.querySelector('rect.now')?.getAttribute('width')), before: g.querySelector('rect.before') ? Number(g.querySelector('rect.before')?.getAttribute('width')) : null, value: g.querySelector('text.value')?.textContent })),
    );
    expect(rows.map((x) => x.label)).toEqual(['refund-policy', 'order-status', script.label, 'opening-hours', 'shipping-times', 'new-greeting']);
    expect(rows[0]).toMatchObject({ slower: true, value: '1.2 s → 2.9 s, slower' });
    // The longest figures with their word stay inside the chart: 12.3 s → 45.6 s, slower.
    const wide = await page.evaluate(() => {
      const svg = document.querySelector('svg.latency') as SVGSVGElement;
      const t = svg.querySelector('text.value') as SVGTextElement;
      t.textContent = '12.3 s → 45.6 s, slower';
      const b = t.getBBox();
      return b.x + b.width - svg.viewBox.baseVal.width;
    });
    expect(wide).toBeLessThanOrEqual(0);
    // Bars on one scale: refund-policy's now bar is longer than its baseline bar, in proportion.
    expect(rows[0]!.now / rows[0]!.before!).toBeCloseTo(2900 / 1200, 1);
    expect(rows.at(-1)).toMatchObject({ before: null, value: 'no baseline latency' });
    // The slower bar is drawn in the failing colour, from the stylesheet.
    const fill = await panel.locator('g.row.slower rect.now').first().evaluate((el) => getComputedStyle(el).fill);
    expect(fill).toBe('rgb(207, 34, 46)');
    expect(await panel.locator('svg.latency line.mark').count()).toBe(2);
    expect(await panel.locator('svg.latency text.axis', { hasText: 'p95 5.2 s' }).count() + (await panel.locator('svg.latency text.axis', { hasText: 'p95 2.9 s' }).count())).toBe(1);
    // WCAG 1.4.11, 3:1 for the parts of a graphic one reads, in light and dark: the baseline's grey
    // bar on its track (and its legend's key on the panel) was 2.85:1 in light.
    const graphicContrast = (): Promise<number[]> =>
      panel.evaluate((p) => {
        const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const lum = (c: number[]): number => {
          const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number);
        };
        const ratio = (a: string, b: string): number => {
          const [hi, lo] = [lum(rgb(a)), lum(rgb(b))].sort((x, y) => y - x);
          return ((hi as number) + 0.05) / ((lo as number) + 0.05);
        };
        const fill = (sel: string): string => getComputedStyle(p.querySelector(sel) as Element).fill;
        const background = (e: Element | null): string => {
          for (let x = e; x; x = x.parentElement) {
            const c = getComputedStyle(x).backgroundColor;
            if (!/rgba\(0, 0, 0, 0\)|transparent/.test(c)) return c;
          }
          return 'rgb(255, 255, 255)';
        };
        const key = p.querySelector('.lat-legend .key.before') as Element;
        return [ratio(fill('rect.before'), fill('rect.track')), ratio(getComputedStyle(key).backgroundColor, background(key.parentElement))];
      });
    for (const ratio of await graphicContrast()) expect(ratio).toBeGreaterThanOrEqual(3);
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      for (const ratio of await graphicContrast()) expect(ratio).toBeGreaterThanOrEqual(3);
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    // Tokens reported, beside the estimate: 12.4k now, +18% against the baseline's 10.5k.
    expect(await page.locator('.card', { hasText: 'tokens reported' }).innerText()).toMatch(/12\.4k\s*agent tokens reported \(9k in, 3\.4k out, \+18% vs baselines\)/);
    const shot = await panel.screenshot();
    expect(shot.length).toBeGreaterThan(5_000);
    if (process.env.AGENT_REPLAY_SCREENSHOT) await writeFile(process.env.AGENT_REPLAY_SCREENSHOT, shot);
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('no item measured: no latency panel and no tokens card', () => {
    const html = renderHtml(mixed());
    expect(html).not.toContain('<h3>Latency</h3>');
    expect(html).not.toContain('tokens reported');
  });
});
