// results.json written as items finish (docs/architecture.md#how-resultsjson-is-streamed), so that a large run never holds its
// record twice (the objects and their JSON text) nor builds the whole text in one string.
//
// Items finish out of order, but the file lists them in suite order. Each finished item waits (as
// the object the replay holds anyway) until every item before it has finished; then it joins a
// batch, which is serialized at once (about 64 KB of text, indented as the items stand in the whole
// record) and appended to a side file (a temporary file next to the target, created as fs-safe
// creates every temporary file), keeping only the chunks' offsets. At the end the record's head (everything but its items, a few
// hundred bytes) is serialized with placeholders; the final file is another temporary file next
// to the target: head, the items copied from the side file (adjacent chunks as one range), any item not spooled
// yet (an interrupted run, out of order), tail; then it is renamed over the target, so a reader
// never sees half a file. The bytes equal serializeRecord(record)'s.
//
// An item is taken from the side file only when the record holds that very object at that place
// (a record is written once and never changed); otherwise it is serialized again from the record.
// A failure to write (a folder that cannot be created, no permission, a full disk) never loses the
// run: the record is then written to results.json in a new folder in the system's temporary
// folder, and the error says where.

import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStagedFile, repositoryFor, writeFailureWords, type StagedFile, type WriteOptions } from '../fs-safe.js';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../types.js';
import { UserError } from '../errors.js';
import { terminalLine } from '../words.js';

export type ItemKind = 'fixture' | 'persona';

/** Text is handed to the file system in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The record could not be written where asked; `fallback` is where it was written instead (null:
 * nowhere). Its message names both on one line, a line break or control character in a path shown
 * as ` ⏎ ` or its escape (terminalLine), on the CLI's line and in the Action's failure annotation
 * alike (docs/security.md, "Agent text is data"); `target` and `fallback` are the real paths.
 */
export class RecordWriteError extends UserError {
  constructor(
    readonly target: string,
    readonly reason: unknown,
    readonly fallback: string | null,
  ) {
    super(
      `could not write the results to ${terminalLine(target)}: ${writeFailureWords(reason)}; ` +
        (fallback === null
          ? 'nor to a file in the temporary folder: the results are only in the report above. '
          : `the record was written to ${terminalLine(fallback)} instead. `) +
        'Check that the folder exists or can be created and is writable (or choose another path with --out / the results-path input).',
    );
    this.name = 'RecordWriteError';
  }
}

export interface RecordStream {
  /**
   * An item finished (the replay's onItem): `index` is its place among the run's items of its
   * kind. Never throws; a failure to spool is reported by finish.
   */
  item(kind: ItemKind, index: number, record: FixtureRecord | PersonaRecord): void;
  /**
   * Writes `record` to the target (atomically) and removes the temporary files. Throws
   * RecordWriteError when it cannot, after writing the record to the temporary folder instead.
   */
  finish(record: RunRecord): Promise<{ path: string }>;
  /** Nothing is written (the run did not happen); the temporary files are removed. */
  discard(): Promise<void>;
}

/**
 * Items as they stand in the whole record, joined as there: at depth 2, so each line is indented
 * by four spaces and items are separated by ",\n". One JSON.stringify for the lot: the wrapper
 * `[[...]]` puts them at that depth, and its first and last six characters are cut off.
 */
function itemsText(items: readonly unknown[]): string {
  return JSON.stringify([items], null, 2).slice(6, -6);
}

/** Spooled items are copied from the side file in pieces of at most this many bytes. */
const COPY_BYTES = 1024 * 1024;

/** Chunks [offset, length] in order, adjacent ones joined into one range. */
export function contiguous(chunks: readonly (readonly [number, number])[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const [offset, length] of chunks) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[0] + last[1] === offset) last[1] += length;
    else ranges.push([offset, length]);
  }
  return ranges;
}

/** How many items to serialize at once for about CHUNK_CHARS characters, from the last batch. */
function batchSizeFor(chars: number, count: number): number {
  return Math.max(1, Math.min(1024, Math.floor(CHUNK_CHARS / Math.max(1, chars / count))));
}

