// Reading, writing and merging run records. A record is written once and never changed.

import { constants } from 'node:fs';
import { posix } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import type { Incomplete, RunRecord, RunRepeat, Selection, ShardInfo, Spend, SuiteEdits } from '../types.js';
import { coverage, runLatency, runStatsOf, runUsage, runVisited, statsSeed, tallies } from '../evaluate/index.js';
import { runRecordSchema } from './schema.js';
import { MAX_RECORD_DEPTH, pathDeeperThan } from './depth.js';
import { cutShortAt, handEditError, jsonErrorOffset, jsonErrorWords, jsonValueOffset, lineColumnAt, unclosedStringAt } from '../suite/json-depth.js';
import { conflictsIn, type MergeConflict } from '../suite/merge-conflict.js';
import { UserError } from '../errors.js';
import { writeRecordFile } from './stream.js';
import { docsUrl, TOOL } from '../version.js';
import { hideEndpointTokens, sameEndpoint } from '../endpoint.js';
import { listAndMore, listWords, plural, shownJson, terminalLine, thousands } from '../words.js';
import { MIXED_SELECTION } from '../evaluate/shard.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import { readAsStoredNow } from '../evaluate/index.js';

export { openRecordStream, RecordWriteError, writeRecordFile, type ItemKind, type RecordStream } from './stream.js';

export { runRecordSchema } from './schema.js';

export class RecordError extends UserError {
  /**
   * The suite folder the file says it is of (its `suitePath`), where it is JSON of schema version 1
   * that is not a record this agent-replay reads (parseRecord): what report mode sets another
   * suite's file aside by (docs/action.md, "Report: combine shards, or comment for a fork").
   */
  suitePath?: string;

  /** `file: why`, the file's name on its one line (terminalLine: the Action's failure quotes the message; the CLI's line names `file` so too, cli/main.ts). */
  constructor(
    readonly file: string,
    /** What is wrong with the file, and the fix. */
    readonly why: string,
  ) {
    super(`${terminalLine(file)}: ${why}`);
    this.name = 'RecordError';
  }
}

/**
 * A record's `suitePath` as JSON that failed to be read as one says it: of schema version 1 only,
 * whose fields this agent-replay knows (another version's may mean another thing), and a string.
 */
function suitePathSaid(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const { schemaVersion, suitePath } = data as { schemaVersion?: unknown; suitePath?: unknown };
  return schemaVersion === 1 && typeof suitePath === 'string' && suitePath !== '' ? suitePath : undefined;
}

/** Stable, readable JSON with a trailing newline. */
export function serializeRecord(record: RunRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/**
 * Writes atomically (an exclusively created temp file renamed over the target) so a reader never
 * sees half a record and no planted link is written through; a path named inside the working
 * directory must really be inside it (its folder cannot be a link to elsewhere). The bytes are
 * serializeRecord's.
 */
export async function writeRecord(path: string, record: RunRecord): Promise<void> {
  // In pieces: the text of a large run is never built in one string (record/stream.ts).
  await writeRecordFile(path, record);
}

/** major.minor.patch of a version string, or null; a pre-release suffix is ignored. */
function versionParts(v: unknown): [number, number, number] | null {
  const m = typeof v === 'string' ? /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** The version that wrote a record (its `tool.version`) when it is newer than this agent-replay's; else null. */
function newerWriter(data: unknown): string | null {
  const version = (data as { tool?: { version?: unknown } } | null)?.tool?.version;
  const theirs = versionParts(version);
  const ours = versionParts(TOOL.version);
  if (theirs === null || ours === null) return null;
  for (let k = 0; k < 3; k++) if (theirs[k] !== ours[k]) return (theirs[k] as number) > (ours[k] as number) ? (version as string) : null;
  return null;
}

/**
 * Validates untrusted JSON text as a run record; errors name the file, the first problems and the
 * fix (docs/results-json.md, "When a results file cannot be read"): a file cut off, a record of
 * another schema version, or one written by a newer agent-replay.
 */
export function parseRecord(text: string, file: string): RunRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const again = "take it again from where it was written (the run's --out, or its results artifact)";
    // Nothing at all: a file made empty (cut off before anything was written, or created by another step).
    if (text.trim() === '') throw new RecordError(file, `is empty, with no record in it (cut off before anything was written, or made by another step): ${again}`);
    // A merge conflict left in it (a results.json committed, then merged): as a baseline's is
    // (conflictsIn), the first one, with how many more come after it.
    const [conflict, ...more] = conflictsIn(text, 'JSON');
    if (conflict !== undefined) {
      const after = more.length === 0 ? '' : `; ${plural(more.length, 'more conflict', 'more conflicts')} after it, the next at line ${String((more[0] as MergeConflict).line)}`;
      throw new RecordError(file, `not valid JSON (${conflict.words}${after}): ${conflict.fix}${more.length === 0 ? '' : ', and the same side of each conflict after it'}; or ${again}`);
    }
    // Cut short only where the parser stops at the end of the text, with a string, list or object
    // still open (cutShortAt): a mistake before the end (a key without its value, a quote left out
    // mid-file) is none, and neither is a whole file whose last string is not closed (unclosedStringAt).
    const cut = cutShortAt(text, message) !== null;
    const quote = cut ? unclosedStringAt(text) : null;
    const fix = cut && quote === null ? `the file ends before the record does (cut off while it was copied or written); ${again}` : 'expected a results.json written by agent-replay';
    // Said once, on one line: JSON.parse's words without its position or the text it quotes, and
    // the line and column (docs/results-json.md, "When a results file cannot be read").
    // A hand edit's comma after the last entry or left out between two, a string left open, a line
    // break or tab typed inside one: in the same words as a baseline's (handEditError), on one line,
    // the line and column in the words when the fix does not name them.
    const placed = handEditError(text, message);
    if (placed !== null) {
      const at = `at line ${String(placed.line)}, column ${String(placed.column)}`;
      const words = placed.words.includes(' opened here ') ? placed.words.replace(' opened here ', ` opened ${at} `) : placed.fix.includes(at) ? placed.words : `${placed.words}, ${at}`;
      throw new RecordError(file, `not valid JSON (${words}): ${placed.fix.replace(/\n\s*/g, ': ')}`);
    }
    // A string never closed in a file that is otherwise whole: said where it opens (unclosedStringAt).
    if (quote !== null) {
      const { line, column } = lineColumnAt(text, quote);
      throw new RecordError(file, `not valid JSON (the string opened at line ${String(line)}, column ${String(column)} is never closed: its closing " is left out, or written \\" and so read as part of the string): agent-replay never writes one; give the results.json the run wrote (its --out, or its results artifact); in a file edited by hand, close the string`);
    }
    const offset = jsonErrorOffset(text, message);
    const where = offset === null ? '' : (({ line, column }) => `, at line ${String(line)}, column ${String(column)}`)(lineColumnAt(text, offset));
    throw new RecordError(file, `not valid JSON (${jsonErrorWords(message)}${where}): ${fix}`);
  }
  try {
    return recordOf(data, text, file);
  } catch (e) {
    const said = suitePathSaid(data);
    if (e instanceof RecordError && said !== undefined) e.suitePath = said;
    throw e;
  }
}

