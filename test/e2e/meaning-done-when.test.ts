// Meaning, not bytes, end to end (docs/meaning.md): the whole story through the real CLI (`run`,
// `accept`), with real loopback servers on 127.0.0.1 and real files.
//   - an agent that words every reply in one of three ways with the same facts: the wording of each
//     item is a seeded choice, and the seed changes from run to run (as a hosted model's does);
//   - a judge server that answers the meaning judge by a rule coded here (a reply that says "not"
//     where its baseline does not is changed in meaning; anything else means the same) and counts
//     the meaning calls, by the new reply asked about;
//   - a simulator server that counts its calls.
// Set-up is shared: the suite (100 fixtures, one of them repeated 3 times, and 10 persona scripts,
// 2 of them simulated users) is run once and accepted, then run again with another seed.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComment } from '../../src/report/markdown.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';
import type { RunRecord } from '../../src/types.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import { startSimulatorServer, type SimulatorServer } from '../simulator/server.js';
import { cli, readResults, type CliRun } from '../cli/helpers.js';

// ---------------------------------------------------------------------------------------------
// The rewording agent

/** FNV-1a over a string: a seeded, stable choice without Math.random. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Three wordings of the answer to `message`, with the same facts (the message's own and "30 days"). */
function wordings(message: string): [string, string, string] {
  return [
    `About ${message}: refunds are accepted within 30 days.`,
    `For ${message}, you can return it within 30 days for a full refund.`,
    `Within 30 days, ${message} can be sent back for your money.`,
  ];
}

/** Which wording the agent picks for `message` in the run seeded `seed`. */
const pick = (seed: number, message: string): number => hash(`${seed}:${message}`) % 3;

const REPEATED = 'question 100';
const FIXTURE_MESSAGES = Array.from({ length: 100 }, (_, i) => `question ${i + 1}`);
const SCRIPTED = Array.from({ length: 8 }, (_, i) => ({ label: `script-${i + 1}`, messages: [`script ${i + 1} opening`, `script ${i + 1} follow-up`] }));
const SIMULATED = [9, 10].map((i) => ({ label: `script-${i}`, opening: `script ${i} opening`, simulated: `script ${i} order 12${i}` }));

interface AgentState {
  seed: number;
  /** message -> the reply sent instead of any wording. */
  overrides: Map<string, string>;
}

function rewordingAgent(state: AgentState): (req: { json: unknown }) => { json: unknown } {
  return (req) => {
    const body = (req.json ?? {}) as { start?: boolean; message?: string; session?: string };
    const route = { conversation: 'shop', stage: 'answer' };
    if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
    const message = String(body.message);
    const words = wordings(message);
    // The repeated item: attempt n (its session ends in -n) always gets wording n - 1, in every run.
    const attempt = Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '1');
    const reply = state.overrides.get(message) ?? (message === REPEATED ? words[(attempt - 1) % 3] : words[pick(state.seed, message)]);
    return { json: { reply, route, offTrack: [], ended: false } };
  };
}

// ---------------------------------------------------------------------------------------------
// The judge: the meaning judge's rule, and its calls counted

interface JudgeServer extends TestServer {
  /** The new reply of every meaning call, in order. */
  meaningCalls: string[];
}

/** The text between the boundary lines of the meaning prompt (src/judge/meaning-prompt.ts). */
function quoted(text: string, name: string): string {
  return new RegExp(`^<<<(\\S+) ${name}\\n([\\s\\S]*?)\\n>>>\\1 ${name}$`, 'm').exec(text)?.[2] ?? '';
}

