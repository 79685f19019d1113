// One assertion against one reply (docs/fixtures.md, "Assertions"). Every kind returns the same
// Outcome, and the detail line always says why. Not evaluated is never a failure.

import type { Assertion, Judge, Outcome, RegexEvaluator } from '../types.js';
import { evaluateContains } from './contains.js';
import { evaluateJudge } from './judge.js';
import { evaluateRegex } from './regex.js';

export interface AssertionDeps {
  regex: RegexEvaluator;
  judge: Judge | null;
}

export const PROBE_DETAIL = 'probe: nothing to check';

export async function evaluateAssertion(assertion: Assertion | null, reply: string, deps: AssertionDeps): Promise<Outcome> {
  if (assertion === null) return { verdict: 'pass', detail: PROBE_DETAIL };
  switch (assertion.kind) {
    case 'contains':
      return evaluateContains(assertion.value, reply);
    case 'regex':
      return evaluateRegex(assertion.pattern, assertion.flags, reply, deps.regex);
    case 'judge':
      return evaluateJudge(assertion.criterion, assertion.threshold, reply, deps.judge);
  }
}
