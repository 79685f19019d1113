// A judge that answered the same input differently (docs/judges.md, "A judge that answers
// differently"; docs/meaning.md, "A judge that answers differently"): the agent gave the same reply
// (a script: the same transcript), the same judge read it, and its answers moved the item. One
// line says both answers, so that the move is not read as the agent's. Pure.

import type { AssertionCheck, Check, FixtureAttempt, FixtureRecord, PanelMember, PersonaAttempt, PersonaRecord, RunRecord } from '../types.js';
import { judgeGaveNoVerdict } from '../assertions/judge.js';
import { judgeAssertionOf } from '../assertions/list.js';
import { sameJudge } from './definition.js';
import { sameEndpoint } from '../endpoint.js';
import { isScript, kindOf } from './kind.js';

type Item = FixtureRecord | PersonaRecord;
type ReplayedFixture = Extract<FixtureRecord, { errored: false }>;
type ReplayedScript = Extract<PersonaRecord, { errored: false }>;

/** How every judge flip opens: `compare` says such a detail in full beside a verdict's move. */
const FLIP_OPENING = /^the (?:meaning )?judge (?:answered|did not judge) the same /;

/** Is a change's detail a judge's flip (judgeFlipLine)? */
export function isJudgeFlip(detail: string): boolean {
  return FLIP_OPENING.test(detail);
}

/** One side of a flip: its words, and whether the judge gave it an answer (a score) at all. */
export interface FlipSide {
  words: string;
  answered: boolean;
}

/**
 * The line of a judge that read the same input on both sides and answered it differently, both
 * answers said once: "the judge answered the same reply differently: pass (0.80) → fail (0.40)",
 * "the meaning judge answered the same replies differently: reworded (judge 0.90) → changed in
 * meaning (judge 0.55)"; "the judge did not judge the same reply both times: pass (0.80) → not
 * evaluated (judge unreachable: ...)" when one side got no answer it could use.
 */
export function judgeFlipLine(judge: 'judge' | 'meaning judge', input: 'reply' | 'replies' | 'transcript', before: FlipSide, after: FlipSide): string {
  const how = before.answered && after.answered ? `answered the same ${input} differently` : `did not judge the same ${input} both times`;
  return `the ${judge} ${how}: ${before.words} → ${after.words}`;
}

/** A judge check as it was decided: its status, score (null without one) and detail. */
interface Judged {
  status: 'pass' | 'fail' | 'not_evaluated';
  score: number | null;
  detail: string;
}

/** Decided by the judge: a pass or fail with its score, or not evaluated because the judge gave no verdict. */
function byTheJudge(j: Judged): boolean {
  return j.status === 'not_evaluated' ? judgeGaveNoVerdict(j.detail) : j.score !== null;
}

/** "0.80", or a range "0.40–0.85". */
function scoreRange(scores: readonly number[]): string {
  const [lo, hi] = [Math.min(...scores), Math.max(...scores)];
  return lo === hi ? lo.toFixed(2) : `${lo.toFixed(2)}–${hi.toFixed(2)}`;
}

/**
 * One side's answers in words, one line whatever the number of attempts: "pass (0.80)", "not
 * evaluated (judge unreachable: ...)"; a repeated item's "1/3 passed (0.40–0.85)", "2/3 passed
 * (0.80–0.85), 1 not evaluated (judge unreachable: ...)".
 */
export function judgedWords(answers: readonly Judged[], repeated: boolean): FlipSide {
  const scores = answers.flatMap((j) => (j.status !== 'not_evaluated' && j.score !== null ? [j.score] : []));
  const missing = answers.filter((j) => j.status === 'not_evaluated');
  const answered = scores.length > 0;
  const first = answers[0];
  if (!repeated && first !== undefined) return { words: first.status === 'not_evaluated' ? `not evaluated (${first.detail})` : `${first.status} (${scoreRange(scores)})`, answered };
  const passed = answers.filter((j) => j.status === 'pass').length;
  const noVerdict = missing.length === 0 ? '' : `, ${missing.length} not evaluated (${(missing[0] as Judged).detail})`;
  return { words: `${passed}/${answers.length} passed${answered ? ` (${scoreRange(scores)})` : ''}${noVerdict}`, answered };
}

/** A fixture's replies, one per attempt (an item run once: its reply); null when an attempt errored. */
function repliesOf(f: ReplayedFixture): string[] | null {
  if (f.attempts === undefined) return [f.reply];
  return f.attempts.every((a) => !a.errored && a.reply !== null) ? f.attempts.map((a) => a.reply as string) : null;
}

