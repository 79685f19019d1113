// The CLI: parse argv, call the engine, print, return an exit status. The only process.exit is in
// src/cli/process.ts. Exit status: 0 gate passed, 1 fail-on met, 2 usage / configuration error / cost cap,
// 3 internal error (see errors.ts).

import { FAIL_ON_CONDITIONS, type Estimate, type FailOnCondition, type LatencyThresholds, type RunRecord } from '../types.js';
import { byReason, compareRuns, DEFAULT_FAIL_ON, parseFailOn, parseOnly, planAcceptance, gateMerged, type StoredBaseline } from '../evaluate/index.js';
import { runCheck, UsageError, type CheckOptions, type CheckResult, type ShardRun } from '../engine.js';
import { parseShard, timingsOf } from '../evaluate/shard.js';
import { issueCount, loadSuite, loadSuiteConfig, repoPathOf, suiteAboveIssue, type ConfigIssue } from '../suite/index.js';
import { DEFAULT_LATENCY } from '../config.js';
import { mergeRecords, mixedSuites, olderRecordNote, openRecordStream, readRecord, RecordError, writeRecord } from '../record/index.js';
import { shardLine } from '../report/shard.js';
import { renderCapRefusalText, type CapSource } from '../report/cap.js';
import { renderCompareMarkdown, renderCompareText, type CompareSuites } from '../report/compare.js';
import { terminalBlock, terminalLine } from '../report/escape.js';
import { attemptsRefusalFix } from '../report/blocks.js';
import { where } from '../report/item-parts.js';
import { cliWords, cliWordsOf, renderTerminal } from '../report/terminal.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import { newResultsToAccept } from '../report/to-accept.js';
import { writeBaselines } from '../accept/write.js';
import { screenAccepted } from '../accept/screen.js';
import { foreignSuite } from '../accept/suite-dir.js';
import { acceptedLine } from './accept-line.js';
import { fixtureDefinitionHash, personaDefinitionHash } from '../evaluate/definition.js';
import { SIMULATOR_PROMPT_VERSION } from '../simulator/index.js';
import { docsUrl, TOOL } from '../version.js';
import { windowsPathRefusal } from '../windows-path.js';
import { DEFAULT_SUITE_DIR, suiteName } from '../action/context.js';
import { ArgvError, commandHelp, globalHelp, helpHint, noCommandText, parseArgv, wholeNumberFlag, type CommandName, type Values } from './options.js';
import { defaultOut, ensureIgnoredFolder, noResultsGiven } from './results-dir.js';
import { checkoutWarning, commitWarning, runCommit } from './commit.js';
import { gitSuiteEdits, resolveBase } from './suite-edits.js';
import { runDemo } from './demo.js';
import { runInit } from './init.js';
import { runProbe } from './probe.js';
import { runCalibrate } from './calibrate.js';
import { AgentNotReady, AgentWaitInterrupted, MAX_WAIT_FOR_AGENT_S } from '../agent/ready.js';
import { interruptedBy, interruptExitCode } from '../interrupt.js';
import { MAX_REPEAT } from '../suite/repeat.js';
import { MAX_CONCURRENCY } from '../suite/config/shared.js';
import { existsSync } from 'node:fs';
import { isFolder } from '../fs-safe.js';
import { dirname, join, posix, relative, sep } from 'node:path';
import { describeFailure, EXIT, stackOf, UserError } from '../errors.js';
import { redactorOfKnown } from '../secrets.js';
import { plural, shownJson, shownShellWord, thousands } from '../words.js';
import { checkOutputPaths, emitRun, errorLine, printConfigIssues, interruptedExit, progressPrinter, reportContext, resolvePath, withProgressLine, writeRenderings, writeText, writtenText, type CliIO } from './output.js';
import type { ReportContext } from '../report/context.js';

export { emitRun, interruptedExit, progressPrinter, reportContext, type CliIO } from './output.js';

/** The commands that watch `CliIO.signal`; any other command stops at once on a signal. */
const INTERRUPTIBLE_COMMANDS: readonly string[] = ['run', 'demo'];

/** Whether the command in `argv` records what finished when interrupted (for the entry's signal handler). */
export function watchesInterrupts(argv: readonly string[]): boolean {
  try {
    const parsed = parseArgv(argv);
    return parsed.kind === 'command' && INTERRUPTIBLE_COMMANDS.includes(parsed.command);
  } catch {
    return false;
  }
}

export async function main(argv: readonly string[], given: CliIO): Promise<number> {
  // On a terminal, whatever is printed ends the progress line first (output.ts).
  const io = withProgressLine(given);
  let command: CommandName | null = null;
  try {
    const parsed = parseArgv(argv);
    if (parsed.kind === 'version') {
      io.stdout(`${TOOL.version}\n`);
      return EXIT.ok;
    }
    if (parsed.kind === 'help') {
      io.stdout(parsed.command === null ? globalHelp() : commandHelp(parsed.command));
      return EXIT.ok;
    }
    if (parsed.kind === 'no-command') {
      // No command at all is a usage error (stderr, exit 2) that deserves the list of commands.
      io.stderr(noCommandText());
      return EXIT.usage;
    }
    command = parsed.command;
    return await dispatch(parsed.command, parsed.values, parsed.positionals, io);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line (the message), then where the fix is: never the whole help. A flag's value in it is shown, never sent to the terminal (docs/security.md, "Agent text is data").
      io.stderr(`agent-replay: ${terminalBlock(e.message)}\n${helpHint(e instanceof ArgvError ? e.command : command)}\n`);
      return EXIT.usage;
    }
    // A bug is said to be one, with its own exit status; the stack only when asked for.
    const debug = io.env.AGENT_REPLAY_DEBUG === '1';
    const failure = describeFailure(e, debug ? 'stack trace below' : 'rerun with AGENT_REPLAY_DEBUG=1 to add the stack trace');
    // Every secret the run read (config.yml's ${NAME} values once the suite is loaded), whatever threw (src/secrets.ts).
    const redact = redactorOfKnown();
    // An agent that never got ready names its fix in the CLI's words (--wait-for-agent), as the summary's causes do.
    // A results file that cannot be read (--rerun, --timings, accept's, compare's) is named on its one line, a line break in its name as ` ⏎ `.
    const message = e instanceof AgentNotReady ? cliWords(failure.message) : e instanceof RecordError ? `${terminalLine(e.file)}: ${e.why}` : failure.message;
    // A message can quote an agent or a file: its control characters shown as escapes (docs/security.md, "Agent text is data").
    io.stderr(redact(`agent-replay: ${terminalBlock(message)}\n`));
    if (failure.internal && debug) io.stderr(redact(`${terminalBlock(stackOf(e))}\n`));
    return failure.exitCode;
  }
}

