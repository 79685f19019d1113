import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { B, C, F, OK_FIXTURE, brief, load } from './helpers.js';
import { docsUrl } from '../../src/version.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const BASELINE = (label: string, extra = ''): string =>
  `{"label": "${label}", "reply": "r", "route": null, "verdict": "pass", "acceptedAt": "2026-01-01T00:00:00Z", "commit": null${extra}}\n`;

describe('loadSuite: configuration errors, each with file and line', () => {
  it('bad YAML syntax, with the parser position', async () => {
    const r = await load({ [`${F}/bad.yml`]: 'label: a\nmessage: hi\nassert: x: y\n' });
    expect(r.suite).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ file: `${F}/bad.yml`, line: 3 });
    expect(r.errors[0]!.message).toMatch(/^invalid YAML: /);
  });

  it('a single value where a mapping belongs names the mapping\'s keys; repeat: 3 is written out as the mapping it stands for', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ncost: 5\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: 3\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat: 40\n',
      // A mapping or a list: the mapping, with the text as the one key that takes it.
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: { toolCalled: find_order }\n',
      // The same count in quotes or as a list of one stands for the same mapping.
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nrepeat: "5"\n',
      [`${F}/e.yml`]: 'label: e\nmessage: hi\nrepeat: [5]\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.fix}`)).toEqual([
      `${C}:3: change cost to a mapping of agentTurnUsd, turnsPerFixture, judgeCallUsd, capUsd, simulatorCallUsd`,
      `${F}/a.yml:3: write it as repeat: { count: 3 } (3 attempts, every one must pass; add minPass to need fewer)`,
      // 40 is more attempts than a repeat allows: the mapping's keys, not an example that is itself an error.
      `${F}/b.yml:3: change repeat to a mapping of count, minPass, max`,
      `${F}/c.yml:3: write it as a mapping with find_order as its tool: { tool: find_order } (the keys it takes: tool, input, match)`,
      `${F}/d.yml:3: write it as repeat: { count: 5 } (5 attempts, every one must pass; add minPass to need fewer)`,
      `${F}/e.yml:3: write it as repeat: { count: 5 } (5 attempts, every one must pass; add minPass to need fewer)`,
    ]);
  });

  it('latency.slowerBy of 10 or more is taken as written, with a warning that it is a fraction and the fraction for a percentage', async () => {
    const fixture = { [`${F}/a.yml`]: 'label: a\nmessage: hi\n' };
    const r = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nlatency:\n  slowerBy: 50\n', ...fixture });
    expect(r.errors).toEqual([]);
    expect(r.suite?.config.latency?.slowerBy).toBe(50);
    expect(r.warnings.map((w) => `${w.file}:${w.line}: ${w.message} | ${w.fix}`)).toEqual([
      `${C}:4: latency.slowerBy 50 is read as a fraction: an item is slower only above 51 times its baseline's latency (5,000% slower) | for 50% slower write slowerBy: 0.5; keep 50 if 51 times is meant`,
    ]);
    // 2 (three times the baseline) is a fraction someone means.
    const two = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nlatency: { slowerBy: 2 }\n', ...fixture });
    expect(two.warnings).toEqual([]);
    // Below 0 is refused with the fraction's meaning, its percent written as every message writes it ("50%").
    const negative = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nlatency: { slowerBy: -0.5 }\n', ...fixture });
    expect(negative.errors.map((e) => e.message)).toEqual(['latency.slowerBy must be a fraction of the baseline latency, 0 or more (0.5 is 50% slower), found the number -0.5']);
  });

  it('an unclosed [ or { is placed where it opens, not on the next line or past the end of the file', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: [unclosed\nassert: { contains: "x" }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: { contains: "it\'s ]"\n',
      [`${F}/c.yml`]: "label: c\nmessage: 'a [b'\nfollowUps:\n  - [x, y\n",
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`)).toEqual([
      `${F}/a.yml:2:10: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed`,
      `${F}/b.yml:3:9: invalid YAML: the { opened here (a mapping, as in { contains: "x" }) is never closed`,
      `${F}/c.yml:4:5: invalid YAML: the [ opened here (a list, as in [a, b]) is never closed`,
    ]);
    // On its line alone, closed at the line's end: the line as it then reads.
    expect(r.errors[0]!.fix).toBe('close it with ] at the end of the line, so that line 2 reads\n    message: [unclosed]\n  or, if the [ is part of the text, put the whole value in quotes');
    // A bracket closed by one of the other kind is said where it closes it (test/suite/syntax-flow.test.ts).
    const mismatched = await load({ [`${F}/m.yml`]: 'label: m\nmessage: {x: [1, 2}\n' });
    expect(mismatched.errors[0]).toMatchObject({ line: 2, column: 19 });
    expect(mismatched.errors[0]!.message).toBe('invalid YAML: the [ opened at line 2, column 14 is never closed: the } here closes the { opened at line 2, column 10');
  });

  it('a line indented deeper than the key above it is one error, at that line, with the line as it should read', async () => {
    // The parser says it twice, both at the value of the line above: "Nested mappings are not
    // allowed in compact mappings" and "Implicit keys need to be on a single line".
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\n  assert: { contains: "x" }\n',
      [`${F}/b.yml`]: '- label: b1\n  message: hi\n- label: b2\n   message: yo\n',
      [`${F}/c.yml`]: 'label: c\r\nmessage: hi\r\n there\r\n assert: { contains: "x" }\r\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n   timeoutMs: 5000\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:3:4: invalid YAML: line 3 is indented deeper than "url" on line 2, so YAML reads it as more of "url"'s value, not as a key of its own\n` +
        '  fix: indent it by 2 spaces (not 3), as "url" is on line 2, so that line 3 reads\n      timeoutMs: 5000',
      `${F}/a.yml:3:3: invalid YAML: line 3 is indented deeper than "message" on line 2, so YAML reads it as more of "message"'s value, not as a key of its own\n` +
        '  fix: start it at the beginning of the line (not after 2 spaces), as "message" is on line 2, so that line 3 reads\n    assert: { contains: "x" }',
      `${F}/b.yml:4:4: invalid YAML: line 4 is indented deeper than "label" on line 3, so YAML reads it as more of "label"'s value, not as a key of its own\n` +
        '  fix: indent it by 2 spaces (not 3), as "label" is on line 3, so that line 4 reads\n      message: yo',
      `${F}/c.yml:4:2: invalid YAML: line 4 is indented deeper than "message" on line 2, so YAML reads it as more of "message"'s value, not as a key of its own\n` +
        '  fix: start it at the beginning of the line (not after 1 space), as "message" is on line 2, so that line 4 reads\n    assert: { contains: "x" }',
    ]);
  });

  it('a list item that starts at another column is one error, at its "-": its next lines are not each said to lack a "-"', async () => {
    const r = await load({
      [`${F}/a.yml`]: '- label: a1\n  message: hi\n - label: a2\n  message: yo\n  persona: p\n- label: a3\n  message: z\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: b1\n    message: hi\n   - label: b2\n     message: yo\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`)).toEqual([
      `${F}/a.yml:3:2: invalid YAML: the list item on line 3 starts at another column than the list's items above it`,
      `${F}/b.yml:4:4: invalid YAML: the list item on line 4 starts at another column than the list's items above it`,
    ]);
    // Its "-" at the item above's column, with the line as it then reads; line 4 is at the keys' column it moves to.
    expect(r.errors.map((e) => e.fix)).toEqual([
      'start its "-" at the beginning of the line (not after 1 space), as the "-" on line 1, so that line 3 reads\n    - label: a2',
      'indent its "-" by 2 spaces (not 3), as the "-" on line 2, so that line 4 reads\n      - label: b2\n  and move line 5 left by 1 space too',
    ]);
  });

  it('a list item indented under the item above is one error, at its "-", with the line as it should read', async () => {
    // The parser says three things: at the keys' column "A block sequence may not be used as an
    // implicit map key", "Implicit keys need to be on a single line" and "Implicit map keys need to
    // be followed by map values"; deeper, "indented deeper than message" and two about the item's
    // own next line, and a fix that moved its "-" to the keys' column, which is the first slip.
    const r = await load({
      [`${F}/a.yml`]: '- label: a\n  message: hi\n    - label: b\n      message: there\n- label: c\n  message: yo\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: d\n    message: hi\n    - label: e\n      message: there\n      persona: p\n',
      [`${F}/c.yml`]: 'fixtures:\n  - label: f\n    message: hi\n      - label: g\n',
      [`${F}/d.yml`]: '- label: h\n  message: hi\n  # the next one\n  - label: i\n\n    message: there\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${F}/a.yml:3:5: invalid YAML: the list item on line 3 is indented under the item on line 1, so YAML reads it as part of that item, not as the next item of the list\n` +
        '  fix: start its "-" at the beginning of the line (not after 4 spaces), as the "-" on line 1, so that line 3 reads\n    - label: b\n  and move line 4 left by 4 spaces too',
      `${F}/b.yml:4:5: invalid YAML: the list item on line 4 is indented under the item on line 2, so YAML reads it as part of that item, not as the next item of the list\n` +
        '  fix: indent its "-" by 2 spaces (not 4), as the "-" on line 2, so that line 4 reads\n      - label: e\n  and move lines 5 to 6 left by 2 spaces too',
      `${F}/c.yml:4:7: invalid YAML: the list item on line 4 is indented under the item on line 2, so YAML reads it as part of that item, not as the next item of the list\n` +
        '  fix: indent its "-" by 2 spaces (not 6), as the "-" on line 2, so that line 4 reads\n      - label: g',
      `${F}/d.yml:4:3: invalid YAML: the list item on line 4 is indented under the item on line 1, so YAML reads it as part of that item, not as the next item of the list\n` +
        '  fix: start its "-" at the beginning of the line (not after 2 spaces), as the "-" on line 1, so that line 4 reads\n    - label: i\n  and move line 6 left by 2 spaces too',
    ]);
    // A list nested under a key with no value on its line is a list of its own, and valid.
    const nested = await load({ [`${F}/e.yml`]: 'label: j\nmessage: hi\nassert:\n  - contains: hi\n  - maxLatencyMs: 2000\n' });
    expect(nested.errors).toEqual([]);
  });

  it('a first list item indented deeper than the items after it is one error, at its "-", with the line as it should read', async () => {
    // The parser says three things at the next item's line ("A block sequence may not be used as
    // an implicit map key", "Implicit keys need to be on a single line", "Implicit map keys need to
    // be followed by map values"), none of which names the first item, the one that moved.
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n    - label: a\n      message: hi\n  - label: b\n    message: yo\n  - label: c\n    message: x\n',
      [`${F}/b.yml`]: 'fixtures:\n\n   - { label: d, message: hi }\n\n  - { label: e, message: yo }\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers:\n    X-A: a\npersonas:\n      - a\n    - b\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:6:7: invalid YAML: the list item on line 6 is indented deeper than the item on line 7 after it, so YAML takes line 6's column for the list's and cannot read the items from line 7 on\n` +
        '  fix: indent its "-" by 4 spaces (not 6), as the "-" on line 7, so that line 6 reads\n        - a',
      `${F}/a.yml:2:5: invalid YAML: the list item on line 2 is indented deeper than the item on line 4 after it, so YAML takes line 2's column for the list's and cannot read the items from line 4 on\n` +
        '  fix: indent its "-" by 2 spaces (not 4), as the "-" on line 4, so that line 2 reads\n      - label: a\n  and move line 3 left by 2 spaces too',
      `${F}/b.yml:3:4: invalid YAML: the list item on line 3 is indented deeper than the item on line 5 after it, so YAML takes line 3's column for the list's and cannot read the items from line 5 on\n` +
        '  fix: indent its "-" by 2 spaces (not 3), as the "-" on line 5, so that line 3 reads\n      - { label: d, message: hi }',
    ]);
    // The lines as the fix writes them: the file loads.
    const fixed = await load({ [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n  - label: b\n    message: yo\n  - label: c\n    message: x\n' });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite!.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'c']);
  });

  it('a misspelt section renamed in the fix has its misspelt keys renamed too: the fixed line is one the section takes', async () => {
    // costs: { cap: 1 } was fixed as "cost: { cap: 1 }", which is the next error ("cap" in cost).
    const flow = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ncosts: { cap: 1, judgeCallUsd: 0.01 }\n', [`${F}/a.yml`]: OK_FIXTURE });
    expect(flow.errors.map((e) => `${e.line}: ${e.message.replace(/; allowed keys: .*/, '')}\n  fix: ${e.fix}`)).toEqual([
      '3: unknown key "costs" at the top level\n  fix: did you mean "cost"? rename the key, and "cap" in it to "capUsd", so that line 3 reads\n    cost: { capUsd: 1, judgeCallUsd: 0.01 }',
    ]);
    const block = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ncosts:\n  cap: 1\n  budget: 5\njugde:\n  modle: m\n  timeout: 30\n', [`${F}/a.yml`]: OK_FIXTURE });
    expect(block.errors.map((e) => `${e.line}: ${e.message.replace(/; allowed keys: .*/, '')}\n  fix: ${e.fix}`)).toEqual([
      '3: unknown key "costs" at the top level\n  fix: did you mean "cost"? rename the key, so that line 3 reads\n    cost:',
      '4: unknown key "cap" in cost (written "costs" on line 3)\n  fix: did you mean "capUsd"? rename the key, so that line 4 reads\n      capUsd: 1',
      '5: unknown key "budget" in cost (written "costs" on line 3)\n  fix: remove "budget" or use one of the allowed keys',
      '6: unknown key "jugde" at the top level\n  fix: did you mean "judge"? rename the key, so that line 6 reads\n    judge:',
      '7: unknown key "modle" in judge (written "jugde" on line 6)\n  fix: did you mean "model"? rename the key, so that line 7 reads\n      model: m',
      '8: unknown key "timeout" in judge (written "jugde" on line 6)\n  fix: did you mean "timeoutMs"? it is in milliseconds: rename the key and give the value in milliseconds (30 seconds is 30000)',
    ]);
    expect(block.errors[1]!.message).toContain('allowed keys: agentTurnUsd, turnsPerFixture, judgeCallUsd, capUsd, simulatorCallUsd');
    // A key on the line of a flow mapping with no key it stands for is said on its own, at its column.
    const mixed = await load({ [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ncosts: { cap: 1, budget: 5 }\n', [`${F}/a.yml`]: OK_FIXTURE });
    expect(mixed.errors.map((e) => `${e.line}:${e.column}: ${e.message.replace(/; allowed keys: .*/, '')}\n  fix: ${e.fix}`)).toEqual([
      '3:1: unknown key "costs" at the top level\n  fix: did you mean "cost"? rename the key, and "cap" in it to "capUsd", so that line 3 reads\n    cost: { capUsd: 1, budget: 5 }',
      '3:18: unknown key "budget" in cost (written "costs" on line 3)\n  fix: remove "budget" or use one of the allowed keys',
    ]);
  });

  it('judge and panel settings of the wrong type get a fix that is the value meant, not "change it to a number"', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: [
        'agent:',
        '  url: http://127.0.0.1:9/chat',
        '  timeoutMs: 1.5m',
        'judge:',
        '  provider: OpenAI',
        '  concurrency: "4"',
        '  timeoutMs: 30s',
        '  panel:',
        '    - gpt-4o-mini',
        '    - { model: b, retries: "2" }',
        '    - { model: c, provider: Anthropic }',
        'simulator: gpt-4o',
        '',
      ].join('\n'),
    });
    expect(r.errors.map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '3:14: agent.timeoutMs must be a number, found the string "1.5m"\n  fix: write it as a number of milliseconds: timeoutMs: 90000',
      '5:13: judge.provider must be one of openai, anthropic, found the string "OpenAI"\n  fix: did you mean "openai"? so that line 5 reads\n    provider: openai',
      '6:16: judge.concurrency must be a number, found the string "4"\n  fix: write the number without quotes: concurrency: 4',
      '7:14: judge.timeoutMs must be a number, found the string "30s"\n  fix: write it as a number of milliseconds: timeoutMs: 30000',
      '9:7: judge.panel[0] must be a mapping, found the string "gpt-4o-mini"\n  fix: write it as a mapping of its settings: - { model: gpt-4o-mini }',
      '10:28: judge.panel[1].retries must be a number, found the string "2"\n  fix: write the number without quotes: retries: 2',
      '11:29: judge.panel[2].provider must be one of openai, anthropic, found the string "Anthropic"\n  fix: did you mean "anthropic"? so that line 11 reads\n    - { model: c, provider: anthropic }',
      '12:12: simulator must be a mapping, found the string "gpt-4o"\n  fix: write it as a mapping of its settings: simulator: { model: gpt-4o }',
    ]);
    // A value the setting would refuse in its turn is not offered: 15 minutes is past the 10 a timeout may be.
    const far = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 15m\n  concurrency: "0"\n' });
    expect(far.errors.map((e) => e.fix)).toEqual([
      'change agent.timeoutMs to a whole number from 1 to 600000, e.g. timeoutMs: 30000 (30 seconds)',
      'change agent.concurrency to a whole number from 1 to 256, e.g. concurrency: 1',
    ]);
    // Digits grouped, which YAML reads as text: the number meant, not an example of another one.
    const grouped = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 45_000\nlatency:\n  minDeltaMs: 1,500\nregex: { timeoutMs: 1_000_000 }\n' });
    expect(grouped.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual([
      '3: write the number without its underscores, which make it text in YAML: timeoutMs: 45000',
      '5: write the number without its commas, which make it text in YAML: minDeltaMs: 1500',
      // Past the range the setting takes: its range, with an example of the regex's own budget (not an agent's 30 s).
      '6: change regex.timeoutMs to a whole number from 1 to 600000, e.g. timeoutMs: 100 (0.1 seconds)',
    ]);
  });

  it('a number split by a comma inside { } is said as the number, with the line as it should read, not as an unknown key "0"', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 3, minPass: 2,5 }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat: { count: 1,000 }\n',
      [C]: 'agent: { url: "http://127.0.0.1:9/chat", concurrency: 1,000 }\ncost: { capUsd: 1,000, judgeCallUsd: 0.01 }\nlatency: { minDeltaMs: 1,500,250 }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      // Past the range the setting takes: not a fix that is the next error.
      `${C}:1:55: concurrency: 1,000 reads as 1 and another key "000" inside { }, where a comma ends a value\n  fix: write the number without the comma; agent.concurrency is a whole number from 1 to 256, which 1000 is not`,
      `${C}:2:17: capUsd: 1,000 reads as 1 and another key "000" inside { }, where a comma ends a value\n  fix: write capUsd: 1000, without the comma, so that line 2 reads\n    cost: { capUsd: 1000, judgeCallUsd: 0.01 }`,
      `${C}:3:24: minDeltaMs: 1,500,250 reads as 1 and the keys "500" and "250" inside { }, where a comma ends a value\n  fix: write the number without the commas; latency.minDeltaMs is a whole number from 0 to 600000, which 1500250 is not`,
      // A part that is not three digits: a decimal comma, where a whole number belongs: not minPass: 2.5, which is refused next.
      `${F}/a.yml:3:30: fixture "a": minPass: 2,5 reads as 2 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 2,5 (repeat.minPass is a whole number from 1 to count (3), which 2.5 is not), e.g. minPass: 2 or minPass: 3`,
      // A range checked after the schema (repeat's count, at most 20): said too, not count: 1000.
      `${F}/b.yml:3:18: fixture "b": count: 1,000 reads as 1 and another key "000" inside { }, where a comma ends a value\n  fix: write the number without the comma; repeat.count is a whole number from 1 to 20, which 1000 is not`,
    ]);
    // 1,000,000 reads 0 twice, a key written twice: said once as the number, and the rest of the file is still checked.
    const twice = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 30,000\ncost: { capUsd: 1,000,000 }\n' });
    expect(twice.errors.map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '3:14: agent.timeoutMs must be a number, found the string "30,000"\n  fix: write the number without its commas, which make it text in YAML: timeoutMs: 30000',
      '4:17: capUsd: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value\n  fix: write capUsd: 1000000, without the commas, so that line 4 reads\n    cost: { capUsd: 1000000 }',
    ]);
  });

  it("repeat's numbers, maxLatencyMs and a reply's turn, split by a comma or written otherwise, are told a fix the next run takes", async () => {
    const r = await load({
      [C]: 'agent: { url: "http://127.0.0.1:9/chat" }\nrepeat: { count: 5, minPass: 2,5 }\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 3, max: 1,000 }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat: { count: 2,5 }\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nrepeat: { count: 1, minPass: 1,5 }\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nrepeat: { count: 12, max: 12,5 }\n',
      [`${F}/e.yml`]: 'label: e\nmessage: hi\nrepeat: { count: 3, minPass: 3,0 }\n',
      [`${F}/f.yml`]: 'label: f\nmessage: hi\nrepeat: { count: 3, minPass: 5,0 }\n',
      [`${F}/g.yml`]: 'label: g\nmessage: hi\nassert: { maxLatencyMs: 2,5 }\n',
      [`${F}/h.yml`]: 'label: h\nmessage: hi\nrepeat:\n  count: 1\n  minPass: two\n  max: 1_000\n',
      [`${F}/i.yml`]: 'label: i\nmessage: hi\nrepeat: { count: 3, max: 1,000,000 }\n',
      '.agent-replay/personas/p.yml': 'label: p\nopening: hi\nfollowUps: [a, b]\nexpect:\n  reply:\n    - { contains: x, turn: 1,5 }\n',
    });
    const said = (file: string): string[] => r.errors.filter((e) => e.file === file).map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`);
    // A decimal comma where a whole number belongs: the whole numbers either side, each one count takes.
    expect(said(C)).toEqual([
      '2:30: minPass: 2,5 reads as 2 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 2,5 (repeat.minPass is a whole number from 1 to count (5), which 2.5 is not), e.g. minPass: 2 or minPass: 3',
    ]);
    // Past 20: the range, not max: 1000; and not the 1 YAML read (below count), at the same place, beside it.
    expect(said(`${F}/a.yml`)).toEqual([
      '3:26: fixture "a": max: 1,000 reads as 1 and another key "000" inside { }, where a comma ends a value\n  fix: write the number without the comma; repeat.max is a whole number from count (3) to 20, which 1000 is not',
    ]);
    expect(said(`${F}/b.yml`)).toEqual([
      '3:18: fixture "b": count: 2,5 reads as 2 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 2,5 (repeat.count is a whole number from 1 to 20, which 2.5 is not), e.g. count: 2 or count: 3',
    ]);
    // Bounded by the count beside it: minPass at most 1 (not minPass: 2), max at least 12.
    expect(said(`${F}/c.yml`)).toEqual([
      '3:30: fixture "c": minPass: 1,5 reads as 1 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 1,5 (repeat.minPass is a whole number from 1 to count (1), which 1.5 is not), e.g. minPass: 1',
    ]);
    expect(said(`${F}/d.yml`)).toEqual([
      '3:27: fixture "d": max: 12,5 reads as 12 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 12,5 (repeat.max is a whole number from count (12) to 20, which 12.5 is not), e.g. max: 12 or max: 13',
    ]);
    // 3.0 is 3, which count takes; 5.0 is past count.
    expect(said(`${F}/e.yml`)).toEqual([
      '3:30: fixture "e": minPass: 3,0 reads as 3 and another key "0" inside { }, where a comma ends a value\n  fix: write minPass: 3.0, with a decimal point in place of the comma, so that line 3 reads\n    repeat: { count: 3, minPass: 3.0 }',
    ]);
    expect(said(`${F}/f.yml`)).toEqual([
      '3:30: fixture "f": minPass: 5,0 reads as 5 and another key "0" inside { }, where a comma ends a value\n  fix: write the number with a decimal point in place of the comma; repeat.minPass is a whole number from 1 to count (3), which 5.0 is not',
    ]);
    // A budget in whole ms: its example (2 seconds), not 2 or 3 ms.
    expect(said(`${F}/g.yml`)).toEqual([
      '3:25: fixture "g": maxLatencyMs: 2,5 reads as 2 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 2,5 (assert.maxLatencyMs is a whole number of milliseconds above 0, which 2.5 is not), e.g. maxLatencyMs: 2000',
    ]);
    // 1,000,000 reads 0 twice, which the YAML syntax check says without the range: said once, with it.
    expect(said(`${F}/i.yml`)).toEqual([
      '3:26: fixture "i": max: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value\n  fix: write the number without the commas; repeat.max is a whole number from count (3) to 20, which 1000000 is not',
    ]);
    // A reply's turn, a check of its own (no range its schema states): the turns this script has.
    expect(said('.agent-replay/personas/p.yml')).toEqual([
      '6:28: persona script "p": turn: 1,5 reads as 1 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 1,5 (expect.reply[0].turn is a turn from 0 to 3, last, or any, which 1.5 is not), e.g. turn: 1 or turn: 2',
    ]);
    // Not in { }: a number word within count, and grouped digits past 20, told the range with an example count takes.
    expect(said(`${F}/h.yml`)).toEqual([
      '5:12: fixture "h": repeat.minPass must be a number, found the string "two"\n  fix: change repeat.minPass to a whole number from 1 to count (1), e.g. minPass: 1',
      '6:8: fixture "h": repeat.max must be a number, found the string "1_000"\n  fix: change repeat.max to a whole number from count (1) to 20, e.g. max: 10',
    ]);
  });

  it('a split number is said once, with the range the next run takes: beside a check of the part YAML read, in a file with another syntax error, and at a turn past the script', async () => {
    const r = await load({
      [C]: 'agent: { url: "http://127.0.0.1:9/chat" }\nrepeat: { count: 3, minPass: 1,000,000 }\njudge: x: y\n',
      // The 0 YAML read is below 1 ms: not said as well, at the maxLatencyMs key, beside the number.
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { maxLatencyMs: 0,5 }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: [{ contains: x }, { maxLatencyMs: 0,250 }]\n',
      // Another syntax error in the file (item 2): item 1, whose only slip is the number, is still checked.
      [`${F}/c.yml`]: '- label: c\n  message: hi\n  repeat: { count: 3, max: 1,000,000 }\n- label: d\n  message: x: y\n',
      // Three message turns (the opening and two follow-ups): no turn 1000.
      '.agent-replay/personas/p.yml':
        'label: p\nopening: hi\nfollowUps: [a, b]\nexpect:\n  reply:\n    - { contains: x, turn: 1,000 }\n    - { contains: x, turn: 7,5 }\n    - { contains: x, turn: 1,000,000 }\n    - { contains: x, turn: 3,0 }\n',
    });
    const said = (file: string): string[] => r.errors.filter((e) => e.file === file).map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`);
    expect(said(C)).toEqual([
      '2:30: minPass: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value\n  fix: write the number without the commas; repeat.minPass is a whole number from 1 to count (3), which 1000000 is not',
      expect.stringMatching(/^3:8: invalid YAML: "x" is written on the line of "judge"/),
    ]);
    expect(said(`${F}/a.yml`)).toEqual([
      '3:25: fixture "a": maxLatencyMs: 0,5 reads as 0 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 0,5 (assert.maxLatencyMs is a whole number of milliseconds above 0, which 0.5 is not), e.g. maxLatencyMs: 2000',
    ]);
    expect(said(`${F}/b.yml`)).toHaveLength(1);
    expect(said(`${F}/b.yml`)[0]).toMatch(/^3:43: fixture "b": maxLatencyMs: 0,250 reads as 0 /);
    expect(said(`${F}/c.yml`)).toEqual([
      '3:28: fixture "c": max: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value\n  fix: write the number without the commas; repeat.max is a whole number from count (3) to 20, which 1000000 is not',
      '5:12: invalid YAML: the value "x: y" holds ": ", which YAML reads as one more key on the same line\n  fix: put the value in quotes, so that line 5 reads\n      message: "x: y"',
    ]);
    expect(said('.agent-replay/personas/p.yml')).toEqual([
      '6:28: persona script "p": turn: 1,000 reads as 1 and another key "000" inside { }, where a comma ends a value\n  fix: write the number without the comma; expect.reply[0].turn is a turn from 0 to 3, last, or any, which 1000 is not',
      '7:28: persona script "p": turn: 7,5 reads as 7 and another key "5" inside { }, where a comma ends a value\n  fix: write a whole number in place of 7,5 (expect.reply[1].turn is a turn from 0 to 3, last, or any, which 7.5 is not), e.g. turn: 3',
      '8:28: persona script "p": turn: 1,000,000 reads as 1 and the keys "000" and "000" inside { }, where a comma ends a value\n  fix: write the number without the commas; expect.reply[2].turn is a turn from 0 to 3, last, or any, which 1000000 is not',
      // 3.0 is turn 3, which the script has.
      '9:28: persona script "p": turn: 3,0 reads as 3 and another key "0" inside { }, where a comma ends a value\n  fix: write turn: 3.0, with a decimal point in place of the comma, so that line 9 reads\n        - { contains: x, turn: 3.0 }',
    ]);
    // A budget below 1 ms written as one number is still said, at the number.
    const zero = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { maxLatencyMs: 0 }\n' });
    expect(zero.errors.map((e) => `${e.line}:${e.column}: ${e.message}`)).toEqual(['3:25: fixture "a": maxLatencyMs 0 is not a whole number of milliseconds above 0']);
    // A judge's threshold likewise: 2,5 is not also "threshold 2 is outside [0, 1]".
    const judged = await load({
      [C]: 'agent: { url: "http://127.0.0.1:9/chat" }\njudge: { provider: openai, model: m, apiKey: k }\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { judge: polite, threshold: 2,5 }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: { judge: polite, threshold: 2 }\n',
    });
    expect(judged.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`)).toEqual([
      `${F}/a.yml:3:37: fixture "a": threshold: 2,5 reads as 2 and another key "5" inside { }, where a comma ends a value`,
      `${F}/b.yml:3:37: fixture "b": threshold 2 is outside [0, 1]`,
    ]);
  });

  it('a 0 before three digits split by a comma (0,500) is told the reading the setting takes: 500 ms, a 0.500 score, both for USD, neither for a count', async () => {
    const r = await load({
      [C]: 'agent: { url: "http://127.0.0.1:9/chat" }\njudge: { provider: openai, model: m, apiKey: k }\ncost: { capUsd: 0,500 }\n',
      // A whole number of milliseconds: 500, not 0500 (an odd leading 0) nor 0.500.
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { maxLatencyMs: 0,500 }\n',
      // A score between 0 and 1: 0.500; a count of passes takes neither.
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: { judge: polite, threshold: 0,500 }\nrepeat: { count: 3, minPass: 0,500 }\n',
      '.agent-replay/personas/p.yml': 'label: p\nopening: hi\nfollowUps: [a, b]\nexpect:\n  reply:\n    - { contains: x, turn: 0,500 }\n    - { contains: x, turn: 0,002 }\n',
    });
    const said = (file: string): string[] => r.errors.filter((e) => e.file === file).map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`);
    expect(said(C)).toEqual([
      // USD takes both: both are said.
      '3:17: capUsd: 0,500 reads as 0 and another key "500" inside { }, where a comma ends a value\n  fix: write capUsd: 0.500 or capUsd: 500, whichever is meant: with a decimal point in place of the comma, or without the 0 and the comma',
    ]);
    expect(said(`${F}/a.yml`)).toEqual([
      '3:25: fixture "a": maxLatencyMs: 0,500 reads as 0 and another key "500" inside { }, where a comma ends a value\n  fix: write maxLatencyMs: 500, without the 0 and the comma, so that line 3 reads\n    assert: { maxLatencyMs: 500 }',
    ]);
    expect(said(`${F}/c.yml`)).toEqual([
      '3:37: fixture "c": threshold: 0,500 reads as 0 and another key "500" inside { }, where a comma ends a value\n  fix: write threshold: 0.500, with a decimal point in place of the comma, so that line 3 reads\n    assert: { judge: polite, threshold: 0.500 }',
      '4:30: fixture "c": minPass: 0,500 reads as 0 and another key "500" inside { }, where a comma ends a value\n  fix: write a whole number in place of 0,500 (repeat.minPass is a whole number from 1 to count (3), which neither 0.500 nor 500 is), e.g. minPass: 1',
    ]);
    expect(said('.agent-replay/personas/p.yml')).toEqual([
      '6:28: persona script "p": turn: 0,500 reads as 0 and another key "500" inside { }, where a comma ends a value\n  fix: write a whole number in place of 0,500 (expect.reply[0].turn is a turn from 0 to 3, last, or any, which neither 0.500 nor 500 is), e.g. turn: 0 or turn: 1',
      '7:28: persona script "p": turn: 0,002 reads as 0 and another key "002" inside { }, where a comma ends a value\n  fix: write turn: 2, without the 0 and the comma, so that line 7 reads\n        - { contains: x, turn: 2 }',
    ]);
  });

  it('a decimal comma outside { } (threshold: 0,5, text in YAML) is told the decimal where the setting takes a fraction, not its example', async () => {
    const r = await load({
      [C]: 'agent: { url: "http://127.0.0.1:9/chat" }\njudge: { provider: openai, model: m, apiKey: k }\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nassert:\n  - judge: polite\n    threshold: 0,75\n',
      // A count takes no fraction: its range and example, as before.
      [`${F}/e.yml`]: 'label: e\nmessage: hi\nrepeat:\n  count: 2,5\n',
      '.agent-replay/personas/p.yml': 'label: p\nopening: hi\nfollowUps: [a, b]\nthreshold: 0,5\nexpect: { reply: [{ contains: x }] }\n',
    });
    const said = (file: string): string[] => r.errors.filter((e) => e.file === file).map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`);
    expect(said(`${F}/d.yml`)).toEqual([
      '5:16: fixture "d": assert[0].threshold must be a number, found the string "0,75"\n  fix: write the number with a decimal point in place of the comma, which makes it text in YAML: threshold: 0.75',
    ]);
    expect(said(`${F}/e.yml`)).toHaveLength(1);
    expect(said(`${F}/e.yml`)[0]).not.toMatch(/decimal point/);
    expect(said('.agent-replay/personas/p.yml')).toEqual([
      '4:12: persona script "p": threshold must be a number, found the string "0,5"\n  fix: write the number with a decimal point in place of the comma, which makes it text in YAML: threshold: 0.5',
    ]);
  });

  it('1,000 where the setting takes a score from 0 to 1 is 1.000, not a thousand: in { } and outside; a count of 1,000 is not told 1', async () => {
    const r = await load({
      [C]: 'agent: { url: "http://127.0.0.1:9/chat" }\njudge: { provider: openai, model: m, apiKey: k }\nmeaning:\n  check: facts\n  threshold: 1,000\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n  judge: polite\n  threshold: 1,000\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: { judge: polite, threshold: 1,000 }\n',
      // Past 1 either way: the range and its example, as before.
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert:\n  judge: polite\n  threshold: 2,000\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nrepeat:\n  count: 1,000\n',
      '.agent-replay/personas/p.yml': 'label: p\nopening: hi\nthreshold: 1,000\nexpect: { criteria: [polite] }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:5:14: meaning.threshold must be a number, found the string "1,000"\n  fix: write the number with a decimal point in place of the comma, which makes it text in YAML: threshold: 1.000`,
      `${F}/a.yml:5:14: fixture "a": assert.threshold must be a number, found the string "1,000"\n  fix: write the number with a decimal point in place of the comma, which makes it text in YAML: threshold: 1.000`,
      `${F}/b.yml:3:37: fixture "b": threshold: 1,000 reads as 1 and another key "000" inside { }, where a comma ends a value\n  fix: write threshold: 1.000, with a decimal point in place of the comma, so that line 3 reads\n    assert: { judge: polite, threshold: 1.000 }`,
      `${F}/c.yml:5:14: fixture "c": assert.threshold must be a number, found the string "2,000"\n  fix: change assert.threshold to a score between 0 and 1, e.g. threshold: 0.7`,
      `${F}/d.yml:4:10: fixture "d": repeat.count must be a number, found the string "1,000"\n  fix: change repeat.count to a whole number from 1 to 20, e.g. count: 3`,
      `.agent-replay/personas/p.yml:3:12: persona script "p": threshold must be a number, found the string "1,000"\n  fix: write the number with a decimal point in place of the comma, which makes it text in YAML: threshold: 1.000`,
    ]);
  });

  it('a key left without its value, and headers written as one line of text, get what to write', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage:\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers:\n    Authorization:\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:4: agent.headers.Authorization must be a string or a number or true or false, found an empty value (null)\n  fix: write the value after "Authorization:" on line 4, or remove that line`,
      `${F}/a.yml:2: fixture "a": message must be a string, found an empty value (null)\n  fix: write the value after "message:" on line 2`,
    ]);
    const headers = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: "X-Tenant: acme"\njudge:\n  apiKey: k\nsimulator:\n  url: http://127.0.0.1:9/v1\n',
    });
    expect(headers.errors.map((e) => `${e.line}: ${e.fix}`)).toContainEqual('3: write it as a mapping: headers: { X-Tenant: acme }');
    // The fix in YAML's flow style (flowYaml), quoting only what YAML would read otherwise; written as it says, it loads.
    for (const [written, fix, sent] of [
      ['X-Tenant: acme', 'headers: { X-Tenant: acme }', { 'X-Tenant': 'acme' }],
      ['Authorization: Bearer t0k', 'headers: { Authorization: "Bearer t0k" }', { Authorization: 'Bearer t0k' }],
    ] as const) {
      const given = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `agent:\n  url: http://127.0.0.1:9/chat\n  headers: "${written}"\n` });
      expect(given.errors.map((e) => e.fix)).toEqual([`write it as a mapping: ${fix}`]);
      const fixed = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `agent:\n  url: http://127.0.0.1:9/chat\n  ${fix}\n` });
      expect(fixed.errors).toEqual([]);
      expect(fixed.suite?.config.agent.headers).toEqual(sent);
    }
  });

  it('a key named as other tools name it (name, expected, endpoint, url, max_retries) is said once, with the key it stands for', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'name: a\nmessage: hi\nexpected: { contains: "x" }\n',
      [C]: 'agent:\n  endpoint: http://127.0.0.1:9/chat\n  max_retries: 2\njudge:\n  url: http://127.0.0.1:9/v1\n  apiKey: k\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message.replace(/; allowed keys: .*/, '')}\n  fix: ${e.fix}`)).toEqual([
      `${C}:2: unknown key "endpoint" in agent\n  fix: did you mean "url"? rename the key, so that line 2 reads\n      url: http://127.0.0.1:9/chat`,
      `${C}:3: unknown key "max_retries" in agent\n  fix: did you mean "retries"? rename the key, so that line 3 reads\n      retries: 2`,
      `${C}:5: unknown key "url" in judge\n  fix: did you mean "baseUrl"? rename the key, so that line 5 reads\n      baseUrl: http://127.0.0.1:9/v1`,
      `${F}/a.yml:1: unknown key "name" at the top level (and the required "label" is missing)\n  fix: did you mean "label"? rename the key, so that line 1 reads\n    label: a`,
      `${F}/a.yml:3: unknown key "expected" at the top level\n  fix: did you mean "assert"? rename the key, so that line 3 reads\n    assert: { contains: "x" }`,
    ]);
  });

  it('an assertion kind named as other tools name it (matches, pattern, includes, rubric) is said with the kind it stands for', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n  matches: "30 days?"\n  flags: i\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: { pattern: "\\\\d+" }\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: [ { includes: refund }, { rubric: "Polite." } ]\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message.replace(/; allowed keys: .*/, '')}\n  fix: ${e.fix}`)).toEqual([
      `${F}/a.yml:4: fixture "a": unknown key "matches" in assert\n  fix: did you mean "regex"? rename the key, so that line 4 reads\n      regex: "30 days?"`,
      `${F}/b.yml:3: fixture "b": unknown key "pattern" in assert\n  fix: did you mean "regex"? rename the key, so that line 3 reads\n    assert: { regex: "\\\\d+" }`,
      `${F}/c.yml:3: fixture "c": unknown key "includes" in assert[0]\n  fix: did you mean "contains"? rename the key, so that line 3 reads\n    assert: [ { contains: refund }, { rubric: "Polite." } ]`,
      `${F}/c.yml:3: fixture "c": unknown key "rubric" in assert[1]\n  fix: did you mean "judge"? rename the key, so that line 3 reads\n    assert: [ { includes: refund }, { judge: "Polite." } ]`,
    ]);
  });

  it('a file of comments only is said to hold only comments, and a file that is an empty list is said to be one', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/b.yml`]: '# label: b\n# message: hi\n',
      [`${F}/c.yml`]: '[]\n',
      [`${F}/d.yml`]: '',
      '.agent-replay/personas/p.yml': '[]\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`)).toEqual([
      `${F}/b.yml:1: the file holds only comments: it defines no fixture`,
      `${F}/c.yml:1: the file is an empty list: it defines no fixture`,
      `${F}/d.yml:1: the file is empty: it defines no fixture`,
      '.agent-replay/personas/p.yml:1: the file is an empty list: it defines no persona script',
    ]);
  });

  it('assert written as text: the fix writes it as the mapping it meant', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: contains 30 days\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: 30 days\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.fix}`)).toEqual([
      `${F}/a.yml:3:9: write the check as a mapping: assert: { contains: "30 days" }`,
      `${F}/b.yml:3:9: write the check as a mapping, e.g. assert: { contains: "30 days" } (the reply contains that text); the kinds are in ${docsUrl('fixtures.md', 'Assertions')}`,
    ]);
  });

  it('a key with no space after its colon, and a value holding ": ", are said in plain words with the line as it should read', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage:hi\nassert: { contains: "x" }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\npersona:x\n',
      [`${F}/c.yml`]: '- label: c\n  message: Note: refunds take "30" days  # why\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${F}/a.yml:2:1: invalid YAML: "message:hi" has no space after the colon, so YAML reads it as text, not as the key "message"\n` +
        '  fix: put a space after the colon, so that line 2 reads\n    message: hi',
      `${F}/b.yml:3:1: invalid YAML: "persona:x" has no space after the colon, so YAML reads it as text, not as the key "persona"\n` +
        '  fix: put a space after the colon, so that line 3 reads\n    persona: x',
      `${F}/c.yml:2:12: invalid YAML: the value "Note: refunds take \\"30\\" days" holds ": ", which YAML reads as one more key on the same line\n` +
        `  fix: put the value in quotes, so that line 2 reads\n      message: 'Note: refunds take "30" days'  # why`,
    ]);
  });

  it('a value holding ": " inside { } is said as in a block, with the line as it should read, not as "Block collections are not allowed within flow collections"', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { contains: Note: 30 days }\n',
      [`${F}/b.yml`]: 'fixtures:\n  - { label: b, message: hi, assert: { contains: x: y, flags: i } }\n  - { label: b2, message: hi }\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: { X-Note: a: b }  # why\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:3:22: invalid YAML: the value "a: b" holds ": ", which YAML reads as one more key on the same line\n` +
        '  fix: put the value in quotes, so that line 3 reads\n      headers: { X-Note: "a: b" }  # why',
      `${F}/a.yml:3:21: invalid YAML: the value "Note: 30 days" holds ": ", which YAML reads as one more key on the same line\n` +
        '  fix: put the value in quotes, so that line 3 reads\n    assert: { contains: "Note: 30 days" }',
      `${F}/b.yml:2:50: invalid YAML: the value "x: y" holds ": ", which YAML reads as one more key on the same line\n` +
        '  fix: put the value in quotes, so that line 2 reads\n      - { label: b, message: hi, assert: { contains: "x: y", flags: i } }',
    ]);
  });

  it('a key of assert (or headers) written on its line: the fix puts it in { }, not the value in quotes (a string assert is an error too)', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: contains: "30 days"\n',
      [`${F}/b.yml`]: 'label: b\nmessage: Note: refunds take 30 days\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: X-Tenant: acme\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:3:12: invalid YAML: "X-Tenant" is written on the line of "headers", which YAML does not read as a key under it\n` +
        '  fix: put it in { }, so that line 3 reads\n      headers: { X-Tenant: acme }\n  or write it on a line of its own, indented under "headers"',
      `${F}/a.yml:3:9: invalid YAML: "contains" is written on the line of "assert", which YAML does not read as a key under it\n` +
        '  fix: put it in { }, so that line 3 reads\n    assert: { contains: "30 days" }\n  or write it on a line of its own, indented under "assert"',
      `${F}/b.yml:2:10: invalid YAML: the value "Note: refunds take 30 days" holds ": ", which YAML reads as one more key on the same line\n` +
        '  fix: put the value in quotes, so that line 2 reads\n    message: "Note: refunds take 30 days"',
    ]);
  });

  it('a key written without its colon, in a block or in { }, is said at its line with the line as it should read', async () => {
    const r = await load({
      [C]: 'agent:\n  url http://localhost:3000/api/chat   # local\n  timeoutMs: 1000\n',
      [`${F}/a.yml`]: 'label: a\nmessage "Can I get my money back?"\nassert: { contains: "30" }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert\n  contains: hi\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: { contains hi }\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\npersona shopper\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:2:3: invalid YAML: line 2 has no ":" after its key "url", so YAML cannot read "http://localhost:3000/api/chat" as its value\n` +
        '  fix: write ": " after "url", so that line 2 reads\n      url: http://localhost:3000/api/chat   # local',
      `${F}/a.yml:2:1: invalid YAML: line 2 has no ":" after its key "message", so YAML cannot read "\\"Can I get my money back?\\"" as its value\n` +
        '  fix: write ": " after "message", so that line 2 reads\n    message: "Can I get my money back?"',
      `${F}/b.yml:3:1: invalid YAML: line 3 has no ":" after its key "assert", so YAML cannot read the lines indented under it as its value\n` +
        '  fix: write ":" after "assert", so that line 3 reads\n    assert:',
      `${F}/c.yml:3:11: fixture "c": "contains hi" in assert is written without ": " after the key "contains", so YAML reads it as one key with no value\n` +
        '  fix: write ": " after "contains", so that line 3 reads\n    assert: { contains: hi }',
      `${F}/d.yml:3:1: invalid YAML: line 3 has no ":" after its key "persona", so YAML cannot read "shopper" as its value\n` +
        '  fix: write ": " after "persona", so that line 3 reads\n    persona: shopper',
    ]);
  });

  it('an amount written with its currency, and yes or no for true or false: the fix writes the value the setting takes', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  stream: yes\ncost:\n  capUsd: $1.00\n  agentTurnUsd: 0.01 USD\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:3:11: agent.stream must be true or false, found the string "yes"\n  fix: YAML 1.2 reads yes as text, not as true: write stream: true`,
      `${C}:5:11: cost.capUsd must be a number, found the string "$1.00"\n  fix: write the amount without the currency (the key says USD): capUsd: 1.00`,
      `${C}:6:17: cost.agentTurnUsd must be a number, found the string "0.01 USD"\n  fix: write the amount without the currency (the key says USD): agentTurnUsd: 0.01`,
    ]);
  });

  it('a number written as a word, or no number: the fix says the range the schema takes and the line as it should read', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  concurrency: four\n  retries: many\n  timeoutMs: forever\n',
    });
    expect(r.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual([
      '3: write the number in digits (agent.concurrency is a whole number from 1 to 256): concurrency: 4',
      '4: change agent.retries to a whole number from 0 to 10, e.g. retries: 0',
      '5: change agent.timeoutMs to a whole number from 1 to 600000, e.g. timeoutMs: 30000 (30 seconds)',
    ]);
  });

  it('a percentage or a multiple where a fraction goes, and a whole number written with a fraction: the fix is the value meant, not the least one', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nlatency: { slowerBy: 50%, minDeltaMs: 300.5 }\nmeaning: { threshold: 80 % }\n',
    });
    expect(r.errors.map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '3:22: latency.slowerBy must be a number, found the string "50%"\n  fix: write it as a fraction: slowerBy: 0.5 (50%)',
      '3:39: latency.minDeltaMs must be a whole number, found the number 300.5\n  fix: change latency.minDeltaMs to a whole number from 0 to 600000: minDeltaMs: 301',
      '4:23: meaning.threshold must be a number, found the string "80 %"\n  fix: write it as a fraction: threshold: 0.8 (80 %)',
    ]);
    const times = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nlatency: { slowerBy: 1.5x }\n' });
    expect(times.errors.map((e) => e.fix)).toEqual(["write how much slower than the baseline, as a fraction: slowerBy: 0.5 (1.5x the baseline's latency is 50% slower)"]);
  });

  it('yes, no, on or off for a key that takes true, false or a mapping: the same YAML 1.2 advice as a plain true/false key', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  start: off\n' });
    expect(r.errors.map((e) => `${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '3: agent.start must be true, false, or a mapping with body and/or response, found the string "off"\n  fix: YAML 1.2 reads off as text, not as false: write start: false',
    ]);
  });

  it('a preset named by its family or misspelt: the fix names the presets meant, as init --preset does', async () => {
    const family = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  preset: openai\n' });
    expect(family.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual([
      '3: did you mean "openai-chat" or "openai-responses"? use one of: native, openai-chat, openai-responses, anthropic-messages, rasa-rest, vercel-ai, langgraph, mastra',
    ]);
    const one = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  preset: anthropic\n  model: m\n' });
    expect(one.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual(['3: did you mean "anthropic-messages"? so that line 3 reads\n    preset: anthropic-messages']);
    const typo = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  preset: openai_chat\n  model: m\n' });
    expect(typo.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual(['3: did you mean "openai-chat"? so that line 3 reads\n    preset: openai-chat']);
  });

  it('one value where a list belongs: the fix shows it as a list of one, when the list takes it', async () => {
    const P = '.agent-replay/personas';
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]:
        'label: p1\nopening: hi\nfollowUps: Order 1234   # the order\nexpect:\n  conversations: refunds\n  toolCalled: { tool: find_order }\n' +
        '  toolNotCalled:\n    tool: issue_refund\n  criteria: "Stayed polite, always"\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ncoverage: { conversations: refunds }\njudge:\n  panel: { model: m }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${C}:3:28: coverage.conversations must be a list, found the string "refunds"\n` +
        '  fix: make it a list of one: put the value in [ ], so that line 3 reads\n    coverage: { conversations: [ refunds ] }',
      // A panel has 3 or 5 members: a list of one is no fix (test/suite/fix-at-once.test.ts has what is said).
      `${C}:5:10: judge.panel must be a list, found a mapping\n  fix: a panel is a list of 3 or 5 judges (${docsUrl('judges.md', 'Panels')}): write this one as its first "- " line (- { model: m }) and add 2 more; or, for this judge alone, remove panel: and write model: m under judge`,
      `${P}/p.yml:3:12: persona script "p1": followUps must be a list, found the string "Order 1234"\n` +
        '  fix: make it a list of one: put the value in [ ], so that line 3 reads\n    followUps: [ Order 1234 ]   # the order',
      `${P}/p.yml:5:18: persona script "p1": expect.conversations must be a list, found the string "refunds"\n` +
        '  fix: make it a list of one: put the value in [ ], so that line 5 reads\n      conversations: [ refunds ]',
      `${P}/p.yml:6:15: persona script "p1": expect.toolCalled must be a list, found a mapping\n` +
        '  fix: make it a list of one: put the value in [ ], so that line 6 reads\n      toolCalled: [ { tool: find_order } ]',
      `${P}/p.yml:8:5: persona script "p1": expect.toolNotCalled must be a list, found a mapping\n` +
        '  fix: make it a list of one: start line 8 with "- " and indent the item\'s other lines by two more spaces',
      `${P}/p.yml:9:13: persona script "p1": expect.criteria must be a list, found the string "Stayed polite, always"\n` +
        '  fix: make it a list of one: put the value in [ ], so that line 9 reads\n      criteria: [ "Stayed polite, always" ]',
    ]);
    // A file's fixtures: is checked item by item elsewhere: no list of one is offered for it.
    const file = await load({ [`${F}/a.yml`]: 'fixtures: hello\n' });
    expect(file.errors.map((e) => e.fix)).toEqual(['change fixtures to a list']);
  });

  it('a mapping where a list of checks belongs, with a key misspelt in it: the did-you-mean and the list of one, not only "change expect.reply to a list"', async () => {
    const P = '.agent-replay/personas';
    const script = (label: string, expect: string): string => `label: ${label}\nopening: hi\nexpect:\n  terminal: finish\n${expect}`;
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/a.yml`]: script('a', '  reply: { contians: refund, turn: last }  # the policy\n'),
      [`${P}/b.yml`]: script('b', '  reply:\n    contians: refund\n    trun: last\n'),
      [`${P}/c.yml`]: script('c', '  reply: { contians: refund, colour: red }\n'),
      [`${P}/d.yml`]: script('d', '  reply: { text: refund }\n'),
      [`${P}/e.yml`]: script('e', '  toolCalled: { tol: find_order }\n'),
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${P}/a.yml:5:10: persona script "a": expect.reply must be a list, found a mapping\n` +
        '  fix: did you mean "contains"? rename the key and make it a list of one, so that line 5 reads\n      reply: [ { contains: refund, turn: last } ]  # the policy',
      `${P}/b.yml:6:5: persona script "b": expect.reply must be a list, found a mapping\n` +
        '  fix: did you mean "contains" and "turn"? rename "contians" on line 6 to "contains", "trun" on line 7 to "turn", and make it a list of one: start line 6 with "- " and indent the item\'s other lines by two more spaces',
      `${P}/c.yml:5:10: persona script "c": expect.reply must be a list, found a mapping\n` +
        '  fix: remove "colour" (an item of expect.reply takes contains, regex, flags, turn), rename "contians" to "contains", and make it a list of one: put the mapping in [ ]',
      // Nothing left that an item takes: the keys it takes, not a list of an empty check.
      `${P}/d.yml:5:10: persona script "d": expect.reply must be a list, found a mapping\n` +
        '  fix: "text" is not a key an item of expect.reply takes: make it a list of mappings of contains, regex, flags, turn',
      `${P}/e.yml:5:15: persona script "e": expect.toolCalled must be a list, found a mapping\n` +
        '  fix: did you mean "tool"? rename the key and make it a list of one, so that line 5 reads\n      toolCalled: [ { tool: find_order } ]',
    ]);
  });

  it('duplicate YAML keys and several documents', async () => {
    const r = await load({
      [`${F}/dup.yml`]: 'label: a\nmessage: x\nmessage: y\n',
      [`${F}/docs.yml`]: 'label: b\nmessage: x\n---\nlabel: c\nmessage: y\n',
      // The first of the two is named: in a list item, and in a mapping under a key.
      [`${F}/list.yml`]: '- label: d\n  message: x\n- label: e\n  message: x\n  label: f\n- label: g\n  message: x\n  assert:\n    contains: x\n    # a comment\n    contains: y\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/docs.yml:3: invalid YAML: the file contains more than one document (a --- separator)`,
      `${F}/dup.yml:3: invalid YAML: the key "message" appears twice in one mapping (first on line 2)`,
      `${F}/list.yml:5: invalid YAML: the key "label" appears twice in one mapping (first on line 3)`,
      `${F}/list.yml:11: invalid YAML: the key "contains" appears twice in one mapping (first on line 9)`,
    ]);
  });

  it('a second document (--- once or twice) is its error alone: every item of the first document is still checked', async () => {
    // The last item of the first document was left out as if the --- were a syntax error in it
    // (docs/configuration.md, "How YAML is read": only what a syntax error leaves unsure is not checked).
    for (const separators of [1, 2]) {
      const more = separators === 2 ? '---\nlabel: z\nmessage: y\n' : '';
      const r = await load({ [`${F}/docs.yml`]: `fixtures:\n  - label: a\n    mesage: x\n  - label: b\n    mesage: y\n---\nfixtures:\n  - label: c\n    mesage: z\n${more}` });
      expect(brief(r.errors), `${separators} ---`).toEqual([
        `${F}/docs.yml:3: fixture "a": unknown key "mesage" (and the required "message" is missing); allowed keys: label, message, persona, assert, repeat`,
        `${F}/docs.yml:5: fixture "b": unknown key "mesage" (and the required "message" is missing); allowed keys: label, message, persona, assert, repeat`,
        `${F}/docs.yml:6: invalid YAML: the file contains more than one document (a --- separator)`,
      ]);
    }
  });

  it('a byte-order mark does not move the columns; a fixtures path that is a file is said to be one', async () => {
    const bom = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: '\ufeffagent:\n  retries: three\n' });
    expect(bom.errors.map((e) => [e.line, e.column])).toEqual([[2, 12]]);
    const first = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: '\ufeffretries: 1\n' });
    expect(first.errors.map((e) => [e.line, e.column])).toEqual([[1, 1]]);
    const file = await load({ '.agent-replay/fixtures': 'not a folder\n', [C]: 'agent:\n  retries: 1\n' });
    expect(brief(file.errors)[0]).toContain('no fixtures folder: .agent-replay/fixtures is a file, not a folder');
  });

  it('a baselines, personas or fixtures path that is a file is an error that names it, not a folder passed over', async () => {
    const baselines = await load({ [`${F}/a.yml`]: OK_FIXTURE, [B]: 'not a folder\n' });
    expect(baselines.suite).toBeNull();
    expect(baselines.errors.map((e) => `${e.file}: ${e.message} | ${e.fix}`)).toEqual([
      `${B}: a file, not a folder: baselines are read from the .json files in that folder, one <label>.json per fixture or persona script, written by acceptance, so none was read | rename or move the file, then make ${B} a folder`,
    ]);
    quotedAndSaid(baselines.errors.map((e) => `${e.file}: ${e.message}`).join('\n'), '.agent-replay/baselines: a file, not a folder: baselines are read from the .json files in that folder, ...');
    const personas = await load({ [`${F}/a.yml`]: OK_FIXTURE, '.agent-replay/personas': 'label: p\n' });
    expect(brief(personas.errors)).toEqual([`.agent-replay/personas:-: a file, not a folder: persona scripts are read from the .yml and .yaml files in that folder, so none was read`]);
    expect(personas.errors[0]!.fix).toBe('rename or move the file, then make .agent-replay/personas a folder and move the persona scripts there');
    // Persona scripts alone need no fixtures folder, but a file there is still not one.
    const script = 'label: s\nopening: hi\nexpect: { terminal: finish }\n';
    const fixtures = await load({ '.agent-replay/personas/s.yml': script, [F]: OK_FIXTURE });
    expect(brief(fixtures.errors)).toEqual([`${F}:-: a file, not a folder: fixtures are read from the .yml and .yaml files in that folder, so none was read`]);
    expect((await load({ '.agent-replay/personas/s.yml': script })).errors).toEqual([]);
  });

  it('a suite with no fixtures folder says so once, not also every baseline as an orphan', async () => {
    const missing = await load({ [`${B}/a.json`]: BASELINE('a'), [`${B}/b.json`]: BASELINE('b') });
    expect(brief(missing.errors)).toEqual([`${F}:-: no fixtures folder: ${F} does not exist`]);
    expect(missing.warnings).toEqual([]);
    const file = await load({ [F]: OK_FIXTURE, [`${B}/a.json`]: BASELINE('a') });
    expect(brief(file.errors)).toEqual([`${F}:-: no fixtures folder: ${F} is a file, not a folder`]);
    expect(file.warnings).toEqual([]);
  });

  it('an empty value is placed at its key, not at the next token lines further on', async () => {
    const r = await load({ [`${F}/n.yml`]: 'label: n1\nmessage:\n\n# c\n\nassert: { contains: x }\n' });
    expect(brief(r.errors)).toEqual([`${F}/n.yml:2: fixture "n1": message must be a string, found an empty value (null)`]);
  });

  it('an unclosed quote is placed where it opens, not at the end of the file', async () => {
    const dq = await load({ [`${F}/u.yml`]: 'fixtures:\n  - label: a\n    message: "hello\n  - label: b\n    message: ok\n' });
    expect(dq.errors.map((e) => [e.line, e.column, e.message])).toEqual([[3, 14, 'invalid YAML: the double quote opened here is never closed']]);
    const sq = await load({ [`${F}/u.yml`]: "fixtures:\n  - label: a\n    message: 'it''s ok'\n  - label: b\n    message: 'hello\n" });
    expect(sq.errors.map((e) => [e.line, e.message])).toEqual([[5, 'invalid YAML: the single quote opened here is never closed']]);
  });

  it('a key written twice does not hide the rest of the file: every other error of it is said in the same run', async () => {
    const r = await load({ [`${F}/c.yml`]: 'label: c-one\nmessage: hi\nmessage: again\nasert: { contains: x }\nrepeat: { count: 3, minPass: 4 }\n' });
    expect(brief(r.errors)).toEqual([
      `${F}/c.yml:3: invalid YAML: the key "message" appears twice in one mapping (first on line 2)`,
      `${F}/c.yml:4: fixture "c-one": unknown key "asert"; allowed keys: label, message, persona, assert, repeat`,
      `${F}/c.yml:5: fixture "c-one": repeat.minPass 4 is not a whole number from 1 to count (3)`,
    ]);
    const config = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  retries: 1\n  retries: 2\n  concurrency: 0\n' });
    expect(brief(config.errors)).toEqual([`${C}:3: invalid YAML: the key "retries" appears twice in one mapping (first on line 2)`, `${C}:4: agent.concurrency must be at least 1, found the number 0`]);
  });

  it('a shape error in one section does not hide the checks of the others: every error of config.yml at once', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: ftp://x\njudge:\n  provider: openai\n  concurrency: 0\ncoverage:\n  conversations: [a, a]\nrepeat: { count: 3, minPass: 5 }\n',
    });
    expect(brief(r.errors)).toEqual([
      `${C}:2: agent.url "ftp://x" uses ftp, not http or https`,
      `${C}:5: judge.concurrency must be at least 1, found the number 0`,
      `${C}:7: coverage.conversations lists "a" twice (also entry 1)`,
      `${C}:8: repeat.minPass 5 is not a whole number from 1 to count (3)`,
    ]);
  });

  it('a shape error inside a section does not hide its other checks: agent.stream beside agent.timeoutMs, each with its line and fix', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  timeoutMs: 0\n  stream: true\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:14: agent.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 0\n  fix: set agent.timeoutMs to a value in that range`,
      `${C}:3:11: agent.stream is true, but the native preset has no streaming form\n  fix: remove agent.stream (streams are read whenever the agent sends one), or give the request body yourself`,
    ]);
    const many = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: [
        'judge:\n  timeoutMs: 0\n  baseUrl: ftp://x\n  apiKey: k',
        'simulator:\n  modle: x\n  baseUrl: ftp://y',
        'meaning:\n  threshold: 2\n  baseUrl: ftp://z',
        'repeat: { count: 30, minPass: x }',
        'traces:\n  waitMs: -1\n  query: { kind: tempo, url: "ftp://t" }',
        '',
      ].join('\n'),
    });
    expect(brief(many.errors)).toEqual([
      `${C}:2: judge.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 0`,
      `${C}:3: judge.baseUrl "ftp://x" uses ftp, not http or https`,
      `${C}:6: unknown key "modle" in simulator; allowed keys: provider, baseUrl, model, apiKey`,
      `${C}:7: simulator.baseUrl "ftp://y" uses ftp, not http or https`,
      `${C}:9: meaning.threshold must be a score from 0 to 1 (the meaning judge's score needed for reworded; 0.8 when not set), found the number 2`,
      `${C}:10: meaning.baseUrl "ftp://z" uses ftp, not http or https`,
      `${C}:11: repeat.count 30 is not a whole number from 1 to 20`,
      `${C}:11: repeat.minPass must be a number, found the string "x"`,
      `${C}:13: traces.waitMs must be a whole number of milliseconds from 0 to 600000 (10 minutes), found the number -1`,
      `${C}:14: traces.query.url "ftp://t" uses ftp, not http or https`,
    ]);
  });

  it('a check that reads a value with a shape error waits for its fix: the problem is said once, not again as the default it would read', async () => {
    const cases: [string, string[]][] = [
      // A misspelt preset (its value or its key) is not the native preset that cannot stream.
      ['agent:\n  preset: opneai-chat\n  stream: true\n', [`${C}:2: agent.preset must be one of native, openai-chat, openai-responses, anthropic-messages, rasa-rest, vercel-ai, langgraph, mastra, found the string "opneai-chat"`]],
      ['agent:\n  prset: openai-chat\n  stream: true\n', [`${C}:2: unknown key "prset" in agent; allowed keys: url, preset, model, maxTokens, assistantId, stream, headers, timeoutMs, concurrency, retries, backoffMs, waitForAgent, request, response, start`]],
      ['agent:\n  preset: rasa-rest\n  start: { body: { a: 1 }, response: { reply: 5 } }\n', [`${C}:3: agent.start.response.reply must be a string, found the number 5`]],
      // A key that is not text is not a key that is not set.
      ['traces:\n  query: { kind: langfuse, url: "https://l.example", apiKey: 5 }\n', [`${C}:2: traces.query.apiKey must be a string, found the number 5`]],
      ['traces:\n  query: { knid: tempo, url: "https://t.example" }\n', [`${C}:2: unknown key "knid" in traces.query (and the required "kind" is missing); allowed keys: kind, url, apiKey, headers`]],
    ];
    for (const [config, errors] of cases) {
      const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config });
      expect(brief(r.errors), config).toEqual(errors);
      expect(r.warnings, config).toEqual([]);
    }
    const judge = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  apiKey: 5\n  concurrency: 0\n' });
    expect(brief(judge.errors)).toEqual([`${C}:2: judge.apiKey must be a string, found the number 5`, `${C}:3: judge.concurrency must be at least 1, found the number 0`]);
    expect(judge.warnings).toEqual([]);
  });

  it('unknown keys name the key, list the allowed ones and suggest a spelling', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmesage: hi\nmessage: hi\nassert: { contians: x }\n',
      [C]: 'agent:\n  url: https://x.example\n  tiemoutMs: 5\nbogus: 1\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:3:3: unknown key "tiemoutMs" in agent; allowed keys: url, preset, model, maxTokens, assistantId, stream, headers, timeoutMs, concurrency, retries, backoffMs, waitForAgent, request, response, start\n  fix: did you mean "timeoutMs"? rename the key, so that line 3 reads\n      timeoutMs: 5`,
      `${C}:4:1: unknown key "bogus" at the top level; allowed keys: agent, judge, regex, cost, coverage, repeat, personas, simulator, latency, meaning, stats, traces\n  fix: remove "bogus" or use one of the allowed keys`,
      `${F}/a.yml:2:1: fixture "a": unknown key "mesage"; allowed keys: label, message, persona, assert, repeat\n  fix: did you mean "message"? it is already given on line 3: keep one of the two and remove the other`,
      `${F}/a.yml:4:11: fixture "a": unknown key "contians" in assert; allowed keys: contains, regex, flags, judge, threshold, maxLatencyMs, toolCalled, toolNotCalled\n  fix: did you mean "contains"? rename the key, so that line 4 reads\n    assert: { contains: x }`,
    ]);
  });

  it('a key written without its unit finds it, and the fix says the unit instead of renaming the value as it is', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: https://x.example\n  timeout: 30\n  backof: 100\ncost:\n  cap: 2\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      expect.stringMatching(new RegExp(`^${C}:3:3: unknown key "timeout" in agent; .*\\n  fix: did you mean "timeoutMs"\\? it is in milliseconds: rename the key and give the value in milliseconds \\(30 seconds is 30000\\)$`)),
      expect.stringMatching(/:4:3: unknown key "backof" in agent; .*\n {2}fix: did you mean "backoffMs"\? it is in milliseconds: /),
      expect.stringMatching(/:6:3: unknown key "cap" in cost; .*\n {2}fix: did you mean "capUsd"\? rename the key, so that line 6 reads\n {6}capUsd: 2$/),
    ]);
  });

  it("the unit's example fits the setting: a 300 ms latency.minDeltaMs is not told of 30 seconds", async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { maxLatency: 2 }\n',
      [C]: 'agent:\n  url: https://x.example\n  backoff: 1\nregex:\n  timeout: 1\nlatency:\n  minDelta: 0.3\njudge:\n  timeout: 30\ntraces:\n  receive: { port: 4318 }\n  wait: 5\n',
    });
    const fixes = r.errors.map((e) => `${e.message.replace(/;.*/, '')}: ${e.fix.replace(/.*\(/, '(')}`);
    expect(fixes).toEqual([
      'unknown key "backoff" in agent: (0.25 seconds is 250)',
      'unknown key "timeout" in regex: (0.1 seconds is 100)',
      'unknown key "minDelta" in latency: (0.3 seconds is 300)',
      'unknown key "timeout" in judge: (30 seconds is 30000)',
      'unknown key "wait" in traces: (5 seconds is 5000)',
      'fixture "a": unknown key "maxLatency" in assert: (2 seconds is 2000)',
    ]);
  });

  it('missing label or message, and wrong types', async () => {
    const r = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: no-message
  - message: no label
  - label: typed
    message: 42
    persona: [a, b]
  - just a string
  - label: empty
    message: "  "
`,
    });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:2: fixture "no-message": missing required key "message"`,
      `${F}/a.yml:3: fixture #2: missing required key "label"`,
      `${F}/a.yml:5: fixture "typed": message must be a string, found the number 42`,
      `${F}/a.yml:6: fixture "typed": persona must be a string, found a list`,
      `${F}/a.yml:7: fixture #4 must be a mapping with label and message, found the string "just a string"`,
      `${F}/a.yml:9: fixture "empty": message is empty`,
    ]);
    expect(r.errors[2]!.fix).toBe('put the value in quotes: message: "42"');
  });

  it('a file that is neither a fixture nor a list', async () => {
    const r = await load({ [`${F}/a.yml`]: 'hello\n', [`${F}/b.yml`]: 'fixtures: { label: a }\n' });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:1: a fixture file must hold a fixture (label, message, ...) or a list under "fixtures:", found the string "hello"`,
      `${F}/b.yml:1: fixtures must be a list, found a mapping`,
    ]);
  });

  it('invalid labels quote the label and state the rule; ../../etc/passwd is refused', async () => {
    const r = await load({
      [`${F}/a.yml`]: `fixtures:
  - { label: ../../etc/passwd, message: x }
  - { label: "-starts-with-dash", message: x }
  - { label: "${'a'.repeat(81)}", message: x }
  - { label: "has space", message: x }
`,
    });
    expect(r.suite).toBeNull();
    expect(r.errors.map((e) => [e.line, e.column])).toEqual([
      [2, 14],
      [3, 14],
      [4, 14],
      [5, 14],
    ]);
    expect(r.errors[0]!.message).toBe(
      'label "../../etc/passwd" is not valid: a label is 1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit (it names the baseline file)',
    );
    expect(r.errors[0]!.fix).toBe('rename it, e.g. label: etc-passwd');
    expect(r.errors[3]!.fix).toBe('rename it, e.g. label: has-space');
  });

  it('a label with letters outside A-Z is offered the same words in those letters, never the label with its letters dropped', async () => {
    // docs/fixtures.md: a label is 1-80 characters of [A-Za-z0-9._-], starting with a letter or digit.
    const r = await load({
      [`${F}/list.yml`]: 'fixtures:\n  - { label: ü-name, message: x }\n  - { label: café-menu, message: x }\n  - { label: Straße, message: x }\n  - { label: заказ-1, message: x }\n  - { label: ünï-заказ, message: x }\n',
      '.agent-replay/personas/p.yml': 'label: Über-uns\nopening: hi\nexpect: { terminal: finish }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.fix}`)).toEqual([
      `${F}/list.yml:2: rename it, e.g. label: u-name`,
      `${F}/list.yml:3: rename it, e.g. label: cafe-menu`,
      `${F}/list.yml:4: rename it, e.g. label: Strasse`,
      `${F}/list.yml:5: rename it in the characters a label allows (A-Z a-z 0-9 . _ -): "з" and the other letters outside A-Z have no form there to suggest`,
      `${F}/list.yml:6: rename it in the characters a label allows (A-Z a-z 0-9 . _ -): "з" and the other letters outside A-Z have no form there to suggest`,
      '.agent-replay/personas/p.yml:1: rename it, e.g. label: Uber-uns',
    ]);
  });

  it('a label\'s fix never suggests a label the suite uses already: the next free one, and which one is taken', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: refund-policy\nmessage: hi\n',
      [`${F}/b.yml`]: 'fixtures:\n  - { label: "refund\\u200Bpolicy", message: x }\n  - { label: Refund-Policy-2, message: y }\n  - { label: con, message: z }\n',
      '.agent-replay/personas/p.yml': 'label: con-1\nopening: hi\nexpect: { terminal: finish }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.fix}`)).toEqual([
      `${F}/b.yml:2: rename it, e.g. label: refund-policy-3 (refund-policy is used already)`,
      `${F}/b.yml:4: rename it, e.g. label: con-2 (con-1 is used already)`,
    ]);
  });

  it('duplicate labels name both places alike (the file a pull request added may sort first), the fix to rename one', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: greeting\nmessage: hi\n',
      [`${F}/b.yml`]: 'fixtures:\n  - { label: other, message: x }\n  - { label: greeting, message: hello }\n  - { label: OTHER, message: y }\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/b.yml:3: duplicate label "greeting": used at ${F}/a.yml:1 and at ${F}/b.yml:3`,
      `${F}/b.yml:4: labels "other" at ${F}/b.yml:2 and "OTHER" at ${F}/b.yml:4 differ only in case: their baseline files would collide on macOS and Windows`,
    ]);
    for (const e of r.errors) expect(e.fix).toBe('rename one of them; labels are unique across the suite because each names its baseline file');
  });

  it('assertions: no known kind, two kinds, threshold outside [0,1], bad flags, misplaced keys', async () => {
    const r = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: none
    message: x
    assert: {}
  - label: two
    message: x
    assert: { contains: a, judge: b }
  - label: high
    message: x
    assert: { judge: polite, threshold: 1.5 }
  - label: flags
    message: x
    assert: { regex: a, flags: gig }
  - label: letters
    message: x
    assert: { regex: a, flags: ix }
  - label: uv
    message: x
    assert: { regex: a, flags: uv }
  - label: misplaced
    message: x
    assert: { contains: a, threshold: 0.5 }
  - label: type
    message: x
    assert: "contains Welcome"
  - label: neg
    message: x
    assert: { judge: polite, threshold: -0.1 }
`,
      [C]: 'judge: { apiKey: k }\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:4: fixture "none": the assertion has no known kind: use one of contains, regex, judge, maxLatencyMs, toolCalled, toolNotCalled`,
      `${F}/a.yml:7: fixture "two": the assertion has 2 kinds (contains and judge): a fixture has one assertion`,
      `${F}/a.yml:10: fixture "high": threshold 1.5 is outside [0, 1]`,
      `${F}/a.yml:13: fixture "flags": regex flags "gig" repeat "g"`,
      `${F}/a.yml:16: fixture "letters": regex flags "ix" contain "x", which is not a regex flag`,
      `${F}/a.yml:19: fixture "uv": regex flags "uv" combine u and v, which JavaScript does not allow`,
      `${F}/a.yml:22: fixture "misplaced": threshold only applies to a judge assertion, not to contains`,
      `${F}/a.yml:25: fixture "type": assert must be a mapping or a list, found the string "contains Welcome"`,
      `${F}/a.yml:28: fixture "neg": threshold -0.1 is outside [0, 1]`,
    ]);
  });

  it('a threshold of another type is told the range and an example, as one out of range is; a number word only when in range', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { judge: polite, threshold: high }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert:\n  - judge: polite\n    threshold: twenty\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: { judge: polite, threshold: 1.5 }\n',
      [`${F}/e.yml`]: 'label: e\nmessage: hi\nassert: { judge: polite, threshold: 150% }\n',
      [`${F}/f.yml`]: 'label: f\nmessage: hi\nassert: { judge: polite, threshold: "1.5" }\n',
      [`${F}/g.yml`]: 'label: g\nmessage: hi\nassert: { judge: polite, threshold: 80% }\n',
      '.agent-replay/personas/d.yml': 'label: d\nopening: hi\nthreshold: true\nexpect: { criteria: [ polite ] }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${F}/a.yml:3: fixture "a": assert.threshold must be a number, found the string "high"\n  fix: change assert.threshold to a score between 0 and 1, e.g. threshold: 0.7`,
      // twenty is a number, but not one the threshold takes: no fix that leads to the next error.
      `${F}/b.yml:5: fixture "b": assert[0].threshold must be a number, found the string "twenty"\n  fix: change assert[0].threshold to a score between 0 and 1, e.g. threshold: 0.7`,
      `${F}/c.yml:3: fixture "c": threshold 1.5 is outside [0, 1]\n  fix: use a score between 0 and 1, e.g. threshold: 0.7`,
      // A percentage or a number in quotes is written as the number it stands for only when the threshold takes it.
      `${F}/e.yml:3: fixture "e": assert.threshold must be a number, found the string "150%"\n  fix: change assert.threshold to a score between 0 and 1, e.g. threshold: 0.7`,
      `${F}/f.yml:3: fixture "f": assert.threshold must be a number, found the string "1.5"\n  fix: change assert.threshold to a score between 0 and 1, e.g. threshold: 0.7`,
      `${F}/g.yml:3: fixture "g": assert.threshold must be a number, found the string "80%"\n  fix: write it as a fraction: threshold: 0.8 (80%)`,
      `.agent-replay/personas/d.yml:3: persona script "d": threshold must be a number, found the boolean true\n  fix: change threshold to a score between 0 and 1, e.g. threshold: 0.7`,
    ]);
  });

  it('assertion lists and latency budgets: each check placed on its own line, one judge at most', async () => {
    const r = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: empty
    message: x
    assert: []
  - label: twojudges
    message: x
    assert:
      - { judge: polite }
      - { contains: a }
      - { judge: brief }
  - label: inner
    message: x
    assert:
      - { contains: a }
      - { regex: b, flags: zz }
      - { maxLatencyMs: 0 }
  - label: half
    message: x
    assert: { maxLatencyMs: 1500.5 }
  - label: both
    message: x
    assert: { contains: a, maxLatencyMs: 10 }
  - label: good
    message: x
    assert: [{ contains: a }, { maxLatencyMs: 2000 }, { judge: polite, threshold: 0.8 }]
  - label: alone
    message: x
    assert: { maxLatencyMs: 2000 }
`,
      [C]: 'judge: { apiKey: k }\n',
    });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:4: fixture "empty": assert is an empty list`,
      `${F}/a.yml:10: fixture "twojudges": the list has 2 judge assertions (checks #1, #3): a fixture has at most one`,
      `${F}/a.yml:15: fixture "inner": check #2: regex flags "zz" contain "z", which is not a regex flag`,
      `${F}/a.yml:16: fixture "inner": check #3: maxLatencyMs 0 is not a whole number of milliseconds above 0`,
      `${F}/a.yml:19: fixture "half": maxLatencyMs 1500.5 is not a whole number of milliseconds above 0`,
      `${F}/a.yml:22: fixture "both": the assertion has 2 kinds (contains and maxLatencyMs): a fixture has one assertion`,
    ]);
    expect(r.errors.at(-1)!.fix).toBe('keep one of contains, maxLatencyMs, or list them all to check each: assert: [{ contains: ... }, { maxLatencyMs: ... }]');
    const ok = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: good
    message: x
    assert: [{ contains: a }, { maxLatencyMs: 2000 }, { judge: polite, threshold: 0.8 }]
  - label: alone
    message: x
    assert: { maxLatencyMs: 2000 }
