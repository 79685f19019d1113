// Persona scripts through the Action, end to end: the check run replays the scripts against the
// demo agent (real loopback HTTP, tools answered from the scripts' mocks), its comment shows the
// script whose transcript changed since its baseline, and the accept-baseline label then commits
// that transcript as `<label>.json` with kind: persona, refusing the errored script. Every REST
// request and GraphQL document is checked against GitHub's published descriptions.

import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { HEAD, keepReviewedRun, makeWorkspace, pullPayload, runAction, runAcceptLabel, useServers, type ActionRun, seedPullForAccept } from './harness.js';
import { parseRecord } from '../../src/record/index.js';
import { DemoAgent } from '../../src/demo/agent.js';
import type { PersonaBaseline, RunRecord } from '../../src/types.js';

const demo = new DemoAgent();
const handler: AgentHandler = (req) => {
  const out = demo.handle((req.json ?? {}) as Record<string, unknown>);
  return { status: out.status, json: out.body };
};

const FIXTURES = 'fixtures:\n  - { label: refund-policy, message: Can I get my money back?, assert: { contains: 30 days } }\n';
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';
const PERSONAS = `personas:
  - label: refund-broken-item
    opening: I want my money back
    followUps: [ "Order 1234", "It arrived broken" ]
    mocks:
      - { tool: find_order, input: { orderId: "1234" }, output: { status: delivered, item: hiking boots, total: 40 } }
      - { tool: issue_refund, input: { orderId: "1234" }, output: { refundId: R-1 } }
    expect:
      conversations: [ refunds ]
      terminal: finish
      toolCalled: [ { tool: find_order, input: { orderId: "1234" } } ]
  - label: refund-unmocked
    opening: I want my money back
    followUps: [ "Order 2718", "It arrived broken" ]
    mocks:
      - { tool: find_order, output: { status: delivered, total: 12 } }
    expect:
      terminal: finish
`;

const WELCOME = { message: null, reply: 'Welcome to Example Outfitters! How can I help?', route: { conversation: 'welcome', stage: 'greeting' } };
/** Accepted when refunds were still worded in cents: the last reply differs from today's. */
const BASELINE: PersonaBaseline = {
  label: 'refund-broken-item',
  kind: 'persona',
  transcript: [
    WELCOME,
    { message: 'I want my money back', reply: 'I can help with that. What is your order number?', route: { conversation: 'refunds', stage: 'ask-order' } },
    { message: 'Order 1234', reply: 'Thanks: order 1234 (hiking boots) is delivered. What went wrong with it?', route: { conversation: 'refunds', stage: 'order-found' } },
    { message: 'It arrived broken', reply: 'I am sorry it arrived broken. I have refunded 40.00 EUR for order 1234 (refund R-1).', route: { conversation: 'refunds', stage: 'refunded' } },
  ],
  visited: ['welcome', 'refunds'],
  outcome: 'finish',
  verdict: 'pass',
  acceptedAt: '2026-11-01T00:00:00.000Z',
  commit: 'a'.repeat(40),
};

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  seedPullForAccept,
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/** A workspace with the fixture, the persona scripts and the persona baseline. */
async function workspace(): Promise<string> {
  const ws = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
  await mkdir(join(ws, '.agent-replay', 'personas'), { recursive: true });
  await writeFile(join(ws, '.agent-replay', 'personas', 'refunds.yml'), PERSONAS);
  await writeFile(join(ws, '.agent-replay', 'baselines', 'refund-broken-item.json'), `${JSON.stringify(BASELINE, null, 2)}\n`);
  return ws;
}

