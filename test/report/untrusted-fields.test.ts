// Record fields a renderer used to write without their context's escaping (an audit of untrusted
// text, docs/security.md): the footer's tool name, a reworded item's brief line, a file reference
// without a link, and the gate's reason on stderr and in the Action's failure. Each is rendered
// with GitHub's own parser (cmark-gfm) or printed as the CLI prints it.

import { describe, expect, it } from 'vitest';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { rewordedBlock } from '../../src/report/items.js';
import { fileRefHtml } from '../../src/report/item-parts.js';
import { itemView } from '../../src/report/model.js';
import { githubHtml } from './helpers.js';
import { ctx, fixture, run } from './fixtures.js';
import { differing } from './meaning-fixtures.js';
import { repeated, withRunStats } from './stats-fixtures.js';

const HOSTILE_MARKDOWN = '![](http://evil.example/x.png) [x](javascript:alert(1)) ~~strike~~ <https://evil.example>';

/** Every link and image GitHub would draw from the HTML. */
const links = (html: string): string[] => [...html.matchAll(/<(?:a [^>]*href|img [^>]*src)="([^"]*)"/g)].map((m) => m[1] as string);

describe('untrusted record fields are escaped for the context they are written in', () => {
  it("the footer's tool name and version (a record from another run, an artifact) are markdown-escaped inside <sub>", () => {
    const record = run([fixture('a')], { tool: { name: HOSTILE_MARKDOWN, version: '1.0.0' } });
    const html = githubHtml(renderComment(record, ctx));
    const footer = /<sub>[^\n]*<\/sub>/.exec(html)?.[0] ?? '';
    expect(footer).toContain('evil.example');
    expect(footer).not.toMatch(/<(img|a|del)\b/);
    for (const href of links(html)) expect(href).not.toMatch(/evil|javascript/);
  });

  it("a reworded item's brief line is written as markdown: a file name cannot make a link, an image or strikethrough", () => {
    const item = differing('refund-policy', 'Refunds within 30 days.', 'You can get a refund within 30 days.', { value: 'reworded', by: 'judge', detail: null, score: 0.9 }, { file: HOSTILE_MARKDOWN, line: 3 });
    const brief = rewordedBlock(itemView(item), 'brief', ctx, { kind: 'comment' } as never);
    const html = githubHtml(brief);
    expect(html).toContain('refund-policy');
    expect(html).not.toMatch(/<(img|del)\b/);
    for (const href of links(html)) expect(href).toMatch(/^https:\/\/github\.com\/acme\/shop-bot\/blob\//);
    // A file name with a folder that has no link: shown as code, inert.
    const inFolder = differing('refund-policy', 'a', 'b', { value: 'reworded', by: 'judge', detail: null, score: 0.9 }, { file: `../${HOSTILE_MARKDOWN}`, line: 3 });
    const html2 = githubHtml(rewordedBlock(itemView(inFolder), 'brief', ctx, { kind: 'comment' } as never));
    expect(html2).not.toMatch(/<(img|del|strong)\b/);
    expect(links(html2)).toEqual([]);
  });

  it("an address an agent's reply puts in an item's <summary> line is no bare URL: broken with the word joiner, as in body text, and read as written", () => {
    const reply = 'Refunds: see https://evil.example/refund or www.evil.example today';
    const item = fixture('link', { verdict: 'fail', detail: `the reply "${reply}" does not mention the 30 days`, drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } });
    const html = githubHtml(renderComment(run([item]), ctx));
    const summary = /<summary>[^\n]*<b>link<\/b>[^\n]*<\/summary>/.exec(html)?.[0] ?? '';
    // cmark-gfm leaves raw HTML alone; a filter of GitHub's after it could still link a bare address in it.
    expect(summary).not.toContain('https://evil.example');
    expect(summary).not.toMatch(/www\.evil/);
    expect(summary.replaceAll('&#8288;', '').replaceAll('&quot;', '"')).toContain(`the reply "${reply}" does not mention the 30 days`);
    for (const href of links(html)) expect(href).not.toMatch(/evil/);
  });

  it('a file reference without a link drops control characters and bidi overrides, as every inline text does', () => {
    const ref = fileRefHtml({ file: '../fixtures/a\u202Eevil\u0000x.yml', line: 2 }, ctx);
    expect(ref).toMatch(/^<code>/);
    expect(ref.includes('\u0000') || ref.includes('\u202E')).toBe(false);
    expect(ref).toContain('aevilx.yml');
  });

  it('the run\'s "too few attempts" line holds counts and a flag only: hostile labels of the items it counts are not in it, and are escaped where they are shown', () => {
    // Two items whose pass rate did not fall (10/10, then 1/1): too_few, said once for the run.
    const script = '<script>alert(1)</script>';
    const labels = [script, `**bold** ${HOSTILE_MARKDOWN}`];
    const record = withRunStats(labels.map((label) => repeated(label, { passed: 10, total: 10 }, { passed: 1, total: 1 }, 1)));
    const line = 'too few attempts to tell a drop from noise for 2 items whose pass rate did not fall (not said on their lines); every attempt failing would be called regressed for each of them with --repeat 2, what a baseline of 10 attempts needs';
    const html = renderHtml(record);
    const runRate = /<p class="run-rate">🔍 ([^\n]*)<\/p>/.exec(html)?.[1] ?? '';
    expect(runRate).toBe(`T${line.slice(1).replace('--repeat 2', '<code>--repeat 2</code>')}`);
    expect(html).not.toContain(script);
    const comment = githubHtml(renderComment(record, ctx));
    const said = /🔍 ([^\n]*)/.exec(comment)?.[1] ?? '';
    // The comment names the Action's input where the terminal and report.html name the flag (docs/statistics.md, "Too few attempts, said once").
    expect(said.replace(/<\/?(code|p)>/g, '')).toBe(`T${line.slice(1).replace('--repeat 2', "the check step's repeat: 2 input")}.`);
    expect(comment).not.toContain(script);
    expect(comment).not.toMatch(/<(img|del)\b/);
    for (const href of links(comment)) expect(href).not.toMatch(/evil|javascript/);
    const terminal = renderTerminal(record, { color: false });
    expect(terminal.split('\n').filter((l) => l.includes('too few attempts'))).toEqual([line]);
  });
});
