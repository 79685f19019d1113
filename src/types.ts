// The domain's plain data. Every module speaks these types; none of them carries behaviour.
// Field names are camelCase; enum values are the snake_case words of docs/semantics.md.

/** Where the reply landed, as reported by the agent. */
export interface Route {
  conversation: string;
  stage: string;
}

/** One check on a fixture's reply (docs/fixtures.md, "Assertions"). */
export type SingleAssertion =
  | { kind: 'contains'; value: string }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'judge'; criterion: string; threshold: number }
  /** The message turn took at most `ms` (docs/latency.md): deterministic, on the client's clock. */
  | { kind: 'maxLatency'; ms: number };

/** A fixture's assertion: one check, or a list of checks that must all pass (`assert: [...]`). */
export type Assertion = SingleAssertion | { kind: 'all'; assertions: SingleAssertion[] };

/** One check of an assertion list, with its own result (the record's `checks`). */
export interface AssertionCheck {
  assertion: SingleAssertion;
  /** Named as a persona script's checks name theirs. */
  status: Verdict;
  detail: string;
  score: number | null;
  threshold: number | null;
  rationale: string | null;
}

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
  /** The fixture's own `repeat` (it replaces config.yml's); absent: the global one applies. */
  repeat?: Repeat;
}

/**
 * Repeat (docs/fixtures.md#repeat-measure-flakiness-instead-of-suffering-it): run an item `count` times (each attempt its own session) and pass it when at
 * least `minPass` attempts pass. `count` 1 is an ordinary item.
 */
export interface Repeat {
  count: number;
  minPass: number;
}

/** What a repeated item's record says of its attempts (present only when count > 1). */
export interface RepeatSummary extends Repeat {
  /** Attempts whose verdict was pass: the k of "k/N". */
  passed: number;
  /** The attempts' outcomes (pass, fail, not evaluated, errored) are not all the same. */
  flaky: boolean;
}

/** One attempt of a repeated fixture, as it ran. */
export interface FixtureAttempt {
  errored: boolean;
  error: string | null;
  errorKind: ErrorKind | null;
  reply: string | null;
  route: Route | null;
  verdict: Verdict | null;
  detail: string;
  score: number | null;
  rationale: string | null;
  /** This attempt's score was reused from the baseline (no judge call); absent when a call was made. */
  judgeReused?: JudgeReuse | null;
  /** This attempt's message turn latency (docs/latency.md); absent in older records. */
  latencyMs?: number | null;
  durationMs: number;
  /** A panel of judges judged this attempt: every member's answer, in the panel's order; absent for a single judge. */
  members?: PanelMember[] | null;
}

export type Verdict = 'pass' | 'fail' | 'not_evaluated';
export type BaselineVerdict = 'pass' | 'fail';

/** What a maintainer decided was right. */
export interface Baseline {
  label: string;
  reply: string;
  route: Route | null;
  verdict: BaselineVerdict;
  /** A repeated item's attempts when accepted (docs/statistics.md); absent: 1 of 1 (pass) or 0 of 1 (fail). */
  attempts?: BaselineAttempts;
  /**
   * Judge reuse: the judge's result for this reply when the accepted item was judged, with
   * the fingerprint it was judged under. Absent in baselines accepted before it existed, and for
   * items without a judge assertion.
   */
  judge?: BaselineJudge;
  /**
   * The accepted reply's latency: the fixture's message turn's `latencyMs` (null when it was not
   * measured). Absent in baselines accepted before it existed (docs/latency.md).
   */
  latencyMs?: number | null;
  /** Tokens the accepted item's turns reported (docs/latency.md, "Usage"); null: none; absent in older baselines. */
  usage?: TokenUsage | null;
  acceptedAt: string;
  commit: string | null;
}

/** The attempts behind an accepted verdict: passes out of attempts made (docs/statistics.md). */
export interface BaselineAttempts {
  passed: number;
  total: number;
}

/** A judge result kept in a baseline: reused while the reply and the fingerprint are the same. */
export interface BaselineJudge {
  score: number;
  rationale: string;
  fingerprint: JudgeFingerprint;
  /** A panel's result: every member's answer (the verdict is their majority); absent for a single judge. */
  members?: PanelMember[];
}

