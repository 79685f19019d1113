// scripts/import-graph.mjs, run by `npm run lint`: src/ has no import circle and no import against
// the layer order, and a circle or a later-layer import written into a copy of src/ fails the check,
// naming the files and lines. The script runs as a child process where its exit status and output
// are the point (src/ as it is; a circle); the other cases call its check() in this process, the
// function whose problems the script prints: each start of the script loads TypeScript (9 MB) again.

import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(process.cwd(), 'scripts', 'import-graph.mjs');

function run(root?: string): { code: number; stderr: string } {
  try {
    execFileSync(process.execPath, [SCRIPT, ...(root ? [root] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { status: number; stderr: string };
    return { code: err.status, stderr: err.stderr };
  }
}

/** The script's check() in this process: its problems, as the script prints them (after `import-graph: `). */
async function check(root: string): Promise<{ problems: number; text: string }> {
  const script = (await import(pathToFileURL(SCRIPT).href)) as { check: (root: string) => string[] };
  const problems = script.check(root);
  return { problems: problems.length, text: problems.join('\n') };
}

// One copy of src/ for the file (4.4 MB): each test plants its imports in it, and the files it
// planted in are copied back from src/ after it, so that the next test starts from src/ as it is.
let copy: string | null = null;
const planted = new Set<string>();
function copyOfSrc(): string {
  if (copy === null) {
    copy = mkdtempSync(join(tmpdir(), 'import-graph-'));
    cpSync(join(process.cwd(), 'src'), join(copy, 'src'), { recursive: true });
  }
  return copy;
}
/** Appends `text` to `file` (a path from the root) of the copy. */
function plant(root: string, file: string, text: string): void {
  planted.add(file);
  appendFileSync(join(root, file), text);
}
afterEach(() => {
  for (const file of planted) copyFileSync(join(process.cwd(), file), join(copy as string, file));
  planted.clear();
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = null;
});

describe('the import-graph check', () => {
  it('passes on src/ as it is', () => {
    expect(run()).toEqual({ code: 0, stderr: '' });
  });

  it('fails on a circle, naming its files and the imports that close it', () => {
    const root = copyOfSrc();
    // Two files that import each other (a type import counts too).
    plant(root, 'src/evaluate/drift.ts', "\nimport type { ItemKind } from './kind.js';\nexport type Again = ItemKind;\n");
    plant(root, 'src/evaluate/kind.ts', "\nimport { sameRoute } from './drift.js';\nexport const again = sameRoute;\n");
    const { code, stderr } = run(root);
    expect(code).toBe(1);
    expect(stderr).toContain('import circle of 2 files: src/evaluate/drift.ts, src/evaluate/kind.ts');
    expect(stderr).toMatch(/src\/evaluate\/drift\.ts:\d+ -> src\/evaluate\/kind\.ts/);
    expect(stderr).toMatch(/src\/evaluate\/kind\.ts:\d+ -> src\/evaluate\/drift\.ts/);
    // The lines are the imports' own, counted as an editor counts them.
    const lineOf = (file: string, text: string): number => readFileSync(join(root, file), 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
    expect(stderr).toContain(`src/evaluate/drift.ts:${lineOf('src/evaluate/drift.ts', "from './kind.js'")} -> src/evaluate/kind.ts`);
    expect(stderr).toContain(`src/evaluate/kind.ts:${lineOf('src/evaluate/kind.ts', "from './drift.js'")} -> src/evaluate/drift.ts`);
  });

  it("fails on the CLI importing the report's barrel, which loads every renderer, naming file and line", async () => {
    const root = copyOfSrc();
    plant(root, 'src/cli/output.ts', "\nimport { renderJUnit } from '../report/index.js';\nexport const barrel = renderJUnit;\n");
    const { problems, text: stderr } = await check(root);
    expect(problems).toBeGreaterThan(0); // the script exits 1
    expect(stderr).toMatch(/src\/cli\/output\.ts:\d+ imports src\/report\/index\.ts, which loads every renderer/);
  });

  it('fails on an import of a later layer or of a driver, naming file and line', async () => {
    const root = copyOfSrc();
    plant(root, 'src/evaluate/tallies.ts', "\nimport { formatUsd } from '../report/money.js';\nexport const later = formatUsd;\n");
    plant(root, 'src/report/escape.ts', "\nimport type { CheckResult } from '../engine.js';\nexport type Driver = CheckResult;\n");
    const { problems, text: stderr } = await check(root);
    expect(problems).toBeGreaterThan(0); // the script exits 1
    expect(stderr).toMatch(/src\/evaluate\/tallies\.ts:\d+ imports src\/report\/money\.ts \(report comes after evaluate/);
    expect(stderr).toMatch(/src\/report\/escape\.ts:\d+ imports src\/engine\.ts, a driver/);
    expect(stderr).not.toContain('import circle');
  });

  it('covers judge/ and simulator/: they come right after suite, so neither imports what the run decides, and judge/ does not import simulator/', async () => {
    const root = copyOfSrc();
    plant(root, 'src/judge/prompt.ts', "\nimport { formatUsd } from '../report/money.js';\nexport const later = formatUsd;\n");
    plant(root, 'src/judge/parse.ts', "\nimport type { Simulator } from '../simulator/index.js';\nexport type After = Simulator;\n");
    plant(root, 'src/simulator/prompt.ts', "\nimport { tallies } from '../evaluate/tallies.js';\nexport const decided = tallies;\n");
    const { problems, text: stderr } = await check(root);
    expect(problems).toBeGreaterThan(0); // the script exits 1
    expect(stderr).toMatch(/src\/judge\/prompt\.ts:\d+ imports src\/report\/money\.ts \(report comes after judge/);
    expect(stderr).toMatch(/src\/judge\/parse\.ts:\d+ imports src\/simulator\/index\.ts \(simulator comes after judge/);
    expect(stderr).toMatch(/src\/simulator\/prompt\.ts:\d+ imports src\/evaluate\/tallies\.ts \(evaluate comes after simulator/);
  });
});