/** The record that parsed JSON holds (parseRecord), checked as one: else a RecordError naming the file, what is wrong and the fix. */
function recordOf(data: unknown, text: string, file: string): RunRecord {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version !== 1) {
    const writer = (data as { tool?: { version?: unknown } }).tool?.version;
    const by = typeof writer === 'string' && versionParts(writer) !== null ? `, written by agent-replay ${writer}` : '';
    const fix = version > 1 ? `read it with agent-replay ${by === '' ? 'that writes it' : `${writer as string} or newer`}` : 'write it again with this agent-replay';
    throw new RecordError(file, `is a results file of schema version ${version}${by}; this agent-replay (${TOOL.version}) reads schema version 1: ${fix}`);
  }
  // Before the schema, which recurses once a level (docs/results-json.md, "When a results file cannot be read").
  const deep = pathDeeperThan(data, MAX_RECORD_DEPTH);
  if (deep !== null) {
    const shown = deep.length > 10 ? `${deep.slice(0, 10).join('.')}...` : deep.join('.');
    throw new RecordError(file, `is not a valid agent-replay results file: ${shown} nests deeper than ${MAX_RECORD_DEPTH} levels of lists and objects, which agent-replay never writes: expected a results.json written by agent-replay`);
  }
  const parsed = runRecordSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`)
      .join('; ');
    const newer = newerWriter(data);
    const fix = newer === null ? '; give a results.json written by agent-replay (the run\'s --out, or its results artifact)' : `; it was written by agent-replay ${newer}, newer than this one (${TOOL.version}), which may not know its fields: read it with agent-replay ${newer} or newer`;
    throw new RecordError(file, `is not a valid agent-replay results file (schema version 1): ${problems}${fix}`);
  }
  const record = parsed.data;
  // Lower-cased label -> the label as written, and where.
  const labels = new Map<string, { label: string; path: ItemPath }>();
  // Fixtures and persona scripts share one namespace: a label names one baseline file, also on a
  // case-insensitive file system, as the suite's labels do (docs/fixtures.md, "A fixture").
  const items = [
    ...record.fixtures.map((f, k) => ['fixture', f.label, ['fixtures', k, 'label']] as const),
    ...record.personas.map((p, k) => ['persona script', p.label, ['personas', k, 'label']] as const),
  ];
  for (const [kind, label, path] of items) {
    const seen = labels.get(label.toLowerCase());
    if (seen !== undefined) {
      const where = `at ${itemAt(text, seen.path)} and at ${itemAt(text, path)}`;
      const what = seen.label === label ? `${kind} label "${label}" appears twice, ${where}` : `${kind} label "${label}" differs only in case from "${seen.label}", ${where}`;
      throw new RecordError(file, `${what}: ${DUPLICATE_FIX}`);
    }
    labels.set(label.toLowerCase(), { label, path });
  }
  listsAgree(record, file);
  // Read as a run stores it now where the record holds all it takes; the items it cannot be are said once (olderRecordNote).
  const now = readAsStoredNow(record);
  if (now.unsure.length > 0) unsureNotes.set(now.record, { file, labels: now.unsure });
  return now.record;
}

/** The note of a record read with items a run now stores otherwise than it can tell (readAsStoredNow's `unsure`), by record. */
const unsureNotes = new WeakMap<RunRecord, { file: string; labels: readonly string[] }>();

/**
 * The one line a reader of `record` says (docs/results-json.md, "Records of an older agent-replay"):
 * which repeated items of it were written before a run stored what it does now of an attempt that
 * replied otherwise than the one shown, why they read as written, and the fix; null for every other record.
 * `file`: the file as the reader names it (the path it was read from by default).
 */
export function olderRecordNote(record: RunRecord, file?: string): string | null {
  const unsure = unsureNotes.get(record);
  return unsure === undefined ? null : unsureWords(file ?? unsure.file, unsure.labels);
}

/** The most labels the note names; the rest are counted. */
const NOTE_LABELS = 5;

function unsureWords(file: string, labels: readonly string[]): string {
  const one = labels.length === 1;
  const shown = listAndMore(labels, NOTE_LABELS, (l) => l);
  const items = one ? `the repeated item ${shown} shows` : `${thousands(labels.length)} repeated items (${shown}) show`;
  return (
    `${terminalLine(file)}: written by an older agent-replay: ${items} the baseline's reply while another attempt replied otherwise, ` +
    `and the record lacks what a run now keeps of that attempt (its meaning; a script's: who ended its conversation), so ${one ? 'it reads' : 'they read'} as recorded, with no word of that attempt, ` +
    `and accept refuses ${one ? 'it' : 'them'} (replies vary); run ${one ? 'it' : 'them'} again to see ${one ? 'it' : 'them'} as a run does now (run --only ${labels.join(',')})`
  );
}

/**
 * A merge of records judged by different judges (or meaning judges, or prompt versions) writes the
 * field shown and the list beside it together (listedNames): the field is the list, each quoted.
 * A file edited by hand in one of them would show one and be merged by the other: refused, naming
 * both (docs/results-json.md, "When a results file cannot be read").
 */
function listsAgree(record: RunRecord, file: string): void {
  const { judge, meaning } = record;
  const pairs: [string, string, string | null, string[] | undefined][] = [
    ['judge.name', 'judge.names', judge.name, judge.names],
    ...(meaning === undefined
      ? []
      : ([
          ['meaning.model', 'meaning.models', meaning.model, meaning.models],
          ['meaning.promptVersion', 'meaning.promptVersions', meaning.promptVersion, meaning.promptVersions],
        ] as [string, string, string | null, string[] | undefined][])),
  ];
  for (const [key, list, shown, listed] of pairs) {
    if (listed === undefined || shown === quotedList(listed)) continue;
    throw new RecordError(
      file,
      `${key} (${shownJson(shown)}) does not agree with ${list} (${shownJson(listed)}): agent-replay writes ${key} as ${list}'s entries, each quoted, comma-separated (here ${quotedList(listed)}); give the results.json the run wrote (its --out, or its results artifact); in a file edited by hand, make the two agree`,
    );
  }
}

/** Where an item's label is in a record: its path, as the schema's problems name one, and its key's line. */
type ItemPath = readonly ['fixtures' | 'personas', number, 'label'];

/** `fixtures.3.label (line 41)`: the path of a label in a record, and its line in the text when found there. */
function itemAt(text: string, path: ItemPath): string {
  const offset = jsonValueOffset(text, path);
  return `${path.join('.')}${offset === null ? '' : ` (line ${String(lineColumnAt(text, offset).line)})`}`;
}

/**
 * A run never records one label twice (a suite refuses it, docs/fixtures.md, "A fixture"): the file
 * was edited, or made of two records, by hand (docs/results-json.md, "When a results file cannot be read").
 */
const DUPLICATE_FIX =
  "agent-replay never writes one (a suite's labels are unique, also in case): give the results.json the run wrote (its --out, or its results artifact); in a file edited by hand, remove one of the two items";

/** Open flags for a record: never through a link (where the system can say so), never blocking on a pipe. */
const READ_NO_FOLLOW = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

const LINK_REFUSED =
  'is a symbolic link: refused, nothing was read from it (a results file may come from a pull request\'s artifact, and a link there could point at any file on the runner); give the file itself';

/**
 * A record longer than Node's longest string (about 512 MiB: buffer.constants.MAX_STRING_LENGTH) is
 * written in pieces but cannot be read back whole: said with what makes one that large and the fix
 * (docs/results-json.md, "When a results file cannot be read").
 */
function tooLargeWords(bytes: number): string {
  const mb = Math.round(bytes / 1_048_576).toLocaleString('en-US');
  return (
    `is ${mb} MiB, more than Node can read as one text (about 512 MiB), so it cannot be read back. ` +
    'What makes a record that large is the text it keeps: very long replies (each answer is read up to 8 MiB), tool call inputs and outputs, or the spans of traces, for every attempt of repeat. ' +
    "Replay the suite in parts (run --shard 1/4, 2/4, ...: each part's results.json is read on its own), and see what makes the agent's answers that long"
  );
}

/**
 * Reads a results file given by the user or found in an artifact: a symbolic link is refused, and
 * so is anything but a regular file (docs/security.md, "Hostile files").
 */
