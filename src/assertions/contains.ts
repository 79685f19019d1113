import type { Outcome } from '../types.js';
import { NOT_ASCII, writtenOtherwise } from './accents.js';
import { quote } from './format.js';

/** Literal, case-sensitive `reply.includes(value)`. */
export function evaluateContains(value: string, reply: string): Outcome {
  return reply.includes(value)
    ? { verdict: 'pass', detail: `reply contains ${quote(value)}` }
    : { verdict: 'fail', detail: `reply does not contain ${quote(value)}${encodedOtherwise(value, reply)}` };
}

/**
 * Why a reply that shows the value does not contain it (docs/fixtures.md, "Assertions"): the two
 * write an accented letter otherwise (accents.ts). The check stays literal; the words say why, and
 * the value as the reply writes it. Empty otherwise, and for ASCII texts at once.
 */
function encodedOtherwise(value: string, reply: string): string {
  if (!NOT_ASCII.test(value) && !NOT_ASCII.test(reply)) return '';
  if (!reply.normalize('NFC').includes(value.normalize('NFC'))) return '';
  const checkNfc = value === value.normalize('NFC');
  return writtenOtherwise('contains', checkNfc, value.normalize(checkNfc ? 'NFD' : 'NFC'));
}
