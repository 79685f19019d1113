// The messages docs/troubleshooting.md quotes for what a user meets on a first day (no fixtures, an
// agent that answers a web page or its text under another key, an agent not running), each got
// from the tool as the page says it: the page's quote, with `<...>` for a value of the run and
// `...` for words left out, must be in what the tool prints, so that neither changes alone.
// The CLI in-process against real loopback servers and temp folders; no child process. A message
// a tested run already makes is held there instead (test/support/troubleshooting.ts); one built by
// a function alone is held at that function, below.

import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readyLine } from '../../src/agent/ready.js';
import { decodeEventStream } from '../../src/agent/stream.js';
import { causeLine, groupCauses } from '../../src/evaluate/causes.js';
import { writeFailureWords } from '../../src/fs-safe.js';
import { deadlineText } from '../../src/http/network.js';
import { renderCapRefusalText } from '../../src/report/cap.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { tempDir } from '../support/temp.js';
import { quotedAndSaid, says, TROUBLESHOOTING } from '../support/troubleshooting.js';
import { agentConfig, cli, makeProject, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

const PAGE = TROUBLESHOOTING;

describe('the matcher', () => {
  it('reads <...> and ... as any words, and nothing else', () => {
    expect(says('could not reach the agent after 3 attempts: refused', 'could not reach the agent after <n> attempts: refused')).toBe(true);
    expect(says('could not reach the agent after 3 tries: refused', 'could not reach the agent after <n> attempts: refused')).toBe(false);
    expect(says('a b c', 'a ... c')).toBe(true);
    expect(says('a b c', 'a c')).toBe(false);
  });
});

describe('a suite folder with no fixture (docs/troubleshooting.md, "Configuration errors")', () => {
  it('an empty fixtures folder, one of files that define none, and a fixture saved as .json', async () => {
    const cwd = await tempDir('agent-replay-tw-nofixtures-');
    const fixtures = join(cwd, '.agent-replay', 'fixtures');
    await mkdir(fixtures, { recursive: true });
    const empty = await cli(['validate'], cwd);
    expect(empty.code).toBe(2);
    quotedAndSaid(empty.stderr, '.agent-replay/fixtures: no fixtures: .agent-replay/fixtures has no .yml or .yaml file');
    expect(empty.stderr).toContain('fix: create .agent-replay/fixtures/greeting.yml containing\n    label: greeting\n    message: hello');

    await writeFile(join(fixtures, 'a.yml'), '');
    const none = await cli(['validate'], cwd);
    expect(none.code).toBe(2);
    quotedAndSaid(none.stderr, 'no fixtures: the files in .agent-replay/fixtures define none');
    quotedAndSaid(none.stderr, 'the file is empty: it defines no fixture');

    await writeFile(join(fixtures, 'a.yml'), 'label: a\nmessage: hi\n');
    await writeFile(join(fixtures, 'refund.json'), '{"label": "refund", "message": "Can I get my money back?"}\n');
    const json = await cli(['validate'], cwd);
    expect(json.code, json.stderr).toBe(0);
    quotedAndSaid(json.stderr, 'not read: fixtures are read from .yml and .yaml files only');
    quotedAndSaid(json.stderr, 'rename it to refund.yml (YAML; a JSON document is YAML too)');
  });
});

describe('a label that cannot name a baseline file (docs/troubleshooting.md, "Configuration errors")', () => {
  it('is said at its line, with a label close to it as the fix', async () => {
    const cwd = await makeProject({ fixtures: { 'a.yml': 'label: refund policy\nmessage: hi\n' } });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(2);
    quotedAndSaid(r.stderr, 'label "refund policy" is not valid: a label is 1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit (it names the baseline file)');
    quotedAndSaid(r.stderr, 'rename it, e.g. label: refund-policy');
  });
});

describe('a judge with no key (docs/troubleshooting.md, "Configuration errors")', () => {
  it('is warned about at its provider\'s own address, with the variable to set', async () => {
    const cwd = await makeProject({ config: 'judge:\n  model: gpt-4o-mini\n', fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const r = await cli(['validate'], cwd);
    expect(r.code).toBe(0);
    quotedAndSaid(r.stderr, 'judge.apiKey is not set: openai will refuse the calls, so judge assertions are not evaluated');
    quotedAndSaid(r.stderr, 'add apiKey: ${JUDGE_API_KEY} under judge and export JUDGE_API_KEY (a repository secret in a workflow)');
    // A key or another address given by an input or a flag is not warned about: test/suite/errors.test.ts.
  });
});

describe('a variable config.yml reads that is not set (docs/troubleshooting.md, "Configuration errors")', () => {
  it('is said at its line, with the export and the step\'s env: as the fix; set but empty, with the missing secret', async () => {
    const config = 'agent:\n  url: https://agent.example/api/chat\n  headers: { Authorization: "Bearer ${AGENT_TOKEN}" }\n';
    const cwd = await makeProject({ config, fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const unset = await cli(['validate'], cwd, {});
    expect(unset.code).toBe(2);
    quotedAndSaid(unset.stderr, 'environment variable AGENT_TOKEN is not set');
    quotedAndSaid(unset.stderr, 'export AGENT_TOKEN=... before running agent-replay; in a workflow, set it under env: of the step (AGENT_TOKEN: ${{ secrets.AGENT_TOKEN }} for a secret)');
    expect(unset.stderr).toContain('error: .agent-replay/config.yml:3:');
    const empty = await cli(['validate'], cwd, { AGENT_TOKEN: '' });
    quotedAndSaid(empty.stderr, 'environment variable AGENT_TOKEN is set but empty');
  });
});

describe("the agent's answers (docs/troubleshooting.md, \"The agent\")", () => {
  it("a web page, a reply under another key, a key refused: the item's error, the Action's cause and the terminal's", async () => {
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as { message?: string };
      if (body.message === 'page') return { headers: { 'content-type': 'text/html' }, body: '<!doctype html><html><head><title>Acme Store</title></head></html>' };
      if (body.message === 'locked') return { status: 401, json: { error: 'invalid api key' } };
      return { json: { message: 'Refunds take 30 days.', id: 'msg_01' } };
    });
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'fixtures:\n  - { label: page, message: page }\n  - { label: key, message: hi }\n  - { label: locked, message: locked }\n' } });
    const r = await cli(['run', '--out', 'r.json'], cwd);
    expect(r.code).toBe(1);
    const record = runRecordSchema.parse(JSON.parse(readFileSync(join(cwd, 'r.json'), 'utf8')));
    const error = (label: string): string => record.fixtures.find((f) => f.label === label)?.error ?? '';
    quotedAndSaid(error('page'), 'response is not valid JSON: an HTML page titled "<title>"');
    quotedAndSaid(error('key'), 'response has no string at "reply" (found nothing; the response is an object (keys: message, id); its text may be at "message")');
    // The Action's causes (the comment, the job summary), from the record; the terminal names the flag.
    const causes = groupCauses(record.fixtures, agent.url).map((g) => causeLine(g, 1)).join('\n');
    quotedAndSaid(causes, 'an HTML page instead of JSON from <url>: the URL serves a web page (a site or an SPA), not the agent: check agent-path or agent.url');
    quotedAndSaid(causes, 'no reply at "reply" in the agent\'s answers: the answer\'s text may be at "message": set agent.response.reply: message in config.yml if that is the reply, or check agent.preset');
    expect(error('locked')).toBe('message turn: agent returned HTTP 401 after 1 attempt: {"error":"invalid api key"}');
    quotedAndSaid(error('locked'), 'agent returned HTTP <status> after <n> attempts: <body>', { '<n> attempts': '1 attempt' });
    quotedAndSaid(causes, 'HTTP 401 from <url>: the agent refused the request: check the key or token it expects in agent-headers (agent.headers)');
    expect(r.stdout).toContain('the agent refused the request: check the key or token it expects in agent.headers in config.yml');
    quotedAndSaid(r.stdout, 'check --agent-url (agent.url)');
    expect(r.stdout).toContain('the answer\'s text may be at "message": set agent.response.reply: message in config.yml if that is the reply, or check agent.preset');
  });

  it('an agent not running: the item says where nothing listens, in the Action\'s words in the record and the flag\'s in the terminal', async () => {
    const gone = await serve();
    const url = gone.url;
    const address = new URL(url).host;
    await gone.close();
    // The default retries (2), without their backoff: 3 attempts, as the page writes them.
    const cwd = await makeProject({ config: `agent:\n  url: ${url}\n  backoffMs: 0\n`, fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const r = await cli(['run', '--out', 'r.json'], cwd);
    expect(r.code).toBe(1);
    const record = runRecordSchema.parse(JSON.parse(readFileSync(join(cwd, 'r.json'), 'utf8')));
    const quoted = 'could not reach the agent after <n> attempts: connection refused at 127.0.0.1:3000 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running';
    expect(PAGE).toContain(`\`${quoted}\``);
    const here = quoted.replace('127.0.0.1:3000', address);
    expect(says(record.fixtures[0]?.error ?? '', here), record.fixtures[0]?.error ?? '').toBe(true);
    expect(says(r.stdout, here.replace('check agent-url (agent.url)', 'check --agent-url (agent.url)')), r.stdout).toBe(true);
  });
});

describe('accept before any run (docs/troubleshooting.md, "Results and exit statuses")', () => {
  it('says what comes first, with the command as typed', async () => {
    const cwd = await makeProject({ fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const r = await cli(['accept'], cwd);
    expect(r.code).toBe(2);
    quotedAndSaid(r.stderr, 'no run to accept: .agent-replay/results/results.json does not exist; run the suite first, npx agent-replay run (it writes the results there), or give --results FILE');
  });
});

describe('the suite init writes, run before its url line is set (docs/troubleshooting.md, "The agent")', () => {
  it('names the line init wrote, to uncomment; nothing is sent', async () => {
    const cwd = await tempDir('agent-replay-tw-init-');
    expect((await cli(['init'], cwd)).code).toBe(0);
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(2);
    quotedAndSaid(r.stderr, '.agent-replay/config.yml:8:3: no agent URL is configured: the url line under agent: is commented out (# url: http://localhost:3000/api/chat)');
    quotedAndSaid(r.stderr, "uncomment line 8 and set it to your agent's address ...");
  });
});

describe('messages built by one function, held at it (docs/troubleshooting.md, "The agent", "Cost", "Results and exit statuses")', () => {
  it("--wait-for-agent's answers that end the wait: a 404, a redirect, a 401", () => {
    quotedAndSaid(readyLine(404, 3), 'agent answered HTTP 404 after <n> polls: the server is up, but the path is probably wrong ...');
    quotedAndSaid(readyLine(302, 3), 'agent answered HTTP 302 after <n> polls: the server is up, but redirects, and redirects are not followed ...');
    quotedAndSaid(readyLine(401, 3), 'agent answered HTTP 401 after <n> polls: the server is up, but refuses a request without the header it expects ...');
  });

  it("a turn's deadline through a proxy's tunnel, the connection open and no answer back", () => {
    // The agent's client says its deadline in this function's words alone (src/agent/http-client.ts).
    const route = { proxy: 'http://proxy.corp:3128', variable: 'HTTPS_PROXY', host: 'agent.example.com', forwarded: false };
    quotedAndSaid(
      deadlineText({ at: 'answer' }, 'the agent', '30,000 ms', route),
      'no answer from the agent within <ms> ms through the proxy http://proxy.corp:3128 (HTTPS_PROXY): the tunnel to <host> opened, and no answer came through it',
    );
    quotedAndSaid(deadlineText({ at: 'answer' }, 'the agent', '30,000 ms', { ...route, forwarded: true }), 'the proxy took the request, and no answer came back');
  });

  it("the AI SDK's masked error, sent as a UI message stream's error part", () => {
    const decoded = decodeEventStream('data: {"type":"start"}\n\ndata: {"type":"error","errorText":"An error occurred."}\n\n');
    quotedAndSaid(decoded.ok ? 'read' : decoded.error, 'the stream sent an error event: An error occurred.');
  });

  it("the cost cap's refusal, with fixtures, persona scripts, judge and meaning calls", () => {
    const estimate = { usd: 0.42, capUsd: 0.1, aboveCap: true, confirmed: false, meaningCalls: 2 };
    quotedAndSaid(
      renderCapRefusalText(estimate, 3, 4, { dir: '.agent-replay' }, 2, 0, 9),
      'not run: the estimated cost <usd> for <n> agent turns (<n> fixtures, <n> persona scripts), <n> judge calls and <n> meaning calls at most is above the cost cap <cap>.',
    );
  });

  it("init's file it could not write, with the reason in words and Node's beside it", () => {
    // As init prints it (src/cli/init.ts): `not written  <path>: <writeFailureWords>`; test/cli/init.test.ts makes one with a file where a folder goes.
    const denied = Object.assign(new Error("EACCES: permission denied, open '.agent-replay/config.yml'"), { code: 'EACCES', syscall: 'open' });
    quotedAndSaid(`not written  .agent-replay/config.yml: ${writeFailureWords(denied)}`, 'not written  .agent-replay/config.yml: permission denied (EACCES: ...)');
  });
});
