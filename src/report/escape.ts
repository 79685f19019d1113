// Escaping for untrusted text (agent replies, fixture messages, details, error messages, refs).
// Every function here is pure and total: any string in, inert text out.
//
// Strategy:
// - inline markdown (table cells, detail lines): newlines become " ⏎ ", control characters are
//   dropped, `& < >` are entity-encoded, every markdown metacharacter gets a backslash, and
//   `@mention`, `#123`, `GH-1` and `:emoji:` are broken with a word joiner (U+2060: invisible, and
//   unlike a zero-width space it never lets the line break there) so GitHub links nobody and
//   nothing and draws no emoji.
// - raw HTML contexts (`<summary>`): entity-encode `& < > " '` and break the same references
//   (GitHub's mention, reference and emoji filters also run over raw HTML text), and a bare
//   address (`https://`, `www.`), with the word joiner where markdown has its escape.
// - block text (replies, multi-line messages): a fenced code block whose fence is longer than any
//   backtick run inside, its lines wrapped to 100 characters (wrap.ts); GitHub links nothing there.
// - right-to-left text (Arabic, Hebrew, a right-to-left mark) in inline markdown and raw HTML: each
//   run of it isolated (U+2068 ... U+2069, isolateRightToLeft), so that it cannot turn the line's
//   direction nor carry the comment's own words and numbers beside it to its side.
// - one exception, in inline markdown: the address of one of agent-replay's own pages (version.ts
//   docsUrl, which messages cite them by) becomes a link to it. What it matches is the
//   repository's docs/ at a version tag and nothing else, so no text links anywhere else. In raw
//   HTML (a `<summary>`, a control that holds no link) it is its label, as text; citedLinks links
//   it where the opened item says it (item-parts.ts itemDetails).

import { unicodePattern } from '../patterns.js';
import { citingCut, docsLinks } from '../version.js';
import { clipKeepingFix, fixStart } from '../assertions/format.js';

// Built on first use (patterns.ts).
const LETTER_OR_DIGIT = unicodePattern(String.raw`[\p{L}\p{N}]`, 'u');
const HASH_BEFORE_WORD = unicodePattern(String.raw`#(?=[\p{L}\p{N}])`, 'gu');
const HASH_BEFORE_WORD_NOT_ENTITY = unicodePattern(String.raw`(?<!&)#(?=[\p{L}\p{N}])`, 'gu');

/** C0/C1 controls (except tab and newlines, handled separately) and bidi overrides/isolates. */
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const NEWLINE_RE = /\r\n|\r|\n|\u2028|\u2029/g;

/** U+2060 WORD JOINER as an entity, so the markdown source shows where a reference was broken. */
export const WJ = '&#8288;';

/** `:smile:`-like shortcodes GitHub would draw as emoji: the text after the colon. */
const SHORTCODE_TAIL = /^[\w+-]+:/;

/** Drops control characters and bidi overrides; keeps tab and newlines. */
export function stripControl(text: string): string {
  return text.replace(CONTROL_RE, '');
}

/** Normalizes newlines to `\n` and drops control characters: for block (code) contexts. */
export function normalizeBlock(text: string): string {
  return stripControl(text.replace(/\r\n|\r|\u2028|\u2029/g, '\n'));
}

/** One line of plain text: newlines shown as ` ⏎ `, tabs as spaces, controls dropped. */
export function oneLine(text: string): string {
  return stripControl(text.replace(NEWLINE_RE, ' ⏎ ').replace(/\t/g, ' '));
}

// A terminal's line and block (terminalLine, terminalBlock) are words.ts's, which every layer may use
// (a results file's path in the record layer's RecordWriteError); the report's surfaces import them from here.
export { isolateRightToLeft, terminalBlock, terminalCall, terminalLine } from '../words.js';
import { hasRightToLeft, headOf, isolatedCall, isolatedJsonStrings, isolateRightToLeft, startsRightToLeft } from '../words.js';

