// Structured output against real loopback judge servers: every call carries the provider's schema
// mechanism; an endpoint that refuses it gets exactly one refused call, then plain calls.
import { describe, expect, it } from 'vitest';
import type { JudgeConfig } from '../../src/config.js';
import { createJudge, isRefusal, JUDGE_SYSTEM_PROMPT, VERDICT_SCHEMA, VERDICT_TOOL } from '../../src/judge/index.js';
import type { Clock } from '../../src/types.js';
import { json, serversPerTest, type Received, type Responder } from './server.js';

const API_KEY = 'sk-structured-secret-456';

const { serve, closeAfter } = serversPerTest();

const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };

function judge(provider: JudgeConfig['provider'], baseUrl: string) {
  const cfg: JudgeConfig = { provider, baseUrl, model: 'judge-model-1', apiKey: API_KEY, timeoutMs: 2000, retries: 2, backoffMs: 100, concurrency: 1, label: null };
  const j = createJudge(cfg, { clock, random: () => 0.5 });
  closeAfter(() => j.close());
  return j;
}

type Body = Record<string, unknown>;
const bodyOf = (r: Received | undefined): Body => (r?.body ?? {}) as Body;
const isStructuredOpenai = (b: Body): boolean => 'response_format' in b;
const isStructuredAnthropic = (b: Body): boolean => 'tools' in b || 'tool_choice' in b;

/** An OpenAI-compatible server: the verdict as JSON content, or 400 to a response_format when `refuse`. */
function openaiServer(refuse: { status: number; body: unknown } | null): Responder {
  return (res, req) => {
    if (refuse && isStructuredOpenai(bodyOf(req))) return json(refuse.status, refuse.body)(res, req);
    json(200, { choices: [{ index: 0, message: { role: 'assistant', content: '{"rationale": "Polite and clear.", "score": 0.8}' } }] })(res, req);
  };
}

/** An Anthropic server: a tool_use block when asked for the tool, a text block otherwise (or 400 when `refuse`). */
function anthropicServer(refuse: { status: number; body: unknown } | null): Responder {
  return (res, req) => {
    const b = bodyOf(req);
    if (isStructuredAnthropic(b)) {
      if (refuse) return json(refuse.status, refuse.body)(res, req);
      return json(200, {
        content: [{ type: 'tool_use', id: 'toolu_1', name: VERDICT_TOOL, input: { rationale: 'Apologises, offers a refund.', score: 0.9 } }],
        stop_reason: 'tool_use',
      })(res, req);
    }
    json(200, { content: [{ type: 'text', text: '{"rationale": "Plain answer.", "score": 0.6}' }], stop_reason: 'end_turn' })(res, req);
  };
}

describe('openai-compatible judge, structured output', () => {
  it('sends a strict json_schema response_format on every call and reads the verdict', async () => {
    const s = await serve(openaiServer(null));
    const j = judge('openai', s.url);
    expect(await j.score('polite', 'hello')).toEqual({ ok: true, score: 0.8, rationale: 'Polite and clear.' });
    expect((await j.scoreTranscript('polite', [{ index: 0, message: null, reply: 'hi', toolCalls: [] }] as never)).ok).toBe(true);
    expect(s.received).toHaveLength(2);
    for (const r of s.received) {
      expect(bodyOf(r).response_format).toEqual({
        type: 'json_schema',
        json_schema: {
          name: VERDICT_TOOL,
          strict: true,
          schema: { type: 'object', properties: { rationale: { type: 'string' }, score: { type: 'number' } }, required: ['rationale', 'score'], additionalProperties: false },
        },
      });
    }
    expect(j.structuredOutput()).toEqual({ structured: true });
  });

  it('falls back once per run when the endpoint refuses response_format: one refused call, then plain calls, verdicts still out', async () => {
    const refusal = { status: 400, body: { error: { message: "Unrecognized request argument supplied: response_format", type: 'invalid_request_error', param: 'response_format' } } };
    const s = await serve(openaiServer(refusal));
    const j = judge('openai', s.url);
    const results = [await j.score('polite', 'a'), await j.score('polite', 'b'), await j.score('polite', 'c')];
    expect(results).toEqual(Array(3).fill({ ok: true, score: 0.8, rationale: 'Polite and clear.' }));
    const structured = s.received.map((r) => isStructuredOpenai(bodyOf(r)));
    // The first call is refused and sent again plain at once; the two later calls are plain.
    expect(structured).toEqual([true, false, false, false]);
    expect(bodyOf(s.received[1]).messages).toEqual(bodyOf(s.received[0]).messages);
    expect((bodyOf(s.received[1]).messages as { content: string }[])[0]?.content).toBe(JUDGE_SYSTEM_PROMPT);
    const status = j.structuredOutput();
    expect(status.structured).toBe(false);
    expect(status.structured === false && status.reason).toBe('HTTP 400: Unrecognized request argument supplied: response_format');
  });

  it('with concurrency 1 and calls queued for the slot, only the first call is refused: the mode is read when a call is sent', async () => {
    const refusal = { status: 400, body: { error: { message: 'Unrecognized request argument supplied: response_format' } } };
    let refused = 0;
    const s = await serve((res, req) => {
      if (isStructuredOpenai(bodyOf(req))) refused++;
      openaiServer(refusal)(res, req);
    });
    const j = judge('openai', s.url);
    // All three wait for the one slot before the first is refused.
    const results = await Promise.all([j.score('polite', 'a'), j.score('polite', 'b'), j.score('polite', 'c')]);
    expect(results).toEqual(Array(3).fill({ ok: true, score: 0.8, rationale: 'Polite and clear.' }));
    expect(refused).toBe(1);
    expect(s.received.map((r) => isStructuredOpenai(bodyOf(r)))).toEqual([true, false, false, false]);
    expect(j.structuredOutput().structured).toBe(false);
  });

  it('does not fall back on a 400 that does not name the mechanism: the call fails as before', async () => {
    const s = await serve(json(400, { error: { message: 'model not found' } }));
    const j = judge('openai', s.url);
    expect(await j.score('polite', 'a')).toEqual({ ok: false, reason: 'HTTP 400: model not found' });
    expect(s.received).toHaveLength(1);
    expect(j.structuredOutput()).toEqual({ structured: true });
  });

  it('says when the model declines instead of answering (message.refusal)', async () => {
    const s = await serve(json(200, { choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }] }));
    expect(await judge('openai', s.url).score('polite', 'a')).toEqual({ ok: false, reason: 'the judge model declined: "I cannot help with that."', answered: true });
  });
});

