// The lines `run` prints after its summary, where its files went (docs/cli.md, "What each command
// does"): the page's example is what the CLI prints, line for line.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultsWhere, writtenText, type CliIO } from '../../src/cli/output.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
const cwd = '/home/me/shop';
const io: CliIO = { stdout: () => {}, stderr: () => {}, isTTY: false, color: false, env: {}, cwd };

describe("run's lines after the summary", () => {
  it('are the example of docs/cli.md: results, markdown, junit and html, each with its absolute path', () => {
    const block = /where its files went[\s\S]*?```\n([\s\S]*?)\n\s*```/.exec(doc)?.[1];
    expect(block, 'docs/cli.md shows the lines run prints after its summary').toBeDefined();
    const shown = (block ?? '').split('\n').map((l) => l.trim()).join('\n');
    const printed = writtenText(resultsWhere(join(cwd, '.agent-replay/results/results.json'), null), { markdown: 'report.md', junit: 'junit.xml', html: 'report.html' }, io);
    expect(`\n${shown}\n`).toBe(printed);
  });

  it('say where results.json went when it could not be written where asked, as the page says it', () => {
    const out = join(cwd, 'r.json');
    const moved = writtenText(resultsWhere(out, { fallback: '/tmp/agent-replay-results-Xy12ab/results.json' }), {}, io).trim();
    const lost = writtenText(resultsWhere(out, { fallback: null }), {}, io).trim();
    const prose = doc.replace(/\s*\n\s*/g, ' ');
    expect(prose.includes(`\`${moved}\``), moved).toBe(true);
    expect(prose.includes(`\`${lost}\``), lost).toBe(true);
    // A suite with configuration errors writes no results: its one line is the markdown's.
    expect(writtenText(null, { markdown: 'report.md' }, io)).toBe(`\nmarkdown: ${join(cwd, 'report.md')}\n`);
  });
});