/** The spool of one kind of item: those finished in suite order from 0, serialized in chunks of the side file. */
interface Spool {
  /** Items taken in order so far: the identity check of finish. */
  readonly written: unknown[];
  /** Finished items waiting for an earlier one. */
  readonly waiting: Map<number, unknown>;
  /** How many of `written` are in the side file. */
  flushed: number;
  /** Items per chunk, adapted to their size. */
  batch: number;
  /** [offset, length] in the side file, in order. */
  readonly chunks: [number, number][];
}

const newSpool = (): Spool => ({ written: [], waiting: new Map(), flushed: 0, batch: 16, chunks: [] });

/**
 * Starts writing the record of a run to `target`. Nothing is touched until the first batch is
 * complete: then the side file is opened, in the background. When it cannot be, nothing is spooled and finish
 * serializes every item then (and reports the failure if the target cannot be written either).
 */
export function openRecordStream(target: string, options: WriteOptions = { within: repositoryFor(target) }): RecordStream {
  const spools: Record<ItemKind, Spool> = { fixture: newSpool(), persona: newSpool() };
  let side: StagedFile | null = null;
  /** Set once spooling failed: finish then serializes every item from the record. */
  let spoolFailed = false;
  let sideSize = 0;
  /** Writes to the side file, one after the other; the first opens it. */
  let writes: Promise<void> | null = null;
  let closed = false;

  const flush = (spool: Spool): void => {
    const count = spool.written.length - spool.flushed;
    if (count === 0) return;
    writes ??= openStagedFile(target, options, true).then(
      (file) => {
        side = file;
      },
      () => {
        spoolFailed = true;
      },
    );
    const text = `${spool.flushed === 0 ? '' : ',\n'}${itemsText(spool.written.slice(spool.flushed))}`;
    spool.flushed = spool.written.length;
    spool.batch = batchSizeFor(text.length, count);
    const bytes = Buffer.from(text, 'utf8');
    const offset = sideSize;
    sideSize += bytes.length;
    spool.chunks.push([offset, bytes.length]);
    writes = writes.then(async () => {
      if (spoolFailed || side === null) return;
      try {
        await side.handle.write(bytes, 0, bytes.length, offset);
      } catch {
        spoolFailed = true;
      }
    });
  };

  const item = (kind: ItemKind, index: number, record: FixtureRecord | PersonaRecord): void => {
    if (closed || spoolFailed) return;
    try {
      const spool = spools[kind];
      spool.waiting.set(index, record);
      for (let next = spool.waiting.get(spool.written.length); next !== undefined; next = spool.waiting.get(spool.written.length)) {
        spool.waiting.delete(spool.written.length);
        spool.written.push(next);
      }
      if (spool.written.length - spool.flushed >= spool.batch) flush(spool);
    } catch {
      // An item that cannot be serialized here is serialized again by finish (and fails there).
      spoolFailed = true;
    }
  };

  const discard = async (): Promise<void> => {
    closed = true;
    await writes;
    await (side as StagedFile | null)?.discard();
  };

  const finish = async (record: RunRecord): Promise<{ path: string }> => {
    closed = true;
    // Items not in a complete batch yet (all of a small run) are serialized from the record.
    await writes;
    const spooled = side as StagedFile | null;
    try {
      const from = spoolFailed ? null : { file: spooled, spools };
      try {
        await writeAssembled(target, options, record, from);
        return { path: target };
      } catch (e) {
        // A folder of its own, so that files written next to the record (report.html in the
        // Action) stay with it; from memory only, so whatever failed cannot fail this too.
        let fallback: string;
        try {
          fallback = path.join(await mkdtemp(path.join(tmpdir(), 'agent-replay-results-')), 'results.json');
          await writeAssembled(fallback, {}, record, null);
        } catch {
          throw new RecordWriteError(target, e, null);
        }
        throw new RecordWriteError(target, e, fallback);
      }
    } finally {
      await spooled?.discard();
    }
  };

  return { item, finish, discard };
}

