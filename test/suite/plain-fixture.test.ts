// isPlainFixture (suite/fixtures.ts) lets the common fixture skip the schema: it may say true only
// for a value the schema accepts unchanged. Checked on seeded random fixture-like values built from
// the keys and value types YAML can give, and on the shapes a suite really has.

import { describe, expect, it } from 'vitest';
import { fixtureSchemas, isPlainFixture } from '../../src/suite/fixtures.js';

/** A small seeded generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What a YAML value can be: text, numbers (finite or not), booleans, null, lists, mappings, dates.
const SCALARS: unknown[] = ['hi', '', '30 days', 0, 1, 0.5, -3, Number.NaN, Number.POSITIVE_INFINITY, true, false, null, [], ['a'], {}, { contains: 'x' }, new Date(0)];
const FIXTURE_KEYS = ['label', 'message', 'persona', 'assert', 'repeat', 'labels', 'Message', '__proto__'];
const ASSERT_KEYS = ['contains', 'regex', 'flags', 'judge', 'threshold', 'maxLatencyMs', 'toolCalled', 'toolNotCalled', 'equals'];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)] as T;
}

function randomAssertion(next: () => number): unknown {
  const r = next();
  if (r < 0.1) return pick(next, SCALARS);
  const a: Record<string, unknown> = {};
  const n = 1 + Math.floor(next() * 3);
  for (let i = 0; i < n; i++) {
    const key = pick(next, ASSERT_KEYS);
    a[key] = next() < 0.6 ? (['contains', 'regex', 'flags', 'judge'].includes(key) ? 'text' : 0.7) : pick(next, SCALARS);
  }
  return r < 0.2 ? [a] : a;
}

function randomFixture(next: () => number): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  if (next() < 0.9) f.label = next() < 0.9 ? 'a-label' : pick(next, SCALARS);
  if (next() < 0.9) f.message = next() < 0.9 ? 'a message' : pick(next, SCALARS);
  if (next() < 0.3) f.persona = next() < 0.7 ? 'tag' : pick(next, SCALARS);
  if (next() < 0.7) f.assert = randomAssertion(next);
  if (next() < 0.1) Object.defineProperty(f, pick(next, FIXTURE_KEYS), { value: pick(next, SCALARS), enumerable: true, configurable: true, writable: true });
  return f;
}

describe('isPlainFixture', () => {
  it('says true only for values the schema accepts unchanged (20,000 seeded values, seed 20261202)', () => {
    const next = random(20261202);
    let plain = 0;
    let other = 0;
    for (let i = 0; i < 20_000; i++) {
      const f = randomFixture(next);
      if (isPlainFixture(f)) {
        plain++;
        const parsed = fixtureSchemas().fixtureSchema.safeParse(f);
        expect(parsed.success, JSON.stringify(f)).toBe(true);
        expect(parsed.data).toEqual(f);
      } else other++;
    }
    // Both sides were exercised.
    expect(plain).toBeGreaterThan(2_000);
    expect(other).toBeGreaterThan(2_000);
  });

  it('true for the shapes of docs/fixtures.md; false for what the schema must read (lists of checks, tool checks, repeat, unknown keys, non-finite numbers)', () => {
    expect(isPlainFixture({ label: 'a', message: 'hi' })).toBe(true);
    expect(isPlainFixture({ label: 'a', message: 'hi', persona: null, assert: null })).toBe(true);
    expect(isPlainFixture({ label: 'a', message: 'hi', persona: 'vip', assert: { regex: '30 days', flags: 'i' } })).toBe(true);
    expect(isPlainFixture({ label: 'a', message: 'hi', assert: { judge: 'Polite?', threshold: 0.8 } })).toBe(true);
    expect(isPlainFixture({ label: 'a', message: 'hi', assert: { maxLatencyMs: 2000 } })).toBe(true);
    expect(isPlainFixture({ label: 'a', message: 'hi', assert: [{ contains: 'x' }] })).toBe(false);
    expect(isPlainFixture({ label: 'a', message: 'hi', assert: { toolCalled: { tool: 'find_order' } } })).toBe(false);
    expect(isPlainFixture({ label: 'a', message: 'hi', repeat: { count: 3 } })).toBe(false);
    expect(isPlainFixture({ label: 'a', message: 'hi', extra: 1 })).toBe(false);
    expect(isPlainFixture({ label: 'a', message: 'hi', assert: { threshold: Number.POSITIVE_INFINITY, judge: 'x' } })).toBe(false);
    expect(isPlainFixture({ label: 'a', message: 'hi', assert: { contains: null } })).toBe(false);
    expect(isPlainFixture({ label: 1, message: 'hi' })).toBe(false);
  });
});
