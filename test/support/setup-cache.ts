// What vitest's global set-ups make (the entry bundles, entry-bundles.ts; the trimmed OpenAPI
// description, openapi-trim.ts), kept between runs in the system's temporary folder, each under the
// hash of everything it is made from: a run whose inputs did not change reuses it (the two child
// vitest runs of test/report/browser-lookup.test.ts too), and a changed input gives another hash,
// so a stale entry is never found. An entry is written whole under a temporary name, then renamed
// into place; entries no run used for a day are removed, and beyond the eight most recently used,
// those no run used for an hour (bundles 4 MB, description 3 MB).

import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CACHE_ROOT = join(tmpdir(), 'agent-replay-test-cache');

/** Entries not used for this long are removed (a run uses its entries for minutes). */
const UNUSED_MS = 24 * 60 * 60 * 1000;
/** Beyond the KEPT_RECENT most recently used entries, those not used for this long are removed. */
const KEPT_RECENT = 8;
const UNUSED_RECENT_MS = 60 * 60 * 1000;

/** sha256 of the parts, each length-prefixed so that no two lists of parts hash alike. */
export function hashOf(parts: ReadonlyArray<string | Buffer>): string {
  const h = createHash('sha256');
  for (const p of parts) {
    const b = typeof p === 'string' ? Buffer.from(p) : p;
    h.update(`${b.length}:`);
    h.update(b);
  }
  return h.digest('hex').slice(0, 32);
}

/** The entry `name-key` when it is there (its use recorded), else null. */
export async function cachedEntry(name: string, key: string): Promise<string | null> {
  const dir = join(CACHE_ROOT, `${name}-${key}`);
  try {
    if (!(await stat(dir)).isDirectory()) return null;
  } catch {
    return null;
  }
  const now = new Date();
  await utimes(dir, now, now).catch(() => undefined);
  return dir;
}

/** A new empty folder to make an entry in (entries no run used for a day are removed first). */
export async function newEntryFolder(name: string): Promise<string> {
  await mkdir(CACHE_ROOT, { recursive: true });
  await prune();
  return mkdtemp(join(CACHE_ROOT, `.${name}-`));
}

/**
 * Keeps the folder `made` (from newEntryFolder, complete) as the entry `name-key`. When another run
 * kept the same entry meanwhile, its folder is the one used (both are alike) and `made` is removed.
 */
export async function keepEntry(made: string, name: string, key: string): Promise<string> {
  const dir = join(CACHE_ROOT, `${name}-${key}`);
  try {
    await rename(made, dir);
  } catch (error) {
    await rm(made, { recursive: true, force: true });
    if ((await cachedEntry(name, key)) === null) throw error;
  }
  return dir;
}

/** Writes a small file of the cache whole: under a temporary name, then renamed. */
export async function writeCacheFile(name: string, text: string): Promise<void> {
  await mkdir(CACHE_ROOT, { recursive: true });
  const temp = join(CACHE_ROOT, `.${name}-${process.pid}-${Date.now()}`);
  await writeFile(temp, text);
  await rename(temp, join(CACHE_ROOT, name));
}

/** A small file of the cache, or null when there is none. */
export async function readCacheFile(name: string): Promise<string | null> {
  const path = join(CACHE_ROOT, name);
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text !== null) await utimes(path, new Date(), new Date()).catch(() => undefined);
  return text;
}

async function prune(): Promise<void> {
  const now = Date.now();
  const entries: { path: string; unused: number }[] = [];
  for (const name of await readdir(CACHE_ROOT).catch(() => [] as string[])) {
    const path = join(CACHE_ROOT, name);
    const info = await stat(path).catch(() => null);
    if (info !== null) entries.push({ path, unused: now - info.mtimeMs });
  }
  // The most recently used entries stay a day; beyond them (sources edited often), an hour.
  entries.sort((a, b) => a.unused - b.unused);
  for (const [i, e] of entries.entries()) {
    if (e.unused > UNUSED_MS || (i >= KEPT_RECENT && e.unused > UNUSED_RECENT_MS)) await rm(e.path, { recursive: true, force: true });
  }
}
