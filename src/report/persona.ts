// One persona script (docs/personas.md) in the markdown report. Its line says the verdict, the drift and the
// file, then how many checks passed and the first one that did not. The body holds:
//   - a header: persona handle, messages sent, how the conversation ended;
//   - the checks as a table: ✅/❌/⚪, what was expected, what was observed (the turn of a tool
//     match, the judge's score, threshold and rationale, the reason a check did not run);
//   - the first turn that differs from the baseline, with a sentence diff of its reply;
//   - the transcript (User / Agent turns with route badges, tool calls, unsent follow-ups) in an
//     expandable block: the first thing left out when the report is over its limit.
// Agent text is escaped exactly as replies are: inline text through escapeInline, blocks fenced
// and wrapped to 100 characters, routes and JSON in code spans.

import { callMatches, reuseWords, sameRoute, scriptEndingWords } from '../evaluate/index.js';
import { MEANING_WORDS } from '../evaluate/meaning/index.js';
import type { Check, ObservedToolCall, PersonaBaseline, PersonaRecord, ReplyExpectation, Route, ToolCall, Turn, TurnSource, Verdict } from '../types.js';
import { firstLineOf, jsonText, quote, showPattern } from '../assertions/format.js';
import type { ReportContext } from './context.js';
import { clip, clipDetail, codeSpan, escapeDetail, escapeHtmlDetail, escapeHtmlInline, escapeInline, normalizeBlock } from './escape.js';
import { attemptsHead, ATTEMPT_WORDS, BEGUN_TITLE, decisiveAttempt, otherAttemptsWords, firstThat, diffBlock, fileRefHtml, itemDetails, labelled, LIMITS, needsBlock, panelBlock, replyBlock, type Level } from './item-parts.js';
import { judgeAcrossAttempts } from '../evaluate/judge-flip.js';
import { attemptMeaningDetail, attemptOutcome, attemptsDetailHead, erroredFailIndex } from '../evaluate/repeat.js';
import { SCRIPT_MARK_WORDS, routeText, thousands, turnName, type ScriptView } from './model.js';
import type { Profile } from './profile.js';
import { errorTurn, type Own } from './cause-details.js';
import { faultLine, liveWords, simulationFacts, SOURCE_WORDS } from './simulation.js';
import { sourceMark } from './trace.js';
import { capitalized, isolatedCall, isolatedJson, listAndMore, turnWords } from '../words.js';
import { keepQuantitiesWhole } from './wrap.js';

const CELL = { expected: 160, why: 300, json: 80, calls: 3 } as const;

/**
 * A script's criterion as a report shows it: cut after 160 characters with "…" (whole characters,
 * clip), escaped after by the caller for its form (markdown, XML). `--out` and results.json keep it whole.
 */
export function criterionShown(text: string): string {
  return clip(text, CELL.expected);
}

// ---------------------------------------------------------------------------------------------
// Checks

export const CHECK_NAMES: Record<Check['kind'], string> = {
  conversations: 'conversations',
  terminal: 'ends with',
  toolCalled: 'tool called',
  toolNotCalled: 'tool not called',
  reply: 'reply',
  maxTurnLatency: 'turn latency',
  criterion: 'criterion',
};

/**
 * An `expect.reply` entry in words: `contains "30 days", turn 2`, `matches /refund/i, any turn`;
 * `turn` names a numbered turn (turnWords, or the terminal's welcomeBeforeResult).
 */
export function replyWords(e: ReplyExpectation, turn: (index: number) => string = turnWords): string {
  const what = 'contains' in e ? `contains ${quote(e.contains)}` : `matches ${showPattern(e.regex, e.flags)}`;
  return `${what}, ${e.turn === 'any' ? 'any turn' : e.turn === 'last' ? 'last turn' : turn(e.turn)}`;
}

/** What a check is about, in plain text: the tool, the criterion; nothing for the others. `turn` as replyWords'. */
export function checkSubject(c: Check, turn: (index: number) => string = turnWords): string {
  if (c.kind === 'toolCalled' || c.kind === 'toolNotCalled') return c.expected.tool;
  if (c.kind === 'criterion') return `"${c.expected}"`;
  if (c.kind === 'reply') return replyWords(c.expected, turn);
  return '';
}

const STATUS_ICON: Record<Check['status'], string> = { pass: '✅', fail: '❌', not_evaluated: '⚪' };
/** A check's result in words, after its name on every surface: `❌ conversations (fail)`, the terminal's `✗ conversations (fail)`. */
export const CHECK_STATUS_WORDS: Record<Check['status'], string> = { pass: 'pass', fail: 'fail', not_evaluated: 'not evaluated' };

/**
 * A check as the comment names it: its icon, its name and its result in words ("❌ conversations
 * (fail)"). The icon alone is read by a screen reader as its name ("cross mark", "white circle"),
 * and ❌ and ⚪ are told apart by colour (docs/action.md, "Accessibility").
 */
function checkHead(c: Check): string {
  return `${STATUS_ICON[c.status]} ${CHECK_NAMES[c.kind]} (${CHECK_STATUS_WORDS[c.status]})`;
}


/** JSON in a table cell: one code span, clipped. */
function jsonCell(value: unknown): string {
  return codeSpan(clip(jsonText(value), CELL.json), { table: true, json: true });
}

function namesCell(names: readonly string[], sep: ', ' | ' → '): string {
  if (names.length === 0) return '_none_';
  return listAndMore(names, 12, (n) => codeSpan(clip(n, LIMITS.label), { table: true }), sep);
}

