// The runner: replays fixtures and persona scripts with one bound on concurrency (a script holds
// one slot for its whole conversation: its turns run in order), isolates every failure to its
// item, evaluates each reply, and returns the run's record. It writes nothing; the caller does.
//
// `options.concurrency` bounds the items in progress; the requests actually in flight are bounded
// below that by the agent client's adaptive limit (http/limiter.ts), which a 429 for too many in
// flight halves (a rate limit's leaves it). Gating requests rather than items keeps a script's
// turns in order without holding a slot between turns or during a retry's wait, so a throttled run
// still keeps the agent as busy as it allows.

import { randomUUID } from 'node:crypto';
import { replayStarts } from './starts.js';
import type {
  AgentClient,
  Baseline,
  Estimate,
  Fixture,
  FixtureRecord,
  Judge,
  Simulator,
  PersonaBaseline,
  PersonaRecord,
  PersonaScript,
  RegexEvaluator,
  Repeat,
  RunLatency,
  RunRecord,
  TokenUsage,
  Tallies,
} from '../types.js';
import { runLatency, runUsage, tallies, tallyOf } from '../evaluate/index.js';
import { finishFixture, finishScript, itemRepeat, moreAttemptsFor, policyOf, type FinishPolicy, type ScriptEvaluation } from '../evaluate/finish.js';
import { fixtureAttemptMeanings, replayFixture } from './fixture.js';
import { replayPersona, scriptAttemptMeanings } from './personas.js';
import { personaEvaluationFields } from '../evaluate/definition.js';
import { JUDGE_PROMPT_VERSION } from '../judge/prompt.js';
import { SIMULATOR_PROMPT_VERSION } from '../simulator/prompt.js';
import { attemptSession } from './repeat.js';
import type { MeaningRung } from './meaning.js';

export { replayFixture, type FixtureReplayDeps } from './fixture.js';
export { replayPersona, type PersonaReplayDeps } from './personas.js';

/** What a run replays: its fixtures and persona scripts, and their stored baselines by label. */
export interface ReplayItems {
  fixtures: readonly Fixture[];
  personas: readonly PersonaScript[];
  baselines: {
    fixtures: ReadonlyMap<string, Baseline>;
    personas: ReadonlyMap<string, PersonaBaseline>;
  };
}

/** No stored baselines: every item is new. */
export const NO_BASELINES: ReplayItems['baselines'] = { fixtures: new Map(), personas: new Map() };

export interface Progress {
  done: number;
  total: number;
  passed: number;
  failed: number;
  notEvaluated: number;
  errored: number;
  elapsedMs: number;
}

export interface ReplayDeps {
  agent: AgentClient;
  regex: RegexEvaluator;
  judge: Judge | null;
  /** Plays simulated users (docs/personas.md, "Simulated users"); absent or null: none configured. */
  simulator?: Simulator | null;
  /** Told for each user message a simulated script sends from its baseline (spend: baselineTurns). */
  onBaselineTurn?: () => void;
  /** How a reply that differs from its baseline gets its meaning (docs/meaning.md); absent or null: none. */
  meaning?: MeaningRung | null;
  /** The suite's config file (Suite.configName), named by the reason with no judge configured (the meaning rung carries its own); absent: config.yml. */
  configName?: string;
  /** Monotonic milliseconds, for durations. */
  now?: () => number;
  /** Wall clock, for startedAt / finishedAt. */
  wallClock?: () => Date;
  onProgress?: (progress: Progress) => void;
  /**
   * An item finished and is recorded (called before onProgress): `index` is its place among the
   * run's fixtures or persona scripts. The record streams results.json with it (record/stream.ts).
   */
  onItem?: (kind: 'fixture' | 'persona', index: number, record: FixtureRecord | PersonaRecord) => void;
  /** Session id for a fixture or script; default: a fresh id per run and label. */
  sessionId?: (item: { label: string }) => string;
  /** Applied to every text that goes into the record (secrets -> ***). */
  redact?: (text: string) => string;
  /**
   * Aborted when the run is interrupted: no fixture is started after it, those in flight are
   * abandoned, and the record lists only the fixtures that finished, marked `interrupted`.
   */
  signal?: AbortSignal;
}

/**
 * The run-level facts of a model client, the judge's or the simulator's (docs/simulated-users.md):
 * its name and, for a client that asks through a schema mechanism, whether it still did at the end
 * of the run or fell back to the plain prompt and why (docs/configuration.md, "Structured output").
 */
