// Tool calls as checks read them (docs/personas.md, "The checks"; docs/traces.md, "Fixtures"): the JSON
// of a call's input and output, and a `toolCalled` / `toolNotCalled` expectation. Shared by persona
// scripts and fixture assertions, so both match calls by one rule (src/evaluate/match.ts).

/** A JSON value as read from YAML or an agent's response (tool inputs and outputs). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** How an expected tool input is compared with an actual one; `subset` is the default. */
export type MatchMode = 'exact' | 'subset';

/** One `toolCalled` / `toolNotCalled` entry: a tool name and, optionally, its input. */
export interface ToolExpectation {
  tool: string;
  /** Absent: any call of `tool` matches. */
  input?: JsonValue;
  match: MatchMode;
}