/** Where a reused judge result came from: the baseline's commit and acceptance time. */
export interface JudgeReuse {
  commit: string | null;
  acceptedAt: string;
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
      /** A panel of judges: every member's answer. */
      members?: PanelMember[];
    }
  | {
      verdict: 'not_evaluated';
      detail: string;
      /** Judge assertions only: the threshold the score would have been held against. */
      score?: null;
      threshold?: number;
      rationale?: null;
      /** A panel of judges: every member's answer (too few of them usable). */
      members?: PanelMember[];
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
      /** Where the welcome turn landed and what it signalled; null (or absent) without a welcome turn. */
      welcome?: { route: Route | null; offTrack: unknown[] } | null;
      /** The message turn's timing (docs/latency.md); absent from a client that does not measure. */
      timing?: TurnTiming;
      /** The welcome turn's latency; absent without a welcome turn. */
      welcomeLatencyMs?: number;
      /** Tokens the welcome and message turns reported, summed (docs/latency.md, "Usage"); null or absent: none reported. */
      usage?: TokenUsage | null;
    }
  | {
      kind: 'errored';
      errorKind: ErrorKind;
      error: string;
      /** Turns the agent answered before the failure (a welcome turn, a reply without the mapped field); absent: 0. */
      answered?: number;
    };

export interface AgentRequest {
  session: string;
  message: string;
  persona: string | null;
}

/** Opens a persona session: every turn carries the session id, the persona and the mocks. */
export interface SessionRequest {
  session: string;
  persona: string | null;
  mocks: Mock[];
}

/** One turn of a session, as the agent answered it (before anything is recorded). */
export type SessionTurn =
  | {
      kind: 'replied';
      reply: string;
      route: Route | null;
      offTrack: unknown[];
      ended: boolean;
      /** Null: the response does not report tool calls (no `toolCalls` key, or no mapping). */
      toolCalls: ToolCall[] | null;
      outcome: string | null;
      /** The response reports outcomes (has the key `outcome`, even null, under a mapping). */
      outcomeReported: boolean;
      errors: AgentErrorEntry[];
      /** The turn's timing (docs/latency.md); absent from a client that does not measure. */
      timing?: TurnTiming;
      /** Tokens the turn reported (docs/latency.md, "Usage"); null or absent: none reported. */
      usage?: TokenUsage | null;
    }
  | { kind: 'errored'; errorKind: PersonaErrorKind; error: string };

