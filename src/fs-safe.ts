// Writing a file that a reader must never see half-written, into a folder that a pull request may
// have filled with symbolic links. The text goes to a temporary file with a random name, created
// exclusively (O_CREAT | O_EXCL, and O_NOFOLLOW where the system has it), so no planted file or
// link is ever opened; it is then renamed over the target, and rename replaces a link at the
// target path instead of writing through it. The folder itself may be checked to really be inside
// a given root, so a folder that is a link to elsewhere is refused before anything is written.

import { randomBytes } from 'node:crypto';
import { constants, statSync, unlinkSync } from 'node:fs';
import { link, mkdir, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from './errors.js';
import { terminalLine } from './words.js';

/** True when `p` is a folder (a link to one counts); false when it is not, or cannot be looked at. */
export function isFolder(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** A write refused because its folder resolves elsewhere: the user's to fix (exit status 2), not a bug. */
export class UnsafeWriteError extends UserError {
  override name = 'UnsafeWriteError';
}

/** True when `inner` is `outer` or inside it (both absolute). */
export function isInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** The same, open for reading back too (a StagedFile used as scratch space). */
const CREATE_EXCLUSIVE_RW = (CREATE_EXCLUSIVE & ~constants.O_WRONLY) | constants.O_RDWR;

export interface WriteOptions {
  /**
   * The folder of the target must really be inside this one (after resolving links), else
   * UnsafeWriteError and nothing is written. Checked after the folder is created.
   */
  within?: string;
}

/**
 * The target's folder, created, and checked to be really inside `options.within`; then a new
 * temporary file there (random name, created exclusively, never through a link), open for writing.
 */
async function openNextTo(target: string, options: WriteOptions, readBack = false): Promise<{ tmp: string; handle: FileHandle }> {
  const folder = path.dirname(path.resolve(target));
  await makeFolder(folder);
  if (options.within !== undefined) {
    const [realFolder, realRoot] = await Promise.all([realpath(folder), realpath(options.within)]);
    if (!isInside(realRoot, realFolder)) {
      throw new UnsafeWriteError(
        `refusing to write ${target}: its folder resolves outside ${options.within} (a symbolic link); replace the link with a real folder`,
      );
    }
  }
  const tmp = path.join(folder, `.${path.basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
  return { tmp, handle: await open(tmp, readBack ? CREATE_EXCLUSIVE_RW : CREATE_EXCLUSIVE, 0o644) };
}

/**
 * `folder` and the folders above it that are missing, one level at a time, each by a plain mkdir.
 * Node's `mkdir(..., { recursive: true })` never returns for a folder that cannot be made in a
 * folder that exists (under /proc it spins a core forever); one level at a time, that is the
 * ENOENT of that level. A folder another process makes meanwhile is taken as made.
 */
async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let at = folder; ; at = path.dirname(at)) {
    try {
      // A file where the folder should be: mkdir's own EEXIST names it ("<path> is a file, not a folder").
      if (!(await stat(at)).isDirectory()) await mkdir(at);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(at) === at) throw e;
      missing.push(at);
    }
  }
  for (const at of missing.reverse()) {
    try {
      await mkdir(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stat(at)).isDirectory()) throw e;
    }
  }
}

/** `text` in a new temporary file next to `target` (see openNextTo). Returns its path. */
async function stageNextTo(target: string, text: string, options: WriteOptions): Promise<string> {
  const { tmp, handle } = await openNextTo(target, options);
  try {
    await handle.writeFile(text, 'utf8');
  } catch (e) {
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await handle.close();
  return tmp;
}

/**
 * A file written piece by piece and published at once: a temporary file next to the target,
 * created as writeFileSafely's is, which `commit` renames over the target and `discard` removes.
 * Until one of them has run, the process's exit removes it (a second Ctrl-C, process.exit).
 */
export interface StagedFile {
  /** The temporary file's path. */
  readonly path: string;
  readonly handle: FileHandle;
  /** Closes the file and renames it over the target (atomically; a link at the target is replaced, not followed). */
  commit(): Promise<void>;
  /** Closes the file and removes it. Never throws. */
  discard(): Promise<void>;
}

/** Temporary files of StagedFiles not yet committed or discarded: removed when the process exits. */
const staged = new Set<string>();
let exitHookInstalled = false;

function removeStagedAtExit(): void {
  for (const tmp of staged) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

/** Removes `tmp` at the process's exit unless it is published or discarded first. */
function trackStaged(tmp: string): void {
  staged.add(tmp);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', removeStagedAtExit);
  }
}

/**
 * Opens a StagedFile for `target` (its folder created and checked as by writeFileSafely);
 * `readBack`: open for reading too.
 */
export async function openStagedFile(target: string, options: WriteOptions = {}, readBack = false): Promise<StagedFile> {
  const { tmp, handle } = await openNextTo(target, options, readBack);
  trackStaged(tmp);
  let settled = false;
  const settle = (): boolean => {
    if (settled) return false;
    settled = true;
    return true;
  };
  return {
    path: tmp,
    handle,
    async commit() {
      if (!settle()) throw new Error(`${tmp}: already committed or discarded`);
      await publishStaged(tmp, target, () => handle.close());
    },
    async discard() {
      if (!settle()) return;
      await handle.close().catch(() => undefined);
      await discardStaged(tmp);
    },
  };
}

/** A file written in full next to its target and not yet in place (see stageFile). */
export interface PendingFile {
  /** Renames it over the target (atomically; a link at the target is replaced, not followed). */
  publish(): Promise<void>;
  /** Removes it. Never throws. */
  discard(): Promise<void>;
}

/**
 * `text` (UTF-8) written to a temporary file next to `target` (its folder created and checked as
 * by writeFileSafely), closed, and not yet in place: several files can be staged before any is
 * published, so that a folder problem leaves none of them written. Until published or discarded,
 * the process's exit removes it.
 */
export async function stageFile(target: string, text: string, options: WriteOptions = {}): Promise<PendingFile> {
  const tmp = await stageNextTo(target, text, options);
  trackStaged(tmp);
  return { publish: () => publishStaged(tmp, target), discard: () => discardStaged(tmp) };
}

/** Renames a staged file over its target (after `before`, the file's close); on failure it is removed. Either way it is no longer tracked. */
async function publishStaged(tmp: string, target: string, before?: () => Promise<void>): Promise<void> {
  try {
    await before?.();
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  } finally {
    staged.delete(tmp);
  }
}

/** Removes a staged file. Never throws. */
async function discardStaged(tmp: string): Promise<void> {
  await unlink(tmp).catch(() => undefined);
  staged.delete(tmp);
}

/** Writes `text` (UTF-8) to `target` atomically and without following any planted link. */
export async function writeFileSafely(target: string, text: string, options: WriteOptions = {}): Promise<void> {
  await (await stageFile(target, text, options)).publish();
}

/** The repository root to check a write against: the working directory when `target` is named inside it. */
export function repositoryFor(target: string): string | undefined {
  // path.resolve() with no argument is the working directory (see suite/index.ts on the bundler).
  const cwd = path.resolve();
  return isInside(cwd, path.resolve(target)) ? cwd : undefined;
}

/**
 * Creates `target` with `text` only when nothing (file, folder, link, even a dangling one) is
 * there, and never half-written: the text goes to a temporary file first, which is then hard-linked
 * to the target name (link fails with EEXIST when the name is taken, atomically). Where the file
 * system has no hard links, the target is opened with O_CREAT | O_EXCL | O_NOFOLLOW instead.
 * Returns 'exists' (nothing written) when the name is taken.
 */
export async function createFileExclusively(target: string, text: string, options: WriteOptions = {}): Promise<'created' | 'exists'> {
  const tmp = await stageNextTo(target, text, options);
  try {
    try {
      await link(tmp, target);
      return 'created';
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return 'exists';
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    }
    return await createDirectly(target, text);
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** The fallback of createFileExclusively: an exclusive open of the target itself. */
async function createDirectly(target: string, text: string): Promise<'created' | 'exists'> {
  let handle;
  try {
    handle = await open(target, CREATE_EXCLUSIVE, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw e;
  }
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  return 'created';
}

/**
 * What a failure to write means, in words, with the system's message, on one line: the path the
 * system names (its message quotes it) with a line break or control character shown as ` ⏎ ` or
 * its escape (terminalLine), as every message that quotes it prints it.
 */
export function writeFailureWords(reason: unknown): string {
  return terminalLine(failureWords(reason));
}

function failureWords(reason: unknown): string {
  const e = reason as NodeJS.ErrnoException;
  const said = reason instanceof Error ? reason.message : String(reason);
  const words: Record<string, string> = {
    EEXIST: e.syscall === 'mkdir' ? `${e.path ?? 'a part of the path'} is a file, not a folder` : '',
    ENOTDIR: 'a part of the path is a file, not a folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is exceeded',
  };
  const word = e.code === undefined ? '' : (words[e.code] ?? '');
  return word === '' ? said : `${word} (${said})`;
}