`,
      [C]: 'judge: { apiKey: k }\n',
    });
    expect(ok.errors).toEqual([]);
    expect(ok.suite?.fixtures.map((f) => [f.label, f.assertion])).toEqual([
      [
        'good',
        {
          kind: 'all',
          assertions: [
            { kind: 'contains', value: 'a' },
            { kind: 'maxLatency', ms: 2000 },
            { kind: 'judge', criterion: 'polite', threshold: 0.8 },
          ],
        },
      ],
      ['alone', { kind: 'maxLatency', ms: 2000 }],
    ]);
  });

  it('tool assertions (docs/traces.md, "Fixtures"): one call each, every error at once with its line, alone or in a list', async () => {
    const r = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: notool
    message: x
    assert: { toolCalled: { input: { orderId: "1" } } }
  - label: mode
    message: x
    assert: { toolNotCalled: { tool: issue_refund, match: fuzzy } }
  - label: extra
    message: x
    assert: { toolCalled: { tool: find_order, args: { id: 1 } } }
  - label: many
    message: x
    assert: { toolCalled: [{ tool: a }, { tool: b }] }
  - label: two
    message: x
    assert: { toolCalled: { tool: a }, toolNotCalled: { tool: b } }
  - label: inlist
    message: x
    assert:
      - { contains: a }
      - { toolNotCalled: { tool: "" } }
`,
    });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:4: fixture "notool": missing required key "tool" in assert.toolCalled`,
      `${F}/a.yml:7: fixture "mode": assert.toolNotCalled.match must be one of exact, subset, found the string "fuzzy"`,
      `${F}/a.yml:10: fixture "extra": unknown key "args" in assert.toolCalled; allowed keys: tool, input, match`,
      `${F}/a.yml:13: fixture "many": toolCalled names one call in a fixture, found a list`,
      `${F}/a.yml:16: fixture "two": the assertion has 2 kinds (toolCalled and toolNotCalled): a fixture has one assertion`,
      `${F}/a.yml:21: fixture "inlist": assert[1].toolNotCalled.tool must not be empty`,
    ]);
    const ok = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: called
    message: x
    assert: { toolCalled: { tool: find_order, input: { orderId: "1234" }, match: exact } }
  - label: listed
    message: x
    assert: [{ contains: a }, { toolNotCalled: { tool: issue_refund } }]
`,
    });
    expect(ok.errors).toEqual([]);
    expect(ok.suite?.fixtures.map((f) => [f.label, f.assertion])).toEqual([
      ['called', { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'exact' }],
      ['listed', { kind: 'all', assertions: [{ kind: 'contains', value: 'a' }, { kind: 'toolNotCalled', tool: 'issue_refund', match: 'subset' }] }],
    ]);
  });

  it('a number where a mapping goes, which one key of the mapping takes: the mapping it stands for', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ntraces:\n  receive: 4318\nlatency: 0.5\n' });
    expect(r.errors.map((e) => `${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '4: traces.receive must be a mapping, found the number 4318\n  fix: write it as a mapping with 4318 as its port: { port: 4318 } (the keys it takes: port)',
      '5: latency must be a mapping, found the number 0.5\n  fix: write it as a mapping with 0.5 as its slowerBy: { slowerBy: 0.5 } (the keys it takes: slowerBy, minDeltaMs)',
    ]);
  });

  it("tool assertions' fixes say what to write: args is input, name is tool, a list is one check per call of the tools written (in a list of checks, in its place), another value a mapping", async () => {
    const r = await load({
      [`${F}/a.yml`]: `fixtures:
  - label: extra
    message: x
    assert: { toolCalled: { tool: find_order, args: { id: 1 } } }
  - label: named
    message: x
    assert: { toolNotCalled: { name: issue_refund } }
  - label: many
    message: x
    assert: { toolCalled: [{ tool: find_order, input: { orderId: "1234", lines: [{ sku: A-1, qty: 2 }], note: "on: time", gift: true } }, { tool: "track order" }] }
  - label: words
    message: x
    assert: { toolNotCalled: [issue_refund, "null"] }
  - label: inlist
    message: x
    assert:
      - { contains: "30 days" }
      - toolCalled: [find_order, lookup]
      - { maxLatencyMs: 2000 }
  - label: text
    message: x
    assert: { toolCalled: lookup }
  - label: number
    message: x
    assert: { toolNotCalled: 5 }
`,
    });
    expect(r.errors.map((e) => `${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '4: fixture "extra": unknown key "args" in assert.toolCalled; allowed keys: tool, input, match\n  fix: did you mean "input"? rename the key, so that line 4 reads\n        assert: { toolCalled: { tool: find_order, input: { id: 1 } } }',
      '7: fixture "named": unknown key "name" in assert.toolNotCalled (and the required "tool" is missing); allowed keys: tool, input, match\n  fix: did you mean "tool"? rename the key, so that line 7 reads\n        assert: { toolNotCalled: { tool: issue_refund } }',
      // Its input in YAML's flow style, as the docs write one (docs/traces.md, "Fixtures").
      '10: fixture "many": toolCalled names one call in a fixture, found a list\n  fix: write each call as its own check: assert: [{ toolCalled: { tool: find_order, input: { orderId: "1234", lines: [{ sku: A-1, qty: 2 }], note: "on: time", gift: true } } }, { toolCalled: { tool: "track order" } }]',
      '13: fixture "words": toolNotCalled names one call in a fixture, found a list\n  fix: write each call as its own check: assert: [{ toolNotCalled: { tool: issue_refund } }, { toolNotCalled: { tool: "null" } }]',
      // In a list of checks, the calls' checks take this one's place: the others are kept.
      '18: fixture "inlist": check #2: toolCalled names one call in a fixture, found a list\n  fix: write each call as its own check, in the list in place of check #2: { toolCalled: { tool: find_order } }, { toolCalled: { tool: lookup } } (the other checks stay as they are)',
      // A list is refused after the schema: a value of another form is told the one form taken.
      '22: fixture "text": assert.toolCalled must be a mapping, found the string "lookup"\n  fix: write it as a mapping with lookup as its tool: { tool: lookup } (the keys it takes: tool, input, match)',
      '25: fixture "number": assert.toolNotCalled must be a mapping, found the number 5\n  fix: change assert.toolNotCalled to a mapping of tool, input, match',
    ]);
    // The fix written as it says loads, with the very input that was written.
    const many = r.errors.find((e) => e.line === 10)?.fix ?? '';
    const fixed = await load({ [`${F}/a.yml`]: `label: many\nmessage: x\n${many.slice(many.indexOf('assert: '))}\n` });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures[0]?.assertion).toEqual({
      kind: 'all',
      assertions: [
        { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234', lines: [{ sku: 'A-1', qty: 2 }], note: 'on: time', gift: true }, match: 'subset' },
        { kind: 'toolCalled', tool: 'track order', match: 'subset' },
      ],
    });
  });

  it('baselines: invalid JSON, schema failure, label mismatch, verdict, bad file name', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['broken', 'schema', 'mismatch', 'verdict', 'good'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      [`${B}/broken.json`]: '{\n  "label": "broken",\n  "reply": "r",\n}\n',
      [`${B}/schema.json`]: '{\n  "label": "schema",\n  "reply": 5,\n  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "t",\n  "commit": null,\n  "extra": 1\n}\n',
      [`${B}/mismatch.json`]: BASELINE('other'),
      [`${B}/verdict.json`]: '{\n  "label": "verdict",\n  "reply": "r",\n  "route": null,\n  "verdict": "not_evaluated",\n  "acceptedAt": "t",\n  "commit": null\n}\n',
      [`${B}/good.json`]: BASELINE('good'),
      [`${B}/bad name.json`]: BASELINE('bad name'),
      [`${B}/README.md`]: 'not a baseline',
    });
    expect(brief(r.errors)).toEqual([
      `${B}/bad name.json:-: baseline file name "bad name.json" is not a label: a label is 1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit`,
      `${B}/broken.json:3: invalid JSON: a comma after the last entry of an object, which JSON does not allow`,
      `${B}/mismatch.json:1: baseline label "other" does not match its file name "mismatch.json"`,
      `${B}/schema.json:3: baseline: reply must be a string, found the number 5`,
      `${B}/schema.json:8: baseline: unknown key "extra"; allowed keys: label, message, persona, reply, variants, route, verdict, attempts, judge, latencyMs, usage, time, acceptedAt, commit`,
      `${B}/verdict.json:5: verdict "not_evaluated" cannot be a baseline: only pass or fail is ever accepted`,
    ]);
  });

  it('a baseline broken by hand is said at its line and column once: not again as "at position N" or "(line 6 column 3)", nor with the text around it', async () => {
    const good = ['"label": "x"', '"reply": "r"', '"route": null', '"verdict": "pass"', '"acceptedAt": "2026-01-01T00:00:00Z"', '"commit": null'];
    const file = (label: string, lines: string[]): string => `{\n${lines.map((l) => `  ${l.replace('"x"', `"${label}"`)}`).join(',\n')}\n}\n`;
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['comma', 'bare', 'broken', 'after', 'cut'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      // A comma left out after "pass": V8 says "Expected ',' or '}' after property value in JSON at position 74" (Node 22: "... (line 6 column 3)").
      [`${B}/comma.json`]: file('comma', good).replace('"pass",', '"pass"'),
      // pass without its quotes: V8 says 'Unexpected token 'p', ..."verdict": pas..." is not valid JSON', with no position.
      [`${B}/bare.json`]: file('bare', good).replace('"pass"', 'pass'),
      // A reply edited over two lines: a line break inside a string.
      [`${B}/broken.json`]: file('broken', good).replace('"r"', '"line one\nline two"'),
      [`${B}/after.json`]: `${file('after', good)}}\n`,
      [`${B}/cut.json`]: file('cut', good).slice(0, 30),
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`)).toEqual([
      `${B}/after.json:9:1: invalid JSON: Unexpected non-whitespace character after JSON`,
      `${B}/bare.json:5:14: invalid JSON: Unexpected token 'p'`,
      `${B}/broken.json:3:12: invalid JSON: the string opened here goes on past its line: a line break inside a string is written \\n in JSON`,
      // Said where the comma is missing (the end of line 5), not at the next key the parser stopped on (test/suite/hand-edits.test.ts).
      `${B}/comma.json:5:20: invalid JSON: a comma left out after this entry, before the next one on line 6: JSON separates the entries of an object with commas`,
      `${B}/cut.json:3:11: invalid JSON: the file ends here, with a string, list or object not closed (cut short, or a closing quote or bracket left out)`,
    ]);
    quotedAndSaid(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join('\n'), '.agent-replay/baselines/<label>.json:3:28: invalid JSON: the file ends here, with a string, list or object not closed (cut short, ...)', { '3:28': '3:11' });
  });

  it('a baseline cut short is said where its text stops, not in the words of the token the parser expected next, nor at a line past the text; an empty one is said empty', async () => {
    const keep = (file: string): string => `committed before the edit? \`git checkout -- ${file}\` brings back the committed version`;
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['comma', 'quote', 'crlf', 'empty', 'open'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      // Cut after a comma: the parser says "Expected double-quoted property name" at line 4, an empty line.
      [`${B}/comma.json`]: '{\n  "label": "comma",\n  "reply": "r",\n',
      [`${B}/quote.json`]: '{\n  "label": "quote",\n  "reply": "Refunds are acc',
      // Cut inside a string, then a CRLF: the parser says "Bad control character in string literal".
      [`${B}/crlf.json`]: '\uFEFF{\r\n  "label": "crlf",\r\n  "reply": "Refunds\r\n',
      [`${B}/empty.json`]: '\n',
      // A quote left out in the middle is no file cut short: said at the string it leaves open (below).
      [`${B}/open.json`]: '{\n  "label": "open",\n  "reply": "r,\n  "verdict": "pass"\n}\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/comma.json:3:16: invalid JSON: the file ends here, with a string, list or object not closed (cut short, or a closing quote or bracket left out)\n  fix: complete it by hand; ${keep(`${B}/comma.json`)}`,
      `${B}/crlf.json:3:20: invalid JSON: the file ends here, with a string, list or object not closed (cut short, or a closing quote or bracket left out)\n  fix: complete it by hand; ${keep(`${B}/crlf.json`)}`,
      `${B}/empty.json:1:1: invalid JSON: the file is empty\n  fix: an empty file holds no baseline: delete it and accept "empty" again; ${keep(`${B}/empty.json`)}`,
      `${B}/open.json:3:12: invalid JSON: the string opened here is not closed on its line (its closing " left out)\n  fix: close it with ", so that line 3 reads\n    "reply": "r",\n  ${keep(`${B}/open.json`)}`,
      `${B}/quote.json:3:28: invalid JSON: the file ends here, with a string, list or object not closed (cut short, or a closing quote or bracket left out)\n  fix: complete it by hand; ${keep(`${B}/quote.json`)}`,
    ]);
  });

  it('a string left open on its line (a quote left out, a line break or a tab typed in it) is said at its quote with the line as it should read, not as "Bad control character in string literal"', async () => {
    const keep = (file: string): string => `committed before the edit? \`git checkout -- ${file}\` brings back the committed version`;
    const lines = (label: string, reply: string, commit = 'null', eol = '\n'): string =>
      ['{', `  "label": "${label}",`, `  "reply": ${reply},`, '  "route": null,', '  "verdict": "pass",', '  "acceptedAt": "2026-01-01T00:00:00Z",', `  "commit": ${commit}`, '}', ''].join(eol);
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['open', 'last', 'crlf', 'broken', 'tab'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      // The closing quote left out before the comma: the next line starts another key.
      [`${B}/open.json`]: lines('open', '"Refunds, returns'),
      // ... on the last entry: the next line closes the object.
      [`${B}/last.json`]: lines('last', '"r"', '"abc'),
      [`${B}/crlf.json`]: lines('crlf', '"r', 'null', '\r\n'),
      // A reply edited over three lines: it closes on the third.
      [`${B}/broken.json`]: lines('broken', '"line one\nline two\nthree"'),
      [`${B}/tab.json`]: lines('tab', '"a\tb"'),
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/broken.json:3:12: invalid JSON: the string opened here goes on past its line: a line break inside a string is written \\n in JSON\n` +
        `  fix: join lines 3 to 5 into one, with \\n for each line break, so that line 3 reads\n    "reply": "line one\\nline two\\nthree",\n  ${keep(`${B}/broken.json`)}`,
      `${B}/crlf.json:3:12: invalid JSON: the string opened here is not closed on its line (its closing " left out)\n  fix: close it with ", so that line 3 reads\n    "reply": "r",\n  ${keep(`${B}/crlf.json`)}`,
      `${B}/last.json:7:13: invalid JSON: the string opened here is not closed on its line (its closing " left out)\n  fix: close it with ", so that line 7 reads\n    "commit": "abc"\n  ${keep(`${B}/last.json`)}`,
      `${B}/open.json:3:12: invalid JSON: the string opened here is not closed on its line (its closing " left out)\n  fix: close it with ", so that line 3 reads\n    "reply": "Refunds, returns",\n  ${keep(`${B}/open.json`)}`,
      `${B}/tab.json:3:14: invalid JSON: a tab inside a string, which JSON writes as \\t\n  fix: write it as \\t, so that line 3 reads\n    "reply": "a\\tb",\n  ${keep(`${B}/tab.json`)}`,
    ]);
  });

  it('a comma after the last entry (a hand edit of a baseline) is said at the comma, with its removal as the fix and the line as it then reads, not as the next line\'s "Expected double-quoted property name"', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['obj', 'list'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      [`${B}/obj.json`]: '{\n  "label": "obj",\n  "reply": "r",\n  "commit": "abc",\n}\n',
      [`${B}/list.json`]: '{\n  "label": "list",\n  "variants": ["a", "b", ],\n  "reply": "r"\n}\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/list.json:3:24: invalid JSON: a comma after the last entry of a list, which JSON does not allow\n  fix: remove the comma at line 3, column 24, so that line 3 reads\n    "variants": ["a", "b" ],\n  committed before the edit? \`git checkout -- ${B}/list.json\` brings back the committed version`,
      `${B}/obj.json:4:18: invalid JSON: a comma after the last entry of an object, which JSON does not allow\n  fix: remove the comma at line 4, column 18, so that line 4 reads\n    "commit": "abc"\n  committed before the edit? \`git checkout -- ${B}/obj.json\` brings back the committed version`,
    ]);
  });

  it('a baseline verdict edited by hand as "passed" or "FAIL": the fix writes the verdict acceptance writes', async () => {
    const body = (label: string, verdict: string): string => `{\n  "label": "${label}",\n  "reply": "r",\n  "route": null,\n  "verdict": "${verdict}",\n  "acceptedAt": "t",\n  "commit": null\n}\n`;
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n' + ['up', 'down', 'odd'].map((l) => `  - { label: ${l}, message: x }\n`).join(''),
      [`${B}/up.json`]: body('up', 'passed'),
      [`${B}/down.json`]: body('down', 'FAIL'),
      [`${B}/odd.json`]: body('odd', 'errored'),
    });
    const keep = (file: string): string => `committed before the edit? \`git checkout -- ${file}\` brings back the committed version`;
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/down.json:5:14: verdict "FAIL" cannot be a baseline: only pass or fail is ever accepted\n  fix: write "verdict": "fail"; ${keep(`${B}/down.json`)}`,
      `${B}/odd.json:5:14: verdict "errored" cannot be a baseline: only pass or fail is ever accepted\n  fix: fix it by hand; ${keep(`${B}/odd.json`)}`,
      `${B}/up.json:5:14: verdict "passed" cannot be a baseline: only pass or fail is ever accepted\n  fix: write "verdict": "pass"; ${keep(`${B}/up.json`)}`,
    ]);
  });

  it('config: concurrency is at most 256 and retries at most 10, for the agent and the judge (a runaway value is refused)', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  retries: 1e9\n  concurrency: 1000000000\njudge:\n  provider: openai\n  retries: 11\n  concurrency: 257\n' });
    expect(brief(r.errors)).toEqual([
      `${C}:2: agent.retries must be at most 10, found the number 1000000000`,
      `${C}:3: agent.concurrency must be at most 256, found the number 1000000000`,
      `${C}:6: judge.retries must be at most 10, found the number 11`,
      `${C}:7: judge.concurrency must be at most 256, found the number 257`,
    ]);
    const edge = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  retries: 10\n  concurrency: 256\n' });
    expect(edge.errors).toEqual([]);
  });

  it('config.yaml: its errors name config.yaml; beside a config.yml it is not read, and a warning says so', async () => {
    const Y = '.agent-replay/config.yaml';
    const alone = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: 'agent:\n  retries: three\n' });
    expect(brief(alone.errors)).toEqual([`${Y}:2: agent.retries must be a number, found the string "three"`]);
    const both = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  retries: 1\n', [Y]: 'agent:\n  retries: three\n' });
    expect(both.errors).toEqual([]);
    expect(brief(both.warnings)).toContain(`${Y}:-: not read: the suite's configuration is ${C}, and only one is read`);
  });

  it("a baseline's label that is not its file name is said with the file's other problems, in the same run", async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: example-greeting, message: x }\n',
      [`${B}/example-greeting.json`]: '{\n  "label": "wrong-label",\n  "reply": 5,\n  "route": null,\n  "verdict": "maybe",\n  "acceptedAt": "t",\n  "commit": null\n}\n',
    });
    const said = brief(r.errors).join('\n');
    expect(said).toContain(`${B}/example-greeting.json:2: baseline label "wrong-label" does not match its file name "example-greeting.json"`);
    expect(said).toContain('reply must be a string');
    expect(said).toContain('verdict "maybe" cannot be a baseline');
  });

  it('a baseline (JSON) is never told to quote a value as YAML would: null and 5 are what they say there', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: b, message: x }\n',
      [`${B}/b.json`]: '{\n  "label": "b",\n  "reply": 5,\n  "route": { "conversation": "a", "stage": null },\n  "verdict": "pass",\n  "acceptedAt": "t",\n  "commit": null\n}\n',
    });
    expect(r.errors.length).toBeGreaterThan(0);
    for (const e of r.errors) expect(e.fix).not.toContain('put the value in quotes');
    // A YAML file still gets it: `message: 5` is read as a number.
    const y = await load({ [`${F}/a.yml`]: 'label: a\nmessage: 5\n' });
    expect(y.errors[0]?.fix).toContain('put the value in quotes: message: "5"');
  });

  it('config: judge.concurrency must be a whole number of at least 1', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  provider: openai\n  concurrency: 0\n' });
    expect(brief(r.errors)).toEqual([`${C}:3: judge.concurrency must be at least 1, found the number 0`]);
    const half = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  concurrency: 2.5\n' });
    expect(brief(half.errors)).toHaveLength(1);
    expect(brief(half.errors)[0]).toMatch(new RegExp(`^${C.replace(/[.]/g, '\\.')}:2: judge\\.concurrency`));
  });

  it('config: concurrency < 1, negative costs, bad preset, bad provider, wrong types, bad urls', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: `agent:
  url: not a url
  preset: rasa
  concurrency: 0
  timeoutMs: "30s"
judge:
  provider: gemini
  baseUrl: api.openai.com
regex: { timeoutMs: 0 }
cost: { agentTurnUsd: -0.01, capUsd: -1 }
`,
    });
    // The URLs' errors beside the shape errors of their sections, not a run later.
    expect(brief(r.errors)).toEqual([
      `${C}:2: agent.url "not a url" is not a valid URL`,
      `${C}:3: agent.preset must be one of native, openai-chat, openai-responses, anthropic-messages, rasa-rest, vercel-ai, langgraph, mastra, found the string "rasa"`,
      `${C}:4: agent.concurrency must be at least 1, found the number 0`,
      `${C}:5: agent.timeoutMs must be a number, found the string "30s"`,
      `${C}:7: judge.provider must be one of openai, anthropic, found the string "gemini"`,
      `${C}:8: judge.baseUrl "api.openai.com" has no scheme (http:// or https://): write https://api.openai.com`,
      `${C}:9: regex.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 0`,
      `${C}:10: cost.agentTurnUsd must be at least 0, found the number -0.01`,
      `${C}:10: cost.capUsd must be at least 0, found the number -1`,
    ]);

    const urls = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: not a url\njudge:\n  baseUrl: api.openai.com\n' });
    expect(brief(urls.errors)).toEqual([
      `${C}:2: agent.url "not a url" is not a valid URL`,
      `${C}:4: judge.baseUrl "api.openai.com" has no scheme (http:// or https://): write https://api.openai.com`,
    ]);
  });

  it('config: cost.turnsPerFixture is at least 1, the message turn every fixture sends (0 would price fixtures at nothing)', async () => {
    for (const written of ['0', '0.5', '-1']) {
      const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `cost:\n  turnsPerFixture: ${written}\n` });
      expect(r.suite, written).toBeNull();
      expect(r.errors.map(formatIssue)).toEqual([
        `${C}:2:20: cost.turnsPerFixture must be at least 1, found the number ${written}\n  fix: set cost.turnsPerFixture to a value at least 1`,
      ]);
    }
    const one = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'cost:\n  turnsPerFixture: 1\n' });
    expect(one.errors).toEqual([]);
    expect(one.suite!.config.cost.turnsPerFixture).toBe(1);
    const override = await load({ [`${F}/a.yml`]: OK_FIXTURE }, { overrides: { cost: { turnsPerFixture: 0 } } });
    expect(override.errors.map(formatIssue)).toEqual(['command-line options: cost turnsPerFixture must be a number of at least 1, got 0\n  fix: pass cost turnsPerFixture 1 or more']);
  });

  it('start: true without a welcome request for openai-chat, and a wrong start type', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  preset: openai-chat\n  model: m\n  start: true\n' });
    expect(brief(r.errors)).toEqual([`${C}:4: agent.start asks for a welcome turn, but the openai-chat preset has no welcome request`]);
    const t = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  start: yes\n' });
    expect(brief(t.errors)).toEqual([`${C}:2: agent.start must be true, false, or a mapping with body and/or response, found the string "yes"`]);
  });

  it('a missing environment variable is an error at its line, with the documented message and fix', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: https://x.example\n  headers:\n    Authorization: "Bearer ${AGENT_TOKEN}"\n    X-Empty: "${EMPTY}"\n',
    }, { env: { EMPTY: '' } });
    expect(r.errors).toEqual([
      { file: C, line: 4, column: 20, message: 'environment variable AGENT_TOKEN is not set', fix: 'export AGENT_TOKEN=... before running agent-replay; in a workflow, set it under env: of the step (AGENT_TOKEN: ${{ secrets.AGENT_TOKEN }} for a secret)' },
      expect.objectContaining({ file: C, line: 5, message: 'environment variable EMPTY is set but empty' }),
    ]);
  });

  it('${VAR} in odd places: a number setting, GitHub\'s ${{ }}, a name with spaces or a dash, an unclosed one: each said once, with what to write', async () => {
    const r = await load(
      {
        [`${F}/a.yml`]: OK_FIXTURE,
        [C]: [
          'agent:',
          '  url: http://127.0.0.1:9/chat',
          '  timeoutMs: ${TIMEOUT}',
          '  concurrency: ${UNSET}',
          '  headers:',
          '    Authorization: "Bearer ${{ secrets.AGENT_TOKEN }}"',
          '    X-Tenant: "${ TENANT }"',
          '    X-Region: "${agent-region}"',
          '    X-Open: "${TENANT"',
          '    X-Kept: "$${TENANT} and ${TENANT}"',
          '',
        ].join('\n'),
      },
      { env: { TIMEOUT: '5000', TENANT: 'acme-tenant-01' } },
    );
    expect(r.errors.map((e) => `${e.line}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '3: agent.timeoutMs must be a number, found the string "${TIMEOUT}"\n  fix: write the number itself: a ${NAME} reference is read as text, which agent.timeoutMs does not take',
      '4: agent.concurrency must be a number, found the string "${UNSET}"\n  fix: write the number itself: a ${NAME} reference is read as text, which agent.concurrency does not take',
      '6: agent.headers.Authorization holds ${{ secrets.AGENT_TOKEN }}, the workflow\'s expression syntax, which config.yml does not read: it would be sent as written\n' +
        '  fix: write ${AGENT_TOKEN} here, and give the step that runs agent-replay env: AGENT_TOKEN: ${{ secrets.AGENT_TOKEN }}',
      '7: agent.headers.X-Tenant holds "${ TENANT }", which is not a ${NAME} reference (a name of letters, digits and _ in ${...}, no spaces): it would be sent as written\n' +
        '  fix: write ${TENANT}, or $${ to send the text as written',
      '8: agent.headers.X-Region holds "${agent-region}", which is not a ${NAME} reference (a name of letters, digits and _ in ${...}, no spaces): it would be sent as written\n' +
        '  fix: export the variable under a name of letters, digits and _ and write ${THAT_NAME}, or write $${ to send the text as written',
      '9: agent.headers.X-Open holds "${TENANT", which is not a ${NAME} reference (a name of letters, digits and _ in ${...}, no spaces): it would be sent as written\n' +
        '  fix: write ${TENANT}, or $${ to send the text as written',
    ]);
  });

  it('an address built on a variable that is not set is said once, as the variable: not again as an address that is not valid', async () => {
    const config = [
      'agent:\n  url: ${PREVIEW_URL}/api/chat',
      'judge:\n  baseUrl: ${JUDGE_HOST}/v1\n  apiKey: ${JUDGE_API_KEY}',
      'simulator:\n  baseUrl: ${SIM_HOST}/v1',
      'meaning:\n  baseUrl: ${MEANING_HOST}/v1',
      'traces:\n  query: { kind: langfuse, url: "${LANGFUSE_HOST}/x", apiKey: "${LANGFUSE_KEYS}" }',
      '',
    ].join('\n');
    const said = [
      `${C}:2: environment variable PREVIEW_URL is not set`,
      `${C}:4: environment variable JUDGE_HOST is not set`,
      `${C}:5: environment variable JUDGE_API_KEY is not set`,
      `${C}:7: environment variable SIM_HOST is not set`,
      `${C}:9: environment variable MEANING_HOST is not set`,
      `${C}:11: environment variable LANGFUSE_HOST is not set`,
      `${C}:11: environment variable LANGFUSE_KEYS is not set`,
    ];
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config });
    expect(brief(r.errors)).toEqual(said);
    expect(r.warnings).toEqual([]);
    // The same beside a shape error, and with the variable set the address is checked.
    const shape = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: config.replace('agent:\n', 'agent:\n  timeoutMs: 0\n') });
    expect(brief(shape.errors)).toEqual([`${C}:2: agent.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 0`, ...said.map((l) => l.replace(/:(\d+):/, (_, n: string) => `:${Number(n) + 1}:`))]);
    const set = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: ${PREVIEW_URL}/api/chat\n' }, { env: { PREVIEW_URL: 'preview.example.com' } });
    expect(brief(set.errors)).toEqual([`${C}:2: agent.url "\${PREVIEW_URL}/api/chat" has no scheme (http:// or https://) with the value of PREVIEW_URL`]);
  });

  it('a missing fixtures folder, or one with no fixture, tells how to create one', async () => {
    const none = await load({ [C]: '' });
    expect(none.errors).toEqual([
      {
        file: F,
        line: null,
        column: null,
        message: `no fixtures folder: ${F} does not exist`,
        fix: `create ${F}/greeting.yml containing\n    label: greeting\n    message: hello\n  or point --dir (the dir input in the Action) at your suite folder`,
      },
    ]);
    expect(formatIssue(none.errors[0]!)).toBe(
      `${F}: no fixtures folder: ${F} does not exist\n  fix: create ${F}/greeting.yml containing\n    label: greeting\n    message: hello\n  or point --dir (the dir input in the Action) at your suite folder`,
    );

    const empty = await load({ [`${F}/readme.md`]: 'x' });
    expect(brief(empty.errors)).toEqual([`${F}:-: no fixtures: ${F} has no .yml or .yaml file; it holds readme.md, which is not read`]);
    expect(empty.errors[0]!.fix).toBe(`if it is a fixture, rename it to .yml (readme.md to readme.yml; a JSON document is YAML too): else it is ignored; else create ${F}/greeting.yml containing\n    label: greeting\n    message: hello`);
    // The files the folder holds are named, a few of them (sorted, under the folder), with the rename shown on a JSON one.
    const others = await load({ [`${F}/notes.txt`]: 'x', [`${F}/refund.json`]: '{}', [`${F}/sub/b.txt`]: 'x', [`${F}/a.csv`]: 'x', [`${F}/.gitkeep`]: '' });
    expect(brief(others.errors)).toEqual([`${F}:-: no fixtures: ${F} has no .yml or .yaml file; it holds a.csv, notes.txt, refund.json and 1 more, which are not read`]);
    expect(others.errors[0]!.fix).toMatch(/^if a fixture is among them, rename it to \.yml \(refund\.json to refund\.yml; a JSON document is YAML too\): the others are ignored; else create /);
    // An empty folder: nothing to name.
    const bare = await load({ [`${F}/.gitkeep`]: '' });
    expect(brief(bare.errors)).toEqual([`${F}:-: no fixtures: ${F} has no .yml or .yaml file`]);

    const blank = await load({ [`${F}/a.yml`]: '# todo\n', [`${F}/b.yml`]: 'fixtures: []\n' });
    expect(brief(blank.errors)).toEqual([`${F}:-: no fixtures: the files in ${F} define none`]);
    expect(brief(blank.warnings)).toEqual([
      `${F}/a.yml:1: the file holds only comments: it defines no fixture`,
      `${F}/b.yml:1: fixtures is an empty list: the file defines no fixture`,
    ]);
  });

  it('reports several errors in several files all at once, in file order', async () => {
    const r = await load({
      [C]: 'agent:\n  concurrency: 0\n',
      [`${F}/a.yml`]: 'label: a\nmessage: [oops\n',
      [`${F}/b.yml`]: 'label: b b\nmessage: x\n',
      [`${F}/c.yml`]: 'fixtures:\n  - { label: c, message: x, assert: { judge: j, threshold: 2 } }\n  - { label: d }\n',
      [`${B}/b.json`]: 'not json',
    });
    expect(r.suite).toBeNull();
    expect(r.errors.map((e) => `${e.file}:${e.line}`)).toEqual([
      `${C}:2`,
      `${F}/a.yml:2`, // the [ that is never closed, not the line after the file's last
      `${F}/b.yml:1`,
      `${F}/c.yml:2`,
      `${F}/c.yml:3`,
      `${B}/b.json:1`,
    ]);
  });
});

describe('loadSuite: warnings', () => {
  it('a regex that does not compile is a warning, and the fixture is kept', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: bad-re\nmessage: x\nassert: { regex: "(unclosed" }\n' });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ file: `${F}/a.yml`, line: 3, column: 11 });
    expect(r.warnings[0]!.message).toMatch(/^fixture "bad-re": pattern does not compile: .*; the fixture is not evaluated at run time$/);
    expect(r.suite!.fixtures[0]!.assertion).toEqual({ kind: 'regex', pattern: '(unclosed', flags: '' });
  });

  it('an orphan baseline is a warning, and the baseline is still loaded', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [`${B}/gone.json`]: BASELINE('gone') });
    expect(r.errors).toEqual([]);
    expect(brief(r.warnings)).toEqual([`${B}/gone.json:-: orphan baseline: no fixture or persona script is labelled "gone"`]);
    quotedAndSaid(r.warnings[0]?.message ?? '', 'orphan baseline: no fixture or persona script is labelled "<label>"');
    expect(r.suite!.baselines.has('gone')).toBe(true);
  });

  it('judge assertions with no judge configured', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: a, message: x }\n  - { label: b, message: x, assert: { judge: polite } }\n  - { label: c, message: x, assert: { judge: kind } }\n',
    });
    expect(r.errors).toEqual([]);
    expect(brief(r.warnings)).toEqual([
      `${F}/a.yml:3: 2 fixtures use judge assertions (first: "b") but no judge is configured: they are not evaluated`,
    ]);
    // A judge given by the overrides silences it.
    const withJudge = await load(
      { [`${F}/a.yml`]: 'label: b\nmessage: x\nassert: { judge: polite }\n' },
      { overrides: { judge: { apiKey: 'key-from-input' } } },
    );
    expect(withJudge.warnings).toEqual([]);
  });

  it('a judge with no apiKey on a hosted provider', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  provider: anthropic\n' });
    expect(brief(r.warnings)).toEqual([
      `${C}:2: judge.apiKey is not set: anthropic will refuse the calls, so judge assertions are not evaluated`,
    ]);
    const local = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  baseUrl: http://localhost:11434/v1/\n' });
    expect(local.warnings).toEqual([]);
    expect(local.suite!.config.judge!.baseUrl).toBe('http://localhost:11434/v1');
 
    // The key given by the judge-api-key input, or another address by --judge-url (judge-base-url): the calls carry
    // the key, or go elsewhere, so they are not said to be refused (docs/troubleshooting.md, "Configuration errors").
    for (const judge of [{ apiKey: 'key-from-input' }, { baseUrl: 'http://localhost:11434/v1' }]) {
      const given = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  model: gpt-4o-mini\n' }, { overrides: { judge } });
      expect(given.warnings, JSON.stringify(judge)).toEqual([]);
    }
    // The judge-provider input switches the provider and gives no key: the warning names the provider in use, at config.yml's judge line.
    const switched = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  model: gpt-4o-mini\n' }, { overrides: { judge: { provider: 'anthropic' } } });
    expect(brief(switched.warnings)).toEqual([
      `${C}:2: judge.apiKey is not set: anthropic (the judge-provider input; config.yml's judge is openai) will refuse the calls, so judge assertions are not evaluated`,
    ]);
    expect(switched.warnings[0]!.fix).toBe(
      "give anthropic's key with the judge-api-key input (judge-api-key: ${{ secrets.ANTHROPIC_API_KEY }}), or add apiKey: ${JUDGE_API_KEY} under judge and export JUDGE_API_KEY (a repository secret in a workflow)",
    );
    // The same provider as config.yml's: the warning as config.yml alone says it.
    const same = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  provider: anthropic\n' }, { overrides: { judge: { provider: 'anthropic' } } });
    expect(brief(same.warnings)).toEqual([`${C}:2: judge.apiKey is not set: anthropic will refuse the calls, so judge assertions are not evaluated`]);
    const model = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge:\n  model: gpt-4o-mini\n' }, { overrides: { judge: { model: 'gpt-4o' } } });
    expect(brief(model.warnings)).toEqual([`${C}:2: judge.apiKey is not set: openai will refuse the calls, so judge assertions are not evaluated`]);
  });
});

