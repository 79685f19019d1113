// A pool of worker threads that run regular expressions with a time budget (SPEC section 2).
//
// A pathological pattern such as /^(a+)+$/ blocks the thread that runs it, and no JavaScript can
// interrupt it: the only remedy is to terminate the thread. So every evaluation runs in a worker,
// the main thread keeps the clock, and a worker over budget is terminated and replaced.
//
// The worker's code is a string evaluated with `{ eval: true }`: the project is bundled into one
// file by ncc, so there is no separate worker file to resolve at run time.

import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { RegexEvaluator, RegexResult } from '../types.js';

/** Longest matched text sent back from the worker. */
export const MAX_MATCH_CHARS = 200;

/**
 * The worker: compiles (with a small cache) and runs one pattern per message. Plain CommonJS so
 * that it runs as an eval worker under every supported Node version.
 */
export const REGEX_WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const MAX = ${MAX_MATCH_CHARS};
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
parentPort.on('message', (job) => {
  let re;
  try {
    re = compile(job.pattern, job.flags);
  } catch (err) {
    parentPort.postMessage({ id: job.id, kind: 'compile_error', message: String(err && err.message ? err.message : err) });
    return;
  }
  try {
    const m = re.exec(job.text);
    if (m === null) {
      parentPort.postMessage({ id: job.id, kind: 'no_match' });
    } else {
      const text = m[0];
      parentPort.postMessage({ id: job.id, kind: 'matched', match: text.length > MAX ? text.slice(0, MAX) + '\\u2026' : text });
    }
  } catch (err) {
    parentPort.postMessage({ id: job.id, kind: 'worker_failed', message: 'evaluation threw ' + String(err && err.message ? err.message : err) });
  }
});
parentPort.postMessage({ ready: true });
`;

export interface RegexPoolOptions {
  /** Worker threads kept alive and reused. */
  size: number;
  /** Budget of one evaluation, measured from the moment it is handed to a ready worker. */
  timeoutMs: number;
  /** Override of the worker's source (tests: a worker that fails to start). */
  workerSource?: string;
  /** Override of worker creation (tests: observe or break the threads). */
  spawnWorker?: (source: string, options: WorkerOptions) => Worker;
  /** How long a new worker may take to report ready before it counts as failed to start. */
  startupTimeoutMs?: number;
  /** Heap limit of each worker, so a huge match cannot exhaust the process. */
  maxOldGenerationSizeMb?: number;
}

interface Job {
  pattern: string;
  flags: string;
  text: string;
  resolve: (result: RegexResult) => void;
}

interface Slot {
  worker: Worker;
  state: 'starting' | 'idle' | 'busy' | 'dead';
  job: (Job & { id: number }) | null;
  timer: NodeJS.Timeout | null;
  /** The last 'error' event, reported when the worker then exits. */
  lastError: string | null;
}

type WorkerMessage =
  | { ready: true }
  | { id: number; kind: 'matched'; match: string }
  | { id: number; kind: 'no_match' }
  | { id: number; kind: 'compile_error'; message: string }
  | { id: number; kind: 'worker_failed'; message: string };

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

export function createRegexPool(opts: RegexPoolOptions): RegexEvaluator {
  const size = Math.max(1, Math.floor(opts.size));
  const timeoutMs = Math.max(1, opts.timeoutMs);
  const source = opts.workerSource ?? REGEX_WORKER_SOURCE;
  const spawnWorker = opts.spawnWorker ?? ((src: string, options: WorkerOptions) => new Worker(src, options));
  const startupTimeoutMs = opts.startupTimeoutMs ?? 10_000;
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
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
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
    try {
      worker = spawnWorker(source, workerOptions);
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
    const slot: Slot = { worker, state: 'starting', job: null, timer: null, lastError: null };
    slots.add(slot);
    worker.ref();
    slot.timer = setTimeout(() => died(slot, `no ready signal within ${startupTimeoutMs} ms`), startupTimeoutMs);
    slot.timer.unref();

    worker.on('message', (msg: WorkerMessage) => {
      if (slot.state === 'dead') return;
      if ('ready' in msg) {
        if (slot.state !== 'starting') return;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.state = 'idle';
        worker.unref();
        pump();
        return;
      }
      const job = slot.job;
      if (slot.state !== 'busy' || !job || msg.id !== job.id) return;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      slot.job = null;
      slot.state = 'idle';
      worker.unref();
      switch (msg.kind) {
        case 'matched':
          job.resolve({ kind: 'matched', match: msg.match });
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
    slot.timer = setTimeout(() => {
      if (slot.job?.id !== id) return;
      slot.job = null;
      retire(slot);
      job.resolve({ kind: 'timeout', budgetMs: timeoutMs });
      replenish();
    }, timeoutMs);
    slot.timer.unref();
    slot.worker.postMessage({ id, pattern: job.pattern, flags: job.flags, text: job.text });
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
