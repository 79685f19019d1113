// The commands that fixes, refusals and next steps print to paste (src/words.ts shownShellWord): a
// path with a control character or a line break is written $'...' with those characters in octal,
// which a terminal and markdown show as written and bash reads as the real name. Before, the path
// was quoted with the character in it and then escaped for the terminal (`'s\u001b[2Jx'`) or dropped
// from markdown: the printed command named no file. Asserted where each command is made; some
// pasted into bash as printed.

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptRunStep, commitBaselinesStep, interruptedAcceptText } from '../../src/cli/main.js';
import { keptPresetWarning } from '../../src/cli/init.js';
import { checkOutputPaths, type CliIO } from '../../src/cli/output.js';
import { resolveBase } from '../../src/cli/suite-edits.js';
import { renderConfigErrors } from '../../src/report/config-errors.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';
import { escapeInline, terminalBlock } from '../../src/report/escape.js';
import { checkBaselineFile } from '../../src/suite/baselines.js';
import { formatIssue } from '../../src/suite/issues.js';
import { loadYamlPackage } from '../../src/suite/yaml/package.js';
import { suiteAboveIssue } from '../../src/suite/suite-above.js';
import { windowsPathRefusal } from '../../src/windows-path.js';
import { serializeRecord } from '../../src/record/index.js';
import { fixture, run } from '../report/fixtures.js';
import { tempDir } from '../support/temp.js';
import { agentConfig, cli, makeProject, useCleanup } from './helpers.js';

useCleanup();

/** A folder whose name holds an escape sequence, and one whose name holds a line break, as printed. */
const ESC = 's\u001b[2Jx';
const ESC_WORD = String.raw`$'s\033[2Jx'`;
const NL = 'my\nsuite';
const NL_WORD = String.raw`$'my\012suite'`;