describe('loadSuite: secrets', () => {
  it('never appear in any issue message or fix', async () => {
    const secret = 'https://s3cr3t.example';
    const token = 'tok-abcdef';
    const r = await load(
      {
        [`${F}/a.yml`]: `label: a\nmessage: "mentions ${token} and ${secret}"\nassert: { regex: "(${token}" }\n`,
        [`${F}/b.yml`]: `label: "${token}!"\nmessage: x\n`,
        [C]: 'agent:\n  url: "${URL}/x y"\n  headers: { A: "${TOKEN}" }\n  preset: "${TOKEN}"\n',
      },
      { env: { URL: secret, TOKEN: token } },
    );
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.warnings.length).toBeGreaterThan(0);
    for (const issue of [...r.errors, ...r.warnings]) {
      const text = formatIssue(issue);
      expect(text).not.toContain(token);
      expect(text).not.toContain(secret);
    }
  });

  // A config.yml that YAML cannot read gives no values to know the written secrets by: the value
  // under a credential's key is taken from the line itself, however the syntax error quotes it.
  it.each([
    ['an alias', '*sk-live-abc123secret'],
    ['a tag', '!sk-live-abc123secret'],
    ['a block indicator', '| sk-live-abc123secret'],
    ['a bad escape in double quotes', '"sk-live\\qabc123secret"'],
    ['a flow mapping', '{ apiKey: *sk-live-abc123secret }'],
  ])('a credential written in a config.yml YAML cannot read (%s) is not quoted by its error', async (_what, value) => {
    const key = value.startsWith('{') ? 'judge' : 'apiKey';
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  provider: openai\n  ${key}: ${value}\n` });
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors.some((i) => i.file === C && i.line !== null)).toBe(true);
    for (const issue of r.errors) expect(formatIssue(issue)).not.toContain('abc123');
  });

  it.each([
    ['no space after the colon', '  apiKey:sk-live-abc123secret\n  model: m\n'],
    ['a value holding ": "', '  apiKey: sk-live: abc123secret\n'],
    ['a line indented deeper than the key', '  apiKey: sk-live-abc123secret\n    model: m\n'],
    ['a { closed by ]', '  panel: [ { apiKey: sk-live-abc123secret ] ]\n'],
    ['a { never closed', '  panel: [ { model: m, apiKey: sk-live-abc123secret\n'],
    ['a closing bracket left of its key', '  panel: [ { model: m,\n    apiKey: sk-live-abc123secret }\n]\n  model: [m }\n'],
  ])('a credential on a line whose error shows the line as it should read (%s) is not quoted by it', async (_what, lines) => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `agent:\n  url: http://127.0.0.1:9/chat\njudge:\n${lines}` });
    expect(r.errors.some((i) => i.file === C && i.line !== null)).toBe(true);
    for (const issue of r.errors) expect(formatIssue(issue)).not.toContain('abc123');
  });

  // A model name is an identifier every surface shows and a baseline's judge fingerprint keeps: read
  // from ${NAME}, it is a setting, not a secret (docs/security.md, "Secrets"); the API key stays one.
  it('a model name read from ${NAME} is not a secret; the API key beside it is', async () => {
    const r = await load(
      { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  provider: openai\n  model: ${JUDGE_MODEL}\n  apiKey: ${JUDGE_KEY}\n' },
      { env: { JUDGE_MODEL: 'gpt-4o-mini', JUDGE_KEY: 'sk-test-123456' } },
    );
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.judge!.model).toBe('gpt-4o-mini');
    expect(r.suite!.config.secrets).toContain('sk-test-123456');
    expect(r.suite!.config.secrets).not.toContain('gpt-4o-mini');
  });

  it('an alias that names a missing anchor under an ordinary key is still named', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: *slow\n' });
    const text = r.errors.map(formatIssue).join('\n');
    expect(text).toContain('slow');
    expect(text).toContain('put the value in quotes to keep it as text');
  });
});

