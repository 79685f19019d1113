// config.yml `meaning:` (docs/meaning.md, "Configuration"): how a reply that differs from its
// baseline gets its meaning. The schema, defaults and checks are src/suite/meaning-config.ts's.

import type { Config } from '../../config.js';
import { meaningSchema, resolveMeaningSection, type MeaningSection } from '../meaning-config.js';
import type { Resolution } from './shared.js';

/** Nullable and optional already (the other sections' schemas get it where the file is assembled). */
export const schema = meaningSchema;

/** Sets `config.meaning` to the keys given; absent or null: every default. */
export function resolve(config: Config, resolved: MeaningSection | null | undefined, written: MeaningSection | null | undefined, r: Resolution): void {
  if (resolved) config.meaning = resolveMeaningSection(resolved, written ?? {}, r.issueAt, r.errors);
}
