// A results.json written before a run stored a repeated item's attempt that replied otherwise than
// the baseline reply shown (meaning.check off) as its meaning: read as a run stores it now where the
// record holds all it takes, and named once where it does not (src/evaluate/older-records.ts;
// docs/results-json.md, "Records of an older agent-replay").

import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combineFixtureAttempts, combinePersonaAttempts, planAcceptance, readAsStoredNow } from '../../src/evaluate/index.js';
import { olderRecordNote, parseRecord, serializeRecord } from '../../src/record/index.js';
import { sectionOf } from '../../src/report/model.js';
import { renderComment } from '../../src/report/markdown.js';
import { escapeInline } from '../../src/report/escape.js';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, persona, personaBaseline, refundTurns, run } from '../report/fixtures.js';
import { cli } from '../cli/helpers.js';
import { tempDir } from '../support/temp.js';
import { fixtureAttemptMeanings } from '../../src/replay/fixture.js';
import { scriptAttemptMeanings } from '../../src/replay/personas.js';
import type { MeaningRung } from '../../src/replay/meaning.js';
import type { Fixture } from '../../src/types.js';
import { attempt, fixtureRecords, OTHER, repeat, STORED } from '../support/older-record.js';

const off = { check: 'off' as const, model: null, promptVersion: 'meaning-v1' };
const judged = { check: 'judge' as const, model: 'gpt-4o-mini', promptVersion: 'meaning-v1' };
const at = '2026-12-07T00:00:00.000Z';

/** The record as results.json holds it, read back. */
const reread = (r: RunRecord): RunRecord => parseRecord(serializeRecord(r), 'results.json');

describe('a repeated fixture recorded with meaning.check off before its other attempts were its meaning', () => {
  it('reads as a run stores it now: Changed by attempt 2, named as acceptance refuses it', () => {
    const { now, old } = fixtureRecords([STORED, OTHER, OTHER]);
    expect(now.drift?.meaning).toEqual({ value: 'unchecked', by: null, detail: 'attempt 2: replied otherwise than attempt 1' });
    // The old writer's record: unchanged, no meaning.
    expect(old.drift?.meaning).toBeUndefined();
    expect(sectionOf(old)).toBe('unchanged');
    const read = reread(run([old], { meaning: off }));
    expect(read.fixtures[0]).toEqual(now);
    expect(sectionOf(read.fixtures[0] as FixtureRecord)).toBe('changed');
    expect(olderRecordNote(read)).toBeNull();
    // Accept mode refuses it, as it did, and the report made from it names the same attempts.
    expect(planAcceptance(read, new Map(), { only: null, acceptedAt: at }).refused).toEqual([{ label: 'refund', reason: 'replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1' }]);
    // The comment accept mode writes over the reviewed one (renderComment) says so too, not "1 unchanged".
    const md = renderComment(read, ctx);
    expect(md).not.toContain('No regressions: 1 unchanged');
    expect(md).toContain('meaning not checked: attempt 2: replied otherwise than attempt 1');
    expect(md).toContain(`The label would refuse \`refund\` (${escapeInline('replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1')})`);
  });

  it("is left as it is where no attempt replied otherwise, and today's record reads as written", () => {
    const same = fixtureRecords([STORED, STORED, STORED]);
    expect(same.now.drift?.meaning).toBeUndefined();
    const r = run([same.old], { meaning: off });
    expect(readAsStoredNow(r).record).toBe(r);
    const today = run([fixtureRecords([STORED, OTHER, STORED]).now], { meaning: off });
    expect(readAsStoredNow(today)).toEqual({ record: today, unsure: [] });
    // The attempt shown differs from the baseline: its reply is what the item names, then as now.
    const differs = run([fixtureRecords([OTHER, STORED, STORED]).old], { meaning: off });
    expect(readAsStoredNow(differs).record).toBe(differs);
  });

  it("is read as written, and named once, where the run checked meaning or the record does not say: what a run stores now of its attempts is not in it", () => {
    const { old } = fixtureRecords([STORED, OTHER, OTHER]);
    const second = { ...old, label: 'shipping' };
    for (const meaning of [judged, undefined]) {
      const read = reread(run([old, fixture('plain'), second], meaning === undefined ? {} : { meaning }));
      expect(read.fixtures[0]?.drift?.meaning).toBeUndefined();
      // Never accepted: the refusal the note names.
      expect(planAcceptance(read, new Map(), { only: null, acceptedAt: at }).refused.map((r) => r.reason)).toEqual([
        'replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1',
        'replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1',
      ]);
      expect(olderRecordNote(read)).toBe(
        "results.json: written by an older agent-replay: 2 repeated items (refund, shipping) show the baseline's reply while another attempt replied otherwise, and the record lacks what a run now keeps of that attempt (its meaning; a script's: who ended its conversation), so they read as recorded, with no word of that attempt, and accept refuses them (replies vary); run them again to see them as a run does now (run --only refund,shipping)",
      );
    }
    // docs/results-json.md quotes the line as a reader says it of one item (its line breaks aside).
    const page = readFileSync('docs/results-json.md', 'utf8').replace(/\s*\n\s*/g, ' ');
    expect(page).toContain(`\`warning: ${olderRecordNote(reread(run([old], { meaning: judged })), 'results.json') ?? ''}\``);
  });
});

