// One model client that asks for a JSON object through the provider's schema mechanism
// (docs/configuration.md, "Structured output"), shared by the judge and the simulated user
// (docs/simulated-users.md): OpenAI-compatible chat completions with a strict `response_format`
// json_schema, Anthropic messages with a forced tool. An endpoint that refuses the mechanism (see
// `isRefusal`) turns the client to the plain prompt for the rest of the run: the refused call is
// sent again plain at once, and `structuredOutput()` says so for the record.
// What the answer means is the caller's: this reads the object, the text or the refusal out of
// the provider's envelope.

import { DIRECT, type Network } from '../http/network.js';
import type { JudgeConfig } from '../config.js';
import type { Clock, JudgeStructuredOutput } from '../types.js';
import { MAX_RESPONSE_BYTES, postJson, type PostResult } from './http.js';
import type { Timer } from '../http/retry.js';
import { systemClock } from '../http/retry.js';
import { AdaptiveLimiter } from '../http/limiter.js';
import { closeDispatcher } from '../http/undici.js';
import { snippet, splitThinking } from './parse.js';
import { ERROR_IN_200 } from '../judge-url-setting.js';
import { shownJson } from '../words.js';

const ANTHROPIC_VERSION = '2023-06-01';

export interface StructuredDeps {
  clock?: Clock;
  random?: () => number;
  /** Told before each retried request (counted in `spend`: docs/semantics.md, "Cost"). */
  onRetry?: () => void;
  /** Gates every call; default: an adaptive limit starting at `config.concurrency`. */
  limiter?: AdaptiveLimiter;
  /** Aborted when the run is interrupted: calls not yet sent are not sent, those in flight are abandoned. */
  signal?: AbortSignal;
  /** How the provider is reached: directly (the default) or through the environment's proxy (http/network.ts). */
  network?: Network;
  /** Starts each call's timeoutMs (http/retry.ts, Timer): a real timer when absent. */
  timer?: Timer;
}

/** What the client asks for: the schema mechanism's name, description and schema, and the sampling. */
export interface StructuredRequestShape {
  /** The OpenAI json_schema's name and the Anthropic tool's. */
  name: string;
  description: string;
  schema: object;
  /** Anthropic's required `max_tokens`. */
  maxTokens: number;
  /** Sent when set (the judge asks for 0); absent: the provider's default. */
  temperature?: number;
  /** The server, as a deadline's words name it: "the judge", "the simulator", "the meaning judge". */
  peer: string;
  /** Its key, as a reason names it, when not the peer's own (a panel member's: src/judge/http.ts, notSentWords). */
  key?: string;
}

/** What a response held: the schema's object (Anthropic's tool input), a text, the model's refusal, or none of these. */
export type StructuredAnswer =
  | { kind: 'object'; value: unknown }
  | { kind: 'text'; text: string; /** Set when the text is the input of tool calls (several that differ, or one not JSON): not free text. */ calls?: number }
  | { kind: 'refusal'; text: string }
  /** `instead`: what the response held in place of an answer, in a few words (`a tool call "lookup"`), when it held something. */
  | { kind: 'none'; instead?: string };

/**
 * A call's outcome: the response read, or the HTTP failure (its reason not yet redacted; `reached`
 * as http.ts's PostResult). `cut`: the response says the model stopped at its token limit
 * (`finish_reason "length"`, `stop_reason "max_tokens"`), in those words: what it holds is unfinished.
 */
export type StructuredResult = { ok: true; answer: StructuredAnswer; cut?: string } | { ok: false; reason: string; reached?: true };

