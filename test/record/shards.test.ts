// Shards (docs/action.md, "Report: combine shards, or comment for a fork"): merging shard records
// checks that every shard of one suite is there; a missing or a foreign shard makes the merge
// incomplete, never "removed" items; the gate fails unless allowed.

import { beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mergeRecords, parseRecord, readRecord, serializeRecord, writeRecord } from '../../src/record/index.js';
import { compareRuns, gateMerged } from '../../src/evaluate/index.js';
import { selectShard } from '../../src/evaluate/shard.js';
import type { RunRecord, ShardInfo, SuiteEdits } from '../../src/types.js';
import { renderJUnit, renderMarkdownReport, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { renderCompareMarkdown, renderCompareText } from '../../src/report/compare.js';
import { fixture, persona, resetLines, run } from '../report/fixtures.js';
import { tempDir } from '../support/temp.js';

const SUITE = '0123456789abcdef';

// Merged items are listed by file and line (the suite's order), and the builders number lines
// across every test a worker ran before: each test starts them again, so its order is its own.
beforeEach(resetLines);

function shardRun(index: number, total: number, labels: string[], suiteHash = SUITE): RunRecord {
  const shard: ShardInfo = { index, total, suiteHash };
  return run(
    labels.map((l) => fixture(l)),
    { shard },
  );
}

describe('mergeRecords with shards', () => {
  it('a merge of 150 fixtures built in one test keeps their order: the builders number lines without wrapping', () => {
    const labels = Array.from({ length: 150 }, (_, i) => `f${String(i).padStart(3, '0')}`);
    const first = shardRun(1, 2, labels.slice(0, 75));
    const merged = mergeRecords([shardRun(2, 2, labels.slice(75)), first], ['2.json', '1.json']);
    expect(merged.fixtures.map((f) => f.label)).toEqual(labels);
    const lines = merged.fixtures.map((f) => f.line);
    expect(lines.every((l, i) => i === 0 || l > (lines[i - 1] as number))).toBe(true);
  });

  it('all shards of one suite: one whole run, no shard and no incomplete field', () => {
    const merged = mergeRecords([shardRun(2, 3, ['c', 'd']), shardRun(1, 3, ['a', 'b']), shardRun(3, 3, ['e'])], ['2.json', '1.json', '3.json']);
    expect(merged.fixtures.map((f) => f.label).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(merged.shard).toBeUndefined();
    expect(merged.incomplete).toBeUndefined();
    expect(merged.tallies.passed).toBe(5);
    expect(gateMerged(merged, ['newly_failing'], false).failed).toBe(false);
  });

  it('a missing shard: incomplete, listing it; the gate fails unless allowed', () => {
    const merged = mergeRecords([shardRun(1, 4, ['a']), shardRun(3, 4, ['c'])], ['1.json', '3.json']);
    expect(merged.incomplete).toEqual({ total: 4, suiteHash: SUITE, missing: [2, 4], foreign: [] });
    const g = gateMerged(merged, ['newly_failing'], false);
    expect(g.failed).toBe(true);
    expect(g.reason).toMatch(/^incomplete: shards 2\/4 and 4\/4 missing \(merge every shard, or allow a partial merge with --allow-incomplete/);
    expect(gateMerged(merged, ['newly_failing'], true).failed).toBe(false);
    // The incomplete field round-trips through results.json.
    expect(parseRecord(serializeRecord(merged), 'm.json').incomplete).toEqual(merged.incomplete);
  });

  it('with allow-incomplete the fail-on conditions still apply', () => {
    const failing = run([fixture('a', { verdict: 'fail', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } })], { shard: { index: 1, total: 2, suiteHash: SUITE } });
    const merged = mergeRecords([failing]);
    expect(gateMerged(merged, ['newly_failing'], true).failed).toBe(true);
    expect(gateMerged(merged, ['newly_failing'], false).reason).toMatch(/^incomplete: shard 2\/2 missing .*; 1 fixture newly failing/);
  });

  it('a foreign shard (another suite or shard count) is excluded and named; the most common suite wins', () => {
    const other = shardRun(2, 2, ['zzz'], 'ffffffffffffffff');
    const merged = mergeRecords([other, shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])], ['old.json', '1.json', '2.json']);
    expect(merged.fixtures.map((f) => f.label)).toEqual(['a', 'b']);
    expect(merged.incomplete).toEqual({ total: 2, suiteHash: SUITE, missing: [], foreign: ['old.json (shard 2/2 of suite ffffffffffffffff)'] });
    // Another shard count of the same suite is foreign too.
    const counted = mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b']), shardRun(1, 3, ['a'])], ['1.json', '2.json', 'x.json']);
    expect(counted.incomplete?.foreign).toEqual([`x.json (shard 1/3 of suite ${SUITE})`]);
  });

  it('a shard given twice (a re-run job) keeps the record that started last and says so', () => {
    const lines: string[] = [];
    const first = { ...shardRun(1, 2, ['a']), startedAt: '2026-12-01T09:00:00.000Z' };
    const rerun = run([fixture('a', { reply: 'again' })], { shard: { index: 1, total: 2, suiteHash: SUITE }, startedAt: '2026-12-01T10:00:00.000Z' });
    const m = mergeRecords([rerun, shardRun(2, 2, ['b']), first], ['attempt-2.json', '2.json', 'attempt-1.json'], (l) => lines.push(l));
    expect(m.fixtures.map((f) => [f.label, f.reply])).toEqual([
      ['a', 'again'],
      ['b', 'Reply for b.'],
    ]);
    expect(m.incomplete).toBeUndefined();
    expect(lines).toEqual(['shard 1/2 is given twice (attempt-2.json and attempt-1.json): attempt-2.json is used (it started later)']);
    const lines2: string[] = [];
    const m2 = mergeRecords([first, shardRun(2, 2, ['b']), rerun], ['attempt-1.json', '2.json', 'attempt-2.json'], (l) => lines2.push(l));
    expect(m2.fixtures.map((f) => [f.label, f.reply])).toEqual([
      ['a', 'again'],
      ['b', 'Reply for b.'],
    ]);
    expect(lines2).toEqual(['shard 1/2 is given twice (attempt-1.json and attempt-2.json): attempt-2.json is used (it started later)']);
  });

  /** Shard 1/2 given twice, its later record holding only `a` (`later`): the first, whole one is kept in either order, and the log says `why`. */
  const keepsWhole = (later: Partial<RunRecord>, why: string): RunRecord => {
    const whole = run([fixture('a'), fixture('a2')], { shard: { index: 1, total: 2, suiteHash: SUITE }, startedAt: '2026-12-01T09:00:00.000Z' });
    const part = run([fixture('a', { reply: 'again' })], { shard: { index: 1, total: 2, suiteHash: SUITE }, startedAt: '2026-12-01T10:00:00.000Z', ...later });
    for (const [given, names] of [
      [[whole, shardRun(2, 2, ['b']), part], ['attempt-1.json', '2.json', 'attempt-2.json']],
      [[part, shardRun(2, 2, ['b']), whole], ['attempt-2.json', '2.json', 'attempt-1.json']],
    ] as [RunRecord[], string[]][]) {
      const lines: string[] = [];
      const m = mergeRecords(given, names, (l) => lines.push(l));
      expect(m.fixtures.map((f) => [f.label, f.reply])).toEqual([
        ['a', 'Reply for a.'],
        ['a2', 'Reply for a2.'],
        ['b', 'Reply for b.'],
      ]);
      expect(m.interrupted).toBe(false);
      expect(m.incomplete).toBeUndefined();
      expect(m.selection).toBeUndefined();
      expect(lines).toEqual([`shard 1/2 is given twice (${names[0]} and ${names[2]}): attempt-1.json is used (${why})`]);
    }
    return whole;
  };

  it('a shard given twice, its re-run cancelled midway: the complete record is kept, whichever started later, and the log says why', () => {
    keepsWhole({ interrupted: true }, 'it is complete, attempt-2.json was interrupted');
  });

  it('a shard given twice, its later record of part of it (--rerun, --only): the whole shard is kept, whichever started later, and the log says why and the fix', () => {
    const selection = { rerunOf: 's1.json', only: null, labels: ['a'] };
    const whole = keepsWhole(
      { selection },
      'it holds the whole shard, attempt-2.json only part of it: --rerun s1.json); to merge a re-run, replay the whole shard (run --shard 1/2 without --rerun or --only, or re-run its job',
    );
    const part = run([fixture('a', { reply: 'again' })], { shard: { index: 1, total: 2, suiteHash: SUITE }, startedAt: '2026-12-01T10:00:00.000Z', selection });
    // Both of part of it: the later, as before.
    const only = { ...whole, selection: { rerunOf: null, only: ['a*'], labels: ['a', 'a2'] } };
    expect(mergeRecords([only, part, shardRun(2, 2, ['b'])]).fixtures.map((f) => f.label)).toEqual(['a', 'b']);
  });

  it('a whole run given twice (a re-run of the check: both attempts\' artifacts downloaded) keeps the record that started last', () => {
    const lines: string[] = [];
    const first = run([fixture('a'), fixture('b')], { startedAt: '2026-12-01T09:00:00.000Z', personas: [persona('refund')] });
    const rerun = run([fixture('a'), fixture('b', { reply: 'again' })], { startedAt: '2026-12-01T10:00:00.000Z', personas: [persona('refund')] });
    const m = mergeRecords([first, rerun], ['agent-replay-results-x/results.json', 'agent-replay-results-x-attempt-2/results.json'], (l) => lines.push(l));
    expect(m.fixtures.map((f) => [f.label, f.reply])).toEqual([
      ['a', 'Reply for a.'],
      ['b', 'again'],
    ]);
    expect(m.personas.map((p) => p.label)).toEqual(['refund']);
    expect(m.incomplete).toBeUndefined();
    expect(lines).toEqual([
      'the whole run is given twice (agent-replay-results-x/results.json and agent-replay-results-x-attempt-2/results.json: the same items at one commit, a re-run): agent-replay-results-x-attempt-2/results.json is used (it started later)',
    ]);
    // Given the other way round, the later one is kept all the same.
    expect(mergeRecords([rerun, first]).fixtures.map((f) => f.reply)).toEqual(['Reply for a.', 'again']);
    // Runs that only share some items still overlap.
    expect(() => mergeRecords([first, run([fixture('a')], { startedAt: '2026-12-01T10:00:00.000Z' })])).toThrow(/^runs overlap: 1 fixture is in more than one run: .*; these are runs of the same fixtures, not shards of one run: give one of them alone/);
    // A re-run of part of it (run --rerun) too, and the error says which record re-ran what, and what to give.
    const part = run([fixture('b', { reply: 'again' })], { startedAt: '2026-12-01T10:00:00.000Z', selection: { rerunOf: 'r.json', only: null, labels: ['b'] } });
    expect(() => mergeRecords([first, part], ['r.json', 'r2.json'])).toThrow(
      'runs overlap: 1 fixture is in more than one run: "b" (the run r.json and the run r2.json); r2.json replayed part of the suite (--rerun r.json): a merge does not read a re-run over the run it re-ran; give one record of each run (the run itself, or the re-run alone)',
    );
    // Two suites of one repository with the same labels are not one run given twice, as a run cut short is not; the same suite written otherwise is.
    expect(() => mergeRecords([{ ...first, suitePath: 'apps/a/.agent-replay' }, { ...rerun, suitePath: 'apps/b/.agent-replay' }])).toThrow(/^runs overlap/);
    expect(mergeRecords([{ ...first, suitePath: 'apps/a/.agent-replay' }, { ...rerun, suitePath: 'apps/a/.agent-replay/' }]).fixtures.map((f) => f.reply)).toEqual(['Reply for a.', 'again']);
  });

  it('a whole run given twice, one record without its suite (an older agent-replay): refused, saying why and which to give', async () => {
    const dir = await tempDir('agent-replay-suiteless-rerun-');
    const first = run([fixture('a'), fixture('b')], { startedAt: '2026-12-01T09:00:00.000Z' });
    const rerun = run([fixture('a'), fixture('b', { reply: 'again' })], { startedAt: '2026-12-01T10:00:00.000Z', suitePath: 'apps/a/.agent-replay' });
    await writeRecord(join(dir, 'old.json'), first);
    await writeRecord(join(dir, 'new.json'), rerun);
    const [old, now] = [await readRecord(join(dir, 'old.json')), await readRecord(join(dir, 'new.json'))];
    expect(old.suitePath).toBeUndefined();
    const why = (without: string, said: string, later: string): string =>
      `; ${without} does not say its suite folder (no suitePath: written by an agent-replay before it was kept, or outside a git repository) and ${said} is a run of the suite in apps/a/.agent-replay: a merge cannot tell that they are runs of one suite, so it does not read them as one run given twice (a re-run of the check); give one of them alone: for a re-run, the one that started last, ${later}`;
    const lines: string[] = [];
    expect(() => mergeRecords([old, now], ['old.json', 'new.json'], (l) => lines.push(l))).toThrow(
      `runs overlap: 2 fixtures are in more than one run: "a" (the run old.json and the run new.json), "b" (the run old.json and the run new.json)${why('old.json', 'new.json', 'new.json')}`,
    );
    expect(lines).toEqual([]);
    // Given the other way round, and the later one without it: each named for what it is.
    expect(() => mergeRecords([{ ...now, startedAt: '2026-12-01T08:00:00.000Z', suitePath: 'apps/a/.agent-replay/' }, old], ['new.json', 'old.json'])).toThrow(why('old.json', 'new.json', 'old.json'));
    // Given alone, the later one is a run as any other; without a commit, the other reason stands alone.
    expect(mergeRecords([now], ['new.json']).fixtures.map((f) => f.reply)).toEqual(['Reply for a.', 'again']);
    expect(() => mergeRecords([{ ...old, commit: null }, { ...now, commit: null }])).toThrow(/not shards of one run: give one of them alone, or merge the shards of one run \(run --shard 1\/2, 2\/2, \.\.\.\)$/);
  });

  it('a whole run given twice, its re-run cancelled midway (fewer items): the complete record is kept, whichever started later, and the log says why', () => {
    const complete = run([fixture('a'), fixture('b')], { startedAt: '2026-12-01T09:00:00.000Z', personas: [persona('refund')] });
    const cancelled = run([fixture('a', { reply: 'again' })], { startedAt: '2026-12-01T10:00:00.000Z', interrupted: true });
    for (const [given, names] of [
      [[complete, cancelled], ['attempt-1.json', 'attempt-2.json']],
      [[cancelled, complete], ['attempt-2.json', 'attempt-1.json']],
    ] as [RunRecord[], string[]][]) {
      const lines: string[] = [];
      const m = mergeRecords(given, names, (l) => lines.push(l));
      expect(m.fixtures.map((f) => [f.label, f.reply])).toEqual([
        ['a', 'Reply for a.'],
        ['b', 'Reply for b.'],
      ]);
      expect(m.personas.map((p) => p.label)).toEqual(['refund']);
      expect(m.interrupted).toBe(false);
      expect(lines).toEqual([`the whole run is given twice (${names[0]} and ${names[1]}: the items of one run at one commit, a re-run): attempt-1.json is used (it is complete, attempt-2.json was interrupted)`]);
    }
    // Not the same run: another commit is refused as one; an item the complete one lacks, or neither interrupted, still overlap.
    expect(() => mergeRecords([complete, { ...cancelled, commit: 'f'.repeat(40) }])).toThrow(/recorded at different commits/);
    expect(() => mergeRecords([complete, run([fixture('a'), fixture('c')], { interrupted: true })])).toThrow(/^runs overlap/);
    expect(() => mergeRecords([complete, { ...cancelled, interrupted: false }])).toThrow(/^runs overlap/);
  });

  it('two whole runs without a commit are not one run given twice, by either rule: a record without a commit is not known to be a re-run of the same commit', async () => {
    const dir = await tempDir('agent-replay-no-commit-');
    const first = run([fixture('a'), fixture('b')], { commit: null, startedAt: '2026-12-01T09:00:00.000Z' });
    const second = run([fixture('a'), fixture('b', { reply: 'again' })], { commit: null, startedAt: '2026-12-01T10:00:00.000Z' });
    await writeRecord(join(dir, '1.json'), first);
    await writeRecord(join(dir, '2.json'), second);
    const [one, two] = [await readRecord(join(dir, '1.json')), await readRecord(join(dir, '2.json'))];
    const lines: string[] = [];
    expect(() => mergeRecords([one, two], ['1.json', '2.json'], (l) => lines.push(l))).toThrow(
      /^runs overlap: 2 fixtures are in more than one run: "a" \(the run 1\.json and the run 2\.json\), "b" /,
    );
    expect(lines).toEqual([]);
    // As a re-run cancelled midway without a commit is not.
    expect(() => mergeRecords([one, { ...two, fixtures: [fixture('a')], interrupted: true }])).toThrow(/^runs overlap/);
    // With their commit, the same two are one run given twice.
    expect(mergeRecords([{ ...one, commit: 'a'.repeat(40) }, { ...two, commit: 'a'.repeat(40) }]).fixtures.map((f) => f.reply)).toEqual(['Reply for a.', 'again']);
  });

  it('one shard alone is incomplete; 1/1 alone is complete', () => {
    expect(mergeRecords([shardRun(2, 3, ['b'])]).incomplete?.missing).toEqual([1, 3]);
    const whole = mergeRecords([shardRun(1, 1, ['a', 'b'])]);
    expect(whole.incomplete).toBeUndefined();
    expect(whole.shard).toBeUndefined();
  });

  it('a merge that lacked shards, merged again with others, still lacks the shards none of them holds: never a whole run over a partial one', () => {
    // Two partial merges of one suite: shards 1 and 3 of 4, then shard 4: shard 2 is in neither.
    const first = mergeRecords([shardRun(1, 4, ['a']), shardRun(3, 4, ['c'])], ['1.json', '3.json']);
    const second = mergeRecords([shardRun(4, 4, ['d'])], ['4.json']);
    const again = mergeRecords([first, second], ['m1.json', 'm2.json']);
    expect(again.fixtures.map((f) => f.label)).toEqual(['a', 'c', 'd']);
    expect(again.incomplete).toEqual({ total: 4, suiteHash: SUITE, missing: [2], foreign: [] });
    expect(gateMerged(again, ['newly_failing'], false).failed).toBe(true);
    // The shard a partial merge lacked, given beside it: the merge holds its shards, and is whole.
    const whole = mergeRecords([first, shardRun(2, 4, ['b']), shardRun(4, 4, ['d'])], ['m1.json', '2.json', '4.json']);
    expect(whole.fixtures.map((f) => f.label).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(whole.incomplete).toBeUndefined();
    // A file a merge excluded stays said, and a partial merge of another suite is excluded, naming the shards it holds.
    const excluded = mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b']), shardRun(1, 2, ['z'], 'ffffffffffffffff')], ['1.json', '2.json', 'old.json']);
    expect(mergeRecords([excluded], ['m.json']).incomplete?.foreign).toEqual(['old.json (shard 1/2 of suite ffffffffffffffff)']);
    const otherSuite = mergeRecords([shardRun(1, 3, ['x'], 'eeeeeeeeeeeeeeee')], ['x.json']);
    const mixed = mergeRecords([shardRun(1, 2, ['a']), otherSuite, shardRun(2, 2, ['b'])], ['1.json', 'mx.json', '2.json']);
    expect(mixed.fixtures.map((f) => f.label)).toEqual(['a', 'b']);
    expect(mixed.incomplete).toEqual({ total: 2, suiteHash: SUITE, missing: [], foreign: ['mx.json (a merge of shard 1/3 of suite eeeeeeeeeeeeeeee)'] });
    // Through results.json as well.
    expect(mergeRecords([parseRecord(serializeRecord(first), 'm1.json'), parseRecord(serializeRecord(second), 'm2.json')]).incomplete?.missing).toEqual([2]);
    // A shard it holds, given again beside it, overlaps: the merge is named by the shards it holds, and what to give.
    expect(() => mergeRecords([first, shardRun(1, 4, ['a'])], ['m1.json', '1.json'])).toThrow(
      '"a" (the merge of shards 1/4 and 3/4 (m1.json); shard 1/4 (1.json)); each fixture must be replayed by exactly one shard; m1.json is the merge of shards 1/4 and 3/4, not a shard: give either it or the shard records, not both (give the shards\' results files only, those run --shard wrote)',
    );
    // Without file names too, the shards the merge holds are one list and the records holding "a" another, never read as one.
    expect(() => mergeRecords([first, shardRun(1, 4, ['a'])])).toThrow('"a" (the merge of shards 1/4 and 3/4; shard 1/4); each fixture');
    // A partial merge of another suite holding several shards names them as one list, inside the list of files excluded.
    const otherTwo = mergeRecords([shardRun(1, 3, ['x'], 'eeeeeeeeeeeeeeee'), shardRun(2, 3, ['y'], 'eeeeeeeeeeeeeeee')], ['x1.json', 'x2.json']);
    expect(mergeRecords([shardRun(1, 2, ['a']), otherTwo, shardRun(2, 2, ['b'])], ['1.json', 'mx.json', '2.json']).incomplete?.foreign).toEqual(['mx.json (a merge of shards 1/3 and 2/3 of suite eeeeeeeeeeeeeeee)']);
    // So is a whole merge (no `shard`, no `incomplete`) downloaded beside its shards.
    const merged = mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])]);
    expect(() => mergeRecords([shardRun(1, 2, ['a']), merged, shardRun(2, 2, ['b'])], ['s1.json', 'agent-replay-results-x/results.json', 's2.json'])).toThrow(
      /^records overlap: 2 fixtures are in more than one record: "a" \(shard 1\/2 \(s1\.json\) and the run agent-replay-results-x\/results\.json\), "b" .*; each fixture must be replayed by exactly one shard; agent-replay-results-x\/results\.json is a whole run, not a shard: give either it or the shard records, not both/,
    );
    // Records that are no shards overlapping each other are runs of the same items, told to give one of them.
    expect(() => mergeRecords([run([fixture('a')]), run([fixture('a'), fixture('c')])])).toThrow(/^runs overlap: 1 fixture is in more than one run: "a" \(record 1 and record 2\); these are runs of the same fixtures, not shards of one run: give one of them alone, or merge the shards of one run \(run --shard 1\/2, 2\/2, \.\.\.\)$/);
  });

  it('an item in three records is counted and listed once, naming every record it is in', () => {
    expect(() => mergeRecords([shardRun(1, 3, ['a']), shardRun(2, 3, ['a', 'b']), shardRun(3, 3, ['a', 'c'])], ['1.json', '2.json', '3.json'])).toThrow(
      /^shards overlap: 1 fixture is in more than one shard: "a" \(shard 1\/3 \(1\.json\), shard 2\/3 \(2\.json\) and shard 3\/3 \(3\.json\)\); each fixture must be replayed by exactly one shard$/,
    );
  });

  it('an overlap is said for what the records are: shards, runs, or runs beside shards, each record that is no shard as what it is', () => {
    // Two shards: the rule for shards.
    expect(() => mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['a'])], ['1.json', '2.json'])).toThrow(
      /^shards overlap: 1 fixture is in more than one shard: "a" \(shard 1\/2 \(1\.json\) and shard 2\/2 \(2\.json\)\); each fixture must be replayed by exactly one shard$/,
    );
    // Two whole runs given together: no shard at all, so no word of shards but the fix.
    expect(() => mergeRecords([run([fixture('a'), fixture('b')]), run([fixture('a'), fixture('c')])], ['r.json', 'r2.json'])).toThrow(
      /^runs overlap: 1 fixture is in more than one run: "a" \(the run r\.json and the run r2\.json\); these are runs of the same fixtures, not shards of one run: give one of them alone, or merge the shards of one run \(run --shard 1\/2, 2\/2, \.\.\.\)$/,
    );
    // Records beside shards they hold: each said as what it is, a run of part of the suite with its flags.
    const whole = mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])]);
    const mixed = mergeRecords([{ ...shardRun(1, 2, ['a']), selection: { rerunOf: null, only: ['a*'], labels: ['a'] } }, shardRun(2, 2, ['b'])]);
    const only = run([fixture('a')], { selection: { rerunOf: null, only: ['a*'], labels: ['a'] } });
    const beside = (r: RunRecord): (() => RunRecord) => () => mergeRecords([r, shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])], ['m.json', 's1.json', 's2.json']);
    expect(beside(whole)).toThrow(/^records overlap: 2 fixtures are in more than one record: .*; each fixture must be replayed by exactly one shard; m\.json is a whole run, not a shard: give either it or the shard records, not both/);
    expect(beside(mixed)).toThrow('; m.json is a merged run, not a shard: give either it');
    expect(beside(only)).toThrow(/^records overlap: 1 fixture is in more than one record: .*; m\.json is a run of part of the suite \(--only a\*\), not a shard: give either it/);
    // Two of them: each in brackets.
    const onlyB = run([fixture('b')], { selection: { rerunOf: 'r.json', only: null, labels: ['b'] } });
    expect(() => mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b']), onlyB, only], ['s1.json', 's2.json', 'b.json', 'a.json'])).toThrow(
      "; b.json (a run of part of the suite (--rerun r.json)) and a.json (a run of part of the suite (--only a*)) are no shards: give either them or the shard records, not both (give the shards' results files only, those run --shard wrote)",
    );
  });

  it('an interrupted shard (a job cancelled midway) is named in the log with what to do; the merged run is interrupted', () => {
    const lines: string[] = [];
    const cut = { ...shardRun(3, 3, ['c']), interrupted: true };
    const m = mergeRecords([shardRun(1, 3, ['a']), shardRun(2, 3, ['b']), cut], ['s1.json', 's2.json', 's3.json'], (l) => lines.push(l));
    expect(m.interrupted).toBe(true);
    expect(m.incomplete).toBeUndefined();
    expect(lines).toEqual(['shard 3/3 (s3.json) was interrupted: only the 1 item it finished is merged, its others were not replayed; replay shard 3/3 again (run --shard 3/3, or re-run its job) and merge its record instead']);
    // Nothing is said when no record was interrupted.
    const quiet: string[] = [];
    mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])], [], (l) => quiet.push(l));
    expect(quiet).toEqual([]);
  });

  it('records without shard merge as before; the existing errors stay', () => {
    const merged = mergeRecords([run([fixture('a')]), run([fixture('b')])]);
    expect(merged.incomplete).toBeUndefined();
    expect(() => mergeRecords([run([fixture('a')]), run([fixture('a')])])).toThrow(/^runs overlap: 1 fixture is in more than one run: "a"/);
    expect(() => mergeRecords([shardRun(1, 2, ['a']), { ...shardRun(2, 2, ['b']), commit: 'f'.repeat(40) }], ['1.json', '2.json'])).toThrow(/shards were recorded at different commits: shard 1\/2 \(1\.json\)/);
  });

  it('a shard is named by its own index in what a merge says, whatever order the files come in', () => {
    const other = { ...shardRun(4, 4, ['d']), commit: 'f'.repeat(40) };
    const a = shardRun(1, 4, ['a']);
    expect(() => mergeRecords([other, a, shardRun(2, 4, ['b']), shardRun(3, 4, ['c'])], ['s4.json', 's1.json', 's2.json', 's3.json'])).toThrow(
      `shards were recorded at different commits: shard 4/4 (s4.json) at ${'f'.repeat(40)}, shard 1/4 (s1.json) at ${a.commit}, shard 2/4 (s2.json) at ${a.commit} and shard 3/4 (s3.json) at ${a.commit}`,
    );
    // Two shards that hold one fixture: each named by its index.
    expect(() => mergeRecords([shardRun(2, 2, ['a', 'b']), shardRun(1, 2, ['b'])], ['two.json', 'one.json'])).toThrow('"b" (shard 2/2 (two.json) and shard 1/2 (one.json))');
    // Without file names, the index alone.
    expect(() => mergeRecords([shardRun(2, 2, ['a']), shardRun(1, 2, ['a'])])).toThrow('"a" (shard 2/2 and shard 1/2)');
    // A record that is no shard is never called one by its place: a whole run (a complete merge is one) is
    // "the run", a merge that says it is one (of records given different selections) "the merged run".
    const whole = mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])]);
    expect(() => mergeRecords([whole, shardRun(2, 2, ['b'])], ['m.json', 's2.json'])).toThrow('"b" (the run m.json and shard 2/2 (s2.json))');
    const mixed = mergeRecords([{ ...shardRun(1, 2, ['a']), selection: { rerunOf: null, only: ['a*'], labels: ['a'] } }, shardRun(2, 2, ['b'])]);
    expect(() => mergeRecords([mixed, shardRun(1, 2, ['a'])], ['m.json', 's1.json'])).toThrow('"a" (the merged run m.json and shard 1/2 (s1.json))');
    const lines: string[] = [];
    mergeRecords([{ ...run([fixture('a')]), interrupted: true }, run([fixture('b')])], ['r.json', 'r2.json'], (l) => lines.push(l));
    expect(lines).toEqual(['the run r.json was interrupted: only the 1 item it finished is merged, its others were not replayed; replay it again and merge its record instead']);
    // Without file names, by its place among the records.
    expect(() => mergeRecords([whole, shardRun(2, 2, ['b'])])).toThrow('"b" (record 1 and shard 2/2)');
  });

  it('the merged estimate is held against the shards\' caps summed: each shard was capped over its own items', () => {
    // Two shards under a cap of $0.16 each, $0.055 and $0.155: neither above its cap, nothing to confirm.
    const a = shardRun(1, 2, ['a']);
    const b = shardRun(2, 2, ['b']);
    a.estimate = { usd: 0.055, capUsd: 0.16, aboveCap: false, confirmed: false };
    b.estimate = { usd: 0.155, capUsd: 0.16, aboveCap: false, confirmed: false };
    const m = mergeRecords([a, b], ['1.json', '2.json']);
    expect(m.estimate).toEqual({ usd: 0.21, capUsd: 0.32, aboveCap: false, confirmed: false });
    // One shard's cap beside the shards' estimates summed read as a run above its cap that nobody confirmed.
    for (const text of [renderTerminal(m, { color: false }), renderMarkdownReport(m), renderHtml(m)]) {
      expect(text).not.toContain('(cap $0.16');
      expect(text).toMatch(/\$0\.21 estimated \(cap \$0\.32\)|estimated cost \(cap \$0\.32\)/);
    }
  });

  it('keeps every count the shards recorded: spend, the estimate\'s range and meaning calls, a judge\'s fallback, the simulator, in any order', () => {
    const a = shardRun(1, 2, ['a']);
    const b = shardRun(2, 2, ['b']);
    a.spend = { agentTurns: 4, agentRetries: 0, judgeCalls: 1, judgeRetries: 0, judgeReused: 0, meaningCalls: 0, meaningReused: 0, meaningAvoided: 2 };
    b.spend = { agentTurns: 6, agentRetries: 1, judgeCalls: 2, judgeRetries: 1, judgeReused: 1, simulatorCalls: 5, simulatorRetries: 1, baselineTurns: 3, meaningCalls: 3, meaningReused: 1, meaningAvoided: 4 };
    a.estimate = { usd: 0.1, capUsd: 1, aboveCap: false, confirmed: false, meaningCalls: 2 };
    b.estimate = { usd: 0.3, capUsd: 1, aboveCap: false, confirmed: false, meaningCalls: 5, adaptive: { items: 2, lowUsd: 0.2 } };
    a.judge = { name: 'judge', structured: true };
    b.judge = { name: 'judge', structured: false, structuredFallback: 'HTTP 400' };
    b.simulator = { name: 'sim', structured: true };
    for (const order of [[a, b], [b, a]]) {
      const m = mergeRecords(order, ['x.json', 'y.json']);
      expect(m.spend).toEqual({ agentTurns: 10, agentRetries: 1, judgeCalls: 3, judgeRetries: 1, judgeReused: 1, simulatorCalls: 5, simulatorRetries: 1, baselineTurns: 3, meaningCalls: 3, meaningReused: 1, meaningAvoided: 6 });
      expect(m.estimate).toEqual({ usd: 0.4, capUsd: 2, aboveCap: false, confirmed: false, meaningCalls: 7, adaptive: { items: 2, lowUsd: 0.3 } });
      expect(m.judge).toEqual({ name: 'judge', structured: false, structuredFallback: 'HTTP 400' });
      expect(m.simulator).toEqual({ name: 'sim', structured: true });
      const term = renderTerminal(m, { color: false });
      // The judge's retries count the meaning judge's: said after the meaning calls (docs/meaning.md, "Costs").
      expect(term).toContain('3 judge calls made, 1 judge result reused, 5 simulator calls made (1 retry), meaning: 3 calls made, 1 reused, 6 decided without a model, 1 retry of judge and meaning calls, 3 user turns replayed from baselines');
      expect(term).toContain('judge: the endpoint refused structured output');
    }
  });

  it('a shard written by an older agent-replay (no spend, no meaning) given first: no partial sum of spend, the meaning check a shard recorded', () => {
    const old = shardRun(1, 2, ['a']);
    delete old.spend;
    delete old.meaning;
    const now = shardRun(2, 2, ['b']);
    now.spend = { agentTurns: 6, agentRetries: 0, judgeCalls: 2, judgeRetries: 0, judgeReused: 0, meaningCalls: 1, meaningReused: 0, meaningAvoided: 0 };
    now.meaning = { check: 'judge', model: 'm', promptVersion: '1' };
    for (const [order, names] of [[[old, now], ['old.json', 'new.json']], [[now, old], ['new.json', 'old.json']]] as const) {
      const lines: string[] = [];
      const m = mergeRecords(order, names, (l) => lines.push(l));
      // 6 agent turns would read as the whole run's: the old shard's turns were not counted.
      expect(m.spend).toBeUndefined();
      expect(renderTerminal(m, { color: false })).not.toContain('6 agent turns');
      expect(m.meaning).toEqual({ check: 'judge', model: 'm', promptVersion: '1' });
      expect(lines).toEqual([
        'shard 1/2 (old.json) has no spend (written by an agent-replay before it was recorded): the merged run says none, as a sum over the others would count fewer agent turns and judge calls than were made; replay that shard with this agent-replay to have it',
      ]);
      expect(parseRecord(serializeRecord(m), 'm.json').spend).toBeUndefined();
    }
  });

  it('shards split by other timings (each job read another previous run) are not one partition: incomplete, never an item silently in no shard', () => {
    const list = ['a', 'b', 'c'].map((label) => ({ label, turns: 1, definitionHash: label }));
    const before = new Map([['a', 10], ['b', 10], ['c', 1]]);
    const after = new Map([['a', 10], ['b', 5], ['c', 1]]);
    const one = selectShard(list, { index: 1, total: 2 }, after);
    const two = selectShard(list, { index: 2, total: 2 }, before);
    // "c" is in neither shard, and no label is in both.
    expect([...one.labels, ...two.labels].sort()).toEqual(['a', 'b']);
    const rec = (s: ReturnType<typeof selectShard>): RunRecord => run([...s.labels].map((l) => fixture(l)), { shard: s.info });
    const merged = mergeRecords([rec(one), rec(two)], ['1.json', '2.json']);
    expect(merged.incomplete).toEqual({ total: 2, suiteHash: one.info.suiteHash, missing: [2], foreign: [expect.stringMatching(/^2\.json \(shard 2\/2 of suite [0-9a-f]{16}, split by other timings\)$/)] });
    expect(gateMerged(merged, ['newly_failing'], false).failed).toBe(true);
    // The same timings in every shard: one partition, complete.
    const same = mergeRecords([rec(one), rec(selectShard(list, { index: 2, total: 2 }, after))]);
    expect(same.incomplete).toBeUndefined();
    expect(same.fixtures.map((f) => f.label).sort()).toEqual(['a', 'b', 'c']);
  });

  it('a shard record written before `partition` existed fits the split of the others (docs/results-json.md: absent in older records)', () => {
    const list = ['a', 'b', 'c'].map((label) => ({ label, turns: 1, definitionHash: label }));
    const timings = new Map([['a', 10], ['b', 5], ['c', 1]]);
    const rec = (s: ReturnType<typeof selectShard>, older = false): RunRecord => {
      const { partition: _partition, ...shard } = s.info;
      return run([...s.labels].map((l) => fixture(l)), { shard: older ? shard : s.info });
    };
    const one = selectShard(list, { index: 1, total: 2 }, timings);
    const two = selectShard(list, { index: 2, total: 2 }, timings);
    // Shard 1 re-run by a newer agent-replay beside shard 2 of the first attempt, by an older one; either way round.
    for (const records of [[rec(one), rec(two, true)], [rec(one, true), rec(two)], [rec(one, true), rec(two, true)]]) {
      const merged = mergeRecords(records, ['1.json', '2.json']);
      expect(merged.incomplete).toBeUndefined();
      expect(merged.fixtures.map((f) => f.label).sort()).toEqual(['a', 'b', 'c']);
    }
    // Two splits that say they differ still do, whatever an older record beside them says.
    const four = ['a', 'b', 'c', 'd'].map((label) => ({ label, turns: 1, definitionHash: label }));
    const t1 = new Map([['a', 10], ['b', 5], ['c', 4], ['d', 1]]);
    const t2 = new Map([['a', 1], ['b', 5], ['c', 4], ['d', 10]]);
    const [s1, s2, s3] = [selectShard(four, { index: 1, total: 3 }, t1), selectShard(four, { index: 2, total: 3 }, t2), selectShard(four, { index: 3, total: 3 }, t1)];
    expect(s1.info.partition).not.toBe(s2.info.partition);
    const split = mergeRecords([rec(s1), rec(s2), rec(s3, true)], ['1.json', '2.json', '3.json']);
    expect(split.incomplete?.foreign).toEqual([expect.stringMatching(/^2\.json \(shard 2\/3 of suite [0-9a-f]{16}, split by other timings\)$/)]);
  });

  it('a shard replayed with --only beside shards replayed whole: the merged selection counts every item replayed, and says no --only the whole shard was not given', () => {
    const only = run([fixture('a')], { shard: { index: 1, total: 2, suiteHash: SUITE }, selection: { rerunOf: null, only: ['a*'], labels: ['a'] } });
    const merged = mergeRecords([only, run([fixture('b'), fixture('c')], { shard: { index: 2, total: 2, suiteHash: SUITE } })]);
    expect(merged.selection).toEqual({ rerunOf: null, only: null, labels: ['a', 'b', 'c'] });
    expect(renderHtml(merged)).toContain('Part of the suite: shards replayed with different --rerun or --only (or none); 3 items replayed.');
    // One item is one.
    expect(renderHtml(only)).toContain('Part of the suite: --only a*; 1 item replayed.');
    // Whichever comes first; every shard with a selection: their labels, as before.
    expect(mergeRecords([run([fixture('b')], { shard: { index: 2, total: 2, suiteHash: SUITE } }), only]).selection?.labels).toEqual(['b', 'a']);
    const both = mergeRecords([only, run([fixture('b')], { shard: { index: 2, total: 2, suiteHash: SUITE }, selection: { rerunOf: null, only: ['a*', 'b'], labels: ['b'] } })]);
    expect(both.selection?.labels).toEqual(['a', 'b']);
    expect(both.selection?.only).toBeNull();
  });

  it('a merge of shards given different selections, merged again beside a re-run of it, is said as that merge with the items it replayed, not as "a selection"', () => {
    const only = run([fixture('a')], { shard: { index: 1, total: 2, suiteHash: SUITE }, selection: { rerunOf: null, only: ['a*'], labels: ['a'] } });
    const merged = mergeRecords([only, run([fixture('b'), fixture('c')], { shard: { index: 2, total: 2, suiteHash: SUITE } })]);
    const again = run([fixture('b', { reply: 'again' })], { startedAt: '2026-12-01T10:00:00.000Z', selection: { rerunOf: 'm.json', only: null, labels: ['b'] } });
    expect(() => mergeRecords([merged, again], ['m.json', 'r.json'])).toThrow(
      'runs overlap: 1 fixture is in more than one run: "b" (the merged run m.json and the run r.json); m.json is a merge of records replayed with different --rerun or --only (or none), 3 items replayed and r.json replayed part of the suite (--rerun m.json): a merge does not read a re-run over the run it re-ran; give one record of each run (the run itself, or the re-run alone)',
    );
  });

  it("a merged selection's --rerun and --only are the merged run's: kept when every shard was given the same, null where they differ", async () => {
    // Written and read back as report reads the shards' artifacts.
    const dir = await tempDir('agent-replay-selection-shards-');
    const rerun = (index: number, label: string, rerunOf: string, only: string[] | null = null): RunRecord =>
      run([fixture(label)], { shard: { index, total: 2, suiteHash: SUITE }, selection: { rerunOf, only, labels: [label] } });
    const given = [rerun(1, 'a', 's1.json'), rerun(2, 'b', 's2.json'), rerun(2, 'b', 's1.json', ['b*'])];
    const files = given.map((_, k) => join(dir, `${k + 1}.json`));
    await Promise.all(given.map((r, k) => writeRecord(files[k] as string, r)));
    const [one, two, same] = (await Promise.all(files.map((f) => readRecord(f)))) as [RunRecord, RunRecord, RunRecord];
    // Each shard re-ran its own job's record: no one file was re-run.
    const other = mergeRecords([one, two]);
    expect(other.selection).toEqual({ rerunOf: null, only: null, labels: ['a', 'b'] });
    expect(renderHtml(other)).toContain('Part of the suite: shards replayed with different --rerun or --only (or none); 2 items replayed.');
    // One file re-run by both, --only given to one of them: the file is said, the patterns are not.
    expect(mergeRecords([one, same]).selection).toEqual({ rerunOf: 's1.json', only: null, labels: ['a', 'b'] });
    expect(mergeRecords([{ ...one, selection: { rerunOf: 's1.json', only: ['b*'], labels: ['a'] } }, same]).selection).toEqual({ rerunOf: 's1.json', only: ['b*'], labels: ['a', 'b'] });
  });

  it('a persona script in two records is called a persona script, not a fixture', () => {
    const a = run([fixture('a')], { personas: [persona('refund')] });
    const b = run([fixture('b')], { personas: [persona('refund')] });
    expect(() => mergeRecords([a, b], ['1.json', '2.json'])).toThrow(
      /^runs overlap: 1 persona script is in more than one run: "refund" \(the run 1\.json and the run 2\.json\); these are runs of the same persona scripts, not shards of one run: give one of them alone/,
    );
    const c = run([fixture('a')], { personas: [persona('refund')] });
    expect(() => mergeRecords([a, c])).toThrow(/^runs overlap: 2 items \(1 fixture, 1 persona script\) are in more than one run: "a" .*; these are runs of the same items, not shards/);
  });

  it("the shards' suite edits: said once when every record says the same; none, with a line in the log, when they differ", () => {
    const edits: SuiteEdits = {
      base: 'b'.repeat(40),
      fixtures: [{ label: 'refund', file: '.agent-replay/fixtures/refund.yml', change: 'assertion', before: 'contains "30 days"', after: 'contains "14 days"' }],
      baselines: [{ file: '.agent-replay/baselines/refund.json', status: 'modified' }],
      unknown: null,
      source: 'git',
      rev: 'main',
    };
    const withEdits = (index: number, labels: string[], e: SuiteEdits | null = edits): RunRecord => ({ ...shardRun(index, 3, labels), ...(e === null ? {} : { suiteEdits: structuredClone(e) }) });
    const logged: string[] = [];
    const same = mergeRecords([withEdits(2, ['c']), withEdits(1, ['a', 'b']), withEdits(3, ['d'])], ['2.json', '1.json', '3.json'], (l) => logged.push(l));
    expect(same.suiteEdits).toEqual(edits);
    expect(logged).toEqual([]);
    // Through results.json too: a record read back says the same edits as the others.
    expect(mergeRecords([parseRecord(serializeRecord(withEdits(1, ['a'])), '1.json'), withEdits(2, ['b']), withEdits(3, ['c'])]).suiteEdits).toEqual(edits);
    // No record says any: the merged run says none, and nothing is logged.
    expect('suiteEdits' in mergeRecords([shardRun(1, 2, ['a']), shardRun(2, 2, ['b'])], [], (l) => logged.push(l))).toBe(false);
    expect(logged).toEqual([]);
    // One shard made without --base (or against another base, or another working tree): which is the suite's cannot be told.
    const other: SuiteEdits = { ...edits, baselines: [], unknown: 'git diff failed' };
    const differ = mergeRecords([withEdits(1, ['a']), withEdits(2, ['b'], null), withEdits(3, ['c'], other)], ['1.json', '2.json', '3.json'], (l) => logged.push(l));
    expect('suiteEdits' in differ).toBe(false);
    expect(logged).toEqual([
      "the records say different suite edits (shard 1/3 (1.json): 1 item and 1 baseline edited; shard 2/3 (2.json): none; shard 3/3 (3.json): 1 item and 0 baselines edited, in part): the merged run says none, as it cannot tell which is the suite's; replay every shard with the same --base",
    ]);
    // Whichever record comes first.
    expect('suiteEdits' in mergeRecords([withEdits(2, ['b'], null), withEdits(1, ['a']), withEdits(3, ['c'])])).toBe(false);
  });

  it("shards written by several versions that word the same suite edits differently (a tool check's JSON spaced since) say them once, in the newest one's words", () => {
    const script = (before: string, after: string): SuiteEdits => ({
      base: 'b'.repeat(40),
      fixtures: [{ label: 'refund', kind: 'persona', file: '.agent-replay/personas/refund.yml', change: 'script', before, after }],
      config: [{ file: '.agent-replay/config.yml', setting: 'judge.model', change: 'setting', before: '"gpt-4o"', after: '"gpt-4o-mini"' }],
      baselines: [],
      unknown: null,
    });
    const older = script('mock find_order {"id":1} answers {"status":"shipped"}', 'mock find_order {"id":1} answers {"status":"lost"}');
    const newer = script('mock find_order {"id": 1} answers {"status": "shipped"}', 'mock find_order {"id": 1} answers {"status": "lost"}');
    const by = (index: number, labels: string[], version: string, e: SuiteEdits): RunRecord => {
      const r = shardRun(index, 3, labels);
      return { ...r, tool: { ...r.tool, version }, suiteEdits: structuredClone(e) };
    };
    const logged: string[] = [];
    const merged = mergeRecords([by(1, ['a'], '1.9.0', older), by(2, ['b'], '1.10.0', newer), by(3, ['c'], '1.9.0', older)], ['1.json', '2.json', '3.json'], (l) => logged.push(l));
    expect(merged.suiteEdits).toEqual(newer);
    expect(logged.filter((l) => l.includes('suite edits'))).toEqual([]);
    // Other edits are still other edits: another mock's answer, across versions or within one.
    const other = script('mock find_order {"id": 1} answers {"status": "shipped"}', 'mock find_order {"id": 1} answers {"status": "delivered"}');
    expect(mergeRecords([by(1, ['a'], '1.9.0', older), by(2, ['b'], '1.10.0', { ...newer, fixtures: [] }), by(3, ['c'], '1.10.0', newer)]).suiteEdits).toBeUndefined();
    expect(mergeRecords([by(1, ['a'], '1.9.0', older), by(2, ['b'], '1.10.0', newer), by(3, ['c'], '1.10.0', other)]).suiteEdits).toBeUndefined();
  });

  it('a hand-edited incomplete (a missing shard beyond the total, listed twice, or nothing lacking) is refused, naming the file', () => {
    const merged = mergeRecords([shardRun(1, 4, ['a']), shardRun(3, 4, ['c'])], ['1.json', '3.json']);
    const edited = (incomplete: object): string => JSON.stringify({ ...merged, incomplete: { ...merged.incomplete, ...incomplete } });
    expect(() => parseRecord(edited({ missing: [2, 5] }), 'm.json')).toThrow(/^m\.json: .*incomplete: a missing shard must not exceed the shard total; give a results\.json written by agent-replay/);
    expect(() => parseRecord(edited({ missing: [2, 2] }), 'm.json')).toThrow(/m\.json: .*incomplete: a missing shard is listed twice/);
    expect(() => parseRecord(edited({ missing: [] }), 'm.json')).toThrow(/m\.json: .*incomplete: an incomplete merge lacks a shard or excluded a file/);
    // What a merge writes reads back.
    expect(parseRecord(serializeRecord(merged), 'm.json').incomplete).toEqual({ total: 4, suiteHash: SUITE, missing: [2, 4], foreign: [] });
  });

  it('shards run with different repeats are refused, each setting with its shards and the fix; an older record without one merges as before', async () => {
    // Written and read back as report reads the shards' artifacts.
    const dir = await tempDir('agent-replay-repeat-shards-');
    const at3 = { count: 3, minPass: 2, flags: { count: 3 } };
    const at1 = { count: 1, minPass: 1 };
    const given = [
      { ...shardRun(1, 4, ['a']), repeat: at3 },
      { ...shardRun(2, 4, ['b']), repeat: at3 },
      { ...shardRun(3, 4, ['c']), repeat: at1 },
      { ...shardRun(4, 4, ['d']), repeat: at1 },
    ];
    const files = given.map((_, k) => join(dir, `s${k + 1}.json`));
    await Promise.all(given.map((r, k) => writeRecord(files[k] as string, r)));
    const records = await Promise.all(files.map((f) => readRecord(f)));
    expect(records[0]?.repeat).toEqual(at3);
    const names = ['s1.json', 's2.json', 's3.json', 's4.json'];
    expect(() => mergeRecords(records, names)).toThrow(
      'shards were run with different repeats: shard 1/4 (s1.json) and shard 2/4 (s2.json) with --repeat 3 (3 attempts an item, 2 to pass); shard 3/4 (s3.json) and shard 4/4 (s4.json) with no --repeat (1 attempt an item); their pass rates would be over different numbers of attempts, shown as one run\'s: run every shard with the same --repeat and --repeat-max (the Action\'s repeat and repeat-max inputs), then merge their records',
    );
    // --repeat-max alone differs too: an item could make more attempts in one shard than in another.
    expect(() => mergeRecords([records[0] as RunRecord, { ...(records[1] as RunRecord), repeat: { count: 3, minPass: 2, max: 6, flags: { count: 3, max: 6 } } }], names)).toThrow(
      /^shards were run with different repeats: shard 1\/4 \(s1\.json\) with --repeat 3 \(3 attempts an item, 2 to pass\); shard 2\/4 \(s2\.json\) with --repeat 3 --repeat-max 6 \(3 attempts an item, 2 to pass, up to 6\); /,
    );
    // Alike: merged, the run says its repeat; a shard written before `repeat` was kept is not held against the others, whichever comes first.
    const { repeat: _older, ...older } = records[3] as RunRecord;
    const alike = [older, ...records.slice(0, 2), { ...(records[2] as RunRecord), repeat: at3 }];
    const merged = mergeRecords(alike, ['s4.json', 's1.json', 's2.json', 's3.json']);
    expect(merged.incomplete).toBeUndefined();
    expect(merged.repeat).toEqual(at3);
    expect(parseRecord(serializeRecord(merged), 'm.json').repeat).toEqual(at3);
    // Records that all predate it merge as before, and say none.
    expect('repeat' in mergeRecords([older, shardRun(1, 4, ['a'])])).toBe(false);
  });

  it('shards that ran the same repeat are merged however it was asked: --repeat 3 beside config.yml\'s repeat: 3; a flag that changed an item\'s own repeat, or adaptive beside fixed, is refused', () => {
    const names = ['s1.json', 's2.json'];
    const flagged = { count: 3, minPass: 2, flags: { count: 3, changed: 0 } };
    const configured = { count: 3, minPass: 2 };
    const merged = mergeRecords([{ ...shardRun(1, 2, ['a']), repeat: flagged }, { ...shardRun(2, 2, ['b']), repeat: configured }], names);
    expect(merged.fixtures.map((f) => f.label)).toEqual(['a', 'b']);
    // Every item ran as config.yml's repeat says: the merged run names no flag, whichever shard comes first.
    expect(merged.repeat).toEqual(configured);
    expect(mergeRecords([{ ...shardRun(2, 2, ['b']), repeat: configured }, { ...shardRun(1, 2, ['a']), repeat: flagged }]).repeat).toEqual(configured);
    // The same flags in every shard: the merged run says them, and the own repeats they changed, summed.
    const again = mergeRecords([{ ...shardRun(1, 2, ['a']), repeat: { ...flagged, flags: { count: 3, changed: 1 } } }, { ...shardRun(2, 2, ['b']), repeat: { ...flagged, flags: { count: 3, changed: 2 } } }]);
    expect(again.repeat).toEqual({ count: 3, minPass: 2, flags: { count: 3, changed: 3 } });
    expect(parseRecord(serializeRecord(again), 'm.json').repeat).toEqual(again.repeat);
    // --repeat 3 made an item whose own repeat is 5 attempts run 3, which the other shard's items kept.
    expect(() => mergeRecords([{ ...shardRun(1, 2, ['a']), repeat: { ...flagged, flags: { count: 3, changed: 1 } } }, { ...shardRun(2, 2, ['b']), repeat: configured }], names)).toThrow(
      "shards were run with different repeats: shard 1/2 (s1.json) with --repeat 3 (3 attempts an item, 2 to pass; the own repeat of 1 item changed); shard 2/2 (s2.json) with no --repeat (3 attempts an item, 2 to pass); --repeat and --repeat-max change an item's own repeat, which a shard run without them (or with others) keeps: items with their own would be over different numbers of attempts, shown as one run's: run every shard with the same --repeat and --repeat-max (the Action's repeat and repeat-max inputs), then merge their records",
    );
    // A record that does not say what its flags changed is not taken as having changed nothing.
    expect(() => mergeRecords([{ ...shardRun(1, 2, ['a']), repeat: { ...flagged, flags: { count: 3 } } }, { ...shardRun(2, 2, ['b']), repeat: configured }], names)).toThrow(
      /^shards were run with different repeats: shard 1\/2 \(s1\.json\) with --repeat 3 \(3 attempts an item, 2 to pass; not said which items it changed \(written by an earlier agent-replay\)\); shard 2\/2/,
    );
    // Adaptive beside fixed, and 3 attempts beside 1, whatever the flags changed.
    expect(() => mergeRecords([{ ...shardRun(1, 2, ['a']), repeat: { count: 3, minPass: 2, max: 6, flags: { max: 6, changed: 0 } } }, { ...shardRun(2, 2, ['b']), repeat: configured }], names)).toThrow(
      /^shards were run with different repeats: shard 1\/2 \(s1\.json\) with --repeat-max 6 \(3 attempts an item, 2 to pass, up to 6\); shard 2\/2 \(s2\.json\) with no --repeat \(3 attempts an item, 2 to pass\); their pass rates would be over different numbers of attempts/,
    );
    expect(() => mergeRecords([{ ...shardRun(1, 2, ['a']), repeat: flagged }, { ...shardRun(2, 2, ['b']), repeat: { count: 1, minPass: 1 } }], names)).toThrow(/with no --repeat \(1 attempt an item\); their pass rates/);
  });

  it('a record whose shard index exceeds its total is refused', () => {
    const bad = { ...shardRun(1, 2, ['a']), shard: { index: 3, total: 2, suiteHash: SUITE } };
    expect(() => parseRecord(JSON.stringify(bad), 'bad.json')).toThrow(/bad\.json: .*shard: shard index must not exceed the shard total/);
  });
});

