// An address as records and reports name it (src/endpoint.ts): the one cut for the agent's
// URL and every judge's address; what is hidden, what a trailing "/" means, and old records read
// as the same judge (docs/evaluations.md, "What defined each item"; docs/security.md, "Secrets").

import { describe, expect, it } from 'vitest';
import { hideEndpointTokens, looksLikeToken, sameEndpoint, urlEndpoint } from '../src/endpoint.js';
import { sameJudge } from '../src/evaluate/definition.js';
import { makeRedactor } from '../src/secrets.js';
import { createHttpAgentClient } from '../src/agent/index.js';
import { defaultConfig, JUDGE_CLIENT_DEFAULTS } from '../src/config.js';
import { createConfiguredJudge, judgeEndpointOf } from '../src/judge/index.js';
import { JUDGE_PROMPT_VERSION } from '../src/judge/prompt.js';
import { replay } from '../src/replay/index.js';
import type { Baseline } from '../src/types.js';
import { startServer } from './judge/server.js';
import { completion } from './simulator/server.js';
import { startAgentServer } from './support/agent-server.js';
import { replayOptions } from './support/replay-options.js';

describe('urlEndpoint', () => {
  it('never keeps credentials, a query or a fragment, whatever they hold', () => {
    expect(urlEndpoint('https://user:s3cret@proxy.example/v1?api-key=k3y#x')).toBe('https://proxy.example/v1');
    expect(urlEndpoint('https://sk-live-4f9aC2b7D1e8F0a3B6c5@proxy.example/v1', undefined, { base: true })).toBe('https://proxy.example/v1');
  });

  it('hides a path segment that looks like a token, configured as a secret or not', () => {
    expect(urlEndpoint('https://gw.example/key/sk-live-4f9aC2b7D1e8F0a3B6c5/v1')).toBe('https://gw.example/key/***/v1');
    expect(urlEndpoint('https://gw.example/v1/0123456789abcdef0123456789abcdef/openai')).toBe('https://gw.example/v1/***/openai');
    expect(urlEndpoint('https://hooks.example/T01ABCDEF/xoxb_AbCdEfGhIjKlMnOpQrStUvWx-yz9')).toBe('https://hooks.example/T01ABCDEF/***');
    // Percent-encoded, it is the same token.
    expect(urlEndpoint('https://gw.example/k/%73k-live-4f9aC2b7D1e8F0a3B6c5')).toBe('https://gw.example/k/***');
  });

  it('keeps names, versions and model deployments as they are', () => {
    const kept = [
      'https://api.openai.com/v1',
      'https://me.openai.azure.com/openai/deployments/gpt-4o-mini-2024-07-18',
      'https://api.example/2024-06-01/chat-completions/anthropic-claude-haiku-4-5',
      'https://hooks.example.com/agent/s3cr3t-path-token',
    ];
    for (const url of kept) expect(urlEndpoint(url)).toBe(url);
  });

  it('redacts configured secrets before it hides tokens: an address that is a secret whole reads as one ***', () => {
    expect(urlEndpoint('https://hooks.example.com/agent/s3cr3t-path-token', makeRedactor(['s3cr3t-path-token']))).toBe('https://hooks.example.com/agent/***');
    expect(urlEndpoint('https://gw.example/key/sk-live-4f9aC2b7D1e8F0a3B6c5/v1', makeRedactor(['https://gw.example/key/sk-live-4f9aC2b7D1e8F0a3B6c5/v1']))).toBe('***');
  });

  // A judge's client drops its address's trailing "/" before it appends its own path: the "/" is
  // no part of what it asks. The agent's URL is asked as written, where "/" makes another URL.
  it('drops a base address\u2019s trailing "/", and keeps the agent\u2019s', () => {
    expect(urlEndpoint('https://proxy.example/v1/', undefined, { base: true })).toBe('https://proxy.example/v1');
    expect(urlEndpoint('https://proxy.example/', undefined, { base: true })).toBe('https://proxy.example');
    expect(urlEndpoint('https://shop.example/api/chat/')).toBe('https://shop.example/api/chat/');
    expect(urlEndpoint('https://shop.example/api/chat')).toBe('https://shop.example/api/chat');
  });
});

