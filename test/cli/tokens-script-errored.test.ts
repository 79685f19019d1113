// A persona script's tokens when a turn is answered without a usable reply (docs/latency.md,
// "Usage"): the turn is the script's error, and what its response reported is spent, as an errored
// fixture keeps the tokens of the turns the agent answered. Through `agent-replay run` against a
// real loopback agent.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

describe('a persona script that errors on an answered turn', () => {
  it("keeps that turn's tokens in the script's and the run's usage", async () => {
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as { start?: boolean; message?: string };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, usage: { inputTokens: 10, outputTokens: 0 } } };
      if (body.message === 'I want a refund') return { json: { reply: 'Which order?', route: null, usage: { inputTokens: 20, outputTokens: 5 } } };
      // The follow-up is answered, its tokens reported, but with no reply field: missing_reply.
      return { json: { route: null, usage: { inputTokens: 30, outputTokens: 7 } } };
    });
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      personas: { 'p.yml': 'personas:\n  - label: refund\n    opening: I want a refund\n    followUps: [ "Order 1234" ]\n    expect: { reply: [ { contains: order } ] }\n' },
    });
    await cli(['run', '--out', 'results.json'], cwd);
    const record = await readResults(join(cwd, 'results.json'));
    const script = record.personas?.[0];
    expect(script).toMatchObject({ label: 'refund', errored: true, errorKind: 'missing_reply' });
    expect(script?.turns.map((t) => t.usage)).toEqual([{ inputTokens: 10, outputTokens: 0 }, { inputTokens: 20, outputTokens: 5 }]);
    // Three turns answered, three reported their tokens.
    expect(record.spend).toMatchObject({ agentTurns: 3 });
    expect(script?.usage).toEqual({ inputTokens: 60, outputTokens: 12 });
    expect(record.usage).toEqual({ inputTokens: 60, outputTokens: 12 });
  });
});