/** Each path flag with a relative path to give in its place, for the fix (src/windows-path.ts). */
const PATH_FLAGS = {
  dir: '.agent-replay',
  out: 'results.json',
  markdown: 'report.md',
  junit: 'report.xml',
  html: 'report.html',
  results: 'results.json',
  rerun: 'results.json',
  timings: 'results.json',
  workflows: '.github/workflows',
} as const satisfies Partial<Record<keyof Values, string>>;

/**
 * A path flag written for Windows (`--dir C:\suite`, `--out \\server\share\r.json`) on macOS or
 * Linux: a usage error before anything is read, written or sent (docs/cli.md, "Paths written for Windows").
 */
function refuseWindowsPaths(command: CommandName, values: Values): void {
  for (const [flag, example] of Object.entries(PATH_FLAGS) as [keyof typeof PATH_FLAGS, string][]) {
    const given = values[flag];
    for (const one of given === undefined ? [] : Array.isArray(given) ? given : [given]) {
      const relative = command === 'demo' && flag === 'out' ? 'demo' : example;
      const refusal = windowsPathRefusal(one, `--${flag}`, `--${flag} ${relative}`);
      if (refusal !== null) throw new UsageError(refusal);
    }
  }
}

async function dispatch(command: CommandName, values: Values, positionals: readonly string[], io: CliIO): Promise<number> {
  refuseWindowsPaths(command, values);
  switch (command) {
    case 'run':
      return cmdRun(values, io);
    case 'validate':
      return cmdValidate(values, io);
    case 'accept':
      return cmdAccept(values, io);
    case 'report':
      return cmdReport(values, io);
    case 'compare':
      return cmdCompare(positionals, values, io);
    case 'calibrate':
      return runCalibrate(values, io);
    case 'probe':
      return runProbe(
        {
          message: positionals[0] as string,
          dir: values.dir ?? '.agent-replay',
          agentUrl: values['agent-url'],
          judgeUrl: values['judge-url'],
          persona: values.persona,
          assert: values.assert,
          threshold: values.threshold,
          save: values.save,
          waitForAgent: parseWaitForAgent(values['wait-for-agent']),
          preset: values.preset,
        },
        io,
      );
    case 'init':
      return runInit({ dir: values.dir ?? '.agent-replay', preset: values.preset, workflows: values.workflows ?? '.github/workflows' }, io);
    case 'demo':
      return runDemo({ out: values.out ?? null }, io);
  }
}

function parseConcurrency(text: string | undefined): number | undefined {
  return text === undefined ? undefined : wholeNumberFlag('concurrency', text, 1, MAX_CONCURRENCY);
}

/** `--repeat N` / `--repeat-max M` of run (docs/statistics.md, "Adaptive attempts"): a whole number from 1 to 20. */
function parseAttempts(flag: string, text: string | undefined): number | undefined {
  return text === undefined ? undefined : wholeNumberFlag(flag, text, 1, MAX_REPEAT);
}

function parseWaitForAgent(text: string | undefined): number | undefined {
  return text === undefined ? undefined : wholeNumberFlag('wait-for-agent', text, 0, MAX_WAIT_FOR_AGENT_S, 'seconds');
}

function failOnOf(values: Values): FailOnCondition[] {
  const given = values['fail-on'];
  // Given, it names at least one condition: `--fail-on ,` is a typo, not the default (the Action's
  // empty fail-on input is the default, as an input left out is).
  if (given !== undefined && given.replace(/[\s,]/g, '') === '') {
    throw new UsageError(`--fail-on needs at least one condition, comma-separated (allowed: ${FAIL_ON_CONDITIONS.join(', ')}); leave it out for the default gate (${DEFAULT_FAIL_ON.join(',')})`);
  }
  try {
    return parseFailOn(given ?? DEFAULT_FAIL_ON.join(','), FAIL_ON_CONDITIONS);
  } catch (e) {
    // "fail-on: ..." names the flag as typed.
    throw new UsageError(`--${(e as Error).message}`);
  }
}


/** The terminal's refusal (src/report/cap.ts); `source` the suite folder and its config file's name (Suite.configName). */
export function capRefusalText(estimate: Estimate, fixtureCount: number, judgeCalls: number, source: CapSource, personaCount = 0, simulatorCalls = 0, agentTurns?: number): string {
  return renderCapRefusalText(estimate, fixtureCount, judgeCalls, source, personaCount, simulatorCalls, agentTurns);
}

function exitFor(result: CheckResult, io: CliIO, dir = '.agent-replay'): number {
  if (result.kind === 'config_errors') return EXIT.usage;
  if (result.kind === 'refused') {
    io.stderr(capRefusalText(result.estimate, result.fixtureCount, result.judgeCalls, { dir, file: result.suite.configName }, result.personaCount, result.simulatorCalls, result.agentTurns));
    return EXIT.usage;
  }
  if (result.gate.failed) {
    // Its cause's fix names the suite's config file (a key in agent.headers: in config.yaml when that is the suite's).
    io.stderr(`gate failed: ${terminalLine(cliWordsOf(result.gate.reason, result.suite.configName))}\n`);
    return EXIT.gate;
  }
  return EXIT.ok;
}