describe('a repeated script recorded with meaning.check off before its other attempts were its meaning', () => {
  const turns = refundTurns();
  const other = turns.map((t) => (t.index === 2 ? { ...t, reply: 'Order 1234 is a kettle, delivered on 28 November. What happened?' } : t));
  const drift = { transcript: 'same', route: 'same', verdict: 'still_passing' } as const;
  // Each attempt's record holds the baseline it was compared with, as replay/personas.ts records it.
  const attemptOf = (ts: typeof turns, endedBy: PersonaRecord['endedBy'], base: PersonaRecord['baseline']): PersonaRecord =>
    persona('p', { turns: ts, baseline: base, ...(endedBy === undefined ? {} : { endedBy }), drift: { ...drift, transcript: ts === turns ? 'same' : 'different' } });
  const records = (endings: (PersonaRecord['endedBy'])[], base = personaBaseline('p', turns)): { now: PersonaRecord; old: PersonaRecord } => {
    const now = combinePersonaAttempts([attemptOf(turns, endings[0], base), attemptOf(other, endings[1], base)], { count: 2, minPass: 2 }, base, [null, null]);
    const { meaning: _, ...d } = now.drift as NonNullable<PersonaRecord['drift']>;
    return { now, old: { ...now, drift: d } as PersonaRecord };
  };

  it('reads as a run stores it now where its attempts say who ended their conversation', () => {
    const { now, old } = records(['script', 'script']);
    expect(now.drift?.meaning).toEqual({ value: 'unchecked', by: null, detail: 'attempt 2: replied otherwise than attempt 1' });
    const read = reread(run([], { meaning: off, personas: [old] }));
    expect(read.personas[0]).toEqual(now);
    expect(olderRecordNote(read)).toBeNull();
    // Against a baseline that keeps who ended it, an attempt whose agent ended it otherwise is named first, as a run names it.
    const ended = records(['script', 'agent'], { ...personaBaseline('p', turns), endedBy: 'script' });
    expect(ended.now.drift?.meaning).toMatchObject({ value: 'changed', by: 'turns', detail: "attempt 2: the agent ended the conversation on turn 3, where attempt 1's agent did not end it" });
    expect(reread(run([], { meaning: off, personas: [ended.old] })).personas[0]).toEqual(ended.now);
  });

  it('is read as written, and named, where its attempts do not say who ended their conversation (a record written before they did)', () => {
    const { old } = records(['script', 'script']);
    const before = { ...old, attempts: old.attempts?.map(({ endedBy: _, ...a }) => a) } as PersonaRecord;
    const read = reread(run([], { meaning: off, personas: [before] }));
    expect(read.personas[0]).toEqual(before);
    expect(olderRecordNote(read)).toContain('the repeated item p shows the baseline\'s reply while another attempt replied otherwise');
    expect(olderRecordNote(read)).toContain('run it again to see it as a run does now (run --only p)');
  });
});

