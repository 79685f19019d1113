// An interrupted run (SIGINT, SIGTERM, a cancelled job): the entries turn the signal into an
// aborted AbortSignal; the engine stops starting fixtures and records what finished, marked
// `interrupted`; the process then exits with the conventional status 128 + the signal's number.

/** The signals a run stops on, with the exit status a shell reports for each. */
const INTERRUPT_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;

export type InterruptSignal = keyof typeof INTERRUPT_SIGNALS;

/** The reason of an AbortSignal aborted by a process signal. */
export class Interrupted extends Error {
  constructor(readonly signal: InterruptSignal) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

/** The process signal that aborted `signal`, or null (not aborted, or aborted for another reason). */
export function interruptedBy(signal: AbortSignal | undefined): InterruptSignal | null {
  if (signal?.aborted !== true) return null;
  return signal.reason instanceof Interrupted ? signal.reason.signal : null;
}

/** Exit status of a run interrupted by `signal`: 130 for SIGINT, 143 for SIGTERM. */
export function interruptExitCode(signal: InterruptSignal): number {
  return INTERRUPT_SIGNALS[signal];
}
