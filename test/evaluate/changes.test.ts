// The change dimensions (src/evaluate/changes.ts): one table decides an item's changes, and the
// sections, the drift words, the gate, the Changed intro and compare all read it.

import { describe, expect, it } from 'vitest';
import { changedIntro, changesOf, DIMENSION_ORDER, DIMENSIONS, kindOf, meets } from '../../src/evaluate/index.js';
import { firstCause } from '../../src/evaluate/compare.js';
import { driftWords, sectionOf } from '../../src/report/model.js';
import type { FixtureRecord, PersonaRecord } from '../../src/types.js';
import { baseline, fixture, persona, route } from '../report/fixtures.js';

const same = { reply: 'same', route: 'same', verdict: 'still_passing' } as const;
const slower = { baselineMs: 1200, latencyMs: 2940 };

describe('changesOf', () => {
  it.each<[string, FixtureRecord, string[]]>([
    ['nothing changed', fixture('a'), []],
    ['reply', fixture('a', { drift: { ...same, reply: 'different' } }), ['reply']],
    ['route', fixture('a', { drift: { ...same, route: 'different' } }), ['route']],
    ['slower', fixture('a', { slower }), ['slower']],
    ['all three, in order', fixture('a', { drift: { ...same, reply: 'different', route: 'different' }, slower }), ['reply', 'route', 'slower']],
    ['no baseline', fixture('a', { baseline: null, drift: { reply: null, route: null, verdict: 'no_baseline' } }), []],
    ['newly failing alone is a verdict change, not a change dimension', fixture('a', { verdict: 'fail', drift: { ...same, verdict: 'newly_failing' } }), []],
    ['errored', fixture('a', { errored: true, error: 'boom', errorKind: 'network', reply: null, route: null, verdict: null, drift: null } as Partial<FixtureRecord>), []],
  ])('a fixture: %s', (_name, item, dimensions) => {
    expect(changesOf(item).map((c) => c.dimension)).toEqual(dimensions);
  });

  it('says each change as every surface shows it, fixture and script alike', () => {
    const f = fixture('a', { drift: { ...same, reply: 'different', route: 'different' }, slower });
    expect(changesOf(f).map((c) => c.words)).toEqual(['reply changed', 'route changed', 'slower: 1.2 s -> 2.9 s']);
    const p = persona('p', { drift: { transcript: 'different', route: 'different', verdict: 'still_passing' }, slower });
    expect(changesOf(p).map((c) => c.words)).toEqual(['transcript changed', 'routes changed', 'slower: 1.2 s -> 2.9 s']);
    expect(driftWords(p)).toEqual(['still passing', 'transcript changed', 'routes changed', 'slower: 1.2 s -> 2.9 s']);
  });

  it('puts an item with any change, and only such an item or one newly passing, in Changed', () => {
    for (const d of DIMENSION_ORDER) {
      const item: FixtureRecord | PersonaRecord =
        d === 'transcript' ? persona('p', { drift: { transcript: 'different', route: 'same', verdict: 'still_passing' } }) : fixture('a', d === 'slower' ? { slower } : { drift: { ...same, [d]: 'different' } });
      expect(sectionOf(item), d).toBe('changed');
      expect(DIMENSIONS[d].kinds).toContain(kindOf(item));
    }
    expect(sectionOf(fixture('a', { drift: { ...same, verdict: 'newly_passing' } }))).toBe('changed');
    expect(sectionOf(fixture('a'))).toBe('unchanged');
  });

  it('meets the fail-on condition each dimension names, and no other', () => {
    const f = fixture('a', { slower });
    expect(meets(f, 'slower')).toBe(true);
    expect(meets(f, 'reply_changed')).toBe(false);
    const p = persona('p', { drift: { transcript: 'different', route: 'same', verdict: 'still_passing' } });
    expect(meets(p, 'reply_changed')).toBe(true);
    expect(meets(p, 'route_changed')).toBe(false);
  });
});

describe('changedIntro', () => {
  it('names the subjects and clauses its items call for, with no text rewritten', () => {
    expect(changedIntro([fixture('a', { drift: { ...same, reply: 'different' } })], false)).toBe('The reply or the route differs from the baseline, or the check passes now.');
    expect(changedIntro([], true)).toBe("The reply, a script's transcript or the route differs from the baseline, or the check passes now.");
    expect(changedIntro([fixture('a', { slower })], false)).toBe('The reply or the route differs from the baseline, the check passes now, or the item is slower than its baseline.');
  });
});

describe('compare reads the same dimensions', () => {
  it('names reply, then route, before the verdict; slower last', () => {
    const before = fixture('a', { latencyMs: 1000 });
    expect(firstCause(before, fixture('a', { reply: 'Other.', latencyMs: 1000 }))?.cause).toBe('reply_changed');
    expect(firstCause(before, fixture('a', { route: route('x', 'y'), latencyMs: 1000 }))).toEqual({ cause: 'route_changed', detail: 'route changed (main/answer -> x/y)' });
    expect(firstCause(before, fixture('a', { latencyMs: 2000 }))).toEqual({ cause: 'slower', detail: 'slower: 1.0 s -> 2.0 s' });
    expect(firstCause(before, fixture('a', { latencyMs: 1000, baseline: baseline('a', 'x') }))).toBeNull();
  });
});