/** A fixture's judge answers, one per attempt, when its assertion is a judge assertion; null otherwise. */
function judgeAnswersOf(f: ReplayedFixture): Judged[] | null {
  if (f.assertion?.kind !== 'judge') return null;
  if (f.attempts === undefined) return [{ status: f.verdict, score: f.score, detail: f.detail }];
  return f.attempts.map((a) => ({ status: a.verdict ?? 'not_evaluated', score: a.score, detail: a.detail }));
}

/**
 * Each attempt's checks (an item run once: its own), or null when an attempt has none recorded (a
 * record from before attempts kept theirs: docs/results-json.md).
 */
function checksPerAttempt<C>(own: readonly C[] | undefined, attempts: readonly { checks?: readonly C[] | undefined }[] | undefined): (readonly C[])[] | null {
  if (attempts === undefined) return own === undefined ? null : [own];
  return attempts.every((a) => a.checks !== undefined) ? attempts.map((a) => a.checks as readonly C[]) : null;
}

/**
 * The one check that moved between two runs, each check's statuses taken over the run's attempts
 * (an item run once: its one), or null when none or several did, or the checks do not line up. A
 * check did not move when both runs gave it one and the same status on every attempt, or the same
 * statuses (a deterministic check of the same input gives one status however many attempts were made).
 */
function theOneMoved<C extends { status: Judged['status'] }>(before: readonly (readonly C[])[], after: readonly (readonly C[])[]): number | null {
  const size = before[0]?.length ?? 0;
  if (![...before, ...after].every((checks) => checks.length === size)) return null;
  const statuses = (side: readonly (readonly C[])[], i: number): string[] => side.map((checks) => (checks[i] as C).status).sort();
  const moved: number[] = [];
  for (let i = 0; i < size; i++) {
    const [sb, sa] = [statuses(before, i), statuses(after, i)];
    const uniform = new Set(sb).size === 1 && new Set(sa).size === 1 && sb[0] === sa[0];
    if (!uniform && sb.join() !== sa.join()) moved.push(i);
  }
  return moved.length === 1 ? (moved[0] as number) : null;
}

/**
 * Both runs' fixture got the byte-identical reply to the same message (a repeated one: on every
 * attempt of both), judged by the same judge, criterion and threshold, and the judge's answers moved
 * its verdict: the judge disagreed with itself, the agent did not change. An assertion list says it
 * only when its judge check is the one check that moved (a repeated list: over its attempts' checks).
 * Null otherwise.
 */
function fixtureFlip(b: ReplayedFixture, a: ReplayedFixture): string | null {
  if (b.message !== a.message || b.judgeFingerprint == null || a.judgeFingerprint == null || !sameJudge(b.judgeFingerprint, a.judgeFingerprint)) return null;
  const replies = [repliesOf(b), repliesOf(a)];
  if (replies.some((r) => r === null) || new Set(replies.flat()).size !== 1) return null;
  let sides: [Judged[], Judged[]] | null = null;
  if (b.assertion?.kind === 'all' && a.assertion?.kind === 'all') {
    const [cb, ca] = [checksPerAttempt(b.checks, b.attempts), checksPerAttempt(a.checks, a.attempts)];
    const i = cb === null || ca === null ? null : theOneMoved(cb, ca);
    if (cb === null || ca === null || i === null) return null;
    const [xb, xa] = [cb.map((checks) => checks[i] as AssertionCheck), ca.map((checks) => checks[i] as AssertionCheck)];
    if (![...xb, ...xa].every((c) => c.assertion.kind === 'judge')) return null;
    sides = [xb, xa];
  } else {
    const [jb, ja] = [judgeAnswersOf(b), judgeAnswersOf(a)];
    if (jb !== null && ja !== null) sides = [jb, ja];
  }
  if (sides === null || !sides.every((s) => s.length > 0 && s.every(byTheJudge))) return null;
  const repeated = b.attempts !== undefined || a.attempts !== undefined;
  const members = membersMovedBetween(memberListsOf(b), memberListsOf(a), thresholdOf(b), repeated);
  return `${judgeFlipLine('judge', 'reply', judgedWords(sides[0], repeated), judgedWords(sides[1], repeated))}${members}`;
}

/** A script's transcript hashes as the judge read them, one per attempt (run once: its own); null when one is unknown or an attempt errored. */
function transcriptHashesOf(s: ReplayedScript): string[] | null {
  const hashes = s.attempts === undefined ? [s.transcriptHash] : s.attempts.map((a) => (a.errored ? null : a.transcriptHash));
  return hashes.every((h): h is string => typeof h === 'string') ? hashes : null;
}

