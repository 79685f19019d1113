// The fixtures a pull request's changed files edit (docs/action.md, "The PR comment", "Suite
// edited"): checks compared whole by label across the changed files, a moved fixture not deleted.

import { describe, expect, it } from 'vitest';
import { assertionWords, fixtureEdits, repeatWords, scriptChecks, scriptReplay } from '../../src/suite/edits.js';

describe('fixtureEdits', () => {
  it('names a check changed or removed, and a fixture deleted with its check', async () => {
    const before = 'fixtures:\n  - { label: a, message: m, assert: { contains: "30 days" } }\n  - { label: b, message: m, assert: { judge: polite, threshold: 0.8 } }\n  - { label: c, message: m, assert: { regex: "x+", flags: i } }\n';
    const after = 'fixtures:\n  - { label: a, message: m }\n  - { label: b, message: m, assert: { judge: polite, threshold: 0.5 } }\n';
    expect(await fixtureEdits([{ path: 's/fixtures/f.yml', before, after }])).toEqual([
      { label: 'a', file: 's/fixtures/f.yml', change: 'assertion', before: 'contains "30 days"', after: null },
      { label: 'b', file: 's/fixtures/f.yml', change: 'assertion', before: 'judge "polite" (threshold 0.8)', after: 'judge "polite" (threshold 0.5)' },
      { label: 'c', file: 's/fixtures/f.yml', change: 'deleted', before: 'regex /x+/i', after: null },
    ]);
  });

  it('does not call a fixture moved to another file deleted, nor list one that only gained a check or is new', async () => {
    const edits = await fixtureEdits([
      { path: 's/fixtures/old.yml', before: 'label: a\nmessage: m\nassert: { contains: x }\n', after: null },
      { path: 's/fixtures/new.yml', before: 'label: b\nmessage: m\n', after: 'fixtures:\n  - { label: a, message: m, assert: { contains: x } }\n  - { label: b, message: m, assert: { contains: y } }\n  - { label: n, message: m }\n' },
    ]);
    expect(edits).toEqual([{ label: 'b', file: 's/fixtures/new.yml', change: 'assertion', before: null, after: 'contains "y"' }]);
  });

  it('compares checks whole, past the words shown, and reads a base file that does not parse as defining nothing', async () => {
    const long = 'y'.repeat(100);
    const edits = await fixtureEdits([{ path: 'f.yml', before: `label: a\nmessage: m\nassert: { contains: "${long}1" }\n`, after: `label: a\nmessage: m\nassert: { contains: "${long}2" }\n` }]);
    expect(edits).toHaveLength(1);
    expect(await fixtureEdits([{ path: 'f.yml', before: 'label: [\n', after: 'label: a\nmessage: m\n' }])).toEqual([]);
  });

  it('names a fixture whose message or persona tag changed: what it sends is the test', async () => {
    const before = 'fixtures:\n  - { label: a, message: "Can I get my money back?", assert: { contains: "30 days" } }\n  - { label: b, message: hi, persona: returning }\n  - { label: c, message: same }\n';
    const after = 'fixtures:\n  - { label: a, message: "Hi", assert: { contains: "30 days" } }\n  - { label: b, message: hi }\n  - { label: c, message: same, persona: new }\n';
    expect(await fixtureEdits([{ path: 's/fixtures/f.yml', before, after }])).toEqual([
      { label: 'a', file: 's/fixtures/f.yml', change: 'script', before: 'message "Can I get my money back?"', after: 'message "Hi"' },
      { label: 'b', file: 's/fixtures/f.yml', change: 'script', before: 'persona "returning"', after: null },
      { label: 'c', file: 's/fixtures/f.yml', change: 'script', before: null, after: 'persona "new"' },
    ]);
    // A message compared whole, past the words' cut; the same message reformatted is no edit.
    const long = 'y'.repeat(300);
    expect(await fixtureEdits([{ path: 'f.yml', before: `label: a\nmessage: "${long}1"\n`, after: `label: a\nmessage: "${long}2"\n` }])).toHaveLength(1);
    expect(await fixtureEdits([{ path: 'f.yml', before: 'label: a\nmessage: hi\n', after: '# same\nlabel: a\nmessage: "hi"\n' }])).toEqual([]);
  });

  it('a message or check that looks the same but writes an accented letter otherwise (NFC, NFD) says so; one re-saved with CRLF or a byte-order mark is no edit', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    const before = `fixtures:\n  - { label: a, message: "${nfc} open?" }\n  - { label: b, message: hi, assert: { contains: "${nfd}" } }\n`;
    const after = `fixtures:\n  - { label: a, message: "${nfd} open?" }\n  - { label: b, message: hi, assert: { contains: "${nfc}" } }\n`;
    expect(await fixtureEdits([{ path: 'f.yml', before, after }])).toEqual([
      {
        label: 'a',
        file: 'f.yml',
        change: 'script',
        before: `message "${nfc} open?"`,
        after: `message "${nfd} open?" (looks the same, but an accented letter is now a letter and a combining accent (Unicode NFD, as some macOS editors save text), where it was one character (NFC))`,
      },
      {
        label: 'b',
        file: 'f.yml',
        change: 'assertion',
        before: `contains "${nfd}"`,
        after: `contains "${nfc}" (looks the same, but an accented letter is now one character (Unicode NFC), where it was a letter and a combining accent (NFD))`,
      },
    ]);
    // Its line endings and mark are no part of what a file defines.
    expect(await fixtureEdits([{ path: 'f.yml', before, after: `\uFEFF${before.replace(/\n/g, '\r\n')}` }])).toEqual([]);
  });

  it('names a fixture whose own repeat changed, old and new, after its check', async () => {
    const before = 'fixtures:\n  - { label: a, message: m, assert: { contains: x }, repeat: { count: 3 } }\n  - { label: b, message: m, repeat: { count: 5, minPass: 4 } }\n  - { label: c, message: m }\n  - { label: d, message: m, repeat: { count: 3, minPass: 3 } }\n';
    const after = 'fixtures:\n  - { label: a, message: m, assert: { contains: y }, repeat: { count: 3, minPass: 1 } }\n  - { label: b, message: m }\n  - { label: c, message: m, repeat: { count: 3, minPass: 2, max: 10 } }\n  - { label: d, message: m, repeat: { count: 3 } }\n';
    expect(await fixtureEdits([{ path: 'f.yml', before, after }])).toEqual([
      { label: 'a', file: 'f.yml', change: 'assertion', before: 'contains "x"', after: 'contains "y"' },
      { label: 'a', file: 'f.yml', change: 'repeat', before: 'repeat count 3, minPass 3', after: 'repeat count 3, minPass 1' },
      { label: 'b', file: 'f.yml', change: 'repeat', before: 'repeat count 5, minPass 4', after: null },
      { label: 'c', file: 'f.yml', change: 'repeat', before: null, after: 'repeat count 3, minPass 2, max 10' },
    ]);
    expect(repeatWords(undefined)).toBeNull();
  });

  it('says a list of checks and tool checks in words', () => {
    expect(assertionWords({ kind: 'all', assertions: [{ kind: 'contains', value: 'a' }, { kind: 'maxLatency', ms: 2000 }] })).toBe('contains "a" and maxLatencyMs 2000');
    expect(assertionWords({ kind: 'toolCalled', tool: 'refund', match: 'subset' })).toBe('toolCalled refund');
    expect(assertionWords(null)).toBeNull();
  });
});

