import { describe, expect, it } from 'vitest';
import { codeSpan, escapeInline, fencedBlock, utf8Length } from '../../src/report/index.js';
import { citedLinks, clip, clipShown, escapeHtmlInline, oneLine, safeUrl, terminalBlock, terminalLine } from '../../src/report/escape.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { fixture, run } from './fixtures.js';
import { docsUrl } from '../../src/version.js';
import { count, decodeEntities, outsideCode, toHtml } from './helpers.js';

/** Renders `text` as a table cell and returns the cell's HTML content. */
function cell(text: string): { html: string; cells: number } {
  const html = toHtml(`| a | b |\n| --- | --- |\n| ${escapeInline(text)} | end |\n`);
  const body = html.slice(html.indexOf('<tbody>'));
  return { html: (/<td>([\s\S]*?)<\/td>/.exec(body)?.[1] ?? '').trim(), cells: count(body, '<td>') };
}

describe('escapeInline', () => {
  it.each([
    ['plain text', 'plain text', 'plain text'],
    ['pipes', 'a | b || c |', 'a | b || c |'],
    ['newlines', 'one\ntwo\r\nthree\rfour', 'one ⏎ two ⏎ three ⏎ four'],
    ['backticks', '`code` ``more``', '`code` ``more``'],
    ['emphasis', '**bold** _em_ ~~strike~~', '**bold** _em_ ~~strike~~'],
    ['link', '[link](https://x.example)', '[link](https://x.example)'],
    ['image', '![img](https://x.example/a.png)', '![img](https://x.example/a.png)'],
    ['html', '<script>alert(1)</script><img src=x>', '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x&gt;'],
    ['ampersand entity', '&amp; &#64; &lt;', '&amp;amp; &amp;#\u206064; &amp;lt;'],
    ['heading', '# Heading', '# Heading'],
    ['comment terminators', '<!-- x --> -->', '&lt;!-- x --&gt; --&gt;'],
    ['math', '$x^2$', '$x^2$'],
    ['emoji shortcode (broken by a word joiner)', ':smile: :+1: a:b', ':\u2060smile: :\u2060+1: a:b'],
    ['backslash at end', 'ends with \\', 'ends with \\'],
    ['empty', '', ''],
  ])('%s renders as the original text in one table cell', (_name, input, shown) => {
    const { html, cells } = cell(input);
    expect(cells).toBe(2);
    expect(html).toBe(shown);
  });

  it.each([
    ['@someone', '@someone'],
    ['mail a@b.example', '@b'],
    ['fixes #123', '#123'],
    ['see owner/repo#7', '#7'],
    ['GH-45', 'GH-45'],
  ])('%s does not render as a linkable mention or reference', (input, forbidden) => {
    const { html } = cell(input);
    expect(html).not.toContain(forbidden);
    // A word joiner, not a zero-width space: the line never breaks there.
    expect(html).not.toContain('\u200b');
    expect(html.replace(/\u2060/g, '')).toContain(forbidden);
  });

  it('does not autolink URLs', () => {
    const html = toHtml(escapeInline('https://evil.example/x www.evil.example mailto:a@b.example'));
    expect(html).not.toContain('<a ');
  });

  it("links the address of one of agent-replay's pages (docsUrl), and no other address", () => {
    const url = docsUrl('traces.md', 'Fixtures');
    const html = toHtml(`- ${escapeInline(`see ${url}, or @someone's *page* https://github.com/agent-replay/agent-replay/blob/main/docs/cli.md https://github.com/evil/agent-replay/blob/v0.1.0/docs/cli.md`)}`);
    expect([...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]!.replace(/\u2060/g, '')])).toEqual([[url, 'docs/traces.md#fixtures']]);
    expect(html).not.toContain('<em>');
    expect(html.replace(/\u2060/g, '')).toContain("@someone's *page* https://github.com/agent-replay/agent-replay/blob/main/docs/cli.md");
    // In raw HTML (a <summary>, a control that holds no link), its label as text, the rest entities;
    // citedLinks is its link, for the opened item.
    const summary = toHtml(`<details><summary>${escapeHtmlInline(`see ${url} <b>`)}</summary>\n\n</details>`);
    expect(summary).toContain(`<summary>see docs/traces.md#&#8288;fixtures &lt;b&gt;</summary>`);
    expect(citedLinks(`see ${url} <b>, or ${url.slice(0, -3)}…`)).toEqual([`[docs/traces.md#&#8288;fixtures](${url})`]);
  });

  it('drops control characters and bidi overrides', () => {
    expect(escapeInline('\u001b[31mred\u0007\u202e')).toBe('\\[31mred');
  });

  it('escapes every pipe, not only the first', () => {
    expect(count(escapeInline('|||'), '\\|')).toBe(3);
  });

  it('keeps a heading marker inert at the start of a list item', () => {
    const html = toHtml(`- ${escapeInline('# not a heading')}`);
    expect(html).not.toContain('<h1>');
  });
});