async function cmdRun(values: Values, io: CliIO): Promise<number> {
  const failOn = failOnOf(values);
  const concurrency = parseConcurrency(values.concurrency);
  const repeat = parseAttempts('repeat', values.repeat);
  const repeatMax = parseAttempts('repeat-max', values['repeat-max']);
  const waitForAgent = parseWaitForAgent(values['wait-for-agent']);
  const dir = values.dir ?? '.agent-replay';
  const commit = await runCommit(values.commit, io.env, io.cwd);
  for (const warned of [await commitWarning(values.commit, io.env, io.cwd), await checkoutWarning(values.commit, io.env, io.cwd)]) {
    if (warned !== null) io.stderr(`warning: ${terminalLine(warned)}\n`);
  }
  // --base: checked before anything is sent (git, the repository, the revision); a suite folder
  // that is not there gets its configuration error from the load instead.
  const base = values.base === undefined || !isFolder(resolvePath(io, dir)) ? null : await resolveBase(values.base, resolvePath(io, dir), io.env);
  const selection = await selectionOf(values, io);
  const shard = await shardOf(values, io);
  // results.json is written as items finish (record/stream.ts), renamed into place at the end; by
  // default into the suite's results/ folder, which ignores itself in git (results-dir.ts).
  checkOutputPaths(values, io, {
    reads: [...(values.rerun === undefined ? [] : [{ what: '--rerun', path: values.rerun }]), ...(values.timings === undefined ? [] : [{ what: '--timings', path: values.timings }])],
    ...(values.out === undefined ? { written: { what: `the results file (${defaultOut(dir)}, where --out writes by default)`, path: defaultOut(dir) } } : {}),
  });
  const out = values.out ?? defaultOut(dir);
  // Only inside a suite folder that is there: a mistyped --dir (or a file) gets its configuration
  // error, not a new folder that git ignores (docs/cli.md, "What each command does").
  if (values.out === undefined && isFolder(resolvePath(io, dir))) await ensureIgnoredFolder(dirname(resolvePath(io, out)));
  const stream = openRecordStream(resolvePath(io, out));
  // The load's warnings are printed as soon as they are known, before the wait and the progress
  // line (docs/cli.md, "What each command does"), and only then.
  let warned = false;
  const result = await runCheck(
    {
      dir,
      cwd: io.cwd,
      env: io.env,
      overrides: {
        ...(values['agent-url'] ? { agentUrl: values['agent-url'] } : {}),
        ...(concurrency ? { concurrency } : {}),
        ...(values['judge-url'] ? { judge: { baseUrl: values['judge-url'] } } : {}),
        ...(repeat !== undefined ? { repeat } : {}),
        ...(repeatMax !== undefined ? { repeatMax } : {}),
      },
      confirmCost: values['confirm-cost'] === true,
      failOn,
      commit,
      waitForAgent,
      // A log line names addresses from config.yml and the environment (a trace store's, a proxy's): shown, never sent (docs/security.md, "Agent text is data").
      onWaitLog: (line) => io.stderr(`${terminalLine(cliWords(line))}\n`),
      onLog: (line) => io.stderr(`${terminalLine(line)}\n`),
      // A warning may quote what the agent sent (the keys of its answer): controls shown escaped (docs/security.md).
      onWarning: (message) => io.stderr(`warning: ${terminalLine(message)}\n`),
      onLoadWarnings: (warnings) => {
        warned = true;
        printConfigIssues(io, [], warnings);
      },
      ...(selection ? { selection } : {}),
      ...(shard ? { shard } : {}),
    },
    { onProgress: progressPrinter(io), onItem: stream.item, signal: io.signal, ...io.engine },
  ).catch(async (e: unknown) => {
    await stream.discard();
    // Ctrl-C while waiting for the agent: an interrupted run, with its exit status (nothing was replayed, so no record).
    const by = interruptedBy(io.signal);
    if (e instanceof AgentWaitInterrupted && by !== null) return { kind: 'wait_interrupted' as const, message: e.message, code: interruptExitCode(by) };
    throw e;
  });
  if (result.kind === 'wait_interrupted') {
    io.stderr(errorLine(result.message));
    return result.code;
  }
  if (result.kind !== 'ran') await stream.discard();
  const warnings = warned ? [] : result.warnings;
  if (result.kind === 'config_errors') {
    printConfigIssues(io, result.errors, warnings);
    // --markdown is the report a workflow shows (the job summary's, not fitted to a comment): it says
    // what the terminal says, as the Action's comment does, never what an earlier run left in the
    // file (docs/cli.md, "What each command does").
    if (values.markdown) await writeConfigErrorsMarkdown(result.errors, values.markdown, commit, dir, io);
    return EXIT.usage;
  }
  if (result.kind === 'refused' && values.markdown) {
    // Likewise the cost cap's refusal: the report says the run was not made, as the Action's comment does.
    const refused = result;
    await writeRefusalMarkdown(values.markdown, commit, dir, io, async (ctx) => {
      const { renderCapRefusal } = await import('../report/cap.js');
      return renderCapRefusal(refused.estimate, refused.fixtureCount, refused.judgeCalls, ctx, refused.personaCount, refused.simulatorCalls, { dir, file: refused.suite.configName }, refused.agentTurns);
    });
  }
  printConfigIssues(io, [], warnings);
  if (result.kind === 'ran') {
    if (result.shard) printShard(result.shard, io);
    if (result.selection) printSelection(result.record, result.selection.missing, io);
    // What the working tree changed in the suite since --base, as the Action says it of a pull request.
    const edits = base === null ? null : await gitSuiteEdits(base);
    const record = edits === null ? result.record : { ...result.record, suiteEdits: edits };
    // An interrupted run's gate is not applied: its reports do not say it (report/model.ts gateFailsText).
    // What comes next, in the report's words, counted on the terminal summary's model (no second one: docs/performance.md).
    let toAccept = 0;
    const written = await emitRun(record, { ...values, out }, io, stream, result.gate, (model) => (toAccept = newResultsToAccept(record, model)));
    if (record.interrupted) return interruptedExit(record, result.suite, io);
    // The results are in the summary and the temporary file the error named, but not where asked.
    if (!written) return EXIT.usage;
    // The new or changed results a review would accept.
    // The label only where the line names it: a pull request's job, the workflows read then alone.
    const label = toAccept > 0 && ciJob(io.env) === 'pull-request' ? await (await import('../suite/accept-label.js')).repositoryAcceptLabel(resolvePath(io, dir)) : null;
    const next = acceptRunStep(toAccept, dir, values.out, result.gate.failed, io.env, label);
    if (next !== null) io.stdout(`\n${next}\n`);
  }
  return exitFor(result, io, dir);
}

