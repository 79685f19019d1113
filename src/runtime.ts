// V8 settings for the CLI and Action processes, applied by their entries before any work. Both were measured with
// `npm run bench` (see the README's performance section).

import { setFlagsFromString } from 'node:v8';

export function tuneRuntime(): void {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing
  // tier on background threads, and the process waits for that at exit: ~200 ms of every short
  // run for no gain (responses are small). The baseline compiler alone is plenty.
  setFlagsFromString('--liftoff-only');
  // A replay makes short-lived garbage per request while many requests are in flight, and V8 then
  // grows the young generation towards its 16 MB x 3 maximum. Keeping it at its initial size
  // trades a few more (cheap) scavenges for a much lower peak RSS on large suites.
  setFlagsFromString('--semi-space-growth-factor=1');
}
