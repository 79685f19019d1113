// What the CLI's commands print and write: progress lines, the record and its renderings, the
// notice of an interrupted run. Shared by cli/main.ts and demo/ (which main.ts imports), so that
// neither imports the other's importer.

import { isFolder, repositoryFor, writeFailureWords, writeFileSafely } from '../fs-safe.js';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { existsSync, lstatSync, statSync } from 'node:fs';
import type { RunRecord } from '../types.js';
import type { EngineDeps } from '../engine.js';
import { openRecordStream, RecordWriteError, type RecordStream } from '../record/index.js';
import { DEFAULT_CONTEXT, type ReportContext } from '../report/context.js';
import { suiteName } from '../action/context.js';
import { renderTerminal } from '../report/terminal.js';
import { terminalLine } from '../report/escape.js';
import { terminalIssue } from '../report/config-errors.js';
import type { GateView, ReportModel } from '../report/model.js';
import type { Progress } from '../replay/index.js';
import { interruptedBy, interruptExitCode } from '../interrupt.js';
import { isSystemError, UserError } from '../errors.js';
import { shownShellWord } from '../words.js';
import { issueCount, type ConfigIssue } from '../suite/index.js';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress lines go here (stderr in the real CLI). */
  isTTY: boolean;
  color: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  now?: () => Date;
  /** Injected engine deps (tests). */
  engine?: EngineDeps;
  /** Aborted on SIGINT / SIGTERM: `run` and `demo` then record what finished and stop. */
  signal?: AbortSignal;
  /** The terminal's width in characters, when stderr is one (the progress line is cut to it). */
  columns?: number;
  /**
   * Draws the progress line in place on a terminal (withProgressLine): `last` ends it with a
   * newline. Absent: the line is written to stderr as it is.
   */
  progressLine?: (line: string, last: boolean) => void;
}

/**
 * Whether the summary on stdout is coloured (docs/cli.md, "Colour"): FORCE_COLOR first, read as
 * Node reads it (1, 2, 3, true or empty: always, also in a pipe; any other value, 0 and false among
 * them: never), then NO_COLOR (any non-empty value: never), then a dumb terminal (never), else
 * only on a terminal.
 */
export function colorOutput(env: Record<string, string | undefined>, stdoutIsTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return ['', '1', '2', '3', 'true'].includes(force);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stdoutIsTTY;
}

/**
 * Whether the progress line is redrawn in place (a carriage return and an erase of the line): on a
 * terminal that can, not on a dumb one (`TERM=dumb`), which shows escape sequences as they are
 * and gets the plain progress lines of a pipe instead (docs/cli.md, "Colour").
 */
export function redrawsProgress(io: Pick<CliIO, 'isTTY' | 'env'>): boolean {
  return io.isTTY && io.env.TERM !== 'dumb';
}

/**
 * On a terminal, the progress line is redrawn in place and has no newline until the run ends. Any
 * other output (a warning during the run, the summary of an interrupted run, an error) first ends
 * it, so that nothing is printed on the same line as the counts (docs/cli.md, "What each command
 * does"). Elsewhere `io` as it is.
 */
export function withProgressLine(io: CliIO): CliIO {
  if (!redrawsProgress(io)) return io;
  let open = false;
  const end = (text: string): void => {
    if (!open || text === '') return;
    open = false;
    io.stderr('\n');
  };
  return {
    ...io,
    stdout: (text) => {
      end(text);
      io.stdout(text);
    },
    stderr: (text) => {
      end(text);
      io.stderr(text);
    },
    progressLine: (line, last) => {
      io.stderr(`\r\x1b[2K${line}${last ? '\n' : ''}`);
      open = !last;
    },
  };
}

/** A file a command reads or writes besides the flags checkOutputPaths looks at: how to name it, and its path. */
export interface NamedPath {
  what: string;
  path: string;
}

/**
 * The files a command will write (`--out`, `--markdown`, `--junit`, `--html`), checked before
 * anything is sent or read: one that names a folder is a usage error, not a failure after the run.
 * So is a file named by two of them (the later write would replace the earlier: `run --out r.json
 * --markdown r.json` left no results), or by `written` (run's default results file), and a report
 * written over a results file the command reads (`reads`), which it would destroy; `--out` may name
 * one when `outIsRecord` (a merged or rerun record replacing its own input is what was asked)
 * (docs/cli.md, "What each command does").
 */
