// Golden-file comparison and markdown parsing helpers for the report tests.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import cmark from 'cmark-gfm';
import { expect } from 'vitest';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'golden');

/** Compares `actual` byte for byte with test/golden/<name>; UPDATE_GOLDEN=1 rewrites the file. */
export function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`missing golden file ${file}: run UPDATE_GOLDEN=1 npx vitest run test/report`);
  const expected = readFileSync(file, 'utf8');
  expect(actual, `golden ${name} differs (UPDATE_GOLDEN=1 to accept)`).toBe(expected);
}

/** Every tag of `xml` (JUnit) closes the one opened last, and none is left open; `<?xml ...?>` and `<x/>` are passed over. */
export function expectBalancedTags(xml: string): void {
  const tags = [...xml.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)].filter((m) => m[2] !== 'xml');
  const stack: string[] = [];
  for (const m of tags) {
    if (m[3] === '/') continue;
    if (m[1] === '/') expect(stack.pop()).toBe(m[2]);
    else stack.push(m[2] as string);
  }
  expect(stack).toEqual([]);
}

/** GitHub-flavoured HTML, with raw HTML passed through so tests can see what survives. */
export function toHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

export function count(haystack: string, needle: string | RegExp): number {
  if (typeof needle === 'string') return haystack.split(needle).length - 1;
  return (haystack.match(new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : `${needle.flags}g`)) ?? []).length;
}

/** HTML with the content of <pre> and <code> removed: where GitHub links mentions and references. */
export function outsideCode(html: string): string {
  return html.replace(/<pre>[\s\S]*?<\/pre>/g, '<pre></pre>').replace(/<code[^>]*>[\s\S]*?<\/code>/g, '<code></code>');
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(parseInt(d, 10)))
    .replace(/&amp;/g, '&');
}

/** Decoded contents of every fenced code block with the given language. */
export function codeBlocks(html: string, lang = 'text'): string[] {
  const re = new RegExp(`<pre><code class="language-${lang}">([\\s\\S]*?)</code></pre>`, 'g');
  return [...html.matchAll(re)].map((m) => decodeEntities(m[1] as string));
}

/** Deep-freezes a value so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** HTML exactly as GitHub's parser (cmark-gfm) renders the markdown, raw HTML passed through. */
export function githubHtml(markdown: string): string {
  return cmark.renderHtmlSync(markdown, {
    unsafe: true,
    extensions: { table: true, strikethrough: true, tagfilter: true, autolink: true, tasklist: true },
  });
}

/** The text a reader sees outside code: tags dropped, entities decoded. */
export function visibleText(html: string): string {
  return decodeEntities(outsideCode(html).replace(/<[^>]+>/g, ' '));
}

/** Decoded contents of every code block, whatever its language. */
export function allCodeBlocks(html: string): string[] {
  return [...html.matchAll(/<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => decodeEntities(m[1] as string));
}

/** The HTML of one item's `<details>` (summary and body, nested blocks included), as GitHub renders the comment. */
export function itemHtml(html: string, label: string): string {
  const start = html.lastIndexOf('<details', html.indexOf(`<b>${label}</b>`));
  expect(start, `${label} is shown in full`).toBeGreaterThanOrEqual(0);
  const re = /<details[ >]|<\/details>/g;
  re.lastIndex = start;
  let depth = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[0] === '</details>' ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + m[0].length);
  }
  throw new Error(`unbalanced <details> after ${label}`);
}

/** The comment's structure read back from cmark-gfm's HTML. */
export function structure(md: string): {
  headline: [string, number][];
  sections: { title: string; count: number; full: number; labels: string[]; counted: number }[];
} {
  const html = githubHtml(md);
  const heads = [...html.matchAll(/<h3>([^<]*)<\/h3>/g)].map((m) => decodeEntities(m[1] as string)).filter((h) => !h.includes('Baselines'));
  // The counts only: not the lead ("Not verified: ") nor what follows a regression (" — 2 not verified").
  const headText = (heads[0] ?? '').replace(/^\S+ (?:[A-Z][a-z ]+(?: \([a-z, ]+\))?: )?/, '').replace(/ — .*$/, '');
  const headline = headText.split(' · ').map((part): [string, number] => {
    const m = /^([\d,]+) (.+)$/.exec(part);
    return [m?.[2] ?? part, Number((m?.[1] ?? 'NaN').replace(/,/g, ''))];
  });
  const body = html.slice(0, html.lastIndexOf('<hr />'));
  const parts = body.split(/(?=<h4>)/).filter((p) => p.startsWith('<h4>'));
  const sections = parts.map((part) => {
    const h = /<h4>\S+ (.+?) \(([\d,]+)\)(?:: not a failure)?<\/h4>/.exec(part);
    const full = [...part.matchAll(/<details(?: open)?><summary>\S+ (?:🎭 script )?<b>([^<]*)<\/b>/g)].map((m) => decodeEntities(m[1] as string));
    // Only the compact tables (first column: fixture, persona script or item), not a script's checks.
    const tbody = [...part.matchAll(/<table>\s*<thead>\s*<tr>\s*<th>(?:fixture|persona script|item)<\/th>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/g)]
      .map((m) => m[1] as string)
      .join('');
    const rows = [...tbody.matchAll(/<tr>\s*<td>(?:🎭 script )?([^<]*)<\/td>/g)].map((m) => decodeEntities(m[1] as string));
    const countedMatch = /<em>(?:… and )?([\d,]+) (?:more )?[^<]*only counted here/.exec(part);
    return {
      title: h?.[1] ?? '?',
      count: Number((h?.[2] ?? 'NaN').replace(/,/g, '')),
      full: full.length,
      labels: [...full, ...rows],
      counted: countedMatch ? Number((countedMatch[1] as string).replace(/,/g, '')) : 0,
    };
  });
  return { headline, sections };
}