export async function readRecord(path: string, readText: (handle: FileHandle) => Promise<string> = (h) => h.readFile('utf8')): Promise<RunRecord> {
  let text: string;
  let handle: FileHandle | undefined;
  let size = 0;
  try {
    if (constants.O_NOFOLLOW === undefined && (await lstat(path)).isSymbolicLink()) throw new RecordError(path, LINK_REFUSED);
    handle = await open(path, READ_NO_FOLLOW);
    const stat = await handle.stat();
    if (!stat.isFile()) throw new RecordError(path, 'is not a regular file: refused; give a results.json written by agent-replay');
    size = stat.size;
    text = await readText(handle);
  } catch (e) {
    if (e instanceof RecordError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    // Over 2 GB Node's readFile refuses the file itself (ERR_FS_FILE_TOO_LARGE): the same cause.
    if (code === 'ERR_STRING_TOO_LONG' || code === 'ERR_FS_FILE_TOO_LARGE') throw new RecordError(path, tooLargeWords(size));
    // O_NOFOLLOW on a link fails with ELOOP (Linux, macOS) or EMLINK (FreeBSD).
    if (code === 'ELOOP' || code === 'EMLINK') throw new RecordError(path, LINK_REFUSED);
    if (code === 'ENOENT') throw new RecordError(path, 'does not exist; give the path of a results.json written by agent-replay');
    // The system's words when it gives no code quote the path as it is: on the message's one line (terminalLine).
    throw new RecordError(path, `cannot be read (${code ?? terminalLine((e as Error).message)})`);
  } finally {
    await handle?.close();
  }
  return parseRecord(text, path);
}

/** Records given to be merged as one run that are of two or more suites (mixedSuites). */
export interface MixedSuites {
  /** Each suite (its `suitePath`, normalized) with its files, in the order the files come. */
  suites: { suite: string; files: string[] }[];
  /** The files whose record does not say its suite (no `suitePath`). */
  unnamed: string[];
  /** Each file's suite in words, the files and suites shown by `show`: `a.json is a run of the suite in apps/a/.agent-replay; b.json, c.json are runs of ...`. */
  which: string;
}

/**
 * The check the CLI's `report` and the Action's report mode share before merging: records of two or
 * more suites (their `suitePath`s differ: two suite folders of one repository) would be merged as
 * one run, one suite's items shown as the other's, so each refuses them with `which` and its own
 * fix (docs/cli.md, "What each command does"; docs/action.md, "Two suites in one repository").
 * Null when they are of one suite. A record without `suitePath` (made outside a git repository, or
 * by an older agent-replay) does not say its suite: it is not held against the others.
 */
export function mixedSuites(records: readonly RunRecord[], files: readonly string[], show: (text: string) => string): MixedSuites | null {
  const bySuite = new Map<string, string[]>();
  const unnamed: string[] = [];
  records.forEach((r, i) => {
    const file = files[i] ?? `record ${i + 1}`;
    if (r.suitePath === undefined) return void unnamed.push(file);
    const suite = suiteOf(r.suitePath);
    bySuite.set(suite, [...(bySuite.get(suite) ?? []), file]);
  });
  if (bySuite.size < 2) return null;
  const suites = [...bySuite].map(([suite, of]) => ({ suite, files: of }));
  const which = suites.map(({ suite, files: of }) => `${of.map(show).join(', ')} ${of.length === 1 ? 'is a run' : 'are runs'} of the suite in ${show(suite)}`).join('; ');
  return { suites, unnamed, which };
}

/** A record's `suitePath` as one suite is compared with another: normalized, without a trailing slash. */
function suiteOf(suitePath: string): string {
  return posix.normalize(suitePath).replace(/(.)\/+$/, '$1');
}

/**
 * The fixes of a merge's refusals that depend on how its records were given: as the CLI's
 * `--results` files (CLI_MERGE_FIXES), or by report mode's `results` input, downloaded from
 * artifacts (src/action/report.ts), each said in its caller's terms.
 */
export interface MergeFixes {
  /** Two runs that cannot be told to be of one suite (one says no `suitePath`): how to give one of them; `later` names the one that started last. */
  oneOfTwo: (later: string) => string;
  /** A re-run (`run --rerun`, `--only`) given beside the run it re-ran: how to give one record of each run. */
  rerunBeside: string;
  /** The flags a record of part of the suite was replayed with (`--rerun r.json`), as its refusal names them: the CLI's own, or said to be the CLI's. */
  part: (flags: string) => string;
  /** A whole run's or a merge's record given beside the shards it holds: how to give the shards alone. */
  shardsOnly: string;
  /** A shard given twice, one record of part of it (`--rerun`, `--only`): how to have the whole shard to merge (`shard`: `1/2`). */
  wholeShard: (shard: string) => string;
}

/** The CLI's fixes: it is given files (docs/cli.md, "What each command does"). */
export const CLI_MERGE_FIXES: MergeFixes = {
  oneOfTwo: (later) => `give one of them alone: for a re-run, the one that started last, ${later}`,
  rerunBeside: 'give one record of each run (the run itself, or the re-run alone)',
  part: (flags) => flags,
  shardsOnly: "give the shards' results files only, those run --shard wrote",
  wholeShard: (shard) => `replay the whole shard (run --shard ${shard} without --rerun or --only, or re-run its job)`,
};

/**
 * Combines the records of several shards (a matrix) into one run. Labels (fixtures and persona
 * scripts) must not repeat across shards; tallies are derived again; the estimate is summed.
 * Records that carry `shard` are checked: the suite is the one most records name (its
 * `suiteHash`, `total` and `partition`; a tie goes to the first file's), a record of another suite,
 * shard count or split (balanced by other timings: an item would be in no shard, or in two) is
 * excluded, and the merged record says `incomplete` when a shard is missing or one was excluded. A
 * complete merge is a whole run: it carries neither `shard` nor `incomplete`. A refusal's fix that
 * depends on how the records were given is said in the caller's terms (`fixes`).
 */
export function mergeRecords(input: readonly RunRecord[], inputNames: readonly string[] = [], log: (line: string) => void = () => {}, fixes: MergeFixes = CLI_MERGE_FIXES): RunRecord {
  if (input.length === 0) throw new UserError('nothing to merge: give at least one --results file');
  const nameOf = (i: number): string | undefined => inputNames[i];
  const checked = checkShards(input, nameOf, log, fixes);
  const records = checked.kept.map((i) => input[i] as RunRecord);
  const names = checked.kept.map((i) => nameOf(i) ?? `record ${i + 1}`);
  const incomplete = checked.incomplete === null ? {} : { incomplete: checked.incomplete };
  const { shard: _shard, incomplete: _incomplete, ...first } = records[0] as RunRecord;
  // Tallies are derived from the fixtures, never trusted from a file (also for a single shard).
  if (records.length === 1) {
    // A lone merge that lacked shards says so again (checkShards): it holds the same shards.
    return { ...first, tallies: tallies([...first.fixtures, ...first.personas]), ...incomplete };
  }
  // A shard record is called by its own index, never by where it comes in the list ("shard 4/4
  // (s4.json)", not "shard 1" when it is given first), a merge lacking shards by those it holds
  // ("the merge of shards 1/4 and 3/4 (m.json)"), and any other record as what it is, never a shard:
  // "the run m.json", "the merged run m.json" when it says it is a merge (of records given
  // different selections: partOf); a complete merge is otherwise a whole run.
  const shard = (i: number): string => {
    const record = records[i] as RunRecord;
    const { shard: s, incomplete: lack } = record;
    if (s === undefined && lack == null) {
      return inputNames.length === 0 ? `record ${i + 1}` : `the ${mergedRun(record) ? 'merged run' : 'run'} ${names[i] as string}`;
    }
    const what = s !== undefined ? `shard ${s.index}/${s.total}` : mergeOfShards(lack as Incomplete);
    return `${what}${inputNames.length === 0 ? '' : ` (${names[i]})`}`;
  };
  const commits = [...new Set(records.map((r) => r.commit))];
  if (commits.length > 1) {
    const list = listWords(records.map((r, i) => `${shard(i)} at ${r.commit ?? 'an unknown commit'}`));
    throw new UserError(`shards were recorded at different commits: ${list}; merge shards of one run only: download one commit's shard artifacts, as the recipe (${docsUrl('action.md', 'Shards: one suite over a CI matrix')}) does with the pattern agent-replay-results-<commit>-shard-* (a suite in another folder names it before the commit)`);
  }
  sameRepeat(records, shard);
  const seen = new Map<string, number>();
  // Each item held by more than one record, once, with every record that holds it (in the order given).
  const overlaps = new Map<string, { kind: 'fixtures' | 'scripts'; in: number[] }>();
  // Records that are no shard (a whole run, or a merge) holding items of a shard given beside them.
  const notShards = new Set<number>();
  // Every record that holds an item another holds too.
  const overlapped = new Set<number>();
  const reruns = new Set<number>();
  // Pairs [a record without suitePath, one with it] of whole runs that overlap.
  const unsuited = new Set<string>();
  const firstSeen = (label: string, i: number, kind: 'fixtures' | 'scripts' = 'fixtures'): boolean => {
    const prev = seen.get(label);
    if (prev !== undefined) {
      const held = overlaps.get(label);
      if (held === undefined) overlaps.set(label, { kind, in: [prev, i] });
      else if (!held.in.includes(i)) held.in.push(i);
      overlapped.add(prev).add(i);
      const [p, r] = [records[prev] as RunRecord, records[i] as RunRecord];
      if ((p.shard === undefined) !== (r.shard === undefined)) notShards.add(p.shard === undefined ? prev : i);
      // Two runs, one of part of the suite (`run --rerun`, `--only`): a re-run, not a shard.
      else if (p.shard === undefined) {
        for (const k of [prev, i]) if (partOf(records[k] as RunRecord) !== null) reruns.add(k);
        // Two runs at one commit, one of which does not say its suite: not known to be one run given twice (wholeRunsOnce).
        if (p.commit !== null && (p.suitePath === undefined) !== (r.suitePath === undefined)) unsuited.add(JSON.stringify(p.suitePath === undefined ? [prev, i] : [i, prev]));
      }
      return false;
    }
    seen.set(label, i);
    return true;
  };
  // In the suite's order (its files by path, then by line), as one run lists them, whatever order
  // the shards come in (docs/action.md, "Report: combine shards, or comment for a fork").
  const fixtures = suiteOrder(records.flatMap((r, i) => r.fixtures.filter((f) => firstSeen(f.label, i))));
  const personas = suiteOrder(records.flatMap((r, i) => r.personas.filter((p) => firstSeen(p.label, i, 'scripts'))));
  if (overlaps.size > 0) {
    // A merge that holds several shards is a list of its own (`the merge of shards 1/4 and 3/4`):
    // beside it, the records holding an item are set apart by "; ", not listed in a list.
    const holdsList = (i: number): boolean => {
      const lack = (records[i] as RunRecord).incomplete;
      return records[i]?.shard === undefined && lack != null && heldShards(lack).length > 1;
    };
    const listed = [...overlaps].map(([label, held]) => `"${label}" (${held.in.some(holdsList) ? held.in.map(shard).join('; ') : listWords(held.in.map(shard))})`);
    const shown = listAndMore(listed, 5, (l) => l);
    // Fixtures and persona scripts each called what they are (a script is not a "fixture").
    const nf = [...overlaps.values()].filter((o) => o.kind === 'fixtures').length;
    const ns = overlaps.size - nf;
    const n = nf + ns;
    const noun = ns === 0 ? (n === 1 ? 'fixture' : 'fixtures') : nf === 0 ? (n === 1 ? 'persona script' : 'persona scripts') : `items (${plural(nf, 'fixture', 'fixtures')}, ${plural(ns, 'persona script', 'persona scripts')})`;
    const each = ns === 0 ? 'fixture' : nf === 0 ? 'persona script' : 'item';
    // The overlap is said for what the records that overlap are: shards (a merge that lacked shards
    // holds shards), runs (none is a shard: a run given beside another run of the same items), or
    // records (a run beside shards).
    const isShard = (i: number): boolean => records[i]?.shard !== undefined || records[i]?.incomplete != null;
    const kinds = new Set([...overlapped].map(isShard));
    const over = kinds.size === 2 ? 'record' : kinds.has(true) ? 'shard' : 'run';
    // A whole run's or a merge's record beside the shards it holds (a download pattern that took the merged artifact too), said as what it is.
    const whole = [...notShards].sort((a, b) => a - b).map((i) => ({ name: names[i] ?? `record ${i + 1}`, is: notShardWords(records[i] as RunRecord, fixes) }));
    const [one] = whole;
    const beside =
      one === undefined
        ? ''
        : `; ${whole.length === 1 ? `${one.name} is ${one.is}, not a shard` : `${listWords(whole.map((w) => `${w.name} (${w.is})`))} are no shards`}: give either ${whole.length === 1 ? 'it' : 'them'} or the shard records, not both (${fixes.shardsOnly})`;
    // A merge of records given different selections is said as what it is, not as a part it replayed.
    const parts = [...reruns].sort((a, b) => a - b).map((i) => {
      const { selection } = records[i] as RunRecord;
      const part = partOf(records[i] as RunRecord) as string;
      return `${names[i] ?? `record ${i + 1}`} ${selection?.rerunOf == null && selection?.only == null ? `is ${part}` : `replayed part of the suite (${fixes.part(part)})`}`;
    });
    const rerun = parts.length === 0 ? '' : `; ${listWords(parts)}: a merge does not read a re-run over the run it re-ran; ${fixes.rerunBeside}`;
    const suiteless = [...unsuited].map((pair) => {
      const [a, b] = JSON.parse(pair) as [number, number];
      const [x, y] = [records[a] as RunRecord, records[b] as RunRecord];
      const later = Date.parse(y.startedAt) > Date.parse(x.startedAt) ? b : a;
      return `; ${names[a] as string} does not say its suite folder (no suitePath: written by an agent-replay before it was kept, or outside a git repository) and ${names[b] as string} is a run of the suite in ${suiteOf(y.suitePath as string)}: a merge cannot tell that they are runs of one suite, so it does not read them as one run given twice (a re-run of the check); ${fixes.oneOfTwo(names[later] as string)}`;
    });
    // Runs only: the rule for shards is not theirs; a re-run or a run that does not say its suite is told its own fix.
    const rule =
      over !== 'run'
        ? `; each ${each} must be replayed by exactly one shard`
        : rerun === '' && suiteless.length === 0
          ? `; these are runs of the same ${ns === 0 ? 'fixtures' : nf === 0 ? 'persona scripts' : 'items'}, not shards of one run: give one of them alone, or merge the shards of one run (run --shard 1/2, 2/2, ...)`
          : '';
    throw new UserError(`${over}s overlap: ${thousands(n)} ${noun} ${n === 1 ? 'is' : 'are'} in more than one ${over}: ${shown}${rule}${beside}${rerun}${suiteless.join('')}`);
  }
  // The merged run says it was interrupted; which shard was, and what to do, is said here
  // (docs/action.md, "Report: combine shards, or comment for a fork").
  records.forEach((r, i) => {
    if (!r.interrupted) return;
    const n = r.fixtures.length + r.personas.length;
    const again = r.shard === undefined ? 'replay it again' : `replay shard ${r.shard.index}/${r.shard.total} again (run --shard ${r.shard.index}/${r.shard.total}, or re-run its job)`;
    log(`${shard(i)} was interrupted: only the ${n} ${n === 1 ? 'item it finished is' : 'items it finished are'} merged, its others were not replayed; ${again} and merge its record instead`);
  });
  const startedAt = records.map((r) => r.startedAt).sort()[0] as string;
  const finishedAt = records.map((r) => r.finishedAt).sort().at(-1) as string;
  const usd = Math.round(records.reduce((s, r) => s + r.estimate.usd, 0) * 1e6) / 1e6;
  // The shards' own latency figures are taken again over every merged turn (docs/latency.md).
  const { latency: _shardLatency, usage: _shardUsage, stats: _shardStats, removed: _shardRemoved, suiteEdits: _shardEdits, spend: _shardSpend, meaning: _shardMeaning, configName: _shardConfig, ...shared } = first;
  // Every shard loads the whole suite, so each names the same removed baselines: said once.
  const removed = [...new Map(records.flatMap((r) => r.removed ?? []).map((b) => [b.label, b])).values()].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const latency = runLatency(fixtures, personas);
  // The same for the tokens reported (docs/latency.md, "Usage").
  const usage = runUsage(fixtures, personas);
  // And the pass-rate change over every merged item, seeded by the suite the shards name (docs/statistics.md, "The run"):
  // a merge lacking shards names it in its `incomplete`, so the seed is the same whatever order and
  // grouping the shards are merged in (every kept shard and merge is of the one suite checkShards chose).
  const suite = records.map((r) => r.shard?.suiteHash ?? r.incomplete?.suiteHash).find((h) => h !== undefined);
  const stats = runStatsOf(fixtures, personas, statsSeed([...fixtures, ...personas], suite === undefined ? undefined : { suiteHash: suite }));
  return {
    ...shared,
    ...(latency === null ? {} : { latency }),
    ...(usage === null ? {} : { usage }),
    ...(stats === null ? {} : { stats }),
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) || Math.max(...records.map((r) => r.durationMs)),
    estimate: mergedEstimate(records, usd),
    ...mergedModels(records, shard, log),
    // An older shard's record has no `meaning`: the run's is the one the shards recorded, whatever order they come in.
    ...mergedMeaning(records, shard, log),
    // An older shard's record has no `repeat`: the run's is the one the others say (sameRepeat).
    ...mergedRepeat(records),
    tallies: tallies([...fixtures, ...personas]),
    interrupted: records.some((r) => r.interrupted),
    fixtures,
    personas,
    ...mergedEvaluations(records, { fixtures, personas }),
    ...mergedSpend(records, shard, log),
    ...mergedWriters(records, shard, log),
    ...(removed.length > 0 ? { removed } : {}),
    ...mergedSuiteEdits(records, shard, log),
    ...mergedConfigName(records, shard, log),
    ...incomplete,
  };
}

