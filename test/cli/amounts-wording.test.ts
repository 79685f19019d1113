// An amount written with its currency's word is that amount (docs/meaning.md, "Facts"), end to end
// through the real CLI (`run`, `accept`) with an agent and a meaning judge on 127.0.0.1: an agent
// that writes one shipping cost as "$5" or as "5 dollars" by a seeded choice, as a hosted model
// does, is reworded, run after run, and its repeated item's mixed attempts are accepted; "$5"
// against "7 dollars" is still a changed amount.

import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunRecord } from '../../src/types.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import type { AgentHandler } from '../support/agent-server.js';
import { cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

const SIGN = 'Shipping costs $5.';
const WORD = 'Shipping costs 5 dollars.';

/** The run's seed picks the single item's wording; a repeated item's attempts alternate; the price goes from $5 to 7 dollars after run 1. */
function agent(state: { seed: number; run: number }): AgentHandler {
  return (req) => {
    const body = (req.json ?? {}) as { start?: boolean; message?: string; session?: string };
    if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
    const attempt = Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '1');
    const replies: Record<string, string> = {
      shipping: state.seed % 2 === 1 ? SIGN : WORD,
      'shipping again': attempt % 2 === 1 ? SIGN : WORD,
      price: state.run === 1 ? 'The lamp is $5.' : 'The lamp is 7 dollars.',
    };
    return { json: { reply: replies[String(body.message)] ?? '?', route: null, ended: false } };
  };
}

/** A meaning judge that finds the same meaning in every pair it is asked about (the facts decide the rest). */
async function judge(): Promise<TestServer> {
  const server = await startServer([
    (res, req: Received) => {
      const body = req.body as { response_format?: { json_schema?: { name?: string } } };
      const content = body.response_format?.json_schema?.name === 'meaning_verdict' ? '{"difference": "", "score": 0.95}' : '{"rationale": "fine", "score": 0.9}';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    },
  ]);
  return server;
}

const FIXTURES = `fixtures:
  - { label: shipping, message: shipping }
  - { label: shipping-repeat, message: shipping again, repeat: { count: 2 } }
  - { label: price, message: price }
`;

/** Every meaning the record holds for an item: its drift's and its attempts'. */
function meaningsOf(record: RunRecord, label: string): string[] {
  const f = record.fixtures.find((x) => x.label === label);
  return [f?.drift?.meaning?.value, ...(f?.attempts ?? []).map((a) => a.meaning?.value)].filter((v): v is NonNullable<typeof v> => v !== undefined);
}

describe('"$5" and "5 dollars" from an unchanged agent', () => {
  it('are reworded run after run and accepted when mixed in one run; "$5" against "7 dollars" is a changed amount', async () => {
    const state = { seed: 1, run: 1 };
    const agentServer = await serve(agent(state));
    const judgeServer = await judge();
    onTestFinished(() => judgeServer.close());
    const cwd = await makeProject({
      config:
        `agent:\n  url: ${agentServer.url}\n  retries: 0\n  backoffMs: 0\n` +
        `judge: { provider: openai, baseUrl: "${judgeServer.url}", model: judge-model, apiKey: k, retries: 0, backoffMs: 0 }\n` +
        `cost: { capUsd: 1 }\nlatency: { minDeltaMs: 600000 }\n`,
      fixtures: { 'f.yml': FIXTURES },
    });
    const run = async (n: number): Promise<RunRecord> => {
      const r = await cli(['run', '--out', `r${n}.json`, '--fail-on', 'none'], cwd);
      expect(r.code, r.stderr).toBe(0);
      return readResults(join(cwd, `r${n}.json`));
    };

    // Run 1: the repeated item's attempts say "$5" and "5 dollars": the same amount, so accepted.
    const first = await run(1);
    expect(meaningsOf(first, 'shipping-repeat')).not.toContain('changed');
    const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('3 accepted, 0 refused');

    // Two runs more, with other seeds: the wording moves, the meaning does not.
    for (const [n, seed] of [[2, 2], [3, 4]] as const) {
      state.run = n;
      state.seed = seed;
      const record = await run(n);
      for (const label of ['shipping', 'shipping-repeat']) expect(meaningsOf(record, label), `run ${n}, ${label}`).not.toContain('changed');
      expect(record.fixtures.find((f) => f.label === 'shipping')?.reply).toBe(WORD);
      expect(record.fixtures.find((f) => f.label === 'shipping')?.drift?.meaning).toMatchObject({ value: 'reworded' });
      // The price did change: "$5" against "7 dollars", amounts 5 -> 7, named as the reply wrote them (neither says USD).
      expect(record.fixtures.find((f) => f.label === 'price')?.drift?.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'amounts $ 5 \u2192 dollars 7' });
    }
  });
});
