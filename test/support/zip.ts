// Zip archives as GitHub serves an artifact: written by archiver with zlib level 6, exactly as
// @actions/artifact builds the archive it uploads (deflated entries, data descriptors).

import { PassThrough } from 'node:stream';
import archiver from 'archiver';

export async function artifactZip(entries: readonly { name: string; data: Buffer | string }[]): Promise<Buffer> {
  const zip = archiver.create('zip', { zlib: { level: 6 } });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    zip.on('error', reject);
  });
  zip.pipe(out);
  for (const e of entries) zip.append(typeof e.data === 'string' ? Buffer.from(e.data) : e.data, { name: e.name });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Renames an entry in place (local header and central directory), for names that archiver would
 * clean up (`../../x`): `from` and `to` must have the same length in bytes.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error('renameEntry: the names must have the same length');
  const out = Buffer.from(zip);
  let at = out.indexOf(a);
  let n = 0;
  while (at >= 0) {
    b.copy(out, at);
    n++;
    at = out.indexOf(a, at + a.length);
  }
  if (n < 2) throw new Error(`renameEntry: ${from} found ${n} times, expected in the local header and the central directory`);
  return out;
}

/** The compression method of each entry, from the central directory (8 = deflate, 0 = stored). */
export function entryMethods(zip: Buffer): number[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('entryMethods: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const methods: number[] = [];
  for (let i = 0; i < count; i++) {
    methods.push(zip.readUInt16LE(p + 10));
    p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return methods;
}
