// A client's timeout that the test's server fires, never a short real timer racing it.
import type { Timer } from '../../src/http/retry.js';

/**
 * A call's timeout that the server fires once it holds the request (http/retry.ts, Timer: given to the
 * client's deps), instead of a short real timer racing the server's handler, which a loaded machine
 * can lose before the request arrives, or even before its connection opens. `fire`, the server's
 * handler (it never answers) or called by one; `started` lists each timeout begun (its ms).
 */
export function heldTimeout(): { timer: Timer; fire: () => void; started: number[] } {
  let cuts: (() => void)[] = [];
  const started: number[] = [];
  const fire = (): void => {
    for (const cut of cuts.splice(0)) cut();
  };
  return {
    timer: (ms, cut) => {
      started.push(ms);
      cuts.push(cut);
      return () => void (cuts = cuts.filter((c) => c !== cut));
    },
    fire,
    started,
  };
}