function expectedCell(c: Check): string {
  switch (c.kind) {
    case 'conversations':
      return namesCell(c.expected, ', ');
    case 'terminal':
      return codeSpan(c.expected, { table: true });
    case 'toolCalled':
    case 'toolNotCalled': {
      const tool = codeSpan(clip(c.expected.tool, LIMITS.label), { table: true });
      return c.expected.input === undefined ? `${tool}, any input` : `${tool} ${jsonCell(c.expected.input)} (${c.expected.match})`;
    }
    case 'reply':
      return escapeInline(clip(replyWords(c.expected), CELL.expected));
    case 'maxTurnLatency':
      return `at most ${thousands(c.expected)} ms a turn`;
    case 'criterion':
      return escapeInline(criterionShown(c.expected));
  }
}

/** The prefix rule of docs/personas.md: names match when equal once a leading `conversations:` is removed from both. */
function missingConversations(expected: readonly string[], visited: readonly string[]): string[] {
  const bare = (n: string): string => (n.startsWith('conversations:') ? n.slice('conversations:'.length) : n);
  const seen = new Set(visited.map(bare));
  return expected.filter((e) => !seen.has(bare(e)));
}

/** " (from trace)" when the call that matched a tool check at its turn was seen only in spans (docs/traces.md, "In the reports"). */
export function matchMark(c: Extract<Check, { kind: 'toolCalled' | 'toolNotCalled' }>): string {
  const first = c.observed.find((o) => o.turn === c.turn && callMatches(c.expected, o));
  return first ? sourceMark(first) : '';
}

/**
 * A check's detail as every surface shows it, the welcome turn named as everywhere, "turn 0
 * (welcome)" (docs/personas.md, "The checks"), read off the check's own fields: a reply check's turn
 * ("turn 0 (welcome): reply does not contain ..."), the numbered turn not sent and the turn the
 * conversation stopped at ("turn 2 was not sent: the conversation ended at turn 0 (welcome)"), a
 * tool call's turn ("... but was at turn 0 (welcome)") and the turn whose calls are unknown.
 * results.json keeps the words the check was stored with ("turn 0: ..."), as records written before.
 */
export function checkDetail(c: Check): string {
  const d = c.detail;
  const welcome = turnWords(0);
  if (c.kind === 'reply') {
    if (c.turn === 0 && d.startsWith('turn 0: ')) return `${welcome}: ${d.slice('turn 0: '.length)}`;
    const unsent = `turn ${String(c.expected.turn)} was not sent: `;
    if (c.turn !== null || !d.startsWith(unsent)) return d;
    const head = c.expected.turn === 0 ? `${welcome} was not sent: ` : unsent;
    return `${head}${d.slice(unsent.length).replace(/ at turn 0$/, ` at ${welcome}`)}`;
  }
  if (c.kind === 'toolCalled' || c.kind === 'toolNotCalled') {
    if (c.turn === 0 && d.endsWith(' at turn 0')) return `${d.slice(0, -'turn 0'.length)}${welcome}`;
    if (c.turn === null && c.status === 'not_evaluated' && d.startsWith('turn 0: ')) return `${welcome}: ${d.slice('turn 0: '.length)}`;
  }
  return d;
}

/** `live`: a live script's calls ran for real by design, and are not marked (docs/personas.md, "Mocks and real tool calls"). */
function callsText(calls: readonly ObservedToolCall[], live: boolean): string {
  // Each call's input is JSON, with commas of its own: "; " between them, and "; and N more" (docs/architecture.md, words.ts).
  return listAndMore(calls, CELL.calls, (call) => `${turnWords(call.turn)} ${jsonCell(call.input)}${call.mocked || live ? '' : ' (not mocked)'}${sourceMark(call)}`, '; ');
}

/**
 * What was observed, said so that the check's detail adds nothing: the visited and the missing
 * conversations, the outcome, the tool calls and the turn of the match, the judge's score and
 * rationale; for a check that did not run, the reason.
 */
function observedCell(c: Check, live: boolean): string {
  if (c.status === 'not_evaluated') return escapeInline(clipDetail(checkDetail(c), CELL.why));
  switch (c.kind) {
    case 'conversations': {
      const visited = `visited ${namesCell(c.observed, ' → ')}`;
      const missing = missingConversations(c.expected, c.observed);
      return missing.length > 0 ? `${visited} · **missing** ${namesCell(missing, ', ')}` : visited;
    }
    case 'terminal':
      return c.observed === null ? escapeInline(clipDetail(checkDetail(c), CELL.why)) : codeSpan(clip(c.observed, LIMITS.label), { table: true });
    case 'toolCalled':
      if (c.turn !== null) return `called on ${turnWords(c.turn)}${matchMark(c)}`;
      return c.observed.length === 0 ? 'not called' : `other inputs only: ${callsText(c.observed, live)}`;
    case 'toolNotCalled':
      if (c.turn !== null) {
        const matching = c.observed.filter((o) => callMatches(c.expected, o));
        const [first, ...rest] = matching;
        const input = first ? ` ${jsonCell(first.input)}${sourceMark(first)}` : '';
        return `**called on ${turnWords(c.turn)}**${input}${rest.length > 0 ? `; then ${callsText(rest, live)}` : ''}`;
      }
      return c.observed.length === 0 ? 'not called' : `other inputs only: ${callsText(c.observed, live)}`;
    case 'reply':
    case 'maxTurnLatency':
      return escapeInline(clipDetail(checkDetail(c), CELL.why));
    case 'criterion': {
      const scored = typeof c.score === 'number' && Number.isFinite(c.score) ? `score ${c.score.toFixed(2)} (threshold ${c.threshold.toFixed(2)})` : '_no score_';
      // A score kept from the baseline says where it came from (no judge call was made).
      const score = c.reused ? `${scored}, ${escapeInline(clip(reuseWords(c.reused), LIMITS.ref))}` : scored;
      return c.rationale ? `${score}: ${escapeInline(clip(c.rationale, CELL.why))}` : score;
    }
  }
}