describe('a repeated item recorded with meaning checked before an attempt changed against attempt 1 was its meaning', () => {
  // The run's own ladder with meaning.check facts and no meaning judge: numbers decide, a rewording is asked of none (unchecked).
  const facts: MeaningRung = { check: 'facts', threshold: 0.8, ask: null };
  const reworded: MeaningRung = { check: 'judge', threshold: 0.8, ask: () => Promise.resolve({ ok: true, score: 0.95, difference: 'same facts, other words', reused: false }) };
  const CHANGED = 'Returns are accepted within 14 days of delivery.';
  const checkedFacts = { check: 'facts' as const, model: null, promptVersion: 'meaning-v1' };

  /** The record a run makes now of these attempts, each compared with attempt 1 as replay/fixture.ts compares it, and the one a run before made: the same without the item's meaning. */
  async function checkedRecords(replies: string[], rung: MeaningRung): Promise<{ now: FixtureRecord; old: FixtureRecord }> {
    const b = baseline('refund', STORED);
    const records = replies.map(attempt);
    const meanings = await fixtureAttemptMeanings({ message: records[0]?.message, persona: null } as Fixture, records, rung, b);
    const now = combineFixtureAttempts(records, repeat, b, meanings);
    const { meaning: _, ...drift } = now.drift as NonNullable<FixtureRecord['drift']>;
    return { now, old: { ...now, drift } as FixtureRecord };
  }

  it('a fixture reads as a run stores it now: Changed by the attempt that changed a fact, named', async () => {
    const { now, old } = await checkedRecords([STORED, STORED, CHANGED], facts);
    expect(now.attempts?.[2]?.meaning).toMatchObject({ value: 'changed', by: 'facts' });
    expect(now.drift?.meaning).toMatchObject({ value: 'changed', by: 'facts', detail: 'attempt 3: numbers 30 → 14' });
    expect(sectionOf(old)).toBe('unchanged');
    const read = reread(run([old], { meaning: checkedFacts }));
    expect(read.fixtures[0]).toEqual(now);
    expect(sectionOf(read.fixtures[0] as FixtureRecord)).toBe('changed');
    expect(olderRecordNote(read)).toBeNull();
    // Attempts only reworded against attempt 1: unchanged then as now, and nothing said.
    const same = await checkedRecords([STORED, OTHER, OTHER], reworded);
    expect(same.now.drift?.meaning).toBeUndefined();
    const r = run([same.old], { meaning: judged });
    expect(readAsStoredNow(r)).toEqual({ record: r, unsure: [] });
  });

  it('a fixture whose other attempt that replied otherwise carries no meaning is read as written, and named', async () => {
    const { old } = await checkedRecords([STORED, CHANGED, OTHER], facts);
    // Attempt 3's meaning left out, as no run writes it: what a run now keeps of it is not in the record.
    const lacking = { ...old, attempts: old.attempts?.map(({ meaning, ...a }, k) => (k === 2 ? a : { ...a, ...(meaning == null ? {} : { meaning }) })) } as FixtureRecord;
    const read = reread(run([lacking], { meaning: checkedFacts }));
    expect(read.fixtures[0]).toEqual(lacking);
    expect(olderRecordNote(read)).toContain('the repeated item refund shows the baseline');
  });

  it("a script reads as a run stores it now: Changed by the attempt whose agent ended the conversation otherwise", async () => {
    const turns = refundTurns();
    const base = { ...personaBaseline('p', turns), endedBy: 'script' as const };
    const records = (['script', 'agent'] as const).map((endedBy) => persona('p', { turns, baseline: base, endedBy, drift: { transcript: 'same', route: 'same', verdict: 'still_passing' } }));
    const meanings = await scriptAttemptMeanings(records, facts, base);
    const detail = "the agent ended the conversation on turn 3, where attempt 1's agent did not end it";
    expect(meanings).toEqual([null, { value: 'changed', by: 'turns', detail }]);
    const now = combinePersonaAttempts(records, { count: 2, minPass: 2 }, base, meanings);
    expect(now.drift?.meaning).toEqual({ value: 'changed', by: 'turns', detail: `attempt 2: ${detail}` });
    const { meaning: _, ...d } = now.drift as NonNullable<PersonaRecord['drift']>;
    const old = { ...now, drift: d } as PersonaRecord;
    expect(sectionOf(old)).toBe('unchanged');
    const read = reread(run([], { meaning: checkedFacts, personas: [old] }));
    expect(read.personas[0]).toEqual(now);
    expect(olderRecordNote(read)).toBeNull();
  });
});

describe('the readers of such a record', () => {
  it('say which items read as written, once per file: compare names them, and the item read as a run stores it now is compared so', async () => {
    const cwd = await tempDir('older-repeat-');
    const { old } = fixtureRecords([STORED, OTHER, OTHER]);
    const unsure = run([{ ...old, label: 'shipping' }], { meaning: judged });
    await writeFile(join(cwd, 'before.json'), serializeRecord(run([old], { meaning: off })));
    await writeFile(join(cwd, 'after.json'), serializeRecord({ ...unsure, startedAt: '2026-12-02T09:00:00.000Z' }));
    const r = await cli(['compare', 'before.json', 'after.json'], cwd);
    expect(r.code).toBe(0);
    expect(r.stderr.match(/^warning: after\.json: written by an older agent-replay: the repeated item shipping shows/gm)).toHaveLength(1);
    expect(r.stderr).not.toContain('before.json');
  });

  it('say so where its items choose what runs: run --rerun and --timings, once per file', async () => {
    const cwd = await tempDir('older-rerun-');
    const { old } = fixtureRecords([STORED, OTHER, OTHER]);
    await writeFile(join(cwd, 'old.json'), serializeRecord(run([old], { meaning: judged })));
    await writeFile(join(cwd, 'other.json'), serializeRecord(run([{ ...old, label: 'shipping' }], { meaning: judged })));
    // No suite folder here: the run stops at its load, after the records were read and said (nothing is sent).
    const said = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('warning: ') && l.includes('written by an older agent-replay'));
    const both = await cli(['run', '--rerun', 'old.json', '--shard', '1/2', '--timings', 'old.json'], cwd);
    expect(both.code).not.toBe(0);
    expect(said(both.stderr)).toEqual([`warning: ${olderRecordNote(reread(run([old], { meaning: judged })), 'old.json') ?? ''}`]);
    const two = await cli(['run', '--rerun', 'old.json', '--shard', '1/2', '--timings', 'other.json'], cwd);
    expect(said(two.stderr).map((l) => l.slice(0, l.indexOf(': written')))).toEqual(['warning: old.json', 'warning: other.json']);
    expect(said(two.stderr)[1]).toContain('the repeated item shipping shows');
  });
});