const INLINE_RE = /[&<>@#\\`*_[\]()!|~:$.{}-]/g;

/**
 * Markdown-safe inline text for table cells, list items and detail lines. Renders as the original
 * text (newlines as ` ⏎ `) and can neither start markup, nor inject HTML, nor end a table cell,
 * nor mention a user, nor reference an issue, nor become a link: but for the address of one of
 * agent-replay's own pages (version.ts docsUrl), which is a link to that page, labelled
 * `docs/<page>.md#<section>`.
 */
export function escapeInline(text: string): string {
  return isolateRightToLeft(docsLinks(oneLine(text), inlineText, docsLink));
}

/** A page's address in markdown: a link, labelled as docsLinks says. */
function docsLink(url: string, label: string): string {
  return `[${inlineText(label)}](${url})`;
}

/**
 * escapeInline for a fix of ours, whose words the user copies (into config.yml, a setting, a URL):
 * a word that escapeInline would break with a word joiner (`@type`, `#1`, `:x:`, `GH-1`: invisible,
 * so copied with it) is a code span instead, in which GitHub makes no mention, reference nor emoji,
 * and copied as written (codeSpan: its fence longer than any backtick run in it). Quotes stay in the
 * span (a YAML value's); an opening parenthesis before and a closing one, a stop or a colon after stay
 * outside, but for what needs the span (`:smile:`'s last colon). A word of right-to-left text keeps the word joiner (isolateRightToLeft works on the line).
 * Any other text is escapeInline's, to the character.
 */
export function escapeFix(text: string): string {
  return isolateRightToLeft(docsLinks(oneLine(text), (s) => fixWords(s, inlineText, codeSpan), docsLink));
}

/**
 * escapeFix inside raw HTML (escapeHtmlInline's `<summary>`): a word the word joiner would break
 * is in `<code>`, where GitHub makes no mention, reference nor emoji either.
 */
export function escapeHtmlFix(text: string): string {
  return isolateRightToLeft(docsLinks(oneLine(text), (s) => fixWords(s, htmlText, (w) => `<code>${escapeHtml(w)}</code>`), htmlDocsLabel));
}

/**
 * A detail line, `<what happened>; <the fix>`, in markdown: what happened (the agent's, a server's
 * words among it) escaped by escapeInline, and the fix of ours after its "; " (assertions/format.ts
 * fixStart) by escapeFix, so that a fix copied from an item's line is exact, as a cause's is
 * (blocks.ts causeMarkdown). A line with no fix of ours is escapeInline's.
 */
export function escapeDetail(text: string): string {
  return withFix(text, escapeInline, escapeFix);
}

/** escapeDetail inside raw HTML: escapeHtmlInline, its fix escapeHtmlFix. */
export function escapeHtmlDetail(text: string): string {
  return withFix(text, escapeHtmlInline, escapeHtmlFix);
}

function withFix(text: string, said: (text: string) => string, fix: (text: string) => string): string {
  const at = fixStart(text);
  return at < 0 ? said(text) : `${said(text.slice(0, at + 2))}${fix(text.slice(at + 2))}`;
}

/** The words of escapeFix (spaces between them): each as `escape` says, or in code (`code`) when that would break it with a word joiner. */
function fixWords(text: string, escape: (s: string) => string, code: (s: string) => string): string {
  return text
    .split(/( +)/)
    .map((word) => {
      const escaped = escape(word);
      if (!escaped.includes(WJ) || hasRightToLeft(word)) return escaped;
      const [, lead = '', core = '', tail = ''] = /^(\(*)(.*?)([),.;:]*)$/.exec(word) ?? [];
      // What needs the span is in the word's last characters (`:smile:`): they are its, in it.
      if (!escape(core).includes(WJ)) return `${escape(lead)}${code(core + tail)}`;
      return `${escape(lead)}${code(core)}${escape(tail)}`;
    })
    .join('');
}

/** escapeInline of text without a page's address. */
function inlineText(s: string): string {
  return s.replace(INLINE_RE, (ch: string, offset: number) => {
    switch (ch) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '@':
        return `@${WJ}`;
      case '#':
        // `#123`, `#abc`: a reference GitHub would link; otherwise a plain escaped hash.
        return LETTER_OR_DIGIT().test(s.charAt(offset + 1)) ? `#${WJ}` : '\\#';
      case ':':
        // `:smile:` would become an emoji; any other colon is escaped (no `https:` autolink).
        return SHORTCODE_TAIL.test(s.slice(offset + 1)) ? `:${WJ}` : '\\:';
      case '.':
        // `www.example.com` would become a link (GFM autolink literal).
        return /www$/i.test(s.slice(Math.max(0, offset - 3), offset)) ? '\\.' : '.';
      case '-':
        // `GH-123` is an issue reference on GitHub.
        return /gh$/i.test(s.slice(Math.max(0, offset - 2), offset)) ? `-${WJ}` : '-';
      default:
        return `\\${ch}`;
    }
  });
}

