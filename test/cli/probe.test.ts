// `agent-replay probe`: one message, one fresh session, against real loopback agents and a real
// loopback judge; the reply, the route trace and the verdict printed; --save writes a fixture that
// `validate` reads back with exactly the message that was probed, and never overwrites a file.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, serve, useCleanup } from './helpers.js';
import { startServer, json as judgeJson, type TestServer } from '../judge/server.js';
import { startShopAgent } from '../support/shop-agent.js';
import { AMPLE_MS, countingJobs } from '../support/regex-pool.js';
import { createRegexPool } from '../../src/assertions/index.js';
import type { Config } from '../../src/config.js';
import type { RegexEvaluator } from '../../src/types.js';
import { nativeEcho, type AgentHandler } from '../support/agent-server.js';
import { heldTimeout } from '../support/held-timeout.js';
import { loadSuite } from '../../src/suite/index.js';
import { checkFixtureFile } from '../../src/suite/fixtures.js';
import { loadYamlPackage, readYaml } from '../../src/suite/yaml/index.js';
import { fixtureYaml } from '../../src/cli/probe.js';
import { instantClock } from '../../src/agent/ready.js';
import { afterEach } from 'vitest';

useCleanup();

const judges: TestServer[] = [];
afterEach(async () => {
  while (judges.length > 0) await judges.pop()?.close();
});

/** A real OpenAI-compatible judge on loopback answering one score. */
async function judgeServer(score: number, rationale: string): Promise<TestServer> {
  const server = await startServer([judgeJson(200, { choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale, score }) } }] })]);
  judges.push(server);
  return server;
}

/** The native protocol with a welcome turn; the message turn reports off-track signals. */
const routed: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
  return {
    json: {
      reply: 'Refunds are possible within 30 days.\nKeep your receipt.',
      route: { conversation: 'refunds', stage: 'policy' },
      offTrack: [{ signal: 'asked-twice' }],
      ended: false,
    },
  };
};

/**
 * A regex probe leaves to the worker pool (as a run does: one with no small bound) gets a budget no
 * loaded machine runs out of, for the tests whose pattern finishes and whose verdict is asserted
 * (the default 100 ms is the worker's own time).
 */
const AMPLE_REGEX = `regex: { timeoutMs: ${AMPLE_MS} }\n`;

async function project(url: string, extra = '', fixtures: Record<string, string> = { 'greeting.yml': 'label: greeting\nmessage: hello\n' }): Promise<string> {
  return makeProject({ config: agentConfig(url, extra), fixtures });
}

async function savedFixtures(cwd: string) {
  const loaded = await loadSuite({ dir: '.agent-replay', env: {}, cwd });
  expect(loaded.errors).toEqual([]);
  return new Map((loaded.suite?.fixtures ?? []).map((f) => [f.label, f]));
}

