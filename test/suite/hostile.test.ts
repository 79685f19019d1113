// Hostile files in a pull request: links out of the suite, binary files, files that produce
// thousands of problems. Real files and real symbolic links in temporary folders.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, loadSuite, type LoadResult } from '../../src/suite/index.js';
import { B, C, F, OK_FIXTURE, brief, repo } from './helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const SECRET = 'ghp_SECRETVALUEfromOUTSIDEthe_suite_0123';
const OUTSIDE_YAML = `label: stolen\nmessage: ${SECRET}\ntoken: ${SECRET}\n[unclosed ${SECRET}\n`;

/** Every character of every issue, to check that nothing of a refused file leaks. */
function allText(r: LoadResult): string {
  return [...r.errors, ...r.warnings].map(formatIssue).join('\n');
}

async function outsideFile(name: string, text: string): Promise<string> {
  const dir = await repo({ [name]: text });
  return path.join(dir, name);
}

async function loadAt(cwd: string, dir = '.agent-replay'): Promise<LoadResult> {
  return loadSuite({ dir, cwd, env: {} });
}

describe('symbolic links that lead out of the suite are refused, and not read', () => {
  it('a fixture linked to a file outside the repository', async () => {
    const target = await outsideFile('secrets.yml', OUTSIDE_YAML);
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.symlink(target, path.join(cwd, F, 'env.yml'));
    const r = await loadAt(cwd);
    expect(r.suite).toBeNull();
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), '<file>: the file resolves outside the suite folder <dir> (a symbolic link): refused, nothing was read from it');
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/env.yml: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it\n  fix: replace the link with the file itself, inside the suite folder .agent-replay`,
    ]);
    expect(allText(r)).not.toContain(SECRET);
    expect(allText(r)).not.toContain('stolen');
  });

  it('a fixture linked to /proc/self/environ quotes nothing of the environment', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.symlink('/proc/self/environ', path.join(cwd, F, 'env.yml'));
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([
      `${F}/env.yml:-: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`,
    ]);
    const text = allText(r);
    for (const value of [process.env.PATH, process.env.HOME].filter((v): v is string => !!v && v.length > 3)) expect(text).not.toContain(value);
  });

  it('config.yml and a baseline linked outside', async () => {
    const yml = await outsideFile('config.yml', `agent: { url: "https://x.example/${SECRET}" }\n`);
    const json = await outsideFile('b.json', `{"label": "ok", "reply": "${SECRET}"}`);
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.symlink(yml, path.join(cwd, C));
    await fs.mkdir(path.join(cwd, B));
    await fs.symlink(json, path.join(cwd, B, 'ok.json'));
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([
      `${C}:-: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`,
      `${B}/ok.json:-: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`,
    ]);
    expect(allText(r)).not.toContain(SECRET);
  });

  it('the fixtures or baselines folder linked outside: one error for the folder', async () => {
    const elsewhere = path.dirname(await outsideFile('x.yml', OUTSIDE_YAML));
    const cwd = await repo({ '.agent-replay/config.yml': '' });
    await fs.symlink(elsewhere, path.join(cwd, F));
    await fs.symlink(elsewhere, path.join(cwd, B));
    const r = await loadAt(cwd);
    expect(r.errors[0]!.fix).toBe('replace the link with the folder itself, inside the suite folder .agent-replay');
    expect(brief(r.errors)).toEqual([
      `${F}:-: the fixtures folder ${F} resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`,
      `${B}:-: the baselines folder ${B} resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`,
    ]);
    expect(allText(r)).not.toContain(SECRET);
  });

  it('the suite folder of the repository linked outside the repository', async () => {
    const other = await repo({ [`${F}/x.yml`]: OUTSIDE_YAML, 'config.yml': `x: ${SECRET}\n` });
    const cwd = await repo({ 'README.md': 'x' });
    await fs.symlink(path.join(other, '.agent-replay'), path.join(cwd, '.agent-replay'));
    const r = await loadAt(cwd);
    expect(r.errors.map(formatIssue)).toEqual([
      '.agent-replay: the suite folder .agent-replay resolves outside the repository (the working directory) (a symbolic link): refused, nothing was read from it\n  fix: replace the link with the folder itself, inside the repository (the working directory)',
    ]);
    expect(allText(r)).not.toContain(SECRET);
  });

  it('a link to elsewhere inside the suite folder is refused too, file or folder, since a pull request that edits the file it leads to changes no path of the suite', async () => {
    // The edit of a suite is compared by the paths a pull request changed (docs/action.md, "Suite
    // edited"): shared/greeting.yml weakened under fixtures/linked.yml would read as no edit.
    const cwd = await repo({ '.agent-replay/shared/greeting.yml': 'label: linked\nmessage: hi\n', '.agent-replay/shared/c.yml': '', '.agent-replay/shared/b.json': '{}', [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.symlink('../shared/greeting.yml', path.join(cwd, F, 'linked.yml'));
    await fs.symlink('shared/c.yml', path.join(cwd, C));
    await fs.mkdir(path.join(cwd, B));
    await fs.symlink('../shared/b.json', path.join(cwd, B, 'ok.json'));
    await fs.symlink('shared', path.join(cwd, '.agent-replay/personas'));
    const r = await loadAt(cwd);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), '<file>: the file is a symbolic link (to <file>): refused, nothing was read from it');
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}: the file is a symbolic link (to .agent-replay/shared/c.yml): refused, nothing was read from it\n  fix: replace the link with the file itself: a pull request's change to the file a link leads to is not compared with its base`,
      `${F}/linked.yml: the file is a symbolic link (to .agent-replay/shared/greeting.yml): refused, nothing was read from it\n  fix: replace the link with the file itself: a pull request's change to the file a link leads to is not compared with its base`,
      `${B}/ok.json: the file is a symbolic link (to .agent-replay/shared/b.json): refused, nothing was read from it\n  fix: replace the link with the file itself: a pull request's change to the file a link leads to is not compared with its base`,
      `.agent-replay/personas: the personas folder .agent-replay/personas is a symbolic link (to .agent-replay/shared): refused, nothing was read from it\n  fix: replace the link with the folder itself: a pull request's change to the folder a link leads to is not compared with its base`,
    ]);
  });

  it('a subfolder of fixtures or personas that is a link is refused, not passed over with its items unrun; a folder link says "the folder"', async () => {
    const elsewhere = path.dirname(await outsideFile('x.yml', OUTSIDE_YAML));
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE, '.agent-replay/shared/s.yml': 'label: shared\nmessage: hi\n', '.agent-replay/personas/p.yml': 'label: p\nopening: hi\nexpect: { criteria: [x] }\n' });
    await fs.symlink(elsewhere, path.join(cwd, F, 'billing'));
    await fs.symlink('../shared', path.join(cwd, '.agent-replay/personas/group'));
    const r = await loadAt(cwd);
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/billing: the folder resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it\n  fix: replace the link with the folder itself, inside the suite folder .agent-replay`,
      `.agent-replay/personas/group: the folder is a symbolic link (to .agent-replay/shared): refused, nothing was read from it\n  fix: replace the link with the folder itself: a pull request's change to the folder a link leads to is not compared with its base`,
    ]);
    expect(allText(r)).not.toContain(SECRET);
  });

  it('a link that leads to nothing is refused as a link, where it leads named inside the suite folder, not said to be a file that cannot be read', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.symlink('moved.yml', path.join(cwd, F, 'refund.yml'));
    await fs.symlink('/nonexistent/suite/config.yml', path.join(cwd, C));
    await fs.mkdir(path.join(cwd, B));
    await fs.symlink('../../elsewhere/ok.json', path.join(cwd, B, 'ok.json'));
    const r = await loadAt(cwd);
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it\n  fix: replace the link with the file itself, inside the suite folder .agent-replay`,
      `${F}/refund.yml: the file is a symbolic link (to ${F}/moved.yml, which does not exist): refused, nothing was read from it\n  fix: replace the link with the file itself: a pull request's change to the file a link leads to is not compared with its base`,
      `${B}/ok.json: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it\n  fix: replace the link with the file itself, inside the suite folder .agent-replay`,
    ]);
  });

  it('a fixtures, personas or baselines folder that holds a git repository of its own (a submodule) is refused: a pull request moves it to another commit without changing a suite path', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE, [`${F}/shared/refund.yml`]: 'label: refund\nmessage: hi\n', [`${B}/ok.json`]: '{}' });
    execFileSync('git', ['init', '-q', path.join(cwd, F, 'shared')]);
    await fs.writeFile(path.join(cwd, B, '.git'), 'gitdir: ../../.git/modules/baselines\n');
    quotedAndSaid(brief((await loadAt(cwd)).errors).join('\n'), 'the fixtures folder <dir> holds a git repository of its own (a submodule) in <folder>: refused, nothing was read from it');
    expect(brief((await loadAt(cwd)).errors)).toEqual([
      `${F}:-: the fixtures folder ${F} holds a git repository of its own (a submodule) in ${F}/shared: refused, nothing was read from it`,
      `${B}:-: the baselines folder ${B} holds a git repository of its own (a submodule) in ${B}: refused, nothing was read from it`,
    ]);
  });

  it('a suite folder reached through a link inside the repository is refused, naming the folder it leads to; one given explicitly elsewhere is read', async () => {
    const cwd = await repo({ [`config/agent-replay/fixtures/ok.yml`]: OK_FIXTURE });
    await fs.rename(path.join(cwd, 'config/agent-replay'), path.join(cwd, 'config/suite'));
    await fs.symlink('config/suite', path.join(cwd, '.agent-replay'));
    expect((await loadAt(cwd)).errors.map(formatIssue)).toEqual([
      ".agent-replay: the suite folder .agent-replay is reached through a symbolic link (.agent-replay): refused, nothing was read from it\n  fix: name the folder it leads to, config/suite, in --dir (the dir input in the Action): a pull request's change to the suite is compared with its base by the folder's own path",
    ]);
    await fs.symlink('config', path.join(cwd, 'apps'));
    expect(brief((await loadAt(cwd, 'apps/suite')).errors)).toEqual(['apps/suite:-: the suite folder apps/suite is reached through a symbolic link (apps): refused, nothing was read from it']);
    expect((await loadAt(cwd, 'config/suite')).errors).toEqual([]);

    const elsewhere = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    const explicit = await loadAt(cwd, path.join(elsewhere, '.agent-replay'));
    expect(explicit.errors).toEqual([]);
    expect(explicit.suite!.fixtures).toHaveLength(1);
  });

  it('config.yml linked to a device is refused, not taken for a missing config', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.symlink('/dev/zero', path.join(cwd, C));
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([`${C}:-: the file resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`]);
  });

  it('a named pipe does not stall the load: ignored as an entry, "not a regular file" as config.yml', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    execFileSync('mkfifo', [path.join(cwd, F, 'pipe.yml')]);
    expect((await loadAt(cwd)).errors).toEqual([]);
    // config.yml is opened by its name (a link to one, inside the suite folder, is refused before it is opened).
    execFileSync('mkfifo', [path.join(cwd, C)]);
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([`${C}:-: not a regular file`]);
  });
});

