// `agent-replay/mocks`: make an agent's tools answer from the mocks agent-replay sends with a
// persona script (docs/personas.md, "Mocks and real tool calls"; usage per framework in
// docs/frameworks/), with the engine's own matching rule
// (src/evaluate/match.ts). Dependency-free: one file in the package, no framework imported; the
// wrappers take the framework's objects and give back the same shape.
//
//   Vercel AI SDK   tools: mockTools({ find_order }, body.mocks)          (mocks beside `messages`)
//   LangGraph JS    tool(mockLangGraphTool('find_order', fn), { name: 'find_order', ... })
//                   (mocks in `config.configurable.mocks`, which every tool call receives)
//   OpenAI Agents   tool(mockAgentsTool({ name: 'find_order', parameters, execute }))
//                   (mocks in the run context: run(agent, input, { context: { mocks } }))
//   Mastra          createTool({ id: 'find_order', inputSchema, execute: mockMastraTool('find_order', fn) })
//                   (mocks in the request body's `requestContext.mocks`, which every tool receives)
//
// The rule: no mocks (or an empty list) is live mode, every tool runs for real. With mocks, a call
// that a mock matches answers with that mock's output (the tool does not run); a call no mock
// matches throws UnmockedToolError and the tool does not run either: agent-replay reports the
// script errored ("unmocked tool"), the way it would if the tool had run.

import { callMatches } from '../evaluate/match.js';
import { shownJson } from '../words.js';

/** A JSON value (the package's own name for it: the declarations ship without the engine's types). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** How a mock's `input` is compared with a call's: `subset` (default) or `exact`. */
export type MatchMode = 'exact' | 'subset';

/** One mock as agent-replay sends it: `{tool, input?, match, output}`. */
export interface Mock {
  tool: string;
  /** Absent: any call of `tool` matches. */
  input?: JsonValue;
  /** Default `subset`. */
  match?: MatchMode;
  output: JsonValue;
}

