#!/usr/bin/env node
// Shows a rendered PR comment the way a reviewer sees it: markdown -> HTML with cmark-gfm (GitHub's
// own parser), wrapped in GitHub-like CSS (diff blocks coloured; long words broken and wide tables
// scrolled as GitHub's markdown-body does; dir="auto" where GitHub sets it: withAutoDirection),
// screenshotted by headless Chromium.
//
//   node scripts/screenshot-comment.mjs test/golden/mixed.comment.md /tmp/mixed.png [--open] [--width 1000] [--height 3000]
//
// --open expands every <details> (GitHub shows them collapsed). Needs `chromium` on PATH
// (Debian: apt-get install -y chromium), or AGENT_REPLAY_CHROMIUM=/path/to/chrome, and the
// cmark-gfm dev dependency. Keep PNGs out of git. Chromium exits 0 when it cannot write the PNG (a
// folder that does not exist): the script checks the file and exits 1 when it is not a PNG.

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import cmark from 'cmark-gfm';
import { CHROMIUM_ARGS } from './chromium-args.mjs';

/**
 * Chromium's stderr without its D-Bus lines: on a machine with no D-Bus (a container, CI) it logs
 * `ERROR:dbus/bus.cc` and `ERROR:dbus/object_proxy.cc` lines by the dozen, which say nothing about
 * the screenshot. Every other line, a real error among them, is kept.
 */