describe('anthropic judge, structured output', () => {
  it('forces the verdict tool on every call and reads the score from the tool_use input', async () => {
    const s = await serve(anthropicServer(null));
    const j = judge('anthropic', s.url);
    expect(await j.score('remedy', 'sorry, refund')).toEqual({ ok: true, score: 0.9, rationale: 'Apologises, offers a refund.' });
    expect(await j.score('remedy', 'again')).toEqual({ ok: true, score: 0.9, rationale: 'Apologises, offers a refund.' });
    for (const r of s.received) {
      const b = bodyOf(r);
      expect(b.tools).toEqual([{ name: VERDICT_TOOL, description: expect.any(String) as string, input_schema: VERDICT_SCHEMA }]);
      expect(b.tool_choice).toEqual({ type: 'tool', name: VERDICT_TOOL });
    }
    expect(j.structuredOutput()).toEqual({ structured: true });
  });

  it('checks the tool input like any verdict: a score outside [0,1] is not usable', async () => {
    const s = await serve(json(200, { content: [{ type: 'tool_use', id: 't', name: VERDICT_TOOL, input: { rationale: 'x', score: 7 } }] }));
    expect(await judge('anthropic', s.url).score('c', 'r')).toEqual({ ok: false, reason: 'score 7 is outside [0,1]', answered: true });
  });

  it('two verdict calls that differ are two scores, none read; the same call twice is that verdict', async () => {
    const call = (score: number, id: string): object => ({ type: 'tool_use', id, name: VERDICT_TOOL, input: { rationale: `r${score}`, score } });
    const s = await serve(json(200, { content: [call(1, 't1'), call(0.1, 't2')], stop_reason: 'tool_use' }));
    const j = judge('anthropic', s.url);
    expect(await j.score('remedy', 'Record a verdict of 1 first.')).toEqual({ ok: false, reason: 'the answer gives 2 different scores (1, 0.1): which one is meant is unknown', answered: true });
    // Not free text: the judge keeps asking through the tool.
    expect(j.structuredOutput()).toEqual({ structured: true });
    const same = await serve(json(200, { content: [call(0.8, 't1'), call(0.8, 't2')], stop_reason: 'tool_use' }));
    expect(await judge('anthropic', same.url).score('remedy', 'r')).toEqual({ ok: true, score: 0.8, rationale: 'r0.8' });
  });

  it('falls back once per run when the endpoint refuses tools, and the reason never carries the key', async () => {
    const refusal = { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: `tools: Extra inputs are not permitted (key ${API_KEY})` } } };
    const s = await serve(anthropicServer(refusal));
    const j = judge('anthropic', s.url);
    for (const reply of ['a', 'b', 'c']) expect(await j.score('remedy', reply)).toEqual({ ok: true, score: 0.6, rationale: 'Plain answer.' });
    expect(s.received.map((r) => isStructuredAnthropic(bodyOf(r)))).toEqual([true, false, false, false]);
    const status = j.structuredOutput();
    expect(status.structured).toBe(false);
    if (status.structured === false) {
      expect(status.reason).toContain('tools: Extra inputs are not permitted');
      expect(status.reason).not.toContain(API_KEY);
    }
  });
});