describe('codeSpan', () => {
  it.each([
    ['plain', 'a.yml:3'],
    ['backticks inside', 'we`ird``name'],
    ['leading backtick', '`start'],
    ['trailing backtick', 'end`'],
    ['mention', '@someone'],
  ])('%s round-trips through a code span', (_name, text) => {
    const html = toHtml(codeSpan(text));
    const inner = /<code>([\s\S]*?)<\/code>/.exec(html)?.[1];
    expect(inner?.replace(/&amp;/g, '&')).toBe(text);
  });

  it('escapes pipes in table cells', () => {
    const html = toHtml(`| a | b |\n| - | - |\n| ${codeSpan('x|y', { table: true })} | z |\n`);
    expect(count(html.slice(html.indexOf('<tbody>')), '<td>')).toBe(2);
    expect(html).toContain('<code>x|y</code>');
  });
});

describe('fencedBlock', () => {
  it.each([
    ['no backticks', 'hello\nworld'],
    ['triple backticks', '```\nclosing?\n```'],
    ['long runs', 'x `````````` y\n``````````'],
    ['tildes', '~~~\n~~~~'],
    ['html', '</details><script>alert(1)</script>'],
    ['trailing newline', 'a\n'],
  ])('%s stays inside its block', (_name, text) => {
    const html = toHtml(`${fencedBlock(text)}\n\nafter`);
    expect(count(html, '<pre>')).toBe(1);
    expect(html).toMatch(/<\/pre>\n<p>after<\/p>/);
    expect(html).not.toContain('<script');
  });
});

