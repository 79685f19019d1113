import { describe, expect, it } from 'vitest';
import { acceptanceKind, decideAcceptance, decidePersonaAcceptance, personaAcceptanceKind } from '../../src/evaluate/index.js';
import { buildModel } from '../../src/report/model.js';
import { renderComment } from '../../src/report/markdown.js';
import { newResultsToAccept } from '../../src/report/to-accept.js';
import type { FixtureAttempt } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';
import { baseline, ctx, decisiveScript, hostilePersona, mixed, mixedMany, persona, personaBaseline, personaScripts, refundTurns, simulatedScripts } from './fixtures.js';

// The terminal's next step after a run (docs/cli.md, "What each command does") counts what the
// comment's "To accept" line counts, on the terminal summary's model, building no view into it.
describe('newResultsToAccept', () => {
  it('counts what the comment\'s To accept line counts', () => {
    const run = mixed();
    const said = /\*\*To accept\*\* the ([\d,]+) new or changed pass\/fail results/.exec(renderComment(run, ctx));
    expect(said).not.toBeNull();
    expect(newResultsToAccept(run)).toBe(Number(said![1]!.replace(/,/g, '')));
  });

  it('keeps no view of its own in the model it is given (a view per item of a large run raised the 20,000-fixture peak RSS by 20 MB)', () => {
    const run = mixedMany(600);
    const model = buildModel(run);
    const before = model.views.size;
    const n = newResultsToAccept(run, model);
    expect(n).toBeGreaterThan(0);
    expect(n).toBe(newResultsToAccept(run));
    expect(model.views.size).toBe(before);
  });

  it('counts with acceptanceKind, which is decideAcceptance\'s kind for every fixture, new ones and changed replies included', () => {
    const attempt = (reply: string): FixtureAttempt => ({ errored: false, error: null, errorKind: null, reply, route: null, verdict: 'pass', detail: '', score: null, rationale: null, latencyMs: 10, durationMs: 10 });
    const records = [
      ...mixed().fixtures,
      ...mixedMany(200).fixtures,
      fixtureRecord({ label: 'new-pass', baseline: null, verdict: 'pass', reply: 'Refunds within 30 days.' }),
      fixtureRecord({ label: 'new-errored', baseline: null, errored: true, verdict: null, reply: null }),
      fixtureRecord({ label: 'new-not-evaluated', baseline: null, verdict: 'not_evaluated', reply: 'hi' }),
      // A repeated new item whose attempts differ (no meaning recorded): refused, so not counted.
      fixtureRecord({ label: 'new-repeat', baseline: null, verdict: 'pass', reply: 'Refunds within 30 days.', attempts: [attempt('Refunds within 30 days.'), attempt('No refunds at all.')] }),
      // A reply that is not its baseline's is never unchanged: accepted, or refused for the same reasons as a new one's.
      fixtureRecord({ label: 'changed-not-evaluated', baseline: baseline('changed-not-evaluated', 'Refunds within 30 days.'), verdict: 'not_evaluated', reply: 'Refunds within 14 days.' }),
      fixtureRecord({ label: 'changed-repeat', baseline: baseline('changed-repeat', 'Refunds within 30 days.'), verdict: 'pass', reply: 'Refunds within 14 days.', attempts: [attempt('Refunds within 14 days.'), attempt('No refunds at all.')] }),
      fixtureRecord({ label: 'changed-errored', baseline: baseline('changed-errored', 'Refunds within 30 days.'), errored: true, verdict: null, reply: null }),
    ];
    const kinds = new Set<string>();
    for (const r of records) {
      const kind = decideAcceptance(r, '', null).kind;
      kinds.add(`${r.baseline === null ? 'new' : 'baseline'} ${kind}`);
      expect(acceptanceKind(r, null), r.label).toBe(kind);
    }
    // Every branch the fast path takes or leaves is among the records.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['baseline accept', 'baseline refuse', 'baseline unchanged', 'new accept', 'new refuse']));
  });

  it("counts scripts with personaAcceptanceKind, which is decidePersonaAcceptance's kind for every script, new ones and changed transcripts included", () => {
    const { script: repeated } = decisiveScript(() => 'the check failed');
    const turns = refundTurns();
    const other = turns.map((t, i) => (i === 1 ? { ...t, reply: 'Tell me your order number.' } : t));
    const records = [
      ...personaScripts(),
      ...simulatedScripts(),
      ...(hostilePersona().personas ?? []),
      persona('new-pass', { baseline: null }),
      persona('new-fail', { baseline: null, verdict: 'fail' }),
      persona('new-not-evaluated', { baseline: null, verdict: 'not_evaluated' }),
      persona('new-errored', { baseline: null, errored: true, verdict: null }),
      // A repeated script whose attempts differ (no meaning recorded): refused, new or against a baseline.
      repeated,
      { ...repeated, label: 'changed-repeat', baseline: personaBaseline('changed-repeat', other) },
      // A transcript that is not its baseline's is never unchanged: accepted, or refused for the same reasons as a new one's.
      persona('changed-pass', { turns: other, baseline: personaBaseline('changed-pass', turns) }),
      persona('changed-not-evaluated', { turns: other, verdict: 'not_evaluated', baseline: personaBaseline('changed-not-evaluated', turns) }),
      persona('changed-route', { turns: turns.map((t, i) => (i === 2 ? { ...t, route: null } : t)), baseline: personaBaseline('changed-route', turns) }),
      persona('fewer-turns', { turns: turns.slice(0, 2), baseline: personaBaseline('fewer-turns', turns) }),
      persona('now-failing', { verdict: 'fail', baseline: personaBaseline('now-failing', turns) }),
    ];
    const kinds = new Set<string>();
    for (const r of records) {
      const kind = decidePersonaAcceptance(r, '', null).kind;
      kinds.add(`${r.baseline === null ? 'new' : 'baseline'} ${kind}`);
      expect(personaAcceptanceKind(r, null), r.label).toBe(kind);
    }
    // Every branch the fast path takes or leaves is among the records.
    expect([...kinds].sort()).toEqual(['baseline accept', 'baseline refuse', 'baseline unchanged', 'new accept', 'new refuse']);
  });
});
