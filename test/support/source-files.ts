// The TypeScript files under a folder, in a stable order: for the tests that read the sources as
// text (patterns.test.ts, cli/docs-url.test.ts, the lint tests).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every `.ts` file under `dir`, sorted by name at each level. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
    });
}

/** The `.ts` files under `root`/src, as paths from `root` with "/" (what a lint test names). */
export function srcPaths(root: string): string[] {
  return sourceFiles(join(root, 'src')).map((f) => relative(root, f).split('\\').join('/'));
}

/** Each line of `files` (paths from `root`) that `pattern` matches, as "file:line: text": a lint test's offenders. */
export function linesMatching(root: string, files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}
