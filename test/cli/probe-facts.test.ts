// `agent-replay probe`'s facts line, at the function that makes it (src/cli/probe.ts, probeFacts):
// no CLI started. The time it gives is the reply's latency, the one a latency check reads
// (docs/latency.md), in the words every surface uses, with the welcome turn's beside it.

import { describe, expect, it } from 'vitest';
import { probeFacts } from '../../src/cli/probe.js';
import { fixture } from '../report/fixtures.js';

const facts = (over: Parameters<typeof fixture>[1]): string => probeFacts({ session: 'agent-replay-probe-1', agentHost: '127.0.0.1:3000', record: fixture('probe', over) });

describe('probe: the facts line', () => {
  it("names the reply's latency, the message turn's, apart from the welcome turn's", () => {
    // Before: "1294 ms", the item's wall time, welcome turn and all: a maxLatencyMs of 1,000 would
    // have read as failing a reply that took 614 ms.
    expect(facts({ latencyMs: 614, welcomeLatencyMs: 608, durationMs: 1294 })).toBe('session agent-replay-probe-1 · agent 127.0.0.1:3000 · reply in 614 ms (welcome turn 608 ms)');
    expect(facts({ latencyMs: 1950, welcomeLatencyMs: null, durationMs: 1960 })).toBe('session agent-replay-probe-1 · agent 127.0.0.1:3000 · reply in 2.0 s');
  });

  it('a probe with no measured reply (errored) gives its time in all, in the same words', () => {
    expect(facts({ latencyMs: undefined, welcomeLatencyMs: undefined, durationMs: 1294, errored: true })).toBe('session agent-replay-probe-1 · agent 127.0.0.1:3000 · 1.3 s in all');
  });
});
