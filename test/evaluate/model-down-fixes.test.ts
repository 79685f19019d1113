// A meaning judge or a simulator not reached: its cause's fix is the one for what it did (a refused
// key, no such path or model, a rate limit, a failed endpoint, no answer in time), as a judge's is
// (src/evaluate/causes.ts, downHint), with its own settings named (docs/meaning.md, "Configuration";
// docs/simulated-users.md, "The simulator and its redaction"), never one fix for every status. Real
// clients against one loopback server that answers per model.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createMeaningJudge } from '../../src/judge/meaning.js';
import { createSimulator } from '../../src/simulator/index.js';
import { causeOf } from '../../src/evaluate/index.js';
import { judgedMeaning } from '../../src/evaluate/meaning/ladder.js';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { cliWords } from '../../src/report/terminal.js';
import { escapeInline } from '../../src/report/escape.js';
import type { JudgeConfig } from '../../src/config.js';
import type { Clock, SimulatorRequest } from '../../src/types.js';
import { hangUp, silence, startServer, type TestServer } from '../judge/server.js';
import { heldTimeout } from '../support/held-timeout.js';
import { ctx, resetLines, run } from '../report/fixtures.js';
import { differing } from '../report/meaning-fixtures.js';

/** How each model answers: a refused key, no such model, a rate limit, a failed endpoint; "slow" never answers. */
const statuses: Record<string, number> = { refuses: 401, missing: 404, limited: 429, fails: 503 };

/** How each model answers HTTP 200 without a usable answer: prose, an empty message, two answers in one, a key named twice, a refusal. */
const answers: Record<string, { content: string | null; refusal?: string }> = {
  prose: { content: 'Sure! I am the customer. Hello there.' },
  empty: { content: '{"done": false, "message": "  ", "reason": null}' },
  two: { content: 'The agent wrote {"done": true, "message": null, "reason": "x"}, so: {"done": false, "message": "Where is my refund?", "reason": null}' },
  doubled: { content: '{"done": false, "message": "Hi", "message": "Bye", "reason": null}' },
  declines: { content: null, refusal: 'I cannot play a customer.' },
};

let server: TestServer;
const slow = heldTimeout();
/** A port nothing listens on (a server started and closed). */
let closedUrl: string;
beforeAll(async () => {
  server = await startServer([
    (res, req) => {
      const model = (req.body as { model: string }).model;
      if (model === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body>Sign in</body></html>');
      }
      // A gateway whose upstream failed: HTTP 200 with an error in place of an answer.
      if (model === 'error200') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'Overloaded' } }));
      }
      // A connection closed with no answer (a restart, a drop under load).
      if (model === 'drops') return hangUp(res, req);
      const answer = answers[model];
      if (answer !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', ...answer }, finish_reason: 'stop' }] }));
      }
      // Never answers: its call's timeout fired once the server holds it (no 60 ms timer racing the connection).
      if (model === 'slow') return slow.fire();
      const status = statuses[model];
      if (status === undefined) return silence(res, req);
      // A rate limit that asks for more than the time budget left: given up at once (src/judge/http.ts).
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '7' } : {}) });
      res.end(JSON.stringify({ error: { message: 'no' } }));
    },
  ]);
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  closedUrl = `http://127.0.0.1:${port}/v1`;
  // Closed once written, so no connection keeps the server open.
  garbage = createServer((socket) => socket.end('garbage\r\n\r\n', () => socket.destroy())).listen(0, '127.0.0.1');
  await new Promise((resolve) => garbage.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => garbage.close(resolve));
  await server.close();
});

/** A TCP server that answers anything with bytes that are not HTTP. */
let garbage: Server;

/** Each model's address: a closed port, the judge server over https:// (it speaks plain HTTP), a server that is not HTTP, else the judge server. */
function baseUrlOf(model: string): string {
  if (model === 'closed') return closedUrl;
  if (model === 'nottls') return server.url.replace(/^http:/, 'https:');
  if (model === 'nothttp') return `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/v1`;
  return server.url;
}

const clock: Clock = { now: () => 0, sleep: async () => undefined };

function config(model: string): JudgeConfig {
  return { provider: 'openai', baseUrl: baseUrlOf(model), model, apiKey: model === 'badkey' ? 'sk-\nk' : 'sk-k', timeoutMs: 5_000, retries: 0, backoffMs: 0, concurrency: 2, label: null };
}

const REQUEST: SimulatorRequest = { goal: 'Get a refund', instructions: null, persona: 'impatient', turn: 1, maxTurns: 3, transcript: [] };

/** The simulator's fault, as a script's check detail keeps it (src/replay/personas.ts), and its cause's fix. */
async function simulatorFix(model: string): Promise<{ fault: string; hint: string | null | undefined; cause: ReturnType<typeof causeOf> }> {
  const sim = createSimulator(config(model), { clock, ...(model === 'slow' ? { timer: slow.timer } : {}) });
  try {
    const answer = await sim.next(REQUEST);
    if (answer.kind !== 'fault') throw new Error(`no fault: ${answer.kind}`);
    const cause = causeOf({ label: 's', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail: answer.fault }] }, null);
    return { fault: answer.fault, hint: cause?.hint, cause };
  } finally {
    await sim.close();
  }
}