describe('agent-replay probe: what it prints', () => {
  it('tool calls: a response path of one\'s own that reads none gets the real paths of the response (Mastra /generate), or is told none exists', async () => {
    const mastra = {
      text: 'Order 1234 is delivered.',
      toolCalls: [{ type: 'tool-call', payload: { toolCallId: 'c1', toolName: 'find_order', args: { orderId: '1234' } } }],
      toolResults: [{ type: 'tool-result', payload: { toolCallId: 'c1', toolName: 'find_order', result: { status: 'delivered' } } }],
      response: { messages: [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'find_order', input: { orderId: '1234' } }] }] },
    };
    const agent = await serve((req) => ({ json: (req.json as { message?: string }).message === 'Order 1234' ? mastra : { text: 'Hello', finishReason: 'stop' } }));
    const cwd = await project(agent.url, '  request:\n    body: { message: "{{message}}" }\n  response: { reply: text }\n');
    const found = await cli(['probe', 'Order 1234'], cwd);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('  tool calls   not reported (no agent.response.toolCalls path); the response holds tool calls at "toolCalls" or "response.messages": set agent.response.toolCalls to one of them\n');
    const none = await cli(['probe', 'hello'], cwd);
    expect(none.stdout).toContain('  tool calls   not reported (no agent.response.toolCalls path); nothing in the response is a list of tool calls, so no path would read one\n');
    const read = await cli(['probe', 'Order 1234'], await project(agent.url, '  request:\n    body: { message: "{{message}}" }\n  response: { reply: text, toolCalls: response.messages }\n'));
    expect(read.stdout).toContain('  tool calls   find_order (read at "response.messages")\n');
  });

  it('tool calls of a suite with traces: a run reads them from spans, which probe does not: said, not "no path would read one" alone', async () => {
    const agent = await serve(routed);
    const r = await cli(['probe', 'hello'], await project(agent.url, 'traces:\n  receive: { port: 0 }\n'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  tool calls   not reported ("toolCalls" is not in the response); nothing in the response is a list of tool calls, so no path would read one; a run reads the calls from the agent's spans (traces: in config.yml), which probe does not read\n`);
    // A suite whose file is config.yaml is told of config.yaml.
    const yaml = await project(agent.url, 'traces:\n  receive: { port: 0 }\n');
    await rename(join(yaml, '.agent-replay', 'config.yml'), join(yaml, '.agent-replay', 'config.yaml'));
    expect((await cli(['probe', 'hello'], yaml)).stdout).toContain("a run reads the calls from the agent's spans (traces: in config.yaml), which probe does not read\n");
  });

  it('sends one message in one fresh session and prints the reply, the route trace (welcome turn included) and the verdict', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const r = await cli(['probe', 'Can I get my money back?', '--persona', 'returning-customer'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    // One session: the welcome turn and the message carry the same fresh id and the persona tag.
    expect(agent.requests).toHaveLength(2);
    const [welcome, message] = agent.requests.map((q) => q.json as Record<string, unknown>);
    expect(welcome).toMatchObject({ start: true, persona: 'returning-customer' });
    expect(message).toMatchObject({ message: 'Can I get my money back?', persona: 'returning-customer' });
    expect(String(message?.session)).toMatch(/^agent-replay-probe-[0-9a-f]{8}$/);
    expect(welcome?.session).toBe(message?.session);
    expect(r.stdout).toContain(`session ${String(message?.session)}`);

    expect(r.stdout).toContain('reply\n  Refunds are possible within 30 days.\n  Keep your receipt.\n');
    expect(r.stdout).toContain('route trace\n');
    expect(r.stdout).toContain('  welcome      welcome / greeting\n');
    expect(r.stdout).toContain('  conversation refunds\n');
    expect(r.stdout).toContain('  stage        policy\n');
    expect(r.stdout).toContain('  persona      returning-customer (a tag: it does not change routing)\n');
    expect(r.stdout).toContain('  off-track    {"signal":"asked-twice"}\n');
    expect(r.stdout).toContain('verdict pass (probe): nothing to check\n');
    // A second probe is another fresh session.
    await cli(['probe', 'again'], cwd);
    expect(agent.requests[2]?.json).toMatchObject({ start: true });
    expect((agent.requests[2]?.json as { session: string }).session).not.toBe(message?.session);
  });

  it('says what the agent does not report, and leaves out the welcome line when there is no welcome turn', async () => {
    const agent = await serve((req) => ({ json: { reply: `You said ${String((req.json as { message: string }).message)}` } }));
    const cwd = await project(agent.url, '  start: false\n');
    const r = await cli(['probe', 'hi'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(agent.requests).toHaveLength(1);
    expect(r.stdout).not.toContain('welcome');
    expect(r.stdout).toContain('  conversation (not reported)\n  stage        (not reported)\n  persona      (none)\n  off-track    none\n');
  });

  it('a reply of 200,000 lines is printed whole, with no RangeError', async () => {
    const agent = await serve(() => ({ json: { reply: `first\n${'x\n'.repeat(199_998)}last` } }));
    const cwd = await project(agent.url, '  start: false\n');
    const r = await cli(['probe', 'hi'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('reply\n  first\n  x\n');
    expect(r.stdout).toContain('  x\n  last\n\nroute trace\n');
  });

  it('works against the scripted shop agent, route from its own routing', async () => {
    const shop = await startShopAgent();
    try {
      const cwd = await project(shop.url);
      const r = await cli(['probe', 'I want my money back', '--assert', 'contains:refund'], cwd);
      expect(r.stdout).toContain('  welcome      conversations:welcome / greeting\n');
      expect(r.stdout).toContain('  conversation conversations:refunds\n  stage        start\n');
      expect(r.code).toBe(1); // "Sorry to hear that. What is your order number?"
      expect(r.stdout).toContain('verdict fail: reply does not contain "refund"');
    } finally {
      await shop.close();
    }
  });

  it('shows the terminal control sequences the agent sends as escapes, and redacts secrets in the reply, the route and the signals', async () => {
    const token = 'tok-SECRET-4242';
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: '', route: { conversation: `w-${token}`, stage: 's' } } };
      return { json: { reply: `header was ${String(req.headers.authorization)}\u001b[31m red`, route: { conversation: token, stage: 'x' }, offTrack: [`leak ${token}`, 'line\u2028sep'] } };
    });
    const cwd = await project(agent.url, '  headers:\n    Authorization: "Bearer ${AGENT_TOKEN}"\n');
    const r = await cli(['probe', 'hi'], cwd, { AGENT_TOKEN: token });
    expect(r.code, r.stderr).toBe(0);
    expect(agent.requests[1]?.headers.authorization).toBe(`Bearer ${token}`);
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(r.stdout).toContain('header was Bearer ***\\u001b[31m red');
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('  welcome      w-*** / s\n');
    expect(r.stdout).toContain('  conversation ***\n');
    // A signal is shown as the JSON it is: U+2028 as its escape, as shownJson writes it (was: "line ⏎ sep").
    expect(r.stdout).toContain('  off-track    "leak ***"; "line\\u2028sep"\n');
  });
});

describe('agent-replay probe: right-to-left off-track signals', () => {
  it('isolates each signal whole as the JSON it is, not run by run: two Hebrew signals keep their order, an object its braces', async () => {
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, offTrack: [{ 'שם': 'طلب 30' }] } };
      return { json: { reply: 'ok', route: { conversation: 'c', stage: 's' }, offTrack: ['שלום', 'עוד', 'x'] } };
    });
    const r = await cli(['probe', 'hi'], await project(agent.url));
    expect(r.code, r.stderr).toBe(0);
    const [L, F, P] = ['\u2066', '\u2068', '\u2069'];
    // Run by run, `"שלום"; "עוד"` was one right-to-left run from שלום to עוד: drawn "עוד" ;"שלום".
    expect(r.stdout).toContain(`  off-track    ${L}"${F}שלום${P}"${P}; ${L}"${F}עוד${P}"${P}; "x"\n`);
    expect(r.stdout).toContain(`    off-track  ${L}{"${F}שם${P}":"${F}طلب 30${P}"}${P}\n`);
  });
});

