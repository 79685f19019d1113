// Persona scripts under .agent-replay/personas: loaded and validated with fixtures
// (docs/personas.md).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatIssue, loadSuite } from '../../src/suite/index.js';
import { B, F, OK_FIXTURE, brief, load, repo } from './helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const P = '.agent-replay/personas';

// The example of docs/personas.md, "The script format", without its comments and `reply` checks.
const DOC_EXAMPLE = `label: refund-broken-item
persona: impatient-refund-seeker
opening: I want my money back
followUps: [ "Order 1234", "It arrived broken" ]
maxTurns: 10
threshold: 0.7
mocks:
  - { tool: find_order, input: { orderId: "1234" }, match: subset, output: { status: delivered } }
expect:
  conversations: [ refunds, handoff ]
  terminal: handoff
  toolCalled: [ { tool: find_order, input: { orderId: "1234" }, match: subset } ]
  toolNotCalled: [ { tool: issue_refund } ]
  criteria: [ "Mentioned the order number", "Stayed empathetic" ]
`;

describe('loadSuite: persona scripts', () => {
  it('expect.reply: contains or regex (+flags) with turn N, last or any (the default); it counts as an expectation', async () => {
    const ok = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/a.yml`]: 'label: a\nopening: hi\nfollowUps: [ more ]\nexpect:\n  reply:\n    - { contains: "30 days" }\n    - { regex: "refund(ed)?", flags: i, turn: last }\n    - { contains: Welcome, turn: 0 }\n    - { contains: ok, turn: 2 }\n',
    });
    expect(ok.errors).toEqual([]);
    expect(ok.suite!.personas[0]!.expect.reply).toEqual([
      { contains: '30 days', turn: 'any' },
      { regex: 'refund(ed)?', flags: 'i', turn: 'last' },
      { contains: 'Welcome', turn: 0 },
      { contains: 'ok', turn: 2 },
    ]);
    const bad = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/b.yml`]: [
        'label: b',
        'opening: hi',
        'followUps: [ more ]',
        'expect:',
        '  reply:',
        '    - { contains: x, turn: 3 }',
        '    - { contains: x, regex: y }',
        '    - { contains: x, flags: i }',
        '    - { regex: y, flags: ii }',
        '    - { regex: "(", turn: first }',
        '    - { regex: "(" }',
        '',
      ].join('\n'),
    });
    expect(brief(bad.errors)).toEqual([
      `${P}/b.yml:6: persona script "b": expect.reply[0]: turn 3 is beyond the script: it has 2 message turns (the opening is turn 1, turn 0 the welcome turn)`,
      `${P}/b.yml:7: persona script "b": expect.reply[1] must have exactly one of contains and regex, found both`,
      `${P}/b.yml:8: persona script "b": expect.reply[2]: flags only apply to a regex, not to contains`,
      `${P}/b.yml:9: persona script "b": expect.reply[3]: regex flags "ii" repeat "i"`,
      `${P}/b.yml:10: persona script "b": expect.reply[4].turn must be a turn number (0 is the welcome turn), last, or any, found the string "first"`,
    ]);
    expect(brief(bad.warnings)).toContainEqual(expect.stringMatching(/^\.agent-replay\/personas\/b\.yml:11: persona script "b": expect\.reply\[5\]: pattern does not compile: .*; that check is not evaluated at run time$/));
  });


  it('expect.maxTurnLatencyMs: whole milliseconds, an expectation on its own; anything else refused with file and line', async () => {
    const ok = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [`${P}/a.yml`]: 'label: a\nopening: hi\nexpect:\n  maxTurnLatencyMs: 2000\n' });
    expect(ok.errors).toEqual([]);
    expect(ok.suite!.personas[0]!.expect.maxTurnLatencyMs).toBe(2000);
    const bad = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/b.yml`]: 'personas:\n  - label: b\n    opening: hi\n    expect:\n      maxTurnLatencyMs: 0\n  - label: c\n    opening: hi\n    expect:\n      maxTurnLatencyMs: 2 s\n',
    });
    const lines = brief(bad.errors);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\.agent-replay\/personas\/b\.yml:5: persona script "b": expect\.maxTurnLatencyMs/);
    expect(lines[1]).toMatch(/^\.agent-replay\/personas\/b\.yml:9: persona script "c": expect\.maxTurnLatencyMs/);
  });

  it('unmockedTools on a script and personas.unmockedTools in config.yml: error or allow, anything else refused with file and line', async () => {
    const ok = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      ['.agent-replay/config.yml']: 'personas:\n  unmockedTools: error\n',
      [`${P}/a.yml`]: 'label: a\nopening: hi\nunmockedTools: allow\nexpect: { terminal: finish }\n',
    });
    expect(ok.errors).toEqual([]);
    expect(ok.suite!.personas[0]!.unmockedTools).toBe('allow');
    expect(ok.suite!.config.personas).toEqual({ unmockedTools: 'error' });
    const bad = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      ['.agent-replay/config.yml']: 'personas:\n  unmockedTools: warn\n',
      [`${P}/a.yml`]: 'label: a\nopening: hi\nunmockedTools: never\nexpect: { terminal: finish }\n',
    });
    expect(brief(bad.errors)).toEqual([
      '.agent-replay/config.yml:2: personas.unmockedTools must be one of error, allow, found the string "warn"',
      '.agent-replay/personas/a.yml:3: persona script "a": unmockedTools must be one of error, allow, found the string "never"',
    ]);
  });

  it('reads the example of docs/personas.md, with defaults filled in', async () => {
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [`${P}/refund.yml`]: DOC_EXAMPLE });
    expect(r.errors).toEqual([]);
    expect(r.suite!.personas).toEqual([
      {
        label: 'refund-broken-item',
        file: `${P}/refund.yml`,
        line: 1,
        persona: 'impatient-refund-seeker',
        opening: 'I want my money back',
        followUps: ['Order 1234', 'It arrived broken'],
        maxTurns: 10,
        threshold: 0.7,
        mocks: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered' } }],
        expect: {
          conversations: ['refunds', 'handoff'],
          terminal: 'handoff',
          toolCalled: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset' }],
          toolNotCalled: [{ tool: 'issue_refund', match: 'subset' }],
          criteria: ['Mentioned the order number', 'Stayed empathetic'],
        },
      },
    ]);
  });

  it('a personas: list, defaults (maxTurns 20, threshold 0.7, subset), numbers kept apart from strings; no fixtures folder needed', async () => {
    const r = await load({
      [`${P}/list.yml`]: `personas:
  - label: a
    opening: hi
    mocks: [ { tool: t, input: { n: 1, s: "1" }, match: exact, output: ok } ]
    expect: { terminal: finish }
  - label: b
    opening: hello
    expect: { criteria: [ polite ] }
