// Advice that cannot hurt: what validate tells a user to do, on real suite folders in temp dirs.
// No message suggests deleting or overwriting a baseline unless the suite proves it stale; a
// misspelt key gets a did-you-mean in every section; YAML escapes and regex backslashes get the
// fix that fits how they are read.

import { describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { formatIssue, loadSuite, type ConfigIssue } from '../../src/suite/index.js';
import { B, C, F, OK_FIXTURE, load, repo } from './helpers.js';

const P = '.agent-replay/personas';
const BASELINE = (label: string): string =>
  `{"label": "${label}", "reply": "We open at 9.", "route": null, "verdict": "pass", "acceptedAt": "2026-01-01T00:00:00Z", "commit": null}\n`;
const PERSONA_BASELINE = (label: string): string =>
  `{"label": "${label}", "kind": "persona", "transcript": [{"message": "hi", "reply": "hello", "route": null}], "visited": [], "outcome": null, "verdict": "pass", "acceptedAt": "2026-01-01T00:00:00Z", "commit": null}\n`;
const SCRIPT = (label: string): string => `label: ${label}\nopening: hi\nexpect: { terminal: finish }\n`;

/** Every message and fix of a load, to look for advice that destroys data. */
const texts = (issues: readonly ConfigIssue[]): string[] => issues.flatMap((i) => [i.message, i.fix]);
const DESTRUCTIVE = /\bdelete\b|\boverwrit|\brm\b|accept .* again/i;

describe('advice about baselines: only what the suite proves', () => {
  it('a misspelt key in a fixture does not make its good baseline look orphaned or mis-kinded', async () => {
    const r = await load({
      [`${F}/faq.yml`]: 'fixtures:\n  - { label: welcome-greeting, message: hello, assert: { contains: Welcome } }\n  - label: opening-hours\n    mesage: When are you open?\n',
      [`${B}/opening-hours.json`]: BASELINE('opening-hours'),
      [`${B}/welcome-greeting.json`]: BASELINE('welcome-greeting'),
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/faq.yml:4:5: fixture "opening-hours": unknown key "mesage" (and the required "message" is missing); allowed keys: label, message, persona, assert, repeat\n  fix: did you mean "message"? rename the key, so that line 4 reads\n        message: When are you open?`,
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('a fixture file YAML cannot read, or a misspelt label key, says nothing about the baselines it may hold', async () => {
    const unreadable = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/hours.yml`]: 'label: opening-hours\nmessage: "When are you open?\n',
      [`${B}/opening-hours.json`]: BASELINE('opening-hours'),
    });
    expect(unreadable.errors).toHaveLength(1);
    expect(unreadable.errors[0]!.file).toBe(`${F}/hours.yml`);
    expect(unreadable.warnings).toEqual([]);

    const noLabel = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/hours.yml`]: 'lable: opening-hours\nmessage: When are you open?\n',
      [`${B}/opening-hours.json`]: BASELINE('opening-hours'),
    });
    expect(noLabel.errors.map(formatIssue)).toEqual([
      `${F}/hours.yml:1:1: unknown key "lable" at the top level (and the required "label" is missing); allowed keys: label, message, persona, assert, repeat\n  fix: did you mean "label"? rename the key, so that line 1 reads\n    label: opening-hours`,
    ]);
    expect(noLabel.warnings).toEqual([]);
  });

  it('a persona script with errors does not make its persona baseline look orphaned, nor a fixture baseline mis-kinded', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/refund.yml`]: 'label: refund\nopening: hi\nexpect: { termnal: finish }\n',
      [`${P}/hours.yml`]: 'label: opening-hours\nopenin: hi\nexpect: { terminal: finish }\n',
      [`${B}/refund.json`]: PERSONA_BASELINE('refund'),
      [`${B}/opening-hours.json`]: BASELINE('opening-hours'),
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${P}/hours.yml:2:1: persona script "opening-hours": unknown key "openin" (and the required "opening" is missing); allowed keys: label, persona, opening, followUps, maxTurns, threshold, mocks, unmockedTools, expect, repeat, user\n  fix: did you mean "opening"? rename the key, so that line 2 reads\n    opening: hi`,
      `${P}/refund.yml:3:11: persona script "refund": unknown key "termnal" in expect; allowed keys: conversations, terminal, toolCalled, toolNotCalled, criteria, reply, maxTurnLatencyMs\n  fix: did you mean "terminal"? rename the key, so that line 3 reads\n    expect: { terminal: finish }`,
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('a suite read without an error proves staleness: an orphan, and a label that is now the other kind, keep their advice', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/hours.yml`]: SCRIPT('opening-hours'),
      [`${B}/gone.json`]: BASELINE('gone'),
      [`${B}/opening-hours.json`]: BASELINE('opening-hours'),
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map(formatIssue)).toEqual([
      `${B}/gone.json: orphan baseline: no fixture or persona script is labelled "gone"\n  fix: delete ${B}/gone.json if the fixture (or script) was removed, or restore one with label: gone (a renamed fixture needs its baseline renamed too)`,
      `${B}/opening-hours.json: ${B}/opening-hours.json is a fixture baseline, but "opening-hours" is a persona script now: it is not compared against\n  fix: delete ${B}/opening-hours.json and accept "opening-hours" again`,
    ]);
  });

  it('a damaged baseline is fixed, never deleted: invalid JSON, a misspelt key, a bad file name', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - { label: broken, message: x }\n  - { label: typo, message: x }\n',
      [`${B}/broken.json`]: '{\n  "label": "broken",\n  "reply": r\n}\n',
      [`${B}/typo.json`]: '{"label": "typo", "rely": "r", "route": null, "verdict": "pass", "acceptedAt": "t", "commit": null}\n',
      [`${F}/b.yml`]: 'label: typo2\nmessage: x\n',
      [`${B}/typo2.json`]: '{\n  "label": "typo2",\n  "rely": "r",\n  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "t",\n  "commit": null\n}\n',
      [`${B}/my baseline.json`]: BASELINE('x'),
    });
    // The command names the file itself, ready to paste; it applies to a committed baseline only
    // (accept writes one uncommitted, and the loader runs no git), and says so.
    const keep = (file: string): string => `fix it by hand; committed before the edit? \`git checkout -- ${file}\` brings back the committed version`;
    expect(r.errors.map((i) => `${i.file}: ${i.fix}`)).toEqual([
      `${B}/broken.json: ${keep(`${B}/broken.json`)}`,
      `${B}/my baseline.json: baseline files are named <label>.json by acceptance: rename it to the label of its fixture or persona script, or move it out of the baselines folder`,
      `${B}/typo.json: did you mean "reply"? rename the key, so that line 1 reads\n    {"label": "typo", "reply": "r", "route": null, "verdict": "pass", "acceptedAt": "t", "commit": null}\n  or ${keep(`${B}/typo.json`)}`,
      // The line as it should read stays whole: nothing is written after its comma.
      `${B}/typo2.json: did you mean "reply"? rename the key, so that line 3 reads\n      "reply": "r",\n  or ${keep(`${B}/typo2.json`)}`,
    ]);
    expect(r.errors.find((i) => i.file === `${B}/typo.json`)?.message).toBe(
      'baseline: unknown key "rely" (and the required "reply" is missing); allowed keys: label, message, persona, reply, variants, route, verdict, attempts, judge, latencyMs, usage, time, acceptedAt, commit',
    );
    expect(texts([...r.errors, ...r.warnings]).filter((t) => DESTRUCTIVE.test(t))).toEqual([]);
  });

  it('a key missing from a JSON baseline is to be added as JSON writes it; in a YAML file, as YAML does', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: nocommit\n',
      [`${B}/nocommit.json`]: '{\n  "label": "nocommit",\n  "reply": "r",\n  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "t"\n}\n',
    });
    expect(r.errors.map((i) => [i.file, i.message, i.fix.split(';')[0]])).toEqual([
      [`${F}/a.yml`, 'fixture "nocommit": missing required key "message"', 'add message: <string>'],
      // null is valid for a baseline's commit (a run that knew none): the fix says so (docs/fixtures.md, "Baselines").
      [`${B}/nocommit.json`, 'baseline: missing required key "commit"', 'add "commit": <string> (or null)'],
    ]);
    const persona = await load({
      [`.agent-replay/personas/p.yml`]: 'label: p\nopening: hi\nexpect: { criteria: [polite] }\n',
      [`${B}/p.json`]: '{"label": "p", "kind": "persona", "transcript": [], "visited": [], "verdict": "pass", "acceptedAt": "t"}\n',
    });
    expect(persona.errors.map((i) => i.fix.split(';')[0])).toEqual(['add "outcome": <string> (or null)', 'add "commit": <string> (or null)']);
  });
});

