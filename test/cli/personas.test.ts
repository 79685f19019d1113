// Persona scripts end to end (docs/personas.md): `agent-replay run` against the real loopback shop
// agent (test/support/shop-agent.ts) and the real loopback judge (test/judge/server.ts), then the
// record, JUnit, the gate, baselines, drift and `accept --results`.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import type { Check, PersonaRecord, RunRecord } from '../../src/types.js';
import { startShopAgent } from '../support/shop-agent.js';
import type { AgentServer } from '../support/agent-server.js';
import { json, startServer, type Received, type TestServer } from '../judge/server.js';
import { agentConfig, cli, makeProject, readResults, useCleanup } from './helpers.js';
import { docsUrl } from '../../src/version.js';

useCleanup();

const { servers } = closedAfterEach();

const COMMIT = 'c'.repeat(40);

/** What the judge answers per criterion: JSON with a score, or prose with none. */
const JUDGE_ANSWERS: Record<string, string> = {
  'Mentioned the order number': '{"rationale": "It named order 1234.", "score": 0.9}',
  'Offered a discount': '{"rationale": "No discount was offered.", "score": 0.2}',
  'Stayed empathetic': 'I think the agent was quite kind overall, maybe a seven out of ten.',
};

async function startJudge(): Promise<TestServer> {
  const judge = await startServer([
    (res, req: Received) => {
      const user = (req.body as { messages: { content: string }[] }).messages[1]?.content ?? '';
      const criterion = /^Criterion:\n(.*)$/m.exec(user)?.[1] ?? '';
      json(200, { choices: [{ message: { role: 'assistant', content: JUDGE_ANSWERS[criterion] ?? 'no idea' } }] })(res, req);
    },
  ]);
  servers.push(judge);
  return judge;
}

async function startAgent(...args: Parameters<typeof startShopAgent>): Promise<AgentServer> {
  const agent = await startShopAgent(...args);
  servers.push(agent);
  return agent;
}

const REFUND = `opening: I want my money back
followUps: [ "Order 1234", "It arrived broken" ]
mocks:
  - { tool: find_order, input: { orderId: "1234" }, match: subset, output: { status: delivered } }`;

const SCRIPTS = `personas:
  - label: passes
    ${REFUND.split('\n').join('\n    ')}
    expect:
      conversations: [ refunds, handoff, "conversations:welcome" ]
      terminal: handoff
      toolCalled: [ { tool: find_order, input: { orderId: "1234", fields: [ items ] }, match: subset } ]
      toolNotCalled: [ { tool: issue_refund } ]
      criteria: [ Mentioned the order number ]
  - label: fails-every-check
    ${REFUND.split('\n').join('\n    ')}
    expect:
      conversations: [ refunds, billing ]
      terminal: finish
      toolCalled: [ { tool: find_order, input: { orderId: 1234 } } ]
      toolNotCalled: [ { tool: find_order, input: { orderId: "1234" }, match: subset } ]
      criteria: [ Offered a discount ]
  - label: prose-and-fail
    opening: hi
    expect: { criteria: [ Stayed empathetic, Offered a discount ] }
  - label: only-prose
    opening: hi
    expect: { conversations: [ smalltalk ], criteria: [ Stayed empathetic ] }
  - label: unmocked
    opening: Order 77
    mocks: [ { tool: issue_refund, output: { refunded: true } } ]
    expect:
      conversations: [ refunds ]
      toolCalled: [ { tool: find_order } ]
      criteria: [ Mentioned the order number ]
  - label: breaks
    persona: breaks-on-3
    opening: first
    followUps: [ second, third, fourth ]
    expect: { conversations: [ smalltalk ], terminal: finish, criteria: [ Mentioned the order number ] }
  - label: ends-early
    opening: hello
    followUps: [ bye, are you there?, hello? ]
    expect: { terminal: finish, conversations: [ goodbye ] }
  - label: silent
    persona: silent
    opening: Order 1234
    followUps: [ bye ]
    mocks: [ { tool: find_order, output: { status: lost } } ]
    expect: { terminal: finish, toolNotCalled: [ { tool: issue_refund } ] }
`;

