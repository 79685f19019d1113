// A list item written at the column of a mapping's keys, or a key's list written left of the key:
// said at the item's "-", in our words, with the line as it should read (docs/troubleshooting.md),
// not in the parser's words at the line it stopped on. Through the loader, real files in a temp dir.

import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { C, F, OK_FIXTURE, load } from './helpers.js';

const P = '.agent-replay/personas';
const AGENT = 'agent:\n  url: http://127.0.0.1:9/chat\n';

/** `file:line:column: message` and the fix of each error. */
function said(errors: { file: string; line: number | null; column: number | null; message: string; fix: string }[]): string[] {
  return errors.map((e) => `${e.file}:${String(e.line)}:${String(e.column)}: ${e.message}\n  fix: ${e.fix}`);
}

describe('a list item at the column of the keys above it', () => {
  it('after a key and its value: said at its "-", with each reading of it and its fix', async () => {
    const r = await load({
      [C]: AGENT,
      // The parser: "Implicit keys need to be on a single line", at line 3.
      [`${F}/a.yml`]: 'label: x\nmessage: y\n- z\n',
      // A mapping item: also the next item of a list of fixtures; the parser says it at the blank line.
      [`${F}/b.yml`]: 'label: b\nmessage: hi\n\n- contains: refund\n- maxLatencyMs: 2000\n',
      // A key with a list above it in the same mapping: one more item of that list, too.
      [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps:\n  - one\nmaxTurns: 3\n- two\nexpect: { terminal: finish }\n',
      // A mapping item after a list of mappings: one more of them (not of a list of text), its lines moved together.
      [`${P}/q.yml`]: 'label: q\nopening: hi\nfollowUps: [one]\nmocks:\n  - tool: find_order\n    output: { status: delivered }\nmaxTurns: 3\n- tool: issue_refund\n  output: { ok: true }\nexpect: { terminal: finish }\n',
    });
    // In a list item, at its keys' column: a list whose key was left out, or (a mapping that starts
    // with no key of that item) the list's next item; `- label: b` is only that (errors.test.ts).
    const inItem = await load({
      [C]: AGENT,
      [`${F}/c.yml`]: '- label: c\n  message: hi\n  - contains: refund\n    flags: i\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  - one\n  expect: { terminal: finish }\n',
    });
    const because = (n: number, key: string, at: number): string =>
      `invalid YAML: the list item on line ${String(n)} is at the column of the keys above it, after "${key}" on line ${String(at)} and its value, so YAML reads it neither as a key nor as an item of a list (a list may start at its key's column only on the line after the key)`;
    const ownKey = 'for a list whose key was left out, write the key above it, at its column, ending in ":"';
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:3:1: ${because(3, 'message', 2)}\n  fix: ${ownKey}`,
      `${F}/b.yml:4:1: ${because(4, 'message', 2)}\n  fix: for the next item of a list of mappings, write "- " before line 1 too, so that it reads\n    - label: b\n  and indent line 2 by 2 spaces more\n  or, ${ownKey}`,
      `${P}/p.yml:6:1: ${because(6, 'maxTurns', 5)}\n  fix: for one more item of the list of "followUps" on line 3, move line 6 up under line 4, indented by 2 spaces more\n  or, ${ownKey}`,
      `${P}/q.yml:8:1: ${because(8, 'maxTurns', 7)}\n  fix: for one more item of the list of "mocks" on line 4, move lines 8 to 9 up under line 6, indented by 2 spaces more\n  or, ${ownKey}`,
    ]);
    expect(said(inItem.errors)).toEqual([
      `${F}/c.yml:3:3: ${because(3, 'message', 2)}\n  fix: for the next item of the list, start its "-" at the beginning of the line, as the "-" on line 1, so that line 3 reads\n    - contains: refund\n  and move line 4 left by 2 spaces too\n  or, ${ownKey}`,
      `${P}/r.yml:3:3: ${because(3, 'opening', 2)}\n  fix: ${ownKey}`,
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'invalid YAML: the list item on line 3 is at the column of the keys above it, after "message" on line 2 and its value, so YAML reads it neither as a key nor as an item of a list ...');
    // Each fix as written: the file loads, the list read as meant.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'label: x\nmessage: y\nassert:\n- contains: z\n',
      [`${F}/b.yml`]: '- label: b\n  message: hi\n\n- label: c\n  message: yo\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps:\n  - one\n  - two\nmaxTurns: 3\nexpect: { terminal: finish }\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.fixtures.map((f) => f.label)).toEqual(['x', 'b', 'c']);
    expect(fixed.suite!.personas.map((p) => p.followUps)).toEqual([['one', 'two']]);
  });

  it('after its key\'s list written deeper: the list\'s next item, at its items\' column', async () => {
    // The parser: "A block sequence may not be used as an implicit map key" at line 5, the item's.
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n    - one\n  - two\n  - three\n  expect: { terminal: finish }\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:5:3: invalid YAML: the list item on line 5 is at the column of "followUps" on line 3, left of the items of its list (from line 4), so YAML reads it neither as an item of that list nor as a key\n` +
        '  fix: indent its "-" by 4 spaces (not 2), as the "-" on line 4, so that line 5 reads\n        - two\n  and move line 6 right by 2 spaces too',
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'the list item on line 5 is at the column of "followUps" on line 3, left of the items of its list (from line 4), ...');
    const fixed = await load({ [C]: AGENT, [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n    - one\n    - two\n    - three\n  expect: { terminal: finish }\n' });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.personas[0]!.followUps).toEqual(['one', 'two', 'three']);
  });

  it('a list at its key\'s column right after the key is that key\'s value, and valid', async () => {
    const r = await load({ [C]: AGENT, [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps:\n- one\n- two\nmaxTurns: 3\nexpect: { terminal: finish }\n' });
    expect(r.errors).toEqual([]);
    expect(r.suite!.personas[0]!.followUps).toEqual(['one', 'two']);
  });
});

describe('a key\'s list written left of the key, right of its item\'s "-"', () => {
  it('is said at the list\'s first "-", not at the key\'s line, with the line as it should read', async () => {
    // The parser: "All sequence items must start at the same column", at the end of line 4.
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: 'personas:\n  - label: p\n    opening: hi\n    followUps:\n   - one\n   - two\n    expect: { terminal: finish }\n',
      // An item after it at the key's column: that column.
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n   - one\n    - two\n    expect: { terminal: finish }\n',
    });
    const because = 'invalid YAML: the list item on line 5 is indented by 3 spaces, less than "followUps" on line 4 (4), so YAML does not read it as an item of the list under "followUps"';
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:5:4: ${because}\n  fix: indent its "-" by 6 spaces (not 3), deeper than "followUps" on line 4, so that line 5 reads\n          - one\n  and move line 6 right by 3 spaces too`,
      `${P}/q.yml:5:4: ${because}\n  fix: indent its "-" by 4 spaces (not 3), as the "-" on line 6, so that line 5 reads\n        - one`,
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), because);
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: 'personas:\n  - label: p\n    opening: hi\n    followUps:\n      - one\n      - two\n    expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n    - one\n    - two\n    expect: { terminal: finish }\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.personas.map((p) => p.followUps)).toEqual([['one', 'two'], ['one', 'two']]);
  });
});

describe('a list item between the outer "-" and the keys, after a list at the key\'s column', () => {
  it('is one error, at its "-", with the line as it reads in the list above it, of its kind', async () => {
    // The parser: "All sequence items must start at the same column", then "Implicit keys need to be
    // on a single line" at the same line (the text, then the next key): one mistake.
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n - two\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n    - one\n   - two\n    expect: { terminal: finish }\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:5:2: invalid YAML: the list item on line 5 starts at another column than the list's items above it\n` +
        '  fix: for one more item of the list of "followUps" on line 3, indent its "-" by 2 spaces (not 1), as the "-" on line 4, so that line 5 reads\n      - two',
      `${P}/q.yml:6:4: invalid YAML: the list item on line 6 starts at another column than the list's items above it\n` +
        '  fix: for one more item of the list of "followUps" on line 4, indent its "-" by 4 spaces (not 3), as the "-" on line 5, so that line 6 reads\n        - two',
    ]);
    // A mapping after a list of mappings: one more of them, or the outer list's next item.
    const m = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: '- label: a\n  message: hi\n  mocks:\n  - tool: find_order\n    output: { ok: true }\n - label: b\n   message: yo\n',
    });
    expect(said(m.errors)).toEqual([
      `${F}/a.yml:6:2: invalid YAML: the list item on line 6 starts at another column than the list's items above it\n` +
        '  fix: for one more item of the list of "mocks" on line 3, indent its "-" by 2 spaces (not 1), as the "-" on line 4, so that line 6 reads\n      - label: b\n  and move line 7 right by 1 space too\n' +
        '  or, for the next item of the list on line 1, start its "-" at the beginning of the line (not after 1 space), as the "-" on line 1, so that line 6 reads\n    - label: b\n  and move line 7 left by 1 space too',
    ]);
    // Each fix as written: the file loads, the list read as meant.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n  - two\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n    - one\n    - two\n    expect: { terminal: finish }\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.personas.map((p) => p.followUps)).toEqual([['one', 'two'], ['one', 'two']]);
  });
});

