// report.html in headless Chromium: it renders with the right counts, the filters hide rows, the
// details draw (side-by-side diff, persona transcript), a hostile record stays inert, and the page
// makes no request at all. Real browser, real files in a temp dir, loaded from file://. The tests
// share one page (ReportTab, test/support/browser.ts), each loading its report in it in turn.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml, type HtmlExtras } from '../../src/report/html.js';
import { buildModel, SECTION_ORDER } from '../../src/report/model.js';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { allGreen, baseline, check, decisiveScript as sharedDecisiveScript, fixture, hostilePersona, mixed, persona, personaScripts, route, run, simulatedRun } from './fixtures.js';
import { launchChromium, ReportTab, SKIP_BROWSER_TESTS, type OpenedReport } from '../support/browser.js';
import { docsUrl } from '../../src/version.js';

let browser: Browser;
let tab: ReportTab;
let dir: string;

let n = 0;
function open(record: RunRecord, extras: HtmlExtras = {}, viewport = { width: 1280, height: 900 }): Promise<OpenedReport> {
  return tab.open(join(dir, `report-${n++}.html`), renderHtml(record, extras), viewport);
}

function withPersonas(): RunRecord {
  const r = mixed();
  const personas = personaScripts();
  const t = { ...r.tallies };
  for (const p of personas) {
    if (p.errored) t.errored++;
    else if (p.verdict === 'pass') t.passed++;
    else if (p.verdict === 'fail') t.failed++;
    else t.notEvaluated++;
  }
  return { ...r, personas, tallies: t };
}

async function visibleRows(page: Page): Promise<Array<{ verdict: string; drift: string; label: string }>> {
  return page.$$eval('details.item', (rows) =>
    rows
      .filter((r) => !(r as HTMLElement).hidden && (r as HTMLElement).offsetParent !== null)
      .map((r) => ({ verdict: r.getAttribute('data-verdict') ?? '', drift: r.getAttribute('data-drift') ?? '', label: r.querySelector('.label')?.textContent ?? '' })),
  );
}

/** A script repeated 3 times that failed on attempt 2 (replying otherwise on its last turn) while attempt 1 passed. */
const decisiveScript = (): ReturnType<typeof sharedDecisiveScript> => sharedDecisiveScript((turn) => `turn ${turn}: the agent never reached refunds`);

