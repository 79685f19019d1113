// The simulator clients (docs/simulated-users.md): the judge's structured-output client
// (src/judge/structured.ts: timeouts, retries, adaptive concurrency, interrupt, the schema
// mechanism and its one fallback per run) with their own prompt and answer. The json_schema and
// the Anthropic tool are named `simulated_user`.
// Never throws: a fault is "simulator unreachable: ...", "simulator answered no usable JSON: ...",
// "simulator gave no usable answer: ..." (an answer cut at the token limit among them) or
// "simulator wrote an empty message".

import type { JudgeConfig } from '../config.js';
import { makeRedactor } from '../secrets.js';
import type { JudgeStructuredOutput, Simulator, SimulatorAnswer, SimulatorRequest } from '../types.js';
import { createStructuredClient, cutWords, noAnswerWords, type StructuredAnswer, type StructuredDeps } from '../judge/structured.js';
import { snippet } from '../judge/parse.js';
import { parseSimulatorObject, parseSimulatorText, type ParsedAnswer } from './parse.js';
import { SIMULATOR_SYSTEM_PROMPT, simulatorUserMessage } from './prompt.js';

export type SimulatorDeps = StructuredDeps;
/** The name of the OpenAI json_schema and of the Anthropic tool: what tells a simulator request from a judge's. */
const SIMULATOR_TOOL = 'simulated_user';

/** The answer's shape for the schema mechanism (strict: every key required, null where it does not apply). */
const SIMULATOR_SCHEMA = {
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
/** Anthropic's `max_tokens` for the simulator (src/evaluate/causes.ts, SIMULATOR_CUT_HINT, names it). */
const SIMULATOR_MAX_TOKENS = 512;

/** The answer from a response, or a fault saying what the response looked like instead. */
function answerOf(answer: StructuredAnswer, provider: JudgeConfig['provider']): ParsedAnswer {
  switch (answer.kind) {
    case 'object':
      return parseSimulatorObject(answer.value);
    case 'text':
      return parseSimulatorText(answer.text);
    case 'refusal':
      return { kind: 'fault', fault: `simulator answered no usable JSON: the model declined: "${snippet(answer.text)}"` };
    case 'none':
      return { kind: 'fault', fault: `simulator answered no usable JSON: ${noAnswerWords(answer, provider, SIMULATOR_TOOL)}` };
  }
}

export function createSimulator(config: JudgeConfig, deps: SimulatorDeps = {}): Simulator & { structuredOutput(): JudgeStructuredOutput } {
  const redact = makeRedactor(config.apiKey ? [config.apiKey] : []);
  const client = createStructuredClient(config, { name: SIMULATOR_TOOL, description: TOOL_DESCRIPTION, schema: SIMULATOR_SCHEMA, maxTokens: SIMULATOR_MAX_TOKENS, peer: 'the simulator' }, deps, redact);

  async function next(request: SimulatorRequest): Promise<SimulatorAnswer> {
    let retries = 0;
    const retried = (): void => {
      retries += 1;
    };
    try {
      const res = await client.ask(SIMULATOR_SYSTEM_PROMPT, simulatorUserMessage(request), retried);
      // Something answered at its address (not HTTP, an answer that did not end): no usable answer, not unreachable.
      if (!res.ok) return { kind: 'fault', fault: redact(`simulator ${res.reached === true ? 'gave no usable answer' : 'unreachable'}: ${res.reason}`), retries };
      // A message cut at the model's token limit is unfinished: never sent to the agent as if whole (as the judge's, judge/client.ts).
      if (res.cut !== undefined && res.answer.kind !== 'refusal') return { kind: 'fault', fault: `simulator gave no usable answer: ${cutWords(res.cut)}`, retries };
      const answer = answerOf(res.answer, config.provider);
      return answer.kind === 'fault' ? { ...answer, fault: redact(answer.fault), retries } : { ...answer, retries };
    } catch (err) {
      // Thrown only for a fault of ours (a request body that could not be made: src/judge/http.ts), never
      // for what the network or the simulator did: said as the judge's client says it, not "unreachable"; not retried.
      return { kind: 'fault', fault: redact(`simulator call failed: ${err instanceof Error ? err.message : String(err)}`), retries };
    }
  }

  return {
    name: config.label ?? `${config.provider} ${config.model}`,
    next,
    structuredOutput: () => client.structuredOutput(),
    close: () => client.close(),
  };
}