/**
 * Writes `record` to `target` atomically, as serializeRecord's text but in pieces (never the whole
 * text in one string), through a temporary file next to it (fs-safe).
 */
export async function writeRecordFile(target: string, record: RunRecord, options: WriteOptions = { within: repositoryFor(target) }): Promise<void> {
  await writeAssembled(target, options, record, null);
}

/**
 * Writes `record` to `target` through a StagedFile: head, items, tail. With `from`, the leading
 * items of each kind that are the very objects spooled are copied from the side file.
 */
async function writeAssembled(
  target: string,
  options: WriteOptions,
  record: RunRecord,
  from: { file: StagedFile | null; spools: Record<ItemKind, Spool> } | null,
): Promise<void> {
  const out = await openStagedFile(target, options);
  try {
    let pending = '';
    const write = async (text: string): Promise<void> => {
      pending += text;
      if (pending.length >= CHUNK_CHARS) {
        const chunk = pending;
        pending = '';
        await out.handle.write(chunk, null, 'utf8');
      }
    };
    const drain = async (): Promise<void> => {
      if (pending === '') return;
      const chunk = pending;
      pending = '';
      await out.handle.write(chunk, null, 'utf8');
    };
    const items = async (list: readonly unknown[], spool: Spool | undefined): Promise<void> => {
      if (list.length === 0) {
        await write('[]');
        return;
      }
      await write('[\n');
      let start = 0;
      // The items in the side file, when the record holds those very objects first.
      if (from !== null && spool !== undefined && spool.written.length <= list.length && spool.written.every((w, i) => w === list[i])) {
        await drain();
        const side = from.file;
        if (spool.chunks.length > 0 && side === null) throw new Error('spooled items without a side file');
        // Adjacent chunks (one kind spooled alone, or in long runs) are copied as one range, through
        // one buffer: a few large reads and writes instead of two per chunk.
        const buffer = Buffer.allocUnsafe(Math.min(COPY_BYTES, spool.chunks.reduce((n, [, length]) => n + length, 0)));
        for (const [offset, length] of contiguous(spool.chunks)) {
          for (let done = 0; done < length; ) {
            const size = Math.min(buffer.length, length - done);
            const { bytesRead } = await (side as StagedFile).handle.read(buffer, 0, size, offset + done);
            if (bytesRead !== size) throw new Error(`the side file ${(side as StagedFile).path} is shorter than written`);
            await out.handle.write(buffer, 0, size, null);
            done += size;
          }
        }
        start = spool.flushed;
      }
      // The others (not spooled yet, or not the same objects), a batch at a time.
      let batch = 16;
      for (let i = start; i < list.length; ) {
        const count = Math.min(batch, list.length - i);
        const text = `${i === 0 ? '' : ',\n'}${itemsText(list.slice(i, i + count))}`;
        i += count;
        batch = batchSizeFor(text.length, count);
        await write(text);
      }
      await write('\n  ]');
    };
    // The head and tail: the record with its item lists as placeholders (the same keys, in order).
    const mark = randomBytes(8).toString('hex');
    const lists = (['fixture', 'persona'] as const)
      .map((kind) => ({ kind, key: kind === 'fixture' ? ('fixtures' as const) : ('personas' as const) }))
      .filter(({ key }) => Array.isArray(record[key]))
      .map((list) => ({ ...list, placeholder: JSON.stringify(`agent-replay ${list.key} ${mark}`) }));
    const skeleton = JSON.stringify(Object.assign({}, record, Object.fromEntries(lists.map((l) => [l.key, JSON.parse(l.placeholder) as string]))), null, 2);
    const parts = lists.map((l) => ({ ...l, at: skeleton.indexOf(l.placeholder) })).sort((a, b) => a.at - b.at);
    let position = 0;
    for (const part of parts) {
      await write(skeleton.slice(position, part.at));
      await items(record[part.key], from?.spools[part.kind]);
      position = part.at + part.placeholder.length;
    }
    await write(`${skeleton.slice(position)}\n`);
    await drain();
    await out.commit();
  } catch (e) {
    await out.discard();
    throw e;
  }
}