describe('an error about a file is clipped', () => {
  it('a 1 MB binary fixture is one issue, "not a text file", and the whole output stays small', async () => {
    const bytes = randomBytes(1024 * 1024);
    bytes[100] = 0; // random bytes almost surely hold NULs; make sure
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.writeFile(path.join(cwd, F, 'blob.yml'), bytes);
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([`${F}/blob.yml:-: not a text file: it contains NUL bytes, so it was not parsed`]);
    expect(allText(r).length).toBeLessThan(10_000);
  });

  it('invalid UTF-8 without NUL bytes is also not a text file, said at its first byte that is not UTF-8', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.writeFile(path.join(cwd, F, 'latin1.yml'), Buffer.concat([Buffer.from('label: cafe\nmessage: d\u00e9j\u00e0 \u2014 caf', 'utf8'), Buffer.from([0xe9, 0x20, 0xff, 0x0a])]));
    await fs.writeFile(path.join(cwd, F, 'first.yml'), Buffer.from([0xe9, 0x0a]));
    // Saved by a Windows editor with a byte-order mark and CRLF, then a Latin-1 letter pasted in: columns as an editor counts them, without the mark.
    await fs.writeFile(path.join(cwd, F, 'marked.yml'), Buffer.concat([Buffer.from('\uFEFFmessage: caf', 'utf8'), Buffer.from([0xe9, 0x0d, 0x0a]), Buffer.from('label: m\r\n')]));
    const r = await loadAt(cwd);
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`)).toEqual([
      `${F}/first.yml:1:1: not a text file: it is not valid UTF-8 (byte 0xE9), so it was not parsed`,
      `${F}/latin1.yml:2:20: not a text file: it is not valid UTF-8 (byte 0xE9), so it was not parsed`,
      `${F}/marked.yml:1:13: not a text file: it is not valid UTF-8 (byte 0xE9), so it was not parsed`,
    ]);
    expect(r.errors[0]!.fix).toContain('an editor may have saved it as Latin-1 or Windows-1252');
  });

  it('a 1 MB text file with thousands of problems: 20 per file, then "and N more", and each text clipped', async () => {
    const items = Array.from({ length: 8000 }, (_, i) => `  - { label: "bad label ${i}!", message: hi, mesage: typo }`);
    const big = `fixtures:\n${items.join('\n')}\n`;
    expect(big.length).toBeGreaterThan(400_000);
    const cwd = await repo({ [`${F}/many.yml`]: big, [`${F}/tag.yml`]: `label: t\nmessage: !${'x'.repeat(330_000)} hi\n`, [`${F}/ok.yml`]: OK_FIXTURE });
    const r = await loadAt(cwd);
    const many = r.errors.filter((e) => e.file === `${F}/many.yml`);
    expect(many).toHaveLength(21);
    expect(many[20]).toEqual({
      file: `${F}/many.yml`,
      line: null,
      column: null,
      message: 'and 15,980 more errors in this file',
      fix: 'fix the ones above and run validate again to see the rest',
      more: 15980,
    });
    quotedAndSaid(many[20]?.message ?? '', 'and N more errors in this file', { N: '15,980' });
    const tag = r.errors.filter((e) => e.file === `${F}/tag.yml`);
    expect(tag).toHaveLength(1);
    expect(tag[0]!.message.length).toBeLessThanOrEqual(300);
    expect(tag[0]!.message).toMatch(/^invalid YAML: unknown tag !<!xxxx.*\u2026$/);
    expect(allText(r).length).toBeLessThan(10_000);
  });

  it('a fix\'s corrected line is never cut: whole up to 1,000 characters, else said too long to show, the output still small', async () => {
    const long = `don't ${'x'.repeat(400)}`;
    const huge = `don't ${'x'.repeat(1_000_000)}`;
    const cwd = await repo({ [`${F}/long.yml`]: `label: l\nmessage: '${long}'\n`, [`${F}/huge.yml`]: `label: h\nmessage: '${huge}'\n`, [`${F}/ok.yml`]: OK_FIXTURE });
    const r = await loadAt(cwd);
    const fixOf = (file: string): string => r.errors.find((e) => e.file === `${F}/${file}`)?.fix ?? '';
    // Copied as written, the line loads.
    const fixed = /\n {4}(message: .*)$/.exec(fixOf('long.yml'))?.[1] ?? '';
    expect(fixOf('long.yml')).toBe(`write each ' inside the value twice (''), so that line 2 reads\n    ${fixed}`);
    expect(fixed).toBe(`message: '${long.replace(/'/g, "''")}'`);
    expect((await loadAt(await repo({ [`${F}/long.yml`]: `label: l\n${fixed}\n` }))).suite!.fixtures[0]!.message).toBe(long);
    // A 1 MB line is not shown, and not shown cut: no line of the fix is a line to copy.
    expect(fixOf('huge.yml')).toBe("write each ' inside the value twice (''), so that line 2 reads\n  (the line as it should read, 1,000,018 characters, is too long to show here)");
    expect(allText(r).length).toBeLessThan(10_000);
  });

  it('hundreds of bad files: at most 200 issues in all, then one that counts the rest', async () => {
    const files: Record<string, string> = { [`${F}/ok.yml`]: OK_FIXTURE };
    for (let i = 0; i < 300; i++) files[`${F}/bad-${String(i).padStart(3, '0')}.yml`] = 'label: [unclosed\n';
    const r = await loadAt(await repo(files));
    expect(r.errors).toHaveLength(201);
    expect(r.errors[199]!.file).toBe(`${F}/bad-199.yml`);
    expect(r.errors[200]).toEqual({
      file: 'all files',
      line: null,
      column: null,
      message: 'and 100 more errors in 100 files not shown in full',
      fix: 'fix the ones above and run validate again to see the rest',
      more: 100,
    });
  });

  it('100,000 nested brackets: one issue at the depth limit, no stack overflow', async () => {
    const n = 100_000;
    const cwd = await repo({ [`${F}/deep.yml`]: `label: deep\nmessage: ${'['.repeat(n)}${']'.repeat(n)}\n`, [`${F}/ok.yml`]: OK_FIXTURE });
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([`${F}/deep.yml:2: invalid YAML: lists or mappings are nested more than 100 levels deep`]);
  });

  it('a file over 8 MiB is refused without being parsed, its size and the limit said in MiB', async () => {
    const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
    await fs.writeFile(path.join(cwd, F, 'huge.yml'), `message: "${'a'.repeat(8 * 1024 * 1024)}"\n`);
    const r = await loadAt(cwd);
    expect(brief(r.errors)).toEqual([`${F}/huge.yml:-: the file is 8.1 MiB, more than the 8 MiB a suite file may have`]);
  });
});