describe('loadSuite: files left out of the fixtures folder', () => {
  it('warns of a folder named like a fixture, persona or baseline file (mkdir where a file was meant); a fixtures subfolder so named is still read', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/billing.yml/b.yml`]: 'label: b\nmessage: hi\n',
      '.agent-replay/personas/chat.yaml/.keep': '',
      [`${B}/ok.json/.keep`]: '',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures.map((f) => f.label)).toEqual(['ok', 'b']);
    expect(r.warnings.map(formatIssue)).toEqual([
      `${F}/billing.yml: a folder named like a fixture file: it is read as a subfolder (the .yml and .yaml files in it), not as a fixture\n  fix: if it was meant to be a fixture file, remove the folder and write the file in its place; else rename the folder without its .yml or .yaml`,
      `.agent-replay/personas/chat.yaml: a folder named like a persona script file: it is read as a subfolder (the .yml and .yaml files in it), not as a persona script\n  fix: if it was meant to be a persona script file, remove the folder and write the file in its place; else rename the folder without its .yml or .yaml`,
      `${B}/ok.json: a folder, not a baseline file: it is not read, and acceptance cannot write the baseline of that name\n  fix: remove the folder (agent-replay accept writes the baseline as a file)`,
    ]);
  });

  it('warns of a file whose name looks meant to be read, and leaves a README alone', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/refund.ym`]: 'label: refund\nmessage: hi\n',
      [`${F}/sub/hours.yml~`]: 'label: hours\nmessage: hi\n',
      [`${F}/b.json`]: '{"label": "b", "message": "hi"}',
      [`${F}/README.md`]: '# fixtures\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures.map((f) => f.label)).toEqual(['ok']);
    expect(r.warnings.map(formatIssue)).toEqual([
      `${F}/b.json: not read: fixtures are read from .yml and .yaml files only\n  fix: rename it to b.yml (YAML; a JSON document is YAML too) to have it read, or move it out of the folder`,
      `${F}/refund.ym: not read: fixtures are read from .yml and .yaml files only\n  fix: rename it to refund.yml (YAML; a JSON document is YAML too) to have it read, or move it out of the folder`,
      `${F}/sub/hours.yml~: not read: fixtures are read from .yml and .yaml files only\n  fix: rename it to hours.yml (YAML; a JSON document is YAML too) to have it read, or move it out of the folder`,
    ]);
  });

  it('warns of a baselines file whose name looks meant to be a baseline (a JSON file, then the fixture runs with none), and leaves a README alone', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: ok, message: hi }\n  - { label: refund, message: hi }\n  - { label: hours, message: hi }\n',
      [`${B}/refund.JSON`]: '{}',
      [`${B}/ok.json.orig`]: '{}',
      [`${B}/hours.yml`]: 'label: hours\nreply: r\n',
      [`${B}/README.md`]: '# baselines\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map(formatIssue)).toEqual([
      `${B}/hours.yml: not read: baselines are read from <label>.json files only\n  fix: a baseline is the JSON file acceptance writes (agent-replay accept writes <label>.json): move this one out of the folder`,
      `${B}/ok.json.orig: not read: baselines are read from <label>.json files only\n  fix: rename it to ok.json to have it read, or move it out of the folder`,
      `${B}/refund.JSON: not read: baselines are read from <label>.json files only\n  fix: rename it to refund.json to have it read, or move it out of the folder`,
    ]);
  });
});

