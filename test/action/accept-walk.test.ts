// The accept flow walked with an agent that rewords (docs/meaning.md, "Variants" and "Repeats";
// docs/action.md, "Accept"), in process: a loopback agent picks each reply's wording at random
// (seeded per run, message and attempt, so the same seed gives the same run whatever the order of
// its requests), a loopback meaning judge answers "the same", the CLI's `run` and `accept` in the
// test's own process, then the Action's accept mode against the OpenAPI-checked fake GitHub with
// the reviewed run's comment and artifact, as the check leaves them. No child process is started.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptMode } from '../../src/action/accept.js';
import { pullFromPayload, type ActionContext } from '../../src/action/context.js';
import { readInputs } from '../../src/action/inputs.js';
import { publisher, publishSettings } from '../../src/action/publish.js';
import { parseRecord } from '../../src/record/index.js';
import { renderComment } from '../../src/report/index.js';
import type { Baseline, PersonaBaseline, RunRecord } from '../../src/types.js';
import { agentConfig, cli, makeProject, useCleanup } from '../cli/helpers.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { prng } from '../support/prng.js';
import { gitHubApiOf, HEAD, keepReviewedRun, pullPayload, seedPullForAccept, useServers } from './harness.js';

useCleanup();

/** Wordings of each answer with the same facts; the first is what the agent said when the baselines were first accepted. */
const WORDINGS: Record<string, readonly string[]> = {
  refund: ['Refunds are accepted within 30 days.', 'You can return items within 30 days for a full refund.', 'Within 30 days of delivery, we refund your purchase.'],
  hours: ['We are open from 9 to 17.', 'Our hours: 9 to 17.', 'You can reach us between 9 and 17.'],
  delivery: ['Delivery takes 2 to 4 working days.', 'Your parcel arrives in 2 to 4 working days.', 'Expect your order within 2 to 4 working days.', 'Shipping time: 2 to 4 working days.'],
  jumpy: ['Returns within 30 days.', 'Returns within 30 days, no questions.', 'You may return items for 30 days.'],
  hello: ['Hi! How can I help?', 'Hello, what can I do for you?', 'Hey there, how may I help?'],
  'where is my order': ['Your order 1234 ships today.', 'Order 1234 leaves our warehouse today.', 'Today: order 1234 ships.'],
};

/** What the agent does in the current run: `first` answers wording 0; `reword` a seeded random one, never wording 0 for `refund`. */
const agentState = { mode: 'first' as 'first' | 'reword', seed: 1, hoursChanged: false, jumpyChanged: false };

const hash = (text: string): number => [...text].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as { message?: string; start?: boolean; session?: string };
  if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
  const message = String(body.message);
  const attempt = Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '1');
  const words = WORDINGS[message] ?? [`echo ${message}`];
  const pick = Math.floor(prng(hash(`${agentState.seed}/${message}/${attempt}`))() * words.length);
  let reply = agentState.mode === 'first' ? (words[0] as string) : (words[message === 'refund' ? 1 + (pick % (words.length - 1)) : pick] as string);
  if (message === 'hours' && agentState.hoursChanged) reply = 'We are open from 9 to 18.';
  if (message === 'jumpy' && agentState.jumpyChanged && attempt === 2) reply = 'Returns within 14 days.';
  return { json: { reply, route: null, ended: false } };
};

/** The meaning judge: every wording means the same (the agent never changes a fact but in the numbers the facts catch). */
async function meaningJudge(): Promise<TestServer> {
  return startServer([
    (res, req: Received) => {
      const body = req.body as { response_format?: { json_schema?: { name?: string } } };
      const content = body.response_format?.json_schema?.name === 'meaning_verdict' ? '{"difference": "", "score": 0.93}' : '{"rationale": "fine", "score": 0.9}';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    },
  ]);
}

const FIXTURES = `fixtures:
  - { label: refund, message: refund }
  - { label: hours, message: hours }
  - { label: delivery, message: delivery, repeat: { count: 3 } }
  - { label: jumpy, message: jumpy, repeat: { count: 3 } }
`;
const SCRIPT = 'label: chat\nopening: hello\nfollowUps: [ "where is my order" ]\nexpect: { reply: [ { contains: "1234", turn: last } ] }\n';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(handler, seedPullForAccept, (a, g) => {
  agent = a;
  gh = g;
});