/** p50 / p95 (nearest rank) of the message turns' latency, and how many turns they are over. */
export interface RunLatency {
  turns: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * One answered turn's timing on the agent client's clock (docs/latency.md): request sent to the
 * last byte, and to the first non-empty text delta of a streamed reply (null otherwise).
 */
export interface TurnTiming {
  latencyMs: number;
  firstTokenMs: number | null;
}

/**
 * Tokens a response reported (docs/latency.md, "Usage"), read from the vendor's own field; never
 * estimated, never a bill. Summed per item and per run; null wherever nothing was reported.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A multi-turn conversation with the agent: the welcome turn, then messages in order. */
export interface AgentSession {
  /** Null when the agent has no welcome turn. */
  welcome(): Promise<SessionTurn | null>;
  /** `turn` numbers the message from 1 (the opening), for error messages. */
  send(message: string, turn: number): Promise<SessionTurn>;
}

/** The side-effect boundary to the agent under test. */
/**
 * Spend (docs/semantics.md#cost): agent turns answered, their retries counted separately, judge calls made (and
 * retried) and judge results reused. Counted where the requests happen; an estimate stays in USD.
 */
export interface Spend {
  agentTurns: number;
  agentRetries: number;
  judgeCalls: number;
  judgeRetries?: number;
  judgeReused: number;
  /** Simulated users (docs/simulated-users.md): simulator calls made, their retries, and user messages replayed from baselines. Absent: 0. */
  simulatorCalls?: number;
  simulatorRetries?: number;
  baselineTurns?: number;
}

export interface AgentClient {
  converse(request: AgentRequest): Promise<AgentOutcome>;
  /** A persona script's session (docs/personas.md). */
  session(request: SessionRequest): AgentSession;
  close(): Promise<void>;
}

export type JudgeResult =
  | { ok: true; score: number; rationale: string; members?: PanelMember[] }
  | { ok: false; reason: string; members?: PanelMember[] };

/**
 * One member's answer in a panel of judges (docs/judges.md, "Panels"): its label ("provider model"
 * unless it has one), and its score and rationale, or the reason it gave no usable score.
 */
export interface PanelMember {
  label: string;
  score: number | null;
  rationale: string | null;
  /** Why this member gave no usable score; null when it gave one. */
  reason: string | null;
}

/** Whether a judge asks through the provider's schema mechanism, or fell back to the plain prompt and why. */
export type JudgeStructuredOutput = { structured: true } | { structured: false; reason: string };

/** The side-effect boundary to the judge model. */
export interface Judge {
  /** Human description, e.g. "openai gpt-4o-mini" or "demo judge (not a real model)". */
  readonly name: string;
  score(criterion: string, reply: string): Promise<JudgeResult>;
  /** One criterion of a persona script against the whole transcript (rationale asked before score). */
  scoreTranscript(criterion: string, transcript: readonly Turn[]): Promise<JudgeResult>;
  /** A real model's client: whether it still asks through the schema mechanism; absent: no such mechanism. */
  structuredOutput?(): JudgeStructuredOutput;
  close(): Promise<void>;
}

/** What the simulator is asked for one user message (docs/personas.md, "Simulated users"); every text already redacted. */
export interface SimulatorRequest {
  goal: string;
  instructions: string | null;
  persona: string | null;
  /** The message turn whose user message is asked for (1 is the opening). */
  turn: number;
  maxTurns: number;
  /** The conversation so far (the welcome turn included when there is one). */
  transcript: readonly Turn[];
}

/** The simulator's answer: the next user message, done (goal reached or given up), or a fault. */
export type SimulatorAnswer =
  | { kind: 'message'; message: string; retries: number }
  | { kind: 'done'; reason: string; retries: number }
  | { kind: 'fault'; fault: string; retries: number };

/** The side-effect boundary to the model that plays a simulated user. */
export interface Simulator {
  /** Human description, e.g. "openai gpt-4o-mini". */
  readonly name: string;
  next(request: SimulatorRequest): Promise<SimulatorAnswer>;
  /** Whether it still asks through the provider's schema mechanism, or fell back to the plain prompt and why. */
  structuredOutput?(): JudgeStructuredOutput;
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
  /** Starts up to `count` workers now (at the start of a run), so the first evaluation finds them ready. */
  warm?(count: number): void;
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

/** What every fixture's entry in results.json has, errored or not (docs/results-json.md). */
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
  /** The message turn's latency (docs/latency.md); null when it was not answered; absent in older records. */
  latencyMs?: number | null;
  /** The message turn's time to first text of a streamed reply; null otherwise. */
  firstTokenMs?: number | null;
  /** The welcome turn's latency; null without a welcome turn or when it was not answered. */
  welcomeLatencyMs?: number | null;
  /** Tokens the item's turns reported, summed (docs/latency.md, "Usage"); null when none reported; absent in older records. */
  usage?: TokenUsage | null;
  /** Hash of what defines the item (message, persona tag, assertion kind and value; not the judge's criterion). Absent in older records. */
  definitionHash?: string | null;
  /** The judge as it judged this item (judge assertions only; else null). Absent in older records. */
  judgeFingerprint?: JudgeFingerprint | null;
  /** Present only when the fixture ran more than once. */
  repeat?: RepeatSummary;
  /** Every attempt in order (present only with `repeat`); the item shows the first that replied. */
  attempts?: FixtureAttempt[];
  /** Set when the score and rationale were reused from the baseline (no judge call); null or absent when a call was made or none was needed. */
  judgeReused?: JudgeReuse | null;
  /** A panel of judges judged the reply: every member's answer, in the panel's order; absent for a single judge. */
  members?: PanelMember[] | null;
  /** An assertion list only (`assertion.kind` "all"): each check's own result, in order; absent otherwise. */
  checks?: AssertionCheck[];
  /** Present only when the item was slower than its baseline (docs/latency.md). */
  slower?: Slower;
}

/**
 * An item slower than its baseline (docs/latency.md, "Slower than the baseline"): more than
 * `latency.slowerBy` and more than `latency.minDeltaMs` over the baseline's latency. `latencyMs` is
 * the item's (a repeated item's: the median of its attempts').
 */
export interface Slower {
  baselineMs: number;
  latencyMs: number;
}

/** config.yml `latency` (docs/latency.md): both thresholds strict ("more than"). */
export interface LatencyThresholds {
  /** A fraction of the baseline's latency: 0.5 is 50 % slower. */
  slowerBy: number;
  minDeltaMs: number;
}

/** The replay did not complete: no reply, so no verdict and no drift (docs/semantics.md#verdicts). */
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
  /**
   * Where the agent was called: `endpoint` is its URL without credentials, query or fragment (the
   * causes of errors name it); absent in older records.
   */
  agent: { host: string | null; endpoint?: string | null };
  /**
   * `structured`: the judge asked through the provider's schema mechanism (true) or fell back to
   * the plain prompt (false, `structuredFallback` says why); absent: a judge without one, or an older record.
   */
  judge: { name: string | null; structured?: boolean; structuredFallback?: string };
  /**
   * The simulator of simulated users (docs/simulated-users.md), as `judge`: its name and whether it
   * asked through the schema mechanism or fell back to the plain prompt; absent when the run had none.
   */
  simulator?: { name: string; structured?: boolean; structuredFallback?: string };
  estimate: Estimate;
  tallies: Tallies;
  /**
   * True when the run was stopped (SIGINT, SIGTERM, a cancelled job) before every fixture
   * finished: `fixtures` then lists only those that finished. Absent in older records: false.
   */
  interrupted: boolean;
  fixtures: FixtureRecord[];
  /** Persona scripts (docs/personas.md). Absent in older records: []. */
  personas: PersonaRecord[];
  /** Turn latency over the run's answered message turns (docs/latency.md); null without any; absent in older records. */
  latency?: RunLatency | null;
  /** Tokens reported over the run's items (docs/latency.md, "Usage"); absent when no turn reported any. */
  usage?: TokenUsage | null;
  /** The run's coverage against `coverage.conversations` of config.yml; null or absent when none is listed. */
  coverage?: CoverageResult | null;
  /** Set when the run replayed only part of the suite (`--rerun`, `--only`); the record lists only those items. */
  selection?: Selection | null;
  /** What the run really asked for (never a bill); absent in records written before it existed. */
  spend?: Spend;
  /** The run replayed one shard of the suite (`--shard i/n`); absent for a whole run and in older records. */
  shard?: ShardInfo;
  /** A merge of shard records that lacks some shards or excluded foreign ones; absent when complete. */
  incomplete?: Incomplete;
}

