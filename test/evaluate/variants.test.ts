// Variants and repeats in acceptance (docs/meaning.md, "Variants" and "Repeats"): what accepting a
// record writes into `variants`, from records carrying drift.meaning and attempt meanings as the
// runner writes them; which repeated items are refused, and with which words.

import { describe, expect, it } from 'vitest';
import { decideAcceptance, decidePersonaAcceptance, knownWordings, planAcceptance, variantsFor } from '../../src/evaluate/index.js';
import type { Baseline, FixtureAttempt, FixtureRecord, Meaning, PersonaAttempt, PersonaBaseline, PersonaRecord, Turn } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';
import { refusalSentence } from '../../src/report/blocks.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { TOOL } from '../../src/version.js';
import { renderComment } from '../../src/report/index.js';
import { escapeInline } from '../../src/report/escape.js';
import { ctx, run } from '../report/fixtures.js';

const NOW = '2026-12-02T00:00:00.000Z';
const OLD = 'Refunds are accepted within 30 days.';
const NEW = 'You can return items within 30 days for a full refund.';

const REWORDED: Meaning = { value: 'reworded', by: 'judge', detail: 'same facts', score: 0.93, reused: false };
const FORMATTING: Meaning = { value: 'formatting', by: 'normalize', detail: null };
const VARIANT: Meaning = { value: 'variant', by: 'variant', detail: null };
const CHANGED: Meaning = {
  value: 'changed',
  by: 'facts',
  detail: 'numbers 30 → 14',
  facts: { baseline: [{ kind: 'number', value: '30' }], now: [{ kind: 'number', value: '14' }] },
};
const UNCHECKED: Meaning = { value: 'unchecked', by: null, detail: 'the facts are the same and meaning.check is facts, which asks no model' };

const baseline = (over: Partial<Baseline> = {}): Baseline => ({ label: 'f', reply: OLD, route: null, verdict: 'pass', acceptedAt: '2026-11-01T00:00:00.000Z', commit: null, ...over });

/** A replayed fixture whose reply differs from `base` with `meaning`, as the runner records it. */
const drifted = (meaning: Meaning | null | undefined, base: Baseline = baseline(), over: Partial<FixtureRecord> = {}): FixtureRecord =>
  fixtureRecord(over, {
    reply: NEW,
    baseline: base,
    drift: { reply: base.reply === (over.reply ?? NEW) ? 'same' : 'different', route: 'same', verdict: base.verdict === (over.verdict ?? 'pass') ? (base.verdict === 'pass' ? 'still_passing' : 'still_failing') : 'newly_passing', ...(meaning !== undefined ? { meaning } : {}) },
  });

/** The variants acceptance writes for the record (undefined: none), or the decision when it is not an accept. */
function written(record: FixtureRecord, current: Baseline | null = record.baseline): string[] | undefined | string {
  const d = decideAcceptance(record, NOW, null, current);
  if (d.kind !== 'accept') return d.kind === 'refuse' ? `refused: ${d.reason}` : d.kind;
  return d.baseline.variants;
}