describe('surfaces of an incomplete merge', () => {
  const full = run(['a', 'b', 'c', 'd'].map((l) => fixture(l)), { startedAt: '2026-11-30T09:00:00.000Z', finishedAt: '2026-11-30T09:00:01.000Z' });
  const merged = mergeRecords([shardRun(1, 2, ['a', 'b'])], ['1.json']);

  it('markdown, terminal, report.html and JUnit say which shard is missing, right under the headline', () => {
    const md = renderMarkdownReport(merged);
    const lines = md.split('\n');
    const head = lines.findIndex((l) => l.startsWith('### '));
    expect(lines.slice(head + 1, head + 4).join('\n')).toContain('**incomplete: shard 2/2 missing.**');
    const term = renderTerminal(merged, { color: false }).split('\n');
    expect(term[1]).toBe('incomplete: shard 2/2 missing');
    expect(renderHtml(merged)).toContain('<p class="notice">incomplete: shard 2/2 missing: this report merges only the shards it was given');
    expect(renderJUnit(merged)).toContain('<property name="incomplete" value="incomplete: shard 2/2 missing"/>');
  });

  it('JUnit counts the missing shard as a test case in error, so that a CI viewer does not show the merge as green', () => {
    const xml = renderJUnit(merged);
    expect(xml).toContain('<testcase classname="agent-replay" name="incomplete merge" file=".agent-replay" time="0">\n      <error message="shard 2/2 missing" type="incomplete merge"/>\n    </testcase>');
    expect(xml).toMatch(/<testsuite name="agent-replay" tests="3" failures="0" errors="1" /);
    // A whole merge has no such case.
    const whole = renderJUnit(mergeRecords([shardRun(1, 2, ['a', 'b']), shardRun(2, 2, ['c', 'd'])], ['1.json', '2.json']));
    expect(whole).not.toContain('incomplete merge');
    expect(whole).toMatch(/<testsuite name="agent-replay" tests="4" failures="0" errors="0" /);
  });

  it("JUnit's incomplete-merge case names the suite folder as its file, so that a viewer annotating by file does not look for `agent-replay.*`", () => {
    // mikepenz/action-junit-report, given no `file`, searches the repository for `<classname's last dot-part>.*`.
    const inSuite = mergeRecords([{ ...shardRun(1, 2, ['a', 'b']), suitePath: 'apps/shop/.agent-replay' }], ['1.json']);
    expect(renderJUnit(inSuite)).toContain('<testcase classname="agent-replay" name="incomplete merge" file="apps/shop/.agent-replay" time="0">');
    // A record made outside a repository (or by an older agent-replay) says no suitePath: the folder its
    // items' files name is the file, as their own test cases' `file` is (was: no file, and the search again).
    expect(merged.suitePath).toBeUndefined();
    expect(renderJUnit(merged)).toContain('<testcase classname="agent-replay" name="incomplete merge" file=".agent-replay" time="0">');
    const at = (file: string): RunRecord => mergeRecords([run([fixture('a', { file })], { shard: { index: 1, total: 2, suiteHash: SUITE } })], ['1.json']);
    expect(renderJUnit(at('apps/x/.agent-replay/fixtures/a.yml'))).toContain('name="incomplete merge" file="apps/x/.agent-replay" time="0">');
    // A run in the suite folder itself names its files from there.
    expect(renderJUnit(at('fixtures/a.yml'))).toContain('name="incomplete merge" file="." time="0">');
    // Files in no suite's fixtures or personas folder name none: no file rather than a wrong one.
    expect(renderJUnit(at('elsewhere/a.yml'))).toContain('<testcase classname="agent-replay" name="incomplete merge" time="0">');
  });

  it('an untrusted file name in a foreign shard is escaped in the markdown', () => {
    const m = mergeRecords([shardRun(1, 1, ['a']), shardRun(1, 1, ['b'], 'eeeeeeeeeeeeeeee')], ['1.json', '<img src=x>*.json']);
    const md = renderMarkdownReport(m);
    expect(md).not.toContain('<img src=x>');
    expect(md).toContain('incomplete: excluded');
  });

  it('compare names the part of the suite a run is: the shard, or the shards a merge lacks', () => {
    const c = compareRuns(full, merged, { first: 'full.json', second: 'merged.json' });
    expect(c.after.part).toBe('a merge lacking shards: shard 2/2 missing');
    expect(renderCompareText(c)).toContain('after:  merged.json, commit ');
    expect(renderCompareText(c)).toContain('(a part of the suite: a merge lacking shards: shard 2/2 missing)');
    expect(renderCompareMarkdown(c)).toMatch(/\(a part of the suite: a merge lacking shards\\?: shard 2\/2 missing\)/);
    const one = compareRuns(full, shardRun(1, 2, ['a', 'b']));
    expect(renderCompareText(one)).toContain('(a part of the suite: shard 1/2)');
    // A file name the merge excluded is escaped in the markdown.
    const excluded = mergeRecords([shardRun(1, 1, ['a']), shardRun(1, 1, ['b'], 'eeeeeeeeeeeeeeee')], ['1.json', '<img src=x>*.json']);
    expect(renderCompareMarkdown(compareRuns(full, excluded))).not.toContain('<img src=x>');
    // A whole run has no part.
    expect(compareRuns(full, full).after.part).toBeUndefined();
  });

  it('compare: the items of the missing shard are neither removed nor added', () => {
    const c = compareRuns(full, merged);
    expect(c.onlyBefore).toEqual([]);
    expect(c.causes.removed).toBe(0);
    expect(c.after.partial).toBe(true);
    const back = compareRuns(merged, { ...full, startedAt: '2026-12-02T09:00:00.000Z' });
    expect(back.onlyAfter).toEqual([]);
    // Without shards, the same difference is items removed (unchanged behaviour).
    expect(compareRuns(full, run([fixture('a'), fixture('b')])).onlyBefore).toEqual(['c', 'd']);
  });
});

