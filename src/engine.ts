// The engine shared by the CLI and the Action: load -> estimate -> replay -> record. Entries
// (cli.ts, main.ts) decide where output goes; this module decides nothing about the surface.

import { resolve as resolvePath } from 'node:path';
import { JUDGE_DEFAULTS, panelMemberConfig, type Config, type JudgeConfig } from './config.js';
import type { AgentClient, Clock, Estimate, FailOnCondition, Fixture, Judge, JudgeProvider, PersonaScript, RegexEvaluator, RemovedBaseline, RunRecord, Simulator, Spend, TurnObserver } from './types.js';
import { loadSuite, noAgentUrlIssue, removedBaselines, repoPathOf, type ConfigIssue, type ConfigOverrides, type Suite } from './suite/index.js';
import type { IssueAt } from './suite/config/shared.js';
import { pathText, withYamlPackage, type PathSegment } from './suite/yaml/index.js';
import { personaTurns } from './evaluate/personas.js';
import { agentTurnsOf, criteriaCount, estimateCost, withAdaptiveRange, meaningCallsAtMost, simulatorCalls, gateRun, mayRun, judgeCalls, rerunLabels, reusedCount, runCoverage, selectLabels, unmatchedOnlyText, type GateResult, type SelectionResult } from './evaluate/index.js';
import { replay, type Progress, type ReplayDeps } from './replay/index.js';
import { createHttpAgentClient, observeTurns, responseOnly } from './agent/index.js';
import { fillLateSpans, startSpanSource, traceObserver } from './traces/index.js';
import { networkFrom, type Network } from './http/network.js';
import { waitForAgent } from './agent/ready.js';
import { NEW_CONFIG_NAME } from './suite/config-names.js';
import { createRegexPool } from './assertions/index.js';
import { poolPatternCount, withInlineRegex } from './assertions/regex-inline.js';
import { callsPerCriterion, configuredJudgeName, createConfiguredJudge, judgeEndpointOf, judgeModelOf } from './judge/index.js';
import { urlEndpoint } from './endpoint.js';
import { createSimulator, simulatorConfig, SIMULATOR_PROMPT_VERSION } from './simulator/index.js';
import { makeRedactor } from './secrets.js';
import { createMeaningJudge, MEANING_PROMPT_VERSION, type MeaningJudge } from './judge/meaning.js';
import { meaningRunConfig } from './judge/meaning-config.js';
import type { MeaningRung } from './replay/meaning.js';
import { TOOL } from './version.js';
import { selectShard, type ShardItem } from './evaluate/shard.js';
import { fixtureDefinitionHash, personaDefinitionHash } from './evaluate/definition.js';
import { attemptsAtMost, itemRepeat, policyOf, runRepeat } from './evaluate/finish.js';
import { runStatsOf, statsSeed } from './evaluate/run-stats.js';
import type { ShardInfo, ShardRun } from './types.js';
import type { Timer } from './http/retry.js';
import { UserError } from './errors.js';

export type { ShardRun } from './types.js';

export interface EngineDeps {
  /** Factories, so tests and the demo can swap any side effect. */
  makeAgent?: (config: Config) => AgentClient;
  /**
   * The regex worker pool; a run and a probe match on the main thread before it what needs no
   * worker (runRegex). Tests: a pool that counts its jobs and workers.
   */
  makeRegexPool?: (config: Config) => RegexEvaluator;
  makeJudge?: (config: Config) => Judge | null;
  /** The simulator of simulated users; default: an HTTP client from `simulator:` (each key not given: the judge's). */
  makeSimulator?: (config: Config) => Simulator | null;
  /**
   * Where a turn's tool calls, errors and usage come from (docs/traces.md, "Where tool calls come
   * from"); default: the response only. A span reader (agent/observe.ts `spanObserver`) goes here.
   */
  makeTurnObserver?: (config: Config) => TurnObserver;
  clock?: Clock;
  /**
   * Starts each agent attempt's agent.timeoutMs (http/retry.ts, Timer) in the HTTP client that
   * `run` and `probe` make: a real timer when absent. Tests fire it once their agent holds the
   * request, so a turn never answered times out in its own words on a loaded machine too.
   */
  agentTimer?: Timer;
  wallClock?: () => Date;
  onProgress?: (progress: Progress) => void;
  /** Each item as it finishes (replay's onItem): the CLI and the Action stream results.json with it. */
  onItem?: ReplayDeps['onItem'];
  /**
   * Aborted when the run is interrupted (SIGINT, SIGTERM): the replay stops starting fixtures,
   * abandons those in flight and records what finished, marked `interrupted`.
   */
  signal?: AbortSignal;
}