describe('helpers', () => {
  it('shows a carriage return not followed by a line feed as the other control characters on a terminal; CRLF is a line break', () => {
    expect(terminalBlock('abc\rdef\r\nghi')).toBe('abc\\u000ddef\nghi');
    expect(terminalLine('abc\rdef\r\nghi')).toBe('abc\\u000ddef ⏎ ghi');
    // A reply holding one is printed on one line under its item, not broken where the agent sent no newline.
    const f = fixture('cr-reply', { verdict: 'fail', detail: 'contains "x": not found', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' }, reply: 'abc\rdef' });
    const lines = renderTerminal(run([f]), { color: false }).split('\n');
    expect(lines).toContain('        abc\\u000ddef');
    expect(lines).not.toContain('        def');
  });

  it('clipShown never keeps half of an escaped control character', () => {
    const shown = terminalLine('abcd\x1b[31mred');
    expect(shown).toBe('abcd\\u001b[31mred');
    // Cut at every width through the escape: either all six characters or none of them.
    for (let max = 5; max <= 12; max++) {
      const cut = clipShown(shown, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut, `max ${max}`).toMatch(max <= 10 ? /^abcd…$/ : /^abcd\\u001b.*…$/);
    }
    expect(clipShown(shown, 30)).toBe(shown);
    expect(clipShown('plain text here', 6)).toBe(clip('plain text here', 6));
  });

  it('clipShown closes each isolate of right-to-left text it cut before its "…", at every width, and never parts a character', () => {
    const FSI = '\u2068';
    const PDI = '\u2069';
    /** How many isolates `line` leaves open; and whether its "…" is inside one. */
    const open = (line: string): { open: number; ellipsisInside: boolean } => {
      let depth = 0;
      let ellipsisInside = false;
      for (const ch of line) {
        if (ch === FSI) depth++;
        else if (ch === PDI) depth = Math.max(0, depth - 1);
        else if (ch === '…' && depth > 0) ellipsisInside = true;
      }
      return { open: depth, ellipsisInside };
    };
    // A run of Hebrew, one of Adlam (beyond the BMP: surrogate pairs), a family emoji (joined by U+200D) inside, one isolate within another.
    const shown = `tools begun: ${FSI}find_order {"city": "תל אביב", "who": "𞤀𞤁𞤂 👨‍👩‍👧 ${FSI}שלום${PDI}"}${PDI}, find_order {"id": "1"}`;
    for (let max = 1; max < shown.length; max++) {
      const cut = clipShown(shown, max);
      expect(cut.length, `max ${max}`).toBeLessThanOrEqual(max);
      expect(cut.endsWith('…'), `max ${max}`).toBe(true);
      expect(open(cut), `max ${max}: ${cut}`).toEqual({ open: 0, ellipsisInside: false });
      // Whole characters: no lone surrogate, no emoji parted from its joiner.
      expect(cut, `max ${max}`).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u200D(?:\u2069|…)/);
    }
    // Cut inside the isolate, the mark that closes it comes before the "…": it was `..."תל א…`, the isolate left open.
    expect(clipShown(shown, 40)).toBe(`tools begun: ${FSI}find_order {"city": "תל ${PDI}…`);
    // An isolate opened with nothing kept in it is dropped, not closed.
    expect(clipShown(shown, 15)).toBe('tools begun: …');
    expect(clipShown(shown, shown.length)).toBe(shown);
  });

  it('clip never splits a surrogate pair', () => {
    expect(clip('ab😀cd', 4)).toBe('ab…');
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcdef', 4)).toBe('abc…');
  });

  it("clip does not count the address of a page a line cites, and never cuts one: no link to a section cut short", () => {
    const url = docsUrl('meaning.md', 'Configuration');
    const line = `${'x'.repeat(250)} (${url}); then run it again`;
    expect(clip(line, 300)).toBe(line);
    const long = `${'x'.repeat(295)} ${url} and more`;
    expect(clip(long, 300)).toBe(`${'x'.repeat(295)} ${url} an…`);
    const cut = clip(`${'x'.repeat(290)} ${url}${'y'.repeat(300)}`, 200);
    expect(cut).toBe(`${'x'.repeat(199)}…`);
    // An address cut elsewhere (an older clip) is text, not a link to another section.
    expect(toHtml(escapeInline(`${url.slice(0, -4)}…`))).not.toContain('<a ');
    expect(clip('x'.repeat(10), 5)).toBe('xxxx…');
  });

  it('utf8Length counts bytes', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('⏎')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('\ud800')).toBe(3);
    expect(utf8Length('a😀é')).toBe(Buffer.byteLength('a😀é'));
  });

  it('oneLine flattens text', () => {
    expect(oneLine('a\n\tb')).toBe('a ⏎  b');
  });

  it('escapeHtmlInline breaks mentions, references and emoji inside raw HTML', () => {
    const html = toHtml(`<details><summary>${escapeHtmlInline("@someone #1 GH-2 :tada: o/r#3 it's <b>")}</summary>\n\n</details>`);
    const text = outsideCode(html);
    for (const forbidden of ['@someone', '#1', 'GH-2', ':tada:', 'r#3', '<b>']) expect(text).not.toContain(forbidden);
    expect(html).toContain('&#39;'); // entities stay intact
    expect(decodeEntities(html.replace(/&#8288;/g, ''))).toContain("@someone #1 GH-2 :tada: o/r#3 it's <b>");
  });

  it.each([
    ['https://github.com/o/r/actions/runs/1', true],
    ['http://example.com', false],
    ['javascript:alert(1)', false],
    ['https://x.example/a) [b](c', false],
    ['https://x.example/<script>', false],
    [null, false],
  ])('safeUrl(%s) -> %s', (url, ok) => {
    expect(safeUrl(url) !== null).toBe(ok);
  });
});