export function checkOutputPaths(
  values: Partial<Record<'out' | 'markdown' | 'junit' | 'html', string>>,
  io: CliIO,
  options: { reads?: readonly NamedPath[]; written?: NamedPath; outIsRecord?: boolean } = {},
): void {
  for (const flag of ['out', 'markdown', 'junit', 'html'] as const) {
    const given = values[flag];
    if (given === undefined) continue;
    // A path typed on Windows (`out\r.json`) on macOS or Linux, where a backslash is part of a
    // name, not a separator: refused with the path in slashes, as --dir is (src/suite/suite-above.ts),
    // unless a file already has that name (docs/cli.md, "What each command does").
    if (sep === '/' && given.includes('\\') && lstatSync(resolvePath(io, given), { throwIfNoEntry: false }) === undefined) {
      const slashed = given.split('\\').join('/');
      throw new UserError(
        `--${flag} ${shownShellWord(given)}: on this system a backslash is part of a file's name, not a separator, so this would write one file named ${shownShellWord(given)}: give --${flag} ${shownShellWord(slashed)}, with slashes`,
      );
    }
    if (isFolder(resolvePath(io, given))) {
      // Each path as a word to paste, on its one line (a line break in it as $'\012'), as above.
      const example = join(given, flag === 'out' ? 'results.json' : `report.${flag === 'markdown' ? 'md' : flag === 'junit' ? 'xml' : 'html'}`);
      throw new UserError(`--${flag} ${shownShellWord(given)} is a folder: give a file path, e.g. --${flag} ${shownShellWord(example)}`);
    }
    // A report under a file (`--markdown notes.txt/report.md`) could never be written: said now,
    // before anything is sent, not as the system's EEXIST after the run. results.json (--out) is
    // not refused here: a record that cannot be written where asked goes to the temporary folder
    // (docs/results-json.md, "When the results path cannot be written").
    const file = flag === 'out' ? null : fileInPath(resolvePath(io, given));
    if (file !== null) {
      const shown = relative(io.cwd, file) || file;
      throw new UserError(`--${flag} ${shownShellWord(given)}: ${terminalLine(shown.startsWith('..') ? file : shown)} is a file, not a folder, so nothing can be written under it: give a path in a folder`);
    }
  }
  const taken = new Map<string, string>();
  if (options.written !== undefined) taken.set(resolvePath(io, options.written.path), options.written.what);
  for (const flag of ['out', 'markdown', 'junit', 'html'] as const) {
    const given = values[flag];
    if (given === undefined) continue;
    const full = resolvePath(io, given);
    const other = taken.get(full);
    if (other !== undefined) throw new UserError(`--${flag} ${shownShellWord(given)} is also ${other}: each file written needs its own path (the later write would replace the earlier)`);
    taken.set(full, `--${flag}`);
    if (flag === 'out' && options.outIsRecord !== false) continue;
    const read = options.reads?.find((r) => resolvePath(io, r.path) === full);
    if (read !== undefined) throw new UserError(`--${flag} ${shownShellWord(given)} is ${read.what}, a results file this command reads: writing there would replace it; give another path`);
  }
}

/**
 * `demo --out DIR`: the folder it writes into must be one, or be creatable (no file at it or above
 * it), checked before the demo starts.
 */
export function checkOutputFolder(given: string, io: CliIO): void {
  const dir = resolvePath(io, given);
  const file = isFolder(dir) ? null : existsSync(dir) ? dir : fileInPath(dir);
  if (file !== null) throw new UserError(`--out ${shownShellWord(given)}: ${terminalLine(file)} is a file, not a folder: give a folder (it is created when missing)`);
}

/** The nearest existing ancestor of `p` when it is a file, not a folder; null when it is a folder or none can be looked at. */
function fileInPath(p: string): string | null {
  for (let at = dirname(p); ; at = dirname(at)) {
    try {
      const st = statSync(at, { throwIfNoEntry: false });
      if (st !== undefined) return st.isDirectory() ? null : at;
    } catch {
      // ENOTDIR: a part above is a file; found on the way up.
    }
    if (dirname(at) === at) return null;
  }
}


/** A path the user gave, against the working folder unless absolute (on any platform). */
export function resolvePath(io: CliIO, p: string): string {
  return resolve(io.cwd, p);
}

/**
 * Draws a progress line in place on a terminal (`run`'s, `demo`'s and `calibrate`'s): through
 * `io.progressLine` (withProgressLine), so that any other output ends it first, and cut to the
 * terminal's width; `last` ends it with a newline (docs/cli.md, "What each command does").
 */
export function progressDrawer(io: CliIO): (line: string, last: boolean) => void {
  // Redrawn with a carriage return, the line must fit the terminal: a line that wraps leaves its
  // first rows behind at every redraw. Cut to one character less than the width (the cursor's place).
  const fit = (text: string): string => (io.columns !== undefined && io.columns > 1 && text.length >= io.columns ? text.slice(0, io.columns - 1) : text);
  const draw = io.progressLine ?? ((text: string, last: boolean) => io.stderr(`\r\x1b[2K${text}${last ? '\n' : ''}`));
  return (line, last) => draw(fit(line), last);
}