export interface CheckOptions {
  dir: string;
  cwd?: string;
  env: Record<string, string | undefined>;
  overrides?: ConfigOverrides;
  /** Shown as the "file" of an issue about an override (the Action: OVERRIDES_SOURCE); default `command-line options`. */
  overridesSource?: string;
  confirmCost: boolean;
  failOn: readonly FailOnCondition[];
  commit: string | null;
  /** Seconds to wait for the agent before the first fixture (flag or input); undefined/null: agent.waitForAgent. */
  waitForAgent?: number | null;
  /** Progress of the wait ("agent not ready yet ..."). */
  onWaitLog?: (line: string) => void;
  /** A warning found while replaying (a token usage of no known shape, told once); it changes no verdict. */
  onWarning?: (message: string) => void;
  /**
   * The load's warnings (a pattern that does not compile, an unknown key), told once the suite has
   * loaded without errors, before anything is sent or waited for (docs/cli.md, "What each command
   * does"). They are in the result's `warnings` all the same.
   */
  onLoadWarnings?: (warnings: readonly ConfigIssue[]) => void;
  /** A line for the run's log: where spans are received or read from (docs/traces.md, "Set-up"). */
  onLog?: (line: string) => void;
  /** The clock of the wait only (tests of the Action: no real sleeps); default: `deps.clock`. */
  waitClock?: Clock;
  /**
   * Set when the suite comes from code the workflow does not trust while secrets are at hand (a
   * deployment of a fork's pull request): says why, e.g. "the head of #12, from a fork". Then the
   * judge key is only sent to the provider's own API or to a base URL the caller gave.
   */
  untrustedSuite?: string | null;
  /** Replay only part of the suite (docs/evaluations.md, "Rerun and only"): `--rerun` (a record read by the caller) and/or `--only` patterns. */
  selection?: { rerunOf: { file: string; record: RunRecord } | null; only: string[] | null };
  /**
   * Replay shard `index` (1-based) of `total`; `timings` (label -> ms, from a previous
   * record) balances the partition by duration, else it goes by a hash of the label.
   */
  shard?: { index: number; total: number; timings: ReadonlyMap<string, number> | null };
}


export type CheckResult =
  | { kind: 'config_errors'; errors: ConfigIssue[]; warnings: ConfigIssue[] }
  | {
      kind: 'refused';
      estimate: Estimate;
      fixtureCount: number;
      /** Judge calls of fixtures and of persona criteria. */
      judgeCalls: number;
      /** Persona scripts that would have run (each counted with all its turns). */
      personaCount?: number;
      /** Simulator calls at most, of simulated scripts (docs/simulated-users.md). */
      simulatorCalls?: number;
      /** Agent turns the estimate prices: every attempt's, welcome turns included (docs/semantics.md, "Cost"). */
      agentTurns?: number;
      suite: Suite;
      warnings: ConfigIssue[];
    }
  | {
      kind: 'ran';
      record: RunRecord;
      gate: GateResult;
      /** With a selection, the suite narrowed to the items replayed. */
      suite: Suite;
      warnings: ConfigIssue[];
      /** Set when only part of the suite was replayed (`--rerun`, `--only`). */
      selection?: SelectionResult;
      /** Set for a shard run (`--shard i/n`). */
      shard?: ShardRun;
    };

/** A command line the CLI cannot run: reported with the usage text, exit status 2. */
export class UsageError extends UserError {
  override name = 'UsageError';
}

/**
 * Host only: never the path or query, which may carry tokens; with any secret redacted, as a host
 * read from `${NAME}` is one (docs/security.md, "Secrets").
 */
export function agentHost(url: string | null, redact: (text: string) => string = (t) => t): string | null {
  if (url === null) return null;
  try {
    return redact(new URL(url).host);
  } catch {
    return null;
  }
}

/**
 * The meaning judge's provider and address as the record keeps them (docs/results-json.md): its
 * address as the rubric judge's fingerprint keeps that judge's (judgeEndpointOf); none when no
 * meaning judge was made.
 */
function meaningJudgeWhere(settings: JudgeConfig | null, made: boolean, redact: (text: string) => string): { provider?: JudgeProvider; endpoint?: string } {
  if (settings === null || !made) return {};
  const endpoint = judgeEndpointOf(settings, redact);
  return { provider: settings.provider, ...(endpoint !== '' ? { endpoint } : {}) };
}

/**
 * The regex evaluator of a run and of a probe (docs/architecture.md, "The regex time budget"): a
 * pattern that does not compile, or whose matching time has a small bound, is decided on the main
 * thread (withInlineRegex); the others by a pool of `workers` threads, started now (while the agent
 * is being called, not at the first evaluation) when `items` have patterns that may need them.
 */
export function runRegex(config: Config, deps: EngineDeps, workers: number, items: { fixtures: readonly Pick<Fixture, 'assertion'>[]; personas: readonly PersonaScript[] }): RegexEvaluator {
  const pool = deps.makeRegexPool ? deps.makeRegexPool(config) : createRegexPool({ size: workers, timeoutMs: config.regex.timeoutMs });
  const regex = withInlineRegex(pool);
  const count = poolPatternCount(
    items.fixtures.map((f) => f.assertion),
    items.personas,
  );
  if (count > 0) regex.warm?.(count);
  return regex;
}

export function judgeName(config: Config): string | null {
  if (config.judge === null) return null;
  return configuredJudgeName(config.judge);
}

/**
 * Narrows the suite to the items a `--rerun` record and `--only` patterns select. A pattern that
 * matches no label of the suite is a usage error naming it (nothing is replayed).
 */
function selectSuite(
  suite: Suite,
  selection: NonNullable<CheckOptions['selection']>,
): { suite: Suite; result: SelectionResult; selection: NonNullable<RunRecord['selection']> } {
  const all = [...suite.fixtures, ...suite.personas].map((i) => i.label);
  const result = selectLabels(all, selection.rerunOf === null ? null : rerunLabels(selection.rerunOf.record), selection.only);
  if (result.unmatched.length > 0) {
    throw new UsageError(unmatchedOnlyText(result.unmatched, all));
  }
  const keep = new Set(result.labels);
  return {
    suite: { ...suite, fixtures: suite.fixtures.filter((f) => keep.has(f.label)), personas: suite.personas.filter((p) => keep.has(p.label)) },
    result,
    selection: { rerunOf: selection.rerunOf?.file ?? null, only: selection.only, labels: result.labels },
  };
}

