// Reads the results artifact, the zip archive GitHub serves for it (deflated, as @actions/artifact
// writes it on upload). yauzl, a kept and widely used zip reader, parses the archive and inflates
// the entries; here we bound what is read and check each entry's CRC (yauzl leaves that to its
// caller). The archive is untrusted: an entry name that would leave a folder (`../`, an absolute
// path, a backslash) makes yauzl refuse the whole archive, and nothing here writes a file: the
// entries are returned as data.

import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { headOf, shownJson, thousands } from '../words.js';

const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 1000;
/**
 * All entries together, inflated: each is held in memory, so a thousand entries of 64 MB each (a
 * few megabytes of zeros deflated) would exhaust the runner's memory before any is read.
 */
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export class ZipError extends Error {
  override name = 'ZipError';
}

export interface ZipLimits {
  maxEntryBytes: number;
  maxEntries: number;
  maxTotalBytes: number;
}

const shown = (name: string) => shownJson(name.length > 100 ? `${headOf(name, 100)}…` : name);

/** yauzl's reasons, said as what was wrong with the archive. */
function describe(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  const path = /^(invalid relative path|absolute path|invalid characters in fileName): ([\s\S]*)$/.exec(message);
  if (path) return `the entry name ${shown(path[2] as string)} is not a plain relative path (${path[1]})`;
  return message.length > 300 ? `${headOf(message, 300)}…` : message;
}

/** One entry inflated; `before` is what the entries before it took (MAX_TOTAL_BYTES bounds the sum). */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limits: ZipLimits, before: number): Promise<Buffer> {
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw new ZipError(`the entry ${shown(entry.fileName)} is too large (${thousands(entry.uncompressedSize)} bytes, at most ${thousands(limits.maxEntryBytes)})`);
  }
  if (before + entry.uncompressedSize > limits.maxTotalBytes) {
    throw new ZipError(`the archive's entries are too large together (over ${thousands(limits.maxTotalBytes)} bytes by the entry ${shown(entry.fileName)})`);
  }
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxEntryBytes) {
      stream.destroy();
      throw new ZipError(`the entry ${shown(entry.fileName)} is larger than it says (over ${thousands(limits.maxEntryBytes)} bytes)`);
    }
    chunks.push(chunk);
  }
  const data = Buffer.concat(chunks);
  if (crc32(data) >>> 0 !== entry.crc32 >>> 0) throw new ZipError(`the entry ${shown(entry.fileName)} is corrupt (its checksum does not match)`);
  return data;
}

/** Every file entry of the archive (folders skipped), in archive order. Throws a ZipError that says what is wrong. */
export async function readZip(buf: Buffer, limits: ZipLimits = { maxEntryBytes: MAX_ENTRY_BYTES, maxEntries: MAX_ENTRIES, maxTotalBytes: MAX_TOTAL_BYTES }): Promise<ZipEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buf, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true });
  } catch (e) {
    throw new ZipError(`not a readable zip archive: ${describe(e)}`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipError(`the archive has ${thousands(zip.entryCount)} entries, at most ${thousands(limits.maxEntries)} are read`);
    const entries: ZipEntry[] = [];
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      const data = await readEntry(zip, entry, limits, total);
      total += data.length;
      entries.push({ name: entry.fileName, data });
    }
    return entries;
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError(`corrupt zip archive: ${describe(e)}`);
  } finally {
    zip.close();
  }
}
