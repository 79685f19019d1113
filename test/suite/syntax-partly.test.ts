// A file with a YAML syntax error: its other problems are said in the same run, as far as the
// error leaves them as written, and nothing of it is ever run (docs/configuration.md, "How YAML is
// read"); one bad file never hides the others.

import { describe, expect, it } from 'vitest';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';

const AGENT = 'agent:\n  url: http://127.0.0.1:9/chat\n';

describe('a list file with a syntax error: the items it leaves as written are checked', () => {
  it('an unclosed quote in one item: the items before it and after it are checked, the item and what it swallows are not', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/list.yml`]: [
        'fixtures:',
        '  - label: a',
        '    mesage: hi', // 3: said
        '  - label: b',
        '    message: "hi', // 5: the error; b and what follows are one unclosed string
        '  - label: c',
        '    persona: 5',
      ].join('\n') + '\n',
      [`${F}/other.yml`]: 'label: other\nmessage: hi\nasert: x\n',
    });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${F}/list.yml:3: fixture "a": unknown key "mesage" (and the required "message" is missing); allowed keys: label, message, persona, assert, repeat`,
      `${F}/list.yml:5: invalid YAML: the double quote opened here is never closed`,
      `${F}/other.yml:3: fixture "other": unknown key "asert"; allowed keys: label, message, persona, assert, repeat`,
    ]);
  });

  it('an error inside one item of a bare list: the items after it are checked too', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/list.yml`]: '- label: a\n  message: hi\n  persona: 5\n- label: b\n  message: "\\d"\n- label: c\n  mesage: hi\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/list.yml:3: fixture "a": persona must be a string, found the number 5`,
      `${F}/list.yml:5: invalid YAML: \\d inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
      `${F}/list.yml:7: fixture "c": unknown key "mesage" (and the required "message" is missing); allowed keys: label, message, persona, assert, repeat`,
    ]);
  });

  it('an error between two items leaves both out; an alias to a value in an item left out leaves its item out', async () => {
    const r = await load({
      [C]: AGENT,
      // The parser says the unclosed { where the next item starts: neither item is sure.
      [`${F}/a.yml`]: '- label: a\n  message: hi\n  assert: { contains: x\n- label: b\n  mesage: hi\n',
      [`${F}/b.yml`]: '- label: c\n  message: &m "hi\\d"\n- label: d\n  message: *m\n  persona: 5\n- label: e\n  message: hi\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:3: invalid YAML: the { opened here (a mapping, as in { contains: "x" }) is never closed`,
      `${F}/b.yml:2: invalid YAML: \\d inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
    ]);
  });

  it('a label of an item left as written is seen by the suite: a duplicate across files is said', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/b.yml`]: '- label: ok\n  message: hi\n- label: z\n  message: "\\q"\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/b.yml:1: duplicate label "ok": used at ${F}/a.yml:1 and at ${F}/b.yml:1`,
      `${F}/b.yml:4: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
    ]);
  });

  it('persona scripts: the same', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      '.agent-replay/personas/s.yml': 'personas:\n  - label: s\n    opening: hi\n    expect: { terminal: finish }\n    maxTurns: 0\n  - label: t\n    opening: "hi\\q"\n',
    });
    expect(r.errors.map((e) => `${e.line}: ${e.message.slice(0, 40)}`)).toEqual([
      '5: persona script "s": maxTurns must be at ',
      '7: invalid YAML: \\q inside double quotes is',
    ]);
  });
});

describe('config.yml with a syntax error: the sections it leaves as written are checked', () => {
  it('the other sections\' errors are said; nothing is said of the section with the error, nor of its absence', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 0\njudge:\n  model: "gpt\\q"\ncost:\n  capUsd: -1\n',
      [`${F}/a.yml`]: OK_FIXTURE,
    });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${C}:3: agent.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 0`,
      `${C}:5: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
      `${C}:7: cost.capUsd must be at least 0, found the number -1`,
    ]);
  });

  it('a key at the wrong column is not also an unknown section, and its section is left out; the agent section left out is no missing URL', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 0\n url: y\ncost:\n  capUsd: -1\n',
      [`${F}/a.yml`]: OK_FIXTURE,
    });
    expect(r.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '4: invalid YAML: "url" on line 4 is indented by 1 space, more than "agent" on line 1 and less than the keys under it (2), so YAML cannot tell which mapping it belongs to',
      '6: cost.capUsd must be at least 0, found the number -1',
    ]);
  });

  it('an error said where the next section starts leaves the section before it out too: no "panel has 0 members" for an unclosed [', async () => {
    const r = await load({ [C]: 'judge:\n  model: x\n  apiKey: k\n  panel: [\ncost:\n  capUsd: -1\n', [`${F}/a.yml`]: OK_FIXTURE });
    expect(brief(r.errors)).toEqual([`${C}:4: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed`]);
  });

  it('a secret written in a section left unread is still redacted', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: { X-Api-Key: *sk-live-123 }\nrepeat: { count: 0 }\n',
      [`${F}/a.yml`]: OK_FIXTURE,
    });
    expect(JSON.stringify(r.errors)).not.toContain('sk-live-123');
    expect(r.errors.some((e) => /repeat\.count/.test(e.message))).toBe(true);
  });
});

describe('a file that is one item, with a syntax error: a number split into keys written twice is said with its range', () => {
  const said = (r: Awaited<ReturnType<typeof load>>, file: string): string[] => r.errors.filter((e) => e.file === file).map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`);
  const MAX = 'max: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value';

  it('max: 1,000,000 beside another slip is told the range, not max: 1000000; nothing else of the file is said', async () => {
    const P = '.agent-replay/personas';
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 3, max: 1,000,000 }\npersona: x: y\n',
      // The label's line is next to the slip: no "missing label", and no label in the message.
      [`${F}/b.yml`]: 'repeat: { count: 3, max: 1,000,000 }\nmessage: hi\nlabel: "b\\q"\n',
      [`${P}/s.yml`]: 'label: s\nopening: hi\nrepeat: { count: 3, max: 1,000,000 }\nexpect: { terminal: finish }\npersona: x: y\n',
    });
    expect(said(r, `${F}/a.yml`)).toEqual([
      `3:26: fixture "a": ${MAX}\n  fix: write the number without the commas; repeat.max is a whole number from count (3) to 20, which 1000000 is not`,
      expect.stringMatching(/^4:10: invalid YAML: the value "x: y" holds ": "/),
    ]);
    expect(said(r, `${F}/b.yml`)).toEqual([
      `1:26: ${MAX}\n  fix: write the number without the commas; repeat.max is a whole number from count (3) to 20, which 1000000 is not`,
      expect.stringMatching(/^3:\d+: invalid YAML: \\q inside double quotes/),
    ]);
    expect(said(r, `${P}/s.yml`)).toEqual([
      `3:26: persona script "s": ${MAX}\n  fix: write the number without the commas; repeat.max is a whole number from count (3) to 20, which 1000000 is not`,
      expect.stringMatching(/^5:10: invalid YAML: the value "x: y" holds ": "/),
    ]);
  });

  it('a split number in the entry the syntax error is in, or a reply\'s turn (the script\'s turns may be left out), keeps the syntax check\'s words', async () => {
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 3, max: 1,000,000, x: "\\q" }\n',
      '.agent-replay/personas/s.yml': 'label: s\nopening: hi\nfollowUps: [a, b]\nexpect:\n  reply:\n    - { contains: x, turn: 1,000,000 }\npersona: x: y\n',
    });
    expect(said(r, `${F}/a.yml`)).toEqual([
      `3:26: ${MAX}\n  fix: write max: 1000000, without the commas, so that line 3 reads\n    repeat: { count: 3, max: 1000000, x: "\\q" }`,
      expect.stringMatching(/^3:\d+: invalid YAML: \\q inside double quotes/),
    ]);
    expect(said(r, '.agent-replay/personas/s.yml').map((e) => e.split('\n')[0])).toEqual([
      '6:28: turn: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value',
      expect.stringMatching(/^7:10: invalid YAML: the value "x: y" holds ": "/),
    ]);
  });
});