describe('accepting a reply keeps or clears the variants', () => {
  it('reworded: the previous reply and its variants are kept, newest first', () => {
    expect(written(drifted(REWORDED, baseline({ variants: ['Returns: 30 days.', 'Refund window: 30 days.'] })))).toEqual([OLD, 'Returns: 30 days.', 'Refund window: 30 days.']);
    expect(written(drifted(REWORDED))).toEqual([OLD]);
  });

  it('formatting: the previous reply equals the new one after normalization, so only its variants are kept', () => {
    const record = drifted(FORMATTING, baseline({ reply: '**You can return items** within 30 days for a full refund', variants: ['Returns: 30 days.'] }));
    expect(written(record)).toEqual(['Returns: 30 days.']);
  });

  it('variant: the known variant it matched becomes the baseline reply and leaves the list', () => {
    const record = drifted(VARIANT, baseline({ variants: ['Returns: 30 days.', `  ${NEW.toUpperCase()}  `] }));
    expect(written(record)).toEqual([OLD, 'Returns: 30 days.']);
  });

  it.each<[string, Meaning | null | undefined]>([
    ['changed', CHANGED],
    ['unchecked', UNCHECKED],
    ['null (meaning.check off)', null],
    ['absent (an older record)', undefined],
  ])('%s: the variants are cleared', (_name, meaning) => {
    const d = decideAcceptance(drifted(meaning, baseline({ variants: ['Returns: 30 days.'] })), NOW, null);
    expect(d.kind).toBe('accept');
    expect(d.kind === 'accept' && d.baseline).not.toHaveProperty('variants');
  });

  it('a verdict that changed clears them, even when reworded', () => {
    const record = drifted(REWORDED, baseline({ verdict: 'fail', variants: ['Returns: 30 days.'] }), { verdict: 'pass' });
    expect(record.drift?.verdict).toBe('newly_passing');
    expect(written(record)).toBeUndefined();
  });

  it('no baseline: none', () => {
    expect(written(fixtureRecord({ reply: NEW }))).toBeUndefined();
  });

  it('the same reply keeps its variants as they are: unchanged when nothing else differs, rewritten with them when the judge did', () => {
    const base = baseline({ reply: NEW, variants: ['Returns: 30 days.'] });
    expect(written(drifted(null, base))).toBe('unchanged');
    const judged = drifted(null, base, {
      score: 0.9,
      rationale: 'ok',
      judgeFingerprint: { model: 'm2', promptVersion: '1', criteria: [{ criterion: 'c', threshold: 0.5 }] },
    });
    const d = decideAcceptance(judged, NOW, null, { ...base, judge: { score: 0.9, rationale: 'ok', fingerprint: { model: 'm1', promptVersion: '1', criteria: [{ criterion: 'c', threshold: 0.5 }] } } });
    expect(d.kind === 'accept' && d.baseline.variants).toEqual(['Returns: 30 days.']);
  });

  it('at most 10, the oldest dropped; distinct after normalization', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `Wording number ${i + 1}.`);
    expect(written(drifted(REWORDED, baseline({ variants: ten })))).toEqual([OLD, ...ten.slice(0, 9)]);
    expect(written(drifted(REWORDED, baseline({ variants: ['Returns: *30 days*', 'returns: 30 days.', NEW] })))).toEqual([OLD, 'Returns: *30 days*']);
    expect(variantsFor('a', ['b', 'B.', 'c', '  A '])).toEqual(['b', 'c']);
  });

  it('the stored baseline holding this very reply keeps its variants; otherwise the compared baseline decides', () => {
    // Someone accepted this reply (with a variant) after the run: its list stands.
    const stored = baseline({ reply: NEW, variants: ['Returns: 30 days.'], acceptedAt: '2026-12-01T00:00:00.000Z' });
    expect(written(drifted(REWORDED), stored)).toBe('unchanged');
    // Another reply was stored since: the meaning was decided against the compared one, whose reply is kept.
    expect(written(drifted(REWORDED), baseline({ reply: 'Something else entirely.', variants: ['x y z'] }))).toEqual([OLD]);
  });

  it('a reworded reply accepted twice: the second acceptance is unchanged', () => {
    const first = decideAcceptance(drifted(REWORDED), NOW, null);
    expect(first.kind).toBe('accept');
    const stored = (first as { baseline: Baseline }).baseline;
    expect(decideAcceptance(drifted(REWORDED), NOW, null, stored)).toEqual({ kind: 'unchanged' });
  });
});

// --- repeats ------------------------------------------------------------------------------------

const attempt = (reply: string | null, meaning?: Meaning | null, over: Partial<FixtureAttempt> = {}): FixtureAttempt => ({
  errored: reply === null,
  error: reply === null ? 'HTTP 500' : null,
  errorKind: reply === null ? 'http' : null,
  reply,
  route: null,
  ...(meaning !== undefined ? { meaning } : {}),
  verdict: reply === null ? null : 'pass',
  detail: '',
  score: null,
  rationale: null,
  durationMs: 1,
  ...over,
});

const repeated = (attempts: FixtureAttempt[], over: Partial<FixtureRecord> = {}): FixtureRecord =>
  fixtureRecord(over, { reply: attempts.find((a) => a.reply !== null)?.reply ?? null, attempts, repeat: { count: attempts.length, minPass: 1, passed: attempts.filter((a) => a.verdict === 'pass').length, flaky: false } });