export function checksTable(checks: readonly Check[], live: boolean): string {
  if (checks.length === 0) return '_No checks ran._';
  // The status beside the check's name, not in a column of its own: with it, the table was wider
  // than a 390 px phone and its "observed" column, the one a failed check is read by, scrolled out of sight.
  const rows = checks.map((c) => `| ${checkHead(c)} | ${expectedCell(c)} | ${observedCell(c, live)} |`);
  return ['| check | expected | observed |', '| --- | --- | --- |', ...rows].join('\n');
}

/** "all 4 checks passed", "2 of 5 checks passed", "no checks ran". */
export function checksCount(checks: readonly Check[]): string {
  const n = checks.length;
  if (n === 0) return 'no checks ran';
  const passed = checks.filter((c) => c.status === 'pass').length;
  if (passed === n) return n === 1 ? 'the check passed' : n === 2 ? 'both checks passed' : `all ${thousands(n)} checks passed`;
  return `${thousands(passed)} of ${thousands(n)} checks passed`;
}

/**
 * The checks a script's line names, after which attempt they are ("attempt 2: "), so that "both
 * checks passed" on a script that failed 2 of 5 attempts is not read as the whole item's
 * (docs/fixtures.md, "Reports"): a repeated script's first attempt with its verdict, so that a fail
 * names an attempt that failed, else the attempt shown; a script run once, its checks alone. A fail
 * its errored attempts made (none failed) names the first of them and its error in a fixture's
 * words, "2/5 attempts passed (minPass 3), 3 errored, flaky; attempt 1: " then `error`, and no
 * checks: the passing attempt's would say "all checks passed" of a fail.
 */
export function lineChecks(p: PersonaRecord): { prefix: string; checks: readonly Check[]; error: string | null } {
  if (p.attempts === undefined || p.repeat === undefined || p.attempts.length < 2) return { prefix: '', checks: p.checks, error: null };
  const outcomes = p.attempts.map(attemptOutcome);
  const shown = outcomes.findIndex((o) => o !== 'errored');
  if (!p.errored && erroredFailIndex(outcomes, p.verdict) !== -1) {
    const named = attemptsDetailHead(p.repeat, outcomes, p.verdict, shown);
    return { prefix: named.head, checks: [], error: p.attempts[named.index]?.error ?? '' };
  }
  const decisive = p.errored ? null : decisiveAttempt(p);
  if (decisive !== null) return { prefix: `attempt ${decisive.number}: `, checks: decisive.attempt.checks, error: null };
  return { prefix: shown === -1 ? '' : `attempt ${shown + 1}: `, checks: p.checks, error: null };
}

/**
 * Where a repeated script's decisive attempt (the first with the script's verdict, when it is not
 * the attempt shown: lineChecks) first replied otherwise than the attempt shown, so that its checks
 * are read beside the reply they checked (docs/fixtures.md, "Reports"): both attempts' numbers, the
 * turn, and each attempt's turn of that index (null: that attempt has no such turn). An agent that words
 * every reply differently differs on every turn, so a turn whose meaning against the attempt shown
 * is changed (else not checked) comes before the first that is only reworded (docs/meaning.md,
 * "Repeats"). Null when there is no such attempt, or it replied the shown attempt's replies.
 */
export function decisiveTurn(pr: PersonaRecord): (AttemptTurn & { verdict: Verdict }) | null {
  if (pr.errored || pr.attempts === undefined) return null;
  const d = decisiveAttempt(pr);
  if (d === null) return null;
  const shownNumber = pr.attempts.findIndex((a) => !a.errored) + 1;
  // Paired by turn index, not place: an attempt may lack a turn the other has (no welcome, a shorter conversation).
  const shownAt = new Map(pr.turns.map((t) => [t.index, t]));
  const theirsAt = new Map(d.attempt.turns.map((t) => [t.index, t]));
  const indices = [...new Set([...shownAt.keys(), ...theirsAt.keys()])].sort((a, b) => a - b);
  const rank = (t: Turn | null): number => (t?.meaning?.value === 'changed' ? 2 : t?.meaning?.value === 'unchecked' ? 1 : 0);
  let pick: number | null = null;
  for (const index of indices) {
    const shown = shownAt.get(index) ?? null;
    const turn = theirsAt.get(index) ?? null;
    if (shown !== null && turn !== null && shown.reply === turn.reply) continue;
    if (pick === null || rank(turn) > rank(theirsAt.get(pick) ?? null)) pick = index;
    if (rank(turn) === 2) break;
  }
  if (pick === null) return null;
  return { number: d.number, shownNumber, verdict: d.verdict, index: pick, shown: shownAt.get(pick) ?? null, turn: theirsAt.get(pick) ?? null };
}

/** An attempt's turn set beside the shown attempt's at the same place (decisiveTurn, namedAttemptTurn). */
export interface AttemptTurn {
  number: number;
  shownNumber: number;
  index: number;
  shown: Turn | null;
  turn: Turn | null;
}

/** The turn an attempt's own script meaning names: "turn 3 changed in meaning: ..." (evaluate/meaning/ladder.ts scriptMeaning). */
const NAMED_TURN = /^turn (\d+) /;

/**
 * The turn a repeated script's line names when its meaning is another attempt's ("attempt 2: turn
 * 3 changed in meaning: ...", docs/meaning.md, "Repeats"), beside the shown attempt's turn there,
 * so that the comment and the terminal show what the line names, as they show the decisive
 * attempt's turn. That attempt's meaning is against the shown attempt, not the baseline: the diff
 * is of the two attempts. The attempt is the one whose own recorded meaning the item's is (as
 * item-parts.ts namedAttemptReply finds it), not one a detail only reads as naming. Null when the
 * meaning names no attempt's turn, or decisiveTurn shows it already.
 */
