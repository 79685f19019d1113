import { describe, expect, it } from 'vitest';
import {
  renderCapRefusal,
  renderComment,
  renderJUnit,
  renderMarkdownReport,
  renderSummary,
  renderTerminal,
  utf8Length,
  type ReportContext,
} from '../../src/report/index.js';
import { allGreen, ctx, fixture, HOSTILE, hostile, many, mixed, run } from './fixtures.js';
import { codeBlocks, count, deepFreeze, expectGolden, outsideCode, toHtml } from './helpers.js';

const acceptanceCtx: ReportContext = {
  ...ctx,
  acceptance: {
    accepted: ['refund-policy', 'polite-refusal', 'opening-hours', 'escalate-angry', 'new-size-guide'],
    refused: [
      { label: 'gift-cards', reason: 'not evaluated: run it again' },
      { label: 'loyalty-points', reason: 'errored: no reply to accept' },
    ],
    skipped: ['welcome-greeting', 'cancel-order', 'still-wrong-currency'],
    commitSha: 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
    commitUrl: 'https://github.com/acme/shop-bot/commit/c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe',
    note: 'Commits made with the workflow token do not start new workflow runs: push an empty commit or re-run the checks.',
  },
};

describe('golden files', () => {
  it('all green', () => expectGolden('all-green.comment.md', renderComment(allGreen(), ctx)));
  it('mixed comment', () => expectGolden('mixed.comment.md', renderComment(mixed(), ctx)));
  it('mixed summary', () => expectGolden('mixed.summary.md', renderSummary(mixed(), ctx)));
  it('mixed after acceptance', () => expectGolden('mixed-accepted.comment.md', renderComment(mixed(), acceptanceCtx)));
  it('hostile replies', () => expectGolden('hostile.comment.md', renderComment(hostile(), ctx)));
  it('5,000 fixtures', () => expectGolden('many-5000.comment.md', renderComment(many(5000), ctx)));
  it('cap refusal', () =>
    expectGolden('cap-refusal.md', renderCapRefusal({ usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: false }, 12, 4, ctx)));
  it('terminal', () => expectGolden('mixed.terminal.txt', renderTerminal(mixed(), { color: false })));
  it('junit', () => expectGolden('mixed.junit.xml', renderJUnit(mixed())));
});

describe('comment structure (GitHub-flavoured markdown)', () => {
  it('has a tallies table with one column per shown tally', () => {
    const green = toHtml(renderComment(allGreen(), ctx));
    const table = green.slice(green.indexOf('<table>'), green.indexOf('</table>'));
    expect(count(table, '<tr>')).toBe(2);
    expect(count(table, /<th[ >]/)).toBe(1);
    expect(count(table, /<td[ >]/)).toBe(1);

    const html = toHtml(renderComment(mixed(), ctx));
    const t = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    expect(count(t, '<tr>')).toBe(2);
    expect(count(t, /<th[ >]/)).toBe(4);
    expect(count(t, /<td[ >]/)).toBe(4);
    expect(t).toContain('not evaluated (not a failure)');
    expect(t).toContain('errored (not a failure)');
  });

  it('hides zero tallies except passed', () => {
    const md = renderComment(run([fixture('a', { verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } })]), ctx);
    expect(md).toContain('| ✅ passed | ❌ failed |');
    expect(md).not.toContain('errored (not a failure)');
  });

  it('lists attention sections worst first and unchanged fixtures collapsed', () => {
    const md = renderComment(mixed(), ctx);
    const order = ['Newly failing', 'Changed replies and routes', 'Not evaluated', 'Errored', 'New fixtures, not yet accepted', 'unchanged fixtures'];
    const positions = order.map((h) => md.indexOf(h));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(md).toContain('<details><summary>3 unchanged fixtures</summary>');
  });

  it('shows every drift value and verdict in words', () => {
    const md = renderComment(mixed(), ctx);
    for (const words of ['fail · newly failing', 'pass · newly passing', 'pass (probe) · still passing', 'fail · still failing', 'not evaluated · drift unknown', 'not evaluated · no baseline', 'pass · no baseline', 'errored · no reply']) {
      expect(md).toContain(words);
    }
    expect(md).toContain('route: refunds / policy → refunds / exceptions');
    expect(md).toContain('≈ $0.36 estimated (cap $0.10) · ran above the cap: confirmed');
    expect(md).toContain('judge: demo judge \\(not a real model\\)');
  });

  it('says no regressions when all is green', () => {
    const md = renderComment(allGreen(), ctx);
    expect(md).toContain('### ✅ No regressions · 6 fixtures unchanged');
    expect(md).toContain('Nothing to accept');
  });

  it('balances <details> in every rendering', () => {
    for (const md of [renderComment(mixed(), ctx), renderComment(hostile(), ctx), renderComment(many(500), ctx), renderComment(mixed(), acceptanceCtx)]) {
      const html = toHtml(md);
      expect(count(html, /<details>/)).toBe(count(html, /<\/details>/));
      expect(count(md, /^<details>/m)).toBe(count(md, /^<\/details>$/m));
    }
  });
});

