// `meaning:` of config.yml (docs/meaning.md, "Configuration"): its keys, every error at once with
// file:line, and the meaning judge a run gets from it and the judge.
import { describe, expect, it } from 'vitest';
import { meaningRunConfig } from '../../src/judge/meaning-config.js';
import { meaningCheckOf } from '../../src/suite/meaning-config.js';
import { brief, C, F, load, OK_FIXTURE } from './helpers.js';

const JUDGE = 'judge: { provider: openai, baseUrl: "http://127.0.0.1:1/v1", model: j, apiKey: "${K}" }\n';

describe('meaning: in config.yml', () => {
  it('keeps the keys given; the model keys not given are the judge\u2019s when the run starts', async () => {
    const r = await load({ [C]: `${JUDGE}meaning:\n  check: judge\n  threshold: 0.9\n  model: cheap-model\n`, [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567' } });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.meaning).toEqual({ check: 'judge', threshold: 0.9, model: 'cheap-model' });
    expect(meaningRunConfig(r.suite!.config)).toEqual({
      check: 'judge',
      threshold: 0.9,
      judge: { provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'cheap-model', apiKey: 'judge-key-1234567', timeoutMs: 30_000, retries: 2, backoffMs: 250, concurrency: 4, label: null },
    });
  });

  it('another provider never gets the judge\u2019s key, and starts from its own address and model', async () => {
    const r = await load({ [C]: `${JUDGE}meaning: { provider: anthropic }\n`, [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567' } });
    expect(meaningRunConfig(r.suite!.config).judge).toMatchObject({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', apiKey: null });
    const own = await load({ [C]: `${JUDGE}meaning: { provider: anthropic, apiKey: "\${A}" }\n`, [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567', A: 'anthropic-key-7654321' } });
    expect(meaningRunConfig(own.suite!.config).judge).toMatchObject({ provider: 'anthropic', apiKey: 'anthropic-key-7654321' });
    expect(own.suite!.config.secrets).toContain('anthropic-key-7654321');
  });

  it('defaults: judge when a judge is configured, facts (no model call) without one; off asks nothing', async () => {
    const judged = await load({ [C]: JUDGE, [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567' } });
    expect(meaningRunConfig(judged.suite!.config)).toMatchObject({ check: 'judge', threshold: 0.8, judge: { model: 'j', apiKey: 'judge-key-1234567' } });
    const none = await load({ [`${F}/ok.yml`]: OK_FIXTURE });
    expect(meaningRunConfig(none.suite!.config)).toEqual({ check: 'facts', threshold: 0.8, judge: null });
    const off = await load({ [C]: `${JUDGE}meaning: { check: off }\n`, [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567' } });
    expect(meaningRunConfig(off.suite!.config)).toEqual({ check: 'off', threshold: 0.8, judge: null });
    const facts = await load({ [C]: `${JUDGE}meaning: { check: facts }\n`, [`${F}/ok.yml`]: OK_FIXTURE }, { env: { K: 'judge-key-1234567' } });
    expect(meaningRunConfig(facts.suite!.config).judge).toBeNull();
    // A meaning section with a model of its own and no judge: the meaning judge is that model.
    const alone = await load({ [C]: 'meaning: { provider: anthropic, apiKey: k-1234567890 }\n', [`${F}/ok.yml`]: OK_FIXTURE });
    expect(meaningCheckOf(alone.suite!.config)).toBe('judge');
    expect(meaningRunConfig(alone.suite!.config).judge).toMatchObject({ provider: 'anthropic', apiKey: 'k-1234567890', model: 'claude-haiku-4-5' });
  });

  it('the demo judge\u2019s label names the meaning judge when it is the judge\u2019s model', () => {
    const judge = { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:1/v1', model: 'demo', apiKey: null, timeoutMs: 1000, retries: 0, backoffMs: 0, concurrency: 2, label: 'demo judge (not a real model)' };
    expect(meaningRunConfig({ judge }).judge?.label).toBe('demo meaning judge (not a real model)');
    expect(meaningRunConfig({ judge, meaning: { model: 'other' } }).judge?.label).toBeNull();
  });

  it('reports every error at once, each with file:line', async () => {
    const r = await load({ [C]: 'meaning:\n  check: sometimes\n  threshold: 2\n  modle: x\n', [`${F}/ok.yml`]: OK_FIXTURE });
    expect(brief(r.errors)).toEqual([
      `${C}:2: meaning.check must be one of judge, facts, off, found the string "sometimes"`,
      `${C}:3: meaning.threshold must be a score from 0 to 1 (the meaning judge's score needed for reworded; 0.8 when not set), found the number 2`,
      `${C}:4: unknown key "modle" in meaning; allowed keys: check, threshold, provider, baseUrl, model, apiKey`,
    ]);
    // A base address that is no http(s) URL is reported beside another section's shape error.
    const both = await load({ [C]: 'judge: { modle: x }\nmeaning:\n  baseUrl: "ftp://judge.example"\n', [`${F}/ok.yml`]: OK_FIXTURE });
    expect(brief(both.errors)).toEqual([`${C}:1: unknown key "modle" in judge; allowed keys: provider, baseUrl, model, apiKey, timeoutMs, retries, backoffMs, concurrency, label, panel`, `${C}:3: meaning.baseUrl "ftp://judge.example" uses ftp, not http or https`]);
  });
});