/** Which shard a record holds: `index` is 1-based as in `--shard i/n`; `suiteHash` names the whole suite. */
export interface ShardInfo {
  index: number;
  total: number;
  suiteHash: string;
}

/**
 * What a merge of shard records lacks: the shards of the suite (`suiteHash`, `total`) that were not
 * given, and the records of another suite or shard count that were excluded (described in a few words).
 */
export interface Incomplete {
  total: number;
  suiteHash: string;
  missing: number[];
  foreign: string[];
}

// ---------------------------------------------------------------------------------------------
// Evaluations over runs (docs/evaluations.md).

/**
 * What judged an item: the judge model, the judge prompt's version, and each criterion with its
 * threshold (a fixture's judge assertion has one; a persona script one per criterion, in order).
 */
export interface JudgeFingerprint {
  /** "provider/model" of the configured judge (or the judge's name when it is not configured); null: no judge. */
  model: string | null;
  promptVersion: string;
  criteria: Array<{ criterion: string; threshold: number }>;
}

/** Conversations listed in config.yml against those the run visited (all items, all turns). */
export interface CoverageResult {
  /** As listed in `coverage.conversations`. */
  listed: string[];
  /** Every `route.conversation` the run saw, in first-seen order. */
  visited: string[];
  /** Listed but never visited (the `conversations:` prefix rule applies). */
  gaps: string[];
  /** Visited but not listed. */
  unknown: string[];
}

