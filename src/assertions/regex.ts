import type { Outcome, RegexEvaluator, RegexResult } from '../types.js';
import { NOT_ASCII, writtenOtherwise } from './accents.js';
import { line, quote, showPattern } from './format.js';
import { thousands } from '../words.js';

/** Maps what the pool observed to a verdict and a detail line that says which. */
function regexOutcome(pattern: string, flags: string, result: RegexResult): Outcome {
  const shown = showPattern(pattern, flags);
  switch (result.kind) {
    case 'matched':
      return { verdict: 'pass', detail: `${shown} matched ${quote(result.match)}` };
    case 'no_match':
      return { verdict: 'fail', detail: `${shown} did not match` };
    case 'compile_error':
      return { verdict: 'not_evaluated', detail: `pattern does not compile: ${line(result.message)}` };
    case 'timeout':
      return { verdict: 'not_evaluated', detail: `regex did not finish within its ${thousands(result.budgetMs)} ms budget` };
    case 'worker_failed':
      return { verdict: 'not_evaluated', detail: `regex worker failed: ${line(result.message)}` };
  }
}

export async function evaluateRegex(pattern: string, flags: string, reply: string, regex: RegexEvaluator): Promise<Outcome> {
  let result: RegexResult;
  try {
    result = await regex.test(pattern, flags, reply);
  } catch (err) {
    result = { kind: 'worker_failed', message: err instanceof Error ? err.message : String(err) };
  }
  const outcome = regexOutcome(pattern, flags, result);
  return result.kind === 'no_match' ? { ...outcome, detail: outcome.detail + (await encodedOtherwise(pattern, flags, reply, regex)) } : outcome;
}

/**
 * Why a pattern that looks as the reply does did not match (docs/fixtures.md, "Assertions"): its
 * accented letters are written otherwise than the reply's (accents.ts), found by matching the
 * pattern written the other way, which the fix then gives. The check stays literal: a pattern is
 * not rewritten to match (`[é]` written as `e` and a combining accent is a class of two characters).
 * Empty otherwise, and at once for a pattern in ASCII or with no letter to write otherwise.
 */
async function encodedOtherwise(pattern: string, flags: string, reply: string, regex: RegexEvaluator): Promise<string> {
  if (!NOT_ASCII.test(pattern)) return '';
  const nfc = pattern.normalize('NFC');
  const checkNfc = pattern === nfc;
  const other = checkNfc ? pattern.normalize('NFD') : nfc;
  if (other === pattern) return '';
  const again = await regex.test(other, flags, reply).catch(() => null);
  return again?.kind === 'matched' ? writtenOtherwise('regex', checkNfc, other) : '';
}