/** The shard of the whole suite that `--shard i/n` replays (see src/evaluate/shard.ts). */
function shardSuite(suite: Suite, shard: NonNullable<CheckOptions['shard']>): { labels: Set<string>; info: ShardInfo; run: ShardRun } {
  const welcome = suite.config.agent.start !== null ? 1 : 0;
  const items: ShardItem[] = [
    ...suite.fixtures.map((f) => ({ label: f.label, turns: 1, definitionHash: fixtureDefinitionHash(f) })),
    ...suite.personas.map((p) => ({ label: p.label, turns: welcome + (p.user ? p.user.maxTurns : 1 + p.followUps.length), definitionHash: personaDefinitionHash(p, SIMULATOR_PROMPT_VERSION) })),
  ];
  const picked = selectShard(items, shard, shard.timings);
  return { labels: picked.labels, info: picked.info, run: { index: shard.index, total: shard.total, items: picked.labels.size, of: items.length, method: picked.method } };
}

function narrowSuite(suite: Suite, keep: ReadonlySet<string> | null): Suite {
  if (keep === null) return suite;
  return { ...suite, fixtures: suite.fixtures.filter((f) => keep.has(f.label)), personas: suite.personas.filter((p) => keep.has(p.label)) };
}

/** A selection within one shard: the labels it selects there (the record lists only those). */
function narrowSelection(selected: ReturnType<typeof selectSuite>, keep: ReadonlySet<string>): ReturnType<typeof selectSuite> {
  const labels = selected.result.labels.filter((l) => keep.has(l));
  return { suite: narrowSuite(selected.suite, keep), result: { ...selected.result, labels }, selection: { ...selected.selection, labels } };
}

/**
 * What a check of a key a fork's config file may not steer reads: the config, the options, how to
 * place an issue at a key of the file, and the file's name as the suite has it (config.yml, or
 * config.yaml: docs/configuration.md).
 */
interface SteerCheck {
  config: Config;
  options: CheckOptions;
  at: IssueAt;
  file: string;
}

/**
 * The fix of a steered-key refusal: its `ways` (what to change in the file or the workflow), then
 * the way every such refusal shares, running the suite from a trusted commit (docs/security.md,
 * "Forks and deployment_status").
 */
function steeredFix(...ways: string[]): string {
  return [...ways, 'run the suite from a trusted commit'].join(', or ');
}

/**
 * A suite from untrusted code may not choose where the judge key goes: its config file naming
 * another judge address than the provider's own API is refused (nothing is sent anywhere), unless
 * the caller gave the address (the judge-base-url input, from the workflow file of the default branch).
 */
function judgeSteered({ config, options, at, file }: SteerCheck): ConfigIssue | null {
  const judge = config.judge;
  if (!options.untrustedSuite || judge === null || options.overrides?.judge?.baseUrl) return null;
  const own = JUDGE_DEFAULTS[judge.provider].baseUrl;
  if (judge.baseUrl.replace(/\/+$/, '') === own) return null;
  return at(
    ['judge', 'baseUrl'],
    `judge.baseUrl in this commit's ${file} is ${new URL(judge.baseUrl).origin}, but the commit is ${options.untrustedSuite}: its ${file} may not choose where the judge key is sent (only to ${own}, the ${judge.provider} API)`,
    steeredFix('give the judge address with the judge-base-url input of the workflow (the workflow file comes from the default branch)', `remove judge.baseUrl from ${file}`),
  );
}

/**
 * The same rule for a panel member that names its own address (docs/judges.md, "Panels"): it
 * carries the judge's key or its own, so from untrusted code that address must be its provider's
 * own API, or the judge address the caller gave. A member without an address of its own takes the
 * judge's, which judgeSteered checks.
 */
function panelSteered(check: SteerCheck): ConfigIssue | null {
  const judge = check.config.judge;
  if (!check.options.untrustedSuite || !judge?.panel) return null;
  for (const [i, settings] of judge.panel.entries()) {
    if (settings.baseUrl === undefined) continue;
    const issue = keySteered(check, ['judge', 'panel', i, 'baseUrl'], 'the panel member', panelMemberConfig(judge, settings));
    if (issue !== null) return issue;
  }
  return null;
}

/**
 * The same rule for the simulator, which may carry the judge's key: from untrusted code, its
 * address must be its provider's own API, or the judge address the caller gave.
 */
function simulatorSteered(check: SteerCheck): ConfigIssue | null {
  if (!check.options.untrustedSuite || check.config.simulator === undefined) return null;
  const sim = simulatorConfig(check.config);
  if (sim === null) return null;
  return keySteered(check, ['simulator', 'baseUrl'], 'the simulator', sim);
}

/**
 * The same rule for the meaning judge, which carries the judge's key unless `meaning:` gives its
 * own (docs/meaning.md, "Configuration"): from untrusted code, its address must be its provider's
 * own API, or the judge address the caller gave.
 */
function meaningSteered(check: SteerCheck): ConfigIssue | null {
  if (!check.options.untrustedSuite || check.config.meaning?.baseUrl === undefined) return null;
  const judge = meaningRunConfig(check.config).judge;
  if (judge === null) return null;
  return keySteered(check, ['meaning', 'baseUrl'], 'the meaning judge', judge);
}

