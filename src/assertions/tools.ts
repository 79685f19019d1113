// toolCalled / toolNotCalled (docs/personas.md, "The checks"; docs/traces.md, "Fixtures"): one decision and
// one wording for persona scripts and fixtures. Matching is src/evaluate/match.ts's `callMatches`,
// the rule mocks use too; only where a match was seen is said differently ("at turn 2" in a script,
// the call's input in a fixture's one message turn).

import type { JsonValue, MatchMode, Outcome, ToolAssertion, ToolCall, ToolExpectation, Verdict } from '../types.js';
import { callMatches } from '../evaluate/match.js';
import { jsonLine } from './format.js';
import { suggest } from '../suite/issues.js';
import { docsUrl } from '../version.js';
import { listAndMore } from '../words.js';

/** "lookup_order", or with its input as every surface writes JSON (jsonText, on one line: jsonLine): 'lookup_order {"orderId": "1234"} (exact)'. */
export function describeCall(tool: string, input: JsonValue | undefined, match: MatchMode): string {
  if (input === undefined) return tool;
  return `${tool} ${jsonLine(input)}${match === 'exact' ? ' (exact)' : ''}`;
}

/** A toolCalled / toolNotCalled decision: the status, its detail, and the first matching call. */
export interface ToolMatch<C> {
  status: Exclude<Verdict, 'not_evaluated'>;
  detail: string;
  first: C | null;
}

/**
 * toolCalled passes when some call matches; toolNotCalled passes when none does. `where` says where
 * a matching call was seen (" at turn 2"); the detail of a miss lists the calls of the same tool.
 */
export function toolMatch<C extends Pick<ToolCall, 'tool' | 'input'>>(
  kind: 'toolCalled' | 'toolNotCalled',
  expected: ToolExpectation,
  calls: readonly C[],
  where: (call: C) => string,
): ToolMatch<C> {
  const wanted = describeCall(expected.tool, expected.input, expected.match);
  const sameTool = calls.filter((c) => c.tool === expected.tool);
  const first = sameTool.find((c) => callMatches(expected, c)) ?? null;
  // Each input is JSON, with commas of its own: "; " between them, and "; and N more" (docs/architecture.md, words.ts).
  const shown = listAndMore(sameTool, 5, (c) => jsonLine(c.input), '; ');
  const others = sameTool.length === 0 ? `${expected.tool} was not called${calledInstead(expected.tool, calls)}` : `${expected.tool} was called with ${shown}`;
  if (kind === 'toolCalled') {
    return first ? { status: 'pass', detail: `called ${wanted}${where(first)}`, first } : { status: 'fail', detail: `expected a call of ${wanted}: ${others}`, first };
  }
  // A check of a tool never called passes; when a tool of a name near it was, the name may be a typo that would hide that call.
  const near = sameTool.length === 0 ? nearName(expected.tool, calls) : null;
  return first
    ? { status: 'fail', detail: `${wanted} must not be called, but was${where(first)}`, first }
    : { status: 'pass', detail: `not called: ${wanted}${near === null ? '' : ` (but ${near} was: is the check's tool name right?)`}`, first };
}

/** The tool among `calls` whose name is near `tool` (a letter off, another case), or null. */
function nearName(tool: string, calls: readonly Pick<ToolCall, 'tool'>[]): string | null {
  const names = [...new Set(calls.map((c) => c.tool))].filter((n) => n !== tool);
  return suggest(tool, names);
}

/**
 * "; the tools called: find_order, issue_refund (did you mean find_order?)": what a turn called
 * instead of a tool it never called, so that a check naming a tool that does not exist (a typo, a
 * renamed tool) says which ones do (docs/traces.md, "Fixtures"); "" when it called none.
 */
function calledInstead(tool: string, calls: readonly Pick<ToolCall, 'tool'>[]): string {
  const names = [...new Set(calls.map((c) => c.tool))];
  if (names.length === 0) return '';
  const near = nearName(tool, calls);
  const listed = listAndMore(names, 5, (n) => n);
  return `; the tool${names.length === 1 ? '' : 's'} called: ${listed}${near === null ? '' : ` (did you mean ${near}?)`}`;
}

/**
 * Why a fixture's tool check did not run: the message turn reported no tool calls (no `toolCalls`
 * in the response, or no mapping for it). Never a failure (docs/traces.md, "Fixtures").
 */
export const FIXTURE_NO_TOOL_CALLS =
  'the agent does not report tool calls: map agent.response.toolCalls to where its response lists them, ' +
  `or see ${docsUrl('traces.md', 'Fixtures')} for an agent that answers with text alone`;

/**
 * A fixture's `assert: {toolCalled | toolNotCalled}` over its message turn's calls; null: the turn
 * reported none, and `problem` (when set) says why they could not be read (the response's, or the
 * turn's spans', docs/traces.md "When spans do not arrive"), as a whole detail line.
 */
export function evaluateToolAssertion(a: ToolAssertion, calls: readonly ToolCall[] | null, problem: string | null = null): Outcome {
  if (calls === null) return { verdict: 'not_evaluated', detail: problem ?? FIXTURE_NO_TOOL_CALLS };
  // The call's input, unless the expectation already says it as it was (`called find_order {"orderId": "1234"}`, said once).
  const wanted = a.input === undefined ? null : jsonLine(a.input);
  const m = toolMatch(a.kind, a, calls, (c) => {
    const input = jsonLine(c.input);
    return input === wanted ? '' : ` (input ${input})`;
  });
  return { verdict: m.status, detail: m.detail };
}
