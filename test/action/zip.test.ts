import { describe, expect, it } from 'vitest';
import { readZip, ZipError } from '../../src/action/zip.js';
import { artifactZip, entryMethods, renameEntry } from '../support/zip.js';

const RESULTS = JSON.stringify({ schemaVersion: 1, fixtures: Array.from({ length: 200 }, (_, i) => ({ label: `f-${i}`, reply: 'Refunds are accepted within 30 days. '.repeat(5) })) }, null, 2);

async function refused(buf: Buffer, limits?: { maxEntryBytes: number; maxEntries: number; maxTotalBytes: number }): Promise<ZipError> {
  try {
    await readZip(buf, limits);
  } catch (e) {
    expect(e).toBeInstanceOf(ZipError);
    return e as ZipError;
  }
  throw new Error('expected the archive to be refused');
}

describe('readZip: the results artifact as GitHub serves it', () => {
  it('reads a deflated archive written like @actions/artifact writes it', async () => {
    const zip = await artifactZip([
      { name: 'results.json', data: RESULTS },
      { name: 'pr-number', data: '7\n' },
      { name: 'shard-2/results.json', data: '{}' },
    ]);
    expect(entryMethods(zip)).toEqual([8, 8, 8]); // really deflated
    expect(zip.length).toBeLessThan(RESULTS.length / 5);
    const entries = await readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(['results.json', 'pr-number', 'shard-2/results.json']);
    expect(entries[0]!.data.toString('utf8')).toBe(RESULTS);
    expect(entries[1]!.data.toString('utf8')).toBe('7\n');
  });

  it('refuses something that is not a zip, and a truncated archive', async () => {
    expect((await refused(Buffer.from('<html>Bad gateway</html>'))).message).toMatch(/^not a readable zip archive: End of central directory record signature not found/);
    const zip = await artifactZip([{ name: 'results.json', data: RESULTS }]);
    expect((await refused(zip.subarray(0, zip.length - 40))).message).toMatch(/^not a readable zip archive/);
  });

  it('refuses an archive whose compressed data was damaged', async () => {
    const zip = await artifactZip([{ name: 'results.json', data: RESULTS }]);
    const damaged = Buffer.from(zip);
    const dataStart = 30 + 'results.json'.length;
    for (let i = dataStart + 20; i < dataStart + 60; i++) damaged[i] = damaged[i]! ^ 0x5a;
    expect((await refused(damaged)).message).toMatch(/^corrupt zip archive|is corrupt \(its checksum does not match\)/);
  });

  it.each([
    ['aa/aa/x.json', '../../x.json', 'the entry name "../../x.json" is not a plain relative path (invalid relative path)'],
    ['etcc/x.json', '/etc/x.json', 'the entry name "/etc/x.json" is not a plain relative path (absolute path)'],
  ])('refuses the whole archive when an entry is named %s -> %s', async (from, to, message) => {
    const zip = renameEntry(await artifactZip([{ name: 'results.json', data: RESULTS }, { name: from, data: 'x' }]), from, to);
    expect((await refused(zip)).message).toBe(`corrupt zip archive: ${message}`);
  });

  it('refuses an entry above the size limit, and an archive with too many entries', async () => {
    const zip = await artifactZip([{ name: 'results.json', data: RESULTS }]);
    expect((await refused(zip, { maxEntryBytes: 1000, maxEntries: 10, maxTotalBytes: 10_000 })).message).toBe(`the entry "results.json" is too large (${Buffer.byteLength(RESULTS).toLocaleString('en-US')} bytes, at most 1,000)`);
    const many = await artifactZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: 'x' })));
    expect((await refused(many, { maxEntryBytes: 1000, maxEntries: 10, maxTotalBytes: 10_000 })).message).toBe('the archive has 11 entries, at most 10 are read');
  });

  it("names an entry as JSON on the message's one line: a U+2028 or U+2029 in its name as its escape, as a line break is", async () => {
    // JSON.stringify leaves them as they are, and the step's log shows each as a line break.
    const zip = await artifactZip([{ name: 'a\u2028b\u2029\nc.json', data: RESULTS }]);
    expect((await refused(zip, { maxEntryBytes: 1000, maxEntries: 10, maxTotalBytes: 10_000 })).message).toBe(
      String.raw`the entry "a\u2028b\u2029\nc.json" is too large (${Buffer.byteLength(RESULTS).toLocaleString('en-US')} bytes, at most 1,000)`,
    );
  });

  it('refuses entries each within the size limit that are too large together (many deflated zeros), before inflating the one over', async () => {
    const zeros = '\0'.repeat(1000);
    const zip = await artifactZip([{ name: 'a', data: zeros }, { name: 'b', data: zeros }, { name: 'results.json', data: zeros }]);
    expect(zip.length).toBeLessThan(1000);
    expect((await refused(zip, { maxEntryBytes: 1000, maxEntries: 10, maxTotalBytes: 2500 })).message).toBe('the archive\'s entries are too large together (over 2,500 bytes by the entry "results.json")');
    expect((await readZip(zip, { maxEntryBytes: 1000, maxEntries: 10, maxTotalBytes: 3000 })).map((e) => e.data.length)).toEqual([1000, 1000, 1000]);
  });

  it('refuses an entry whose stated size is a lie (a zip bomb)', async () => {
    const zip = await artifactZip([{ name: 'results.json', data: RESULTS }]);
    // The central directory says 100 bytes; the data inflates to far more.
    const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const cen = zip.readUInt32LE(eocd + 16);
    const lying = Buffer.from(zip);
    lying.writeUInt32LE(100, cen + 24);
    expect((await refused(lying)).message).toMatch(/^corrupt zip archive: too many bytes in the stream|larger than it says/);
  });
});