/**
 * A key the commit's config file would send (`who`'s) to an address (at `path` in the file) that
 * is neither its provider's own API nor the judge address the caller gave; null when there is no
 * key. An address `path` holds only because it names the file's judge provider, which the
 * judge-provider input changed, is the file's `judge.baseUrl`: the refusal names that key, the
 * one the file wrote, at its line (docs/judges.md, "The judge-provider input").
 */
function keySteered({ config, options, at, file }: SteerCheck, path: readonly PathSegment[], who: string, to: { baseUrl: string; provider: keyof typeof JUDGE_DEFAULTS; apiKey: string | null }): ConfigIssue | null {
  if (to.apiKey === null) return null;
  const base = to.baseUrl.replace(/\/+$/, '');
  const own = JUDGE_DEFAULTS[to.provider].baseUrl;
  const given = options.overrides?.judge?.baseUrl?.replace(/\/+$/, '');
  if (base === own || (given !== undefined && base === given)) return null;
  const key = pathText(path);
  const refused = `but the commit is ${options.untrustedSuite}: its ${file} may not choose where ${who}'s key is sent (only to ${own}, the ${to.provider} API)`;
  if (config.judgeBaseUrlKeptAt?.includes(key) === true && config.judge !== null) {
    const member = key.replace(/\.baseUrl$/, '');
    return at(
      ['judge', 'baseUrl'],
      `judge.baseUrl in this commit's ${file} is ${new URL(to.baseUrl).origin}, kept for ${member} (provider: ${to.provider}, ${file}'s judge provider, which the judge-provider input changed to ${config.judge.provider}), ${refused}`,
      steeredFix(`remove judge.baseUrl from ${file} (${member} then uses ${own}, the ${to.provider} API)`, `remove the judge-provider input (${member} then uses the judge-base-url address)`),
    );
  }
  return at(path, `${key} in this commit's ${file} is ${new URL(to.baseUrl).origin}, ${refused}`, steeredFix(`remove ${key} from ${file} (${who} then uses the judge address the workflow gives)`));
}

/**
 * The first key of the suite's config file that would send a key where a fork's commit may not
 * (docs/security.md, "Forks and deployment_status"), placed at its line in the file; null when
 * none does, or the suite is trusted.
 */
async function steeredKey(suite: Suite, options: CheckOptions): Promise<ConfigIssue | null> {
  if (!options.untrustedSuite) return null;
  const check: SteerCheck = { config: suite.config, options, at: suite.configAt, file: suite.configName };
  // Placing reads the file's positions, which may need the `yaml` package (never for a valid suite).
  return withYamlPackage(() => judgeSteered(check) ?? panelSteered(check) ?? simulatorSteered(check) ?? meaningSteered(check));
}

/** What a run replays, once the suite is loaded, selected, sharded and its cost allowed. */
interface PreparedRun {
  suite: Suite;
  warnings: ConfigIssue[];
  selected: ReturnType<typeof selectSuite> | null;
  sharded: ReturnType<typeof shardSuite> | null;
  estimate: Estimate;
  policy: ReturnType<typeof policyOf>;
  meaningSettings: ReturnType<typeof meaningRunConfig>;
  /** The whole suite's baselines without an item (before selection and sharding: docs/results-json.md). */
  removed: RemovedBaseline[];
}

/** Loads the suite, checks the cost cap, replays, evaluates. Nothing is spent when the suite has errors or the cap refuses. */
export async function runCheck(options: CheckOptions, deps: EngineDeps = {}): Promise<CheckResult> {
  const loaded = await loadSuite({
    dir: options.dir,
    env: options.env,
    overrides: options.overrides,
    overridesSource: options.overridesSource,
    cwd: options.cwd,
    untrustedSuite: options.untrustedSuite ?? null,
  });
  if (loaded.errors.length > 0 || loaded.suite === null) {
    return { kind: 'config_errors', errors: loaded.errors, warnings: loaded.warnings };
  }
  if (loaded.warnings.length > 0) options.onLoadWarnings?.(loaded.warnings);
  const steered = await steeredKey(loaded.suite, options);
  if (steered !== null) return { kind: 'config_errors', errors: [steered], warnings: loaded.warnings };
  // The selection is taken on the whole suite (a pattern is checked against every label), then
  // narrowed to the shard: shards partition the whole suite whatever is selected.
  const chosen = options.selection ? selectSuite(loaded.suite, options.selection) : null;
  const sharded = options.shard ? shardSuite(loaded.suite, options.shard) : null;
  const selected = chosen === null || sharded === null ? chosen : narrowSelection(chosen, sharded.labels);
  const suite = narrowSuite(selected?.suite ?? loaded.suite, sharded?.labels ?? null);
  const { config } = suite;
  if (config.agent.url === null && deps.makeAgent === undefined) {
    return {
      kind: 'config_errors',
      warnings: loaded.warnings,
      errors: [noAgentUrlIssue(options.dir, options.cwd ?? process.cwd(), "pass --agent-url URL to the CLI, or set the Action's agent-url input")],
    };
  }
  const policy = policyOf(config);
  const meaningSettings = meaningRunConfig(config);
  // No judge, no judge call: a judge assertion or criterion is then not evaluated (docs/semantics.md, "Cost").
  const judged = config.judge !== null || deps.makeJudge !== undefined;
  // No simulator (neither simulator: nor judge:), no simulator call: a live turn is then not evaluated (docs/simulated-users.md).
  const simulated = simulatorConfig(config) !== null || deps.makeSimulator !== undefined;
  const cost = estimateRun(suite, policy, meaningSettings, options.confirmCost, { judged, simulated });
  if (!mayRun(cost.estimate)) {
    return {
      kind: 'refused',
      estimate: cost.estimate,
      fixtureCount: suite.fixtures.length,
      judgeCalls: cost.judgeCalls,
      personaCount: suite.personas.length,
      simulatorCalls: cost.simulatorCalls,
      agentTurns: cost.agentTurns,
      suite,
      warnings: loaded.warnings,
    };
  }
  const removed = removedBaselines(loaded.suite, options.cwd ?? process.cwd());
  return replayWithAgent({ suite, warnings: loaded.warnings, selected, sharded, estimate: cost.estimate, policy, meaningSettings, removed }, options, deps);
}

