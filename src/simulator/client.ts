// The simulator clients (docs/personas.md, "Simulated users"): the judge's HTTP machinery
// (src/judge/http.ts: timeouts, retries, adaptive concurrency, interrupt) with their own prompt
// and answer. OpenAI-compatible chat completions ask through a strict json_schema named
// `simulated_user`; Anthropic messages through a forced tool `simulated_user`. An endpoint that
// refuses the mechanism turns the client to the plain prompt for the rest of the run (once, as
// the judge does: src/judge/client.ts).
// Never throws: a fault is "simulator unreachable: ...", "simulator answered no usable JSON: ..."
// or "simulator wrote an empty message".

import { Agent } from '../http/undici.js';
import type { JudgeConfig } from '../config.js';
import { makeRedactor } from '../secrets.js';
import type { Clock, JudgeStructuredOutput, Simulator, SimulatorAnswer, SimulatorRequest } from '../types.js';
import { postJson, type PostResult } from '../judge/http.js';
import { isRefusal, ANTHROPIC_VERSION } from '../judge/client.js';
import { systemClock } from '../http/retry.js';
import { AdaptiveLimiter } from '../http/limiter.js';
import { snippet } from '../judge/parse.js';
import { parseSimulatorObject, parseSimulatorText, type ParsedAnswer } from './parse.js';
import { SIMULATOR_SYSTEM_PROMPT, simulatorUserMessage } from './prompt.js';

export interface SimulatorDeps {
  clock?: Clock;
  random?: () => number;
  /** Told before each retried request (counted in spend as simulatorRetries). */
  onRetry?: () => void;
  limiter?: AdaptiveLimiter;
  /** Aborted when the run is interrupted. */
  signal?: AbortSignal;
}

/** The name of the OpenAI json_schema and of the Anthropic tool: what tells a simulator request from a judge's. */
export const SIMULATOR_TOOL = 'simulated_user';

/** The answer's shape for the schema mechanism (strict: every key required, null where it does not apply). */
export const SIMULATOR_SCHEMA = {
  type: 'object',
  properties: {
    done: { type: 'boolean' },
    message: { type: ['string', 'null'] },
    reason: { type: ['string', 'null'] },
  },
  required: ['done', 'message', 'reason'],
  additionalProperties: false,
} as const;

const TOOL_DESCRIPTION = "Write the simulated user's next message (done: false), or end the conversation (done: true, with the reason).";
export const SIMULATOR_MAX_TOKENS = 512;

interface Call {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

interface Provider {
  call(config: JudgeConfig, user: string, structured: boolean): Call;
  answer(json: unknown): ParsedAnswer;
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
  call(config, user, structured) {
    const headers: Record<string, string> = {};
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    return {
      path: '/chat/completions',
      headers,
      body: {
        model: config.model,
        messages: [
          { role: 'system', content: SIMULATOR_SYSTEM_PROMPT },
          { role: 'user', content: user },
        ],
        ...(structured ? { response_format: { type: 'json_schema', json_schema: { name: SIMULATOR_TOOL, strict: true, schema: SIMULATOR_SCHEMA } } } : {}),
      },
    };
  },
  answer(json) {
    const content = get(json, 'choices', 0, 'message', 'content');
    if (typeof content === 'string') return parseSimulatorText(content);
    const refusal = get(json, 'choices', 0, 'message', 'refusal');
    if (typeof refusal === 'string') return { kind: 'fault', fault: `simulator answered no usable JSON: the model declined: "${snippet(refusal)}"` };
    return { kind: 'fault', fault: 'simulator answered no usable JSON: no choices[0].message.content' };
  },
};

const anthropic: Provider = {
  call(config, user, structured) {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    return {
      path: '/messages',
      headers,
      body: {
        model: config.model,
        max_tokens: SIMULATOR_MAX_TOKENS,
        system: SIMULATOR_SYSTEM_PROMPT,
        messages: [{ role: 'user', content: user }],
        ...(structured
          ? { tools: [{ name: SIMULATOR_TOOL, description: TOOL_DESCRIPTION, input_schema: SIMULATOR_SCHEMA }], tool_choice: { type: 'tool', name: SIMULATOR_TOOL } }
          : {}),
      },
    };
  },
  answer(json) {
    const content = get(json, 'content');
    if (Array.isArray(content)) {
      const call = content.find((b) => get(b, 'type') === 'tool_use' && get(b, 'name') === SIMULATOR_TOOL);
      if (call !== undefined) return parseSimulatorObject(get(call, 'input'));
      const block = content.find((b) => get(b, 'type') === 'text' && typeof get(b, 'text') === 'string');
      const text = get(block, 'text');
      if (typeof text === 'string') return parseSimulatorText(text);
    }
    return { kind: 'fault', fault: 'simulator answered no usable JSON: no simulated_user tool call and no text' };
  },
};

const PROVIDERS: Record<JudgeConfig['provider'], Provider> = { openai, anthropic };

export function createSimulator(config: JudgeConfig, deps: SimulatorDeps = {}): Simulator & { structuredOutput(): JudgeStructuredOutput } {
  const provider = PROVIDERS[config.provider];
  const redact = makeRedactor(config.apiKey ? [config.apiKey] : []);
  const limiter = deps.limiter ?? new AdaptiveLimiter(config.concurrency);
  const base = config.baseUrl.replace(/\/+$/, '');
  const dispatcher = new Agent({ connect: { timeout: config.timeoutMs }, headersTimeout: config.timeoutMs, bodyTimeout: config.timeoutMs });
  let structured: JudgeStructuredOutput = { structured: true };

  async function post(user: string, retried: () => void): Promise<{ res: PostResult; structured: boolean }> {
    let sent = structured.structured;
    const call = provider.call(config, user, sent);
    const res = await postJson({
      url: `${base}${call.path}`,
      headers: call.headers,
      body: () => {
        sent = structured.structured;
        return provider.call(config, user, sent).body;
      },
      dispatcher,
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      backoffMs: config.backoffMs,
      clock: deps.clock ?? systemClock,
      random: deps.random ?? Math.random,
      onRetry: () => {
        retried();
        deps.onRetry?.();
      },
      limiter,
      signal: deps.signal,
    });
    return { res, structured: sent };
  }

  async function next(request: SimulatorRequest): Promise<SimulatorAnswer> {
    let retries = 0;
    const retried = (): void => {
      retries += 1;
    };
    try {
      const user = simulatorUserMessage(request);
      const first = await post(user, retried);
      let res = first.res;
      if (first.structured && isRefusal(res)) {
        if (structured.structured) structured = { structured: false, reason: redact(res.reason) };
        res = (await post(user, retried)).res;
      }
      if (!res.ok) return { kind: 'fault', fault: redact(`simulator unreachable: ${res.reason}`), retries };
      const answer = provider.answer(res.json);
      return answer.kind === 'fault' ? { ...answer, fault: redact(answer.fault), retries } : { ...answer, retries };
    } catch (err) {
      return { kind: 'fault', fault: redact(`simulator unreachable: ${err instanceof Error ? err.message : String(err)}`), retries };
    }
  }

  return {
    name: config.label ?? `${config.provider} ${config.model}`,
    next,
    structuredOutput: () => structured,
    async close() {
      await dispatcher.close().catch(() => undefined);
    },
  };
}