/** Text for raw HTML block content such as `<pre>`: entities only, newlines kept. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}

/**
 * Text in a chart of report.html (an SVG <text> or <title>: forest.ts, latency.ts, chart.ts):
 * entities, controls and bidi overrides dropped, each run of right-to-left text isolated, as a
 * row's summary isolates it (isolateRightToLeft; U+2068 ... U+2069 hold in SVG text as in HTML),
 * so that a name in Arabic cannot draw the line's own figures to its side. Text with no
 * right-to-left character is chartAttr's, to the byte.
 */
export function chartText(text: string): string {
  return isolateRightToLeft(chartAttr(text));
}

/** chartText for an attribute (data-label, aria-label): as written, no isolate (the search box matches names as written). */
export function chartAttr(text: string): string {
  return escapeHtml(stripControl(text));
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Breaks what GitHub's filters would turn into a mention, a reference, an emoji or a link in HTML
 * text: a bare address (`https://x`, `www.x`) is broken with the word joiner too, as inline markdown
 * breaks it with an escape, so that no filter after the parser links it (a scheme alone, `http://`
 * before a space, links nothing and is copied as written).
 */
export function breakReferences(html: string): string {
  return html
    .replace(/@/g, `@${WJ}`)
    .replace(HASH_BEFORE_WORD_NOT_ENTITY(), `#${WJ}`)
    .replace(/(gh)-(?=\d)/gi, `$1-${WJ}`)
    .replace(/:(?=[\w+-]+:)/g, `:${WJ}`)
    .replace(/:\/\/(?=\S)/g, `:/${WJ}/`)
    .replace(/(www)\.(?=\S)/gi, `$1${WJ}.`);
}

/**
 * One line of plain text that GitHub shows as written but reads nothing in (a commit message):
 * `@mention`, `#123`, `owner/repo#1`, `GH-1`, `https://...` and `www.` are broken with the word
 * joiner itself (U+2060, invisible), so no one is notified, and no issue is linked, or closed by a
 * keyword once the commit reaches the default branch.
 */
export function inertText(text: string): string {
  return oneLine(text)
    .replace(/@/g, '@\u2060')
    .replace(HASH_BEFORE_WORD(), '#\u2060')
    .replace(/(gh)-(?=\d)/gi, '$1-\u2060')
    .replace(/:\/\//g, ':/\u2060/')
    .replace(/(www)\./gi, '$1\u2060.');
}

/**
 * One line of text inside raw HTML that GitHub post-processes (e.g. `<summary>`); the address of
 * one of agent-replay's own pages (version.ts docsUrl) is its label, `docs/traces.md#fixtures`, as
 * text: a link inside a `<summary>` is a control inside the one that opens it, which a keyboard or
 * a screen reader cannot reach apart (docs/action.md, "Accessibility"); citedLinks links it.
 */
export function escapeHtmlInline(text: string): string {
  return isolateRightToLeft(docsLinks(oneLine(text), htmlText, htmlDocsLabel));
}

/** escapeHtmlInline of text without a page's address. */
function htmlText(s: string): string {
  return breakReferences(escapeHtml(s));
}

/** A page's address in raw HTML: its label, as docsLinks says it, as text. */
function htmlDocsLabel(_url: string, label: string): string {
  return htmlText(label);
}

/**
 * Each of agent-replay's pages that `text` cites (docsUrl), in order, as a markdown link labelled
 * as escapeInline labels it: where the opened item links what its `<summary>` says as text.
 */
export function citedLinks(text: string): string[] {
  const links: string[] = [];
  docsLinks(oneLine(text), () => '', (url, label) => {
    links.push(docsLink(url, label));
    return '';
  });
  return links;
}

/** Longest run of `ch` in `text`. */
function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ch) {
      run++;
      if (run > best) best = run;
    } else run = 0;
  }
  return best;
}