describe('a judge\u2019s address across records', () => {
  const TOKEN = 'sk-live-4f9aC2b7D1e8F0a3B6c5';
  const fp = (endpoint?: string) => ({ model: 'openai/m', ...(endpoint !== undefined ? { endpoint } : {}), promptVersion: '3', criteria: [{ criterion: 'polite', threshold: 0.7 }] });

  it('one written before tokens were hidden is the same judge as the one written now', () => {
    expect(hideEndpointTokens(`https://gw.example/key/${TOKEN}/v1, https://api.openai.com/v1`)).toBe('https://gw.example/key/***/v1, https://api.openai.com/v1');
    expect(sameEndpoint(`https://gw.example/key/${TOKEN}/v1`, 'https://gw.example/key/***/v1')).toBe(true);
    expect(sameJudge(fp(`https://gw.example/key/${TOKEN}/v1`), fp('https://gw.example/key/***/v1'))).toBe(true);
  });

  it('another address is another judge; an unknown one is not', () => {
    expect(sameJudge(fp('https://a.example/v1'), fp('https://b.example/v1'))).toBe(false);
    expect(sameJudge(fp('https://gw.example/key/***/v1'), fp('https://gw.example/other/***/v1'))).toBe(false);
    expect(sameJudge(fp(), fp('https://b.example/v1'))).toBe(true);
    expect(sameJudge(fp('https://a.example/v1'), null)).toBe(false);
  });

  it('reads ordinary segments as no token', () => {
    for (const s of ['v1', 'chat', 'completions', '2024-06-01', 'gpt-4o-mini-2024-07-18', 'claude-3-5-sonnet-20241022', 'deployments', '']) expect(looksLikeToken(s), s).toBe(false);
  });
});

// The choice (docs/judges.md, "The judge's address"): a path segment that looks like a token is a
// credential, never part of which judge it is. Two addresses that differ only in it are one judge:
// a key rotated in a gateway's path keeps the kept results and reads as no change of judge; any
// other segment (a deployment's name) still tells two judges apart. Real servers on 127.0.0.1.
describe('two judge addresses that differ only in a token-looking path segment', () => {
  it('are one judge: the kept result judged under the old key is reused under the new one, and no key is recorded', async () => {
    const [oldKey, newKey] = ['sk-live-4f9aC2b7D1e8F0a3B6c5', 'sk-live-9Zq1Xw2Vu3Ts4Rp5On6M'];
    const judgeServer = await startServer([completion(JSON.stringify({ rationale: 'curt', score: 0.4 }))]);
    const agentServer = await startAgentServer(() => ({ json: { reply: 'You have 30 days from delivery.', route: null } }));
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: agentServer.url, start: null, concurrency: 2, retries: 0 });
    const config = { provider: 'openai' as const, baseUrl: `${judgeServer.url}/key/${newKey}/v1`, model: 'm', apiKey: 'k', ...JUDGE_CLIENT_DEFAULTS, retries: 0, label: null };
    const judge = createConfiguredJudge(config);
    const criterion = { criterion: 'The reply is polite', threshold: 0.7 };
    const kept = (label: string, endpoint: string): Baseline => ({
      label,
      reply: 'You have 30 days from delivery.',
      route: null,
      verdict: 'pass',
      acceptedAt: '2026-11-01T10:00:00.000Z',
      commit: 'a'.repeat(40),
      judge: { score: 0.8, rationale: 'polite', fingerprint: { model: 'openai/m', endpoint, promptVersion: JUDGE_PROMPT_VERSION, criteria: [criterion] } },
    });
    // Kept under the old key, as a run writes it now; as one written before tokens were hidden; at another deployment of the gateway.
    const baselines = [kept('old-key', `${judgeServer.url}/key/***/v1`), kept('old-key-raw', `${judgeServer.url}/key/${oldKey}/v1`), kept('other-path', `${judgeServer.url}/team-b/***/v1`)];
    const fixtures = baselines.map((b, i) => ({ label: b.label, message: 'returns?', persona: null, assertion: { kind: 'judge' as const, ...criterion }, file: 'f.yml', line: i + 1 }));
    try {
      const run = await replay(
        { fixtures, personas: [], baselines: { fixtures: new Map(baselines.map((b) => [b.label, b])), personas: new Map() } },
        { agent, regex: { test: async () => ({ kind: 'no_match' as const }), close: async () => undefined }, judge },
        replayOptions({ judgeModel: 'openai/m', judgeEndpoint: judgeEndpointOf(config) }),
      );
      const of = (label: string) => run.fixtures.find((f) => f.label === label);
      expect(of('old-key')?.judgeFingerprint?.endpoint).toBe(`${judgeServer.url}/key/***/v1`);
      expect(of('old-key')).toMatchObject({ verdict: 'pass', score: 0.8 });
      expect(of('old-key')?.judgeReused).toBeTruthy();
      expect(of('old-key-raw')?.judgeReused).toBeTruthy();
      // Another segment beside the key is another judge: judged again, at the new key's address.
      expect(of('other-path')).toMatchObject({ verdict: 'fail', score: 0.4 });
      expect(judgeServer.received.map((r) => r.url)).toEqual([`/key/${newKey}/v1/chat/completions`]);
      expect(JSON.stringify(run)).not.toContain(newKey);
      expect(sameJudge(of('old-key')?.judgeFingerprint ?? null, { ...(baselines[0] as Baseline).judge!.fingerprint })).toBe(true);
    } finally {
      await Promise.all([judge.close(), agent.close()]);
      await Promise.all([judgeServer.close(), agentServer.close()]);
    }
  });
});
