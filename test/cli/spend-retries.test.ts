// The spend line's retries (docs/semantics.md, "Cost"): the judge's retries count the meaning
// judge's too, so beside meaning calls they are said as both's, never as "1 judge call made
// (3 retries)" after a run whose meaning judge was rate-limited while a hosted model reworded.

import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { completion } from '../simulator/server.js';
import { json, startServer, type TestServer } from '../judge/server.js';
import { agentConfig, baseline, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

/** A hosted model: each message gets another wording of the baseline's facts. */
const rewording: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
  const replies: Record<string, string> = {
    returns: 'You have 30 days to send an item back.',
    hours: 'We open at 9 and close at 17.',
    cards: 'Our gift cards have no expiry date.',
  };
  return { json: { reply: replies[String(body.message)] ?? '?', route: null, ended: false } };
};

async function judgeServer(): Promise<TestServer> {
  // Three 429s, then the same meaning (and a passing score for the criterion) every time.
  const limited = json(429, { error: { message: 'rate limited' } }, { 'retry-after': '0' });
  const answer = completion('{"difference": "", "rationale": "says so", "score": 0.95}');
  return startServer([limited, limited, limited, answer]);
}

describe('spend: retries of the judge and of the meaning judge', () => {
  it('are said once, as both kinds of calls, after the meaning calls', async () => {
    const agent = await serve(rewording);
    const judge = await judgeServer();
    const cwd = await makeProject({
      config: `${agentConfig(agent.url, '  concurrency: 1\n')}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 3, backoffMs: 0, concurrency: 1 }\ncost: { capUsd: 1 }\n`,
      fixtures: {
        'f.yml': [
          'fixtures:',
          '  - { label: returns, message: returns }',
          '  - { label: hours, message: hours }',
          '  - { label: cards, message: cards, assert: { judge: "It says whether gift cards expire." } }',
          '',
        ].join('\n'),
      },
      baselines: [
        baseline('returns', 'Returns are accepted within 30 days.', null, 'pass'),
        baseline('hours', 'We are open from 9 to 17.', null, 'pass'),
        baseline('cards', 'Gift cards never expire.', null, 'pass'),
      ],
    });
    const r = await cli(['run', '--out', 'r.json'], cwd);
    await judge.close();
    expect(r.stdout).toContain('Reworded (3)');
    const line = r.stdout.split('\n').find((l) => l.includes('estimated')) ?? '';
    expect(line).toContain('1 judge call made, meaning: 3 calls made, 3 retries of judge and meaning calls');
    expect(line).not.toMatch(/judge call made \(/);
  });
});
