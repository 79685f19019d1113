// The pages messages cite as docs/<page>.md resolve where the package runs (docs/contributing.md,
// "Releasing"): the npm package does not ship docs/, so `--help` and `init` name them at the
// repository's tag of this version, each page and section one that docs/ has.

import { readFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_URL, TOOL } from '../../src/version.js';
import { cli, makeProject, useCleanup } from './helpers.js';

useCleanup();

/** GitHub's anchor of a markdown heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string): string => heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');

/** Every `${DOCS_URL}/<page>.md[#section]` in `text`, checked against docs/. */
async function expectResolvable(text: string): Promise<number> {
  const cited = [...text.matchAll(/https:\/\/github\.com\/agent-replay\/agent-replay\/blob\/v[^/\s]+\/docs\/([a-z-]+\.md)(?:#([\w-]+))?/g)];
  for (const [url, page, section] of cited) {
    expect(url.startsWith(`${DOCS_URL}/`), url).toBe(true);
    const doc = await readFile(join('docs', page!), 'utf8');
    if (section !== undefined) expect([...doc.matchAll(/^#{1,4} (.+)$/gm)].map((m) => anchor(m[1]!)), url).toContain(section);
  }
  return cited.length;
}

describe('docs/ cited where the package runs', () => {
  it('the package does not ship docs/, and DOCS_URL is its repository at this version', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { files: string[]; repository: { url: string } };
    expect(pkg.files.some((f) => f.startsWith('docs'))).toBe(false);
    expect(pkg.repository.url).toBe('git+https://github.com/agent-replay/agent-replay.git');
    expect(DOCS_URL).toBe(`https://github.com/agent-replay/agent-replay/blob/v${TOOL.version}/docs`);
  });

  it('--help says where the pages cited as docs/<page>.md are', async () => {
    const cwd = await makeProject({});
    const help = await cli(['--help'], cwd);
    expect(help.stdout).toContain(`The pages messages cite as docs/<page>.md: ${DOCS_URL}/<page>.md\n`);
  });

  it("init's output and the config.yml it writes cite agent-replay's pages by their address, each page and section one that docs/ has", async () => {
    const cwd = join(await makeProject({}), 'repo');
    await mkdir(cwd, { recursive: true });
    const init = await cli(['init'], cwd);
    expect(init.code, init.stderr).toBe(0);
    const config = await readFile(join(cwd, '.agent-replay/config.yml'), 'utf8');
    for (const text of [init.stdout, config]) {
      expect(text).not.toMatch(/[\s(]docs\/[a-z-]+\.md/);
      expect(await expectResolvable(text)).toBe(1);
    }
  });
});
