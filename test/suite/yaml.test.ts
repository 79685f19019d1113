import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { fastSource } from '../../src/suite/yaml/fast.js';
import { formatIssue } from '../../src/suite/index.js';
import jsyaml from 'js-yaml';
import { plainScalarValue, SUITE_SCHEMA, YAML_DOC_OPTIONS } from '../../src/suite/yaml/schema.js';
import { flowIndentSlips } from '../../src/suite/yaml/flow.js';
import { loadYamlPackage } from '../../src/suite/yaml/package.js';
import { readYaml } from '../../src/suite/yaml/read.js';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';
import { generateDocument, TRICKY_PLAIN } from './yaml-gen.js';

/** The value js-yaml (our one reading) gives, or its refusal. */
function ours(text: string): unknown {
  const r = fastSource('f.yml', text);
  return 'refused' in r ? { refused: r.refused.reason } : r.data === undefined ? null : r.data;
}

/** What the `yaml` package reads with the options of every document we parse. */
function reference(text: string): unknown {
  const doc = parseDocument(text, YAML_DOC_OPTIONS);
  return doc.errors.length > 0 ? { errors: doc.errors.map((e) => e.code) } : doc.toJS();
}

describe('one YAML reading: the YAML 1.2 core schema, as documented', () => {
  it.each<[string, unknown]>([
    ['0b101', '0b101'],
    ['yes', 'yes'],
    ['on', 'on'],
    ['off', 'off'],
    ['y', 'y'],
    ['True', true],
    ['FALSE', false],
    ['tRue', 'tRue'],
    ['~', null],
    ['Null', null],
    ['1e3', 1000],
    ['1.5E-3', 0.0015],
    ['.5', 0.5],
    ['-.5', -0.5],
    ['+1.', 1],
    ['.inf', Infinity],
    ['-.Inf', -Infinity],
    ['.nan', NaN],
    ['-.nan', '-.nan'],
    ['0o17', 15],
    ['0x1F', 31],
    ['-0x1F', '-0x1F'],
    ['0X1F', '0X1F'],
    ['007', 7],
    ['-0', -0],
    ['1_000', '1_000'],
    ['2026-11-30', '2026-11-30'],
    ['2026-11-30T10:00:00Z', '2026-11-30T10:00:00Z'],
    ['12:30:45', '12:30:45'],
    ['<<', '<<'],
  ])('message: %s', (token, expected) => {
    const text = `message: ${token}\n`;
    expect(ours(text)).toEqual({ message: expected });
    expect(reference(text)).toEqual({ message: expected });
  });

  it('every tricky plain scalar reads the same in both parsers', () => {
    for (const token of TRICKY_PLAIN) {
      const text = `v: ${token}\nlist: [${/[:\s]/.test(token) ? 'x' : token}]\n`;
      expect(ours(text), text).toEqual(reference(text));
    }
  });

  it('a plain word reads as js-yaml reads it, whatever character it starts with (plainScalarValue, which the line reader asks of every key and plain value)', () => {
    const starts = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_~.+-0(/é'];
    // `v: -` alone is a list item YAML refuses there; `-` before a letter or digit is read below.
    const words = starts.flatMap((c) => [c, `${c}x`, `${c}rue`, `${c}RUE`, `${c}alse`, `${c}ALSE`, `${c}ull`, `${c}ULL`, `${c}1`, `${c}.5`, `${c}inf`, `${c}nan`]);
    for (const word of [...words.filter((w) => w !== '-'), '', 'True', 'FALSE', 'Null', '0x1F', '0o17', '1e3', '-.inf', '.NaN']) {
      const read = (jsyaml.load(`v: ${word}`, { schema: SUITE_SCHEMA }) as { v: unknown }).v;
      expect(plainScalarValue(word), word).toEqual(read);
    }
  });

  it('merge keys are ordinary keys, and tags outside the schema are refused', () => {
    expect(ours('base: &b { x: 1 }\nthing: { <<: *b }\n')).toEqual({ base: { x: 1 }, thing: { '<<': { x: 1 } } });
    expect(ours('when: !!timestamp 2026-11-30\n')).toEqual({ refused: 'unknown tag !<tag:yaml.org,2002:timestamp>' });
    expect(ours('data: !!binary aGVsbG8=\n')).toEqual({ refused: 'unknown tag !<tag:yaml.org,2002:binary>' });
    expect(ours('flag: !!bool yes\n')).toEqual({ refused: 'cannot resolve a node with !<tag:yaml.org,2002:bool> explicit tag' });
  });

  it('a merge key is refused once at its line, in a fixture list (its other items still checked) and in a request body, where it would be sent as a key', async () => {
    const MERGE = 'invalid YAML: "<<" here is a YAML 1.1 merge key, which agent-replay does not read (in YAML 1.2 it is an ordinary key)';
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  request:\n    body: { <<: { model: x }, input: "{{message}}" }\n',
      [`${F}/a.yml`]: 'fixtures:\n  - &base\n    label: a\n    message: hi\n  - <<: *base\n    label: b\n  - label: c\n    mesage: hi\n',
      // `<<` with a text value is an ordinary key, said as one.
      [`${F}/b.yml`]: 'label: d\nmessage: hi\n<<: x\n',
    });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${C}:4: ${MERGE}`,
      `${F}/a.yml:5: ${MERGE}`,
      `${F}/a.yml:8: fixture "c": unknown key "mesage" (and the required "message" is missing); allowed keys: label, message, persona, assert, repeat`,
      `${F}/b.yml:3: fixture "d": unknown key "<<"; allowed keys: label, message, persona, assert, repeat`,
    ]);
    expect(r.errors[0]!.fix).toBe('write the keys out in place of the "<<" line; an alias may still stand for a whole value (message: *greeting)');
  });

  it('a %YAML 1.1 directive changes nothing', () => {
    expect(ours('%YAML 1.1\n---\nmessage: yes\ncount: 0b11\n')).toEqual({ message: 'yes', count: '0b11' });
  });
});

describe('one YAML reading: generated differential test against the yaml package', () => {
  it('4,000 generated documents: whatever js-yaml accepts, yaml accepts and reads identically, or a line of a [ ] or { } left of its key is said', async () => {
    await loadYamlPackage();
    let accepted = 0;
    let slipped = 0;
    for (let seed = 1; seed <= 4000; seed++) {
      const text = generateDocument(seed);
      const mine = ours(text);
      if (mine !== null && typeof mine === 'object' && 'refused' in mine) continue;
      accepted += 1;
      // (seed in the message: regenerate the document with generateDocument(seed))
      const slips = flowIndentSlips(text);
      if (slips.length > 0) {
        slipped += 1;
        // Read as written, and said: the `yaml` package ends the collection before the line.
        expect(reference(text), `seed ${seed}:\n${text}`).toHaveProperty('errors');
        // ...and readYaml says it: the scan it runs only where js-yaml read a [ ] or { } over several lines.
        expect(readYaml('f.yml', text, { mergeKeys: 'ordinary' }).warnings?.length, `seed ${seed}:\n${text}`).toBe(slips.length);
        // The lines as the warning writes them: the same reading, by both.
        const fixed = text.split('\n');
        for (const slip of slips) fixed[text.slice(0, slip.at).split('\n').length - 1] = slip.fixed;
        expect(flowIndentSlips(fixed.join('\n')), `seed ${seed} fixed:\n${fixed.join('\n')}`).toEqual([]);
        expect(reference(fixed.join('\n')), `seed ${seed} fixed:\n${fixed.join('\n')}`).toEqual(mine);
        continue;
      }
      expect(reference(text), `seed ${seed}:\n${text}`).toEqual(mine);
    }
    // The generator produces mostly valid documents: the comparison is not vacuous.
    expect(accepted).toBeGreaterThan(2500);
    expect(slipped).toBeGreaterThan(20);
  });
});

describe('a value that YAML reads as a number, true/false or null where text belongs', () => {
  it('is a configuration error with file:line that shows what was written and quotes it in the fix', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: one\n    message: 1e3\n  - label: two\n    message: .inf\n  - label: three\n    message: True\n  - label: four\n    message: 42\n  - label: five\n    message: ~\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:3:14: fixture "one": message must be a string, found 1e3, which YAML reads as the number 1000\n  fix: put the value in quotes: message: "1e3"`,
      `${F}/a.yml:5:14: fixture "two": message must be a string, found .inf, which YAML reads as the number Infinity\n  fix: put the value in quotes: message: ".inf"`,
      `${F}/a.yml:7:14: fixture "three": message must be a string, found True, which YAML reads as the boolean true\n  fix: put the value in quotes: message: "True"`,
      `${F}/a.yml:9:14: fixture "four": message must be a string, found the number 42\n  fix: put the value in quotes: message: "42"`,
      `${F}/a.yml:11:14: fixture "five": message must be a string, found ~, which YAML reads as an empty value (null)\n  fix: put the value in quotes: message: "~"`,
    ]);
  });

  it('yes, on, 0b101 and dates are text, so they load as written', async () => {
    const r = await load({ [`${F}/a.yml`]: 'fixtures:\n  - { label: a, message: yes }\n  - { label: b, message: on }\n  - { label: c, message: 0b101 }\n  - { label: d, message: 2026-11-30 }\n' });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures.map((f) => f.message)).toEqual(['yes', 'on', '0b101', '2026-11-30']);
  });
});