describe('a line indented with a tab: one error, not the parser\'s misreadings of the lines after it', () => {
  it('in a list, under fixtures:, and on two lines of config.yml; a tab in a block scalar\'s text is text', async () => {
    const r = await load({
      [C]: 'agent:\n\turl: http://127.0.0.1:9/chat\n\ttimeoutMs: 5\ncost:\n  capUsd: -1\n',
      [`${F}/a.yml`]: '- label: a\n  message: hi\n- label: b\n\tmessage: hi\n- label: c\n  message: hi\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: d\n    message: hi\n  - label: e\n\tmessage: hi\n  - label: f\n    message: hi\n',
      [`${F}/c.yml`]: 'label: g\nmessage: |\n  code:\n  \tindented: with a tab\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:1: invalid YAML: lines 2 and 3 are indented with a tab, which YAML does not allow\n  fix: indent with spaces, not tabs (set the editor to insert spaces for this file)`,
      `${C}:5:11: cost.capUsd must be at least 0, found the number -1\n  fix: set cost.capUsd to a value at least 0`,
      `${F}/a.yml:4:1: invalid YAML: line 4 is indented with a tab, which YAML does not allow\n  fix: indent with spaces, not tabs (set the editor to insert spaces for this file)`,
      `${F}/b.yml:5:1: invalid YAML: line 5 is indented with a tab, which YAML does not allow\n  fix: indent with spaces, not tabs (set the editor to insert spaces for this file)`,
    ]);
  });
});