/**
 * A persona script's: both runs' transcript as the judge read it is the same (`transcriptHash`; a
 * repeated script: on every attempt of both), judged by the same judge and criteria, and the one
 * check that moved is a criterion decided by the judge on both sides: "the judge answered the same
 * transcript differently: criterion 2 pass (0.80) → fail (0.40)", a repeated script's "criterion 2
 * 3/3 passed (0.80–0.85) → 1/3 passed (0.40–0.80)".
 */
function scriptFlip(b: ReplayedScript, a: ReplayedScript): string | null {
  const hashes = [transcriptHashesOf(b), transcriptHashesOf(a)];
  if (hashes.some((h) => h === null) || new Set(hashes.flat()).size !== 1) return null;
  if (b.judgeFingerprint == null || a.judgeFingerprint == null || !sameJudge(b.judgeFingerprint, a.judgeFingerprint)) return null;
  const [cb, ca] = [checksPerAttempt(b.checks, b.attempts), checksPerAttempt(a.checks, a.attempts)];
  const i = cb === null || ca === null ? null : theOneMoved(cb, ca);
  if (cb === null || ca === null || i === null) return null;
  const [xb, xa] = [cb.map((checks) => checks[i] as Check), ca.map((checks) => checks[i] as Check)];
  const criteria = [...xb, ...xa].flatMap((c) => (c.kind === 'criterion' ? [c] : []));
  if (criteria.length !== xb.length + xa.length || !criteria.every(byTheJudge)) return null;
  const n = (cb[0] as readonly Check[]).slice(0, i + 1).filter((c) => c.kind === 'criterion').length;
  const repeated = b.attempts !== undefined || a.attempts !== undefined;
  const [wb, wa] = [judgedWords(criteria.slice(0, xb.length), repeated), judgedWords(criteria.slice(xb.length), repeated)];
  const threshold = (criteria[0] as Extract<Check, { kind: 'criterion' }>).threshold;
  const members = membersMovedBetween(criteria.slice(0, xb.length).map((c) => c.members), criteria.slice(xb.length).map((c) => c.members), threshold, repeated);
  return `${judgeFlipLine('judge', 'transcript', { ...wb, words: `criterion ${n} ${wb.words}` }, wa)}${members}`;
}

/**
 * The rubric judge's flip between two runs of one item whose verdict moved (docs/judges.md, "A
 * judge that answers differently"), or null: the agent's own change, or one this cannot tell.
 */
export function judgeFlip(before: Item, after: Item): string | null {
  if (before.errored || after.errored) return null;
  if (kindOf(before) === 'script' && kindOf(after) === 'script') return scriptFlip(before as ReplayedScript, after as ReplayedScript);
  if (kindOf(before) !== 'fixture' || kindOf(after) !== 'fixture') return null;
  return fixtureFlip(before as ReplayedFixture, after as ReplayedFixture);
}

/** Answers over attempts, grouped by status: "2 passed (0.80–0.85)", "1 failed (0.40)", "1 not evaluated (judge unreachable: ...)". */
function attemptGroups(answers: readonly Judged[]): string[] {
  const group = (status: Judged['status'], word: string): string | null => {
    const these = answers.filter((j) => j.status === status);
    if (these.length === 0) return null;
    const scores = these.flatMap((j) => (j.score === null ? [] : [j.score]));
    return `${these.length} ${word} (${status === 'not_evaluated' ? (these[0] as Judged).detail : scoreRange(scores)})`;
  };
  return [group('pass', 'passed'), group('fail', 'failed'), group('not_evaluated', 'not evaluated')].filter((p): p is string => p !== null);
}

/** A fixture's panel answers, one list per attempt (an item run once: its own); a list's are its judge check's. */
function memberListsOf(f: ReplayedFixture): (PanelMember[] | null | undefined)[] {
  return f.attempts === undefined ? [f.members] : f.attempts.map((a) => a.members);
}

/** The threshold a fixture's judge scores are held against (its judge assertion's, in a list too); null without one. */
function thresholdOf(f: ReplayedFixture): number | null {
  return f.threshold ?? judgeAssertionOf(f.assertion)?.threshold ?? null;
}

/**
 * A panel's members (docs/judges.md, "Panels"), each with its answers over the given lists (one per
 * attempt, of one run or two), its score read against the item's threshold: a member without a
 * score is not evaluated there, with its reason. Null for a single judge, or when the lists' members
 * do not line up.
 */
