// One run's record: results.json, schema version 1 (docs/results-json.md).

import type { Baseline, PersonaBaseline, ScriptEnding } from './baseline.js';
import type { Meaning } from './meaning.js';
import type { Assertion, AssertionCheck, ErrorKind, RepeatSummary, Route } from './fixture.js';
import type { JudgeFingerprint, JudgeProvider, JudgeReuse, PanelMember } from './judge.js';
import type { Faster, RunLatency, Slower, TokenUsage } from './latency.js';
import type { Check, PersonaErrorKind, ToolCall, Turn } from './persona.js';
import type { SpanCounts, TimeSplit, WaterfallSpan } from './trace.js';
import type { ItemStats, RunStats } from './stats.js';
import type { Drift, PersonaDrift, Verdict } from './verdict.js';

/** One run's record: results.json, schema version 1. Never changed after it is written. */
export interface RunRecord {
  schemaVersion: 1;
  tool: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  commit: string | null;
  /**
   * The suite folder the run replayed, relative to the root of its git repository (POSIX, `.` for
   * the root itself): accept matches a run to its suite by it (docs/results-json.md). Absent outside a
   * repository and in older records, which accept matches by the folder their files name.
   */
  suitePath?: string;
  /**
   * The suite's config file when it is config.yaml (Suite.configName), named by the causes' fixes
   * (docs/results-json.md); absent: config.yml (and in older records).
   */
  configName?: string;
  /**
   * Where the agent was called: `endpoint` is its URL without credentials, query or fragment (the
   * causes of errors name it); absent in older records.
   */
  agent: { host: string | null; endpoint?: string | null };
  /**
   * `structured`: the judge asked through the provider's schema mechanism (true) or fell back to
   * the plain prompt (false, `structuredFallback` says why); absent: a judge without one, or an older record.
   * `names`: a merge of shards judged by different judges lists them here, `name` saying them each
   * quoted; absent for one judge, so a name that reads as a list is never taken for one.
   */
  judge: { name: string | null; names?: string[]; structured?: boolean; structuredFallback?: string };
  /**
   * The simulator of simulated users (docs/simulated-users.md), as `judge`: its name and whether it
   * asked through the schema mechanism or fell back to the plain prompt; absent when the run had none.
   */
  simulator?: { name: string; structured?: boolean; structuredFallback?: string };
  /**
   * How differing replies got their meaning (docs/meaning.md): `meaning.check`, the meaning judge's
   * model (null without one), its provider and its address without credentials, query or fragment
   * (absent without one, and in older records) and its prompt version. Absent in older records.
   * `models`, `promptVersions`: those of a merge of shards that checked meaning otherwise, listed
   * (`model` and `promptVersion` say them each quoted), as `judge.names`.
   */
  meaning?: { check: 'judge' | 'facts' | 'off'; model: string | null; models?: string[]; provider?: JudgeProvider; endpoint?: string; promptVersion: string; promptVersions?: string[] };
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
  /** The suite's pass-rate change against the baselines (docs/statistics.md, "The run"); absent when no item has a baseline, and in older records. */
  stats?: RunStats;
  /** The run's coverage against `coverage.conversations` of config.yml; null or absent when none is listed. */
  coverage?: CoverageResult | null;
  /** Set when the run replayed only part of the suite (`--rerun`, `--only`); the record lists only those items. */
  selection?: Selection | null;
  /** What the run really asked for (never a bill); absent in records written before it existed. */
  spend?: Spend;
  /** The run replayed one shard of the suite (`--shard i/n`); absent for a whole run and in older records. */
  shard?: ShardInfo;
  /**
   * The repeat the run was given (docs/results-json.md): what an item without its own `repeat` ran
   * with (config.yml's `repeat`, else one attempt, with the flags applied), and `flags`, `--repeat N`
   * / `--repeat-max M` (the Action's `repeat` / `repeat-max` inputs) as given, absent when none.
   * A merge refuses shards that say different ones. Absent in older records.
   */
  repeat?: RunRepeat;
  /**
   * Accepted baselines whose fixture or persona script is no longer in the suite (removed or renamed
   * in this commit): nothing was replayed for them (docs/results-json.md); absent when none, and in older records.
   */
  removed?: RemovedBaseline[];
  /** A merge of shard records that lacks some shards or excluded foreign ones; absent when complete. */
  incomplete?: Incomplete;
  /**
   * What the pull request changed in the suite itself, against its base (docs/action.md, "The PR
   * comment", "Suite edited"); absent when it changed nothing the reviewer needs told, outside a
   * pull request, and in older records.
   */
  suiteEdits?: SuiteEdits;
}

