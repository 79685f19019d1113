// The one builder of a fixture's record for the tests: an answered fixture with every field set; a
// test overrides what it is about (`base` first, for a file's or a helper's own defaults, then `over`).
import type { FixtureRecord } from '../../src/types.js';

export const fixtureRecord = (over: Partial<FixtureRecord>, base: Partial<FixtureRecord> = {}): FixtureRecord =>
  ({
    label: 'f',
    file: 'f.yml',
    line: 1,
    message: 'm',
    persona: null,
    assertion: null,
    errored: false,
    error: null,
    errorKind: null,
    reply: 'r',
    route: null,
    verdict: 'pass',
    detail: '',
    score: null,
    threshold: null,
    rationale: null,
    drift: { reply: null, route: null, verdict: 'no_baseline' },
    baseline: null,
    durationMs: 1,
    ...base,
    ...over,
  }) as FixtureRecord;
