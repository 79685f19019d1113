// The judge clients: OpenAI-compatible chat completions and Anthropic messages (docs/fixtures.md,
// "Assertions"; `judge` in docs/configuration.md).
// One undici Agent per client; one POST per score; the model's text goes through parse.ts.
//
// Structured output (docs/configuration.md, "Structured output"): every call asks for the verdict
// through the provider's schema mechanism (OpenAI-compatible `response_format` json_schema,
// Anthropic a forced tool call). An endpoint that refuses it (see `isRefusal`) turns the client to
// the plain prompt for the rest of the run: the refused call is sent again plain at once, and
// `structuredOutput()` says so for the record.

import { Agent } from '../http/undici.js';
import type { JudgeConfig } from '../config.js';
import { makeRedactor } from '../secrets.js';
import type { Clock, Judge, JudgeResult, JudgeStructuredOutput, Turn } from '../types.js';
import { postJson, type PostResult } from './http.js';
import { systemClock } from '../http/retry.js';
import { AdaptiveLimiter } from '../http/limiter.js';
import { parseJudgeObject, parseJudgeOutput, snippet } from './parse.js';
import { JUDGE_SYSTEM_PROMPT, judgeUserMessage, TRANSCRIPT_SYSTEM_PROMPT, transcriptUserMessage } from './prompt.js';

export type { JudgeStructuredOutput };

export interface JudgeDeps {
  clock?: Clock;
  random?: () => number;
  /** Told before each retried request (counted in `spend`: docs/semantics.md, "Cost"). */
  onRetry?: () => void;
  /** Gates every call; default: an adaptive limit starting at `config.concurrency`. */
  limiter?: AdaptiveLimiter;
  /** Aborted when the run is interrupted: calls not yet sent are not sent, those in flight are abandoned. */
  signal?: AbortSignal;
}

export const ANTHROPIC_VERSION = '2023-06-01';
export const ANTHROPIC_MAX_TOKENS = 256;

interface ProviderCall {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** What one judge call asks: the instructions and the material to judge. */
interface Prompt {
  system: string;
  user: string;
}

/** The verdict's shape, as the schema mechanism is given it: rationale first, then the score. */
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: { rationale: { type: 'string' }, score: { type: 'number' } },
  required: ['rationale', 'score'],
  additionalProperties: false,
} as const;

/** The name of the OpenAI json_schema and of the Anthropic tool. */
export const VERDICT_TOOL = 'verdict';
const VERDICT_DESCRIPTION = 'Record the verdict: a one-line rationale, then a score from 0 to 1.';

interface Provider {
  call(config: JudgeConfig, prompt: Prompt, structured: boolean): ProviderCall;
  /** The verdict from a response, or a description of what the response looked like instead. */
  verdict(json: unknown): JudgeResult;
}

