#!/usr/bin/env node
// Shows a rendered PR comment the way a reviewer sees it: markdown -> HTML with cmark-gfm (GitHub's
// own parser), wrapped in GitHub-like CSS (diff blocks coloured; long words broken and wide tables
// scrolled as GitHub's markdown-body does), screenshotted by headless Chromium.
//
//   node scripts/screenshot-comment.mjs test/golden/mixed.comment.md /tmp/mixed.png [--open] [--width 1000] [--height 3000]
//
// --open expands every <details> (GitHub shows them collapsed). Needs `chromium` on PATH
// (Debian: apt-get install -y chromium) and the cmark-gfm dev dependency. Keep PNGs out of git.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import cmark from 'cmark-gfm';

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
  const chromium = spawnSync(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(dir, 'profile')}`,
      `--window-size=${width},${height}`,
      `--screenshot=${resolve(output)}`,
      `file://${html}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  process.stderr.write(withoutDbusNoise(chromium.stderr ?? ''));
  if (chromium.error !== undefined) throw chromium.error;
  if (chromium.status !== 0) {
    console.error(`chromium exited with ${chromium.status ?? chromium.signal}`);
    process.exit(1);
  }
  console.log(`${resolve(output)} (html: ${html})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
