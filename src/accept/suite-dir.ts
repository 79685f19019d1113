// Whether a recorded run is a run of the suite its replies are about to be accepted into. A run
// records each item's file relative to the folder it ran in (`<dir>/fixtures/...`,
// `<dir>/personas/...`); when none of them is in the suite folder acceptance writes to, the
// baselines would land where that suite does not read them, under labels that may be its own
// (docs/action.md, "Accept"; docs/cli.md, "What each command does"). The record is untrusted: its
// file names are only compared and quoted.

import type { RunRecord } from '../types.js';

/** A run of another suite folder: where it ran (null when its files name no suite folder) and its first file. */
export interface ForeignSuite {
  ranIn: string | null;
  first: string;
}

/**
 * null when `record` is a run of `suiteDir` (a clean relative POSIX path, `.` for the working
 * folder itself) or has no item; else where the run's suite was.
 */
export function foreignSuite(record: Pick<RunRecord, 'fixtures' | 'personas'>, suiteDir: string): ForeignSuite | null {
  const files = [...record.fixtures, ...record.personas].map((i) => i.file.replace(/\\/g, '/'));
  const prefix = suiteDir === '.' ? '' : `${suiteDir}/`;
  if (files.length === 0 || files.some((f) => f.startsWith(prefix) && /^(?:fixtures|personas)\//.test(f.slice(prefix.length)))) return null;
  const first = files[0] as string;
  const m = /^(?:(.*?)\/)?(?:fixtures|personas)\//.exec(first);
  return { ranIn: m === null ? null : (m[1] ?? '.'), first };
}