describe('no error is only a consequence of a syntax error: each slip, at each place in a list', () => {
  // Six fixtures, each with an error of its own; one of them replaced by a slip. What is said
  // beside the slip must be said of the same file with that fixture written well.
  const ITEM_ERRORS = ['  mesage: x', '  persona: 5', '  assert: { contains: 1 }'];
  const list = (slip: string, at: number, underKey: boolean): string => {
    const ind = underKey ? '  ' : '';
    const items = Array.from({ length: 6 }, (_, i) =>
      i === at
        ? slip.replace(/\{ind\}/g, ind).replace('{i}', String(i)).trimEnd()
        : `${ind}- label: it${i}\n${ind}  message: hello ${i}\n${ind}${ITEM_ERRORS[i % 3] as string}`,
    );
    return `${underKey ? 'fixtures:\n' : ''}${items.join('\n')}\n`;
  };
  const SLIPS = [
    '{ind}- label: it{i}\n{ind}  message: "open\n',
    "{ind}- label: it{i}\n{ind}  message: 'open\n",
    '{ind}- label: it{i}\n{ind}  assert: { contains: x\n',
    '{ind}- label: it{i}\n{ind}  assert: [x\n',
    '{ind}- label: it{i}\n\tmessage: hi\n',
    '{ind}- label: it{i}\n{ind}  message: a: b\n',
    '{ind}- label: it{i}\n{ind}   message: hi\n',
    '{ind}- label: it{i}\n{ind}  message:hi\n',
    '{ind}- label: it{i}\n{ind}  message: "\\d"\n',
    '{ind}- label: it{i}\n{ind}  message: *nope\n',
    '{ind}- label: it{i}\n{ind}  message: !!binary x\n',
    '{ind}- label: it{i}\n{ind}  message: x\n---\n',
    '{ind}- <<: { label: x }\n{ind}  message: hi\n',
    '{ind}- label: it{i}\n{ind}  message: x\n{ind}  - label: y\n',
    '{ind}- label: it{i}\n{ind}  message: [a, b}\n',
    '{ind}- label: &a it{i}\n{ind}  message: *a\n{ind}  persona: "\\q"\n',
  ];
  const isSyntax = (message: string): boolean => /^invalid YAML|^refused/.test(message);

  it.each(SLIPS.flatMap((slip) => [0, 2, 5].flatMap((at) => [false, true].map((underKey) => [slip, at, underKey] as const))))(
    '%j at item %i (under fixtures: %s)',
    async (slip, at, underKey) => {
      const broken = await load({ [C]: AGENT, [`${F}/a.yml`]: list(slip, at, underKey) });
      const fixed = await load({ [C]: AGENT, [`${F}/a.yml`]: list('{ind}- label: it{i}\n{ind}  message: fine\n', at, underKey) });
      // Lines move with the slip's length: messages are compared.
      const said = new Set(fixed.errors.map((e) => e.message));
      expect(broken.errors.filter((e) => isSyntax(e.message))).toHaveLength(1);
      expect(broken.errors.filter((e) => !isSyntax(e.message) && !said.has(e.message)).map((e) => e.message)).toEqual([]);
    },
  );
});