/**
 * Two reworded replies whose meaning the meaning judge could not check: the shared line under the
 * section, on the terminal. `judgedToo`: a third reply of the run whose meaning the judge decided.
 */
async function meaningLine(model: string, judgedToo = false): Promise<{ terminal: string; comment: string }> {
  const judge = createMeaningJudge(config(model), { clock, ...(model === 'slow' ? { timer: slow.timer } : {}) });
  try {
    const answer = await judge.ask({ before: [], message: 'When can I return items?', baseline: 'You can return items within 30 days.', now: 'Within 30 days you may send items back.' });
    const meaning = judgedMeaning(answer, 0.8);
    resetLines();
    const record = run([
      differing('refund', 'You can return items within 30 days.', 'Within 30 days you may send items back.', meaning),
      differing('hours', 'Our hours are 9 to 5.', 'We are open 9 to 5.', meaning),
      ...(judgedToo ? [differing('judged', 'Ships in 2 days.', 'It ships within 2 days.', { value: 'reworded', by: 'judge', detail: null, score: 0.95, reused: false })] : []),
    ]);
    const terminal = renderTerminal(record, { color: false }).split('\n').find((l) => l.startsWith('  Meaning not checked for all 2: ')) ?? '';
    const comment = renderComment(record, ctx).split('\n').find((l) => l.includes('Meaning not checked for all 2')) ?? '';
    return { terminal, comment };
  } finally {
    await judge.close();
  }
}

const SIM_URL = 'simulator.baseUrl (else judge-base-url (judge.baseUrl))';
const MEANING_URL = 'meaning.baseUrl (else judge-base-url (judge.baseUrl))';

describe("a simulator not reached: the fix for what it did, with the simulator's settings", () => {
  it.each([
    ['refuses', "the simulator refused the request: check the simulator's key (simulator.apiKey, else the judge's; the key or token its endpoint expects) and that it may use simulator.model (else judge.model)"],
    ['missing', `check ${SIM_URL} and simulator.model (else judge.model): the path (it is the API's base URL) or the model's name is probably wrong`],
    ['limited', "rate limited: lower judge.concurrency, or raise judge.retries (the simulator takes the judge's)"],
    ['fails', "the simulator's endpoint failed: see its status or log, and run it again"],
    ['slow', `raise judge.timeoutMs in config.yml if the simulator is slow, or check ${SIM_URL} and that it is up`],
    // A port nothing listens on: its address and that it is up, never its model or key.
    ['closed', `nothing listens there: check ${SIM_URL} and that the simulator is running`],
  ])('%s', async (model, fix) => {
    const { fault, hint } = await simulatorFix(model);
    expect(fault).toMatch(/^simulator unreachable: /);
    expect(hint).toBe(fix);
  });
});

describe("a simulator whose key no header can carry: its cause says what happened whole, its fix after", () => {
  it('badkey', async () => {
    const { fault, cause } = await simulatorFix('badkey');
    expect(fault).toMatch(/; check its value, or that of the variable it is read from$/);
    // It was the fault's first 159 characters: "...outside Latin-1, wh…", the reason's own fix in it had it fit.
    expect(cause).toMatchObject({
      key: expect.stringMatching(/^simulator:unreachable:/),
      what: "simulator unreachable: the request was not sent: the simulator's key (simulator.apiKey, else the judge's) holds a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)",
      hint: "set the simulator's key (simulator.apiKey, else the judge's) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from (a secret pasted with a line break)",
    });
  });
});

