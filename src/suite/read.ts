// Reading one suite file, whatever a pull request put there: a file that resolves outside the
// suite folder (a symbolic link to /proc/self/environ, to a file of the runner) is refused without
// reading it, and so is a link to another file inside it (linkIssue); a file that is not UTF-8 text, or is too large, is one issue, never a flood of
// parser errors quoting binary; its YAML is read by suite/yaml (readYaml).

import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../fs-safe.js';
import type { ConfigIssue } from './issues.js';

const MIB = 1024 * 1024;
/** Larger suite files are refused (a list of 5,000 fixtures is about 0.5 MB). */
const MAX_SUITE_FILE_BYTES = 8 * MIB;

/** A size in MiB, rounded up to a tenth, so that a file just over the limit does not read as the limit ("8.1", "12"). */
function mibOver(bytes: number): string {
  return String(Math.ceil((bytes / MIB) * 10) / 10);
}

/** The real path, or null when it does not exist (or cannot be resolved). */
export function realPathOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

function issue(file: string, message: string, fix: string): ConfigIssue {
  return { file, line: null, column: null, message, fix };
}

function readError(shown: string, e: unknown): ConfigIssue {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return issue(shown, `cannot read the file (${code})`, 'check that the file exists and is readable');
}

export function outsideIssue(shown: string, what: string, boundary: string, kind: 'file' | 'folder'): ConfigIssue {
  return issue(
    shown,
    `${what} resolves outside ${boundary} (a symbolic link): refused, nothing was read from it`,
    `replace the link with the ${kind} itself, inside ${boundary}`,
  );
}

/**
 * A suite file or folder that is a symbolic link to another place inside the suite folder: refused
 * too. A pull request's edit of the suite is read from GitHub by the paths it changed (docs/action.md,
 * "Suite edited"), and a link's own path does not change when the file it leads to does: a check
 * weakened there would read as no edit. `leadsTo` is shown as the suite's other files are.
 */
export function linkIssue(shown: string, what: string, leadsTo: string, kind: 'file' | 'folder'): ConfigIssue {
  return issue(
    shown,
    `${what} is a symbolic link (to ${leadsTo}): refused, nothing was read from it`,
    `replace the link with the ${kind} itself: a pull request's change to the ${kind} a link leads to is not compared with its base`,
  );
}

/** `real` (inside the real suite folder `realRoot`) as the suite's files are shown: under `rootShown`, in forward slashes. */
export function shownInSuite(real: string, realRoot: string, rootShown: string): string {
  const rel = path.relative(realRoot, real).split(path.sep).join('/');
  return rootShown === '.' ? rel || '.' : rel === '' ? rootShown : `${rootShown}/${rel}`;
}

/** Whether `p` itself is a symbolic link (false when it cannot be read: reading it says why). */
export function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * A symbolic link whose path does not resolve (`e`: why), most often one that leads to nothing (its
 * file was moved or deleted, or it names a place on another machine): refused as any link, with
 * where it leads when that is inside the suite folder, not said to be a file that cannot be read,
 * which `ls` shows is there. Null when `p` is no link.
 */
function unresolvedLinkIssue(p: string, shown: string, realRoot: string, rootShown: string, e: unknown): ConfigIssue | null {
  let leadsTo: string;
  try {
    const dir = realpathSync.native(path.dirname(p));
    leadsTo = path.resolve(dir, readlinkSync(p));
  } catch {
    return null;
  }
  if (!isInside(realRoot, leadsTo)) return outsideIssue(shown, 'the file', `the suite folder ${rootShown}`, 'file');
  const missing = (e as NodeJS.ErrnoException).code === 'ENOENT' ? ', which does not exist' : '';
  return linkIssue(shown, 'the file', `${shownInSuite(leadsTo, realRoot, rootShown)}${missing}`, 'file');
}

export interface SuiteFileRef {
  /** The path as listed (inside the suite folder by construction). */
  path: string;
  /** Its real path when known without asking the file system (no link on the way), else null. */
  real: string | null;
}