export function namedAttemptTurn(pr: PersonaRecord): AttemptTurn | null {
  if (pr.errored || pr.attempts === undefined) return null;
  const meaning = pr.drift?.meaning ?? null;
  if (meaning == null) return null;
  // The attempt whose own meaning the item's is, named as evaluate/finish.ts names it: not a detail that only reads so.
  const number = pr.attempts.findIndex((a, k) => a.meaning != null && a.meaning.value === meaning.value && attemptMeaningDetail(k + 1, a.meaning.detail) === meaning.detail) + 1;
  const attempt = pr.attempts[number - 1];
  const named = NAMED_TURN.exec(attempt?.meaning?.detail ?? '');
  const shownNumber = pr.attempts.findIndex((a) => !a.errored) + 1;
  if (attempt === undefined || named === null || attempt.errored || number === shownNumber) return null;
  const index = Number(named[1]);
  const dt = decisiveTurn(pr);
  if (dt !== null && dt.number === number && dt.index === index) return null;
  const turn = attempt.turns.find((t) => t.index === index) ?? null;
  const shown = pr.turns.find((t) => t.index === index) ?? null;
  if (turn === null && shown === null) return null;
  return { number, shownNumber, index, shown, turn };
}

/** A script's line (lineChecks) in the comment's and report.html's words: after its prefix, checksLine, or the named attempt's error's first line. */
export function lineWords(named: ReturnType<typeof lineChecks>): string {
  return `${named.prefix}${named.error === null ? checksLine(named.checks) : firstLineOf(normalizeBlock(named.error).trim())}`;
}

/** checksCount, then the first check that failed (else did not run), the others counted as a line separated by "·" counts its rest: "2 of 5 checks passed · ❌ tool not called (fail): … · and 1 more". */
export function checksLine(checks: readonly Check[]): string {
  const count = checksCount(checks);
  const failed = checks.filter((c) => c.status === 'fail');
  const open = failed.length > 0 ? failed : checks.filter((c) => c.status === 'not_evaluated');
  const first = open[0];
  if (!first) return count;
  const firstLine = firstLineOf(normalizeBlock(checkDetail(first)).trim());
  const more = open.length > 1 ? ` · and ${thousands(open.length - 1)} more` : '';
  return `${count} · ${checkHead(first)}: ${firstLine}${more}`;
}

// ---------------------------------------------------------------------------------------------
// First difference from the baseline

type BaselineTurn = PersonaBaseline['transcript'][number];

export interface FirstDifference {
  /** Turn number (0 = welcome). */
  turn: number;
  baseline: BaselineTurn | null;
  current: Turn | null;
}

function sameTurn(b: BaselineTurn, t: Turn): boolean {
  return b.message === t.message && b.reply === t.reply && sameRoute(b.route, t.route);
}

/** The first turn whose message, reply or route differs from the baseline, or null. Errored scripts are not compared. */
export function firstDifference(p: PersonaRecord): FirstDifference | null {
  if (p.errored || p.baseline === null) return null;
  const base = p.baseline.transcript;
  const welcome = base[0]?.message === null || p.turns[0]?.index === 0;
  const n = Math.max(base.length, p.turns.length);
  for (let i = 0; i < n; i++) {
    const b = base[i] ?? null;
    const t = p.turns[i] ?? null;
    if (b && t && sameTurn(b, t)) continue;
    return { turn: t ? t.index : welcome ? i : i + 1, baseline: b, current: t };
  }
  return null;
}

function routeBadge(route: Route | null): string {
  return route ? codeSpan(clip(routeText(route), LIMITS.ref)) : '_no route_';
}

/** "**Turn 3 · User**", as report.html and the welcome turn say it, and in a simulated script who wrote the message: "**Turn 3 · User** (simulated)". */
function userLine(turn: number, message: string, source?: TurnSource): string {
  const who = `**Turn ${turn} · User**${source === undefined ? '' : ` (${SOURCE_WORDS[source]})`}`;
  const text = normalizeBlock(message);
  if (!text.includes('\n') && text.length <= LIMITS.messageInline) return `${who}: ${text === '' ? '_(empty)_' : escapeInline(text)}`;
  return labelled(who, message, LIMITS.message);
}

/**
 * The turn that decides a script's meaning when it is changed or not checked (docs/meaning.md,
 * "Persona scripts"): the first of its worst turns, with the baseline's turn at the same place.
 */
export function meaningTurn(pr: PersonaRecord): { turn: Turn; baseline: BaselineTurn; words: string } | null {
  if (pr.errored || pr.baseline === null) return null;
  const rank = (t: Turn): number => (t.meaning?.value === 'changed' ? 2 : t.meaning?.value === 'unchecked' ? 1 : 0);
  let worst = -1;
  pr.turns.forEach((t, i) => {
    if (rank(t) > 0 && (worst === -1 || rank(t) > rank(pr.turns[worst] as Turn))) worst = i;
  });
  const turn = pr.turns[worst];
  const baseline = pr.baseline.transcript[worst];
  if (turn === undefined || baseline === undefined || !turn.meaning) return null;
  // Worded from the turn's own fields, its name as every surface says it (turnName): "Turn 0 (welcome)
  // changed in meaning: ...", where the item's stored detail reads "turn 0 ..." (docs/meaning.md, "On every surface").
  return { turn, baseline, words: `${turnName(turn.index)} ${turnMeaningWords(turn) as string}` };
}

/**
 * A turn's meaning against the baseline's, in words (every surface: the comment's and terminal's
 * first difference, report.html's transcript): "changed in meaning: numbers 50 → 90", "meaning not
 * checked: <why>", "reworded"; null when its reply has none.
 */
export function turnMeaningWords(t: Pick<Turn, 'meaning'>): string | null {
  const m = t.meaning;
  if (!m) return null;
  const why = (m.value === 'changed' || m.value === 'unchecked') && m.detail ? `: ${m.detail}` : '';
  return `${MEANING_WORDS[m.value]}${why}`;
}

