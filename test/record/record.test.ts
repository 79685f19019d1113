// results.json: parsing untrusted text, writing atomically, merging shards.

import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeRecords, parseRecord, readRecord, RecordError, serializeRecord, writeRecord } from '../../src/record/index.js';
import type { FixtureRecord, Outcome, RunRecord } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';
import { check, persona } from '../report/fixtures.js';
import { jsonValueOffset } from '../../src/suite/json-depth.js';
import { docsUrl } from '../../src/version.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

function fixture(label: string, over: Partial<FixtureRecord> = {}): FixtureRecord {
  return fixtureRecord(over, {
    label,
    file: '.agent-replay/fixtures/f.yml',
    message: 'hello',
    assertion: { kind: 'contains', value: 'Welcome' },
    reply: 'Welcome!',
    route: { conversation: 'welcome', stage: 'greeting' },
    detail: 'reply contains "Welcome"',
    durationMs: 12,
  });
}

function record(fixtures: FixtureRecord[], over: Partial<RunRecord> = {}): RunRecord {
  return {
    schemaVersion: 1,
    tool: { name: 'agent-replay', version: '0.1.0' },
    startedAt: '2026-12-01T10:00:00.000Z',
    finishedAt: '2026-12-01T10:00:05.000Z',
    durationMs: 5000,
    commit: 'a'.repeat(40),
    agent: { host: '127.0.0.1:1234' },
    judge: { name: null },
    estimate: { usd: 0.04, capUsd: 0.1, aboveCap: false, confirmed: false },
    tallies: { passed: fixtures.length, failed: 0, notEvaluated: 0, errored: 0 },
    interrupted: false,
    fixtures,
    personas: [],
    ...over,
  };
}