describe('hostile agent text stays inert', () => {
  const md = renderComment(hostile(), ctx);
  const html = toHtml(md);

  it('injects no HTML tags', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });

  it('creates no links, images, headings or emphasis', () => {
    const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/github\.com\/acme\/shop-bot\//);
    expect(html).not.toMatch(/<a [^>]*evil/);
    expect(html).not.toMatch(/<h[12]>/);
    expect(html).not.toContain('<strong>bold</strong>');
    expect(html).not.toContain('<em>em</em>');
  });

  it('mentions nobody and references no issue outside code', () => {
    const visible = outsideCode(html);
    expect(visible).not.toMatch(/@someone|@admin|@judge/);
    expect(visible).not.toMatch(/#123|#7\b|GH-45/);
  });

  it('keeps each reply inside its own code block', () => {
    const blocks = codeBlocks(html);
    expect(blocks.length).toBe(3);
    // eslint-disable-next-line no-control-regex
    const reply = HOSTILE.replace(/\u001b|\u0007|\u202e/g, '');
    expect(blocks).toContain(`${reply}\n`);
    expect(blocks).toContain(`Old ${reply} reply\n`);
  });

  it('keeps one hidden comment per metadata line', () => {
    const visible = outsideCode(html);
    expect(count(visible, '<!--')).toBe(2);
    expect(count(visible, '-->')).toBe(2);
    expect(md.split('\n').slice(0, 2).every((l) => l.startsWith('<!-- agent-replay:'))).toBe(true);
  });

  it('keeps the tallies table intact', () => {
    const t = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    expect(count(t, '<td')).toBe(3);
  });

  it('writes well-formed JUnit', () => {
    const xml = renderJUnit(hostile());
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).not.toContain('<script');
    expect(count(xml, '<testcase ')).toBe(4);
    expect(count(xml, '<failure ')).toBe(2);
    expect(count(xml, '<error ')).toBe(1);
    // Every tag is balanced: strip text, count opens and closes.
    const tags = [...xml.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)].filter((m) => m[2] !== 'xml');
    const stack: string[] = [];
    for (const m of tags) {
      if (m[3] === '/') continue;
      if (m[1] === '/') expect(stack.pop()).toBe(m[2]);
      else stack.push(m[2] as string);
    }
    expect(stack).toEqual([]);
    expect(xml).toMatch(/classname="\.agent-replay\/fixtures\/we\|ird`name\.yml"/);
  });

  it('keeps ANSI escapes out of the terminal', () => {
    const text = renderTerminal(hostile(), { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    for (const line of text.split('\n')) expect(line).not.toContain('\r');
  });
});

