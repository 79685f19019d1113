// Kept equal to package.json's version by a test.
export const TOOL = { name: 'agent-replay', version: '0.1.0' } as const;

/**
 * Where agent-replay's pages are read at this version: the package does not ship docs/, so
 * `npx agent-replay` and a pull request's comment name them at the repository's tag
 * (docs/contributing.md, "Releasing"). A test keeps it equal to package.json's repository.
 * Messages cite a page with docsUrl, never this directly.
 */
export const DOCS_URL = `https://github.com/agent-replay/agent-replay/blob/v${TOOL.version}/docs`;

/**
 * GitHub's anchor of a plain markdown heading in ASCII (the pages' are): lower case, punctuation
 * dropped, each space a hyphen. A heading with other letters gets an anchor GitHub does not give
 * it, which the test of docsUrl's calls finds.
 */
export function docsAnchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9_\- ]/g, '').replace(/ /g, '-');
}

/**
 * The address of docs/`page`, at `heading` when given (its text as docs/`page` writes it), at this
 * version: the one form in which a message a user sees cites agent-replay's pages. The terminal and
 * results.json show it as it is; the comment, the job summary and report.html show it as a link
 * (docsLinks). Each call's page and heading are checked against docs/ by test/cli/docs-url.test.ts.
 */
export function docsUrl(page: string, heading?: string): string {
  return `${DOCS_URL}/${page}${heading === undefined ? '' : `#${docsAnchor(heading)}`}`;
}

/**
 * A docsUrl in a message, of any version (a record keeps the address of the version that wrote
 * it): the repository, the tag, the page and the section only, so that what it matches links
 * nowhere but agent-replay's own pages; not one cut short (followed by more of a name, or by
 * the ellipsis of a clip).
 */
const DOCS_URL_RE = /https:\/\/github\.com\/agent-replay\/agent-replay\/blob\/v\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\/docs\/((?:[a-z-]+\/)?[a-z-]+\.md)(?:#([a-z0-9_-]+))?(?![\w#\u2026-])/g;

/**
 * `text` with each docsUrl in it as a link: `part(text)` renders the text between them, and
 * `link(url, label)` an address (its label `docs/<page>.md#<section>`, what the terminal's
 * address says in fewer characters).
 */
export function docsLinks(text: string, part: (text: string) => string, link: (url: string, label: string) => string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(DOCS_URL_RE)) {
    out += part(text.slice(at, m.index)) + link(m[0], `docs/${m[1] ?? ''}${m[2] === undefined ? '' : `#${m[2]}`}`);
    at = m.index + m[0].length;
  }
  return at === 0 ? part(text) : out + part(text.slice(at));
}

/** Where the docsUrl addresses in `text` are: each one's start and end. */
export function docsUrlSpans(text: string): [number, number][] {
  return [...text.matchAll(DOCS_URL_RE)].map((m) => [m.index, m.index + m[0].length]);
}

/** Characters of cited addresses a bound on a line need not count: two of a page and a section. */
export const DOCS_URL_ALLOWANCE = 240;

/**
 * Where to cut `text` so that, with `end` (that many characters) appended, it is `max` characters
 * long, not counting the addresses of pages it cites (docsUrl, DOCS_URL_ALLOWANCE characters of
 * them), and never inside one: the line a pointer came with is not cut short by it, nor the
 * pointer cut into the address of another section. Null: `text` fits.
 */
export function citingCut(text: string, max: number, end: number): number | null {
  if (text.length <= max) return null;
  const spans = docsUrlSpans(text.slice(0, max + DOCS_URL_ALLOWANCE));
  let limit = max;
  let allowance = DOCS_URL_ALLOWANCE;
  for (const [a, b] of spans) {
    // An address after the cut is not kept, so not allowed for.
    if (a >= limit - end) break;
    const n = Math.min(b - a, allowance);
    limit += n;
    allowance -= n;
  }
  if (text.length <= limit) return null;
  let cut = limit - end;
  for (const [a, b] of spans) if (a < cut && cut < b) cut = a;
  return cut;
}