function memberAnswers(lists: readonly (readonly PanelMember[] | null | undefined)[], threshold: number | null): { label: string; answers: Judged[] }[] | null {
  const first = lists[0];
  if (threshold === null || first == null || !lists.every((l) => l != null && l.length === first.length && l.every((m, i) => m.label === first[i]?.label))) return null;
  return first.map((member, i) => ({
    label: member.label,
    answers: lists.map((l) => {
      const m = (l as readonly PanelMember[])[i] as PanelMember;
      return m.score === null ? { status: 'not_evaluated', score: null, detail: m.reason ?? 'no usable score' } : { status: m.score >= threshold ? 'pass' : 'fail', score: m.score, detail: '' };
    }),
  }));
}

/**
 * The one way every judge flip names a panel's members that moved, after its line: "; the panel
 * member that moved: openai m2, ..." (several: "the panel members that moved: ...; ..."); "" when none.
 */
function panelMoved(moved: readonly string[]): string {
  return moved.length === 0 ? '' : `; the panel ${moved.length === 1 ? 'member' : 'members'} that moved: ${moved.join('; ')}`;
}

/** Within one run: each member whose own answers moved across the attempts, "openai m2, 2 passed (0.90), 1 failed (0.20)". */
function membersMovedAcross(lists: readonly (readonly PanelMember[] | null | undefined)[], threshold: number | null): string {
  const members = memberAnswers(lists, threshold) ?? [];
  return panelMoved(members.flatMap((m) => (new Set(m.answers.map((j) => j.status)).size < 2 ? [] : [`${m.label}, ${attemptGroups(m.answers).join(', ')}`])));
}

/**
 * Between two runs: each member whose own answers moved from one run to the other (its statuses over
 * the attempts), in the flip's words, "openai m2, pass (0.90) → fail (0.20)", a repeated item's
 * "openai m2, 3/3 passed (0.90) → 1/3 passed (0.20–0.90)".
 */
function membersMovedBetween(
  before: readonly (readonly PanelMember[] | null | undefined)[],
  after: readonly (readonly PanelMember[] | null | undefined)[],
  threshold: number | null,
  repeated: boolean,
): string {
  const members = memberAnswers([...before, ...after], threshold) ?? [];
  const statuses = (answers: readonly Judged[]): string => answers.map((j) => j.status).sort().join();
  return panelMoved(
    members.flatMap((m) => {
      const [b, a] = [m.answers.slice(0, before.length), m.answers.slice(before.length)];
      return statuses(b) === statuses(a) ? [] : [`${m.label}, ${judgedWords(b, repeated).words} → ${judgedWords(a, repeated).words}`];
    }),
  );
}

/**
 * The one check whose statuses moved across one run's attempts (the others gave one status on every
 * attempt), or null when none or several did, or the checks do not line up.
 */
function theOneMovedAcross<C extends { status: Judged['status'] }>(attempts: readonly (readonly C[])[]): number | null {
  const size = attempts[0]?.length ?? 0;
  if (!attempts.every((checks) => checks.length === size)) return null;
  const moved: number[] = [];
  for (let i = 0; i < size; i++) if (new Set(attempts.map((checks) => (checks[i] as C).status)).size > 1) moved.push(i);
  return moved.length === 1 ? (moved[0] as number) : null;
}

/** "did not judge the same reply every time" when its only other answer was none, else "answered the same reply differently". */
function acrossHow(answers: readonly Judged[], input: 'reply' | 'transcript'): string {
  const statuses = new Set(answers.map((j) => j.status));
  return statuses.has('not_evaluated') && statuses.size === 2 ? `did not judge the same ${input} every time` : `answered the same ${input} differently`;
}

/** A repeated fixture's: its judge answers over the attempts (a list's: its judge check's, when that is the one check that moved). */
function fixtureAcrossAttempts(f: ReplayedFixture, attempts: readonly FixtureAttempt[]): string | null {
  const replies = repliesOf(f);
  if (replies === null || new Set(replies).size !== 1) return null;
  let answers: Judged[] | null = judgeAnswersOf(f);
  if (f.assertion?.kind === 'all') {
    const per = checksPerAttempt(undefined, attempts);
    const i = per === null ? null : theOneMovedAcross(per);
    const moved = per === null || i === null ? [] : per.map((checks) => checks[i] as AssertionCheck);
    answers = moved.length > 0 && moved.every((c) => c.assertion.kind === 'judge') ? moved : null;
  }
  if (answers === null || !answers.every(byTheJudge) || new Set(answers.map((j) => j.status)).size < 2) return null;
  return `the judge ${acrossHow(answers, 'reply')} across the attempts: ${attemptGroups(answers).join(', ')}${membersMovedAcross(memberListsOf(f), thresholdOf(f))}`;
}