/** A record that says it is a merge of records given different selections (`--rerun`, `--only`): partOf. */
function mergedRun(r: RunRecord): boolean {
  return r.selection != null && r.selection.rerunOf === null && r.selection.only === null;
}

/** The shards a merge that lacked shards holds, those its `incomplete` does not say missing. */
function heldShards(lack: Incomplete): number[] {
  return Array.from({ length: lack.total }, (_, k) => k + 1).filter((k) => !lack.missing.includes(k));
}

/** The shards a merge that lacked shards holds, in words: `shard 2/4`, `shards 1/4 and 3/4` (listWords). */
function heldWords(lack: Incomplete): string {
  const held = heldShards(lack).map((k) => `${k}/${lack.total}`);
  return `${held.length === 1 ? 'shard' : 'shards'} ${listWords(held)}`;
}

/** A merge that lacked shards, by the shards it holds: `the merge of shards 1/4 and 3/4`. */
function mergeOfShards(lack: Incomplete): string {
  return `the merge of ${heldWords(lack)}`;
}

/**
 * What a record that is no shard is, as the refusal of it beside shards says: `the merge of shards
 * 1/4 and 3/4`, `a merged run` (of records given different selections), `a run of part of the suite
 * (--only a*)`, its flags in the caller's terms (`fixes.part`), or `a whole run` (a complete merge is one).
 */
function notShardWords(r: RunRecord, fixes: MergeFixes): string {
  if (r.incomplete != null) return mergeOfShards(r.incomplete);
  if (mergedRun(r)) return 'a merged run';
  const part = partOf(r);
  return part === null ? 'a whole run' : `a run of part of the suite (${fixes.part(part)})`;
}

/**
 * `--repeat 3 --repeat-max 6 (3 attempts an item, 2 to pass, up to 6)`: a record's `repeat` in
 * words; `changed`, the items whose own repeat the flags changed (summed over a setting's shards,
 * null: a record does not say), is said when given.
 */