/** The left-to-right mark (U+200E): a strong left-to-right character no one sees. */
export const LRM = '\u200e';

/** What a browser reads no direction from in a line of markdown: an HTML tag (`<b>`, `<br>`), an entity (`&lt;`). */
const MARKUP_RE = /<[^>]*>|&#?\w+;/g;

/**
 * `markdown`, the start of a paragraph or of a list item's text, with a left-to-right mark first
 * when its first strong character is right-to-left (a label, a file or a cause in Hebrew or Arabic:
 * its isolate does not hide it, words.ts startsRightToLeft). GitHub sets a paragraph's and a list's
 * direction by that character (dir="auto"): such a block was drawn right to left, its words of ours
 * (": pass → fail", " · 3/5") on the run's far side, and a list's first item turned the whole
 * list. Any other text is returned as it is.
 */
export function leftToRightStart(markdown: string): string {
  return hasRightToLeft(markdown) && startsRightToLeft(markdown.replace(MARKUP_RE, '')) ? LRM + markdown : markdown;
}

/** `text` as a markdown list item, "- text", its mark (leftToRightStart) after the list's "- ", which must start the line. */
export function listItem(text: string): string {
  return `- ${leftToRightStart(text)}`;
}

/**
 * A code span holding one line of text. In a table cell set `table`, because GFM splits cells on
 * `|` even inside code spans (and removes the backslash of `\|` there); for JSON set `json`.
 */
export function codeSpan(text: string, options: { table?: boolean; json?: boolean } = {}): string {
  const line = oneLine(text);
  // JSON's strings with right-to-left text isolated inside the span, each apart (words.ts isolatedJsonStrings).
  let s = options.json ? isolatedJsonStrings(line) : line;
  if (options.table) s = s.replace(/\|/g, '\\|');
  const span = backquoted(s);
  // Right-to-left text isolated as a whole span, outside its backquotes (isolateRightToLeft); JSON
  // left to right, as it is written (words.ts isolatedJson): by its first strong character, a
  // Hebrew key drew `{"שם": "x"}` reversed.
  return hasRightToLeft(s) ? `${options.json ? '\u2066' : '\u2068'}${span}\u2069` : span;
}

/**
 * A tool call, its name and its input, as one code span (`find_order {"q": "A1"}`), the name and
 * the input isolated apart inside it (words.ts isolatedCall): the input's JSON left to right, so
 * that an Arabic name does not turn it, nor an Arabic key reverse it, as report.html's call and the
 * terminal's (terminalCall) isolate them.
 */
export function callSpan(tool: string, input: string): string {
  return backquoted(isolatedCall(oneLine(tool), oneLine(input)));
}

