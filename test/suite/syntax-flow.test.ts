// A flow collection (`[a, b]`, `{ contains: "x" }`) that YAML cannot read to its end: closed by the
// bracket of the other kind, never closed, or closed on a later line left of its key. Said at the
// bracket to change, in our words, with the line as it should read where one change makes it whole
// (docs/configuration.md, "How YAML is read"; docs/troubleshooting.md).

import { describe, expect, it } from 'vitest';
import { C, F, load } from './helpers.js';

const P = '.agent-replay/personas';
const AGENT = 'agent:\n  url: http://127.0.0.1:9/chat\n';
const said = (issues: { file: string; line: number | null; column: number | null; message: string; fix: string }[]): string[] =>
  issues.map((e) => `${e.file}:${String(e.line)}:${String(e.column)}: ${e.message}\n  fix: ${e.fix}`);

describe('a flow collection closed by the wrong bracket', () => {
  it('{ ... ] and [ ... }: said at the bracket, with the { or [ it closes and the line as it should read', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { contains: "30 days" ]\n',
      [`${F}/b.yml`]: 'label: b\nmessage: [a, b }\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:3:31: invalid YAML: the { opened at line 3, column 9 is closed here by ], not by }\n  fix: write } in place of the ], so that line 3 reads\n    assert: { contains: "30 days" }`,
      `${F}/b.yml:2:16: invalid YAML: the [ opened at line 2, column 10 is closed here by }, not by ]\n  fix: write ] in place of the }, so that line 2 reads\n    message: [a, b ]`,
    ]);
  });

  it('a [ inside a { closed by the }: the ] left out, said once (the parser says it for both brackets)', async () => {
    const r = await load({ [C]: AGENT, [`${F}/d.yml`]: 'label: d\nmessage: hi\nassert: { a: 1, b: [1, 2 }\n', [`${F}/m.yml`]: 'label: m\nmessage: {x: [1, 2}\n' });
    expect(said(r.errors)).toEqual([
      `${F}/d.yml:3:26: invalid YAML: the [ opened at line 3, column 20 is never closed: the } here closes the { opened at line 3, column 9\n  fix: close the [ with ] before the }, so that line 3 reads\n    assert: { a: 1, b: [1, 2] }`,
      `${F}/m.yml:2:19: invalid YAML: the [ opened at line 2, column 14 is never closed: the } here closes the { opened at line 2, column 10\n  fix: close the [ with ] before the }, so that line 2 reads\n    message: {x: [1, 2]}`,
    ]);
  });

  it('a stray bracket before the right one is removed; two swapped brackets get no line, no change making it whole', async () => {
    const r = await load({ [C]: AGENT, [`${F}/f.yml`]: 'label: f\nmessage: hi\nassert: { contains: x ]}\n', [`${F}/i.yml`]: 'label: i\nmessage: hi\nassert: { contains: [x }]\n' });
    expect(said(r.errors)).toEqual([
      `${F}/f.yml:3:23: invalid YAML: this ] closes nothing that is open: the { opened at line 3, column 9 is closed by a }\n  fix: remove the ], so that line 3 reads\n    assert: { contains: x }`,
      `${F}/i.yml:3:24: invalid YAML: the [ opened at line 3, column 21 is closed here by }, not by ]\n  fix: write ] where the [ is meant to end, and remove the } or open it with {; if a bracket is part of a value, put the whole value in quotes`,
    ]);
  });

  it('in a list under fixtures:, a persona script and config.yml; the next items and sections are still read', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: { X-Team: qa ]\nconcurrency: 0\n',
      [`${F}/list.yml`]: 'fixtures:\n  - label: a\n    message: hi\n    assert: { contains: x ]\n  - label: b\n    message: hi\n    persona: 5\n',
      [`${P}/p.yml`]: 'label: p\npersona: x\nopening: hi\nfollowUps: [ "a", "b" }\nmaxTurns: 3\n',
    });
    expect(said(r.errors).map((s) => s.split('\n  fix')[0])).toEqual([
      `${C}:3:25: invalid YAML: the { opened at line 3, column 12 is closed here by ], not by }`,
      `${C}:4:1: unknown key "concurrency" at the top level; allowed keys: agent, judge, regex, cost, coverage, repeat, personas, simulator, latency, meaning, stats, traces`,
      `${F}/list.yml:4:27: invalid YAML: the { opened at line 4, column 13 is closed here by ], not by }`,
      `${F}/list.yml:7:14: fixture "b": persona must be a string, found the number 5`,
      `${P}/p.yml:4:23: invalid YAML: the [ opened at line 4, column 12 is closed here by }, not by ]`,
    ]);
    expect(r.errors[0]!.fix).toBe('write } in place of the ], so that line 3 reads\n      headers: { X-Team: qa }');
    expect(r.errors[4]!.fix).toBe('write ] in place of the }, so that line 4 reads\n    followUps: [ "a", "b" ]');
  });
});

