// A record written before a run stored what it stores now, read as a run stores it now where the
// record holds all it takes, and named where it does not (docs/results-json.md, "Records of an older
// agent-replay"). Pure.
//
// With `meaning.check: off`, a repeated item whose shown reply (a script: transcript) is its
// baseline's while another attempt replied otherwise used to be stored unchanged, with no meaning,
// though acceptance refuses it ("replies vary ..."). A run now stores that attempt, named, as the
// item's meaning ("meaning not checked: attempt 2: replied otherwise than attempt 1"; a script's
// attempt whose agent ended the conversation otherwise first: docs/meaning.md, "Repeats"). With
// meaning checked, such an item used to be stored unchanged too while an attempt's own meaning
// against attempt 1 was changed (or unchecked), or a script's attempt's agent ended the
// conversation otherwise; a run now stores that attempt, named, as the item's meaning. A record of
// such a run holds every attempt's reply, turns, ending and (checked) meaning: it is read so, by the
// rule a run stores it by (fixtureItemMeaning, scriptItemMeaning). A record whose run checked
// meaning but whose attempt that replied otherwise carries none (or does not say how: written
// before `meaning`), or a scripted script whose attempts do not say who ended their conversation
// (written before they did), does not hold what a run now stores for those attempts (their meaning,
// their ending): it is read as written, and named.

import type { FixtureRecord, PersonaRecord, RunRecord } from '../types.js';
import { fixtureItemMeaning, scriptItemMeaning } from './finish.js';
import { fixtureAttemptViews, personaAttemptViews } from './variants.js';

type MeaningCheck = NonNullable<RunRecord['meaning']>['check'];

/** A record as a run stores it now, and the labels of its items that cannot be (their meaning unknown to it), in record order. */
export interface OlderReading {
  record: RunRecord;
  unsure: string[];
}

/** What one item reads as: itself, another record of it (read as a run stores it now), or itself, unsure. */
type ItemReading<T> = { item: T; unsure: boolean };

/** Reads `record` as a run stores it now (see above); the record itself when nothing differs. */
export function readAsStoredNow(record: RunRecord): OlderReading {
  const check = record.meaning?.check;
  const fixtures = record.fixtures.map((f) => fixtureNow(f, check));
  const personas = record.personas.map((p) => scriptNow(p, check));
  const unsure = [...fixtures, ...personas].filter((r) => r.unsure).map((r) => r.item.label);
  const changed = fixtures.some((r, i) => r.item !== record.fixtures[i]) || personas.some((r, i) => r.item !== record.personas[i]);
  return { record: changed ? { ...record, fixtures: fixtures.map((r) => r.item), personas: personas.map((r) => r.item) } : record, unsure };
}

/**
 * Does the record hold each attempt's meaning as a run now keeps it? Meaning off: none, then as
 * now. Meaning checked: every attempt that replied otherwise than the one shown (`differing`, by
 * number) carries its own, as a run now gives it one. A record that does not say how: never.
 */
function holdsMeanings(check: MeaningCheck | undefined, attempts: readonly { meaning?: unknown }[], differing: readonly number[]): boolean {
  if (check === 'off') return attempts.every((a) => a.meaning == null);
  return check !== undefined && differing.every((n) => attempts[n - 1]?.meaning != null);
}

/** The numbers of the attempts an item's views say replied otherwise than the one shown. */
const differing = (views: readonly { number: number; differs: boolean }[]): number[] => views.filter((v) => v.differs).map((v) => v.number);

function fixtureNow(f: FixtureRecord, check: MeaningCheck | undefined): ItemReading<FixtureRecord> {
  if (f.errored || f.attempts === undefined || f.attempts.length < 2 || f.drift.reply !== 'same' || f.drift.meaning != null) return { item: f, unsure: false };
  const now = fixtureItemMeaning(null, f.reply, f.attempts, true) ?? null;
  if (now === null) return { item: f, unsure: false };
  if (!holdsMeanings(check, f.attempts, differing(fixtureAttemptViews(f.reply, f.attempts)))) return { item: f, unsure: true };
  return { item: { ...f, drift: { ...f.drift, meaning: now } }, unsure: false };
}

function scriptNow(p: PersonaRecord, check: MeaningCheck | undefined): ItemReading<PersonaRecord> {
  if (p.errored || p.attempts === undefined || p.attempts.length < 2 || p.drift.transcript !== 'same' || p.drift.meaning != null) return { item: p, unsure: false };
  const now = scriptItemMeaning(null, p.turns, p.attempts, p.baseline, true) ?? null;
  if (now === null) return { item: p, unsure: false };
  // A scripted attempt that completed says who ended its conversation (since records kept it); a simulated one never does.
  const endings = p.simulation !== undefined || p.attempts.every((a) => a.errored || a.endedBy !== undefined);
  if (!endings || !holdsMeanings(check, p.attempts, differing(personaAttemptViews(p.turns, p.attempts)))) return { item: p, unsure: true };
  return { item: { ...p, drift: { ...p.drift, meaning: now } }, unsure: false };
}