/** The classic: ten levels of ten aliases each, 10^9 "lol"s if anything walked it as a tree. */
function billionLaughs(prefix: string): string {
  const lines = [`${prefix}l0: &l0 "lol"`];
  for (let i = 1; i <= 9; i++) lines.push(`${prefix}l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('a file refused for another reason before its nesting', () => {
  it('a tag js-yaml refuses, then a hundred thousand levels of brackets: js-yaml\u2019s reason at its place, not the yaml package\u2019s "Maximum call stack size exceeded"', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const r = await load({ [C]: '', [`${F}/a.yml`]: `label: !!foo a\nmessage: hi\nmocks: ${deep}\n` });
    expect(brief(r.errors)).toEqual([`${F}/a.yml:1: invalid YAML: unknown tag !<tag:yaml.org,2002:foo>`]);
  });
});

describe('alias bombs are refused at once', () => {
  // No timing assertion: the test's own timeout (5 s) fails it if anything expands the aliases.
  it('in a fixture file: one error at the first alias, nothing walked', async () => {
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [`${F}/bomb.yml`]: `label: bomb\nmessage: hi\npersona: x\nextra:\n${billionLaughs('  ')}` });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${F}/bomb.yml:6: refused: its aliases (first: *l0) would repeat values more than 100000 times, as in a YAML "billion laughs" bomb`,
    ]);
  });

  it('in config.yml (where one hung validate while memory grew)', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `agent:\n  headers:\n    X-A: a\n${billionLaughs('')}` });
    expect(r.suite).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: C, line: 5 });
    expect(r.errors[0]!.message).toMatch(/billion laughs/);
  });

  it('an alias to the collection that contains it', async () => {
    const r = await load({ [`${F}/a.yml`]: 'fixtures: &f [ { label: a, message: hi }, *f ]\n' });
    expect(r.suite).toBeNull();
    expect(r.errors.map((e) => e.message)).toEqual(['refused: an alias refers to a collection that contains it, as in a YAML "billion laughs" bomb']);
  });

  it('ordinary aliases still work: 5,000 fixtures sharing one assertion', async () => {
    const first = '  - { label: first, message: hi, assert: &polite { judge: "Polite?", threshold: 0.8 } }';
    const items = Array.from({ length: 5000 }, (_, i) => `  - { label: f${i}, message: hi, assert: *polite }`);
    const r = await load({ [`${F}/a.yml`]: `fixtures:\n${first}\n${items.join('\n')}\n` });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures).toHaveLength(5001);
    expect(r.suite!.fixtures[5000]!.assertion).toEqual({ kind: 'judge', criterion: 'Polite?', threshold: 0.8 });
  });
});

describe('config.yml: header values written as numbers or true/false', () => {
  it('are sent exactly as written, not as YAML reads them', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  headers: { X-Version: 1.10, X-Code: 0x1F, X-Flag: TRUE, X-Plain: text }\n' });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.agent.headers).toEqual({ 'X-Version': '1.10', 'X-Code': '0x1F', 'X-Flag': 'TRUE', 'X-Plain': 'text' });
  });
});
