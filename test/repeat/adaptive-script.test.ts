// Adaptive attempts for a persona script (docs/statistics.md, "Adaptive attempts"), in the runner
// against a real loopback agent: a script that now fails every attempt against a 9-of-10 baseline,
// `repeat: {count: 2, minPass: 1, max: 6}` (3 looks, each at 0.05 / 3). 0/2 gives pDrop 3/66 =
// 0.045, not yet called: 2 more; 0/4 gives 5/1001 = 0.005: regressed, and it stops at 4 attempts.
// A script without a baseline makes its 2 attempts and no more.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { policyOf } from '../../src/evaluate/finish.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { replay } from '../../src/replay/index.js';
import type { PersonaBaseline, PersonaScript } from '../../src/types.js';
import { startAgentServer } from '../support/agent-server.js';
import { replayOptions } from '../support/replay-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS = replayOptions({ policy: policyOf({ repeat: { count: 2, minPass: 1, max: 6 } }) });

const script = (label: string): PersonaScript => ({
  label,
  file: '.agent-replay/personas/p.yml',
  line: 1,
  persona: null,
  opening: 'I want a refund',
  followUps: [],
  maxTurns: 20,
  threshold: 0.7,
  mocks: [],
  expect: { conversations: ['refunds'], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
});

describe('adaptive attempts for a persona script', () => {
  it('an unclear drop gets count more, a clear one stops; a script without a baseline gets none', async () => {
    const server = await startAgentServer(() => ({ json: { reply: 'ask elsewhere', route: { conversation: 'other', stage: 's' } } }));
    cleanups.push(() => server.close());
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, concurrency: 8, retries: 0 });
    cleanups.push(() => agent.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const baseline: PersonaBaseline = {
      label: 'dropped',
      kind: 'persona',
      transcript: [{ message: 'I want a refund', reply: 'refunds take 30 days', route: { conversation: 'refunds', stage: 's' } }],
      visited: ['refunds'],
      outcome: null,
      verdict: 'pass',
      attempts: { passed: 9, total: 10 },
      acceptedAt: '2026-01-01T00:00:00.000Z',
      commit: null,
    };
    const run = await replay(
      { fixtures: [], personas: [script('dropped'), script('new')], baselines: { fixtures: new Map(), personas: new Map([['dropped', baseline]]) } },
      { agent, regex, judge: null, sessionId: (i) => `s-${i.label}` },
      OPTIONS,
    );
    const written = JSON.parse(JSON.stringify(run)) as unknown;
    expect(runRecordSchema.parse(written)).toEqual(written);
    const [dropped, fresh] = run.personas;
    expect(dropped?.attempts?.length).toBe(4);
    // minPass 1 of 2 is half of all attempts: 4 attempts need 2.
    expect(dropped).toMatchObject({ verdict: 'fail', repeat: { count: 4, minPass: 2, passed: 0 } });
    expect(dropped?.stats).toMatchObject({ passed: 0, total: 4, tier: 'regressed', looks: 2, maxLooks: 3 });
    expect(dropped?.stats?.pDrop).toBeCloseTo(5 / 1001, 12);
    expect(fresh?.attempts?.length).toBe(2);
    expect(fresh?.stats).toMatchObject({ total: 2, looks: 1, maxLooks: 1, tier: 'too_few' });
    // Each attempt its own session, numbered on past count.
    const sessions = server.requests.map((r) => String((r.json as { session: string }).session)).filter((s) => s.startsWith('s-dropped'));
    expect([...new Set(sessions)].sort()).toEqual(['s-dropped-1', 's-dropped-2', 's-dropped-3', 's-dropped-4']);
  });
});
