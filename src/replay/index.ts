// The runner: replays fixtures and persona scripts with one bound on concurrency (a script holds
// one slot for its whole conversation: its turns run in order), isolates every failure to its
// item, evaluates each reply, and returns the run's record. It writes nothing; the caller does.
//
// `options.concurrency` bounds the items in progress; the requests actually in flight are bounded
// below that by the agent client's adaptive limit (http/limiter.ts), which a 429 halves. Gating
// requests rather than items keeps a script's turns in order without holding a slot between turns
// or during a retry's wait, so a throttled run still keeps the agent as busy as it allows.

import { randomUUID } from 'node:crypto';
import type {
  AgentClient,
  Baseline,
  ErrorKind,
  Estimate,
  Fixture,
  FixtureRecord,
  Judge,
  Outcome,
  PersonaBaseline,
  PersonaRecord,
  PersonaScript,
  RegexEvaluator,
  Repeat,
  RunRecord,
  Tallies,
} from '../types.js';
import { evaluateAssertion, judgeOutcome } from '../assertions/index.js';
import { computeDrift, judgeReuseOf, reusableJudge, reuseWords, tallies, tallyOf } from '../evaluate/index.js';
import { replayPersona } from './personas.js';
import { fixtureEvaluationFields, personaEvaluationFields } from '../evaluate/definition.js';
import { JUDGE_PROMPT_VERSION } from '../judge/prompt.js';
import { repeatOf } from '../suite/repeat.js';
import { attemptSession, combineFixtureAttempts, combinePersonaAttempts } from './repeat.js';

export { replayPersona, type PersonaReplayDeps } from './personas.js';

/** The persona scripts of a run and their stored baselines. */
export interface ReplayScripts {
  personas: readonly PersonaScript[];
  baselines: ReadonlyMap<string, PersonaBaseline>;
}

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

export interface ReplayOptions {
  concurrency: number;
  estimate: Estimate;
  commit: string | null;
  tool: { name: string; version: string };
  agentHost: string | null;
  /** The agent's URL without credentials, query or fragment, already redacted; absent: not recorded. */
  agentEndpoint?: string | null;
  judgeName: string | null;
  /** The judge in each item's judge fingerprint ("provider/model"); null or absent: no judge. */
  judgeModel?: string | null;
  /** SPEC 12: config.yml's `repeat`, for items without their own; absent: each item runs once. */
  repeat?: Repeat | null;
  /** config.yml's `personas.unmockedTools`, for scripts without their own; absent or null: by the script's mocks. */
  unmockedTools?: 'error' | 'allow' | null;
}

