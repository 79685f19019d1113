// The demo agent's side of the tool mocks (docs/personas.md, "Mocks and real tool calls"): what an
// agent does with the `mocks` a persona script sends with every turn. A tool call is answered by the
// first mock with the same tool name whose input matches the call's input (`subset` by default,
// `exact` when the mock says so), by the engine's own matching rule, the one `agent-replay/mocks`
// gives real agents; a call no mock answers is reported with `mocked: false` and an `unmocked_tool`
// error, never sent to a real system.

import { callMatches } from '../evaluate/match.js';
import type { JsonValue } from '../types.js';
import { shownJson } from '../words.js';

export type Json = JsonValue;

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

/** Does a mock answer this call? The engine's own rule (src/evaluate/match.ts); `subset` unless the mock says `exact`. */
export function mockMatches(mock: Mock, tool: string, input: Json): boolean {
  return callMatches({ tool: mock.tool, input: mock.input, match: mock.match ?? 'subset' }, { tool, input });
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
  errors.push({ kind: 'unmocked_tool', tool, message: `no mock answers ${tool} with input ${shownJson(input)}; the demo agent calls no real system, so the call returned nothing` });
  return { tool, input, output: null, mocked: false };
}
