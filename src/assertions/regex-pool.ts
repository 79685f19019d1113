// A pool of worker threads that run regular expressions with a time budget
// (docs/fixtures.md, "Assertions"; docs/architecture.md, "The regex time budget").
//
// A pathological pattern such as /^(a+)+$/ blocks the thread that runs it, and no JavaScript can
// interrupt it: the only remedy is to terminate the thread. So every evaluation runs in a worker,
// the main thread keeps a watchdog, and a worker over budget is terminated and replaced.
//
// The budget measures the pattern's own time, not the main thread's: a main thread that is itself
// late (a busy loop elsewhere, a loaded machine, a SIGSTOP) must never turn a pattern that finished
// in a microsecond into "did not finish". So each worker writes, into memory it shares with the
// main thread, when it started a job (on the process-wide monotonic clock) and which job it
// finished. When the watchdog fires it reads that memory: a finished job is never timed out (its
// answer is already queued); a job not yet started has used none of its budget; a started one is
// timed out only when it has run for the whole budget AND the watchdog itself fired on time. A
// watchdog that fired late gives the worker a short grace first, because whatever delayed the
// main thread may have paused the worker too.
//
// The worker's code is a string evaluated with `{ eval: true }`: the project is bundled into one
// file by ncc, so there is no separate worker file to resolve at run time.

import type { Worker, WorkerOptions } from 'node:worker_threads';
import type { Timer } from '../http/retry.js';
import type { RegexEvaluator, RegexResult } from '../types.js';
import { headOf, thousands } from '../words.js';

// node:worker_threads is loaded when the first worker starts, not at every start: most runs match
// every pattern without a worker, and the module was about 0.9% of a one-fixture run's
// instructions (docs/performance.md, "2026-12-07 (midday): the start's path").
const workerThreads = (): typeof import('node:worker_threads') => process.getBuiltinModule('node:worker_threads');

/** Longest matched text sent back from the worker. */
export const MAX_MATCH_CHARS = 200;

/** A matched text as it is shown: at most MAX_MATCH_CHARS units, whole characters (words.ts headOf), then an ellipsis. */
export function shownMatch(match: string): string {
  return match.length > MAX_MATCH_CHARS ? `${headOf(match, MAX_MATCH_CHARS)}\u2026` : match;
}

/**
 * The worker: compiles (with a small cache) and runs one pattern per message. Plain CommonJS so
 * that it runs as an eval worker under every supported Node version.
 */