describe('agent-replay probe: assertions and exit status', () => {
  it('contains: pass exits 0, fail exits 1, each with the detail line', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const pass = await cli(['probe', 'refund?', '--assert', 'contains:30 days'], cwd);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toMatch(/verdict pass: .*30 days/);
    const fail = await cli(['probe', 'refund?', '--assert', 'contains:"60 days"'], cwd);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/verdict fail: .*60 days/);
    expect(fail.stdout).toContain('verdict fail: reply does not contain "60 days"\n'); // not ""60 days"": the quotes are the shell's
  });

  it('regex: /pattern/flags with the flags applied', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, AMPLE_REGEX);
    const pass = await cli(['probe', 'refund?', '--assert', 'regex:/REFUNDS? are/i'], cwd);
    expect(pass.code, pass.stdout).toBe(0);
    expect(pass.stdout).toMatch(/verdict pass: .*Refunds are/);
    const fail = await cli(['probe', 'refund?', '--assert', 'regex:/REFUNDS? are/'], cwd);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('verdict fail: ');
  });

  it('regex: matched as a run matches it, on the main thread when it needs no worker, else in the pool, with the same words', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, AMPLE_REGEX);
    // Each probe's pool, counting the patterns it is asked to match.
    const jobs: (() => number)[] = [];
    const makeRegexPool = (config: Config): RegexEvaluator => {
      const counted = countingJobs(createRegexPool({ size: 1, timeoutMs: config.regex.timeoutMs }));
      jobs.push(counted.jobs);
      return counted.pool;
    };
    const engine = { makeRegexPool };
    // One quantifier on a short reply: a small bound, so the pool is never asked (and starts no worker).
    const inline = await cli(['probe', 'refund?', '--assert', 'regex:/REFUNDS? are/i'], cwd, {}, { engine });
    expect(inline.code, inline.stderr).toBe(0);
    expect(inline.stdout).toContain('verdict pass: /REFUNDS? are/i matched "Refunds are"\n');
    expect(jobs[0]?.()).toBe(0);
    // An alternation with flag u: no bound, and V8's linear-time engine refuses it, so the pool matches it.
    const pooled = await cli(['probe', 'refund?', '--assert', 'regex:/(REFUNDS|returns) are/iu'], cwd, {}, { engine });
    expect(pooled.code, pooled.stderr).toBe(0);
    expect(pooled.stdout).toContain('verdict pass: /(REFUNDS|returns) are/iu matched "Refunds are"\n');
    expect(jobs[1]?.()).toBe(1);
  });

  it('judge: asks the configured judge, prints score against threshold and rationale, never the key', async () => {
    const agent = await serve(routed);
    const judge = await judgeServer(0.9, 'It states the refund window.');
    const cwd = await project(agent.url, `judge:\n  provider: openai\n  baseUrl: ${judge.url}\n  model: test-judge\n  apiKey: \${JUDGE_KEY}\n`);
    const r = await cli(['probe', 'refund?', '--assert', 'judge:"The reply states the refund window."', '--threshold', '0.8'], cwd, { JUDGE_KEY: 'judge-key-9876' });
    expect(r.code, r.stderr).toBe(0);
    expect(judge.received).toHaveLength(1);
    expect(judge.received[0]?.url).toBe('/chat/completions');
    expect(judge.received[0]?.headers.authorization).toBe('Bearer judge-key-9876');
    expect(JSON.stringify(judge.received[0]?.body)).toContain('The reply states the refund window.');
    expect(r.stdout).toMatch(/verdict pass: score 0\.90 >= threshold 0\.80: It states the refund window\./);
    expect(r.stdout).toContain('judge: openai test-judge');
    expect(r.stdout + r.stderr).not.toContain('judge-key-9876');

    const low = await judgeServer(0.2, 'No window given.');
    const failing = await cli(['probe', 'refund?', '--assert', 'judge:Mentions a window', '--judge-url', low.url], cwd, { JUDGE_KEY: 'judge-key-9876' });
    expect(failing.code).toBe(1);
    expect(low.received).toHaveLength(1);
    expect(failing.stdout).toMatch(/verdict fail: score 0\.20 < threshold 0\.70: No window given\./);
  });

  it('judge with no judge configured, or an unreachable one: not evaluated, exit 0 (never a failure)', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const r = await cli(['probe', 'refund?', '--assert', 'judge:polite'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('verdict not evaluated (not a failure): no judge configured');
  });

  it('an agent that fails: errored, no route trace, exit 1, and --save writes nothing', async () => {
    const agent = await serve((req) => ((req.json as { start?: boolean }).start ? nativeEcho(req) : { status: 500, json: { error: 'boom' } }));
    const cwd = await project(agent.url);
    const r = await cli(['probe', 'hi', '--assert', 'contains:x', '--save', 'never-saved'], cwd);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/errored: message turn: agent returned HTTP 500 after 1 attempt/);
    expect(r.stdout).not.toContain('conversation');
    expect(r.stdout).toContain('not saved: the agent did not reply');
    // The text agrees with the exit status it comes with.
    expect(r.stdout).toContain('no reply, so no route trace and no verdict; probe exits 1');
    expect(r.stdout).not.toContain('not a failure');
    expect(await readdir(join(cwd, '.agent-replay/fixtures'))).toEqual(['greeting.yml']);
  });
});

