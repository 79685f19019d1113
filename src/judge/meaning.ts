// The meaning judge (docs/meaning.md, "The meaning judge"): the judge's structured-output client
// (src/judge/structured.ts: timeouts, retries, adaptive concurrency, interrupt, the schema
// mechanism and its one fallback per run) with its own prompt and answer, `{difference, score}`.
// The json_schema and the Anthropic tool are named `meaning_verdict`; temperature 0.
//
// Reuse within a run: one call per distinct ordered (baseline reply, new reply) for this client's
// model and prompt version; every later ask of the same pair, also while the first is in flight,
// gets its answer with `reused: true`.
//
// Every text sent is redacted first (the run's secrets and the API key), and so is every text
// that comes back. Never throws: a fault is `{ok: false, reason}`.

import { randomBytes } from 'node:crypto';
import type { JudgeConfig } from '../config.js';
import { makeRedactor } from '../secrets.js';
import type { JudgeProvider, JudgeStructuredOutput } from '../types.js';
import { ambiguousScores, field, formatScoreValue, keyedCandidates, scoredObjects, snippet, toNumber } from './parse.js';
import { MEANING_PROMPT_VERSION, MEANING_SYSTEM_PROMPT, meaningBoundary, meaningUserMessage, type MeaningRequest } from './meaning-prompt.js';
import { createStructuredClient, cutWords, noAnswerWords, type StructuredAnswer, type StructuredDeps } from './structured.js';
import { shownJson } from '../words.js';

export { MEANING_PROMPT_VERSION, type ConversationTurn, type MeaningRequest } from './meaning-prompt.js';

/** The name of the OpenAI json_schema and of the Anthropic tool. */
export const MEANING_TOOL = 'meaning_verdict';

/** The answer's shape for the schema mechanism: the difference first, then the score. */
export const MEANING_SCHEMA = {
  type: 'object',
  properties: { difference: { type: 'string' }, score: { type: 'number' } },
  required: ['difference', 'score'],
  additionalProperties: false,
} as const;

const MEANING_DESCRIPTION = 'Record whether the new reply tells the user the same as the baseline: the difference in one line (empty when none), then a score from 0 to 1.';
export const MEANING_MAX_TOKENS = 256;

/** What the meaning judge answered for one pair (the ladder's `MeaningJudgeAnswer`: docs/meaning.md). */
export type MeaningAnswer = { ok: true; score: number; difference: string; reused: boolean } | { ok: false; reason: string; reused: boolean };

type Parsed = { ok: true; score: number; difference: string } | { ok: false; reason: string };

export interface MeaningJudgeDeps extends StructuredDeps {
  /** The run's redactor (its secrets); every text sent and received passes it. Absent: the API key only. */
  redact?: (text: string) => string;
  /** 24 hex digits for a call's boundary; absent: from node:crypto. */
  boundary?: () => string;
}

export interface MeaningJudge {
  /** Shown wherever the meaning judge is named. */
  name: string;
  model: string;
  /** The provider whose API it is asked through (its endpoint's kind), recorded beside the model. */
  provider: JudgeProvider;
  promptVersion: string;
  /** Does `now` tell the user the same as `baseline`? Never throws. */
  ask(request: MeaningRequest): Promise<MeaningAnswer>;
  structuredOutput(): JudgeStructuredOutput;
  close(): Promise<void>;
}

/** The answer from one object, its keys in any case as the judge's are (parse.ts); null when it carries no score. */
function fromObject(obj: Record<string, unknown>): Parsed | null {
  const raw = field(obj, 'score');
  if (raw === undefined) return null;
  const score = toNumber(raw);
  if (score === null) return { ok: false, reason: `meaning judge gave no usable answer: score ${shownJson(raw) ?? String(raw)} is not a number` };
  if (score < 0 || score > 1) return { ok: false, reason: `meaning judge gave no usable answer: score ${score} is outside [0,1]` };
  const difference = field(obj, 'difference');
  return { ok: true, score, difference: typeof difference === 'string' ? difference : '' };
}

