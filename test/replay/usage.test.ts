// Token usage through the whole replay (docs/latency.md, "Usage"): a real native agent on 127.0.0.1
// reports the tokens each message names ("uses 100 20"); the record sums them per item and run,
// acceptance keeps them on the baseline, and the comment, summary and terminal show the tokens
// beside the estimate with the change against the baselines'.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { decideAcceptance, decidePersonaAcceptance } from '../../src/evaluate/index.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { renderComment, renderSummary, renderTerminal } from '../../src/report/index.js';
import { NO_BASELINES, replay, type ReplayItems } from '../../src/replay/index.js';
import { checkBaselineFile, serializeBaseline } from '../../src/suite/baselines.js';
import type { AgentClient, Baseline, Fixture, PersonaBaseline, PersonaScript, RegexEvaluator } from '../../src/types.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { ctx } from '../report/fixtures.js';
import { replayOptions } from '../support/replay-options.js';

const OPTIONS = replayOptions({ concurrency: 1, estimate: { usd: 0.04, capUsd: 0.1, aboveCap: false, confirmed: false } });

function fixture(label: string, message: string): Fixture {
  return { label, message, persona: null, assertion: { kind: 'contains', value: 'echo' }, file: '.agent-replay/fixtures/f.yml', line: 1 };
}

const SCRIPT: PersonaScript = {
  label: 'script',
  file: '.agent-replay/personas/p.yml',
  line: 1,
  persona: null,
  opening: 'uses 10 5',
  followUps: ['silent', 'uses 20 7'],
  maxTurns: 20,
  threshold: 0.7,
  mocks: [],
  expect: { conversations: ['echo'], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
};

/** `welcomeUses`: what the welcome turn reports (null: nothing). A message "uses I O" reports I in, O out; any other message, nothing. */
let welcomeUses: { inputTokens: number; outputTokens: number } | { inputTokens: string } | null = null;
let server: AgentServer;
let agent: AgentClient;
let regex: RegexEvaluator;

beforeAll(async () => {
  server = await startAgentServer((req) => {
    const body = req.json as { start?: boolean; message?: string; persona?: string };
    if (body.start === true) return { json: { reply: 'Welcome', route: null, ...(welcomeUses !== null ? { usage: welcomeUses } : {}), ...(body.persona === 'leaves' ? { ended: true } : {}) } };
    if (body.message === 'fail') return { status: 500, json: { error: 'boom' } };
    if (body.message === 'no reply') return { json: { route: null, usage: { inputTokens: 30, outputTokens: 4 } } };
    const m = /uses (\d+) (\d+)/.exec(body.message ?? '');
    const reply = { reply: `echo ${body.message ?? ''}`, route: { conversation: 'echo', stage: 'reply' } };
    return { json: m ? { ...reply, usage: { inputTokens: Number(m[1]), outputTokens: Number(m[2]) } } : reply };
  });
  agent = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, concurrency: 1, retries: 0 });
  regex = createRegexPool({ size: 1, timeoutMs: 1000 });
});
afterAll(async () => {
  await agent.close();
  await regex.close();
  await server.close();
});

function run(items: Partial<ReplayItems>) {
  return replay({ fixtures: [], personas: [], baselines: NO_BASELINES, ...items }, { agent, regex, judge: null }, OPTIONS);
}

const factsLine = (text: string): string => text.split('\n').find((l) => l.includes('estimated')) ?? '';

