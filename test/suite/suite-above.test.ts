// The error for a suite folder looked for where it is not (docs/troubleshooting.md, "Configuration
// errors"), decided by suiteAboveIssue: here for a command run from inside the suite folder itself.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteAboveIssue } from '../../src/suite/suite-above.js';
import { tempDir } from '../support/temp.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

async function repo(): Promise<string> {
  const root = await tempDir('agent-replay-above-');
  await mkdir(join(root, '.git'));
  await mkdir(join(root, '.agent-replay', 'fixtures'), { recursive: true });
  return root;
}

describe('a command run from inside the suite folder (cd .agent-replay)', () => {
  it('says the folder is the suite folder itself, with cd .. or --dir . as the fix, not an empty path', async () => {
    const root = await repo();
    const issue = suiteAboveIssue(join(root, '.agent-replay'), '.agent-replay', '.agent-replay');
    expect(issue).toEqual({
      file: '.agent-replay',
      line: null,
      column: null,
      message: `no suite folder here: this folder (${root}/.agent-replay) is the suite folder itself, and commands look for .agent-replay in the folder they run from; it was not read`,
      fix: `run from ${root} (cd ..), where .agent-replay is, or give --dir .`,
    });
    // As a command prints it: `<file>: <message>` (src/suite/issues.ts).
    quotedAndSaid(
      `${issue?.file ?? ''}: ${issue?.message ?? ''}`,
      '.agent-replay: no suite folder here: this folder (<folder>) is the suite folder itself, and commands look for .agent-replay in the folder they run from; it was not read',
    );
  });

  it('from a folder inside it (cd .agent-replay/fixtures): the suite is named as .., not as a parent folder holding one', async () => {
    const root = await repo();
    const issue = suiteAboveIssue(join(root, '.agent-replay', 'fixtures'), '.agent-replay', '.agent-replay');
    expect(issue?.message).toBe(`no suite folder here: this folder (${root}/.agent-replay/fixtures) is inside the suite folder .., and commands look for .agent-replay in the folder they run from; it was not read`);
    expect(issue?.fix).toBe(`run from ${root} (cd ../..), where .agent-replay is, or give --dir ..`);
  });

  it('from a subfolder of the repository: a parent folder holds it, as before', async () => {
    const root = await repo();
    await mkdir(join(root, 'src'));
    const issue = suiteAboveIssue(join(root, 'src'), '.agent-replay', '.agent-replay');
    expect(issue?.message).toBe(`no suite folder here (${root}/src), but a parent folder holds one: ../.agent-replay; it was not read`);
    quotedAndSaid(`${issue?.file ?? ''}: ${issue?.message ?? ''}`, '.agent-replay: no suite folder here (<folder>), but a parent folder holds one: ../.agent-replay; it was not read');
    expect(issue?.fix).toBe(`run from ${root} (cd ..), where .agent-replay is, or give --dir ../.agent-replay (the dir input in the Action)`);
  });
});