/**
 * "**Turn 3 changed in meaning**: numbers 50 → 90", then the message it answered and who wrote it
 * (the terminal's key says "user message from the baseline"), as the first difference shows it, then that turn's diff.
 */
function meaningTurnBlock(m: { turn: Turn; baseline: BaselineTurn; words: string }, p: Profile): string {
  const asked = m.turn.message === null ? [] : [userLine(m.turn.index, m.turn.message, m.turn.source)];
  return [`**${escapeInline(clip(capitalized(m.words), LIMITS.detail))}**`, ...asked, diffBlock(m.baseline.reply, m.turn.reply, p)].join('\n\n');
}

/** "reworded": what a first difference shown after the turn that decided the drift was, when its reply has a meaning; null otherwise. */
export function differenceMeaning(d: FirstDifference): string | null {
  return d.current === null ? null : turnMeaningWords(d.current);
}

/**
 * The turns the comment and the terminal show above the transcript, in order (docs/meaning.md,
 * "Persona scripts"): the turn that decided the drift, when it is not the first difference: the
 * turn changed in meaning (or not checked), else the first turn whose user message is not the
 * baseline's (an edited follow-up, a user simulated anew: what "the user's message of turn 2 is not
 * the baseline's" names); then the first difference, with its meaning ("reworded") unless the
 * item's line names that turn already.
 */
export function shownTurns(pr: PersonaRecord): {
  meaning: NonNullable<ReturnType<typeof meaningTurn>> | null;
  message: FirstDifference | null;
  first: FirstDifference | null;
  firstWas: string | null;
} {
  const first = firstDifference(pr);
  const m = meaningTurn(pr);
  // A message turn decides only where the line says so: "the user's message of turn 2 is not the baseline's", "user simulated afresh".
  const message = m === null && pr.drift?.meaning?.by === 'turns' ? messageTurn(pr) : null;
  const named = pr.drift?.meaning?.detail?.startsWith(`turn ${first?.turn} `) === true;
  return {
    meaning: m !== null && m.turn.index !== first?.turn ? m : null,
    message: message !== null && message.turn !== first?.turn ? message : null,
    first,
    firstWas: first === null || named ? null : differenceMeaning(first),
  };
}

/** The terminal's line for that turn, named as every surface names it (turnName): "Turn 2: the script's message changed; the baseline sent: Order 1234". */
export function messageTurnWords(d: FirstDifference): string {
  const who = d.current === null ? "the user's message is not the baseline's" : messageChanged(d.current).replace(/^T/, 't');
  const sent = d.baseline?.message ?? null;
  return `${turnName(d.turn)}: ${who}${sent === null ? '' : `; the baseline sent: ${clip(normalizeBlock(sent).replace(/\s+/g, ' '), LIMITS.messageInline)}`}`;
}

/** The first turn whose user message is not the baseline's at the same place, with the baseline's turn; null when none. */
function messageTurn(pr: PersonaRecord): FirstDifference | null {
  if (pr.errored || pr.baseline === null) return null;
  const base = pr.baseline.transcript;
  const i = pr.turns.findIndex((t, k) => base[k] !== undefined && base[k].message !== t.message);
  const t = pr.turns[i];
  const b = base[i];
  return t === undefined || b === undefined ? null : { turn: t.index, baseline: b, current: t };
}

/** Who changed a turn's message: "The script's message changed", "The simulated user wrote another message" (the comment, the terminal, report.html). */
export function messageChanged(t: Turn): string {
  return t.source === 'simulator' ? 'The simulated user wrote another message' : "The script's message changed";
}

/**
 * What a first difference whose reply is the baseline's changed, in words (the terminal's line): "the script's
 * message changed, the reply the same", "route refunds / identify → handoff / queue, the reply the same".
 */
export function sameReplyWords(b: BaselineTurn, t: Turn): string {
  const parts: string[] = [];
  if (b.message !== t.message) parts.push(messageChanged(t).replace(/^T/, 't'));
  if (!sameRoute(b.route, t.route)) parts.push(`route ${routeText(b.route)} → ${routeText(t.route)}`);
  return [...parts, 'the reply the same'].join(', ');
}