function repeatWords(r: RunRepeat, changed?: number | null): string {
  const flags = r.flags === undefined ? 'no --repeat' : [r.flags.count === undefined ? [] : [`--repeat ${r.flags.count}`], r.flags.max === undefined ? [] : [`--repeat-max ${r.flags.max}`]].flat().join(' ');
  const attempts = `${r.count} ${r.count === 1 ? 'attempt' : 'attempts'} an item${r.count === 1 ? '' : `, ${r.minPass} to pass`}${r.max === undefined ? '' : `, up to ${r.max}`}`;
  const own =
    changed === undefined || r.flags === undefined
      ? ''
      : changed === null
        ? '; not said which items it changed (written by an earlier agent-replay)'
        : changed === 0
          ? '; no item\'s own repeat changed'
          : `; the own repeat of ${plural(changed, 'item', 'items')} changed`;
  return `${flags} (${attempts}${own})`;
}

/** What an item without its own `repeat` ran with: its attempts, the passes they need and its most attempts. */
const ranKey = (r: RunRepeat): string => JSON.stringify([r.count, r.minPass, r.max ?? null]);
/** The flags as given (`--repeat`, `--repeat-max`). */
const askedKey = (r: RunRepeat): string => JSON.stringify([r.flags?.count ?? null, r.flags?.max ?? null]);

/**
 * Shards run with different repeats are refused (docs/action.md, "Shards: one suite over a CI
 * matrix"): their items' pass rates are over different numbers of attempts, and the merged run
 * would show them as one run's. What is compared is what the shards ran, not how it was asked: an
 * item without its own repeat ran with the record's `count`, `minPass` and `max` (`--repeat 3`
 * beside config.yml's `repeat: 3` is the same 3 attempts), and an item with its own ran with it
 * unless flags changed it (`flags.changed`). Shards given different flags are alike when what
 * they ran is and no flag changed an item's own repeat; else each setting is said with the shards
 * that ran with it. A record without `repeat` (an older agent-replay) does not say its own: it is
 * not held against the others.
 */
function sameRepeat(records: readonly RunRecord[], shard: (i: number) => string): void {
  const said = records.flatMap((r, i) => (r.repeat === undefined ? [] : [{ repeat: r.repeat, i }]));
  const ran = new Set(said.map((s) => ranKey(s.repeat))).size < 2;
  const asked = new Set(said.map((s) => askedKey(s.repeat))).size < 2;
  if (ran && (asked || said.every((s) => s.repeat.flags === undefined || s.repeat.flags.changed === 0))) return;
  // Only flags differ: each setting is the flags as given, with the own repeats they changed.
  const bySetting = new Map<string, { repeat: RunRepeat; shards: string[]; changed: number | null }>();
  for (const { repeat, i } of said) {
    const key = ran ? askedKey(repeat) : JSON.stringify([ranKey(repeat), askedKey(repeat)]);
    const seen = bySetting.get(key) ?? { repeat, shards: [], changed: 0 };
    seen.shards.push(shard(i));
    const changed = repeat.flags?.changed ?? (repeat.flags === undefined ? 0 : null);
    seen.changed = seen.changed === null || changed === null ? null : seen.changed + changed;
    bySetting.set(key, seen);
  }
  const words = [...bySetting.values()].map((s) => `${listWords(s.shards)} with ${ran ? repeatWords(s.repeat, s.changed) : repeatWords(s.repeat)}`).join('; ');
  const why = ran
    ? "--repeat and --repeat-max change an item's own repeat, which a shard run without them (or with others) keeps: items with their own would be over different numbers of attempts, shown as one run's"
    : "their pass rates would be over different numbers of attempts, shown as one run's";
  throw new UserError(
    `shards were run with different repeats: ${words}; ${why}: run every shard with the same --repeat and --repeat-max (the Action's repeat and repeat-max inputs), then merge their records`,
  );
}

/**
 * The merged run's repeat (sameRepeat has found the shards alike): what an item without its own ran
 * with; the flags when every shard that says its repeat was given the same, `changed` summed (absent
 * when a shard does not say it); none when they were given different flags, which changed no item's
 * own repeat: every item ran as config.yml's repeat says. Absent when no record says its repeat.
 */
function mergedRepeat(records: readonly RunRecord[]): Pick<RunRecord, 'repeat'> {
  const said = records.flatMap((r) => (r.repeat === undefined ? [] : [r.repeat]));
  const first = said[0];
  if (first === undefined) return {};
  const { flags, ...ran } = first;
  if (flags === undefined || !said.every((r) => askedKey(r) === askedKey(first))) return { repeat: ran };
  const changes = said.map((r) => r.flags?.changed);
  const { changed: _first, ...given } = flags;
  const changed = changes.every((n) => n !== undefined) ? { changed: changes.reduce((a: number, n) => a + (n as number), 0) } : {};
  return { repeat: { ...ran, flags: { ...given, ...changed } } };
}

/** Whether version `a` is newer than `b` (major.minor.patch; one that does not read as a version is the oldest). */
function newerVersion(a: string, b: string): boolean {
  const [x, y] = [versionParts(a), versionParts(b)];
  if (x === null || y === null) return x !== null && y === null;
  for (let k = 0; k < 3; k++) if (x[k] !== y[k]) return (x[k] as number) > (y[k] as number);
  return false;
}

/**
 * Who wrote the shards and what they called (docs/results-json.md; docs/action.md, "Report: combine shards, or comment for a fork"): the
 * merged record says the newest agent-replay that wrote one of them, never an older shard's version
 * as the whole run's, and every agent the shards called, in the order first given, its `endpoint`
 * only when they all called one. Each difference is said through `log`, with what each record said.
 */
function mergedWriters(records: readonly RunRecord[], shard: (i: number) => string, log: (line: string) => void): Pick<RunRecord, 'tool' | 'agent'> {
  const first = records[0] as RunRecord;
  const versions = [...new Set(records.map((r) => r.tool.version))];
  const version = versions.reduce((best, v) => (newerVersion(v, best) ? v : best));
  if (versions.length > 1) {
    const said = records.map((r, i) => `${shard(i)}: ${r.tool.version}`).join('; ');
    log(`the shards were written by several versions of agent-replay (${said}): the merged record says the newest, ${version}; replay every shard with one version to compare like with like`);
  }
  const tool = { ...first.tool, version };
  // An older record has no `endpoint`: it is not held against the others' one.
  const hosts = [...new Set(records.flatMap((r) => (r.agent.host === null ? [] : [r.agent.host])))];
  const endpoints = [...new Set(records.flatMap((r) => (r.agent.endpoint == null ? [] : [r.agent.endpoint])))];
  if (hosts.length <= 1 && endpoints.length <= 1) return { tool, agent: { ...first.agent, host: hosts[0] ?? null, ...(endpoints[0] === undefined ? {} : { endpoint: endpoints[0] }) } };
  const said = records.map((r, i) => `${shard(i)}: ${r.agent.endpoint ?? r.agent.host ?? 'an unknown agent'}`).join('; ');
  log(`the shards called different agents (${said}): the merged run names them all; check that every shard's job replays the same preview deployment`);
  return { tool, agent: { host: hosts.join(', '), endpoint: null } };
}

/**
 * The suite edits of a merge: the shards of one commit compare the same suite with the same base,
 * so their records say the same edits, which the merged run says (records written by several
 * versions of agent-replay, in the newest one's words where they word them differently). Records
 * that say different ones (another --base, another working tree, a shard without --base, GitHub's
 * answer lost for one) cannot tell which is the suite's: the merged run says none, and `log` says why, with what
 * each record said (docs/cli.md, "What each command does").
 */
function mergedSuiteEdits(records: readonly RunRecord[], shard: (i: number) => string, log: (line: string) => void): Pick<RunRecord, 'suiteEdits'> {
  const edits = (records[0] as RunRecord).suiteEdits;
  if (records.every((r) => isDeepStrictEqual(r.suiteEdits, edits))) return edits === undefined ? {} : { suiteEdits: edits };
  // Shards written by several versions may word the same edits each its own way (a tool check's
  // input `{"id": 1}`, where an older version wrote `{"id":1}`): records of one version say the
  // same words, and those of another the same items, files and settings changed the same way; the
  // merged run says them in the newest version's words.
  const newest = records.reduce((best, r) => (newerVersion(r.tool.version, best.tool.version) ? r : best));
  const sameWords = records.every((r) => records.every((o) => o.tool.version !== r.tool.version || isDeepStrictEqual(o.suiteEdits, r.suiteEdits)));
  if (sameWords && records.every((r) => isDeepStrictEqual(editsShape(r.suiteEdits), editsShape(newest.suiteEdits)))) return newest.suiteEdits === undefined ? {} : { suiteEdits: newest.suiteEdits };
  const said = records.map((r, i) => {
    const e = r.suiteEdits;
    const what = e === undefined ? 'none' : `${plural(e.fixtures.length, 'item', 'items')} and ${plural(e.baselines.length, 'baseline', 'baselines')} edited${e.unknown === null ? '' : ', in part'}`;
    return `${shard(i)}: ${what}`;
  });
  log(`the records say different suite edits (${said.join('; ')}): the merged run says none, as it cannot tell which is the suite's; replay every shard with the same --base`);
  return {};
}