/** A fixture (or persona script) whose check a pull request changed or removed, or that it deleted. */
export interface FixtureEdit {
  label: string;
  /** `persona`: a persona script, whose `before` and `after` are the checks that differ; absent: a fixture. */
  kind?: 'persona';
  /** The fixture's file at the head, relative to the repository (at the base, when deleted). */
  file: string;
  /**
   * `assertion`: its check is another one now (or none); `deleted`: the fixture is gone; `script`:
   * what it replays changed (a fixture's message or persona tag; a script's opening, follow-ups,
   * simulated user, mocks), `before` and `after` being the parts only the base sends and only the
   * head sends; `repeat`: its own repeat changed, `before` and `after` in words (`repeat count 3,
   * minPass 2`), null when it has none (config.yml's applies).
   */
  change: 'assertion' | 'deleted' | 'script' | 'repeat';
  /**
   * The check at the base, in words (`contains "30 days"`), or null for a probe. A script's: the
   * checks the head no longer has (`a and b`; all of them when deleted), or null when none.
   */
  before: string | null;
  /** The check at the head, in words; null for a probe, and for a deleted fixture. A script's: the checks only the head has, or null. */
  after: string | null;
}

/**
 * A setting of config.yml a pull request changed that changes what is replayed or how verdicts are
 * reached (docs/action.md, "Suite edited"): compared by the value it has for the run (its default
 * where a side does not write it), before `${NAME}` is read.
 */
export interface ConfigEdit {
  /** The config file, relative to the repository (the head's; the base's when the head has none). */
  file: string;
  /** `judge.model`, `judge.panel[0].model`, `repeat.minPass`; null with `unreadable`. */
  setting: string | null;
  /**
   * `setting`: `before` and `after` are the value (JSON, an address without its credentials, query
   * or tokens), null when not set and with no default; `secret`: a credential (an API key, a header
   * value) changed, never shown: `before` and `after` are `set` or null; `unreadable`: the file does
   * not read on one side (or is over 1 MB there), `before` and `after` say why (null: read), and no
   * setting was compared.
   */
  change: 'setting' | 'secret' | 'unreadable';
  before: string | null;
  after: string | null;
  /**
   * With `setting`: the side that does not write it, whose value is its default (`both`: neither
   * writes it, and another setting changed its default); absent when both write it or the default
   * is none (`not set`).
   */
  default?: 'before' | 'after' | 'both';
}

/** A baseline file a pull request changed in a commit other than an accept commit. */
export interface BaselineEdit {
  /** The baseline file, relative to the repository. */
  file: string;
  /** As GitHub lists the change: `added`, `modified`, `removed`, `renamed`. */
  status: string;
}

/** A changed file that runs the check: a workflow file, a file of a local action a workflow uses, or a file a `run:` step runs. */
export interface WorkflowEdit extends BaselineEdit {
  /** The local action it is a file of, as a workflow's `uses:` names it (`./tools/replay-action`, `./`); absent otherwise. */
  action?: string;
  /**
   * The workflow (or composite action.yml) that uses the local action, or whose `run:` step names
   * the file; absent for a file under `.github/workflows/` or `.github/actions/`.
   */
  by?: string;
}