export function progressPrinter(io: CliIO): (p: Progress) => void {
  let lastPlain = -Infinity;
  // Called once per finished item: the line is built only when it is printed.
  const line = (p: Progress): string => {
    const counts = `${p.passed} passed · ${p.failed} failed${p.notEvaluated ? ` · ${p.notEvaluated} not evaluated` : ''}${p.errored ? ` · ${p.errored} errored` : ''}`;
    const rate = p.done / Math.max(p.elapsedMs, 1);
    const eta = p.done < p.total ? ` · ETA ${Math.ceil((p.total - p.done) / rate / 1000)}s` : '';
    return `${counts}${eta}`;
  };
  const draw = progressDrawer(io);
  return (p) => {
    if (redrawsProgress(io)) {
      draw(`[${p.done}/${p.total}] ${line(p)}`, p.done === p.total);
    } else if (p.done === p.total || p.elapsedMs - lastPlain >= 10_000) {
      lastPlain = p.elapsedMs;
      io.stderr(`progress: ${p.done}/${p.total} · ${line(p)}\n`);
    }
  };
}

export function reportContext(record: RunRecord | null, env: Record<string, string | undefined>): ReportContext {
  // Inside GitHub Actions the repository is known: file references become links to the commit.
  const repositoryUrl = env.GITHUB_REPOSITORY ? `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.GITHUB_REPOSITORY}` : null;
  // The suite's folder in its repository (the record's suitePath), named above the report as the
  // Action names its dir: not for the default folder (docs/action.md, "Two suites in one repository").
  const suite = record?.suitePath === undefined ? null : suiteName(record.suitePath);
  return { ...DEFAULT_CONTEXT, headSha: record?.commit ?? null, baselinesRef: env.AGENT_REPLAY_BASELINES_REF ?? null, repositoryUrl, suite };
}

/**
 * The suite's warnings and errors (file:line:column, the fix), then how many errors there are
 * (every one: issueCount) and what they stopped (`nothing`: nothing was sent to the agent, or the
 * judge for calibrate; nothing was accepted for accept). Shared by run, validate, probe, calibrate and accept.
 */
export function printConfigIssues(io: CliIO, errors: readonly ConfigIssue[], warnings: readonly ConfigIssue[], nothing = 'nothing was sent to the agent'): void {
  // A file's or folder's name, or the text an issue quotes, is shown, never sent to the terminal (docs/security.md, "Agent text is data").
  for (const w of warnings) io.stderr(`warning: ${terminalIssue(w)}\n`);
  for (const e of errors) io.stderr(`error: ${terminalIssue(e)}\n`);
  const n = issueCount(errors);
  if (n > 0) io.stderr(`\n${n} configuration ${n === 1 ? 'error' : 'errors'}; ${nothing}.\n`);
}

/**
 * Writes a file the user named with `--<flag>`. A refusal by the system is said in words, with the
 * flag, the path and the fix (docs/troubleshooting.md), not as its bare code (EEXIST, ENOTDIR).
 */
export async function writeText(path: string, text: string, flag?: string): Promise<void> {
  try {
    await writeFileSafely(path, text, { within: repositoryFor(path) }); // never through a planted link
  } catch (e) {
    if (!isSystemError(e)) throw e;
    // The path on the message's one line (terminalLine): the CLI's catch keeps a message's line breaks.
    const named = terminalLine(flag === undefined ? path : `--${flag} ${path}`);
    throw new UserError(`could not write ${named}: ${writeFailureWords(e)}. Check that its folder exists or can be created and is writable, or give another path${flag === undefined ? '' : ` with --${flag}`}.`);
  }
}

/** The renderings a command was asked for. */
type Renderings = { markdown?: string; junit?: string; html?: string };

/**
 * Writes the renderings asked for (--markdown, --junit, --html) of a record. Their renderers are
 * imported here, only when asked for: a run that writes none does not load them
 * (docs/performance.md, "2026-12-02 (late morning): the cold start again"). One that cannot be
 * written does not stop the others: returns those written and the errors of the others (UserError,
 * with the flag and the path); any other error is thrown.
 */
export async function writeRenderings(record: RunRecord, values: Renderings, io: CliIO, gate: GateView | null = null): Promise<{ written: Renderings; failed: UserError[] }> {
  const written: Renderings = {};
  const failed: UserError[] = [];
  if (!values.markdown && !values.junit && !values.html) return { written, failed };
  const ctx = { ...reportContext(record, io.env), gate };
  const attempt = async (flag: keyof Renderings, render: () => Promise<string>): Promise<void> => {
    const path = values[flag];
    if (!path) return;
    try {
      await writeText(resolvePath(io, path), await render(), flag);
      written[flag] = path;
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      failed.push(e);
    }
  };
  await attempt('markdown', async () => (await import('../report/markdown.js')).renderMarkdownReport(record, ctx));
  await attempt('junit', async () => (await import('../report/junit.js')).renderJUnit(record));
  await attempt('html', async () => (await import('../report/html.js')).renderHtml(record, { context: ctx }));
  return { written, failed };
}

