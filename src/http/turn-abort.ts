// The abort handle of one agent request: what undici's request API accepts as a `signal` (an
// EventEmitter shape: `on` / `once` / `removeListener`, `aborted`, `reason`), with room for the one
// listener undici adds. An AbortController per request (an EventTarget, its signal, the listener
// bookkeeping, then their garbage) cost about 10 us of CPU a request, the largest single item of the
// engine's own code in a profile of 5,000 fixtures; this is a few fields (docs/performance.md).

type Listener = () => void;

export class TurnAbort {
  aborted = false;
  reason: unknown = undefined;
  private listener: Listener | null = null;

  on(event: string, listener: Listener): this {
    if (event === 'abort') this.listener = listener;
    return this;
  }

  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }

  removeListener(event: string, listener: Listener): this {
    if (event === 'abort' && this.listener === listener) this.listener = null;
    return this;
  }

  /** Aborts the request once: undici fails it with `reason`. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = null;
    listener?.();
  }
}
