// A loopback simulator for tests: a real HTTP server on 127.0.0.1 that speaks OpenAI-compatible
// chat completions and plays a simulated user from what it is sent (the goal, and the turn asked
// for in the prompt of src/simulator/prompt.ts). It records every request, so tests count calls.

import { json, startServer, type Received, type Responder, type TestServer } from '../judge/server.js';

export interface SimulatorAsk {
  /** The goal line of the prompt. */
  goal: string;
  /** The message turn asked for ("turn N of at most M"). */
  turn: number;
  maxTurns: number;
  /** User lines in the transcript so far. */
  userTurns: number;
  /** The whole user prompt. */
  text: string;
  /** The response_format json_schema name when the request asked for structured output, else null. */
  schema: string | null;
  request: Received;
}

/** What a play answers: a user message, done, or a raw responder (a fault). */
export type Play = (ask: SimulatorAsk) => { message: string } | { done: true; reason: string } | { content: string } | Responder;

export interface SimulatorServer extends TestServer {
  /** What each request asked, in order. */
  asks: SimulatorAsk[];
}

/** Reads what a simulator request asks, from the prompt's words. */
export function readAsk(request: Received): SimulatorAsk {
  const body = (request.body ?? {}) as { messages?: { content?: unknown }[]; response_format?: { json_schema?: { name?: string } } };
  const text = (body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const goal = /Goal:\n([^\n]*)/.exec(text)?.[1] ?? '';
  const at = /turn (\d+) of at most (\d+)/.exec(text);
  return {
    goal,
    turn: Number(at?.[1] ?? 0),
    maxTurns: Number(at?.[2] ?? 0),
    userTurns: (text.match(/\] User: /g) ?? []).length,
    text,
    schema: body.response_format?.json_schema?.name ?? null,
    request,
  };
}

/** A chat completion whose content is `content`. */
export function completion(content: string): Responder {
  return json(200, { choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
}

/** Default play: "<goal> - message N" for turn N, done once `doneAfter` user turns were written. */
export function playUntil(doneAfter: number): Play {
  return (ask) => (ask.userTurns >= doneAfter ? { done: true, reason: `goal reached after ${ask.userTurns} turns` } : { message: `${ask.goal} - message ${ask.turn}` });
}

export async function startSimulatorServer(play: Play): Promise<SimulatorServer> {
  const asks: SimulatorAsk[] = [];
  const responder: Responder = (res, req) => {
    const ask = readAsk(req);
    asks.push(ask);
    const answer = play(ask);
    if (typeof answer === 'function') return answer(res, req);
    const content =
      'content' in answer
        ? answer.content
        : JSON.stringify('done' in answer ? { done: true, message: null, reason: answer.reason } : { done: false, message: answer.message, reason: null });
    completion(content)(res, req);
  };
  const server = await startServer([responder]);
  return Object.assign(server, { asks });
}
