// Meaning during a run (docs/meaning.md), end to end through the engine: a real loopback agent that
// words its replies differently on every call (seeded: the n-th request gets wording n mod 3) with
// the same facts, or changes a number, or adds a negation; a real loopback judge server that
// answers the meaning judge's calls (and counts them); a real loopback simulator that counts its
// calls. Baselines are real files.

import { appendFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import { runCheck, type CheckOptions } from '../../src/engine.js';
import { writeBaselines } from '../../src/accept/write.js';
import { planAcceptance } from '../../src/evaluate/acceptance.js';
import { decidePersonaAcceptance } from '../../src/evaluate/personas.js';
import { MEANING_PROMPT_VERSION } from '../../src/judge/meaning.js';
import { renderComment, renderJUnit, renderTerminal } from '../../src/report/index.js';
import { attemptsRefusalFix, refusedList } from '../../src/report/blocks.js';
import { escapeInline } from '../../src/report/escape.js';
import { attemptStandings } from '../../src/report/item-parts.js';
import { meets } from '../../src/evaluate/gate.js';
import { xmlText } from '../../src/report/junit.js';
import { renderHtml } from '../../src/report/html.js';
import { personaData } from '../../src/report/html/data.js';
import { ctx } from '../report/fixtures.js';
import { serializeBaseline, serializePersonaBaseline } from '../../src/suite/index.js';
import type { Baseline, Clock, FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import { startSimulatorServer } from '../simulator/server.js';
import { prng } from '../support/prng.js';

const { servers, dirs } = closedAfterEach();

const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };

/** Three wordings of each answer, with the same facts. */
const WORDINGS: Record<string, readonly string[]> = {
  refund: ['Refunds are accepted within 30 days.', 'You can return items within 30 days for a full refund.', 'Within 30 days of delivery, we refund your purchase.'],
  hours: ['We are open from 9 to 17 on weekdays.', 'Our hours on weekdays: 9 to 17.', 'On weekdays you can reach us between 9 and 17.'],
  shipping: ['Shipping is free above 50 euros, said plainly.', 'Orders over 50 euros ship for free.', 'Above 50 euros, shipping costs nothing.'],
  'I want my money back': ['Sure, what is your order number?', 'Of course. Which order is it?', 'Happy to help: tell me the order number.'],
  'My order is 1234': ['Refund issued for order 1234.', 'Order 1234 is refunded.', 'Done: order 1234 refunded.'],
  // A hosted model bolds the number of a price and not its currency, or the whole price, from call to call.
  // A hosted model writes a number in digits on one call and in words on the next.
  warranty: ['The tent has a 2-year warranty; refunds within 30 days.', 'The tent has a two-year warranty; refunds within thirty days.', 'A two-year warranty covers the tent, and refunds take up to 30 days.'],
  price: ['The tent costs USD 120.', 'The tent costs USD **120**.', 'The tent costs **USD 120**.', 'The tent costs USD __120__.'],
};

type Mode = 'same' | 'reword' | 'number' | 'negation' | 'bold';

/**
 * The agent: `same` answers wording 0; `reword` answers wording n mod 3 for the n-th call (from 1)
 * with that message. It ends the conversation on a message `ends` says yes to, given the request's
 * session (none by default).
 */
async function agentServer(mode: () => Mode, ends: (message: string, session: string) => boolean = () => false): Promise<AgentServer> {
  const calls = new Map<string, number>();
  const agent = await startAgentServer((req) => {
    const body = (req.json ?? {}) as { message?: string; session?: string };
    const message = String(body.message);
    const words = WORDINGS[message] ?? [`echo: ${message}`];
    const m = mode();
    const n = (calls.get(message) ?? 0) + 1;
    calls.set(message, n);
    let reply = m === 'same' ? (words[0] as string) : (words[n % words.length] as string);
    if (message === 'refund' && m === 'number') reply = 'Refunds are accepted within 14 days.';
    if (message === 'refund' && m === 'negation') reply = 'Refunds are not accepted.';
    if (message === 'refund' && m === 'bold') reply = '**Refunds are accepted within 30 days**';
    return { json: { reply, route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: ends(message, String(body.session)) } };
  });
  servers.push(agent);
  return agent;
}

interface MeaningServer extends TestServer {
  /** The meaning judge's calls, in order: the new reply each asked about. */
  meaningCalls: string[];
}

/** The judge: a meaning call about a reply that says "not" gets 0.1, any other 0.95. */
async function judgeServer(): Promise<MeaningServer> {
  const meaningCalls: string[] = [];
  const server = await startServer([
    (res, req: Received) => {
      const body = req.body as { messages: { content: string }[]; response_format?: { json_schema?: { name?: string } } };
      const text = body.messages.map((m) => m.content).join('\n');
      let content = '{"rationale": "fine", "score": 0.9}';
      if (body.response_format?.json_schema?.name === 'meaning_verdict') {
        const now = /NEW REPLY\n([^\n]*)/.exec(text)?.[1] ?? '';
        meaningCalls.push(now);
        content = /\bnot\b/.test(now) ? '{"difference": "refunds are now refused", "score": 0.1}' : '{"difference": "", "score": 0.95}';
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    },
  ]);
  const s = Object.assign(server, { meaningCalls });
  servers.push(s);
  return s;
}

const FIXTURES = `fixtures:
  - { label: refund, message: refund, assert: { regex: "efund" } }
  - { label: hours, message: hours, assert: { regex: "9" } }
  - { label: shipping, message: shipping, assert: { regex: "50" } }
`;

const SCRIPT = `label: refund-sim
opening: I want my money back
user:
  goal: Get a refund for order 1234
  maxTurns: 4
expect: { conversations: [shop] }
`;

async function project(agentUrl: string, judgeUrl: string, opts: { config?: string; fixtures?: string; script?: string; simulatorUrl?: string } = {}): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-meaning-'));
  dirs.push(cwd);
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'personas'), { recursive: true });
  await mkdir(join(dir, 'baselines'), { recursive: true });
  await writeFile(
    join(dir, 'config.yml'),
    `agent:\n  url: ${agentUrl}\n  retries: 0\n  backoffMs: 1\n  concurrency: 1\n` +
      `judge: { provider: openai, baseUrl: "${judgeUrl}", model: judge-model, apiKey: k, retries: 0, backoffMs: 1 }\n` +
      (opts.simulatorUrl ? `simulator: { baseUrl: "${opts.simulatorUrl}", model: sim-model }\n` : '') +
      `cost: { capUsd: 5 }\n${opts.config ?? ''}`,
  );
  if (opts.fixtures !== '') await writeFile(join(dir, 'fixtures', 'f.yml'), opts.fixtures ?? FIXTURES);
  if (opts.script) await writeFile(join(dir, 'personas', 'p.yml'), opts.script);
  return cwd;
}

