// Shards (docs/action.md, "Shards: one suite over a CI matrix"): the pure partition (by timings or
// by a hash of the label), the suite hash, the `i/n` parser and the words of an incomplete merge.

import { describe, expect, it } from 'vitest';
import { hashShard, incompleteText, parseShard, partition, selectShard, suiteHash, timingsOf, type ShardItem } from '../../src/evaluate/shard.js';
import { fixture, run } from '../report/fixtures.js';

function items(n: number, prefix = 'item'): ShardItem[] {
  return Array.from({ length: n }, (_, i) => ({ label: `${prefix}-${String(i).padStart(4, '0')}`, turns: 1, definitionHash: `h${i}` }));
}

/** A deterministic spread of durations (no randomness): 20 ms to ~2 s, a few long ones. */
function durations(list: readonly ShardItem[]): Map<string, number> {
  return new Map(list.map((it, i) => [it.label, 20 + ((i * 7919) % 400) * 5 + (i % 97 === 0 ? 3000 : 0)]));
}

function assertPartitionOf(list: readonly ShardItem[], shards: string[][]): void {
  const all = shards.flat();
  expect(all.length).toBe(list.length);
  expect(new Set(all).size).toBe(list.length);
  expect(new Set(all)).toEqual(new Set(list.map((i) => i.label)));
}

describe('partition', () => {
  const cases: { name: string; n: number; total: number; timed: boolean }[] = [
    { name: '1 shard, hash', n: 50, total: 1, timed: false },
    { name: '4 shards, hash', n: 1000, total: 4, timed: false },
    { name: '7 shards, hash', n: 333, total: 7, timed: false },
    { name: '4 shards, timings', n: 1000, total: 4, timed: true },
    { name: '16 shards, timings', n: 500, total: 16, timed: true },
    { name: 'more shards than items, timings', n: 3, total: 8, timed: true },
    { name: 'more shards than items, hash', n: 3, total: 8, timed: false },
  ];
  for (const c of cases) {
    it(`${c.name}: every label in exactly one shard, the same on every call`, () => {
      const list = items(c.n);
      const t = c.timed ? durations(list) : null;
      const p = partition(list, c.total, t);
      expect(p.shards).toHaveLength(c.total);
      expect(p.method).toBe(c.timed ? 'timings' : 'hash');
      assertPartitionOf(list, p.shards);
      // Identical across calls, and whatever order the items come in.
      expect(partition(list, c.total, t).shards).toEqual(p.shards);
      const reversed = partition([...list].reverse(), c.total, t).shards.map((s) => [...s].sort());
      expect(reversed).toEqual(p.shards.map((s) => [...s].sort()));
    });
  }

  it('with timings, the longest shard is within 2% of the ideal (total / n) on 1,000 items', () => {
    const list = items(1000);
    const t = durations(list);
    const p = partition(list, 4, t);
    const sum = [...t.values()].reduce((a, b) => a + b, 0);
    const byShard = p.shards.map((s) => s.reduce((a, l) => a + (t.get(l) as number), 0));
    expect(p.expectedMs).toEqual(byShard);
    expect(Math.max(...byShard) / (sum / 4)).toBeLessThan(1.02);
    // The hash alone balances counts, not time: the timed partition is at least as even.
    const hashed = partition(list, 4, null).shards.map((s) => s.reduce((a, l) => a + (t.get(l) as number), 0));
    expect(Math.max(...byShard)).toBeLessThanOrEqual(Math.max(...hashed));
  });

  it('longest-processing-time: the longest item goes first to shard 1, ties to the lowest index, equal durations by label', () => {
    const list: ShardItem[] = ['c', 'a', 'b', 'd'].map((label) => ({ label, turns: 1, definitionHash: label }));
    const t = new Map([
      ['a', 10],
      ['b', 10],
      ['c', 30],
      ['d', 5],
    ]);
    // c (30) -> 1; a (10) -> 2; b (10) -> 2 (20 < 30); d (5) -> 2 (20 < 30).
    expect(partition(list, 2, t).shards).toEqual([['c'], ['a', 'b', 'd']]);
    expect(partition(list, 2, t).expectedMs).toEqual([30, 25]);
  });

  it('an item missing from the timings gets the median per turn times its turns (a persona script counts its turns)', () => {
    const list: ShardItem[] = [
      { label: 'f1', turns: 1, definitionHash: '1' },
      { label: 'f2', turns: 1, definitionHash: '2' },
      { label: 'f3', turns: 1, definitionHash: '3' },
      { label: 'new-fixture', turns: 1, definitionHash: '4' },
      { label: 'new-script', turns: 4, definitionHash: '5' },
    ];
    const t = new Map([
      ['f1', 100],
      ['f2', 200],
      ['f3', 300],
    ]);
    const p = partition(list, 1, t);
    // 100 + 200 + 300 + median 200 + 4 turns x 200.
    expect(p.expectedMs).toEqual([1600]);
  });

  it('timings that know none of the labels fall back to the hash', () => {
    const list = items(40);
    const p = partition(list, 3, new Map([['elsewhere', 5]]));
    expect(p.method).toBe('hash');
    expect(p.shards).toEqual(partition(list, 3, null).shards);
  });

  it('without timings, adding or removing an item never moves another one', () => {
    const list = items(500);
    const before = partition(list, 5, null).shards;
    const added = partition([...list, { label: 'brand-new', turns: 1, definitionHash: 'x' }], 5, null).shards;
    const removed = partition(list.slice(1), 5, null).shards;
    for (let s = 0; s < 5; s++) {
      expect((added[s] as string[]).filter((l) => l !== 'brand-new')).toEqual(before[s]);
      expect(removed[s]).toEqual((before[s] as string[]).filter((l) => l !== (list[0] as ShardItem).label));
    }
    expect(hashShard('brand-new', 5)).toBe(added.findIndex((s) => s.includes('brand-new')));
  });

  it('the hash spreads labels evenly enough (each of 4 shards within 15% of 2,500 on 10,000 labels)', () => {
    const counts = partition(items(10_000), 4, null).shards.map((s) => s.length);
    for (const c of counts) expect(Math.abs(c - 2500)).toBeLessThan(375);
  });

  it('refuses a total outside 1..256', () => {
    expect(() => partition(items(3), 0, null)).toThrow(/1\.\.256/);
    expect(() => partition(items(3), 257, null)).toThrow(/1\.\.256/);
  });
});