export function withoutDbusNoise(stderr) {
  return stderr
    .split('\n')
    .filter((line) => !/^\[[\d:./]+:ERROR:dbus\//.test(line))
    .join('\n');
}

/** The eight bytes every PNG starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * What is wrong with the screenshot's path before Chromium starts, or undefined: a folder, or a
 * name not ending in .png (Chromium takes the image's type from the ending: a .jpg is written as a
 * JPEG, a name with no ending not at all).
 */
export function outputProblem(path) {
  if (existsSync(path) && statSync(path).isDirectory()) return `${path} is a folder: name the PNG to write in it, such as ${join(path, 'comment.png')}.`;
  if (/\.png$/i.test(path)) return undefined;
  return `the screenshot's name must end in .png, as chromium picks the image type from it: ${path}. Name it ${path.replace(/\.[^./]*$/, '')}.png.`;
}

/**
 * What is wrong with the screenshot Chromium was to write at `path` (absolute), or undefined for a
 * file that starts with PNG's signature. Chromium exits 0 when it could not write the file: it says
 * `Failed to write file` on its stderr, and writes nothing.
 */
export function screenshotProblem(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    const folder = dirname(path);
    if (!existsSync(folder)) return `chromium exited 0 but wrote no screenshot: the folder ${folder} does not exist. Create it (mkdir -p ${folder}) or name a PNG in a folder that exists.`;
    return `chromium exited 0 but wrote no screenshot at ${path}: its stderr above says why. Check that ${folder} can be written.`;
  }
  if (stat.isDirectory()) return outputProblem(path);
  if (stat.size === 0) return `chromium exited 0 but the screenshot ${path} is empty (0 bytes): check that the disk has room and run the command again.`;
  const start = Buffer.alloc(PNG_SIGNATURE.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, start, 0, start.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!start.equals(PNG_SIGNATURE)) return `chromium exited 0 but ${path} is not a PNG (it does not start with PNG's signature): run the command again; chromium's stderr above may say why.`;
  return undefined;
}

/**
 * `html` (cmark-gfm's, diff blocks already `<pre class="diff">`) with dir="auto" where GitHub's
 * rendering of a comment has it: on each paragraph, list, heading and raw `<div>`, and on the box
 * around a code block of a highlighted language (```diff), as pages saved from github.com show
 * (`<p dir="auto">`, `<ul dir="auto">`, `<div class="markdown-heading" dir="auto"><h3 dir="auto">`,
 * `<div class="highlight highlight-source-diff ..." dir="auto"><pre>`). Each such element takes the
 * direction of its first strong character: a line that starts with right-to-left text is drawn right
 * to left. An element that names its own direction keeps it.
 */
export function withAutoDirection(html) {
  return html
    .replace(/<(p|ul|ol|h[1-6]|div)(?=[\s>])(?![^>]*\sdir=)/g, '<$1 dir="auto"')
    .replace(/<pre class="diff">([\s\S]*?)<\/pre>/g, '<div class="highlight" dir="auto"><pre class="diff">$1</pre></div>');
}

function main() {
  const args = process.argv.slice(2);
  const flag = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const [input, output = '/tmp/comment.png'] = args.filter((a, i) => !a.startsWith('--') && !['--width', '--height'].includes(args[i - 1]));
  if (!input) {
    console.error('usage: node scripts/screenshot-comment.mjs COMMENT.md OUT.png [--open] [--width 1000] [--height 3000]');
    return process.exit(2);
  }
  const open = args.includes('--open');
  const width = Number(flag('--width', '1000'));
  const height = Number(flag('--height', '3000'));

  const markdown = readFileSync(input, 'utf8');
  let body = cmark.renderHtmlSync(markdown, {
    unsafe: true,
    extensions: { table: true, strikethrough: true, tagfilter: true, autolink: true, tasklist: true },
  });
  // GitHub colours ```diff blocks line by line.
  body = body.replace(/<pre><code class="language-diff">([\s\S]*?)<\/code><\/pre>/g, (_, code) => {
    const lines = code.replace(/\n$/, '').split('\n').map((line) => {
      const cls = line.startsWith('+') ? 'ins' : line.startsWith('-') ? 'del' : line.startsWith('@@') ? 'meta' : '';
      return `<span class="${cls}">${line}</span>`;
    });
    return `<pre class="diff"><code>${lines.join('\n')}</code></pre>`;
  });
  body = withAutoDirection(body);
  if (open) body = body.replace(/<details>/g, '<details open>');

  const css = `
  body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
  .comment { max-width: 880px; margin: 16px auto; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 16px 24px; word-wrap: break-word; }
  h3 { font-size: 1.25em; margin: 24px 0 16px; } h4 { font-size: 1em; margin: 24px 0 16px; }
  p, table, pre, details, blockquote { margin: 0 0 16px; }
  a { color: #0969da; text-decoration: none; }
  code { font: 85% ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace; background: #eff2f5; padding: .2em .4em; border-radius: 6px; }
  pre { background: #f6f8fa; padding: 16px; border-radius: 6px; overflow: auto; }
  pre code { background: none; padding: 0; font-size: 85%; }
  pre.diff .ins { color: #116329; background: #dafbe1; display: inline-block; width: 100%; }
  pre.diff .del { color: #82071e; background: #ffebe9; display: inline-block; width: 100%; }
  pre.diff .meta { color: #8250df; }
  table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto; } th, td { border: 1px solid #d1d9e0; padding: 6px 13px; } tr:nth-child(2n) { background: #f6f8fa; }
  blockquote { color: #59636e; border-left: .25em solid #d1d9e0; padding: 0 1em; margin-left: 0; }
  hr { border: 0; height: .25em; background: #d1d9e0; }
  summary { cursor: pointer; }
  `;
  const dir = mkdtempSync(join(tmpdir(), 'agent-replay-shot-'));
  const html = join(dir, 'comment.html');
  writeFileSync(html, `<!doctype html><meta charset="utf-8"><style>${css}</style><div class="comment">${body}</div>`);
  const out = resolve(output);
  const before = outputProblem(out);
  if (before !== undefined) {
    console.error(before);
    return process.exit(2);
  }
  // A screenshot of an earlier run left there would pass for this one's.
  if (existsSync(out) && statSync(out).isFile()) rmSync(out);
  const browser = process.env.AGENT_REPLAY_CHROMIUM || 'chromium';
  const chromium = spawnSync(
    browser,
    [...CHROMIUM_ARGS, `--user-data-dir=${join(dir, 'profile')}`, `--window-size=${width},${height}`, `--screenshot=${out}`, `file://${html}`],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  process.stderr.write(withoutDbusNoise(chromium.stderr ?? ''));
  if (chromium.error?.code === 'ENOENT') {
    console.error(
      browser === 'chromium'
        ? 'chromium is not on PATH: apt-get install -y chromium (Debian/Ubuntu), or set AGENT_REPLAY_CHROMIUM=/path/to/chrome.'
        : `AGENT_REPLAY_CHROMIUM=${browser} names no executable: set it to a Chromium or Chrome, or unset it to use chromium on PATH.`,
    );
    return process.exit(1);
  }
  if (chromium.error !== undefined) throw chromium.error;
  if (chromium.status !== 0) {
    console.error(`chromium exited with ${chromium.status ?? chromium.signal}`);
    return process.exit(1);
  }
  const problem = screenshotProblem(out);
  if (problem !== undefined) {
    console.error(problem);
    return process.exit(1);
  }
  console.log(`${out} (html: ${html})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
