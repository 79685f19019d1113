// Writes accepted baselines: one file per fixture or persona script, stable key order, trailing newline, and never a
// path outside the baselines folder: baselinePath refuses any label that would escape it, the
// baselines folder must really be inside the suite folder (not a link to elsewhere), and each file
// is written through an exclusively created temporary file renamed over the target, so a link
// planted at `<label>.json` (or anywhere else in the folder) is replaced, never written through.

import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { stageFile, type PendingFile } from '../fs-safe.js';
import { UserError } from '../errors.js';
import type { Baseline, PersonaBaseline } from '../types.js';
import { baselinePath, serializeBaseline } from '../suite/index.js';
import { inStyleOf, styleOfBytes, styleOfNewBaseline, type FileStyle } from './file-style.js';

export interface BaselineWrites {
  /** Written, in the order given. */
  written: { label: string; path: string }[];
  /** Staged but not put in place (something stands at the path), with the reason and the fix. */
  failed: { label: string; path: string; reason: string }[];
}

/**
 * Writes the baselines in two steps: every file is staged next to its target first, so that a
 * problem with the folder (a link to elsewhere, no permission, no space) writes none of them and
 * throws; then each is put in place, and one that cannot be (a folder where the file goes) is
 * reported with its fix while the others are still written. `suiteDir` defaults to the folder
 * holding `baselinesDir`.
 */
export async function writeBaselines(baselinesDir: string, baselines: readonly (Baseline | PersonaBaseline)[], suiteDir = path.dirname(path.resolve(baselinesDir))): Promise<BaselineWrites> {
  const paths = baselines.map((b) => baselinePath(baselinesDir, b.label)); // validate all before writing any
  const pending: PendingFile[] = [];
  // A new baseline's style: the folder's first baseline's, as it was before this acceptance (nothing is put in place until all are staged).
  let folderStyle: FileStyle | null = null;
  const newStyle = async (): Promise<FileStyle> => (folderStyle ??= await styleOfNewBaseline(await regularFiles(baselinesDir), (name) => writtenStyle(path.join(baselinesDir, name))));
  try {
    for (const [i, b] of baselines.entries()) {
      const at = paths[i] as string;
      pending.push(await stageFile(at, inStyleOf((await writtenStyle(at)) ?? (await newStyle()), serializeBaseline(b)), { within: suiteDir }));
    }
  } catch (e) {
    await Promise.all(pending.map((p) => p.discard()));
    throw new UserError(
      `nothing was accepted: ${(e as Error).message}${(e as NodeJS.ErrnoException).syscall === undefined ? '' : `: check that ${baselinesDir} is a folder (or can be made one) that you can write to, then accept again`}`,
    );
  }
  const out: BaselineWrites = { written: [], failed: [] };
  for (const [i, p] of pending.entries()) {
    const label = (baselines[i] as Baseline | PersonaBaseline).label;
    const at = paths[i] as string;
    try {
      await p.publish();
      out.written.push({ label, path: at });
    } catch (e) {
      out.failed.push({ label, path: at, reason: publishFailure(at, e as NodeJS.ErrnoException) });
    }
  }
  return out;
}

/**
 * The style of the baseline file at `at`, for its rewrite (docs/fixtures.md, "Line endings and
 * byte-order marks"): a file checked out with CRLF line endings (Windows, core.autocrlf) or saved
 * with a byte-order mark keeps them, so that the acceptance's diff shows the lines that changed,
 * not every line. Its first line ending decides; no file (a new baseline), a link or anything but
 * a regular file: null, and it is written as a new one. Only the first bytes are read, and never
 * through a link.
 */
async function writtenStyle(at: string): Promise<FileStyle | null> {
  let handle;
  try {
    handle = await open(at, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    if (!(await handle.stat()).isFile()) return null;
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return styleOfBytes(head.subarray(0, bytesRead));
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** The names of the regular files in `dir` (no links, no folders); none when it cannot be listed (not there yet). */
async function regularFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Why a baseline file could not be put in place, and the fix. */
function publishFailure(at: string, e: NodeJS.ErrnoException): string {
  if (e.code === 'EISDIR' || e.code === 'ENOTEMPTY' || e.code === 'EEXIST') return `a folder stands at ${at}: remove it (a baseline is a file), then accept again`;
  return `${at} could not be written (${e.message}): fix the cause, then accept again`;
}
