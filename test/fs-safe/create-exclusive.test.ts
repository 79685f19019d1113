// createFileExclusively: a name that is taken (file, folder, link, dangling link) is never written
// through or over; a folder that is a link to elsewhere is refused; no temporary file is left.

import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileExclusively, UnsafeWriteError } from '../../src/fs-safe.js';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-replay-create-'));
  made.push(dir);
  return dir;
}

describe('createFileExclusively', () => {
  it('creates the file (and its folders) when the name is free', async () => {
    const root = await tempDir();
    const target = join(root, 'a', 'b', 'x.yml');
    expect(await createFileExclusively(target, 'label: x\n', { within: root })).toBe('created');
    expect(await readFile(target, 'utf8')).toBe('label: x\n');
    expect(await readdir(join(root, 'a', 'b'))).toEqual(['x.yml']);
  });

  it('leaves a file, a folder, a link and a dangling link at the name as they were', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const victim = join(outside, 'victim.txt');
    await writeFile(victim, 'precious\n');
    await writeFile(join(root, 'file.yml'), 'mine\n');
    await mkdir(join(root, 'folder.yml'));
    await symlink(victim, join(root, 'link.yml'));
    await symlink(join(outside, 'missing.txt'), join(root, 'dangling.yml'));
    for (const name of ['file.yml', 'folder.yml', 'link.yml', 'dangling.yml']) {
      expect(await createFileExclusively(join(root, name), 'new\n'), name).toBe('exists');
    }
    expect(await readFile(join(root, 'file.yml'), 'utf8')).toBe('mine\n');
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect(await readdir(outside)).toEqual(['victim.txt']); // the dangling link was not followed
    expect((await readdir(root)).sort()).toEqual(['dangling.yml', 'file.yml', 'folder.yml', 'link.yml']); // no temporary file left
  });

  it('refuses a folder that resolves outside `within`', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await symlink(outside, join(root, 'fixtures'));
    await expect(createFileExclusively(join(root, 'fixtures', 'x.yml'), 'x', { within: root })).rejects.toBeInstanceOf(UnsafeWriteError);
    expect(await readdir(outside)).toEqual([]);
  });
});
