import type { Outcome } from '../types.js';
import { quote } from './format.js';

/** Literal, case-sensitive `reply.includes(value)`. */
export function evaluateContains(value: string, reply: string): Outcome {
  return reply.includes(value)
    ? { verdict: 'pass', detail: `reply contains ${quote(value)}` }
    : { verdict: 'fail', detail: `reply does not contain ${quote(value)}` };
}
