// The evaluation fields of a record (docs/evaluations.md, "What defined each item"): optional
// (older records parse), validated, and merged across shards.

import { describe, expect, it } from 'vitest';
import { mergeRecords, parseRecord, serializeRecord } from '../../src/record/index.js';
import { fixture, route, run } from '../report/fixtures.js';

describe('evaluation fields in results.json', () => {
  it('a record without them (written before they existed) still parses', () => {
    const old = run([fixture('a')]);
    const parsed = parseRecord(serializeRecord(old), 'old.json');
    expect(parsed.coverage).toBeUndefined();
    expect(parsed.fixtures[0]?.definitionHash).toBeUndefined();
  });

  it('with them, they round-trip; a malformed fingerprint is refused naming the field', () => {
    const rec = run([fixture('a', { definitionHash: '0123456789abcdef', judgeFingerprint: { model: 'openai/m', promptVersion: '1', criteria: [{ criterion: 'c', threshold: 0.5 }] } })], {
      coverage: { listed: ['a'], visited: [], gaps: ['a'], unknown: [] },
      selection: { rerunOf: 'prev.json', only: null, labels: ['a'] },
    });
    expect(parseRecord(serializeRecord(rec), 'r.json')).toEqual(rec);
    const bad = JSON.parse(serializeRecord(rec)) as { fixtures: { judgeFingerprint: unknown }[] };
    (bad.fixtures[0] as { judgeFingerprint: unknown }).judgeFingerprint = { model: 'm' };
    expect(() => parseRecord(JSON.stringify(bad), 'r.json')).toThrow(/fixtures\.0\.judgeFingerprint/);
  });

  it('merging shards takes coverage again over all their items and joins the selections', () => {
    const listed = ['billing', 'refunds', 'shipping'];
    // Lines given: the helper's shared counter wraps (test/report/fixtures.ts), and the merge keeps suite order.
    const a = run([fixture('a', { route: route('billing', 'x'), line: 2 })], { coverage: { listed, visited: ['billing'], gaps: ['refunds', 'shipping'], unknown: [] }, selection: { rerunOf: 'p.json', only: null, labels: ['a'] } });
    const b = run([fixture('b', { route: route('conversations:refunds', 'y'), line: 6 })], { coverage: { listed, visited: ['conversations:refunds'], gaps: ['billing', 'shipping'], unknown: [] }, selection: { rerunOf: 'p.json', only: null, labels: ['b'] } });
    const merged = mergeRecords([a, b]);
    expect(merged.coverage).toEqual({ listed, visited: ['billing', 'conversations:refunds'], gaps: ['shipping'], unknown: [] });
    expect(merged.selection).toEqual({ rerunOf: 'p.json', only: null, labels: ['a', 'b'] });
    expect(mergeRecords([run([fixture('a')]), run([fixture('b')])]).coverage).toBeUndefined();
  });
});