describe('a repeated item', () => {
  const A1 = 'Refunds are accepted within 30 days.';
  const A2 = 'You can get a refund within 30 days.';
  const A3 = 'Returns are refunded for 30 days after purchase.';

  it('whose attempts differ only in wording is accepted with attempt 1 reply, the others as its variants', () => {
    const d = decideAcceptance(repeated([attempt(A1), attempt(A2, REWORDED), attempt(A3, REWORDED)]), NOW, null);
    expect(d).toMatchObject({ kind: 'accept', baseline: { reply: A1, variants: [A2, A3], attempts: { passed: 3, total: 3 } } });
  });

  it('an attempt equal to attempt 1, or to another, or differing only in formatting, adds no variant', () => {
    const d = decideAcceptance(repeated([attempt(A1), attempt(A1), attempt(A2, REWORDED), attempt(A2, REWORDED), attempt(`**${A1}**`, FORMATTING)]), NOW, null);
    expect(d).toMatchObject({ kind: 'accept', baseline: { reply: A1, variants: [A2] } });
  });

  it("the attempts' variants come first, then the previous reply kept by the item's own meaning", () => {
    const base = baseline({ reply: 'Refunds: thirty days.', variants: ['Refunds within a month.'] });
    const record = repeated([attempt(A1), attempt(A2, REWORDED)], { baseline: base, drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: REWORDED } });
    expect(written(record)).toEqual([A2, 'Refunds: thirty days.', 'Refunds within a month.']);
    // The item's own meaning changed: the old ones go, the attempts' stay.
    const changed = repeated([attempt(A1), attempt(A2, REWORDED)], { baseline: base, drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: CHANGED } });
    expect(written(changed)).toEqual([A2]);
  });

  it('an attempt that differs in meaning is refused, named with its facts', () => {
    const record = repeated([attempt(A1), attempt('Refunds are accepted within 14 days.', CHANGED), attempt(A2, REWORDED)]);
    expect(written(record)).toBe('refused: replies differ in meaning across 3 attempts: attempt 2: numbers 30 → 14');
  });

  it('every attempt that differs in meaning or was not checked is named', () => {
    const judged: Meaning = { value: 'changed', by: 'judge', detail: 'now refuses refunds', score: 0.1, reused: false };
    const record = repeated([attempt(A1), attempt(A2, UNCHECKED), attempt('No refunds.', judged), attempt(A3, REWORDED)]);
    expect(written(record)).toBe(
      'refused: replies differ in meaning across 4 attempts: attempt 2: meaning not checked: the facts are the same and meaning.check is facts, which asks no model; attempt 3: now refuses refunds',
    );
  });

  it('attempts none of which changed in meaning, only not checked, are refused as not checked, each cause said once, with the fix that checks them', () => {
    const down: Meaning = { value: 'unchecked', by: null, detail: 'meaning judge unreachable: connection refused (ECONNREFUSED)' };
    const facts = String(written(repeated([attempt(A1), attempt(A2, UNCHECKED), attempt(A3, UNCHECKED), attempt(A1)])));
    const reason = 'replies vary across 4 attempts, their meaning not checked: attempts 2 and 3: the facts are the same and meaning.check is facts, which asks no model';
    expect(facts).toBe(`refused: ${reason}`);
    // Never "differ in meaning": nothing says they do.
    expect(facts).not.toContain('differ in meaning');
    expect(refusalSentence(reason)).toBe(
      `${reason}. There is no one reply to store: have a model check their meaning (meaning.check: judge, the default once the suite's config has a judge: https://github.com/agent-replay/agent-replay/blob/v${TOOL.version}/docs/meaning.md#configuration), or accept after a run whose attempts agree.`,
    );
    quotedAndSaid(reason, 'replies vary across <N> attempts, their meaning not checked: attempts 2 and 3: the facts are the same and meaning.check is facts, which asks no model');
    // Two causes, each with its attempts; a judge that did not answer is not fixed by one.
    const mixed = 'replies vary across 3 attempts, their meaning not checked: attempt 2: the facts are the same and meaning.check is facts, which asks no model; attempt 3: meaning judge unreachable: connection refused (ECONNREFUSED)';
    expect(written(repeated([attempt(A1), attempt(A2, UNCHECKED), attempt(A3, down)]))).toBe(`refused: ${mixed}`);
    const unreachable = 'replies vary across 2 attempts, their meaning not checked: attempt 2: meaning judge unreachable: connection refused (ECONNREFUSED)';
    expect(written(repeated([attempt(A1), attempt(A2, down)]))).toBe(`refused: ${unreachable}`);
    expect(refusalSentence(unreachable)).toBe(`${unreachable}. There is no one reply to store: run again once their meaning can be checked, or accept after a run whose attempts agree.`);
  });

  it('an older record whose attempts carry a meaning or none: those without one that differ are named after those that differ in meaning', () => {
    const base = baseline({ reply: 'Refunds: thirty days.' });
    const record = repeated([attempt(A1), attempt('Refunds are accepted within 14 days.', CHANGED), attempt(A3, null), attempt(A1, null), attempt(A2, null)], {
      baseline: base,
      drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
    });
    const reason = 'replies differ in meaning across 5 attempts: attempt 2: numbers 30 → 14; attempts 3 and 5 replied otherwise than attempt 1';
    expect(written(record)).toBe(`refused: ${reason}`);
    // What the record's reader is told to do is the meaning's: the head is unchanged.
    expect(refusalSentence(reason)).toBe(`${reason}. There is no one reply to store: find out why the agent answers differently, or accept after a run whose attempts agree.`);
    // A report made from that results.json says it before the label is applied, in the same words.
    expect(renderComment(run([record]), ctx)).toContain(`The label would refuse \`f\` (${escapeInline(reason)})`);
  });

  it('attempts that differ with no meaning recorded (check off, older records) are refused, each named against attempt 1 as the meaning-on words name them', () => {
    expect(written(repeated([attempt(A1), attempt(A2, null), attempt(A1)]))).toBe('refused: replies vary across 3 attempts: attempt 2 replied otherwise than attempt 1');
    quotedAndSaid(String(written(repeated([attempt(A1), attempt(A2, null), attempt(A3, null)]))), 'replies vary across <N> attempts: attempts 2 and 3 replied otherwise than attempt 1');
    expect(written(repeated([attempt(A1), attempt(A2)]))).toBe('refused: replies vary across 2 attempts: attempt 2 replied otherwise than attempt 1');
    expect(written(repeated([attempt(A1), attempt(A2), attempt(A1), attempt(A3), attempt(A2)]))).toBe('refused: replies vary across 5 attempts: attempts 2, 4 and 5 replied otherwise than attempt 1');
    // Attempt 1 errored: the first that replied is the one the others are named against.
    expect(written(repeated([attempt(null), attempt(A1), attempt(A2)]))).toBe('refused: replies vary across 3 attempts: attempt 3 replied otherwise than attempt 2');
    // Its consequence and fix, as before the attempts were named.
    expect(refusalSentence('replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1')).toBe(
      'replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt 1. There is no one reply to store: make the agent answer consistently, or accept after a run whose attempts agree.',
    );
  });

  it('errored attempts are left out: attempt 1 may be the second attempt', () => {
    const d = decideAcceptance(repeated([attempt(null), attempt(A1), attempt(A2, REWORDED)]), NOW, null);
    expect(d).toMatchObject({ kind: 'accept', baseline: { reply: A1, variants: [A2], attempts: { passed: 2, total: 3 } } });
  });

  it('a stored baseline of the same reply is rewritten when the attempts add a variant, and unchanged once it has it', () => {
    const record = repeated([attempt(A1), attempt(A2, REWORDED), attempt(A1)]);
    const stored = baseline({ reply: A1, attempts: { passed: 3, total: 3 } });
    const d = decideAcceptance(record, NOW, null, stored);
    expect(d).toMatchObject({ kind: 'accept', baseline: { reply: A1, variants: [A2] } });
    expect(decideAcceptance(record, NOW, null, (d as { baseline: Baseline }).baseline)).toEqual({ kind: 'unchanged' });
  });

  it('a stored baseline of the same reply whose attempts replied its known wordings again, in another order, is unchanged: no rewrite only to reorder them', () => {
    const stored = baseline({ reply: A1, variants: [A2, A3], attempts: { passed: 3, total: 3 } });
    // Attempt 2 replied the older known wording, attempt 3 the newer: every wording is known already.
    const record = repeated([attempt(A1), attempt(A3, VARIANT), attempt(A2, VARIANT)], { baseline: stored });
    expect(decideAcceptance(record, NOW, null, stored)).toEqual({ kind: 'unchanged' });
    // Rewritten for something else (a new wording), the list is newest first: the new one leads.
    const A4 = 'Refunds for 30 days, no questions asked.';
    expect(written(repeated([attempt(A1), attempt(A4, REWORDED), attempt(A2, VARIANT)], { baseline: stored }), stored)).toEqual([A4, A2, A3]);
  });
});