describe('agent-replay probe: an errored probe names its cause and fix, as run does', () => {
  const handler: AgentHandler = (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (body.start === true) return nativeEcho(req);
    if (body.message === 'boom') return { status: 500, body: 'Internal boom' };
    if (body.message === 'gone') return { status: 404, body: 'Not Found' };
    return 'hang';
  };

  it('a refused connection: the error line names the flag, as its cause line does, not the Action\'s input', async () => {
    const cwd = await project('http://127.0.0.1:9/api/chat');
    const probe = await cli(['probe', 'hi'], cwd);
    expect(probe.code).toBe(1);
    expect(probe.stdout).toMatch(/^errored: welcome turn: .*nothing listens there: check --agent-url \(agent\.url\) and that the agent is running$/m);
    expect(probe.stdout).not.toMatch(/check agent-url/);
  });

  it.each([
    ['boom', 'HTTP 500 from {url}: the agent failed: see its logs'],
    // In the CLI's words (report/terminal.ts cliWords): the flag, not the Action's input.
    ['gone', 'HTTP 404 from {url}: check --agent-url (agent.url): the path is probably wrong'],
    ['slow', 'no answer from {url} within 90,000 ms: raise agent.timeoutMs in config.yml if the agent is slow, or check that it is up'],
  ])('message %s: the cause line of run, under the error', async (message, cause) => {
    // The turn never answered ('slow') times out once the agent holds it (its deadline fired then, not
    // a real one that a loaded machine could let pass before the connection opened); the welcome turn,
    // which answers, has 90 s, past the test's limit. The others keep the default.
    const held = heldTimeout();
    const agent = await serve((req) => {
      const reply = handler(req);
      if (reply === 'hang') held.fire();
      return reply;
    });
    const cwd = await project(agent.url, message === 'slow' ? '  timeoutMs: 90000\n' : '');
    const shown = cause.replace('{url}', agent.url);
    const io = { engine: { agentTimer: held.timer } };
    const probe = await cli(['probe', message], cwd, {}, io);
    expect(probe.code).toBe(1);
    expect(probe.stdout).toMatch(/^errored: message turn: /m);
    expect(probe.stdout).toContain(`\n  cause: ${shown}\n`);
    // run says the same for the same error.
    await writeFile(join(cwd, '.agent-replay/fixtures/greeting.yml'), `label: greeting\nmessage: ${message}\n`);
    const run = await cli(['run'], cwd, {}, io);
    expect(run.stdout).toContain(`  cause: ${shown}\n`);
  });
});

