// scripts/test-frameworks.mjs's install decision, on real folders: a node_modules that is a symlink
// to another checkout's install is never installed through (npm ci would empty the other's).

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installDecision } from '../../scripts/test-frameworks.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout's test/frameworks: its lock written at `lockAt`, its install (when `installedAt`) marked then (seconds since the epoch). */
function frameworks(root: string, lock: string, lockAt: number, installedAt: number | null): string {
  const dir = join(root, 'test', 'frameworks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package-lock.json'), lock);
  utimesSync(join(dir, 'package-lock.json'), lockAt, lockAt);
  if (installedAt !== null) {
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), lock);
    utimesSync(join(dir, 'node_modules', '.package-lock.json'), installedAt, installedAt);
  }
  return dir;
}

describe('scripts/test-frameworks.mjs, installDecision', () => {
  it('its own install: installed when missing or older than the lock, else used', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'frameworks-')));
    dirs.push(root);
    expect(installDecision(frameworks(join(root, 'none'), '{}', 1000, null))).toEqual({ action: 'install' });
    expect(installDecision(frameworks(join(root, 'stale'), '{}', 2000, 1000))).toEqual({ action: 'install' });
    expect(installDecision(frameworks(join(root, 'fresh'), '{}', 1000, 2000))).toEqual({ action: 'ready' });
  });

  it("a symlink to another checkout's install: used when installed from the same lock, refused (naming the symlink and the fix) when npm ci would rebuild it", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'frameworks-')));
    dirs.push(root);
    const main = frameworks(join(root, 'main'), '{"v":1}', 1000, 2000);
    // A worktree checked out later: its lock is newer than the install it borrows, with the same content.
    const tree = frameworks(join(root, 'tree'), '{"v":1}', 3000, null);
    symlinkSync(join(main, 'node_modules'), join(tree, 'node_modules'));
    expect(installDecision(tree)).toEqual({ action: 'ready' });

    // Another lock (the branch changed a framework's version): npm ci through the link would empty main's install.
    writeFileSync(join(tree, 'package-lock.json'), '{"v":2}');
    const link = join(tree, 'node_modules');
    expect(installDecision(tree)).toEqual({
      action: 'refuse',
      message: `${link} is a symlink to ${join(main, 'node_modules')}, and it was installed from another lock than ${join(tree, 'package-lock.json')}: npm ci here would empty and rebuild that checkout's install, so nothing was installed. Remove the symlink (rm ${link}) and run again to install this checkout's own.`,
    });

    // The same lock, but the other install is itself older than its lock: updated there, not through the link.
    writeFileSync(join(tree, 'package-lock.json'), '{"v":1}');
    utimesSync(join(main, 'package-lock.json'), 4000, 4000);
    expect(installDecision(tree)).toMatchObject({ action: 'refuse', message: expect.stringContaining(`that install is older than its lock (${join(main, 'package-lock.json')})`) });
    expect(installDecision(tree)).toMatchObject({ message: expect.stringContaining(`or update that install where it lives (npm ci --prefix ${main}).`) });

    // A symlink to nothing.
    rmSync(join(main, 'node_modules'), { recursive: true });
    expect(installDecision(tree)).toEqual({ action: 'refuse', message: `${link} is a symlink to nothing that exists: remove it (rm ${link}) and run again to install this checkout's own` });
  });
});