/** Why a record holds only part of the suite. */
export interface Selection {
  /** The results file whose failed, not evaluated and errored items were replayed; null: not a rerun. */
  rerunOf: string | null;
  /** The `--only` patterns (labels or globs); null: no `--only`. */
  only: string[] | null;
  /** The labels replayed. */
  labels: string[];
}

// ---------------------------------------------------------------------------------------------
// Scripted personas (docs/personas.md): one scripted user through a whole conversation.

/** A JSON value as read from YAML or an agent's response (tool inputs and outputs). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** How a conversation ended, as the agent reports it (`outcome`). */
export type Terminal = 'finish' | 'handoff' | 'switch';
export const TERMINALS: readonly Terminal[] = ['finish', 'handoff', 'switch'] as const;

/** How an expected tool input is compared with an actual one; `subset` is the default. */
export type MatchMode = 'exact' | 'subset';
export const MATCH_MODES: readonly MatchMode[] = ['exact', 'subset'] as const;

/**
 * A declarative tool mock, sent to the agent with every turn: the agent answers its tool call
 * `tool` with `output` when the call's input matches `input` (absent: any call) by `match`.
 */
export interface Mock {
  tool: string;
  /** Absent: any call of `tool` matches. */
  input?: JsonValue;
  match: MatchMode;
  output: JsonValue;
}

/** One `toolCalled` / `toolNotCalled` entry: a tool name and, optionally, its input. */
export interface ToolExpectation {
  tool: string;
  /** Absent: any call of `tool` matches. */
  input?: JsonValue;
  match: MatchMode;
}

/** A script's `expect` block; at least one expectation is present (else a configuration error). */
export interface PersonaExpect {
  /** Conversations that must all be visited; empty: not checked. */
  conversations: string[];
  /** How the conversation must end; null: not checked. */
  terminal: Terminal | null;
  toolCalled: ToolExpectation[];
  toolNotCalled: ToolExpectation[];
  /** Plain-language statements, each judged separately against the whole transcript. */
  criteria: string[];
  /** Deterministic checks on the replies, each its own check; absent or empty: none. */
  reply?: ReplyExpectation[];
  /** Latency budget in ms for every message turn: one check naming the slowest (docs/latency.md); absent: none. */
  maxTurnLatencyMs?: number;
}

/**
 * Which reply an `expect.reply` entry checks: a message turn number (0 is the welcome turn), the
 * last turn with a reply, or `any` (some reply of the script; the default).
 */
export type ReplyTurn = number | 'last' | 'any';

/** One `expect.reply` entry: a literal, case-sensitive text or a regex (run in the time-limited worker). */
export type ReplyExpectation = { contains: string; turn: ReplyTurn } | { regex: string; flags: string; turn: ReplyTurn };

/** One persona script as loaded from `.agent-replay/personas/*.yml`. */
export interface PersonaScript {
  label: string;
  /** Path of the script file relative to the repository root (or cwd), with forward slashes. */
  file: string;
  /** 1-based line of the script in its file. */
  line: number;
  /** The script's own `repeat` (it replaces config.yml's); absent: the global one applies. */
  repeat?: Repeat;
  /** Optional handle, sent to the agent as `persona`. */
  persona: string | null;
  /** The first user message; null only with a simulated `user` (the simulator then writes message 1 too). */
  opening: string | null;
  /** Scripted follow-ups; always empty with a simulated `user`. */
  followUps: string[];
  /** Message turns allowed (opening + follow-ups); default 20. With a simulated `user`, its `maxTurns`. */
  maxTurns: number;
  /**
   * A simulated user in place of the follow-ups (docs/personas.md, "Simulated users"); absent or
   * null: a scripted persona.
   */
  user?: SimulatedUser | null;
  /** Threshold for criteria; default 0.7. */
  threshold: number;
  mocks: Mock[];
  /**
   * A tool call no mock answered: `error` (mocked mode, the default when the script declares mocks)
   * or `allow` (live mode, the default without mocks). Absent: config.yml's `personas.unmockedTools`,
   * else that default.
   */
  unmockedTools?: 'error' | 'allow';
  expect: PersonaExpect;
}

