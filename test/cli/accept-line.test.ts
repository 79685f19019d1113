// The line `agent-replay accept` prints for a baseline it wrote (src/cli/accept-line.ts): an item that
// needed no acceptance says why it was written, in the words the comment uses for it (the "To
// refresh" line's, report/blocks.ts measurementsMoved; docs/cli.md, "What each command does").

import { describe, expect, it } from 'vitest';
import { acceptedLine } from '../../src/cli/accept-line.js';
import { decideAcceptance } from '../../src/evaluate/index.js';
import { measurementsMoved } from '../../src/report/blocks.js';
import { renderComment } from '../../src/report/index.js';
import type { Baseline, FixtureAttempt, FixtureRecord, Meaning, PersonaBaseline } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';
import { ctx, run } from '../report/fixtures.js';

const NOW = '2026-12-06T12:00:00.000Z';
const A1 = 'Returns within 30 days.';
const A2 = 'Returns within 30 days, no questions.';
const REWORDED: Meaning = { value: 'reworded', by: 'judge', detail: 'the same window', score: 0.93, reused: false };
const PATH = '.agent-replay/baselines/jumpy.json';

const stored = (over: Partial<Baseline> = {}): Baseline => ({ label: 'jumpy', message: 'm', reply: A1, route: null, verdict: 'pass', attempts: { passed: 3, total: 3 }, acceptedAt: '2026-11-01T00:00:00.000Z', commit: null, ...over });
const attempt = (reply: string, meaning?: Meaning): FixtureAttempt => ({ errored: false, error: null, errorKind: null, reply, route: null, ...(meaning ? { meaning } : {}), verdict: 'pass', detail: '', score: null, rationale: null, durationMs: 1 });

/** A repeat that replied its baseline's reply again, one attempt in another wording: unchanged, its baseline rewritten for the new known wording. */
const jumpy = (base: Baseline): FixtureRecord =>
  fixtureRecord({
    label: 'jumpy',
    reply: A1,
    baseline: base,
    drift: { reply: 'same', route: 'same', verdict: 'still_passing' },
    attempts: [attempt(A1), attempt(A2, REWORDED), attempt(A1)],
    repeat: { count: 3, minPass: 1, passed: 3, flaky: false },
  });

/** What accept writes for the record against `current`, which must be a write. */
function writtenFor(record: FixtureRecord, current: Baseline | null): Baseline {
  const d = decideAcceptance(record, NOW, null, current);
  if (d.kind !== 'accept') throw new Error(`expected a write, got ${d.kind}`);
  return d.baseline;
}

describe('the line of an accepted baseline', () => {
  it('an unchanged repeat whose attempts added a known wording says so, as the comment\'s "To refresh" line does', () => {
    const base = stored();
    const record = jumpy(base);
    const written = writtenFor(record, base);
    expect(written.variants).toEqual([A2]);
    expect(acceptedLine(record, base, written, PATH)).toBe(`accepted  jumpy (pass; unchanged, its measurements moved: known wordings) → ${PATH}\n`);
    // The comment names the same item with the same words.
    const comment = renderComment(run([record]), ctx);
    expect(comment).toContain('unchanged item whose measurements moved (`jumpy`: known wordings)');
  });

  it('names each measurement that moved, the tally first, against the file as it is before the write', () => {
    // The file on disk (another acceptance since the run) is what the line compares with, not the run's baseline.
    const onDisk = stored({ attempts: { passed: 2, total: 3 } });
    const record = jumpy(stored());
    expect(acceptedLine(record, onDisk, writtenFor(record, onDisk), PATH)).toBe(`accepted  jumpy (pass; unchanged, its measurements moved: attempts passed 2/3 → 3/3, known wordings) → ${PATH}\n`);
  });

  it('a reworded item says which wording it stores; a changed or new one, and one with no file before, only its verdict', () => {
    const base = stored({ reply: 'Refunds: thirty days.', attempts: undefined });
    const reworded = fixtureRecord({ label: 'jumpy', reply: A1, baseline: base, drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: REWORDED } });
    expect(acceptedLine(reworded, base, writtenFor(reworded, base), PATH)).toBe(`accepted  jumpy (pass; reworded: its earlier wording kept as a known variant) → ${PATH}\n`);
    const changed = fixtureRecord({ label: 'jumpy', reply: A1, verdict: 'fail', baseline: base, drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } });
    expect(acceptedLine(changed, base, writtenFor(changed, base), PATH)).toBe(`accepted  jumpy (fail) → ${PATH}\n`);
    const fresh = fixtureRecord({ label: 'jumpy', reply: A1 });
    expect(acceptedLine(fresh, null, writtenFor(fresh, null), PATH)).toBe(`accepted  jumpy (pass) → ${PATH}\n`);
    // An unchanged item whose file was removed since the run: a new file, nothing moved in it.
    const record = jumpy(stored());
    expect(acceptedLine(record, null, writtenFor(record, null), PATH)).toBe(`accepted  jumpy (pass) → ${PATH}\n`);
  });
});

describe('measurementsMoved', () => {
  it("names a script's turns' new known wordings as a fixture's", () => {
    const turn = (reply: string, variants?: string[]) => ({ message: 'hi', reply, route: null, ...(variants ? { variants } : {}) });
    const before: PersonaBaseline = { label: 'chat', kind: 'persona', transcript: [turn('Welcome!'), turn(A1)], visited: [], outcome: null, verdict: 'pass', acceptedAt: NOW, commit: null };
    const after: PersonaBaseline = { ...before, transcript: [turn('Welcome!'), turn(A1, [A2])] };
    expect(measurementsMoved(before, after)).toEqual(['known wordings']);
    expect(measurementsMoved(before, before)).toEqual([]);
  });
});