describe('parseRecord', () => {
  /** parseRecord's refusal of `text` as r.json, or '' when it reads. */
  const said = (text: string): string => {
    try {
      parseRecord(text, 'r.json');
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  };

  it('round-trips what serializeRecord writes', () => {
    const r = record([fixture('a'), fixture('b', { errored: true, errorKind: 'timeout', error: 'x', reply: null, route: null, verdict: null, drift: null })]);
    expect(parseRecord(serializeRecord(r), 'r.json')).toEqual(r);
  });

  it("round-trips a script's welcome turn whose tokens were not read (usageUnread); anything but true is refused", () => {
    const script = persona('refund');
    const turns = [{ ...script.turns[0]!, message: null, usage: null, usageUnread: true as const }, ...script.turns.slice(1)];
    const r = record([fixture('a')], { personas: [{ ...script, turns }] });
    expect(parseRecord(serializeRecord(r), 'r.json').personas[0]?.turns[0]?.usageUnread).toBe(true);
    const wrong = { ...r, personas: [{ ...script, turns: [{ ...turns[0], usageUnread: false }, ...turns.slice(1)] }] };
    expect(() => parseRecord(JSON.stringify(wrong), 'r.json')).toThrow(/personas\.0\.turns\.0\.usageUnread/);
  });

  it("refuses a judge's score or threshold outside 0..1 (docs/judges.md: scored 0..1) as a value out of its range, by its path", () => {
    const judged = { assertion: { kind: 'judge' as const, criterion: 'c', threshold: 0.7 }, score: 0.9, threshold: 0.7, rationale: 'ok' };
    const attempt = { errored: false, error: null, errorKind: null, reply: 'r', meaning: null, route: null, verdict: 'pass' as const, detail: 'd', score: 0.9, rationale: 'ok', durationMs: 1 };
    const item = fixture('a', { ...judged, checks: [{ ...judged, status: 'pass', detail: 'd' }], attempts: [attempt, attempt], repeat: { count: 2, minPass: 2, passed: 2, flaky: false } });
    const script = persona('refund');
    const criterion = check.criterion('helpful', 0.9, 'ok');
    const ok = record([item], { personas: [{ ...script, checks: [criterion] }] });
    expect(said(serializeRecord(ok))).toBe('');
    const wrong = (path: string, edit: (r: RunRecord) => void): string => {
      const r = structuredClone(ok);
      edit(r);
      return said(JSON.stringify(r)).includes(path) ? path : `${path} not named: ${said(JSON.stringify(r))}`;
    };
    expect(wrong('fixtures.0.score', (r) => (r.fixtures[0]!.score = 1.5))).toBe('fixtures.0.score');
    expect(wrong('fixtures.0.threshold', (r) => (r.fixtures[0]!.threshold = 70))).toBe('fixtures.0.threshold');
    expect(wrong('fixtures.0.attempts.1.score', (r) => (r.fixtures[0]!.attempts![1]!.score = -0.1))).toBe('fixtures.0.attempts.1.score');
    expect(wrong('fixtures.0.checks.0.score', (r) => (r.fixtures[0]!.checks![0]!.score = 2))).toBe('fixtures.0.checks.0.score');
    expect(wrong('fixtures.0.checks.0.threshold', (r) => (r.fixtures[0]!.checks![0]!.threshold = 7))).toBe('fixtures.0.checks.0.threshold');
    expect(wrong('personas.0.checks.0.score', (r) => ((r.personas[0]!.checks[0] as { score: number }).score = 9))).toBe('personas.0.checks.0.score');
  });

  it("an older record's addresses holding a token in their path read as a run writes them now, the agent's as a judge's (docs/security.md)", () => {
    const token = 'sk-live-4f9aC2b7D1e8F0a3B6c5';
    const fingerprint = { model: 'openai/m', endpoint: `https://gw.example/key/${token}/v1`, promptVersion: '3', criteria: [{ criterion: 'polite', threshold: 0.7 }] };
    const older = record([fixture('a', { judgeFingerprint: fingerprint })], { agent: { host: 'shop.example', endpoint: `https://shop.example/hooks/${token}/chat/` } });
    const read = parseRecord(JSON.stringify(older), 'r.json');
    expect(read.fixtures[0]?.judgeFingerprint?.endpoint).toBe('https://gw.example/key/***/v1');
    expect(read.agent.endpoint).toBe('https://shop.example/hooks/***/chat/');
    expect(JSON.stringify(read)).not.toContain(token);
  });

  it("refuses a repeat whose max is not above its count, or an item's passes above its attempts, as a value out of its range (docs/results-json.md, `repeat`)", () => {
    const repeat = { count: 3, minPass: 2, passed: 3, flaky: false, plan: { count: 3, minPass: 2, max: 10 } };
    const ok = record([fixture('a', { repeat })], { repeat: { count: 3, minPass: 2, max: 10 } });
    expect(said(serializeRecord(ok))).toBe('');
    expect(said(serializeRecord({ ...ok, repeat: { count: 3, minPass: 2, max: 3 } }))).toMatch(/repeat\.max: max must be above count/);
    expect(said(serializeRecord(record([fixture('a', { repeat: { ...repeat, plan: { count: 10, minPass: 2, max: 5 } } })])))).toMatch(/fixtures\.0\.repeat\.plan\.max: max must be above count/);
    expect(said(serializeRecord(record([fixture('a', { repeat: { ...repeat, passed: 4 } })])))).toMatch(/fixtures\.0\.repeat\.passed: passed must not exceed count/);
  });

  it('rejects text that is not JSON, naming the file', () => {
    expect(() => parseRecord('{"schemaVersion": 1,', 'shard.json')).toThrow(RecordError);
    expect(() => parseRecord('{"schemaVersion": 1,', 'shard.json')).toThrow(/^shard\.json: not valid JSON .*the file ends before the record does/);
    expect(() => parseRecord('<html>not found</html>', 'shard.json')).toThrow(/^shard\.json: not valid JSON .*expected a results\.json written by agent-replay/);
  });

  it('says a file is cut short only where the parser stops at its end: not of a quote left out mid-file, a key without its value, a whole file whose last string is not closed, nor of an empty file', () => {
    const CUT = 'the file ends before the record does';
    // Cut short: the parser stops at the end, inside a string, a list or an object.
    for (const cut of ['{"schemaVersion": 1, "reply": "say \\', '{"schemaVersion": 1, "reply": "say \\"', '{"schemaVersion": 1, "x":', '{"a": [1, 2', '{"a": 1.']) expect(said(cut), cut).toContain(CUT);
    // Inside a word or an escape: a literal, a number or a \u escape the file ends before it is whole
    // (was "expected a results.json" where the parser named no position: which of them a cut in the
    // middle of a record lands in follows its times, so the same cut file read one way or the other).
    for (const cut of ['{"ok": t', '{"ok": tr', '{"ok": fals', '{"x": nu', '{"a": -', '{"a": 12e', '{"a": 1.5E-', '{"reply": "a\\u00']) expect(said(cut), cut).toContain(CUT);
    // Every cut of a whole record that leaves a file not ending in a string is said to be cut short.
    const whole = serializeRecord(record([fixture('a'), fixture('b', { reply: 'Returns within 30 days: \u00e9 "quoted" \\ done' })]));
    for (let k = 1; k < whole.length - 1; k++) {
      const cut = whole.slice(0, k);
      if (/[}\]]$/.test(cut.trimEnd())) continue;
      expect(said(cut), `cut at ${String(k)}: ${JSON.stringify(cut.slice(-20))}`).toContain(CUT);
    }
    // Was "cut off" of each: a quote left out inside a list on one line (the rest read inside out), a value left out (its object not closed).
    expect(said('{"schemaVersion": 1, "labels": ["a, "b"], "x": 1}')).toBe("r.json: not valid JSON (Expected ',' or ']' after array element, at line 1, column 38): expected a results.json written by agent-replay");
    expect(said('{"schemaVersion": 1, "a": {"b": }')).toBe("r.json: not valid JSON (Unexpected token '}', at line 1, column 33): expected a results.json written by agent-replay");
    // A whole file whose last string's closing quote is left out, or escaped: said where the string opens.
    const open = (column: number): string =>
      `r.json: not valid JSON (the string opened at line 1, column ${column} is never closed: its closing " is left out, or written \\" and so read as part of the string): agent-replay never writes one; give the results.json the run wrote (its --out, or its results artifact); in a file edited by hand, close the string`;
    expect(said('{"schemaVersion": 1, "reply": "say \\"}')).toBe(open(31));
    expect(said('{"schemaVersion": 1, "x: 1}')).toBe(open(22));
    expect(said('{"a": ["x", "y]}')).toBe(open(13));
    // A quote left out inside a list, the next line another of its strings: closed on its line (was: "join lines 4 to 5", a line break inside the string).
    expect(said('{\n  "schemaVersion": 1,\n  "labels": [\n    "a,\n    "b"\n  ]\n}\n')).toBe(
      'r.json: not valid JSON (the string opened at line 4, column 5 is not closed on its line (its closing " left out)): close it with ", so that line 4 reads: "a",',
    );
    // An empty file (was "expected a results.json written by agent-replay"): cut off before anything was written.
    expect(said('')).toBe("r.json: is empty, with no record in it (cut off before anything was written, or made by another step): take it again from where it was written (the run's --out, or its results artifact)");
    expect(said(' \n')).toMatch(/^r\.json: is empty/);
  });

  it('says where a results file stops being JSON, once and on one line: its line and column, not "at position N" or the text around it', () => {
    // V8 gives no position here, and quotes the text around the mistake over two lines.
    expect(said('{\n  "schemaVersion": 1,\n  "x": tru\n}\n')).toBe("r.json: not valid JSON (Unexpected token '\\n', at line 3, column 8): expected a results.json written by agent-replay");
    // A comma after the last entry (a hand edit's mistake): at the comma, not at the "}" the parser names a line below.
    // With the line as it reads without it, as a baseline's (was the position alone).
    expect(said('{\n  "schemaVersion": 1,\n}\n')).toBe('r.json: not valid JSON (a comma after the last entry of an object, which JSON does not allow): remove the comma at line 2, column 21, so that line 2 reads: "schemaVersion": 1');
    expect(said('{\n  "schemaVersion": 1,\n  "fixtures": [{ "label": "a" },\n  ]\n}\n')).toBe('r.json: not valid JSON (a comma after the last entry of a list, which JSON does not allow): remove the comma at line 3, column 32, so that line 3 reads: "fixtures": [{ "label": "a" }');
    // A comma left out between two entries: where it is missing, as a baseline's (was the parser's "Expected ',' or '}' after property value" at the next key).
    expect(said('{\n  "schemaVersion": 1\n  "x": 1\n}\n')).toBe(
      'r.json: not valid JSON (a comma left out after this entry, before the next one on line 3: JSON separates the entries of an object with commas): add a comma at line 2, column 21, so that line 2 reads: "schemaVersion": 1,',
    );
    // A string left open, a line break or a tab typed inside one: where and the fix, as a baseline's, on one line (was the parser's "Bad control character in string literal").
    expect(said('{\n  "schemaVersion": 1,\n  "commit": "abc,\n  "x": 1\n}\n')).toBe('r.json: not valid JSON (the string opened at line 3, column 13 is not closed on its line (its closing " left out)): close it with ", so that line 3 reads: "commit": "abc",');
    expect(said('{\n  "schemaVersion": 1,\n  "commit": "a\tb"\n}\n')).toBe('r.json: not valid JSON (a tab inside a string, which JSON writes as \\t, at line 3, column 15): write it as \\t, so that line 3 reads: "commit": "a\\tb"');
    expect(said('{\n  "schemaVersion": 1,\n  "commit": "a\nb"\n}\n')).toBe('r.json: not valid JSON (the string opened at line 3, column 13 goes on past its line: a line break inside a string is written \\n in JSON): join lines 3 to 4 into one, with \\n for each line break, so that line 3 reads: "commit": "a\\nb"');
    // Another mistake after a property name is the parser's words, where it stops being JSON.
    expect(said('{\n  "schemaVersion": 1,\n  "x" 2\n}\n')).toMatch(/^r\.json: not valid JSON \(.+, at line 3, column 7\): expected a results\.json written by agent-replay$/);
  });

  it("refuses a record whose shown judge or meaning model does not agree with the list beside it, naming the file and both", () => {
    // Was: read, then shown by judge.name and merged by judge.names (a hand edit of one of them).
    const said = (over: Partial<RunRecord>): string => {
      try {
        parseRecord(serializeRecord(record([fixture('a')], over)), 'm.json');
      } catch (e) {
        return (e as Error).message;
      }
      return 'read';
    };
    // As a merge writes them: read.
    expect(said({ judge: { name: '"openai a", "openai b"', names: ['openai a', 'openai b'] } })).toBe('read');
    expect(said({ judge: { name: 'openai a', names: ['openai a', 'openai b'] } })).toBe(
      'm.json: judge.name ("openai a") does not agree with judge.names (["openai a","openai b"]): agent-replay writes judge.name as judge.names\'s entries, each quoted, comma-separated (here "openai a", "openai b"); give the results.json the run wrote (its --out, or its results artifact); in a file edited by hand, make the two agree',
    );
    const meaning = { check: 'judge' as const, model: '"a", "b"', models: ['a', 'b'], promptVersion: '1' };
    expect(said({ meaning })).toBe('read');
    expect(said({ meaning: { ...meaning, models: ['a', 'c'] } })).toMatch(/^m\.json: meaning\.model \("\\"a\\", \\"b\\""\) does not agree with meaning\.models \(\["a","c"\]\): /);
    expect(said({ meaning: { ...meaning, promptVersions: ['1', '2'] } })).toMatch(/^m\.json: meaning\.promptVersion \("1"\) does not agree with meaning\.promptVersions \(\["1","2"\]\): /);
  });

  it('rejects schema violations, naming the path of each problem', () => {
    const bad = JSON.parse(serializeRecord(record([fixture('a'), fixture('b')]))) as Record<string, unknown>;
    (bad.fixtures as Record<string, unknown>[])[1]!.verdict = 'maybe';
    delete (bad.tallies as Record<string, unknown>).errored;
    const text = JSON.stringify(bad);
    expect(() => parseRecord(text, 'r.json')).toThrow(/^r\.json: is not a valid agent-replay results file \(schema version 1\)/);
    expect(() => parseRecord(text, 'r.json')).toThrow(/fixtures\.1\.verdict/);
    expect(() => parseRecord(text, 'r.json')).toThrow(/tallies\.errored/);
  });

  it('says the fix: a newer format or a newer agent-replay is named with the version to use; a cut-off file is said to be cut off', () => {
    const v2 = { ...record([fixture('a')]), schemaVersion: 2, tool: { name: 'agent-replay', version: '2.0.0' } };
    expect(() => parseRecord(JSON.stringify(v2), 'r.json')).toThrow(
      /^r\.json: is a results file of schema version 2, written by agent-replay 2\.0\.0; this agent-replay \(0\.1\.0\) reads schema version 1: read it with agent-replay 2\.0\.0 or newer$/,
    );
    const newer = { ...record([fixture('a')]), tool: { name: 'agent-replay', version: '0.3.1' }, addedLater: { x: 1 } };
    const message = (): string => {
      try {
        parseRecord(JSON.stringify(newer), 'r.json');
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    expect(message()).toMatch(/^r\.json: is not a valid agent-replay results file \(schema version 1\): \(top level\): Unrecognized key: "addedLater"/);
    expect(message()).toMatch(/; it was written by agent-replay 0\.3\.1, newer than this one \(0\.1\.0\), which may not know its fields: read it with agent-replay 0\.3\.1 or newer$/);
    const text = serializeRecord(record([fixture('a'), fixture('b')]));
    expect(() => parseRecord(text.slice(0, Math.floor(text.length / 2)), 'r.json')).toThrow(/^r\.json: not valid JSON \(.*\): the file ends before the record does \(cut off while it was copied or written\); take it again from where it was written/);
  });

  it('rejects another schema version, unknown fields and labels that are not file names', () => {
    const v2 = { ...record([]), schemaVersion: 2 };
    expect(() => parseRecord(JSON.stringify(v2), 'r.json')).toThrow(/schema version 2/);
    const extra = { ...record([]), injected: true };
    expect(() => parseRecord(JSON.stringify(extra), 'r.json')).toThrow(/injected/);
    for (const label of ['../../evil', '.hidden', 'a/b', '', 'x'.repeat(81)]) {
      expect(() => parseRecord(JSON.stringify(record([fixture(label)])), 'r.json'), label).toThrow(/fixtures\.0\.label/);
    }
    expect(() => parseRecord('[]', 'r.json')).toThrow(/\(top level\)/);
    // The stored baseline a fixture was compared against: the suite's baseline schema, label checked.
    const stored = { label: 'a', reply: 'r', route: null, verdict: 'pass' as const, acceptedAt: 'x', commit: null };
    expect(parseRecord(JSON.stringify(record([fixture('a', { baseline: stored })])), 'r.json').fixtures[0]?.baseline).toEqual(stored);
    expect(() => parseRecord(JSON.stringify(record([fixture('a', { baseline: { ...stored, label: '../x' } })])), 'r.json')).toThrow(/fixtures\.0\.baseline\.label: label must be 1-80/);
    expect(() => parseRecord(JSON.stringify(record([fixture('a', { baseline: { ...stored, extra: 1 } as typeof stored })])), 'r.json')).toThrow(/extra/);
  });

  it('rejects "errored with a verdict" and "replayed without one": errored has no reply, verdict or drift', () => {
    const errored = { errored: true, errorKind: 'timeout', error: 'agent did not answer', reply: null, route: null, verdict: null, drift: null } as const;
    expect(parseRecord(JSON.stringify(record([fixture('a', errored)])), 'r.json').fixtures[0]).toMatchObject(errored);
    // A fixture errored by its spans keeps the reply and route it answered with (docs/traces.md, "Fixtures").
    const spanErrored = { ...errored, errorKind: 'agent_error', reply: 'text', route: { conversation: 'c', stage: 's' } } as const;
    expect(parseRecord(JSON.stringify(record([fixture('a', spanErrored)])), 'r.json').fixtures[0]).toMatchObject(spanErrored);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...errored, verdict: 'pass' }, /fixtures\.0\.verdict: an errored fixture has no verdict/],
      [{ ...errored, drift: { reply: null, route: null, verdict: 'no_baseline' } }, /fixtures\.0\.drift: an errored fixture has no drift/],
      [{ ...errored, reply: 'text' }, /fixtures\.0\.reply: an errored fixture has no reply/],
      [{ ...errored, route: { conversation: 'c', stage: 's' } }, /fixtures\.0\.route: an errored fixture has no route/],
      [{ ...errored, error: null }, /fixtures\.0\.error/],
      [{ verdict: null }, /fixtures\.0\.verdict/],
      [{ drift: null }, /fixtures\.0\.drift/],
      [{ reply: null }, /fixtures\.0\.reply/],
      [{ error: 'boom' }, /fixtures\.0\.error/],
      [{ errored: 'no' }, /fixtures\.0\.errored/],
    ];
    for (const [over, message] of bad) {
      const text = JSON.stringify(record([fixture('a', over as Partial<FixtureRecord>)]));
      expect(() => parseRecord(text, 'artifact/results.json'), JSON.stringify(over)).toThrow(message);
    }
  });

  it('cannot be written either: the types refuse an errored record with a verdict (checked by npm run typecheck)', () => {
    const errored = fixture('a', { errored: true, errorKind: 'timeout', error: 'x', reply: null, route: null, verdict: null, drift: null });
    if (errored.errored) {
      // @ts-expect-error an errored fixture has no verdict
      const withVerdict: FixtureRecord = { ...errored, verdict: 'pass' };
      // @ts-expect-error an errored fixture has no drift
      const withDrift: FixtureRecord = { ...errored, drift: { reply: null, route: null, verdict: 'no_baseline' } };
      // At run time the schema is the guard.
      for (const f of [withVerdict, withDrift]) expect(() => parseRecord(JSON.stringify(record([f])), 'r.json')).toThrow(/an errored fixture has no/);
    }
    // @ts-expect-error a check that did not run has no score
    const scored: Outcome = { verdict: 'not_evaluated', detail: 'x', score: 0.9 };
    expect(scored.verdict).toBe('not_evaluated');
  });

  const FIX = "agent-replay never writes one (a suite's labels are unique, also in case): give the results.json the run wrote (its --out, or its results artifact); in a file edited by hand, remove one of the two items";

  /** The line of the nth `"label": "<label>"` in `text`, 1-based. */
  const lineOf = (text: string, label: string, nth = 1): number => {
    let at = -1;
    for (let k = 0; k < nth; k++) at = text.indexOf(`"label": ${JSON.stringify(label)}`, at + 1);
    return text.slice(0, at).split('\n').length;
  };

  it('rejects a record in which a label appears twice, naming both items by their path and line, with the fix', () => {
    const text = serializeRecord(record([fixture('a'), fixture('b'), fixture('a')]));
    const [first, second] = [lineOf(text, 'a'), lineOf(text, 'a', 2)];
    expect(second).toBeGreaterThan(first);
    expect(() => parseRecord(text, 'r.json')).toThrow(`r.json: fixture label "a" appears twice, at fixtures.0.label (line ${first}) and at fixtures.2.label (line ${second}): ${FIX}`);
  });

  /** The first 3 characters of the value at `path` in `text` (jsonValueOffset), or null. */
  const valueAt = (text: string, path: (string | number)[]): string | null => {
    const offset = jsonValueOffset(text, path);
    return offset === null ? null : text.slice(offset, offset + 3);
  };

  it('finds a label past strings that hold quotes, brackets and braces, and past numbers, true and null (jsonValueOffset)', () => {
    const text = '{"a": "x\\"]}[{", "n": -1.5e3, "t": [true, null, {"k": "}"}], "fixtures": [{"label": "p"}, {"x": [], "label": "q"}]}';
    const at = (path: (string | number)[]): string | null => valueAt(text, path);
    expect(at(['fixtures', 1, 'label'])).toBe('"q"');
    expect(at(['fixtures', 0, 'label'])).toBe('"p"');
    expect(at(['t', 2, 'k'])).toBe('"}"');
    expect(at(['fixtures', 2, 'label'])).toBeNull();
    expect(at(['missing'])).toBeNull();
    expect(jsonValueOffset('{}', ['a'])).toBeNull();
  });

  it('a key an object has twice is its last, as JSON.parse reads it (jsonValueOffset): the line a duplicate label is said at', () => {
    const text = '{"fixtures": [{"label": "p"}], "t": {"k": 1, "k": [2]}, "fixtures": [{"label": "q", "label": "r"}]}';
    const at = (path: (string | number)[]): string | null => valueAt(text, path);
    expect(at(['fixtures', 0, 'label'])).toBe('"r"');
    expect(at(['t', 'k'])).toBe('[2]');
    expect(at(['fixtures', 1, 'label'])).toBeNull();
    // A record edited by hand: the second item's label is its second key, on the line JSON.parse read it from.
    const written = serializeRecord(record([fixture('a'), fixture('b')]));
    const edited = written.replace('"label": "b"', '"label": "b",\n      "label": "a"');
    expect(() => parseRecord(edited, 'r.json')).toThrow(`r.json: fixture label "a" appears twice, at fixtures.0.label (line ${lineOf(edited, 'a')}) and at fixtures.1.label (line ${lineOf(edited, 'a', 2)}): `);
  });

  it('rejects a record with two labels that differ only in case: no suite has them, and their baseline files would collide', () => {
    const text = serializeRecord(record([fixture('refund'), fixture('b'), fixture('Refund')]));
    expect(() => parseRecord(text, 'r.json')).toThrow(
      `r.json: fixture label "Refund" differs only in case from "refund", at fixtures.0.label (line ${lineOf(text, 'refund')}) and at fixtures.2.label (line ${lineOf(text, 'Refund')}): ${FIX}`,
    );
    // A script's label against a fixture's, in a file of one line (written by hand): the path, and that line.
    const flat = JSON.stringify(JSON.parse(serializeRecord(record([fixture('refund')], { personas: [persona('Refund')] }))) as unknown);
    expect(() => parseRecord(flat, 'r.json')).toThrow('r.json: persona script label "Refund" differs only in case from "refund", at fixtures.0.label (line 1) and at personas.0.label (line 1): ');
  });
});

