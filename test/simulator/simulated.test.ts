// Simulated users end to end through the engine (docs/personas.md, "Simulated users"): a real
// loopback agent (native protocol, with a welcome turn) and a real loopback simulator
// (test/simulator/server.ts) that answers from what it is sent and records every call. A baseline
// is accepted with the product's own acceptance rule and written with its own serializer.

import { mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer as createNet, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import { runCheck, type CheckOptions } from '../../src/engine.js';
import { decidePersonaAcceptance } from '../../src/evaluate/personas.js';
import { changesOf } from '../../src/evaluate/changes.js';
import { groupCauses } from '../../src/evaluate/causes.js';
import { renderTerminal } from '../../src/report/index.js';
import { personaData } from '../../src/report/html/data.js';
import { serializePersonaBaseline } from '../../src/suite/index.js';
import type { Clock, PersonaRecord, RunRecord } from '../../src/types.js';
import { startAgentServer, type AgentServer, type ReceivedRequest } from '../support/agent-server.js';
import { json, startServer } from '../judge/server.js';
import { completion, playUntil, startSimulatorServer, type Play, type SimulatorServer } from './server.js';

const { servers, dirs } = closedAfterEach();

/** No real waits between retries. */
const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };

/** How the loopback agent behaves; tests change it between runs. */
interface AgentBehaviour {
  /** The reply of this message turn differs from the usual one. */
  changedAt?: number;
  /** The reply of this message turn says the same in other words (the same numbers). */
  rewordedAt?: number;
  /** The agent ends the conversation at this message turn. */
  endAt?: number;
  /** This message turn is answered HTTP 500. */
  failAt?: number;
  /** Appended to every reply (a secret the agent leaks). */
  leak?: string;
}

async function agentServer(behaviour: AgentBehaviour): Promise<AgentServer> {
  const turns = new Map<string, number>();
  const agent = await startAgentServer((req: ReceivedRequest) => {
    const body = (req.json ?? {}) as { session: string; message?: string; start?: boolean };
    if (body.start === true) return { json: { reply: 'Welcome to the shop!', route: { conversation: 'welcome', stage: 'hello' }, ended: false } };
    const n = (turns.get(body.session) ?? 0) + 1;
    turns.set(body.session, n);
    if (behaviour.failAt === n) return { status: 500, body: 'boom' };
    const usual = `reply ${n} to: ${String(body.message)}${behaviour.leak ?? ''}`;
    const reply = behaviour.changedAt === n ? `reply ${n}, said differently` : behaviour.rewordedAt === n ? `in other words, ${usual}` : usual;
    return { json: { reply, route: { conversation: 'refunds', stage: `s${n}` }, ended: behaviour.endAt === n } };
  });
  servers.push(agent);
  return agent;
}

async function simulatorServer(play: Play): Promise<SimulatorServer> {
  const s = await startSimulatorServer(play);
  servers.push(s);
  return s;
}

const SCRIPT = (extra = ''): string => `label: refund-sim
opening: I want my money back
user:
  goal: Get a refund for order 1234
  instructions: Be brief.
  maxTurns: 4
expect: { conversations: [refunds] }
${extra}`;

async function project(agentUrl: string, simulatorUrl: string, opts: { config?: string; script?: string; scripts?: Record<string, string> } = {}): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-sim-'));
  dirs.push(cwd);
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'personas'), { recursive: true });
  await mkdir(join(dir, 'baselines'), { recursive: true });
  await writeFile(
    join(dir, 'config.yml'),
    `agent:\n  url: ${agentUrl}\n  retries: 0\n  backoffMs: 1\n  concurrency: 1\nsimulator: { baseUrl: "${simulatorUrl}", model: sim-model }\ncost: { capUsd: 5 }\n${opts.config ?? ''}`,
  );
  for (const [name, text] of Object.entries(opts.scripts ?? { 'p.yml': opts.script ?? SCRIPT() })) await writeFile(join(dir, 'personas', name), text);
  return cwd;
}

function options(cwd: string, env: Record<string, string> = {}): CheckOptions {
  return { dir: '.agent-replay', cwd, env, confirmCost: false, failOn: ['newly_failing'], commit: null };
}