describe('advice about files that are not read', () => {
  it('a baseline saved as UTF-16 is re-saved, not removed', async () => {
    const cwd = await repo({ [`${F}/a.yml`]: 'label: hours\nmessage: hi\n' });
    await fs.mkdir(path.join(cwd, B), { recursive: true });
    await fs.writeFile(path.join(cwd, B, 'hours.json'), Buffer.from(`\ufeff${BASELINE('hours')}`, 'utf16le'));
    const r = await loadSuite({ dir: '.agent-replay', cwd, env: {} });
    expect(r.errors.map(formatIssue)).toEqual([
      `${B}/hours.json: not a text file: it contains NUL bytes, so it was not parsed\n  fix: suite files are UTF-8 text (YAML fixtures and config, JSON baselines): save it again as UTF-8 (an editor may have saved it as UTF-16), or move it out of the suite folder if it is not a suite file`,
    ]);
    expect(r.warnings).toEqual([]);
  });
});

describe('did you mean: every section, with file:line', () => {
  const cases: { name: string; files: Record<string, string>; at: string; key: string; hint: string }[] = [
    { name: 'fixture', files: { [`${F}/a.yml`]: 'label: a\nmesage: hi\n' }, at: `${F}/a.yml:2:1`, key: 'mesage', hint: 'message' },
    { name: 'fixture list key', files: { [`${F}/a.yml`]: 'fixture:\n  - { label: a, message: hi }\n' }, at: `${F}/a.yml:1:1`, key: 'fixture', hint: 'fixtures' },
    { name: 'fixture assert', files: { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { contians: x }\n' }, at: `${F}/a.yml:3:11`, key: 'contians', hint: 'contains' },
    { name: 'fixture assert threshold', files: { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { judge: polite, treshold: 0.5 }\n' }, at: `${F}/a.yml:3:26`, key: 'treshold', hint: 'threshold' },
    { name: 'fixture repeat', files: { [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 3, minPas: 2 }\n' }, at: `${F}/a.yml:3:21`, key: 'minPas', hint: 'minPass' },
    { name: 'persona script', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUp: [a]\nexpect: { terminal: finish }\n' }, at: `${P}/p.yml:3:1`, key: 'followUp', hint: 'followUps' },
    { name: 'persona list key', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'personass:\n  - { label: p, opening: hi, expect: { terminal: finish } }\n' }, at: `${P}/p.yml:1:1`, key: 'personass', hint: 'personas' },
    { name: 'persona expect', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { toolCaled: [ { tool: t } ] }\n' }, at: `${P}/p.yml:3:11`, key: 'toolCaled', hint: 'toolCalled' },
    { name: 'persona toolCalled entry', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { toolCalled: [ { tool: t, inptu: {} } ] }\n' }, at: `${P}/p.yml:3:36`, key: 'inptu', hint: 'input' },
    { name: 'persona mock', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nmocks: [ { tool: t, outptu: {} } ]\nexpect: { terminal: finish }\n' }, at: `${P}/p.yml:3:21`, key: 'outptu', hint: 'output' },
    { name: 'config top level', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judeg: { provider: openai }\n' }, at: `${C}:1:1`, key: 'judeg', hint: 'judge' },
    { name: 'config agent', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: https://x.example\n  retires: 1\n' }, at: `${C}:3:3`, key: 'retires', hint: 'retries' },
    { name: 'config agent.request', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  request: { bdy: {} }\n' }, at: `${C}:2:14`, key: 'bdy', hint: 'body' },
    { name: 'config agent.response', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  response: { rpely: text }\n' }, at: `${C}:2:15`, key: 'rpely', hint: 'reply' },
    { name: 'config agent.start', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  start: { bodi: {} }\n' }, at: `${C}:2:12`, key: 'bodi', hint: 'body' },
    { name: 'config judge', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge: { provider: openai, modle: x }\n' }, at: `${C}:1:28`, key: 'modle', hint: 'model' },
    { name: 'config regex', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'regex: { timeotMs: 50 }\n' }, at: `${C}:1:10`, key: 'timeotMs', hint: 'timeoutMs' },
    { name: 'config cost', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'cost: { capUSD: 1 }\n' }, at: `${C}:1:9`, key: 'capUSD', hint: 'capUsd' },
    { name: 'config coverage', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'coverage: { conversation: [a] }\n' }, at: `${C}:1:13`, key: 'conversation', hint: 'conversations' },
    { name: 'config repeat', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'repeat: { cuont: 2 }\n' }, at: `${C}:1:11`, key: 'cuont', hint: 'count' },
  ];
  it.each(cases)('$name', async ({ files, at, key, hint }) => {
    const r = await load(files);
    const issue = r.errors.find((i) => i.message.includes(`unknown key "${key}"`));
    expect(issue, JSON.stringify(r.errors.map(formatIssue))).toBeDefined();
    expect(`${issue!.file}:${issue!.line}:${issue!.column}`).toBe(at);
    expect(issue!.fix).toMatch(new RegExp(`^did you mean "${hint}"\\? rename the key, so that line \\d+ reads\\n {4,}\\S`));
    // The corrected line really has the suggested key where the misspelt one was.
    const fixedLine = issue!.fix.split('\n    ')[1]!;
    expect(fixedLine).toContain(`${hint}:`);
    expect(fixedLine).not.toContain(`${key}:`);
    // The misspelt required key is said once, at the misspelling.
    expect(r.errors.filter((i) => i.message.includes(`missing required key "${hint}"`))).toEqual([]);
  });

  it('a suggestion already in the mapping is not a rename: it says where the key already is', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\nmesage: ho\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:3:1: fixture "a": unknown key "mesage"; allowed keys: label, message, persona, assert, repeat\n  fix: did you mean "message"? it is already given on line 2: keep one of the two and remove the other`,
    ]);
  });
});

describe('one misspelling, said once, at its line, with its fix', () => {
  it('a misspelt tool inside toolCalled (a mapping or a list) is not also a missing tool', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: a\nmessage: where is my order?\nassert:\n  toolCalled: { tol: find_order }\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:4:17: fixture "a": unknown key "tol" in assert.toolCalled (and the required "tool" is missing); allowed keys: tool, input, match\n  fix: did you mean "tool"? rename the key, so that line 4 reads\n      toolCalled: { tool: find_order }`,
    ]);
  });

  // Each file below has one misspelt key and nothing else wrong: one error, naming that key.
  const cases: { name: string; files: Record<string, string>; at: string; key: string; hint: string }[] = [
    { name: 'toolNotCalled', files: { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { toolNotCalled: { tol: issue_refund, match: exact } }\n' }, at: `${F}/a.yml:3:28`, key: 'tol', hint: 'tool' },
    { name: 'toolCalled in an assertion list', files: { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n  - contains: order\n  - toolCalled: { tol: find_order }\n' }, at: `${F}/a.yml:5:19`, key: 'tol', hint: 'tool' },
    { name: 'toolCalled in a list of fixtures', files: { [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n    assert: { toolCalled: { tol: find_order } }\n' }, at: `${F}/a.yml:4:29`, key: 'tol', hint: 'tool' },
    { name: 'persona reply check', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { reply: [ { contians: "30 days" } ] }\n' }, at: `${P}/p.yml:3:22`, key: 'contians', hint: 'contains' },
    { name: 'persona mock', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nmocks: [ { tol: find_order, output: {} } ]\nexpect: { terminal: finish }\n' }, at: `${P}/p.yml:3:12`, key: 'tol', hint: 'tool' },
    { name: 'persona expect.toolCalled entry', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { toolCalled: [ { tol: find_order } ] }\n' }, at: `${P}/p.yml:3:27`, key: 'tol', hint: 'tool' },
    { name: 'persona user (a simulated script needs no opening)', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nusr: { goal: Get a refund, maxTurns: 3 }\nexpect: { criteria: [polite] }\n' }, at: `${P}/p.yml:2:1`, key: 'usr', hint: 'user' },
    { name: 'config enum key', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query: { knid: tempo, url: https://tempo.example.com }\n' }, at: `${C}:2:12`, key: 'knid', hint: 'kind' },
    { name: 'config agent.start (true, false or a mapping)', files: { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  start: { respones: { reply: text } }\n' }, at: `${C}:2:12`, key: 'respones', hint: 'response' },
    // The list form's key misspelt: not also a fixture (or script) missing its label and message.
    { name: 'fixtures list key', files: { [`${F}/a.yml`]: 'fixture:\n  - label: a\n    message: hi\n  - { label: b, message: yo }\n' }, at: `${F}/a.yml:1:1`, key: 'fixture', hint: 'fixtures' },
    { name: 'personas list key', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'Personas:\n  - { label: p, opening: hi, expect: { terminal: finish } }\n' }, at: `${P}/p.yml:1:1`, key: 'Personas', hint: 'personas' },
    { name: 'persona baseline kind', files: { [`${F}/a.yml`]: OK_FIXTURE, [`${P}/p.yml`]: SCRIPT('p'), [`${B}/p.json`]: PERSONA_BASELINE('p').replace('"kind"', '"knid"') }, at: `${B}/p.json:1:16`, key: 'knid', hint: 'kind' },
  ];
  it.each(cases)('$name', async ({ files, at, key, hint }) => {
    const r = await load(files);
    expect(r.errors.map(formatIssue)).toHaveLength(1);
    const issue = r.errors[0]!;
    expect(`${issue.file}:${issue.line}:${issue.column}`).toBe(at);
    expect(issue.message).toContain(`unknown key "${key}"`);
    expect(issue.fix).toMatch(new RegExp(`^did you mean "${hint}"\\? rename the key`));
  });

  it('a misspelt list key names the keys of both forms a file may take: the list key, or one item\'s own', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixture:\n  - { label: a, message: hi }\n',
      [`${P}/p.yml`]: 'Personas:\n  - { label: p, opening: hi, expect: { terminal: finish } }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message}`)).toEqual([
      `${F}/a.yml:1: unknown key "fixture" at the top level; allowed keys: fixtures, over a list; or, in a file of one fixture, label, message, persona, assert, repeat`,
      `${P}/p.yml:1: unknown key "Personas" at the top level; allowed keys: personas, over a list; or, in a file of one persona script, label, persona, opening, followUps, maxTurns, threshold, mocks, unmockedTools, expect, repeat, user`,
    ]);
  });
});

describe('YAML escapes inside double quotes', () => {
  it('"\\d+" names the line and shows it in single quotes', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: digits\nmessage: how many?\nassert: { regex: "\\d+" }\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:3:19: invalid YAML: \\d inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")\n  fix: put the value in single quotes, where a backslash is kept as written, so that line 3 reads\n    assert: { regex: '\\d+' }\n  or keep the double quotes and double the backslash (\\\\d)`,
    ]);
  });

  it('several refused escapes on one line are one issue; the escapes YAML knows are read as YAML reads them, a quote is doubled', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: price\nmessage: how much?\nassert:\n  regex: "\\$\\d+ it\'s \\"x\\" \\\\s"\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${F}/a.yml:4:11: invalid YAML: \\$ and \\d inside double quotes are not YAML escapes (in "..." a backslash starts one, such as \\n or \\")\n  fix: put the value in single quotes, where a backslash is kept as written, so that line 4 reads\n      regex: '\\$\\d+ it''s "x" \\s'\n  or keep the double quotes and double the backslash (\\\\$, \\\\d)`,
    ]);
  });

  it('the suggested line is what the author meant: it loads, and the pattern is the one written', async () => {
    const r = await load({ [`${F}/a.yml`]: "label: digits\nmessage: how many?\nassert: { regex: '\\d+' }\n" });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures[0]!.assertion).toEqual({ kind: 'regex', pattern: '\\d+', flags: '' });
  });

  it('in config.yml too', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: "https://x.example/\\qpi"\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:27: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")\n  fix: put the value in single quotes, where a backslash is kept as written, so that line 2 reads\n      url: 'https://x.example/\\qpi'\n  or keep the double quotes and double the backslash (\\\\q)`,
    ]);
  });
});

describe('regex backslashes, read as JavaScript reads them', () => {
  const warningsOf = async (assert: string): Promise<string[]> => {
    const r = await load({ [`${F}/a.yml`]: `label: q\nmessage: hi\nassert: ${assert}\n` });
    expect(r.errors).toEqual([]);
    return r.warnings.map(formatIssue);
  };

  it("'\\q' with the u flag: a syntax error; remove the backslash or the flag", async () => {
    expect(await warningsOf("{ regex: '\\q', flags: u }")).toEqual([
      `${F}/a.yml:3:11: fixture "q": pattern does not compile with the u flag: \\q is not an escape in Unicode mode (with u or v, a backslash before a character that has no escape meaning is a syntax error); the fixture is not evaluated at run time\n  fix: remove the backslash (regex: 'q'), or remove the u flag (remove flags), without which \\q stands for "q"`,
    ]);
  });

  it("'\\q\\e' with the flags iv: both named, the other flags kept", async () => {
    expect(await warningsOf("{ regex: 'a\\q\\e', flags: iv }")).toEqual([
      `${F}/a.yml:3:11: fixture "q": pattern does not compile with the v flag: \\q and \\e are not escapes in Unicode mode (with u or v, a backslash before a character that has no escape meaning is a syntax error); the fixture is not evaluated at run time\n  fix: remove the backslashes (regex: 'aqe'), or remove the v flag (flags: "i"), without which \\q and \\e stand for "q" and "e"`,
    ]);
  });

  it("'\\q' without the flag compiles: the warning says what it matches", async () => {
    expect(await warningsOf("{ regex: 'order \\q' }")).toEqual([
      `${F}/a.yml:3:11: fixture "q": without the u flag \\q is the letter "q" (the backslash does nothing)\n  fix: write regex: 'order q' to say so; for a class of characters use \\d (digit), \\w (word character) or \\s (space)`,
    ]);
  });

  it("'\\p{L}' without the u flag is text, not a Unicode property", async () => {
    expect(await warningsOf("{ regex: '\\p{L}+', flags: i }")).toEqual([
      `${F}/a.yml:3:11: fixture "q": without the u flag \\p{L} matches the text "p{L}", not a Unicode property\n  fix: add the u flag (flags: "iu") to match by Unicode property`,
    ]);
  });

  it('known escapes say nothing; an error the flag does not cause keeps the general advice', async () => {
    expect(await warningsOf("{ regex: '\\d+\\.\\$ \\w\\s\\b', flags: u }")).toEqual([]);
    expect(await warningsOf("{ regex: '\\d+\\.\\$ \\w\\s\\b' }")).toEqual([]);
    expect(await warningsOf("{ regex: '(ab\\q', flags: u }")).toEqual([
      `${F}/a.yml:3:11: fixture "q": pattern does not compile: Invalid regular expression: /(ab\\q/u: ${regexError('(ab\\q', 'u')}; the fixture is not evaluated at run time\n  fix: correct the pattern (JavaScript RegExp syntax); escape a literal ( [ { . * + ? with a backslash`,
    ]);
  });
});

describe('inline flags, (?i) of PCRE, Python and Go, which JavaScript does not have', () => {
  it('"(?i)monday" in a fixture and in a script\'s reply check: the fix writes the pattern and the flags apart', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: q\nmessage: hi\nassert: { regex: "(?i)monday", flags: m }\n',
      ['.agent-replay/personas/p.yml']: 'label: p\nopening: hi\nexpect:\n  reply:\n    - { regex: "(?is)open.*late" }\n',
    });
    expect(r.errors).toEqual([]);
    const fixes = r.warnings.map((w) => w.fix);
    expect(fixes).toEqual([
      "JavaScript has no inline flags such as (?i): write the pattern without it and the flags apart, regex: 'monday', flags: mi",
      "JavaScript has no inline flags such as (?is): write the pattern without it and the flags apart, regex: 'open.*late', flags: is",
    ]);
  });

  it('a pattern that does not compile for another reason keeps the general fix', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: q\nmessage: hi\nassert: { regex: "(?i)(monday" }\n' });
    expect(r.warnings.map((w) => w.fix)).toEqual(['correct the pattern (JavaScript RegExp syntax); escape a literal ( [ { . * + ? with a backslash']);
  });
});

describe('a regex written between slashes, as /pattern/flags (docs/fixtures.md, "Assertions")', () => {
  const warningsOf = async (assert: string): Promise<string[]> => {
    const r = await load({ [`${F}/a.yml`]: `label: q\nmessage: hi\nassert: ${assert}\n` });
    expect(r.errors).toEqual([]);
    return r.warnings.map(formatIssue);
  };

  it('"/30 days/i": the slashes and the i would be matched as text; the fix writes the pattern and flags apart', async () => {
    expect(await warningsOf('{ regex: "/30 days/i" }')).toEqual([
      `${F}/a.yml:3:11: fixture "q": regex "/30 days/i" is written /pattern/flags, as in JavaScript, but regex takes the pattern alone and flags its flags: its slashes and the letter i are matched as text, so a reply matches only if it holds them\n  fix: write the pattern alone and its flags under flags: regex: "30 days", flags: i`,
    ]);
  });

  it('flags already given are kept beside the ones after the slash; a backslash puts the fix in single quotes', async () => {
    expect(await warningsOf("[{ regex: '/\\d+ days/gi', flags: m }]")).toEqual([
      `${F}/a.yml:3:12: fixture "q": check #1: regex '/\\d+ days/gi' is written /pattern/flags, as in JavaScript, but regex takes the pattern alone and flags its flags: its slashes and the letters gi are matched as text, so a reply matches only if it holds them\n  fix: write the pattern alone and its flags under flags: regex: '\\d+ days', flags: mgi`,
    ]);
  });

  it('"/api/" with no flags may mean the slashes: the fix also says how to keep them', async () => {
    expect(await warningsOf('{ regex: "/api/" }')).toEqual([
      `${F}/a.yml:3:11: fixture "q": regex "/api/" is written /pattern/, as in JavaScript, but regex takes the pattern alone: its slashes are matched as text, so a reply matches only if it holds them\n  fix: write the pattern alone: regex: "api" (to match the slashes themselves, escape them: regex: '\\/api\\/')`,
    ]);
  });

  it('a path with a slash inside, letters that are no flags, escaped slashes: nothing to say', async () => {
    expect(await warningsOf('{ regex: "/api/v1/" }')).toEqual([]);
    expect(await warningsOf('{ regex: "/orders/42" }')).toEqual([]);
    expect(await warningsOf('{ regex: "/a/ii" }')).toEqual([]);
    expect(await warningsOf("{ regex: '\\/api\\/' }")).toEqual([]);
    expect(await warningsOf('{ regex: "//" }')).toEqual([]);
  });

  it("in a persona script's reply checks too, at the regex's line", async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/s.yml`]: 'label: s\nopening: hi\nexpect:\n  reply:\n    - { contains: ok }\n    - { regex: "/refund(ed)?/i", turn: last }\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map(formatIssue)).toEqual([
      `${P}/s.yml:6:16: persona script "s": expect.reply[1]: regex "/refund(ed)?/i" is written /pattern/flags, as in JavaScript, but regex takes the pattern alone and flags its flags: its slashes and the letter i are matched as text, so a reply matches only if it holds them\n  fix: write the pattern alone and its flags under flags: regex: "refund(ed)?", flags: i`,
    ]);
  });
});

function regexError(pattern: string, flags: string): string {
  try {
    new RegExp(pattern, flags);
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /, '');
  }
  return '';
}
