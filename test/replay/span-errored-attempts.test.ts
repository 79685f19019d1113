// Repeats (docs/meaning.md, "Repeats") with an attempt errored by its spans (docs/traces.md,
// "Fixtures"): such an attempt keeps the reply it answered with, but it is errored, so it is neither
// attempt 1's reference reply nor given a meaning against it.
import { describe, expect, it } from 'vitest';
import { fixtureAttemptMeanings } from '../../src/replay/fixture.js';
import type { Fixture } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const fixture = { label: 'f', message: 'm', persona: null } as unknown as Fixture;
const rung = { check: 'judge' as const, threshold: 0.8, ask: null };

describe('meanings of attempts, one errored by its spans', () => {
  it('measures the attempts against the first that did not error; the errored one gets none', async () => {
    const spanErrored = fixtureRecord({ errored: true, error: 'message turn: the agent reported an error', errorKind: 'agent_error', reply: 'Order  1234 ships today.', verdict: null, drift: null });
    const first = fixtureRecord({ reply: 'Order 1234 ships today.' });
    const third = fixtureRecord({ reply: 'Order 1234 ships  today.' });
    const meanings = await fixtureAttemptMeanings(fixture, [spanErrored, first, third], rung);
    expect(meanings[0]).toBeNull();
    expect(meanings[1]).toBeNull();
    expect(meanings[2]).toMatchObject({ value: 'formatting', by: 'normalize' });
  });
});