/** A tool call the agent reports for one turn. */
export interface ToolCall {
  tool: string;
  /** The call's input (null when the agent reported none). */
  input: JsonValue;
  /** The call's output (null when the agent reported none). */
  output: JsonValue;
  /** False: the agent ran the real tool (no mock answered it); in mocked mode the script is errored. */
  mocked: boolean;
}

/** An entry of a response's `errors` array; any entry makes the script errored. */
export interface AgentErrorEntry {
  kind: string;
  tool: string | null;
  message: string;
}

/** One turn of a persona transcript. */
export interface Turn {
  /** 0 for the welcome turn, then 1 (the opening), 2, ... */
  index: number;
  /** The user's message; null for the welcome turn. */
  message: string | null;
  reply: string;
  route: Route | null;
  offTrack: unknown[];
  /** Null when the agent did not report tool calls for this turn (no `toolCalls` key / mapped path null). */
  toolCalls: ToolCall[] | null;
  /** The reported outcome (`finish`, `handoff`, `switch`, or whatever else the agent said), or null. */
  outcome: string | null;
  errors: AgentErrorEntry[];
  durationMs: number;
  /** Request sent to last byte (docs/latency.md); absent in older records and from unmeasured clients. */
  latencyMs?: number | null;
  /** Request sent to the first non-empty text delta of a streamed reply; null when not streamed. */
  firstTokenMs?: number | null;
  /** Tokens the turn reported (docs/latency.md, "Usage"); null or absent: none reported. */
  usage?: TokenUsage | null;
  /**
   * Who wrote the user's message, on the message turns of a simulated script only (docs/simulated-users.md):
   * the script (its `opening`), the baseline (a stored message replayed word for word) or the simulator (live).
   */
  source?: TurnSource;
}

export type TurnSource = 'script' | 'baseline' | 'simulator';

/** A persona script's simulated user (`user:` instead of `followUps`; docs/simulated-users.md). */
export interface SimulatedUser {
  goal: string;
  instructions: string | null;
  /** Message turns allowed (the opening included), 1 to 20. */
  maxTurns: number;
}

/** How a simulated script's conversation went, in its record (docs/simulated-users.md). */
export interface SimulationRecord {
  goal: string;
  /** The first message turn whose user message the simulator wrote live in this run; null when none was (all from the script or the baseline). */
  liveFromTurn: number | null;
  /** What ended the conversation: the simulator said done, the agent ended it, the turn limit, a simulator fault, or an agent fault. */
  endedBy: 'simulator' | 'agent' | 'max_turns' | 'simulator_fault' | 'agent_fault';
  /** The simulator's `done` reason (live, or the baseline's when replayed to its end); null otherwise. */
  doneReason: string | null;
  /** Simulator calls made by this run of the script (retries not counted), and their retries. */
  calls: number;
  retries: number;
  /** Why the simulator could not play the user ("simulator unreachable: ..."); the script is then not evaluated. Null otherwise. */
  fault: string | null;
}

export type CheckStatus = 'pass' | 'fail' | 'not_evaluated';

/** A reported tool call with the turn it was made in. */
export interface ObservedToolCall extends ToolCall {
  turn: number;
}

interface CheckBase {
  status: CheckStatus;
  /** Why: what was visited and missing, what was observed, the score against the threshold, or why it did not run. */
  detail: string;
}

