// A path written for Windows (`C:\suite`, `C:/out/r.json`, `\\server\share\suite`) given on macOS or
// Linux, where it names no drive and no share: `C:\suite` is one file or folder of that odd name in
// the working folder, `C:/out` a folder named `C:`. Refused before anything is read, written or
// sent, with the path as this system writes it (docs/cli.md, "Paths written for Windows"); on
// Windows such a path is an ordinary one and is never refused.

import path from 'node:path';
import { shownShellWord } from './words.js';

/**
 * Why `given`, the value of `name` (`--dir`, `input dir`), cannot be used on this system, as one
 * sentence with the fix; null when it is not a Windows drive or network path, or this is Windows.
 * `example`: the same flag with a relative path, for the fix (`--dir .agent-replay`).
 */
export function windowsPathRefusal(given: string, name: string, example: string, separator: string = path.sep): string | null {
  if (separator !== '/') return null;
  const drive = /^([A-Za-z]):(?:[\\/]|$)/.exec(given);
  if (drive !== null) {
    const letter = (drive[1] as string).toUpperCase();
    const rest = given.slice(2).split('\\').join('/').replace(/^\/+/, '').replace(/\/+$/, '');
    const wsl = `/mnt/${letter.toLowerCase()}${rest === '' ? '' : `/${rest}`}`;
    return `${name} ${shownShellWord(given)} is a Windows path (drive ${letter}:), and this system is not Windows: here it is a name in the working folder, not drive ${letter}:. Give the path as this system writes it: relative to the working folder (${example}), or absolute (${wsl} under WSL)`;
  }
  if (given.startsWith('\\\\')) {
    return `${name} ${shownShellWord(given)} is a Windows network path (UNC), which this system does not open: mount the share and give the path under its mount point, or a path relative to the working folder (${example})`;
  }
  return null;
}
