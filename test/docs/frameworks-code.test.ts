// Every route and agent in docs/frameworks/ is the code the framework tests run (npm run
// test:frameworks): a ```ts block follows a `<!-- tested: <file> -->` line naming the file under
// test/frameworks/, and the block is that file's text, the one import of the mocks helper written
// as the package name (`agent-replay/mocks`) where the test file imports the source. So a docs
// example cannot rot: changing the route changes the docs, and the framework tests run it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'docs', 'frameworks');
const SOURCE_IMPORT = "'../../../src/mocks/index.js'";
const PACKAGE_IMPORT = "'agent-replay/mocks'";

interface Block {
  line: number;
  tested: string | null;
  code: string;
}

function tsBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    const marker = /^<!-- tested: (\S+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ line: i + 1, tested: marker?.[1] ?? null, code: `${lines.slice(i + 1, end).join('\n')}\n` });
    i = end;
  }
  return blocks;
}

describe('docs/frameworks code blocks are the files the framework tests run', () => {
  const pages = readdirSync(DIR).filter((f) => f.endsWith('.md'));

  it('covers every framework page', () => {
    expect(pages.sort()).toEqual(['langgraph.md', 'mastra.md', 'openai-agents.md', 'vercel-ai.md']);
  });

  for (const page of pages) {
    it(`${page}: each ts block names its tested file and equals it`, () => {
      const blocks = tsBlocks(readFileSync(join(DIR, page), 'utf8'));
      expect(blocks.length, `${page} has no ts block`).toBeGreaterThan(0);
      for (const block of blocks) {
        expect(block.tested, `docs/frameworks/${page}:${block.line}: a ts block without a "<!-- tested: test/frameworks/... -->" line above it`).not.toBeNull();
        const file = readFileSync(join(ROOT, block.tested!), 'utf8');
        expect(file.split(SOURCE_IMPORT).length, `${block.tested} imports the mocks helper once`).toBeLessThanOrEqual(2);
        expect(block.code, `docs/frameworks/${page}:${block.line} differs from ${block.tested}`).toBe(file.replace(SOURCE_IMPORT, PACKAGE_IMPORT));
      }
    });
  }
});
