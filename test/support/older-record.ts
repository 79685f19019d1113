// A repeated fixture as an older agent-replay recorded it (src/evaluate/older-records.ts;
// docs/results-json.md, "Records of an older agent-replay"): what its readers are tested with.

import { combineFixtureAttempts } from '../../src/evaluate/index.js';
import type { FixtureRecord } from '../../src/types.js';
import { baseline, fixture } from '../report/fixtures.js';

export const STORED = 'Returns are accepted within 30 days of delivery.';
export const OTHER = 'You can send it back within 30 days after it arrives.';
export const repeat = { count: 3, minPass: 3 };

/** One attempt of the `refund` fixture against STORED, as replay/fixture.ts records it with meaning.check off. */
export function attempt(reply: string): FixtureRecord {
  return fixture('refund', { reply, baseline: baseline('refund', STORED), drift: { reply: reply === STORED ? 'same' : 'different', route: 'same', verdict: 'still_passing', meaning: null } });
}

/** The record today's run makes of these attempts (meaning off: no attempt compared), and the one the run before the fix made: the same without the item's meaning. */
export function fixtureRecords(replies: string[]): { now: FixtureRecord; old: FixtureRecord } {
  const b = baseline('refund', STORED);
  const now = combineFixtureAttempts(replies.map(attempt), repeat, b, replies.map(() => null));
  const { meaning: _, ...drift } = now.drift as NonNullable<FixtureRecord['drift']>;
  return { now, old: { ...now, drift } as FixtureRecord };
}
