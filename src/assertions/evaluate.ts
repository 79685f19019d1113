// One assertion against one reply (docs/fixtures.md, "Assertions"). Every kind returns the same
// Outcome, and the detail line always says why. Not evaluated is never a failure. A list of
// checks (`assert: [...]`) gives each check's own result and one verdict: all must pass.

import type { Assertion, AssertionCheck, Judge, Outcome, RegexEvaluator, SingleAssertion, ToolCall } from '../types.js';
import { evaluateContains } from './contains.js';
import { evaluateJudge } from './judge.js';
import { evaluateMaxLatency } from './latency.js';
import { listDetail, listVerdict } from './list.js';
import { evaluateRegex } from './regex.js';
import { evaluateToolAssertion } from './tools.js';

export interface AssertionDeps {
  regex: RegexEvaluator;
  judge: Judge | null;
  /** The suite's config file (Suite.configName), named by the reason with no judge configured; absent: config.yml. */
  configName?: string;
}

/** What the checks read. */
export interface CheckInput {
  /** The reply as the agent sent it: contains and regex read it. */
  reply: string;
  /** The reply as recorded (secrets redacted): the judge reads it, as a third party. */
  recorded: string;
  /** The message turn's latency on the client's clock; null: not measured. */
  latencyMs: number | null;
  /** The judge's answer reused from the baseline (no judge call), or null. */
  reusedJudge: Outcome | null;
  /**
   * The message turn's tool calls as recorded (docs/traces.md, "Fixtures"); null or absent: the turn
   * reported none, so tool checks are not evaluated (`toolCallsProblem`, when set, says why).
   */
  toolCalls?: readonly ToolCall[] | null;
  toolCallsProblem?: string | null;
}

export const PROBE_DETAIL = 'probe: nothing to check';

/** One assertion on a reply, without latency or reuse (a probe from the CLI, a test). */
export async function evaluateAssertion(assertion: Assertion | null, reply: string, deps: AssertionDeps): Promise<Outcome> {
  return (await evaluateChecks(assertion, { reply, recorded: reply, latencyMs: null, reusedJudge: null }, deps)).outcome;
}

/**
 * The assertion's outcome and, for a list, each check's result in order (null otherwise). A list's
 * score, threshold and rationale are its judge check's (a list holds at most one).
 */
export async function evaluateChecks(assertion: Assertion | null, input: CheckInput, deps: AssertionDeps): Promise<{ outcome: Outcome; checks: AssertionCheck[] | null }> {
  if (assertion === null) return { outcome: { verdict: 'pass', detail: PROBE_DETAIL }, checks: null };
  if (assertion.kind !== 'all') return { outcome: await evaluateOne(assertion, input, deps), checks: null };
  const checks: AssertionCheck[] = [];
  let judged: Outcome | null = null;
  for (const a of assertion.assertions) {
    const o = await evaluateOne(a, input, deps);
    if (a.kind === 'judge') judged = o;
    checks.push({ assertion: a, status: o.verdict, detail: o.detail, score: o.score ?? null, threshold: o.threshold ?? null, rationale: o.rationale ?? null });
  }
  // The judge check's score and rationale stand for the list's (the record keeps one judge's), and
  // a panel's members with them: a kept result is decided by their majority again (docs/judges.md, "Panels").
  const outcome = {
    verdict: listVerdict(checks),
    detail: listDetail(checks),
    score: judged?.score ?? undefined,
    threshold: judged?.threshold,
    rationale: judged?.rationale ?? undefined,
    ...(judged?.members !== undefined ? { members: judged.members } : {}),
  } as Outcome;
  return { outcome, checks };
}

async function evaluateOne(a: SingleAssertion, input: CheckInput, deps: AssertionDeps): Promise<Outcome> {
  switch (a.kind) {
    case 'contains':
      return evaluateContains(a.value, input.reply);
    case 'regex':
      return evaluateRegex(a.pattern, a.flags, input.reply, deps.regex);
    case 'judge':
      return input.reusedJudge ?? evaluateJudge(a.criterion, a.threshold, input.recorded, deps.judge, deps.configName);
    case 'maxLatency':
      return evaluateMaxLatency(a.ms, input.latencyMs);
    case 'toolCalled':
    case 'toolNotCalled':
      return evaluateToolAssertion(a, input.toolCalls ?? null, input.toolCallsProblem ?? null);
  }
}