describe('readRecord and writeRecord', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    while (dirs.length > 0) await rm(dirs.pop() as string, { recursive: true, force: true });
  });

  it('writes the record atomically (no temp file left) in a folder it creates, and reads it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-record-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'results.json');
    const r = record([fixture('a')]);
    await writeRecord(path, r);
    expect(await readdir(join(dir, 'nested'))).toEqual(['results.json']);
    expect(await readFile(path, 'utf8')).toBe(serializeRecord(r));
    expect(serializeRecord(r).endsWith('}\n')).toBe(true);
    expect(await readRecord(path)).toEqual(r);
  });

  it('a results.json committed on two branches and merged, git\'s conflict markers left in it, is said as a conflict, as a baseline\'s is: at its first line, with the lines to keep either side, and how many more follow (was the parser\'s "Expected double-quoted property name")', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-record-'));
    dirs.push(dir);
    const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', '-c', 'merge.conflictStyle=merge', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const path = join(dir, 'results.json');
    const text = serializeRecord(record([fixture('a'), fixture('b')]));
    git('init', '-q');
    await writeFile(path, text);
    git('add', 'results.json');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'feature');
    await writeFile(path, text.replace('"interrupted": false', '"interrupted": true').replace(/"label": "b"/, '"label": "c"'));
    git('commit', '-qam', 'feature');
    git('checkout', '-q', 'main');
    await writeFile(path, text.replace('"interrupted": false', '"interrupted": null').replace(/"label": "b"/, '"label": "d"'));
    git('commit', '-qam', 'main');
    expect(() => git('merge', '-q', 'feature')).toThrow();
    const lines = (await readFile(path, 'utf8')).split('\n');
    const open = lines.indexOf('<<<<<<< HEAD') + 1;
    const next = lines.indexOf('<<<<<<< HEAD', open) + 1;
    expect(open).toBeGreaterThan(0);
    expect(next).toBeGreaterThan(open);
    const err = await readRecord(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordError);
    expect((err as Error).message).toBe(
      `${path}: not valid JSON (a merge conflict left unresolved at line ${open} (git's <<<<<<< HEAD to >>>>>>> feature on line ${open + 4}), which JSON does not read; 1 more conflict after it, the next at line ${next}): keep one side: to keep the side marked HEAD (line ${open + 1}), delete lines ${open} and ${open + 2} to ${open + 4}; to keep the side marked feature (line ${open + 3}), delete lines ${open} to ${open + 2} and ${open + 4}, and the same side of each conflict after it; or take it again from where it was written (the run's --out, or its results artifact)`,
    );
    expect((err as Error).message).not.toContain('\n');
    quotedAndSaid((err as Error).message, "results.json: not valid JSON (a merge conflict left unresolved at line <n> (git's <<<<<<< HEAD to >>>>>>> feature on line <n>), which JSON does not read; 1 more conflict after it, the next at line <n>): keep one side: ...", { 'results.json': path });
  });

  it('a record longer than Node can hold as one string says so, with what makes one that large and the fix, not the bare ERR_STRING_TOO_LONG', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-record-'));
    dirs.push(dir);
    const path = join(dir, 'results.json');
    await writeFile(path, '');
    await truncate(path, 3 * 1_048_576); // sparse: nothing is written
    // The read Node does, at its limit (about 512 MiB, buffer.constants.MAX_STRING_LENGTH): no test writes that much.
    const atLimit = async (): Promise<string> => {
      throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), { code: 'ERR_STRING_TOO_LONG' });
    };
    const err = await readRecord(path, atLimit).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RecordError);
    expect((err as Error).message.startsWith(`${path}: is 3 MiB, more than Node can read as one text (about 512 MiB), so it cannot be read back. `)).toBe(true);
    // One unit with the limit it names (agent/http-client.ts): MiB.
    expect((err as Error).message).toContain('very long replies (each answer is read up to 8 MiB)');
    expect((err as Error).message).toContain('run --shard 1/4');
    expect((err as Error).message).not.toContain('ERR_STRING_TOO_LONG');
  });

  it('a missing file is a RecordError naming the file and the reason', async () => {
    await expect(readRecord('/nonexistent/results.json')).rejects.toThrow('/nonexistent/results.json: does not exist; give the path of a results.json written by agent-replay');
    // A line break in its name is shown on the message's one line (the Action's failure annotation quotes the message), the file kept as given.
    const err = await readRecord('/nonexistent/a\nb.json').catch((e: unknown) => e);
    expect((err as Error).message).toBe('/nonexistent/a ⏎ b.json: does not exist; give the path of a results.json written by agent-replay');
    expect((err as { file: string }).file).toBe('/nonexistent/a\nb.json');
  });

  it("a read that fails without a code quotes the system's words, the path in them, on the message's one line", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-record-'));
    dirs.push(dir);
    const path = join(dir, 'results.json');
    await writeRecord(path, record([fixture('a')]));
    // An error with no code (a stream's, a decoder's) whose message names the file as it is, a line break and an escape sequence in it.
    const named = 'out\nx\u001b[2J/results.json';
    const noCode = async (): Promise<string> => {
      throw new Error(`could not read ${named}`);
    };
    const err = await readRecord(path, noCode).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordError);
    expect((err as RecordError).why).toBe(String.raw`cannot be read (could not read out ⏎ x\u001b[2J/results.json)`);
    for (const c of ['\n', '\u001b']) expect((err as Error).message).not.toContain(c);
  });

  it('a symbolic link is refused and nothing of its target is read or quoted, even when the target is a valid record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-record-'));
    dirs.push(dir);
    const secret = join(dir, 'secret.txt');
    await writeFile(secret, 'TOKEN=ghp_do_not_quote_me\n');
    const real = join(dir, 'real.json');
    await writeRecord(real, record([fixture('a')]));
    for (const [link, target] of [[join(dir, 'results.json'), secret], [join(dir, 'linked.json'), real]] as const) {
      await symlink(target, link);
      const err = await readRecord(link).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RecordError);
      expect((err as Error).message).toBe(
        `${link}: is a symbolic link: refused, nothing was read from it (a results file may come from a pull request's artifact, and a link there could point at any file on the runner); give the file itself`,
      );
      expect((err as Error).message).not.toContain('ghp_');
      quotedAndSaid((err as Error).message, '<results file>: is a symbolic link: refused, nothing was read from it ...');
    }
    // The file itself is read as before.
    expect((await readRecord(real)).fixtures.map((f) => f.label)).toEqual(['a']);
  });

  it('a folder or a pipe is refused as not a regular file, without waiting on it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-replay-record-'));
    dirs.push(dir);
    await expect(readRecord(dir)).rejects.toThrow(`${dir}: is not a regular file: refused; give a results.json written by agent-replay`);
    const fifo = join(dir, 'results.json');
    execFileSync('mkfifo', [fifo]);
    await expect(readRecord(fifo)).rejects.toThrow(`${fifo}: is not a regular file`);
  });
});

