// What a hand edit or a merge leaves in a suite file, said in our words with the line as it should
// read (docs/troubleshooting.md), not in the parser's: a tab after a list item's "-", a file that is
// one { } closed by a ], a comma left out or left over in a baseline, a merge conflict left in a
// baseline or a fixture, and two invalid labels offered one label. Through the loader, real files
// in a temp dir.

import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { B, C, F, load } from './helpers.js';
import { freeSuggestion, type NextFree } from '../../src/suite/labels.js';

const P = '.agent-replay/personas';
const AGENT = 'agent:\n  url: http://127.0.0.1:9/chat\n';
const TABS = 'indent with spaces, not tabs (set the editor to insert spaces for this file)';
const keep = (file: string): string => `committed before the edit? \`git checkout -- ${file}\` brings back the committed version`;

describe('a tab after a list item\'s "-"', () => {
  it('is said as a tab at the start of a line is, at the tab, with the line as it should read', async () => {
    const r = await load({
      [C]: AGENT,
      // The parser: "Tabs are not allowed as indentation" at the tab, then "All mapping items must start at the same column".
      [`${F}/a.yml`]: '-\tlabel: a\n  message: hi\n- label: b\n  message: yo\n',
      // Under a key; the item's next keys four spaces deeper than its "-": the key moved to their column.
      [`${F}/b.yml`]: 'fixtures:\n  -\tlabel: c\n      message: hi\n',
      // An editor that inserts tabs: tabs after each "-" and at the start of the lines under them.
      [`${P}/p.yml`]: '-\tlabel: p\n\topening: hi\n\texpect: { terminal: finish }\n',
      // Five items: three lines shown, the rest named.
      [`${F}/c.yml`]: ['c1', 'c2', 'c3', 'c4', 'c5'].map((l) => `-\tlabel: ${l}\n  message: hi\n`).join(''),
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:1:2: invalid YAML: line 1 is indented with a tab after its list item's "-", which YAML does not allow\n  fix: ${TABS}, so that line 1 reads\n    - label: a`,
      `${F}/b.yml:2:4: invalid YAML: line 2 is indented with a tab after its list item's "-", which YAML does not allow\n  fix: ${TABS}, so that line 2 reads\n      -   label: c`,
      `${F}/c.yml:1:2: invalid YAML: lines 1, 3, 5, 7 and 9 are indented with a tab after their list items' "-", which YAML does not allow\n  fix: ${TABS}, so that line 1 reads\n    - label: c1\n  and line 3 reads\n    - label: c2\n  and line 5 reads\n    - label: c3\n  and likewise lines 7 and 9`,
      `${P}/p.yml:1:2: invalid YAML: lines 1, 2 and 3 are indented with a tab (line 1 after the "-"), which YAML does not allow\n  fix: ${TABS}, so that line 1 reads\n    - label: p`,
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'line 5 is indented with a tab after its list item\'s "-"', { 'line 5': 'line 1' });
    // Each line as the fix shows it: the file loads.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: '- label: a\n  message: hi\n- label: b\n  message: yo\n',
      [`${F}/b.yml`]: 'fixtures:\n  -   label: c\n      message: hi\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'c']);
  });
});

describe('a file that is one { } or [ ] closed by the other bracket', () => {
  it('is said at that bracket, naming the one it closes, with the line as it should read, as in a list', async () => {
    const r = await load({
      [C]: AGENT,
      // The parser: "Flow map must end with a }" (not "Flow map in block collection ...", a list item's).
      [`${F}/a.yml`]: '{ label: a, message: hi ]\n',
      [`${F}/b.yml`]: '[{ label: b, message: hi }}\n',
      [`${F}/c.yml`]: '- { label: c, message: hi ]\n',
      // Never closed: the parser's "Flow map must end with a }" at the end of the file; said at the bracket.
      [`${F}/d.yml`]: '{ label: d, message: hi\n',
      [`${F}/e.yml`]: '[ { label: e, message: hi }\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:1:25: invalid YAML: the { opened at line 1, column 1 is closed here by ], not by }\n  fix: write } in place of the ], so that line 1 reads\n    { label: a, message: hi }`,
      `${F}/b.yml:1:27: invalid YAML: the [ opened at line 1, column 1 is closed here by }, not by ]\n  fix: write ] in place of the }, so that line 1 reads\n    [{ label: b, message: hi }]`,
      `${F}/c.yml:1:27: invalid YAML: the { opened at line 1, column 3 is closed here by ], not by }\n  fix: write } in place of the ], so that line 1 reads\n    - { label: c, message: hi }`,
      `${F}/d.yml:1:1: invalid YAML: the { opened here (a mapping, as in { contains: "x" }) is never closed\n  fix: close it with }; if the { is part of the text, put the whole value in quotes`,
      `${F}/e.yml:1:1: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed\n  fix: close it with ]; if the [ is part of the text, put the whole value in quotes`,
    ]);
    const fixed = await load({ [C]: AGENT, [`${F}/a.yml`]: '{ label: a, message: hi }\n', [`${F}/b.yml`]: '[{ label: b, message: hi }]\n' });
    expect(fixed.errors).toEqual([]);
  });
});

describe('a comma in a baseline left out or left over', () => {
  const baseline = (label: string, reply: string, between = ','): string =>
    ['{', `  "label": "${label}",`, `  "reply": ${reply}${between}`, '  "route": null,', '  "verdict": "pass",', '  "acceptedAt": "2026-01-01T00:00:00Z",', '  "commit": null', '}', ''].join('\n');
  it('a comma left out between two entries is said where it is missing, with the line as it should read, not at the next key as "Expected \',\' or \'}\' after property value"', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['obj', 'list', 'inline', 'crlf'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      [`${B}/obj.json`]: baseline('obj', '"Refunds take 5 days."', ''),
      [`${B}/list.json`]: baseline('list', '"r"').replace('  "route": null,', '  "variants": [\n    "a"\n    "b"\n  ],\n  "route": null,'),
      [`${B}/inline.json`]: '{ "label": "inline", "reply": "r" "route": null, "verdict": "pass", "acceptedAt": "2026-01-01T00:00:00Z", "commit": null }\n',
      [`${B}/crlf.json`]: baseline('crlf', '"r"', '').replace(/\n/g, '\r\n'),
    });
    const missing = (what: string, next: number): string => `a comma left out after this ${what}, before the next one on line ${String(next)}: JSON separates the ${what === 'entry' ? 'entries of an object' : 'items of a list'} with commas`;
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/crlf.json:3:15: invalid JSON: ${missing('entry', 4)}\n  fix: add a comma at line 3, column 15, so that line 3 reads\n    "reply": "r",\n  ${keep(`${B}/crlf.json`)}`,
      `${B}/inline.json:1:34: invalid JSON: a comma left out after this entry: JSON separates the entries of an object with commas\n  fix: add a comma at line 1, column 34, so that line 1 reads\n    { "label": "inline", "reply": "r", "route": null, "verdict": "pass", "acceptedAt": "2026-01-01T00:00:00Z", "commit": null }\n  ${keep(`${B}/inline.json`)}`,
      `${B}/list.json:5:8: invalid JSON: ${missing('item', 6)}\n  fix: add a comma at line 5, column 8, so that line 5 reads\n    "a",\n  ${keep(`${B}/list.json`)}`,
      `${B}/obj.json:3:34: invalid JSON: ${missing('entry', 4)}\n  fix: add a comma at line 3, column 34, so that line 3 reads\n    "reply": "Refunds take 5 days.",\n  ${keep(`${B}/obj.json`)}`,
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'a comma left out after this entry, before the next one on line 4');
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'add a comma at line 3, column 15, so that line 3 reads "reply": "r",', { 'reads "': 'reads\n    "' });
    // The lines as the fix shows them: each baseline loads.
    const fixed = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: obj, message: x }\n',
      [`${B}/obj.json`]: baseline('obj', '"Refunds take 5 days."'),
    });
    expect(fixed.errors).toEqual([]);
  });

  it('a comma after the last entry is said at the comma, with its line as it reads without it', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: last, message: x }\n',
      [`${B}/last.json`]: baseline('last', '"r"').replace('"commit": null', '"commit": null,'),
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/last.json:7:17: invalid JSON: a comma after the last entry of an object, which JSON does not allow\n  fix: remove the comma at line 7, column 17, so that line 7 reads\n    "commit": null\n  ${keep(`${B}/last.json`)}`,
    ]);
  });
});

