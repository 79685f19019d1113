// The commands the comment gives for a fork's pull request, run for real in a clone of a "fork"
// (see test/support/fork-clone.ts).

import { cp, readFile, rm } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { forkCommands, stageBaselineFiles } from '../../src/action/accept.js';
import { commandsBlock } from '../../src/report/blocks.js';
import { git, pushed, runCommands, setUpFork as setUp } from '../support/fork-clone.js';
import { execFileSync } from 'node:child_process';
import { inStyleOf, LF_NO_BOM, type FileStyle } from '../../src/accept/file-style.js';

const files: { path: string; contents: string; style?: FileStyle }[] = [
  { path: '.agent-replay/baselines/greeting.json', contents: '{\n  "label": "greeting",\n  "reply": "Welcome!"\n}\n' },
  { path: '.agent-replay/baselines/refund-policy.json', contents: '{\n  "label": "refund-policy",\n  "reply": "It\'s 30 days.\\nAGENT_REPLAY_EOF"\n}\n' },
];

const styledFiles = [
  { path: '.agent-replay/baselines/crlf.json', contents: '{\n  "label": "crlf"\n}\n', style: { crlf: true, bom: false } },
  { path: '.agent-replay/baselines/marked-crlf.json', contents: '{\n  "label": "marked-crlf",\n  "reply": "Hi"\n}\n', style: { crlf: true, bom: true } },
  { path: '.agent-replay/baselines/marked.json', contents: '{\n  "label": "marked"\n}\n', style: { crlf: false, bom: true } },
];

describe('fork instructions, run in a real clone', () => {
  it('downloads the artifact from the base repository and puts every file in the baselines folder, over existing ones', async () => {
    const s = await setUp('feature', { '.agent-replay/baselines/greeting.json': '{"old": true}\n', '.agent-replay/config.yml': 'agent: {}\n' });
    // What the accept job uploads, stored the way the artifact service stores it.
    const staged = await stageBaselineFiles(files);
    onTestFinished(() => rm(staged.root, { recursive: true, force: true }));
    const name = 'agent-replay-baselines-1111111111111111111111111111111111111111';
    for (const p of staged.paths) await cp(p, join(s.artifacts, '2002', name, relative(staged.root, p)), { recursive: true });

    const commands = forkCommands({ files, headRef: 'feature', baselinesDir: '.agent-replay/baselines', download: { runId: '2002', repo: 'octo/shop', artifactName: name } });
    expect(commands).toContain(`gh run download 2002 -R 'octo/shop' -n '${name}' -D "$tmp"`);
    // The clone is on the fork's default branch, its files checked out, as its owner has it: the commands switch to the pull request's branch.
    expect(git(s.clone, 'branch', '--show-current')).toBe('main');
    expect(readFileSync(join(s.clone, '.agent-replay/baselines/greeting.json'), 'utf8')).toBe('{"old": true}\n');
    const r = runCommands(s, commands);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(s.ghLog, 'utf8')).toContain('-R octo/shop');
    for (const f of files) expect(pushed(s, 'feature', f.path) + '\n').toBe(f.contents);
    expect(git(s.origin, 'log', '-1', '--format=%s', 'refs/heads/feature')).toBe('Accept agent-replay baselines');
    // Nothing else was added: no download folder, no stray files.
    expect(git(s.origin, 'ls-tree', '-r', '--name-only', 'refs/heads/feature').split('\n').sort()).toEqual([
      '.agent-replay/baselines/greeting.json',
      '.agent-replay/baselines/refund-policy.json',
      '.agent-replay/config.yml',
      'README.md',
    ]);
    expect(git(s.clone, 'branch', '--show-current')).toBe('feature');
    expect(git(s.clone, 'status', '--porcelain')).toBe('');
  });

  it('creates a missing baselines folder (a custom suite dir) when the files come inline, each written in its style', async () => {
    const s = await setUp("o'brien/fix", { 'suite/agent/config.yml': 'agent: {}\n' });
    // LF, then as a repository may store them: CRLF, CRLF with a mark, a mark alone (docs/fixtures.md, "Line endings and byte-order marks").
    const inline = [...files, ...styledFiles].map((f) => ({ ...f, path: f.path.replace('.agent-replay', 'suite/agent') }));
    expect(existsSync(join(s.clone, 'suite/agent/baselines'))).toBe(false);
    const commands = forkCommands({ files: inline, headRef: "o'brien/fix", baselinesDir: 'suite/agent/baselines', download: null });
    // The comment's text keeps no carriage return nor mark: the commands write them.
    expect(commands).not.toMatch(/\r|\uFEFF/);
    const r = runCommands(s, commands);
    expect(r.code, r.stderr).toBe(0);
    // The bytes as pushed, not as a checkout shows them.
    for (const f of inline) expect(execFileSync('git', ['cat-file', 'blob', `refs/heads/o'brien/fix:${f.path}`], { cwd: s.origin, encoding: 'utf8' })).toBe(inStyleOf(f.style ?? LF_NO_BOM, f.contents));
    expect(readFileSync(s.ghLog, 'utf8')).toBe(''); // gh was not needed
  });

  it('a suite folder with a control character and a line break: the commands as the comment shows them write the files into that folder', async () => {
    // Before, the folder was single-quoted with the character in it, and the comment's code block drops a control character: `mkdir -p 's[2J...'` made another folder.
    const folder = 's\u001b[2J\nx';
    const s = await setUp('feature', { [`${folder}/config.yml`]: 'agent: {}\n' });
    const inline = files.map((f) => ({ ...f, path: f.path.replace('.agent-replay', folder) }));
    const block = commandsBlock(forkCommands({ files: inline, headRef: 'feature', baselinesDir: `${folder}/baselines`, download: null }));
    // The block holds the folder's name with neither character in it, each written in octal.
    expect(block).not.toContain('\u001b');
    expect(block).toContain(String.raw`mkdir -p $'s\033[2J\012x/baselines'`);
    const r = runCommands(s, block.split('\n').slice(1, -1).join('\n'));
    expect(r.code, r.stderr).toBe(0);
    for (const f of inline) expect(execFileSync('git', ['cat-file', 'blob', `refs/heads/feature:${f.path}`], { cwd: s.origin, encoding: 'utf8' })).toBe(f.contents);
  });

  it('the artifact holds the files flat, named by label, each in its style (the commands copy them as they are)', async () => {
    const staged = await stageBaselineFiles([...files, ...styledFiles]);
    onTestFinished(() => rm(staged.root, { recursive: true, force: true }));
    const names = ['crlf.json', 'greeting.json', 'marked-crlf.json', 'marked.json', 'refund-policy.json'];
    expect(readdirSync(staged.root).sort()).toEqual(names);
    expect(staged.paths.map((p) => relative(staged.root, p)).sort()).toEqual(names);
    for (const f of styledFiles) expect(readFileSync(join(staged.root, f.path.split('/').at(-1)!), 'utf8')).toBe(inStyleOf(f.style, f.contents));
  });
});