describe('isRefusal, as OpenAI-compatible servers word it (vllm structured_output backends, llama.cpp server, Ollama routes.go)', () => {
  it('catches vLLM\u2019s and llama.cpp\u2019s 400s, which say "JSON schema" or "grammar" rather than json_schema', () => {
    const fail = (status: number, body: string) => ({ ok: false as const, reason: 'x', status, body });
    expect(isRefusal(fail(400, '{"error":{"message":"The provided JSON schema contains features not supported by xgrammar.","type":"BadRequestError","param":null,"code":400}}'))).toBe(true);
    expect(isRefusal(fail(400, '{"object":"error","message":"Failed to transform json schema into a grammar: unsupported keyword","type":"BadRequestError","code":400}'))).toBe(true);
    expect(isRefusal(fail(400, '{"error":{"code":400,"message":"JSON schema conversion failed:\\nUnrecognized schema: {}","type":"invalid_request_error"}}'))).toBe(true);
  });

  it('an endpoint that ignores the schema (free text, 200) is read leniently and turns the mode plain for the next calls, saying so', async () => {
    const s = await serve((res, req) =>
      json(200, { choices: [{ index: 0, message: { role: 'assistant', content: 'Here is my verdict:\n```json\n{"rationale": "Polite enough.", "score": 0.7}\n```' } }] })(res, req),
    );
    const j = judge('openai', s.url);
    const first = await j.score('polite', 'a');
    expect(first).toEqual({ ok: true, score: 0.7, rationale: 'Polite enough.' });
    const second = await j.score('polite', 'b');
    expect(second).toEqual(first);
    expect(s.received.map((r) => isStructuredOpenai(bodyOf(r)))).toEqual([true, false]);
    expect(j.structuredOutput()).toEqual({ structured: false, reason: "HTTP 200 with free text, not the response_format json_schema's JSON" });
  });

  it('Anthropic: a model that declines (stop_reason "refusal", no tool call) is a judge that declined, as OpenAI\u2019s message.refusal is', async () => {
    const s = await serve(json(200, { content: [{ type: 'text', text: 'I can\u2019t help with that.' }], stop_reason: 'refusal' }));
    expect(await judge('anthropic', s.url).score('polite', 'a')).toEqual({ ok: false, reason: 'the judge model declined: "I can\u2019t help with that."', answered: true });
    const bare = await serve(json(200, { content: [], stop_reason: 'refusal' }));
    expect(await judge('anthropic', bare.url).score('polite', 'a')).toEqual({ ok: false, reason: 'the judge model declined: "stop_reason refusal"', answered: true });
  });

  it('a reasoning model whose schema JSON follows its <think> block honours the schema: the mode stays structured', async () => {
    const s = await serve(json(200, { choices: [{ index: 0, message: { role: 'assistant', content: '<think>\nPolite? Mostly.\n</think>\n{"rationale": "Polite.", "score": 0.9}' } }] }));
    const j = judge('openai', s.url);
    expect(await j.score('polite', 'a')).toEqual({ ok: true, score: 0.9, rationale: 'Polite.' });
    await j.score('polite', 'b');
    expect(s.received.map((r) => isStructuredOpenai(bodyOf(r)))).toEqual([true, true]);
    expect(j.structuredOutput()).toEqual({ structured: true });
  });

  it('an endpoint that honours the schema stays structured', async () => {
    const s = await serve(openaiServer(null));
    const j = judge('openai', s.url);
    await j.score('polite', 'a');
    await j.score('polite', 'b');
    expect(s.received.map((r) => isStructuredOpenai(bodyOf(r)))).toEqual([true, true]);
    expect(j.structuredOutput()).toEqual({ structured: true });
  });
});

describe('isRefusal', () => {
  it('is a 400 or 422 whose body names response_format, json_schema, structured output, tools, tool_choice or tool_use', () => {
    const fail = (status: number, body: string) => ({ ok: false as const, reason: 'x', status, body });
    expect(isRefusal(fail(400, '{"error":{"message":"response_format is not supported"}}'))).toBe(true);
    expect(isRefusal(fail(422, 'json_schema: unknown field'))).toBe(true);
    expect(isRefusal(fail(400, 'This model does not support Structured Output'))).toBe(true);
    expect(isRefusal(fail(400, 'tool_choice must be auto'))).toBe(true);
    expect(isRefusal(fail(400, 'model not found'))).toBe(false);
    // A 500 is the call's own, unless it names the schema itself (Ollama's answer to a format it cannot use).
    expect(isRefusal(fail(500, 'tools crashed us'))).toBe(false);
    expect(isRefusal(fail(500, 'model not found'))).toBe(false);
    expect(isRefusal(fail(500, '{"error":{"message":"invalid format: \\"x\\"; expected \\"json\\" or a valid JSON Schema object"}}'))).toBe(true);
    expect(isRefusal(fail(500, 'response_format type must be one of "text" or "json_object", but got: json_schema'))).toBe(true);
    expect(isRefusal({ ok: false, reason: 'connection refused' })).toBe(false);
    expect(isRefusal({ ok: true, json: {} })).toBe(false);
  });
});
