// Writes that a pull request cannot redirect: planted links at the target, at a predictable temp
// name, or as the folder itself. Real files and real symbolic links in temporary folders.

import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBaselines } from '../../src/accept/write.js';
import { UnsafeWriteError, writeFileSafely } from '../../src/fs-safe.js';
import { serializeRecord, writeRecord } from '../../src/record/index.js';
import { serializeBaseline } from '../../src/suite/index.js';
import type { Baseline, RunRecord } from '../../src/types.js';
import { UserError } from '../../src/errors.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-replay-writes-'));
  made.push(dir);
  return dir;
}

const VICTIM = 'precious content outside the suite\n';

/** A repository with a suite folder, and a file outside it that must never change. */
async function setup(): Promise<{ suite: string; baselines: string; victim: string; outside: string }> {
  const root = await tempDir();
  const outside = await tempDir();
  const victim = join(outside, 'victim.txt');
  await writeFile(victim, VICTIM);
  const suite = join(root, '.agent-replay');
  const baselines = join(suite, 'baselines');
  await mkdir(baselines, { recursive: true });
  return { suite, baselines, victim, outside };
}

const baseline = (label: string): Baseline => ({
  label,
  reply: 'Refunds within 30 days.',
  route: { conversation: 'refunds', stage: 'policy' },
  verdict: 'pass',
  acceptedAt: '2026-11-30T10:00:00.000Z',
  commit: 'abc123',
});

describe('writeBaselines never writes outside the suite', () => {
  it('a planted baselines/x.json.tmp link (the old temp name) is not followed', async () => {
    const { baselines, victim } = await setup();
    await symlink(victim, join(baselines, 'x.json.tmp'));
    await writeBaselines(baselines, [baseline('x')]);
    expect(await readFile(victim, 'utf8')).toBe(VICTIM);
    expect(await readFile(join(baselines, 'x.json'), 'utf8')).toBe(serializeBaseline(baseline('x')));
    expect((await lstat(join(baselines, 'x.json'))).isFile()).toBe(true);
  });

  it('a link planted at the target path is replaced, not written through', async () => {
    const { baselines, victim } = await setup();
    await symlink(victim, join(baselines, 'x.json'));
    await writeBaselines(baselines, [baseline('x')]);
    expect(await readFile(victim, 'utf8')).toBe(VICTIM);
    const stat = await lstat(join(baselines, 'x.json'));
    expect(stat.isSymbolicLink()).toBe(false);
    expect(await readFile(join(baselines, 'x.json'), 'utf8')).toBe(serializeBaseline(baseline('x')));
    // No temporary file is left behind.
    expect((await readdir(baselines)).sort()).toEqual(['x.json']);
  });

  it('a baselines folder that is a link to elsewhere is refused with a clear error, nothing written', async () => {
    const { suite, baselines, outside, victim } = await setup();
    await rm(baselines, { recursive: true });
    await symlink(outside, baselines);
    // A user's to fix (exit status 2), never reported as a bug.
    await expect(writeBaselines(baselines, [baseline('x')])).rejects.toThrow(UserError);
    expect(new UnsafeWriteError('x')).toBeInstanceOf(UserError);
    await expect(writeBaselines(baselines, [baseline('x')])).rejects.toThrow(
      `nothing was accepted: refusing to write ${join(baselines, 'x.json')}: its folder resolves outside ${suite} (a symbolic link); replace the link with a real folder`,
    );
    expect((await readdir(outside)).sort()).toEqual(['victim.txt']);
    expect(await readFile(victim, 'utf8')).toBe(VICTIM);
  });
});

describe('writeRecord and writeFileSafely', () => {
  const record = { schemaVersion: 1, fixtures: [] } as unknown as RunRecord;

  it('writeRecord replaces a planted link at the target and ignores one at the old predictable temp name', async () => {
    const { outside, victim } = await setup();
    const dir = await tempDir();
    const target = join(dir, 'results.json');
    await symlink(victim, target);
    await symlink(victim, `${target}.${process.pid}.tmp`);
    await writeRecord(target, record);
    expect(await readFile(victim, 'utf8')).toBe(VICTIM);
    expect((await lstat(target)).isFile()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe(serializeRecord(record));
    expect((await readdir(outside)).sort()).toEqual(['victim.txt']);
  });

  it('within: a folder that resolves outside the root is refused before anything is created in it', async () => {
    const { outside } = await setup();
    const root = await tempDir();
    await symlink(outside, join(root, 'results'));
    await expect(writeFileSafely(join(root, 'results', 'r.json'), '{}', { within: root })).rejects.toThrow(/resolves outside/);
    expect((await readdir(outside)).sort()).toEqual(['victim.txt']);
    // A real folder inside the root is fine.
    await writeFileSafely(join(root, 'real', 'r.json'), '{}\n', { within: root });
    expect(await readFile(join(root, 'real', 'r.json'), 'utf8')).toBe('{}\n');
  });

  it('a failed rename leaves no temporary file', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'target.json')); // a folder where the file should go: rename fails
    await writeFile(join(dir, 'target.json', 'keep'), 'x');
    await expect(writeFileSafely(join(dir, 'target.json'), '{}')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['target.json']);
  });
});

describe('the folders a write creates', () => {
  it('creates every missing level of a nested folder, and takes one another process made as made', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'a'));
    await writeFileSafely(join(root, 'a', 'b', 'c', 'd.json'), '{}\n');
    expect(await readFile(join(root, 'a', 'b', 'c', 'd.json'), 'utf8')).toBe('{}\n');
    await Promise.all([writeFileSafely(join(root, 'x', 'y', '1.json'), '1'), writeFileSafely(join(root, 'x', 'y', '2.json'), '2')]);
    expect((await readdir(join(root, 'x', 'y'))).sort()).toEqual(['1.json', '2.json']);
  });

  it('refuses a folder under a file: ENOTDIR, nothing written', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'file'), 'x');
    await expect(writeFileSafely(join(root, 'file', 'sub', 'out.json'), '{}')).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  // Node's recursive mkdir never returns there (it spins a core); one level at a time is ENOENT.
  it.skipIf(process.platform !== 'linux')('fails at once for a folder that cannot be made in one that exists (/proc), never hangs', async () => {
    await expect(writeFileSafely('/proc/agent-replay-nope/out/j.xml', '<x/>')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 5_000);
});
