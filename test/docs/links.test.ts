// The README and the pages under docs/ link to each other; these links must resolve (files and
// #anchors, by GitHub's slug rule) and every page must be reachable from the README.

import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorsOf, checkDocs, linksOf, markdownFiles, slugify, spacedPercents } from '../support/doc-links.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the docs of this repository', () => {
  it('have no broken link, no missing anchor and no page unreachable from the README', () => {
    expect(checkDocs(ROOT)).toEqual([]);
  });

  it('write a percent as the messages do ("50%", never "50 %"), but in code and quoted input', () => {
    const pages = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    const spaced = pages.flatMap((page) => spacedPercents(readFileSync(page, 'utf8')).map((n) => `${page.slice(ROOT.length + 1)}:${n}`));
    expect(spaced).toEqual([]);
    expect(spacedPercents('a 50 % rise\n`50 %` and "10 %"\n```\nslower by 50 %\n```\n1.5-2.0 % of it')).toEqual([1, 6]);
  });
});

describe("the README's comment excerpt", () => {
  it('quotes the headline, the tallies and the cost line of test/golden/mixed.comment.md as they are rendered', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const golden = readFileSync(join(ROOT, 'test/golden/mixed.comment.md'), 'utf8').split('\n');
    const quoted = readme.split('\n').filter((l) => l.startsWith('> ')).map((l) => l.slice(2));
    const headline = quoted[0]!.replace(/^\*\*(.*)\*\*$/, '$1');
    expect(golden).toContain(`### ${headline}`);
    const rows = quoted.filter((l) => l.startsWith('|') || l.startsWith('≈'));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const row of rows) expect(golden, `README quotes "${row}"`).toContain(row);
  });
});

describe('slugify (GitHub heading anchors)', () => {
  it.each([
    ['Check: replay on every pull request', 'check-replay-on-every-pull-request'],
    ['report.html', 'reporthtml'],
    ['`init`', 'init'],
    ['Forks and deployment_status', 'forks-and-deployment_status'],
    ["What's new? (2026)", 'whats-new-2026'],
    ['🔴 Newly failing (1)', '-newly-failing-1'],
    ['A  B', 'a--b'],
    ['Über straße', 'über-straße'],
    ['See [the CLI](cli.md) here', 'see-the-cli-here'],
    ['results.json: the record of one run', 'resultsjson-the-record-of-one-run'],
  ])('%s -> %s', (heading, slug) => {
    expect(slugify(heading)).toBe(slug);
  });

  it('numbers repeated headings -1, -2 and ignores headings inside code blocks', () => {
    const md = ['# Top', '## Example', '```yaml', '# Example', '```', '## Example', '~~~', '## Example', '~~~', '### Example', '<a id="custom"></a>'].join('\n');
    expect([...anchorsOf(md)]).toEqual(['top', 'example', 'example-1', 'example-2', 'custom']);
  });

  it('finds inline links and reference definitions, not those in code', () => {
    const md = ['See [a](a.md#x) and ![img](pic.png "title").', 'Code: `[no](no.md)`.', '```', '[no](no.md)', '```', '[ref]: ref.md#y'].join('\n');
    expect(linksOf(md)).toEqual([
      { line: 1, target: 'a.md#x' },
      { line: 1, target: 'pic.png' },
      { line: 6, target: 'ref.md#y' },
    ]);
  });
});

describe('checkDocs on a temporary repository', () => {
  let dir: string | null = null;
  afterEach(async () => {
    if (dir !== null) await rm(dir, { recursive: true, force: true });
    dir = null;
  });

  async function repo(files: Record<string, string>): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'agent-replay-docs-'));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    return dir;
  }

  it('passes a set of pages whose links all resolve', async () => {
    const root = await repo({
      'README.md': '# Project\n\n[Guide](docs/guide.md#set-up) · [site](https://example.com/x.md#nope) · [mail](mailto:a@b.c)\n',
      'docs/guide.md': '# Guide\n\n## Set up\n\nBack to [the top](#guide), [the code](../src/x.ts#L3), [deep](deep/more.md).\n',
      'docs/deep/more.md': '# More\n\n[up](../guide.md#set-up)\n',
      'src/x.ts': 'export {};\n',
    });
    expect(checkDocs(root)).toEqual([]);
  });

  it('reports a missing file, a missing anchor, a link out of the repository and an unreachable page', async () => {
    const root = await repo({
      'README.md': '# Project\n\n[Guide](docs/guide.md)\n[Gone](docs/gone.md)\n',
      'docs/guide.md': '# Guide\n\n## Set up\n\nSee [setup](#setup) and [cli](cli.md#commands).\n\n[out](../../elsewhere.md)\n',
      'docs/cli.md': '# CLI\n\n## Commands\n',
      'docs/orphan.md': '# Orphan\n\n[guide](guide.md)\n',
    });
    expect(checkDocs(root)).toEqual([
      'README.md:4: link "docs/gone.md": docs/gone.md does not exist; fix: correct the path or create the page',
      "docs/guide.md:5: link \"#setup\": docs/guide.md has no heading with the anchor #setup; fix: use one of its headings' anchors (lower case, punctuation removed, spaces as -)",
      'docs/guide.md:7: link "../../elsewhere.md" leaves the repository; fix: link to a file inside it',
      'docs/orphan.md: not reachable from README.md; fix: link to it from the README or from a page the README links to',
    ]);
  });

  it('reports an anchor that exists only in a code block, and follows duplicate numbering', async () => {
    const root = await repo({
      'README.md': '[a](docs/a.md#example-1)\n[b](docs/a.md#config)\n',
      'docs/a.md': '# A\n\n## Example\n\n## Example\n\n```yaml\n# config\n```\n',
    });
    expect(checkDocs(root)).toEqual([
      "README.md:2: link \"docs/a.md#config\": docs/a.md has no heading with the anchor #config; fix: use one of its headings' anchors (lower case, punctuation removed, spaces as -)",
    ]);
  });
});