/** Baselines holding wording 0 of each fixture's answer, as accepted. */
async function acceptWordingZero(cwd: string, labels: readonly string[] = ['refund', 'hours', 'shipping']): Promise<void> {
  for (const label of labels) {
    const b: Baseline = { label, reply: WORDINGS[label]?.[0] as string, route: { conversation: 'shop', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00.000Z', commit: 'abc' };
    await writeFile(join(cwd, '.agent-replay', 'baselines', `${label}.json`), serializeBaseline(b));
  }
}

function options(cwd: string): CheckOptions {
  return { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null };
}

async function ran(cwd: string): Promise<RunRecord> {
  const result = await runCheck(options(cwd), { clock });
  if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}: ${JSON.stringify(result.kind === 'config_errors' ? result.errors : result.estimate)}`);
  return result.record;
}

const byLabel = (record: RunRecord, label: string): FixtureRecord => record.fixtures.find((f) => f.label === label) as FixtureRecord;

describe('meaning of fixtures', () => {
  it('a rewording agent: every reply differs, every meaning is reworded by the judge, nothing changed; the record names the meaning judge', async () => {
    const agent = await agentServer(() => 'reword');
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url);
    await acceptWordingZero(cwd);
    const record = await ran(cwd);
    expect(record.meaning).toEqual({ check: 'judge', model: 'judge-model', provider: 'openai', endpoint: judge.url, promptVersion: MEANING_PROMPT_VERSION });
    // The estimate counts one meaning call at most per fixture with a baseline.
    expect(record.estimate).toMatchObject({ meaningCalls: 3 });
    const meanings = record.fixtures.map((f) => [f.label, f.drift?.reply, f.drift?.meaning?.value ?? null, f.drift?.meaning?.by ?? null]);
    expect(meanings).toEqual([
      ['refund', 'different', 'reworded', 'judge'],
      ['hours', 'different', 'reworded', 'judge'],
      ['shipping', 'different', 'reworded', 'judge'],
    ]);
    expect(record.fixtures.every((f) => f.drift?.verdict === 'still_passing')).toBe(true);
    expect(byLabel(record, 'hours').drift?.meaning).toEqual({ value: 'reworded', by: 'judge', detail: null, score: 0.95, reused: false });
    expect([...judge.meaningCalls].sort()).toEqual([WORDINGS.refund?.[1], WORDINGS.hours?.[1], WORDINGS.shipping?.[1]].sort());
    expect(record.spend).toMatchObject({ meaningCalls: 3, meaningReused: 0, meaningAvoided: 0, judgeCalls: 0 });
    // The meaning judge got the user's message with the replies.
    expect(judge.received.map((r) => JSON.stringify(r.body)).some((b) => b.includes('[user] hours') && b.includes('Our hours on weekdays'))).toBe(true);
  });

  it('a changed number is changed by the facts with no model call; formatting is decided by normalize; the verdict is untouched', async () => {
    const agent = await agentServer(() => 'number');
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: refund, message: refund, assert: { regex: "efund" } }\n' });
    await acceptWordingZero(cwd, ['refund']);
    const record = await ran(cwd);
    const f = byLabel(record, 'refund');
    expect(f.verdict).toBe('pass');
    expect(f.drift?.verdict).toBe('still_passing');
    expect(f.drift?.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'numbers 30 → 14' });
    expect(judge.meaningCalls).toEqual([]);
    expect(judge.received).toHaveLength(0);
    expect(record.spend).toMatchObject({ meaningCalls: 0, meaningAvoided: 1 });

    const bold = await agentServer(() => 'bold');
    const cwd2 = await project(bold.url, judge.url, { fixtures: 'fixtures:\n  - { label: refund, message: refund, assert: { regex: "efund" } }\n' });
    await acceptWordingZero(cwd2, ['refund']);
    const r2 = await ran(cwd2);
    expect(byLabel(r2, 'refund').drift?.meaning).toEqual({ value: 'formatting', by: 'normalize', detail: null });
    expect(judge.received).toHaveLength(0);
  });

  it('emphasis on the number of a price and not on its currency is formatting, with no model call', async () => {
    const agent = await agentServer(() => 'reword');
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: price, message: price, repeat: { count: 3 } }\n' });
    await acceptWordingZero(cwd, ['price']);
    const record = await ran(cwd);
    const f = byLabel(record, 'price');
    // Attempts 1 to 3 reply "USD **120**", "**USD 120**" and "USD __120__": each the baseline's USD 120.
    expect(f.drift?.meaning).toEqual({ value: 'formatting', by: 'normalize', detail: null });
    expect(f.attempts?.map((a) => a.meaning?.value ?? null)).toEqual([null, 'formatting', 'formatting']);
    expect(judge.received).toHaveLength(0);
  });

  it('a number written in words on one call and in digits on the next is reworded by the judge, not changed by the facts (docs/meaning.md, "Facts")', async () => {
    const agent = await agentServer(() => 'reword');
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: warranty, message: warranty }\n' });
    await acceptWordingZero(cwd, ['warranty']);
    const record = await ran(cwd);
    // The baseline says "2-year" and "30 days", the reply "two-year" and "thirty days".
    expect(byLabel(record, 'warranty').drift?.meaning).toEqual({ value: 'reworded', by: 'judge', detail: null, score: 0.95, reused: false });
    expect(judge.meaningCalls).toEqual([WORDINGS.warranty?.[1]]);
    expect(record.spend).toMatchObject({ meaningCalls: 1, meaningAvoided: 0 });
    expect(renderComment(record, ctx)).not.toContain('changed in meaning');
  });

  it('a negation with the same facts is found by the meaning judge', async () => {
    const agent = await agentServer(() => 'negation');
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: refund, message: refund }\n' });
    await writeFile(
      join(cwd, '.agent-replay', 'baselines', 'refund.json'),
      serializeBaseline({ label: 'refund', reply: 'Refunds are accepted.', route: { conversation: 'shop', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00.000Z', commit: null }),
    );
    const record = await ran(cwd);
    expect(byLabel(record, 'refund').drift?.meaning).toEqual({ value: 'changed', by: 'judge', detail: 'refunds are now refused', score: 0.1, reused: false });
    expect(judge.meaningCalls).toEqual(['Refunds are not accepted.']);
  });

  it('with meaning.check off nothing is asked and no meaning is recorded', async () => {
    const agent = await agentServer(() => 'negation');
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: refund, message: refund }\n', config: 'meaning: { check: "off" }\n' });
    await acceptWordingZero(cwd, ['refund']);
    const record = await ran(cwd);
    expect(record.meaning).toEqual({ check: 'off', model: null, promptVersion: MEANING_PROMPT_VERSION });
    expect(byLabel(record, 'refund').drift?.reply).toBe('different');
    expect(byLabel(record, 'refund').drift?.meaning).toBeUndefined();
    expect(judge.received).toHaveLength(0);
    expect(record.spend?.meaningCalls).toBeUndefined();
    expect(record.estimate.meaningCalls).toBeUndefined();
  });

  it('repeats: the same reworded reply in every attempt costs one meaning call, the others reuse it', async () => {
    // Always wording 1 of "hours": three attempts, each different from the baseline in the same way.
    const agent = await startAgentServer(() => ({ json: { reply: WORDINGS.hours?.[1], route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: false } }));
    servers.push(agent);
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: hours, message: hours, repeat: { count: 3 } }\n' });
    await acceptWordingZero(cwd, ['hours']);
    const record = await ran(cwd);
    expect(judge.meaningCalls).toHaveLength(1);
    expect(record.spend).toMatchObject({ meaningCalls: 1, meaningReused: 2 });
    expect(byLabel(record, 'hours').drift?.meaning).toMatchObject({ value: 'reworded', by: 'judge' });
    // The attempts' replies are identical: none has a meaning against attempt 1.
    expect(byLabel(record, 'hours').attempts?.map((a) => a.meaning)).toEqual([undefined, undefined, undefined]);
  });

  it('repeats: each attempt after the first is compared with attempt 1 by the same ladder and records its meaning', async () => {
    // Attempt n (its session ends in -n) gets wording n mod 3, except that attempt 3 promises 14 days.
    const agent = await startAgentServer((req) => {
      const n = Number(/-(\d+)$/.exec(String((req.json as { session?: string }).session))?.[1]);
      const reply = n === 3 ? 'Refunds are accepted within 14 days.' : (WORDINGS.refund?.[n % 3] as string);
      return { json: { reply, route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: false } };
    });
    servers.push(agent);
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: 'fixtures:\n  - { label: refund, message: refund, repeat: { count: 3 } }\n' });
    const record = await ran(cwd);
    const attempts = byLabel(record, 'refund').attempts ?? [];
    expect(attempts.map((a) => a.reply)).toEqual([WORDINGS.refund?.[1], WORDINGS.refund?.[2], 'Refunds are accepted within 14 days.']);
    expect(attempts.map((a) => a.meaning?.value)).toEqual([undefined, 'reworded', 'changed']);
    expect(attempts[1]?.meaning).toMatchObject({ by: 'judge', reused: false });
    expect(attempts[2]?.meaning).toMatchObject({ by: 'facts', detail: 'numbers 30 → 14' });
    // No baseline: the only call is attempt 2 against attempt 1.
    expect(judge.meaningCalls).toEqual([WORDINGS.refund?.[2]]);
    expect(record.estimate.meaningCalls).toBe(2);
    expect(record.spend).toMatchObject({ meaningCalls: 1, meaningReused: 0, meaningAvoided: 1 });
  });
});

describe('an agent that answers in other languages and locales (docs/meaning.md, "Languages and locales")', () => {
  // Each message's baseline reply and the agent's rewording of it, keeping its facts in another
  // locale's writing: German and French amounts, full-width and Arabic-Indic digits, a yen sign.
  const LOCALES: Record<string, [string, string]> = {
    de: ['Der Preis beträgt 1.500,50 €.', 'Le prix est de 1 500,50 €, TVA comprise.'],
    ja: ['返品は30日以内です。', '返品は３０日以内です。'],
    yen: ['価格は1,500円です。', '価格は¥1,500です。'],
    ar: ['يمكنك الإرجاع خلال 30 يوماً.', 'يمكنك الإرجاع خلال ٣٠ يوماً.'],
    // Asked in Arabic, and a changed number: the comment shows the message on the item's own lines.
    'كم يوماً للإرجاع؟': ['يمكنك الإرجاع خلال 30 يوماً.', 'يمكنك الإرجاع خلال ١٤ يوماً.'],
  };
  const LABELS: Record<string, string> = { de: 'de', ja: 'ja', yen: 'yen', ar: 'ar', 'كم يوماً للإرجاع؟': 'ar-asked' };

  it('rewordings that keep the facts are never changed in meaning, a changed number in Arabic digits is; the comment isolates the Arabic message', async () => {
    const agent = await startAgentServer((req) => {
      const message = String((req.json as { message?: string }).message);
      return { json: { reply: LOCALES[message]?.[1] ?? '', route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: false } };
    });
    servers.push(agent);
    const judge = await judgeServer();
    const messages = Object.keys(LOCALES);
    const cwd = await project(agent.url, judge.url, { fixtures: `fixtures:\n${messages.map((m) => `  - { label: ${LABELS[m] as string}, message: "${m}" }\n`).join('')}` });
    for (const message of messages) {
      const label = LABELS[message] as string;
      const b: Baseline = { label, reply: LOCALES[message]?.[0] as string, route: { conversation: 'shop', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00.000Z', commit: null };
      await writeFile(join(cwd, '.agent-replay', 'baselines', `${label}.json`), serializeBaseline(b));
    }
    const record = await ran(cwd);
    expect(record.fixtures.map((f) => [f.label, f.drift?.meaning?.value ?? null, f.drift?.meaning?.by ?? null])).toEqual([
      ['de', 'reworded', 'judge'],
      ['ja', 'formatting', 'normalize'],
      ['yen', 'reworded', 'judge'],
      ['ar', 'formatting', 'normalize'],
      ['ar-asked', 'changed', 'facts'],
    ]);
    expect(byLabel(record, 'ar-asked').drift?.meaning?.detail).toBe('numbers 30 → 14');
    // The meaning judge was asked about the two rewordings only, never about a digit's script.
    expect([...judge.meaningCalls].sort()).toEqual([LOCALES.de?.[1], LOCALES.yen?.[1]].sort());
    // The comment's lines outside its fenced blocks (where each of a reply's lines is a paragraph of its own).
    let fenced = false;
    const arabic = renderComment(record, ctx)
      .split('\n')
      .filter((l) => {
        if (l.startsWith('```')) fenced = !fenced;
        return !fenced && !l.startsWith('```') && /[\u0600-\u06FF]/.test(l);
      });
    expect(arabic.length).toBeGreaterThan(0);
    for (const line of arabic) expect(line.replace(/\u2068[^\u2069]*\u2069/g, '')).not.toMatch(/[\u0600-\u06FF]/);
  });
});