/**
 * The configuration errors, as the Action comments them (src/report/config-errors.ts), written to
 * --markdown: under the suite's folder in its repository when it is not the default one, as a run's
 * report names its record's suitePath (docs/action.md, "Two suites in one repository").
 */
async function writeConfigErrorsMarkdown(errors: readonly ConfigIssue[], path: string, commit: string | null, dir: string, io: CliIO): Promise<void> {
  await writeRefusalMarkdown(path, commit, dir, io, async (ctx) => {
    const { renderConfigErrors } = await import('../report/config-errors.js');
    return renderConfigErrors(errors, ctx);
  });
}

/** A run refused before anything was replayed, written to --markdown by `render` with the suite named as writeConfigErrorsMarkdown names it. */
async function writeRefusalMarkdown(path: string, commit: string | null, dir: string, io: CliIO, render: (ctx: ReportContext) => Promise<string>): Promise<void> {
  const repo = await repoPathOf(resolvePath(io, dir));
  const suite = repo === null ? null : suiteName(repo.path);
  try {
    await writeText(resolvePath(io, path), await render({ ...reportContext(null, io.env), headSha: commit, suite }), 'markdown');
    io.stdout(writtenText(null, { markdown: path }, io));
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    io.stderr(errorLine(e.message));
  }
}


/**
 * --only of run and accept: labels and `*` / `?` globs, comma-separated, read by one parser and
 * matched by one matcher (evaluate/selection.ts; docs/cli.md, "What each command does"); null when not given.
 */
function onlyOf(values: Values): string[] | null {
  const only = values.only === undefined ? null : parseOnly(values.only);
  if (only !== null && only.length === 0) throw new UsageError('--only needs at least one label or glob, e.g. --only refund-*,greeting');
  return only;
}

/** --rerun (a record, read and validated here) and --only (patterns); null when neither is given. */
async function selectionOf(values: Values, io: CliIO): Promise<CheckOptions['selection'] | null> {
  const only = onlyOf(values);
  if (values.rerun === undefined && only === null) return null;
  const rerunOf = values.rerun === undefined ? null : { file: values.rerun, record: await readRecord(resolvePath(io, values.rerun)) };
  // Its items choose what runs: one that reads as written though a run now stores it otherwise is said (docs/results-json.md).
  if (rerunOf !== null) olderRecordWarnings([rerunOf.record], [rerunOf.file], io);
  return { rerunOf, only };
}

/** --shard i/n with --timings (a record whose durations balance the shards); null without --shard. */
async function shardOf(values: Values, io: CliIO): Promise<CheckOptions['shard'] | null> {
  if (values.shard === undefined) {
    if (values.timings !== undefined) throw new UsageError('--timings balances shards: give it with --shard i/n');
    return null;
  }
  let parsed;
  try {
    parsed = parseShard(values.shard);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.timings === undefined) return { ...parsed, timings: null };
  const record = await readRecord(resolvePath(io, values.timings));
  // Said once per file: a --timings file that is the --rerun file was said by selectionOf.
  if (values.rerun === undefined || resolvePath(io, values.rerun) !== resolvePath(io, values.timings)) olderRecordWarnings([record], [values.timings], io);
  return { ...parsed, timings: timingsOf(record) };
}

function printShard(s: ShardRun, io: CliIO): void {
  io.stderr(`${shardLine(s)}\n`);
}

/** Says, before the summary, that the run replays only part of the suite and why. */
function printSelection(record: RunRecord, missing: readonly string[], io: CliIO): void {
  const sel = record.selection;
  if (!sel) return;
  // --rerun's file and --only's patterns as given: a control character in one shown as an escape (docs/security.md, "Agent text is data").
  const why = [sel.rerunOf === null ? null : `what failed, was not evaluated or errored in ${terminalLine(sel.rerunOf)}`, sel.only === null ? null : `labels matching ${terminalLine(sel.only.join(', '))}`]
    .filter((x): x is string => x !== null)
    .join(', among them ');
  const n = sel.labels.length;
  io.stderr(`partial run: ${n} ${n === 1 ? 'item' : 'items'} replayed (${why}); the record lists only ${n === 1 ? 'it' : 'those'}.\n`);
  if (missing.length > 0) io.stderr(`not replayed: ${missing.join(', ')} (in ${sel.rerunOf === null ? 'the record' : terminalLine(sel.rerunOf)} but no longer in the suite)\n`);
}

/**
 * config.yml's latency thresholds for compare's "slower" (docs/evaluations.md#compare); the defaults
 * when the suite has no config.yml. compare reads only records: a key's variable not set on this
 * machine is no error here, and a config.yml with errors is said in one line and the defaults are used.
 */