const REGEX_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const MAX = ${MAX_MATCH_CHARS};
// Shared with the pool: [started job id, its start on process.hrtime (ns), finished job id].
const progress = workerData && workerData.progress ? new BigInt64Array(workerData.progress) : null;
const cache = new Map();
function compile(pattern, flags) {
  const key = flags + '/' + pattern;
  let re = cache.get(key);
  if (re === undefined) {
    re = new RegExp(pattern, flags);
    if (cache.size >= 256) cache.delete(cache.keys().next().value);
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}
function run(job) {
  let re;
  try {
    re = compile(job.pattern, job.flags);
  } catch (err) {
    return { id: job.id, kind: 'compile_error', message: String(err && err.message ? err.message : err) };
  }
  try {
    const m = re.exec(job.text);
    if (m === null) return { id: job.id, kind: 'no_match' };
    const text = m[0];
    // Two units more than is shown: the pool cuts it whole (shownMatch), never half of an emoji.
    return { id: job.id, kind: 'matched', match: text.length > MAX + 2 ? text.slice(0, MAX + 2) : text };
  } catch (err) {
    return { id: job.id, kind: 'worker_failed', message: 'evaluation threw ' + String(err && err.message ? err.message : err) };
  }
}
parentPort.on('message', (job) => {
  if (progress) {
    // The start time first: the pool reads it only once it sees this job's id.
    Atomics.store(progress, 1, process.hrtime.bigint());
    Atomics.store(progress, 0, BigInt(job.id));
  }
  const answer = run(job);
  if (progress) Atomics.store(progress, 2, BigInt(job.id));
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
`;

export interface RegexPoolOptions {
  /** Worker threads kept alive and reused. */
  size: number;
  /** Budget of one evaluation: the time the worker spends on it, from the moment it starts it. */
  timeoutMs: number;
  /** Override of the worker's source (tests: a worker that fails to start). */
  workerSource?: string;
  /** Override of worker creation (tests: observe or break the threads). */
  spawnWorker?: (source: string, options: WorkerOptions) => Worker;
  /**
   * How long a new worker may take to report ready, and a ready worker to start a job it was
   * handed, before it counts as failed.
   */
  startupTimeoutMs?: number;
  /**
   * Arms a new worker's deadline to report ready (default: an unref'd real timer). Tests: one they
   * never fire, so that a thread a loaded machine is slow to start still reads as ready, and only
   * the start of a job can run out of startupTimeoutMs.
   */
  startupTimer?: Timer;
  /** Heap limit of each worker, so a huge match cannot exhaust the process. */
  maxOldGenerationSizeMb?: number;
  /**
   * Arms the watchdog of an evaluation (default: an unref'd real timer). Tests: a watchdog they fire
   * themselves, so that a pattern that finishes is never timed out by a loaded machine.
   */
  watchdog?: Timer;
}

interface Job {
  pattern: string;
  flags: string;
  text: string;
  resolve: (result: RegexResult) => void;
}

/** Indexes into a slot's shared progress memory, written by the worker. */
const STARTED_ID = 0;
const STARTED_AT_NS = 1;
const FINISHED_ID = 2;

interface Slot {
  worker: Worker;
  /** Shared with the worker: which job it started and when, and which job it finished. */
  progress: BigInt64Array;
  state: 'starting' | 'idle' | 'busy' | 'dead';
  job: (Job & { id: number }) | null;
  /** Cancels the slot's armed timer: its start-up deadline or its job's watchdog. */
  stop: (() => void) | null;
  /** The last 'error' event, reported when the worker then exits. */
  lastError: string | null;
}

type WorkerMessage =
  | { ready: true }
  | { id: number; kind: 'matched'; match: string }
  | { id: number; kind: 'no_match' }
  | { id: number; kind: 'compile_error'; message: string }
  | { id: number; kind: 'worker_failed'; message: string };

/** The process-wide monotonic clock, the same in every thread, in nanoseconds. */
function nowNs(): bigint {
  return process.hrtime.bigint();
}

function msBetween(from: bigint, to: bigint): number {
  return Number(to - from) / 1e6;
}

/** A real timer that does not keep the process alive on its own (a busy worker does). */
const unrefTimer: Timer = (ms, cut) => {
  const timer = setTimeout(cut, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

export function createRegexPool(opts: RegexPoolOptions): RegexEvaluator {
  const size = Math.max(1, Math.floor(opts.size));
  const timeoutMs = Math.max(1, opts.timeoutMs);
  const source = opts.workerSource ?? REGEX_WORKER_SOURCE;
  const spawnWorker = opts.spawnWorker ?? ((src: string, options: WorkerOptions) => new (workerThreads().Worker)(src, options));
  const startupTimeoutMs = opts.startupTimeoutMs ?? 10_000;
  const watchdog = opts.watchdog ?? unrefTimer;
  const startupTimer = opts.startupTimer ?? unrefTimer;
  // A watchdog that fires later than this after its due time was itself delayed; it then grants the
  // worker `lateGraceMs` of running time before judging it.
  const lateToleranceMs = Math.min(timeoutMs, 20);
  const lateGraceMs = Math.min(timeoutMs, 20);
  const workerOptions: WorkerOptions = {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb ?? 128 },
    stdout: false,
    stderr: false,
  };

  const slots = new Set<Slot>();
  const queue: Job[] = [];
  const terminations = new Set<Promise<unknown>>();
  let nextId = 1;
  let closed = false;
  /** Spawns that threw synchronously and whose failure is not yet reported: they count as starting. */
  let failingStarts = 0;

  function count(state: Slot['state']): number {
    let n = 0;
    for (const slot of slots) if (slot.state === state) n++;
    return n;
  }

  function retire(slot: Slot): void {
    slot.state = 'dead';
    slot.stop?.();
    slot.stop = null;
    slots.delete(slot);
    slot.worker.removeAllListeners('message');
    const done = slot.worker.terminate().catch(() => undefined);
    terminations.add(done);
    void done.then(() => terminations.delete(done));
  }

  /** A worker that could not start fails the job at the head of the queue, if any. */
  function startupFailed(message: string): void {
    const job = queue.shift();
    if (job) job.resolve({ kind: 'worker_failed', message: `worker did not start: ${message}` });
    pump();
  }

  /** A worker that died while running a job fails that job, and is replaced at once. */
  function died(slot: Slot, message: string): void {
    if (slot.state === 'dead') return;
    const wasStarting = slot.state === 'starting';
    const job = slot.job;
    slot.job = null;
    retire(slot);
    if (wasStarting) {
      startupFailed(message);
      return;
    }
    if (job) job.resolve({ kind: 'worker_failed', message });
    replenish();
  }

  function spawn(): void {
    let worker: Worker;
    const shared = new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT);
    try {
      worker = spawnWorker(source, { ...workerOptions, workerData: { progress: shared } });
    } catch (err) {
      // Defer, so a synchronous failure never recurses into pump().
      const message = errorText(err);
      failingStarts++;
      setImmediate(() => {
        failingStarts--;
        startupFailed(message);
      });
      return;
    }
    const slot: Slot = { worker, progress: new BigInt64Array(shared), state: 'starting', job: null, stop: null, lastError: null };
    slots.add(slot);
    worker.ref();
    slot.stop = startupTimer(startupTimeoutMs, () => died(slot, `no ready signal within ${thousands(startupTimeoutMs)} ms`));

    worker.on('message', (msg: WorkerMessage) => {
      if (slot.state === 'dead') return;
      if ('ready' in msg) {
        if (slot.state !== 'starting') return;
        slot.stop?.();
        slot.stop = null;
        slot.state = 'idle';
        worker.unref();
        pump();
        return;
      }
      const job = slot.job;
      if (slot.state !== 'busy' || !job || msg.id !== job.id) return;
      slot.stop?.();
      slot.stop = null;
      slot.job = null;
      slot.state = 'idle';
      worker.unref();
      switch (msg.kind) {
        case 'matched':
          job.resolve({ kind: 'matched', match: shownMatch(msg.match) });
          break;
        case 'no_match':
          job.resolve({ kind: 'no_match' });
          break;
        case 'compile_error':
          job.resolve({ kind: 'compile_error', message: msg.message });
          break;
        case 'worker_failed':
          job.resolve({ kind: 'worker_failed', message: msg.message });
          break;
      }
      pump();
    });
    worker.on('error', (err: unknown) => {
      slot.lastError = errorText(err);
    });
    worker.on('messageerror', (err: unknown) => died(slot, `could not read the worker's answer: ${errorText(err)}`));
    worker.on('exit', (code: number) => {
      died(slot, slot.lastError ?? `worker exited with code ${code}`);
    });
  }

  /** Keeps the pool at full strength after a worker was lost, so the next job finds it warm. */
  function replenish(): void {
    if (closed) return;
    if (slots.size < size) spawn();
    pump();
  }

  function dispatch(slot: Slot, job: Job): void {
    const id = nextId++;
    slot.state = 'busy';
    slot.job = { ...job, id };
    slot.worker.ref();
    watch(slot, id, nowNs(), timeoutMs);
    slot.worker.postMessage({ id, pattern: job.pattern, flags: job.flags, text: job.text });
  }

  /** Arms the watchdog of job `id` to look again in `delayMs`. */
  function watch(slot: Slot, id: number, handedAt: bigint, delayMs: number): void {
    const dueAt = nowNs() + BigInt(Math.ceil(delayMs * 1e6));
    slot.stop = watchdog(delayMs, () => check(slot, id, handedAt, dueAt));
  }

  /** The watchdog: decides from the worker's own record whether job `id` is over its budget. */
  function check(slot: Slot, id: number, handedAt: bigint, dueAt: bigint): void {
    slot.stop = null;
    const job = slot.job;
    if (job?.id !== id) return;
    const now = nowNs();
    const jobId = BigInt(id);
    if (Atomics.load(slot.progress, FINISHED_ID) === jobId) {
      // The answer is already on its way (queued behind whatever delayed this thread).
      watch(slot, id, handedAt, timeoutMs);
      return;
    }
    if (Atomics.load(slot.progress, STARTED_ID) !== jobId) {
      // Not started yet: none of the budget is used. A worker that never starts has failed.
      const waited = msBetween(handedAt, now);
      if (waited < startupTimeoutMs) {
        watch(slot, id, handedAt, Math.min(timeoutMs, startupTimeoutMs - waited));
        return;
      }
      abandon(slot, { kind: 'worker_failed', message: `the worker did not start the evaluation within ${thousands(startupTimeoutMs)} ms` });
      return;
    }
    const ran = msBetween(Atomics.load(slot.progress, STARTED_AT_NS), now);
    if (ran < timeoutMs) {
      watch(slot, id, handedAt, timeoutMs - ran);
      return;
    }
    if (msBetween(dueAt, now) > lateToleranceMs) {
      watch(slot, id, handedAt, lateGraceMs);
      return;
    }
    abandon(slot, { kind: 'timeout', budgetMs: timeoutMs });
  }

  /** Gives up on the slot's job: the worker is terminated and replaced. */
  function abandon(slot: Slot, result: RegexResult): void {
    const job = slot.job;
    slot.job = null;
    retire(slot);
    job?.resolve(result);
    replenish();
  }

  function pump(): void {
    if (closed) return;
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (slot.state !== 'idle') continue;
      const job = queue.shift();
      if (job) dispatch(slot, job);
    }
    // Start workers for what is still waiting, up to the pool size.
    let starting = count('starting') + failingStarts;
    while (queue.length > starting && slots.size < size) {
      spawn();
      starting++;
    }
  }

  return {
    test(pattern: string, flags: string, text: string): Promise<RegexResult> {
      if (closed) return Promise.resolve({ kind: 'worker_failed', message: 'the regex pool is closed' });
      return new Promise<RegexResult>((resolve) => {
        queue.push({ pattern, flags, text, resolve });
        pump();
      });
    },

    warm(count: number): void {
      if (closed) return;
      const want = Math.min(size, Math.max(0, Math.floor(count)));
      while (slots.size + failingStarts < want) spawn();
    },

    async close(): Promise<void> {
      if (closed) {
        await Promise.all([...terminations]);
        return;
      }
      closed = true;
      for (const job of queue.splice(0)) job.resolve({ kind: 'worker_failed', message: 'the regex pool was closed' });
      for (const slot of [...slots]) {
        const job = slot.job;
        slot.job = null;
        retire(slot);
        if (job) job.resolve({ kind: 'worker_failed', message: 'the regex pool was closed' });
      }
      await Promise.all([...terminations]);
    },
  };
}
