// config.yml `regex:` (docs/fixtures.md, "Assertions"): the time budget of one regular expression
// and the worker threads that run them; defaults in `defaultConfig` (src/config.ts).

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import type { Config } from '../../config.js';
import { ms, positiveInt, type Resolution } from './shared.js';

export const schema = onFirstUse(() => z.strictObject({ timeoutMs: ms(1).optional(), workers: positiveInt().optional() }));

type RegexSection = z.infer<ReturnType<typeof schema>>;

/** Each key given replaces the default of `config.regex`. */
export function resolve(config: Config, resolved: RegexSection | null | undefined, _written: unknown, _r: Resolution): void {
  if (resolved?.timeoutMs !== undefined) config.regex.timeoutMs = resolved.timeoutMs;
  if (resolved?.workers !== undefined) config.regex.workers = resolved.workers;
}
