// What kind of item a record is: a fixture or a persona script (docs/architecture.md, "Where an
// item's changes are decided"). The one place that tells them apart by their shape; everything
// else asks kindOf or isScript.

import type { FixtureRecord, PersonaRecord } from '../types.js';

export type ItemKind = 'fixture' | 'script';

/** Any record of an item, or an attempt of one: a script's has turns, a fixture's does not. */
type Shaped = object;

export function kindOf(record: Shaped): ItemKind {
  return 'turns' in record ? 'script' : 'fixture';
}

/** A persona script's record (narrows the type). */
export function isScript(record: FixtureRecord | PersonaRecord): record is PersonaRecord {
  return kindOf(record) === 'script';
}
