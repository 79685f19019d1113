// Reading the simulator's answer: `{message}` or `{done: true, reason}`, from a provider's decoded
// object (structured output) or from text (the plain prompt: the whole text, fenced blocks, or
// the balanced objects of prose that carry either; more than one answer is a fault). Pure.

import { keyedCandidates, snippet } from '../judge/parse.js';
import { shownJson } from '../words.js';

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
  return obj ?? noJson(shownJson(value) ?? String(value));
}

/** What an answer says, to tell two answers apart: done (whatever the reason), a message, a fault. */
function gist(answer: ParsedAnswer): string {
  return answer.kind === 'done' ? 'done' : answer.kind === 'message' ? `message ${answer.message}` : `fault ${answer.fault}`;
}

/**
 * From what the model wrote. An answer that says two things (a `{"done": true}` quoted from the
 * agent's reply before its own message, or `done` or `message` named twice in one object) is a
 * fault, as the judge's answer with two scores is no score (judge/parse.ts).
 */
export function parseSimulatorText(text: string): ParsedAnswer {
  const { values, repeated } = keyedCandidates(text.trim(), ['done', 'message']);
  const answers = values.map(fromObject).filter((a): a is ParsedAnswer => a !== null);
  const first = answers[0];
  if (first === undefined) return noJson(text);
  const different = new Set(answers.map(gist)).size;
  if (different > 1) return { kind: 'fault', fault: `simulator gave ${different} different answers in one: which one is meant is unknown` };
  if (repeated) return { kind: 'fault', fault: 'simulator named "done" or "message" twice in one object: which one is meant is unknown' };
  return first;
}
