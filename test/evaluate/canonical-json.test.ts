// canonicalJson's fast path (one JSON.stringify for a value already in canonical form) gives the
// general path's text, byte for byte, on every shape: the definition hashes of results.json and
// the baselines depend on it (docs/evaluations.md, "What defined each item").

import { describe, expect, it } from 'vitest';
import { canonicalJson, fixtureDefinitionHash, isCanonical, sortedJson, stableHash } from '../../src/evaluate/definition.js';
import type { Assertion } from '../../src/types.js';
import { prng } from '../support/prng.js';

const STRINGS = ['', 'a', 'B', 'é', 'e\u0301', '😀', '\ud800', '\udfff x', '\u2028\u2029', '"quoted" \\ back/slash', 'line\nbreak\ttab\u0000\u001f', '\u007f\u0080', '<script>', '10', '9', '__proto__', 'toJSON', 'constructor'];
const NUMBERS = [0, -0, 1, -1, 0.1 + 0.2, 1e21, 1e-7, -1e21, 5e-324, Number.MAX_SAFE_INTEGER + 2, Number.MAX_VALUE, NaN, Infinity, -Infinity, 123456789012345680000];

/** A random JSON-ish value: strings, numbers, booleans, null, undefined, nested arrays and objects in any key order. */
function value(rand: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const r = rand();
  if (depth <= 0 || r < 0.45) return pick<unknown>([pick(STRINGS), pick(NUMBERS), true, false, null, undefined, pick(STRINGS) + pick(STRINGS)]);
  const n = Math.floor(rand() * 5);
  if (r < 0.7) return Array.from({ length: n }, () => value(rand, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[pick(STRINGS)] = value(rand, depth - 1);
  return o;
}

/** The same value rewritten in canonical form: keys inserted in sorted order, undefined dropped (null in arrays). */
function sortedCopy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : sortedCopy(x)));
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) if ((v as Record<string, unknown>)[k] !== undefined) o[k] = sortedCopy((v as Record<string, unknown>)[k]);
  return o;
}

describe('canonicalJson', () => {
  it('gives the general text for 4,000 generated values and their canonical copies, both paths taken', () => {
    const rand = prng(20261207);
    let fast = 0;
    let general = 0;
    for (let i = 0; i < 2000; i++) {
      const v = value(rand, 5);
      for (const x of [v, sortedCopy(v)]) {
        if (isCanonical(x)) fast++;
        else general++;
        expect(canonicalJson(x), `value ${i}`).toBe(sortedJson(x));
      }
    }
    // A canonical copy with integer-like keys ('10' kept before '9', as JavaScript orders them) takes the general path.
    expect(fast).toBeGreaterThan(2000);
    expect(general).toBeGreaterThan(800);
  });

  it.each<[string, unknown, string]>([
    ['keys needing sort', { b: 1, a: [{ d: 2, c: 3 }] }, '{"a":[{"c":3,"d":2}],"b":1}'],
    ['numbers', { a: 1e21, b: -0, c: NaN, d: -Infinity, e: 5e-324, f: 0.1 + 0.2 }, '{"a":1e+21,"b":0,"c":null,"d":null,"e":5e-324,"f":0.30000000000000004}'],
    ['unicode', { é: '😀', '\ud800': '\u2028' }, '{"é":"😀","\\ud800":"\u2028"}'],
    ['nested arrays', [[[]], [[1, [2]]], []], '[[[]],[[1,[2]]],[]]'],
    ['undefined values and elements', { a: undefined, b: [undefined, 1], c: { d: undefined } }, '{"b":[null,1],"c":{}}'],
    ['integer-like keys', { '9': 'a', '10': 'b', x: 'c' }, '{"10":"b","9":"a","x":"c"}'],
    ['an own __proto__ key', JSON.parse('{"__proto__":{"b":1,"a":2},"z":0}'), '{"__proto__":{"a":2,"b":1},"z":0}'],
    ['an object without prototype', Object.assign(Object.create(null) as object, { a: 1, b: 2 }), '{"a":1,"b":2}'],
    ['a class instance', new (class Point { x = 1; y = 2; toJSON() { return 'p'; } })(), '{"x":1,"y":2}'],
    ['a date', { at: new Date(0) }, '{"at":{}}'],
    ['a function and a symbol value', { a: () => 1, b: Symbol('s') }, '{"a":null,"b":null}'],
    ['a toJSON method', { a: 1, toJSON: () => 'x' }, '{"a":1,"toJSON":null}'],
    ['top-level scalars', 'x', '"x"'],
  ])('%s: the same text by both paths', (_, v, text) => {
    expect(sortedJson(v)).toBe(text);
    expect(canonicalJson(v)).toBe(text);
  });

  it('writes an array hole as null, as the general path does for undefined', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holed = [1, , 2];
    expect(isCanonical(holed)).toBe(false);
    expect(canonicalJson(holed)).toBe(sortedJson(holed));
  });
});

describe('a fixture definition on the fast path', () => {
  it('gives the hashes it gave before the fast path', () => {
    const messages = ['I want a refund', 'é ü 😀 \u2028 \ud800 "quoted" \\ back', '', 'line\nbreak\ttab\u0000'];
    const personas = [null, 'angry', 'ünïcode'];
    const assertions: (Assertion | null)[] = [
      null,
      { kind: 'contains', value: 'refund' },
      { kind: 'regex', pattern: 'ref(und)?\\d', flags: 'iu' },
      { kind: 'judge', criterion: 'Polite', threshold: 0.7 },
      { kind: 'maxLatency', ms: 1e21 },
      { kind: 'maxLatency', ms: -0 },
      { kind: 'maxLatency', ms: 0.1 + 0.2 },
      { kind: 'toolCalled', tool: 'find_order', match: 'subset' },
      { kind: 'toolNotCalled', tool: 'refund', input: { z: 1, a: [{ y: 2, b: null }], '10': 'x', '9': 'y' }, match: 'exact' },
      { kind: 'all', assertions: [{ kind: 'contains', value: 'a' }, { kind: 'regex', pattern: 'b', flags: '' }, { kind: 'toolCalled', tool: 't', input: { k: 'v' }, match: 'subset' }] },
    ];
    const hashes = messages.flatMap((message) => personas.flatMap((persona) => assertions.map((assertion) => fixtureDefinitionHash({ message, persona, assertion }))));
    // The 120 hashes as the general path alone computed them (sha256 of the list, first 16 hex characters).
    expect(stableHash(hashes.join(','))).toBe('d387da37c1b4b949');
    expect(hashes[11]).toBe('180aa1de1576554e');
  });
});
