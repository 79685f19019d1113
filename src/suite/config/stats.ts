// config.yml `stats:` (docs/statistics.md, "Configuration"): `alpha`, the false alarm rate of the
// pass-rate tiers; default DEFAULT_ALPHA (src/config.ts). Its range is the schema's, so a wrong
// value is reported with the file's line beside every other problem of the file.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { DEFAULT_ALPHA, type Config } from '../../config.js';
import type { Resolution } from './shared.js';

const ALPHA_RULE = 'must be a probability above 0 and at most 0.5 (0.05 calls a drop at p < 0.05)';

export const schema = onFirstUse(() =>
  z.strictObject({
    alpha: z.number({ error: ALPHA_RULE }).gt(0, { error: ALPHA_RULE }).max(0.5, { error: ALPHA_RULE }).optional(),
  }),
);

type StatsSection = z.infer<ReturnType<typeof schema>>;

/** Sets `config.stats` when the section is given, each key not given from its default. */
export function resolve(config: Config, resolved: StatsSection | null | undefined, _written: unknown, _r: Resolution): void {
  if (resolved) config.stats = { alpha: resolved.alpha ?? DEFAULT_ALPHA };
}
