// The judge clients: OpenAI-compatible chat completions and Anthropic messages (docs/fixtures.md,
// "Assertions"; `judge` in docs/configuration.md).
// One undici Agent per client; one POST per score; the model's text goes through parse.ts.

import { Agent } from '../http/undici.js';
import type { JudgeConfig } from '../config.js';
import { makeRedactor } from '../secrets.js';
import type { Clock, Judge, JudgeResult, Turn } from '../types.js';
import { postJson } from './http.js';
import { systemClock } from '../http/retry.js';
import { AdaptiveLimiter } from '../http/limiter.js';
import { parseJudgeOutput } from './parse.js';
import { JUDGE_SYSTEM_PROMPT, judgeUserMessage, TRANSCRIPT_SYSTEM_PROMPT, transcriptUserMessage } from './prompt.js';

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

interface Provider {
  call(config: JudgeConfig, prompt: Prompt): ProviderCall;
  /** The model's text, or a description of what the response looked like instead. */
  text(json: unknown): { ok: true; text: string } | { ok: false; reason: string };
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
  call(config, prompt) {
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
      },
    };
  },
  text(json) {
    const content = get(json, 'choices', 0, 'message', 'content');
    if (typeof content === 'string') return { ok: true, text: content };
    return { ok: false, reason: 'unexpected response: no choices[0].message.content' };
  },
};

const anthropic: Provider = {
  call(config, prompt) {
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
      },
    };
  },
  text(json) {
    const content = get(json, 'content');
    if (Array.isArray(content)) {
      const block = content.find((b) => get(b, 'type') === 'text' && typeof get(b, 'text') === 'string') ?? content[0];
      const text = get(block, 'text');
      if (typeof text === 'string') return { ok: true, text };
    }
    return { ok: false, reason: 'unexpected response: no content[0].text' };
  },
};

const PROVIDERS: Record<JudgeConfig['provider'], Provider> = { openai, anthropic };

export function createJudge(config: JudgeConfig, deps: JudgeDeps = {}): Judge {
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

  async function ask(prompt: Prompt): Promise<JudgeResult> {
    if (!provider) return { ok: false, reason: `unknown judge provider "${String(config.provider)}"` };
    const call = provider.call(config, prompt);
    const res = await postJson({
      url: `${base}${call.path}`,
      headers: call.headers,
      body: call.body,
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
    if (!res.ok) return res;
    const text = provider.text(res.json);
    if (!text.ok) return text;
    return parseJudgeOutput(text.text);
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
    async close() {
      await dispatcher.close().catch(() => undefined);
    },
  };
}
