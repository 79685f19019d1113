// The TypeScript files under a folder, in a stable order: for the tests that read the sources as
// text (patterns.test.ts, cli/docs-url.test.ts).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file under `dir`, sorted by name at each level. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
    });
}