describe('suiteHash and selectShard', () => {
  it('is the same for every shard, independent of item order, and changes with a label or a definition', () => {
    const list = items(30);
    const h = suiteHash(list);
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(suiteHash([...list].reverse())).toBe(h);
    const infos = [1, 2, 3].map((index) => selectShard(list, { index, total: 3 }, null).info);
    expect(infos.map((i) => i.suiteHash)).toEqual([h, h, h]);
    expect(infos.map((i) => [i.index, i.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(suiteHash([...list.slice(1), { ...(list[0] as ShardItem), definitionHash: 'changed' }])).not.toBe(h);
    expect(suiteHash(list.slice(1))).not.toBe(h);
  });

  it('selectShard gives the labels of shard i (1-based)', () => {
    const list = items(60);
    const p = partition(list, 3, null);
    expect([...selectShard(list, { index: 2, total: 3 }, null).labels]).toEqual(p.shards[1]);
  });
});

describe('parseShard', () => {
  it('reads i/n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, total: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, total: 1 });
    expect(parseShard('256/256')).toEqual({ index: 256, total: 256 });
  });
  for (const bad of ['0/4', '5/4', '1/0', '1/257', '2', 'a/b', '1.5/4', '-1/4', '2/4/1', '']) {
    it(`refuses "${bad}", quoting it`, () => {
      expect(() => parseShard(bad)).toThrow(`--shard must be i/n with whole numbers 1 <= i <= n <= 256 (e.g. 2/4), got "${bad}"`);
    });
  }
  it('names the input when asked', () => {
    expect(() => parseShard('3', 'input shard')).toThrow(/^input shard must be/);
  });
});

describe('timingsOf and incompleteText', () => {
  it('takes every item duration of a record', () => {
    const t = timingsOf(run([fixture('a', { durationMs: 12 }), fixture('b', { durationMs: 30 })]));
    expect([...t]).toEqual([
      ['a', 12],
      ['b', 30],
    ]);
  });

  it('says which shards are missing and which records were excluded', () => {
    expect(incompleteText({ total: 4, missing: [2], foreign: [] })).toBe('incomplete: shard 2/4 missing');
    expect(incompleteText({ total: 4, missing: [2, 4], foreign: [] })).toBe('incomplete: shards 2/4 and 4/4 missing');
    expect(incompleteText({ total: 5, missing: [1, 2, 4], foreign: [] })).toBe('incomplete: shards 1/5, 2/5 and 4/5 missing');
    expect(incompleteText({ total: 4, missing: [3], foreign: ['c.json (shard 1/3 of suite abc)'] })).toBe(
      'incomplete: shard 3/4 missing; excluded (another suite, shard count or split): c.json (shard 1/3 of suite abc)',
    );
  });
});