describe('render, then fit', () => {
  it('fits 5,000 fixtures in a comment and says what was left out', () => {
    const md = renderComment(many(5000), ctx);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toMatch(/… and \d+ more fixtures not shown \(/);
    expect(md).toContain('Shortened to fit');
    expect(md).toContain(ctx.summaryUrl as string);
    expect(md.indexOf('fixture-00000')).toBeGreaterThan(0);
  });

  it('degrades a ~300 KB comment below the limit, newly failing first', () => {
    const long = (i: number, v: string): string => `Paragraph ${i} ${v}. `.repeat(60) + '\n'.repeat(2) + 'Closing words.';
    const fixtures = Array.from({ length: 60 }, (_, i) =>
      fixture(`big-${String(i).padStart(2, '0')}`, {
        reply: long(i, 'new'),
        verdict: i % 2 === 0 ? 'fail' : 'pass',
        drift: { reply: 'different', route: 'same', verdict: i % 2 === 0 ? 'newly_failing' : 'still_passing' },
        baseline: { label: `big-${i}`, reply: long(i, 'old'), route: { conversation: 'main', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-30T10:00:00Z', commit: null },
      }),
    );
    const r = run(fixtures);
    const full = renderSummary(r, ctx);
    expect(full.length).toBeGreaterThan(300_000);
    const md = renderComment(r, ctx);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md.indexOf('Newly failing')).toBeLessThan(md.indexOf('Changed replies'));
    expect(md.indexOf('**big-00**')).toBeGreaterThan(0);
    expect(md).toContain('Shortened to fit');
    // Detail is bought back worst first: the first newly failing item keeps its diff, the last changed one does not.
    const first = md.slice(md.indexOf('**big-00**'), md.indexOf('**big-02**'));
    expect(first).toContain('<pre>');
    const last = md.slice(md.indexOf('**big-59**'));
    expect(last.split('\n\n---')[0]).not.toContain('<details>');
    expect(md).toMatch(/left out the replies and diffs of \d+ fixtures\./);
    expect(md).not.toContain('more fixtures not shown');
    const html = toHtml(md);
    expect(count(html, '<details>')).toBe(count(html, '</details>'));
  });

  it('drops the unchanged table first and keeps the diffs', () => {
    const fixtures = Array.from({ length: 2000 }, (_, i) => fixture(`same-${i}`));
    fixtures[0] = fixture('changed-one', {
      reply: 'New words.',
      drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
      baseline: { label: 'changed-one', reply: 'Old words.', route: { conversation: 'main', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-30T10:00:00Z', commit: null },
    });
    const md = renderComment(run(fixtures), ctx);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('1999 unchanged fixtures: listed in the full report.');
    expect(md).toContain('<del>Old</del><ins>New</ins>');
    expect(md).toMatch(/left out the unchanged list\. The full report is in the \[job summary\]/);
    // The job summary has room for the table.
    expect(renderSummary(run(fixtures), ctx)).toContain('<details><summary>1999 unchanged fixtures</summary>');
  });

  it('clips one huge reply instead of dropping everything', () => {
    const huge = 'x'.repeat(100_000);
    const r = run([fixture('huge', { reply: huge, drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null })]);
    const md = renderComment(r, ctx);
    expect(md).toContain('(first 4,000 of 100,000 characters)');
    expect(md).not.toContain('Shortened');
    expect(renderSummary(r, ctx)).toContain('(first 20,000 of 100,000 characters)');
  });

  it('never exceeds a tiny limit and closes what it opened', () => {
    for (const max of [400, 1000, 3000, 8000]) {
      for (const r of [mixed(), hostile(), many(300)]) {
        const md = renderComment(r, ctx, { maxChars: max });
        expect(md.length).toBeLessThanOrEqual(max);
        const html = toHtml(md);
        expect(count(html, '<details>')).toBe(count(html, '</details>'));
        expect(count(md, /^```/m) % 2).toBe(0);
        expect(html).not.toMatch(/<script|<img/);
      }
    }
  });

  it('keeps the summary under 1 MiB measured in UTF-8 bytes', () => {
    const r = many(3000, 600);
    const emoji = { ...r, fixtures: r.fixtures.map((f) => (f.errored || !f.reply ? f : { ...f, reply: `${f.reply} 😀é⏎`.repeat(2) })) };
    const md = renderSummary(emoji, ctx);
    expect(utf8Length(md)).toBeLessThanOrEqual(1_048_576);
    expect(Buffer.byteLength(md)).toBe(utf8Length(md));
    const small = renderSummary(emoji, ctx, { maxChars: 100_000 });
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(100_000);
    expect(small).toContain('job summary limit of 100,000 bytes');
  });

  it('keeps the markdown report free of hidden metadata', () => {
    const md = renderMarkdownReport(mixed());
    expect(md).not.toContain('<!--');
    expect(md).toContain('Newly failing');
  });
});

describe('purity', () => {
  it('renders byte-identical output and never mutates its input', () => {
    const r = deepFreeze(mixed());
    const c = deepFreeze({ ...acceptanceCtx });
    const once = [renderComment(r, c), renderSummary(r, c), renderTerminal(r, { color: true }), renderJUnit(r), renderMarkdownReport(r, c)];
    const twice = [renderComment(r, c), renderSummary(r, c), renderTerminal(r, { color: true }), renderJUnit(r), renderMarkdownReport(r, c)];
    expect(twice).toEqual(once);
  });
});

describe('cap refusal', () => {
  it('names the estimate, the cap and the three ways to confirm', () => {
    const md = renderCapRefusal({ usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: false }, 12, 4, ctx);
    expect(md).toContain('≈ $0.36 estimated');
    expect(md).toContain('$0.10');
    expect(md).toContain('`confirm-cost` label');
    expect(md).toContain('`confirm-cost: true`');
    expect(md).toContain('`--confirm-cost`');
    expect(md).toContain('nothing was spent');
    expect(md.startsWith('<!-- agent-replay:marker=agent-replay:ci.yml -->\n')).toBe(true);
  });
});

describe('terminal', () => {
  it('colours only when asked and respects the width', () => {
    const plain = renderTerminal(mixed(), { color: false, width: 60 });
    expect(plain).not.toContain('\u001b[');
    for (const line of plain.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(renderTerminal(mixed(), { color: true })).toContain('\u001b[31m');
  });

  it('lists attention items one per line with their detail', () => {
    const text = renderTerminal(mixed(), { color: false });
    expect(text).toContain('✗ refund-policy · fail · newly failing · reply changed · route changed · .agent-replay/fixtures/suite.yml:10 — regex /30 days/i: no match in the reply');
    expect(text).toContain('not evaluated 3 (not a failure)');
  });
});
