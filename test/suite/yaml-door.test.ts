import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const DOOR = path.join(SRC, 'suite', 'yaml') + path.sep;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `from 'yaml'`, `from "js-yaml"`, `import('yaml')`, `require('js-yaml')`, subpaths included. */
const PARSER_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](?:js-)?yaml(?:\/[^'"]*)?['"]/;

describe('YAML behind one door', () => {
  it('only src/suite/yaml/ imports a YAML parser (yaml, js-yaml)', () => {
    const files = sources(SRC);
    const importers = files.filter((f) => PARSER_IMPORT.test(readFileSync(f, 'utf8'))).map((f) => path.relative(SRC, f).split(path.sep).join('/'));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !path.join(SRC, f).startsWith(DOOR))).toEqual([]);
  });
});