describe('a flow collection closed on a later line, left of its key', () => {
  // js-yaml reads such a bracket as meant, and a file with no other slip as written; the `yaml`
  // package, whose words are said, refuses it, and says it first when a later slip is refused.
  it('the right bracket: indented as the key, the line as it should read, not "closes nothing that is open"', async () => {
    const r = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: { A: b,\n    C: d\n}\njudge:\n  model: m\ncost: { capUsd: 1 ]\n', [`${F}/a.yml`]: 'label: a\nmessage: hi\n' });
    expect(said(r.errors)).toEqual([
      `${C}:5:1: invalid YAML: the } on line 5 closes the { opened at line 3, column 12 but is indented less than "headers" on line 3, so YAML does not read it as part of the { }, and reads nothing of the file after it\n` +
        '  fix: indent it by 2 spaces (not 0), as "headers" is on line 3, so that line 5 reads\n      }',
    ]);
  });

  it('the wrong bracket too: both changes in one fix, in a list under fixtures:', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/h.yml`]: 'fixtures:\n  - label: h1\n    message: hi\n    assert: { contains: x,\n      regex: y\n  ]\n  - label: h2\n    message: hi\n',
      [`${F}/k.yml`]: 'fixtures:\n  - label: k\n    message: hi\n    assert: { contains: x,\n      regex: y\n}\n  - label: l\n    assert: { contains: x ]\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/h.yml:6:3: invalid YAML: the { opened at line 4, column 13 is closed here by ], not by }\n` +
        '  fix: write } in place of the ] and indent it by 4 spaces (not 2), as "assert" is on line 4, so that line 6 reads\n        }',
      `${F}/k.yml:6:1: invalid YAML: the } on line 6 closes the { opened at line 4, column 13 but is indented less than "assert" on line 4, so YAML does not read it as part of the { }, and reads nothing of the file after it\n` +
        '  fix: indent it by 4 spaces (not 0), as "assert" is on line 4, so that line 6 reads\n        }',
    ]);
  });
});

describe('a line of a multi-line [ ] or { } left of its key', () => {
  it('in a file with no other slip: read as written, with a warning at the line, and the keys after it still placed', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'label: a\nmessage: [x,\ny]\npersona: p\nextra: 1\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: b\n    message: hi\n    assert: { contains: x,\n  regex: y\n    }\n    mesage: 1\n',
      // Brackets in a block scalar's text are text: nothing said.
      [`${F}/c.yml`]: 'label: c\nmessage: |\n  Write: [a,\n  b]\n',
    });
    expect(said(r.warnings.filter((w) => w.file.startsWith(F)))).toEqual([
      `${F}/a.yml:3:1: line 3, inside the [ ] opened on line 2, is indented by no spaces, no deeper than the key "message": agent-replay reads it as part of the [ ], but YAML 1.2 ends the [ ] before it, and other YAML tools (editors, linters) refuse the file\n` +
        '  fix: indent it by 2 spaces, so that line 3 reads\n      y]',
      `${F}/b.yml:5:3: line 5, inside the { } opened on line 4, is indented by 2 spaces, less than the key "assert": agent-replay reads it as part of the { }, but YAML 1.2 ends the { } before it, and other YAML tools (editors, linters) refuse the file\n` +
        '  fix: indent it by 6 spaces, so that line 5 reads\n          regex: y',
    ]);
    // The values and keys after the line, which the `yaml` document does not read, are said where js-yaml read them.
    expect(said(r.errors).map((e) => e.split('\n')[0])).toEqual([
      `${F}/a.yml:2:10: fixture "a": message must be a string, found a list`,
      `${F}/a.yml:5:1: fixture "a": unknown key "extra"; allowed keys: label, message, persona, assert, repeat`,
      `${F}/b.yml:5:3: fixture "b": the assertion has 2 kinds (contains and regex): a fixture has one assertion`,
      `${F}/b.yml:7:5: fixture "b": unknown key "mesage"; allowed keys: label, message, persona, assert, repeat`,
    ]);
  });

  it('in a file refused for another reason: said at the line in our words, not the parser\'s', async () => {
    const r = await load({ [C]: AGENT, [`${F}/c.yml`]: 'fixtures:\n  - label: a\n    assert: { contains: x,\n  regex: y }\n    message: hi\n  - label: b\n    message: [x, y]]\n' });
    expect(said(r.errors)).toEqual([
      `${F}/c.yml:4:3: invalid YAML: line 4, inside the { } opened on line 3, is indented by 2 spaces, less than the key "assert", so YAML ends the { } before it\n` +
        '  fix: indent it by 6 spaces, so that line 4 reads\n          regex: y }',
      `${F}/c.yml:7:20: invalid YAML: this ] closes nothing that is open, and YAML reads nothing of the file after it\n` +
        '  fix: remove it, so that line 7 reads\n        message: [x, y]\n  or, if it is part of a value, put the whole value in quotes',
    ]);
  });
});