async function project(agentUrl: string, judgeUrl: string): Promise<string> {
  return makeProject({
    // No "slower" from the machine's load: a persona run 300 ms slower than the one before (a loaded
    // 2-core machine) made accept rewrite an unchanged baseline (docs/latency.md).
    config: `${agentConfig(agentUrl)}judge: { provider: openai, baseUrl: "${judgeUrl}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 5 }\nlatency: { slowerBy: 0.5, minDeltaMs: 600000 }\n`,
    personas: { 'scripts.yml': SCRIPTS },
  });
}

const BY_PERSONA = { 'breaks-on-3': { failOnTurn: 3 }, silent: { hideToolCalls: true, hideOutcome: true } };

function byLabel(record: RunRecord): Record<string, PersonaRecord> {
  return Object.fromEntries(record.personas.map((p) => [p.label, p]));
}

function statuses(p: PersonaRecord): string[] {
  return p.checks.map((c: Check) => `${c.kind}:${c.status}`);
}

describe('agent-replay run with persona scripts', () => {
  it('replays every script in one session and records turns, checks and verdicts as docs/personas.md says', async () => {
    const agent = await startAgent(BY_PERSONA);
    const judge = await startJudge();
    const cwd = await project(agent.url, judge.url);
    const r = await cli(['run', '--out', 'r.json', '--junit', 'j.xml', '--commit', COMMIT, '--fail-on', 'none'], cwd);
    expect(r.stderr).not.toMatch(/^(error|warning):/m);
    expect(r.code).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    const p = byLabel(record);
    expect(record.fixtures).toEqual([]);
    expect(record.tallies).toEqual({ passed: 2, failed: 2, notEvaluated: 2, errored: 2 });

    // passes: welcome (turn 0), opening, follow-ups; mocks answered the tool; every check passes.
    expect(p.passes).toMatchObject({ errored: false, verdict: 'pass', visited: ['conversations:welcome', 'conversations:refunds', 'refunds', 'handoff'], outcome: 'handoff', unsent: [] });
    expect(p.passes!.turns.map((t) => [t.index, t.message])).toEqual([
      [0, null],
      [1, 'I want my money back'],
      [2, 'Order 1234'],
      [3, 'It arrived broken'],
    ]);
    expect(p.passes!.turns[2]).toMatchObject({
      reply: 'Order 1234 is delivered. What went wrong?',
      route: { conversation: 'refunds', stage: 'lookup' },
      toolCalls: [{ tool: 'find_order', input: { orderId: '1234', fields: ['status', 'items'], meta: { channel: 'chat', depth: 2 } }, output: { status: 'delivered' }, mocked: true }],
      outcome: null,
      errors: [],
    });
    expect(statuses(p.passes!)).toEqual(['conversations:pass', 'terminal:pass', 'toolCalled:pass', 'toolNotCalled:pass', 'criterion:pass']);
    expect(p.passes!.checks[2]).toMatchObject({ turn: 2, detail: 'called find_order {"orderId": "1234", "fields": ["items"]} at turn 2' });
    expect(p.passes!.checks[4]).toMatchObject({ score: 0.9, threshold: 0.7, rationale: 'It named order 1234.' });
    expect(p.passes!.drift).toEqual({ transcript: null, route: null, verdict: 'no_baseline' });

    // The same session and the script's mocks on every turn, the welcome turn included.
    const REFUND_MOCKS = [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered' } }];
    const sessions = new Map<string, unknown[]>();
    for (const q of agent.requests) {
      const body = q.json as { session: string; start?: boolean; message?: string; mocks: unknown };
      if (JSON.stringify(body.mocks) !== JSON.stringify(REFUND_MOCKS)) continue;
      sessions.set(body.session, [...(sessions.get(body.session) ?? []), body.start ?? body.message]);
    }
    expect([...sessions.values()]).toEqual([0, 1].map(() => [true, 'I want my money back', 'Order 1234', 'It arrived broken']));
    const mocksSent = agent.requests.map((q) => JSON.stringify((q.json as { mocks?: unknown }).mocks));
    expect(mocksSent.filter((m) => m === undefined)).toEqual([]);

    // fails-every-check: each check kind fails, each with what was expected and observed.
    expect(p['fails-every-check']).toMatchObject({ errored: false, verdict: 'fail' });
    expect(statuses(p['fails-every-check']!)).toEqual(['conversations:fail', 'terminal:fail', 'toolCalled:fail', 'toolNotCalled:fail', 'criterion:fail']);
    expect(p['fails-every-check']!.checks.map((c) => c.detail)).toEqual([
      'visited: conversations:welcome, conversations:refunds, refunds, handoff; missing: billing',
      'expected finish, ended with handoff',
      'expected a call of find_order {"orderId": 1234}: find_order was called with {"orderId": "1234", "fields": ["status", "items"], "meta": {"channel": "chat", "depth": 2}}',
      'find_order {"orderId": "1234"} must not be called, but was at turn 2',
      'score 0.20 < threshold 0.70: No discount was offered.',
    ]);

    // A criterion the judge answered in prose is not evaluated, and another that fails makes it fail.
    expect(p['prose-and-fail']).toMatchObject({ verdict: 'fail' });
    expect(statuses(p['prose-and-fail']!)).toEqual(['criterion:not_evaluated', 'criterion:fail']);
    expect(p['prose-and-fail']!.checks[0]!.detail).toMatch(/^judge gave no usable answer: no usable score in output/);
    // Only prose: not evaluated (never pass, never fail).
    expect(p['only-prose']).toMatchObject({ verdict: 'not_evaluated' });
    expect(statuses(p['only-prose']!)).toEqual(['conversations:pass', 'criterion:not_evaluated']);

    // An unmocked tool call: errored although every deterministic check passes; criteria not sent.
    expect(p.unmocked).toMatchObject({ errored: true, errorKind: 'unmocked_tool', verdict: null, drift: null });
    expect(p.unmocked!.error).toMatch(/^turn 1: the agent reported a call to find_order \{.*\} that no mock answered \(no mock is declared for it; mocked: false\); the script declares mocks, so it runs in mocked mode/);
    expect(statuses(p.unmocked!)).toEqual(['conversations:pass', 'toolCalled:pass', 'criterion:not_evaluated']);
    expect(p.unmocked!.checks[2]!.detail).toBe('the run did not complete');

    // HTTP 500 on turn 3: errored, turns 0-2 kept, the rest unsent, deterministic checks on what completed.
    expect(p.breaks).toMatchObject({ errored: true, errorKind: 'http', verdict: null, unsent: ['third', 'fourth'] });
    expect(p.breaks!.error).toMatch(/^turn 3: agent returned HTTP 500 after 1 attempt/);
    expect(p.breaks!.turns.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(statuses(p.breaks!)).toEqual(['conversations:pass', 'terminal:fail', 'criterion:not_evaluated']);

    // Ended early: the follow-ups not sent are unsent, and that is not an error.
    expect(p['ends-early']).toMatchObject({ errored: false, verdict: 'pass', outcome: 'finish', unsent: ['are you there?', 'hello?'] });
    expect(p['ends-early']!.turns.map((t) => t.index)).toEqual([0, 1, 2]);

    // No toolCalls / outcome keys at all: those checks are not evaluated, with the reason.
    expect(p.silent).toMatchObject({ verdict: 'not_evaluated' });
    expect(p.silent!.checks.map((c) => c.detail)).toEqual(['the agent does not report outcomes', 'the agent does not report tool calls']);
    expect(p.silent!.turns.every((t) => t.toolCalls === null)).toBe(true);

    // One judge call per criterion of the scripts that completed, each with the whole transcript.
    expect(judge.received).toHaveLength(1 + 1 + 2 + 1);
    const passesCall = judge.received.find((q) => JSON.stringify(q.body).includes('Mentioned the order number')) as Received;
    const [system, user] = (passesCall.body as { messages: { content: string }[] }).messages;
    expect(system!.content).toContain('{"rationale": "<one line>", "score": <number from 0 to 1>}');
    expect(user!.content).toContain('[turn 0] Agent (welcome): Welcome to the shop!');
    expect(user!.content).toContain('[turn 2] Agent called tool find_order with {"orderId":"1234","fields":["status","items"],"meta":{"channel":"chat","depth":2}} -> {"status":"delivered"}');
    expect(user!.content).toContain('[turn 3] User: It arrived broken');

    // JUnit: one test case per script; a failed script's message lists its failed checks.
    const junit = await readFile(join(cwd, 'j.xml'), 'utf8');
    expect(junit).toContain('tests="8" failures="2" errors="2" skipped="2"');
    expect(junit.match(/<testcase /g)).toHaveLength(8);
    expect(junit).toMatch(/<testcase classname="\.agent-replay\/personas\/scripts\.yml" name="fails-every-check" file="\.agent-replay\/personas\/scripts\.yml" line="\d+" time="[\d.]+">\n {6}<failure message="conversations: fail \(visited: [^"]*missing: billing\); terminal: fail/);
    expect(junit).toMatch(/name="unmocked"[^>]*>\n {6}<error message="turn 1: the agent reported a call to find_order [^"]* that no mock answered[^"]*" type="unmocked tool">/);
  });

  it('--fail-on applies to scripts like to fixtures', async () => {
    const agent = await startAgent(BY_PERSONA);
    const judge = await startJudge();
    const cwd = await project(agent.url, judge.url);
    const failed = await cli(['run', '--out', 'r.json', '--commit', COMMIT, '--fail-on', 'failed,errored'], cwd);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('gate failed: 2 persona scripts failing (fails-every-check, prose-and-fail); 2 persona scripts errored (unmocked, breaks)');
    const ok = await cli(['run', '--out', 'r.json', '--commit', COMMIT, '--fail-on', 'newly_failing'], cwd);
    expect(ok.code).toBe(0);
  });

  it('the estimate counts every turn and every criterion, and the cost cap refuses before anything is sent', async () => {
    const agent = await startAgent(BY_PERSONA);
    const judge = await startJudge();
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k }\ncost: { capUsd: 0.05 }\n`,
      personas: { 'p.yml': 'label: p\nopening: a\nfollowUps: [ b, c ]\nexpect: { criteria: [ x, y ] }\n' },
    });
    // The lenient gate: this judge's answers are not the point here (the default gate would fail the run as not verified).
    const r = await cli(['run', '--out', 'r.json', '--fail-on', 'newly_failing'], cwd);
    // 4 turns (welcome + 3) x 0.01 + 2 criteria x 0.005 = 0.05: at the cap, it runs.
    expect(r.code, r.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    expect(record.estimate.usd).toBe(0.05);
    const cwd2 = await makeProject({
      // With its judge: without one the criteria are not evaluated, and no judge call is counted (estimate-spend.test.ts).
      config: `${agentConfig(agent.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k }\ncost: { capUsd: 0.04 }\n`,
      personas: { 'p.yml': 'label: p\nopening: a\nfollowUps: [ b, c ]\nexpect: { criteria: [ x, y ] }\n' },
    });
    const before = agent.requests.length;
    const refused = await cli(['run', '--out', 'r.json'], cwd2);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not run: the estimated cost $0.05 for 4 agent turns (0 fixtures, 1 persona script) and 2 judge calls is above the cost cap $0.04.');
    expect(agent.requests.length).toBe(before);
  });
});

describe('persona baselines, drift and acceptance', () => {
  it('accept writes persona baselines, refuses errored and not evaluated; the next run compares the transcript and the routes', async () => {
    const agent = await startAgent(BY_PERSONA);
    const judge = await startJudge();
    const cwd = await project(agent.url, judge.url);
    expect((await cli(['run', '--out', 'r1.json', '--commit', COMMIT, '--fail-on', 'none'], cwd)).code).toBe(0);

    const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('accepted  passes (pass) → ');
    expect(accepted.stdout).toContain('accepted  fails-every-check (fail) → ');
    // Two scripts refused for one reason: the reason said once, each script under it with where it is defined.
    expect(accepted.stdout).toMatch(/^refused {3}2 items: errored: the run did not complete\n {10}unmocked · \S+:\d+\n {10}breaks · \S+:\d+$/m);
    // The judge's prose would come back on a run as it is: the refusal names the fix.
    expect(accepted.stdout).toContain(
      `refused   only-prose: not evaluated (the judge answered without a usable score): use a judge model that follows the prompt, or an endpoint with structured output (${docsUrl('judges.md', 'Structured output and its fallback')}); then run it again`,
    );
    expect(accepted.stdout).toContain('4 accepted, 4 refused, 0 unchanged');

    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'passes.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual(['label', 'kind', 'transcript', 'endedBy', 'visited', 'outcome', 'verdict', 'judge', 'latencyMs', 'acceptedAt', 'commit']);
    // The agent handed off and ended the conversation on the script's last message: both ended it there.
    expect(stored).toMatchObject({ label: 'passes', kind: 'persona', endedBy: 'both', outcome: 'handoff', verdict: 'pass', commit: COMMIT, acceptedAt: '2026-12-01T12:00:00.000Z' });
    expect((stored.transcript as unknown[])[0]).toEqual({ message: null, reply: 'Welcome to the shop!', route: { conversation: 'conversations:welcome', stage: 'greeting' } });
    const validated = await cli(['validate'], cwd);
    expect(validated).toMatchObject({ code: 0 });
    expect(validated.stdout).toBe('.agent-replay: 0 fixtures, 8 persona scripts, 4 baselines, no configuration errors\n');

    // The same agent again: same transcript and routes, still passing / still failing.
    expect((await cli(['run', '--out', 'r2.json', '--commit', COMMIT, '--fail-on', 'none'], cwd)).code).toBe(0);
    const again = byLabel(await readResults(join(cwd, 'r2.json')));
    expect(again.passes!.drift).toEqual({ transcript: 'same', route: 'same', verdict: 'still_passing' });
    expect(again['fails-every-check']!.drift).toEqual({ transcript: 'same', route: 'same', verdict: 'still_failing' });
    expect(again.passes!.baseline).toMatchObject({ kind: 'persona', verdict: 'pass' });
    expect((await cli(['accept', '--results', 'r2.json', '--only', 'passes'], cwd)).stdout).toContain('unchanged passes (already the baseline)');

    // A changed agent: the replies differ, the routes do not.
    await agent.close();
    const changed = await startAgent({ ...BY_PERSONA, null: { suffix: ' (v2)' } });
    const config = join(cwd, '.agent-replay', 'config.yml');
    const text = await readFile(config, 'utf8');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(config, text.replace(agent.url, changed.url));
    const drifted = await cli(['run', '--out', 'r3.json', '--commit', COMMIT, '--fail-on', 'reply_changed'], cwd);
    expect(drifted.code).toBe(1);
    const third = byLabel(await readResults(join(cwd, 'r3.json')));
    // The reply gained a number ("v2"): the facts say it changed in meaning (docs/meaning.md), with no model asked.
    expect(third.passes!.drift).toEqual({
      transcript: 'different',
      route: 'same',
      verdict: 'still_passing',
      meaning: { value: 'changed', by: 'facts', detail: 'turn 1 changed in meaning: numbers none → 2', facts: { baseline: [], now: [{ kind: 'number', value: '2' }] } },
    });
    expect(third.passes!.turns[1]!.reply).toBe('Sorry to hear that. What is your order number? (v2)');

    // Accepting from the CLI again takes the new transcript.
    const reaccepted = await cli(['accept', '--results', 'r3.json', '--only', 'passes'], cwd);
    expect(reaccepted.stdout).toContain('accepted  passes (pass)');
    const restored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'passes.json'), 'utf8')) as { transcript: { reply: string }[] };
    expect(restored.transcript[1]!.reply).toBe('Sorry to hear that. What is your order number? (v2)');
  });

  it('report merges shards holding persona scripts, and refuses a label in two shards', async () => {
    const agent = await startAgent(BY_PERSONA);
    const judge = await startJudge();
    const cwd = await project(agent.url, judge.url);
    expect((await cli(['run', '--out', 'a.json', '--commit', COMMIT, '--fail-on', 'none'], cwd)).code).toBe(0);
    const a = await readResults(join(cwd, 'a.json'));
    const { writeFile } = await import('node:fs/promises');
    const half = (personas: PersonaRecord[]): RunRecord => ({ ...a, personas, tallies: { passed: 0, failed: 0, notEvaluated: 0, errored: 0 } });
    await writeFile(join(cwd, 's1.json'), JSON.stringify(half(a.personas.slice(0, 3))));
    await writeFile(join(cwd, 's2.json'), JSON.stringify(half(a.personas.slice(3))));
    const merged = await cli(['report', '--results', 's1.json', '--results', 's2.json', '--out', 'm.json', '--fail-on', 'errored'], cwd);
    expect(merged.code).toBe(1);
    const m = await readResults(join(cwd, 'm.json'));
    expect(m.personas.map((p) => p.label)).toEqual(a.personas.map((p) => p.label));
    expect(m.tallies).toEqual(a.tallies);
    const overlap = await cli(['report', '--results', 's1.json', '--results', 'a.json'], cwd);
    expect(overlap.code).not.toBe(0);
    expect(overlap.stderr).toContain('runs overlap: ');
    expect(overlap.stderr).toContain('not shards of one run: give one of them alone');
  });
});
