// A client's timeout that the test's server fires, never a short real timer racing it.
import type { Dispatcher } from 'undici';
import { DIRECT, type Network } from '../../src/http/network.js';
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

/**
 * The direct network, each dispatcher telling `received` once the client has `bytes` of an answer's
 * body (after its headers: its request() has resolved): a test of a body that stalls fires its
 * timeout then, not a real one that could cut the wait for the headers, or for the bytes a stream
 * sent before it stalled, on a loaded machine.
 */
export function bodyBegun(received: () => void, bytes = 1): Network {
  const told = (handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler => {
    let got = 0;
    return new Proxy(handler, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        if (key !== 'onData' && key !== 'onResponseData') return value.bind(target);
        return (...args: unknown[]) => {
          const kept: unknown = value.apply(target, args);
          const before = got;
          got += (args.at(-1) as Buffer).length;
          // After the client's own continuation (the status it keeps, the text it reads) has run.
          if (before < bytes && got >= bytes) setImmediate(received);
          return kept;
        };
      },
    });
  };
  return { ...DIRECT, dispatcher: (target, options) => DIRECT.dispatcher(target, options).compose((dispatch) => (opts, handler) => dispatch(opts, told(handler))) };
}

/**
 * A regex pool's watchdog (assertions/regex-pool.ts, `watchdog`: a Timer) that is real until the test
 * holds it. A held one fires only when the test calls `fire` (every one armed then), so a pattern
 * that should finish is ended by its answer, never by a loaded machine's false timeout; `release`
 * makes it real again and fires the held ones (a runaway's, which must time out).
 */
export function switchableWatchdog(held = false): { timer: Timer; hold: () => void; fire: () => void; release: () => void } {
  const kept = heldTimeout();
  let holding = held;
  const real: Timer = (ms, cut) => {
    const timer = setTimeout(cut, ms);
    timer.unref();
    return () => clearTimeout(timer);
  };
  return {
    timer: (ms, cut) => (holding ? kept.timer(ms, cut) : real(ms, cut)),
    hold: () => void (holding = true),
    fire: kept.fire,
    release: () => {
      holding = false;
      kept.fire();
    },
  };
}
