// The set-up code in docs/traces.md is the code the framework tests run: a ```ts block after a
// `<!-- tested: <file> -->` line is that file's text (test/frameworks/, run by npm run test:frameworks),
// the one import of the mocks helper written as the package name (`agent-replay/mocks`) where the
// file imports the source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_IMPORT = "'../../../src/mocks/index.js'";
const PACKAGE_IMPORT = "'agent-replay/mocks'";

describe('docs/traces.md tested code blocks', () => {
  const lines = readFileSync(join(ROOT, 'docs', 'traces.md'), 'utf8').split('\n');
  const blocks = lines.flatMap((l, i) => {
    const file = /^<!-- tested: (\S+) -->$/.exec(l)?.[1];
    if (file === undefined) return [];
    expect(lines[i + 1], `docs/traces.md:${i + 1}: a tested marker is followed by a \`\`\`ts block`).toBe('```ts');
    const end = lines.indexOf('```', i + 2);
    return [{ line: i + 1, file, code: `${lines.slice(i + 2, end).join('\n')}\n` }];
  });

  it('has the Vercel AI SDK, Mastra and OpenAI Agents SDK set-up blocks', () => {
    expect(blocks.map((b) => b.file)).toEqual(['test/frameworks/vercel-ai/traced-route.ts', 'test/frameworks/mastra/traced.ts', 'test/frameworks/openai-agents/traced.ts']);
  });

  for (const b of blocks) {
    it(`docs/traces.md:${b.line} is ${b.file}`, () => {
      const file = readFileSync(join(ROOT, b.file), 'utf8');
      expect(file.split(SOURCE_IMPORT).length, `${b.file} imports the mocks helper once`).toBeLessThanOrEqual(2);
      expect(b.code).toBe(file.replace(SOURCE_IMPORT, PACKAGE_IMPORT));
    });
  }
});
