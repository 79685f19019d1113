// The change dimensions (src/evaluate/changes.ts): one table decides an item's changes, and the
// sections, the drift words, the gate, the Changed intro and compare all read it.

import { describe, expect, it } from 'vitest';
import { asAccepted, changedIntro, changesOf, DIMENSION_ORDER, DIMENSIONS, isDrifted, kindOf, meets } from '../../src/evaluate/index.js';
import { firstCause } from '../../src/evaluate/compare.js';
import { meaningWords, uncheckedParts } from '../../src/evaluate/changes.js';
import { driftWords, sectionOf } from '../../src/report/model.js';
import type { FixtureRecord, Meaning, PersonaRecord } from '../../src/types.js';
import { baseline, fixture, persona, personaBaseline, refundTurns, route } from '../report/fixtures.js';

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
    expect(changesOf(f).map((c) => c.words)).toEqual(['reply changed', 'route changed', 'slower: 1.2 s → 2.9 s']);
    const p = persona('p', { drift: { transcript: 'different', route: 'different', verdict: 'still_passing' }, slower });
    expect(changesOf(p).map((c) => c.words)).toEqual(['transcript changed', 'routes changed', 'slower: 1.2 s → 2.9 s']);
    expect(driftWords(p)).toEqual(['still passing', 'transcript changed', 'routes changed', 'slower: 1.2 s → 2.9 s']);
  });

  it('puts an item with any change, and only such an item or one newly passing, in Changed', () => {
    for (const d of DIMENSION_ORDER) {
      const item: FixtureRecord | PersonaRecord =
        d === 'transcript'
          ? persona('p', { drift: { transcript: 'different', route: 'same', verdict: 'still_passing' } })
          : d === 'meaning'
            ? fixture('a', { drift: { ...same, reply: 'different', meaning: { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' } } })
            : fixture('a', d === 'slower' ? { slower } : { drift: { ...same, [d]: 'different' } });
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

  it('names another attempt only when an item is Changed by an attempt other than the one shown, whose reply is the baseline\'s', () => {
    const otherwise: Meaning = { value: 'unchecked', by: null, detail: 'attempt 2: replied otherwise than attempt 1' };
    const byAttempt = fixture('a', { drift: { ...same, meaning: otherwise }, repeat: { count: 3, minPass: 3, passed: 3, flaky: false } });
    expect(changedIntro([fixture('b', { drift: { ...same, reply: 'different' } }), byAttempt], false)).toBe('The reply, the route or an attempt other than the one shown differs from the baseline, or the check passes now.');
    const script = persona('p', { drift: { transcript: 'same', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail: 'attempt 2: turn 3 changed in meaning: numbers 50 → 90' } } });
    expect(changedIntro([script, fixture('c', { slower })], true)).toBe("The reply, a script's transcript, the route or an attempt other than the one shown differs from the baseline, the check passes now, or the item is slower than its baseline.");
    // The reply shown differs too: it is what the reply names, and the usual introduction says it.
    const shownDiffers = fixture('d', { drift: { ...same, reply: 'different', meaning: { value: 'changed', by: 'facts', detail: 'attempt 2: numbers 30 → 14' } } });
    expect(changedIntro([shownDiffers], false)).toBe('The reply or the route differs from the baseline, or the check passes now.');
  });
});

describe('compare reads the same dimensions', () => {
  it('names reply, then route, before the verdict; slower last', () => {
    const before = fixture('a', { latencyMs: 1000 });
    expect(firstCause(before, fixture('a', { reply: 'Other.', latencyMs: 1000 }))?.cause).toBe('reply_changed');
    expect(firstCause(before, fixture('a', { route: route('x', 'y'), latencyMs: 1000 }))).toEqual({ cause: 'route_changed', detail: 'route changed (main/answer → x/y)' });
    expect(firstCause(before, fixture('a', { latencyMs: 2000 }))).toEqual({ cause: 'slower', detail: 'slower: 1.0 s → 2.0 s' });
    expect(firstCause(before, fixture('a', { latencyMs: 1000, baseline: baseline('a', 'x') }))).toBeNull();
  });

  // A repeated script's meaning may be another attempt's (docs/meaning.md, "Repeats"): its transcript
  // shown the same in both runs, attempt 2's changed and moved the item; compare names attempt 2.
  it("names a repeated script's other attempt whose transcript moved the item's meaning", () => {
    const turns = refundTurns();
    const other = turns.map((t) => (t.index === 2 ? { ...t, reply: 'I found order 1234: a kettle, delivered on 30 November. What went wrong?' } : t));
    const attempt = (ts: typeof turns): NonNullable<PersonaRecord['attempts']>[number] => ({ errored: false, error: null, errorKind: null, verdict: 'pass', turns: ts, unsent: [], visited: [], outcome: null, checks: [], durationMs: 1 });
    const script = (second: typeof turns, meaning: Meaning | undefined): PersonaRecord =>
      persona('p', { attempts: [attempt(turns), attempt(second)], repeat: { count: 2, minPass: 2, passed: 2, flaky: false }, drift: { transcript: 'same', route: 'same', verdict: 'still_passing', ...(meaning ? { meaning } : {}) } });
    const moved: Meaning = { value: 'changed', by: 'facts', detail: 'attempt 2: turn 2 changed in meaning: dates 28 November → 30 November' };
    expect(firstCause(script(turns, undefined), script(other, moved))).toEqual({
      cause: 'meaning_changed',
      detail: "attempt 2's transcript changed; the item before: the same as the baseline; now: attempt 2: turn 2 changed in meaning: dates 28 November → 30 November",
    });
    // The reverse said nothing: attempt 2 is what changed, back to the baseline.
    expect(firstCause(script(other, moved), script(turns, undefined))).toEqual({ cause: 'transcript_changed', detail: "attempt 2's transcript changed; the item before: attempt 2: turn 2 changed in meaning: dates 28 November → 30 November; now: the same as the baseline" });
    // Every attempt the same in both runs: unchanged, not the later's meaning as if it were new.
    expect(firstCause(script(other, moved), script(other, moved))).toBeNull();
    // The earlier run's replies accepted between the runs (the later's baseline): its meaning names attempt 2, as before.
    const earlier = { ...script(turns, undefined), baseline: personaBaseline('p', other) };
    expect(firstCause(earlier, script(other, moved))).toEqual({ cause: 'meaning_changed', detail: moved.detail });
    // Another transcript accepted between the runs: attempt 2, which the earlier meaning names, is what changed, and the baseline's change is said.
    const reworded = turns.map((t) => (t.index === 1 ? { ...t, reply: 'Sorry to hear that. Your order number?' } : t));
    const before = { ...script(other, moved), baseline: personaBaseline('p', reworded), drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: moved } } as PersonaRecord;
    expect(firstCause(before, script(turns, undefined))).toEqual({
      cause: 'transcript_changed',
      detail: "attempt 2's transcript changed; the item before: attempt 2: turn 2 changed in meaning: dates 28 November → 30 November; now: the same as the baseline; the baseline changed between the runs",
    });
  });

  // A baseline accepted between the runs (docs/evaluations.md#compare): the reply shown the same in
  // both, a repeated item's attempt 2 replied otherwise, each run against its own baseline.
  describe('a repeated fixture whose baseline changed between the runs', () => {
    const [r0, r1, r2] = ['Returns are accepted within 30 days of delivery.', 'You can return it within 30 days after delivery.', 'Returns are accepted within 14 days of delivery.'];
    const attempt = (reply: string, meaning?: Meaning): NonNullable<FixtureRecord['attempts']>[number] => ({ errored: false, error: null, errorKind: null, reply, route: null, verdict: 'pass', detail: 'ok', score: null, rationale: null, durationMs: 1, ...(meaning ? { meaning } : {}) });
    /** The item against the baseline `stored`, its attempts replying `replies` (attempt 1 shown). */
    const item = (stored: string, replies: [string, string], meaning: Meaning | undefined, second?: Meaning): FixtureRecord =>
      fixture('a', {
        reply: replies[0],
        baseline: baseline('a', stored),
        attempts: [attempt(replies[0]), attempt(replies[1], second)],
        repeat: { count: 2, minPass: 2, passed: 2, flaky: false },
        drift: { ...same, reply: replies[0] === stored ? 'same' : 'different', ...(meaning ? { meaning } : {}) },
      });
    const numbers: Meaning = { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' };
    const byAttempt2: Meaning = { ...numbers, detail: 'attempt 2: numbers 30 → 14' };

    it('names the attempt a run\'s meaning names whose reply changed, and says the baseline changed', () => {
      // Changed by attempt 2 against the first baseline; all attempts the second baseline's reply after: not "nothing changed".
      expect(firstCause(item(r0, [r1, r2], byAttempt2, numbers), item(r1, [r1, r1], undefined))).toEqual({
        cause: 'reply_changed',
        detail: 'attempt 2\'s reply changed: "Returns are accepted within 14 days of delivery." → "You can return it within 30 days after delivery."; the item before: changed in meaning: attempt 2: numbers 30 → 14; now: the same as the baseline; the baseline changed between the runs',
      });
      // meaning.check off, the earlier run's reply accepted: its reply changed against the first baseline, attempt 2 names the later.
      const otherwise: Meaning = { value: 'unchecked', by: null, detail: 'attempt 2: replied otherwise than attempt 1' };
      expect(firstCause(item(r0, [r1, r1], undefined), item(r1, [r1, r2], otherwise))).toEqual({
        cause: 'reply_changed',
        detail: 'attempt 2\'s reply changed: "You can return it within 30 days after delivery." → "Returns are accepted within 14 days of delivery."; the item before: reply changed; now: meaning not checked: attempt 2: replied otherwise than attempt 1; the baseline changed between the runs',
      });
    });

    it('reads the later meaning where the earlier run\'s reply became its baseline, and names no attempt no meaning names', () => {
      // The later run compared with the earlier run's reply: its meaning is the change, as for a reply (meaningComparable).
      expect(firstCause(item(r0, [r1, r1], { value: 'reworded', by: 'judge', detail: null }), item(r1, [r1, r2], byAttempt2, numbers))).toEqual({ cause: 'meaning_changed', detail: 'changed in meaning: attempt 2: numbers 30 → 14' });
      // Attempt 2's reply changed, but neither run stood where it put the item: the move is the accepted baseline's, not an attempt's.
      expect(firstCause(item(r0, [r1, r2], undefined), item(r1, [r1, r1], undefined))).toBeNull();
      // The reply shown changed: that is the cause, as for any item.
      expect(firstCause(item(r0, [r0, r0], undefined), item(r1, [r1, r2], byAttempt2, numbers))?.detail).toBe('reply changed: "Returns are accepted within 30 days of delivery." → "You can return it within 30 days after delivery."');
    });
  });
});

describe('the meaning dimension (docs/meaning.md, "On every surface")', () => {
  const differs = (meaning: Meaning | null, over: Partial<FixtureRecord> = {}): FixtureRecord =>
    fixture('m', { reply: 'Now.', baseline: baseline('m', 'Before.'), drift: { ...same, reply: 'different', meaning }, ...over } as Partial<FixtureRecord>);
  const facts: Meaning = { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' };

  it.each<[string, Meaning | null, string[], string]>([
    ['formatting', { value: 'formatting', by: 'normalize', detail: null }, ['reply changed', 'reworded (formatting)'], 'reworded'],
    ['a known variant', { value: 'variant', by: 'variant', detail: null }, ['reply changed', 'reworded (known variant)'], 'reworded'],
    ['reworded by the judge', { value: 'reworded', by: 'judge', detail: 'same facts', score: 0.934 }, ['reply changed', 'reworded (judge 0.93)'], 'reworded'],
    ['changed by facts', facts, ['reply changed', 'changed in meaning: numbers 30 → 14'], 'changed'],
    ['changed by the judge', { value: 'changed', by: 'judge', detail: 'a receipt is needed now', score: 0.1 }, ['reply changed', 'changed in meaning: a receipt is needed now'], 'changed'],
    ['not checked', { value: 'unchecked', by: null, detail: 'meaning judge unreachable: no answer from the meaning judge within 30000 ms' }, ['reply changed', 'meaning not checked: meaning judge unreachable: no answer from the meaning judge within 30000 ms'], 'changed'],
    ['none (check off)', null, ['reply changed'], 'changed'],
  ])('a fixture %s: its words and its section', (_name, meaning, words, section) => {
    const item = differs(meaning);
    expect(changesOf(item).map((c) => c.words)).toEqual(words);
    expect(sectionOf(item)).toBe(section);
  });

  it('a script names the turn that decided, except a different number of turns', () => {
    const turn3 = persona('p', { drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail: 'turn 3 changed in meaning: numbers 50 → 90' } } });
    expect(changesOf(turn3).map((c) => c.words)).toEqual(['transcript changed', 'turn 3 changed in meaning: numbers 50 → 90']);
    const turns = persona('p', { drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'turns', detail: 'turns 4 → 5' } } });
    expect(changesOf(turns).map((c) => c.words)).toEqual(['transcript changed', 'changed in meaning: turns 4 → 5']);
  });

  it("a repeated script's attempt named by its turn is said once, not 'changed in meaning: attempt 2: turn 3 changed in meaning: ...'", () => {
    const drift = (meaning: Meaning): Partial<PersonaRecord> => ({ drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning } });
    const changed = persona('p', drift({ value: 'changed', by: 'facts', detail: 'attempt 2: turn 3 changed in meaning: amounts EUR 80 → none' }));
    expect(changesOf(changed).map((c) => c.words)).toEqual(['transcript changed', 'attempt 2: turn 3 changed in meaning: amounts EUR 80 → none']);
    const unchecked: Meaning = { value: 'unchecked', by: null, detail: 'attempt 3: turn 2 meaning not checked: meaning judge unreachable: HTTP 500' };
    expect(changesOf(persona('p', drift(unchecked))).map((c) => c.words)).toEqual(['transcript changed', 'attempt 3: turn 2 meaning not checked: meaning judge unreachable: HTTP 500']);
    expect(uncheckedParts(unchecked, true)).toEqual({ head: 'attempt 3: turn 2 meaning not checked', cause: 'meaning judge unreachable: HTTP 500' });
    // A fixture's attempt keeps its head: "changed in meaning: attempt 2: numbers 30 → 14".
    expect(meaningWords({ value: 'changed', by: 'facts', detail: 'attempt 2: numbers 30 → 14' }, false)).toBe('changed in meaning: attempt 2: numbers 30 → 14');
    expect(meaningWords({ value: 'changed', by: 'turns', detail: 'attempt 2: turns 4 → 5' }, true)).toBe('changed in meaning: attempt 2: turns 4 → 5');
  });

  it('a reworded reply that is slower, routed elsewhere or newly passing stays Changed', () => {
    const m: Meaning = { value: 'formatting', by: 'normalize', detail: null };
    expect(sectionOf(differs(m, { slower }))).toBe('changed');
    expect(sectionOf(differs(m, { drift: { ...same, reply: 'different', route: 'different', meaning: m } } as Partial<FixtureRecord>))).toBe('changed');
    expect(sectionOf(differs(m, { drift: { ...same, reply: 'different', verdict: 'newly_passing', meaning: m } } as Partial<FixtureRecord>))).toBe('changed');
  });

  it('meets meaning_changed only when changed; reply_changed whenever the reply differs', () => {
    expect(meets(differs(facts), 'meaning_changed')).toBe(true);
    expect(meets(differs({ value: 'unchecked', by: null, detail: 'x' }), 'meaning_changed')).toBe(false);
    expect(meets(differs({ value: 'reworded', by: 'judge', detail: null, score: 0.9 }), 'meaning_changed')).toBe(false);
    expect(meets(differs({ value: 'reworded', by: 'judge', detail: null, score: 0.9 }), 'reply_changed')).toBe(true);
  });

  it('an accepted item has no meaning left, and a reworded one has drifted', () => {
    const item = differs(facts) as Extract<FixtureRecord, { errored: false }>;
    expect(asAccepted(item).drift.meaning).toBeNull();
    expect(changesOf(asAccepted(item))).toEqual([]);
    expect(isDrifted(differs({ value: 'formatting', by: 'normalize', detail: null }))).toBe(true);
  });
});

