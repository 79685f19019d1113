// A record written before a run stored what it stores now, read as a run stores it now where the
// record holds all it takes, and named where it does not (docs/results-json.md, "Records of an older
// agent-replay"). Pure.
//
// With `meaning.check: off`, a repeated item whose shown reply (a script: transcript) is its
// baseline's while another attempt replied otherwise used to be stored unchanged, with no meaning,
// though acceptance refuses it ("replies vary ..."). A run now stores that attempt, named, as the
// item's meaning ("meaning not checked: attempt 2: replied otherwise than attempt 1"; a script's
// attempt whose agent ended the conversation otherwise first: docs/meaning.md, "Repeats"). A record
// of such a run holds every attempt's reply, turns and ending: it is read so. A record whose run
// checked meaning (or does not say how: written before `meaning`), or a scripted script whose
// attempts do not say who ended their conversation (written before they did), does not hold what a
// run now stores for those attempts (their meaning, their ending): it is read as written, and named.

import type { FixtureRecord, PersonaRecord, RunRecord } from '../types.js';
import { endedOtherwise, fixtureOtherwise, scriptOtherwise } from './finish.js';

/** A record as a run stores it now, and the labels of its items that cannot be (their meaning unknown to it), in record order. */
export interface OlderReading {
  record: RunRecord;
  unsure: string[];
}

/** What one item reads as: itself, another record of it (read as a run stores it now), or itself, unsure. */
type ItemReading<T> = { item: T; unsure: boolean };

/** Reads `record` as a run stores it now (see above); the record itself when nothing differs. */
export function readAsStoredNow(record: RunRecord): OlderReading {
  const off = record.meaning?.check === 'off';
  const fixtures = record.fixtures.map((f) => fixtureNow(f, off));
  const personas = record.personas.map((p) => scriptNow(p, off));
  const unsure = [...fixtures, ...personas].filter((r) => r.unsure).map((r) => r.item.label);
  const changed = fixtures.some((r, i) => r.item !== record.fixtures[i]) || personas.some((r, i) => r.item !== record.personas[i]);
  return { record: changed ? { ...record, fixtures: fixtures.map((r) => r.item), personas: personas.map((r) => r.item) } : record, unsure };
}

function fixtureNow(f: FixtureRecord, off: boolean): ItemReading<FixtureRecord> {
  if (f.errored || f.attempts === undefined || f.attempts.length < 2 || f.drift.reply !== 'same' || f.drift.meaning != null) return { item: f, unsure: false };
  const otherwise = fixtureOtherwise(f.reply, f.attempts);
  if (otherwise === null) return { item: f, unsure: false };
  // Meaning off: no attempt was compared in meaning, now as then. Else each attempt now has a meaning this record lacks.
  if (!off || f.attempts.some((a) => a.meaning != null)) return { item: f, unsure: true };
  return { item: { ...f, drift: { ...f.drift, meaning: otherwise } }, unsure: false };
}

function scriptNow(p: PersonaRecord, off: boolean): ItemReading<PersonaRecord> {
  if (p.errored || p.attempts === undefined || p.attempts.length < 2 || p.drift.transcript !== 'same' || p.drift.meaning != null) return { item: p, unsure: false };
  const otherwise = scriptOtherwise(p.turns, p.attempts);
  const shown = p.attempts.findIndex((a) => !a.errored);
  // A scripted attempt that completed says who ended its conversation (since records kept it); a simulated one never does.
  const endings = p.simulation !== undefined || p.attempts.every((a) => a.errored || a.endedBy !== undefined);
  const exact = off && endings && p.attempts.every((a) => a.meaning == null);
  if (!exact) return { item: p, unsure: otherwise !== null };
  // As combinePersonaAttempts decides it: an attempt whose agent ended the conversation otherwise first, against a baseline that keeps the ending.
  const now = endedOtherwise(p.attempts, shown === -1 ? 0 : shown, p.baseline) ?? otherwise;
  return { item: now === null ? p : { ...p, drift: { ...p.drift, meaning: now } }, unsure: false };
}