/** The answer from a response, or what the response looked like instead. */
function answerOf(answer: StructuredAnswer, provider: JudgeConfig['provider']): Parsed {
  switch (answer.kind) {
    case 'object': {
      const v = answer.value;
      const parsed = v !== null && typeof v === 'object' && !Array.isArray(v) ? fromObject(v as Record<string, unknown>) : null;
      return parsed ?? { ok: false, reason: `meaning judge gave no usable answer: "${snippet(shownJson(v) ?? String(v))}"` };
    }
    case 'text': {
      // An answer with more than one score is not read (parse.ts): a judge that quoted the reply's own "score" must not decide by it.
      // An answer wrapped in an object of its own ({"result": {...}}) is read inside it, as the judge's is.
      const { values: outer, repeated, unread } = keyedCandidates(answer.text.trim(), ['score']);
      const values = outer.flatMap((obj) => scoredObjects(obj));
      const parsed = values.map(fromObject).filter((p): p is Parsed => p !== null);
      const usable = parsed.filter((p): p is Extract<Parsed, { ok: true }> => p.ok);
      const unusable = values.filter((obj) => fromObject(obj)?.ok === false).map((obj) => formatScoreValue(field(obj, 'score')));
      const ambiguous = ambiguousScores(usable.map((p) => p.score), repeated, unusable);
      if (ambiguous !== null) return { ok: false, reason: `meaning judge gave no usable answer: ${ambiguous}` };
      return usable[0] ?? parsed[0] ?? { ok: false, reason: `meaning judge gave no usable answer: ${unread ?? `"${snippet(answer.text)}"`}` };
    }
    case 'refusal':
      return { ok: false, reason: `meaning judge declined: "${snippet(answer.text)}"` };
    case 'none':
      return { ok: false, reason: `meaning judge gave no usable answer: ${noAnswerWords(answer, provider, MEANING_TOOL)}` };
  }
}

export function createMeaningJudge(config: JudgeConfig, deps: MeaningJudgeDeps = {}): MeaningJudge {
  const ownRedact = makeRedactor(config.apiKey ? [config.apiKey] : []);
  const redact = (text: string): string => ownRedact(deps.redact ? deps.redact(text) : text);
  const draw = deps.boundary ?? ((): string => randomBytes(12).toString('hex'));
  const client = createStructuredClient(
    config,
    { name: MEANING_TOOL, description: MEANING_DESCRIPTION, schema: MEANING_SCHEMA, maxTokens: MEANING_MAX_TOKENS, temperature: 0, peer: 'the meaning judge' },
    deps,
    redact,
  );
  const calls = new Map<string, Promise<Parsed>>();

  async function call(r: MeaningRequest): Promise<Parsed> {
    try {
      const res = await client.ask(MEANING_SYSTEM_PROMPT, meaningUserMessage(r, meaningBoundary(r, draw)));
      // Something answered at its address (not HTTP, an answer that did not end): no usable answer, not unreachable.
      if (!res.ok) return { ok: false, reason: redact(`meaning judge ${res.reached === true ? 'gave no usable answer' : 'unreachable'}: ${res.reason}`) };
      // An answer cut at the model's token limit is unfinished: not read, as the judge's (client.ts).
      const parsed: Parsed = res.cut !== undefined && res.answer.kind !== 'refusal' ? { ok: false, reason: `meaning judge gave no usable answer: ${cutWords(res.cut)}` } : answerOf(res.answer, config.provider);
      return parsed.ok ? { ...parsed, difference: redact(parsed.difference) } : { ok: false, reason: redact(parsed.reason) };
    } catch (err) {
      // Thrown only for a fault of ours (a request that could not be made: src/judge/http.ts), never for
      // what the network or the judge did: said as the judge's client says it, not "unreachable"; not retried.
      return { ok: false, reason: redact(`meaning judge call failed: ${err instanceof Error ? err.message : String(err)}`) };
    }
  }

  return {
    name: config.label ?? `${config.provider} ${config.model}`,
    model: config.model,
    provider: config.provider,
    promptVersion: MEANING_PROMPT_VERSION,
    async ask(request) {
      const r: MeaningRequest = {
        before: request.before.map((t) => ({ message: t.message === null ? null : redact(t.message), reply: redact(t.reply) })),
        message: request.message === null ? null : redact(request.message),
        baseline: redact(request.baseline),
        now: redact(request.now),
      };
      // The key is what the judge reads, as sent: the conversation and the ordered pair of replies
      // (docs/meaning.md, "The meaning judge"); this client has one model and one prompt version.
      const key = JSON.stringify([config.provider, config.baseUrl, config.model, MEANING_PROMPT_VERSION, r.before, r.message, r.baseline, r.now]);
      const earlier = calls.get(key);
      if (earlier !== undefined) return { ...(await earlier), reused: true };
      const first = call(r);
      calls.set(key, first);
      return { ...(await first), reused: false };
    },
    structuredOutput: () => client.structuredOutput(),
    close: () => client.close(),
  };
}