describe('interrupted', () => {
  it('a record written before the field existed parses as not interrupted', () => {
    const r = record([fixture('a')]);
    const { interrupted: _dropped, ...older } = r;
    expect(parseRecord(JSON.stringify(older), 'old.json')).toEqual({ ...r, interrupted: false });
  });

  it('an interrupted record round-trips, and a merge of shards is interrupted when any shard was', () => {
    const cut = record([fixture('a')], { interrupted: true });
    expect(parseRecord(serializeRecord(cut), 'r.json').interrupted).toBe(true);
    expect(() => parseRecord(JSON.stringify({ ...cut, interrupted: 'yes' }), 'r.json')).toThrow(/interrupted/);
    expect(mergeRecords([record([fixture('b')]), cut]).interrupted).toBe(true);
    expect(mergeRecords([record([fixture('b')]), record([fixture('c')])]).interrupted).toBe(false);
  });
});

describe('mergeRecords', () => {
  it('concatenates shards, derives the tallies again, sums the estimate and spans the times', () => {
    const a = record([fixture('a'), fixture('b', { verdict: 'fail' })], {
      tallies: { passed: 99, failed: 0, notEvaluated: 0, errored: 0 },
      estimate: { usd: 0.04, capUsd: 0.1, aboveCap: false, confirmed: false },
    });
    const b = record([fixture('c', { verdict: 'not_evaluated' }), fixture('d', { errored: true, verdict: null, reply: null, drift: null })], {
      startedAt: '2026-12-01T09:59:00.000Z',
      finishedAt: '2026-12-01T10:01:00.000Z',
      estimate: { usd: 0.08, capUsd: 0.1, aboveCap: false, confirmed: false },
    });
    const merged = mergeRecords([a, b]);
    expect(merged.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'c', 'd']);
    expect(merged.tallies).toEqual({ passed: 1, failed: 1, notEvaluated: 1, errored: 1 });
    // Each shard's cap covered its own items: the run's is their sum (docs/action.md, "Shards").
    expect(merged.estimate).toEqual({ usd: 0.12, capUsd: 0.2, aboveCap: false, confirmed: false });
    expect(merged.startedAt).toBe('2026-12-01T09:59:00.000Z');
    expect(merged.finishedAt).toBe('2026-12-01T10:01:00.000Z');
    expect(merged.durationMs).toBe(120_000);
    // Pure: the shards are left as they were.
    expect(a.tallies.passed).toBe(99);
    expect(a.fixtures).toHaveLength(2);
  });

  it('one shard is returned as it is, with its tallies derived again', () => {
    const a = record([fixture('a'), fixture('b', { verdict: 'fail' })]);
    expect(mergeRecords([a])).toEqual({ ...a, tallies: { passed: 1, failed: 1, notEvaluated: 0, errored: 0 } });
  });

  it('rejects shards recorded at different commits, naming each', () => {
    const a = record([fixture('a')]);
    const b = record([fixture('b')], { commit: 'b'.repeat(40) });
    expect(() => mergeRecords([a, b], ['a.json', 'b.json'])).toThrow(
      `shards were recorded at different commits: the run a.json at ${'a'.repeat(40)} and the run b.json at ${'b'.repeat(40)}; merge shards of one run only: download one commit's shard artifacts, as the recipe (${docsUrl('action.md', 'Shards: one suite over a CI matrix')}) does with the pattern agent-replay-results-<commit>-shard-* (a suite in another folder names it before the commit)`,
    );
    expect(() => mergeRecords([a, record([fixture('c')], { commit: null })])).toThrow(/: record 1 at a{40} and record 2 at an unknown commit;/);
  });

  it('rejects overlapping shards, listing every fixture that is in two', () => {
    const a = record([fixture('a'), fixture('b')]);
    const b = record([fixture('b'), fixture('c')]);
    const c = record([fixture('a')]);
    expect(() => mergeRecords([a, b, c], ['x.json', 'y.json', 'z.json'])).toThrow(
      'runs overlap: 2 fixtures are in more than one run: "b" (the run x.json and the run y.json), "a" (the run x.json and the run z.json); these are runs of the same fixtures, not shards of one run: give one of them alone, or merge the shards of one run (run --shard 1/2, 2/2, ...)',
    );
  });

  it('counts overlapping items of 1,000 or more grouped, as every count (src/words.ts)', () => {
    const fixtures = Array.from({ length: 1_205 }, (_, i) => fixture(`f${i}`));
    expect(() => mergeRecords([record(fixtures), record(fixtures)], ['x.json', 'y.json'])).toThrow(/^runs overlap: 1,205 fixtures are in more than one run: .* and 1,200 more; these are runs of the same fixtures/);
  });

  it('refuses to merge nothing', () => {
    expect(() => mergeRecords([])).toThrow(/nothing to merge/);
  });
});