describe('a repeated fixture whose attempt 1 replays its baseline word for word (docs/meaning.md, "Repeats")', () => {
  /** An agent whose attempt n (its session ends in -n) answers `reply(n)` to "refund". */
  async function byAttempt(reply: (n: number) => string): Promise<AgentServer> {
    const agent = await startAgentServer((req) => {
      const n = Number(/-(\d+)$/.exec(String((req.json as { session?: string }).session))?.[1]);
      return { json: { reply: reply(n), route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: false } };
    });
    servers.push(agent);
    return agent;
  }

  const REFUND = 'fixtures:\n  - { label: refund, message: refund, assert: { regex: "efund" }, repeat: { count: 3 } }\n';
  const reason = 'replies differ in meaning across 3 attempts: attempt 3: numbers 30 → 14';

  /** The refund fixture's record, its baseline the reply `stored`, against `agent`. */
  async function refundRun(agent: AgentServer, judge: MeaningServer, stored: string, config = ''): Promise<RunRecord> {
    const cwd = await project(agent.url, judge.url, { fixtures: REFUND, config });
    const b: Baseline = { label: 'refund', reply: stored, route: { conversation: 'shop', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00.000Z', commit: 'abc' };
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'refund.json'), serializeBaseline(b));
    return ran(cwd);
  }

  /** The record's one fixture is changed in meaning by its attempt 3, on every surface, and refused in those words. */
  function changedByAttempt3(record: RunRecord): void {
    const f = byLabel(record, 'refund');
    expect(f.drift).toMatchObject({ reply: 'same', meaning: { value: 'changed', by: 'facts', detail: 'attempt 3: numbers 30 → 14' } });
    const md = renderComment(record, ctx);
    expect(md).not.toContain('No regressions: 1 unchanged');
    expect(md).not.toContain('Nothing to accept: no pass or fail reply differs from its baseline.');
    expect(md).toContain(`The label would refuse \`refund\` (${escapeInline(reason)})`);
    expect(planAcceptance(record, new Map(), { only: null, acceptedAt: '2026-01-01T00:00:00.000Z' }).refused).toEqual([{ label: 'refund', reason }]);
    expect(renderTerminal(record, { color: false })).toContain('changed in meaning: attempt 3: numbers 30 → 14');
    expect(meets(f, 'meaning_changed')).toBe(true);
  }

  it('an agent that answers the same but for a fact in attempt 3 is changed in meaning by that attempt, not unchanged beside the refusal', async () => {
    const agent = await byAttempt((n) => (n === 3 ? 'Refunds are accepted within 14 days.' : (WORDINGS.refund?.[0] as string)));
    const judge = await judgeServer();
    const record = await refundRun(agent, judge, WORDINGS.refund?.[0] as string);
    expect(byLabel(record, 'refund').attempts?.map((a) => a.meaning ?? null)).toEqual([null, null, expect.objectContaining({ value: 'changed', by: 'facts' })]);
    changedByAttempt3(record);
    expect(judge.meaningCalls).toEqual([]);
  });

  it('a rewording agent whose attempt 3 changes a fact: changed by that attempt; one that only rewords stays unchanged, accepted with its wordings', async () => {
    // Attempt n gets wording n mod 3, except that attempt 3 promises 14 days; the baseline is attempt 1's wording.
    const judge = await judgeServer();
    const fact = await byAttempt((n) => (n === 3 ? 'Refunds are accepted within 14 days.' : (WORDINGS.refund?.[n % 3] as string)));
    const record = await refundRun(fact, judge, WORDINGS.refund?.[1] as string);
    expect(byLabel(record, 'refund').attempts?.map((a) => a.meaning?.value ?? null)).toEqual([null, 'reworded', 'changed']);
    changedByAttempt3(record);
    // The project's rewording agent: attempts 2 and 3 only reworded against attempt 1, the baseline's reply.
    const reword = await agentServer(() => 'reword');
    const quiet = await refundRun(reword, judge, WORDINGS.refund?.[1] as string);
    const f = byLabel(quiet, 'refund');
    expect(f.attempts?.map((a) => a.meaning?.value ?? null)).toEqual([null, 'reworded', 'reworded']);
    expect(f.drift?.reply).toBe('same');
    expect(f.drift?.meaning).toBeUndefined();
    expect(meets(f, 'meaning_changed')).toBe(false);
    expect(renderComment(quiet, ctx)).toContain('No regressions: 1 unchanged');
    expect(planAcceptance(quiet, new Map(), { only: null, acceptedAt: '2026-01-01T00:00:00.000Z' }).refused).toEqual([]);
  });

  it('with meaning.check off, a rewording agent whose attempts 2 and 3 reply otherwise is changed by attempt 2, named as acceptance refuses it, not unchanged', async () => {
    const judge = await judgeServer();
    const reword = await agentServer(() => 'reword');
    const record = await refundRun(reword, judge, WORDINGS.refund?.[1] as string, 'meaning: { check: "off" }\n');
    const f = byLabel(record, 'refund');
    // No meaning is compared: the attempts carry none, and nothing is asked.
    expect(f.attempts?.map((a) => a.meaning)).toEqual([undefined, undefined, undefined]);
    expect(f.attempts?.map((a) => a.reply)).toEqual([WORDINGS.refund?.[1], WORDINGS.refund?.[2], WORDINGS.refund?.[0]]);
    expect(judge.meaningCalls).toEqual([]);
    expect(f.drift).toMatchObject({ reply: 'same', meaning: { value: 'unchecked', by: null, detail: 'attempt 2: replied otherwise than attempt 1' } });
    const otherwise = 'replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1';
    expect(planAcceptance(record, new Map(), { only: null, acceptedAt: '2026-01-01T00:00:00.000Z' }).refused).toEqual([{ label: 'refund', reason: otherwise }]);
    const md = renderComment(record, ctx);
    expect(md).not.toContain('No regressions: 1 unchanged');
    expect(md).not.toContain('Nothing to accept: no pass or fail reply differs from its baseline.');
    expect(md).toContain('meaning not checked: attempt 2: replied otherwise than attempt 1');
    expect(md).toContain(`The label would refuse \`refund\` (${escapeInline(otherwise)})`);
    // Attempt 2's reply is shown against attempt 1's, as a named attempt's meaning shows it.
    expect(md).toContain("**Attempt 2's reply**, against attempt 1's");
    expect(md).toContain(`+ ${WORDINGS.refund?.[2]}`);
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain('meaning not checked: attempt 2: replied otherwise than attempt 1');
    expect(terminal).toContain("attempt 2's reply vs attempt 1's");
    // Not a change of meaning: `fail-on: meaning_changed` is not met, as for an attempt whose meaning was not checked.
    expect(meets(f, 'meaning_changed')).toBe(false);
  });
});

