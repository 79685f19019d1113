// The pure core of persona scripts (SPEC section 10): tool-input matching, the deterministic
// checks, criteria outcomes, the verdict, drift and acceptance. Data in, data out.

import type {
  Check,
  JsonValue,
  JudgeResult,
  JudgeReuse,
  MatchMode,
  ObservedToolCall,
  PersonaBaseline,
  PersonaDrift,
  PersonaErrorKind,
  PersonaRecord,
  PersonaScript,
  Route,
  Terminal,
  ToolExpectation,
  Turn,
  Verdict,
} from '../types.js';
import { callMatches } from './match.js';
import { formatPair, line } from '../assertions/format.js';
import { driftVerdict, sameRoute } from './index.js';
import { personaRepliesVary, repliesVary } from './repeat.js';
import { personaBaselineJudgeOf, reuseWords, samePersonaJudge } from './reuse.js';

// --- matching: src/evaluate/match.ts (shared with the agent-side mocks helpers) -------------------

export { callMatches, jsonEqual, jsonSubset } from './match.js';

// --- what the turns show ---------------------------------------------------------------------------

/** A conversation name without a leading `conversations:` (the prefix rule). */
export function conversationName(name: string): string {
  return name.startsWith('conversations:') ? name.slice('conversations:'.length) : name;
}

/** Every `route.conversation` of every turn, welcome included, in first-visit order. */
export function visitedConversations(turns: readonly Turn[]): string[] {
  const out: string[] = [];
  for (const t of turns) if (t.route && !out.includes(t.route.conversation)) out.push(t.route.conversation);
  return out;
}

/** The outcome of the turn that ended the conversation, else of the last turn (the same turn: nothing is sent after an end). */
export function finalOutcome(turns: readonly Turn[]): string | null {
  return turns.at(-1)?.outcome ?? null;
}

/** Does any turn report tool calls? */
export function reportsToolCalls(turns: readonly Turn[]): boolean {
  return turns.some((t) => t.toolCalls !== null);
}

export function observedCalls(turns: readonly Turn[]): ObservedToolCall[] {
  return turns.flatMap((t) => (t.toolCalls ?? []).map((c) => ({ ...c, turn: t.index })));
}

// --- checks ----------------------------------------------------------------------------------------

export const NO_TOOL_CALLS_REASON = 'the agent does not report tool calls';
export const NO_OUTCOMES_REASON = 'the agent does not report outcomes';
export const RUN_DID_NOT_COMPLETE = 'the run did not complete';

function list(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.join(', ');
}

function describeCall(tool: string, input: JsonValue | undefined, match: MatchMode): string {
  if (input === undefined) return tool;
  return `${tool} ${line(JSON.stringify(input))}${match === 'exact' ? ' (exact)' : ''}`;
}

export function conversationsCheck(expected: readonly string[], turns: readonly Turn[]): Check {
  const visited = visitedConversations(turns);
  const names = new Set(visited.map(conversationName));
  const missing = expected.filter((e) => !visited.includes(e) && !names.has(conversationName(e)));
  const detail = `visited: ${list(visited)}; missing: ${list(missing)}`;
  return { kind: 'conversations', expected: [...expected], observed: visited, status: missing.length === 0 ? 'pass' : 'fail', detail };
}

export function terminalCheck(expected: Terminal, turns: readonly Turn[], outcomesReported: boolean): Check {
  const observed = finalOutcome(turns);
  if (!outcomesReported) return { kind: 'terminal', expected, observed: null, status: 'not_evaluated', detail: NO_OUTCOMES_REASON };
  if (observed === null) return { kind: 'terminal', expected, observed, status: 'fail', detail: `expected ${expected}: the conversation did not end` };
  const status = observed === expected ? 'pass' : 'fail';
  return { kind: 'terminal', expected, observed, status, detail: `expected ${expected}, ended with ${line(observed)}` };
}