describe('a text item at the column of the outer list\'s "-", after a key\'s list or a key with no value', () => {
  it('is said at its "-" in our words, with the line as it reads in the key\'s list', async () => {
    // The parser: "Implicit keys need to be on a single line" at the item's text (the text, then the key after it).
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n- two\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n      - one\n  - two\n    expect: { terminal: finish }\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n- two\n  expect: { terminal: finish }\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:5:1: invalid YAML: the list item on line 5 is at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4), so YAML reads it as a text item of the list on line 1, and cannot read line 6 after it\n` +
        '  fix: for one more item of the list of "followUps", indent its "-" by 2 spaces (not 0), as the "-" on line 4, so that line 5 reads\n      - two',
      `${P}/q.yml:6:3: invalid YAML: the list item on line 6 is at the column of the "-" on line 2, left of the items of the list of "followUps" on line 4 (from line 5), so YAML reads it as a text item of the list on line 2, and cannot read line 7 after it\n` +
        '  fix: for one more item of the list of "followUps", indent its "-" by 6 spaces (not 2), as the "-" on line 5, so that line 6 reads\n          - two',
      `${P}/r.yml:4:1: invalid YAML: the list item on line 4 is at the column of the "-" on line 1, left of "followUps" on line 3, which has nothing after its ":", so YAML reads it as a text item of the list on line 1, and cannot read line 5 after it\n` +
        '  fix: for an item of the list of "followUps", indent its "-" by 4 spaces (not 0), deeper than "followUps" on line 3, so that line 4 reads\n        - two',
    ]);
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'the list item on line 5 is at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4), ...');
    // Each fix as written: the file loads, the list read as meant.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n  - two\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n      - one\n      - two\n    expect: { terminal: finish }\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n    - two\n  expect: { terminal: finish }\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.personas.map((p) => p.followUps)).toEqual([['one', 'two'], ['one', 'two'], ['two']]);
  });

  it('several of them, or a comment before the next key: one error, at the first "-", with the lines as they read in the list', async () => {
    // The parser: "Implicit keys need to be on a single line" at the last item only, the first read
    // as a valid item; with a comment line before the next key, "Sequence item without - indicator" there.
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n- two\n- three\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: '- label: q\n  opening: hi\n  followUps:\n  - one\n- two\n  # the end\n  expect: { terminal: finish }\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n- two\n\n# the end\n  expect: { terminal: finish }\n',
    });
    const syntax = r.errors.filter((e) => e.message.startsWith('invalid YAML'));
    expect(said(syntax)).toEqual([
      `${P}/p.yml:5:1: invalid YAML: the list items on lines 5 to 6 are at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4), so YAML reads them as text items of the list on line 1, and cannot read line 7 after them\n` +
        '  fix: for more items of the list of "followUps", indent their "-" by 2 spaces (not 0), as the "-" on line 4, so that lines 5 to 6 read\n      - two\n      - three',
      `${P}/q.yml:5:1: invalid YAML: the list item on line 5 is at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4), so YAML reads it as a text item of the list on line 1, and cannot read line 7 after it\n` +
        '  fix: for one more item of the list of "followUps", indent its "-" by 2 spaces (not 0), as the "-" on line 4, so that line 5 reads\n      - two',
      `${P}/r.yml:4:1: invalid YAML: the list item on line 4 is at the column of the "-" on line 1, left of "followUps" on line 3, which has nothing after its ":", so YAML reads it as a text item of the list on line 1, and cannot read line 7 after it\n` +
        '  fix: for an item of the list of "followUps", indent its "-" by 4 spaces (not 0), deeper than "followUps" on line 3, so that line 4 reads\n        - two',
    ]);
    // Each fix as written: the file loads, the list read as meant.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n  - two\n  - three\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: '- label: q\n  opening: hi\n  followUps:\n  - one\n  - two\n  # the end\n  expect: { terminal: finish }\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n    - two\n\n# the end\n  expect: { terminal: finish }\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.personas.map((p) => p.followUps)).toEqual([['one', 'two', 'three'], ['one', 'two'], ['two']]);
  });

  it('its text over several lines (plain, quoted, a block scalar): one error, at its "-", with all its lines as they read in the list', async () => {
    // The parser: "Implicit keys need to be on a single line" at plain text; "Sequence item without
    // - indicator" at the next key after a closing quote or a block scalar's deeper lines.
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n- two and\n  more\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n      - one\n  - "two and\n    more"\n    expect: { terminal: finish }\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n- |\n    two and\n\n    more\n  expect: { terminal: finish }\n',
      [`${P}/s.yml`]: "- label: s\n  opening: hi\n  followUps:\n  - one\n- 'two and\n  more'\n- three\n  x\n  # the end\n  expect: { terminal: finish }\n",
    });
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:5:1: invalid YAML: the list item on line 5 is at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4), so YAML reads it as a text item of the list on line 1, and cannot read line 7 after it\n` +
        '  fix: for one more item of the list of "followUps", indent its "-" by 2 spaces (not 0), as the "-" on line 4, so that lines 5 to 6 read\n      - two and\n        more',
      `${P}/q.yml:6:3: invalid YAML: the list item on line 6 is at the column of the "-" on line 2, left of the items of the list of "followUps" on line 4 (from line 5), so YAML reads it as a text item of the list on line 2, and cannot read line 8 after it\n` +
        '  fix: for one more item of the list of "followUps", indent its "-" by 6 spaces (not 2), as the "-" on line 5, so that lines 6 to 7 read\n          - "two and\n            more"',
      `${P}/r.yml:4:1: invalid YAML: the list item on line 4 is at the column of the "-" on line 1, left of "followUps" on line 3, which has nothing after its ":", so YAML reads it as a text item of the list on line 1, and cannot read line 8 after it\n` +
        '  fix: for an item of the list of "followUps", indent its "-" by 4 spaces (not 0), deeper than "followUps" on line 3, so that lines 4 to 7 read\n        - |\n            two and\n            more',
      `${P}/s.yml:5:1: invalid YAML: the list items on lines 5 to 7 are at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4), so YAML reads them as text items of the list on line 1, and cannot read line 10 after them\n` +
        "  fix: for more items of the list of \"followUps\", indent their \"-\" by 2 spaces (not 0), as the \"-\" on line 4, so that lines 5 to 8 read\n      - 'two and\n        more'\n      - three\n        x",
    ]);
    // Each fix as written: the file loads, the list read as meant.
    const fixed = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n  - two and\n    more\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    followUps:\n      - one\n      - "two and\n        more"\n    expect: { terminal: finish }\n',
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n    - |\n        two and\n\n        more\n  expect: { terminal: finish }\n',
      [`${P}/s.yml`]: "- label: s\n  opening: hi\n  followUps:\n  - one\n  - 'two and\n    more'\n  - three\n    x\n  # the end\n  expect: { terminal: finish }\n",
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.personas.map((p) => p.followUps)).toEqual([['one', 'two and more'], ['one', 'two and more'], ['two and\n\nmore\n'], ['one', 'two and more', 'three x']]);
  });
});
