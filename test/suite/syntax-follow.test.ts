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

describe('a [ in a quoted value begun on a line above', () => {
  it('is text: the { closed by ] after it is said, not taken for the [ it closes', () => {
    expect(said('label: a\nmessage: "see the\n  [docs first"\nassert: { contains: x ]\n')).toEqual([
      '4:23: invalid YAML: the { opened at line 4, column 9 is closed here by ], not by }\n  fix: write } in place of the ], so that line 4 reads\n    assert: { contains: x }',
    ]);
    // A block scalar's text opens no quote: the brackets after it are read.
    expect(said('label: a\nmessage: |\n  "Hello\nassert: { contains: x ]\n').map((s) => s.split('\n')[0])).toEqual(['4:23: invalid YAML: the { opened at line 4, column 9 is closed here by ], not by }']);
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

describe('a quote never closed, followed by more keys', () => {
  it('is said where it opens, past the quotes closed on their lines above it (a "?" before a closing quote is no opening)', () => {
    expect(said('label: refund\nmessage: "Can I get a refund?"\nassert:\n  contains: "30 days\n  notContains: \'sorry\'\n')).toEqual([
      '4:13: invalid YAML: the double quote opened here is never closed\n  fix: close the value with " on this line (a " inside it is written \\")',
    ]);
  });

  it('what the parser says of the text it swallows (a \\d in the next item) is not said', () => {
    const text = "fixtures:\n  - label: a\n    message: hi\n  - label: b\n    message: \"where is my order\n    assert:\n      regex: '\\d+'\n  - label: c\n    message: bye\n";
    expect(said(text)).toEqual(['5:14: invalid YAML: the double quote opened here is never closed\n  fix: close the value with " on this line (a " inside it is written \\")']);
  });
});

describe('a quote inside a quoted value', () => {
  it("'don't' and \"say \"hi\"\": said at the value, with the quotes inside it written as YAML reads them", () => {
    expect(said("fixtures:\n  - label: a\n    message: 'I can't log in'\n  - label: b\n    message: hi\n")).toEqual([
      `3:14: invalid YAML: the value on line 3 ends at the ' after "I can", so YAML cannot read the rest of the line ("t log in'")\n  fix: write each ' inside the value twice (''), so that line 3 reads\n        message: 'I can''t log in'`,
    ]);
    expect(said('label: a\nmessage: "say "hi" now"\nassert:\n  contains: x\n')).toEqual([
      `2:10: invalid YAML: the value on line 2 ends at the " after "say", so YAML cannot read the rest of the line ("hi\\" now\\"")\n  fix: write each " inside the value as \\", so that line 2 reads\n    message: "say \\"hi\\" now"`,
    ]);
  });
});

describe('a list item with no space after its "-"', () => {
  it('-label: and -{: one error at that line, not the parser\'s words for every line after it', () => {
    expect(said('fixtures:\n  - label: a\n    message: hi\n  -label: b\n    message: hi\n    assert:\n      contains: x\n  - label: c\n    message: hi\n')).toEqual([
      '4:3: invalid YAML: line 4 has no space after its "-", so YAML reads "-label" as a key, not as a list item\n  fix: put a space after the "-", so that line 4 reads\n      - label: b',
    ]);
    expect(said('fixtures:\n  - { label: a, message: hi }\n  -{ label: b, message: hi, assert: { contains: x } }\n  - { label: c, message: hi }\n')).toEqual([
      '3:3: invalid YAML: line 3 has no space after its "-", so YAML reads the line as text, not as a list item\n  fix: put a space after the "-", so that line 3 reads\n      - { label: b, message: hi, assert: { contains: x } }',
    ]);
  });

  it('-x after an item at its column: said at it, not as a ":" left out of the item above (`- see [docs]` is text)', () => {
    expect(said('followUps:\n  - see [docs]\n  -x\n  - y\npersona: p\n')).toEqual([
      '3:3: invalid YAML: line 3 has no space after its "-", so YAML reads "-x" as text, not as a list item\n  fix: put a space after the "-", so that line 3 reads\n      - x',
    ]);
    expect(said('- see [docs]\n-x\n').map((s) => s.split('\n')[0])).toEqual(['2:1: invalid YAML: line 2 has no space after its "-", so YAML reads "-x" as text, not as a list item']);
  });

  it('a "-note:" line in a block scalar\'s text is text', () => {
    expect(said('label: a\nmessage: |\n  -note: x\n  more\nassert: x: y\n').map((s) => s.split('\n')[0])).toEqual([
      '5:9: invalid YAML: "x" is written on the line of "assert", which YAML does not read as a key under it',
    ]);
  });
});

describe('a key written without ": " before its [ ] or { }', () => {
  it('assert { ... }, assert:{ ... } and followUps [ ... ]: one error at the key, with the line as it should read', () => {
    expect(said('label: a\nmessage: hi\nassert { regex: "30 days", flags: "i" }\n')).toEqual([
      '3:1: invalid YAML: line 3 has no ":" after its key "assert", so YAML does not read the { } after it as its value\n  fix: write ": " after "assert", so that line 3 reads\n    assert: { regex: "30 days", flags: "i" }',
    ]);
    expect(said('label: a\nmessage: hi\nassert:{ judge: "Polite?", threshold: 0.7 }\npersona: p\n')).toEqual([
      '3:1: invalid YAML: line 3 has no space after the colon of "assert", so YAML does not read the { } after it as its value\n  fix: put a space after the colon, so that line 3 reads\n    assert: { judge: "Polite?", threshold: 0.7 }',
    ]);
    expect(said('label: a\nopening: hi\nfollowUps [ "Order 5521", "The screen" ]\nmaxTurns: 3\n')).toEqual([
      '3:1: invalid YAML: line 3 has no ":" after its key "followUps", so YAML does not read the [ ] after it as its value\n  fix: write ": " after "followUps", so that line 3 reads\n    followUps: [ "Order 5521", "The screen" ]',
    ]);
  });
});

describe("the parser's words after the first mistake", () => {
  it('are not said: a key indented one space short in a list item, then the lines after it', () => {
    const text = 'fixtures:\n  - label: a\n    message: hi\n    followUps: [ "Order 5521" ]\n   mocks:\n      - { tool: find_order }\n    expect:\n      terminal: finish\n';
    expect(said(text)).toEqual(['5:4: invalid YAML: "mocks" on line 5 is indented by 3 spaces, less than "label" on line 2 (4), so YAML does not read it as a key of that list item\n  fix: indent it by 4 spaces (not 3), as "label" on line 2, so that line 5 reads\n        mocks:']);
  });

  it('are said after a key written twice, which loses the parser nothing (the file is not read past a syntax error)', () => {
    expect(said('label: a\nlabel: b\nmessage: hi\nfollowUps:\n  - text: one\n   two: x\n').map((s) => s.split('\n')[0])).toEqual([
      '2:1: invalid YAML: the key "label" appears twice in one mapping (first on line 1)',
      '6:4: invalid YAML: "two" on line 6 is indented by 3 spaces, less than "text" on line 5 (4), so YAML does not read it as a key of that list item',
    ]);
  });
});

describe('a key one space off the keys beside it', () => {
  it('deeper than the key above, whose value ends on its line: said at the key with the line as it should read, also after a key written twice', () => {
    expect(said('label: a\nmessage: "hi"\n cost: { capUsd: 1 }\n')).toEqual([
      '3:2: invalid YAML: "cost" on line 3 is indented by 1 space, more than "message" on line 2, whose value ends on its line: YAML reads it neither as more of that value nor as a key beside "message"\n  fix: start it at the beginning of the line (not after 1 space), as "message" on line 2, so that line 3 reads\n    cost: { capUsd: 1 }',
    ]);
    expect(said('fixtures:\n  - label: a\n    message: [hi]\n     persona: p\n')).toEqual([
      '4:6: invalid YAML: "persona" on line 4 is indented by 5 spaces, more than "message" on line 3, whose value ends on its line: YAML reads it neither as more of that value nor as a key beside "message"\n  fix: indent it by 4 spaces (not 5), as "message" on line 3, so that line 4 reads\n        persona: p',
    ]);
    expect(said('label: a\nlabel: b\nmessage: hi\nregex: { timeoutMs: 100 }\n cost: { capUsd: 1 }\n').map((s) => s.split('\n')[0])).toEqual([
      '2:1: invalid YAML: the key "label" appears twice in one mapping (first on line 1)',
      '5:2: invalid YAML: "cost" on line 5 is indented by 1 space, more than "regex" on line 4, whose value ends on its line: YAML reads it neither as more of that value nor as a key beside "regex"',
    ]);
  });

  it('one short, as the last key of the last list item: said at the key, the list\'s "-" placed by the item above or the line\'s start', () => {
    expect(said('fixtures:\n  - label: a\n    message: hi\n  - label: b\n   message: hi\n')).toEqual([
      '5:4: invalid YAML: "message" on line 5 is indented by 3 spaces, less than "label" on line 4 (4), so YAML does not read it as a key of that list item\n  fix: indent it by 4 spaces (not 3), as "label" on line 4, so that line 5 reads\n        message: hi',
    ]);
    expect(said('- label: a\n message: hi\n').map((s) => s.split('\n')[0])).toEqual([
      '2:2: invalid YAML: "message" on line 2 is indented by 1 space, less than "label" on line 1 (2), so YAML does not read it as a key of that list item',
    ]);
  });
});

describe('a key one space short of a one-item list\'s keys', () => {
  it('is said at the key, the "-" placed by the list\'s key an even number of spaces above it, with the item\'s next keys at that column', () => {
    expect(said('fixtures:\n  - label: a\n   message: hi\n')).toEqual([
      '3:4: invalid YAML: "message" on line 3 is indented by 3 spaces, less than "label" on line 2 (4), so YAML does not read it as a key of that list item\n  fix: indent it by 4 spaces (not 3), as "label" on line 2, so that line 3 reads\n        message: hi',
    ]);
    expect(said('suite:\n  fixtures:\n    - label: a\n     message: hi\n     persona: p\n     assert:\n       contains: x\n').join('\n')).toBe(
      '4:6: invalid YAML: "message" on line 4 is indented by 5 spaces, less than "label" on line 3 (6), so YAML does not read it as a key of that list item\n  fix: indent it by 6 spaces (not 5), as "label" on line 3, so that line 4 reads\n          message: hi\n  and indent lines 5 and 6 by 6 spaces too',
    );
    expect(said('fixtures: # one\r\n  - label: a\r\n   message: hi\r\nconcurrency: 2\r\n').map((s) => s.split('\n')[0])).toEqual([
      '3:4: invalid YAML: "message" on line 3 is indented by 3 spaces, less than "label" on line 2 (4), so YAML does not read it as a key of that list item',
    ]);
    // The "-" an odd number of spaces in: it may be the line out of place (the parser's words stay).
    expect(said('fixtures:\n   - label: a\n    message: hi\n').map((s) => s.split('\n')[0])).toEqual(['3:1: invalid YAML: Sequence item without - indicator']);
  });
});

describe('a line indented with a tab', () => {
  it('after a blank line: one error at the tab, not the parser\'s words at the blank line above it', () => {
    expect(said('fixtures:\n  - label: a\n    message: hi\n\n\t- label: b\n\t  message: hi\n')).toEqual([
      '5:1: invalid YAML: lines 5 and 6 are indented with a tab, which YAML does not allow\n  fix: indent with spaces, not tabs (set the editor to insert spaces for this file)',
    ]);
  });
});

describe('a quoted value with text after its closing quote, never closed at the line\'s end', () => {
  it('is said at the value, with the line as it reads quoted whole', () => {
    expect(said('label: a\nmessage: "say "hi" now\npersona: p\n')).toEqual([
      `2:10: invalid YAML: the value on line 2 ends at the " after "say", so YAML cannot read the rest of the line ("hi\\" now")\n  fix: put the whole value in single quotes, so that line 2 reads\n    message: 'say "hi" now'\n  or write each " inside the value as \\" and close it with ", so that line 2 reads\n    message: "say \\"hi\\" now"`,
    ]);
    // Its quotes not in pairs: the value as written, its first quote part of the text.
    expect(said('label: a\nmessage: "Hello" he said # greeting\n')).toEqual([
      `2:10: invalid YAML: the value on line 2 ends at the " after "Hello", so YAML cannot read the rest of the line (" he said")\n  fix: if the quotes are part of the text, put the whole value in single quotes, so that line 2 reads\n    message: '"Hello" he said' # greeting\n  or put the whole value in double quotes, with each " inside it written as \\", so that line 2 reads\n    message: "\\"Hello\\" he said" # greeting`,
    ]);
  });
});

describe('a quote inside a quoted value in [ ] or { }', () => {
  it('is said at the value, closed by the quote before the , ] or } that ends it', () => {
    expect(said('label: a\nmessage: hi\nassert: { regex: "boots "x" (in", flags: "i" }\npersona: p\n')).toEqual([
      `3:18: invalid YAML: the value on line 3 ends at the " after "boots", so YAML cannot read the rest of the line ("x\\" (in\\", flags: \\"i\\" }")\n  fix: write each " inside the value as \\", so that line 3 reads\n    assert: { regex: "boots \\"x\\" (in", flags: "i" }`,
    ]);
    expect(said("label: a\nmessage: hi\nfollowUps: [ \"ok\", 'I can't', \"b\" ]\n")).toEqual([
      `3:20: invalid YAML: the value on line 3 ends at the ' after "I can", so YAML cannot read the rest of the line ("t', \\"b\\" ]")\n  fix: write each ' inside the value twice (''), so that line 3 reads\n    followUps: [ "ok", 'I can''t', "b" ]`,
    ]);
    // No fix that takes the next key into the value (`"x"a"b, flags: "i"` read as one regex).
    expect(said('label: a\nmessage: hi\nassert: { regex: "x"a"b, flags: "i" }\n').join('\n')).not.toMatch(/ends at the|so that line/);
  });

  it('a key deeper than the key above, with the keys after it at its column, is not told to move (the key above may be the one out of place)', () => {
    expect(said('agent:\n url: "http://x"\n  timeoutMs: 5\n  headers: { X-A: b }\n').join('\n')).not.toMatch(/indent it by 1 space/);
  });
});

describe('a key one space deeper, its [ ] or { } over several lines closed at the column its fix moves it to', () => {
  it('is one mistake, said once at the key: the closing bracket is not told to move', () => {
    const key = (line: number, above: number, fix: string, reads: string): string =>
      `${String(line)}:${String(fix === '' ? 2 : 6)}: invalid YAML: "followUps" on line ${String(line)} is indented by ${fix === '' ? '1 space' : '5 spaces'}, more than "message" on line ${String(above)}, whose value ends on its line: YAML reads it neither as more of that value nor as a key beside "message"\n  fix: ${fix === '' ? 'start it at the beginning of the line (not after 1 space)' : fix}, as "message" on line ${String(above)}, so that line ${String(line)} reads\n    ${reads}`;
    expect(said('label: a\nmessage: "hi"\n followUps: [\n  one,\n  two\n]\npersona: p\n')).toEqual([key(3, 2, '', 'followUps: [')]);
    expect(said('label: a\nmessage: [hi]\n followUps: {\n  a: 1\n}\n')).toEqual([key(3, 2, '', 'followUps: {')]);
    expect(said('fixtures:\n  - label: a\n    message: "hi"\n     followUps: [\n      one\n    ]\n')).toEqual([key(4, 3, 'indent it by 4 spaces (not 5)', '    followUps: [')]);
  });

  it("a closing bracket still wrong once the key is moved: its fix is the file's with the key moved, said at the columns as written", () => {
    expect(said('fixtures:\n  - label: a\n    message: "hi"\n     followUps: [\n      one\n  ]\n').map((s) => s.split('\n').slice(0, 3).join('\n'))[1]).toBe(
      '6:3: invalid YAML: the ] on line 6 closes the [ opened at line 4, column 17 but is indented less than "followUps" on line 4, so YAML does not read it as part of the [ ], and reads nothing of the file after it\n  fix: indent it by 4 spaces (not 2), as "followUps" is on line 4, so that line 6 reads\n        ]',
    );
    expect(said('label: a\nmessage: "hi"\n followUps: [\n  one,\n  two\n}\n')[1]).toBe('6:1: invalid YAML: the [ opened at line 3, column 13 is closed here by }, not by ]\n  fix: write ] in place of the }, so that line 6 reads\n    ]');
  });
});

describe('a quoted value that starts with its quote twice', () => {
  it('is said as an empty quoted text followed by the rest, with the line as it should read', () => {
    expect(said('label: a\nmessage: ""x"\n')).toEqual([
      '2:10: invalid YAML: the value on line 2 is an empty quoted text ("") followed by "x\\"", which YAML cannot read after its closing quote\n  fix: write each " inside the value as \\", so that line 2 reads\n    message: "\\"x"\n  or, if the first " is one too many, remove it, so that line 2 reads\n    message: "x"',
    ]);
    expect(said("label: a\nmessage: ''x'\n")).toEqual([
      `2:10: invalid YAML: the value on line 2 is an empty quoted text ('') followed by "x'", which YAML cannot read after its closing quote\n  fix: write each ' inside the value twice (''), so that line 2 reads\n    message: '''x'\n  or, if the first ' is one too many, remove it, so that line 2 reads\n    message: 'x'`,
    ]);
    // Text after the closing quote: the text after the first quote is the value, quoted whole.
    expect(said('label: a\nmessage: ""x" more\n')).toEqual([
      `2:10: invalid YAML: the value on line 2 is an empty quoted text ("") followed by "x\\" more", which YAML cannot read after its closing quote\n  fix: put the whole value in single quotes, so that line 2 reads\n    message: '"x" more'\n  or write each " inside the value as \\" and close it with ", so that line 2 reads\n    message: "\\"x\\" more"`,
    ]);
    expect(said("fixtures:\n  - label: a\n    message: ''it' more # note\n")).toEqual([
      `3:14: invalid YAML: the value on line 3 is an empty quoted text ('') followed by "it' more", which YAML cannot read after its closing quote\n  fix: put the whole value in double quotes, so that line 3 reads\n        message: "'it' more" # note\n  or write each ' inside the value twice ('') and close it with ', so that line 3 reads\n        message: '''it'' more' # note`,
    ]);
    // Removing the first quote leaves a quote inside: only the escape is offered.
    expect(said('label: a\nmessage: ""hello" he said"\n')).toEqual([
      '2:10: invalid YAML: the value on line 2 is an empty quoted text ("") followed by "hello\\" he said\\"", which YAML cannot read after its closing quote\n  fix: write each " inside the value as \\", so that line 2 reads\n    message: "\\"hello\\" he said"',
    ]);
  });
});

describe('a value meant as text that starts with a character YAML reads otherwise', () => {
  it('@, `, %, "- ", [ ] or { } with text after it: said at the value with the line in quotes', () => {
    const first = (text: string): string[] => said(text).map((s) => s.split('\n').slice(0, 3).join('\n'));
    expect(first('label: a\nmessage: @support can you help? # ping\n')).toEqual([
      '2:10: invalid YAML: the value "@support can you help?" on line 2 starts with @, which YAML does not allow at the start of unquoted text\n  fix: put the value in quotes, so that line 2 reads\n    message: "@support can you help?" # ping',
    ]);
    expect(first('label: a\nmessage: `npm ci` fails\n')[0]).toMatch(/^2:10: .* starts with `, .*\n.*\n {4}message: "`npm ci` fails"$/);
    expect(first('label: a\nmessage: %d items\n')[0]).toMatch(/\n {4}message: "%d items"$/);
    expect(first('label: a\nmessage: - cancel my order\n')).toEqual([
      '2:10: invalid YAML: the value "- cancel my order" on line 2 starts with "- ", which YAML reads as a list item, and a list cannot start on its key\'s line\n  fix: put the value in quotes, so that line 2 reads\n    message: "- cancel my order"',
    ]);
    expect(first('fixtures:\n  - label: a\n    message: [urgent] my order is late\n    followUps:\n      - {{name}} here\n')).toEqual([
      '3:14: invalid YAML: the value "[urgent] my order is late" on line 3 starts with [, so YAML reads "[urgent]" as a list and cannot read the text after it\n  fix: put the value in quotes, so that line 3 reads\n        message: "[urgent] my order is late"',
      '5:9: invalid YAML: the value "{{name}} here" on line 5 starts with {, so YAML reads "{{name}}" as a mapping and cannot read the text after it\n  fix: put the value in quotes, so that line 5 reads\n          - "{{name}} here"',
    ]);
  });

  it('a block\'s | or > with text after it on its line: quoted, or the text on the line below', () => {
    expect(said('label: a\nmessage: | Hello, I need help\n')).toEqual([
      '2:10: invalid YAML: the value "| Hello, I need help" on line 2 starts with |, which YAML reads as the start of a block of text on the lines below, with nothing but a comment after it on its line\n  fix: put the value in quotes, so that line 2 reads\n    message: "| Hello, I need help"\n  or, for a block of text, end line 2 with the | and write the text on the lines below it, indented under the key:\n    message: |\n      Hello, I need help',
    ]);
  });
});

describe('a line of a | or > block left of its text', () => {
  it('no deeper than its key: said at the line, indented under the key, not as a key whose ":" is left out', () => {
    expect(said('label: a\nmessage: |\nHello there\nHow are you\nassert: { contains: x }\n')).toEqual([
      '3:1: invalid YAML: line 3, the text of the | block of "message" on line 2, is indented by no spaces, no deeper than "message", so YAML reads the block as empty and line 3 as a key written wrong\n  fix: indent the block\'s text deeper than "message": by 2 spaces, so that line 3 reads\n      Hello there\n  and each line of the text after it too',
    ]);
  });

  it('less than the block\'s first line: said at the line (not at the blank line above it), indented as that first line', () => {
    expect(said('fixtures:\n  - label: a\n    message: >-\n      Hello\n\n        there\n     Bye\n')).toEqual([
      '7:6: invalid YAML: line 7 is indented by 5 spaces, less than line 4, the first of the >- block of "message" on line 3 (6), so YAML ends the block before it and reads it as a key written wrong\n  fix: indent it by 6 spaces (not 5), as line 4, so that line 7 reads\n          Bye',
    ]);
    expect(said('label: a\nmessage: |\n\n  Hello\n\n Bye\n')).toEqual([
      '6:2: invalid YAML: line 6 is indented by 1 space, less than line 4, the first of the | block of "message" on line 2 (2), so YAML ends the block before it and reads it as a key written wrong\n  fix: indent it by 2 spaces (not 1), as line 4, so that line 6 reads\n      Bye',
    ]);
  });
});

describe('keys at the column of the list item\'s "-" above them', () => {
  it('are said once, at the first, as a new item whose "- " is left out or keys of the item above', () => {
    expect(said('fixtures:\n  - label: a\n    message: hi\n  label: b\n  message: x\n')).toEqual([
      '4:3: invalid YAML: "label" on line 4 is at the column of the "-" of the list item on line 2, so YAML reads it neither as a key of that item nor as an item of the list\n  fix: for a new item of the list, write "- " before it, so that line 4 reads\n      - label: b\n  and indent line 5 by 4 spaces too\n  or, for keys of the item on line 2, indent lines 4 and 5 by 4 spaces, as "label" on line 2',
    ]);
    expect(said('label: a\nmessage: hi\nassert:\n  - contains: x\n  judge: polite\n')).toEqual([
      '5:3: invalid YAML: "judge" on line 5 is at the column of the "-" of the list item on line 4, so YAML reads it neither as a key of that item nor as an item of the list\n  fix: for a new item of the list, write "- " before it, so that line 5 reads\n      - judge: polite\n  or, for a key of the item on line 4, indent line 5 by 4 spaces, as "contains" on line 4',
    ]);
  });
});

describe('a key followed by a full-width colon', () => {
  it('is said at the colon, with the line as it reads with ": "', () => {
    expect(said('fixtures:\n  - label: a\n    message：你好\n')).toEqual([
      '3:12: invalid YAML: line 3 writes "：" (a full-width colon) after the key "message", which YAML reads as a letter, not as the ":" after a key\n  fix: write ":" (and a space) in its place, so that line 3 reads\n        message: 你好',
    ]);
  });
});

describe('commas outside [ ] or { }', () => {
  it('after a quoted list item, as in JSON: said at the comma, with the line without it', () => {
    expect(said('label: a\nmessage: hi\nfollowUps:\n  - "Order 5521",\n  - "The screen"\n')).toEqual([
      '4:17: invalid YAML: the "," after the quoted value on line 4 is outside any [ ] or { }, where YAML cannot read it (a list\'s items on lines of their own, each after "- ", need no commas)\n  fix: remove it, so that line 4 reads\n      - "Order 5521"',
    ]);
  });

  it('between mappings written on a key\'s line: a list without its [ ], not text to quote', () => {
    expect(said('label: a\nmessage: hi\nassert: { contains: "x" }, { judge: "Polite?" }\n')).toEqual([
      '3:9: invalid YAML: the value on line 3 is mappings separated by commas, which YAML reads as one list only inside [ ]\n  fix: put them in [ ], so that line 3 reads\n    assert: [ { contains: "x" }, { judge: "Polite?" } ]',
    ]);
  });
});

describe('a key with no ":" after it', () => {
  it('is said once, when the next line has none either, or is under it with none', () => {
    const first = (text: string): string[] => said(text).map((s) => s.split('\n')[0] as string);
    expect(first('label: a\nassert\n  contains x\n')).toEqual(['2:1: invalid YAML: line 2 has no ":" after its key "assert", so YAML cannot read the lines indented under it as its value']);
  });

  it('names every line of the mapping without its ":" in that one error, each with the line as it should read, whichever the parser says it at', () => {
    const both = (at: string, lines: string, keys: string, reads: string): string =>
      `${at}: invalid YAML: lines ${lines} have no ":" after their keys (${keys}), so YAML cannot read them as keys and their values\n  fix: write ":" after each key (and a space before its value), so that ${reads}`;
    expect(said('label: a\nmessage hi\nassert x\n')).toEqual([both('2:1', '2 and 3', '"message", "assert"', 'line 2 reads\n    message: hi\n  and line 3 reads\n    assert: x')]);
    // A comment after the first: the parser says each line apart; still one error.
    expect(said('label: a\nmessage hi # greeting\nassert x\n')).toEqual([both('2:1', '2 and 3', '"message", "assert"', 'line 2 reads\n    message: hi # greeting\n  and line 3 reads\n    assert: x')]);
    // In a list item, past a blank line, and a key alone over the lines under it.
    expect(said('fixtures:\n  - label: a\n    message hi\n\n    assert\n      contains: x\n    repeat 3\n')).toEqual([
      both('3:5', '3, 5 and 7', '"message", "assert", "repeat"', 'line 3 reads\n        message: hi\n  and line 5 reads\n        assert:\n  and line 7 reads\n        repeat: 3'),
    ]);
    // The next item's line is another mapping's: said apart.
    expect(said('- label: a\n  message hi\n  assert x\n- label: b\n  message hi\n').map((s) => s.split('\n')[0])).toEqual([
      '2:3: invalid YAML: lines 2 and 3 have no ":" after their keys ("message", "assert"), so YAML cannot read them as keys and their values',
      '5:3: invalid YAML: line 5 has no ":" after its key "message", so YAML cannot read "hi" as its value',
    ]);
  });
});

describe('a "-" with nothing after it, its text or keys no deeper than it', () => {
  it('is one error in our words, at the text, not also the parser\'s "All mapping items must start at the same column"', () => {
    expect(said('label: a\nopening: hi\nfollowUps:\n  -\n Where is my order?\nexpect:\n  reply: [{ contains: x }]\n')).toEqual([
      '5:2: invalid YAML: the "-" on line 4 has nothing after it, and line 5 under it is indented by 1 space, no deeper than the "-", so YAML reads the item as empty and cannot read line 5 as part of it\n  fix: indent the item\'s lines deeper than the "-": by 4 spaces, so that line 5 reads\n        Where is my order?\n  or write it after the "-", so that line 4 reads\n      - Where is my order?',
    ]);
  });

  it('names the item\'s next lines to move with the first, after a comment or a blank line, up to the next item', () => {
    expect(said('fixtures:\n  -\n  label: b\n  message: hi\n  - label: c\n    message: hi\n')).toEqual([
      '3:3: invalid YAML: the "-" on line 2 has nothing after it, and line 3 under it is indented by 2 spaces, no deeper than the "-", so YAML reads the item as empty and cannot read line 3 as part of it\n  fix: indent the item\'s lines deeper than the "-": by 4 spaces, so that line 3 reads\n        label: b\n  and move line 4 right by 2 spaces too',
    ]);
    expect(said('label: a\nopening: hi\nfollowUps:\n  - # the second\n\n Where is my order?\n It was due Monday.\n')).toEqual([
      '6:2: invalid YAML: the "-" on line 4 has nothing after it, and line 6 under it is indented by 1 space, no deeper than the "-", so YAML reads the item as empty and cannot read line 6 as part of it\n  fix: indent the item\'s lines deeper than the "-": by 4 spaces, so that line 6 reads\n        Where is my order?\n  and move line 7 right by 3 spaces too',
    ]);
  });

  it('moves the item\'s keys to its column, keeps a line under a key in its place, and the fixed text loads', () => {
    // The fix applied as written: line N as it "reads", and the lines it names moved right.
    const applied = (text: string, fix: string): string => {
      const lines = text.split('\n');
      const reads = /so that line (\d+) reads\n {4}(.*)/.exec(fix);
      if (reads !== null) lines[Number(reads[1]) - 1] = reads[2] as string;
      const move = /and move (.*) right by (\d+) spaces? too/.exec(fix);
      for (const run of move === null ? [] : (move[1] as string).split(/, | and /)) {
        const [a, b = a] = (/(\d+)(?: to (\d+))?/.exec(run) as RegExpExecArray).slice(1, 3).filter((x) => x !== undefined).map(Number);
        for (let k = a as number; k <= (b as number); k += 1) lines[k - 1] = ' '.repeat(Number(move?.[2])) + (lines[k - 1] as string);
      }
      return lines.join('\n');
    };
    const cases: [string, string][] = [
      // The later lines already at the item's column: only the first moves.
      ['fixtures:\n  - label: shipping\n    message: How long does shipping take?\n  -\n  label: hours\n    message: When are you open?\n    assert: { contains: "9:00" }\n', '        label: hours'],
      // Keys at the first's column move, the mapping under `assert:` with its key, one already at the item's column stays.
      ['fixtures:\n  -\n  label: hours\n  assert:\n    contains: "9:00"\n    notContains: closed\n  message: When are you open?\n', '        label: hours\n  and move lines 4 to 7 right by 2 spaces too'],
      ['fixtures:\n  -\n  label: hours\n    message: hi\n  assert:\n    contains: x\n', '        label: hours\n  and move lines 5 to 6 right by 2 spaces too'],
    ];
    for (const [text, end] of cases) {
      const r = readYaml('f.yml', text);
      expect(r.errors).toHaveLength(1);
      const fix = r.errors[0]?.fix as string;
      expect(fix.slice(fix.indexOf(' reads\n') + 7)).toBe(end);
      const fixed = readYaml('f.yml', applied(text, fix));
      expect(fixed.errors).toEqual([]);
      expect((fixed.data as { fixtures: unknown[] }).fixtures).toHaveLength(text.startsWith('fixtures:\n  - label') ? 2 : 1);
    }
  });

  it('is said alike of a "- |" whose text is no deeper than the "-", once, not also as a key whose ":" is left out', () => {
    expect(said('label: a\nopening: hi\nfollowUps:\n  - |\n  Where is my order?\n  still waiting\nexpect:\n  reply: [{ contains: x }]\n')).toEqual([
      '5:3: invalid YAML: line 5, the text of the | block of the "-" on line 4, is indented by 2 spaces, no deeper than the "-", so YAML reads the block as empty and cannot read line 5 as part of it\n  fix: indent the block\'s text deeper than the "-": by 4 spaces, so that line 5 reads\n        Where is my order?\n  and move line 6 right by 2 spaces too',
    ]);
  });
});