describe('token usage in the record and on every surface', () => {
  it('records each turn, sums per item (welcome included) and per run; results.json keeps it', async () => {
    welcomeUses = { inputTokens: 2, outputTokens: 1 };
    const record = await run({ fixtures: [fixture('a', 'uses 1000 200'), fixture('b', 'silent')], personas: [SCRIPT] });
    expect(record.fixtures.map((f) => [f.label, f.usage])).toEqual([
      ['a', { inputTokens: 1002, outputTokens: 201 }],
      ['b', { inputTokens: 2, outputTokens: 1 }],
    ]);
    const script = record.personas[0]!;
    expect(script.turns.map((t) => [t.index, t.usage])).toEqual([
      [0, { inputTokens: 2, outputTokens: 1 }],
      [1, { inputTokens: 10, outputTokens: 5 }],
      [2, null],
      [3, { inputTokens: 20, outputTokens: 7 }],
    ]);
    expect(script.usage).toEqual({ inputTokens: 32, outputTokens: 13 });
    expect(record.usage).toEqual({ inputTokens: 1036, outputTokens: 215 });
    // Recorded, never judged.
    expect(record.fixtures.map((f) => f.verdict)).toEqual(['pass', 'pass']);
    // b's tokens are its welcome turn's alone: said on the record, and kept through results.json.
    expect(record.fixtures.map((f) => [f.label, f.usagePartial])).toEqual([
      ['a', undefined],
      ['b', true],
    ]);
    expect(parseRecord(serializeRecord(record), 'results.json')).toEqual(record);
    // 1,251 tokens, no baseline to compare with: no change.
    for (const out of [renderComment(record, ctx), renderSummary(record, ctx), renderTerminal(record, { color: false })]) {
      expect(factsLine(out)).toContain('tokens reported: 1.3k (1k in, 215 out)');
      expect(factsLine(out)).not.toContain('vs baselines');
    }
  });

  it('a fixture whose message turn reported no tokens beside a welcome turn that did is left out of the change, said, and not accepted as its tokens', async () => {
    welcomeUses = { inputTokens: 2, outputTokens: 1 };
    const kept = (label: string, message: string): Baseline => ({ label, reply: `echo ${message}`, route: { conversation: 'echo', stage: 'reply' }, verdict: 'pass', usage: { inputTokens: 1002, outputTokens: 201 }, acceptedAt: '2026-01-01T00:00:00Z', commit: null });
    const record = await run({
      fixtures: [fixture('a', 'uses 1000 200'), fixture('b', 'silent')],
      baselines: { fixtures: new Map([['a', kept('a', 'uses 1000 200')], ['b', kept('b', 'silent')]]), personas: new Map() },
    });
    expect(record.fixtures.map((f) => f.usagePartial)).toEqual([undefined, true]);
    // b's 3 tokens against its baseline's 1,203 read -50% over both items; a alone compares: ±0%.
    for (const out of [renderComment(record, ctx), renderSummary(record, ctx), renderTerminal(record, { color: false })]) {
      expect(factsLine(out)).toContain('tokens reported: 1.2k (1k in, 202 out), ±0% vs baselines (1 item left out: its turns did not all report tokens)');
    }
    // Accepted as a new baseline, b keeps no tokens: its welcome turn's 3 would be the next run's +40,000%.
    const decision = decideAcceptance({ ...record.fixtures[1]!, baseline: null }, '2026-12-01T00:00:00Z', null);
    expect(decision.kind === 'accept' ? decision.baseline.usage : 'not accepted').toBeUndefined();
  });

  it('a fixture whose welcome turn reported tokens in a shape not read beside a message turn that did is left out of the change and said the same way', async () => {
    welcomeUses = { inputTokens: 'many' };
    const kept = (label: string, message: string): Baseline => ({ label, reply: `echo ${message}`, route: { conversation: 'echo', stage: 'reply' }, verdict: 'pass', usage: { inputTokens: 1502, outputTokens: 301 }, acceptedAt: '2026-01-01T00:00:00Z', commit: null });
    const record = await run({
      fixtures: [fixture('a', 'uses 1000 200')],
      baselines: { fixtures: new Map([['a', kept('a', 'uses 1000 200')]]), personas: new Map() },
    });
    // The message turn's 1,200 alone: not -33% against a baseline whose welcome turn's 603 were read.
    expect(record.fixtures.map((f) => [f.usage, f.usagePartial])).toEqual([[{ inputTokens: 1000, outputTokens: 200 }, true]]);
    expect(parseRecord(serializeRecord(record), 'results.json')).toEqual(record);
    for (const out of [renderComment(record, ctx), renderSummary(record, ctx), renderTerminal(record, { color: false })]) {
      expect(factsLine(out)).toContain('(1 item left out: its turns did not all report tokens)');
      expect(factsLine(out)).not.toContain('%');
    }
    // Accepted as a new baseline, it keeps no tokens: the message turn's alone would be the next run's drop.
    const decision = decideAcceptance({ ...record.fixtures[0]!, baseline: null }, '2026-12-01T00:00:00Z', null);
    expect(decision.kind === 'accept' ? decision.baseline.usage : 'not accepted').toBeUndefined();
  });

  it('no turn reporting usage: null on every item, no run figure, and no tokens line anywhere', async () => {
    welcomeUses = null;
    const record = await run({ fixtures: [fixture('quiet', 'silent')], personas: [{ ...SCRIPT, opening: 'silent', followUps: [] }] });
    expect(record.fixtures[0]?.usage).toBeNull();
    expect(record.personas[0]?.usage).toBeNull();
    expect(record.personas[0]?.turns.map((t) => t.usage)).toEqual([null, null]);
    expect(record.usage).toBeUndefined();
    expect(JSON.parse(serializeRecord(record))).not.toHaveProperty('usage');
    for (const out of [renderComment(record, ctx), renderSummary(record, ctx), renderTerminal(record, { color: false })]) {
      expect(out).not.toContain('tokens reported');
    }
  });

  it('acceptance keeps the item tokens on its baseline; the next run shows the change over the items both report', async () => {
    welcomeUses = null;
    const first = await run({ fixtures: [fixture('a', 'uses 100 0'), fixture('b', 'uses 50 50')], personas: [{ ...SCRIPT, followUps: [] }] });
    const accepted = first.fixtures.map((f) => decideAcceptance(f, '2026-12-01T00:00:00Z', null));
    const baselines = accepted.map((d) => (d.kind === 'accept' ? d.baseline : null)) as Baseline[];
    expect(baselines.map((b) => b.usage)).toEqual([
      { inputTokens: 100, outputTokens: 0 },
      { inputTokens: 50, outputTokens: 50 },
    ]);
    const personaDecision = decidePersonaAcceptance(first.personas[0]!, '2026-12-01T00:00:00Z', null);
    const personaBaseline = (personaDecision.kind === 'accept' ? personaDecision.baseline : null) as PersonaBaseline;
    expect(personaBaseline.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    // The baseline file writes and reads the usage back.
    const file = serializeBaseline(baselines[0]!);
    expect(JSON.parse(file)).toMatchObject({ usage: { inputTokens: 100, outputTokens: 0 } });
    expect(checkBaselineFile('.agent-replay/baselines/a.json', 'a', file)).toEqual({ baseline: baselines[0], errors: [] });

    // Now a takes 150 (was 100), b 100 (was 100), the script 30 (was 15), and a new fixture c (no baseline) 999:
    // the change is over a, b and the script: 280 against 215 = +30%; c counts in the total only.
    const second = await run({
      fixtures: [fixture('a', 'uses 150 0'), fixture('b', 'uses 50 50'), fixture('c', 'uses 999 0')],
      personas: [{ ...SCRIPT, opening: 'uses 20 10', followUps: [] }],
      baselines: { fixtures: new Map(baselines.map((b) => [b.label, b])), personas: new Map([[personaBaseline.label, personaBaseline]]) },
    });
    expect(second.usage).toEqual({ inputTokens: 1219, outputTokens: 60 });
    for (const out of [renderComment(second, ctx), renderSummary(second, ctx), renderTerminal(second, { color: false })]) {
      expect(factsLine(out)).toContain('tokens reported: 1.3k (1.2k in, 60 out), +30% vs baselines');
    }
  });

  it('a repeated item is compared per attempt: 9 attempts against a baseline of 3, at the same tokens each, are ±0%, not +200%', async () => {
    welcomeUses = null;
    const repeated: Fixture = { ...fixture('r', 'uses 10 10'), repeat: { count: 9, minPass: 1 } };
    const base: Baseline = {
      label: 'r',
      reply: 'echo uses 10 10',
      route: { conversation: 'echo', stage: 'reply' },
      verdict: 'pass',
      attempts: { passed: 3, total: 3 },
      usage: { inputTokens: 30, outputTokens: 30 },
      acceptedAt: '2026-01-01T00:00:00Z',
      commit: null,
    };
    const record = await run({ fixtures: [repeated], baselines: { fixtures: new Map([['r', base]]), personas: new Map() } });
    expect(record.fixtures[0]?.repeat?.count).toBe(9);
    expect(record.fixtures[0]?.usage).toEqual({ inputTokens: 90, outputTokens: 90 });
    expect(factsLine(renderTerminal(record, { color: false }))).toContain('tokens reported: 180 (90 in, 90 out), ±0% vs baselines');
  });

  it('an errored fixture keeps the tokens its answered turns reported (the welcome, a message turn with no reply)', async () => {
    welcomeUses = { inputTokens: 2, outputTokens: 1 };
    const record = await run({ fixtures: [fixture('failed', 'fail'), fixture('empty', 'no reply'), { ...fixture('left', 'hello'), persona: 'leaves' }] });
    expect(record.fixtures.map((f) => [f.label, f.errorKind, f.usage])).toEqual([
      ['failed', 'http', { inputTokens: 2, outputTokens: 1 }],
      ['empty', 'missing_reply', { inputTokens: 32, outputTokens: 5 }],
      ['left', 'ended_in_welcome', { inputTokens: 2, outputTokens: 1 }],
    ]);
    expect(record.usage).toEqual({ inputTokens: 36, outputTokens: 7 });
    expect(parseRecord(serializeRecord(record), 'results.json')).toEqual(record);
  });

  it('a baseline without usage (accepted before it was reported) is not compared', async () => {
    welcomeUses = null;
    const old: Baseline = { label: 'a', reply: 'echo uses 10 10', route: { conversation: 'echo', stage: 'reply' }, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00Z', commit: null };
    const record = await run({ fixtures: [fixture('a', 'uses 10 10')], baselines: { fixtures: new Map([['a', old]]), personas: new Map() } });
    expect(factsLine(renderComment(record, ctx))).toContain('tokens reported: 20 (10 in, 10 out) ·');
    expect(renderComment(record, ctx)).not.toContain('vs baselines');
    // An old baseline file keeps its exact bytes: no usage key is written for it.
    expect(serializeBaseline(old)).not.toContain('usage');
  });
});