describe('persona scripts in the record', () => {
  const script = {
    label: 'refund',
    file: '.agent-replay/personas/refund.yml',
    line: 1,
    persona: null,
    turns: [
      { index: 0, message: null, reply: 'Welcome', route: null, offTrack: [], toolCalls: null, outcome: null, errors: [], durationMs: 1 },
      {
        index: 1,
        message: 'Order 1234',
        reply: 'Found it',
        route: { conversation: 'refunds', stage: 'lookup' },
        offTrack: [],
        toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: true }],
        outcome: 'finish',
        errors: [],
        durationMs: 2,
      },
    ],
    unsent: [],
    visited: ['refunds'],
    outcome: 'finish',
    checks: [
      { kind: 'toolCalled', expected: { tool: 'find_order', match: 'subset' }, observed: [], turn: 1, status: 'pass', detail: 'called find_order at turn 1' },
      { kind: 'criterion', expected: 'polite', observed: null, status: 'not_evaluated', detail: 'judge unreachable: x', score: null, threshold: 0.7, rationale: null },
    ],
    baseline: null,
    durationMs: 3,
    errored: false,
    error: null,
    errorKind: null,
    verdict: 'not_evaluated',
    drift: { transcript: null, route: null, verdict: 'no_baseline' },
  };

  it('a record written before personas existed parses with none', () => {
    const old = JSON.parse(serializeRecord(record([fixture('a')]))) as Record<string, unknown>;
    delete old.personas;
    expect(parseRecord(JSON.stringify(old), 'old.json').personas).toEqual([]);
  });

  it('a tool output recorded as JSON text by an older run reads as the value; other text stays text', () => {
    const turn = script.turns[1] as (typeof script.turns)[number];
    const call = (output: unknown) => ({ ...script, turns: [script.turns[0], { ...turn, toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output, mocked: false }] }] });
    const read = (output: unknown): unknown => parseRecord(JSON.stringify({ ...record([fixture('a')]), personas: [call(output)] }), 'old.json').personas[0]?.turns[1]?.toolCalls?.[0]?.output;
    expect(read('{"status": "delivered"}')).toEqual({ status: 'delivered' });
    expect(read(' [1, 2] ')).toEqual([1, 2]);
    expect(read('Order 1234 is delivered')).toBe('Order 1234 is delivered');
    expect(read('42')).toBe('42');
    expect(read('{not json}')).toBe('{not json}');
    expect(read({ status: 'delivered' })).toEqual({ status: 'delivered' });
  });

  it('a tool call input nesting 100,000 levels is refused with its path, before the schema (which would exhaust the stack); 256 levels read', () => {
    const turn = script.turns[1] as (typeof script.turns)[number];
    const marker = '"MARK"';
    const text = (input: string): string =>
      JSON.stringify({ ...record([fixture('a')]), personas: [{ ...script, turns: [script.turns[0], { ...turn, toolCalls: [{ tool: 'find_order', input: 'MARK', output: null, mocked: true }] }] }] }).replace(marker, input);
    const levels = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => parseRecord(text(levels(100_000)), 'r.json')).toThrow(
      'r.json: is not a valid agent-replay results file: personas.0.turns.1.toolCalls.0.input.0.0.0... nests deeper than 320 levels of lists and objects, which agent-replay never writes: expected a results.json written by agent-replay',
    );
    expect(parseRecord(text(levels(256)), 'r.json').personas[0]?.turns[1]?.toolCalls?.[0]?.input).toEqual(JSON.parse(levels(256)));
  });

  it("an errored script keeps the calls its failing turn's stream had begun; a record written before them reads without (docs/presets.md, \"Streamed replies\")", () => {
    const begun = [{ tool: 'refund', input: '{"amount": 1', output: null, mocked: true }];
    const errored = { ...script, errored: true, error: 'turn 2: the stream ended early: no message_stop event (anthropic stream, no text received, 1 tool call begun: refund)', errorKind: 'http', verdict: null, drift: null };
    const read = (p: unknown) => parseRecord(JSON.stringify({ ...record([fixture('a')]), personas: [p] }), 'r.json').personas[0];
    expect(read({ ...errored, errorToolCalls: begun })?.errorToolCalls).toEqual(begun);
    const older = read(errored);
    expect(older).toEqual(errored);
    expect(older).not.toHaveProperty('errorToolCalls');
    expect(() => read({ ...errored, errorToolCalls: [{ tool: 'refund' }] })).toThrow(/personas\.0\.errorToolCalls\.0\.input/);
  });

  it("a repeated fixture's errored attempt keeps the calls its cut stream had begun, a script's attempt likewise; older attempts read without", () => {
    const begun = [{ tool: 'refund', input: '{"amount": 1', output: null, mocked: true }];
    const attempt = { errored: true, error: 'message turn: the stream ended early', errorKind: 'http', reply: null, route: null, verdict: null, detail: 'the stream ended early', score: null, rationale: null, durationMs: 3 };
    const repeated = { ...fixture('a'), repeat: { count: 2, minPass: 1, passed: 1, flaky: true }, attempts: [{ ...attempt, toolCalls: begun }, attempt] };
    const scriptAttempt = { errored: true, error: 'turn 1: the stream ended early', errorKind: 'http', verdict: null, turns: [], unsent: ['hi'], visited: [], outcome: null, checks: [], durationMs: 3 };
    const repeatedScript = { ...script, repeat: { count: 2, minPass: 1, passed: 1, flaky: true }, attempts: [{ ...scriptAttempt, errorToolCalls: begun }, scriptAttempt] };
    const read = parseRecord(JSON.stringify({ ...record([repeated as FixtureRecord]), personas: [repeatedScript] }), 'r.json');
    expect(read.fixtures[0]?.attempts?.map((a) => a.toolCalls)).toEqual([begun, undefined]);
    expect(read.personas[0]?.attempts?.map((a) => a.errorToolCalls)).toEqual([begun, undefined]);
    expect(read.fixtures[0]?.attempts?.[1]).toEqual(attempt);
  });

  it('round-trips a script; an errored script with a verdict, or a label shared with a fixture, is rejected', () => {
    const text = JSON.stringify({ ...record([fixture('a')]), personas: [script] });
    expect(parseRecord(text, 'r.json').personas).toEqual([script]);
    const errored = { ...script, errored: true, error: 'turn 2: HTTP 500', errorKind: 'http' };
    expect(() => parseRecord(JSON.stringify({ ...record([]), personas: [errored] }), 'r.json')).toThrow(/personas\.0\.verdict: an errored persona script has no verdict/);
    expect(() => parseRecord(JSON.stringify({ ...record([fixture('refund')]), personas: [script] }), 'r.json')).toThrow('r.json: persona script label "refund" appears twice');
  });
});