/** What bash reads each word as (one bash for all of them). */
function readByBash(words: readonly string[]): string[] {
  const out = execFileSync('bash', ['-c', `for w in ${words.join(' ')}; do printf '%s\\0' "$w"; done`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('a printed command names a path with a control character or a line break', () => {
  it('the words bash reads back as the real names', () => {
    expect(readByBash([ESC_WORD, NL_WORD, String.raw`$'C:\\s\033x'`])).toEqual([ESC, NL, 'C:\\s\u001bx']);
  });

  it("run's and accept's next steps: the folder and the results file as bash reads them, no control character printed", () => {
    expect(acceptRunStep(1, ESC, NL)).toBe(`next: to accept the new or changed pass/fail result as a baseline: npx agent-replay accept --dir ${ESC_WORD} --results ${NL_WORD}`);
    expect(commitBaselinesStep(ESC, 1)).toBe(`next: commit it (git add ${String.raw`$'s\033[2Jx/baselines'`}): the check on a pull request compares with the baselines of the commit it replays`);
    expect(interruptedAcceptText('r.json', 2, NL)).toMatch(new RegExp(`run the suite again: npx agent-replay run --dir ${NL_WORD.replace(/[$\\[]/g, '\\$&')}$`));
    // Plain and quoted paths as before.
    expect(acceptRunStep(1, 'bots/my suite', 'out/r.json')).toContain("accept --dir 'bots/my suite' --results out/r.json");
  });

  it("a damaged baseline's fix, pasted into bash in a real git repository, brings back the committed file; the comment shows the same command", async () => {
    await loadYamlPackage();
    const root = await tempDir('agent-replay-printed-');
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    const files = [`${ESC}/baselines/a.json`, `${NL}/baselines/b.json`];
    for (const f of files) {
      await mkdir(join(root, f, '..'), { recursive: true });
      await writeFile(join(root, f), '{"label": "a"}\n');
    }
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'baselines');
    for (const f of files) {
      await writeFile(join(root, f), '{bad');
      const issue = checkBaselineFile(f, 'a', '{bad').errors[0]!;
      // As the terminal shows it: the command whole, with nothing escaped in it.
      const shown = terminalBlock(formatIssue(issue));
      const command = /`(git checkout -- [^`]*)`/.exec(shown)?.[1] ?? '';
      expect(command).toBe(`git checkout -- ${f.startsWith(ESC) ? String.raw`$'s\033[2Jx/baselines/a.json'` : String.raw`$'my\012suite/baselines/b.json'`}`);
      execFileSync('bash', ['-c', command], { cwd: root });
      expect(await readFile(join(root, f), 'utf8')).toBe('{"label": "a"}\n');
      // The comment's list item: the same command, escaped for display only.
      expect(renderConfigErrors([issue], DEFAULT_CONTEXT)).toContain(escapeInline(command));
    }
  });

  it("the comment's validate command names the suite folder", () => {
    expect(renderConfigErrors([], { ...DEFAULT_CONTEXT, suite: ESC })).toContain(`Run \`npx agent-replay validate --dir ${ESC_WORD}\` locally to check the suite before pushing.`);
    expect(renderConfigErrors([], { ...DEFAULT_CONTEXT, suite: NL })).toContain(`Run \`npx agent-replay validate --dir ${NL_WORD}\` locally`);
  });

  it('refusals of a flag: the value as given and the fix, each a word bash reads as the path', async () => {
    expect(windowsPathRefusal('C:\\s\u001bx', '--dir', '--dir .agent-replay', '/')).toContain(String.raw`--dir $'C:\\s\033x' is a Windows path (drive C:)`);
    const cwd = await tempDir('agent-replay-printed-');
    const io = { cwd } as CliIO;
    expect(() => checkOutputPaths({ out: 'out\\r\u001b.json' }, io)).toThrow(String.raw`--out $'out\\r\033.json': on this system a backslash is part of a file's name, not a separator, so this would write one file named $'out\\r\033.json': give --out $'out/r\033.json', with slashes`);
    await expect(resolveBase(`-${ESC}`, cwd, {})).rejects.toThrow(String.raw`--base $'-s\033[2Jx': a revision does not start with "-"`);
    // A suite folder outside a repository: named on the message's one line, a line break in its name shown as ` ⏎ `.
    await mkdir(join(cwd, 'a\nb'));
    await expect(resolveBase('main', join(cwd, 'a\nb'), {})).rejects.toThrow(`--base main: the suite folder ${join(cwd, 'a ⏎ b')} is not read with git (`);
    expect(keptPresetWarning({ dir: NL }, 'openai', 'native')).toContain(`run init again: npx agent-replay init --dir ${NL_WORD} --preset openai\n`);
    // A suite folder typed with backslashes that is nowhere: both names, each as bash reads it.
    const issue = suiteAboveIssue(cwd, `bots\\${ESC}`, 'x');
    expect(issue?.message).toBe(String.raw`no folder named $'bots\\s\033[2Jx' here, nor $'bots/s\033[2Jx': on this system a backslash is part of a folder's name, not a separator`);
    expect(issue?.fix).toContain(String.raw`npx agent-replay init --dir $'bots/s\033[2Jx' writes one`);
  });

  it("the CLI's usage errors and configuration issues show such a name escaped: nothing of it reaches the terminal as a control character", async () => {
    const cwd = await makeProject({ config: agentConfig('http://127.0.0.1:9') });
    // A usage error quotes the argument as given: before, its escape sequence was written to the terminal as it is.
    const usage = await cli(['report', '--results', 'r.json', `x${ESC}`], cwd);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain(String.raw`unexpected argument "xs\u001b[2Jx": --results takes one file; give each its own --results: --results r.json --results $'xs\033[2Jx'`);
    // A suite in such a folder, with a damaged baseline: its path escaped where the issue names it, and the fix's command as bash reads it.
    await mkdir(join(cwd, ESC, 'fixtures'), { recursive: true });
    await mkdir(join(cwd, ESC, 'baselines'));
    await writeFile(join(cwd, ESC, 'config.yml'), agentConfig('http://127.0.0.1:9'));
    await writeFile(join(cwd, ESC, 'fixtures', 'f.yml'), 'fixtures:\n  - { label: a, message: hi, assert: { contains: x } }\n');
    await writeFile(join(cwd, ESC, 'baselines', 'a.json'), '{bad');
    const issues = await cli(['validate', '--dir', ESC], cwd);
    expect(issues.code).toBe(2);
    expect(issues.stderr).toContain(String.raw`error: s\u001b[2Jx/baselines/a.json:1:2: invalid JSON`);
    expect(issues.stderr).toContain(String.raw`committed before the edit? ` + "`git checkout -- $'s\\033[2Jx/baselines/a.json'`");
    for (const r of [usage, issues]) expect(r.stderr).not.toContain('\u001b');
    // Without it, the suite is valid: validate's line names the folder escaped.
    await rm(join(cwd, ESC, 'baselines', 'a.json'));
    const valid = await cli(['validate', '--dir', ESC], cwd);
    expect(valid.stdout, valid.stderr).toBe(String.raw`s\u001b[2Jx: 1 fixture, 0 baselines, no configuration errors` + '\n');
  });

  it("report's refusal of two suites' records gives each suite's command with the file as bash reads it", async () => {
    const cwd = await makeProject({});
    const at = (suitePath: string, label: string): string => serializeRecord(run([fixture(label, { file: `${suitePath}/fixtures/suite.yml` })], { suitePath }));
    await writeFile(join(cwd, `sup${ESC}.json`), at('apps/support/.agent-replay', 'refund'));
    await writeFile(join(cwd, 'sales.json'), at('apps/sales/.agent-replay', 'pricing'));
    const r = await cli(['report', '--results', `sup${ESC}.json`, '--results', 'sales.json'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(String.raw`report each suite on its own: agent-replay report --results $'sups\033[2Jx.json', then agent-replay report --results sales.json`);
    expect(r.stderr).not.toContain('\u001b');
  });

  it("init in such a folder: each line names it escaped, each command as bash reads it", async () => {
    const cwd = await tempDir('agent-replay-printed-');
    const r = await cli(['init', '--dir', ESC], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(String.raw`created  s\u001b[2Jx/config.yml`);
    expect(r.stdout).toContain(`Check the suite:          npx agent-replay validate --dir ${ESC_WORD}\n`);
    expect(r.stdout).not.toContain('\u001b');
    expect(await readFile(join(cwd, ESC, 'config.yml'), 'utf8')).toContain('agent:');
  });
});