async function compareLatency(dir: string, io: CliIO): Promise<LatencyThresholds> {
  const defaults = '"slower" uses the default thresholds (latency.slowerBy 0.5, latency.minDeltaMs 300)';
  // From a subfolder of the repository: the suite is in a parent folder, said with its fix as run
  // says it (docs/troubleshooting.md); validate, which the line below sends to, would only say the same.
  const above = suiteAboveIssue(io.cwd, dir, relative(io.cwd, resolvePath(io, dir)).split(sep).join('/') || '.');
  if (above !== null) {
    io.stderr(`compare: ${terminalBlock(`${above.file}: ${above.message}, so ${defaults}\n  fix: ${above.fix}`)}\n`);
    return DEFAULT_LATENCY;
  }
  const loaded = await loadSuiteConfig({ dir, env: io.env, cwd: io.cwd, unsetVariables: 'ignore' });
  if (loaded.config !== null) return loaded.config.latency ?? DEFAULT_LATENCY;
  const n = issueCount(loaded.errors);
  // The command as typed, as accept's "run the suite first, npx agent-replay run" is said (docs/cli.md).
  const validate = `npx agent-replay validate${dir === DEFAULT_SUITE_DIR ? '' : ` --dir ${shownShellWord(dir)}`}`;
  io.stderr(`compare: ${terminalLine(dir)}'s ${loaded.configName} not read (${n} ${n === 1 ? 'error' : 'errors'}: see ${n === 1 ? 'it' : 'them'} with ${validate}); ${defaults}\n`);
  return DEFAULT_LATENCY;
}

/**
 * compare's --markdown names the suite its runs are of, by their records' `suitePath`, as run's
 * --markdown does: the one suite when it is in another folder than the default one, else each
 * run's when they are of two; nothing for a record that does not say its suite (docs/cli.md, "What each command does").
 */
function compareSuites([before, after]: readonly [RunRecord, RunRecord]): CompareSuites {
  const of = (r: RunRecord): string | null => (r.suitePath === undefined ? null : (suiteName(r.suitePath) ?? DEFAULT_SUITE_DIR));
  const [b, a] = [of(before), of(after)];
  if (b !== null && a !== null && b !== a) return { runs: { before: b, after: a } };
  const one = b ?? a;
  return { suite: one === null || one === DEFAULT_SUITE_DIR ? null : one };
}

/** compare BEFORE.json AFTER.json: agreement before and after and why; exit 0 whatever they show, 2 for a usage error (docs/cli.md). */
async function cmdCompare(files: readonly string[], values: Values, io: CliIO): Promise<number> {
  if (files.length !== 2) throw new UsageError(`compare needs exactly two results files (BEFORE.json AFTER.json), got ${files.length}`);
  const [first, second] = files as [string, string];
  // --out is the comparison, not a record: over BEFORE.json or AFTER.json it would destroy a run.
  checkOutputPaths({ ...(values.out === undefined ? {} : { out: values.out }), ...(values.markdown === undefined ? {} : { markdown: values.markdown }) }, io, {
    reads: [
      { what: `BEFORE.json (${first})`, path: first },
      { what: `AFTER.json (${second})`, path: second },
    ],
    outIsRecord: false,
  });
  const [a, b] = await Promise.all([readRecord(resolvePath(io, first)), readRecord(resolvePath(io, second))]);
  olderRecordWarnings([a, b], [first, second], io);
  const comparison = compareRuns(a, b, { first, second }, { latency: await compareLatency(values.dir ?? '.agent-replay', io) });
  if (values.out) await writeText(resolvePath(io, values.out), `${JSON.stringify(comparison, null, 2)}\n`, 'out');
  const suites = compareSuites(comparison.swapped ? [b, a] : [a, b]);
  if (values.markdown) await writeText(resolvePath(io, values.markdown), renderCompareMarkdown(comparison, suites), 'markdown');
  io.stdout(renderCompareText(comparison, suites));
  // Where the files went, as run and report say it after their summary.
  io.stdout(writtenText(values.out ? resolvePath(io, values.out) : null, values.markdown ? { markdown: values.markdown } : {}, io, 'comparison'));
  return EXIT.ok;
}

async function cmdValidate(values: Values, io: CliIO): Promise<number> {
  const dir = values.dir ?? '.agent-replay';
  const loaded = await loadSuite({ dir, env: io.env, cwd: io.cwd });
  printConfigIssues(io, loaded.errors, loaded.warnings, `a run would send nothing until ${issueCount(loaded.errors) === 1 ? 'it is' : 'they are'} fixed`);
  if (loaded.errors.length > 0 || loaded.suite === null) return EXIT.usage;
  const n = loaded.suite.fixtures.length;
  const p = loaded.suite.personas.length;
  const scripts = p > 0 ? `, ${p} persona ${p === 1 ? 'script' : 'scripts'}` : '';
  const baselineCount = loaded.suite.baselines.size + loaded.suite.personaBaselines.size;
  const w = issueCount(loaded.warnings);
  io.stdout(`${terminalLine(dir)}: ${plural(n, 'fixture', 'fixtures')}${scripts}, ${plural(baselineCount, 'baseline', 'baselines')}, no configuration errors${w > 0 ? ` (${plural(w, 'warning', 'warnings')})` : ''}\n`);
  return EXIT.ok;
}

