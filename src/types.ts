// The domain's plain data. Every module speaks these types; none of them carries behaviour.
// Field names are camelCase; enum values are the snake_case words of SPEC.md.

/** Where the reply landed, as reported by the agent. */
export interface Route {
  conversation: string;
  stage: string;
}

export type Assertion =
  | { kind: 'contains'; value: string }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'judge'; criterion: string; threshold: number };

/** One user message, an optional persona tag, an optional assertion, a label. */
export interface Fixture {
  label: string;
  message: string;
  persona: string | null;
  assertion: Assertion | null;
  /** Path of the fixture file relative to the repository root (or cwd), with forward slashes. */
  file: string;
  /** 1-based line of the fixture in its file. */
  line: number;
}

export type Verdict = 'pass' | 'fail' | 'not_evaluated';
export type BaselineVerdict = 'pass' | 'fail';

/** What a maintainer decided was right. */
export interface Baseline {
  label: string;
  reply: string;
  route: Route | null;
  verdict: BaselineVerdict;
  acceptedAt: string;
  commit: string | null;
}

/**
 * Result of running one assertion against a reply. `detail` always says why. A check that ran to
 * the end passes or fails (a judge's score and rationale with it); one that did not run is not
 * evaluated and carries no score: it is never a pass or a fail.
 */
export type Outcome =
  | {
      verdict: 'pass' | 'fail';
      detail: string;
      /** Judge assertions only. */
      score?: number;
      threshold?: number;
      rationale?: string;
    }
  | {
      verdict: 'not_evaluated';
      detail: string;
      /** Judge assertions only: the threshold the score would have been held against. */
      score?: null;
      threshold?: number;
      rationale?: null;
    };

export type DriftVerdict =
  | 'still_passing'
  | 'still_failing'
  | 'newly_passing'
  | 'newly_failing'
  | 'no_baseline'
  | 'not_evaluated';

export const DRIFT_VERDICTS: readonly DriftVerdict[] = [
  'still_passing',
  'still_failing',
  'newly_passing',
  'newly_failing',
  'no_baseline',
  'not_evaluated',
] as const;

export interface Drift {
  reply: 'same' | 'different' | null;
  route: 'same' | 'different' | null;
  verdict: DriftVerdict;
}

/** Why a replay did not produce a reply. */
export type ErrorKind =
  | 'http'
  | 'timeout'
  | 'network'
  | 'invalid_json'
  | 'ended_in_welcome'
  | 'missing_reply'
  | 'internal';

/** What the agent client returns for one fixture: a reply, or an errored replay. */
export type AgentOutcome =
  | {
      kind: 'replied';
      reply: string;
      route: Route | null;
      offTrack: unknown[];
      ended: boolean;
      /** Number of HTTP turns made (welcome + message). */
      turns: number;
    }
  | { kind: 'errored'; errorKind: ErrorKind; error: string };

export interface AgentRequest {
  session: string;
  message: string;
  persona: string | null;
}

/** The side-effect boundary to the agent under test. */
export interface AgentClient {
  converse(request: AgentRequest): Promise<AgentOutcome>;
  close(): Promise<void>;
}

export type JudgeResult =
  | { ok: true; score: number; rationale: string }
  | { ok: false; reason: string };

/** The side-effect boundary to the judge model. */
export interface Judge {
  /** Human description, e.g. "openai gpt-4o-mini" or "demo judge (not a real model)". */
  readonly name: string;
  score(criterion: string, reply: string): Promise<JudgeResult>;
  close(): Promise<void>;
}

export type RegexResult =
  | { kind: 'matched'; match: string }
  | { kind: 'no_match' }
  | { kind: 'compile_error'; message: string }
  | { kind: 'timeout'; budgetMs: number }
  | { kind: 'worker_failed'; message: string };

/** Runs a regular expression against text with a time budget (worker pool). */
export interface RegexEvaluator {
  test(pattern: string, flags: string, text: string): Promise<RegexResult>;
  close(): Promise<void>;
}

export interface Tallies {
  passed: number;
  failed: number;
  notEvaluated: number;
  errored: number;
}

export interface Estimate {
  usd: number;
  capUsd: number;
  aboveCap: boolean;
  confirmed: boolean;
}

/** What every fixture's entry in results.json has, errored or not (SPEC section 9). */
interface FixtureRecordBase {
  label: string;
  file: string;
  line: number;
  message: string;
  persona: string | null;
  assertion: Assertion | null;
  /** Why: what matched or not, the score against the threshold, why the check did not run, or the error. */
  detail: string;
  score: number | null;
  threshold: number | null;
  rationale: string | null;
  baseline: Baseline | null;
  durationMs: number;
}

/** The replay did not complete: no reply, so no verdict and no drift (SPEC section 1). */
export interface ErroredFixtureRecord extends FixtureRecordBase {
  errored: true;
  error: string;
  errorKind: ErrorKind;
  reply: null;
  route: null;
  verdict: null;
  drift: null;
}

/** The replay completed: a reply, a verdict (possibly not evaluated) and its drift. */
export interface ReplayedFixtureRecord extends FixtureRecordBase {
  errored: false;
  error: null;
  errorKind: null;
  reply: string;
  route: Route | null;
  verdict: Verdict;
  drift: Drift;
}

/** One fixture's entry in results.json: "errored with a verdict" cannot be written. */
export type FixtureRecord = ErroredFixtureRecord | ReplayedFixtureRecord;

/** One run's record: results.json, schema version 1. Never changed after it is written. */
export interface RunRecord {
  schemaVersion: 1;
  tool: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  commit: string | null;
  agent: { host: string | null };
  judge: { name: string | null };
  estimate: Estimate;
  tallies: Tallies;
  /**
   * True when the run was stopped (SIGINT, SIGTERM, a cancelled job) before every fixture
   * finished: `fixtures` then lists only those that finished. Absent in older records: false.
   */
  interrupted: boolean;
  fixtures: FixtureRecord[];
}

export type FailOnCondition =
  | 'newly_failing'
  | 'failed'
  | 'not_evaluated'
  | 'errored'
  | 'no_baseline'
  | 'reply_changed'
  | 'route_changed'
  | 'none';

export const FAIL_ON_CONDITIONS: readonly FailOnCondition[] = [
  'newly_failing',
  'failed',
  'not_evaluated',
  'errored',
  'no_baseline',
  'reply_changed',
  'route_changed',
  'none',
] as const;

/** Injected time, so tests never sleep. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
