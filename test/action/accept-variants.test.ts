// The Action's accept label writes and clears variants (docs/meaning.md, "Variants" and "Repeats"):
// the check records a run against a loopback agent, its results artifact carries the meanings the
// runner records (drift.meaning, each attempt's meaning against attempt 1), and the label flow
// commits the baselines with their variants to the fake GitHub and says why it refused the rest.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import type { Baseline, FixtureRecord, Meaning } from '../../src/types.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { fixtureRecord } from '../support/fixture-record.js';
import type { FakeGitHub } from '../support/github-server.js';
import { HEAD, keepReviewedRun, makeWorkspace, pullPayload, runAction, runAcceptLabel, seedPullForAccept, useServers } from './harness.js';

const OLD_REFUND = 'Refunds are accepted within 30 days.';
const NEW_REFUND = 'You can return items within 30 days for a full refund.';
const WOBBLY = ['Shipping is free over $50.', 'Orders over $50 ship for free.', 'Free shipping on orders above $50.'];
const JUMPY = ['Returns within 30 days.', 'Returns within 14 days.', 'You may return items for 30 days.'];

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: null, ended: false } };
  const attempt = Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '1');
  const replies: Record<string, string> = { refund: NEW_REFUND, hours: 'Open 9 to 5.', wobbly: WOBBLY[attempt - 1] ?? '?', jumpy: JUMPY[attempt - 1] ?? '?' };
  return { json: { reply: replies[String(body.message)] ?? '?', route: null, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: refund, message: refund }
  - { label: hours, message: hours }
  - { label: wobbly, message: wobbly, repeat: { count: 3 } }
  - { label: jumpy, message: jumpy, repeat: { count: 3 } }
  - { label: jumpy-too, message: jumpy, repeat: { count: 3 } }
`;
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';
const stored = (label: string, reply: string, variants: string[]): Baseline => ({ label, reply, variants, route: null, verdict: 'pass', acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) });

const REWORDED: Meaning = { value: 'reworded', by: 'judge', detail: 'the same refund window', score: 0.91, reused: false };
const changed = (from: string, to: string): Meaning => ({
  value: 'changed',
  by: 'facts',
  detail: `numbers ${from} → ${to}`,
  facts: { baseline: [{ kind: 'number', value: from }], now: [{ kind: 'number', value: to }] },
});

/** The meanings the runner records for this run; `jumpy` is jumpy's (and jumpy-too's) attempt 2's. */
function withMeanings(f: FixtureRecord, jumpy: Meaning = changed('30', '14')): FixtureRecord {
  if (f.errored) return f;
  if (f.label === 'refund') return fixtureRecord({ drift: { ...f.drift, meaning: REWORDED } }, f);
  if (f.label === 'hours') return fixtureRecord({ drift: { ...f.drift, meaning: changed('6', '5') } }, f);
  const meanings = f.label === 'wobbly' ? [REWORDED, REWORDED] : [jumpy, REWORDED];
  return fixtureRecord({ attempts: f.attempts?.map((a, i) => (i === 0 ? a : { ...a, meaning: meanings[i - 1] })) }, f);
}

let agent: AgentServer;
let gh: FakeGitHub;
useServers(handler, seedPullForAccept, (a, g) => {
  agent = a;
  gh = g;
});

/** The check run (its record's meanings as withMeanings gives them, jumpy's attempt 2's `jumpy`), then the accept label's run. */
async function checkThenAccept(jumpy?: Meaning) {
  const workspace = await makeWorkspace({
    fixtures: FIXTURES,
    config: CONFIG,
    baselines: [stored('refund', OLD_REFUND, ['Returns: 30 days.']), stored('hours', 'Open 9 to 6.', ['We open at 9 and close at 6.'])],
  });
  const check = await runAction({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
  expect(check.code, check.stdout).toBe(0);
  const record = parseRecord(readFileSync(check.outputs['results-path'] as string, 'utf8'), 'results.json');
  const text = serializeRecord({ ...record, fixtures: record.fixtures.map((f) => withMeanings(f, jumpy)) });
  await keepReviewedRun(gh, check.outputs['artifact-name'] as string, text);

  return runAcceptLabel(gh);
}

describe('accept label and variants', () => {
  it('commits a reworded reply with the previous one as a variant, clears a changed one, accepts reworded attempts and refuses a changed attempt', async () => {
    const run = await checkThenAccept();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ accepted: 'refund,hours,wobbly', refused: 'jumpy,jumpy-too' });
    expect(gh.commits).toHaveLength(1);
    const files = new Map(gh.commits[0]!.additions.map((a) => [a.path, JSON.parse(a.contents) as Record<string, unknown>]));
    expect([...files.keys()].sort()).toEqual(['.agent-replay/baselines/hours.json', '.agent-replay/baselines/refund.json', '.agent-replay/baselines/wobbly.json']);
    expect(files.get('.agent-replay/baselines/refund.json')).toMatchObject({ reply: NEW_REFUND, variants: [OLD_REFUND, 'Returns: 30 days.'], commit: HEAD });
    expect(files.get('.agent-replay/baselines/hours.json')).toMatchObject({ reply: 'Open 9 to 5.' });
    expect(files.get('.agent-replay/baselines/hours.json')).not.toHaveProperty('variants');
    expect(files.get('.agent-replay/baselines/wobbly.json')).toMatchObject({ reply: WOBBLY[0], variants: [WOBBLY[1], WOBBLY[2]], attempts: { passed: 3, total: 3 } });
    // Two items refused for one reason: one line, the reason said once.
    expect(gh.commits[0]!.body).toMatch(/\n- jumpy and jumpy-too: replies differ in meaning across 3 attempts: attempt 2: numbers 30 → 14$/);
    expect(gh.commits[0]!.body?.split('differ in meaning')).toHaveLength(2);
    const body = gh.comments('octo', 'shop', 7).find((c) => c.user.login === gh.viewer.login)!.body.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    expect(body).toContain('- `jumpy` and `jumpy-too`: replies differ in meaning across 3 attempts: attempt 2: numbers 30 → 14. There is no one reply to store: find out why');
  });

  it('a refusal\u2019s words from the agent or a judge (a meaning\u2019s difference) reference, mention and link nothing in the commit message', async () => {
    const difference = 'Closes #1, fixes octo/shop#2 and https://github.com/octo/shop/issues/3 (GH-4); cc @octocat';
    const run = await checkThenAccept({ value: 'changed', by: 'judge', detail: difference, score: 0.1, reused: false });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ refused: 'jumpy,jumpy-too' });
    const message = gh.commits[0]!.body ?? '';
    expect(message).toContain('- jumpy and jumpy-too: replies differ in meaning across 3 attempts: attempt 2: Closes #');
    // Shown as written (a word joiner, U+2060, is invisible), but GitHub finds no #1, no mention and no URL in it.
    expect(message.replace(/\u2060/g, '')).toContain(difference);
    expect(message).not.toMatch(/#\d|#[a-z]|@[a-z]|:\/\/|GH-\d/i);
  });
});
