// A real regex worker pool that counts the workers it starts, and the evaluator a run uses over it
// (withInlineRegex): the tests of what is matched on the main thread and what is not.

import type { Worker, WorkerOptions } from 'node:worker_threads';
import { Worker as RealWorker } from 'node:worker_threads';
import { afterEach } from 'vitest';
import { createRegexPool } from '../../src/assertions/index.js';
import { withInlineRegex } from '../../src/assertions/regex-inline.js';
import type { RegexEvaluator } from '../../src/types.js';

/**
 * The budget of a pool whose every pattern finishes: so long that no loaded machine turns one into a
 * timeout. The pool's default 100 ms (regex.timeoutMs) counts the worker's own time from the moment
 * it starts a pattern, so a worker the machine leaves waiting mid-evaluation (a busy 2-core runner)
 * reads as over budget: only a runaway, which can never finish, is given a short one.
 */
export const AMPLE_MS = 60_000;

export interface CountedPool {
  /** What a run uses: the main thread where it may, else `pool`. */
  evaluator: RegexEvaluator;
  pool: RegexEvaluator;
  /** Workers started so far. */
  spawned: () => number;
  /** Patterns `evaluator` handed to `pool` so far. */
  jobs: () => number;
}

/** `pool`, counting the patterns it is asked to match (`jobs`): what the main thread did not decide. */
export function countingJobs(pool: RegexEvaluator): { pool: RegexEvaluator; jobs: () => number } {
  let jobs = 0;
  return {
    pool: {
      test: (pattern, flags, text) => {
        jobs++;
        return pool.test(pattern, flags, text);
      },
      warm: (count) => pool.warm?.(count),
      close: () => pool.close(),
    },
    jobs: () => jobs,
  };
}

/** Pools to close after each test of the file that calls useCountedPools(). */
export function useCountedPools(): (timeoutMs: number) => CountedPool {
  const opened: RegexEvaluator[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((p) => p.close()));
  });
  return (timeoutMs) => {
    let spawned = 0;
    const pool = createRegexPool({
      size: 1,
      timeoutMs,
      spawnWorker: (src: string, options: WorkerOptions): Worker => {
        spawned++;
        return new RealWorker(src, options);
      },
    });
    const counted = countingJobs(pool);
    const evaluator = withInlineRegex(counted.pool);
    opened.push(evaluator, pool);
    return { evaluator, pool, spawned: () => spawned, jobs: counted.jobs };
  };
}
