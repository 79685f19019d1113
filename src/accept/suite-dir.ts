// Whether a recorded run is a run of the suite its replies are about to be accepted into. A run
// records each item's file relative to the folder it ran in (`<dir>/fixtures/...`,
// `<dir>/personas/...`); when none of them is in the suite folder acceptance writes to, the
// baselines would land where that suite does not read them, under labels that may be its own
// (docs/action.md, "Accept"; docs/cli.md, "What each command does"). The record is untrusted: its
// file names are only compared and quoted.

import type { RunRecord } from '../types.js';
import { suiteFolderNamedBy } from '../suite/suite-folder.js';

/** A run of another suite folder: where it ran (null when its files name no suite folder) and its first file. */
export interface ForeignSuite {
  ranIn: string | null;
  first: string;
}

/**
 * null when `record` is a run of `suiteDir` (a clean relative POSIX path, `.` for the working
 * folder itself) or has no item; else where the run's suite was. `suitePath`, the suite folder's
 * absolute POSIX path, when known: the record does not say which folder it ran in, so a run made
 * in another folder of the same tree (`run` at the repository's root names `.agent-replay/...`;
 * `accept --dir ../.agent-replay` from a subfolder) is of this suite when the folder its files name
 * is the end of `suitePath`, whole names only.
 */
export function foreignSuite(record: Pick<RunRecord, 'fixtures' | 'personas'>, suiteDir: string, suitePath: string | null = null): ForeignSuite | null {
  const files = [...record.fixtures, ...record.personas].map((i) => i.file.replace(/\\/g, '/'));
  const inSuite = (dir: string) => (f: string) => {
    const prefix = dir === '.' ? '' : `${dir}/`;
    return f.startsWith(prefix) && /^(?:fixtures|personas)\//.test(f.slice(prefix.length));
  };
  if (files.length === 0 || files.some(inSuite(suiteDir))) return null;
  const first = files[0] as string;
  const ranIn = suiteFolderNamedBy(first);
  // A folder named down from where the run was (no `.`, `..` or empty name): this suite's when its
  // path ends with it. A run of the suite folder itself (`.`) names none, so nothing to match.
  const names = ranIn === null ? [] : ranIn.split('/');
  if (suitePath !== null && ranIn !== null && names.every((n) => n !== '' && n !== '.' && n !== '..') && suitePath.endsWith(`/${ranIn}`) && files.some(inSuite(ranIn))) return null;
  return { ranIn, first };
}
