// The fixtures a pull request's changed files edit (docs/action.md, "The PR comment", "Suite
// edited"): checks compared whole by label across the changed files, a moved fixture not deleted.

import { describe, expect, it } from 'vitest';
import { assertionWords, fixtureEdits } from '../../src/suite/edits.js';

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

  it('says a list of checks and tool checks in words', () => {
    expect(assertionWords({ kind: 'all', assertions: [{ kind: 'contains', value: 'a' }, { kind: 'maxLatency', ms: 2000 }] })).toBe('contains "a" and maxLatencyMs 2000');
    expect(assertionWords({ kind: 'toolCalled', tool: 'refund', match: 'subset' })).toBe('toolCalled refund');
    expect(assertionWords(null)).toBeNull();
  });
});