export function toolCheck(kind: 'toolCalled' | 'toolNotCalled', expected: ToolExpectation, turns: readonly Turn[]): Check {
  const wanted = describeCall(expected.tool, expected.input, expected.match);
  const observed = observedCalls(turns).filter((c) => c.tool === expected.tool);
  if (!reportsToolCalls(turns)) return { kind, expected, observed, turn: null, status: 'not_evaluated', detail: NO_TOOL_CALLS_REASON };
  const first = observed.find((c) => callMatches(expected, c)) ?? null;
  const turn = first?.turn ?? null;
  const shown = observed.slice(0, 5).map((c) => line(JSON.stringify(c.input)));
  const more = observed.length > 5 ? `; +${observed.length - 5} more` : '';
  const others = observed.length === 0 ? `${expected.tool} was not called` : `${expected.tool} was called with ${shown.join('; ')}${more}`;
  if (kind === 'toolCalled') {
    const detail = first ? `called ${wanted} at turn ${first.turn}` : `expected a call of ${wanted}: ${others}`;
    return { kind, expected, observed, turn, status: first ? 'pass' : 'fail', detail };
  }
  const detail = first ? `${wanted} must not be called, but was at turn ${first.turn}` : `not called: ${wanted}`;
  return { kind, expected, observed, turn, status: first ? 'fail' : 'pass', detail };
}

/** Every check that needs no judge, in the order of the `expect` block. */
export function deterministicChecks(script: Pick<PersonaScript, 'expect'>, turns: readonly Turn[], outcomesReported: boolean): Check[] {
  const e = script.expect;
  const checks: Check[] = [];
  if (e.conversations.length > 0) checks.push(conversationsCheck(e.conversations, turns));
  if (e.terminal !== null) checks.push(terminalCheck(e.terminal, turns, outcomesReported));
  for (const t of e.toolCalled) checks.push(toolCheck('toolCalled', t, turns));
  for (const t of e.toolNotCalled) checks.push(toolCheck('toolNotCalled', t, turns));
  return checks;
}

/** A criterion's check from the judge's answer: pass iff score >= threshold; no usable score: not evaluated. */
export function criterionCheck(criterion: string, threshold: number, result: JudgeResult, reused: JudgeReuse | null = null): Check {
  const base = { kind: 'criterion' as const, expected: criterion, observed: null, threshold };
  if (!result.ok) return { ...base, status: 'not_evaluated', detail: `judge unreachable: ${line(result.reason)}`, score: null, rationale: null };
  const [s, t] = formatPair(result.score, threshold);
  const passed = result.score >= threshold;
  return {
    ...base,
    status: passed ? 'pass' : 'fail',
    detail: `score ${s} ${passed ? '>=' : '<'} threshold ${t}${reused === null ? '' : `, ${reuseWords(reused)}`}: ${result.rationale}`,
    score: result.score,
    rationale: result.rationale,
    ...(reused !== null ? { reused } : {}),
  };
}

/** A criterion that was not sent to the judge (no judge, or an errored run). */
export function criterionNotSent(criterion: string, threshold: number, reason: string): Check {
  return { kind: 'criterion', expected: criterion, observed: null, threshold, status: 'not_evaluated', detail: reason, score: null, rationale: null };
}

/** fail if any check failed, else not evaluated if any did not run, else pass. */
export function personaVerdict(checks: readonly Check[]): Verdict {
  if (checks.some((c) => c.status === 'fail')) return 'fail';
  if (checks.some((c) => c.status === 'not_evaluated')) return 'not_evaluated';
  return 'pass';
}

/**
 * Errors override a pass: a tool call reported with `mocked: false` or an `errors` entry makes the
 * script errored whatever its checks say. The first one found, in turn order, is the error.
 */
export function reportedError(turns: readonly Turn[]): { errorKind: PersonaErrorKind; error: string } | null {
  for (const t of turns) {
    const real = (t.toolCalls ?? []).find((c) => !c.mocked);
    if (real) {
      return {
        errorKind: 'unmocked_tool',
        error: `turn ${t.index}: the agent reported a call to ${real.tool} that no mock answered (mocked: false); add a mock for it to the script's mocks, or fix the agent so it answers its tools from the mocks`,
      };
    }
    const entry = t.errors[0];
    if (entry) {
      const what = [entry.kind, entry.tool === null ? null : `tool ${entry.tool}`].filter(Boolean).join(', ');
      return { errorKind: entry.kind === 'unmocked_tool' ? 'unmocked_tool' : 'agent_error', error: `turn ${t.index}: the agent reported an error (${what})${entry.message ? `: ${line(entry.message)}` : ''}` };
    }
  }
  return null;
}