export interface SuiteEdits {
  /** The commit the pull request's head was compared with (the merge base). */
  base: string;
  fixtures: FixtureEdit[];
  /** config.yml's settings that change what is replayed or how verdicts are reached; absent when none, and in older records. */
  config?: ConfigEdit[];
  baselines: BaselineEdit[];
  /**
   * The files the pull request changed that run the check: the workflow files (under
   * `.github/workflows/` and `.github/actions/`), the files of the local actions a workflow at
   * the base or the head uses, and the files its `run:` steps run; each as GitHub lists it (`file`
   * at the head, at the base when removed): they decide what runs the check and with which inputs,
   * and can rewrite the checked-out suite or the agent's address before the check reads them, none
   * of which is compared. Absent when none, from git, and in older records.
   */
  workflows?: WorkflowEdit[];
  /** Why the comparison could not be made, or made only in part; null when it was made whole. */
  unknown: string | null;
  /**
   * `git`: the CLI's `run --base`, read with git (docs/cli.md): every changed baseline is listed,
   * as git cannot tell who made a commit. Absent: GitHub's comparison of the pull request, in which
   * baselines written by accept commits are not listed.
   */
  source?: 'git';
  /** With `source: 'git'`: the revision given to `run --base` (`main`, `origin/main`), as given; absent in older records. */
  rev?: string;
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
  /** Meaning judge calls at most, counted in `usd` (docs/meaning.md, "Costs"): an upper bound. Absent: none (meaning.check not judge, or nothing to compare). */
  meaningCalls?: number;
  /**
   * Adaptive attempts (docs/statistics.md, "The estimate"): `usd` counts max attempts for `items`
   * items that could get extra ones, so it is an upper bound; `lowUsd` is the cost with no extra
   * attempt. Absent: no item could get one.
   */
  adaptive?: { items: number; lowUsd: number };
}

/**
 * Spend (docs/semantics.md#cost): agent turns answered, the requests the agent was sent and how many of them were
 * retries, judge calls made (and retried) and judge results reused. Counted where the requests happen; an estimate
 * stays in USD.
 */
export interface Spend {
  agentTurns: number;
  agentRetries: number;
  /** Every request sent to the agent, its retries included, answered or not. Absent: an older record, or an agent client that does not tell (a test's). */
  agentRequests?: number;
  judgeCalls: number;
  judgeRetries?: number;
  judgeReused: number;
  /** Simulated users (docs/simulated-users.md): simulator calls made, their retries, and user messages replayed from baselines. Absent: 0. */
  simulatorCalls?: number;
  simulatorRetries?: number;
  baselineTurns?: number;
  /** Meaning (docs/meaning.md, "Cost"): meaning judge calls made, answers reused within the run, meanings decided with no call. Absent: meaning.check off, or an older record. */
  meaningCalls?: number;
  meaningReused?: number;
  meaningAvoided?: number;
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
  /** An errored item's connection that failed: where it was tried (`127.0.0.1:3000`, `[::1]:3000`, a host name that did not resolve), kept from the error, not read back from its message (docs/results-json.md); absent otherwise and in older records. */
  errorAddress?: string | null;
  /** The message turn's latency (docs/latency.md); null when it was not answered; absent in older records. */
  latencyMs?: number | null;
  /** The message turn's time to first text of a streamed reply; null otherwise. */
  firstTokenMs?: number | null;
  /** The welcome turn's latency; null without a welcome turn or when it was not answered. */
  welcomeLatencyMs?: number | null;
  /** Tokens the item's turns reported, summed (docs/latency.md, "Usage"); null when none reported; absent in older records. */
  usage?: TokenUsage | null;
  /**
   * Present (true) only when `usage` is some turns' alone (docs/latency.md, "Usage"): the welcome
   * turn reported tokens and the message turn none, or none read, or the welcome turn's were not
   * read beside the message turn's (a repeated fixture: an attempt
   * that replied). Left out of the change against the baselines; absent in older records.
   */
  usagePartial?: true;
  /** Hash of what defines the item (message, persona tag, assertion kind and value; not the judge's criterion). Absent in older records. */
  definitionHash?: string | null;
  /** The judge as it judged this item (judge assertions only; else null). Absent in older records. */
  judgeFingerprint?: JudgeFingerprint | null;
  /** Present only when the fixture ran more than once. */
  repeat?: RepeatSummary;
  /** Every attempt in order (present only with `repeat`); the item shows the first that replied. */
  attempts?: FixtureAttempt[];
  /** Pass-rate statistics against the baseline's attempts (docs/statistics.md); present only with more than one attempt in the run or the baseline, and an attempt now checked (passed or failed). */
  stats?: ItemStats;
  /** Set when the score and rationale were reused from the baseline (no judge call); null or absent when a call was made or none was needed. */
  judgeReused?: JudgeReuse | null;
  /** A panel of judges judged the reply: every member's answer, in the panel's order; absent for a single judge. */
  members?: PanelMember[] | null;
  /** An assertion list only (`assertion.kind` "all"): each check's own result, in order; absent otherwise. */
  checks?: AssertionCheck[];
  /** Present only when the item was slower than its baseline (docs/latency.md). */
  slower?: Slower;
  /** Present only when the item was faster than its baseline by the latency rule mirrored (docs/latency.md, "Views"). */
  faster?: Faster;
  /** The trace id sent with the message turn (docs/traces.md); absent in older records. */
  traceId?: string | null;
  /** The message turn's spans, counted (docs/traces.md); absent or null without `traces:`. */
  spans?: SpanCounts | null;
  /** Where the message turn's time went, from its spans (docs/traces.md, "Time"); absent or null without spans. */
  time?: TimeSplit | null;
  /** The message turn's spans for report.html's waterfall (docs/traces.md); absent or null without spans. */
  waterfall?: WaterfallSpan[] | null;
  /** Tool calls of the message turn (from the response, its spans or both; docs/traces.md); absent when none were reported or seen. */
  toolCalls?: ToolCall[] | null;
}