// --- persona scripts ----------------------------------------------------------------------------

function turn(index: number, over: Partial<Turn> = {}): Turn {
  return { index, message: index === 0 ? null : `m${index}`, reply: `r${index}`, route: null, offTrack: [], toolCalls: [], outcome: null, errors: [], durationMs: 1, ...over };
}

const script = (over: Partial<PersonaRecord> = {}): PersonaRecord =>
  ({
    label: 'refund',
    file: '.agent-replay/personas/refund.yml',
    line: 1,
    persona: null,
    turns: [turn(0), turn(1), turn(2)],
    unsent: [],
    visited: [],
    outcome: null,
    checks: [],
    baseline: null,
    durationMs: 3,
    errored: false,
    error: null,
    errorKind: null,
    verdict: 'pass',
    drift: { transcript: null, route: null, verdict: 'no_baseline' },
    ...over,
  }) as PersonaRecord;

const storedScript = (transcript: PersonaBaseline['transcript'], over: Partial<PersonaBaseline> = {}): PersonaBaseline => ({
  label: 'refund',
  kind: 'persona',
  transcript,
  visited: [],
  outcome: null,
  verdict: 'pass',
  acceptedAt: '2026-11-01T00:00:00.000Z',
  commit: null,
  ...over,
});

const turnVariants = (record: PersonaRecord, current: PersonaBaseline | null = record.baseline) => {
  const d = decidePersonaAcceptance(record, NOW, null, current);
  return d.kind === 'accept' ? d.baseline.transcript.map((t) => t.variants) : d.kind === 'refuse' ? `refused: ${d.reason}` : d.kind;
};

