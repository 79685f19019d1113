import { beforeAll, describe, expect, it } from 'vitest';
import { fastSource } from '../../src/suite/yaml/fast.js';
import { readLines } from '../../src/suite/yaml/lines.js';
import { loadYamlPackage } from '../../src/suite/yaml/index.js';
import type { PathSegment } from '../../src/suite/yaml/source.js';
import { generateDocument, prng, TRICKY_PLAIN } from './yaml-gen.js';

// The line reader (src/suite/yaml/lines.ts) against js-yaml (fastSource without it): on every text
// it takes, the same data (key order, -0 and NaN included) and the same position for every value;
// on every text js-yaml refuses, no reading at all.

beforeAll(async () => {
  // A position the readers do not know is asked of the `yaml` document (suite/yaml/package.ts).
  await loadYamlPackage();
});

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

/** A key not yet in `used`, mostly (one in twenty may repeat one, which js-yaml refuses). */
function keyOf(r: () => number, used: Set<string>): string {
  for (let i = 0; i < 20; i++) {
    const k = pick(r, KEYS);
    if (!used.has(k) || r() < 0.05) {
      used.add(k);
      return k;
    }
  }
  return `k${used.size}`;
}

const KEYS = ['label', 'message', 'assert', 'contains', 'persona', 'regex', 'flags', 'judge', 'count', 'minPass', 'x-api-key', 'a.b', 'k_2', 'yes', 'On', 'label2', 'url', 'headers', 'true', 'null', '__proto__', '1'];
const WORDS = [...TRICKY_PLAIN, 'Can I return it?', 'Hi, [x] {y} z', 'a#b', 'a: b', 'a:', 'http://x/#y', '-', '- x', '~', '--x', '-7', '+7', '.5', '(x)', '/p', "it's", 'say "hi"', '30 days'];
const TEXTS = ['', 'a', '30 days', 'say "hi"', "it's", 'back\\slash', 'tab\there', 'line\nbreak', 'é 😀', '#', ' lead', 'trail ', 'a, b', '{x}', '[y]', ':', '\\u00e9', '\u0007'];

/** A scalar as a suite file writes one (plain, double- or single-quoted), or a flow collection. */
function value(r: () => number, inFlow: boolean): string {
  const x = r();
  if (x < 0.45) return pick(r, WORDS);
  if (x < 0.7) {
    const t = pick(r, TEXTS);
    return r() < 0.8 ? JSON.stringify(t) : `"${t}"`;
  }
  if (x < 0.8) return `'${pick(r, TEXTS).replace(/'/g, r() < 0.9 ? "''" : "'")}'`;
  if (inFlow) return pick(r, ['word', '3', 'true', '"q, r"']);
  const n = Math.floor(r() * 4);
  const used = new Set<string>();
  if (x < 0.92) return `{ ${Array.from({ length: n }, () => `${keyOf(r, used)}: ${value(r, true)}`).join(', ')}${r() < 0.05 ? ',' : ''} }`;
  return `[${Array.from({ length: n }, () => (r() < 0.3 ? `{ ${pick(r, KEYS)}: ${value(r, true)} }` : value(r, true))).join(', ')}]`;
}

function comment(r: () => number): string {
  return r() < 0.1 ? pick(r, [' # note', '  #x', '#glued']) : '';
}

/** Lines of a block mapping or list at `indent`, in the shapes suite files take. */
function block(r: () => number, indent: number, depth: number): string[] {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  const list = r() < 0.4;
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    if (r() < 0.05) out.push(r() < 0.5 ? '' : `${pad}# a comment`);
    const lead = list ? `${pad}- ` : pad;
    const inner = list ? indent + 2 : indent;
    if (list && r() < 0.5) {
      // A list item that is a mapping: its first key on the dash's line.
      const pairs = 1 + Math.floor(r() * 3);
      const inItem = new Set<string>();
      for (let p = 0; p < pairs; p++) out.push(`${p === 0 ? lead : ' '.repeat(inner)}${keyOf(r, inItem)}: ${value(r, false)}${comment(r)}`);
      continue;
    }
    const key = list ? '' : `${keyOf(r, used)}:`;
    if (depth < 3 && r() < 0.3) {
      const deeper = r() < 0.2 && !list ? indent : indent + pick(r, [1, 2, 4]);
      out.push(`${lead}${key}${comment(r)}`.trimEnd() || `${pad}-`);
      out.push(...block(r, deeper, depth + 1));
    } else {
      out.push(`${lead}${key}${key === '' ? '' : ' '}${r() < 0.03 ? '' : value(r, false)}${comment(r)}`);
    }
  }
  return out;
}

/** One document of the common shape; one in ten with a character changed at random. */
function commonDocument(seed: number): string {
  const r = prng(seed);
  let text = `${block(r, 0, 0).join('\n')}${r() < 0.9 ? '\n' : ''}`;
  if (r() < 0.1) {
    const at = Math.floor(r() * text.length);
    text = text.slice(0, at) + pick(r, [' ', '\n', '"', "'", ':', '-', '#', '\t', '\r', '{', '&', '*', '!', '|', '\\']) + text.slice(at + 1);
  }
  return text;
}