/** `s` (one line) between as many backquotes as it needs, padded where it starts or ends with one. */
function backquoted(s: string): string {
  if (s.length === 0) return '` `';
  const ticks = '`'.repeat(longestRun(s, '`') + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ')) ? ' ' : '';
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

/**
 * A fenced code block holding `text` verbatim. The fence is longer than the longest backtick run
 * inside, so no line of the text can close it; the info string is fixed by us. `normalized`: `text`
 * is normalizeBlock's already, part by part, with isolates of ours around them (item-parts.ts labelled): kept.
 */
export function fencedBlock(text: string, info = 'text', normalized = false): string {
  const body = normalized ? text : normalizeBlock(text);
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${fence}${info}\n${body}${body.endsWith('\n') || body === '' ? '' : '\n'}${fence}`;
}

/**
 * Shortens `text` to at most `max` UTF-16 units including the ellipsis, whole characters (words.ts
 * headOf: no half of a surrogate pair, no letter without its accent), nor the address of a page it cites, which is not counted (version.ts
 * citingCut). Returns the text unchanged when it fits.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  const end = citingCut(text, max, 1);
  if (end === null) return text;
  return `${headOf(text, end)}…`;
}

/**
 * An error's, a cause's or a check's detail bounded on a line: one that ends in a fix of ours
 * (`<what happened>; <the fix>`, fixStart) keeps the fix whole and only what happened is cut, its
 * quoted values first (clipKeepingFix); any other text is clip's. The comment's, report.html's and
 * JUnit's detail lines, as the terminal's (docs/cli.md, "What each command does").
 */
export function clipDetail(text: string, max: number): string {
  return fixStart(text) > 0 ? clipKeepingFix(text, max) : clip(text, max);
}

/**
 * clip for text already shown by terminalLine, terminalBlock or terminalCall: never keeps half of a
 * `\uXXXX` escape (`\u00…` would read as a different character, or as nothing), and closes each
 * isolate of right-to-left text the kept part opened (U+2068 ... U+2069) before its "…", so that the
 * "…" and whatever a line puts after it keep the line's direction; the closing marks count toward `max`.
 */
export function clipShown(text: string, max: number): string {
  if (max < 1) return clip(text, max);
  // Each pass makes room for the marks the last one's head left open; a shorter head leaves fewer
  // open, or one more where it cut off a closing mark, so it ends within a few passes.
  for (let closes = 0; ; ) {
    const head = shownHead(text, max - closes);
    if (head === null) return text;
    const open = openIsolates(head);
    if (open <= closes || max - open < 1) return `${head}${'\u2069'.repeat(open)}…`;
    closes = open;
  }
}

/** clip's head of `text` (without its "…") for clipShown, without half of a `\uXXXX` escape nor an isolate opened at its end; null when it fits. */
function shownHead(text: string, max: number): string | null {
  const cut = clip(text, max);
  if (cut === text) return null;
  let head = cut.slice(0, -1);
  const start = text.lastIndexOf('\\u', head.length - 1);
  if (start >= 0 && start > head.length - 6 && /^\\u[0-9a-f]{4}/.test(text.slice(start, start + 6))) head = text.slice(0, start);
  // An isolate opened with nothing in it kept is dropped rather than closed.
  let end = head.length;
  while (end > 0 && isIsolateStart(head.charCodeAt(end - 1))) end--;
  return head.slice(0, end);
}

/** U+2066 (LRI), U+2067 (RLI), U+2068 (FSI): a mark that opens an isolate. */
function isIsolateStart(code: number): boolean {
  return code >= 0x2066 && code <= 0x2068;
}

/** How many isolates `text` opens and does not close (U+2069, PDI, closes the last one open). */
function openIsolates(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isIsolateStart(code)) depth++;
    else if (code === 0x2069 && depth > 0) depth--;
  }
  return depth;
}

/** Byte length of `text` in UTF-8 (lone surrogates count as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** A link only for plain https URLs we can embed safely; otherwise null. */
export function safeUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  return /^https:\/\/[^\s<>"'`()[\]\\|]+$/.test(url) && url.length <= 2000 ? url : null;
}