describe('one closing bracket too many', () => {
  it('is said with the line as it reads without it; a bracket alone on its line gets no line', async () => {
    const r = await load({ [C]: AGENT, [`${F}/a.yml`]: 'label: a\nmessage: [a, b]] # two\n', [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: { contains: x }}\n' });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:2:16: invalid YAML: this ] closes nothing that is open, and YAML reads nothing of the file after it\n` +
        '  fix: remove it, so that line 2 reads\n    message: [a, b] # two\n  or, if it is part of a value, put the whole value in quotes',
      `${F}/b.yml:3:24: invalid YAML: this } closes nothing that is open, and YAML reads nothing of the file after it\n` +
        '  fix: remove it, so that line 3 reads\n    assert: { contains: x }\n  or, if it is part of a value, put the whole value in quotes',
    ]);
  });
});

describe('a flow collection never closed', () => {
  it('is not taken as closed by a bracket of a later item: each is said at its own bracket', async () => {
    const r = await load({ [C]: AGENT, [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    assert: { contains: x\n  - label: b\n    message: [a }\n' });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:3:13: invalid YAML: the { opened here (a mapping, as in { contains: "x" }) is never closed\n` +
        '  fix: close it with } at the end of the line, so that line 3 reads\n        assert: { contains: x }\n  or, if the { is part of the text, put the whole value in quotes',
      `${F}/a.yml:5:17: invalid YAML: the [ opened at line 5, column 14 is closed here by }, not by ]\n  fix: write ] in place of the }, so that line 5 reads\n        message: [a ]`,
    ]);
  });


  it('on its line alone: closed at the line\'s end (before a comment), with every bracket still open', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: { contains: "30 days"\n',
      [`${P}/r.yml`]: 'label: r\npersona: x\nopening: hi\nfollowUps: [ "a", "b" # the last two\nmaxTurns: 3\n',
      [`${F}/q.yml`]: 'label: q\nmessage: hi\nassert: [ { contains: x }, { contains: y\n',
      [`${F}/n.yml`]: 'fixtures:\n  - label: n\n    assert: { any: [ { contains: x }, { contains: y }\n  - label: o\n    message: hi\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/c.yml:3:9: invalid YAML: the { opened here (a mapping, as in { contains: "x" }) is never closed\n` +
        '  fix: close it with } at the end of the line, so that line 3 reads\n    assert: { contains: "30 days" }\n  or, if the { is part of the text, put the whole value in quotes',
      `${F}/n.yml:3:20: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed\n` +
        '  fix: close it at the end of the line, with every bracket still open there (] }), so that line 3 reads\n        assert: { any: [ { contains: x }, { contains: y } ] }\n  or, if the [ is part of the text, put the whole value in quotes',
      `${F}/q.yml:3:9: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed\n` +
        '  fix: close it at the end of the line, with every bracket still open there (} ]), so that line 3 reads\n    assert: [ { contains: x }, { contains: y } ]\n  or, if the [ is part of the text, put the whole value in quotes',
      `${P}/r.yml:4:12: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed\n` +
        '  fix: close it with ] at the end of the line, so that line 4 reads\n    followUps: [ "a", "b" ] # the last two\n  or, if the [ is part of the text, put the whole value in quotes',
    ]);
  });
});