/**
 * The run's cost estimate, a worst case: a repeated item costs every one of its attempts, and an
 * item that could get extra attempts costs max (docs/statistics.md, "The estimate"); the cost at
 * count is the range's low end. A panel of judges costs every member's call (docs/judges.md,
 * "Cost"); meaning calls are counted at most (docs/meaning.md, "Costs"), only when the check asks
 * a model. Without a judge (`judged` false) no judge call is counted: a judge assertion or a
 * script's criterion is not evaluated then (docs/semantics.md, "Cost"); without a simulator
 * (`simulated` false), no simulator call.
 */
function estimateRun(
  suite: Suite,
  policy: PreparedRun['policy'],
  meaningSettings: PreparedRun['meaningSettings'],
  confirmCost: boolean,
  { judged, simulated }: { judged: boolean; simulated: boolean },
): { estimate: Estimate; judgeCalls: number; simulatorCalls: number; agentTurns: number } {
  const { config } = suite;
  const fixtureAttempts = suite.fixtures.map((f) => ({ at: itemRepeat(f, policy).count, most: attemptsAtMost(f, suite.baselines.get(f.label) ?? null, policy) }));
  const personaAttempts = suite.personas.map((p) => ({ at: itemRepeat(p, policy).count, most: attemptsAtMost(p, suite.personaBaselines.get(p.label) ?? null, policy) }));
  // Each item n(i) times, in order; a loop, not an array per item (5,000 fixtures: docs/performance.md).
  const times = <T>(items: readonly T[], n: (i: number) => number): T[] => {
    const out: T[] = [];
    for (let i = 0; i < items.length; i++) for (let k = n(i); k > 0; k--) out.push(items[i] as T);
    return out;
  };
  const assertions = suite.fixtures.map((f) => f.assertion);
  const attempts = times(assertions, (i) => (fixtureAttempts[i] as { most: number }).most);
  const scriptAttempts = times(suite.personas, (i) => (personaAttempts[i] as { most: number }).most);
  const adaptiveItems = [...fixtureAttempts, ...personaAttempts].filter((a) => a.most > a.at).length;
  // Judge calls per judge assertion or criterion: a panel's members, none without a judge.
  const perCriterion = judged ? callsPerCriterion(config.judge) : 0;
  const welcomeTurn = config.agent.start !== null;
  // Meaning calls at most for the given attempts per item (the range's two ends each count their own).
  const meaningCallsFor = (n: (a: { at: number; most: number }) => number): number =>
    meaningSettings.check !== 'judge' || meaningSettings.judge === null
      ? 0
      : meaningCallsAtMost([
          ...suite.fixtures.map((f, i) => ({ replies: 1, attempts: n(fixtureAttempts[i] as { at: number; most: number }), baseline: suite.baselines.has(f.label) })),
          // A script's welcome turn gets a meaning too (docs/meaning.md, "Persona scripts"): it is a reply compared.
          ...suite.personas.map((p, i) => ({ replies: personaTurns(p, welcomeTurn), attempts: n(personaAttempts[i] as { at: number; most: number }), baseline: suite.personaBaselines.has(p.label) })),
        ]);
  const meaningCalls = meaningCallsFor((a) => a.most);
  const atCount =
    adaptiveItems === 0
      ? null
      : estimateCost(
          times(assertions, (i) => (fixtureAttempts[i] as { at: number }).at),
          config.cost,
          confirmCost,
          { welcomeTurn },
          times(suite.personas, (i) => (personaAttempts[i] as { at: number }).at),
          perCriterion,
          // The low end is the run with no extra attempt: its meaning calls too (docs/statistics.md, "The estimate").
          meaningCallsFor((a) => a.at),
          simulated,
        );
  return {
    estimate: withAdaptiveRange(estimateCost(attempts, config.cost, confirmCost, { welcomeTurn }, scriptAttempts, perCriterion, meaningCalls, simulated), atCount, adaptiveItems),
    judgeCalls: (judgeCalls(attempts) + criteriaCount(scriptAttempts)) * perCriterion,
    simulatorCalls: simulated ? simulatorCalls(scriptAttempts) : 0,
    agentTurns: agentTurnsOf(attempts.length, config.cost, welcomeTurn, scriptAttempts),
  };
}

/**
 * The run itself: its network and span source, the readiness wait, the clients, the replay and
 * the record. Every client made is closed, whatever throws.
 */
