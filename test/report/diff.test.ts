import { describe, expect, it } from 'vitest';
import { wordDiff, type DiffOp } from '../../src/report/index.js';

function sides(ops: DiffOp[]): { a: string; b: string } {
  return {
    a: ops.filter((o) => o.kind !== 'insert').map((o) => o.text).join(''),
    b: ops.filter((o) => o.kind !== 'delete').map((o) => o.text).join(''),
  };
}

function plain(ops: DiffOp[]): string {
  return ops.map((o) => (o.kind === 'equal' ? o.text : o.kind === 'delete' ? `[-${o.text}-]` : `{+${o.text}+}`)).join('');
}

describe('wordDiff', () => {
  it.each([
    ['identical', 'same text', 'same text', 'same text'],
    ['one word', 'within 30 days', 'within 14 days', 'within [-30-]{+14+} days'],
    ['insertion', 'keep the receipt', 'keep the receipt and box', 'keep the receipt{+ and box+}'],
    ['deletion', 'a b c', 'a c', 'a [-b -]c'],
    ['both empty', '', '', ''],
    ['from empty', '', 'new', '{+new+}'],
    ['to empty', 'old', '', '[-old-]'],
    ['joined change', 'one two three', 'uno dos tres', '[-one two three-]{+uno dos tres+}'],
    ['punctuation', 'Hello, world.', 'Hello world!', 'Hello[-,-] world[-.-]{+!+}'],
  ])('%s', (_name, a, b, expected) => {
    const d = wordDiff(a, b);
    expect(d.mode).toBe('words');
    if (d.mode === 'too_large') return;
    expect(plain(d.ops)).toBe(expected);
    expect(sides(d.ops)).toEqual({ a, b });
  });

  it('reconstructs both sides for unicode and newlines', () => {
    const a = 'Grüße 😀\nzweite Zeile\n\nEnde';
    const b = 'Grüße 🙂\nzweite Zeile, neu\nEnde';
    const d = wordDiff(a, b);
    if (d.mode === 'too_large') throw new Error('unexpected');
    expect(sides(d.ops)).toEqual({ a, b });
  });

  it('is deterministic', () => {
    const a = 'a b a b a b c';
    const b = 'b a b a c c';
    expect(wordDiff(a, b)).toEqual(wordDiff(a, b));
  });

  it('falls back to lines when the word table is too large', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} with several words in it`);
    const a = lines.join('\n');
    const b = lines.map((l, i) => (i % 7 === 0 ? `${l} changed` : l)).join('\n');
    const d = wordDiff(a, b, { maxCells: 3000 });
    expect(d.mode).toBe('lines');
    if (d.mode === 'too_large') return;
    expect(sides(d.ops)).toEqual({ a, b });
    expect(d.ops.some((o) => o.kind === 'insert' && o.text.includes('changed'))).toBe(true);
  });

  it('says too large when even lines exceed the guard', () => {
    const a = Array.from({ length: 300 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 300 }, (_, i) => `b${i}`).join('\n');
    const d = wordDiff(a, b, { maxCells: 1000 });
    expect(d).toEqual({ mode: 'too_large', aTokens: 599, bTokens: 599 });
  });

  it('handles a large common prefix and suffix cheaply', () => {
    const common = 'word '.repeat(50_000);
    const d = wordDiff(`${common}old${common}`, `${common}new${common}`, { maxCells: 10 });
    expect(d.mode).toBe('words');
  });
});