/** Replays every fixture and persona script; one failure never stops the others. */
export async function replay(
  fixtures: readonly Fixture[],
  baselines: ReadonlyMap<string, Baseline>,
  deps: ReplayDeps,
  options: ReplayOptions,
  scripts: ReplayScripts = { personas: [], baselines: new Map() },
): Promise<RunRecord> {
  const now = deps.now ?? (() => performance.now());
  const wall = deps.wallClock ?? (() => new Date());
  const redact = deps.redact ?? ((t: string) => t);
  const runId = randomUUID().slice(0, 8);
  const sessionId = deps.sessionId ?? ((f: { label: string }) => `agent-replay-${runId}-${f.label}`);
  const startedAt = wall();
  const t0 = now();
  const records: (FixtureRecord | undefined)[] = new Array(fixtures.length);
  const personaRecords: (PersonaRecord | undefined)[] = new Array(scripts.personas.length);
  // Scripts first: each holds its slot for a whole conversation, so starting them early keeps the
  // tail of the run short; fixtures fill the other slots. A repeated item is `count` jobs, one per
  // attempt, next to each other: its attempts run side by side under the same bound.
  const fixtureRepeats = fixtures.map((f) => repeatOf(f, options.repeat));
  const personaRepeats = scripts.personas.map((p) => repeatOf(p, options.repeat));
  type Job = { kind: 'persona' | 'fixture'; i: number; attempt: number };
  const expand = (kind: Job['kind'], repeats: readonly Repeat[]): Job[] =>
    repeats.flatMap((r, i) => Array.from({ length: r.count }, (_, attempt) => ({ kind, i, attempt })));
  const jobs: Job[] = [...expand('persona', personaRepeats), ...expand('fixture', fixtureRepeats)];
  const items = fixtures.length + scripts.personas.length;
  /** The attempts of repeated items finished so far, by item (personas `p<i>`, fixtures `f<i>`) and attempt index; an item run once is never held here. */
  const held = new Map<string, (FixtureRecord | PersonaRecord)[]>();
  const counts: Tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  const signal = deps.signal;
  /** Set when the run is interrupted: what finishes afterwards is not recorded. */
  let stopped = false;
  let done = 0;
  let next = 0;

  const baseOf = (fixture: Fixture) => {
    const baseline = baselines.get(fixture.label) ?? null;
    return {
      label: fixture.label,
      file: fixture.file,
      line: fixture.line,
      message: fixture.message,
      persona: fixture.persona,
      assertion: fixture.assertion,
      baseline,
      threshold: fixture.assertion?.kind === 'judge' ? fixture.assertion.threshold : null,
      ...fixtureEvaluationFields(fixture, options.judgeModel ?? null, JUDGE_PROMPT_VERSION),
    };
  };

  const errored = (base: ReturnType<typeof baseOf>, errorKind: ErrorKind, message: string, started: number): FixtureRecord => {
    const error = redact(message);
    // Object.assign, not {...base, ...}: V8 gives every object made by a spread followed by more
    // properties a hidden class of its own (~600 bytes each: 12 MB over 20,000 fixtures).
    return Object.assign({}, base, {
      errored: true as const,
      error,
      errorKind,
      reply: null,
      route: null,
      verdict: null,
      detail: error,
      score: null,
      rationale: null,
      drift: null,
      durationMs: Math.round(now() - started),
    });
  };

  const replayOne = async (fixture: Fixture, session: () => string, started: number): Promise<FixtureRecord> => {
    const base = baseOf(fixture);
    const { baseline } = base;
    let outcome;
    try {
      outcome = await deps.agent.converse({ session: session(), message: fixture.message, persona: fixture.persona });
    } catch (e) {
      outcome = { kind: 'errored' as const, errorKind: 'internal' as const, error: `internal error calling the agent: ${(e as Error).message}` };
    }
    if (outcome.kind === 'errored') return errored(base, outcome.errorKind, outcome.error, started);
    // Every agent-supplied text is redacted before it is recorded or compared: an agent that
    // echoes a header must not leak it through the reply, the route or a detail line.
    const reply = redact(outcome.reply);
    const route = outcome.route === null ? null : { conversation: redact(outcome.route.conversation), stage: redact(outcome.route.stage) };
    let result: Outcome;
    // SPEC 12: a judged reply identical to its baseline's, under the same fingerprint, keeps the
    // baseline's score and rationale with no judge call (only a stored baseline is ever a source).
    const reusable = fixture.assertion?.kind === 'judge' ? reusableJudge(baseline, { sent: outcome.reply, recorded: reply }, base.judgeFingerprint) : null;
    const judgeReused = reusable !== null && baseline !== null ? judgeReuseOf(baseline) : null;
    try {
      if (reusable !== null && judgeReused !== null && fixture.assertion?.kind === 'judge') {
        result = judgeOutcome({ ok: true, score: reusable.score, rationale: reusable.rationale }, fixture.assertion.threshold, reuseWords(judgeReused));
      } else {
        // The judge is a third party: it reads the reply as recorded (secrets redacted), as it reads
        // a persona transcript; contains and regex run here, on the reply as the agent sent it.
        const checked = fixture.assertion?.kind === 'judge' ? reply : outcome.reply;
        result = await evaluateAssertion(fixture.assertion, checked, { regex: deps.regex, judge: deps.judge });
      }
    } catch (e) {
      result = { verdict: 'not_evaluated', detail: `check did not run: internal error (${(e as Error).message})` };
    }
    // Object.assign: one hidden class for all records (see errored above).
    return Object.assign({}, base, {
      errored: false as const,
      error: null,
      errorKind: null,
      reply,
      route,
      verdict: result.verdict,
      detail: redact(result.detail),
      score: result.score ?? null,
      threshold: result.threshold ?? base.threshold,
      rationale: result.rationale == null ? null : redact(result.rationale),
      drift: computeDrift(result.verdict, reply, route, baseline),
      ...(judgeReused !== null ? { judgeReused } : {}),
      durationMs: Math.round(now() - started),
    });
  };

  /** Never throws: whatever goes wrong is this fixture's errored record, and the others go on. */
  const one = async (fixture: Fixture, session: () => string): Promise<FixtureRecord> => {
    const started = now();
    try {
      return await replayOne(fixture, session, started);
    } catch (e) {
      return errored(baseOf(fixture), 'internal', `internal error replaying the fixture: ${(e as Error).message}`, started);
    }
  };

  const script = async (p: PersonaScript, session: string): Promise<PersonaRecord> =>
    replayPersona(p, scripts.baselines.get(p.label) ?? null, {
      agent: deps.agent,
      judge: deps.judge,
      now,
      redact,
      session,
      fingerprint: personaEvaluationFields(p, options.judgeModel ?? null, JUDGE_PROMPT_VERSION).judgeFingerprint,
      unmockedTools: options.unmockedTools ?? null,
      regex: deps.regex,
    });

  /**
   * Holds attempt `job.attempt` of a repeated item; returns every attempt, in order, once the last
   * one is in, else null. An item run once is its one attempt.
   */
  const collect = <T extends FixtureRecord | PersonaRecord>(job: Job, count: number, record: T): T[] | null => {
    if (count === 1) return [record];
    const key = `${job.kind === 'fixture' ? 'f' : 'p'}${job.i}`;
    const got = held.get(key) ?? [];
    got[job.attempt] = record;
    if (got.filter((r) => r !== undefined).length < count) {
      held.set(key, got);
      return null;
    }
    held.delete(key);
    return got as T[];
  };

  /** Runs one attempt; returns the item's record once its last attempt is in, else null. */
  const attempt = async (job: Job): Promise<FixtureRecord | PersonaRecord | null> => {
    if (job.kind === 'fixture') {
      const fixture = fixtures[job.i] as Fixture;
      const repeat = fixtureRepeats[job.i] as Repeat;
      const r = await one(fixture, () => attemptSession(sessionId(fixture), job.attempt + 1, repeat.count));
      if (stopped) return null;
      const all = collect(job, repeat.count, r);
      if (all === null) return null;
      return (records[job.i] = combineFixtureAttempts(all, repeat, baselines.get(fixture.label) ?? null));
    }
    const p = scripts.personas[job.i] as PersonaScript;
    const repeat = personaRepeats[job.i] as Repeat;
    const r = await script(p, attemptSession(sessionId(p), job.attempt + 1, repeat.count));
    if (stopped) return null;
    const all = collect(job, repeat.count, r);
    if (all === null) return null;
    const combined = combinePersonaAttempts(all, repeat, scripts.baselines.get(p.label) ?? null);
    return (personaRecords[job.i] = Object.assign({}, combined, personaEvaluationFields(p, options.judgeModel ?? null, JUDGE_PROMPT_VERSION)));
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (stopped || signal?.aborted) return;
      const job = jobs[next++];
      if (job === undefined) return;
      const record = await attempt(job);
      if (stopped) return;
      if (record === null) continue;
      done += 1;
      counts[tallyOf(record)] += 1;
      try {
        deps.onItem?.(job.kind, job.i, record);
        deps.onProgress?.({ done, total: items, ...counts, elapsedMs: now() - t0 });
      } catch {
        // A progress printer that fails (a closed stderr) must not lose the run.
      }
    }
  };

  const width = Math.max(1, Math.min(options.concurrency, jobs.length));
  const all = Promise.all(Array.from({ length: width }, worker));
  if (signal === undefined) {
    await all;
  } else {
    // An interruption does not wait for the fixtures in flight: they are abandoned.
    let onAbort = (): void => undefined;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([all, aborted]);
    signal.removeEventListener('abort', onAbort);
    stopped = true;
  }

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
    judge: { name: options.judgeName },
    estimate: options.estimate,
    tallies: tallies([...finished, ...finishedPersonas]),
    interrupted: finished.length + finishedPersonas.length < items,
    fixtures: finished,
    personas: finishedPersonas,
  };
}
