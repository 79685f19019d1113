// compare over two runs of a hosted model against one baseline (docs/evaluations.md#compare): the
// agent rewords every reply, so the later run's reply differs from the earlier's everywhere; where
// the later changed a fact against the baseline, compare names that fact beside the replies.

import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { completion } from '../simulator/server.js';
import { startServer } from '../judge/server.js';
import { agentConfig, baseline, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

const BASELINE = 'Returns are accepted within 30 days. The full price goes back to the card or account you paid with.';

describe('compare, two runs against one baseline', () => {
  it('names the fact the later run changed against the baseline, not only a snippet of the replies', async () => {
    let days = 30;
    let call = 0;
    // A hosted model: its opening words differ on every call, so the snippet of two runs starts there.
    const agent: AgentHandler = (req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
      const opening = ['Happy to help.', 'Sure!'][call++ % 2] as string;
      return { json: { reply: `${opening} Refunds go to your original payment method, in full, and you have ${days} days from delivery.`, route: null, ended: false } };
    };
    const server = await serve(agent);
    const judge = await startServer([completion('{"difference": "", "score": 0.95}')]);
    const cwd = await makeProject({
      config: `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns? }\n' },
      baselines: [baseline('returns', BASELINE, null, 'pass')],
    });
    const first = await cli(['run', '--out', 'a.json'], cwd);
    expect(first.stdout).toContain('Reworded (1)');
    days = 14;
    const second = await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await judge.close();
    expect(second.stdout).toContain('changed in meaning: numbers 30 → 14');
    const r = await cli(['compare', 'a.json', 'b.json', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.includes('returns')) ?? '';
    expect(line).toContain('reply changed: ');
    expect(line).toContain('; against the baseline: changed in meaning: numbers 30 → 14');
  });
});