async function cmdAccept(values: Values, io: CliIO): Promise<number> {
  const dir = values.dir ?? '.agent-replay';
  const files = values.results ?? [defaultOut(dir)];
  if (files.length !== 1) throw new UsageError(`accept takes one --results file, got ${files.length}`);
  // The results file as given, in every line that names it: a control character or line break in its name shown as an escape (docs/security.md, "Agent text is data").
  const results = terminalLine(files[0] as string);
  // From a subfolder of the repository: the suite (and its results) are in a parent folder; said
  // before "no run to accept", which would send the user to run there (docs/troubleshooting.md).
  const above = suiteAboveIssue(io.cwd, dir, relative(io.cwd, resolvePath(io, dir)).split(sep).join('/') || '.');
  if (above !== null) {
    printConfigIssues(io, [above], [], 'nothing was accepted');
    return EXIT.usage;
  }
  // Accepting before any run is a newcomer's first misstep: say what comes first (docs/cli.md, accept reads run's default output).
  if (values.results === undefined && !existsSync(resolvePath(io, files[0] as string))) {
    // The command as typed, `npx` and all, as accept's other lines give it: "run agent-replay run" reads as a run of "agent-replay".
    throw new UsageError(`no run to accept: ${results} does not exist; run the suite first, npx agent-replay run${dir === '.agent-replay' ? '' : ` --dir ${shownShellWord(dir)}`} (it writes the results there), or give --results FILE`);
  }
  const record = await readRecord(resolvePath(io, files[0] as string));
  olderRecordWarnings([record], files, io);
  // A run of another suite folder (run --dir elsewhere, accept without it) would write its replies
  // as this suite's baselines, under labels that may be this suite's too: refused as the Action's
  // accept flow refuses it (docs/cli.md, "What each command does").
  // A --dir that names a file is the loader's to say (a file, not a folder, with the suite folder it is in).
  const suiteDir = relative(io.cwd, resolvePath(io, dir)).split(sep).join('/') || '.';
  const suitePath = resolvePath(io, dir).split(sep).join('/');
  const aFile = existsSync(resolvePath(io, dir)) && !isFolder(resolvePath(io, dir));
  // A record that says where its suite is in the repository is matched by that path: two suites of
  // one repository may have folders of the same name (apps/a/.agent-replay, apps/b/.agent-replay).
  // Else, or outside a repository, by the folder its files name (docs/results-json.md, `suitePath`).
  const repo = aFile || record.suitePath === undefined ? null : await repoPathOf(resolvePath(io, dir));
  if (repo !== null && record.suitePath !== undefined && posix.normalize(record.suitePath) !== repo.path) {
    // The recorded path is untrusted text: one line, no control sequences (docs/security.md).
    const ran = terminalLine(record.suitePath);
    const there = relative(io.cwd, join(repo.root, ...posix.normalize(record.suitePath).split('/'))).split(sep).join('/') || '.';
    throw new UsageError(
      `${results}: it is a run of the suite in ${ran} of the repository (its suitePath), not of ${terminalLine(repo.path)}; its replies would be written where that suite does not read them, so nothing was written: give --dir ${shownShellWord(there)}`,
    );
  }
  const foreign = aFile || repo !== null ? null : foreignSuite(record, suiteDir, suitePath);
  if (foreign !== null) {
    // The record's file names are untrusted text: one line, no control sequences (docs/security.md).
    const first = terminalLine(foreign.first);
    const ranIn = foreign.ranIn === null ? null : terminalLine(foreign.ranIn);
    const where = ranIn === null ? `its items are not files of ${terminalLine(suiteDir)} (the first is ${first})` : `it is a run of the suite in ${ranIn} (its first item is ${first}), not of ${terminalLine(suiteDir)}`;
    const fix = foreign.ranIn === null ? 'give --dir the folder the run replayed' : `give --dir ${shownShellWord(foreign.ranIn)}`;
    throw new UsageError(`${results}: ${where}; its replies would be written where that suite does not read them, so nothing was written: ${fix}`);
  }
  // accept sends nothing anywhere: a secret only a run needs (the judge's key) is not asked for.
  const loaded = await loadSuite({ dir, env: io.env, cwd: io.cwd, unsetVariables: 'ignore' });
  if (loaded.suite === null) {
    // What the errors stop is the acceptance.
    printConfigIssues(io, loaded.errors, loaded.warnings, 'nothing was accepted');
    return EXIT.usage;
  }
  const only = onlyOf(values);
  const suite = loaded.suite;
  const stored = new Map<string, StoredBaseline>([...suite.baselines, ...suite.personaBaselines]);
  const shownDir = `${dir}/baselines`;
  const plan = await screenAccepted(
    planAcceptance(record, stored, {
      only,
      acceptedAt: (io.now?.() ?? new Date()).toISOString(),
      suite: {
        fixtures: new Set(suite.fixtures.map((f) => f.label)),
        personas: new Set(suite.personas.map((p) => p.label)),
        dir,
        // As the run records them (replay/index.ts): a reply recorded under another definition is refused.
        definitions: new Map([
          ...suite.fixtures.map((f) => [f.label, fixtureDefinitionHash(f)] as const),
          ...suite.personas.map((p) => [p.label, personaDefinitionHash(p, SIMULATOR_PROMPT_VERSION)] as const),
        ]),
      },
    }),
    shownDir,
  );
  if (plan.unknown.length > 0) {
    // A typo in --only must not half-apply: nothing is written until every pattern matches an item.
    for (const pattern of plan.unknown) io.stderr(`not found ${terminalLine(pattern)}: no fixture or persona script label in ${results} matches it\n`);
    io.stderr(`nothing was accepted; labels in ${results}: ${[...record.fixtures, ...record.personas].map((f) => f.label).join(', ') || '(none)'}\n`);
    return EXIT.usage;
  }
  // Unchanged and refused first: a write that fails below never hides them.
  for (const label of plan.unchanged) io.stdout(`unchanged ${label} (already the baseline)\n`);
  // A reason may quote the results file (a judge's words on a meaning): no control sequences on the terminal (docs/security.md, "Agent text is data").
  // Attempts that disagree: what to do, as the comment says it (report/blocks.ts).
  // Each ends where the item is defined, as the run's lines do: the file to look at or fix.
  // Items refused for one reason share one line of it, each item on a line of its own under it (an
  // agent that rewords every reply gives most of a suite one reason): what differs, said once each.
  const items = new Map([...record.fixtures, ...record.personas].map((i) => [i.label, i] as const));
  const at = (label: string): string => {
    const item = items.get(label);
    return item === undefined || !item.file ? '' : ` · ${terminalLine(where(item))}`;
  };
  for (const { reason, items: refused } of byReason(plan.refused)) {
    const fix = attemptsRefusalFix(reason);
    const said = `${terminalLine(reason)}${fix === null ? '' : `; ${fix}`}`;
    const labels = refused.map((r) => r.label);
    const [only] = labels;
    if (labels.length === 1 && only !== undefined) io.stdout(`refused   ${only}: ${said}${at(only)}\n`);
    else io.stdout(`refused   ${thousands(labels.length)} items: ${said}\n${labels.map((l) => `          ${l}${at(l)}\n`).join('')}`);
  }
  const writes = await writeBaselines(loaded.suite.baselinesDir, plan.accepted);
  const acceptedOf = new Map(plan.accepted.map((b) => [b.label, b]));
  // A reworded item says which wording it stores, an unchanged one what moved (cli/accept-line.ts).
  for (const w of writes.written) io.stdout(acceptedLine(items.get(w.label), stored.get(w.label) ?? null, acceptedOf.get(w.label) as StoredBaseline, w.path));
  for (const f of writes.failed) io.stderr(`not written ${f.label}: ${terminalLine(f.reason)}\n`);
  io.stdout(`\n${acceptTallyText(writes.written.length, plan.refused.length, plan.unchanged.length, writes.failed.length)}\n`);
  // An interrupted run holds only the items it finished (docs/cli.md, "accept"): the count above is
  // not the suite's, and the others were never looked at.
  if (record.interrupted) {
    const finished = record.fixtures.length + record.personas.length;
    io.stdout(`${interruptedAcceptText(files[0] as string, finished, dir)}\n`);
  }
  const next = commitBaselinesStep(suiteDir, writes.written.length);
  if (next !== null) io.stdout(`${next}\n`);
  return writes.failed.length > 0 ? EXIT.usage : EXIT.ok;
}