/**
 * The suite's config file the merged run names in its fixes (docs/results-json.md, `configName`):
 * config.yaml when a shard says it, whichever shard comes first. Every shard is of one suite at one
 * commit, which has one config file, so a shard that does not say it was written by an older
 * agent-replay (or of a suite with config.yml, when none says config.yaml). Two shards that name
 * different files (a record edited by hand) are said in the log, and the merged run names config.yaml.
 */
function mergedConfigName(records: readonly RunRecord[], shard: (i: number) => string, log: (line: string) => void): Pick<RunRecord, 'configName'> {
  const named = records.flatMap((r, i) => (r.configName === undefined ? [] : [{ name: r.configName, i }]));
  const file = configFileOf(records);
  if (new Set(named.map((n) => n.name)).size > 1) {
    log(`the records name different config files (${named.map((n) => `${shard(n.i)}: ${n.name}`).join('; ')}): the merged run's fixes name ${file}; the shards of one run are of one suite, with one config file: merge the records of one run only`);
  }
  return file === NEW_CONFIG_NAME ? {} : { configName: file };
}

/** The suite's config file the records say (mergedConfigName): config.yaml when one says it, else config.yml. */
function configFileOf(records: readonly RunRecord[]): string {
  return records.map((r) => r.configName).find((n) => n !== undefined && n !== NEW_CONFIG_NAME) ?? NEW_CONFIG_NAME;
}

/** Suite edits without their words (a check, a setting's value, why not all was compared): which items, files and settings changed, and how. */
function editsShape(e: SuiteEdits | undefined): unknown {
  if (e === undefined) return undefined;
  const said = (words: string | null): boolean => words !== null;
  return {
    ...e,
    fixtures: e.fixtures.map((f) => ({ ...f, before: said(f.before), after: said(f.after) })),
    config: e.config?.map((c) => ({ ...c, before: said(c.before), after: said(c.after) })),
    unknown: said(e.unknown),
  };
}

