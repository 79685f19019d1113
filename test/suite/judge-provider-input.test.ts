// The Action's judge-provider input choosing another provider than config.yml's judge
// (docs/judges.md, "The judge-provider input"): which of config.yml's address and key the new
// judge keeps, said before any call, and where the calls really go (a real judge server).
import { afterEach, describe, expect, it } from 'vitest';
import { createJudge } from '../../src/judge/index.js';
import { meaningRunConfig } from '../../src/judge/meaning-config.js';
import { simulatorConfig } from '../../src/simulator/config.js';
import { JUDGE_DEFAULTS, panelMembers } from '../../src/config.js';
import { C, OK_FIXTURE, brief, load } from './helpers.js';
import { json, startServer, type TestServer } from '../judge/server.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const F = '.agent-replay/fixtures';
const anthropicAnswer = json(200, { content: [{ type: 'text', text: '{"rationale": "ok", "score": 0.9}' }], stop_reason: 'end_turn' });

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the judge-provider input switches the judge to another provider', () => {
  it('keeps config.yml\'s proxy address and its key, says so at judge.baseUrl before any call, and the call goes to the proxy in the new provider\'s form', async () => {
    server = await startServer([anthropicAnswer]);
    const config = `judge:\n  provider: openai\n  baseUrl: ${server.url}/v1/\n  apiKey: \${PROXY_KEY}\n`;
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config }, { env: { PROXY_KEY: 'proxy-key-1' }, overrides: { judge: { provider: 'anthropic' } } });
    expect(r.errors).toEqual([]);
    const origin = new URL(server.url).origin;
    expect(brief(r.warnings)).toEqual([
      `${C}:3: judge.baseUrl ${origin} is kept for anthropic, the judge-provider input's provider (config.yml's judge is openai): the judge's calls go there in anthropic's API form, not to anthropic's own API`,
    ]);
    quotedAndSaid(r.warnings[0]!.message, "judge.baseUrl https://gw.example is kept for anthropic, the judge-provider input's provider (config.yml's judge is openai): ...", { 'https://gw.example': origin });
    expect(r.warnings[0]!.fix).toBe('give the judge\'s address with the judge-base-url input (https://api.anthropic.com/v1 is anthropic\'s own API), or remove the judge-provider input if that address serves only openai');
    const judge = r.suite!.config.judge!;
    expect(judge).toMatchObject({ provider: 'anthropic', baseUrl: `${server.url}/v1`, apiKey: 'proxy-key-1', model: JUDGE_DEFAULTS.anthropic.model });

    expect(await createJudge(judge).score('polite', 'hello')).toMatchObject({ ok: true, score: 0.9 });
    expect(server.received.map((q) => q.url)).toEqual(['/v1/messages']);
    expect(server.received[0]!.headers['x-api-key']).toBe('proxy-key-1');

    // The same address given by the judge-base-url input: chosen, so not warned about; the key still goes there.
    const given = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config }, { env: { PROXY_KEY: 'proxy-key-1' }, overrides: { judge: { provider: 'anthropic', baseUrl: `${server.url}/v1` } } });
    expect(given.warnings).toEqual([]);
    expect(given.suite!.config.judge).toMatchObject({ baseUrl: `${server.url}/v1`, apiKey: 'proxy-key-1' });
  });

  it('never sends config.yml\'s key for the old provider\'s own API to the new provider: said at judge.apiKey, naming the judge-api-key input', async () => {
    const config = 'judge:\n  provider: openai\n  apiKey: ${OPENAI_API_KEY}\n';
    const env = { OPENAI_API_KEY: 'sk-openai-only-1' };
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config }, { env, overrides: { judge: { provider: 'anthropic' } } });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.judge).toMatchObject({ provider: 'anthropic', baseUrl: JUDGE_DEFAULTS.anthropic.baseUrl, apiKey: null });
    expect(brief(r.warnings)).toEqual([
      `${C}:3: judge.apiKey of config.yml is openai's key: it is not sent to anthropic, the judge-provider input's provider (config.yml's judge is openai), and anthropic will refuse the calls, so judge assertions are not evaluated`,
    ]);
    quotedAndSaid(r.warnings[0]!.message, "judge.apiKey of config.yml is openai's key: it is not sent to anthropic, the judge-provider input's provider (config.yml's judge is openai), and anthropic will refuse the calls, ...");
    expect(r.warnings[0]!.fix).toBe('give anthropic\'s key with the judge-api-key input (judge-api-key: ${{ secrets.ANTHROPIC_API_KEY }}), or remove the judge-provider input to judge with openai');

    // With the judge-api-key input: the input's key, nothing to say.
    const keyed = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config }, { env, overrides: { judge: { provider: 'anthropic', apiKey: 'sk-ant-1' } } });
    expect(keyed.warnings).toEqual([]);
    expect(keyed.suite!.config.judge!.apiKey).toBe('sk-ant-1');

    // With a panel, the members that take the judge's key are named too.
    const panel = await load(
      { [`${F}/a.yml`]: OK_FIXTURE, [C]: `${config}  panel:\n    - { model: a }\n    - { model: b }\n    - { model: c }\n` },
      { env, overrides: { judge: { provider: 'anthropic' } } },
    );
    expect(panel.warnings.map((w) => w.message)).toEqual([
      "judge.apiKey of config.yml is openai's key: it is not sent to anthropic, the judge-provider input's provider (config.yml's judge is openai), and anthropic will refuse the judge's calls and those of the panel members that take its key",
    ]);
  });

  it('at the judge-base-url input\'s address, config.yml\'s key for another provider is not sent either: the call carries none', async () => {
    server = await startServer([anthropicAnswer]);
    const r = await load(
      { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  apiKey: ${OPENAI_API_KEY}\n' },
      { env: { OPENAI_API_KEY: 'sk-openai-only-2' }, overrides: { judge: { provider: 'anthropic', baseUrl: `${server.url}/v1` } } },
    );
    expect(brief(r.warnings)).toEqual([
      `${C}:2: judge.apiKey of config.yml is openai's key: it is not sent to ${new URL(server.url).origin} (the judge-provider input's anthropic, at the judge-base-url input's address), so the judge's calls carry no key`,
    ]);
    const judge = r.suite!.config.judge!;
    expect(judge.apiKey).toBeNull();
    expect(await createJudge(judge).score('polite', 'hello')).toMatchObject({ ok: true });
    expect(server.received[0]!.headers['x-api-key']).toBeUndefined();
    expect(JSON.stringify(server.received[0]!.headers)).not.toContain('sk-openai-only-2');
  });

  it('a panel member that names config.yml\'s provider keeps the address, model and key it took from config.yml\'s judge; the others follow the new judge', async () => {
    const r = await load(
      {
        [`${F}/a.yml`]: OK_FIXTURE,
        [C]: 'judge:\n  model: gpt-4.1-mini\n  apiKey: ${OPENAI_API_KEY}\n  panel:\n    - { model: claude-a }\n    - { model: claude-b }\n    - { provider: openai }\n',
      },
      { env: { OPENAI_API_KEY: 'sk-openai-only-3' }, overrides: { judge: { provider: 'anthropic', apiKey: 'sk-ant-3' } } },
    );
    expect(r.warnings).toEqual([]);
    const members = panelMembers(r.suite!.config.judge!)!.map((m) => ({ provider: m.provider, baseUrl: m.baseUrl, model: m.model, apiKey: m.apiKey }));
    expect(members).toEqual([
      { provider: 'anthropic', baseUrl: JUDGE_DEFAULTS.anthropic.baseUrl, model: 'claude-a', apiKey: 'sk-ant-3' },
      { provider: 'anthropic', baseUrl: JUDGE_DEFAULTS.anthropic.baseUrl, model: 'claude-b', apiKey: 'sk-ant-3' },
      { provider: 'openai', baseUrl: JUDGE_DEFAULTS.openai.baseUrl, model: 'gpt-4.1-mini', apiKey: 'sk-openai-only-3' },
    ]);
  });

  it('the meaning judge and the simulator that name config.yml\'s provider keep its address, model and key; without a provider of their own they follow the new judge', async () => {
    const files = (section: string) => ({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `judge:\n  model: gpt-4.1-mini\n  apiKey: \${OPENAI_API_KEY}\n${section}` });
    const opts = { env: { OPENAI_API_KEY: 'sk-openai-only-4' }, overrides: { judge: { provider: 'anthropic' as const, apiKey: 'sk-ant-4' } } };
    const pick = (j: { provider: string; baseUrl: string; model: string; apiKey: string | null } | null) => j && { provider: j.provider, baseUrl: j.baseUrl, model: j.model, apiKey: j.apiKey };
    const openai = { provider: 'openai', baseUrl: JUDGE_DEFAULTS.openai.baseUrl, model: 'gpt-4.1-mini', apiKey: 'sk-openai-only-4' };
    const named = await load(files('meaning:\n  check: judge\n  provider: openai\nsimulator:\n  provider: openai\n'), opts);
    expect(named.errors).toEqual([]);
    expect(pick(meaningRunConfig(named.suite!.config).judge)).toEqual(openai);
    expect(pick(simulatorConfig(named.suite!.config))).toEqual(openai);
    const following = await load(files('meaning:\n  check: judge\nsimulator:\n  model: claude-sim\n'), opts);
    expect(pick(meaningRunConfig(following.suite!.config).judge)).toEqual({ provider: 'anthropic', baseUrl: JUDGE_DEFAULTS.anthropic.baseUrl, model: JUDGE_DEFAULTS.anthropic.model, apiKey: 'sk-ant-4' });
    expect(pick(simulatorConfig(following.suite!.config))).toEqual({ provider: 'anthropic', baseUrl: JUDGE_DEFAULTS.anthropic.baseUrl, model: 'claude-sim', apiKey: 'sk-ant-4' });
  });

  it('config.yml\'s judge at its provider\'s own API and no key: the new provider\'s own API, and the warning names the provider in use', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  provider: anthropic\n' }, { overrides: { judge: { provider: 'openai' } } });
    expect(r.suite!.config.judge).toMatchObject({ provider: 'openai', baseUrl: JUDGE_DEFAULTS.openai.baseUrl, apiKey: null });
    expect(brief(r.warnings)).toEqual([
      `${C}:2: judge.apiKey is not set: openai (the judge-provider input; config.yml's judge is anthropic) will refuse the calls, so judge assertions are not evaluated`,
    ]);
  });
});
