// Agreement (docs/evaluations.md, "Agreement"): passed / (passed + failed); not evaluated and
// errored beside it, never in the denominator; per conversation, per file, per persona tag.
// Coverage with the prefix rule.

import { describe, expect, it } from 'vitest';
import { agreement, agreementOf, agreementReport, coverage, coverageChange, formatAgreement, runCoverage, runVisited } from '../../src/evaluate/index.js';
import { fixture, persona, personaBaseline, refundTurns, route, run, turn } from '../report/fixtures.js';
import type { FixtureRecord } from '../../src/types.js';

type Over = Record<string, unknown>;
const failed = (label: string, over: Over = {}): FixtureRecord => fixture(label, { verdict: 'fail', ...over } as Partial<FixtureRecord>);
const notEvaluated = (label: string, over: Over = {}): FixtureRecord => fixture(label, { verdict: 'not_evaluated', ...over } as Partial<FixtureRecord>);
const errored = (label: string, over: Over = {}): FixtureRecord =>
  fixture(label, { errored: true, error: 'timed out', errorKind: 'timeout', reply: null, route: null, verdict: null, drift: null, ...over } as Partial<FixtureRecord>);

describe('agreement arithmetic', () => {
  it('is passed / (passed + failed); not evaluated and errored are beside it, not in the denominator', () => {
    const a = agreement([fixture('a'), fixture('b'), failed('c'), notEvaluated('d'), notEvaluated('e'), errored('f')]);
    expect(a).toEqual({ passed: 2, failed: 1, notEvaluated: 2, errored: 1, total: 6, percent: (2 / 3) * 100 });
    expect(formatAgreement(a)).toBe('66.7%');
  });

  it('adding not evaluated or errored items never moves the percentage', () => {
    const base = agreement([fixture('a'), failed('b'), failed('c'), failed('d')]);
    const more = agreement([fixture('a'), failed('b'), failed('c'), failed('d'), notEvaluated('e'), errored('f'), errored('g')]);
    expect(base.percent).toBe(25);
    expect(more.percent).toBe(25);
    expect(more.total).toBe(7);
  });

  it('is n/a (null) when nothing passed or failed: no items, or only not evaluated and errored', () => {
    expect(agreement([])).toEqual({ passed: 0, failed: 0, notEvaluated: 0, errored: 0, total: 0, percent: null });
    const a = agreement([notEvaluated('a'), errored('b')]);
    expect(a.percent).toBeNull();
    expect(a.total).toBe(2);
    expect(formatAgreement(a)).toBe('n/a');
  });

  it('0% and 100% are numbers, not n/a', () => {
    expect(agreementOf({ passed: 0, failed: 3, notEvaluated: 1, errored: 0 }).percent).toBe(0);
    expect(formatAgreement(agreementOf({ passed: 0, failed: 3, notEvaluated: 1, errored: 0 }))).toBe('0%');
    expect(formatAgreement(agreementOf({ passed: 4, failed: 0, notEvaluated: 0, errored: 9 }))).toBe('100%');
  });

  it('never rounds to 100% with an item failed, nor to 0% with an item passed', () => {
    expect(formatAgreement(agreementOf({ passed: 1999, failed: 1, notEvaluated: 0, errored: 0 }))).toBe('>99.9%');
    expect(formatAgreement(agreementOf({ passed: 1, failed: 2999, notEvaluated: 0, errored: 0 }))).toBe('<0.1%');
    expect(formatAgreement(agreementOf({ passed: 999, failed: 1, notEvaluated: 0, errored: 0 }))).toBe('99.9%');
  });

  it('counts a persona script as one item like a fixture', () => {
    const a = agreement([fixture('a'), persona('p', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } })]);
    expect([a.passed, a.failed, a.percent]).toEqual([1, 1, 50]);
  });
});

