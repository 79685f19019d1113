// config.yml `latency:` (docs/latency.md, "Slower than the baseline"): when an item is slower than
// its baseline; both thresholds strict ("more than"), defaults DEFAULT_LATENCY (src/config.ts).

import * as z from 'zod';
import { DEFAULT_LATENCY, type Config } from '../../config.js';
import { ms, type Resolution } from './shared.js';

export const schema = z.strictObject({
  slowerBy: z.number().min(0, { error: 'must be a fraction of the baseline latency, 0 or more (0.5 is 50 % slower)' }).optional(),
  minDeltaMs: ms(0).optional(),
});

type LatencySection = z.infer<typeof schema>;

/** Sets `config.latency` when the section is given, each key not given from DEFAULT_LATENCY. */
export function resolve(config: Config, resolved: LatencySection | null | undefined, _written: unknown, _r: Resolution): void {
  if (resolved) {
    config.latency = { slowerBy: resolved.slowerBy ?? DEFAULT_LATENCY.slowerBy, minDeltaMs: resolved.minDeltaMs ?? DEFAULT_LATENCY.minDeltaMs };
  }
}