/** accept's tally: "1,200 accepted, 3 refused, 0 unchanged", and how many were not written when any were not. */
export function acceptTallyText(accepted: number, refused: number, unchanged: number, failed: number): string {
  return `${thousands(accepted)} accepted, ${thousands(refused)} refused, ${thousands(unchanged)} unchanged${failed > 0 ? `, ${thousands(failed)} not written` : ''}`;
}

/** accept's line on the record of an interrupted run (docs/cli.md, "accept"): the `finished` items it holds, grouped ("1,200 items"). */
export function interruptedAcceptText(file: string, finished: number, dir = '.agent-replay'): string {
  return `${terminalLine(file)} is the record of an interrupted run: only the ${finished === 1 ? 'item' : plural(finished, 'item', 'items')} it finished could be accepted; the others keep their baselines; to replay them, run the suite again: npx agent-replay run${dir === '.agent-replay' ? '' : ` --dir ${shownShellWord(dir)}`}`;
}

/**
 * Whether the CLI runs in a CI job (CI set, as CI services set it, or GITHUB_ACTIONS=true): a
 * GitHub Actions job of a pull request's event, another CI job, or neither (null: a terminal).
 */
export function ciJob(env: Readonly<Record<string, string | undefined>>): 'pull-request' | 'other' | null {
  const ci = env.CI;
  const github = env.GITHUB_ACTIONS === 'true';
  if (!github && (ci === undefined || ci === '' || ci === 'false' || ci === '0')) return null;
  return github && (env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target') ? 'pull-request' : 'other';
}

/**
 * What comes after a run with new or changed pass/fail results (docs/cli.md, "What each command
 * does"): the command that accepts them as baselines, as the report's "To accept" line says it
 * (report/blocks.ts), with the suite folder and results file the run used, and after a failed gate
 * only for what is intended; null when there are none. In a pull request's job, the label:
 * `acceptLabel`, the repository's accept workflow's (repositoryAcceptLabel), else, null, the accept
 * workflow's, unnamed, since the repository may have renamed it.
 */
export function acceptRunStep(
  results: number,
  dir: string,
  out: string | undefined,
  gateFailed = false,
  env: Readonly<Record<string, string | undefined>> = {},
  acceptLabel: string | null = null,
): string | null {
  if (results === 0) return null;
  // In CI, accept would write into a checkout that no one commits: a pull request's job says the
  // label (the accept workflow commits the reviewed replies), another CI job nothing (docs/cli.md, "What each command does").
  const where = ciJob(env);
  if (where === 'other') return null;
  const what = results === 1 ? 'the new or changed pass/fail result as a baseline' : `the ${thousands(results)} new or changed pass/fail results as baselines`;
  if (where === 'pull-request') {
    return (
      `next: ${gateFailed ? 'if what the gate failed on is intended, ' : ''}to accept ${what}, a reviewer applies ${acceptLabelWords(acceptLabel)} to the pull request once its comment is read ` +
      `(${docsUrl('action.md', 'Accept: the label commits the reviewed replies')}): accept in this job would write them into a checkout no one commits`
    );
  }
  const flags = `${dir === '.agent-replay' ? '' : ` --dir ${shownShellWord(dir)}`}${out === undefined ? '' : ` --results ${shownShellWord(out)}`}`;
  // A failed gate is not to be accepted away unread: the step says it is for changes that are meant.
  return `next: ${gateFailed ? 'if what the gate failed on is intended, ' : ''}to accept ${what}: npx agent-replay accept${flags}`;
}

/** The label named in the step: `the accept-baseline label` (one with a space in quotes), or, not known, the accept workflow's by its input. */
function acceptLabelWords(label: string | null): string {
  if (label === null) return "the accept workflow's label (the accept-label input of its agent-replay step)";
  // Quoted as JSON (shownJson: its controls as their escapes) when it holds a space, else on its one line: shownJson of terminalLine's `\u001b` doubled its backslash.
  return `the ${/\s/.test(label) ? shownJson(label) : terminalLine(label)} label`;
}

/**
 * What comes after accept wrote baselines (docs/cli.md, "What each command does"): they are files in
 * the working tree, and the check on a pull request reads the baselines of the commit it replays,
 * so until they are committed it compares with none. `suiteDir` is the suite folder from the working
 * directory; null when nothing was written.
 */
export function commitBaselinesStep(suiteDir: string, written: number): string | null {
  if (written === 0) return null;
  const folder = shownShellWord(suiteDir === '.' ? 'baselines' : `${suiteDir}/baselines`);
  return `next: commit ${written === 1 ? 'it' : 'them'} (git add ${folder}): the check on a pull request compares with the baselines of the commit it replays`;
}

/**
 * The --results files of report, each read once: every file that cannot be used is named with its
 * reason and fix, and a file given twice is said to be given twice (not as shards that overlap);
 * then null, and report exits 2 with nothing written (docs/cli.md, "What each command does").
 */
async function readShards(files: readonly string[], io: CliIO): Promise<RunRecord[] | null> {
  const problems: string[] = [];
  // Resolved path -> the index of the first --results that names it.
  const first = new Map<string, number>();
  files.forEach((f, i) => {
    const path = resolvePath(io, f);
    const earlier = first.get(path);
    if (earlier === undefined) first.set(path, i);
    else problems.push(`--results ${f}: the same file as --results ${files[earlier] as string} (${path}), given twice; give each shard's results.json once`);
  });
  const read = await Promise.allSettled(files.map((f) => readRecord(resolvePath(io, f))));
  const records: RunRecord[] = [];
  read.forEach((r, i) => {
    if (r.status === 'fulfilled') records.push(r.value);
    // A file given twice is read twice: its reason is said once.
    else if (r.reason instanceof RecordError) {
      if (first.get(resolvePath(io, files[i] as string)) === i) problems.push(r.reason.message);
    } else throw r.reason;
  });
  for (const p of problems) io.stderr(errorLine(p));
  if (problems.length === 0) olderRecordWarnings(records, files, io);
  return problems.length > 0 ? null : records;
}

/** A record's items that read as written though a run now stores them otherwise: said once per file (docs/results-json.md, "Records of an older agent-replay"). */
function olderRecordWarnings(records: readonly RunRecord[], files: readonly string[], io: CliIO): void {
  for (const [i, r] of records.entries()) {
    const note = olderRecordNote(r, files[i]);
    if (note !== null) io.stderr(`warning: ${note}\n`);
  }
}

/**
 * The refusal of --results files that are runs of two or more suites (the check report mode shares,
 * mixedSuites), or null: nothing is written and each suite's command is given (docs/cli.md, "What
 * each command does").
 */
function mixedSuitesText(records: readonly RunRecord[], files: readonly string[]): string | null {
  const mixed = mixedSuites(records, files, terminalLine);
  if (mixed === null) return null;
  const { suites, unnamed, which } = mixed;
  const commands = suites.map(({ files: of }) => `agent-replay report ${of.map((f) => `--results ${shownShellWord(f)}`).join(' ')}`).join(', then ');
  const loose = unnamed.length === 0 ? '' : ` (${unnamed.map(terminalLine).join(', ')} ${unnamed.length === 1 ? 'does' : 'do'} not say ${unnamed.length === 1 ? 'its' : 'their'} suite: add ${unnamed.length === 1 ? 'it' : 'them'} to the command of ${unnamed.length === 1 ? 'its' : 'their'} suite)`;
  return (
    `the --results files are runs of ${suites.length} suites (their suitePath): ${which}. A report is of one suite, and these would be merged as one run, so nothing was written: ` +
    `report each suite on its own: ${commands}${loose}`
  );
}

async function cmdReport(values: Values, io: CliIO): Promise<number> {
  const files = values.results ?? [];
  if (files.length === 0) throw new UsageError(noResultsGiven(io.cwd));
  const failOn = failOnOf(values); // checked before anything is written
  checkOutputPaths(values, io, { reads: files.map((f) => ({ what: `--results ${f}`, path: f })) });
  const records = await readShards(files, io);
  if (records === null) return EXIT.usage;
  const mixed = mixedSuitesText(records, files);
  if (mixed !== null) {
    io.stderr(errorLine(mixed));
    return EXIT.usage;
  }
  // Its notes name the files as given and quote the records (their agents, judges): shown, never sent to the terminal.
  const merged = mergeRecords(records, files, (line) => io.stderr(`${terminalLine(line)}\n`));
  const allowIncomplete = values['allow-incomplete'] === true;
  if (values.out) await writeRecord(resolvePath(io, values.out), merged);
  // The gate before the reports, which say what it fails on that their headline does not.
  const g = gateMerged(merged, failOn, allowIncomplete);
  const rendered = await writeRenderings(merged, values, io, g);
  io.stdout(renderTerminal(merged, { color: io.color, where: values.out ?? files.join(', '), gate: g }));
  io.stdout(writtenText(values.out ? resolvePath(io, values.out) : null, rendered.written, io));
  if (rendered.failed.length > 0) {
    for (const e of rendered.failed) io.stderr(errorLine(e.message));
    return EXIT.usage;
  }
  if (g.failed) {
    io.stderr(`gate failed: ${terminalLine(cliWordsOf(g.reason, merged.configName ?? NEW_CONFIG_NAME))}\n`);
    return EXIT.gate;
  }
  return EXIT.ok;
}
