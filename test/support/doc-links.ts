// Checks the links between README.md and the pages under docs/: every relative link names a file
// that exists, every #anchor names a heading of its target (GitHub's slug rule), and every page
// under docs/ can be reached from the README by following links. Used by test/docs/links.test.ts.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * GitHub's anchor for a heading: the rendered text, lower-cased, with every character that is not
 * a letter, a digit, a mark, `_`, `-` or a space removed, and each space turned into `-`.
 */
export function slugify(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url) and images render as their text
    .replace(/<[^>]+>/g, ''); // inline HTML tags render as nothing
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '')
    .replace(/ /g, '-');
}

interface Line {
  readonly n: number;
  readonly text: string;
}

/** The lines outside fenced code blocks (``` or ~~~, up to three spaces of indent). */
function prose(markdown: string): Line[] {
  const out: Line[] = [];
  let fence: { char: string; length: number } | null = null;
  markdown.split('\n').forEach((text, i) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === null) {
      if (m) fence = { char: m[1]![0]!, length: m[1]!.length };
      else out.push({ n: i + 1, text });
    } else if (m && m[1]![0] === fence.char && m[1]!.length >= fence.length && text.trim() === m[1]) {
      fence = null;
    }
  });
  return out;
}

/** Every anchor a page offers: its headings' slugs (a repeated slug gets -1, -2, ...) and `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of prose(markdown)) {
    const h = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text);
    if (h) {
      const slug = slugify(h[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const a of text.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.add(a[1]!);
  }
  return anchors;
}

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** Inline links and images, and reference definitions, outside code blocks and code spans. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { n, text } of prose(markdown)) {
    const bare = text.replace(/(`+)(?:(?!\1).)*?\1/g, (span) => ' '.repeat(span.length));
    for (const m of bare.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: n, target: m[1]! });
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(bare);
    if (def) links.push({ line: n, target: def[1]! });
  }
  return links;
}

/**
 * The lines of `markdown` that write a percent with a space ("50 %") outside code and quotes: the
 * messages write "50%" (src/evaluate/latency.ts), and so do the pages; a code block or span, or a
 * quoted input ("10 %" as a reply may write it), is left as it is written.
 */
export function spacedPercents(markdown: string): number[] {
  return prose(markdown)
    .filter(({ text }) => /\d %/.test(text.replace(/(`+)(?:(?!\1).)*?\1/g, '').replace(/"[^"]*"/g, '')))
    .map(({ n }) => n);
}

/** The markdown files under `dir`, at any depth. */
export function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(path);
    return e.isFile() && e.name.endsWith('.md') ? [path] : [];
  });
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * The problems of the docs under `root` (README.md and docs/**\/*.md), one line each as
 * `file:line: what is wrong; fix: ...`, in file and line order. An empty list means every link
 * resolves and every page is reachable from the README.
 */
export function checkDocs(root: string): string[] {
  const rootDir = resolve(root);
  const readme = join(rootDir, 'README.md');
  const pages = [readme, ...markdownFiles(join(rootDir, 'docs')).sort()];
  const rel = (file: string) => relative(rootDir, file).split(sep).join('/');
  const text = new Map<string, string>();
  const read = (file: string) => {
    let t = text.get(file);
    if (t === undefined) text.set(file, (t = readFileSync(file, 'utf8')));
    return t;
  };
  const anchors = new Map<string, Set<string>>();
  const anchorsFor = (file: string) => {
    let a = anchors.get(file);
    if (a === undefined) anchors.set(file, (a = anchorsOf(read(file))));
    return a;
  };

  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  if (!existsSync(readme)) return ['README.md: missing; fix: the docs start at README.md'];

  for (const page of pages) {
    const out = new Set<string>();
    edges.set(page, out);
    for (const { line, target } of linksOf(read(page))) {
      if (target === '' || EXTERNAL.test(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const where = `${rel(page)}:${line}`;
      if (pathPart.startsWith('/')) {
        problems.push(`${where}: link "${target}" is absolute; fix: write it relative to ${rel(page)}`);
        continue;
      }
      const file = pathPart === '' ? page : resolve(dirname(page), pathPart);
      const inside = relative(rootDir, file);
      if (inside.startsWith('..') || resolve(rootDir, inside) !== file) {
        problems.push(`${where}: link "${target}" leaves the repository; fix: link to a file inside it`);
        continue;
      }
      if (!existsSync(file)) {
        problems.push(`${where}: link "${target}": ${rel(file)} does not exist; fix: correct the path or create the page`);
        continue;
      }
      const isPage = statSync(file).isFile() && file.endsWith('.md');
      if (isPage) out.add(file);
      if (anchor !== null && anchor !== '' && isPage && !anchorsFor(file).has(anchor)) {
        problems.push(`${where}: link "${target}": ${rel(file)} has no heading with the anchor #${anchor}; fix: use one of its headings' anchors (lower case, punctuation removed, spaces as -)`);
      }
    }
  }

  const reached = new Set<string>([readme]);
  const queue = [readme];
  while (queue.length > 0) {
    for (const next of edges.get(queue.shift()!) ?? []) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  for (const page of pages) {
    if (!reached.has(page)) problems.push(`${rel(page)}: not reachable from README.md; fix: link to it from the README or from a page the README links to`);
  }
  return problems;
}