const script = (label: string, expect: string, extra = ''): string => `- label: ${label}\n  opening: hi\n${extra}  expect:\n${expect}`;

describe('fixtureEdits of persona scripts', () => {
  const BASE = `personas:\n${script('refund', '    toolNotCalled: [{ tool: issue_refund }]\n    criteria: [never promises a refund over $100, stays polite]\n')}${script('hours', '    terminal: finish\n')}${script('gone', '    conversations: [refund]\n')}`;

  it('names the checks a script lost or changed, a lowered threshold included, and a script deleted with its checks', async () => {
    const head = `personas:\n${script('refund', '    criteria: [never promises a refund over $100, stays polite]\n', '  threshold: 0.5\n')}${script('hours', '    terminal: finish\n    maxTurnLatencyMs: 3000\n')}`;
    expect(await fixtureEdits([{ path: 's/personas/p.yml', kind: 'persona', before: BASE, after: head }])).toEqual([
      {
        label: 'refund',
        kind: 'persona',
        file: 's/personas/p.yml',
        change: 'assertion',
        before: 'toolNotCalled issue_refund and criterion "never promises a refund over $100" (threshold 0.7) and criterion "stays polite" (threshold 0.7)',
        after: 'criterion "never promises a refund over $100" (threshold 0.5) and criterion "stays polite" (threshold 0.5)',
      },
      { label: 'hours', kind: 'persona', file: 's/personas/p.yml', change: 'assertion', before: null, after: 'maxTurnLatencyMs 3000' },
      { label: 'gone', kind: 'persona', file: 's/personas/p.yml', change: 'deleted', before: 'conversations "refund"', after: null },
    ]);
  });

  it('lists nothing for a script whose checks are the same, reordered or moved to another file, and keeps fixtures and scripts apart', async () => {
    const reordered = `personas:\n${script('refund', '    criteria: [never promises a refund over $100, stays polite]\n    toolNotCalled: [{ tool: issue_refund }]\n')}${script('hours', '    terminal: finish\n')}`;
    const edits = await fixtureEdits([
      { path: 's/personas/p.yml', kind: 'persona', before: BASE, after: reordered },
      { path: 's/personas/q.yml', kind: 'persona', before: null, after: `personas:\n${script('gone', '    conversations: [refund]\n')}` },
      // A fixture of the same label as a script is another item: its deletion is its own.
      { path: 's/fixtures/f.yml', before: 'label: hours\nmessage: m\nassert: { contains: x }\n', after: null },
    ]);
    expect(edits).toEqual([{ label: 'hours', file: 's/fixtures/f.yml', change: 'deleted', before: 'contains "x"', after: null }]);
  });

  it('names what a script replays when it changed: its opening, follow-ups and mocks, as its checks are', async () => {
    const before = 'label: refund\nopening: I want my money back\nfollowUps: [order 1234, thanks]\nmocks:\n  - { tool: find_order, input: { id: 1234 }, output: { status: shipped } }\nexpect:\n  terminal: finish\n';
    const after = 'label: refund\nopening: I want a refund\nfollowUps: [order 1234, thanks]\nmocks:\n  - { tool: find_order, input: { id: 1234 }, output: { status: delivered } }\n  - { tool: issue_refund, output: { ok: true } }\nexpect:\n  terminal: finish\n';
    expect(await fixtureEdits([{ path: 's/personas/r.yml', kind: 'persona', before, after }])).toEqual([
      {
        label: 'refund',
        kind: 'persona',
        file: 's/personas/r.yml',
        change: 'script',
        before: 'opening "I want my money back" and mock find_order {"id": 1234} answers {"status": "shipped"}',
        after: 'opening "I want a refund" and mock find_order {"id": 1234} answers {"status": "delivered"} and mock issue_refund answers {"ok": true}',
      },
    ]);
    // A follow-up taken out: the ones after it are sent at another turn. With a check changed too, two entries, checks first.
    const fewer = after.replace('[order 1234, thanks]', '[thanks]').replace('terminal: finish', 'terminal: handoff');
    expect(await fixtureEdits([{ path: 's/personas/r.yml', kind: 'persona', before: after, after: fewer }])).toEqual([
      { label: 'refund', kind: 'persona', file: 's/personas/r.yml', change: 'assertion', before: 'terminal finish', after: 'terminal handoff' },
      { label: 'refund', kind: 'persona', file: 's/personas/r.yml', change: 'script', before: 'follow-up "order 1234" (turn 2) and follow-up "thanks" (turn 3)', after: 'follow-up "thanks" (turn 2)' },
    ]);
    // The same script, reformatted: nothing.
    expect(await fixtureEdits([{ path: 's/personas/r.yml', kind: 'persona', before: after, after: `# reformatted\n${after.replace('followUps: [order 1234, thanks]', 'followUps:\n  - order 1234\n  - thanks')}` }])).toEqual([]);
  });

  it('names a script whose repeat or simulated user\'s maxTurns changed, old and new; its threshold is in its criteria, its own maxTurns only a limit', async () => {
    const sim = (maxTurns: number, extra = ''): string => `label: sim\nopening: hi\nuser: { goal: get a refund, maxTurns: ${maxTurns} }\n${extra}expect:\n  terminal: finish\n`;
    expect(await fixtureEdits([{ path: 'p.yml', kind: 'persona', before: sim(6, 'repeat: { count: 3, minPass: 2 }\n'), after: sim(3, 'repeat: { count: 3, minPass: 1 }\n') }])).toEqual([
      { label: 'sim', kind: 'persona', file: 'p.yml', change: 'script', before: 'simulated user maxTurns 6', after: 'simulated user maxTurns 3' },
      { label: 'sim', kind: 'persona', file: 'p.yml', change: 'repeat', before: 'repeat count 3, minPass 2', after: 'repeat count 3, minPass 1' },
    ]);
    // A scripted script's maxTurns is a limit checked when the suite loads (more turns is an error):
    // it changes neither what is sent nor a verdict. Its threshold without criteria judges nothing.
    const scripted = (extra: string): string => `label: s\nopening: hi\nfollowUps: [a]\n${extra}expect:\n  terminal: finish\n`;
    expect(await fixtureEdits([{ path: 'p.yml', kind: 'persona', before: scripted('maxTurns: 5\nthreshold: 0.9\n'), after: scripted('maxTurns: 2\nthreshold: 0.1\n') }])).toEqual([]);
  });

  it('says every part a script replays in words', () => {
    const parts = scriptReplay({
      persona: 'angry-customer',
      opening: 'hi',
      followUps: [],
      user: { goal: 'get a refund', instructions: 'be curt', maxTurns: 6 },
      mocks: [{ tool: 'find_order', input: { id: 1 }, match: 'exact', output: 'shipped' }],
      unmockedTools: 'allow',
    });
    expect(parts.map((c) => c.words)).toEqual([
      'persona "angry-customer"',
      'opening "hi"',
      'simulated user goal "get a refund"',
      'simulated user instructions "be curt"',
      'simulated user maxTurns 6',
      'mock find_order {"id": 1} (exact) answers "shipped"',
      'unmockedTools allow',
    ]);
  });

  it('says every kind of script check in words', () => {
    const checks = scriptChecks({
      threshold: 0.8,
      expect: {
        conversations: ['refund', 'goodbye'],
        terminal: 'handoff',
        toolCalled: [{ tool: 'lookup', input: { id: 1 }, match: 'exact' }],
        toolNotCalled: [{ tool: 'refund', match: 'subset' }],
        criteria: ['polite'],
        reply: [{ contains: '30 days', turn: 'last' }, { regex: 'x+', flags: 'i', turn: 2 }],
        maxTurnLatencyMs: 2000,
      },
    });
    expect(checks.map((c) => c.words)).toEqual([
      'conversations "refund", "goodbye"',
      'terminal handoff',
      'toolCalled lookup {"id": 1} (exact)',
      'toolNotCalled refund',
      'reply contains "30 days" (turn last)',
      'reply regex /x+/i (turn 2)',
      'maxTurnLatencyMs 2000',
      'criterion "polite" (threshold 0.8)',
    ]);
  });
});