async function replayWithAgent(run: PreparedRun, options: CheckOptions, deps: EngineDeps): Promise<CheckResult> {
  const { suite, selected, sharded, estimate, policy, meaningSettings } = run;
  const { config } = suite;
  // How the run's clients reach their servers: directly, or through the proxy the environment names
  // (docs/configuration.md, "Behind a proxy"). A value that is not a proxy address stops the run here.
  const network = await networkFrom(options.env);
  // Every text of the run that leaves it is redacted here: the record's (replay), a client's
  // warning, which may quote what the agent sent (the keys of its answer), and the log's lines,
  // which name the addresses of config.yml (a trace store's path may hold a token).
  const redact = makeRedactor(config.secrets);
  const onWarning = options.onWarning === undefined ? undefined : (message: string) => options.onWarning?.(redact(message));
  const onLog = (line: string): void => options.onLog?.(redact(line));
  for (const [what, url] of [['the agent', config.agent.url], ['the judge', config.judge?.baseUrl ?? null]] as const) {
    if (url === null) continue;
    const via = network.via(url);
    if (via !== null) onLog(`network: ${what} (${new URL(url).origin}) through the proxy ${via}`);
  }
  // Spans (docs/traces.md): the receiver starts before the readiness wait, so that an agent started
  // after agent-replay can be pointed at the port the log names; closed when the run ends.
  const traces = deps.makeTurnObserver === undefined && config.traces != null ? await startSpanSource(config.traces, { network }) : null;
  if (traces !== null) onLog(traces.where);
  // A traceparent of your own puts every turn in one trace, and a turn reads every span of it so far
  // (docs/traces.md, "What is read from spans"): turns in flight at once would read each other's.
  if (traces !== null && config.agent.concurrency > 1 && Object.keys(config.agent.headers).some((h) => h.toLowerCase() === 'traceparent')) {
    onWarning?.(
      `traces: agent.headers sets its own traceparent, so every turn goes out in one trace, and with agent.concurrency ${String(config.agent.concurrency)} the turns in flight at once read each other's spans (tool calls, errors, time) as their own: set agent.concurrency: 1 (or --concurrency 1), or remove the traceparent header so that each turn gets a trace of its own`,
    );
  }
  // Created one by one inside the try, so that whatever was created is closed even when a later
  // factory throws (a leaked worker pool or dispatcher would keep the process alive).
  let agent: AgentClient | null = null;
  let regex: RegexEvaluator | null = null;
  let judge: Judge | null = null;
  let simulator: Simulator | null = null;
  let meaningJudge: MeaningJudge | null = null;
  try {
    // Readiness: throws AgentNotReady (nothing replayed, nothing spent) when the agent never answers.
    const wait = options.waitForAgent ?? config.agent.waitForAgent;
    if (wait > 0 && config.agent.url !== null) {
      await waitForAgent({ url: config.agent.url, headers: config.agent.headers, seconds: wait, clock: options.waitClock ?? deps.clock, signal: deps.signal, log: options.onWaitLog, network, redact, configName: suite.configName });
    }
    const meter = spendMeter(deps.makeAgent === undefined);
    // Where tool calls come from (docs/traces.md): applied to the client's turns, then metered.
    const observer =
      deps.makeTurnObserver?.(config) ??
      (traces !== null && config.traces != null ? traceObserver(traces.source, { endpoint: traces.endpoint, receiving: traces.receiving, waitMs: config.traces.waitMs }) : responseOnly);
    const client = deps.makeAgent
      ? deps.makeAgent(config)
      : createHttpAgentClient(config.agent, { clock: deps.clock, signal: deps.signal, onRetry: meter.agentRetry, onRequest: meter.agentRequest, onWarning, onTraceSent: (trace) => observer.beforeSend(trace), network, timer: deps.agentTimer, configName: suite.configName });
    agent = meter.agent(observeTurns(client, observer));
    // A pattern whose matching time has a small bound is matched on the main thread; the others in
    // the pool, whose workers start now, none when no pattern may need them.
    regex = runRegex(config, deps, config.regex.workers, suite);
    // Spend is counted at each client that makes calls: every member of a panel.
    judge = deps.makeJudge
      ? meterOrNull(deps.makeJudge(config), meter.judge)
      : config.judge
        ? createConfiguredJudge(config.judge, { clock: deps.clock, onRetry: meter.judgeRetry, signal: deps.signal, network }, meter.judge)
        : null;
    // Made only when the suite has a simulated script; each key not given under simulator: is the judge's.
    if (suite.personas.some((p) => p.user)) {
      meter.simulated();
      simulator = meterOrNull(makeSimulator(config, deps, { onRetry: meter.simulatorRetry, network }), meter.simulator);
    }
    // The meaning judge (docs/meaning.md): the judge's client with its own prompt, made at the start
    // beside the judge, so that its calls (at judge.concurrency) overlap the agent calls.
    meaningJudge =
      meaningSettings.judge === null ? null : createMeaningJudge(meaningSettings.judge, { clock: deps.clock, onRetry: meter.judgeRetry, signal: deps.signal, redact, network });
    const rung: MeaningRung | null = meter.meaning(meaningSettings.check, meaningSettings.threshold, meaningJudge);
    // The cause with no meaning judge configured names the suite's config file.
    const meaning = rung === null ? null : { ...rung, configName: suite.configName };
    const record = await replay(
      { fixtures: suite.fixtures, personas: suite.personas, baselines: { fixtures: suite.baselines, personas: suite.personaBaselines } },
      {
        agent,
        regex,
        judge,
        simulator,
        onBaselineTurn: meter.baselineTurn,
        configName: suite.configName,
        wallClock: deps.wallClock,
        onProgress: deps.onProgress,
        onItem: deps.onItem,
        redact,
        signal: deps.signal,
        meaning,
      },
      {
        concurrency: config.agent.concurrency,
        // The HTTP client reads real sockets; a client of a test's own may run on virtual time.
        yieldToIo: deps.makeAgent === undefined,
        estimate,
        commit: options.commit,
        tool: { ...TOOL },
        agentHost: agentHost(config.agent.url, redact),
        agentEndpoint: urlEndpoint(config.agent.url, redact),
        judgeName: judge?.name ?? judgeName(config),
        judgeModel: config.judge !== null ? judgeModelOf(config.judge) : (judge?.name ?? null),
        // Another address serving a model of the same name is another judge (docs/evaluations.md, "What defined each item").
        judgeEndpoint: config.judge !== null ? judgeEndpointOf(config.judge, redact) : null,
        policy,
        unmockedTools: config.personas?.unmockedTools ?? null,
      },
    );
    // Spans that arrived after their turn was read (docs/traces.md, "When a turn's spans are complete").
    if (traces !== null) fillLateSpans(record, traces.source);
    const listed = runCoverage(config.coverage ?? null, record);
    const stats = runStatsOf(record.fixtures, record.personas, statsSeed([...record.fixtures, ...record.personas], sharded?.info));
    // The suite folder in its repository, by which accept matches this run to it (docs/results-json.md).
    const repo = await repoPathOf(resolvePath(options.cwd ?? process.cwd(), options.dir));
    const full: RunRecord = {
      ...record,
      ...(repo !== null ? { suitePath: repo.path } : {}),
      // The config file the causes' fixes name (docs/results-json.md): written when it is not config.yml.
      ...(suite.configName !== NEW_CONFIG_NAME ? { configName: suite.configName } : {}),
      ...(stats !== null ? { stats } : {}),
      ...(listed !== null ? { coverage: listed } : {}),
      meaning: { check: meaningSettings.check, model: meaningJudge?.model ?? null, ...meaningJudgeWhere(meaningSettings.judge, meaningJudge !== null, redact), promptVersion: MEANING_PROMPT_VERSION },
      ...(selected !== null ? { selection: selected.selection } : {}),
      // Calls are counted where they are made; reused results are read from the record.
      spend: { ...meter.spend(), judgeReused: reusedCount(record) },
      ...(sharded !== null ? { shard: sharded.info } : {}),
      // By which a merge tells shards run alike (docs/results-json.md).
      repeat: runRepeat(policy, [...suite.fixtures, ...suite.personas]),
      ...(run.removed.length > 0 ? { removed: run.removed } : {}),
    };
    return {
      kind: 'ran',
      record: full,
      gate: gateRun(full, options.failOn),
      suite,
      warnings: run.warnings,
      ...(selected !== null ? { selection: selected.result } : {}),
      ...(sharded !== null ? { shard: sharded.run } : {}),
    };
  } finally {
    const closing = Promise.allSettled([agent?.close(), regex?.close(), judge?.close(), simulator?.close(), meaningJudge?.close()]);
    // An interrupted run does not wait for the calls it abandoned (a judge call may take its
    // whole timeout): the record comes first.
    if (deps.signal?.aborted !== true) await closing;
    await traces?.source.close();
  }
}