describe('meaning of persona scripts and simulated users', () => {
  it('an accepted simulated script replayed against a rewording agent makes zero simulator calls; each reworded turn has its meaning', async () => {
    let mode: Mode = 'same';
    const agent = await agentServer(() => mode);
    const judge = await judgeServer();
    const sim = await startSimulatorServer((ask) => (ask.turn === 2 ? { message: 'My order is 1234' } : { done: true, reason: 'refund confirmed' }));
    servers.push(sim);
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: SCRIPT, simulatorUrl: sim.url });
    const first = await ran(cwd);
    const p1 = first.personas[0] as PersonaRecord;
    // The agent has a welcome turn (0), always worded the same.
    expect(p1.turns.map((t) => t.message)).toEqual([null, 'I want my money back', 'My order is 1234']);
    const decision = decidePersonaAcceptance(p1, '2026-01-01T00:00:00.000Z', 'abc');
    if (decision.kind !== 'accept') throw new Error('not accepted');
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'refund-sim.json'), serializePersonaBaseline(decision.baseline));
    const simCalls = sim.asks.length;

    mode = 'reword';
    const record = await ran(cwd);
    const p = record.personas[0] as PersonaRecord;
    expect(sim.asks.length).toBe(simCalls);
    expect(p.simulation).toMatchObject({ liveFromTurn: null, endedBy: 'simulator', doneReason: 'refund confirmed', calls: 0 });
    expect(p.turns.map((t) => t.source)).toEqual([undefined, 'script', 'baseline']);
    // Both message turns' replies differ from wording 0 and keep their facts; the welcome is the same.
    expect(p.turns.map((t) => t.reply === p1.turns[t.index]?.reply)).toEqual([true, false, false]);
    expect(p.turns.map((t) => t.meaning?.value)).toEqual([undefined, 'reworded', 'reworded']);
    expect(p.drift?.transcript).toBe('different');
    expect(p.drift?.meaning).toMatchObject({ value: 'reworded', by: 'judge' });
    expect(record.spend).toMatchObject({ simulatorCalls: 0, meaningCalls: 2 });
    // The judge read the conversation up to the turn's user message.
    expect(judge.meaningCalls).toHaveLength(2);
    expect(JSON.stringify(judge.received[1]?.body)).toContain('[user] I want my money back');
    expect(JSON.stringify(judge.received[1]?.body)).toContain('[user] My order is 1234');
  });

  it('a repeated script accepted with reworded attempts compares the next run\'s attempts through the baseline turns\' variants, with no meaning call', async () => {
    // The n-th call with a message gets wording n mod 3: attempts 1, 2, 3 of each run say wordings 1, 2, 0.
    const agent = await agentServer(() => 'reword');
    const judge = await judgeServer();
    const script = 'label: hours-dialog\nopening: hours\nfollowUps: [ shipping ]\nrepeat: { count: 3 }\nexpect: { conversations: [ shop ] }\n';
    const cwd = await project(agent.url, judge.url, { fixtures: '', script });
    const first = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(first.attempts?.slice(1).map((a) => a.meaning?.value)).toEqual(['reworded', 'reworded']);
    const decision = decidePersonaAcceptance(first, '2026-01-01T00:00:00.000Z', 'abc');
    if (decision.kind !== 'accept') throw new Error(`not accepted: ${JSON.stringify(decision)}`);
    expect(decision.baseline.transcript.find((t) => t.message === 'hours')?.variants).toEqual([WORDINGS.hours?.[2], WORDINGS.hours?.[0]]);
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'hours-dialog.json'), serializePersonaBaseline(decision.baseline));

    const calls = judge.meaningCalls.length;
    const p = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(p.drift?.transcript).toBe('same');
    expect(p.attempts?.map((a) => a.meaning?.value ?? null)).toEqual([null, 'variant', 'variant']);
    expect(judge.meaningCalls.length).toBe(calls);
  });

  it('a simulated script whose reply changes a number diverges there: the simulator takes over', async () => {
    const agent = await agentServer(() => 'same');
    const judge = await judgeServer();
    const sim = await startSimulatorServer((ask) => (ask.turn === 2 ? { message: 'My order is 1234' } : { done: true, reason: 'refund confirmed' }));
    servers.push(sim);
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: SCRIPT, simulatorUrl: sim.url });
    const p1 = (await ran(cwd)).personas[0] as PersonaRecord;
    const decision = decidePersonaAcceptance(p1, '2026-01-01T00:00:00.000Z', 'abc');
    if (decision.kind !== 'accept') throw new Error('not accepted');
    // The accepted opening reply promised 30 days; now it promises 14.
    const baseline = { ...decision.baseline, transcript: decision.baseline.transcript.map((t) => (t.message === 'I want my money back' ? { ...t, reply: 'Sure, within 30 days: what is your order number?' } : t)) };
    await writeFile(join(cwd, '.agent-replay', 'baselines', 'refund-sim.json'), serializePersonaBaseline(baseline));
    const before = sim.asks.length;
    const p = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(p.turns[1]?.meaning).toMatchObject({ value: 'changed', by: 'facts' });
    expect(p.simulation?.liveFromTurn).toBe(2);
    expect(sim.asks.length).toBeGreaterThan(before);
    expect(p.drift?.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'turn 1 changed in meaning: numbers 30 → none' });
  });
});