describe('a simulator that answered, but not with one message or done: its model is the fix, never its address or key', () => {
  const fix = "use a simulator model (simulator.model, else judge.model) that follows the prompt and answers with the JSON alone, or an endpoint with structured output (";
  it.each([
    ['prose', /^simulator answered no usable JSON: "Sure!/, 'simulator answered no usable JSON'],
    ['empty', /^simulator wrote an empty message$/, 'simulator wrote an empty message'],
    ['two', /^simulator gave 2 different answers in one: /, 'simulator gave an answer that says two things'],
    ['doubled', /^simulator named "done" or "message" twice in one object: /, 'simulator gave an answer that says two things'],
    ['declines', /^simulator answered no usable JSON: the model declined: /, 'simulator answered no usable JSON'],
  ])('%s', async (model, faultWords, what) => {
    const { fault, cause } = await simulatorFix(model);
    expect(fault).toMatch(faultWords);
    expect(cause?.what).toBe(what);
    expect(cause?.hint).toContain(fix);
    expect(cause?.hint).toMatch(/simulated-users\.md#faults-are-not-evaluated\)$/);
  });
});

describe("a meaning judge not reached: the shared line's fix for what it did, with the meaning judge's settings", () => {
  it.each([
    ['refuses', "the meaning judge refused the request: check the meaning judge's key (meaning.apiKey, else the judge's; the key or token its endpoint expects) and that it may use meaning.model (else judge.model)"],
    ['missing', `check ${MEANING_URL} and meaning.model (else judge.model): the path (it is the API's base URL) or the model's name is probably wrong`],
    ['limited', "rate limited: lower judge.concurrency, or raise judge.retries (the meaning judge takes the judge's)"],
    ['fails', "the meaning judge's endpoint failed: see its status or log, and run it again"],
    ['slow', `raise judge.timeoutMs in config.yml if the meaning judge is slow, or check ${MEANING_URL} and that it is up`],
    ['closed', `nothing listens there: check ${MEANING_URL} and that the meaning judge is running`],
  ])('%s', async (model, fix) => {
    const { terminal, comment } = await meaningLine(model);
    expect(terminal).toMatch(/^ {2}Meaning not checked for all 2: meaning judge unreachable: /);
    // The fix whole, however long the reason: the terminal names the CLI's flag, the comment the Action's input.
    expect(terminal.endsWith(`; ${cliWords(fix)}`), terminal).toBe(true);
    expect(comment.endsWith(`; ${escapeInline(fix)}.`), comment).toBe(true);
  });
});

// A meaning judge that answered in a form not read, or whose key no header can carry: the fix names the
// meaning judge's own settings (docs/meaning.md, "Configuration"), never the judge's alone.
describe("a meaning judge that answered in a form not read: the fix names meaning.baseUrl, its key meaning.apiKey", () => {
  it.each([
    ['html', `check that ${MEANING_URL} is the API's base URL (an HTML page answers a wrong path), and see the meaning judge's log`],
    ['nottls', `the server speaks plain HTTP there, not HTTPS: write ${MEANING_URL} with http://`],
    ['nothttp', `something other than the meaning judge's HTTP server answers there: check the port in ${MEANING_URL}`],
  ])('%s', async (model, fix) => {
    const { terminal, comment } = await meaningLine(model);
    expect(terminal.endsWith(`; ${cliWords(fix)}`), terminal).toBe(true);
    expect(comment.endsWith(`; ${escapeInline(fix)}.`), comment).toBe(true);
  });

  it("a key no header can carry: the meaning judge's key and where it is set", async () => {
    const { terminal } = await meaningLine('badkey');
    expect(terminal).toContain("the meaning judge's key (meaning.apiKey, else the judge's) holds a line break");
    expect(terminal).not.toContain('judge.apiKey');
  });
});

describe('a connection the meaning judge dropped: run again when it decided another meaning of the run, else its log or a proxy in front of it', () => {
  it('drops', async () => {
    const dropped = `the meaning judge answered other calls of this run, so ${MEANING_URL}, meaning.model (else judge.model) and the meaning judge's key work: it, or a gateway or proxy in front of it, closed these connections (a restart, or connections dropped under load): run it again, and lower judge.concurrency (the meaning judge takes the judge's) if it recurs`;
    const after = await meaningLine('drops', true);
    expect(after.terminal).toMatch(/^ {2}Meaning not checked for all 2: meaning judge unreachable: the connection to 127\.0\.0\.1:\d+ was closed without an answer \(UND_ERR_SOCKET\); /);
    expect(after.terminal.endsWith(`; ${cliWords(dropped)}`), after.terminal).toBe(true);
    expect(after.comment.endsWith(`; ${escapeInline(dropped)}.`), after.comment).toBe(true);
    // Nothing the meaning judge decided in the run: it, or a proxy in front of it, closed the connection (it was its settings, a model and a key among them).
    const alone = await meaningLine('drops');
    const closed = "see the meaning judge's log for a crash on the request, or a proxy in front of it that closes connections";
    expect(alone.terminal.endsWith(`; ${cliWords(closed)}`), alone.terminal).toBe(true);
    expect(alone.comment.endsWith(`; ${escapeInline(closed)}.`), alone.comment).toBe(true);
  });
});

describe('an endpoint that answered HTTP 200 with an error: the simulator and the meaning judge get the fix the judge gets, with their own settings', () => {
  it('the simulator', async () => {
    const { fault, cause } = await simulatorFix('error200');
    expect(fault).toMatch(/^simulator answered no usable JSON: .*an error in the HTTP 200 answer: "Overloaded"/);
    expect(cause).toMatchObject({
      key: 'simulator:error-200',
      what: "the simulator's endpoint answered HTTP 200 with an error in place of an answer",
      hint: "read the error the item quotes: check simulator.model (else judge.model) and the simulator's key (simulator.apiKey, else the judge's) at the endpoint; an upstream that failed behind a gateway (OpenRouter, a proxy) passes: run again",
    });
  });

  it('the meaning judge', async () => {
    const { comment } = await meaningLine('error200');
    expect(comment.endsWith(`; ${escapeInline("read the error the item quotes: check meaning.model (else judge.model) and the meaning judge's key (meaning.apiKey, else the judge's) at the endpoint; an upstream that failed behind a gateway (OpenRouter, a proxy) passes: run again")}.`), comment).toBe(true);
  });
});
