// Reading the simulator's answer: `{message}` or `{done: true, reason}`, from a provider's decoded
// object (structured output) or from text (the plain prompt: the whole text, a fenced block, or
// the first balanced object that carries either). Pure.

import { jsonCandidates, snippet } from '../judge/parse.js';

export type ParsedAnswer = { kind: 'message'; message: string } | { kind: 'done'; reason: string } | { kind: 'fault'; fault: string };

const EMPTY_MESSAGE = 'simulator wrote an empty message';
const NO_REASON = '(no reason given)';

function noJson(what: string): ParsedAnswer {
  return { kind: 'fault', fault: `simulator answered no usable JSON: "${snippet(what)}"` };
}

/** An answer from one object; null when it carries neither `done: true` nor a message. */
function fromObject(obj: Record<string, unknown>): ParsedAnswer | null {
  if (obj.done === true || obj.done === 'true') {
    const reason = typeof obj.reason === 'string' && obj.reason.trim() !== '' ? obj.reason.trim().split(/\r?\n/)[0] ?? NO_REASON : NO_REASON;
    return { kind: 'done', reason };
  }
  if (!('message' in obj)) return null;
  if (obj.message === null || (typeof obj.message === 'string' && obj.message.trim() === '')) return { kind: 'fault', fault: EMPTY_MESSAGE };
  if (typeof obj.message !== 'string') return null;
  return { kind: 'message', message: obj.message.trim() };
}

/** From an object the provider decoded (an Anthropic tool call's input, an OpenAI strict JSON content). */
export function parseSimulatorObject(value: unknown): ParsedAnswer {
  const obj = value !== null && typeof value === 'object' && !Array.isArray(value) ? fromObject(value as Record<string, unknown>) : null;
  return obj ?? noJson(JSON.stringify(value) ?? String(value));
}

/** From what the model wrote. */
export function parseSimulatorText(text: string): ParsedAnswer {
  for (const obj of jsonCandidates(text.trim())) {
    const answer = fromObject(obj);
    if (answer !== null) return answer;
  }
  return noJson(text);
}
