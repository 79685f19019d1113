// V8 settings for the CLI and Action processes, applied by their entries before any work. Both were measured with
// `npm run bench` (see the README's performance section).

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The young generation's semi-space size a replay settles at (see tuneRuntime). */
const SEMI_SPACE_BYTES = 4 * 1024 * 1024;

export function tuneRuntime(): void {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing
  // tier on background threads, and the process waits for that at exit: ~200 ms of every short
  // run for no gain (responses are small). The baseline compiler alone is plenty.
  setFlagsFromString('--liftoff-only');
  // The young generation. A replay makes short-lived garbage per request while many requests are
  // in flight, for as long as the agent takes to answer. Left alone, V8 grows the semi-spaces to
  // 16 MB each (x 3 in RSS); kept at their initial 1 MB, a scavenge comes every few milliseconds,
  // so the objects of the requests in flight survive two of them and are promoted, and the old
  // generation fills with garbage (~60 MB more peak RSS over 20,000 fixtures). Between the two:
  // the semi-spaces may grow (doubling, as V8 does) until SEMI_SPACE_BYTES, then stop. Only the
  // growth factor can be changed once the process runs, hence the observer of collections.
  const youngSize = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  if (youngSize() >= SEMI_SPACE_BYTES) {
    setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  setFlagsFromString('--semi-space-growth-factor=2');
  const observer = new PerformanceObserver(() => {
    if (youngSize() < SEMI_SPACE_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
