// Acceptance rewriting a baseline keeps the file's line endings and byte-order mark, so that the
// diff of the acceptance shows the lines that changed, not every line (docs/fixtures.md, "Line
// endings and byte-order marks"). Real files in a real git repository, checked out as on Windows.

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBaselines } from '../../src/accept/write.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { checkBaselineFile } from '../../src/suite/baselines.js';
import { decideAcceptance } from '../../src/evaluate/acceptance.js';
import type { Baseline } from '../../src/types.js';
import { tempDir } from '../support/temp.js';

const baseline = (reply: string, label = 'multi'): Baseline => ({
  label,
  message: 'hello',
  reply,
  route: null,
  verdict: 'pass',
  acceptedAt: '2026-12-01T12:00:00.000Z',
  commit: null,
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });

describe('accept over an existing baseline file', () => {
  it("keeps CRLF line endings and a byte-order mark; a new file takes the style of the folder's first baseline", async () => {
    const suite = await tempDir('agent-replay-eol-');
    const dir = join(suite, 'baselines');
    await mkdir(dir);
    const lf = serializeBaseline(baseline('Line one\nLine two'));
    await writeFile(join(dir, 'crlf.json'), lf.replace('multi', 'crlf').replace(/\n/g, '\r\n'));
    await writeFile(join(dir, 'bom.json'), `\uFEFF${lf.replace('multi', 'bom').replace(/\n/g, '\r\n')}`);
    await writeFile(join(dir, 'lf.json'), lf.replace('multi', 'lf'));
    // A link planted at a baseline's place is not read through: the target outside keeps its bytes and says nothing.
    const outside = join(suite, 'outside.txt');
    await writeFile(outside, 'a\r\nb\r\n');
    await symlink(outside, join(dir, 'link.json'));

    const next = (label: string) => baseline('Line one\nLine two, reworded', label);
    await writeBaselines(dir, ['crlf', 'bom', 'lf', 'new', 'link'].map(next));

    const expected = (label: string) => serializeBaseline(next(label));
    expect(await readFile(join(dir, 'crlf.json'), 'utf8')).toBe(expected('crlf').replace(/\n/g, '\r\n'));
    expect(await readFile(join(dir, 'bom.json'), 'utf8')).toBe(`\uFEFF${expected('bom').replace(/\n/g, '\r\n')}`);
    expect(await readFile(join(dir, 'lf.json'), 'utf8')).toBe(expected('lf'));
    // New, and the link (no baseline of its own to keep): as bom.json, the folder's first by name, was (the Action chooses so too).
    expect(await readFile(join(dir, 'new.json'), 'utf8')).toBe(`\uFEFF${expected('new').replace(/\n/g, '\r\n')}`);
    expect(await readFile(join(dir, 'link.json'), 'utf8')).toBe(`\uFEFF${expected('link').replace(/\n/g, '\r\n')}`);
    expect(await readFile(outside, 'utf8')).toBe('a\r\nb\r\n');
  });

  it('a new baseline in a folder of CRLF baselines is CRLF; in an empty or missing folder, LF without a mark', async () => {
    const suite = await tempDir('agent-replay-eol-new-');
    const dir = join(suite, 'baselines');
    await mkdir(dir);
    // Only .json regular files count: not a folder named like one, not another file.
    await mkdir(join(dir, 'a-folder.json'));
    await writeFile(join(dir, 'README.md'), '\uFEFFnotes\n');
    await writeFile(join(dir, 'b.json'), serializeBaseline(baseline('Hi', 'b')).replace(/\n/g, '\r\n'));
    await writeFile(join(dir, 'c.json'), serializeBaseline(baseline('Hi', 'c')));
    await writeBaselines(dir, [baseline('Hello', 'a'), baseline('Hello', 'd')]);
    for (const label of ['a', 'd']) expect(await readFile(join(dir, `${label}.json`), 'utf8')).toBe(serializeBaseline(baseline('Hello', label)).replace(/\n/g, '\r\n'));

    const fresh = join(await tempDir('agent-replay-eol-fresh-'), 'baselines');
    await writeBaselines(fresh, [baseline('Hello', 'a')]);
    expect(await readFile(join(fresh, 'a.json'), 'utf8')).toBe(serializeBaseline(baseline('Hello', 'a')));
  });

  it('in a repository that stores CRLF, and in a core.autocrlf=true checkout, the diff is the changed lines only', async () => {
    const origin = await tempDir('agent-replay-eol-git-');
    git(origin, 'init', '-q');
    await mkdir(join(origin, 'baselines'));
    // Committed from Windows without autocrlf: the repository holds CRLF.
    await writeFile(join(origin, 'baselines', 'stored.json'), serializeBaseline(baseline('Line one\nLine two', 'stored')).replace(/\n/g, '\r\n'));
    await writeFile(join(origin, 'baselines', 'multi.json'), serializeBaseline(baseline('Line one\nLine two')));
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'baselines');
    const windows = join(await tempDir('agent-replay-eol-win-'), 'w');
    // As a Windows checkout: the clone's own config says core.autocrlf=true.
    git(origin, 'clone', '-q', '--config', 'core.autocrlf=true', origin, windows);
    expect(await readFile(join(windows, 'baselines', 'multi.json'), 'utf8')).toContain('\r\n');

    for (const repo of [origin, windows]) {
      const accepted = [baseline('Line one\nLine 2', 'stored'), baseline('Line one\nLine 2')];
      await writeBaselines(join(repo, 'baselines'), accepted);
      // Only the reply's line changed in each file: one line out, one in.
      expect(git(repo, 'diff', '--numstat').trim().split('\n').sort()).toEqual(['1\t1\tbaselines/multi.json', '1\t1\tbaselines/stored.json']);
      // Read back, CRLF or not, each is the baseline accepted: the same reply, so accepting it again is "unchanged", not a rewrite.
      for (const b of accepted) {
        const read = checkBaselineFile(`baselines/${b.label}.json`, b.label, await readFile(join(repo, 'baselines', `${b.label}.json`), 'utf8'));
        expect(read.errors).toEqual([]);
        expect(read.baseline).toEqual(b);
        const record = { label: b.label, errored: false, verdict: 'pass' as const, reply: b.reply, route: null, baseline: read.baseline, attempts: undefined };
        expect(decideAcceptance(record, '2026-12-02T00:00:00.000Z', null).kind).toBe('unchanged');
      }
    }
  });
});