async function ran(cwd: string, env: Record<string, string> = {}): Promise<RunRecord> {
  const result = await runCheck(options(cwd, env), { clock });
  if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}: ${JSON.stringify(result.kind === 'config_errors' ? result.errors : result.estimate)}`);
  return result.record;
}

/** Accepts the script's record as a maintainer would, and writes its baseline file. */
async function accept(cwd: string, record: PersonaRecord): Promise<string> {
  const decision = decidePersonaAcceptance(record, '2026-01-01T00:00:00.000Z', 'abc123');
  if (decision.kind !== 'accept') throw new Error(`not accepted: ${JSON.stringify(decision)}`);
  const file = join(cwd, '.agent-replay', 'baselines', `${record.label}.json`);
  await writeFile(file, serializePersonaBaseline(decision.baseline));
  return file;
}

function only(record: RunRecord): PersonaRecord {
  expect(record.personas).toHaveLength(1);
  return record.personas[0] as PersonaRecord;
}

const sources = (p: PersonaRecord): (string | undefined)[] => p.turns.filter((t) => t.index > 0).map((t) => t.source);

describe('simulated users: live, accepted, replayed', () => {
  it('with no baseline every message after the scripted opening is simulated live, until the simulator is done', async () => {
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(3));
    const record = await ran(await project(agent.url, sim.url));
    const p = only(record);
    expect(p.errored).toBe(false);
    expect(p.verdict).toBe('pass');
    expect(p.drift?.verdict).toBe('no_baseline');
    expect(p.turns.map((t) => [t.index, t.message])).toEqual([
      [0, null],
      [1, 'I want my money back'],
      [2, 'Get a refund for order 1234 - message 2'],
      [3, 'Get a refund for order 1234 - message 3'],
    ]);
    expect(sources(p)).toEqual(['script', 'simulator', 'simulator']);
    expect(p.turns[0]?.source).toBeUndefined();
    // Asked for turns 2, 3 and 4; at turn 4 it was done.
    expect(sim.asks.map((a) => a.turn)).toEqual([2, 3, 4]);
    expect(sim.asks.every((a) => a.schema === 'simulated_user' && a.maxTurns === 4 && a.text.includes('Be brief.'))).toBe(true);
    expect(p.simulation).toEqual({ goal: 'Get a refund for order 1234', instructions: 'Be brief.', liveFromTurn: 2, endedBy: 'simulator', doneReason: 'goal reached after 3 turns', calls: 3, retries: 0, fault: null });
    expect(record.spend).toMatchObject({ agentTurns: 4, simulatorCalls: 3, simulatorRetries: 0, baselineTurns: 0 });
    expect(record.simulator).toEqual({ name: 'openai sim-model', structured: true });
    // The estimate: welcome + 4 agent turns at 0.01, 3 simulator calls at 0.005 (turns 2 to 4: the opening is the script's).
    expect(record.estimate.usd).toBe(0.065);
  });

  it('accepted, then replayed against the unchanged agent: zero simulator calls, the same transcript, ended where the baseline ended', async () => {
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url);
    const first = only(await ran(cwd));
    const file = await accept(cwd, first);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { transcript: { source?: string }[]; simulation: unknown };
    expect(stored.transcript.map((t) => t.source)).toEqual([undefined, 'script', 'simulator', 'simulator']);
    expect(stored.simulation).toEqual({ doneReason: 'goal reached after 3 turns', goal: 'Get a refund for order 1234', instructions: 'Be brief.', persona: null });
    const callsBefore = sim.asks.length;

    const record = await ran(cwd);
    const p = only(record);
    expect(sim.asks.length).toBe(callsBefore);
    expect(p.drift).toEqual({ transcript: 'same', route: 'same', verdict: 'still_passing' });
    expect(p.turns.map((t) => t.message)).toEqual(first.turns.map((t) => t.message));
    expect(sources(p)).toEqual(['script', 'baseline', 'baseline']);
    expect(p.simulation).toMatchObject({ liveFromTurn: null, endedBy: 'simulator', doneReason: 'goal reached after 3 turns', calls: 0 });
    expect(record.spend).toMatchObject({ simulatorCalls: 0, baselineTurns: 2 });
    // Accepting the replay again changes nothing: the sources stay those of who wrote the messages.
    expect(decidePersonaAcceptance(p, 'later', 'def456').kind).toBe('unchanged');
  });

  it('a reply changed at turn 2: turns 1-2 from the script and the baseline, the simulator writes turn 3 onwards', async () => {
    const behaviour: AgentBehaviour = {};
    const agent = await agentServer(behaviour);
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url);
    await accept(cwd, only(await ran(cwd)));
    sim.asks.length = 0;
    behaviour.changedAt = 2;

    const record = await ran(cwd);
    const p = only(record);
    expect(sources(p)).toEqual(['script', 'baseline', 'simulator']);
    expect(sim.asks.map((a) => a.turn)).toEqual([3, 4]);
    // The simulator read the changed reply of turn 2.
    expect(sim.asks[0]?.text).toContain('reply 2, said differently');
    expect(p.simulation).toMatchObject({ liveFromTurn: 3, endedBy: 'simulator', calls: 2 });
    expect(p.drift?.transcript).toBe('different');
    expect(record.spend).toMatchObject({ simulatorCalls: 2, baselineTurns: 1 });
  });

  it('the goal or the instructions edited after acceptance: the stored messages were written for the old ones, so the simulator writes them again', async () => {
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url);
    const file = await accept(cwd, only(await ran(cwd)));
    const stored = JSON.parse(await readFile(file, 'utf8')) as { simulation: unknown };
    // The baseline keeps what the messages were written for.
    expect(stored.simulation).toEqual({ doneReason: 'goal reached after 3 turns', goal: 'Get a refund for order 1234', instructions: 'Be brief.', persona: null });

    const edits: [string, string, string][] = [
      ['the goal', 'goal: Get a refund for order 1234', 'goal: Ask when order 5678 ships'],
      ['the instructions', 'instructions: Be brief.', 'instructions: Be verbose.'],
    ];
    for (const [what, from, to] of edits) {
      await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), SCRIPT().replace(from, to));
      sim.asks.length = 0;
      const record = await ran(cwd);
      const p = only(record);
      // The agent is unchanged, yet nothing stored is replayed: the user is simulated from turn 2 (1 is the scripted opening).
      expect(sources(p), what).toEqual(['script', 'simulator', 'simulator']);
      expect(sim.asks.map((a) => a.turn), what).toEqual([2, 3, 4]);
      expect(p.simulation, what).toMatchObject({ liveFromTurn: 2, calls: 3 });
      expect(record.spend, what).toMatchObject({ simulatorCalls: 3, baselineTurns: 0 });
      // Changed, whatever the replies: the baseline is another script's, and accepting this run stops the simulator calls.
      expect(p.drift?.transcript, what).toBe('different');
      expect(decidePersonaAcceptance(p, 'later', 'def456').kind, what).toBe('accept');
    }
    // The simulator wrote the same messages for the new instructions, so every reply is the same: the change is named.
    expect(only(await ran(cwd)).drift?.meaning).toEqual({ value: 'changed', by: 'turns', detail: 'user simulated afresh: the instructions changed since the baseline' });
    // The simulator was given the edited script: the last edit's instructions.
    expect(sim.asks[0]?.text).toContain('Be verbose.');

    // The opening removed: the baseline's scripted opening is not the script's any more, so it is not sent; the simulator writes message 1.
    await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), SCRIPT().replace('opening: I want my money back\n', ''));
    sim.asks.length = 0;
    const unopened = only(await ran(cwd));
    expect(unopened.turns.filter((t) => t.index > 0).map((t) => [t.message, t.source])).toEqual([
      ['Get a refund for order 1234 - message 1', 'simulator'],
      ['Get a refund for order 1234 - message 2', 'simulator'],
      ['Get a refund for order 1234 - message 3', 'simulator'],
    ]);
    expect(sim.asks.map((a) => a.turn)).toEqual([1, 2, 3, 4]);

    // A baseline accepted before the goal was kept does not say what its messages were written for: replayed as before.
    await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), SCRIPT());
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), simulation: { doneReason: 'goal reached after 3 turns' } }));
    sim.asks.length = 0;
    const old = only(await ran(cwd));
    expect(sources(old)).toEqual(['script', 'baseline', 'baseline']);
    expect(sim.asks).toHaveLength(0);
    // Unchanged, and nothing to accept: the goal is added only when acceptance rewrites the baseline for a change.
    expect(old.drift).toEqual({ transcript: 'same', route: 'same', verdict: 'still_passing' });
    expect(decidePersonaAcceptance(old, 'later', 'def456').kind).toBe('unchanged');
  });

  it('the persona edited after acceptance: the simulator is shown it, so the stored messages are another user\'s and it writes them again', async () => {
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(3));
    const withPersona = (persona: string): string => SCRIPT().replace('label: refund-sim\n', `label: refund-sim\npersona: ${persona}\n`);
    const cwd = await project(agent.url, sim.url, { script: withPersona('patient-regular') });
    const file = await accept(cwd, only(await ran(cwd)));
    // The baseline keeps the persona its messages were written for.
    expect((JSON.parse(await readFile(file, 'utf8')) as { simulation: unknown }).simulation).toEqual({ doneReason: 'goal reached after 3 turns', goal: 'Get a refund for order 1234', instructions: 'Be brief.', persona: 'patient-regular' });
    sim.asks.length = 0;
    expect(sources(only(await ran(cwd)))).toEqual(['script', 'baseline', 'baseline']);
    expect(sim.asks).toHaveLength(0);

    await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), withPersona('impatient-refund-seeker'));
    const record = await ran(cwd);
    const p = only(record);
    expect(sources(p)).toEqual(['script', 'simulator', 'simulator']);
    expect(sim.asks.map((a) => a.turn)).toEqual([2, 3, 4]);
    expect(sim.asks[0]?.text).toContain('impatient-refund-seeker');
    expect(p.drift?.transcript).toBe('different');
    expect(p.drift?.meaning).toEqual({ value: 'changed', by: 'turns', detail: 'user simulated afresh: the persona changed since the baseline' });
    const decision = decidePersonaAcceptance(p, 'later', 'def456');
    expect(decision.kind).toBe('accept');
    if (decision.kind === 'accept') expect(decision.baseline.simulation?.persona).toBe('impatient-refund-seeker');

    // A baseline accepted before the persona was kept does not say it: replayed as before, and not rewritten only to add it.
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), simulation: { doneReason: 'goal reached after 3 turns', goal: 'Get a refund for order 1234', instructions: 'Be brief.' } }));
    sim.asks.length = 0;
    const old = only(await ran(cwd));
    expect(sources(old)).toEqual(['script', 'baseline', 'baseline']);
    expect(sim.asks).toHaveLength(0);
    expect(decidePersonaAcceptance(old, 'later', 'def456').kind).toBe('unchanged');
  });

  it('the same replies, but the conversation ended another way than the baseline: changed, not unchanged, and acceptance agrees', async () => {
    const behaviour: AgentBehaviour = { endAt: 3 };
    const agent = await agentServer(behaviour);
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url);
    // Accepted: the agent ended the conversation on turn 3.
    await accept(cwd, only(await ran(cwd)));

    // The agent no longer ends it: the stored messages are replayed, then the simulator is asked for turn 4 and is done.
    behaviour.endAt = undefined;
    sim.asks.length = 0;
    const open = only(await ran(cwd));
    expect(sim.asks.map((a) => a.turn)).toEqual([4]);
    expect(open.simulation).toMatchObject({ liveFromTurn: null, endedBy: 'simulator', calls: 1 });
    expect(open.turns.map((t) => t.reply)).toEqual(open.baseline?.transcript.map((t) => t.reply));
    expect(open.drift).toMatchObject({ transcript: 'different', verdict: 'still_passing' });
    expect(open.drift?.meaning).toEqual({ value: 'changed', by: 'turns', detail: "ended by the simulated user, where the baseline's conversation ended without it" });
    expect(changesOf(open).map((c) => c.words)).toContain('transcript changed');
    expect(decidePersonaAcceptance(open, 'later', 'def456').kind).toBe('accept');

    // Accepted so (the simulated user was done); now the agent ends it on turn 3 again, before the simulated user is asked.
    await accept(cwd, open);
    behaviour.endAt = 3;
    sim.asks.length = 0;
    const closed = only(await ran(cwd));
    expect(sim.asks).toHaveLength(0);
    expect(closed.simulation).toMatchObject({ endedBy: 'agent', calls: 0 });
    expect(closed.drift).toMatchObject({ transcript: 'different', meaning: { value: 'changed', by: 'turns', detail: "ended by the agent, where the baseline's conversation ended by the simulated user" } });

    // Replayed again against the agent it was accepted from: the same ending, unchanged, no call.
    behaviour.endAt = undefined;
    const same = only(await ran(cwd));
    expect(same.drift).toEqual({ transcript: 'same', route: 'same', verdict: 'still_passing' });
    expect(sim.asks).toHaveLength(0);
  });

  it("a reply whose meaning the judge could not decide hands over to the simulator: a conversation shortened by it (a fault) or written otherwise is not a change in meaning by its number of turns, the doubt is named", async () => {
    const behaviour: AgentBehaviour = {};
    const agent = await agentServer(behaviour);
    let fault = false;
    const sim = await simulatorServer((ask) => (fault ? { content: 'I would rather chat about the weather.' } : ask.userTurns >= 3 ? { done: true, reason: 'done' } : { message: `${ask.goal} - message ${ask.turn}` }));
    // A meaning judge that answers with no score: every differing reply's meaning is not checked.
    const judge = await startServer([completion('these look similar, maybe')]);
    servers.push(judge);
    const config = `meaning: { check: judge, provider: openai, baseUrl: "${judge.url}", model: m }\n`;
    const cwd = await project(agent.url, sim.url, { config });
    await accept(cwd, only(await ran(cwd)));
    behaviour.rewordedAt = 2;
    const doubt = { value: 'unchecked', detail: 'turn 2 meaning not checked: meaning judge gave no usable answer: "these look similar, maybe"' };

    // The simulator, asked for turn 3, fails: 3 turns where the baseline has 4, by the simulator's doing.
    fault = true;
    const cut = only(await ran(cwd));
    expect(cut.simulation).toMatchObject({ endedBy: 'simulator_fault', liveFromTurn: null });
    expect(cut.turns.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(cut.drift?.meaning).toMatchObject(doubt);
    // The turn it lacks was never asked of the agent: the routes of the turns it has are the baseline's, so no "routes changed".
    expect(cut.drift?.route).toBe('same');
    expect(changesOf(cut).map((c) => c.words)).not.toContain('routes changed');

    // The simulator writes turn 3 otherwise and goes on to turn 4: 5 turns where the baseline has 4.
    fault = false;
    const longer = await startSimulatorServer((ask) => ({ message: `something else ${ask.turn}` }));
    servers.push(longer);
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), (await readFile(join(cwd, '.agent-replay', 'config.yml'), 'utf8')).replace(sim.url, longer.url));
    const other = only(await ran(cwd));
    expect(other.simulation).toMatchObject({ liveFromTurn: 3, endedBy: 'max_turns' });
    expect(other.turns.map((t) => t.index)).toEqual([0, 1, 2, 3, 4]);
    expect(other.drift?.meaning).toMatchObject(doubt);
  });

  it('the agent ending the conversation ends it; the turn limit ends it without an error (the checks decide)', async () => {
    const ending = await agentServer({ endAt: 2 });
    const sim = await simulatorServer(playUntil(99));
    const ended = only(await ran(await project(ending.url, sim.url)));
    expect(ended.simulation).toMatchObject({ endedBy: 'agent', calls: 1, doneReason: null });
    expect(ended.turns.map((t) => t.index)).toEqual([0, 1, 2]);
    expect(ended.verdict).toBe('pass');

    const agent = await agentServer({});
    const limited = only(await ran(await project(agent.url, sim.url)));
    expect(limited.errored).toBe(false);
    expect(limited.verdict).toBe('pass');
    expect(limited.turns.map((t) => t.index)).toEqual([0, 1, 2, 3, 4]);
    expect(limited.simulation).toMatchObject({ endedBy: 'max_turns', calls: 3, doneReason: null, liveFromTurn: 2 });
  });

  it('with no opening the simulator writes message 1 too', async () => {
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(2));
    const script = 'label: refund-sim\nuser: { goal: Get a refund, maxTurns: 3 }\nexpect: { conversations: [refunds] }\n';
    const p = only(await ran(await project(agent.url, sim.url, { script })));
    expect(sources(p)).toEqual(['simulator', 'simulator']);
    expect(sim.asks[0]?.userTurns).toBe(0);
    expect(p.simulation).toMatchObject({ liveFromTurn: 1, endedBy: 'simulator', calls: 3 });
  });
});

describe('simulated users: faults', () => {
  const cases: { name: string; play: Play; fault: RegExp; requests: number; retries: number }[] = [
    { name: '500s exhausting the retries', play: () => json(500, { error: { message: 'overloaded' } }), fault: /^simulator unreachable: HTTP 500 after 3 attempts: overloaded$/, requests: 3, retries: 2 },
    { name: 'an answer that is not JSON', play: () => ({ content: 'I would rather chat about the weather.' }), fault: /^simulator answered no usable JSON: "I would rather chat about the weather\."$/, requests: 1, retries: 0 },
    { name: 'an empty message', play: () => ({ message: '   ' }), fault: /^simulator wrote an empty message$/, requests: 1, retries: 0 },
  ];
  for (const c of cases) {
    it(`${c.name}: not evaluated (never errored, never failed), the fault in the record and in every check`, async () => {
      const agent = await agentServer({});
      const sim = await simulatorServer(c.play);
      const cwd = await project(agent.url, sim.url, { config: 'judge: { provider: openai, baseUrl: "http://127.0.0.1:9/v1", model: j, retries: 2, backoffMs: 1 }\n' });
      const record = await ran(cwd);
      const p = only(record);
      expect(p.errored).toBe(false);
      expect(p.verdict).toBe('not_evaluated');
      expect(p.drift?.verdict).toBe('no_baseline');
      expect(p.simulation?.fault).toMatch(c.fault);
      expect(p.simulation).toMatchObject({ endedBy: 'simulator_fault', calls: 1, retries: c.retries });
      expect(p.checks.every((k) => k.status === 'not_evaluated' && k.detail === p.simulation?.fault)).toBe(true);
      expect(sim.received).toHaveLength(c.requests);
      expect(record.spend).toMatchObject({ simulatorCalls: 1, simulatorRetries: c.retries });
      expect(record.tallies).toEqual({ passed: 0, failed: 0, notEvaluated: 1, errored: 0 });
    });
  }

  it('a refused connection: not evaluated, "simulator unreachable: connection refused"', async () => {
    const agent = await agentServer({});
    const closed = await startSimulatorServer(playUntil(1));
    const url = closed.url;
    await closed.close();
    const p = only(await ran(await project(agent.url, url)));
    expect(p.errored).toBe(false);
    expect(p.verdict).toBe('not_evaluated');
    expect(p.simulation?.fault).toMatch(/^simulator unreachable: connection refused/);
  });

  // The script's fault line says its fix in the CLI's words on the terminal, as its checks' lines and its cause do.
  it("something other than HTTP at the simulator's port: the terminal's fault line names --judge-url, never the Action's input", async () => {
    const agent = await agentServer({});
    const other = createNet((c) => c.on('data', () => c.end('garbage here\r\n\r\n')));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => other.close(() => resolve())) });
    const record = await ran(await project(agent.url, `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1`));
    expect(only(record).simulation?.fault).toContain('check the port in simulator.baseUrl (else judge-base-url (judge.baseUrl))');
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toContain('    simulator gave no usable answer: the simulator at 127.0.0.1:');
    expect(terminal).toContain('check the port in simulator.baseUrl (else --judge-url (judge.baseUrl)) · ');
    expect(terminal).not.toContain('judge-base-url');
  });

  it('no simulator configured, and the agent diverges from the baseline: not evaluated, "no simulator configured", and the fix is to add one, not to check it', async () => {
    const behaviour: AgentBehaviour = {};
    const agent = await agentServer(behaviour);
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url);
    await accept(cwd, only(await ran(cwd)));
    const config = join(cwd, '.agent-replay', 'config.yml');
    await writeFile(config, (await readFile(config, 'utf8')).replace(/^simulator: .*\n/m, ''));
    behaviour.changedAt = 2;
    sim.asks.length = 0;
    const record = await ran(cwd);
    const p = only(record);
    expect(sim.asks).toHaveLength(0);
    expect(p.verdict).toBe('not_evaluated');
    expect(p.simulation?.fault).toBe('no simulator configured (set simulator: or judge: in config.yml)');
    const [cause] = groupCauses(record.personas, null);
    expect(cause).toMatchObject({ key: 'simulator:none', what: 'no simulator configured' });
    expect(cause?.hint).toMatch(/^add a simulator section to config\.yml, or a judge section \(the simulator then takes the judge's model\)/);
    // A record written before said "simulator unreachable: no simulator is configured (...)": the same cause.
    const old = { ...p, checks: p.checks.map((c) => ({ ...c, detail: 'simulator unreachable: no simulator is configured (set simulator: or judge: in config.yml)' })) };
    expect(groupCauses([old], null)[0]?.key).toBe('simulator:none');
    // A suite whose file is config.yaml: the fault results.json keeps names it, beside the cause's fix that does.
    await rename(config, join(cwd, '.agent-replay', 'config.yaml'));
    const yaml = await ran(cwd);
    expect(only(yaml).simulation?.fault).toBe('no simulator configured (set simulator: or judge: in config.yaml)');
    expect(groupCauses(yaml.personas, null, yaml.configName)[0]?.hint).toMatch(/^add a simulator section to config\.yaml,/);
  });

  it('an agent fault stays errored', async () => {
    const agent = await agentServer({ failAt: 2 });
    const sim = await simulatorServer(playUntil(99));
    const p = only(await ran(await project(agent.url, sim.url)));
    expect(p.errored).toBe(true);
    expect(p.verdict).toBeNull();
    expect(p.errorKind).toBe('http');
    expect(p.simulation).toMatchObject({ endedBy: 'agent_fault', fault: null, calls: 1 });
    expect(p.unsent).toEqual(['Get a refund for order 1234 - message 2']);
  });
});

describe('simulated users: repeat, fallback, secrets', () => {
  it('every repeat attempt starts from the baseline: a live simulation is never reused', async () => {
    const behaviour: AgentBehaviour = {};
    const agent = await agentServer(behaviour);
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url, { config: 'repeat: { count: 2, minPass: 1 }\n' });
    const first = only(await ran(cwd));
    // Two live attempts, three calls each; the attempts agree, so it is accepted.
    expect(first.attempts?.map((a) => a.simulation?.calls)).toEqual([3, 3]);
    await accept(cwd, first);
    sim.asks.length = 0;

    const unchanged = only(await ran(cwd));
    expect(sim.asks).toHaveLength(0);
    expect(unchanged.attempts?.map((a) => a.simulation?.liveFromTurn)).toEqual([null, null]);

    behaviour.changedAt = 2;
    const changed = only(await ran(cwd));
    // Each attempt replays turn 2 from the baseline and simulates turns 3 and 4 itself.
    expect(sim.asks.map((a) => a.turn)).toEqual([3, 4, 3, 4]);
    expect(changed.attempts?.map((a) => [a.simulation?.liveFromTurn, a.simulation?.calls, a.turns.filter((t) => t.index > 0).map((t) => t.source)])).toEqual([
      [3, 2, ['script', 'baseline', 'simulator']],
      [3, 2, ['script', 'baseline', 'simulator']],
    ]);
  });

  it('a repeated script whose simulator failed where it took over: the turns it lacks are not "routes changed"', async () => {
    const behaviour: AgentBehaviour = {};
    const agent = await agentServer(behaviour);
    let down = false;
    const healthy = playUntil(3);
    const sim = await simulatorServer((ask) => (down ? json(503, { error: { message: 'overloaded' } }) : healthy(ask)));
    const cwd = await project(agent.url, sim.url, { config: 'repeat: { count: 2, minPass: 1 }\n' });
    await accept(cwd, only(await ran(cwd)));
    // Turn 2's reply changes: each attempt asks the simulator for turn 3, which fails.
    behaviour.changedAt = 2;
    down = true;
    const p = only(await ran(cwd));
    expect(p.verdict).toBe('not_evaluated');
    expect(p.attempts?.map((a) => a.simulation?.endedBy)).toEqual(['simulator_fault', 'simulator_fault']);
    expect(p.drift).toMatchObject({ transcript: 'different', route: 'same' });
  });

  it("a repeated script's simulated-user line counts every attempt's simulator calls, as spend does", async () => {
    const behaviour: AgentBehaviour = {};
    const agent = await agentServer(behaviour);
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url, { config: 'repeat: { count: 3, minPass: 1 }\n' });
    await accept(cwd, only(await ran(cwd)));
    behaviour.changedAt = 2;
    const record = await ran(cwd);
    expect(record.spend).toMatchObject({ simulatorCalls: 6 });
    const line = renderTerminal(record, { color: false })
      .split('\n')
      .find((l) => l.includes('simulated user:'));
    expect(line?.trim()).toBe('simulated user: user simulated from turn 3 · ended: the simulated user was done: goal reached after 3 turns · 6 simulator calls over 3 attempts (2 in attempt 1)');
    expect(personaData(only(record)).simulation?.facts.at(-1)).toBe('6 simulator calls over 3 attempts (2 in attempt 1)');
  });

  it('repeat attempts whose simulated users wrote other messages are compared only while the users said the same: accepted with attempt 1\'s conversation', async () => {
    const agent = await agentServer({});
    // A model rarely writes the same message twice: each call words it differently, and the second attempt goes a turn further.
    let call = 0;
    const sim = await simulatorServer((ask) => (ask.userTurns >= (/Take 3:/.test(ask.text) ? 4 : 3) ? { done: true, reason: 'goal reached' } : { message: `Take ${++call}: refund order 1234` }));
    const cwd = await project(agent.url, sim.url, { config: 'repeat: { count: 2, minPass: 1 }\n' });
    const first = only(await ran(cwd));
    const attempts = first.attempts ?? [];
    expect(attempts.map((a) => a.turns.filter((t) => t.index > 0).map((t) => t.message))).toEqual([
      ['I want my money back', 'Take 1: refund order 1234', 'Take 2: refund order 1234'],
      ['I want my money back', 'Take 3: refund order 1234', 'Take 4: refund order 1234', 'Take 5: refund order 1234'],
    ]);
    // The welcome turn and the opening were the same; from turn 2 the users said other things, so the replies answer other messages.
    expect(attempts[1]?.meaning ?? null).toBeNull();
    const decision = decidePersonaAcceptance(first, '2026-01-01T00:00:00.000Z', 'abc123');
    expect(decision.kind).toBe('accept');
    if (decision.kind === 'accept') expect(decision.baseline.transcript.map((t) => t.message)).toEqual([null, 'I want my money back', 'Take 1: refund order 1234', 'Take 2: refund order 1234']);
  });

  it('an endpoint that refuses structured output: one structured call per run, then the plain prompt', async () => {
    const agent = await agentServer({});
    const plain = playUntil(2);
    const sim = await simulatorServer((ask) => (ask.schema !== null ? json(400, { error: { message: "response_format 'json_schema' is not supported by this model" } }) : plain(ask)));
    const script = (label: string): string => SCRIPT().replace('label: refund-sim', `label: ${label}`);
    const cwd = await project(agent.url, sim.url, { scripts: { 'a.yml': script('sim-a'), 'b.yml': script('sim-b') } });
    const record = await ran(cwd);
    expect(record.personas.map((p) => [p.label, p.verdict, p.simulation?.endedBy])).toEqual([
      ['sim-a', 'pass', 'simulator'],
      ['sim-b', 'pass', 'simulator'],
    ]);
    expect(sim.asks.filter((a) => a.schema !== null)).toHaveLength(1);
    expect(record.simulator).toEqual({ name: 'openai sim-model', structured: false, structuredFallback: "HTTP 400: response_format 'json_schema' is not supported by this model" });
    // The plain prompt asks for the JSON in words.
    expect(sim.asks.at(-1)?.request.body).not.toHaveProperty('response_format');
    expect(sim.asks.length).toBe(1 + 2 + 2);
  });

  it('an opening that holds a secret is stored redacted, and still read as the same opening: the replay sends the stored messages', async () => {
    const secret = 'tok-7f3a9c1e5b2d4086';
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url, { script: SCRIPT().replace('opening: I want my money back', `opening: "My code is ${secret}"`) });
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), (await readFile(join(cwd, '.agent-replay', 'config.yml'), 'utf8')).replace('concurrency: 1', 'concurrency: 1\n  headers: { x-token: "${AGENT_TOKEN}" }'));
    const env = { AGENT_TOKEN: secret };
    const file = await accept(cwd, only(await ran(cwd, env)));
    expect(await readFile(file, 'utf8')).not.toContain(secret);
    sim.asks.length = 0;
    const p = only(await ran(cwd, env));
    expect(sources(p)).toEqual(['script', 'baseline', 'baseline']);
    expect(sim.asks).toHaveLength(0);
  });

  it('the simulator reads the transcript redacted: a secret the agent leaks never reaches it', async () => {
    const secret = 'tok-7f3a9c1e5b2d4086';
    const agent = await agentServer({ leak: ` (debug: ${secret})` });
    const sim = await simulatorServer(playUntil(3));
    const cwd = await project(agent.url, sim.url, { config: 'judge: { provider: openai, baseUrl: "http://127.0.0.1:9/v1", model: j, apiKey: "${JUDGE_KEY}" }\n' });
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), (await readFile(join(cwd, '.agent-replay', 'config.yml'), 'utf8')).replace('concurrency: 1', 'concurrency: 1\n  headers: { x-token: "${AGENT_TOKEN}" }'));
    const record = await ran(cwd, { AGENT_TOKEN: secret, JUDGE_KEY: 'judge-key-0123456789' });
    const p = only(record);
    expect(sim.asks.length).toBeGreaterThan(0);
    for (const r of sim.received) expect(JSON.stringify(r.body)).not.toContain(secret);
    expect(sim.asks[0]?.text).toContain('(debug: ***)');
    expect(JSON.stringify(record)).not.toContain(secret);
    // The explicit simulator section has no apiKey; the judge's provider matches, so its key is inherited.
    expect(sim.received[0]?.headers.authorization).toBe('Bearer judge-key-0123456789');
    expect(p.verdict).toBe('pass');
  });
});

describe('simulated users from untrusted code', () => {
  it("a fork's config.yml may not send the judge's key to a simulator address of its choosing", async () => {
    const agent = await agentServer({});
    const sim = await simulatorServer(playUntil(2));
    const cwd = await project(agent.url, sim.url, { config: 'judge: { provider: openai, model: j, apiKey: "${JUDGE_KEY}" }\n' });
    const result = await runCheck({ ...options(cwd, { JUDGE_KEY: 'judge-key-0123456789' }), untrustedSuite: 'the head of #12, from a fork' }, { clock });
    expect(result.kind).toBe('config_errors');
    if (result.kind !== 'config_errors') return;
    expect(result.errors.map((e) => e.message)).toEqual([
      `simulator.baseUrl in this commit's config.yml is ${new URL(sim.url).origin}, but the commit is the head of #12, from a fork: its config.yml may not choose where the simulator's key is sent (only to https://api.openai.com/v1, the openai API)`,
    ]);
    // Said at simulator.baseUrl (line 6: `simulator: { baseUrl: "..." }`).
    expect(result.errors.map((e) => [e.file, e.line, e.column])).toEqual([['.agent-replay/config.yml', 6, 23]]);
    expect(sim.received).toHaveLength(0);
    expect(agent.requests).toHaveLength(0);
  });
});