interface ProviderCall {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

interface Provider {
  call(config: JudgeConfig, shape: StructuredRequestShape, system: string, user: string, structured: boolean): ProviderCall;
  answer(json: unknown, shape: StructuredRequestShape): StructuredAnswer;
  /** How the response says the model was stopped at its token limit, or null. */
  cut(json: unknown): string | null;
  /** The error an HTTP 200 carries in place of an answer (a gateway's, a proxy's), or undefined. */
  error200(json: unknown): unknown;
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
  call(config, shape, system, user, structured) {
    const headers: Record<string, string> = {};
    if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
    return {
      path: '/chat/completions',
      headers,
      body: {
        model: config.model,
        ...(shape.temperature === undefined ? {} : { temperature: shape.temperature }),
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        ...(structured ? { response_format: { type: 'json_schema', json_schema: { name: shape.name, strict: true, schema: shape.schema } } } : {}),
      },
    };
  },
  answer(json, shape) {
    const message = get(json, 'choices', 0, 'message');
    const content = textOf(get(message, 'content'));
    if (typeof content === 'string' && content.trim() !== '') return { kind: 'text', text: content };
    const refusal = get(message, 'refusal');
    if (typeof refusal === 'string' && refusal.trim() !== '') return { kind: 'refusal', text: refusal };
    // An endpoint (or a proxy in front of it) that answers the schema as a tool call, with empty
    // content: the call named as the schema is the answer (docs/judges.md, "What the judge reads").
    const calls = get(message, 'tool_calls');
    if (Array.isArray(calls) && calls.length > 0) return openaiToolAnswer(calls, shape);
    const instead = openaiNoContent(json);
    if (instead !== null) return { kind: 'none', instead };
    if (typeof content === 'string') return { kind: 'text', text: content };
    return { kind: 'none' };
  },
  cut: (json) => (get(json, 'choices', 0, 'finish_reason') === 'length' ? 'finish_reason "length"' : null),
  error200: (json) => {
    const content = textOf(get(json, 'choices', 0, 'message', 'content'));
    if (typeof content === 'string' && content.trim() !== '') return undefined;
    return get(json, 'choices', 0, 'error') ?? get(json, 'error');
  },
};

/**
 * An OpenAI-compatible message's content as text: a string as it is, or the text of a list of
 * parts, its `text` parts in order (Mistral's Magistral answers `[{type: "thinking", ...}, {type:
 * "text", text}]`: the thinking is not the answer); anything else as it is.
 */
function textOf(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts = content.filter((p) => get(p, 'type') === 'text').map((p) => get(p, 'text'));
  return texts.length > 0 && texts.every((t) => typeof t === 'string') ? texts.join('\n') : content;
}

/** The words of an error a body carries (`"Overloaded"`, `{"message": "..."}`), quoted; null when it carries none. */
function errorWords(error: unknown): string | null {
  const message = typeof error === 'string' ? error : get(error, 'message');
  return typeof message === 'string' && message.trim() !== '' ? shownJson(snippet(message)) : null;
}

/**
 * What an OpenAI-compatible answer without content holds instead, in a few words: an error (a
 * gateway answers HTTP 200 with `{"error": ...}`, or a choice's `error` with `finish_reason
 * "error"`), an empty `choices`, or the `finish_reason` that says why (`"content_filter"`); null
 * when none of these.
 */
function openaiNoContent(json: unknown): string | null {
  const error = errorWords(get(json, 'choices', 0, 'error')) ?? errorWords(get(json, 'error'));
  if (error !== null) return `${ERROR_IN_200}: ${error}`;
  const choices = get(json, 'choices');
  if (Array.isArray(choices) && choices.length === 0) return 'an empty choices array';
  const finish = get(json, 'choices', 0, 'finish_reason');
  return typeof finish === 'string' && finish !== 'stop' && finish !== 'length' ? `finish_reason ${shownJson(finish)}` : null;
}

/** A tool call's arguments as the object they encode (OpenAI sends them as a JSON string), else as written. */
function toolArguments(call: unknown): unknown {
  const args = get(call, 'function', 'arguments');
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * The answer in an OpenAI-compatible message's `tool_calls`: the one call named as the schema (its
 * arguments); several that say different things are the text of them all, so that the caller reads
 * no answer from them (as Anthropic's below); none named so is no answer, naming what was called.
 */
function openaiToolAnswer(calls: readonly unknown[], shape: StructuredRequestShape): StructuredAnswer {
  const named = calls.filter((c) => get(c, 'function', 'name') === shape.name);
  const inputs = named.map((c) => JSON.stringify(toolArguments(c)) ?? 'null');
  if (new Set(inputs).size > 1) return { kind: 'text', text: inputs.join('\n'), calls: named.length };
  const first = named[0];
  if (first !== undefined) {
    const value = toolArguments(first);
    return typeof value === 'string' ? { kind: 'text', text: value, calls: 1 } : { kind: 'object', value };
  }
  const names = calls.map((c) => get(c, 'function', 'name')).map((n) => shownJson(typeof n === 'string' ? n : null));
  return { kind: 'none', instead: `${calls.length === 1 ? 'a tool call' : `${calls.length} tool calls`} ${names.join(', ')}, not ${shownJson(shape.name)}` };
}

const anthropic: Provider = {
  call(config, shape, system, user, structured) {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    return {
      path: '/messages',
      headers,
      body: {
        model: config.model,
        max_tokens: shape.maxTokens,
        ...(shape.temperature === undefined ? {} : { temperature: shape.temperature }),
        system,
        messages: [{ role: 'user', content: user }],
        ...(structured
          ? { tools: [{ name: shape.name, description: shape.description, input_schema: shape.schema }], tool_choice: { type: 'tool', name: shape.name } }
          : {}),
      },
    };
  },
  answer(json, shape) {
    const content = get(json, 'content');
    // A model that declines stops with stop_reason "refusal" and no tool call (anthropic-sdk-typescript, StopReason).
    if (get(json, 'stop_reason') === 'refusal') {
      const said = Array.isArray(content) ? content.map((b) => get(b, 'text')).filter((t): t is string => typeof t === 'string' && t !== '').join(' ') : '';
      return { kind: 'refusal', text: said === '' ? 'stop_reason refusal' : said };
    }
    if (Array.isArray(content)) {
      const calls = content.filter((b) => get(b, 'type') === 'tool_use' && get(b, 'name') === shape.name);
      const inputs = calls.map((b) => JSON.stringify(get(b, 'input')) ?? 'null');
      // Several calls that say different things (a model that also recorded the verdict a reply asked
      // for) are read as the text of them all, so that the caller's reader finds more than one
      // answer and reads none (docs/judges.md, "What the judge reads"), never the first alone.
      if (new Set(inputs).size > 1) return { kind: 'text', text: inputs.join('\n'), calls: calls.length };
      if (calls[0] !== undefined) return { kind: 'object', value: get(calls[0], 'input') };
      // Every text block, in order: a model's answer may come in several (a sentence, then the JSON;
      // text split around citations), and a quoted score in one must not pass for the answer of
      // another (docs/judges.md, "What the judge reads"). A thinking block is not text.
      const texts = content.filter((b) => get(b, 'type') === 'text').map((b) => get(b, 'text')).filter((t): t is string => typeof t === 'string');
      if (texts.length > 0) return { kind: 'text', text: texts.join('\n') };
      const text = get(content[0], 'text');
      if (typeof text === 'string') return { kind: 'text', text };
    }
    // A proxy that answers HTTP 200 with Anthropic's error shape, `{"type": "error", "error": {...}}`.
    const error = get(json, 'type') === 'error' ? errorWords(get(json, 'error')) : null;
    return error === null ? { kind: 'none' } : { kind: 'none', instead: `${ERROR_IN_200}: ${error}` };
  },
  cut: (json) => (get(json, 'stop_reason') === 'max_tokens' ? 'stop_reason "max_tokens"' : null),
  error200: (json) => (get(json, 'type') === 'error' ? get(json, 'error') : undefined),
};

/** The error types and statuses that name the request's own fault: the next attempt would meet the same. */
const REQUEST_FAULT_TYPES = /^(?:invalid_request_error|authentication_error|permission_error|not_found_error|invalid_api_key|model_not_found)$/;

/**
 * Whether an HTTP 200's error (Provider.error200) is one that passes, worth another attempt as a
 * 5xx is (docs/configuration.md, "Structured output"): any error, unless its code is a 4xx other
 * than 408 and 429 (`{"code": 401}`) or its type or code names the request's own fault
 * (`invalid_request_error`, `authentication_error`): an upstream overloaded, rate limited, timed out
 * or failed (`{"code": 502}`, `overloaded_error`, no code at all) is retried.
 */
export function transientError(error: unknown): boolean {
  if (error === undefined || error === null || error === false) return false;
  const code = Number(get(error, 'code') ?? get(error, 'status'));
  if (Number.isInteger(code) && code >= 400 && code < 500 && code !== 408 && code !== 429) return false;
  const type = get(error, 'type') ?? get(error, 'code');
  return !(typeof type === 'string' && REQUEST_FAULT_TYPES.test(type));
}

const PROVIDERS: Record<JudgeConfig['provider'], Provider> = { openai, anthropic };

/** A response with no answer, in words: where the answer was looked for, and what was there instead. */
export function noAnswerWords(answer: Extract<StructuredAnswer, { kind: 'none' }>, provider: JudgeConfig['provider'], tool: string): string {
  const where = provider === 'anthropic' ? `no ${tool} tool call and no text` : 'no choices[0].message.content';
  return answer.instead === undefined ? where : `${where}: ${answer.instead}`;
}

/**
 * Why an answer cut at the model's token limit (`cut`: structured.ts) is not read: what it holds is
 * unfinished, a quoted `{"score": 1}` or a draft the model had not yet taken back (docs/judges.md,
 * "What the judge reads"). A declining model is still said to decline; the judge and the meaning judge say it alike.
 */
export function cutWords(cut: string): string {
  return `the answer was cut at the model's token limit (${cut}) before it ended: nothing in it is read`;
}

/**
 * The words that name the schema mechanism: OpenAI's and LiteLLM's `response_format`, vLLM's "JSON
 * schema" and "grammar" (xgrammar, guidance), llama.cpp's "JSON schema conversion failed", Ollama's
 * "a valid JSON Schema object"; and Anthropic's forced tool.
 */
const SCHEMA_WORDS = /response_format|json[ _-]?schema|structured output|grammar/i;
const TOOL_WORDS = /tool_choice|tool_use|\btools?\b/i;

/**
 * An endpoint refuses the schema mechanism when it answers HTTP 400 or 422 and its body names the
 * mechanism (`response_format`, JSON schema, "structured output", a grammar, `tool` or `tools`,
 * `tool_choice` or `tool_use`, any case), or HTTP 500 naming the schema itself (Ollama answers 500 to
 * a format it cannot use). Any other failure is the call's own and is not retried plain.
 */
export function isRefusal(res: PostResult): res is Extract<PostResult, { ok: false }> {
  if (res.ok) return false;
  const body = res.body ?? '';
  // A 500 names the schema itself to be a refusal: "tools" alone there is too common a word.
  if (res.status === 500) return SCHEMA_WORDS.test(body);
  return (res.status === 400 || res.status === 422) && (SCHEMA_WORDS.test(body) || TOOL_WORDS.test(body));
}

/**
 * An answer to a schema request that is free text: the endpoint ignored the schema (Ollama with a
 * format it does not know, a proxy that drops `response_format`, a forced tool answered with text).
 * The text is still read leniently; the mode turns plain, whose prompt asks for the format in words.
 * A reasoning model's thinking is set aside first (parse.ts, splitThinking): `<think>...</think>`
 * before the schema's JSON is the schema honoured, and thinking that never ended in an answer says
 * nothing of the schema (docs/configuration.md, "Structured output").
 */
function ignoredSchema(answer: StructuredAnswer): boolean {
  if (answer.kind !== 'text' || answer.calls !== undefined) return false;
  const split = splitThinking(answer.text);
  if (split.thinking !== null && split.answer.trim() === '') return false;
  try {
    const value: unknown = JSON.parse(split.answer);
    return value === null || typeof value !== 'object' || Array.isArray(value);
  } catch {
    return true;
  }
}

export interface StructuredClient {
  /** One call (its retries included); `onRetry` is told too, per call. Throws only what the HTTP layer throws. */
  ask(system: string, user: string, onRetry?: () => void): Promise<StructuredResult>;
  structuredOutput(): JudgeStructuredOutput;
  close(): Promise<void>;
}

/** `redact` cleans the refusal reason kept for the record. */
export function createStructuredClient(config: JudgeConfig, shape: StructuredRequestShape, deps: StructuredDeps, redact: (text: string) => string): StructuredClient {
  const provider = PROVIDERS[config.provider];
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  const limiter = deps.limiter ?? new AdaptiveLimiter(config.concurrency, clock);
  const base = config.baseUrl.replace(/\/+$/, '');
  const proxy = (deps.network ?? DIRECT).route(base);
  const dispatcher = (deps.network ?? DIRECT).dispatcher(base, { connect: { timeout: config.timeoutMs }, headersTimeout: config.timeoutMs, bodyTimeout: config.timeoutMs, maxResponseSize: MAX_RESPONSE_BYTES });
  let structured: JudgeStructuredOutput = { structured: true };

  /**
   * One call; the mode is read when each attempt is sent, and a refusal turns it plain while the
   * refused attempt still holds its slot, so a call that waited for a slot goes plain: only calls
   * already in flight may be refused too. `structured` says how the last attempt was sent.
   */
  async function post(system: string, user: string, onRetry: (() => void) | undefined): Promise<{ res: PostResult; structured: boolean }> {
    let sent = structured.structured;
    const call = provider.call(config, shape, system, user, sent);
    const refused = (failure: { status: number; body: string; reason: string }): void => {
      // The first refusal's reason is kept; calls in flight when it arrived are refused too.
      if (sent && structured.structured && isRefusal({ ok: false, ...failure })) {
        structured = { structured: false, reason: redact(failure.reason) };
      }
    };
    const res = await postJson({
      url: `${base}${call.path}`,
      headers: call.headers,
      body: () => {
        sent = structured.structured;
        return provider.call(config, shape, system, user, sent).body;
      },
      dispatcher,
      timeoutMs: config.timeoutMs,
      timer: deps.timer,
      retries: config.retries,
      backoffMs: config.backoffMs,
      clock,
      random,
      onRetry:
        onRetry === undefined
          ? deps.onRetry
          : () => {
              onRetry();
              deps.onRetry?.();
            },
      limiter,
      signal: deps.signal,
      onHttpFailure: refused,
      proxy,
      peer: shape.peer,
      ...(shape.key === undefined ? {} : { key: shape.key }),
      failedOk: (json) => transientError(provider.error200(json)),
    });
    return { res, structured: sent };
  }

  return {
    async ask(system, user, onRetry) {
      if (!provider) return { ok: false, reason: `unknown provider "${String(config.provider)}"` };
      const first = await post(system, user, onRetry);
      let res = first.res;
      if (first.structured && isRefusal(res)) {
        // The mode is already plain (set in `post` when the refusal arrived): send this call again plain.
        if (structured.structured) structured = { structured: false, reason: redact(res.reason) };
        res = (await post(system, user, onRetry)).res;
      }
      if (!res.ok) return res.reached === true ? { ok: false, reason: res.reason, reached: true } : { ok: false, reason: res.reason };
      const read = provider.answer(res.json, shape);
      // An HTTP 200's error retried until the retries were spent: said so, as an HTTP error's attempts are.
      const answer = res.attempts !== undefined && read.kind === 'none' && read.instead !== undefined ? { ...read, instead: `${read.instead} (after ${res.attempts} attempts)` } : read;
      const cut = provider.cut(res.json);
      // An answer cut at the token limit is unfinished, not free text in place of the schema's JSON.
      if (cut === null && first.structured && res === first.res && structured.structured && ignoredSchema(answer)) {
        // Worded as a refusal's reason is ("HTTP 400: ..."), for the line every surface shows.
        structured = { structured: false, reason: config.provider === 'anthropic' ? 'HTTP 200 with text, not the forced tool call' : "HTTP 200 with free text, not the response_format json_schema's JSON" };
      }
      return cut === null ? { ok: true, answer } : { ok: true, answer, cut };
    },
    structuredOutput: () => structured,
    async close() {
      await closeDispatcher(dispatcher).catch(() => undefined);
    },
  };
}