/** One attempt of a repeated fixture, as it ran. */
export interface FixtureAttempt {
  errored: boolean;
  error: string | null;
  errorKind: ErrorKind | null;
  reply: string | null;
  route: Route | null;
  /** Attempts after the first: this reply's meaning against attempt 1's when they differ (docs/meaning.md, "Repeats"); absent otherwise. */
  meaning?: Meaning | null;
  verdict: Verdict | null;
  detail: string;
  score: number | null;
  rationale: string | null;
  /** This attempt's score was reused from the baseline (no judge call); absent when a call was made. */
  judgeReused?: JudgeReuse | null;
  /** This attempt's message turn latency (docs/latency.md); absent in older records. */
  latencyMs?: number | null;
  /** This attempt's message turn time split, from its spans (docs/traces.md, "Slower"); absent without spans. */
  time?: TimeSplit | null;
  /** Tokens this attempt's turns reported (docs/latency.md, "Usage"); absent when none, and in older records. */
  usage?: TokenUsage | null;
  /** Present (true) only when this attempt's `usage` is some turns' alone (FixtureRecord.usagePartial). */
  usagePartial?: true;
  durationMs: number;
  /** A panel of judges judged this attempt: every member's answer, in the panel's order; absent for a single judge. */
  members?: PanelMember[] | null;
  /** An assertion list only (`assertion.kind` "all"): this attempt's checks, each its own result, in order; absent otherwise and in older records. */
  checks?: AssertionCheck[];
  /**
   * An errored attempt whose message turn's stream was cut short: the tool calls it had begun, as
   * received, as an errored fixture that ran once keeps them (docs/presets.md, "Streamed replies");
   * absent otherwise, and in older records.
   */
  toolCalls?: ToolCall[];
}

/**
 * The replay did not complete: no verdict and no drift (docs/semantics.md#verdicts). No reply either,
 * except for an agent_error (an ERROR span of the message turn), which keeps the reply and route the
 * agent answered with (docs/traces.md, "Fixtures").
 */
export interface ErroredFixtureRecord extends FixtureRecordBase {
  errored: true;
  error: string;
  errorKind: ErrorKind;
  reply: string | null;
  route: Route | null;
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
  /**
   * Scripted follow-ups only, on a script that did not error: who ended the conversation
   * (docs/personas.md, "Baselines and drift"); absent for a simulated script (its `simulation`
   * says), an errored one, and in older records.
   */
  endedBy?: ScriptEnding;
  /** Conversations visited over the completed turns, in first-visit order. */
  visited: string[];
  /** Outcome of the turn that ended the conversation, else of the last completed turn. */
  outcome: string | null;
  checks: Check[];
  baseline: PersonaBaseline | null;
  durationMs: number;
  /** An errored item's connection that failed: where it was tried (`127.0.0.1:3000`, `[::1]:3000`, a host name that did not resolve), kept from the error, not read back from its message (docs/results-json.md); absent otherwise and in older records. */
  errorAddress?: string | null;
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
  /** Pass-rate statistics against the baseline's attempts (docs/statistics.md); present only with more than one attempt in the run or the baseline, and an attempt now checked (passed or failed). */
  stats?: ItemStats;
  /** Hash of the transcript as the judge read it (when criteria were judged); absent otherwise. */
  transcriptHash?: string | null;
  /** Simulated scripts only (docs/simulated-users.md); absent for scripted follow-ups. */
  simulation?: SimulationRecord;
  /** Present only when the script was slower than its baseline (docs/latency.md). */
  slower?: Slower;
  /** Present only when the script was faster than its baseline by the latency rule mirrored (docs/latency.md, "Views"). */
  faster?: Faster;
  /** Mocked or live mode (docs/personas.md, "Mocks and real tool calls"). Absent in older records. */
  toolMode?: ToolMode;
  /**
   * An errored script whose failing turn's stream was cut short (it ended early, broke off or
   * outlived the deadline): the tool calls that turn had begun, as received (docs/presets.md,
   * "Streamed replies"); absent otherwise, and in older records.
   */
  errorToolCalls?: ToolCall[];
}