`,
    });
    expect(r.errors).toEqual([]);
    const [a, b] = r.suite!.personas;
    expect(a).toMatchObject({ label: 'a', line: 2, maxTurns: 20, threshold: 0.7, followUps: [], persona: null, mocks: [{ tool: 't', input: { n: 1, s: '1' }, match: 'exact', output: 'ok' }] });
    expect(b).toMatchObject({ label: 'b', line: 6, mocks: [], expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: ['polite'] } });
    expect(r.suite!.fixtures).toEqual([]);
  });

  it('every error at once, each with file:line and a fix, nothing loaded', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/bad.yml`]: `personas:
  - label: no-expect
    opening: hi
  - label: empty-expect
    opening: hi
    expect: { conversations: [], criteria: [] }
  - label: too-long
    opening: hi
    followUps: [ a, b, c ]
    maxTurns: 3
    expect: { terminal: finish }
  - label: bad-terminal
    opening: hi
    expect: { terminal: done }
  - label: bad-match
    opening: hi
    expect: { toolCalled: [ { tool: t, match: fuzzy } ] }
  - label: bad-threshold
    opening: ""
    threshold: 2
    expect: { criteria: [ x ] }
`,
    });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${P}/bad.yml:2: persona script "no-expect": missing required key "expect"`,
      `${P}/bad.yml:6: persona script "empty-expect": the script has no expectation: a script with nothing to check proves nothing`,
      `${P}/bad.yml:10: persona script "too-long": the script has 4 message turns (the opening and 3 follow-ups), more than maxTurns 3`,
      `${P}/bad.yml:14: persona script "bad-terminal": expect.terminal must be one of finish, handoff, switch, found the string "done"`,
      `${P}/bad.yml:17: persona script "bad-match": expect.toolCalled[0].match must be one of exact, subset, found the string "fuzzy"`,
      `${P}/bad.yml:19: persona script "bad-threshold": opening is empty`,
      `${P}/bad.yml:20: persona script "bad-threshold": threshold 2 is outside [0, 1]`,
    ]);
    for (const e of r.errors) expect(e.fix.length).toBeGreaterThan(10);
    expect(r.errors[2]!.fix).toBe('set maxTurns: 4, or remove 1 follow-up');
    quotedAndSaid(r.errors[2]!.message, 'persona script "<label>": the script has 3 message turns (the opening and 2 follow-ups), more than maxTurns 2', {
      '3 message turns': '4 message turns',
      '2 follow-ups': '3 follow-ups',
      'maxTurns 2': 'maxTurns 3',
    });
  });

  it('bad turns: an empty "-" is said at its own line, the items after it at theirs, a number in quotes as a list item', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      // js-yaml opens no node for an empty item: the positions of the items after it were one item off.
      [`${P}/a.yml`]: 'label: a\nopening: hi\nfollowUps:\n  - one\n  -\n  - 42\n  - two\nexpect: { terminal: finish }\n',
      [`${P}/b.yml`]: 'label: b\nopening: hi\nfollowUps:\n  - one\n  - true\n  -\nexpect: { terminal: finish }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      `${P}/a.yml:5:3: persona script "a": followUps[1] must be a string, found an empty value (null)\n  fix: write the item after the "-" on line 5, or remove that line`,
      `${P}/a.yml:6:5: persona script "a": followUps[2] must be a string, found the number 42\n  fix: put the value in quotes: - "42"`,
      `${P}/b.yml:5:5: persona script "b": followUps[1] must be a string, found the boolean true\n  fix: put the value in quotes: - "true"`,
      `${P}/b.yml:6:3: persona script "b": followUps[2] must be a string, found an empty value (null)\n  fix: write the item after the "-" on line 6, or remove that line`,
    ]);
    // A turn that is no turn gets the turns the script has, as one beyond it does; a number in quotes, the number.
    const turns = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/c.yml`]: 'label: c\nopening: hi\nfollowUps: [a]\nexpect:\n  reply:\n    - { contains: x, turn: -1 }\n    - { contains: x, turn: first }\n    - { contains: x, turn: "2" }\n',
    });
    expect(turns.errors.map((e) => `${e.line}:${e.column}: ${e.message.replace('persona script "c": ', '')}\n  fix: ${e.fix}`)).toEqual([
      '6:28: expect.reply[0].turn must be a turn number (0 is the welcome turn), last, or any, found the number -1\n  fix: use a turn from 0 to 2, last, or any',
      '7:28: expect.reply[1].turn must be a turn number (0 is the welcome turn), last, or any, found the string "first"\n  fix: use a turn from 0 to 2, last, or any',
      '8:28: expect.reply[2].turn must be a turn number (0 is the welcome turn), last, or any, found the string "2"\n  fix: write the number without quotes: turn: 2',
    ]);
  });

  it('a script whose first message is written as a fixture\'s (message:, prompt:) is said once, as the opening it stands for', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/a.yml`]: 'label: a\nmessage: hi\nfollowUps: [more]\nexpect: { terminal: finish }\n',
      [`${P}/b.yml`]: 'label: b\nprompt: hi\nexpect: { terminal: finish }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message.replace(/; allowed keys: .*/, '')}\n  fix: ${e.fix}`)).toEqual([
      `${P}/a.yml:2: persona script "a": unknown key "message" (and the required "opening" is missing)\n  fix: did you mean "opening"? rename the key, so that line 2 reads\n    opening: hi`,
      `${P}/b.yml:2: persona script "b": unknown key "prompt" (and the required "opening" is missing)\n  fix: did you mean "opening"? rename the key, so that line 2 reads\n    opening: hi`,
    ]);
  });

  it('the default maxTurns is 20', async () => {
    const followUps = Array.from({ length: 20 }, (_, i) => `m${i}`).join(', ');
    const r = await load({ [`${P}/long.yml`]: `label: long\nopening: hi\nfollowUps: [ ${followUps} ]\nexpect: { terminal: finish }\n` });
    expect(brief(r.errors)).toEqual([`${P}/long.yml:3: persona script "long": the script has 21 message turns (the opening and 20 follow-ups), more than maxTurns 20 (the default)`]);
  });

  it('labels share one namespace with fixtures', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: refund\nmessage: hi\n',
      [`${P}/b.yml`]: 'label: refund\nopening: hi\nexpect: { terminal: finish }\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${P}/b.yml:1:8: duplicate label "refund": used at ${F}/a.yml:1 and at ${P}/b.yml:1\n  fix: rename one of them; labels are unique across the suite because each names its baseline file`,
    ]);
  });

  it('unknown keys and invalid labels, as for fixtures', async () => {
    const r = await load({ [`${P}/b.yml`]: 'label: ../x\nopening: hi\nfollowups: [a]\nexpect: { termnal: finish }\n' });
    expect(brief(r.errors)).toEqual([
      `${P}/b.yml:1: label "../x" is not valid: a label is 1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit (it names the baseline file)`,
      `${P}/b.yml:3: persona script "../x": unknown key "followups"; allowed keys: label, persona, opening, followUps, maxTurns, threshold, mocks, unmockedTools, expect, repeat, user`,
      `${P}/b.yml:4: persona script "../x": unknown key "termnal" in expect; allowed keys: conversations, terminal, toolCalled, toolNotCalled, criteria, reply, maxTurnLatencyMs`,
    ]);
  });

  it('persona baselines are read and validated alongside fixture baselines', async () => {
    const persona = {
      label: 'p',
      kind: 'persona',
      transcript: [{ message: null, reply: 'Welcome', route: null }, { message: 'hi', reply: 'Hello', route: { conversation: 'c', stage: 's' } }],
      visited: ['c'],
      outcome: 'finish',
      verdict: 'pass',
      acceptedAt: '2026-11-01T00:00:00Z',
      commit: null,
    };
    const ok = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { terminal: finish }\n',
      [`${B}/p.json`]: JSON.stringify(persona, null, 2),
    });
    expect(ok.errors).toEqual([]);
    expect(ok.suite!.personaBaselines.get('p')).toEqual(persona);
    expect(ok.suite!.baselines.size).toBe(0);

    const bad = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { terminal: finish }\n',
      [`${B}/p.json`]: JSON.stringify({ ...persona, transcript: [{ message: null, reply: 3, route: null }], verdict: 'not_evaluated' }, null, 2),
    });
    expect(brief(bad.errors)).toEqual([
      `${B}/p.json:7: persona baseline: transcript[0].reply must be a string, found the number 3`,
      `${B}/p.json:15: verdict "not_evaluated" cannot be a baseline: only pass or fail is ever accepted`,
    ]);
  });

  it('a personas folder linked outside the suite is refused and not read', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-replay-outside-'));
    try {
      await fs.writeFile(path.join(outside, 'x.yml'), 'label: stolen\nopening: hi\nexpect: { terminal: finish }\n');
      const cwd = await repo({ [`${F}/ok.yml`]: OK_FIXTURE });
      await fs.symlink(outside, path.join(cwd, P));
      const r = await loadSuite({ dir: '.agent-replay', cwd, env: {} });
      expect(brief(r.errors)).toEqual([`${P}:-: the personas folder ${P} resolves outside the suite folder .agent-replay (a symbolic link): refused, nothing was read from it`]);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});