/** One check of a persona script; each toolCalled / toolNotCalled entry and each criterion is its own. */
export type Check =
  | (CheckBase & {
      kind: 'conversations';
      expected: string[];
      /** Every conversation visited, in first-visit order (welcome included). */
      observed: string[];
    })
  | (CheckBase & {
      kind: 'terminal';
      expected: Terminal;
      /** The outcome of the turn that ended the conversation, else of the last turn. */
      observed: string | null;
    })
  | (CheckBase & {
      kind: 'toolCalled' | 'toolNotCalled';
      expected: ToolExpectation;
      /** Every reported call of the expected tool (any input), in order. */
      observed: ObservedToolCall[];
      /** Turn of the first matching call, or null when none matched. */
      turn: number | null;
    })
  | (CheckBase & {
      kind: 'reply';
      expected: ReplyExpectation;
      /** The reply the check decided on (the matching one for `any`), or null when there is none. */
      observed: string | null;
      /** The turn of that reply, or null. */
      turn: number | null;
    })
  | (CheckBase & {
      kind: 'maxTurnLatency';
      /** The budget in ms. */
      expected: number;
      /** The slowest message turn's latency in ms, or null when no message turn was measured. */
      observed: number | null;
      /** The slowest message turn, or null. */
      turn: number | null;
    })
  | (CheckBase & {
      kind: 'criterion';
      /** The statement judged. */
      expected: string;
      observed: null;
      score: number | null;
      threshold: number;
      rationale: string | null;
      /** Set when the score was reused from the baseline (no judge call); absent otherwise. */
      reused?: JudgeReuse | null;
      /** A panel of judges: every member's answer, in the panel's order; absent for a single judge. */
      members?: PanelMember[];
    });

export type CheckKind = Check['kind'];

/**
 * Why a script is errored: a replay failure of any turn, a response whose tool calls, outcome or
 * errors have the wrong shape, a real (unmocked) tool call, or an error the agent itself reported.
 */
export type PersonaErrorKind = ErrorKind | 'invalid_response' | 'unmocked_tool' | 'agent_error';

/** A persona baseline: `<baselines>/<label>.json` with `kind: "persona"`. */
export interface PersonaBaseline {
  label: string;
  kind: 'persona';
  transcript: Array<{ message: string | null; reply: string; route: Route | null; source?: TurnSource }>;
  /** Simulated scripts only: the simulator's `done` reason when it ended the accepted conversation, else null. */
  simulation?: { doneReason: string | null };
  visited: string[];
  outcome: string | null;
  verdict: BaselineVerdict;
  /** A repeated script's attempts when accepted (docs/statistics.md); absent: 1 of 1 (pass) or 0 of 1 (fail). */
  attempts?: BaselineAttempts;
  /** Judge reuse: the criteria's results for this transcript; absent in older baselines and without criteria. */
  judge?: PersonaBaselineJudge;
  /**
   * The accepted conversation's latency: the sum of its turns' `latencyMs` (null when any turn was
   * not measured). Absent in baselines accepted before it existed (docs/latency.md).
   */
  latencyMs?: number | null;
  /** Tokens the accepted script's turns reported (docs/latency.md, "Usage"); null: none; absent in older baselines. */
  usage?: TokenUsage | null;
  acceptedAt: string;
  commit: string | null;
}

/**
 * A persona baseline's judge results: the judge model and prompt version, a hash of the
 * transcript exactly as the judge read it (tool calls included), and each criterion judged, with
 * its threshold, score and rationale. A criterion that was not evaluated is not kept.
 */
export interface PersonaBaselineJudge {
  model: string | null;
  promptVersion: string;
  transcriptHash: string;
  criteria: Array<{ criterion: string; threshold: number; score: number; rationale: string; members?: PanelMember[] }>;
}

export interface PersonaDrift {
  /** Any reply or the number of turns differs. */
  transcript: 'same' | 'different' | null;
  /** The sequence of routes differs. */
  route: 'same' | 'different' | null;
  verdict: DriftVerdict;
}