function get(value: unknown, ...path: (string | number)[]): unknown {
  let cur = value;
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

const openai: Provider = {
  call(config, prompt, structured) {
    const headers: Record<string, string> = {};
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    return {
      path: '/chat/completions',
      headers,
      body: {
        model: config.model,
        temperature: 0,
        messages: [
          { role: 'system', content: prompt.system },
          { role: 'user', content: prompt.user },
        ],
        ...(structured
          ? { response_format: { type: 'json_schema', json_schema: { name: VERDICT_TOOL, strict: true, schema: VERDICT_SCHEMA } } }
          : {}),
      },
    };
  },
  verdict(json) {
    const content = get(json, 'choices', 0, 'message', 'content');
    if (typeof content === 'string') return parseJudgeOutput(content);
    const refusal = get(json, 'choices', 0, 'message', 'refusal');
    if (typeof refusal === 'string') return { ok: false, reason: `the judge model declined: "${snippet(refusal)}"` };
    return { ok: false, reason: 'unexpected response: no choices[0].message.content' };
  },
};

const anthropic: Provider = {
  call(config, prompt, structured) {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    return {
      path: '/messages',
      headers,
      body: {
        model: config.model,
        max_tokens: ANTHROPIC_MAX_TOKENS,
        temperature: 0,
        system: prompt.system,
        messages: [{ role: 'user', content: prompt.user }],
        ...(structured
          ? {
              tools: [{ name: VERDICT_TOOL, description: VERDICT_DESCRIPTION, input_schema: VERDICT_SCHEMA }],
              tool_choice: { type: 'tool', name: VERDICT_TOOL },
            }
          : {}),
      },
    };
  },
  verdict(json) {
    const content = get(json, 'content');
    if (Array.isArray(content)) {
      const call = content.find((b) => get(b, 'type') === 'tool_use' && get(b, 'name') === VERDICT_TOOL);
      if (call !== undefined) return parseJudgeObject(get(call, 'input'));
      const block = content.find((b) => get(b, 'type') === 'text' && typeof get(b, 'text') === 'string') ?? content[0];
      const text = get(block, 'text');
      if (typeof text === 'string') return parseJudgeOutput(text);
    }
    return { ok: false, reason: 'unexpected response: no verdict tool call and no content[0].text' };
  },
};

/** The words of a 400 that name the schema mechanism (either provider's). */
const MECHANISM_WORDS = /response_format|json_schema|structured output|tool_choice|tool_use|\btools?\b/i;

/**
 * An endpoint refuses the schema mechanism when it answers HTTP 400 or 422 and its body names the
 * mechanism: `response_format`, `json_schema`, "structured output", `tool` or `tools`, `tool_choice` or
 * `tool_use` (any case). Any other failure is the call's own and is not retried plain.
 */
export function isRefusal(res: PostResult): res is Extract<PostResult, { ok: false }> {
  return !res.ok && (res.status === 400 || res.status === 422) && MECHANISM_WORDS.test(res.body ?? '');
}

const PROVIDERS: Record<JudgeConfig['provider'], Provider> = { openai, anthropic };

export function createJudge(config: JudgeConfig, deps: JudgeDeps = {}): Judge & { structuredOutput(): JudgeStructuredOutput } {
  const provider = PROVIDERS[config.provider];
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  const redact = makeRedactor(config.apiKey ? [config.apiKey] : []);
  const limiter = deps.limiter ?? new AdaptiveLimiter(config.concurrency);
  const base = config.baseUrl.replace(/\/+$/, '');
  const dispatcher = new Agent({
    connect: { timeout: config.timeoutMs },
    headersTimeout: config.timeoutMs,
    bodyTimeout: config.timeoutMs,
  });

  let structured: JudgeStructuredOutput = { structured: true };

  /**
   * One call; the mode is read when each attempt is sent, so a call that waited for a slot while
   * the first refusal arrived goes plain. `structured` says how the last attempt was sent.
   */
  async function post(p: Provider, prompt: Prompt): Promise<{ res: PostResult; structured: boolean }> {
    let sent = structured.structured;
    const call = p.call(config, prompt, sent);
    const res = await postJson({
      url: `${base}${call.path}`,
      headers: call.headers,
      body: () => {
        sent = structured.structured;
        return p.call(config, prompt, sent).body;
      },
      dispatcher,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      backoffMs: config.backoffMs,
      clock,
      random,
      onRetry: deps.onRetry,
      limiter,
      signal: deps.signal,
    });
    return { res, structured: sent };
  }

  async function ask(prompt: Prompt): Promise<JudgeResult> {
    if (!provider) return { ok: false, reason: `unknown judge provider "${String(config.provider)}"` };
    const first = await post(provider, prompt);
    let res = first.res;
    if (first.structured && isRefusal(res)) {
      // Calls in flight when the first refusal arrived are refused too; the first one's reason is kept.
      if (structured.structured) structured = { structured: false, reason: redact(res.reason) };
      res = (await post(provider, prompt)).res;
    }
    if (!res.ok) return { ok: false, reason: res.reason };
    return provider.verdict(res.json);
  }

  /** Never throws; a reason never carries the API key. */
  async function safely(prompt: Prompt): Promise<JudgeResult> {
    let result: JudgeResult;
    try {
      result = await ask(prompt);
    } catch (err) {
      result = { ok: false, reason: `judge call failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    return result.ok ? result : { ok: false, reason: redact(result.reason) };
  }

  return {
    name: config.label ?? `${config.provider} ${config.model}`,
    score: (criterion: string, reply: string) => safely({ system: JUDGE_SYSTEM_PROMPT, user: judgeUserMessage(criterion, reply) }),
    scoreTranscript: (criterion: string, turns: readonly Turn[]) =>
      safely({ system: TRANSCRIPT_SYSTEM_PROMPT, user: transcriptUserMessage(criterion, turns) }),
    structuredOutput: () => structured,
    async close() {
      await dispatcher.close().catch(() => undefined);
    },
  };
}
