import type { Worker, WorkerOptions } from 'node:worker_threads';
import { Worker as RealWorker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createRegexPool, MAX_MATCH_CHARS } from '../../src/assertions/index.js';
import type { RegexEvaluator } from '../../src/types.js';
import { heldTimeout, switchableWatchdog } from '../support/held-timeout.js';
import { AMPLE_MS } from '../support/regex-pool.js';

const RUNAWAY = '^(a+)+$';
const RUNAWAY_TEXT = `${'a'.repeat(40)}!`;

/**
 * Blocks the main thread, as a loaded machine or a stopped process would, then fires the held
 * watchdogs (`fire`) before the workers' answers are read: the order in which a watchdog that only
 * looks at its own clock goes wrong. Held, a watchdog fires only then, so a pattern that finishes
 * is never timed out by a worker thread the machine left waiting.
 */
function stallMainThread(ms: number, fire: () => void): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        // busy: timers and worker messages wait
      }
      fire();
      resolve();
    }),
  );
}

const pools: RegexEvaluator[] = [];
function pool(opts: Parameters<typeof createRegexPool>[0]): RegexEvaluator {
  const p = createRegexPool(opts);
  pools.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('regex pool', () => {
  it('reports matched text, no match and compile errors', async () => {
    const p = pool({ size: 2, timeoutMs: AMPLE_MS });
    expect(await p.test('30 days', 'i', 'Refunds within 30 Days.')).toEqual({ kind: 'matched', match: '30 Days' });
    expect(await p.test('30 days', '', 'Refunds within 30 Days.')).toEqual({ kind: 'no_match' });
    const bad = await p.test('(', '', 'x');
    expect(bad.kind).toBe('compile_error');
    expect(bad.kind === 'compile_error' && bad.message).toMatch(/Unterminated group/);
    const badFlags = await p.test('a', 'qq', 'a');
    expect(badFlags.kind).toBe('compile_error');
  });

  it('truncates long matches', async () => {
    const p = pool({ size: 1, timeoutMs: AMPLE_MS });
    const r = await p.test('x+', '', 'x'.repeat(5000));
    expect(r.kind).toBe('matched');
    if (r.kind === 'matched') expect(r.match.length).toBeLessThanOrEqual(MAX_MATCH_CHARS + 1);
  });

  it('evaluates global and sticky patterns from the start every time (no lastIndex carried over)', async () => {
    const p = pool({ size: 1, timeoutMs: AMPLE_MS });
    for (let i = 0; i < 3; i++) expect(await p.test('ab', 'g', 'ab')).toEqual({ kind: 'matched', match: 'ab' });
    for (let i = 0; i < 3; i++) expect(await p.test('ab', 'y', 'ab')).toEqual({ kind: 'matched', match: 'ab' });
  });

  it('times out a runaway pattern, replaces the worker, and keeps working', async () => {
    const watchdog = switchableWatchdog();
    const p = pool({ size: 1, timeoutMs: 100, watchdog: watchdog.timer });
    // The second job is queued behind the runaway and must be served by the replacement worker.
    const [runaway, next] = [p.test(RUNAWAY, '', RUNAWAY_TEXT), p.test('days', '', '30 days')];
    expect(await runaway).toEqual({ kind: 'timeout', budgetMs: 100 });
    // The replacement is not ready yet: from here only an answer can end a job.
    watchdog.hold();
    expect(await next).toEqual({ kind: 'matched', match: 'days' });
    expect(await p.test('^a+$', '', 'aaaa')).toEqual({ kind: 'matched', match: 'aaaa' });
  });

  it('never times out a trivial pattern because the main thread was late, and still stops a runaway', async () => {
    const watchdog = switchableWatchdog(true);
    const p = pool({ size: 3, timeoutMs: 100, watchdog: watchdog.timer });
    // Warm: every worker has started, so the jobs below are handed out at once.
    await Promise.all([p.test('a', '', 'a'), p.test('b', '', 'b'), p.test('c', '', 'c')]);
    const trivial = [p.test('question \\d+', '', 'question 12'), p.test('question \\d+', '', 'no number here')];
    const runaway = p.test(RUNAWAY, '', RUNAWAY_TEXT);
    // The main thread stalls for three budgets while the workers run (a loaded machine, a SIGSTOP),
    // and every watchdog fires before an answer is read.
    await stallMainThread(300, watchdog.fire);
    expect(await Promise.all(trivial)).toEqual([{ kind: 'matched', match: 'question 12' }, { kind: 'no_match' }]);
    // Only the runaway is left: its watchdog runs on the real clock again.
    watchdog.release();
    expect(await runaway).toEqual({ kind: 'timeout', budgetMs: 100 });
    // The replacement worker serves the next job.
    expect(await p.test('days', '', '30 days')).toEqual({ kind: 'matched', match: 'days' });
  });

  it('times out none of the jobs queued on one worker when the main thread stalls', async () => {
    const watchdog = switchableWatchdog(true);
    const p = pool({ size: 1, timeoutMs: 100, watchdog: watchdog.timer });
    await p.test('a', '', 'a');
    // Queued behind one another on a single worker: each is handed over when the previous answers.
    const jobs = Array.from({ length: 20 }, (_, i) => p.test(`item-${i}`, '', `this is item-${i}`));
    await stallMainThread(300, watchdog.fire);
    const results = await Promise.all(jobs);
    results.forEach((r, i) => expect(r).toEqual({ kind: 'matched', match: `item-${i}` }));
  });

  it('answers 50 concurrent evaluations on a pool of 2 correctly', async () => {
    const p = pool({ size: 2, timeoutMs: AMPLE_MS });
    const jobs = Array.from({ length: 50 }, (_, i) => ({
      pattern: `item-${i}\\b`,
      text: i % 3 === 0 ? `no such thing ${i}` : `this is item-${i} here`,
      expected: i % 3 === 0 ? { kind: 'no_match' } : { kind: 'matched', match: `item-${i}` },
    }));
    const results = await Promise.all(jobs.map((j) => p.test(j.pattern, '', j.text)));
    results.forEach((r, i) => expect(r).toEqual(jobs[i]?.expected));
  });

  it('reports worker_failed when the worker cannot start, for every evaluation', async () => {
    const p = pool({ size: 2, timeoutMs: 100, workerSource: "throw new Error('boom at startup')" });
    const results = await Promise.all([p.test('a', '', 'a'), p.test('a', '', 'a'), p.test('a', '', 'a')]);
    for (const r of results) expect(r).toEqual({ kind: 'worker_failed', message: 'worker did not start: boom at startup' });
  });

  it('reports worker_failed when creating the worker throws', async () => {
    const p = pool({
      size: 2,
      timeoutMs: 100,
      spawnWorker: () => {
        throw new Error('no threads left');
      },
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => p.test('a', '', 'a')));
    for (const r of results) expect(r).toEqual({ kind: 'worker_failed', message: 'worker did not start: no threads left' });
  });

  it('reports worker_failed when a worker never says it is ready', async () => {
    // The deadline to report ready is the test's: fired at once, not waited for (a real 100 ms).
    const ready = heldTimeout();
    const p = pool({ size: 1, timeoutMs: 100, startupTimeoutMs: 100, startupTimer: ready.timer, workerSource: 'setInterval(() => {}, 1000);' });
    const answer = p.test('a', '', 'a');
    expect(ready.started).toEqual([100]);
    ready.fire();
    expect(await answer).toEqual({ kind: 'worker_failed', message: 'worker did not start: no ready signal within 100 ms' });
    // Nothing waits: no worker is started in its place, so no deadline either.
    expect(ready.started).toEqual([100]);
  });

  it('reports worker_failed when a ready worker never starts the job it was handed', async () => {
    const source = `
      const { parentPort } = require('node:worker_threads');
      parentPort.on('message', () => {});
      parentPort.postMessage({ ready: true });`;
    // One window serves the ready signal and the start of a job. The deadline to report ready is held
    // (never fired): the thread is ready when it says so, however long a loaded machine takes to start
    // it (60-90 ms idle, far more than this window), and only the start of the job can run out.
    const ready = heldTimeout();
    const p = pool({ size: 1, timeoutMs: 50, startupTimeoutMs: 20, startupTimer: ready.timer, workerSource: source });
    expect(await p.test('a', '', 'a')).toEqual({ kind: 'worker_failed', message: 'the worker did not start the evaluation within 20 ms' });
    // The deadline of the worker, and of the one that replaced it.
    expect(ready.started).toEqual([20, 20]);
  });

  it('reports worker_failed when a worker exits during an evaluation', async () => {
    const source = `
      const { parentPort } = require('node:worker_threads');
      parentPort.on('message', () => process.exit(3));
      parentPort.postMessage({ ready: true });`;
    const p = pool({ size: 1, timeoutMs: AMPLE_MS, workerSource: source });
    expect(await p.test('a', '', 'a')).toEqual({ kind: 'worker_failed', message: 'worker exited with code 3' });
  });

  it('close() terminates every worker and refuses later work', async () => {
    const spawned: Worker[] = [];
    const exited = new Set<Worker>();
    const p = createRegexPool({
      size: 3,
      timeoutMs: 10_000,
      spawnWorker: (source: string, options: WorkerOptions) => {
        const w = new RealWorker(source, options);
        w.on('exit', () => exited.add(w));
        spawned.push(w);
        return w;
      },
    });
    // One worker is busy with a runaway when close() is called.
    const pending = p.test(RUNAWAY, '', RUNAWAY_TEXT);
    await Promise.all([p.test('a', '', 'a'), p.test('b', '', 'b')]);
    await p.close();
    expect(await pending).toEqual({ kind: 'worker_failed', message: 'the regex pool was closed' });
    expect(spawned.length).toBeGreaterThan(0);
    expect(spawned.filter((w) => !exited.has(w))).toEqual([]);
    expect(await p.test('a', '', 'a')).toEqual({ kind: 'worker_failed', message: 'the regex pool is closed' });
    await p.close();
  });
});
