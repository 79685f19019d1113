// Accepting a fixture whose message (or persona tag) was edited since its baseline (docs/meaning.md,
// "An edited fixture"): the baseline's reply answered another message, so nothing of it is carried
// (no variants, no tally); the accepted baseline keeps the message it answers. A baseline accepted
// before messages were kept reads as before and is not rewritten only to add one.

import { describe, expect, it } from 'vitest';
import { decideAcceptance } from '../../src/evaluate/index.js';
import type { Baseline, FixtureRecord, Meaning } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const NOW = '2026-12-03T10:00:00.000Z';
const REWORDED: Meaning = { value: 'reworded', by: 'judge', detail: null, score: 0.9, reused: false };
const stored = (over: Partial<Baseline> = {}): Baseline => ({
  label: 'policy',
  message: 'What is your refund window?',
  reply: 'Refunds are accepted within a month of delivery.',
  variants: ['You may get a refund within a month.'],
  route: null,
  verdict: 'pass',
  attempts: { passed: 3, total: 3 },
  acceptedAt: '2026-11-01T10:00:00.000Z',
  commit: null,
  ...over,
});
const record = (b: Baseline, over: Partial<FixtureRecord> = {}): FixtureRecord =>
  fixtureRecord(over, {
    label: 'policy',
    message: 'How long does shipping take?',
    reply: 'Shipping usually takes about a week.',
    baseline: b,
    // A record whose meaning read "reworded" against the old question's reply (as a run before the
    // baseline kept its message, or a hand-edited record, would have it).
    drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: REWORDED },
  });

describe('accepting a fixture edited since its baseline', () => {
  it('writes the new reply with its message, carrying no variant and no tally of the reply to the old message', () => {
    const d = decideAcceptance(record(stored()), NOW, null);
    expect(d.kind).toBe('accept');
    if (d.kind !== 'accept') return;
    expect(d.baseline).toMatchObject({ message: 'How long does shipping take?', reply: 'Shipping usually takes about a week.' });
    expect(d.baseline.variants).toBeUndefined();
    expect(d.baseline.attempts).toBeUndefined();
  });

  it('an edited persona tag is another message too; a fixture with a persona keeps it', () => {
    const b = stored({ message: 'How long does shipping take?', persona: 'new-customer' });
    const d = decideAcceptance(record(b, { persona: 'returning-customer' }), NOW, null);
    expect(d.kind).toBe('accept');
    if (d.kind !== 'accept') return;
    expect(d.baseline).toMatchObject({ message: 'How long does shipping take?', persona: 'returning-customer' });
    expect(d.baseline.variants).toBeUndefined();
  });

  it('the same message carries the variants of a reworded reply as before', () => {
    const d = decideAcceptance(record(stored({ message: 'How long does shipping take?' })), NOW, null);
    expect(d.kind === 'accept' ? d.baseline.variants : null).toEqual(['Refunds are accepted within a month of delivery.', 'You may get a refund within a month.']);
  });

  it('a baseline accepted before messages were kept carries as before, and the same reply leaves it unchanged', () => {
    const { message: _none, ...older } = stored();
    const d = decideAcceptance(record(older), NOW, null);
    expect(d.kind === 'accept' ? d.baseline.variants : null).toEqual(['Refunds are accepted within a month of delivery.', 'You may get a refund within a month.']);
    const same = { ...older, variants: undefined, attempts: undefined };
    const again = decideAcceptance(record(same, { reply: same.reply, drift: { reply: 'same', route: 'same', verdict: 'still_passing' } }), NOW, null);
    expect(again).toEqual({ kind: 'unchanged' });
  });

  it('the same reply word for word to an edited message is unchanged: not rewritten only to keep the new message', () => {
    const b = stored({ reply: 'Shipping usually takes about a week.', variants: undefined, attempts: undefined });
    expect(decideAcceptance(record(b, { drift: { reply: 'same', route: 'same', verdict: 'still_passing' } }), NOW, null)).toEqual({ kind: 'unchanged' });
    // Rewritten for another reason (the verdict), it keeps the message it answers now.
    const d = decideAcceptance(record(b, { verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } }), NOW, null);
    expect(d.kind === 'accept' ? d.baseline.message : null).toBe('How long does shipping take?');
    // A judge result under another fingerprint is rewritten, as for any same reply (a stale one is never reused).
    const fingerprint = (model: string) => ({ model, promptVersion: '3', criteria: [{ criterion: 'c', threshold: 0.5 }] });
    const judged = { ...b, judge: { score: 0.9, rationale: 'ok', fingerprint: fingerprint('m1') } };
    const rejudged = decideAcceptance(record(judged, { score: 0.8, rationale: 'ok', judgeFingerprint: fingerprint('m2'), drift: { reply: 'same', route: 'same', verdict: 'still_passing' } }), NOW, null);
    expect(rejudged.kind === 'accept' ? [rejudged.baseline.message, rejudged.baseline.judge?.fingerprint.model] : rejudged).toEqual(['How long does shipping take?', 'm2']);
  });
});