describe('a merge conflict left in a file', () => {
  it('in a baseline, a fixture, a persona or config.yml: said as a conflict at its first line, with the lines to delete to keep either side', async () => {
    const conflicted = (ours: string, theirs: string, base = ''): string => `<<<<<<< HEAD\n${ours}${base}=======\n${theirs}>>>>>>> feature\n`;
    const r = await load({
      [C]: `agent:\n${conflicted('  url: http://127.0.0.1:9/chat\n', '  url: http://127.0.0.1:8/chat\n')}`,
      [`${F}/a.yml`]: 'fixtures:\n  - { label: base, message: x }\n  - { label: three, message: x }\n',
      // The parser: "Expected double-quoted property name" at the marker.
      [`${B}/base.json`]: `{\n  "label": "base",\n${conflicted('  "reply": "Refunds take 5 days.",\n', '  "reply": "Refunds take 3 days.",\n')}  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "2026-01-01T00:00:00Z",\n  "commit": null\n}\n`,
      // diff3's ||||||| base section, an empty side: the base section goes with the first side's deletion.
      [`${B}/three.json`]: `{\n  "label": "three",\n  "reply": "r",\n${conflicted('  "variants": ["a"],\n', '', '||||||| base\n  "variants": [],\n')}  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "2026-01-01T00:00:00Z",\n  "commit": null\n}\n`,
      // The parser: "Implicit keys need to be on a single line", and "message" written twice.
      [`${F}/b.yml`]: conflicted('label: b\nmessage: hi\n', 'label: b\nmessage: hello\n'),
      // Inside a list item, CRLF line endings.
      [`${P}/p.yml`]: `- label: p\n${conflicted('  opening: hi\n', '  opening: hello\n')}  expect: { terminal: finish }\n`.replace(/\n/g, '\r\n'),
    });
    const said = (kind: string, at: number, end: number): string => `invalid ${kind}: a merge conflict left unresolved at line ${String(at)} (git's <<<<<<< HEAD to >>>>>>> feature on line ${String(end)}), which ${kind} does not read`;
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:1: ${said('YAML', 2, 6)}\n  fix: keep one side: to keep the side marked HEAD (line 3), delete lines 2 and 4 to 6; to keep the side marked feature (line 5), delete lines 2 to 4 and 6`,
      `${F}/b.yml:1:1: ${said('YAML', 1, 7)}\n  fix: keep one side: to keep the side marked HEAD (lines 2 to 3), delete lines 1 and 4 to 7; to keep the side marked feature (lines 5 to 6), delete lines 1 to 4 and 7`,
      `${P}/p.yml:2:1: ${said('YAML', 2, 6)}\n  fix: keep one side: to keep the side marked HEAD (line 3), delete lines 2 and 4 to 6; to keep the side marked feature (line 5), delete lines 2 to 4 and 6`,
      `${B}/base.json:3:1: ${said('JSON', 3, 7)}\n  fix: keep one side: to keep the side marked HEAD (line 4), delete lines 3 and 5 to 7; to keep the side marked feature (line 6), delete lines 3 to 5 and 7`,
      `${B}/three.json:4:1: ${said('JSON', 4, 9)}\n  fix: keep one side: to keep the side marked HEAD (line 5), delete lines 4 and 6 to 9; to keep the side marked feature (empty), delete lines 4 to 9`,
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), "invalid YAML: a merge conflict left unresolved at line 3 (git's <<<<<<< HEAD to >>>>>>> feature on line 7), which YAML does not read", { 'line 3': 'line 1' });
    quotedAndSaid(
      r.errors.map(formatIssue).join('\n'),
      'to keep the side marked HEAD (line 4), delete lines 3 and 5 to 7; to keep the side marked feature (line 6), delete lines 3 to 5 and 7',
    );
  });

  it('one YAML reads without an error (inside a quoted message over several lines) is refused in the same words, not sent to the agent as the message', async () => {
    const M = '<<<<<<< HEAD\n    and it arrived broken.\n=======\n    and it never arrived.\n>>>>>>> feature\n';
    const r = await load({
      [C]: AGENT,
      // Both parsers read the quoted value across the marker lines: the message was "I ordered a lamp <<<<<<< HEAD and it arrived broken. ======= ...".
      [`${F}/a.yml`]: `- label: a\n  message: "I ordered a lamp\n${M}    What now?"\n`,
      [`${F}/b.yml`]: `{ label: b, message: "I ordered a lamp\n${M}    What now?" }\n`,
      [`${P}/p.yml`]: `- label: p\n  opening: 'I ordered a lamp\n${M}    What now?'\n  expect: { terminal: finish }\n`,
      // A marker's characters inside a line are text.
      [`${F}/ok.yml`]: 'label: ok\nmessage: "<<<<<<< HEAD is text here"\n',
    });
    const said = (file: string, at: number): string =>
      `${file}:${at}:1: invalid YAML: a merge conflict left unresolved at line ${at} (git's <<<<<<< HEAD to >>>>>>> feature on line ${at + 4}), which YAML does not read\n  fix: keep one side: to keep the side marked HEAD (line ${at + 1}), delete lines ${at} and ${at + 2} to ${at + 4}; to keep the side marked feature (line ${at + 3}), delete lines ${at} to ${at + 2} and ${at + 4}`;
    expect(r.errors.map(formatIssue)).toEqual([said(`${F}/a.yml`, 3), said(`${F}/b.yml`, 2), said(`${P}/p.yml`, 3)]);
    // One side kept, as the fix says: the file loads, its message without the marker lines.
    const kept = await load({ [C]: AGENT, [`${F}/a.yml`]: '- label: a\n  message: "I ordered a lamp\n    and it arrived broken.\n    What now?"\n' });
    expect(kept.errors).toEqual([]);
    expect(kept.suite!.fixtures.map((f) => f.message)).toEqual(['I ordered a lamp and it arrived broken. What now?']);
  });

  it('markers without a whole conflict (a "=======" line alone) are the parser\'s to say', async () => {
    const r = await load({ [C]: AGENT, [`${F}/a.yml`]: 'label: a\nmessage: hi\n=======\n' });
    expect(r.errors.map((e) => e.message).join('\n')).not.toContain('merge conflict');
  });
});

describe('two invalid labels that reduce to one', () => {
  it('are offered distinct free labels, the second naming the first\'s', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'fixtures:\n  - { label: café, message: x }\n  - { label: cafè, message: y }\n  - { label: "café!", message: z }\n',
      // A label a fixture uses is still passed over first.
      [`${F}/b.yml`]: 'label: Cafe-2\nmessage: w\n',
    });
    expect(r.errors.map((e) => `${e.file}:${String(e.line)}: ${e.fix}`)).toEqual([
      `${F}/a.yml:2: rename it, e.g. label: cafe`,
      `${F}/a.yml:3: rename it, e.g. label: cafe-3 (cafe is offered for "café" at ${F}/a.yml:2)`,
      `${F}/a.yml:4: rename it, e.g. label: cafe-4 (cafe is offered for "café" at ${F}/a.yml:2)`,
    ]);
    // Following every fix: no duplicate label.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'fixtures:\n  - { label: cafe, message: x }\n  - { label: cafe-3, message: y }\n  - { label: cafe-4, message: z }\n',
      [`${F}/b.yml`]: 'label: Cafe-2\nmessage: w\n',
    });
    expect(fixed.errors).toEqual([]);
  });

  it('a hundred that reduce alike are each offered their own, and following every fix loads', async () => {
    const n = 100;
    const labels = Array.from({ length: n }, (_, i) => `a${'!'.repeat(i + 1)}`);
    // Twenty to a file, the most errors a file shows.
    const files = (items: readonly string[]): Record<string, string> =>
      Object.fromEntries(Array.from({ length: n / 20 }, (_, k) => [`${F}/f${String(k).padStart(2, '0')}.yml`, items.slice(20 * k, 20 * k + 20).map((l) => `- { label: ${l}, message: x }\n`).join('')]));
    const r = await load({ [C]: AGENT, ...files(labels.map((l) => `"${l}"`)) });
    const offered = r.errors.map((e) => /^rename it, e\.g\. label: (\S+)/.exec(e.fix ?? '')?.[1] ?? '');
    expect(offered).toEqual(['a', ...Array.from({ length: n - 1 }, (_, i) => `a-${i + 2}`)]);
    const fixed = await load({ [C]: AGENT, ...files(offered) });
    expect(fixed.errors).toEqual([]);
  });

  it('thousands that reduce alike cost a step each, the count resuming where it ended (NextFree), not counted up from -2 each', () => {
    let asked = 0;
    const taken = new (class extends Map<string, string> {
      override has(key: string): boolean {
        asked += 1;
        return super.has(key);
      }
    })([['a', 'a']]);
    const offered = new Map<string, string>();
    const next: NextFree = new Map();
    const n = 3000;
    let differ = 0;
    for (let i = 0; i < n; i += 1) {
      // Asked twice for one label before it is offered (freeLabelFixes: the label, then its fix): the same label both times.
      const first = freeSuggestion('a!', taken, offered, next);
      const again = freeSuggestion('a!', taken, offered, next);
      if (again?.label !== first?.label || again?.note !== first?.note) differ += 1;
      offered.set((first as { label: string }).label, `"a!" at a.yml:${String(i + 1)}`);
    }
    expect(differ).toBe(0);
    expect([...offered.keys()].slice(0, 3)).toEqual(['a-2', 'a-3', 'a-4']);
    expect(offered.has(`a-${String(n + 1)}`)).toBe(true);
    // Was about n * n / 2 (4.5 million for 3,000): each count from -2.
    expect(asked).toBeLessThan(10 * n);
  });
});