describe('agent-replay probe: usage errors send nothing', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown assertion kind', ['--assert', 'equals:x'], /--assert "equals:x" has the unknown kind "equals"; use contains:TEXT, regex:\/PATTERN\/FLAGS or judge:"CRITERION"/],
    ['no kind at all', ['--assert', '30 days'], /has no kind; use contains:TEXT/],
    ['an empty contains', ['--assert', 'contains:'], /has no text to look for; use/],
    ['a regex without slashes', ['--assert', 'regex:30 days'], /needs the pattern between slashes/],
    ['a regex that does not compile', ['--assert', 'regex:/(unclosed/'], /does not compile: .*nothing was sent/],
    ['bad regex flags', ['--assert', 'regex:/x/q'], /does not compile: .*flags/],
    ['an empty criterion', ['--assert', 'judge:""'], /has no criterion/],
    ['a threshold without a judge', ['--assert', 'contains:x', '--threshold', '0.5'], /--threshold only applies to a judge assertion/],
    ['a threshold outside [0, 1]', ['--assert', 'judge:polite', '--threshold', '1.5'], /--threshold must be a score from 0 to 1, got "1.5"/],
    // Quoted as JSON on its one line: a U+2028 in it as its escape (JSON.stringify left it raw, and the line broke there).
    ['an invalid label', ['--save', '../esc\u2028ape'], /--save "..\/esc\\u2028ape" is not a valid label: a label is 1-80 characters/],
    // The fix a fixture's label gets (docs/fixtures.md, "A fixture"), as a flag to paste.
    ['a label with a space', ['--save', 'refund policy'], /--save "refund policy" is not a valid label: a label is 1-80 characters.*; use --save refund-policy$/m],
    ['a label with accents', ['--save', 'rückgabe'], /; use --save ruckgabe$/m],
    // A name Windows keeps for a device: the fixture and its baseline would not check out there.
    ['a label Windows refuses', ['--save', 'NUL.orders'], /--save label "NUL\.orders" names its baseline file NUL\.orders\.json, which cannot be created on Windows.*; use --save NUL-1\.orders$/m],
    ['an empty persona', ['--persona', ' '], /--persona needs a tag/],
    ['an option of another command', ['--fail-on', 'failing'], /--fail-on is not an option of "probe"/],
    ['a second argument', ['extra'], /unexpected argument "extra" \(quote the message/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const r = await cli(['probe', 'hello', ...args], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(agent.requests).toHaveLength(0);
  });

  it("an invalid label's suggestion is one the suite does not use, nor a file fixtures/ holds: the loader's fix (suite/labels.ts freeLabel)", async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, '', {
      'policies.yml': 'fixtures:\n  - { label: refund-policy, message: hello }\n  - { label: NUL-1.orders, message: hi }\n',
      // A file named as the next one would be, holding another label: probe never overwrites it.
      'refund-policy-2.yml': 'label: other\nmessage: hello\n',
    });
    const spaced = await cli(['probe', 'hello', '--save', 'refund policy'], cwd);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/; use --save refund-policy-3 \(refund-policy is used already\)$/m);
    const windows = await cli(['probe', 'hello', '--save', 'NUL.orders'], cwd);
    expect(windows.stderr).toMatch(/; use --save NUL-2\.orders \(NUL-1\.orders is used already\)$/m);
    expect(agent.requests).toHaveLength(0);
  });

  it('no message, an empty message, and no agent URL', async () => {
    const cwd = await makeProject({ fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const none = await cli(['probe'], cwd);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('probe needs a message');
    expect((await cli(['probe', '  '], cwd)).stderr).toContain('probe needs a message');
    const noUrl = await cli(['probe', 'hi'], cwd);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('no agent URL is configured');
    expect(noUrl.stderr).toContain('nothing was sent to the agent');
    // init's config.yml, its url line still commented out: that line, to uncomment.
    const commented = await makeProject({ config: 'agent:\n  # url: http://localhost:3000/api/chat\n', fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    expect((await cli(['probe', 'hi'], commented)).stderr).toContain(
      ".agent-replay/config.yml:2:3: no agent URL is configured: the url line under agent: is commented out (# url: http://localhost:3000/api/chat)\n  fix: uncomment line 2 and set it to your agent's address (url: http://...), or pass --agent-url URL",
    );
  });

  it('--preset speaks that preset instead of config.yml\'s: an OpenAI chat completion, a tool-call-only answer read as ""', async () => {
    const agent = await serve((req) => {
      const body = req.json as { messages: { content: string }[] };
      const text = body.messages.at(-1)?.content ?? '';
      if (text === 'call a tool') {
        return { json: { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'find_order', arguments: '{}' } }] } }] } };
      }
      return { json: { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `You said: ${text}` } }] } };
    });
    const cwd = await project(agent.url, '  model: gpt-test\n');
    const r = await cli(['probe', 'hello there', '--preset', 'openai-chat', '--assert', 'contains:You said'], cwd);
    expect(r.code, r.stderr).toBe(0);
    // No native welcome turn: the openai-chat preset has none; the body is a chat completion request.
    expect(agent.requests.map((q) => q.json)).toEqual([{ model: 'gpt-test', messages: [{ role: 'user', content: 'hello there' }], temperature: 0 }]);
    expect(r.stdout).toContain('reply\n  You said: hello there\n');
    expect(r.stdout).toContain('verdict pass');
    const tool = await cli(['probe', 'call a tool', '--preset', 'openai-chat'], cwd);
    expect(tool.code, tool.stderr).toBe(0);
    const unknown = await cli(['probe', 'hi', '--preset', 'openai'], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--preset openai is not an agent preset; use one of: native, openai-chat, openai-responses, anthropic-messages, rasa-rest, vercel-ai, langgraph, mastra');
    // A value with a line break is named on one line, as the shell reads it (words.ts shownShellWord).
    const broken = await cli(['probe', 'hi', '--preset', 'open\nai'], cwd);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("agent-replay: --preset $'open\\012ai' is not an agent preset; use one of:");
    expect(agent.requests).toHaveLength(2);
  });

  it('--preset over config.yml\'s preset: warnings and causes name the flag, not the file\'s agent.preset line', async () => {
    const agent = await serve((req) => {
      const body = req.json as { messages?: { content: string }[]; message?: string; start?: boolean };
      if (body.start === true) return nativeEcho(req);
      const text = body.messages?.at(-1)?.content ?? body.message ?? '';
      if (text === 'refused') return { status: 400, json: { error: 'bad request' } };
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'plain words' };
    });
    const cwd = await project(agent.url, '  preset: native\n');
    const refused = await cli(['probe', 'refused', '--preset', 'openai-chat'], cwd);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'warning: .agent-replay/config.yml:2:3: the request body of --preset openai-chat uses {{model}} but agent.model is not set: the agent will receive model: null\n  fix: set agent.model, e.g. model: gpt-4o-mini',
    );
    expect(refused.stderr).not.toContain('config.yml:5:');
    expect(refused.stdout).toContain(`  cause: HTTP 400 from ${agent.url}: the agent rejected the request: check --preset openai-chat or agent.request.body in config.yml\n`);
    const prose = await cli(['probe', 'hi', '--preset', 'openai-chat'], cwd);
    expect(prose.stdout).toMatch(/ {2}cause: .*: check --preset openai-chat: the agent may speak another protocol\n/);
    expect(`${refused.stdout}${prose.stdout}`).not.toContain('agent.preset');
    // Without the flag, config.yml's setting is the one to check.
    const own = await cli(['probe', 'refused'], cwd);
    expect(own.stdout).toContain('check agent.preset or agent.request.body in config.yml');
  });

  it('a config error is reported with its file and line, and nothing is sent', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, '  timeoutMs: -1\n');
    const r = await cli(['probe', 'hi'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: \.agent-replay\/config\.yml:5:\d+: .*timeoutMs/);
    expect(agent.requests).toHaveLength(0);
  });

  it('--wait-for-agent: an agent that never gets ready is one clear failure, exit 2, no message sent', async () => {
    const agent = await serve((req) => (req.method === 'GET' ? { status: 503, body: 'starting' } : routed(req)));
    const cwd = await project(agent.url);
    const r = await cli(['probe', 'hi', '--wait-for-agent', '3'], cwd, {}, { engine: { clock: instantClock() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('agent not ready after 3 s');
    // The fix in the CLI's words: the flag, not the Action's input (report/terminal.ts cliWords).
    expect(r.stderr).toContain('Check that the agent is running and that --agent-url (agent.url) is right, or raise --wait-for-agent (agent.waitForAgent) if it starts slowly.');
    expect(r.stderr).not.toContain('preview');
    expect(agent.requests.filter((q) => q.method === 'POST')).toHaveLength(0);
    // Once it answers, the wait ends and the probe runs.
    const ready = await serve((req) => (req.method === 'GET' ? { status: 404 } : routed(req)));
    const ok = await cli(['probe', 'hi', '--wait-for-agent', '3', '--agent-url', ready.url], cwd, {}, { engine: { clock: instantClock() } });
    expect(ok.code, ok.stderr).toBe(0);
    // A 404 is an answer (the server is up), but it is not called "ready": the path may be wrong.
    expect(ok.stderr).toContain('agent answered HTTP 404 after 1 poll: the server is up, but the path is probably wrong');
    expect(ok.stderr).toContain('check --agent-url (agent.url)');
    expect(ok.stderr).not.toContain('agent-path');
    expect(ok.stderr).not.toContain('agent ready');
  });

  it('a message starting with a dash goes after --', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const r = await cli(['probe', '--assert', 'contains:30', '--', '-v is not a flag here'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(agent.requests[1]?.json).toMatchObject({ message: '-v is not a flag here' });
  });
});

describe('agent-replay probe --save', () => {
  it('writes fixtures/<label>.yml that validate accepts, with the message, persona and assertion probed', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, AMPLE_REGEX);
    const r = await cli(['probe', 'Can I get my money back?', '--persona', 'returning-customer', '--assert', 'regex:/30 days/i', '--save', 'refund-policy'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('saved .agent-replay/fixtures/refund-policy.yml (label refund-policy)');
    const text = await readFile(join(cwd, '.agent-replay/fixtures/refund-policy.yml'), 'utf8');
    expect(text).toContain('label: "refund-policy"\nmessage: "Can I get my money back?"\npersona: "returning-customer"\nassert:\n  regex: "30 days"\n  flags: "i"\n');
    const validate = await cli(['validate'], cwd);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe('.agent-replay: 2 fixtures, 0 baselines, no configuration errors\n');
    expect((await savedFixtures(cwd)).get('refund-policy')).toMatchObject({
      message: 'Can I get my money back?',
      persona: 'returning-customer',
      assertion: { kind: 'regex', pattern: '30 days', flags: 'i' },
      file: '.agent-replay/fixtures/refund-policy.yml',
    });
    // The saved fixture replays as probed: the run gives the same verdict.
    const run = await cli(['run', '--out', 'r.json'], cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')).fixtures.find((f: { label: string }) => f.label === 'refund-policy')).toMatchObject({ verdict: 'pass' });
  });

  it('the commands it prints after saving run as pasted: the run reaches the agent probed, and accept keeps its reply', async () => {
    const agent = await serve(routed);
    // config.yml names an agent that is not there: the probe reached this one through --agent-url.
    const cwd = await project('http://127.0.0.1:9/api/chat');
    const r = await cli(['probe', 'Can I get my money back?', '--agent-url', agent.url, '--assert', 'contains:30 days', '--save', 'refund-window'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const commands = r.stdout.split('\n').flatMap((l) => /^ {2}(npx agent-replay .*)$/.exec(l)?.[1] ?? []);
    expect(commands).toEqual([
      `npx agent-replay run --dir .agent-replay --only refund-window --agent-url ${agent.url}`,
      'npx agent-replay accept --dir .agent-replay --only refund-window',
    ]);
    for (const command of commands) {
      // The shell splits the pasted line into the arguments the CLI receives.
      const argv = execFileSync('sh', ['-c', command.replace(/^npx agent-replay /, "printf '%s\\n' ")], { encoding: 'utf8' }).split('\n').slice(0, -1);
      const step = await cli(argv, cwd);
      expect(step.code, `${command}\n${step.stderr}`).toBe(0);
    }
    expect(existsSync(join(cwd, '.agent-replay/baselines/refund-window.json'))).toBe(true);
    expect(existsSync(join(cwd, '.agent-replay/baselines/greeting.json'))).toBe(false);
    // An address with a key in its query is not echoed: its place is named.
    const keyed = await cli(['probe', 'hi', '--agent-url', `${agent.url}?key=s3cret-agent-key`, '--save', 'keyed'], cwd);
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(keyed.stdout).toContain('npx agent-replay run --dir .agent-replay --only keyed --agent-url <the --agent-url you gave probe>');
    expect(keyed.stdout).not.toContain('s3cret');
  });

  it('saves a failing probe too (a test of a known bug), and a judge assertion with its threshold', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const fail = await cli(['probe', 'refund?', '--assert', 'contains:60 days', '--save', 'sixty'], cwd);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('saved .agent-replay/fixtures/sixty.yml');
    const judged = await cli(['probe', 'refund?', '--assert', 'judge:States the window.', '--threshold', '0.85', '--save', 'judged'], cwd);
    expect(judged.code).toBe(0);
    const fixtures = await savedFixtures(cwd);
    expect(fixtures.get('sixty')?.assertion).toEqual({ kind: 'contains', value: '60 days' });
    expect(fixtures.get('judged')?.assertion).toEqual({ kind: 'judge', criterion: 'States the window.', threshold: 0.85 });
  });

  it('round-trips hostile strings exactly: validate reads back the message, persona and assertion probed', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url);
    const hostile = [
      'yes', 'no', 'on', 'off', '0b101', '0x1F', '0o17', '1_000', '1e3', '.inf', '.nan', 'null', '~', 'true', 'False',
      '2026-11-30', '#', '# not a comment', 'a: b', 'key: value: more', '- item', '? q', '| block', '> folded', '*alias',
      '&anchor', '!tag', '!!binary', '%YAML 1.1', '---', '...', '{a: 1}', '[1, 2]', '@mention', '`tick`', '"double"',
      "'single'", 'back\\slash', 'line\nbreak', 'trailing newline\n', '\ttab', ' leading space', 'trailing space ',
      'crlf\r\nend', 'nel\u0085x', 'sep\u2028x\u2029y', 'nbsp\u00a0x', 'bidi\u202ex', 'bom\ufeffx', 'del\u007fx',
      'emoji 😀 ünïcödé 中文', '<script>alert(1)</script>', '${AGENT_TOKEN}', '{{message}}', 'x'.repeat(300),
    ];
    for (const [i, message] of hostile.entries()) {
      const persona = hostile[(i + 7) % hostile.length] as string;
      const needle = hostile[(i + 13) % hostile.length] as string;
      const r = await cli(['probe', `--persona=${persona}`, `--assert=contains:${needle}`, '--save', `h${i}`, '--', message], cwd);
      expect(r.code === 0 || r.code === 1, `${JSON.stringify(message)}: ${r.stderr}`).toBe(true);
      // What the agent got is what was typed.
      expect(agent.requests.at(-1)?.json).toMatchObject({ message, persona });
    }
    const validate = await cli(['validate'], cwd);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toBe('');
    const fixtures = await savedFixtures(cwd);
    for (const [i, message] of hostile.entries()) {
      expect(fixtures.get(`h${i}`), JSON.stringify(message)).toMatchObject({
        message,
        persona: hostile[(i + 7) % hostile.length],
        // One pair of surrounding double quotes is taken as the shell's (contains:"30 days").
        assertion: { kind: 'contains', value: (hostile[(i + 13) % hostile.length] as string).replace(/^"(.*)"$/s, '$1') },
      });
    }
  });

  it('the written YAML reads back exactly for generated strings of every kind of character (pure round trip)', async () => {
    // fixtureYaml writes with the `yaml` package, which runProbe imports first (suite/yaml/package.ts).
    await loadYamlPackage();
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pool = [...' \t\n\r:#-?|>*&!%@`"\'\\{}[],.~0123456789abcxyzABCXYZ', '\u0085', '\u00a0', '\u2028', '\u2029', '\u202e', '\ufeff', '\u007f', '\u0000', '\u001b', 'é', '😀', '中'];
    for (let n = 0; n < 2000; n++) {
      const pick = (len: number): string => Array.from({ length: len }, () => pool[next(pool.length)]).join('');
      let message = pick(1 + next(24));
      if (message.trim() === '') message = `x${message}`;
      const persona = next(3) === 0 ? null : pick(1 + next(8));
      const assertion = next(2) === 0 ? { kind: 'contains' as const, value: `v${pick(next(10))}` } : { kind: 'regex' as const, pattern: 'a', flags: ['', 'i', 'gim'][next(3)] as string };
      const text = fixtureYaml({ label: `g${n}`, message, persona, assertion }, '2026-12-01T12:00:00.000Z');
      const parsed = readYaml('g.yml', text);
      expect(parsed.errors, JSON.stringify(text)).toEqual([]);
      const checked = checkFixtureFile(parsed.src as NonNullable<typeof parsed.src>, parsed.data);
      expect(checked.errors, JSON.stringify(text)).toEqual([]);
      expect(checked.fixtures[0], JSON.stringify(text)).toMatchObject({ label: `g${n}`, message, persona, assertion });
    }
  });

  it('refuses a label whose file exists, before sending anything, and leaves the file as it was', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, '', { 'greeting.yml': 'label: greeting\nmessage: hello\n', 'taken.yml': 'label: other-label\nmessage: mine\n' });
    const before = await readFile(join(cwd, '.agent-replay/fixtures/taken.yml'), 'utf8');
    const r = await cli(['probe', 'hi', '--save', 'taken'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--save taken: .agent-replay/fixtures/taken.yml exists; probe never overwrites a file');
    expect(r.stderr).not.toContain('Usage:'); // a refusal, not a command-line mistake
    expect(agent.requests).toHaveLength(0);
    expect(await readFile(join(cwd, '.agent-replay/fixtures/taken.yml'), 'utf8')).toBe(before);
  });

  it('refuses a label another fixture or persona script already has (any case), before sending anything', async () => {
    const agent = await serve(routed);
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: { 'list.yml': 'fixtures:\n  - { label: greeting, message: hello }\n  - { label: Refund-Policy, message: refund? }\n' },
      personas: { 'p.yml': 'label: broken-item\nopening: hi\nexpect: { conversations: [refunds] }\n' },
    });
    const dup = await cli(['probe', 'hi', '--save', 'refund-policy'], cwd);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('the label "Refund-Policy" is already used at .agent-replay/fixtures/list.yml:3');
    const script = await cli(['probe', 'hi', '--save', 'broken-item'], cwd);
    expect(script.code).toBe(2);
    expect(script.stderr).toContain('the label "broken-item" is already used at .agent-replay/personas/p.yml:1');
    expect(agent.requests).toHaveLength(0);
  });

  it('never writes over a file that appears while the agent answers', async () => {
    let cwd = '';
    const agent = await serve(async (req) => {
      if ((req.json as { start?: boolean }).start !== true) await writeFile(join(cwd, '.agent-replay/fixtures/racy.yml'), 'label: racy\nmessage: written meanwhile\n');
      return routed(req);
    });
    cwd = await project(agent.url);
    const r = await cli(['probe', 'hi', '--save', 'racy'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not saved: .agent-replay/fixtures/racy.yml appeared while probing');
    expect(await readFile(join(cwd, '.agent-replay/fixtures/racy.yml'), 'utf8')).toBe('label: racy\nmessage: written meanwhile\n');
    expect((await readdir(join(cwd, '.agent-replay/fixtures'))).filter((n) => n.startsWith('.'))).toEqual([]); // no temporary file left
  });

  it('saves the first fixture of a suite that has only config.yml', async () => {
    const agent = await serve(routed);
    const cwd = await makeProject({ config: agentConfig(agent.url) });
    expect((await cli(['validate'], cwd)).code).toBe(2); // no fixtures yet
    const r = await cli(['probe', 'hello', '--assert', 'contains:Refunds', '--save', 'first'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const validate = await cli(['validate'], cwd);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe('.agent-replay: 1 fixture, 0 baselines, no configuration errors\n');
  });

  it('refuses to save into a suite whose other files have errors (their labels are unknown)', async () => {
    const agent = await serve(routed);
    const cwd = await project(agent.url, '', { 'bad.yml': 'label: [not, a, string]\nmessage: hi\n' });
    const r = await cli(['probe', 'hi', '--save', 'fine'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--save adds a fixture to .agent-replay, which has configuration errors');
    expect(agent.requests).toHaveLength(0);
    // Without --save, a broken fixture elsewhere does not stop a probe.
    const probe = await cli(['probe', 'hi'], cwd);
    expect(probe.code, probe.stderr).toBe(0);
  });

  it('refuses a fixtures folder that is a link to outside the suite', async () => {
    const agent = await serve(routed);
    const cwd = await makeProject({ config: agentConfig(agent.url) });
    const { rm, symlink } = await import('node:fs/promises');
    await rm(join(cwd, '.agent-replay/fixtures'), { recursive: true });
    await mkdir(join(cwd, 'elsewhere'));
    await symlink(join(cwd, 'elsewhere'), join(cwd, '.agent-replay/fixtures'));
    const r = await cli(['probe', 'hi', '--save', 'outside'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the fixtures folder .agent-replay/fixtures resolves outside the suite folder');
    expect(await readdir(join(cwd, 'elsewhere'))).toEqual([]);
    expect(agent.requests).toHaveLength(0);
  });
});