/** The check run the maintainer reviewed, recorded as run 1001 with its results artifact. */
async function reviewedCheck(): Promise<{ run: ActionRun; record: RunRecord }> {
  const run = await runAction({ gh, workspace: await workspace(), runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const text = readFileSync(run.outputs['results-path'] as string, 'utf8');
  await keepReviewedRun(gh, run.outputs['artifact-name'] as string, text);
  return { run, record: parseRecord(text, 'results.json') };
}

/** Our comment, markdown backslash escapes removed so assertions read like the rendered text. */
function ourComment(): string {
  const c = gh.comments('octo', 'shop', 7).find((x) => x.user.login === gh.viewer.login);
  expect(c).toBeDefined();
  return c!.body.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('persona scripts through the Action', () => {
  it('check: the comment shows the changed script; accept: the label commits its transcript with kind persona and refuses the errored one', async () => {
    const { run, record } = await reviewedCheck();
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
    // The outputs count items, persona scripts with the fixture (action.yml's outputs say so).
    expect(record.personas.length).toBeGreaterThan(0);
    expect(run.outputs).toMatchObject({ passed: String(record.tallies.passed), errored: '1' });
    expect(record.tallies.passed + record.tallies.failed + record.tallies.notEvaluated + record.tallies.errored).toBe(record.fixtures.length + record.personas.length);

    // The replay: the changed script passes with its transcript different; the unmocked one is errored.
    const changed = record.personas.find((p) => p.label === 'refund-broken-item')!;
    expect(changed).toMatchObject({ errored: false, verdict: 'pass', drift: { transcript: 'different', route: 'same', verdict: 'still_passing' }, outcome: 'finish' });
    expect(changed.turns.map((t) => t.message)).toEqual([null, 'I want my money back', 'Order 1234', 'It arrived broken']);
    expect(changed.turns.at(-1)!.reply).toBe('I am sorry it arrived broken. I have refunded 40 EUR for order 1234 (refund R-1).');
    const unmocked = record.personas.find((p) => p.label === 'refund-unmocked')!;
    expect(unmocked).toMatchObject({ errored: true, verdict: null, drift: null, errorKind: 'unmocked_tool' });

    // The comment shows the script as changed, with the first turn that differs from the baseline.
    const body = ourComment();
    // An errored script leaves the run not verified (grey), named with its cause.
    expect(body).toContain("### ⚪ Not verified: 1 changed · 1 new · 1 errored\n**Cause**: a call to issue_refund that no mock answered: add a mock for it to the script's mocks");
    const changedSection = body.slice(body.indexOf('#### 🟡 Changed (1)'));
    expect(changedSection).toMatch(/^#### 🟡 Changed \(1\)[\s\S]*<b>refund-broken-item<\/b> · pass · still passing · transcript changed/);
    expect(body).toContain('First difference from the baseline: Turn 3');
    expect(body).toContain('- I have refunded 40⟦.00⟧ EUR for order 1234 (refund R-1).');
    expect(body).toContain('+ I have refunded 40 EUR for order 1234 (refund R-1).');
    expect(body).toContain('refund-unmocked');

    // The label: one commit with the persona baseline, the errored script refused.
    const accept = await runAcceptLabel(gh);
    expect(accept.code, accept.stdout + accept.stderr).toBe(0);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
    expect(gh.commits).toHaveLength(1);
    const commit = gh.commits[0]!;
    expect(commit.parent).toBe(HEAD);
    expect(commit.body).toContain('refund-unmocked: errored: the run did not complete');
    const file = commit.additions.find((a) => a.path === '.agent-replay/baselines/refund-broken-item.json');
    expect(file).toBeDefined();
    expect(commit.additions.map((a) => a.path)).not.toContain('.agent-replay/baselines/refund-unmocked.json');
    const written = JSON.parse(file!.contents) as PersonaBaseline;
    expect(written).toMatchObject({ label: 'refund-broken-item', kind: 'persona', visited: ['welcome', 'refunds'], outcome: 'finish', verdict: 'pass', commit: HEAD });
    expect(written.transcript).toEqual(changed.turns.map((t) => ({ message: t.message, reply: t.reply, route: t.route })));
    expect(accept.outputs.refused).toContain('refund-unmocked');
    expect(accept.outputs.accepted).toContain('refund-broken-item');
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    // The comment now compares with the accepted baselines: the script is unchanged, the refusal explained.
    const after = ourComment();
    expect(after).toContain(`### ✅ Baselines accepted in [\`${commit.oid.slice(0, 7)}\`]`);
    expect(after).toContain('**Accepted (2)**: `refund-policy`, `refund-broken-item`');
    expect(after).toContain('- `refund-unmocked`: the script did not run to the end, so there is no transcript to accept.');
    expect(after).toContain('### ⚪ Not verified: 1 errored · 2 unchanged');
  });
});
