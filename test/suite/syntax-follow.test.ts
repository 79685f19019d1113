// What a refused YAML file is told: its first real mistake, at its line, with the fix, in our
// words, not the parser's words for what it then misreads (docs/troubleshooting.md); and brackets
// in a comment or a quoted value, which are text, never taken for a list or mapping
// (docs/configuration.md, "How YAML is read").

import { beforeAll, describe, expect, it } from 'vitest';
import { lazyParses, loadYamlPackage } from '../../src/suite/yaml/index.js';
import { readYaml } from '../../src/suite/yaml/read.js';

beforeAll(async () => {
  await loadYamlPackage();
});

/** `line:column: message` and the fix of each error, then of each warning. */
function said(text: string): string[] {
  const r = readYaml('f.yml', text);
  return [...r.errors, ...(r.warnings ?? [])].map((e) => `${String(e.line)}:${String(e.column)}: ${e.message}\n  fix: ${e.fix}`);
}

describe('brackets in a comment or a quoted value are text', () => {
  it('a [ in a comment after a { never closed: the { is said, not the comment', () => {
    const lines = said('label: a\nassert: { contains: x\n# note: [draft\nmessage: hi\n');
    expect(lines).toEqual([expect.stringMatching(/^2:9: invalid YAML: the \{ opened here \(a mapping, as in \{ contains: "x" \}\) is never closed\n {2}fix: close it with \} at the end of the line, so that line 2 reads\n {4}assert: \{ contains: x \}/)]);
  });

  it('a [ in a comment or in quotes, closed by a ] further on, hides no line left of its key', () => {
    const warning = (line: number, opened: number): string =>
      `${String(line)}:1: line ${String(line)}, inside the [ ] opened on line ${String(opened)}, is indented by no spaces, no deeper than the key "followUps": agent-replay reads it as part of the [ ], but YAML 1.2 ends the [ ] before it, and other YAML tools (editors, linters) refuse the file\n  fix: indent it by 2 spaces, so that line ${String(line)} reads\n      two]`;
    expect(said('label: a\npersona: p # e.g. a list: [\nfollowUps: [one,\ntwo]\nmessage: hi ]\n')).toEqual([warning(4, 3)]);
    expect(said("label: a\nmessage: 'tags: [x'\nfollowUps: [one,\ntwo]\npersona: p]\n")).toEqual([warning(4, 3)]);
  });
});

describe('a file js-yaml reads with no [ ] or { } over several lines', () => {
  it('is not scanned for a line left of its key, nor parsed again, whatever brackets its block text or comments hold', () => {
    const before = lazyParses.count;
    const text = 'label: a\nmessage: |\n  tags: [a,\n  b]\n# e.g. followUps: [one,\n# two]\nfollowUps: [one, two]\n';
    expect(readYaml('f.yml', text)).toMatchObject({ errors: [], data: { message: 'tags: [a,\nb]\n' } });
    expect(readYaml('f.yml', text).warnings).toBeUndefined();
    expect(lazyParses.count).toBe(before);
  });
});
