// scripts/screenshot-comment.mjs: Chromium's stderr without its D-Bus lines (printed by the dozen on
// a machine without D-Bus; every other line, a real error among them, is kept), and the screenshot
// checked after Chromium exits: Chromium exits 0 when it could not write the file, and the script
// said where the PNG was all the same.

import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputProblem, screenshotProblem, withAutoDirection, withoutDbusNoise } from '../../scripts/screenshot-comment.mjs';
import { CHROMIUM, SKIP_BROWSER_TESTS } from '../support/browser.js';
import { endWithTest } from '../support/children.js';
import { tempDir } from '../support/temp.js';

describe('scripts/screenshot-comment.mjs, withAutoDirection', () => {
  it('sets dir="auto" where GitHub does: paragraphs, lists, headings, raw divs and the box of a diff block; a direction of its own is kept', () => {
    const html = '<h3>T</h3>\n<p>a</p>\n<ul>\n<li>x</li>\n</ul>\n<ol start="2">\n<li>y</li>\n</ol>\n<div dir="rtl">k</div>\n<pre class="diff"><code>- x</code></pre>\n<pre><code>y</code></pre>\n<details><summary>s</summary></details>';
    expect(withAutoDirection(html)).toBe(
      '<h3 dir="auto">T</h3>\n<p dir="auto">a</p>\n<ul dir="auto">\n<li>x</li>\n</ul>\n<ol dir="auto" start="2">\n<li>y</li>\n</ol>\n<div dir="rtl">k</div>\n<div class="highlight" dir="auto"><pre class="diff"><code>- x</code></pre></div>\n<pre><code>y</code></pre>\n<details><summary>s</summary></details>',
    );
  });
});

describe('scripts/screenshot-comment.mjs, withoutDbusNoise', () => {
  it("leaves out Chromium's D-Bus lines and keeps the others, in order", () => {
    // As Chromium 14x on Debian prints them in a container with no D-Bus.
    const stderr = [
      '/usr/bin/chromium: 9: [: 25276194816: unexpected operator',
      '[31136:31164:1207/024113.603174:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory',
      '[31136:31136:1207/024114.448298:ERROR:dbus/object_proxy.cc:572] Failed to call method: org.freedesktop.DBus.NameHasOwner: object_path= /org/freedesktop/DBus: unknown error type: ',
      '[31136:31136:1207/024114.500000:ERROR:headless_shell.cc:310] Failed to write file /nowhere/shot.png: No such file or directory (2)',
      '[31136:31164:1207/024114.460797:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Could not parse server address: Unknown address type',
      '',
    ].join('\n');
    expect(withoutDbusNoise(stderr)).toBe(
      ['/usr/bin/chromium: 9: [: 25276194816: unexpected operator', '[31136:31136:1207/024114.500000:ERROR:headless_shell.cc:310] Failed to write file /nowhere/shot.png: No such file or directory (2)', ''].join('\n'),
    );
    // Nothing but D-Bus lines: nothing at all.
    expect(withoutDbusNoise('[1:2:1207/024113.603174:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n')).toBe('');
    // A line that only mentions dbus is not one of them.
    expect(withoutDbusNoise('error: could not start dbus/bus.cc tests\n')).toBe('error: could not start dbus/bus.cc tests\n');
  });
});

/** The first bytes of every PNG, then the start of an IHDR chunk. */
const PNG_START = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

describe('scripts/screenshot-comment.mjs, screenshotProblem', () => {
  it('passes a PNG; names the path and the fix for no file, a missing folder, a folder, an empty file and a file that is not a PNG', async () => {
    const dir = await tempDir('agent-replay-shot-test-');
    const png = join(dir, 'ok.png');
    await writeFile(png, PNG_START);
    expect(screenshotProblem(png)).toBeUndefined();

    const missingFolder = join(dir, 'shots');
    expect(screenshotProblem(join(missingFolder, 'mixed.png'))).toBe(
      `chromium exited 0 but wrote no screenshot: the folder ${missingFolder} does not exist. Create it (mkdir -p ${missingFolder}) or name a PNG in a folder that exists.`,
    );
    expect(screenshotProblem(join(dir, 'never.png'))).toBe(`chromium exited 0 but wrote no screenshot at ${join(dir, 'never.png')}: its stderr above says why. Check that ${dir} can be written.`);

    const folder = join(dir, 'a-folder');
    await mkdir(folder);
    expect(screenshotProblem(folder)).toBe(`${folder} is a folder: name the PNG to write in it, such as ${join(folder, 'comment.png')}.`);
    expect(outputProblem(folder)).toBe(`${folder} is a folder: name the PNG to write in it, such as ${join(folder, 'comment.png')}.`);

    const empty = join(dir, 'empty.png');
    await writeFile(empty, '');
    expect(screenshotProblem(empty)).toBe(`chromium exited 0 but the screenshot ${empty} is empty (0 bytes): check that the disk has room and run the command again.`);

    const html = join(dir, 'page.png');
    await writeFile(html, '<!doctype html><p>not a screenshot</p>');
    expect(screenshotProblem(html)).toBe(`chromium exited 0 but ${html} is not a PNG (it does not start with PNG's signature): run the command again; chromium's stderr above may say why.`);
    // Seven bytes of the signature are not a PNG either.
    const short = join(dir, 'short.png');
    await writeFile(short, PNG_START.subarray(0, 7));
    expect(screenshotProblem(short)).toBe(`chromium exited 0 but ${short} is not a PNG (it does not start with PNG's signature): run the command again; chromium's stderr above may say why.`);
  });

  it('before Chromium starts: refuses a folder and a name not ending in .png (Chromium writes a .jpg as a JPEG, a name with no ending not at all)', async () => {
    const dir = await tempDir('agent-replay-shot-test-');
    expect(outputProblem(join(dir, 'mixed.png'))).toBeUndefined();
    expect(outputProblem(join(dir, 'MIXED.PNG'))).toBeUndefined();
    expect(outputProblem(join(dir, 'mixed.jpg'))).toBe(`the screenshot's name must end in .png, as chromium picks the image type from it: ${join(dir, 'mixed.jpg')}. Name it ${join(dir, 'mixed.png')}.`);
    expect(outputProblem(join(dir, 'shot'))).toBe(`the screenshot's name must end in .png, as chromium picks the image type from it: ${join(dir, 'shot')}. Name it ${join(dir, 'shot.png')}.`);
    expect(outputProblem(dir)).toBe(`${dir} is a folder: name the PNG to write in it, such as ${join(dir, 'comment.png')}.`);
  });

  it.skipIf(SKIP_BROWSER_TESTS)(
    'the script, given a folder that does not exist: Chromium exits 0 and writes nothing, and the script says so and exits 1, printing no path as done (skipped without headless Chromium)',
    { timeout: 60_000 },
    async () => {
      const dir = await tempDir('agent-replay-shot-run-');
      const folder = join(dir, 'no-such-folder');
      const out = join(folder, 'mixed.png');
      const env = { ...process.env, AGENT_REPLAY_CHROMIUM: CHROMIUM.found ? CHROMIUM.path : 'chromium' };
      const child = spawn(process.execPath, ['scripts/screenshot-comment.mjs', 'test/golden/mixed.comment.md', out], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      endWithTest(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toContain(`chromium exited 0 but wrote no screenshot: the folder ${folder} does not exist. Create it (mkdir -p ${folder}) or name a PNG in a folder that exists.\n`);
    },
  );
});
