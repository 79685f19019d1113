// config.yml `meaning:` (docs/meaning.md, "Configuration"): how a reply that differs from its
// baseline gets its meaning. The schema, defaults and checks are src/suite/meaning-config.ts's.

import type { Config } from '../../config.js';
import { meaningSchema, resolveMeaningSection, type MeaningSection } from '../meaning-config.js';
import { unsure, type Resolution } from './shared.js';

/** Nullable and optional already (the other sections' schemas get it where the file is assembled). */
export const schema = meaningSchema;

/** Sets `config.meaning` to the keys given; absent or null: every default. */
export function resolve(config: Config, resolved: MeaningSection | null | undefined, written: MeaningSection | null | undefined, r: Resolution): void {
  // A baseUrl whose `${NAME}` was not read is said once, as that reference.
  const section = resolved && unsure(r, ['meaning', 'baseUrl']) ? { ...resolved, baseUrl: undefined } : resolved;
  if (section) config.meaning = resolveMeaningSection(section, written ?? {}, r.issueAt, r.errors);
}