describe('latency (docs/latency.md)', () => {
  it('a merge of shards takes p50 / p95 again over every merged message turn, not the shards own figures', () => {
    const one = record([fixture('a', { latencyMs: 100 }), fixture('b', { latencyMs: 300 })], { latency: { turns: 2, p50Ms: 100, p95Ms: 300 } });
    const two = record([fixture('c', { latencyMs: 200 }), fixture('d', { latencyMs: 900 })], { latency: { turns: 2, p50Ms: 200, p95Ms: 900 } });
    expect(mergeRecords([one, two]).latency).toEqual({ turns: 4, p50Ms: 200, p95Ms: 900 });
    // Shards that measured nothing merge into a record with no latency figure.
    expect(mergeRecords([record([fixture('e')]), record([fixture('f')], { latency: null })]).latency).toBeUndefined();
  });

  it('refuses a negative latency, naming the field', () => {
    const bad = record([fixture('a', { latencyMs: -5 })]);
    expect(() => parseRecord(serializeRecord(bad), 'r.json')).toThrow(/latencyMs/);
  });
});

describe('usage (docs/latency.md, "Usage")', () => {
  it('a merge of shards sums every merged item, whatever the shards said; none reported anywhere: no run figure', () => {
    const one = record([fixture('a', { usage: { inputTokens: 100, outputTokens: 10 } }), fixture('b', { usage: null })], { usage: { inputTokens: 1, outputTokens: 1 } });
    const two = record([fixture('c', { usage: { inputTokens: 50, outputTokens: 5 } })]);
    expect(mergeRecords([one, two]).usage).toEqual({ inputTokens: 150, outputTokens: 15 });
    expect(mergeRecords([record([fixture('e', { usage: null })]), record([fixture('f')])]).usage).toBeUndefined();
  });

  it('refuses a usage that is not whole non-negative counts, naming the field', () => {
    const bad = record([fixture('a', { usage: { inputTokens: 1.5, outputTokens: 2 } })]);
    expect(() => parseRecord(serializeRecord(bad), 'r.json')).toThrow(/usage/);
    const good = record([fixture('a', { usage: { inputTokens: 1, outputTokens: 2 } })]);
    expect(parseRecord(serializeRecord(good), 'r.json').fixtures[0]?.usage).toEqual({ inputTokens: 1, outputTokens: 2 });
  });
});
