// A suite folder that is not where it was looked for, but is in a parent folder: agent-replay run
// from a subfolder of the repository (`cd src && npx agent-replay run`). Said, with the fix (run
// from that folder, or --dir), instead of "no fixtures folder ... init"; the suite above is never
// read or run in its place (docs/troubleshooting.md, "Configuration errors"). So is one named with
// backslashes (`--dir bots\shop`, typed on Windows) on macOS or Linux, where they separate nothing,
// whether or not the folder with slashes is there.

import { statSync } from 'node:fs';
import path from 'node:path';
import { shownShellWord } from '../words.js';
import { isFolder } from '../fs-safe.js';
import type { ConfigIssue } from './issues.js';

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The parent folder of `cwd` that holds `dir` (the suite folder as given, relative to `cwd`) when
 * `cwd` does not: the nearest, looking up to the git repository's root (a `.git` folder or file)
 * or, outside git, to the file system's root. null when `dir` is there, is absolute or climbs
 * (`..`), or no parent holds it.
 */
export function suiteAbove(cwd: string, dir: string): { folder: string; suite: string } | null {
  if (path.isAbsolute(dir) || dir.split(/[\\/]/).includes('..')) return null;
  let at = path.resolve(cwd);
  if (exists(path.resolve(at, dir)) || exists(path.join(at, '.git'))) return null;
  for (let parent = path.dirname(at); parent !== at; at = parent, parent = path.dirname(at)) {
    const suite = path.join(parent, dir);
    if (isFolder(suite)) return { folder: parent, suite };
    if (exists(path.join(parent, '.git'))) return null;
  }
  return null;
}

/**
 * The suite folder `dir` names with backslashes (typed on Windows: `bots\shop`), where a backslash is
 * part of a name, not a separator (macOS, Linux), when no such folder exists but the one with slashes
 * does; null otherwise (and always on Windows, where both separate folders).
 */
function withSlashes(cwd: string, dir: string): string | null {
  if (path.sep !== '/' || !dir.includes('\\')) return null;
  const slashed = dir.split('\\').join('/');
  return !exists(path.resolve(cwd, dir)) && isFolder(path.resolve(cwd, slashed)) ? slashed : null;
}

/**
 * The error for a suite folder that is not where `dir` names it but near: written with backslashes
 * on a system whose separator is `/` (see withSlashes), or in a parent folder of `cwd` (see
 * suiteAbove); null otherwise. `shown`: the suite folder as issues show it.
 */
export function suiteAboveIssue(cwd: string, dir: string, shown: string): ConfigIssue | null {
  const slashed = withSlashes(cwd, dir);
  if (slashed !== null) {
    return {
      file: shown,
      line: null,
      column: null,
      message: `no folder named ${shownShellWord(dir)} here: on this system a backslash is part of a folder's name, not a separator, and ${shownShellWord(slashed)} is the suite folder`,
      fix: `give --dir ${shownShellWord(slashed)} (the dir input in the Action), with slashes`,
    };
  }
  const above = suiteAbove(cwd, dir);
  if (above === null) return backslashedNowhere(cwd, dir, shown);
  const slash = (p: string): string => p.split(path.sep).join('/');
  const up = slash(path.relative(path.resolve(cwd), above.folder));
  const suite = slash(path.relative(path.resolve(cwd), above.suite));
  // Run from inside the suite folder (`cd .agent-replay`): the suite is this folder or one holding
  // it, not a folder of that name above; said so, with `--dir .` rather than an empty `--dir ''`.
  if (suite === '' || suite.split('/').every((part) => part === '..')) {
    const where = suite === '' ? 'is the suite folder itself' : `is inside the suite folder ${suite}`;
    return {
      file: shown,
      line: null,
      column: null,
      message: `no suite folder here: this folder (${slash(path.resolve(cwd))}) ${where}, and commands look for ${shown} in the folder they run from; it was not read`,
      fix: `run from ${shownShellWord(slash(above.folder))} (cd ${shownShellWord(up)}), where ${shown} is, or give --dir ${suite === '' ? '.' : shownShellWord(suite)}`,
    };
  }
  return {
    file: shown,
    line: null,
    column: null,
    message: `no suite folder here (${slash(path.resolve(cwd))}), but a parent folder holds one: ${suite}; it was not read`,
    fix: `run from ${shownShellWord(slash(above.folder))} (cd ${shownShellWord(up)}), where ${shown} is, or give --dir ${shownShellWord(suite)} (the dir input in the Action)`,
  };
}

/**
 * A suite folder named with backslashes on a system whose separator is `/`, where neither that name
 * nor the one with slashes is there: both said, the folder missing and the backslash that separates
 * nothing here, instead of a bare "no fixtures folder" under the backslashed name; null otherwise.
 */
function backslashedNowhere(cwd: string, dir: string, shown: string): ConfigIssue | null {
  if (path.sep !== '/' || !dir.includes('\\')) return null;
  const slashed = dir.split('\\').join('/');
  if (exists(path.resolve(cwd, dir)) || exists(path.resolve(cwd, slashed))) return null;
  return {
    file: shown,
    line: null,
    column: null,
    message: `no folder named ${shownShellWord(dir)} here, nor ${shownShellWord(slashed)}: on this system a backslash is part of a folder's name, not a separator`,
    fix: `give --dir the suite folder with slashes, as in ${shownShellWord(slashed)} (the dir input in the Action); none yet? npx agent-replay init --dir ${shownShellWord(slashed)} writes one`,
  };
}
