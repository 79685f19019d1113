/** A JSON value (the package's own name for it: the declarations ship without the engine's types). */
export type JsonValue = null | boolean | number | string | JsonValue[] | {
    [key: string]: JsonValue;
};
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
export declare class UnmockedToolError extends Error {
    readonly tool: string;
    readonly input: JsonValue;
    constructor(tool: string, input: JsonValue);
}
/**
 * The mocks of a request, checked: undefined or null is no mocks (live mode); anything else must be
 * a list of `{tool: string, match?: 'exact' | 'subset', input?, output}`. A malformed list throws a
 * TypeError naming the entry, rather than silently running real tools.
 */
export declare function readMocks(value: unknown): Mock[];
/** The first mock (in the script's order) that matches a call, or undefined. */
export declare function findMock(mocks: readonly Mock[], tool: string, input: unknown): Mock | undefined;
/** What a tool call should do: run for real (live mode), or answer with `output`. */
export type MockAnswer = {
    mocked: false;
} | {
    mocked: true;
    output: JsonValue;
};
/** The decision for one call; throws UnmockedToolError in mocked mode when no mock matches. */
export declare function answerFromMocks(mocks: unknown, tool: string, input: unknown): MockAnswer;
type Execute = (input: never, ...rest: never[]) => unknown;
/**
 * Vercel AI SDK: the same tools, each `execute` answering from `mocks` (the request body's
 * top-level `mocks`). Tools without `execute` (client-side tools) are left as they are.
 */
export declare function mockTools<T extends Record<string, object>>(tools: T, mocks: unknown): T;
/** The mocks a LangGraph run carries in `config.configurable.mocks`. */
export declare function langGraphMocks(config: unknown): unknown;
/**
 * LangGraph JS (and LangChain `tool()`): wraps a tool function `(input, config)` so that it answers
 * from `config.configurable.mocks`, which LangGraph passes to every tool call of the run.
 */
export declare function mockLangGraphTool<I, C, R>(name: string, fn: (input: I, config: C) => R): (input: I, config: C) => R | JsonValue;
/** The mocks an OpenAI Agents run carries in its context: `run(agent, input, { context: { mocks } })`. */
export declare function agentsMocks(runContext: unknown): unknown;
/**
 * OpenAI Agents SDK: the options of a function tool (`tool({ name, parameters, execute })`) with an
 * `execute` that answers from the run context's `mocks`. The mocked output is returned as JSON text,
 * as a function tool's result reaches the model.
 */
export declare function mockAgentsTool<O extends {
    name: string;
    execute: Execute;
}>(options: O): O;
/**
 * The mocks a Mastra tool call carries: the server copies the request body's `requestContext`
 * into the RequestContext every tool's execution context holds (`context.requestContext.get('mocks')`).
 */
export declare function mastraMocks(context: unknown): unknown;
/**
 * Mastra: wraps a tool's `execute` (`createTool({ id, inputSchema, execute: mockMastraTool('find_order',
 * fn) })`) so that it answers from the request's `requestContext.mocks` (the mastra preset sends
 * them there); no mocks: the real function runs. `name` is the name the model calls the tool by.
 */
export declare function mockMastraTool<I, C, R>(name: string, fn: (input: I, context: C) => R | Promise<R>): (input: I, context: C) => Promise<R | JsonValue>;
export {};
