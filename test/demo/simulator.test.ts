// The demo simulator (src/demo/simulator.ts) on the demo server: it answers the product's own
// simulator client from the goal and the user turns so far, and plays the demo agent's refund flow
// to its end; the judge's requests on the same endpoint still reach the demo judge.
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { createSimulator } from '../../src/simulator/index.js';
import { createJudge } from '../../src/judge/index.js';
import type { JudgeConfig } from '../../src/config.js';
import type { Turn } from '../../src/types.js';

let server: DemoServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const turn = (index: number, message: string, reply: string): Turn => ({ index, message, reply, route: null, offTrack: [], toolCalls: null, outcome: null, errors: [], durationMs: 0 });

describe('demo simulator', () => {
  it('plays the refund goal turn by turn, then is done when the agent refunded', async () => {
    server = await startDemoServer();
    const config: JudgeConfig = { provider: 'openai', baseUrl: server.judgeBaseUrl, model: 'demo', apiKey: null, timeoutMs: 5000, retries: 0, backoffMs: 1, concurrency: 1, label: null };
    const sim = createSimulator(config);
    const ask = (transcript: Turn[]) => sim.next({ goal: 'Get a refund for order 4321, which arrived broken.', instructions: null, persona: null, turn: transcript.length + 1, maxTurns: 6, transcript });
    expect(await ask([])).toMatchObject({ kind: 'message', message: 'I want my money back' });
    const t1 = turn(1, 'I want my money back', 'What is your order number?');
    expect(await ask([t1])).toMatchObject({ kind: 'message', message: 'Order 4321' });
    const t2 = turn(2, 'Order 4321', 'What went wrong with it?');
    expect(await ask([t1, t2])).toMatchObject({ kind: 'message', message: 'It arrived broken' });
    expect(await ask([t1, t2, turn(3, 'It arrived broken', 'I have refunded 80 EUR for order 4321.')])).toEqual({ kind: 'done', reason: 'goal reached: the agent refunded the order', retries: 0 });
    // The judge on the same endpoint is still the judge.
    const judge = createJudge(config);
    expect(await judge.score('Stayed empathetic', 'I am so sorry.')).toMatchObject({ ok: true, score: 0.9 });
    await sim.close();
    await judge.close();
  });
});