/** Every path to a value in `data`, the root's included. */
function paths(data: unknown, at: PathSegment[] = []): PathSegment[][] {
  const out: PathSegment[][] = [at];
  if (Array.isArray(data)) data.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (data !== null && typeof data === 'object') for (const [k, v] of Object.entries(data)) out.push(...paths(v, [...at, k]));
  return out;
}

/** The data with its key order and numbers written out exactly (-0, NaN). */
function exact(data: unknown): string {
  return JSON.stringify(data, (_k, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `number:${Object.is(v, -0) ? '-0' : String(v)}` : v));
}

/** Compares the two readings of `text`; returns whether the line reader took it. */
function agree(text: string): boolean {
  const lines = readLines(text);
  const js = fastSource('f.yml', text, false, false);
  if ('refused' in js) {
    expect(lines, `js-yaml refused (${js.refused.reason}) what the line reader read:\n${text}`).toBeNull();
    return false;
  }
  if (lines === null) return false;
  expect(exact(lines.data), text).toBe(exact(js.data));
  const byLines = fastSource('f.yml', text);
  if ('refused' in byLines) throw new Error('fastSource refused a text the line reader read');
  for (const path of paths(js.data)) expect(byLines.src.valueAt(path), `${JSON.stringify(path)} in:\n${text}`).toEqual(js.src.valueAt(path));
  return true;
}

describe('the line reader reads as js-yaml does', () => {
  it('a fixture file of the common shape: every value and its position', () => {
    const text = [
      '# refunds',
      'fixtures:',
      '  - label: refund-policy',
      '    message: "Can I get my money back? \\"Now\\""',
      '    assert: { contains: "30 days" }   # the policy',
      '',
      '  - label: opening-hours',
      "    message: 'When''s it open?'",
      '    persona: returning-customer',
      '    repeat: { count: 3, minPass: 2 }',
      '    assert:',
      '      - { contains: Monday }',
      '      - { maxLatencyMs: 2000 }',
      '',
    ].join('\n');
    expect(readLines(text)).not.toBeNull();
    expect(agree(text)).toBe(true);
  });

  it.each([
    ['a block scalar', 'label: a\nmessage: |\n  hi\n'],
    ['a value continued on the next line', 'label: a\nmessage: hi\n  there\n'],
    ['an anchor and an alias', 'a: &x hi\nb: *x\n'],
    ['a tag', 'label: !!str 12\n'],
    ['a tab', 'label:\ta\n'],
    ['CR line ends without an LF', 'label: a\rmessage: b\r'],
    ['a CR inside a line of CRLF text', 'label: a\r\nmessage: b\rc\r\n'],
    ['a document marker', '---\nlabel: a\n'],
    ['a key written twice', 'label: a\nlabel: b\n'],
    ['an empty value', 'label:\nmessage: hi\n'],
    ['a quoted key', '"label": a\n'],
    ['a quoted string over two lines', 'message: "a\n  b"\n'],
    ['a key that reads as a number', '1: a\n'],
    ['a flow list in a flow mapping', 'assert: { all: [a, b] }\n'],
    ['an escape it does not read', 'message: "\\x41"\n'],
    ['a plain value with ": " in it', 'message: a: b\n'],
    ['a comma before the closing brace', 'assert: { contains: a, }\n'],
    ['a list item on the next line', 'fixtures:\n  -\n    label: a\n'],
    ['a text of comments only', '# nothing\n'],
    ['mappings nested 101 levels deep (js-yaml refuses more than 100)', Array.from({ length: 101 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' v\n'],
  ])('leaves %s to js-yaml', (_name, text) => {
    expect(readLines(text)).toBeNull();
    agree(text);
  });

  it('on 6,000 generated documents of the common shape (seeds 1-6000), takes most and agrees on each', () => {
    let taken = 0;
    for (let seed = 1; seed <= 6000; seed++) if (agree(commonDocument(seed))) taken++;
    // Documents the reader leaves to js-yaml are fine; a reader that took none would test nothing.
    expect(taken).toBeGreaterThan(1200);
  });

  it('on 3,000 generated documents of the common shape with CRLF line ends (seeds 1-3000), takes those it takes with LF and agrees on each', () => {
    let taken = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const lf = commonDocument(seed);
      // A document with a character changed into a CR is another text: its LF twin says nothing.
      if (lf.includes('\r')) continue;
      const crlf = lf.replace(/\n/g, '\r\n');
      const took = agree(crlf);
      const twin = readLines(lf);
      expect(took, crlf).toBe(twin !== null);
      if (twin === null) continue;
      taken++;
      // The same data as the LF text, and every value at the LF text's line and column.
      expect(exact(readLines(crlf)?.data), crlf).toBe(exact(twin.data));
      const [a, b] = [fastSource('f.yml', crlf), fastSource('f.yml', lf)];
      if ('refused' in a || 'refused' in b) throw new Error('fastSource refused a text the line reader read');
      for (const path of paths(twin.data)) expect(a.src.valueAt(path), `${JSON.stringify(path)} in:\n${crlf}`).toEqual(b.src.valueAt(path));
    }
    expect(taken).toBeGreaterThan(600);
  });

  it('on 3,000 generated documents of every shape (yaml-gen, seeds 1-3000), with LF and CRLF line ends, never reads otherwise than js-yaml', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const text = generateDocument(seed);
      agree(text);
      agree(text.replace(/\n/g, '\r\n'));
    }
  });
});
