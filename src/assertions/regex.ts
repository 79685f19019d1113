import type { Outcome, RegexEvaluator, RegexResult } from '../types.js';
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
  return regexOutcome(pattern, flags, result);
}
