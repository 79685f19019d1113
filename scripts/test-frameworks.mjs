// `npm run test:frameworks`: agent-replay against the real frameworks (test/frameworks/, with its
// own package.json and lock so the main dev install stays lean). Installs that folder with
// `npm ci` when its node_modules is missing or older than its lock, then typechecks it and runs its tests with the
// root's vitest and test/frameworks/vitest.config.ts. Extra arguments go to vitest (a file filter).
//
// A node_modules that is a symlink (a worktree borrowing another checkout's install) is never
// installed through: `npm ci` would empty the other checkout's. It is used when the lock it was
// installed from is this one and that install is current; else the script stops, naming the
// symlink and what to do (installDecision).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The install is current when its marker is not older than the lock. */
function current(modules, lock) {
  const marker = join(modules, '.package-lock.json');
  return existsSync(marker) && existsSync(lock) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
}

/**
 * What to do with `dir`'s install before the tests: 'ready', 'install' (`npm ci`), or 'refuse' with
 * the message to print, when node_modules is a symlink whose install is not the one this lock asks for.
 */
export function installDecision(dir) {
  const modules = join(dir, 'node_modules');
  const lock = join(dir, 'package-lock.json');
  let linked = false;
  try {
    linked = lstatSync(modules).isSymbolicLink();
  } catch {
    // No node_modules: installed below.
  }
  if (!linked) return current(modules, lock) ? { action: 'ready' } : { action: 'install' };
  let target;
  try {
    target = realpathSync(modules);
  } catch {
    return { action: 'refuse', message: `${modules} is a symlink to nothing that exists: remove it (rm ${modules}) and run again to install this checkout's own` };
  }
  // Borrowed from another checkout: fine when it was installed from the same lock and is current there
  // (a worktree's lock is newer than the install only because it was checked out later).
  const theirs = join(dirname(target), 'package-lock.json');
  const same = existsSync(theirs) && existsSync(lock) && readFileSync(theirs, 'utf8') === readFileSync(lock, 'utf8');
  if (same && current(target, theirs)) return { action: 'ready' };
  const why = same ? `that install is older than its lock (${theirs})` : `it was installed from another lock than ${lock}`;
  return {
    action: 'refuse',
    message:
      `${modules} is a symlink to ${target}, and ${why}: npm ci here would empty and rebuild that checkout's install, so nothing was installed. ` +
      `Remove the symlink (rm ${modules}) and run again to install this checkout's own` +
      (same ? `, or update that install where it lives (npm ci --prefix ${dirname(target)}).` : '.'),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = 'test/frameworks';
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const decision = installDecision(dir);
  if (decision.action === 'refuse') {
    process.stderr.write(`test:frameworks: ${decision.message}\n`);
    process.exit(1);
  }
  if (decision.action === 'install') execFileSync(npm, ['ci', '--prefix', dir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  try {
    // Typecheck against the real frameworks' types (the root typecheck leaves this folder out).
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${dir}/tsconfig.json`, '--noEmit'], { stdio: 'inherit' });
    execFileSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', `${dir}/vitest.config.ts`, ...process.argv.slice(2)], { stdio: 'inherit' });
  } catch (e) {
    process.exitCode = typeof e.status === 'number' ? e.status : 1;
  }
}