/** A tool call in mocked mode that no mock answers. */
export class UnmockedToolError extends Error {
  readonly tool: string;
  readonly input: JsonValue;
  constructor(tool: string, input: JsonValue) {
    super(`agent-replay: no mock answers ${tool}(${shownJson(input)}); add a mock for it to the persona script, or drop the script's mocks to run its tools for real`);
    this.name = 'UnmockedToolError';
    this.tool = tool;
    this.input = input;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value as JSON sees it (undefined keys dropped, Dates as text), so matching compares what was sent. */
function asJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/**
 * The mocks of a request, checked: undefined or null is no mocks (live mode); anything else must be
 * a list of `{tool: string, match?: 'exact' | 'subset', input?, output}`. A malformed list throws a
 * TypeError naming the entry, rather than silently running real tools.
 */
export function readMocks(value: unknown): Mock[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new TypeError(`agent-replay mocks: expected a list of mocks, got ${typeof value}`);
  return value.map((m: unknown, i) => {
    if (!isRecord(m) || typeof m['tool'] !== 'string') throw new TypeError(`agent-replay mocks: entry ${i} must be an object with a string "tool"`);
    const match = m['match'] ?? 'subset';
    if (match !== 'exact' && match !== 'subset') throw new TypeError(`agent-replay mocks: entry ${i} (${m['tool']}): match must be "exact" or "subset", got ${shownJson(match)}`);
    if (!Object.hasOwn(m, 'output')) throw new TypeError(`agent-replay mocks: entry ${i} (${m['tool']}) has no "output"`);
    const mock: Mock = { tool: m['tool'], match, output: asJson(m['output']) };
    if (m['input'] !== undefined) mock.input = asJson(m['input']);
    return mock;
  });
}

/** The first mock (in the script's order) that matches a call, or undefined. */
export function findMock(mocks: readonly Mock[], tool: string, input: unknown): Mock | undefined {
  const call = { tool, input: asJson(input) };
  return mocks.find((m) => callMatches({ tool: m.tool, input: m.input, match: m.match ?? 'subset' }, call));
}

/** What a tool call should do: run for real (live mode), or answer with `output`. */
export type MockAnswer = { mocked: false } | { mocked: true; output: JsonValue };

/** The decision for one call; throws UnmockedToolError in mocked mode when no mock matches. */
export function answerFromMocks(mocks: unknown, tool: string, input: unknown): MockAnswer {
  const list = readMocks(mocks);
  if (list.length === 0) return { mocked: false };
  const mock = findMock(list, tool, input);
  if (mock === undefined) throw new UnmockedToolError(tool, asJson(input));
  return { mocked: true, output: mock.output };
}

// --- Vercel AI SDK -------------------------------------------------------------------------------

type Execute = (input: never, ...rest: never[]) => unknown;

/**
 * Vercel AI SDK: the same tools, each `execute` answering from `mocks` (the request body's
 * top-level `mocks`). Tools without `execute` (client-side tools) are left as they are.
 */
export function mockTools<T extends Record<string, object>>(tools: T, mocks: unknown): T {
  const list = readMocks(mocks);
  if (list.length === 0) return tools;
  const out: Record<string, object> = {};
  for (const [name, t] of Object.entries(tools)) {
    const execute = (t as { execute?: unknown }).execute;
    if (typeof execute !== 'function') {
      out[name] = t;
      continue;
    }
    out[name] = {
      ...t,
      execute: (input: unknown, ...rest: unknown[]): unknown => {
        const answer = answerFromMocks(list, name, input);
        return answer.mocked ? answer.output : (execute as (...a: unknown[]) => unknown)(input, ...rest);
      },
    };
  }
  return out as T;
}

// --- LangGraph JS --------------------------------------------------------------------------------

/** The mocks a LangGraph run carries in `config.configurable.mocks`. */
export function langGraphMocks(config: unknown): unknown {
  return isRecord(config) && isRecord(config['configurable']) ? config['configurable']['mocks'] : undefined;
}

/**
 * LangGraph JS (and LangChain `tool()`): wraps a tool function `(input, config)` so that it answers
 * from `config.configurable.mocks`, which LangGraph passes to every tool call of the run.
 */
export function mockLangGraphTool<I, C, R>(name: string, fn: (input: I, config: C) => R): (input: I, config: C) => R | JsonValue {
  return (input, config) => {
    const answer = answerFromMocks(langGraphMocks(config), name, input);
    return answer.mocked ? answer.output : fn(input, config);
  };
}

// --- OpenAI Agents SDK ---------------------------------------------------------------------------

/** The mocks an OpenAI Agents run carries in its context: `run(agent, input, { context: { mocks } })`. */
export function agentsMocks(runContext: unknown): unknown {
  return isRecord(runContext) && isRecord(runContext['context']) ? runContext['context']['mocks'] : undefined;
}

/**
 * OpenAI Agents SDK: the options of a function tool (`tool({ name, parameters, execute })`) with an
 * `execute` that answers from the run context's `mocks`. The mocked output is returned as JSON text,
 * as a function tool's result reaches the model.
 */
export function mockAgentsTool<O extends { name: string; execute: Execute }>(options: O): O {
  const execute = options.execute as (...a: unknown[]) => unknown;
  return {
    ...options,
    execute: (input: unknown, runContext?: unknown, ...rest: unknown[]): unknown => {
      const answer = answerFromMocks(agentsMocks(runContext), options.name, typeof input === 'string' ? parseArguments(input) : input);
      return answer.mocked ? JSON.stringify(answer.output) : execute(input, runContext, ...rest);
    },
  };
}

/** A tool without a parameters schema gets its arguments as JSON text. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

// --- Mastra --------------------------------------------------------------------------------------

/**
 * The mocks a Mastra tool call carries: the server copies the request body's `requestContext`
 * into the RequestContext every tool's execution context holds (`context.requestContext.get('mocks')`).
 */
export function mastraMocks(context: unknown): unknown {
  if (!isRecord(context)) return undefined;
  const rc = context['requestContext'];
  if (rc !== null && typeof rc === 'object' && typeof (rc as { get?: unknown }).get === 'function') return (rc as { get(key: string): unknown }).get('mocks');
  return isRecord(rc) ? rc['mocks'] : undefined;
}

/**
 * Mastra: wraps a tool's `execute` (`createTool({ id, inputSchema, execute: mockMastraTool('find_order',
 * fn) })`) so that it answers from the request's `requestContext.mocks` (the mastra preset sends
 * them there); no mocks: the real function runs. `name` is the name the model calls the tool by.
 */
export function mockMastraTool<I, C, R>(name: string, fn: (input: I, context: C) => R | Promise<R>): (input: I, context: C) => Promise<R | JsonValue> {
  // Mastra's execute returns a promise: an unmocked call rejects rather than throws.
  return async (input, context) => {
    const answer = answerFromMocks(mastraMocks(context), name, input);
    return answer.mocked ? answer.output : fn(input, context);
  };
}
