// The judge clients: OpenAI-compatible chat completions and Anthropic messages (docs/fixtures.md,
// "Assertions"; `judge` in docs/configuration.md).
// One undici Agent per client; one POST per score; the model's text goes through parse.ts.
//
// Structured output (docs/configuration.md, "Structured output"): every call asks for the verdict
// through the provider's schema mechanism (OpenAI-compatible `response_format` json_schema,
// Anthropic a forced tool call). An endpoint that refuses it (see `isRefusal`) turns the client to
// the plain prompt for the rest of the run: the refused call is sent again plain at once, and
// `structuredOutput()` says so for the record.

import type { JudgeConfig } from '../config.js';
import { makeRedactor } from '../secrets.js';
import { JUDGE_PROVIDERS, type Judge, type JudgeResult, type JudgeStructuredOutput, type Turn } from '../types.js';
import { parseJudgeObject, parseJudgeOutput, snippet } from './parse.js';
import { JUDGE_SYSTEM_PROMPT, judgeUserMessage, TRANSCRIPT_SYSTEM_PROMPT, transcriptUserMessage } from './prompt.js';
import { createStructuredClient, cutWords, noAnswerWords, type StructuredAnswer, type StructuredDeps } from './structured.js';

export { isRefusal } from './structured.js';
export type { JudgeStructuredOutput };

export type JudgeDeps = StructuredDeps;

const ANTHROPIC_MAX_TOKENS = 256;

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

/** The verdict from a response, or a description of what the response looked like instead (answered, unusable). */
function verdictOf(answer: StructuredAnswer, provider: JudgeConfig['provider'], cut: string | undefined): JudgeResult {
  const result = cut !== undefined && answer.kind !== 'refusal' ? { ok: false as const, reason: cutWords(cut) } : parsedVerdict(answer, provider);
  return result.ok ? result : { ...result, answered: true };
}

function parsedVerdict(answer: StructuredAnswer, provider: JudgeConfig['provider']): JudgeResult {
  switch (answer.kind) {
    case 'object':
      return parseJudgeObject(answer.value);
    case 'text':
      return parseJudgeOutput(answer.text);
    case 'refusal':
      return { ok: false, reason: `the judge model declined: "${snippet(answer.text)}"` };
    case 'none':
      return { ok: false, reason: `unexpected response: ${noAnswerWords(answer, provider, VERDICT_TOOL)}` };
  }
}

/**
 * A panel member's key, as its reasons name it: its own in judge.panel, else the judge's; a member
 * of another provider than the judge's never takes the judge's key, so its own alone (docs/judges.md,
 * "Panels"; src/config.ts, panelMemberConfig; src/evaluate/causes.ts, memberSettings and memberKeyAt).
 */
const MEMBER_KEY = { inherited: "that member's apiKey (judge.panel, else judge.apiKey)", own: "that member's apiKey (judge.panel)" } as const;

/**
 * The judge's client; `member`: a panel's member's (src/judge/panel.ts), whose reasons name its own
 * settings: `'inherited'` when it takes the judge's key unless it sets its own, `'own'` when it is of
 * another provider than the judge's (its key is only its own).
 */
export function createJudge(config: JudgeConfig, deps: JudgeDeps = {}, member: keyof typeof MEMBER_KEY | null = null): Judge & { structuredOutput(): JudgeStructuredOutput } {
  const redact = makeRedactor(config.apiKey ? [config.apiKey] : []);
  const client = createStructuredClient(
    config,
    { name: VERDICT_TOOL, description: VERDICT_DESCRIPTION, schema: VERDICT_SCHEMA, maxTokens: ANTHROPIC_MAX_TOKENS, temperature: 0, peer: 'the judge', ...(member === null ? {} : { key: MEMBER_KEY[member] }) },
    deps,
    redact,
  );

  async function ask(prompt: { system: string; user: string }): Promise<JudgeResult> {
    if (!JUDGE_PROVIDERS.includes(config.provider)) return { ok: false, reason: `unknown judge provider "${String(config.provider)}"` };
    const res = await client.ask(prompt.system, prompt.user);
    if (res.ok) return verdictOf(res.answer, config.provider, res.cut);
    // Something answered at its address, and not in a form read (not HTTP, an answer that did not end): not unreachable.
    return res.reached === true ? { ok: false, reason: res.reason, answered: true } : { ok: false, reason: res.reason };
  }

  /** Never throws; a reason never carries the API key. */
  async function safely(prompt: { system: string; user: string }): Promise<JudgeResult> {
    let result: JudgeResult;
    try {
      result = await ask(prompt);
    } catch (err) {
      result = { ok: false, reason: `judge call failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    return result.ok ? result : { ok: false, reason: redact(result.reason), ...(result.answered ? { answered: true } : {}) };
  }

  return {
    name: config.label ?? `${config.provider} ${config.model}`,
    score: (criterion: string, reply: string) => safely({ system: JUDGE_SYSTEM_PROMPT, user: judgeUserMessage(criterion, reply) }),
    scoreTranscript: (criterion: string, turns: readonly Turn[]) =>
      safely({ system: TRANSCRIPT_SYSTEM_PROMPT, user: transcriptUserMessage(criterion, turns) }),
    structuredOutput: () => client.structuredOutput(),
    close: () => client.close(),
  };
}
