// Code comments (src/, test/, scripts/, the demo suite under examples/) cite the docs by page and
// section: `(docs/action.md, "The PR comment")` or `docs/cli.md#init`. A cited section must exist:
// a heading of that page (its text, or the start of it), a paragraph's bold label (`**Removed.**`),
// or, for a quoted output line in lower case, the line itself. A page renamed or a section
// retitled leaves a comment pointing nowhere.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf } from '../support/doc-links.js';
import { tempDir } from '../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
// The section after the page, with its comma or without (`docs/contributing.md "Speed"` cites it too).
const CITE = /docs\/([\w/-]+\.md)(?:#([\w-]+)|,? "((?:[^"\\]|\\.)+)")?/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|mts|js|mjs|py|ya?ml)$/.test(name)) out.push(path);
  }
  return out;
}

const plain = (s: string): string => s.replace(/[`*]/g, '').replace(/\\(.)/g, '$1').toLowerCase();

function headingsOf(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (h) out.push(plain(h[1]!));
  }
  return out;
}

interface Page {
  readonly text: string;
  readonly anchors: Set<string>;
  readonly headings: string[];
}

/** Every citation of a missing page or section in `files`, as `file:line: ...`. */
function missingCitations(files: string[]): string[] {
  const problems: string[] = [];
  // Each page read, and its anchors and headings found, once for all its citations (null: no such page).
  const pages = new Map<string, Page | null>();
  const pageOf = (page: string): Page | null => {
    if (!pages.has(page)) {
      let text: string | null;
      try {
        text = readFileSync(join(ROOT, page), 'utf8');
      } catch {
        text = null;
      }
      pages.set(page, text === null ? null : { text, anchors: anchorsOf(text), headings: headingsOf(text) });
    }
    return pages.get(page)!;
  };
  for (const file of files) {
    const where = relative(ROOT, file);
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      for (const m of line.matchAll(CITE)) {
        const page = `docs/${m[1]!}`;
        const cited = pageOf(page);
        if (cited === null) {
          problems.push(`${where}:${i + 1}: ${page} does not exist`);
          continue;
        }
        const { text } = cited;
        if (m[2] !== undefined && !cited.anchors.has(m[2])) problems.push(`${where}:${i + 1}: ${page} has no anchor #${m[2]}`);
        const section = m[3];
        if (section === undefined) continue;
        const s = plain(section);
        const found =
          cited.headings.some((h) => h.startsWith(s)) ||
          text.includes(`**${section.replace(/\\(.)/g, '$1')}`) ||
          (/^[^A-Z]/.test(section) && text.includes(section.replace(/\\(.)/g, '$1')));
        if (!found) problems.push(`${where}:${i + 1}: ${page} has no section "${section}"`);
      }
    });
  }
  return problems;
}

describe('sections of the docs cited in code comments', () => {
  it('exist, in src/, the tests, scripts/ and the demo suite', () => {
    const dirs = ['src', 'test', 'scripts', 'examples'];
    // The configuration files at the top (vitest.config.ts, eslint.config.js, action.yml) are code too.
    const top = readdirSync(ROOT).filter((n) => /\.(ts|mts|js|mjs|ya?ml)$/.test(n) && statSync(join(ROOT, n)).isFile()).map((n) => join(ROOT, n));
    const files = [...top, ...dirs.flatMap((d) => sources(join(ROOT, d)))].filter(
      (f) => !f.endsWith(join('test', 'docs', 'links.test.ts')) && !f.endsWith(join('test', 'docs', 'cited-sections.test.ts')),
    );
    expect(missingCitations(files)).toEqual([]);
  });

  it('are read with the comma after the page or without it', async () => {
    const file = join(await tempDir('cited-'), 'config.ts');
    writeFileSync(file, ['// (docs/contributing.md, "No such section")', '// (2026-12-05, docs/contributing.md "Nor this one")', '// docs/contributing.md, "Speed" and docs/contributing.md "Speed"'].join('\n'));
    expect(missingCitations([file]).map((p) => p.replace(/^.*config\.ts:/, ''))).toEqual(['1: docs/contributing.md has no section "No such section"', '2: docs/contributing.md has no section "Nor this one"']);
  });

  it('a page is read once for all its citations, and each citation of a missing page, anchor or section is said', async () => {
    const file = join(await tempDir('cited-'), 'config.ts');
    writeFileSync(file, ['// docs/no-such-page.md "A"', '// docs/no-such-page.md#b', '// docs/cli.md#commands, docs/cli.md#no-such-anchor', '// docs/cli.md#no-such-anchor', '// (docs/cli.md, "Commands") (docs/cli.md, "No such section")'].join('\n'));
    expect(missingCitations([file]).map((p) => p.replace(/^.*config\.ts:/, ''))).toEqual([
      '1: docs/no-such-page.md does not exist',
      '2: docs/no-such-page.md does not exist',
      '3: docs/cli.md has no anchor #no-such-anchor',
      '4: docs/cli.md has no anchor #no-such-anchor',
      '5: docs/cli.md has no section "No such section"',
    ]);
  });
});