// Skipped, with one line saying so, when no browser is installed (test/support/browser.ts).
describe.skipIf(SKIP_BROWSER_TESTS)('report.html in Chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    tab = new ReportTab(browser);
    dir = await mkdtemp(join(tmpdir(), 'agent-replay-html-'));
  }, 60_000);

  afterAll(async () => {
    await tab?.close();
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('leaves nothing of one test\'s report to the next in the shared page: script state, errors, viewport', async () => {
    const first = await open(allGreen(), {}, { width: 400, height: 800 });
    await first.page.evaluate(() => {
      (window as unknown as { __left?: number }).__left = 1;
      document.body.dataset.left = '1';
      console.error('an error of the first report');
    });
    expect(first.errors).toEqual(['an error of the first report']);
    const next = await open(allGreen());
    expect(next.page).toBe(first.page);
    expect(await next.page.evaluate(() => [(window as unknown as { __left?: number }).__left, document.body.dataset.left, window.innerWidth])).toEqual([undefined, undefined, 1280]);
    expect(next.errors).toEqual([]);
    expect(next.requests).toEqual([next.url]);
  });

  it('renders every item with the right counts, and makes no request but the document', async () => {
    const record = withPersonas();
    const model = buildModel(record);
    const o = await open(record, {
      trend: [
        { runId: '11', commit: 'a1b2c3d'.padEnd(40, '0'), startedAt: '2026-11-28T10:00:00Z', agreement: { percent: 50, passed: 5, failed: 5 } },
        { runId: '12', commit: null, startedAt: '2026-11-29T10:00:00Z', agreement: { percent: 62.5, passed: 5, failed: 3 } },
        { runId: '13', commit: 'c3d4e5f'.padEnd(40, '0'), startedAt: '2026-11-30T10:00:00Z', agreement: { percent: null, passed: 0, failed: 0 } },
      ],
    });
    const { page } = o;
    expect(await page.textContent('#ar-shown')).toBe(`${model.total} of ${model.total} shown`);
    expect(await page.$$eval('details.item', (r) => r.length)).toBe(model.total);
    for (const k of SECTION_ORDER) {
      const count = model.sections[k].length;
      const shown = await page.$(`section[data-section="${k}"] h2 .n`);
      if (count === 0) expect(shown).toBeNull();
      else expect(await shown?.textContent()).toBe(String(count));
    }
    const cards = await page.$$eval('.card', (cs) => cs.map((c) => `${c.querySelector('.k')?.textContent}=${c.querySelector('.n')?.textContent}`));
    expect(cards).toContain(`passed (1 probe)=${record.tallies.passed}`);
    expect(cards).toContain(`failed=${record.tallies.failed}`);
    const agreement = ((record.tallies.passed / (record.tallies.passed + record.tallies.failed)) * 100).toFixed(1).replace(/\.0$/, '');
    expect(cards.some((c) => c.startsWith('agreement:') && c.endsWith(`=${agreement}%`))).toBe(true);
    // Two runs with an agreement are points; the third has none (n/a). The axis names them by commit, else run.
    expect(await page.$$eval('svg.trend circle', (c) => c.length)).toBe(2);
    expect(await page.$$eval('svg.trend > text', (t) => t.map((x) => x.childNodes[0]?.textContent).filter((x) => !x?.endsWith('%')))).toEqual(['a1b2c3d', 'run 12', 'n/a', 'c3d4e5f']);
    expect(o.errors).toEqual([]);
    expect(o.dialogs).toEqual([]);
    expect(o.requests).toEqual([o.url]);
  });

  it('opens on what needs attention: at 1280x800 the first newly failing item\'s diff is on the first screen, the numbers below', async () => {
    const viewport = { width: 1280, height: 800 };
    const record = withPersonas();
    const { page, errors } = await open(record, {}, viewport);
    const box = async (selector: string) => {
      const b = await page.locator(selector).first().boundingBox();
      if (b === null) throw new Error(`${selector} is not rendered`);
      return b;
    };
    const headline = await box('p.headline');
    const firstRow = 'section[data-section="newly_failing"] details.item';
    const diff = await box(`${firstRow} table.sbs`);
    const cards = await box('.cards');
    // The headline and the whole diff of the first newly failing item are inside the first viewport.
    expect(headline.y).toBeGreaterThanOrEqual(0);
    expect(headline.y + headline.height).toBeLessThanOrEqual(diff.y);
    expect(diff.y).toBeGreaterThanOrEqual(0);
    expect(diff.y + diff.height).toBeLessThanOrEqual(viewport.height);
    expect(await page.locator(`${firstRow} td.ins ins`).first().isVisible()).toBe(true);
    // The numbers come after what needs attention: no stat card, panel or filter above the diff.
    expect(cards.y).toBeGreaterThan(diff.y + diff.height);
    expect((await box('.panels')).y).toBeGreaterThan(cards.y);
    expect((await box('nav.filters')).y).toBeGreaterThan(cards.y);
    // Newly failing, then not evaluated and errored (not verified), open; the rest after the numbers, closed.
    const sections = await page.$$eval('main section.section', (ss) => ss.map((x) => ({ key: x.getAttribute('data-section'), top: x.getBoundingClientRect().top, open: x.querySelectorAll('details.item[open]').length, rows: x.querySelectorAll('details.item').length })));
    expect(sections.map((x) => x.key)).toEqual(['newly_failing', 'not_evaluated', 'errored', 'still_failing', 'changed', 'new', 'unchanged']);
    for (const x of sections) {
      if (['newly_failing', 'not_evaluated', 'errored'].includes(x.key ?? '')) {
        expect(x.open, x.key ?? '').toBe(x.rows);
        expect(x.top).toBeLessThan(cards.y);
      } else {
        expect(x.open, x.key ?? '').toBe(0);
        expect(x.top).toBeGreaterThan(cards.y);
      }
    }
    // An open errored row shows its error without a click.
    expect(await page.locator('section[data-section="errored"] details.item .body dd.warn').first().isVisible()).toBe(true);
    // No coverage is configured: no coverage panel, and no zero tally card.
    expect(await page.locator('.panel h3', { hasText: 'Coverage' }).count()).toBe(0);
    const shot = await page.screenshot();
    expect(shot.length).toBeGreaterThan(10_000);
    if (process.env.AGENT_REPLAY_SCREENSHOT) await writeFile(process.env.AGENT_REPLAY_SCREENSHOT, shot);
    expect(errors).toEqual([]);
  });

  it('a run not verified: a grey headline that says so, the shared cause under it, the errored items grouped by cause', async () => {
    const errored = (label: string, error: string) => fixture(label, { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'http', detail: error, drift: null });
    const record = run(
      [
        ...['a', 'b', 'c', 'd'].map((l) => errored(`refund-${l}`, 'message turn: HTTP 404 from the agent: Not Found')),
        errored('hours', 'message turn: HTTP 500 from the agent: boom'),
        fixture('greeting'),
      ],
      { agent: { host: 'preview.example.com', endpoint: 'https://preview.example.com/api/chat' } },
    );
    const { page, errors } = await open(record, {}, { width: 1280, height: 800 });
    expect(await page.getAttribute('p.headline', 'class')).toBe('headline grey');
    expect(await page.textContent('p.headline')).toBe('Not verified: 5 errored · 1 unchanged');
    const cause = page.locator('p.cause');
    expect(await cause.textContent()).toMatch(/^Cause: 4 of 5: HTTP 404 from https:\/\/preview\.example\.com\/api\/chat: .* \(and 1 other cause\)$/);
    const groups = await page.locator('section[data-section="errored"] h3.cause').allTextContents();
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatch(/^4 of 5: HTTP 404 from https:\/\/preview\.example\.com\/api\/chat/);
    expect(groups[1]).toMatch(/^1 of 5: HTTP 500 from https:\/\/preview\.example\.com\/api\/chat/);
    // Each group's items follow its heading, the largest group first; the headline and its cause are on the first screen.
    const labels = await page.locator('section[data-section="errored"] details.item .label').allTextContents();
    expect(labels).toEqual(['refund-a', 'refund-b', 'refund-c', 'refund-d', 'hours']);
    const causeBox = await cause.boundingBox();
    expect(causeBox !== null && causeBox.y + causeBox.height <= 800).toBe(true);
    // Nothing calls an errored item a failure: its pill says errored, its section "not a failure".
    expect(await page.locator('section[data-section="errored"] .pill').allTextContents()).toEqual(Array(5).fill('errored'));
    // A space between the title and its count: a screen reader said "not a failure5".
    expect(await page.textContent('section[data-section="errored"] h2')).toBe('Errored: not a failure 5');
    expect(await page.locator('.card.fail').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("links the page a cause cites where it is shown: the cause, its group's heading and the opened row's (the row's why says it as text: no link inside a <summary>)", async () => {
    const detail = `the agent does not report tool calls: map agent.response.toolCalls to where its response lists them, or see ${docsUrl('traces.md', 'Fixtures')} for an agent that answers with text alone`;
    const record = run([fixture('plain-text-agent', { verdict: 'not_evaluated', detail, drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' } }), fixture('greeting')]);
    const { page, errors } = await open(record);
    await page.locator('details.item[data-label="plain-text-agent"] > summary').click();
    const links = await page.locator('a[href*="/docs/"]').evaluateAll((as) => as.map((a) => [(a.closest('[class]') as Element).className, a.getAttribute('href'), a.textContent]));
    const href = docsUrl('traces.md', 'Fixtures');
    expect(links).toEqual([
      ['cause', href, 'docs/traces.md#fixtures'],
      ['cause', href, 'docs/traces.md#fixtures'],
      ['body', href, 'docs/traces.md#fixtures'],
    ]);
    expect(errors).toEqual([]);
  });

  it("an opened row keeps its own words and numbers in their place beside a why in Arabic: the Arabic isolated (docs/security.md), the reply as written", async () => {
    const record = run([fixture('arabic', { verdict: 'fail', detail: 'قال ١٤ يوماً · 3/5 attempts', reply: 'يمكنك الإرجاع', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } })]);
    const { page, errors } = await open(record);
    await page.locator('details.item[data-label="arabic"] > summary').click();
    const why = page.locator('details.item[data-label="arabic"] .body dd').filter({ hasText: 'attempts' });
    // Where "3/5" is drawn against the Arabic before it: laid out as a left-to-right line, the
    // count stays to the right of the Arabic; not isolated, it was drawn to its left, as the Arabic's own.
    const placed = await why.evaluate((dd) => {
      const node = dd.firstChild as Text;
      const s = node.textContent ?? '';
      const rect = (from: number, to: number): DOMRect => {
        const r = document.createRange();
        r.setStart(node, from);
        r.setEnd(node, to);
        return r.getBoundingClientRect();
      };
      const arabic = rect(s.indexOf('قال'), s.indexOf('يوماً') + 'يوماً'.length);
      const count = rect(s.indexOf('3/5'), s.indexOf('3/5') + 3);
      return { right: count.left >= arabic.right - 0.5, text: s };
    });
    expect(placed).toEqual({ right: true, text: '\u2068قال ١٤ يوماً\u2069 · 3/5 attempts' });
    expect(await page.locator('details.item[data-label="arabic"] .body .text').first().textContent()).toBe('يمكنك الإرجاع');
    expect(errors).toEqual([]);
  });

  it('a filter hides the cause heading of a group with no row left, and shows it again with the rows', async () => {
    const errored = (label: string, error: string) => fixture(label, { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'http', detail: error, drift: null });
    const record = run([errored('refund-a', 'message turn: HTTP 404 from the agent: Not Found'), errored('refund-b', 'message turn: HTTP 404 from the agent: Not Found'), errored('hours', 'message turn: HTTP 500 from the agent: boom'), fixture('greeting')]);
    const { page, errors } = await open(record);
    const heads = 'section[data-section="errored"] h3.cause';
    expect(await page.locator(heads).count()).toBe(2);
    await page.fill('#ar-search', 'hours');
    // Only the HTTP 500 group has a row left: the HTTP 404 heading goes with its rows.
    expect((await visibleRows(page)).map((r) => r.label)).toEqual(['hours']);
    const shown = await page.$$eval(heads, (hs) => hs.filter((x) => (x as HTMLElement).checkVisibility()).map((x) => x.textContent ?? ''));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^1 of 3: HTTP 500/);
    await page.fill('#ar-search', '');
    expect(await page.$$eval(heads, (hs) => hs.filter((x) => (x as HTMLElement).checkVisibility()).length)).toBe(2);
    expect(errors).toEqual([]);
  });

  it('counts with the digits grouped as the markup does, before and after a filter ("1,200 of 1,200 shown")', async () => {
    const record = run(Array.from({ length: 1200 }, (_, i) => fixture(`item-${i}`)));
    const { page, errors } = await open(record);
    // On load the script recounts: its numbers are the markup's, 1,200 not 1200.
    expect(await page.textContent('#ar-shown')).toBe('1,200 of 1,200 shown');
    expect(await page.textContent('section[data-section="unchanged"] h2 .n')).toBe('1,200');
    await page.fill('#ar-search', 'item-1');
    expect(await page.textContent('#ar-shown')).toBe('311 of 1,200 shown');
    expect(errors).toEqual([]);
  });

  it('with nothing to attend to, the headline is followed by the numbers; zero tallies and empty panels are left out', async () => {
    const record = allGreen();
    const { page, errors } = await open(record, {}, { width: 1280, height: 800 });
    expect(await page.getAttribute('p.headline', 'class')).toBe('headline good');
    expect(await page.locator('section.section.first').count()).toBe(0);
    const cards = await page.$$eval('.card .k', (ks) => ks.map((k) => k.textContent));
    expect(cards).toContain('passed (1 probe)');
    expect(cards.some((k) => k === 'failed' || k?.startsWith('not evaluated') || k?.startsWith('errored'))).toBe(false);
    expect(await page.locator('.panel h3', { hasText: 'Coverage' }).count()).toBe(0);
    const cardsBox = await page.locator('.cards').boundingBox();
    expect(cardsBox !== null && cardsBox.y + cardsBox.height <= 800).toBe(true);
    expect(await page.locator('details.item[open]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('reads in order with a screen reader and in low vision: the panels under a heading of their own, every text at 4.5:1, light and dark', async () => {
    const { page, errors } = await open(withPersonas());
    // The outline as a screen reader lists it (a visually hidden heading included): each panel's h3 is
    // under "The numbers", not under the last section before it ("Errored: not a failure").
    const outline = await page.$$eval('h1, h2, h3', (hs) => hs.filter((x) => !x.closest('.body')).map((x) => `${x.tagName} ${x.textContent ?? ''}`));
    const agreement = outline.indexOf('H3 Agreement');
    expect(agreement).toBeGreaterThan(-1);
    expect(outline.slice(0, agreement).filter((x) => x.startsWith('H2')).pop()).toBe('H2 The numbers');
    expect(await page.locator('h2.hidden-heading').boundingBox()).toMatchObject({ width: 1, height: 1 });
    // WCAG AA, 4.5:1 for text under 18.66 px bold, in light and dark (the page follows the system's
    // prefers-color-scheme): "not evaluated" and "errored" in grey on the pill's grey were 4.27:1, and
    // with a dark system the page stayed white. Every visible text against the background it is on.
    const lowContrast = (): Promise<string[]> =>
      page.$$eval('body *', (els) => {
        const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
        const lum = (c: number[]): number => {
          const [r, g, b] = c.slice(0, 3).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number);
        };
        const under = (e: Element | null): number[] => {
          for (let x = e; x; x = x.parentElement) {
            const c = rgba(getComputedStyle(x).backgroundColor);
            if ((c[3] ?? 1) > 0.5) return c;
          }
          return [255, 255, 255];
        };
        const out: string[] = [];
        for (const e of els) {
          if (![...e.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '') || e.getClientRects().length === 0) continue;
          const s = getComputedStyle(e);
          const fg = rgba(s.color);
          const bg = under(e);
          const a = fg[3] ?? 1;
          const seen = [0, 1, 2].map((i) => (fg[i] as number) * a + (bg[i] as number) * (1 - a));
          const [hi, lo] = [lum(seen), lum(bg)].sort((x, y) => y - x);
          const ratio = ((hi as number) + 0.05) / ((lo as number) + 0.05);
          const large = parseFloat(s.fontSize) >= 24 || (parseFloat(s.fontSize) >= 18.66 && Number(s.fontWeight) >= 700);
          if (ratio < (large ? 3 : 4.5)) out.push(`${e.tagName}.${e.className} "${(e.textContent ?? '').trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
        }
        return [...new Set(out)];
      });
    const pills = await page.$$eval('.pill', (ps) => ps.map((p) => p.textContent));
    expect(pills).toEqual(expect.arrayContaining(['pass', 'fail', 'not evaluated', 'errored']));
    expect(await lowContrast()).toEqual([]);
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
      expect(await lowContrast()).toEqual([]);
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(errors).toEqual([]);
  });

  it('reads by name and works from the keyboard: filters with their counts apart, every column headed, rows on Enter and Space, a shown diff keeps the focus', async () => {
    const { page, errors } = await open(withPersonas());
    // A row is a summary: Tab reaches it, its focus is drawn, Enter closes it and Space opens it.
    await page.keyboard.press('Tab');
    const focused = (): Promise<{ row: boolean; ring: string; open: boolean }> =>
      page.evaluate(() => {
        const e = document.activeElement as HTMLElement;
        const row = e.parentElement as HTMLDetailsElement;
        return { row: e.tagName === 'SUMMARY' && row.classList.contains('item'), ring: e.matches(':focus-visible') ? getComputedStyle(e).outlineStyle : 'none', open: row.open };
      });
    expect(await focused()).toEqual({ row: true, ring: 'auto', open: true });
    await page.keyboard.press('Enter');
    expect((await focused()).open).toBe(false);
    await page.keyboard.press('Space');
    expect((await focused()).open).toBe(true);
    // A filter read "pass8" and "all19" to a screen reader: its words and its count with no space between.
    const filters = await page.locator('nav.filters').ariaSnapshot();
    expect(filters).toContain('radio "pass 8"');
    expect(filters).toContain('radio "not evaluated 4"');
    expect(filters).not.toMatch(/radio "[^"]*[a-z]\d/);
    // What the filters leave is said when it changes, where the reader is ("5 of 19 shown").
    expect(await page.getByRole('status').textContent()).toBe('19 of 19 shown');
    await page.getByRole('radio', { name: 'fail 5' }).check();
    expect(await page.getByRole('status').textContent()).toBe('5 of 19 shown');
    await page.getByRole('radio', { name: 'all 19' }).first().check();
    // Every column of the tables a row draws has a heading: a check's and an attempt's result, an agreement group's name.
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    await page.locator('table.checks').first().waitFor();
    const heads = await page.$$eval('table.checks thead tr, .panel table thead tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('th')].filter((th) => !th.classList.contains('bar')).map((th) => `${th.textContent}/${th.getAttribute('scope')}`)));
    expect(heads).toContainEqual(['result/col', 'check/col', 'expected/col', 'observed/col', 'why/col']);
    expect(heads).toContainEqual(['conversation/col', 'agreement/col', 'passed / decided/col', 'left out/col']);
    expect(heads.flat().filter((h) => h.startsWith('/'))).toEqual([]);
    // A script's 🎭 was read by its Unicode name, "performing arts": it is named for what it marks.
    expect(await page.locator('details.item[data-label="refund-coverage"] .label').ariaSnapshot()).toBe('- img "persona script": 🎭\n- text: refund-coverage');
    // A turn's route was read glued to its speaker: "Agentmain / welcome".
    expect(await page.locator('.turn p.who').first().ariaSnapshot()).toBe('- paragraph: Turn 0 (welcome) · Agent main / welcome');
    // "⋯ 4 unchanged sentences (show)": Enter shows them and the focus stays there, not back at the page's top.
    const long = fixture('long-same', { reply: 'One. Two. Three. Four. Six.', baseline: baseline('long-same', 'One. Two. Three. Four. Five.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const more = Array.from({ length: 30 }, (_, i) => fixture(`changed-${i}`, { reply: 'New.', baseline: baseline(`changed-${i}`, 'Old.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } }));
    const second = await open(run([long, ...more]));
    // Shift+Tab up the rows scrolls each into view clear of the filters stuck at the top: a row went under them, hidden.
    await second.page.locator('details.item > summary').last().focus();
    const hidden: string[] = [];
    for (let i = 0; i < 25; i++) {
      await second.page.keyboard.press('Shift+Tab');
      const under = await second.page.evaluate(() => {
        const row = (document.activeElement as HTMLElement).getBoundingClientRect();
        const nav = (document.querySelector('nav.filters') as HTMLElement).getBoundingClientRect();
        return row.top < nav.bottom ? `${document.activeElement?.textContent?.slice(0, 24)}: ${Math.round(row.top)} < ${Math.round(nav.bottom)}` : null;
      });
      if (under !== null) hidden.push(under);
    }
    expect(hidden).toEqual([]);
    await second.page.click('details.item > summary');
    await second.page.getByRole('button', { name: '⋯ 4 unchanged sentences (show)' }).focus();
    await second.page.keyboard.press('Enter');
    expect(await second.page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.textContent])).toEqual(['TD', 'One. Two. Three. Four.']);
    expect(errors).toEqual([]);
    expect(second.errors).toEqual([]);
  });

  it("the agreement tables' headings sit over their columns: a number's heading is aligned as its numbers are", async () => {
    const { page, errors } = await open(withPersonas());
    await page.$$eval('.panel details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    const tables = await page.$$eval('.panel details table', (ts) =>
      ts.map((t) => {
        const heads = [...t.querySelectorAll('thead th')].map((th) => getComputedStyle(th).textAlign);
        const cells = [...(t.querySelector('tbody tr')?.querySelectorAll('td') ?? [])].map((td) => getComputedStyle(td).textAlign);
        return { heads, cells };
      }),
    );
    expect(tables.length).toBeGreaterThan(0);
    // "2 / 2" right-aligned under a left-aligned "passed / decided" read as the next column's ("left out").
    for (const t of tables) expect(t.heads).toEqual(t.cells);
    expect(errors).toEqual([]);
  });

  it('clicking a verdict filter hides the other rows; drift and label filters combine with it', async () => {
    const record = withPersonas();
    const { page, errors } = await open(record);
    await page.click('label.chip:has(input[name=verdict][value=fail])');
    const failing = await visibleRows(page);
    expect(failing).toHaveLength(record.tallies.failed);
    expect(failing.every((r) => r.verdict === 'fail')).toBe(true);
    expect(await page.textContent('#ar-shown')).toBe(`${record.tallies.failed} of ${buildModel(record).total} shown`);
    // Sections with nothing left are hidden; the others count what is shown.
    expect(await page.isVisible('section[data-section="unchanged"]')).toBe(false);
    expect(await page.textContent('section[data-section="newly_failing"] h2 .n')).toBe('2');

    await page.click('label.chip:has(input[name=drift][value=newly_failing])');
    const newly = await visibleRows(page);
    expect(newly.map((r) => r.drift)).toEqual(['newly_failing', 'newly_failing']);

    await page.click('label.chip:has(input[name=verdict][value=all])');
    await page.click('label.chip:has(input[name=drift][value=changed])');
    const changed = await visibleRows(page);
    // The chip shows what the Changed section holds (sectionOf), nothing else.
    expect(changed.map((r) => r.label.replace('🎭 ', '')).sort()).toEqual(buildModel(record).sections.changed.map((i) => i.label).sort());

    await page.click('label.chip:has(input[name=drift][value=all])');
    await page.fill('#ar-search', 'REFUND-pol');
    expect((await visibleRows(page)).map((r) => r.label)).toEqual(['refund-policy']);
    await page.fill('#ar-search', 'no such label');
    expect(await visibleRows(page)).toEqual([]);
    expect(await page.isVisible('#ar-none')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('opens a changed fixture as a side-by-side diff with the changed words marked', async () => {
    const { page, errors } = await open(withPersonas());
    await page.click('details.item:has(.label:text-is("refund-policy")) > summary');
    const body = page.locator('details.item:has(.label:text-is("refund-policy")) .body');
    expect(await body.locator('table.sbs th').allTextContents()).toEqual(['Baseline · refunds / policy · pass, accepted 2026-11-30 in a1b2c3d', 'New · refunds / exceptions']);
    expect(await body.locator('td.del del').allTextContents()).toEqual(['30']);
    expect(await body.locator('td.ins ins').allTextContents()).toEqual(['14', ' and the original box']);
    // A changed word is told from the rest by more than its tint (1.3:1 against its cell, under WCAG's 3:1 for
    // a cue told by colour alone): it is underlined, as the comment and the terminal put it between ⟦ ⟧.
    const marks = await body.locator('td del, td ins').evaluateAll((ms) => ms.map((m) => getComputedStyle(m).textDecorationLine));
    expect(marks).toEqual(['underline', 'underline', 'underline']);
    expect(await body.locator('td.del').first().evaluate((td) => getComputedStyle(td).textDecorationLine)).toBe('none');
    expect(await body.locator('dd').allTextContents()).toContain('refunds / policy → refunds / exceptions');
    expect(errors).toEqual([]);
  });

  it('says under a side-by-side diff what ⟨U+…⟩ means when the diff shows one, and not under one that shows none', async () => {
    const named = fixture('zero-width', { reply: 'Hello\u200b world.', baseline: baseline('zero-width', 'Hello world.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const plain = fixture('plain-change', { reply: 'Hello there.', baseline: baseline('plain-change', 'Hello world.'), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const { page, errors } = await open(run([named, plain]));
    const captions: (string | null)[][] = [];
    for (const label of ['zero-width', 'plain-change']) {
      const row = page.locator(`details.item:has(.label:text-is("${label}"))`);
      if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
      // The detail is drawn on the toggle event, a task after the click: wait for it (allTextContents does not).
      await row.locator('td.ins').first().waitFor();
      expect(await row.locator('td.ins').allTextContents()).not.toEqual([]);
      captions.push(await row.locator('table.sbs caption').allTextContents());
    }
    expect(captions).toEqual([['⟨U+…⟩ a character you cannot see, a look-alike from another script or one of these marks, by its code'], []]);
    expect(errors).toEqual([]);
  });

  it('opens a fixture edited since its baseline with the message the baseline answered beside the message now', async () => {
    const f = fixture('refund-window', {
      message: 'What is the refund window for <b>digital</b> goods?',
      reply: 'Digital goods can be refunded within 14 days.',
      verdict: 'pass',
      drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'message', detail: "the fixture's message was edited since the baseline" } },
      baseline: { ...baseline('refund-window', 'You can return items within 30 days.'), message: 'What is the refund window?' },
    });
    const { page, errors } = await open(run([f]));
    const row = page.locator('details.item:has(.label:text-is("refund-window"))');
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
    const body = row.locator('.body');
    expect(await body.locator('h3').first().textContent()).toBe('Message, edited since the baseline');
    const message = body.locator('table.sbs').first();
    expect(await message.locator('th').allTextContents()).toEqual(['The message the baseline answered', 'The message now']);
    expect(await message.locator('td.del').allTextContents()).toEqual(['What is the refund window?']);
    // The new message's markup is text, marked as the changed words.
    expect(await message.locator('td.ins ins').allTextContents()).toEqual([' for <b>digital</b> goods']);
    expect(await message.locator('td.ins b').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('names the look-alike letters of a reply shown whole under it, the reply as written', async () => {
    const f = fixture('pay-link', { reply: 'Pay at p\u0430ypal.com/acme.', verdict: 'pass', drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null });
    const { page, errors } = await open(run([f]));
    const row = page.locator('details.item:has(.label:text-is("pay-link"))');
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
    const body = row.locator('.body');
    expect(await body.locator('.reply .text').last().textContent()).toBe('Pay at p\u0430ypal.com/acme.');
    expect(await body.locator('p.drift', { hasText: 'Look-alike' }).textContent()).toBe('Look-alike letters from another script, by their code: p⟨U+0430⟩ypal');
    expect(errors).toEqual([]);
  });

  it("shows a fixture errored by its spans with the reply the agent answered, not compared: no baseline reply beside it, never 'same as the baseline'", async () => {
    const f = fixture('refund-span-error', {
      errored: true,
      errorKind: 'agent_error',
      error: 'message turn: the agent reported an error (tool, tool issue_refund): card declined',
      reply: 'You can return items within 30 days.',
      route: route('refunds', 'policy'),
      verdict: null,
      drift: null,
      baseline: baseline('refund-span-error', 'You can return items within 30 days.'),
    } as Partial<FixtureRecord>);
    const other = fixture('refund-span-error-2', {
      errored: true,
      errorKind: 'agent_error',
      error: 'message turn: the agent reported an error (tool, tool issue_refund): card declined',
      reply: 'Refunds take 90 days.',
      route: route('refunds', 'policy'),
      verdict: null,
      drift: null,
      baseline: baseline('refund-span-error-2', 'You can return items within 30 days.'),
    } as Partial<FixtureRecord>);
    const { page, errors } = await open(run([f, other]));
    for (const label of ['refund-span-error', 'refund-span-error-2']) {
      const row = page.locator(`details.item:has(.label:text-is("${label}"))`);
      if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
      await row.locator('.body h3').first().waitFor();
      const headings = await row.locator('.body h3').allTextContents();
      expect(headings.some((h) => h.startsWith('Reply (not compared: the item errored)'))).toBe(true);
      expect(headings.some((h) => h.includes('same as the baseline') || h.startsWith('Baseline'))).toBe(false);
    }
    expect(errors).toEqual([]);
  });

  it('opens a repeated fixture with its attempts: outcome, why and reply of each, the shown one marked, a reply like the shown one named, not repeated', async () => {
    const yes = 'Returns are accepted within 30 days.';
    const no = `Returns are accepted within 14 days. ${'x'.repeat(3000)}`;
    const attempt = (reply: string | null, verdict: 'pass' | 'fail' | null, detail: string) => ({
      errored: reply === null,
      error: reply === null ? detail : null,
      errorKind: reply === null ? ('http' as const) : null,
      reply,
      route: reply === null ? null : route('refunds', 'policy'),
      verdict,
      detail,
      score: null,
      rationale: null,
      durationMs: 300,
    });
    const record = run([
      fixture('refund-window', {
        assertion: { kind: 'contains', value: '30 days' },
        reply: yes,
        verdict: 'fail',
        detail: '1/3 attempts passed (minPass 2), flaky; attempt 2: reply contains "30 days"',
        repeat: { count: 4, minPass: 2, passed: 1, flaky: true },
        // Attempt 1's stream was cut short: the call it had begun is shown under its error (docs/presets.md, "Streamed replies").
        attempts: [{ ...attempt(null, null, 'HTTP 500 from the agent'), toolCalls: [{ tool: 'refund', input: { order: 'A1' }, output: null, mocked: true }] }, attempt(yes, 'pass', 'reply contains "30 days"'), attempt(no, 'fail', 'reply does not contain "30 days"'), attempt(yes, 'pass', 'reply contains "30 days"')],
      }),
    ]);
    const { page, errors } = await open(record);
    const row = page.locator('details.item:has(.label:text-is("refund-window"))');
    expect(await row.locator('summary .pill').textContent()).toBe('fail 1/4 (flaky)');
    await row.locator('summary').click();
    await row.locator('table.checks').waitFor();
    const cells = await row.locator('table.checks tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(cells).toEqual([
      ['1', 'errored', 'HTTP 500 from the agent', 'tool calls begun before the answer was cut short:⚙ refund {"order": "A1"} → null'],
      ['2 (shown)', 'pass', 'reply contains "30 days"', 'the reply above'],
      // No meaning recorded (meaning.check off): said so above the reply (docs/meaning.md, "Repeats").
      ['3', 'fail', 'reply does not contain "30 days"', `Against attempt 2: replied otherwise, meaning not compared${no}`],
      ['4', 'pass', 'reply contains "30 days"', "the same reply as attempt 2's"],
    ]);
    // A long unbroken reply leaves the why column its words: "reply" is not cut into "repl|y".
    const whyLines = await row.locator('table.checks tbody tr').nth(2).locator('td').nth(2).evaluate((c) => {
      const r = document.createRange();
      r.selectNodeContents(c);
      return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
    });
    expect(whyLines).toBeLessThanOrEqual(3);
    // The sentence above the attempts as the data gives it, its capital by the product's rule (words.ts).
    expect(await row.locator('h3:text-is("Attempts") + p.drift').textContent()).toMatch(/^The other attempts, compared with attempt 2: [^A-Z]+\.$/);
    expect(errors).toEqual([]);
  });

  it("opens a repeated script that failed while attempt 1 passed with attempt 2's checks and its turn against attempt 1's, as the comment does", async () => {
    // docs/fixtures.md, "Reports": the decisive attempt's checks follow the shown attempt's, then its first turn that replied otherwise.
    const { script, lastIndex } = decisiveScript();
    const { page, errors } = await open(run([], { personas: [script], tallies: { passed: 0, failed: 1, notEvaluated: 0, errored: 0 } }));
    const row = page.locator('details.item[data-label="refund-chat"]');
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
    await row.locator('table.checks').first().waitFor();
    const heads = await row.locator('.body > h3').allTextContents();
    expect(heads).toEqual(["Checks (attempt 1's, the attempt shown)", "Attempt 2's checks (fail)", `Attempt 2, turn ${lastIndex}, against attempt 1's`, 'Attempts', 'Transcript']);
    const decisive = row.locator('.body > table.checks').nth(1);
    expect(await decisive.locator('tbody tr').first().locator('td').first().textContent()).toBe('fail');
    expect(await decisive.textContent()).toContain('the agent never reached refunds');
    const sbs = row.locator('.body > table.sbs');
    expect(await sbs.locator('th').allTextContents()).toEqual(['Attempt 1', 'Attempt 2']);
    expect(await sbs.locator('td.ins').textContent()).toContain('Refunds take 90 days.');
    // The attempts table's last column: where each attempt first replied otherwise than the attempt shown.
    const cells = await row.locator('.body > table.checks').nth(2).evaluate((t) => [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
    expect(cells.map((r) => [r[0], r[3]])).toEqual([
      ['attempt', 'first reply unlike the attempt shown'],
      ['1 (shown)', 'the transcript below'],
      ['2', `Against attempt 1: replied otherwise, meaning not comparedturn ${lastIndex}: Refunds take 90 days.`],
      ['3', "the same replies as attempt 1's"],
    ]);
    expect(errors).toEqual([]);
  });

  it("names a welcome turn one attempt lacks without two brackets in a row: 'Turn 0 (welcome): attempt 1 has no such turn'", async () => {
    const { script } = decisiveScript();
    const attempts = script.attempts as NonNullable<PersonaRecord['attempts']>;
    const [first, second, third] = attempts as [(typeof attempts)[number], (typeof attempts)[number], (typeof attempts)[number]];
    const welcome = (first.turns as Array<{ index: number; reply: string }>).filter((t) => t.index === 0);
    expect(welcome).toHaveLength(1);
    const heads = async (record: PersonaRecord): Promise<string[]> => {
      const { page, errors } = await open(run([], { personas: [record], tallies: { passed: 0, failed: 1, notEvaluated: 0, errored: 0 } }));
      const row = page.locator('details.item[data-label="refund-chat"]');
      if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
      await row.locator('table.checks').first().waitFor();
      expect(errors).toEqual([]);
      return [...(await row.locator('.body > h3').allTextContents()), ...(await row.locator('.body > p.drift').allTextContents())];
    };
    // Attempt 1 (shown) has no turn: attempt 2's welcome is shown alone.
    const unshown = await heads({ ...script, turns: [], attempts: [{ ...first, turns: [] }, second, third] } as PersonaRecord);
    expect(unshown).toContain('Attempt 2, turn 0 (welcome): attempt 1 has no such turn');
    // Attempt 2 (failing) has no turn: attempt 1's welcome is in the transcript.
    const unsaid = await heads({ ...script, attempts: [first, { ...second, turns: [] }, third] } as PersonaRecord);
    expect(unsaid).toContain("Attempt 2, turn 0 (welcome): attempt 2 has no such turn; attempt 1's is in the transcript.");
    for (const t of [...unshown, ...unsaid]) expect(t).not.toMatch(/\) \(|\)\)/);
  });

  it("names a script's messages not sent as the comment does: how many, why, and each one's turn; and who ended it", async () => {
    const script = persona('refund-chat', { unsent: ['Thanks, bye', 'One more thing'], endedBy: 'agent' });
    const last = script.turns[script.turns.length - 1]!.index;
    const { page, errors } = await open(run([], { personas: [script] }));
    const row = page.locator('details.item[data-label="refund-chat"]');
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
    await row.locator('table.checks').first().waitFor();
    expect(await row.locator('.body > h3').last().textContent()).toBe(`Not sent (2), because the agent ended the conversation on turn ${last}`);
    expect(await row.locator('.body > ul.calls li').allTextContents()).toEqual([`${last + 1} · User: Thanks, bye`, `${last + 2} · User: One more thing`]);
    // Who ended it, in the comment's header words (docs/personas.md, "Baselines and drift").
    expect(await row.locator('.body > dl > dt:text-is("Ended") + dd').textContent()).toBe(`the agent ended the conversation on turn ${last}`);
    expect(errors).toEqual([]);
  });

  it("shows the calls begun by the turn an errored script stopped on, under its message, as the comment does", async () => {
    const begun = [{ tool: 'refund', input: '{"order": "1234", "amount": 1', output: null, mocked: true }];
    const turns = persona('refund-chat').turns;
    const next = turns[turns.length - 1]!.index + 1;
    const error = `turn ${next}: the stream ended early: no message_stop event (anthropic stream, no text received, 1 tool call begun: refund)`;
    const script = persona('refund-chat', { turns, unsent: ['It arrived broken'], errored: true, error, errorKind: 'http', verdict: null, drift: null, errorToolCalls: begun });
    const { page, errors } = await open(run([], { personas: [script], tallies: { passed: 0, failed: 0, notEvaluated: 0, errored: 1 } }));
    const row = page.locator('details.item[data-label="refund-chat"]');
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
    const stop = row.locator('.body > .turn').last();
    await stop.waitFor();
    expect(await stop.locator('p').allTextContents()).toEqual([`Turn ${next} · User`, 'Tool calls begun before the answer was cut short:', 'The run stopped on this turn: no answer was recorded.']);
    expect(await stop.locator('ul.calls li').allTextContents()).toEqual(['⚙ refund "{\\"order\\": \\"1234\\", \\"amount\\": 1" → null']);
    expect(errors).toEqual([]);
  });

  it('fits a 400 px window with every row and panel open: nothing wider than the page', async () => {
    const { script } = decisiveScript();
    const r = withPersonas();
    const record = { ...r, personas: [...(r.personas as PersonaRecord[]), script], tallies: { ...r.tallies, failed: r.tallies.failed + 1 } };
    const { page, errors } = await open(record, {}, { width: 400, height: 800 });
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    await page.locator('table.sbs').first().waitFor();
    // A chart wider than the window scrolls in its panel (its text stays readable): the panel is what must fit.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('table, svg, pre, .reply')]
        .map((e) => (e.tagName === 'svg' && e.closest('.panel.wide')) || e)
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth)
        .map((e) => `${e.tagName}.${e.getAttribute('class')}: ${(e.textContent ?? '').slice(0, 40)}`),
    );
    expect(wide).toEqual([]);
    // A row's pill ("not evaluated", "pass (probe) 3/3") stays in its 90 px column, wrapping, not over the label.
    const over = await page.$$eval('summary .pill', (ps) => ps.filter((p) => p.getBoundingClientRect().right > (p.parentElement as HTMLElement).getBoundingClientRect().right + 0.5).map((p) => p.textContent));
    expect(over).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    // A conversation's name stays whole (a path may break): "refunds", not "ref|un|ds".
    const broken = await page.locator('.panel table').first().evaluate((t) =>
      [...t.querySelectorAll('tbody td:first-child')].filter((c) => {
        const r = document.createRange();
        r.selectNodeContents(c);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
      }).map((c) => c.textContent),
    );
    expect(broken).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    const spill = await page.evaluate(() =>
      [...document.querySelectorAll('.panel table')].filter((t) => t.getBoundingClientRect().right > (t.closest('.panel') as Element).getBoundingClientRect().right).map((t) => (t.textContent ?? '').slice(0, 40)),
    );
    expect(spill).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps the agreement trend\'s text at 11 px on a 390 px phone and in two 740 px columns, its axis labels apart and whole', async () => {
    // Drawn 400 wide, the chart shrank to its 312 px panel and its text to 8.6 px; the last label was cut at its edge.
    const trend = Array.from({ length: 10 }, (_, i) => ({
      runId: String(1234567890 + i),
      commit: i % 3 === 0 ? `${i}a1b2c3`.padEnd(40, '0') : null,
      startedAt: '2026-11-28T10:00:00Z',
      agreement: { percent: i === 4 ? null : 60 + ((i * 37) % 40), passed: 5, failed: 5 },
    }));
    const { page, errors } = await open(allGreen(), { trend }, { width: 390, height: 800 });
    for (const width of [390, 740]) {
      await page.setViewportSize({ width, height: 800 });
      const drawn = await page.locator('svg.trend').evaluate((svg) => {
        const scale = (svg as SVGSVGElement).getScreenCTM()?.a ?? 0;
        const box = svg.getBoundingClientRect();
        const texts = [...svg.querySelectorAll(':scope > text')];
        const labels = texts.filter((t) => t.getAttribute('text-anchor') === 'middle' && t.childNodes[0]?.textContent !== 'n/a').map((t) => t.getBoundingClientRect());
        return {
          smallest: Math.min(...texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)),
          labels: labels.length,
          apart: labels.every((r, i) => i === 0 || (labels[i - 1] as DOMRect).right <= r.left),
          whole: labels.every((r) => r.left >= box.left && r.right <= box.right),
        };
      });
      expect(drawn.smallest, `${width} px`).toBeGreaterThanOrEqual(11);
      expect(drawn, `${width} px`).toMatchObject({ labels: 3, apart: true, whole: true });
    }
    expect(errors).toEqual([]);
  });

  it("a script's checks table breaks no short word: its headings and check names stay whole beside a long why", async () => {
    const why = `judge unreachable: no usable score in output: "${'I think this reply is rather diplomatic overall, but I would not want to put a number on it. '.repeat(3)}"`;
    const script = persona('expensive-item-handoff', { verdict: null, checks: [check.terminal('handoff', 'handoff'), check.criterion('Gives an honest opinion of the handover', null, null, why)] });
    const { page, errors } = await open(run([], { personas: [script], tallies: { passed: 0, failed: 0, notEvaluated: 1, errored: 0 } }));
    const row = page.locator('details.item[data-label="expensive-item-handoff"]');
    if ((await row.getAttribute('open')) === null) await row.locator('summary').click();
    await row.locator('table.checks').waitFor();
    // No more lines than words in a heading or a check name: a word cut in two ("criterio|n", "observe|d") is one line too many.
    const lines = await row.locator('table.checks').evaluate((t) =>
      [...t.querySelectorAll('th, td:nth-child(2)')].map((c) => {
        const r = document.createRange();
        r.selectNodeContents(c);
        return [c.textContent, new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size];
      }),
    );
    const cut = lines.filter(([text, n]) => text !== '' && Number(n) > String(text).split(' ').length);
    expect(lines.map(([text]) => text).filter((x) => x !== '')).toEqual(['result', 'check', 'expected', 'observed', 'why', 'ends with', 'criterion']);
    expect(cut).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens a persona script as its checks and transcript: turns, routes, tool calls', async () => {
    const record = withPersonas();
    const script = record.personas.find((p) => p.turns.some((t) => (t.toolCalls ?? []).length > 0) && !p.errored);
    expect(script).toBeDefined();
    const { page, errors } = await open(record);
    const row = page.locator(`details.item[data-label="${script?.label}"]`);
    await row.locator('summary').click();
    await row.locator('.turn').first().waitFor(); // the detail is drawn on the toggle event, a task after the click
    expect(await row.locator('.turn').count()).toBe(script?.turns.length);
    expect(await row.locator('.turn .route').allTextContents()).toEqual(script?.turns.map((t) => (t.route ? `${t.route.conversation} / ${t.route.stage}` : '(no route)')));
    const calls = script?.turns.flatMap((t) => t.toolCalls ?? []) ?? [];
    expect(await row.locator('ul.calls li').count()).toBe(calls.length);
    expect(await row.locator('table.checks tbody tr').count()).toBe(script?.checks.length);
    expect(errors).toEqual([]);
  });

  it('opens a simulated script with who wrote each user message, the live turn, the ending; a fault is its why', async () => {
    const { page, errors } = await open(simulatedRun());
    const row = page.locator('details.item[data-label="refund-simulated-live"]');
    await row.locator('summary').click();
    await row.locator('.turn').first().waitFor();
    expect(await row.locator('.turn .who b').allTextContents()).toEqual([
      'Turn 1 · User (script)', 'Agent', 'Turn 2 · User (from the baseline)', 'Agent', 'Turn 3 · User (simulated)', 'Agent', 'Turn 4 · User (simulated)', 'Agent',
    ]);
    const facts = await row.locator('dt:text-is("Simulated user") + dd').textContent();
    expect(facts).toContain('user simulated from turn 3 · ended: the simulated user was done: The agent refunded order 1234 to my card. · 3 simulator calls (1 retry)');
    const fault = page.locator('details.item[data-label="refund-simulated-fault"]');
    expect(await fault.locator('.pill').first().textContent()).toBe('not evaluated');
    expect(await fault.locator('.why').textContent()).toMatch(/^simulator unreachable: HTTP 503/);
    expect(errors).toEqual([]);
  });

  it('keeps a hostile record inert: no dialog, no script, no <img>, no javascript: link, no request', async () => {
    const evil = [
      '<img src=x onerror="window.__pwned=1;alert(1)">',
      '</script><script>window.__pwned=2;alert(2)</script>',
      '<a href="javascript:alert(3)">click</a> javascript:alert(4)',
      'line\u2028separator\u2029paragraph <!-- <script>alert(5)</script>',
      '" onmouseover="alert(6)" x="',
      'bidi \u202Etxt.exe\u202C \u2066isolated\u2069',
    ].join('\n');
    const r = run([
      fixture(`evil-${evil}`, {
        message: evil,
        reply: `${evil} new`,
        verdict: 'fail',
        detail: evil,
        route: route(evil, evil),
        drift: { reply: 'different', route: 'different', verdict: 'newly_failing' },
        baseline: baseline('evil', `${evil} old`, 'pass', route('a', evil)),
        file: `javascript:alert(7)/${evil}.yml`,
      }),
      fixture('evil-errored', { reply: null, route: null, verdict: null, errored: true, error: evil, errorKind: 'http', detail: evil, drift: null }),
      fixture('evil-new', { reply: evil, drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null }),
    ], { agent: { host: evil }, judge: { name: evil } });
    const hp = hostilePersona();
    const record: RunRecord = { ...r, personas: hp.personas.map((p) => ({ ...p, label: `${p.label}${evil}` })) };
    const o = await open(record, {
      context: { repositoryUrl: 'javascript:alert(8)', headSha: 'a'.repeat(40) },
      trend: [{ runId: evil, commit: evil, startedAt: evil, agreement: { percent: 10, passed: 1, failed: 9 } }],
      coverage: { listed: [evil], visited: [evil], gaps: [evil], unknown: [evil] },
    });
    const { page } = o;
    // Open every row so that every lazily drawn detail is in the DOM (what needs attention is open already).
    for (const summary of await page.$$('details.item:not([open]) > summary')) await summary.click();
    // Details are drawn on the toggle event, a task after each click: wait until every body is drawn.
    await page.waitForFunction(() => [...document.querySelectorAll('details.item .body')].every((x) => x.childNodes.length > 0));
    for (const more of await page.$$('button.more')) await more.click();
    await page.hover('details.item');
    expect(await page.$$eval('details.item .body', (b) => b.every((x) => x.childNodes.length > 0))).toBe(true);
    expect(o.dialogs).toEqual([]);
    expect(o.errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.$$('img')).toHaveLength(0);
    expect(await page.$$('script')).toHaveLength(2); // the data block and the page's own script
    expect(await page.$$eval('a', (as) => as.map((a) => a.getAttribute('href')).filter((h) => !h?.startsWith('https://')))).toEqual([]);
    expect(await page.$$eval('[onerror],[onmouseover],[onclick],[onload]', (e) => e.length)).toBe(0);
    // The text is there, as text.
    const text = await page.textContent('main');
    expect(text).toContain('<img src=x onerror="window.__pwned=1;alert(1)">');
    expect(text).toContain('</script><script>window.__pwned=2;alert(2)</script>');
    // No bidi override reaches the page (a route, a persona tag, a tool call included): it would reverse the text after it.
    expect(text).toContain('bidi txt.exe isolated');
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(o.requests).toEqual([o.url]);
  });
});