/**
 * The text of a suite file, or the one issue that says why it is not read. Suite files are read
 * synchronously: nothing else runs while a suite loads, and for thousands of small files one
 * blocking read each costs a fraction of the thread-pool round trips of fs.promises (measured:
 * 5,000 fixtures in 500 files load 2-3x faster).
 */
export function readSuiteText(ref: SuiteFileRef, shown: string, realRoot: string, rootShown: string): { text: string } | { issue: ConfigIssue } {
  let real = ref.real;
  // Listed with its real path: inside the suite folder and no link, by construction (the walk
  // checked its folder and followed no link). Else (a link entry, config.yml) asked.
  if (real === null) {
    try {
      real = realpathSync.native(ref.path);
    } catch (e) {
      return { issue: unresolvedLinkIssue(ref.path, shown, realRoot, rootShown, e) ?? readError(shown, e) };
    }
    if (!isInside(realRoot, real)) return { issue: outsideIssue(shown, 'the file', `the suite folder ${rootShown}`, 'file') };
    if (isLink(ref.path)) return { issue: linkIssue(shown, 'the file', shownInSuite(real, realRoot, rootShown), 'file') };
  }
  let bytes: Buffer;
  try {
    const read = readRegularFile(real);
    if ('size' in read) {
      return read.size === null
        ? { issue: issue(shown, 'not a regular file', 'suite files are regular files: move this one out of the suite folder') }
        : {
            issue: issue(
              shown,
              `the file is ${mibOver(read.size)} MiB, more than the ${MAX_SUITE_FILE_BYTES / MIB} MiB a suite file may have`,
              'split it into several files',
            ),
          };
    }
    bytes = read.bytes;
  } catch (e) {
    return { issue: readError(shown, e) };
  }
  if (bytes.includes(0) || !isUtf8(bytes)) {
    const nul = bytes.includes(0);
    // Text with a byte that is not UTF-8 (an é saved as Latin-1): where it is, to find it.
    const bad = nul ? null : firstNonUtf8(bytes);
    return {
      issue: {
        ...issue(
          shown,
          `not a text file: it ${nul ? 'contains NUL bytes' : `is not valid UTF-8${bad === null ? '' : ` (byte 0x${bad.byte.toString(16).toUpperCase().padStart(2, '0')})`}`}, so it was not parsed`,
          `suite files are UTF-8 text (YAML fixtures and config, JSON baselines): save it again as UTF-8 (an editor may have saved it as ${nul ? 'UTF-16' : 'Latin-1 or Windows-1252'}), or move it out of the suite folder if it is not a suite file`,
        ),
        ...(bad === null ? {} : { line: bad.line, column: bad.column }),
      },
    };
  }
  return { text: bytes.toString('utf8') };
}

/**
 * The bytes of a regular file of at most MAX_SUITE_FILE_BYTES; else its size (null: not a regular
 * file). Opened non-blocking, so a named pipe cannot stall the load, and checked on the open file.
 */
function readRegularFile(real: string): { bytes: Buffer } | { size: number | null } {
  const fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { size: null };
    if (stat.size > MAX_SUITE_FILE_BYTES) return { size: stat.size };
    const bytes = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < bytes.length) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The first byte of `bytes` that starts no valid UTF-8 sequence, with its line and column (in
 * characters, as an editor counts them); null when there is none.
 */
function firstNonUtf8(bytes: Buffer): { byte: number; line: number; column: number } | null {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (size > 0 && i + size <= bytes.length && isUtf8(bytes.subarray(i, i + size))) {
      i += size;
      continue;
    }
    // A byte-order mark is no part of the first line's columns (docs/configuration.md, "Files from Windows and macOS").
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const lineStart = i === 0 ? 0 : Math.max(bytes.lastIndexOf(0x0a, i - 1) + 1, bom);
    let line = 1;
    for (let k = bytes.indexOf(0x0a); k !== -1 && k < i; k = bytes.indexOf(0x0a, k + 1)) line += 1;
    const column = [...bytes.subarray(lineStart, i).toString('utf8')].length + 1;
    return { byte: b, line, column };
  }
  return null;
}