describe('agreement per group', () => {
  it('per conversation: the baseline route first, else the reply route; the prefix is dropped', () => {
    const b = fixture('moved', { route: route('conversations:billing', 'x') });
    const movedBaseline = { ...b.baseline!, route: route('conversations:refunds', 'y') };
    const items = [
      { ...b, verdict: 'fail', baseline: movedBaseline } as FixtureRecord, // counts in refunds (its baseline's)
      fixture('r', { route: route('refunds', 'a'), baseline: null }), // reply route: refunds
      errored('e', { baseline: null }), // no route, no baseline: in no conversation group
      errored('eb'), // errored with a baseline: the baseline's conversation (main)
    ];
    const report = agreementReport(run(items));
    expect(report.byConversation.map((g) => [g.key, g.passed, g.failed, g.errored, g.percent])).toEqual([
      ['main', 0, 0, 1, null],
      ['refunds', 1, 1, 0, 50],
    ]);
  });

  it('per conversation: a script counts once in each conversation it visited (its baseline first)', () => {
    const turns = refundTurns(); // main, refunds, refunds, handoff
    const p = persona('p', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } });
    const q = persona('q', { baseline: null, turns: [turn(1, 'hi', 'hello', route('conversations:faq', 'x'))], visited: ['conversations:faq'] });
    const report = agreementReport(run([], { personas: [p, q] }));
    expect(report.byConversation.map((g) => [g.key, g.passed, g.failed])).toEqual([
      ['faq', 1, 0],
      ['handoff', 0, 1],
      ['main', 0, 1],
      ['refunds', 0, 1],
    ]);
    expect(personaBaseline('p', turns).visited).toEqual(['main', 'refunds', 'handoff']);
  });

  it('per fixture file and per persona tag (untagged items in no tag group)', () => {
    const items = [
      fixture('a', { file: 'f/one.yml', persona: 'angry' }),
      failed('b', { file: 'f/one.yml', persona: 'angry' }),
      notEvaluated('c', { file: 'f/two.yml', persona: null }),
    ];
    const report = agreementReport(run(items, { personas: [persona('p', { file: 'p/s.yml', persona: 'calm' })] }));
    expect(report.byFile.map((g) => [g.key, g.percent, g.notEvaluated])).toEqual([
      ['f/one.yml', 50, 0],
      ['f/two.yml', null, 1],
      ['p/s.yml', 100, 0],
    ]);
    expect(report.byPersona.map((g) => [g.key, g.total])).toEqual([
      ['angry', 2],
      ['calm', 1],
    ]);
    expect(report.overall.total).toBe(4);
  });
});

describe('coverage', () => {
  it('gaps are listed and never visited; unknowns are visited and not listed; the conversations: prefix matches', () => {
    const c = coverage(['refunds', 'conversations:billing', 'shipping'], ['conversations:refunds', 'billing', 'smalltalk']);
    expect(c).toEqual({
      listed: ['refunds', 'conversations:billing', 'shipping'],
      visited: ['conversations:refunds', 'billing', 'smalltalk'],
      gaps: ['shipping'],
      unknown: ['smalltalk'],
    });
  });

  it('visits every item and every turn, the welcome included, but not baselines or errored replies', () => {
    const items = [fixture('a', { route: route('billing', 'x') }), fixture('b', { route: null }), errored('e')];
    const p = persona('p'); // main (welcome), refunds, handoff
    const visited = runVisited(run(items, { personas: [p] }));
    expect(visited).toEqual(['billing', 'main', 'refunds', 'handoff']);
    const c = runCoverage(['main', 'refunds', 'handoff', 'billing', 'shipping'], run(items, { personas: [p] }));
    expect(c?.gaps).toEqual(['shipping']);
    expect(c?.unknown).toEqual([]);
    expect(runCoverage(null, run(items))).toBeNull();
  });

  it('an empty run leaves every listed conversation a gap', () => {
    expect(runCoverage(['a', 'b'], run([]))?.gaps).toEqual(['a', 'b']);
  });

  it('the change between two runs: new and closed gaps, new and gone unknowns (prefix rule)', () => {
    const before = coverage(['a', 'b', 'c'], ['a', 'x']);
    const after = coverage(['a', 'b', 'c'], ['conversations:b', 'y']);
    expect(coverageChange(before, after)).toEqual({ newGaps: ['a'], closedGaps: ['b'], newUnknown: ['y'], goneUnknown: ['x'] });
  });

  it('a gap taken off the list is not closed: only a gap visited now is', () => {
    const before = coverage(['refunds', 'handoff', 'shipping'], ['refunds']);
    const after = coverage(['refunds', 'handoff'], ['refunds', 'conversations:handoff']);
    expect(coverageChange(before, after).closedGaps).toEqual(['handoff']);
  });
});