function modelInfo<N extends string | null>(name: N, client: Judge | Simulator | null): { name: N; structured?: boolean; structuredFallback?: string } {
  const mode = client?.structuredOutput?.();
  if (mode === undefined) return { name };
  return mode.structured ? { name, structured: true } : { name, structured: false, structuredFallback: mode.reason };
}

export interface ReplayOptions {
  concurrency: number;
  /**
   * The agent client reads real sockets (the HTTP client): a fixture whose reply came in then
   * yields to the I/O already due (the other replies that came with it) before it is checked
   * (docs/performance.md, "Replies first"). Absent: a client of a test's own, on virtual time.
   */
  yieldToIo?: boolean;
  estimate: Estimate;
  commit: string | null;
  tool: { name: string; version: string };
  agentHost: string | null;
  /** The agent's URL without credentials, query or fragment, already redacted; absent: not recorded. */
  agentEndpoint?: string | null;
  judgeName: string | null;
  /** The judge in each item's judge fingerprint ("provider/model"); null or absent: no judge. */
  judgeModel?: string | null;
  /** Where that judge is asked, in the fingerprint (judgeEndpointOf, already redacted); null or absent: not known. */
  judgeEndpoint?: string | null;
  /**
   * How items are finished (evaluate/finish.ts, `policyOf(config)`): the repeat for items without
   * their own, the latency thresholds; absent: each item runs once, the default thresholds.
   */
  policy?: FinishPolicy;
  /** config.yml's `personas.unmockedTools`, for scripts without their own; absent or null: by the script's mocks. */
  unmockedTools?: 'error' | 'allow' | null;
}

/** One attempt of one item: a repeated item is `count` jobs, next to each other (and its extra attempts more). */
type Job = { kind: 'persona' | 'fixture'; i: number; attempt: number };

/**
 * Scripts first: each holds its slot for a whole conversation, so starting them early keeps the
 * tail of the run short; fixtures fill the other slots. A repeated item is `count` jobs, one per
 * attempt, next to each other: its attempts run side by side under the same bound.
 */
function scheduleJobs(personaRepeats: readonly Repeat[], fixtureRepeats: readonly Repeat[]): Job[] {
  const expand = (kind: Job['kind'], repeats: readonly Repeat[]): Job[] =>
    repeats.flatMap((r, i) => Array.from({ length: r.count }, (_, attempt) => ({ kind, i, attempt })));
  return [...expand('persona', personaRepeats), ...expand('fixture', fixtureRepeats)];
}

/**
 * Holds the attempts of repeated items as they finish, by item (personas `p<i>`, fixtures `f<i>`)
 * and attempt index; `add` returns every attempt, in order, once the last one expected is in, else
 * null. `expect` raises an item's expected attempts when it gets extra ones (docs/statistics.md,
 * "Adaptive attempts"). An item run once is its one attempt and is never held.
 */
interface AttemptCollector {
  add: <T extends FixtureRecord | PersonaRecord>(job: Job, count: number, record: T) => T[] | null;
  expect: (job: Job, attempts: readonly (FixtureRecord | PersonaRecord)[], more: number) => void;
}

function attemptCollector(): AttemptCollector {
  const held = new Map<string, (FixtureRecord | PersonaRecord)[]>();
  const expected = new Map<string, number>();
  const keyOf = (job: Job): string => `${job.kind === 'fixture' ? 'f' : 'p'}${job.i}`;
  return {
    add: <T extends FixtureRecord | PersonaRecord>(job: Job, count: number, record: T): T[] | null => {
      const key = keyOf(job);
      const want = expected.get(key) ?? count;
      if (want === 1) return [record];
      const got = held.get(key) ?? [];
      got[job.attempt] = record;
      if (got.filter((r) => r !== undefined).length < want) {
        held.set(key, got);
        return null;
      }
      held.delete(key);
      expected.delete(key);
      return got as T[];
    },
    /** The item's attempts so far go back on hold, and `more` more are expected. */
    expect: (job, attempts, more): void => {
      const key = keyOf(job);
      held.set(key, [...attempts]);
      expected.set(key, attempts.length + more);
    },
  };
}

/**
 * Runs `width` workers to the end, or until `signal` aborts: an interruption does not wait for the
 * items in flight, they are abandoned. Returns when the run is over either way.
 */