describe('config: response paths for persona data', () => {
  it('agent.response takes toolCalls, outcome and errors paths (null: not reported)', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      '.agent-replay/config.yml': 'agent:\n  request: { body: { q: "{{message}}", tools: "{{mocks}}" } }\n  response: { reply: out.text, toolCalls: out.calls, outcome: null, errors: out.errs }\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.agent.mapping).toMatchObject({ body: { q: '{{message}}', tools: '{{mocks}}' }, toolCalls: 'out.calls', outcome: null, errors: 'out.errs', absentToolCallsAreNone: false });
  });
});

describe('warnings about what the agent mapping cannot carry', () => {
  it('mocks not sent, tool calls and outcomes not read', async () => {
    const r = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      '.agent-replay/config.yml': 'agent:\n  preset: openai-chat\n  model: m\n  response: { toolCalls: null }\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nmocks: [ { tool: t, output: 1 } ]\nexpect: { terminal: finish, toolNotCalled: [ { tool: t } ] }\n',
    });
    expect(r.errors).toEqual([]);
    expect(brief(r.warnings)).toEqual([
      `${P}/p.yml:1: persona script (first: "p") has mocks, but the openai-chat preset sends no mocks (the API has no such field): the agent will not see them`,
      `${P}/p.yml:1: persona script (first: "p") checks tool calls, but agent.response.toolCalls is null: those checks are not evaluated`,
      `${P}/p.yml:1: persona script (first: "p") checks the terminal outcome, but the openai-chat preset's API reports no outcomes: that check is not evaluated`,
    ]);
    // A preset's API cannot be given a response path it does not have: the fix is a check it supports.
    expect(r.warnings.map((w) => w.fix)).toEqual([
      `remove the script's mocks to test the agent's tools live, or give agent.request.body in .agent-replay/config.yml with "{{mocks}}" where your endpoint reads them`,
      'agent-replay probe "MESSAGE" (one that makes the agent call a tool) names the path in the actual response that holds tool calls, if one does: set agent.response.toolCalls in .agent-replay/config.yml to it; if none does, remove toolCalled / toolNotCalled or use expect.reply',
      'remove expect.terminal, or check how the conversation ends with expect.reply (e.g. { contains: "...", turn: last }) or a criterion',
    ]);
    const rasa = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      '.agent-replay/config.yml': 'agent:\n  preset: rasa-rest\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { conversations: [ refunds ], toolCalled: [ { tool: t } ] }\n',
    });
    expect(brief(rasa.warnings)).toEqual([
      `${P}/p.yml:1: persona script (first: "p") checks tool calls, but the rasa-rest preset's API reports no tool calls: those checks are not evaluated`,
      `${P}/p.yml:1: persona script (first: "p") checks conversations, but the rasa-rest preset's API reports no routes: that check is not evaluated`,
    ]);
    // A body of one's own behind a preset: the endpoint is the user's, so a response path is the fix.
    const own = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      '.agent-replay/config.yml': 'agent:\n  preset: openai-chat\n  model: m\n  request: { body: { q: "{{message}}" } }\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { terminal: finish }\n',
    });
    expect(own.warnings.map((w) => w.fix)).toEqual(["if the agent's response says how the conversation ended, set agent.response.outcome in .agent-replay/config.yml to that path; if it does not, remove expect.terminal"]);
    const noWelcome = await load({
      [`${F}/ok.yml`]: OK_FIXTURE,
      '.agent-replay/config.yml': 'agent:\n  start: false\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { reply: [ { contains: Welcome, turn: 0 } ] }\n',
    });
    expect(brief(noWelcome.warnings)).toEqual([`${P}/p.yml:1: persona script (first: "p") checks the reply of turn 0, the welcome turn, but the agent has no welcome turn: that check will fail`]);
    const native = await load({ [`${F}/ok.yml`]: OK_FIXTURE, [`${P}/p.yml`]: 'label: p\nopening: hi\nmocks: [ { tool: t, output: 1 } ]\nexpect: { terminal: finish, toolNotCalled: [ { tool: t } ] }\n' });
    expect(native.warnings).toEqual([]);
  });
});