describe('a persona script keeps variants per turn', () => {
  const base = storedScript([
    { message: null, reply: 'Hi!', route: null },
    { message: 'm1', reply: 'old 1', variants: ['older 1'], route: null },
    { message: 'm2', reply: 'old 2', variants: ['older 2'], route: null },
    { message: 'm3', reply: 'r3', variants: ['kept 3'], route: null },
  ]);

  it("by each turn's own meaning: kept when reworded, cleared when changed, left when the reply is the same", () => {
    const record = script({
      baseline: base,
      turns: [turn(0, { reply: 'Hi!' }), turn(1, { meaning: REWORDED }), turn(2, { meaning: CHANGED }), turn(3)],
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { ...CHANGED, detail: 'turn 2 changed in meaning: numbers 30 → 14' } },
    });
    expect(turnVariants(record)).toEqual([undefined, ['old 1', 'older 1'], undefined, ['kept 3']]);
  });

  it('a changed verdict clears every turn', () => {
    const record = script({
      baseline: { ...base, verdict: 'fail' },
      turns: [turn(0, { reply: 'Hi!' }), turn(1, { meaning: REWORDED }), turn(2, { meaning: REWORDED }), turn(3)],
      drift: { transcript: 'different', route: 'same', verdict: 'newly_passing', meaning: REWORDED },
    });
    expect(turnVariants(record)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("a turn whose user message differs (a simulated user wrote another) carries nothing of the baseline's turn", () => {
    const record = script({ baseline: base, turns: [turn(0, { reply: 'Hi!' }), turn(1, { message: 'another question', meaning: REWORDED }), turn(2, { reply: 'old 2' })] });
    expect(turnVariants(record)).toEqual([undefined, undefined, ['older 2']]);
  });

  const pAttempt = (turns: Turn[], meaning?: Meaning | null): PersonaAttempt =>
    ({ errored: false, error: null, errorKind: null, verdict: 'pass', turns, unsent: [], visited: [], outcome: null, checks: [], durationMs: 1, ...(meaning !== undefined ? { meaning } : {}) }) as PersonaAttempt;

  it("a repeat whose attempts differ in wording only: each turn gets the other attempts' replies at that turn", () => {
    const turns = [turn(0), turn(1, { reply: 'Refunds within 30 days.' }), turn(2)];
    const record = script({
      turns,
      attempts: [
        pAttempt(turns),
        pAttempt([turn(0), turn(1, { reply: 'You can get a refund for 30 days.' }), turn(2)], REWORDED),
        pAttempt([turn(0), turn(1, { reply: 'Refunds: 30 days.' }), turn(2, { reply: 'R2' })], FORMATTING),
      ],
      repeat: { count: 3, minPass: 1, passed: 3, flaky: false },
    });
    // Turn 2's "R2" differs from "r2" only in case: not distinct after normalization.
    expect(turnVariants(record)).toEqual([undefined, ['You can get a refund for 30 days.', 'Refunds: 30 days.'], undefined]);
  });

  it("a repeat whose attempts replied a turn's known wordings again, in another order, leaves the stored script unchanged", () => {
    const turns = [turn(0), turn(1, { reply: 'Refunds within 30 days.' }), turn(2)];
    const stored = storedScript(
      [
        { message: null, reply: 'r0', route: null },
        { message: 'm1', reply: 'Refunds within 30 days.', variants: ['You can get a refund for 30 days.', 'Returns: 30 days, refunded.'], route: null },
        { message: 'm2', reply: 'r2', route: null },
      ],
      { attempts: { passed: 3, total: 3 } },
    );
    const record = script({
      baseline: stored,
      turns,
      attempts: [
        pAttempt(turns),
        pAttempt([turn(0), turn(1, { reply: 'Returns: 30 days, refunded.' }), turn(2)], VARIANT),
        pAttempt([turn(0), turn(1, { reply: 'You can get a refund for 30 days.' }), turn(2)], VARIANT),
      ],
      repeat: { count: 3, minPass: 1, passed: 3, flaky: false },
      drift: { transcript: 'same', route: 'same', verdict: 'still_passing' },
    });
    expect(turnVariants(record)).toBe('unchanged');
  });

  it('a repeat with an attempt that differs in meaning is refused, its turn named; without a meaning, as before', () => {
    const turns = [turn(0), turn(1), turn(2)];
    const other = [turn(0), turn(1), turn(2, { reply: 'changed' })];
    const withMeaning = script({ turns, attempts: [pAttempt(turns), pAttempt(other, { ...CHANGED, detail: 'turn 2 changed in meaning: numbers 30 → 14' })] });
    expect(turnVariants(withMeaning)).toBe('refused: replies differ in meaning across 2 attempts: attempt 2: turn 2 changed in meaning: numbers 30 → 14');
    const turnsDiffer = script({ turns, attempts: [pAttempt(turns), pAttempt([turn(0), turn(1)], { value: 'changed', by: 'turns', detail: 'turns 3 → 2' })] });
    expect(turnVariants(turnsDiffer)).toBe('refused: replies differ in meaning across 2 attempts: attempt 2: turns 3 → 2');
    expect(turnVariants(script({ turns, attempts: [pAttempt(turns), pAttempt(other)] }))).toBe('refused: replies vary across 2 attempts: attempt 2 replied otherwise than attempt 1');
  });

  it('a repeat refused for who ended its conversations says so: alone, beside replies that differ in meaning, or beside replies that vary unmeasured (docs/meaning.md, "Repeats")', () => {
    const turns = [turn(0), turn(1), turn(2)];
    const ended = (a: PersonaAttempt, endedBy: 'script' | 'both'): PersonaAttempt => ({ ...a, endedBy });
    const ending = "the agent ended the conversation on turn 2, where attempt 1's agent did not end it";
    const refused = (...others: PersonaAttempt[]) => turnVariants(script({ turns, attempts: [ended(pAttempt(turns), 'script'), ...others] }));
    // The same replies, its agent ending it: nothing but the ending differs.
    expect(refused(ended(pAttempt(turns), 'both'), ended(pAttempt(turns), 'script'))).toBe(`refused: conversations ended differently across 3 attempts: attempt 2: ${ending}`);
    // As the run records it: the attempt's meaning is the ending already.
    expect(refused(ended(pAttempt(turns, { value: 'changed', by: 'turns', detail: ending }), 'both'))).toBe(`refused: conversations ended differently across 2 attempts: attempt 2: ${ending}`);
    const other = [turn(0), turn(1), turn(2, { reply: 'changed' })];
    expect(refused(ended(pAttempt(turns), 'both'), ended(pAttempt(other, { ...CHANGED, detail: 'turn 2 changed in meaning: numbers 30 → 14' }), 'script'))).toBe(
      `refused: replies differ in meaning, and conversations ended differently, across 3 attempts: attempt 2: ${ending}; attempt 3: turn 2 changed in meaning: numbers 30 → 14`,
    );
    expect(refused(ended(pAttempt(turns), 'both'), ended(pAttempt(other), 'script'))).toBe(
      `refused: replies vary, and conversations ended differently, across 3 attempts: attempt 2: ${ending}; attempt 3 replied otherwise than attempt 1`,
    );
    // Each says its own consequence and fix.
    expect(refusalSentence(`conversations ended differently across 3 attempts: attempt 2: ${ending}`)).toBe(
      `conversations ended differently across 3 attempts: attempt 2: ${ending}. There is no one ending to store: find out why the agent ends the conversation in some attempts only, or accept after a run whose attempts agree.`,
    );
    expect(refusalSentence(`replies differ in meaning, and conversations ended differently, across 3 attempts: attempt 2: ${ending}`)).toMatch(/\. There is no one reply to store: find out why the agent answers differently, or accept after a run whose attempts agree\.$/);
    expect(refusalSentence(`replies vary, and conversations ended differently, across 3 attempts: attempt 2: ${ending}`)).toMatch(/\. There is no one reply to store: make the agent answer consistently, or accept after a run whose attempts agree\.$/);
  });

  it('planAcceptance writes them for fixtures and scripts alike', () => {
    const plan = planAcceptance({ fixtures: [drifted(REWORDED)], personas: [script({ baseline: base, turns: [turn(0, { reply: 'Hi!' }), turn(1, { meaning: REWORDED })] })], commit: null }, new Map<string, Baseline | PersonaBaseline>([['f', baseline()], ['refund', base]]), { only: null, acceptedAt: NOW });
    expect(plan.accepted.map((b) => ('kind' in b ? b.transcript.map((t) => t.variants) : b.variants))).toEqual([[OLD], [undefined, ['old 1', 'older 1']]]);
  });
});

describe('the wordings a repeated item\'s attempts are compared with', () => {
  const stored = { reply: OLD, variants: [NEW, 'Returns: 30 days.'] };
  it.each([
    ['attempt 1 replied the baseline reply', OLD, stored, [OLD, NEW, 'Returns: 30 days.']],
    ['attempt 1 replied a variant, in other formatting', '**you can return items within 30 days for a full refund**', stored, [OLD, NEW, 'Returns: 30 days.']],
    ['attempt 1 replied something else', 'Refunds within 14 days.', stored, []],
    // Equal once normalized is not enough: "10**6" is not 106 (docs/meaning.md, "Formatting").
    ['attempt 1 replied a wording equal once normalized, with other facts', 'The plan allows 106 requests.', { reply: 'The plan allows 10**6 requests.', variants: ['Up to a million requests.'] }, []],
    ['no baseline', OLD, null, []],
    ['attempt 1 has no reply', null, stored, []],
  ] as const)('%s', (_, first, baseline, expected) => {
    expect(knownWordings(first, baseline)).toEqual(expected);
  });
});
