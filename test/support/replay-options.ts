// The options of replay() (src/replay/index.ts) for the tests that call it in process: an estimate
// under its cap, no commit, no agent host, no judge; a test sets what it is about (its concurrency,
// a repeat policy) in `over`.

import type { ReplayOptions } from '../../src/replay/index.js';

export function replayOptions(over: Partial<ReplayOptions> = {}): ReplayOptions {
  return {
    concurrency: 3,
    estimate: { usd: 0, capUsd: 0.1, aboveCap: false, confirmed: false },
    commit: null,
    tool: { name: 'agent-replay', version: 'test' },
    agentHost: null,
    judgeName: null,
    ...over,
  };
}
