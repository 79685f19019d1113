// Tool-call matching, one rule for the engine (toolCalled / toolNotCalled checks, whether a mock
// answered a call) and for the agent-side helpers of `agent-replay/mocks` (which mock answers a
// tool call). Pure and dependency-free: the mocks bundle imports this file alone.

import type { JsonValue, MatchMode } from '../types.js';

// --- matching --------------------------------------------------------------------------------------

function isObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep equality of JSON values: no coercion (`1` is not `"1"`), object key order ignored. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i] as JsonValue));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k] as JsonValue, b[k] as JsonValue));
  }
  return a === b;
}

/**
 * Subset matching: every key of an expected object is present in the actual one and matches
 * recursively (extra actual keys are fine); an expected array matches when each of its elements
 * matches a distinct element of the actual array, in any order; scalars compare exactly.
 */
export function jsonSubset(expected: JsonValue, actual: JsonValue): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && distinctMatch(expected, actual);
  if (isObject(expected)) {
    if (!isObject(actual)) return false;
    return Object.keys(expected).every((k) => Object.hasOwn(actual, k) && jsonSubset(expected[k] as JsonValue, actual[k] as JsonValue));
  }
  return expected === actual;
}

/** Is there an assignment of each expected element to its own actual element? (bipartite matching) */
function distinctMatch(expected: readonly JsonValue[], actual: readonly JsonValue[]): boolean {
  if (expected.length > actual.length) return false;
  const owner: (number | null)[] = actual.map(() => null);
  const fits = expected.map((e) => actual.map((a) => jsonSubset(e, a)));
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < actual.length; j++) {
      if (!fits[i]?.[j] || seen[j]) continue;
      seen[j] = true;
      const current = owner[j] as number | null;
      if (current === null || tryAssign(current, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  return expected.every((_, i) => tryAssign(i, actual.map(() => false)));
}

/** Does a reported call match an expectation (or a mock)? Same tool; no input: any call. */
export function callMatches(expected: { tool: string; input?: JsonValue; match: MatchMode }, call: { tool: string; input: JsonValue }): boolean {
  if (expected.tool !== call.tool) return false;
  if (expected.input === undefined) return true;
  return expected.match === 'exact' ? jsonEqual(expected.input, call.input) : jsonSubset(expected.input, call.input);
}