function differenceBlock(d: FirstDifference, p: Profile, was: string | null, title = `**First difference from the baseline: ${turnName(d.turn)}**`): string {
  const parts = [`${title}${was === null ? '' : ` (${was})`}`];
  const { baseline: b, current: t } = d;
  const message = t?.message ?? b?.message ?? null;
  if (message !== null) parts.push(userLine(d.turn, message, t?.source));
  if (b && t) {
    if (b.message !== t.message && b.message !== null) {
      parts.push(`${messageChanged(t)}; the baseline sent: ${escapeInline(clip(b.message, LIMITS.messageInline))}`);
    }
    if (!sameRoute(b.route, t.route)) parts.push(`**Route**: ${routeBadge(b.route)} → ${routeBadge(t.route)}`);
    if (b.reply !== t.reply) parts.push(diffBlock(b.reply, t.reply, p));
    else parts.push('_Same reply as the baseline._');
  } else if (b) {
    parts.push(replyBlock(`This run has no ${turnWords(d.turn)}. **Baseline reply** · route ${routeBadge(b.route)}`, b.reply, p.maxReplyChars));
  } else if (t) {
    parts.push(replyBlock(`The baseline has no ${turnWords(d.turn)}. **New reply** · route ${routeBadge(t.route)}`, t.reply, p.maxReplyChars));
  }
  return parts.join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Transcript

/** A live script's calls ran for real by design (docs/personas.md, "Mocks and real tool calls"): only a mocked script's unmocked call is marked. */
function toolCallsBlock(t: Turn, live: boolean): string | null {
  return callsBlock('Tool calls', t.toolCalls, live);
}

/**
 * `title (n)` and a call a line; null: no calls. A call's name, input and output with right-to-left
 * text are isolated apart (words.ts isolatedCall, isolatedJson), as the comment's code span of a
 * call is: unisolated, an Arabic name before a Hebrew key drew the name and the JSON as one
 * right-to-left run, its braces turned. Each part is normalized before it is isolated, so that the
 * block keeps the isolates (item-parts.ts labelled).
 */
function callsBlock(title: string, calls: readonly ToolCall[] | null | undefined, live: boolean): string | null {
  if (!calls || calls.length === 0) return null;
  const part = (text: string, max: number): string => normalizeBlock(clip(text, max));
  const lines = calls.map(
    (c) =>
      `${isolatedCall(part(c.tool, LIMITS.label), part(jsonText(c.input), 1000))} → ${isolatedJson(part(jsonText(c.output), 1000))}${c.mocked || live ? '' : '  (NOT MOCKED)'}${sourceMark(c)}`,
  );
  return labelled(`${title} (${thousands(lines.length)})`, lines.join('\n'), LIMITS.detailBlock, true);
}

function agentLine(t: Turn): string {
  const parts = [`**${turnName(t.index)} · Agent**`, routeBadge(t.route)];
  if (t.outcome !== null) parts.push(`outcome ${codeSpan(clip(t.outcome, LIMITS.label))}`);
  if (t.offTrack.length > 0) {
    // A string is text; any other value is JSON as the record holds it, left to right (codeSpan json).
    parts.push(`off-track ${listAndMore(t.offTrack, 3, (o) => (typeof o === 'string' ? codeSpan(clip(o, CELL.json)) : codeSpan(clip(jsonText(o), CELL.json), { json: true })))}`);
  }
  return parts.join(' · ');
}

function turnBlocks(t: Turn, p: Profile, live: boolean): string[] {
  const blocks: string[] = [];
  if (t.message !== null) blocks.push(userLine(t.index, t.message, t.source));
  blocks.push(normalizeBlock(t.reply) === '' ? `${agentLine(t)}: _(empty)_` : replyBlock(agentLine(t), t.reply, p.maxReplyChars));
  const tools = toolCallsBlock(t, live);
  if (tools) blocks.push(tools);
  for (const e of t.errors.slice(0, 10)) {
    const tool = e.tool ? ` (tool ${codeSpan(clip(e.tool, LIMITS.label))})` : '';
    blocks.push(`⚠️ Agent error ${codeSpan(clip(e.kind, LIMITS.label))}${tool}: ${escapeDetail(clip(e.message, LIMITS.detail))}`);
  }
  return blocks;
}

/** The turn number the first unsent message would have had. */
function nextTurn(p: Pick<PersonaRecord, 'turns'>): number {
  const last = p.turns[p.turns.length - 1];
  return last ? last.index + 1 : 1;
}

/**
 * The message of the turn an errored script stopped on ("turn 3: HTTP 500 ..."): it was sent (and
 * retried) but its answer failed, and the record keeps it first among `unsent` (replay/personas.ts,
 * unsentFrom). Null when the run stopped elsewhere (the welcome turn) or did not stop on an error.
 */
export function stoppedOn(p: Pick<PersonaRecord, 'errored' | 'error' | 'unsent' | 'turns'>): { index: number; message: string } | null {
  const message = p.unsent[0];
  if (!p.errored || message === undefined) return null;
  const index = nextTurn(p);
  return typeof p.error === 'string' && p.error.startsWith(`turn ${index}: `) ? { index, message } : null;
}

/** The messages never sent: `unsent` without the one the run stopped on. */
export function notSent(p: Pick<PersonaRecord, 'errored' | 'error' | 'unsent' | 'turns'>): readonly string[] {
  return stoppedOn(p) === null ? p.unsent : p.unsent.slice(1);
}

/**
 * Who ended a scripted conversation (docs/personas.md, "Baselines and drift"), in the words every
 * report gives it (the comment's header and "Not sent", report.html's, the terminal's line): "the
 * agent ended the conversation on turn 3, the script's last message". Null for a simulated script
 * (its user's facts say it), an errored one, and an older record that does not keep it and sent
 * every message.
 */
export function scriptEndedWords(p: Pick<PersonaRecord, 'errored' | 'simulation' | 'endedBy' | 'unsent' | 'turns'>): string | null {
  const last = p.turns.at(-1);
  if (p.errored || p.simulation !== undefined || last === undefined) return null;
  const ended = p.endedBy ?? (p.unsent.length > 0 ? 'agent' : null);
  return ended === null ? null : scriptEndingWords(ended, last.index);
}

/** Why the messages not sent were not (the comment's and report.html's "Not sent"): "the agent ended the conversation on turn 2", "the run stopped". */
export function unsentWhy(p: PersonaRecord): string {
  if (p.errored) return 'the run stopped';
  return scriptEndedWords(p) ?? 'the conversation ended';
}

function unsentBlock(p: PersonaRecord): string | null {
  const unsent = notSent(p);
  if (unsent.length === 0) return null;
  const why = unsentWhy(p);
  const first = nextTurn(p) + (unsent.length < p.unsent.length ? 1 : 0);
  const items = unsent.slice(0, 20).map((m, i) => `- **${first + i} · User**: ${escapeInline(clip(m, LIMITS.messageInline))}`);
  if (unsent.length > 20) items.push(`- and ${thousands(unsent.length - 20)} more`);
  return `**Not sent** (${thousands(unsent.length)}), because ${why}:\n\n${items.join('\n')}`;
}

function transcriptSummary(p: PersonaRecord): string {
  const parts = [`Transcript: ${thousands(p.turns.length)} ${p.turns.length === 1 ? 'turn' : 'turns'}`];
  const live = p.simulation ? liveWords(p, p.simulation) : null;
  if (live !== null) parts.push(live);
  const unsent = notSent(p).length;
  if (unsent > 0) parts.push(`${thousands(unsent)} not sent`);
  if (p.errored) parts.push('stopped by an error');
  return parts.join(' · ');
}

export function transcriptBlock(pr: PersonaRecord, p: Profile): string {
  const blocks = pr.turns.flatMap((t) => turnBlocks(t, p, pr.toolMode === 'live'));
  if (pr.errored) {
    // The message the run stopped on was sent: it stands in the transcript, above the error.
    const stopped = stoppedOn(pr);
    if (stopped !== null) blocks.push(userLine(stopped.index, stopped.message));
    // The calls its stream had begun when it was cut short, as a fixture's record keeps them (docs/presets.md, "Streamed replies").
    const begun = callsBlock(BEGUN_TITLE, pr.errorToolCalls, pr.toolMode === 'live');
    if (begun) blocks.push(begun);
    // The whole error is shown above the checks when it is long: here only its turn, not the text again.
    const first = normalizeBlock(pr.error).trim().split('\n')[0] ?? '';
    const turn = errorTurn(first);
    if (!needsBlock(pr.error)) blocks.push(`**Stopped**: ${escapeDetail(clip(first, LIMITS.detail))}`);
    else blocks.push(turn === null ? '**Stopped** by the error above.' : `**Stopped** on ${escapeInline(turn)} by the error above.`);
  }
  const unsent = unsentBlock(pr);
  if (unsent) blocks.push(unsent);
  return `<details><summary>${escapeHtmlInline(transcriptSummary(pr))}</summary>\n\n${blocks.join('\n\n')}\n\n</details>`;
}

// ---------------------------------------------------------------------------------------------
// The item

function headerLine(p: PersonaRecord): string {
  const parts: string[] = [];
  if (p.persona) parts.push(`persona ${codeSpan(clip(p.persona, LIMITS.label))}`);
  const messages = p.turns.filter((t) => t.message !== null).length + (stoppedOn(p) === null ? 0 : 1);
  const all = messages + notSent(p).length;
  const welcome = p.turns[0]?.index === 0 ? ' after a welcome turn' : '';
  // A simulated user has no list of messages to count against: the simulator decides how many.
  if (p.simulation) parts.push(`${thousands(messages)} ${messages === 1 ? 'message' : 'messages'} sent${welcome}`);
  else parts.push(`${thousands(messages)} of ${thousands(all)} ${all === 1 ? 'message' : 'messages'} sent${welcome}`);
  // Who ended a scripted conversation (a simulated user's block says it for its own).
  const ended = scriptEndedWords(p);
  if (ended !== null) parts.push(`ended: ${escapeInline(ended)}`);
  if (!p.checks.some((c) => c.kind === 'conversations')) parts.push(`visited ${p.visited.length === 0 ? '_none_' : p.visited.slice(0, 12).map((v) => codeSpan(clip(v, LIMITS.label))).join(' → ')}`);
  parts.push(p.outcome === null ? 'no outcome reported' : `outcome ${codeSpan(clip(p.outcome, LIMITS.label))}`);
  return `**Script**: ${parts.join(' · ')}`;
}

/**
 * A simulated script's user: the goal, from which turn it was simulated live, how it ended, the
 * simulator calls; a simulator fault as the reason nothing was measured (grey, never a failure).
 */
function simulationBlock(p: PersonaRecord): string | null {
  const s = p.simulation;
  if (!s) return null;
  const facts = simulationFacts(p, s).map((f) => escapeInline(clip(f, LIMITS.detail)));
  const lines = [`**Simulated user**: ${[`goal: ${escapeInline(clip(normalizeBlock(s.goal).replace(/\s+/g, ' ').trim(), CELL.expected))}`, ...facts].join(' · ')}`];
  const fault = faultLine(s);
  // The fault itself is the item's line (personaSummary); here, what it means.
  if (fault !== null) lines.push('⚪ **Not evaluated**: the simulator could not play the user, so the agent was not measured (not a failure).');
  return lines.join('<br>\n');
}

/** The script's second line as its line says it, clipped: its checks, its error or the simulator's fault; '' when there is none. */
function whyLine(p: PersonaRecord, own?: Own): string {
  const fault = p.errored ? null : faultLine(p.simulation);
  const live = p.simulation ? liveWords(p, p.simulation) : null;
  const error = (own === undefined ? p.error : own.text) ?? '';
  const named = lineChecks(p);
  const second = p.errored ? firstLineOf(normalizeBlock(error).trim()) : fault !== null ? fault : `${lineWords(named)}${live === null ? '' : ` · ${live}`}`;
  return second ? clipDetail(second, LIMITS.detail) : '';
}

/** The script's line: icon, "🎭 script", label, verdict and drift words, file; then its checks or its error (whyLine). */
export function personaSummary(v: ScriptView, ctx: ReportContext, why: string, own?: Own): string {
  // Under a cause whose text is said once above it (cause-details.ts): the turn, or its own text.
  const turn = own?.turn ? ` · ${escapeHtmlInline(clip(own.turn, LIMITS.label))}` : '';
  const head = `${v.icon} ${SCRIPT_MARK_WORDS} <b>${escapeHtmlInline(clip(v.label, LIMITS.label))}</b> · ${escapeHtmlInline(keepQuantitiesWhole(v.status.join(' · ')))} · ${fileRefHtml(v.item, ctx)}${turn}`;
  return why ? `${head}<br>${escapeHtmlDetail(why)}` : head;
}

/** Can a lower level make this script shorter? Without turns there is nothing to leave out. */
export function personaLevels(p: PersonaRecord): readonly Level[] {
  if (p.turns.length === 0) return ['full'];
  return firstDifference(p) ? ['full', 'diff', 'brief'] : ['full', 'brief'];
}

function bodyParts(pr: PersonaRecord, level: Level, p: Profile): string[] {
  const parts = [headerLine(pr)];
  const simulated = simulationBlock(pr);
  if (simulated !== null) parts.push(simulated);
  parts.push(checksTable(pr.checks, pr.toolMode === 'live'));
  // A panel of judges: each judged criterion's members, one line each, under the table.
  for (const c of pr.checks) {
    const panel = c.kind === 'criterion' ? panelBlock(c.members, c.threshold, `"${c.expected}"`) : null;
    if (panel) parts.push(panel);
  }
  // The reply the decisive attempt's checks read, where it is not the shown attempt's.
  // Each only when it has something to show: a rendering without diffs (fit.ts) has an empty diff block.
  const dt = level === 'brief' ? null : decisiveTurn(pr);
  const dtBlock = dt === null ? '' : decisiveTurnBlock(dt, p);
  // The line names that turn only where it follows (not at brief, nor in fit.ts's measure without diffs).
  const tried = attemptsLine(pr, level, dtBlock !== '');
  if (tried) parts.push(tried);
  // The line above the details names the first attempt with the script's verdict: its checks follow when another's are shown.
  const decisive = pr.errored ? null : decisiveAttempt(pr);
  if (decisive !== null) parts.push(`**Attempt ${decisive.number}'s checks** (${ATTEMPT_WORDS[decisive.verdict]}):`, checksTable(decisive.attempt.checks, pr.toolMode === 'live'));
  if (dtBlock !== '') parts.push(dtBlock);
  // The attempt's turn the line's meaning names ("attempt 2: turn 3 changed in meaning: ..."), where it is another.
  const named = level === 'brief' ? null : namedAttemptTurn(pr);
  const namedBlock = named === null ? '' : decisiveTurnBlock(named, p);
  if (namedBlock !== '') parts.push(namedBlock);
  if (pr.errored) {
    if (needsBlock(pr.error)) parts.push(labelled('**Error**', pr.error, LIMITS.detailBlock));
  }
  // The turn that decided the drift comes first (docs/meaning.md, "Persona scripts"): a first
  // difference that is only a rewording (a welcome turn, say) follows it, named as such.
  const shown = shownTurns(pr);
  const d = shown.first;
  if (shown.meaning !== null && level !== 'brief') parts.push(meaningTurnBlock(shown.meaning, p));
  if (shown.message !== null && level !== 'brief') parts.push(differenceBlock(shown.message, p, null, `**Turn ${shown.message.turn}: the user's message is not the baseline's**`));
  if (d && level !== 'brief') parts.push(differenceBlock(d, p, shown.firstWas));
  if (pr.turns.length === 0) return parts;
  if (level === 'full') parts.push(transcriptBlock(pr, p));
  else parts.push(`_${d && level === 'brief' ? 'First difference and transcript' : 'Transcript'} left out to fit the size limit: see the full report._`);
  return parts;
}

/** "**Attempt 2, turn 2**, against attempt 1's" and the two replies' diff, or the one reply when the other attempt has no such turn. */
function decisiveTurnBlock(d: AttemptTurn, p: Profile): string {
  const head = `**Attempt ${d.number}, ${turnWords(d.index)}**`;
  if (d.shown !== null && d.turn !== null) {
    return diffBlock(d.shown.reply, d.turn.reply, p, { title: `${head}, against attempt ${d.shownNumber}'s`, sides: `\`-\` attempt ${d.shownNumber}, \`+\` attempt ${d.number}` });
  }
  if (d.turn !== null) return replyBlock(`${head} (attempt ${d.shownNumber} has no ${turnWords(d.index)}) · route ${routeBadge(d.turn.route)}`, d.turn.reply, p.maxReplyChars);
  return `${head}: attempt ${d.number} has no ${turnWords(d.index)} (attempt ${d.shownNumber}'s is in the transcript).`;
}

/**
 * A repeated script's attempts in order, and which one the checks and transcript are
 * (docs/fixtures.md#repeat-measure-flakiness-instead-of-suffering-it). `level`: the transcript is
 * said shown only where it follows (the full form). `turnShown`: the decisive attempt's turn
 * follows (decisiveTurnBlock), so the line names it.
 */
function attemptsLine(pr: PersonaRecord, level: Level, turnShown: boolean): string | null {
  const attempts = pr.attempts;
  if (attempts === undefined || pr.repeat === undefined) return null;
  const shown = attempts.findIndex((a) => !a.errored);
  // The other attempts against the shown one, as acceptance reads them (docs/meaning.md, "Repeats").
  const others = otherAttemptsWords(pr, 'it');
  const decisive = pr.errored ? null : decisiveAttempt(pr);
  const dt = turnShown ? decisiveTurn(pr) : null;
  const then = decisive === null ? '' : `, then attempt ${decisive.number}'s checks, ${firstThat(decisive.verdict)}${dt === null ? '' : `, and its ${turnWords(dt.index)}`}`;
  const which = level === 'full' ? 'the checks and transcript shown' : 'the checks shown and the transcript';
  const tail = shown === -1 ? '' : `; ${which} are attempt ${shown + 1}'s${others === null ? '' : ` (${others})`}${then}`;
  // Every attempt had the same transcript and the judge moved the verdict (docs/judges.md, "A judge that answers differently").
  const judge = judgeAcrossAttempts(pr);
  return `${attemptsHead(pr.repeat, attempts)}${tail}${judge === null ? '' : `; ${escapeInline(clip(judge, LIMITS.detail))}`}`;
}

export function personaBlock(v: ScriptView, level: Level, ctx: ReportContext, p: Profile, open = false, own?: Own): string {
  const why = whyLine(v.item, own);
  return itemDetails(v.item, ctx, personaSummary(v, ctx, why, own), bodyParts(v.item, level, p), open, why);
}
