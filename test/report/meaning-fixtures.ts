// A run whose replies differ from their baselines with every meaning (docs/meaning.md): formatting,
// a known variant, reworded by the judge, changed by facts and by the judge, not checked, no
// meaning (check off), a slower reworded item, and two persona scripts (one changed at turn 3, one
// reworded). Shared by the report and CLI tests of meaning.

import type { FixtureRecord, Meaning, PersonaRecord, RunRecord } from '../../src/types.js';
import { baseline, fixture, persona, personaBaseline, refundTurns, resetLines, route, run, turn } from './fixtures.js';

/** A fixture whose reply differs from its baseline reply, with this meaning. */
export function differing(label: string, before: string, now: string, meaning: Meaning | null, over: Partial<FixtureRecord> = {}): FixtureRecord {
  return fixture(label, {
    reply: now,
    baseline: baseline(label, before),
    drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning },
    ...over,
  } as Partial<FixtureRecord>);
}

export const JUDGE_DIFFERENCE = 'The new reply says refunds need a receipt <b>@admin</b> | `x`';

export function scriptChangedAtTurn3(): PersonaRecord {
  // The baseline's turn 3 says the 50 its meaning names ("numbers 50 → 90"), so the diff shown reads as the line says.
  const turns = refundTurns().map((t) => (t.index === 3 ? { ...t, reply: "I'm sorry it arrived broken. A colleague will refund 50 EUR within 5 days." } : t));
  const base = personaBaseline('refund-dialog', turns);
  const now = turns.map((t) =>
    t.index === 3
      ? turn(3, t.message, "I'm sorry it arrived broken. A colleague will refund 90 EUR within 5 days.", route('handoff', 'queue'), {
          outcome: 'handoff',
          meaning: { value: 'changed', by: 'facts', detail: 'numbers 50 → 90', facts: { baseline: [{ kind: 'number', value: '50' }], now: [{ kind: 'number', value: '90' }] } },
        })
      : t.index === 1
        ? turn(1, t.message, 'Sorry to hear that. What is your order number?', t.route, { meaning: { value: 'reworded', by: 'judge', detail: null, score: 0.95 } })
        : t,
  );
  return persona('refund-dialog', {
    turns: now,
    baseline: base,
    drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail: 'turn 3 changed in meaning: numbers 50 → 90' } },
  } as Partial<PersonaRecord>);
}

export function scriptReworded(): PersonaRecord {
  const turns = refundTurns();
  const base = personaBaseline('greeting-dialog', turns);
  const now = turns.map((t) => (t.index === 0 ? turn(0, null, 'Hello! Shop Bot here. How can I help?', t.route, { meaning: { value: 'reworded', by: 'judge', detail: null, score: 0.91 } }) : t));
  return persona('greeting-dialog', {
    turns: now,
    baseline: base,
    drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'reworded', by: 'judge', detail: 'turn 0 reworded', score: 0.91 } },
  } as Partial<PersonaRecord>);
}

export function meaningRun(): RunRecord {
  resetLines();
  return run(
    [
      differing('refund-window', 'Refunds are accepted within 30 days.', 'You can return items within 14 days for a full refund.', {
        value: 'changed',
        by: 'facts',
        detail: 'numbers 30 → 14',
        facts: { baseline: [{ kind: 'number', value: '30' }], now: [{ kind: 'number', value: '14' }] },
      }),
      differing('receipt-needed', 'You can return any item without a receipt.', 'Returns need a receipt.', { value: 'changed', by: 'judge', detail: JUDGE_DIFFERENCE, score: 0.2 }),
      differing('store-hours', 'We are open every day.', 'Our shops open daily.', { value: 'unchecked', by: null, detail: 'meaning judge unreachable: no answer from the meaning judge within 30,000 ms' }),
      differing('check-off', 'Delivery is free.', 'Shipping costs nothing.', null),
      differing('bold-greeting', 'Hello, **welcome** to Shop Bot!', 'Hello, welcome to Shop Bot', { value: 'formatting', by: 'normalize', detail: null }),
      differing('known-wording', 'We ship worldwide.', 'We deliver all over the world.', { value: 'variant', by: 'variant', detail: null }),
      differing('reworded-by-judge', 'Our support team answers within a day.', 'Expect an answer from support by tomorrow.', { value: 'reworded', by: 'judge', detail: null, score: 0.93 }),
      // Same wording but slower: stays in Changed.
      differing('slow-reworded', 'Gift cards never expire.', 'Gift cards do not expire.', { value: 'reworded', by: 'judge', detail: null, score: 0.9 }, { latencyMs: 2900, slower: { baselineMs: 1200, latencyMs: 2900 } } as Partial<FixtureRecord>),
      fixture('unchanged-faq'),
    ],
    { personas: [scriptChangedAtTurn3(), scriptReworded()], meaning: { check: 'judge', model: 'gpt-4.1-mini', promptVersion: 'meaning-1' } },
  );
}

