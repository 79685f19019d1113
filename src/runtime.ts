// V8 settings for the CLI and Action processes, applied by their entries before any work. Both were measured with
// `npm run bench` (see docs/performance.md).

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { replayStarts } from './replay/starts.js';

/**
 * The young generation's size a replay settles at, as node:v8 reports it (`new_space`'s
 * `space_size`): the size measured best for the 20,000-fixture peak RSS (docs/performance.md,
 * "2026-12-07: the young generation's size").
 */
export const YOUNG_BYTES = 8 * 1024 * 1024;

const youngSize = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

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
  // YOUNG_BYTES, reached during the replay and kept.
  // Until the replay starts the young generation keeps the size the start left it at: the load of
  // a large suite is one long synchronous stretch in which V8 would grow it several times over
  // before an observer of collections could stop it (they are told after it, on the event loop's
  // next turn), so what the replay got depended on how much the start happened to allocate.
  setFlagsFromString('--semi-space-growth-factor=1');
  const onReplay = (): void => {
    unsubscribe(replayStarts.name, onReplay);
    growYoungGeneration();
  };
  subscribe(replayStarts.name, onReplay);
}

/**
 * Lets the young generation double until it reaches YOUNG_BYTES, then stops its growth. The replay
 * turns the event loop often, so the observer hears of each collection before the next growth.
 */
function growYoungGeneration(): void {
  if (youngSize() >= YOUNG_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=2');
  const observer = new PerformanceObserver(() => {
    if (youngSize() < YOUNG_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