/** What every persona entry in results.json has, errored or not (docs/personas.md). */
interface PersonaRecordBase {
  label: string;
  file: string;
  line: number;
  persona: string | null;
  /** The turns that completed, welcome (index 0) included when the agent has one. */
  turns: Turn[];
  /** Messages not sent: the agent ended the conversation early, or the run failed before them. */
  unsent: string[];
  /** Conversations visited over the completed turns, in first-visit order. */
  visited: string[];
  /** Outcome of the turn that ended the conversation, else of the last completed turn. */
  outcome: string | null;
  checks: Check[];
  baseline: PersonaBaseline | null;
  durationMs: number;
  /** Sum of the completed turns' latency, welcome included (docs/latency.md); absent in older records. */
  latencyMs?: number | null;
  /** Sum of the completed turns' time to first text (streamed turns only); null when none streamed. */
  firstTokenMs?: number | null;
  /** Tokens the completed turns reported, summed (docs/latency.md, "Usage"); null or absent: none reported. */
  usage?: TokenUsage | null;
  /** Hash of the script (messages, persona, mocks) and its expectations other than criteria. Absent in older records. */
  definitionHash?: string | null;
  /** The judge as it judged the criteria (null when the script has none). Absent in older records. */
  judgeFingerprint?: JudgeFingerprint | null;
  /** Present only when the script ran more than once. */
  repeat?: RepeatSummary;
  /** Every attempt in order (present only with `repeat`); the item shows the first that completed. */
  attempts?: PersonaAttempt[];
  /** Hash of the transcript as the judge read it (when criteria were judged); absent otherwise. */
  transcriptHash?: string | null;
  /** Simulated scripts only (docs/simulated-users.md); absent for scripted follow-ups. */
  simulation?: SimulationRecord;
  /** Present only when the script was slower than its baseline (docs/latency.md). */
  slower?: Slower;
  /** Mocked or live mode (docs/personas.md, "Mocks and real tool calls"). Absent in older records. */
  toolMode?: ToolMode;
}

/** `mocked`: a tool call no mock answered errors the script; `live`: real calls are recorded and checked. */
export type ToolMode = 'mocked' | 'live';

/** One attempt of a repeated persona script, as it ran. */
export interface PersonaAttempt {
  /** Simulated scripts only: how this attempt's conversation went (each attempt starts from the baseline). */
  simulation?: SimulationRecord;
  errored: boolean;
  error: string | null;
  errorKind: PersonaErrorKind | null;
  verdict: Verdict | null;
  turns: Turn[];
  unsent: string[];
  visited: string[];
  outcome: string | null;
  checks: Check[];
  durationMs: number;
}

/** The run did not complete cleanly: no verdict, no drift; the transcript and deterministic checks stay. */
export interface ErroredPersonaRecord extends PersonaRecordBase {
  errored: true;
  error: string;
  errorKind: PersonaErrorKind;
  verdict: null;
  drift: null;
}

export interface ReplayedPersonaRecord extends PersonaRecordBase {
  errored: false;
  error: null;
  errorKind: null;
  verdict: Verdict;
  drift: PersonaDrift;
}

/** One persona script's entry in results.json. */
export type PersonaRecord = ErroredPersonaRecord | ReplayedPersonaRecord;

export type FailOnCondition =
  | 'newly_failing'
  | 'unverified'
  | 'failed'
  | 'not_evaluated'
  | 'errored'
  | 'no_baseline'
  | 'reply_changed'
  | 'route_changed'
  | 'flaky'
  | 'slower'
  | 'none';

/** The judge providers agent-replay has a client for (config.yml `judge.provider`, the `judge-provider` input). */
export const JUDGE_PROVIDERS = ['openai', 'anthropic'] as const;
export type JudgeProvider = (typeof JUDGE_PROVIDERS)[number];

export const FAIL_ON_CONDITIONS: readonly FailOnCondition[] = [
  'newly_failing',
  'unverified',
  'failed',
  'not_evaluated',
  'errored',
  'no_baseline',
  'reply_changed',
  'route_changed',
  'flaky',
  'slower',
  'none',
] as const;

/** Injected time, so tests never sleep. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Which part of the suite a shard run replayed, for the terminal and the log. */
export interface ShardRun {
  index: number;
  total: number;
  /** Items of this shard (before any `--only` / `--rerun` selection) and of the whole suite. */
  items: number;
  of: number;
  method: 'timings' | 'hash';
}