describe('a reply to another user message than the baseline\'s is not compared with it', () => {
  /** Accepts the script's first run, then (optionally) rewrites its stored turns by hand. */
  async function acceptFirst(cwd: string, edit: (t: { message: string | null; reply: string }) => string = (t) => t.reply): Promise<PersonaRecord> {
    const p1 = (await ran(cwd)).personas[0] as PersonaRecord;
    const decision = decidePersonaAcceptance(p1, '2026-01-01T00:00:00.000Z', 'abc');
    if (decision.kind !== 'accept') throw new Error('not accepted');
    const baseline = { ...decision.baseline, transcript: decision.baseline.transcript.map((t) => ({ ...t, reply: edit(t) })) };
    await writeFile(join(cwd, '.agent-replay', 'baselines', `${p1.label}.json`), serializePersonaBaseline(baseline));
    return p1;
  }

  it('a simulated user written live after a changed turn: its turns get no meaning and cost no meaning call', async () => {
    const agent = await agentServer(() => 'same');
    const judge = await judgeServer();
    // The first run's user gives the order number; the user simulated live later writes something else.
    let runs = 0;
    const sim = await startSimulatorServer((ask) => (ask.turn === 2 ? { message: runs === 0 ? 'My order is 1234' : 'Please hurry' } : { done: true, reason: 'refund confirmed' }));
    servers.push(sim);
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: SCRIPT, simulatorUrl: sim.url });
    // The accepted opening reply promised 30 days (now it does not: changed by the facts); its turn 2 reply has no facts.
    await acceptFirst(cwd, (t) => (t.message === 'I want my money back' ? 'Sure, within 30 days: what is your order number?' : t.message === 'My order is 1234' ? 'Your refund is on its way.' : t.reply));
    runs += 1;
    const record = await ran(cwd);
    const p = record.personas[0] as PersonaRecord;
    expect(p.turns.map((t) => [t.message, t.source])).toEqual([
      [null, undefined],
      ['I want my money back', 'script'],
      ['Please hurry', 'simulator'],
    ]);
    expect(p.turns.map((t) => t.meaning?.value)).toEqual([undefined, 'changed', undefined]);
    // "Please hurry" was answered "echo: Please hurry": no meaning judge was asked about it against "Your refund is on its way.".
    expect(judge.meaningCalls).toEqual([]);
    expect(record.spend?.meaningCalls ?? 0).toBe(0);
    expect(p.drift?.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'turn 1 changed in meaning: numbers 30 → none' });
  });

  it('with meaning.check facts, a user re-simulated after a turn whose meaning was not checked stays "meaning not checked", never changed by a reply to another message', async () => {
    let mode: Mode = 'same';
    const agent = await agentServer(() => mode);
    const judge = await judgeServer();
    let runs = 0;
    const sim = await startSimulatorServer((ask) => (ask.turn === 2 ? { message: runs === 0 ? 'My order is 1234' : 'My order is 5678' } : { done: true, reason: 'refund confirmed' }));
    servers.push(sim);
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: SCRIPT, simulatorUrl: sim.url, config: 'meaning: { check: facts }\n' });
    await acceptFirst(cwd);
    runs += 1;
    mode = 'reword';
    const p = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(p.simulation?.liveFromTurn).toBe(2);
    expect(p.turns.map((t) => t.meaning?.value)).toEqual([undefined, 'unchecked', undefined]);
    // Not "turn 2 changed in meaning: numbers 1234 → 5678", which would meet fail-on: meaning_changed.
    expect(p.drift?.meaning).toEqual({ value: 'unchecked', by: null, detail: 'turn 1 meaning not checked: the facts are the same and meaning.check is facts, which asks no model' });
  });

  it('a follow-up edited since the baseline: changed, naming the turn, never reworded, with no meaning call', async () => {
    const agent = await agentServer(() => 'same');
    const judge = await judgeServer();
    const script = (followUp: string): string => `label: hours-dialog\nopening: hours\nfollowUps: [ "${followUp}" ]\nexpect: { conversations: [ shop ] }\n`;
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: script('I want my money back') });
    await acceptFirst(cwd);
    await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), script('Can I have a refund?'));
    const p = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(p.turns.at(-1)?.reply).toBe('echo: Can I have a refund?');
    expect(p.turns.at(-1)?.meaning).toBeUndefined();
    expect(judge.meaningCalls).toEqual([]);
    expect(p.drift?.meaning).toEqual({ value: 'changed', by: 'turns', detail: "the user's message of turn 2 is not the baseline's" });
  });

  it.each([
    ['removed', '"turns 4 → 3" as if the agent had ended the conversation early', '"I want my money back", "Thanks"', '"I want my money back"', "the script has 2 messages, where the baseline's user sent 3"],
    ['added', '"turns 3 → 4" as if the agent had taken one more turn', '"I want my money back"', '"I want my money back", "Thanks"', "the script has 3 messages, where the baseline's user sent 2"],
  ])('a follow-up %s since the baseline: changed by the script, not %s', async (_what, _as, before, now, detail) => {
    const agent = await agentServer(() => 'same');
    const judge = await judgeServer();
    const script = (followUps: string): string => `label: hours-dialog\nopening: hours\nfollowUps: [ ${followUps} ]\nexpect: { conversations: [ shop ] }\n`;
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: script(before) });
    await acceptFirst(cwd);
    await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), script(now));
    const p = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(p.turns.map((t) => t.message)).toEqual([null, 'hours', ...(JSON.parse(`[${now}]`) as string[])]);
    expect(p.drift).toMatchObject({ transcript: 'different', meaning: { value: 'changed', by: 'turns', detail } });
    expect(judge.meaningCalls).toEqual([]);
  });

  /** What acceptance writes for the run's scripts (planned as the CLI and the Action do), read back from the file. */
  async function accepted(cwd: string): Promise<Record<string, unknown>> {
    const record = await ran(cwd);
    const plan = planAcceptance(record, new Map(), { only: null, acceptedAt: '2026-01-01T00:00:00.000Z' });
    await writeBaselines(join(cwd, '.agent-replay', 'baselines'), plan.accepted);
    return JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'hours-dialog.json'), 'utf8')) as Record<string, unknown>;
  }

  const DIALOG = `label: hours-dialog\nopening: hours\nfollowUps: [ "I want my money back", "Thanks" ]\nexpect: { conversations: [ shop ] }\n`;

  /** A project of DIALOG whose agent ends the conversation on its second message until `answerAll()`. */
  async function endingEarly(): Promise<{ cwd: string; judge: MeaningServer; answerAll: () => void }> {
    let ending = true;
    const agent = await agentServer(
      () => 'same',
      (m) => ending && m === 'I want my money back',
    );
    const judge = await judgeServer();
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: DIALOG });
    return { cwd, judge, answerAll: () => (ending = false) };
  }

  it('acceptance keeps how the conversation ended: by the agent with a message unsent, or by the script sending its last', async () => {
    const { cwd, answerAll } = await endingEarly();
    const first = await accepted(cwd);
    expect((first.transcript as unknown[]).length).toBe(3);
    expect(first.endedBy).toBe('agent');
    answerAll();
    // Read back by the suite (a run), and written anew with the conversation the script ended.
    const second = await accepted(cwd);
    expect((second.transcript as unknown[]).length).toBe(4);
    expect(second.endedBy).toBe('script');
  });

  it.each([
    ['keeps that the agent ended it: the agent changed, in its words', true, 'turns 3 → 4'],
    ['does not keep it (accepted before it was kept): read as the script\'s', false, "the script has 3 messages, where the baseline's user sent 2"],
  ])('an agent that ended the conversation early and no longer does, the script unchanged, whose baseline %s', async (_what, keep, detail) => {
    const { cwd, judge, answerAll } = await endingEarly();
    const stored = await accepted(cwd);
    if (!keep) {
      const { endedBy: _dropped, ...older } = stored;
      await writeFile(join(cwd, '.agent-replay', 'baselines', 'hours-dialog.json'), `${JSON.stringify(older, null, 2)}\n`);
    }
    answerAll();
    const p = (await ran(cwd)).personas[0] as PersonaRecord;
    expect(p.turns.map((t) => t.message)).toEqual([null, 'hours', 'I want my money back', 'Thanks']);
    expect(p.drift).toMatchObject({ transcript: 'different', meaning: { value: 'changed', by: 'turns', detail } });
    expect(judge.meaningCalls).toEqual([]);
  });

  it.each(['same', 'reword'] as const)(
    'a repeated script whose attempt 1 replays its baseline while attempt 2 changes a fact on a turn is changed in meaning by that attempt; one only reworded stays unchanged (agent: %s)',
    async (mode) => {
      // Once `changing` is set, attempt 2 (its session ends in -2) says 18 where the others say 17 to "hours".
      let changing = false;
      const calls = new Map<string, number>();
      const agent = await startAgentServer((req) => {
        const body = (req.json ?? {}) as { message?: string; session?: string };
        const message = String(body.message);
        const words = WORDINGS[message] ?? [`echo: ${message}`];
        const n = (calls.get(message) ?? 0) + 1;
        calls.set(message, n);
        let reply = mode === 'same' ? (words[0] as string) : (words[n % words.length] as string);
        if (changing && message === 'hours' && /-2$/.test(String(body.session))) reply = reply.replace('17', '18');
        return { json: { reply, route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: false } };
      });
      servers.push(agent);
      const judge = await judgeServer();
      const cwd = await project(agent.url, judge.url, { fixtures: '', script: `${DIALOG}repeat: { count: 3 }\n` });
      await accepted(cwd);
      // The rewording agent words each attempt as it did when accepted (wording n mod 3 of its n-th call): attempt 1 replays the baseline.
      const quiet = await ran(cwd);
      const q = quiet.personas[0] as PersonaRecord;
      expect(q.drift?.transcript).toBe('same');
      expect(q.drift?.meaning).toBeUndefined();
      expect(q.attempts?.map((a) => a.meaning?.value ?? null)).toEqual(mode === 'same' ? [null, null, null] : [null, 'variant', 'variant']);
      expect(renderComment(quiet, ctx)).toContain('No regressions: 1 unchanged');
      changing = true;
      const record = await ran(cwd);
      const p = record.personas[0] as PersonaRecord;
      const detail = 'attempt 2: turn 1 changed in meaning: numbers 17 → 18';
      expect(p.drift).toMatchObject({ transcript: 'same', meaning: { value: 'changed', by: 'facts', detail } });
      const md = renderComment(record, ctx);
      expect(md).not.toContain('No regressions: 1 unchanged');
      const reason = 'replies differ in meaning across 3 attempts: attempt 2: turn 1 changed in meaning: numbers 17 → 18';
      expect(md).toContain(`The label would refuse \`hours-dialog\` (${escapeInline(reason)})`);
      expect(decidePersonaAcceptance(p, '2026-01-01T00:00:00.000Z', 'abc')).toEqual({ kind: 'refuse', reason });
      expect(renderTerminal(record, { color: false })).toContain(detail);
      expect(meets(p, 'meaning_changed')).toBe(true);
    },
  );

  it('with meaning.check off, a repeated script whose attempt 1 replays its baseline while attempts 2 and 3 reword is changed by attempt 2, named as acceptance refuses it', async () => {
    const judge = await judgeServer();
    const agent = await agentServer(() => 'reword');
    const cwd = await project(agent.url, judge.url, { fixtures: '', script: `${DIALOG}repeat: { count: 3 }\n` });
    await accepted(cwd);
    // The rewording agent words each attempt as it did when accepted: attempt 1 replays the baseline, the others reword it.
    await appendFile(join(cwd, '.agent-replay', 'config.yml'), 'meaning: { check: "off" }\n');
    const calls = judge.meaningCalls.length;
    const record = await ran(cwd);
    const p = record.personas[0] as PersonaRecord;
    expect(p.attempts?.map((a) => a.meaning)).toEqual([undefined, undefined, undefined]);
    expect(judge.meaningCalls.length).toBe(calls);
    const detail = 'attempt 2: replied otherwise than attempt 1';
    expect(p.drift).toMatchObject({ transcript: 'same', meaning: { value: 'unchecked', by: null, detail } });
    const reason = 'replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1';
    expect(decidePersonaAcceptance(p, '2026-01-01T00:00:00.000Z', 'abc')).toEqual({ kind: 'refuse', reason });
    const md = renderComment(record, ctx);
    expect(md).not.toContain('No regressions: 1 unchanged');
    expect(md).toContain(`The label would refuse \`hours-dialog\` (${escapeInline(reason)})`);
    expect(renderTerminal(record, { color: false })).toContain(`meaning not checked: ${detail}`);
    expect(meets(p, 'meaning_changed')).toBe(false);
  });

  describe('who ended a scripted conversation (docs/personas.md, "Baselines and drift"), with a rewording agent', () => {
    /** DIALOG with an agent that rewords its replies, ending the conversation on the message `ending.on` (null: never). */
    async function rewording(): Promise<{ cwd: string; judge: MeaningServer; ending: { on: string | null } }> {
      const ending: { on: string | null } = { on: null };
      const agent = await agentServer(
        () => 'reword',
        (m) => m === ending.on,
      );
      const judge = await judgeServer();
      const cwd = await project(agent.url, judge.url, { fixtures: '', script: DIALOG });
      return { cwd, judge, ending };
    }

    it.each([
      ['ended it on the script\'s last message and no longer does', 'Thanks', null, 'both', 'script', "the agent did not end the conversation, where the baseline's agent ended it on turn 3"],
      ['did not end it and now ends it on the script\'s last message', null, 'Thanks', 'script', 'both', "the agent ended the conversation on turn 3, where the baseline's agent did not end it"],
    ] as const)('an agent that %s: changed by the agent, every reply only reworded', async (_what, before, now, stored, endedBy, detail) => {
      const { cwd, judge, ending } = await rewording();
      ending.on = before;
      expect((await accepted(cwd)).endedBy).toBe(stored);
      // The same ending again: only reworded.
      const same = (await ran(cwd)).personas[0] as PersonaRecord;
      expect(same.endedBy).toBe(stored);
      expect(same.drift?.meaning).toMatchObject({ value: 'reworded', by: 'judge' });
      expect(judge.meaningCalls.length).toBeGreaterThan(0);
      ending.on = now;
      const record = await ran(cwd);
      const p = record.personas[0] as PersonaRecord;
      expect(p.turns.map((t) => t.message)).toEqual([null, 'hours', 'I want my money back', 'Thanks']);
      expect(p.endedBy).toBe(endedBy);
      expect(renderTerminal(record, { color: false })).toContain(`· transcript changed · changed in meaning: ${detail} ·`);
      // JUnit's changed script says who ended it, in the words of the other reports.
      const words = endedBy === 'both' ? "the agent ended the conversation on turn 3, the script's last message" : 'the script ended the conversation on turn 3, its last message';
      expect(renderJUnit(record)).toContain(`  ended: ${xmlText(words)}</system-out>`);
      expect(p.drift).toMatchObject({ transcript: 'different', meaning: { value: 'changed', by: 'turns', detail } });
      // Accepting it writes the new ending.
      expect((await accepted(cwd)).endedBy).toBe(endedBy);
    });

    it.each([
      ['early, with a message unsent', 'I want my money back', 'agent', 'the agent ended the conversation on turn 2', ', 1 not sent'],
      ["on the script's last message", 'Thanks', 'both', "the agent ended the conversation on turn 3, the script's last message", ''],
      ['never', null, 'script', 'the script ended the conversation on turn 3, its last message', ''],
    ] as const)('the agent ends the conversation %s: the comment, report.html and the terminal say who ended it in the same words', async (_when, on, endedBy, words, unsent) => {
      const { cwd, ending } = await rewording();
      ending.on = on;
      const record = await ran(cwd);
      const p = record.personas[0] as PersonaRecord;
      expect(p.endedBy).toBe(endedBy);
      // The comment's persona block: its header line, and the "Not sent" block when messages were left.
      const comment = renderComment(record, ctx);
      const sent = endedBy === 'agent' ? '2 of 3 messages sent' : '3 of 3 messages sent';
      expect(comment).toContain(`**Script**: ${sent} after a welcome turn · ended: ${words} · no outcome reported`);
      expect(comment.includes(`**Not sent** (1), because ${words}:`)).toBe(endedBy === 'agent');
      // report.html: the transcript's "Ended" (and its "Not sent" head), in the page's data.
      const data = personaData(p);
      expect(data.ended).toBe(words);
      expect(data.unsentHead).toBe(endedBy === 'agent' ? `Not sent (1), because ${words}` : undefined);
      expect(renderHtml(record)).toContain(JSON.stringify(words).slice(1, -1));
      // The terminal: the script's line.
      expect(renderTerminal(record, { color: false }).split('\n')).toContain(`      the check passed · ended: ${words}${unsent}`);
    });

    describe("a repeated script whose attempts end it differently (docs/meaning.md, \"Repeats\")", () => {
      const REPEATED = `${DIALOG}repeat: { count: 3 }\n`;
      /**
       * REPEATED with a rewording agent that, once `seeded` is set, ends the conversation on the
       * script's last message in a seeded subset of its sessions (one per attempt): mulberry32 seed 1
       * draws below 0.5 for the 2nd, 6th and 9th sessions, so a run's attempts end it script, both, script.
       */
      async function endingSometimes(config = '', mode: Mode = 'reword'): Promise<{ cwd: string; judge: MeaningServer; ending: { seeded: boolean } }> {
        const ending = { seeded: false };
        const draw = prng(1);
        const ends = new Map<string, boolean>();
        const agent = await agentServer(
          () => mode,
          (m, session) => {
            if (!ending.seeded || m !== 'Thanks') return false;
            if (!ends.has(session)) ends.set(session, draw() < 0.5);
            return ends.get(session) === true;
          },
        );
        const judge = await judgeServer();
        const cwd = await project(agent.url, judge.url, { fixtures: '', script: REPEATED, config });
        return { cwd, judge, ending };
      }

      const detail = "the agent ended the conversation on turn 3, where attempt 1's agent did not end it";

      it('the attempt that ended it differs from attempt 1 in meaning, by turns, and acceptance refuses: no ending is stored from one attempt', async () => {
        const { cwd, ending } = await endingSometimes();
        ending.seeded = true;
        const record = await ran(cwd);
        const p = record.personas[0] as PersonaRecord;
        expect(p.attempts?.map((a) => a.endedBy)).toEqual(['script', 'both', 'script']);
        // Every reply of attempt 2 is only reworded; how it ended is what differs.
        expect(p.attempts?.map((a) => a.meaning ?? null)).toEqual([null, { value: 'changed', by: 'turns', detail }, expect.objectContaining({ value: 'reworded' })]);
        // Refused for how the conversations ended, in those words: not "replies differ in meaning", which they do not.
        const reason = `conversations ended differently across 3 attempts: attempt 2: ${detail}`;
        expect(decidePersonaAcceptance(p, '2026-01-01T00:00:00.000Z', 'abc')).toEqual({ kind: 'refuse', reason });
        expect(renderTerminal(record, { color: false })).toContain('the other attempts, compared with attempt 1: 1 whose conversation ended otherwise, 1 reworded');
        expect(attemptStandings(p).get(2)).toBe(detail);
        const plan = planAcceptance(record, new Map(), { only: null, acceptedAt: '2026-01-01T00:00:00.000Z' });
        expect(plan.accepted).toEqual([]);
        // The CLI's fix, and the comment's sentence once the label is handled: no "reply to store" of replies that agree.
        const fix = 'find out why the agent ends the conversation in some attempts only, or accept after a run whose attempts agree';
        expect(attemptsRefusalFix(reason)).toBe(fix);
        expect(refusedList({ refused: plan.refused })).toContain(`- \`hours-dialog\`: ${escapeInline(`${reason}. There is no one ending to store: ${fix}.`)}`);
      });

      it('against a baseline its attempt 1 replays word for word, attempt 2 ending it otherwise is changed, not unchanged beside the refusal', async () => {
        // An agent that answers the same every time: only who ended attempt 2's conversation differs.
        const { cwd, judge, ending } = await endingSometimes('', 'same');
        expect((await accepted(cwd)).endedBy).toBe('script');
        ending.seeded = true;
        const record = await ran(cwd);
        const p = record.personas[0] as PersonaRecord;
        expect(p.attempts?.map((a) => a.endedBy)).toEqual(['script', 'both', 'script']);
        expect(p.drift).toMatchObject({ transcript: 'same', meaning: { value: 'changed', by: 'turns', detail: `attempt 2: ${detail}` } });
        expect(judge.meaningCalls).toEqual([]);
        // The comment shows it changed and names the refusal the label would give; accept refuses it in those words.
        const md = renderComment(record, ctx);
        expect(md).not.toContain('No regressions: 1 unchanged');
        expect(md).not.toContain('Nothing to accept: no pass or fail reply differs from its baseline.');
        const reason = `conversations ended differently across 3 attempts: attempt 2: ${detail}`;
        expect(md).toContain(`The label would refuse \`hours-dialog\` (${escapeInline(reason)})`);
        expect(decidePersonaAcceptance(p, '2026-01-01T00:00:00.000Z', 'abc')).toEqual({ kind: 'refuse', reason });
        expect(renderTerminal(record, { color: false })).toContain(`changed in meaning: attempt 2: ${detail}`);
        expect(meets(p, 'meaning_changed')).toBe(true);
      });

      it('against a baseline the agent did not end, a run whose attempt 1 ends it alike and attempt 2 not is changed, not reworded', async () => {
        const { cwd, ending } = await endingSometimes();
        const stored = await accepted(cwd);
        expect(stored.endedBy).toBe('script');
        // Its replies in another wording than the run's attempt 1 gives, without variants: attempt 1 is reworded against it.
        const transcript = (stored.transcript as { message: string | null; reply: string; variants?: string[] }[]).map(({ variants: _v, ...t }) => ({ ...t, reply: WORDINGS[t.message ?? '']?.[2] ?? t.reply }));
        await writeFile(join(cwd, '.agent-replay', 'baselines', 'hours-dialog.json'), JSON.stringify({ ...stored, transcript }, null, 2));
        ending.seeded = true;
        const record = await ran(cwd);
        const p = record.personas[0] as PersonaRecord;
        // The attempt shown ended it as the baseline's did: only attempt 2 tells the agent now ends it.
        expect(p.endedBy).toBe('script');
        expect(p.attempts?.map((a) => a.endedBy)).toEqual(['script', 'both', 'script']);
        expect(p.drift?.meaning).toMatchObject({ value: 'changed', by: 'turns', detail: `attempt 2: ${detail}` });
        expect(renderTerminal(record, { color: false })).toContain(`changed in meaning: attempt 2: ${detail}`);
      });

      it.each(['reword', 'same'] as const)('with meaning.check off, attempts that end it differently are refused in the same words (replies %s)', async (mode) => {
        const { cwd, judge, ending } = await endingSometimes('meaning: { check: "off" }\n', mode);
        ending.seeded = true;
        const p = (await ran(cwd)).personas[0] as PersonaRecord;
        expect(p.attempts?.map((a) => a.meaning)).toEqual([undefined, undefined, undefined]);
        // With every reply the same (`same`), nothing but the ending tells the attempts apart; reworded replies vary, unmeasured.
        const head = mode === 'same' ? 'conversations ended differently' : 'replies vary, and conversations ended differently,';
        // Attempt 3, reworded with no meaning recorded, is named too: it replied otherwise.
        const rest = mode === 'same' ? '' : '; attempt 3 replied otherwise than attempt 1';
        expect(decidePersonaAcceptance(p, '2026-01-01T00:00:00.000Z', 'abc')).toEqual({ kind: 'refuse', reason: `${head} across 3 attempts: attempt 2: ${detail}${rest}` });
        expect(judge.meaningCalls).toEqual([]);
      });
    });
  });
});