/**
 * Writes results.json first (finishing `stream`, which `run` fed as items finished; without one,
 * the record is written in pieces all the same), prints the terminal summary, then writes the
 * renderings, each saying what `gate` fails on that its headline does not (docs/cli.md, "The gate
 * and the exit status"). Returns false when results.json or a rendering could not be written where asked:
 * the errors say so (and where the record went instead), after the summary and the lines of the
 * files that were written (the results are never lost).
 */
export async function emitRun(
  record: RunRecord,
  values: { out?: string } & Renderings,
  io: CliIO,
  stream?: RecordStream,
  gate: GateView | null = null,
  onModel?: (model: ReportModel) => void,
): Promise<boolean> {
  const out = resolvePath(io, values.out ?? 'results.json');
  let failure: RecordWriteError | null = null;
  try {
    await (stream ?? openRecordStream(out)).finish(record);
  } catch (e) {
    if (!(e instanceof RecordWriteError)) throw e;
    failure = e;
  }
  // A clipped reply names where its full text is: the record, as the user named it.
  io.stdout(renderTerminal(record, { color: io.color, where: failure === null ? (values.out ?? 'results.json') : 'the record named below', gate, onModel }));
  const rendered = await writeRenderings(record, values, io, gate);
  io.stdout(writtenText(resultsWhere(out, failure), rendered.written, io));
  if (failure !== null) io.stderr(errorLine(failure.message));
  for (const e of rendered.failed) io.stderr(errorLine(e.message));
  return failure === null && rendered.failed.length === 0;
}

/**
 * A refusal or failure the CLI says after it has started (a file not read or not written, a merge
 * refused, a wait interrupted) as its one line: the message names paths as given (`--results`,
 * `--out`, `--markdown`), and a control character or line break in one is shown as an escape, never
 * sent to the terminal (docs/security.md, "Agent text is data").
 */
export function errorLine(message: string): string {
  return `agent-replay: ${terminalLine(message)}\n`;
}

/**
 * Where results.json went, for its `results:` line (docs/cli.md, "What each command does"): `out`;
 * the temporary folder's file when it could not be written there; or not written.
 */
export function resultsWhere(out: string, failure: Pick<RecordWriteError, 'fallback'> | null): string {
  if (failure === null) return out;
  return failure.fallback === null ? `not written (${out}: see below)` : `${failure.fallback} (not ${out}: see below)`;
}

/**
 * "results: <path>" and a line per rendering written, after the summary (`run`, `report`; `compare`
 * and `calibrate` name their --out by what it holds: `out`); empty when nothing was written.
 */
export function writtenText(results: string | null, values: { markdown?: string; junit?: string; html?: string }, io: CliIO, out = 'results'): string {
  const written: Array<[string, string | undefined]> = [
    [out, results ?? undefined],
    ['markdown', values.markdown],
    ['junit', values.junit],
    ['html', values.html],
  ];
  // A path as given, or where it went: a control character in its name shown as an escape (docs/security.md, "Agent text is data").
  const lines = written.filter((w): w is [string, string] => w[1] !== undefined).map(([what, p]) => `${what}: ${terminalLine(what === out ? p : resolvePath(io, p))}`);
  return lines.length === 0 ? '' : `\n${lines.join('\n')}\n`;
}

/** Says that the run was interrupted and what its record holds; returns 130 (SIGINT) or 143 (SIGTERM). */
export function interruptedExit(record: RunRecord, suite: { fixtures: readonly unknown[]; personas: readonly unknown[] }, io: CliIO): number {
  const signal = interruptedBy(io.signal) ?? 'SIGINT';
  const n = record.fixtures.length + record.personas.length;
  const total = suite.fixtures.length + suite.personas.length;
  // `total` counts fixtures and persona scripts alike: with scripts in the run (finished or not) they are "items".
  const noun = suite.personas.length > 0 ? (total === 1 ? 'item' : 'items') : total === 1 ? 'fixture' : 'fixtures';
  io.stderr(
    `\ninterrupted by ${signal}: ${n} of ${total} ${noun} finished; the record lists only ${n === 1 ? 'that one' : 'those'} and is marked interrupted. ` +
      `The other ${total - n} were not recorded, and the gate was not applied.\n`,
  );
  return interruptExitCode(signal);
}