/** Items by file (compared as the suite loader sorts its files) then by line; a stable sort keeps the rest as given. */
function suiteOrder<T extends { file: string; line: number }>(items: T[]): T[] {
  return items.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * A record of part of what it replays (`--rerun FILE`, `--only LABELS`), those flags in words; null
 * for a whole one. A merge of records given different ones (or some none: mergedEvaluations) names
 * neither: it is said as that merge, with the items it replayed.
 */
function partOf(r: RunRecord): string | null {
  const sel = r.selection;
  if (sel == null) return null;
  const flags = [sel.rerunOf === null ? [] : [`--rerun ${sel.rerunOf}`], sel.only === null ? [] : [`--only ${sel.only.join(',')}`]].flat().join(' ');
  return flags || `a merge of records ${MIXED_SELECTION}, ${plural(sel.labels.length, 'item', 'items')} replayed`;
}

/**
 * Which records a merge keeps (indexes, in the order given) and what it lacks. Records without
 * `shard` are kept, but one whole run given twice (the same items at the same commit) once. A shard
 * given twice keeps the complete record over an interrupted one, else the record that started
 * last, and says so through `log`: a re-run uploads its
 * artifact again, under the attempt's name, beside the first attempt's, and a download of the
 * run's artifacts takes both (docs/action.md, "Report: combine shards, or comment for a fork").
 */
function checkShards(records: readonly RunRecord[], nameOf: (i: number) => string | undefined, log: (line: string) => void, fixes: MergeFixes): { kept: number[]; incomplete: Incomplete | null } {
  const all = wholeRunsOnce(records, nameOf, log);
  const sharded = all.filter((i) => records[i]?.shard !== undefined);
  // A merge that lacked shards (no `shard`, an `incomplete`) holds every shard its `incomplete`
  // does not say missing: merged again, it counts as those shards, and the ones none of the
  // records holds are still missing (docs/action.md, "Shards: one suite over a CI matrix").
  const merges = all.filter((i) => records[i]?.shard === undefined && records[i]?.incomplete != null);
  if (sharded.length === 0 && merges.length === 0) return { kept: all, incomplete: null };
  const shardOf = (i: number): ShardInfo => (records[i] as RunRecord).shard as ShardInfo;
  const lackOf = (i: number): Incomplete => (records[i] as RunRecord).incomplete as Incomplete;
  const heldBy = (i: number): number[] => heldShards(lackOf(i));
  /** The most common of `keys` (Map keeps insertion order, so a tie goes to the first file's); null for none. */
  const mostCommon = (keys: readonly string[]): string | null => {
    const counts = new Map<string, number>();
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    let best: string | null = null;
    for (const [k, n] of counts) if (best === null || n > (counts.get(best) as number)) best = k;
    return best;
  };
  const suiteKey = (i: number): string => {
    const { suiteHash, total } = records[i]?.shard ?? lackOf(i);
    return JSON.stringify([suiteHash, total]);
  };
  // A merge counts once for each shard it holds.
  const chosenSuite = mostCommon(all.flatMap((i) => (records[i]?.shard !== undefined ? [suiteKey(i)] : merges.includes(i) ? heldBy(i).map(() => suiteKey(i)) : []))) as string;
  // The split too (docs/action.md, "Shards"): shards balanced by other timings are not one
  // partition. A record written before `partition` existed does not say its split: it fits the one
  // the others name (docs/results-json.md), as every record of the suite did before.
  const chosenPartition = mostCommon(sharded.filter((i) => suiteKey(i) === chosenSuite).flatMap((i) => (shardOf(i).partition === undefined ? [] : [shardOf(i).partition as string])));
  const key = (i: number): string => JSON.stringify([suiteKey(i), shardOf(i).partition ?? chosenPartition]);
  const chosen = JSON.stringify([chosenSuite, chosenPartition]);
  const foreign: string[] = [];
  const byIndex = new Map<number, number>();
  const held = new Set<number>();
  const kept: number[] = [];
  const label = (i: number): string => nameOf(i) ?? `record ${i + 1}`;
  for (const i of all) {
    const s = records[i]?.shard;
    if (s === undefined) {
      if (merges.includes(i)) {
        const lack = lackOf(i);
        if (suiteKey(i) !== chosenSuite) {
          foreign.push(`${label(i)} (a merge of ${heldWords(lack)} of suite ${lack.suiteHash})`);
          continue;
        }
        // What it excluded stays said; the shards it holds are there.
        foreign.push(...lack.foreign);
        for (const k of heldBy(i)) held.add(k);
      }
      kept.push(i);
      continue;
    }
    if (key(i) !== chosen) {
      const split = suiteKey(i) === chosenSuite ? ', split by other timings' : '';
      foreign.push(`${label(i)} (shard ${s.index}/${s.total} of suite ${s.suiteHash}${split})`);
      continue;
    }
    const twice = byIndex.get(s.index);
    if (twice !== undefined) {
      const [a, b] = [Date.parse((records[twice] as RunRecord).startedAt), Date.parse((records[i] as RunRecord).startedAt)];
      // A complete record wins over an interrupted one of the same shard, whichever started later:
      // a re-run cancelled midway holds fewer of the shard's items than the attempt before it. So
      // does a record of the whole shard over one of part of it (`--rerun`, `--only`): read alone,
      // the part would leave the shard's other items out of a merge that says it is whole.
      const [cutA, cutB] = [(records[twice] as RunRecord).interrupted, (records[i] as RunRecord).interrupted];
      const [partA, partB] = [partOf(records[twice] as RunRecord), partOf(records[i] as RunRecord)];
      const whole = cutA === cutB && !cutA && (partA === null) !== (partB === null);
      const later = cutA !== cutB ? cutA : whole ? partA !== null : b > a;
      const keep = later ? i : twice;
      const other = label(later ? twice : i);
      const why =
        cutA !== cutB
          ? `it is complete, ${other} was interrupted`
          : whole
            ? `it holds the whole shard, ${other} only part of it: ${fixes.part((later ? partA : partB) as string)}`
            : a === b
              ? 'the same start time: the first given'
              : 'it started later';
      const fix = whole ? `; to merge a re-run, ${fixes.wholeShard(`${s.index}/${s.total}`)}` : '';
      log(`shard ${s.index}/${s.total} is given twice (${label(twice)} and ${label(i)}): ${label(keep)} is used (${why})${fix}`);
      // The later record takes the earlier one's place in the order.
      if (later) {
        byIndex.set(s.index, i);
        kept[kept.indexOf(twice)] = i;
      }
      continue;
    }
    byIndex.set(s.index, i);
    kept.push(i);
  }
  const [suiteHash, total] = JSON.parse(chosenSuite) as [string, number];
  const missing = Array.from({ length: total }, (_, k) => k + 1).filter((k) => !byIndex.has(k) && !held.has(k));
  return { kept, incomplete: missing.length === 0 && foreign.length === 0 ? null : { total, suiteHash, missing, foreign } };
}

/**
 * The indexes of `records` in order, a record without `shard` that repeats another's run (its
 * commit, its suite (`suitePath`) and the very same fixture and persona script labels, started at another time: a re-run of
 * the whole check) left out for the one that started last, which takes the first one's place; a
 * record without a commit is not known to be a re-run of the same commit, by either rule. A
 * re-run cancelled midway (`interrupted`) lists fewer items: one interrupted record whose items are
 * all in a complete record of the same commit and suite is the same run given twice, and the
 * complete one is kept, as a shard given twice keeps its complete record (checkShards).
 * Records that overlap otherwise are still refused by mergeRecords; shards are left to checkShards.
 * So is a run beside its re-run when only one of them says its suite (`suitePath`: a record of an
 * older agent-replay, or made outside a git repository, does not): it cannot be proven to be of the
 * same suite (two suite folders of one repository may share labels), and the error says so and
 * which record to give.
 */
function wholeRunsOnce(records: readonly RunRecord[], nameOf: (i: number) => string | undefined, log: (line: string) => void): number[] {
  const label = (i: number): string => nameOf(i) ?? `record ${i + 1}`;
  const labelsOf = (r: RunRecord): string[] => [...r.fixtures.map((f) => `fixture ${f.label}`), ...r.personas.map((p) => `persona ${p.label}`)];
  // One run's place, for both rules: its commit and its suite (two suite folders of one repository may share labels).
  const placeOf = (r: RunRecord): string => JSON.stringify([r.commit, r.suitePath === undefined ? null : suiteOf(r.suitePath)]);
  const runKey = (r: RunRecord): string => JSON.stringify([placeOf(r), r.fixtures.map((f) => f.label).sort(), r.personas.map((p) => p.label).sort()]);
  // For both rules: a record without a commit is not known to be a re-run of the same commit, and a shard is left to checkShards.
  const wholeRun = (r: RunRecord): boolean => r.shard === undefined && r.commit !== null && r.fixtures.length + r.personas.length > 0;
  /** An interrupted record of `a` and `b` whose items the other, complete, holds every one of, at the same commit and suite. */
  const cutShort = (a: RunRecord, b: RunRecord): boolean => {
    if (a.interrupted === b.interrupted || placeOf(a) !== placeOf(b) || a.incomplete != null || b.incomplete != null) return false;
    const [cut, whole] = a.interrupted ? [a, b] : [b, a];
    const all = new Set(labelsOf(whole));
    return labelsOf(cut).every((l) => all.has(l));
  };
  const seen = new Map<string, number>();
  const kept: number[] = [];
  const replace = (twice: number, i: number): void => {
    seen.delete(runKey(records[twice] as RunRecord));
    seen.set(runKey(records[i] as RunRecord), i);
    kept[kept.indexOf(twice)] = i;
  };
  records.forEach((r, i) => {
    if (!wholeRun(r)) {
      kept.push(i);
      return;
    }
    const key = runKey(r);
    const twice = seen.get(key) ?? kept.find((k) => wholeRun(records[k] as RunRecord) && cutShort(records[k] as RunRecord, r));
    if (twice !== undefined && (records[twice] as RunRecord).interrupted !== r.interrupted) {
      // The complete record, whichever started later: the interrupted one holds fewer of the run's items.
      const keep = r.interrupted ? twice : i;
      log(`the whole run is given twice (${label(twice)} and ${label(i)}: the items of one run at one commit, a re-run): ${label(keep)} is used (it is complete, ${label(keep === i ? twice : i)} was interrupted)`);
      if (keep === i) replace(twice, i);
      return;
    }
    const [a, b] = twice === undefined ? [0, 0] : [Date.parse((records[twice] as RunRecord).startedAt), Date.parse(r.startedAt)];
    if (twice === undefined || a === b || Number.isNaN(a) || Number.isNaN(b)) {
      if (twice === undefined) seen.set(key, i);
      kept.push(i);
      return;
    }
    const keep = b > a ? i : twice;
    log(`the whole run is given twice (${label(twice)} and ${label(i)}: the same items at one commit, a re-run): ${label(keep)} is used (it started later)`);
    if (keep === i) replace(twice, i);
  });
  return kept;
}

/**
 * Every counter of `spend`, in the order a record writes them (docs/semantics.md#cost): true, always
 * summed; false, when a shard recorded it; 'every', only when every shard did (a sum over some of
 * them would read as fewer requests than the agent was sent).
 */
const SPEND_KEYS = {
  agentTurns: true,
  agentRetries: true,
  agentRequests: 'every',
  judgeCalls: true,
  judgeRetries: false,
  judgeReused: true,
  simulatorCalls: false,
  simulatorRetries: false,
  baselineTurns: false,
  meaningCalls: false,
  meaningReused: false,
  meaningAvoided: false,
} satisfies Record<keyof Spend, boolean | 'every'>;

/**
 * Shards' spend summed, every counter (the simulator's, the meaning check's and the user turns
 * replayed included); an optional counter only when a shard recorded it. Absent when no shard
 * recorded any (records written before spend existed).
 */
function mergedSpend(records: readonly RunRecord[], shard: (i: number) => string, log: (line: string) => void): { spend?: Spend } {
  const all = records.flatMap((r) => (r.spend === undefined ? [] : [r.spend]));
  if (all.length === 0) return {};
  // A record written before spend existed counted nothing: a sum over the others would read as
  // the whole run's turns and calls, fewer than were made (docs/semantics.md, "Cost").
  const without = records.flatMap((r, i) => (r.spend === undefined ? [shard(i)] : []));
  if (without.length > 0) {
    log(`${listWords(without)} ${without.length === 1 ? 'has' : 'have'} no spend (written by an agent-replay before it was recorded): the merged run says none, as a sum over the others would count fewer agent turns and judge calls than were made; replay ${without.length === 1 ? 'that shard' : 'those shards'} with this agent-replay to have it`);
    return {};
  }
  const spend: Partial<Record<keyof Spend, number>> = {};
  for (const [key, always] of Object.entries(SPEND_KEYS) as [keyof Spend, boolean | 'every'][]) {
    const recorded = always === 'every' ? all.every((s) => s[key] !== undefined) : always || all.some((s) => s[key] !== undefined);
    if (recorded) spend[key] = all.reduce((n, s) => n + (s[key] ?? 0), 0);
  }
  return { spend: spend as Spend };
}

/**
 * The shards' estimates as one: amounts summed (`usd` by the caller), the meaning calls summed, and
 * with adaptive attempts in any shard its range (docs/statistics.md, "The estimate"): the items
 * that could get extra attempts summed, the low end a shard without them counting its `usd`. The
 * caps are summed too: each shard was held to its own cap over its own items (docs/action.md,
 * "Shards"), so the run's is their sum; one shard's beside the sum of every shard's estimates read
 * as a run above its cap that nobody confirmed. `aboveCap`: some shard ran above its own.
 */
function mergedEstimate(records: readonly RunRecord[], usd: number): RunRecord['estimate'] {
  const round = (n: number): number => Math.round(n * 1e6) / 1e6;
  const meaning = records.some((r) => r.estimate.meaningCalls !== undefined) ? { meaningCalls: records.reduce((n, r) => n + (r.estimate.meaningCalls ?? 0), 0) } : {};
  const adaptive = records.some((r) => r.estimate.adaptive !== undefined)
    ? {
        adaptive: {
          items: records.reduce((n, r) => n + (r.estimate.adaptive?.items ?? 0), 0),
          lowUsd: round(records.reduce((n, r) => n + (r.estimate.adaptive?.lowUsd ?? r.estimate.usd), 0)),
        },
      }
    : {};
  return {
    usd,
    capUsd: round(records.reduce((n, r) => n + r.estimate.capUsd, 0)),
    aboveCap: records.some((r) => r.estimate.aboveCap),
    confirmed: records.some((r) => r.estimate.confirmed),
    ...meaning,
    ...adaptive,
  };
}

/**
 * The judge and the simulator of the merged run, whatever order the shards are given in: a shard
 * whose model fell back to the plain prompt says so for the run (docs/configuration.md,
 * "Structured output"), and a simulator is the one any shard used. Shards judged by different
 * judges (another judge-model input in one job) are named all, each quoted, in the order first
 * given, as different agents are (mergedWriters), with a line in the log naming each shard's. A judge of one
 * name asked at different addresses (another judge-base-url) is as many judges, each named with
 * its address ("openai gpt-4o-mini at https://a.example/v1"): another address serving a model of
 * the same name is another judge (docs/evaluations.md, "What defined each item").
 */
function mergedModels(records: readonly RunRecord[], shard: (i: number) => string, log: (line: string) => void): Pick<RunRecord, 'judge'> & { simulator?: NonNullable<RunRecord['simulator']> } {
  const pick = <M extends { structured?: boolean }>(models: readonly M[]): M | undefined =>
    models.find((m) => m.structured === false) ?? models.find((m) => m.structured === true) ?? models[0];
  const picked = pick(records.map((r) => r.judge).filter((j) => j.name !== null)) ?? (records[0] as RunRecord).judge;
  // Where each record's judge was asked, as its items' fingerprints say; unknown in an older record, never another judge for it.
  const where = records.map((r) => {
    const at = [...r.fixtures, ...r.personas].find((i) => i.judgeFingerprint?.endpoint !== undefined)?.judgeFingerprint?.endpoint;
    return at === undefined ? undefined : hideEndpointTokens(at);
  });
  const addresses = (name: string): Set<string> => new Set(records.flatMap((r, i) => (r.judge.name === name && where[i] !== undefined ? [where[i] as string] : [])));
  const judgeOf = (i: number): string | null => {
    const { name } = (records[i] as RunRecord).judge;
    return name === null || where[i] === undefined || addresses(name).size < 2 ? name : `${name} at ${where[i] as string}`;
  };
  // A merge judged by different judges lists them (`names`): each is one of them, never a list inside a list.
  const judges = records.map((r, i) => r.judge.names ?? (r.judge.name === null ? [] : [judgeOf(i) as string]));
  const names = [...new Set(judges.flat())];
  if (names.length > 1) {
    const said = judges.map((j, i) => `${shard(i)}: ${j.length === 0 ? 'no judge' : quotedList(j)}`).join('; ');
    log(`the shards were judged by different judges (${said}): the merged run names them all; give every shard's job the same judge (the Action's judge-provider, judge-base-url and judge-model inputs; the CLI's --judge-url)`);
  }
  const { names: _listed, ...one } = picked;
  const judge = names.length > 1 ? { ...one, ...listedNames('name', 'names', names) } : one;
  const simulator = pick(records.flatMap((r) => (r.simulator === undefined ? [] : [r.simulator])));
  return { judge, ...(simulator === undefined ? {} : { simulator }) };
}

/** Names each quoted, comma-separated (`"panel of 2: openai a, openai b", "openai c"`): a name may hold ", ", as a label may. */
function quotedList(names: readonly string[]): string {
  return names.map((n) => JSON.stringify(n)).join(', ');
}

/**
 * A merge's judges (or meaning judges, or prompt versions): one said as it is; more, each quoted in
 * the field shown (`judge.name`) and listed in the one beside it (`judge.names`), which a merge
 * merged again reads, so that it names each once, never a list inside a list, and a single name
 * that reads as a quoted list (a judge label `"a", "b"`) is never taken for several.
 */
function listedNames<K extends string, L extends string>(key: K, list: L, names: readonly string[]): Record<K, string> & Partial<Record<L, string[]>> {
  return (names.length === 1 ? { [key]: names[0] } : { [key]: quotedList(names), [list]: [...names] }) as Record<K, string> & Partial<Record<L, string[]>>;
}

/** The meaning judges a record's `meaning` names: none, its one, or a merge's listed (`models`). */
function modelsOf(m: NonNullable<RunRecord['meaning']>): string[] {
  return m.model === null ? [] : (m.models ?? [m.model]);
}

/** The prompt versions a record's `meaning` names: its one, or a merge's listed (`promptVersions`). */
function promptsOf(m: NonNullable<RunRecord['meaning']>): string[] {
  return m.promptVersions ?? [m.promptVersion];
}

/**
 * The meaning check of the merged run (docs/meaning.md): the shards' one when they say the same (a
 * record written before it was kept says none and is not held against the others, nor is one
 * without the provider or address of its meaning judge). Shards that checked meaning otherwise
 * (another `meaning` in config.yml, another judge it fell back to) are said, as different judges
 * are (mergedModels): a line in the log names each shard's, and the merged run names every meaning
 * judge and prompt version, each quoted, in the order first given, with its provider or address
 * when that is what differs; shards
 * with different checks (`judge` beside `facts`) have no one check of the run: it says none.
 */
function mergedMeaning(records: readonly RunRecord[], shard: (i: number) => string, log: (line: string) => void): Pick<RunRecord, 'meaning'> {
  type Meaning = NonNullable<RunRecord['meaning']>;
  const said = records.flatMap((r) => (r.meaning === undefined ? [] : [r.meaning]));
  const first = said[0];
  if (first === undefined) return {};
  // Without a meaning judge (`facts`, `off`) there is no model or prompt to differ by.
  const alike = (a: Meaning, b: Meaning): boolean =>
    a.check === b.check &&
    (a.check !== 'judge' || (isDeepStrictEqual(modelsOf(a), modelsOf(b)) && isDeepStrictEqual(promptsOf(a), promptsOf(b)) && (a.provider === undefined || b.provider === undefined || a.provider === b.provider) && sameEndpoint(a.endpoint, b.endpoint)));
  if (said.every((m) => alike(m, first))) return { meaning: first };
  const distinct = (of: (m: Meaning) => string | undefined): string[] => [...new Set(said.flatMap((m) => (of(m) === undefined ? [] : [of(m) as string])))];
  const [providers, endpoints] = [distinct((m) => m.provider), distinct((m) => (m.endpoint === undefined ? undefined : hideEndpointTokens(m.endpoint)))];
  // A merge's meaning lists its judges and prompts (listedNames): each is one of them, never a list inside a list.
  const prompts = [...new Set(said.flatMap(promptsOf))];
  const judgesOf = (m: Meaning): string[] =>
    modelsOf(m).map((model) => `${providers.length > 1 && m.provider !== undefined ? `${m.provider} ` : ''}${model}${endpoints.length > 1 && m.endpoint !== undefined ? ` at ${hideEndpointTokens(m.endpoint)}` : ''}`);
  // Each quoted, as the merged judges are (mergedModels): a name may hold ", ".
  const listed = quotedList;
  const words = (m: Meaning | undefined): string =>
    m === undefined
      ? 'not recorded (an older agent-replay)'
      : `check ${m.check}${m.check === 'judge' ? `, ${m.model === null ? 'no model' : listed(judgesOf(m))}${prompts.length > 1 ? `, prompt ${listed(promptsOf(m))}` : ''}` : ''}`;
  const checks = distinct((m) => m.check);
  const named = checks.length > 1 ? 'says none, as no one check was the run\'s' : 'names every meaning judge';
  log(
    `the shards checked meaning differently (${records.map((r, i) => `${shard(i)}: ${words(r.meaning)}`).join('; ')}): the merged run ${named}; give every shard's job the same meaning settings (${configFileOf(records)}'s meaning, and the judge it asks: the Action's judge-provider, judge-base-url and judge-model inputs; the CLI's --judge-url)`,
  );
  if (checks.length > 1) return {};
  const models = [...new Set(said.flatMap(judgesOf))];
  return {
    meaning: {
      check: first.check,
      ...(models.length === 0 ? { model: null } : listedNames('model', 'models', models)),
      ...(providers.length === 1 ? { provider: providers[0] as NonNullable<Meaning['provider']> } : {}),
      ...(endpoints.length === 1 ? { endpoint: endpoints[0] as string } : {}),
      ...listedNames('promptVersion', 'promptVersions', prompts),
    },
  };
}

/**
 * Coverage of merged shards is taken again over all their items (a gap of one shard may be
 * visited by another); a selection (`--rerun`, `--only`) covers the labels of every shard: those a
 * shard with one selected, and every item of a shard replayed whole beside it, so that the merged
 * run's "N items replayed" counts them all. Its `rerunOf` and `only` are the merged run's only when
 * every record was given the same (a shard replayed whole was given none): shards that re-ran
 * other files, or selected other patterns, leave it null, and `labels` says what was replayed
 * (docs/results-json.md).
 */
function mergedEvaluations(records: readonly RunRecord[], items: Pick<RunRecord, 'fixtures' | 'personas'>): Pick<RunRecord, 'coverage' | 'selection'> {
  const listed = records.find((r) => r.coverage != null)?.coverage?.listed ?? null;
  const first = records.find((r) => r.selection != null)?.selection ?? undefined;
  const labels = records.flatMap((r) => r.selection?.labels ?? [...r.fixtures, ...r.personas].map((i) => i.label));
  const same = <K extends 'rerunOf' | 'only'>(key: K): Selection[K] | null => {
    const given = (first as Selection)[key];
    return records.every((r) => isDeepStrictEqual(r.selection?.[key] ?? null, given)) ? given : null;
  };
  return {
    coverage: listed === null ? undefined : coverage(listed, runVisited(items)),
    selection: first == null ? undefined : { rerunOf: same('rerunOf'), only: same('only'), labels: [...new Set(labels)] },
  };
}