async function runWorkers(width: number, worker: () => Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  const all = Promise.all(Array.from({ length: width }, worker));
  if (signal === undefined) {
    await all;
    return;
  }
  let onAbort = (): void => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([all, aborted]);
  signal.removeEventListener('abort', onAbort);
}

/** Resolves once the I/O callbacks already due have run (a check-phase turn of the event loop). */
const afterPendingIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Replays every fixture and persona script; one failure never stops the others. */
export async function replay(items: ReplayItems, deps: ReplayDeps, options: ReplayOptions): Promise<RunRecord> {
  const { fixtures, personas, baselines } = items;
  if (replayStarts.hasSubscribers) replayStarts.publish(fixtures.length + personas.length);
  const now = deps.now ?? (() => performance.now());
  const wall = deps.wallClock ?? (() => new Date());
  const redact = deps.redact ?? ((t: string) => t);
  const runId = randomUUID().slice(0, 8);
  const sessionId = deps.sessionId ?? ((f: { label: string }) => `agent-replay-${runId}-${f.label}`);
  const judgeModel = options.judgeModel ?? null;
  const judgeEndpoint = options.judgeEndpoint ?? null;
  const startedAt = wall();
  const t0 = now();
  const records: (FixtureRecord | undefined)[] = new Array(fixtures.length);
  const personaRecords: (PersonaRecord | undefined)[] = new Array(personas.length);
  const policy = options.policy ?? policyOf({});
  const fixtureRepeats = fixtures.map((f) => itemRepeat(f, policy));
  const personaRepeats = personas.map((p) => itemRepeat(p, policy));
  // Each script's definition hash and judge fingerprint, computed once: its attempts and its record use them.
  const evaluations = personas.map((p) => personaEvaluationFields(p, judgeModel, JUDGE_PROMPT_VERSION, SIMULATOR_PROMPT_VERSION, judgeEndpoint));
  const jobs = scheduleJobs(personaRepeats, fixtureRepeats);
  const total = fixtures.length + personas.length;
  const collect = attemptCollector();
  const counts: Tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  const signal = deps.signal;
  /** Set when the run is interrupted: what finishes afterwards is not recorded. */
  let stopped = false;
  let done = 0;
  let next = 0;

  // Replies first (docs/performance.md): a fixture whose reply came in lets the replies that came
  // with it be read before it is checked.
  const afterReply = options.yieldToIo === true ? afterPendingIo : undefined;
  const fixtureAttempt = (fixture: Fixture, session: () => string): Promise<FixtureRecord> =>
    replayFixture(fixture, baselines.fixtures.get(fixture.label) ?? null, {
      agent: deps.agent,
      regex: deps.regex,
      judge: deps.judge,
      now,
      redact,
      session,
      judgeModel,
      judgeEndpoint,
      meaning: deps.meaning ?? null,
      ...(deps.configName !== undefined ? { configName: deps.configName } : {}),
      ...(afterReply !== undefined ? { afterReply } : {}),
    });

  const scriptAttempt = (i: number, session: string): Promise<PersonaRecord> => {
    const p = personas[i] as PersonaScript;
    return replayPersona(p, baselines.personas.get(p.label) ?? null, {
      agent: deps.agent,
      judge: deps.judge,
      now,
      redact,
      session,
      fingerprint: (evaluations[i] as ScriptEvaluation).judgeFingerprint,
      unmockedTools: options.unmockedTools ?? null,
      regex: deps.regex,
      simulator: deps.simulator ?? null,
      meaning: deps.meaning ?? null,
      ...(deps.configName !== undefined ? { configName: deps.configName } : {}),
      ...(deps.onBaselineTurn ? { onBaselineTurn: deps.onBaselineTurn } : {}),
    });
  };

  /**
   * Adaptive attempts (docs/statistics.md, "Adaptive attempts"): after a look, the item's `more`
   * extra attempts (evaluate/finish.ts decides how many) go to the front of the queue, so that the
   * item finishes soon; true when it gets any. None once the run is interrupted.
   */
  const lookAgain = (job: Job, all: readonly (FixtureRecord | PersonaRecord)[], more: number): boolean => {
    if (more <= 0 || stopped || signal?.aborted) return false;
    collect.expect(job, all, more);
    jobs.splice(next, 0, ...Array.from({ length: more }, (_, k) => ({ kind: job.kind, i: job.i, attempt: all.length + k })));
    return true;
  };

  /** Runs one attempt; returns the item's record once its last attempt is in, else null. */
  const attempt = async (job: Job): Promise<FixtureRecord | PersonaRecord | null> => {
    if (job.kind === 'fixture') {
      const fixture = fixtures[job.i] as Fixture;
      const repeat = fixtureRepeats[job.i] as Repeat;
      const r = await fixtureAttempt(fixture, () => attemptSession(sessionId(fixture), job.attempt + 1, repeat.max ?? repeat.count));
      if (stopped) return null;
      const all = collect.add(job, repeat.count, r);
      if (all === null || lookAgain(job, all, moreAttemptsFor(fixture, all, baselines.fixtures.get(fixture.label) ?? null, policy))) return null;
      const meanings = all.length > 1 ? await fixtureAttemptMeanings(fixture, all, deps.meaning, baselines.fixtures.get(fixture.label) ?? null) : null;
      if (stopped) return null;
      return (records[job.i] = finishFixture(fixture, all, baselines.fixtures.get(fixture.label) ?? null, policy, meanings));
    }
    const p = personas[job.i] as PersonaScript;
    const repeat = personaRepeats[job.i] as Repeat;
    const r = await scriptAttempt(job.i, attemptSession(sessionId(p), job.attempt + 1, repeat.max ?? repeat.count));
    if (stopped) return null;
    const all = collect.add(job, repeat.count, r);
    if (all === null || lookAgain(job, all, moreAttemptsFor(p, all, baselines.personas.get(p.label) ?? null, policy))) return null;
    const meanings = all.length > 1 ? await scriptAttemptMeanings(all, deps.meaning, baselines.personas.get(p.label) ?? null) : null;
    if (stopped) return null;
    return (personaRecords[job.i] = finishScript(p, all, baselines.personas.get(p.label) ?? null, policy, evaluations[job.i] as ScriptEvaluation, meanings));
  };

  // A worker with nothing to take waits while attempts are in flight: a look may queue extra attempts.
  let inFlight = 0;
  let wake = (): void => undefined;
  let settled = new Promise<void>((resolve) => (wake = resolve));
  const attemptSettled = (): void => {
    wake();
    settled = new Promise<void>((resolve) => (wake = resolve));
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (stopped || signal?.aborted) return;
      const job = jobs[next];
      if (job === undefined) {
        if (inFlight === 0) return;
        await settled;
        continue;
      }
      next += 1;
      inFlight += 1;
      let record: FixtureRecord | PersonaRecord | null;
      try {
        record = await attempt(job);
      } finally {
        inFlight -= 1;
        attemptSettled();
      }
      if (stopped) return;
      if (record === null) continue;
      done += 1;
      counts[tallyOf(record)] += 1;
      try {
        deps.onItem?.(job.kind, job.i, record);
        deps.onProgress?.({ done, total, ...counts, elapsedMs: now() - t0 });
      } catch {
        // A progress printer that fails (a closed stderr) must not lose the run.
      }
    }
  };

  await runWorkers(Math.max(1, Math.min(options.concurrency, jobs.length)), worker, signal);
  if (signal !== undefined) stopped = true;

  const finished = records.filter((r): r is FixtureRecord => r !== undefined);
  const finishedPersonas = personaRecords.filter((r): r is PersonaRecord => r !== undefined);
  const finishedAt = wall();
  return {
    schemaVersion: 1,
    tool: options.tool,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: Math.round(now() - t0),
    commit: options.commit,
    agent: options.agentEndpoint ? { host: options.agentHost, endpoint: options.agentEndpoint } : { host: options.agentHost },
    judge: modelInfo(options.judgeName, deps.judge),
    ...(deps.simulator ? { simulator: modelInfo(deps.simulator.name, deps.simulator) } : {}),
    estimate: options.estimate,
    tallies: tallies([...finished, ...finishedPersonas]),
    interrupted: finished.length + finishedPersonas.length < total,
    fixtures: finished,
    personas: finishedPersonas,
    ...latencyField(finished, finishedPersonas),
    ...usageField(finished, finishedPersonas),
  };
}

/** The run's tokens reported, present only when some turn reported any (docs/latency.md, "Usage"). */
function usageField(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[]): { usage?: TokenUsage } {
  const usage = runUsage(fixtures, personas);
  return usage === null ? {} : { usage };
}

/** The run's p50 / p95 turn latency, present only when some turn was measured (docs/latency.md). */
function latencyField(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[]): { latency?: RunLatency } {
  const latency = runLatency(fixtures, personas);
  return latency === null ? {} : { latency };
}