// --- drift and acceptance --------------------------------------------------------------------------

function sameRoutes(a: readonly (Route | null)[], b: readonly (Route | null)[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRoute(r, b[i] ?? null));
}

/** Transcript (any reply or the number of turns), route sequence, and the six-valued verdict comparison. */
export function personaDrift(current: Verdict, turns: readonly Turn[], baseline: PersonaBaseline | null): PersonaDrift {
  const verdict = driftVerdict(current, baseline);
  if (baseline === null) return { transcript: null, route: null, verdict };
  const b = baseline.transcript;
  const transcript = b.length === turns.length && b.every((t, i) => t.reply === turns[i]?.reply) ? 'same' : 'different';
  const route = sameRoutes(
    b.map((t) => t.route),
    turns.map((t) => t.route),
  )
    ? 'same'
    : 'different';
  return { transcript, route, verdict };
}

/** The turn number of the first turn that differs from the baseline (reply, route, or one side has no such turn), or null. */
export function firstDifferentTurn(turns: readonly Turn[], baseline: PersonaBaseline): number | null {
  const b = baseline.transcript;
  // Turn numbers: the welcome turn is 0 when there is one (its message is null), the opening is 1.
  const hasWelcome = turns[0] !== undefined ? turns[0].index === 0 : b[0]?.message === null;
  for (let i = 0; i < Math.max(turns.length, b.length); i++) {
    const t = turns[i];
    const old = b[i];
    if (!t || !old || t.reply !== old.reply || !sameRoute(t.route, old.route)) return t?.index ?? (hasWelcome ? i : i + 1);
  }
  return null;
}

export const REFUSE_PERSONA_ERRORED = 'errored: the run did not complete';

export type PersonaAcceptDecision = { kind: 'accept'; baseline: PersonaBaseline } | { kind: 'unchanged' } | { kind: 'refuse'; reason: string };

/** As for fixtures: the current verdict decides; not evaluated and errored are refused. */
export function decidePersonaAcceptance(record: PersonaRecord, acceptedAt: string, commit: string | null, current: PersonaBaseline | null = record.baseline): PersonaAcceptDecision {
  if (record.errored) return { kind: 'refuse', reason: REFUSE_PERSONA_ERRORED };
  // SPEC 12: a repeated script whose attempts' transcripts replied differently has no one transcript to accept.
  if (record.attempts !== undefined && personaRepliesVary(record.attempts)) return { kind: 'refuse', reason: repliesVary(record.attempts.length) };
  if (record.verdict !== 'pass' && record.verdict !== 'fail') return { kind: 'refuse', reason: 'not evaluated: run it again' };
  const transcript = record.turns.map((t) => ({ message: t.message, reply: t.reply, route: t.route === null ? null : { conversation: t.route.conversation, stage: t.route.stage } }));
  const judge = personaBaselineJudgeOf(record);
  if (
    current !== null &&
    (judge === null || current.judge === undefined || samePersonaJudge(current.judge, judge)) &&
    current.verdict === record.verdict &&
    current.outcome === record.outcome &&
    current.visited.length === record.visited.length &&
    current.visited.every((v, i) => v === record.visited[i]) &&
    current.transcript.length === transcript.length &&
    current.transcript.every((t, i) => t.message === transcript[i]?.message && t.reply === transcript[i]?.reply && sameRoute(t.route, transcript[i]?.route ?? null))
  ) {
    return { kind: 'unchanged' };
  }
  return {
    kind: 'accept',
    baseline: {
      label: record.label,
      kind: 'persona',
      transcript,
      visited: [...record.visited],
      outcome: record.outcome,
      verdict: record.verdict,
      ...(judge !== null ? { judge } : {}),
      acceptedAt,
      commit,
    },
  };
}

// --- cost ------------------------------------------------------------------------------------------

/** Agent turns one script costs: the welcome turn (only when the agent has one), the opening, the follow-ups. */
export function personaTurns(script: Pick<PersonaScript, 'followUps'>, welcomeTurn: boolean): number {
  return (welcomeTurn ? 1 : 0) + 1 + script.followUps.length;
}
