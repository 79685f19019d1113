// The demo agent's side of SPEC 10's tool mocks: what an agent does with the `mocks` a persona
// script sends with every turn. A tool call is answered by the first mock with the same tool name
// whose input matches the call's input (`subset` by default, `exact` when the mock says so); a call
// no mock answers is reported with `mocked: false` and an `unmocked_tool` error, never sent to a
// real system. This is the agent's code, not the checker's: a real agent would carry its own copy.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface Mock {
  tool: string;
  input?: Json;
  match?: 'exact' | 'subset';
  output?: Json;
}

export interface ToolCall {
  tool: string;
  input: Json;
  output: Json;
  mocked: boolean;
}

export interface AgentError {
  kind: 'unmocked_tool';
  tool: string;
  message: string;
}

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep equality of JSON values, no coercion (`1` is not `"1"`), key order ignored. */
export function jsonEqual(a: Json, b: Json): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i] as Json));
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k] as Json, b[k] as Json));
  }
  return a === b;
}

/**
 * `expected` is contained in `actual`: every key given is present and matches recursively; an
 * expected array matches when each element matches a distinct element of the actual array, in any
 * order; scalars compare exactly.
 */
export function jsonSubset(expected: Json, actual: Json): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    return assignDistinct(expected, actual, 0, new Set());
  }
  if (isObject(expected)) {
    return isObject(actual) && Object.entries(expected).every(([k, v]) => k in actual && jsonSubset(v, actual[k] as Json));
  }
  return expected === actual;
}

/** Backtracking: each expected element from `i` on gets an actual element not yet used. */
function assignDistinct(expected: Json[], actual: Json[], i: number, used: Set<number>): boolean {
  if (i === expected.length) return true;
  for (let j = 0; j < actual.length; j++) {
    if (used.has(j) || !jsonSubset(expected[i] as Json, actual[j] as Json)) continue;
    used.add(j);
    if (assignDistinct(expected, actual, i + 1, used)) return true;
    used.delete(j);
  }
  return false;
}

export function mockMatches(mock: Mock, tool: string, input: Json): boolean {
  if (mock.tool !== tool) return false;
  if (mock.input === undefined) return true;
  return mock.match === 'exact' ? jsonEqual(mock.input, input) : jsonSubset(mock.input, input);
}

/** Reads the request's `mocks` leniently: entries without a tool name are ignored. */
export function readMocks(value: unknown): Mock[] {
  if (!Array.isArray(value)) return [];
  return value.filter((m): m is Mock => isObject(m) && typeof m.tool === 'string');
}

/** One tool call of the agent, answered from the mocks; unmocked calls are reported as errors. */
export function callTool(mocks: readonly Mock[], tool: string, input: Json, errors: AgentError[]): ToolCall {
  const mock = mocks.find((m) => mockMatches(m, tool, input));
  if (mock !== undefined) return { tool, input, output: mock.output ?? null, mocked: true };
  errors.push({ kind: 'unmocked_tool', tool, message: `no mock answers ${tool} with input ${JSON.stringify(input)}; the demo agent calls no real system, so the call returned nothing` });
  return { tool, input, output: null, mocked: false };
}
