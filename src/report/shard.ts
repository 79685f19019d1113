// The one line that says which shard a run replayed (docs/action.md#shards-one-suite-over-a-ci-matrix), for the terminal and the job log.

import type { ShardRun } from '../types.js';
import { thousands } from './model.js';

/** "shard 2/4: 1,250 of 5,000 items (balanced by the durations of a previous run)". */
export function shardLine(s: ShardRun): string {
  const how = s.method === 'timings' ? 'balanced by the durations of a previous run' : 'chosen by a hash of each label';
  return `shard ${s.index}/${s.total}: ${thousands(s.items)} of ${thousands(s.of)} ${s.of === 1 ? 'item' : 'items'} (${how})`;
}
