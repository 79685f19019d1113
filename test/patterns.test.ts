import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { unicodePattern } from '../src/patterns.js';
import { sourceFiles } from './support/source-files.js';

const ROOT = join(import.meta.dirname, '..');

/** A property escape as a literal's source text holds it. */
const PROPERTY_ESCAPE = /\\[pP]\{/;

/** Every regular expression literal of a TypeScript file, with its line. */
function regexLiterals(file: string, text = readFileSync(file, 'utf8')): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) out.push({ text: node.getText(source), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

describe('Unicode property escapes (src/patterns.ts)', () => {
  it('no regular expression literal in src/ holds \\p{...} or \\P{...}: V8 resolves them at every start, used or not (docs/performance.md)', () => {
    // A literal's text is a piece of its file's: a file without the escape anywhere has no such
    // literal, and is not parsed (most files hold none: it is the TypeScript parse that costs).
    const found = sourceFiles(join(ROOT, 'src')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      if (!PROPERTY_ESCAPE.test(text)) return [];
      return regexLiterals(file, text)
        .filter((r) => PROPERTY_ESCAPE.test(r.text))
        .map((r) => `${relative(ROOT, file)}:${r.line}: ${r.text.slice(0, 80)} (build it with unicodePattern from src/patterns.ts)`);
    });
    expect(found).toEqual([]);
  });

  it('the finder sees a property escape in a literal, and not in a string or a comment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-replay-patterns-'));
    const file = join(dir, 'sample.ts');
    writeFileSync(file, "// /\\p{L}/u in a comment\nconst a = String.raw`\\p{L}`;\nconst b = /[\\p{L}\\d]/u;\nconst c = /x/g;\n");
    try {
      expect(regexLiterals(file)).toEqual([
        { text: '/[\\p{L}\\d]/u', line: 3 },
        { text: '/x/g', line: 4 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('unicodePattern builds the expression once, on the first call, with its flags', () => {
    const letter = unicodePattern(String.raw`^\p{L}+$`, 'u');
    const first = letter();
    expect(first).toBe(letter());
    expect(first.flags).toBe('u');
    expect(first.test('Привет')).toBe(true);
    expect(first.test('30')).toBe(false);
    // An invalid pattern throws where it is first used, as a literal would have at start.
    expect(unicodePattern(String.raw`\p{NoSuchProperty}`, 'u')).toThrow(SyntaxError);
  });
});