/** A repeated persona script's: every attempt's transcript the same as the judge read it, and one criterion the one check that moved. */
function scriptAcrossAttempts(s: ReplayedScript, attempts: readonly PersonaAttempt[]): string | null {
  const hashes = transcriptHashesOf(s);
  if (hashes === null || new Set(hashes).size !== 1) return null;
  const per = checksPerAttempt(s.checks, attempts);
  const i = per === null ? null : theOneMovedAcross(per);
  if (per === null || i === null) return null;
  const criteria = per.flatMap((checks) => {
    const c = checks[i] as Check;
    return c.kind === 'criterion' ? [c] : [];
  });
  if (criteria.length !== per.length || !criteria.every(byTheJudge)) return null;
  const n = (per[0] as readonly Check[]).slice(0, i + 1).filter((c) => c.kind === 'criterion').length;
  const members = membersMovedAcross(
    criteria.map((c) => c.members),
    (criteria[0] as Extract<Check, { kind: 'criterion' }>).threshold,
  );
  return `the judge ${acrossHow(criteria, 'transcript')} across the attempts: criterion ${n}, ${attemptGroups(criteria).join(', ')}${members}`;
}

/**
 * Within one run (docs/judges.md, "A judge that answers differently"): a repeated item whose every
 * attempt got the same reply (a script: the same transcript as the judge read it), while the
 * attempts' verdicts differ and the judge's answers are what moved: the judge, not the agent, made
 * it flaky. "the judge answered the same reply differently across the attempts: 2 passed
 * (0.80–0.85), 1 failed (0.40)"; an assertion list's says it when its judge check is the one check
 * that moved; a script's names the criterion, "the judge answered the same transcript differently
 * across the attempts: criterion 2, 2 passed (0.80), 1 failed (0.40)"; a panel's names the members
 * whose own answers moved: "...; the panel member that moved: openai m2, 2 passed (0.90), 1 failed
 * (0.20)". Null otherwise.
 */
export function judgeAcrossAttempts(item: Item): string | null {
  if (item.errored || item.attempts === undefined || item.attempts.length < 2) return null;
  if (new Set(item.attempts.map((a) => a.verdict)).size < 2) return null;
  if (isScript(item)) return scriptAcrossAttempts(item as ReplayedScript, item.attempts as PersonaAttempt[]);
  return fixtureAcrossAttempts(item as ReplayedFixture, item.attempts as FixtureAttempt[]);
}

/**
 * The meaning judge two runs asked, when it is not the same one (docs/meaning.md, "A judge that
 * answers differently"): "openai m → anthropic m", "gpt-4.1-mini → gpt-4o-mini", "openai m at
 * https://a.example/v1 → openai m at https://b.example/v1" (the same model at another address),
 * with the prompt versions when they differ; null when it is the same, when either run asked none,
 * or when only one record says its provider or address (a record from before it was kept: unknown
 * is not "changed").
 */
export function meaningJudgeChange(before: RunRecord['meaning'], after: RunRecord['meaning']): string | null {
  if (before?.check !== 'judge' || after?.check !== 'judge') return null;
  const providers = before.provider !== undefined && after.provider !== undefined;
  const prompt = before.promptVersion !== after.promptVersion;
  const sameModel = before.model === after.model && (!providers || before.provider === after.provider);
  // Another address serving a model of the same name is another judge; said only when it is the difference.
  const endpoint = sameModel && before.endpoint !== undefined && after.endpoint !== undefined && !sameEndpoint(before.endpoint, after.endpoint);
  if (sameModel && !endpoint && !prompt) return null;
  const who = (m: NonNullable<RunRecord['meaning']>): string =>
    `${providers ? `${m.provider as string} ` : ''}${m.model ?? 'no model'}${endpoint ? ` at ${m.endpoint as string}` : ''}${prompt ? ` (prompt ${m.promptVersion})` : ''}`;
  return `${who(before)} → ${who(after)}`;
}

/**
 * A meaning judge's flip between two runs that asked another meaning judge: said as such, "the
 * meaning judge changed (openai m → anthropic m) and answered the same replies differently: ...",
 * since it is not the one judge disagreeing with itself. Any other detail as it is.
 */
export function withMeaningJudgeChange(detail: string, change: string | null): string {
  const opening = 'the meaning judge ';
  const flip = detail.startsWith(`${opening}answered the same `) || detail.startsWith(`${opening}did not judge the same `);
  return change === null || !flip ? detail : `${opening}changed (${change}) and ${detail.slice(opening.length)}`;
}