/** `mocked`: a tool call no mock answered errors the script; `live`: real calls are recorded and checked. */
export type ToolMode = 'mocked' | 'live';

/** One attempt of a repeated persona script, as it ran. */
export interface PersonaAttempt {
  /** Simulated scripts only: how this attempt's conversation went (each attempt starts from the baseline). */
  simulation?: SimulationRecord;
  /** Attempts after the first: this transcript's meaning against attempt 1's when they differ (docs/meaning.md, "Repeats"); absent otherwise. */
  meaning?: Meaning | null;
  errored: boolean;
  error: string | null;
  errorKind: PersonaErrorKind | null;
  verdict: Verdict | null;
  turns: Turn[];
  unsent: string[];
  /** A scripted script's attempt that did not error: who ended its conversation (PersonaRecordBase.endedBy); absent otherwise and in older records. */
  endedBy?: ScriptEnding;
  visited: string[];
  outcome: string | null;
  checks: Check[];
  /** Hash of this attempt's transcript as the judge read it (when its criteria were judged); absent otherwise and in older records. */
  transcriptHash?: string | null;
  /** This attempt errored on a turn whose stream was cut short: the calls that turn had begun (PersonaRecordBase.errorToolCalls); absent otherwise and in older records. */
  errorToolCalls?: ToolCall[];
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

/** How a simulated script's conversation went, in its record (docs/simulated-users.md). */
export interface SimulationRecord {
  goal: string;
  /** The script's instructions to the simulated user (null: none); absent in records written before it was kept. */
  instructions?: string | null;
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

/** A baseline without its item: its label, the kind it was accepted for, and its file as shown (relative to where the run started). */
export interface RemovedBaseline {
  label: string;
  kind: 'fixture' | 'persona';
  file: string;
}

/** The repeat a run was given (RunRecord.repeat). */
export interface RunRepeat {
  count: number;
  minPass: number;
  /** Adaptive attempts: at most `max` (docs/statistics.md, "Adaptive attempts"); absent when not above `count`. */
  max?: number;
  /**
   * `--repeat N` (`count`) and `--repeat-max M` (`max`) as given; absent when neither was.
   * `changed`: the items replayed whose own `repeat` they changed (absent in older records).
   */
  flags?: { count?: number; max?: number; changed?: number };
}

/** Which shard a record holds: `index` is 1-based as in `--shard i/n`; `suiteHash` names the whole suite. */
export interface ShardInfo {
  index: number;
  total: number;
  suiteHash: string;
  /**
   * A hash of the whole partition (every shard's labels): equal in the shards that split the suite
   * alike, another when a shard was balanced by other timings. Absent in records written before it.
   */
  partition?: string;
}

/**
 * What a merge of shard records lacks: the shards of the suite (`suiteHash`, `total`) that were not
 * given, and the records of another suite, shard count or partition that were excluded (described in a few words).
 */
export interface Incomplete {
  total: number;
  suiteHash: string;
  missing: number[];
  foreign: string[];
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

/** Which part of the suite a shard run replayed, for the terminal and the log. */
export interface ShardRun {
  index: number;
  total: number;
  /** Items of this shard (before any `--only` / `--rerun` selection) and of the whole suite. */
  items: number;
  of: number;
  method: 'timings' | 'hash';
}