/** A project whose baselines the agent's first wordings were accepted as (run and accept, in process); `runAgain` records the next run at HEAD. */
async function acceptedProject(judge: TestServer): Promise<{ cwd: string; runAgain: (name: string) => Promise<{ text: string; record: RunRecord }> }> {
  Object.assign(agentState, { mode: 'first', seed: 1, hoursChanged: false, jumpyChanged: false });
  const cwd = await makeProject({
    config: `${agentConfig(agent.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: jm, apiKey: k, retries: 0 }\ncost: { capUsd: 5 }\n`,
    fixtures: { 'f.yml': FIXTURES },
    personas: { 'chat.yml': SCRIPT },
  });
  expect((await cli(['run', '--out', 'r0.json', '--fail-on', 'none', '--commit', HEAD], cwd)).code).toBe(0);
  expect((await cli(['accept', '--results', 'r0.json'], cwd)).stdout).toContain('5 accepted, 0 refused, 0 unchanged');
  const runAgain = async (name: string) => {
    const ran = await cli(['run', '--out', name, '--fail-on', 'none', '--commit', HEAD], cwd);
    expect(ran.code, ran.stderr).toBe(0);
    const text = await readFile(join(cwd, name), 'utf8');
    return { text, record: parseRecord(text, name) };
  };
  return { cwd, runAgain };
}

/** The baseline files of the project as they are on the branch: the reviewed head's. */
async function branchFiles(cwd: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const label of ['refund', 'hours', 'delivery', 'jumpy', 'chat']) out[`.agent-replay/baselines/${label}.json`] = await readFile(join(cwd, '.agent-replay', 'baselines', `${label}.json`), 'utf8');
  return out;
}

const BASE_SHA = 'f'.repeat(40);

/** The Action's context of a run of `workflow` (run `runId`) on `payload`; GITHUB_SHA is the base branch's on pull_request_target. */
function contextOf(payload: Record<string, unknown>, over: Partial<ActionContext>): ActionContext {
  return {
    owner: 'octo', repo: 'shop', eventName: 'pull_request_target', payload, pull: pullFromPayload(payload, 'octo/shop'), deployment: null, push: null,
    sha: BASE_SHA, ref: 'refs/heads/main', runId: '2002', runAttempt: 1, workflow: 'agent-replay-accept', workflowRef: null,
    serverUrl: 'https://github.com', apiUrl: gh.url, graphqlUrl: gh.graphqlUrl, ...over,
  };
}

/** The accept job's clock (ActionDeps.wallClock): the time every baseline it commits is stamped with. */
const ACCEPTED_AT = '2026-12-24T09:30:00.000Z';

const artifacts = { upload: async (name: string) => ({ kind: 'uploaded' as const, name, id: 1 }) };

/**
 * The check's comment on pull request 7 for `record` (run 1001 at HEAD, with its results artifact), as
 * check mode renders it, then the accept-baseline label applied and the accept job run in process.
 */