describe('compare: two runs against one baseline (docs/evaluations.md#compare)', () => {
  const base = baseline('m', 'Refunds within 30 days.');
  const run = (reply: string, meaning: Meaning | null): FixtureRecord =>
    fixture('m', { reply, baseline: base, drift: { ...same, reply: 'different', meaning } } as Partial<FixtureRecord>);
  const judged: Meaning = { value: 'reworded', by: 'judge', detail: 'same facts', score: 0.9 };
  const formatting: Meaning = { value: 'formatting', by: 'normalize', detail: null };

  it('names a fixture whose two runs each mean the same as the baseline reworded, not reply changed', () => {
    expect(firstCause(run('You have 30 days.', judged), run('**Refunds** within 30 days', formatting))).toEqual({ cause: 'reworded', detail: 'reworded (formatting)' });
    // The later run replied the baseline itself.
    const itself = fixture('m', { reply: base.reply, baseline: base });
    expect(firstCause(run('You have 30 days.', judged), itself)).toEqual({ cause: 'reworded', detail: 'reworded (judge 0.90)' });
    expect(firstCause(run('You have 30 days.', judged), run('You have 30 days.', judged))).toBeNull();
  });

  it('still names a change of meaning, a meaning not checked, or another baseline, as reply changed', () => {
    const facts: Meaning = { value: 'changed', by: 'facts', detail: 'numbers 30 → 14' };
    expect(firstCause(run('You have 30 days.', judged), run('You have 14 days.', facts))?.cause).toBe('reply_changed');
    expect(firstCause(run('You have 30 days.', judged), run('Thirty days.', { value: 'unchecked', by: null, detail: 'x' }))?.cause).toBe('reply_changed');
    const other = fixture('m', { reply: 'Refunds: 30 days.', baseline: baseline('m', 'Returns: 30 days.'), drift: { ...same, reply: 'different', meaning: formatting } } as Partial<FixtureRecord>);
    expect(firstCause(run('You have 30 days.', judged), other)?.cause).toBe('reply_changed');
    // A verdict that flipped is not hidden behind the wording.
    expect(firstCause(run('You have 30 days.', judged), run('**Refunds** within 30 days', formatting))?.cause).toBe('reworded');
    const failing = fixture('m', { reply: 'Refunds: 30 days', verdict: 'fail', baseline: base, drift: { ...same, reply: 'different', verdict: 'newly_failing', meaning: formatting } } as Partial<FixtureRecord>);
    expect(firstCause(run('You have 30 days.', judged), failing)?.cause).toBe('reply_changed');
  });

  it('names a persona script whose two runs each reword the baseline transcript reworded, not transcript changed', () => {
    const turns = refundTurns();
    const stored = personaBaseline('p', turns);
    const reword = (text: string): PersonaRecord =>
      persona('p', {
        turns: turns.map((t, i) => (i === 1 ? { ...t, reply: text } : t)),
        baseline: stored,
        drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { ...judged, detail: 'turn 1: same facts' } },
      });
    expect(firstCause(reword('First wording.'), reword('Second wording.'))?.cause).toBe('reworded');
    const changed = persona('p', {
      turns: turns.map((t, i) => (i === 1 ? { ...t, reply: 'Third wording.' } : t)),
      baseline: stored,
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'judge', detail: 'turn 1 changed in meaning: x', score: 0.1 } },
    });
    expect(firstCause(reword('First wording.'), changed)?.cause).toBe('transcript_changed');
  });
});