describe('no error is only a consequence of a syntax error: each slip, in each section of config.yml', () => {
  const SECTIONS: [string, string][] = [
    ['agent', 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 0\n  preset: openai-chat\n  stream: true\n'],
    ['judge', 'judge:\n  provider: openai\n  model: gpt-4o-mini\n  concurrency: 0\n'],
    ['cost', 'cost:\n  capUsd: -1\n  turnsPerFixture: 1\n'],
    ['repeat', 'repeat:\n  count: 3\n  minPass: 5\n'],
    ['simulator', 'simulator:\n  model: x\n  baseUrl: ftp://x\n'],
    ['meaning', 'meaning:\n  threshold: 80\n'],
  ];
  const SLIPS = [
    (k: string) => `${k}:\n  a: "open\n`,
    (k: string) => `${k}:\n  a: { b: 1\n`,
    (k: string) => `${k}:\n  panel: [\n`,
    (k: string) => `${k}:\n\ta: 1\n`,
    (k: string) => `${k}:\n  a: 1\n b: 2\n`,
    (k: string) => `${k}:\n  a: "\\q"\n`,
    (k: string) => `${k}:\n  a: *nope\n`,
    (k: string) => `${k}: a: b\n`,
    (k: string) => `${k}:\n  <<: { a: 1 }\n`,
    (k: string) => `${k}:\n  a: 1\n}\n`,
  ];
  const isSyntax = (message: string): boolean => /^invalid YAML|^refused/.test(message);

  it.each(SLIPS.flatMap((slip, n) => SECTIONS.map((_, s) => [n, s] as const)))('slip %i in section %i', async (n, s) => {
    const file = (broken: boolean): string => SECTIONS.map(([k, v], i) => (i !== s ? v : broken ? (SLIPS[n] as (k: string) => string)(k) : `${k}:\n`)).join('');
    const broken = await load({ [C]: file(true), [`${F}/a.yml`]: OK_FIXTURE });
    const fixed = await load({ [C]: file(false), [`${F}/a.yml`]: OK_FIXTURE });
    const said = new Set([...fixed.errors, ...fixed.warnings].map((e) => e.message));
    expect(broken.errors.filter((e) => isSyntax(e.message))).toHaveLength(1);
    expect([...broken.errors, ...broken.warnings].filter((e) => !isSyntax(e.message) && !said.has(e.message)).map((e) => e.message)).toEqual([]);
    // The sections before it are said (an unclosed quote, a lone } take the ones after it).
    if (s > 0) expect(broken.errors.length).toBeGreaterThan(1);
  });
});

describe('a syntax error placed above where the parser stopped', () => {
  it('leaves the item it is in unchecked: one mistake, one message, not also the keys the parser did not reach', async () => {
    const P = '.agent-replay/personas';
    const r = await load({
      [C]: AGENT,
      [`${F}/a.yml`]: OK_FIXTURE,
      // The parser stops at line 6 (or at the comment, line 6/7), having read line 5 as a valid item
      // of the outer list: the script of line 1 looked whole to the schema, without its expect.
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  followUps:\n  - one\n- two\n- three\n  expect: { terminal: finish }\n',
      [`${P}/q.yml`]: '- label: q\n  opening: hi\n  followUps:\n  - one\n- two\n  # the end\n  expect: { terminal: finish }\n',
      // An item after it, with a mistake of its own, is still checked.
      [`${P}/r.yml`]: '- label: r\n  opening: hi\n  followUps:\n- two\n\n# the end\n  expect: { terminal: finish }\n- label: s\n  opening: hi\n  expct: { terminal: finish }\n',
    });
    expect(brief(r.errors).map((e) => e.replace(/, so YAML .*/, ''))).toEqual([
      `${P}/p.yml:5: invalid YAML: the list items on lines 5 to 6 are at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4)`,
      `${P}/q.yml:5: invalid YAML: the list item on line 5 is at the column of the "-" on line 1, left of the items of the list of "followUps" on line 3 (from line 4)`,
      `${P}/r.yml:4: invalid YAML: the list item on line 4 is at the column of the "-" on line 1, left of "followUps" on line 3, which has nothing after its ":"`,
      `${P}/r.yml:10: persona script "s": unknown key "expct" (and the required "expect" is missing); allowed keys: label, persona, opening, followUps, maxTurns, threshold, mocks, unmockedTools, expect, repeat, user`,
    ]);
  });
});