async function reviewThenAccept(cwd: string, text: string, record: RunRecord): Promise<string> {
  const github = gitHubApiOf(gh);
  const check = contextOf(pullPayload(), { eventName: 'pull_request', sha: HEAD, runId: '1001', workflow: 'agent-replay' });
  const artifact = `agent-replay-results-${HEAD}`;
  const checkOut = publisher(publishSettings(readInputs((n) => ({ 'github-token': gh.token })[n] ?? '')), check, { cwd, github, artifacts });
  gh.addComment('octo', 'shop', 7, { body: renderComment(record, checkOut.reportContext(check, artifact)), user: gh.viewer });
  await keepReviewedRun(gh, artifact, text);
  gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
  const inputs = readInputs((n) => ({ mode: 'accept', 'comment-key': 'agent-replay', 'github-token': gh.token })[n] ?? '');
  // Accept mode marks the job failed on a refusal (process.exitCode): not this test process's.
  const exitCode = process.exitCode;
  try {
    await acceptMode(inputs, contextOf(pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer' }), {}), { env: {}, cwd, github, artifacts, wallClock: () => new Date(ACCEPTED_AT) });
  } finally {
    process.exitCode = exitCode;
  }
  return (gh.comments('octo', 'shop', 7).find((c) => c.user.login === gh.viewer.login)?.body ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('the accept label after a run of an agent that rewords', () => {
  it('commits the reworded items with their earlier wordings as variants, refuses the attempts that differ in meaning, and the comment links the reviewed run', async () => {
    const judge = await meaningJudge();
    try {
      const { cwd, runAgain } = await acceptedProject(judge);
      gh.setBranch('octo/shop', 'feature', HEAD, await branchFiles(cwd));
      Object.assign(agentState, { mode: 'reword', seed: 7, hoursChanged: true, jumpyChanged: true });
      const { text, record } = await runAgain('r1.json');
      const body = await reviewThenAccept(cwd, text, record);

      expect(gh.commits).toHaveLength(1);
      const files = new Map(gh.commits[0]!.additions.map((a) => [a.path.replace('.agent-replay/baselines/', ''), a.contents]));
      const fixture = (label: string): Baseline => JSON.parse(files.get(`${label}.json`) as string) as Baseline;
      // Every file as a reviewer opens it: 2-space JSON in the stable key order, a newline at the end.
      for (const [name, contents] of files) {
        expect(contents.endsWith('}\n'), name).toBe(true);
        expect(contents, name).toBe(`${JSON.stringify(JSON.parse(contents), null, 2)}\n`);
        // Stamped by the job's clock, not the machine's.
        expect((JSON.parse(contents) as Baseline).acceptedAt, name).toBe(ACCEPTED_AT);
      }
      // Reworded: the new wording is the reply, the first one a variant.
      const refund = record.fixtures.find((f) => f.label === 'refund')!;
      expect(refund.drift?.meaning?.value).toBe('reworded');
      expect(fixture('refund')).toMatchObject({ reply: refund.reply, variants: [WORDINGS.refund![0]] });
      // Changed in meaning: its variants go.
      expect(fixture('hours')).toMatchObject({ reply: 'We are open from 9 to 18.' });
      expect(fixture('hours')).not.toHaveProperty('variants');
      // Repeated, differing in wording only: attempt 1's reply, the other attempts' distinct replies first, then the earlier reply.
      const delivery = record.fixtures.find((f) => f.label === 'delivery')!;
      const others = [...new Set(delivery.attempts!.map((a) => a.reply as string))].filter((r) => r !== delivery.reply);
      const expected = [...new Set([...others, WORDINGS.delivery![0] as string])].filter((r) => r !== delivery.reply);
      // (Seed 7 words its attempts more than one way.)
      expect(others.length).toBeGreaterThan(0);
      expect(fixture('delivery')).toMatchObject({ reply: delivery.reply, variants: expected, attempts: { passed: 3, total: 3 } });
      // The script's reworded turns each keep their own earlier wording.
      const chat = JSON.parse(files.get('chat.json') as string) as PersonaBaseline;
      const firsts = chat.transcript.map((t, i) => (i === 0 ? 'Welcome!' : (WORDINGS[t.message as string]![0] as string)));
      expect(chat.transcript.some((t, i) => t.reply !== firsts[i])).toBe(true);
      for (const [i, t] of chat.transcript.entries()) expect(t.variants ?? [], `turn ${i}`).toEqual(t.reply === firsts[i] ? [] : [firsts[i]]);
      expect(files.has('jumpy.json')).toBe(false);

      // The commit and the comment say what was committed and refused, in accept's words.
      expect(gh.commits[0]!.body).toContain('- jumpy: replies differ in meaning across 3 attempts: attempt 2: numbers 30 → 14');
      expect(body).toContain(`Baselines accepted in [\`${gh.commits[0]!.oid.slice(0, 7)}\`]`);
      expect(body).toContain('`jumpy`: replies differ in meaning across 3 attempts: attempt 2: numbers 30 → 14. There is no one reply to store: find out why');
      // The full report is the reviewed check run's: its job summary and its results artifact, not the accept job's run (which has neither).
      expect(body).toContain('[job summary](https://github.com/octo/shop/actions/runs/1001)');
      expect(body).toContain('[results artifact](https://github.com/octo/shop/actions/runs/1001#artifacts)');
      expect(body).not.toContain('runs/2002');
    } finally {
      await judge.close();
    }
  });

  it('nothing to accept: the comment says the run was compared with the reviewed head\'s baselines, not the base branch\'s commit the accept job ran on', async () => {
    const judge = await meaningJudge();
    try {
      const { cwd, runAgain } = await acceptedProject(judge);
      gh.setBranch('octo/shop', 'feature', HEAD, await branchFiles(cwd));
      const { text, record } = await runAgain('r1.json');
      const body = await reviewThenAccept(cwd, text, record);
      expect(gh.commits).toHaveLength(0);
      expect(body).toContain('Nothing to accept: no commit was made.');
      expect(body).toContain(`commit \`1111111\` against baselines from \`1111111\``);
      expect(body).not.toContain(BASE_SHA.slice(0, 7));
      expect(body).toContain('[results artifact](https://github.com/octo/shop/actions/runs/1001#artifacts)');
    } finally {
      await judge.close();
    }
  });
});