describe('judge reuse of a repeated script failed by its attempts whose attempt shown passed (docs/fixtures.md, "Judge reuse")', () => {
  const POLITE = `label: polite-dialog\nopening: hours\nfollowUps: [ "Thanks" ]\nexpect: { criteria: [ "Was polite" ] }\nrepeat: { count: 3 }\n`;

  /** A judge whose criterion calls score `scores` in order (then 0.9); meaning calls as judgeServer's. */
  async function flakyJudge(scores: number[]): Promise<{ url: string; criterionCalls: () => number }> {
    let calls = 0;
    const server = await startServer([
      (res, req: Received) => {
        const body = req.body as { response_format?: { json_schema?: { name?: string } } };
        const meaning = body.response_format?.json_schema?.name === 'meaning_verdict';
        const score = meaning ? 0.95 : (scores[calls] ?? 0.9);
        if (!meaning) calls += 1;
        const content = meaning ? `{"difference": "", "score": ${score}}` : `{"rationale": "polite enough", "score": ${score}}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      },
    ]);
    servers.push(server);
    return { url: server.url, criterionCalls: () => calls };
  }

  it.each(['same', 'reword'] as const)(
    'a fail accepted from attempts the judge scored 0.9, 0.2, 0.9 keeps no passing score: the next run calls the judge, and fails as accepted (agent: %s)',
    async (mode) => {
      const agent = await agentServer(() => mode);
      // Run 1: attempt 2 scored under the threshold, so 2 of 3 passed (minPass 3): fail. Run 2: 0.2 for attempt 1 this time.
      const judge = await flakyJudge([0.9, 0.2, 0.9, 0.2, 0.9, 0.9]);
      const cwd = await project(agent.url, judge.url, { fixtures: '', script: POLITE });
      const first = (await ran(cwd)).personas[0] as PersonaRecord;
      expect(first.verdict).toBe('fail');
      expect(first.attempts?.map((a) => a.verdict)).toEqual(['pass', 'fail', 'pass']);
      const plan = planAcceptance({ fixtures: [], personas: [first], commit: null }, new Map(), { only: null, acceptedAt: '2026-01-01T00:00:00.000Z' });
      await writeBaselines(join(cwd, '.agent-replay', 'baselines'), plan.accepted);
      const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'polite-dialog.json'), 'utf8')) as { verdict: string; judge?: unknown };
      expect(stored.verdict).toBe('fail');
      // Attempt 1's pass is not what the script's verdict says: kept, it would pass every attempt that replies attempt 1's transcript again.
      expect(stored.judge).toBeUndefined();
      const record = await ran(cwd);
      const again = record.personas[0] as PersonaRecord;
      expect(judge.criterionCalls()).toBe(6);
      expect(again.attempts?.flatMap((a) => a.checks.filter((c) => c.kind === 'criterion' && c.reused != null))).toEqual([]);
      expect(again.verdict).toBe('fail');
      expect(again.repeat).toMatchObject({ passed: 2, count: 3 });
    },
  );
});

describe('the meaning judge from untrusted code', () => {
  it("a fork's config.yml may not send the judge's key to a meaning address of its choosing; nothing is asked", async () => {
    const agent = await agentServer(() => 'reword');
    const thief = await judgeServer();
    const cwd = await project(agent.url, thief.url);
    // The judge is the provider's own API; meaning: moves only the address, keeping the judge's key.
    await writeFile(
      join(cwd, '.agent-replay', 'config.yml'),
      `agent:\n  url: ${agent.url}\njudge: { provider: openai, model: j, apiKey: "\${JUDGE_KEY}" }\nmeaning: { baseUrl: "${thief.url}" }\n`,
    );
    const result = await runCheck({ ...options(cwd), env: { JUDGE_KEY: 'judge-key-0123456789' }, untrustedSuite: 'the head of #12, from a fork' }, { clock });
    expect(result.kind).toBe('config_errors');
    if (result.kind !== 'config_errors') return;
    expect(result.errors.map((e) => e.message)).toEqual([
      `meaning.baseUrl in this commit's config.yml is ${new URL(thief.url).origin}, but the commit is the head of #12, from a fork: its config.yml may not choose where the meaning judge's key is sent (only to https://api.openai.com/v1, the openai API)`,
    ]);
    // Said at meaning.baseUrl (line 4: `meaning: { baseUrl: "..." }`).
    expect(result.errors.map((e) => [e.file, e.line, e.column])).toEqual([['.agent-replay/config.yml', 4, 21]]);
    expect(thief.received).toHaveLength(0);
    expect(agent.requests).toHaveLength(0);
    // From trusted code the same config.yml runs, and the meaning judge is asked at that address.
    await acceptWordingZero(cwd, ['refund']);
    const trusted = await runCheck({ ...options(cwd), env: { JUDGE_KEY: 'judge-key-0123456789' } }, { clock });
    expect(trusted.kind).toBe('ran');
    expect(thief.meaningCalls.length).toBeGreaterThan(0);
  });
});