/** The simulator of a suite with simulated scripts: the caller's, or an HTTP client from `simulator:` (null: none configured). */
function makeSimulator(config: Config, deps: EngineDeps, clientDeps: { onRetry: () => void; network: Network }): Simulator | null {
  if (deps.makeSimulator) return deps.makeSimulator(config);
  const simConfig = simulatorConfig(config);
  return simConfig === null ? null : createSimulator(simConfig, { clock: deps.clock, signal: deps.signal, ...clientDeps });
}

function meterOrNull<T>(client: T | null, meter: (client: T) => T): T | null {
  return client === null ? null : meter(client);
}

/**
 * Spend, counted at the boundary: an agent turn when the agent answered it (a welcome and a
 * message turn are two), a judge call per criterion asked; retries, and the agent's requests (with
 * `httpAgent`: the HTTP agent client tells them, and every turn it answered), are told by the HTTP clients.
 */
function spendMeter(httpAgent: boolean): {
  agent: (client: AgentClient) => AgentClient;
  judge: (judge: Judge) => Judge;
  simulator: (simulator: Simulator) => Simulator;
  agentRetry: () => void;
  /** Told by the HTTP agent client as each request is sent; spend has `agentRequests` once one is. */
  agentRequest: () => void;
  judgeRetry: () => void;
  simulatorRetry: () => void;
  baselineTurn: () => void;
  /** The run's meaning rung, its calls counted (null: meaning.check off, nothing asked). */
  meaning: (check: MeaningRung['check'], threshold: number, judge: MeaningJudge | null) => MeaningRung | null;
  /** The run has a simulated script: spend says what simulated users cost, zeros included. */
  simulated: () => void;
  spend: () => Spend;
} {
  // Simulated users (docs/personas.md, "Simulated users"): calls made, their retries, stored user
  // messages sent from baselines. In the record only when the run has a simulated script.
  const sim = { used: false, simulatorCalls: 0, simulatorRetries: 0, baselineTurns: 0 };
  // Meaning (docs/meaning.md, "Cost"): meaning judge calls made, answers reused within the run, and
  // meanings decided with no call (normalize, variant, facts). In the record unless meaning.check is off.
  const m = { used: false, meaningCalls: 0, meaningReused: 0, meaningAvoided: 0 };
  const n: Required<Pick<Spend, 'agentTurns' | 'agentRetries' | 'judgeCalls' | 'judgeRetries' | 'judgeReused'>> = {
    agentTurns: 0,
    agentRetries: 0,
    judgeCalls: 0,
    judgeRetries: 0,
    judgeReused: 0,
  };
  // Requests sent to the agent, retries included, answered or not (docs/semantics.md, "Cost"): told
  // by the HTTP client only. A client that does not tell (a test's) leaves the count out.
  const requests = { count: 0 };
  // A turn is counted when the client tells it was answered, before its outcome: an interrupted run
  // records its spend without waiting for the fixtures it abandons, and a fixture whose welcome
  // turn was answered has spent that turn. A client that does not tell (a test's, the demo's) has
  // its turns counted from the outcome, never twice.
  const told = (onAnswered: (() => void) | undefined): { count: number; onAnswered: () => void } => {
    const t = {
      count: 0,
      onAnswered: () => {
        t.count++;
        n.agentTurns++;
        onAnswered?.();
      },
    };
    return t;
  };
  const answered = <T extends { kind: string } | null>(turn: T, tellings: number): T => {
    if (tellings === 0 && (turn?.kind === 'replied' || (turn?.kind === 'errored' && 'answered' in turn && turn.answered === true))) n.agentTurns++;
    return turn;
  };
  // The HTTP agent client tells every turn an outcome counts as it is answered (src/agent/http-client.ts,
  // converse): a fixture's outcome is its own, with no awaited wrapper around it (docs/performance.md,
  // "2026-12-07 (midday): one fixture's instructions in the replay").
  const turnAnswered = (): void => {
    n.agentTurns++;
  };
  return {
    agent: (client) => ({
      converse: httpAgent
        ? (request) => client.converse({ ...request, onAnswered: request.onAnswered === undefined ? turnAnswered : told(request.onAnswered).onAnswered })
        : async (request) => {
            const tell = told(request.onAnswered);
            const outcome = await client.converse({ ...request, onAnswered: tell.onAnswered });
            n.agentTurns += Math.max(0, (outcome.kind === 'replied' ? outcome.turns : (outcome.answered ?? 0)) - tell.count);
            return outcome;
          },
      session: (request) => {
        const tell = told(request.onAnswered);
        const session = client.session({ ...request, onAnswered: tell.onAnswered });
        // A session's turns are sent one after another: the tellings during one are that turn's.
        const metered = async <T extends { kind: string } | null>(send: () => Promise<T>): Promise<T> => {
          const before = tell.count;
          const turn = await send();
          return answered(turn, tell.count - before);
        };
        return { welcome: () => metered(() => session.welcome()), send: (message, turn) => metered(() => session.send(message, turn)) };
      },
      close: () => client.close(),
    }),
    judge: (judge) => ({
      name: judge.name,
      score: (criterion, reply) => {
        n.judgeCalls++;
        return judge.score(criterion, reply);
      },
      scoreTranscript: (criterion, transcript) => {
        n.judgeCalls++;
        return judge.scoreTranscript(criterion, transcript);
      },
      ...(judge.structuredOutput ? { structuredOutput: judge.structuredOutput.bind(judge) } : {}),
      close: () => judge.close(),
    }),
    agentRetry: () => {
      n.agentRetries++;
    },
    agentRequest: () => {
      requests.count++;
    },
    judgeRetry: () => {
      n.judgeRetries++;
    },
    simulator: (simulator) => {
      return {
        name: simulator.name,
        next: (request) => {
          sim.simulatorCalls++;
          return simulator.next(request);
        },
        ...(simulator.structuredOutput ? { structuredOutput: simulator.structuredOutput.bind(simulator) } : {}),
        close: () => simulator.close(),
      };
    },
    simulatorRetry: () => {
      sim.simulatorRetries++;
    },
    baselineTurn: () => {
      sim.baselineTurns++;
    },
    simulated: () => {
      sim.used = true;
    },
    meaning: (check, threshold, judge) => {
      if (check === 'off') return null;
      m.used = true;
      return {
        check,
        threshold,
        ask:
          judge === null
            ? null
            : async (request) => {
                const answer = await judge.ask(request);
                if (answer.reused) m.meaningReused++;
                else m.meaningCalls++;
                return answer;
              },
        onAvoided: () => {
          m.meaningAvoided++;
        },
      };
    },
    spend: () => ({
      agentTurns: n.agentTurns,
      agentRetries: n.agentRetries,
      ...(httpAgent ? { agentRequests: requests.count } : {}),
      judgeCalls: n.judgeCalls,
      judgeRetries: n.judgeRetries,
      judgeReused: n.judgeReused,
      ...(sim.used ? { simulatorCalls: sim.simulatorCalls, simulatorRetries: sim.simulatorRetries, baselineTurns: sim.baselineTurns } : {}),
      ...(m.used ? { meaningCalls: m.meaningCalls, meaningReused: m.meaningReused, meaningAvoided: m.meaningAvoided } : {}),
    }),
  };
}
