// config.yml `latency:` (docs/latency.md, "Slower than the baseline"): when an item is slower than
// its baseline; both thresholds strict ("more than"), defaults DEFAULT_LATENCY (src/config.ts).

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { DEFAULT_LATENCY, type Config } from '../../config.js';
import { ms, type Resolution } from './shared.js';

export const schema = onFirstUse(() =>
  z.strictObject({
    slowerBy: z.number().min(0, { error: 'must be a fraction of the baseline latency, 0 or more (0.5 is 50% slower)' }).optional(),
    minDeltaMs: ms(0).optional(),
  }),
);

type LatencySection = z.infer<ReturnType<typeof schema>>;

/** Sets `config.latency` when the section is given, each key not given from DEFAULT_LATENCY. */
export function resolve(config: Config, resolved: LatencySection | null | undefined, _written: unknown, r: Resolution): void {
  if (resolved) {
    // A fraction: `slowerBy: 50` is 5,000% slower, which no item will be; 50% is 0.5. Taken as
    // written, with a warning at its line, since a large fraction can be meant (docs/latency.md).
    const by = resolved.slowerBy;
    if (by !== undefined && by >= 10) {
      const shown = r.src?.writtenAt(['latency', 'slowerBy']) ?? String(by);
      r.warnings.push(
        r.issueAt(
          ['latency', 'slowerBy'],
          `latency.slowerBy ${shown} is read as a fraction: an item is slower only above ${(by + 1).toLocaleString('en-US')} times its baseline's latency (${(by * 100).toLocaleString('en-US')}% slower)`,
          `for ${shown}% slower write slowerBy: ${String(by / 100)}; keep ${shown} if ${(by + 1).toLocaleString('en-US')} times is meant`,
        ),
      );
    }
    config.latency = { slowerBy: resolved.slowerBy ?? DEFAULT_LATENCY.slowerBy, minDeltaMs: resolved.minDeltaMs ?? DEFAULT_LATENCY.minDeltaMs };
  }
}