async function judgeServer(): Promise<JudgeServer> {
  const meaningCalls: string[] = [];
  const server = await startServer([
    (res, req: Received) => {
      const body = req.body as { messages: { content: string }[]; response_format?: { json_schema?: { name?: string } } };
      const text = body.messages.map((m) => m.content).join('\n');
      let content = '{"rationale": "fine", "score": 0.9}';
      if (body.response_format?.json_schema?.name === 'meaning_verdict') {
        const baseline = quoted(text, 'BASELINE REPLY');
        const now = quoted(text, 'NEW REPLY');
        meaningCalls.push(now);
        const negated = /\bnot\b/.test(now) && !/\bnot\b/.test(baseline);
        content = JSON.stringify(negated ? { difference: 'the new reply says refunds are not accepted', score: 0.1 } : { difference: '', score: 0.95 });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    },
  ]);
  return Object.assign(server, { meaningCalls });
}

// ---------------------------------------------------------------------------------------------
// The suite

function fixturesYaml(): string {
  const lines = FIXTURE_MESSAGES.map((m, i) =>
    m === REPEATED
      ? `  - { label: repeated, message: "${m}", assert: { contains: "days" }, repeat: { count: 3 } }`
      : `  - { label: item-${i + 1}, message: "${m}", assert: { contains: "days" } }`,
  );
  return `fixtures:\n${lines.join('\n')}\n`;
}

function personasYaml(): string {
  const scripted = SCRIPTED.map((s) => `  - label: ${s.label}\n    opening: "${s.messages[0]}"\n    followUps: [ "${s.messages[1]}" ]\n    expect: { conversations: [ shop ] }`);
  const simulated = SIMULATED.map((s) => `  - label: ${s.label}\n    opening: "${s.opening}"\n    user: { goal: "Get a refund", maxTurns: 4 }\n    expect: { conversations: [ shop ] }`);
  return `personas:\n${[...scripted, ...simulated].join('\n')}\n`;
}

const FAIL_ON = 'newly_failing,meaning_changed';

interface Run {
  cli: CliRun;
  record: RunRecord;
  markdown: string;
  comment: string;
}

describe('meaning, not bytes: an agent that rewords every reply (docs/meaning.md)', () => {
  const state: AgentState = { seed: 1, overrides: new Map() };
  let agent: AgentServer;
  let judge: JudgeServer;
  let simulator: SimulatorServer;
  let cwd: string;
  let first: Run;
  let second: Run;
  let acceptFirst: CliRun;
  /** Meaning calls and simulator calls before the second run. */
  let before: { meaning: number; simulator: number };
  let n = 0;

  async function run(args: string[] = []): Promise<Run> {
    n++;
    const r = await cli(['run', '--out', `r${n}.json`, '--markdown', `r${n}.md`, '--fail-on', FAIL_ON, ...args], cwd);
    const record = await readResults(join(cwd, `r${n}.json`));
    return { cli: r, record, markdown: await readFile(join(cwd, `r${n}.md`), 'utf8'), comment: renderComment(record, DEFAULT_CONTEXT) };
  }

  beforeAll(async () => {
    agent = await startAgentServer(rewordingAgent(state));
    judge = await judgeServer();
    simulator = await startSimulatorServer((ask) => {
      const script = SIMULATED.find((s) => ask.text.includes(s.opening));
      return ask.turn === 2 && script ? { message: script.simulated } : { done: true, reason: 'refund promised' };
    });
    cwd = await mkdtemp(join(tmpdir(), 'agent-replay-meaning-e2e-'));
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await mkdir(join(dir, 'personas'), { recursive: true });
    await writeFile(
      join(dir, 'config.yml'),
      `agent:\n  url: ${agent.url}\n  retries: 0\n  backoffMs: 0\n  concurrency: 8\n` +
        `judge: { provider: openai, baseUrl: "${judge.url}", model: judge-model, apiKey: k, retries: 0, backoffMs: 0 }\n` +
        `simulator: { baseUrl: "${simulator.url}", model: sim-model }\n` +
        `cost: { capUsd: 100 }\n` +
        // What this test reads is meaning, not speed: a turn slowed by a loaded machine (18 ms -> 495 ms
        // in a full run on 2 busy cores) must not move an item to Changed as slower (docs/latency.md).
        `latency: { minDeltaMs: 600000 }\n`,
    );
    await writeFile(join(dir, 'fixtures', 'faq.yml'), fixturesYaml());
    await writeFile(join(dir, 'personas', 'scripts.yml'), personasYaml());

    state.seed = 1;
    first = await run();
    acceptFirst = await cli(['accept', '--results', 'r1.json'], cwd);
    before = { meaning: judge.meaningCalls.length, simulator: simulator.asks.length };
    state.seed = 2;
    second = await run();
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    await judge?.close();
    await simulator?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  /** Items whose wording the seed moved between run 1 and run 2 (a script: either of its turns). */
  function moved(): string[] {
    const fixtures = FIXTURE_MESSAGES.flatMap((m, i) => (m !== REPEATED && pick(1, m) !== pick(2, m) ? [`item-${i + 1}`] : []));
    const scripts = [
      ...SCRIPTED.filter((s) => s.messages.some((m) => pick(1, m) !== pick(2, m))).map((s) => s.label),
      ...SIMULATED.filter((s) => [s.opening, s.simulated].some((m) => pick(1, m) !== pick(2, m))).map((s) => s.label),
    ];
    return [...fixtures, ...scripts];
  }

  it('the first run is accepted whole: every item new, stored as baselines', () => {
    expect(first.cli.code, first.cli.stderr).toBe(0);
    expect(first.record.fixtures).toHaveLength(100);
    expect(first.record.personas).toHaveLength(10);
    expect(acceptFirst.code, acceptFirst.stderr).toBe(0);
    expect(acceptFirst.stdout).toContain('110 accepted, 0 refused');
  });

  it('the accepted suite replays reworded: nothing under Changed, one collapsed Reworded line per item, the gate green', () => {
    const reworded = moved();
    // The seeds move most items, and leave some: both sections are exercised.
    expect(reworded.length).toBeGreaterThan(50);
    expect(reworded.length).toBeLessThan(110);
    expect(second.cli.code, second.cli.stderr).toBe(0);
    expect(second.cli.stderr).not.toContain('gate failed');

    for (const item of [...second.record.fixtures, ...second.record.personas]) {
      const m = item.drift?.meaning ?? null;
      if (reworded.includes(item.label)) expect([item.label, m?.value, m?.by]).toEqual([item.label, 'reworded', 'judge']);
      else expect([item.label, m]).toEqual([item.label, null]);
    }

    for (const md of [second.markdown, second.comment]) {
      expect(md).toContain(`### ✅ No new failures: ${reworded.length} reworded · ${110 - reworded.length} unchanged`);
      expect(md).not.toContain('Changed (');
      expect(md).toContain(`#### 💬 Reworded (${reworded.length})`);
      expect(md).not.toContain('changed in meaning');
    }
    // The job summary's content (the markdown report) gives every reworded item one collapsed line.
    const lines = second.markdown.split('\n').filter((l) => l.startsWith('<details><summary>') && l.includes('· judge 0.95 ·'));
    expect(lines).toHaveLength(reworded.length);
    for (const label of reworded) expect(lines.filter((l) => l.includes(`<b>${label}</b>`))).toHaveLength(1);
    // The comment collapses them into one block too, and names every one of them that fits.
    expect(second.comment).toMatch(new RegExp(`<details><summary>${reworded.length} reworded items`));
    // Nothing needs accepting: the call to accept counts the reworded items apart.
    expect(second.comment).toContain(`**Nothing needs accepting**: the ${reworded.length} reworded items mean the same as their baselines.`);
  });

  it('a reply that changes one number is under Changed as "changed in meaning: numbers 30 → 14", with no model call', async () => {
    state.overrides.set('question 7', 'About question 7: refunds are accepted within 14 days.');
    const calls = judge.meaningCalls.length;
    try {
      const r = await run(['--only', 'item-7']);
      expect(r.record.fixtures.map((f) => [f.label, f.drift?.meaning?.value, f.drift?.meaning?.by, f.drift?.meaning?.detail])).toEqual([['item-7', 'changed', 'facts', 'numbers 30 → 14']]);
      expect(judge.meaningCalls.length).toBe(calls);
      expect(r.record.spend).toMatchObject({ meaningCalls: 0, meaningAvoided: 1 });
      expect(r.comment).toContain('#### 🟡 Changed (1)');
      expect(r.comment).toMatch(/<b>item-7<\/b> · pass · still passing · reply changed · changed in meaning: numbers 30 → 14 ·/);
      // fail-on meaning_changed is met.
      expect(r.cli.code).toBe(1);
      expect(r.cli.stderr).toContain('changed in meaning');
    } finally {
      state.overrides.clear();
    }
  });

  it('a change of meaning without numbers (a negation) is found by the meaning judge', async () => {
    state.overrides.set('question 8', 'About question 8: refunds are not accepted within 30 days.');
    const calls = judge.meaningCalls.length;
    try {
      const r = await run(['--only', 'item-8']);
      expect(r.record.fixtures[0]?.drift?.meaning).toEqual({ value: 'changed', by: 'judge', detail: 'the new reply says refunds are not accepted', score: 0.1, reused: false });
      expect(judge.meaningCalls.slice(calls)).toEqual(['About question 8: refunds are not accepted within 30 days.']);
      expect(r.comment).toContain('#### 🟡 Changed (1)');
      expect(r.comment).toContain('changed in meaning: the new reply says refunds are not accepted');
      expect(r.cli.code).toBe(1);
    } finally {
      state.overrides.clear();
    }
  });

  it('an amount worded "£3" on one run and "3 pounds" on the next is reworded, not changed, and the accepted wordings stay quiet', async () => {
    // docs/meaning.md, "Facts": "3 pounds" may be GBP 3. Before, it was the number 3, so the second
    // run was changed by the facts and each acceptance cleared the other wording.
    const sign = 'About question 9: refunds are accepted within 30 days, for a fee of \u00a33.';
    const words = 'About question 9: refunds are accepted within 30 days, for a fee of 3 pounds.';
    try {
      state.overrides.set('question 9', sign);
      await run(['--only', 'item-9']);
      expect((await cli(['accept', '--results', `r${n}.json`], cwd)).code).toBe(0);
      state.overrides.set('question 9', words);
      const r = await run(['--only', 'item-9']);
      expect(r.record.fixtures.map((f) => [f.label, f.drift?.meaning?.value, f.drift?.meaning?.by])).toEqual([['item-9', 'reworded', 'judge']]);
      expect(judge.meaningCalls.at(-1)).toBe(words);
      expect(r.cli.code, r.cli.stderr).toBe(0);
      expect(r.comment).toContain('#### 💬 Reworded (1)');
      expect(r.comment).not.toContain('Changed (');
      expect(r.comment).not.toContain('changed in meaning');
      // Accepted, the reworded reply keeps the other wording as a variant: the next run's "£3" is quiet.
      expect((await cli(['accept', '--results', `r${n}.json`], cwd)).code).toBe(0);
      const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'item-9.json'), 'utf8')) as Record<string, unknown>;
      expect(stored).toMatchObject({ reply: words, variants: [sign] });
      state.overrides.set('question 9', sign);
      const back = await run(['--only', 'item-9']);
      expect(back.record.fixtures.map((f) => [f.label, f.drift?.meaning?.value, f.drift?.meaning?.by])).toEqual([['item-9', 'variant', 'variant']]);
    } finally {
      state.overrides.clear();
    }
  });

  it('an accepted simulated user replayed against the rewording agent makes zero simulator calls', () => {
    // The first run simulated both users live; the second replayed their stored messages.
    expect(first.record.spend?.simulatorCalls).toBe(4);
    expect(simulator.asks.length).toBe(before.simulator);
    expect(second.record.spend?.simulatorCalls).toBe(0);
    for (const s of SIMULATED) {
      const p = second.record.personas.find((x) => x.label === s.label);
      expect(p?.simulation).toMatchObject({ liveFromTurn: null, calls: 0 });
      expect(p?.turns.map((t) => t.message)).toEqual([null, s.opening, s.simulated]);
    }
    // At least one of them was reworded (else the case would prove nothing).
    expect(SIMULATED.some((s) => moved().includes(s.label))).toBe(true);
  });

  it('a repeat of 3 reworded attempts is accepted with two variants, and the next run\'s identical wording makes no meaning call', async () => {
    const [w0, w1, w2] = wordings(REPEATED);
    const attempts = first.record.fixtures.find((f) => f.label === 'repeated')?.attempts ?? [];
    expect(attempts.map((a) => [a.reply, a.meaning?.value ?? null])).toEqual([
      [w0, null],
      [w1, 'reworded'],
      [w2, 'reworded'],
    ]);
    expect(acceptFirst.stdout).toMatch(/accepted {2}repeated \(pass\)/);
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'repeated.json'), 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ reply: w0, variants: [w1, w2] });

    // The second run: the same three wordings. Attempt 1 is the baseline reply; attempts 2 and 3 are
    // its accepted variants, so nothing asks the meaning judge about them.
    const again = second.record.fixtures.find((f) => f.label === 'repeated');
    expect(again?.attempts?.map((a) => [a.reply, a.meaning?.value ?? null, a.meaning?.by ?? null])).toEqual([
      [w0, null, null],
      [w1, 'variant', 'variant'],
      [w2, 'variant', 'variant'],
    ]);
    expect(judge.meaningCalls.slice(before.meaning).filter((c) => c.includes(REPEATED))).toEqual([]);
    expect(second.comment).not.toContain('<b>repeated</b>');
  });
});
