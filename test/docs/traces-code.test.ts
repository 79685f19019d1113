// The set-up code in docs/traces.md is the code the framework tests run: a ```ts block after a
// `<!-- tested: <file> -->` line is that file's text (test/frameworks/, run by npm run test:frameworks).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('docs/traces.md tested code blocks', () => {
  const lines = readFileSync(join(ROOT, 'docs', 'traces.md'), 'utf8').split('\n');
  const blocks = lines.flatMap((l, i) => {
    const file = /^<!-- tested: (\S+) -->$/.exec(l)?.[1];
    if (file === undefined) return [];
    expect(lines[i + 1], `docs/traces.md:${i + 1}: a tested marker is followed by a \`\`\`ts block`).toBe('```ts');
    const end = lines.indexOf('```', i + 2);
    return [{ line: i + 1, file, code: `${lines.slice(i + 2, end).join('\n')}\n` }];
  });

  it('has the Mastra and OpenAI Agents SDK set-up blocks', () => {
    expect(blocks.map((b) => b.file)).toEqual(['test/frameworks/mastra/traced.ts', 'test/frameworks/openai-agents/traced.ts']);
  });

  for (const b of blocks) {
    it(`docs/traces.md:${b.line} is ${b.file}`, () => {
      expect(b.code).toBe(readFileSync(join(ROOT, b.file), 'utf8'));
    });
  }
});