describe('mergeRecords: what the merged record says of the shards it holds', () => {
  const changed = (l: string): ReturnType<typeof fixture> => fixture(l, { verdict: 'fail', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } });
  const part = (index: number, labels: string[], over: Partial<RunRecord> = {}): RunRecord =>
    run(
      labels.map((l) => (l.startsWith('x') ? changed(l) : fixture(l))),
      { shard: { index, total: 3, suiteHash: SUITE }, ...over },
    );

  it('the newest agent-replay that wrote a shard, said in a log line when they differ', () => {
    const lines: string[] = [];
    const m = mergeRecords([part(1, ['a'], { tool: { name: 'agent-replay', version: '1.9.0' } }), part(2, ['b'], { tool: { name: 'agent-replay', version: '1.10.0' } }), part(3, ['c'])], ['1.json', '2.json', '3.json'], (l) => lines.push(l));
    expect(m.tool.version).toBe('1.10.0');
    expect(lines).toContain('the shards were written by several versions of agent-replay (shard 1/3 (1.json): 1.9.0; shard 2/3 (2.json): 1.10.0; shard 3/3 (3.json): 0.1.0): the merged record says the newest, 1.10.0; replay every shard with one version to compare like with like');
    const same: string[] = [];
    expect(mergeRecords([part(1, ['a']), part(2, ['b'])], [], (l) => same.push(l)).tool.version).toBe('0.1.0');
    expect(same.filter((l) => l.includes('versions'))).toEqual([]);
  });

  it("the suite's config file a shard names (configName), whichever shard comes first; two that name different files said in the log", () => {
    const yaml: Partial<RunRecord> = { configName: 'config.yaml' };
    const quiet: string[] = [];
    // A shard written before configName was kept, given first, beside one that says config.yaml: the fixes name config.yaml.
    expect(mergeRecords([part(1, ['a']), part(2, ['b'], yaml), part(3, ['c'])], [], (l) => quiet.push(l)).configName).toBe('config.yaml');
    expect(mergeRecords([part(2, ['b'], yaml), part(1, ['a'])], [], (l) => quiet.push(l)).configName).toBe('config.yaml');
    expect(quiet).toEqual([]);
    expect(mergeRecords([part(1, ['a']), part(2, ['b'])]).configName).toBeUndefined();
    // The log's fix for shards that checked meaning otherwise names config.yaml's meaning too.
    const meaningLines: string[] = [];
    mergeRecords([part(1, ['a'], { meaning: { check: 'facts', model: null, promptVersion: '1' } }), part(2, ['b'], { ...yaml, meaning: { check: 'off', model: null, promptVersion: '1' } })], [], (l) => meaningLines.push(l));
    expect(meaningLines.find((l) => l.startsWith('the shards checked meaning differently'))).toContain("the same meaning settings (config.yaml's meaning, and the judge it asks");
    // Named otherwise by a record edited by hand: said, with each shard's.
    const lines: string[] = [];
    expect(mergeRecords([part(1, ['a'], { configName: 'config.yml' }), part(2, ['b'], yaml)], ['1.json', '2.json'], (l) => lines.push(l)).configName).toBe('config.yaml');
    expect(lines).toContain("the records name different config files (shard 1/3 (1.json): config.yml; shard 2/3 (2.json): config.yaml): the merged run's fixes name config.yaml; the shards of one run are of one suite, with one config file: merge the records of one run only");
  });

  it('every agent the shards called, without one endpoint, and a log line naming each shard\'s', () => {
    const lines: string[] = [];
    const at = (host: string): Partial<RunRecord> => ({ agent: { host, endpoint: `https://${host}/chat` } });
    const m = mergeRecords([part(1, ['a'], at('pr-1.example.com')), part(2, ['b'], at('pr-2.example.com')), part(3, ['c'], at('pr-1.example.com'))], ['1.json', '2.json', '3.json'], (l) => lines.push(l));
    expect(m.agent).toEqual({ host: 'pr-1.example.com, pr-2.example.com', endpoint: null });
    expect(lines).toContain(
      'the shards called different agents (shard 1/3 (1.json): https://pr-1.example.com/chat; shard 2/3 (2.json): https://pr-2.example.com/chat; shard 3/3 (3.json): https://pr-1.example.com/chat): the merged run names them all; check that every shard\'s job replays the same preview deployment',
    );
    // One agent, an older shard without `endpoint` included: its address, and nothing said.
    const quiet: string[] = [];
    const one = mergeRecords([part(1, ['a'], { agent: { host: 'pr-1.example.com' } }), part(2, ['b'], at('pr-1.example.com'))], [], (l) => quiet.push(l));
    expect(one.agent).toEqual({ host: 'pr-1.example.com', endpoint: 'https://pr-1.example.com/chat' });
    expect(quiet.filter((l) => l.includes('agents'))).toEqual([]);
  });

  it('every judge the shards were judged by, and a log line naming each shard\'s', () => {
    const lines: string[] = [];
    const by = (name: string | null): Partial<RunRecord> => ({ judge: { name } });
    const m = mergeRecords([part(1, ['a'], by('openai gpt-4o-mini')), part(2, ['b'], by('openai gpt-4o')), part(3, ['c'], by('openai gpt-4o-mini'))], ['1.json', '2.json', '3.json'], (l) => lines.push(l));
    expect(m.judge.name).toBe('"openai gpt-4o-mini", "openai gpt-4o"');
    expect(lines).toContain(
      `the shards were judged by different judges (shard 1/3 (1.json): "openai gpt-4o-mini"; shard 2/3 (2.json): "openai gpt-4o"; shard 3/3 (3.json): "openai gpt-4o-mini"): the merged run names them all; give every shard's job the same judge (the Action's judge-provider, judge-base-url and judge-model inputs; the CLI's --judge-url)`,
    );
    // One judge (a shard without one beside it included): its name, and nothing said.
    const quiet: string[] = [];
    expect(mergeRecords([part(1, ['a'], by('openai gpt-4o')), part(2, ['b'], by(null))], [], (l) => quiet.push(l)).judge.name).toBe('openai gpt-4o');
    expect(quiet.filter((l) => l.includes('judge'))).toEqual([]);
  });

  it('panels whose names hold ", " are each named whole: quoted, in the merged run and the log line; a merge merged again names each judge once', () => {
    const by = (name: string): Partial<RunRecord> => ({ judge: { name } });
    const [p1, p2] = ['panel of 2: openai a, openai b', 'panel of 2: openai a, openai c'];
    const lines: string[] = [];
    const m = mergeRecords([part(1, ['a'], by(p1)), part(2, ['b'], by(p2))], ['1.json', '2.json'], (l) => lines.push(l));
    expect(m.judge.name).toBe('"panel of 2: openai a, openai b", "panel of 2: openai a, openai c"');
    expect(lines[0]).toMatch(/^the shards were judged by different judges \(shard 1\/3 \(1\.json\): "panel of 2: openai a, openai b"; shard 2\/3 \(2\.json\): "panel of 2: openai a, openai c"\): /);
    // A label holding a quote is written so it reads back whole.
    expect(mergeRecords([part(1, ['a'], by('the "strict" judge')), part(2, ['b'], by(p1))], [], () => {}).judge.name).toBe('"the \\"strict\\" judge", "panel of 2: openai a, openai b"');
    // The merge of shards 1 and 2 beside shard 3, judged by the first panel: each judge named once, not a list in a list.
    const partial = { ...m, incomplete: { total: 3, suiteHash: SUITE, missing: [3], foreign: [] } };
    const again: string[] = [];
    const whole = mergeRecords([partial, part(3, ['c'], by(p1))], ['m.json', '3.json'], (l) => again.push(l));
    expect(whole.judge.name).toBe(m.judge.name);
    expect(again.find((l) => l.includes('judges'))).toContain('(the merge of shards 1/3 and 2/3 (m.json): "panel of 2: openai a, openai b", "panel of 2: openai a, openai c"; shard 3/3 (3.json): "panel of 2: openai a, openai b")');
  });

  it('one judge name at different addresses (another judge-base-url in one job) is as many judges, each named with its address', async () => {
    // Written and read back as report reads the shards' artifacts.
    const dir = await tempDir('agent-replay-judge-at-');
    const at = (endpoint: string | undefined) => ({ model: 'openai/gpt-4o-mini', ...(endpoint === undefined ? {} : { endpoint }), promptVersion: '1', criteria: [{ criterion: 'polite', threshold: 0.7 }] });
    const judged = (index: number, label: string, endpoint: string | undefined): RunRecord =>
      run([fixture(label, { judgeFingerprint: at(endpoint) })], { shard: { index, total: 3, suiteHash: SUITE }, judge: { name: 'openai gpt-4o-mini' } });
    const given = [judged(1, 'a', 'https://judge-a.example/v1'), judged(2, 'b', 'https://judge-b.example/v1'), judged(3, 'c', 'https://judge-a.example/v1')];
    const files = given.map((_, k) => join(dir, `${k + 1}.json`));
    await Promise.all(given.map((r, k) => writeRecord(files[k] as string, r)));
    const records = await Promise.all(files.map((f) => readRecord(f)));
    const lines: string[] = [];
    const m = mergeRecords(records, ['1.json', '2.json', '3.json'], (l) => lines.push(l));
    expect(m.judge.name).toBe('"openai gpt-4o-mini at https://judge-a.example/v1", "openai gpt-4o-mini at https://judge-b.example/v1"');
    expect(lines).toContain(
      `the shards were judged by different judges (shard 1/3 (1.json): "openai gpt-4o-mini at https://judge-a.example/v1"; shard 2/3 (2.json): "openai gpt-4o-mini at https://judge-b.example/v1"; shard 3/3 (3.json): "openai gpt-4o-mini at https://judge-a.example/v1"): the merged run names them all; give every shard's job the same judge (the Action's judge-provider, judge-base-url and judge-model inputs; the CLI's --judge-url)`,
    );
    // One address, or a record from before addresses were kept beside it: one judge, nothing said.
    const quiet: string[] = [];
    expect(mergeRecords([records[0] as RunRecord, judged(2, 'b', undefined), records[2] as RunRecord], [], (l) => quiet.push(l)).judge.name).toBe('openai gpt-4o-mini');
    expect(quiet.filter((l) => l.includes('judge'))).toEqual([]);
  });

  it('shards that checked meaning otherwise are said as different judges are: each shard\'s in the log, every meaning judge in the merged run; different checks, none', async () => {
    const dir = await tempDir('agent-replay-meaning-shards-');
    const judgeAt = (model: string, endpoint: string): NonNullable<RunRecord['meaning']> => ({ check: 'judge', model, provider: 'openai', endpoint, promptVersion: '1' });
    const given = [part(1, ['a'], { meaning: judgeAt('gpt-4o-mini', 'https://a.example/v1') }), part(2, ['b'], { meaning: judgeAt('gpt-4o-mini', 'https://b.example/v1') }), part(3, ['c'], { meaning: judgeAt('gpt-4.1-mini', 'https://a.example/v1') })];
    const files = given.map((_, k) => join(dir, `${k + 1}.json`));
    await Promise.all(given.map((r, k) => writeRecord(files[k] as string, r)));
    const [s1, s2, s3] = (await Promise.all(files.map((f) => readRecord(f)))) as [RunRecord, RunRecord, RunRecord];
    const lines: string[] = [];
    const m = mergeRecords([s1, s2, s3], ['1.json', '2.json', '3.json'], (l) => lines.push(l));
    const models = ['gpt-4o-mini at https://a.example/v1', 'gpt-4o-mini at https://b.example/v1', 'gpt-4.1-mini at https://a.example/v1'];
    expect(m.meaning).toEqual({ check: 'judge', model: '"gpt-4o-mini at https://a.example/v1", "gpt-4o-mini at https://b.example/v1", "gpt-4.1-mini at https://a.example/v1"', models, provider: 'openai', promptVersion: '1' });
    expect(lines).toContain(
      `the shards checked meaning differently (shard 1/3 (1.json): check judge, "gpt-4o-mini at https://a.example/v1"; shard 2/3 (2.json): check judge, "gpt-4o-mini at https://b.example/v1"; shard 3/3 (3.json): check judge, "gpt-4.1-mini at https://a.example/v1"): the merged run names every meaning judge; give every shard's job the same meaning settings (config.yml's meaning, and the judge it asks: the Action's judge-provider, judge-base-url and judge-model inputs; the CLI's --judge-url)`,
    );
    expect(parseRecord(serializeRecord(m), 'm.json').meaning).toEqual(m.meaning);
    // Another check (facts beside the judge): no one check was the run's; whichever comes first, none.
    const facts = { ...s2, meaning: { check: 'facts' as const, model: null, promptVersion: '1' } };
    for (const order of [[s1, facts], [facts, s1]]) {
      const said: string[] = [];
      expect('meaning' in mergeRecords(order, [], (l) => said.push(l))).toBe(false);
      expect(said.filter((l) => l.startsWith('the shards checked meaning differently'))).toHaveLength(1);
    }
    expect(lines.filter((l) => l.includes('says none'))).toEqual([]);
    // The same meaning judge, one record without its address (written before it was kept): one, nothing said.
    const quiet: string[] = [];
    const { endpoint: _at, ...older } = s1.meaning as NonNullable<RunRecord['meaning']>;
    expect(mergeRecords([{ ...s3, meaning: older }, s1], [], (l) => quiet.push(l)).meaning).toEqual(older);
    expect(quiet.filter((l) => l.includes('meaning'))).toEqual([]);
    // Without a meaning judge there is no prompt to differ by: facts and facts are one check.
    const facts1 = { ...s1, meaning: { check: 'facts' as const, model: null, promptVersion: '1' } };
    expect(mergeRecords([facts1, { ...s2, meaning: { check: 'facts', model: null, promptVersion: '2' } }], [], (l) => quiet.push(l)).meaning).toEqual(facts1.meaning);
    expect(quiet).toEqual([]);
  });

  it('meaning judges and prompt versions whose names hold ", " are each named whole: quoted, in the merged run and the log line; a merge merged again names each once', () => {
    const judged = (model: string, promptVersion: string): Partial<RunRecord> => ({ meaning: { check: 'judge', model, provider: 'openai', promptVersion } });
    const lines: string[] = [];
    const m = mergeRecords([part(1, ['a'], judged('my, model', '1')), part(2, ['b'], judged('gpt-4o', '2, beta'))], ['1.json', '2.json'], (l) => lines.push(l));
    expect(m.meaning).toEqual({ check: 'judge', model: '"my, model", "gpt-4o"', models: ['my, model', 'gpt-4o'], provider: 'openai', promptVersion: '"1", "2, beta"', promptVersions: ['1', '2, beta'] });
    expect(lines[0]).toMatch(/^the shards checked meaning differently \(shard 1\/3 \(1\.json\): check judge, "my, model", prompt "1"; shard 2\/3 \(2\.json\): check judge, "gpt-4o", prompt "2, beta"\): /);
    expect(parseRecord(serializeRecord(m), 'm.json').meaning).toEqual(m.meaning);
    // The merge of shards 1 and 2 beside shard 3, asked the first one's: each judge and prompt named once, not a list in a list.
    const partial = { ...m, incomplete: { total: 3, suiteHash: SUITE, missing: [3], foreign: [] } };
    const again: string[] = [];
    const whole = mergeRecords([partial, part(3, ['c'], judged('my, model', '1'))], ['m.json', '3.json'], (l) => again.push(l));
    expect(whole.meaning).toEqual(m.meaning);
    expect(again.find((l) => l.includes('meaning'))).toContain('(the merge of shards 1/3 and 2/3 (m.json): check judge, "my, model", "gpt-4o", prompt "1", "2, beta"; shard 3/3 (3.json): check judge, "my, model", prompt "1")');
    // Shards of one judge and one prompt: its name as it is, unquoted.
    expect(mergeRecords([part(1, ['a'], judged('my, model', '1')), part(2, ['b'], judged('my, model', '1'))], [], () => {}).meaning).toEqual({ check: 'judge', model: 'my, model', provider: 'openai', promptVersion: '1' });
  });

  it('a single judge, meaning judge or prompt whose name reads as a quoted list is one name; a merge\'s list, read back from its file, is its names', async () => {
    // A judge label, a meaning model and a prompt version each written `"a", "b"`: one name each, never two.
    const odd = '"a", "b"';
    const given = part(1, ['a'], { judge: { name: odd }, meaning: { check: 'judge', model: odd, provider: 'openai', promptVersion: odd } });
    const other = part(2, ['b'], { judge: { name: 'openai c' }, meaning: { check: 'judge', model: 'c', provider: 'openai', promptVersion: '1' } });
    const lines: string[] = [];
    const m = mergeRecords([given, other], ['1.json', '2.json'], (l) => lines.push(l));
    expect(m.judge.names).toEqual([odd, 'openai c']);
    expect(m.judge.name).toBe('"\\"a\\", \\"b\\"", "openai c"');
    expect(m.meaning).toMatchObject({ models: [odd, 'c'], promptVersions: [odd, '1'] });
    expect(lines[0]).toContain('(shard 1/3 (1.json): "\\"a\\", \\"b\\""; shard 2/3 (2.json): "openai c")');
    // Alone, or beside a shard of the same judge, it is said as it is, with no list beside it.
    const same = mergeRecords([given, { ...other, judge: given.judge, meaning: given.meaning }]);
    expect(same.judge).toEqual({ name: odd });
    expect(same.meaning).toEqual(given.meaning);
    // Written and read back, the merge of shards 1 and 2 merged again beside shard 3 names each once, the odd name whole.
    const dir = await tempDir('agent-replay-judge-list-');
    await writeRecord(join(dir, 'm.json'), { ...m, incomplete: { total: 3, suiteHash: SUITE, missing: [3], foreign: [] } });
    const read = await readRecord(join(dir, 'm.json'));
    expect(read.judge.names).toEqual(m.judge.names);
    const whole = mergeRecords([read, part(3, ['c'], { judge: { name: odd }, meaning: given.meaning })], [], () => {});
    expect(whole.judge).toEqual(m.judge);
    expect(whole.meaning).toEqual(m.meaning);
  });

  it('the stats seed depends only on the shards merged: a merge of a partial merge gives the seed of merging the shards directly', () => {
    const shards = (): RunRecord[] => [part(1, ['a', 'x1']), part(2, ['b', 'x2']), part(3, ['c', 'x3'])];
    const [s1, s2, s3] = shards() as [RunRecord, RunRecord, RunRecord];
    const direct = mergeRecords([s1, s2, s3]);
    const partial = mergeRecords([s2, s1]);
    const grouped = mergeRecords([partial, s3]);
    const reversed = mergeRecords([s3, mergeRecords([s1, s2])]);
    expect(direct.stats?.seed).toBe(SUITE);
    expect(grouped.stats).toEqual(direct.stats);
    expect(reversed.stats).toEqual(direct.stats);
  });
});