describe('a key indented between two mappings\' columns: both places it can go, not the parser\'s "All mapping items must start at the same column"', () => {
  it('in a fixture and in config.yml', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n   # a comment\n timeoutMs: 5\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n    regex: x\n  "flags": i\n',
    });
    quotedAndSaid(r.errors.map(formatIssue).join('\n'), 'invalid YAML: "timeoutMs" on line 4 is indented by 1 space, more than "agent" on line 1 and less than the keys under it (2), ...');
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:4:2: invalid YAML: "timeoutMs" on line 4 is indented by 1 space, more than "agent" on line 1 and less than the keys under it (2), so YAML cannot tell which mapping it belongs to\n` +
        '  fix: indent it by 2 spaces, as "url" on line 2, for a key under "agent"; or start it at the beginning of the line, as "agent", for a key beside it',
      `${F}/a.yml:5:3: invalid YAML: "flags" on line 5 is indented by 2 spaces, more than "assert" on line 3 and less than the keys under it (4), so YAML cannot tell which mapping it belongs to\n` +
        '  fix: indent it by 4 spaces, as "regex" on line 4, for a key under "assert"; or start it at the beginning of the line, as "assert", for a key beside it',
    ]);
  });
});

describe('where the parser loses its place, the one slip is said, not what it says of every line after', () => {
  it('a first line indented by a stray space, and a closing bracket that closes nothing', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 5\n}\ncost:\n  capUsd: 1\n',
      [`${F}/a.yml`]: ' - label: a\n  message: hi\n- label: b\n  message: hi\n- label: c\n  message: hi\n',
      [`${F}/b.yml`]: ' label: d\nmessage: hi\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:4:1: invalid YAML: this } closes nothing that is open, and YAML reads nothing of the file after it\n` +
        '  fix: remove it, or put it where the { it closes is meant to end; if it is part of a value, put the whole value in quotes',
      `${F}/a.yml:1:1: invalid YAML: line 1, the file's first, is indented by 1 space, and line 3 by none: YAML reads the file as ending before line 3\n` +
        "  fix: start line 1 at the beginning of the line, as line 3: a file's top-level keys or list items all start at one column",
      `${F}/b.yml:1:1: invalid YAML: line 1, the file's first, is indented by 1 space, and line 2 by none: YAML reads the file as ending before line 2\n` +
        "  fix: start line 1 at the beginning of the line, as line 2: a file's top-level keys or list items all start at one column",
    ]);
  });

  it('an unclosed { in a list under fixtures: is the one error, not also the next item read as keys over several lines', async () => {
    const r = await load({ [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    assert: { contains: x\n  - label: b\n    message: hi\n  - label: c\n    message: hi\n    persona: 5\n' });
    expect(brief(r.errors)).toEqual([
      `${F}/a.yml:3: invalid YAML: the { opened here (a mapping, as in { contains: "x" }) is never closed`,
      `${F}/a.yml:8: fixture "c": persona must be a string, found the number 5`,
    ]);
  });
});

describe('a key without the space after its colon where a mapping belongs', () => {
  it('is read as text: the fix puts the space in, as it does where YAML cannot read the line', async () => {
    const r = await load({
      [C]: 'agent:\n  url:http://127.0.0.1:9/chat # local\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat:\n  count:3\n',
    });
    expect(r.errors.map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '2:3: agent must be a mapping, found the string "url:http://127.0.0.1:9/chat"\n  fix: put a space after the colon, so that line 2 reads\n      url: http://127.0.0.1:9/chat # local',
      '4:3: fixture "a": repeat must be a mapping, found the string "count:3"\n  fix: put a space after the colon, so that line 4 reads\n      count: 3',
    ]);
  });
});
