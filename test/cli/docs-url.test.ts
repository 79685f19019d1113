// The pages a message cites resolve where the package runs (docs/contributing.md, "Releasing"): the
// npm package does not ship docs/, so every message a user sees cites a page by its address at the
// repository's tag of this version (version.ts docsUrl), each page and section one that docs/ has.

import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_URL, docsUrl, TOOL } from '../../src/version.js';
import { anchorsOf } from '../support/doc-links.js';
import { cli, makeProject, useCleanup } from './helpers.js';
import { sourceFiles } from '../support/source-files.js';

useCleanup();

const ROOT = join(import.meta.dirname, '../..');

const SOURCES = sourceFiles(join(ROOT, 'src')).map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }));

/** Where docs/`page` has no such page or no heading whose anchor is `anchor`: null when it has. */
function missing(page: string, anchor: string | undefined): string | null {
  let doc: string;
  try {
    doc = readFileSync(join(ROOT, 'docs', page), 'utf8');
  } catch {
    return `no page docs/${page}`;
  }
  return anchor === undefined || anchorsOf(doc).has(anchor) ? null : `no heading of docs/${page} has the anchor #${anchor}`;
}

/** Every `${DOCS_URL}/<page>.md[#section]` in `text`, checked against docs/. */
function expectResolvable(text: string): number {
  const cited = [...text.matchAll(/https:\/\/github\.com\/agent-replay\/agent-replay\/blob\/v[^/\s]+\/docs\/([a-z-]+\.md)(?:#([\w-]+))?/g)];
  for (const [url, page, section] of cited) {
    expect(url.startsWith(`${DOCS_URL}/`), url).toBe(true);
    expect(missing(page!, section), url).toBe(null);
  }
  return cited.length;
}

describe('docs/ cited where the package runs', () => {
  it('the package does not ship docs/, and DOCS_URL is its repository at this version', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { files: string[]; repository: { url: string } };
    expect(pkg.files.some((f) => f.startsWith('docs'))).toBe(false);
    expect(pkg.repository.url).toBe('git+https://github.com/agent-replay/agent-replay.git');
    expect(DOCS_URL).toBe(`https://github.com/agent-replay/agent-replay/blob/v${TOOL.version}/docs`);
    expect(docsUrl('traces.md', "When a turn's spans are complete")).toBe(`${DOCS_URL}/traces.md#when-a-turns-spans-are-complete`);
    expect(docsUrl('action.md', 'Report: combine shards, or comment for a fork')).toBe(`${DOCS_URL}/action.md#report-combine-shards-or-comment-for-a-fork`);
  });

  it('every page and section the code cites (each docsUrl call) is one docs/ has, and no message cites a page any other way', () => {
    const found: string[] = [];
    let calls = 0;
    for (const { file, text } of SOURCES) {
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        const at = `${file}:${i + 1}`;
        const code = /^\s*(?:\/\/|\*|\/\*)/.test(line) ? '' : line.replace(/\s\/\/\s.*$/, '');
        if (file === 'src/version.ts') return;
        // A page cited in a string as a path, or an address written out: a user of the package cannot open the one, and the other skips the check below.
        if (/docs\/[a-z-]+\.md/.test(code)) found.push(`${at}: cites docs/<page>.md in a string; cite it with docsUrl(page, heading)`);
        if (/DOCS_URL|agent-replay\/agent-replay\/blob/.test(code)) found.push(`${at}: writes the docs' address out; cite the page with docsUrl(page, heading)`);
      });
      for (const m of text.matchAll(/\bdocsUrl\(([^)]*)\)/g)) {
        const line = text.slice(0, m.index).split('\n').length;
        if (file === 'src/version.ts') continue;
        const args = /^\s*'([a-z-]+(?:\/[a-z-]+)?\.md)'\s*(?:,\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*)?$/.exec(m[1]!);
        if (args === null) {
          found.push(`${file}:${line}: docsUrl(${m[1]}): a page and a heading written as literals, so that this test can check them`);
          continue;
        }
        calls++;
        const url = docsUrl(args[1]!, args[2] ?? args[3]);
        const anchor = url.includes('#') ? url.slice(url.indexOf('#') + 1) : undefined;
        const problem = missing(args[1]!, anchor);
        if (problem !== null) found.push(`${file}:${line}: ${url}: ${problem}`);
      }
    }
    expect(found).toEqual([]);
    expect(calls).toBeGreaterThanOrEqual(18);
  });

  it("action.yml's descriptions (GitHub's Marketplace page, the workflow editor) cite pages by their address, each page and section one that docs/ has", () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    // A relative path goes nowhere where the descriptions are shown.
    const bare = text.split('\n').flatMap((line, i) => (/(?<!\/blob\/v[^/\s]+\/)docs\/[a-z-]+\.md/.test(line) ? [`action.yml:${i + 1}: cites docs/<page>.md as a path; write ${DOCS_URL}/<page>.md`] : []));
    expect(bare).toEqual([]);
    expect(expectResolvable(text)).toBeGreaterThanOrEqual(6);
  });

  it('--help says where the commands are described in full', async () => {
    const cwd = await makeProject({});
    const help = await cli(['--help'], cwd);
    expect(help.stdout).toContain(`Every command and option in full: ${DOCS_URL}/cli.md\n`);
    expect(expectResolvable(help.stdout)).toBe(1);
  });

  it("init's output and the config.yml it writes cite agent-replay's pages by their address, each page and section one that docs/ has", async () => {
    const cwd = join(await makeProject({}), 'repo');
    await mkdir(cwd, { recursive: true });
    const init = await cli(['init'], cwd);
    expect(init.code, init.stderr).toBe(0);
    const config = await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8');
    // The output cites the workflow's page; config.yml the meaning judge's costs and the traces section.
    for (const [text, cites] of [[init.stdout, 1], [config, 2]] as const) {
      expect(text).not.toMatch(/[\s(]docs\/[a-z-]+\.md/);
      expect(expectResolvable(text)).toBe(cites);
    }
  });
});
