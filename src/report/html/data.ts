// What the page's script needs to draw one item's detail when it is opened: plain JSON, no markup.
// Replies and transcripts stay out of the DOM until a row is expanded, so a 5,000-item run opens
// fast; the script builds the detail with createElement / textContent only (never innerHTML).
//
// Side by side: the sentence diff of diff.ts (replyDiff) as rows: unchanged sentences on both
// sides, each changed sentence with its replacement, the changed words marked.

import type { Check, FixtureRecord, PersonaAttempt, JsonValue, ObservedToolCall, PanelMember, PersonaBaseline, PersonaRecord, SingleAssertion, SpanCounts, TimeSplit, ToolCall, Turn, WaterfallSpan } from '../../types.js';
import { sourceMark, spanCountsText, timeSplitText } from '../trace.js';
import { judgeAssertionOf } from '../../assertions/list.js';
import { memberWords, panelCount } from '../item-parts.js';
import { MAX_DIFF_CHARS, MAX_UNIT_EDITS, replyDiff, type Segment } from '../diff.js';

export { MAX_DIFF_CHARS };
import { CHARACTER_NAME_LEGEND, lookalikeWords, namesCharacters } from '../lookalike.js';
import { clip, isolateRightToLeft, normalizeBlock, stripControl } from '../escape.js';
import { jsonText } from '../../assertions/format.js';
import { CHECK_NAMES, checkDetail, checkSubject, decisiveTurn, matchMark, messageChanged, notSent, replyWords, scriptEndedWords, stoppedOn, turnMeaningWords, unsentWhy } from '../persona.js';
import { attemptStandings, decisiveAttempt, otherAttemptsWords } from '../item-parts.js';
import { isPersona, routeText, type Item } from '../model.js';
import { reuseWords } from '../../evaluate/reuse.js';
import { changesOf } from '../../evaluate/changes.js';
import { editedSinceBaseline, sameRoute } from '../../evaluate/drift.js';
import { faultLine, simulationFacts, SOURCE_WORDS } from '../simulation.js';
import { capitalized, hasRightToLeft, isolatedJson, thousands, turnWords } from '../../words.js';
import { judgeAcrossAttempts } from '../../evaluate/judge-flip.js';

/** Any text in the data is clipped to this many characters (a note says so). */
export const MAX_TEXT_CHARS = 100_000;

/** Segments as [text, 1 when changed else 0]. */
export type Segs = Array<[string, 0 | 1]>;

/** One row of a side-by-side diff: unchanged units on both sides, or a removed / added pair. */
export type SideRow = { same: string[] } | { a: Segs | null; b: Segs | null };

export interface SideBySide {
  /** Only whitespace differs: the units are whole lines, with whitespace made visible. */
  whitespaceOnly: boolean;
  rows: SideRow[];
  /** What `⟨U+…⟩` means, shown under the table when a row names a character by its code; absent otherwise. */
  legend?: string;
}

/**
 * A turn's spans as report.html shows them (docs/traces.md, "In the reports"): the counts, the time
 * split as one line, and the waterfall's bars (ms from the turn's request; names are data, set as text).
 */
export interface TraceData {
  /** "12 spans (2 ignored, 1 late)"; absent when the record has no counts. */
  spans?: string;
  /** "model 1.2 s · tool 400 ms · other 90 ms"; absent without a time split. */
  split?: string;
  /** The bars, earliest first; absent or empty: no waterfall. */
  bars?: Array<{ name: string; kind: 'model' | 'tool' | 'other'; start: number; dur: number; took?: number; depth: number; error: boolean }>;
  /** The turn's latency, the waterfall's width when it is longer than the spans; absent when not measured. */
  latencyMs?: number;
}

/** A tool call as report.html lists it; `trace` marks one seen only in the turn's spans ("(from trace)"). */
export interface CallData {
  tool: string;
  input: string;
  output: string;
  mocked: boolean;
  trace?: boolean;
}

export interface FixtureData {
  kind: 'fixture';
  label: string;
  message: string;
  persona: string | null;
  assertion: string;
  detail: string;
  judge: { score: number | null; threshold: number | null; rationale: string | null; members?: string[] } | null;
  error: string | null;
  /** The new reply; absent when errored, and when the diff shows it already. */
  reply?: string | null;
  /** The words of the reply shown whole that have look-alike letters, named (`p⟨U+0430⟩ypal`); absent when none. */
  lookalikes?: string[];
  route: string;
  baseline: { reply: string | null; route: string; verdict: string; acceptedAt: string; commit: string | null } | null;
  routeChanged: boolean;
  /**
   * Present only when the fixture's message or persona tag was edited since the baseline
   * (docs/meaning.md, "An edited fixture"): the message the baseline answered (null when only the
   * persona tag changed) and its diff against the message now (null when one is too long to
   * diff); `personaWas` only when the persona tag changed (null: the baseline had none).
   */
  messageEdited?: { baseline: string | null; diff: SideBySide | null; personaWas?: string | null };
  /** Baseline vs new reply, when they differ and both are short enough to diff. */
  diff: SideBySide | null;
  /** Why there is no diff although the replies differ. */
  diffNote: string | null;
  /** A repeated fixture's attempts, in order; absent when it ran once. */
  attempts?: AttemptData[];
  /** Above the attempts, a sentence: the judge answered the same reply differently across them (docs/judges.md, "A judge that answers differently"); absent otherwise. */
  attemptsJudge?: string;
  /** Above the attempts, a sentence: the others against the one shown, "The other attempts, compared with attempt 1: 2 changed in meaning, 1 reworded."; absent when they replied the same. */
  attemptsOthers?: string;
  /** The message turn's tool calls (docs/traces.md, "Fixtures"); absent when none were reported or seen. */
  toolCalls?: CallData[];
  /** The message turn's spans (docs/traces.md, "In the reports"); absent without spans. */
  trace?: TraceData;
}

/** One attempt of a repeated item; `shown` marks the one whose reply (or transcript) the item shows. */
export interface AttemptData {
  n: number;
  outcome: 'pass' | 'fail' | 'not_evaluated' | 'errored';
  shown: boolean;
  /** Why (the check's detail, the error, or a script's failing checks). */
  detail: string;
  /**
   * What the last column says in words: the shown attempt's "the reply above" ("the transcript
   * below" for a script), "the same reply as attempt 1's" ("the same replies ..."), or the turn of
   * a script's first reply unlike the attempt shown's ("turn 3", its reply in `reply`); absent when errored.
   */
  note?: string;
  /**
   * What the attempt is against the one shown, in the terms acceptance decides on: "Against attempt
   * 1: changed in meaning: numbers 30 → 14", "... turn 3 changed in meaning: ...", "... reworded
   * (judge 0.93)"; absent for the shown attempt, an errored one and one that replied the same.
   */
  standing?: string;
  /** A fixture attempt's reply that is not the shown attempt's, or a script's first reply unlike the shown attempt's; absent otherwise. */
  reply?: string;
  /** An errored attempt whose stream was cut short: the tool calls it had begun (docs/presets.md, "Streamed replies"); absent otherwise. */
  toolCalls?: CallData[];
}

export interface CheckData {
  status: Check['status'];
  name: string;
  expected: string;
  observed: string;
  detail: string;
  /** A panel of judges: one line per member (docs/judges.md, "Panels"); absent for a single judge. */
  members?: string[];
}

export interface TurnData {
  index: number;
  message: string | null;
  reply: string;
  route: string;
  toolCalls: CallData[] | null;
  outcome: string | null;
  errors: string[];
  /** The baseline's turn at this position, when it differs (reply diffed, route and message named). */
  baseline: {
    message: string | null;
    /** Who changed the message, when it changed: "The script's message changed", "The simulated user wrote another message". */
    messageChanged?: string;
    route: string | null;
    diff: SideBySide | null;
    missing: boolean;
    diffNote?: string;
    /** The reply's meaning against the baseline's, "changed in meaning: numbers 50 → 90", "reworded"; absent when it has none. */
    meaning?: string;
  } | null;
  /** A simulated script's message turn: who wrote the user message ("simulated", "from the baseline", "script"). */
  source?: string;
  /** This turn's spans (docs/traces.md, "In the reports"); absent without spans. */
  trace?: TraceData;
}

export interface PersonaData {
  kind: 'persona';
  label: string;
  persona: string | null;
  checks: CheckData[];
  turns: TurnData[];
  /** Baseline turns past the end of this run's transcript. */
  droppedTurns: number;
  /** Live mode (docs/personas.md, "Mocks and real tool calls"): its calls ran for real by design, and are not marked "not mocked". */
  live: boolean;
  unsent: string[];
  /** Above the messages not sent, as the comment says it (persona.ts): "Not sent (1), because the agent ended the conversation on turn 3"; absent when none. */
  unsentHead?: string;
  /** The turn number of the first message not sent. */
  unsentFirst?: number;
  /** The turn the run stopped on, whose message was sent; null when none. */
  stopped: { index: number; message: string } | null;
  /** The tool calls the turn the run stopped on had begun when its stream was cut short (errorToolCalls); absent when none. */
  stoppedCalls?: CallData[];
  visited: string[];
  outcome: string | null;
  /** Who ended a scripted conversation, as the comment's header says it (persona.ts, scriptEndedWords); null for a simulated or errored one. */
  ended: string | null;
  error: string | null;
  /** A repeated script's attempts, in order; absent when it ran once. */
  attempts?: AttemptData[];
  /** Above the attempts, a sentence: the judge answered the same transcript differently across them; absent otherwise. */
  attemptsJudge?: string;
  /** Above the attempts, a sentence: the others against the one shown, "The other attempts, compared with attempt 1: 2 changed in meaning, 1 reworded."; absent when they replied the same. */
  attemptsOthers?: string;
  /** A repeated script: the attempt whose checks and transcript are shown; absent when it ran once or every attempt errored. */
  shownAttempt?: number;
  /**
   * The first attempt with the script's verdict, when it is not the one shown (docs/fixtures.md,
   * "Reports"): its checks, then its first turn that replied otherwise than the attempt shown, named
   * as every surface names it ("turn 0 (welcome)", "turn 3") (`shown` / `reply` null: that attempt has
   * no such turn; `diff` null: one is missing or too long).
   */
  decisive?: { n: number; verdict: 'pass' | 'fail' | 'not_evaluated'; checks: CheckData[]; turn: { name: string; diff: SideBySide | null; note?: string; shown: string | null; reply: string | null } | null };
  /** A simulated user (docs/simulated-users.md): the goal, from which turn it was live, how it ended, its calls, a fault. */
  simulation?: { goal: string; facts: string[]; fault: string | null };
}

export type ItemData = FixtureData | PersonaData;

/** The attempts of a repeated item, the shown one (the first that did not error, else the first) marked. */
function attemptsData<T extends { errored: boolean; verdict: string | null; toolCalls?: ToolCall[] | null; errorToolCalls?: ToolCall[] }>(item: Item, attempts: readonly T[] | undefined, describe: (a: T) => string, reply: (a: T, shown: T) => Pick<AttemptData, 'note' | 'reply'>): { attempts?: AttemptData[]; attemptsJudge?: string; attemptsOthers?: string } {
  if (attempts === undefined || attempts.length === 0) return {};
  // The line the comment gives the item (docs/judges.md, "A judge that answers differently").
  const judge = judgeAcrossAttempts(item);
  const first = attempts.findIndex((a) => !a.errored);
  const shown = first === -1 ? 0 : first;
  const others = first === -1 ? null : otherAttemptsWords(item, `attempt ${first + 1}`);
  const standings = attemptStandings(item);
  return {
    attempts: attempts.map((a, i) => {
      const standing = standings.get(i + 1);
      return {
        n: i + 1,
        outcome: a.errored || a.verdict === null ? 'errored' : (a.verdict as AttemptData['outcome']),
        shown: i === shown,
        detail: clip(normalizeBlock(describe(a)), 2000),
        ...(a.errored ? begunData(a.toolCalls ?? a.errorToolCalls) : reply(a, attempts[shown] as T)),
        // Whether it changed in meaning or was only reworded, in acceptance's terms (docs/meaning.md, "Repeats").
        ...(standing === undefined ? {} : { standing: `Against attempt ${shown + 1}: ${clip(normalizeBlock(standing), 2000)}` }),
      };
    }),
    // Each a sentence of its own on the page, its capital by the rule every surface uses (words.ts),
    // not one the page's script would make by hand.
    ...(judge === null ? {} : { attemptsJudge: `${capitalized(clip(normalizeBlock(judge), 2000))}.` }),
    // The other attempts against the shown one, as the comment's attempts line says them (item-parts.ts).
    ...(others === null ? {} : { attemptsOthers: `${capitalized(others)}.` }),
  };
}

/** An errored attempt's calls begun by its cut stream, shown under its error; nothing when none. */
function begunData(calls: readonly ToolCall[] | null | undefined): Pick<AttemptData, 'toolCalls'> {
  return calls != null && calls.length > 0 ? { toolCalls: toolCallData(calls) ?? [] } : {};
}

/**
 * The characters of text (replies, messages, details, diffs) one page holds before it is full:
 * past them, each further text is clipped to FULL_PAGE_TEXT_CHARS and no reply is diffed, so that a
 * large run with long replies still gives a page a browser opens, and a string V8 can build: 3,600
 * items with replies of 77,000 characters threw "Invalid string length", and the Action's step
 * failed before it uploaded the artifact, wrote the summary or commented. The items come worst
 * first, so the ones that need attention keep their text (docs/action.md, "report.html").
 */
export const MAX_PAGE_TEXT_CHARS = 20_000_000;
/** A text's length once the page is full. */
export const FULL_PAGE_TEXT_CHARS = 500;

/** Characters the page being built may still hold (itemsData sets it for one rendering, which is synchronous). */
let pageLeft = Number.POSITIVE_INFINITY;

function text(s: string): string {
  const n = normalizeBlock(s);
  const full = pageLeft <= 0;
  const max = full ? FULL_PAGE_TEXT_CHARS : MAX_TEXT_CHARS;
  if (n.length <= max) {
    pageLeft -= n.length;
    return n;
  }
  pageLeft -= max;
  const why = full ? `; this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text, and the whole text is in results.json` : '';
  return `${clip(n, max)}\n[clipped: the first ${thousands(max)} of ${thousands(n.length)} characters${why}]`;
}

/** Adjacent pieces with the same mark joined. */
function segs(segments: readonly Segment[]): Segs {
  const out: Segs = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    const mark = s.marked ? 1 : 0;
    if (last && last[1] === mark) last[0] += s.text;
    else out.push([s.text, mark]);
  }
  return out;
}

/** Why two replies that differ were not diffed, in a few words: the page is full, one is too long, or they are too different. */
function notDiffedReason(baseline: string, reply: string): string {
  if (pageLeft <= 0) return `this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text`;
  if (normalizeBlock(baseline).length > MAX_DIFF_CHARS || normalizeBlock(reply).length > MAX_DIFF_CHARS) return `a reply is longer than ${thousands(MAX_DIFF_CHARS)} characters`;
  return `more than ${thousands(MAX_UNIT_EDITS)} sentences or lines removed or added`;
}

/** Why two replies are shown whole, not diffed (docs/action.md, "The PR comment"): one is too long, or they are too different. */
function notDiffedWhy(baseline: string, reply: string): string {
  if (pageLeft <= 0) return `not diffed: this page holds about ${thousands(MAX_PAGE_TEXT_CHARS)} characters of text, and the whole replies are in results.json`;
  if (normalizeBlock(baseline).length > MAX_DIFF_CHARS || normalizeBlock(reply).length > MAX_DIFF_CHARS) return `a reply is longer than ${thousands(MAX_DIFF_CHARS)} characters: shown whole, not diffed`;
  return `too different to diff (more than ${thousands(MAX_UNIT_EDITS)} sentences or lines removed or added): shown whole`;
}

/** The side-by-side rows of two replies (normalised), or null when one is too long to diff or they are too different. */
export function sideBySide(baseline: string, reply: string): SideBySide | null {
  const a = normalizeBlock(baseline);
  const b = normalizeBlock(reply);
  if (a.length > MAX_DIFF_CHARS || b.length > MAX_DIFF_CHARS || pageLeft <= 0) return null;
  const d = replyDiff(a, b);
  if ('tooDifferent' in d) return null;
  pageLeft -= a.length + b.length;
  const rows: SideRow[] = [];
  let dels: Segs[] = [];
  let ins: Segs[] = [];
  const flush = (): void => {
    for (let i = 0; i < Math.max(dels.length, ins.length); i++) rows.push({ a: dels[i] ?? null, b: ins[i] ?? null });
    dels = [];
    ins = [];
  };
  for (const line of d.lines) {
    if (line.kind === 'skip') {
      flush();
      rows.push({ same: line.units });
    } else if (line.kind === 'delete') dels.push(segs(line.segments));
    else ins.push(segs(line.segments));
  }
  flush();
  const named = rows.some((r) => ('same' in r ? r.same.some(namesCharacters) : [...(r.a ?? []), ...(r.b ?? [])].some(([t]) => namesCharacters(t))));
  return { whitespaceOnly: d.whitespaceOnly, rows, ...(named ? { legend: CHARACTER_NAME_LEGEND } : {}) };
}

/** A JSON value in the one form the comment, the terminal and JUnit write it (assertions/format.ts's jsonText, `{"order": "A1"}`), clipped. */
function json(value: JsonValue | undefined): string {
  return clip(jsonText(value ?? null), 2000);
}

function assertionText(f: FixtureRecord): string {
  const a = f.assertion;
  if (a === null) return 'none (a probe: the reply is recorded, not judged)';
  if (a.kind === 'all') return `all of: ${a.assertions.map(checkText).join('; ')}`;
  return checkText(a);
}

function checkText(a: SingleAssertion): string {
  if (a.kind === 'contains') return `contains ${JSON.stringify(a.value)}`;
  if (a.kind === 'regex') return `regex /${a.pattern}/${a.flags}`;
  if (a.kind === 'maxLatency') return `latency at most ${thousands(a.ms)} ms`;
  if (a.kind === 'toolCalled' || a.kind === 'toolNotCalled') return `${a.kind === 'toolCalled' ? 'tool called' : 'tool not called'}: ${a.tool}${a.input === undefined ? '' : ` ${json(a.input)}`}${a.match === 'exact' ? ' (exact)' : ''}`;
  return `judge: ${a.criterion} (threshold ${a.threshold.toFixed(2)})`;
}

/** The baseline's message beside the fixture's, when they differ (docs/meaning.md, "An edited fixture"). */
function messageEditedData(f: FixtureRecord): Pick<FixtureData, 'messageEdited'> {
  const edited = editedSinceBaseline(f.baseline, f);
  if (edited === null) return {};
  const then = edited.messageWas;
  const personaWas = 'personaWas' in edited ? { personaWas: edited.personaWas ?? null } : {};
  return { messageEdited: { baseline: then === null ? null : text(then), diff: then === null ? null : sideBySide(then, f.message), ...personaWas } };
}

/** The look-alike words of a reply shown whole (lookalike.ts); nothing when none, or no reply is shown. */
function lookalikesOf(reply: string | null): Pick<FixtureData, 'lookalikes'> {
  const words = reply === null ? [] : lookalikeWords(reply);
  return words.length > 0 ? { lookalikes: words } : {};
}

export function fixtureData(f: FixtureRecord): FixtureData {
  const b = f.baseline;
  const replyDiffers = !f.errored && b !== null && f.reply !== null && b.reply !== f.reply;
  const diff = replyDiffers ? sideBySide(b.reply, f.reply as string) : null;
  // Said now: the texts below may fill the page.
  const diffNote = replyDiffers && diff === null ? notDiffedWhy(b.reply, f.reply as string) : null;
  const hasJudge = f.score !== null || f.rationale !== null || judgeAssertionOf(f.assertion) !== null;
  return {
    kind: 'fixture',
    label: f.label,
    message: text(f.message),
    persona: f.persona,
    assertion: assertionText(f),
    detail: text(f.detail ?? ''),
    judge: hasJudge
      ? {
          score: f.score,
          threshold: f.threshold,
          rationale: f.rationale === null ? null : text(f.rationale),
          ...(f.members != null && f.threshold !== null ? { members: memberLines(f.members, f.threshold) } : {}),
        }
      : null,
    error: f.errored ? text(f.error) : null,
    reply: f.reply === null || diff !== null ? null : text(f.reply),
    ...lookalikesOf(f.reply === null || diff !== null ? null : f.reply),
    route: routeText(f.route),
    // The baseline's reply is only repeated when it is not in the diff already (or equal to the reply).
    // An errored item's reply (an agent_error keeps the one it answered: docs/traces.md, "Fixtures") is not compared: no baseline reply beside it.
    baseline: b === null ? null : { reply: f.errored || diff !== null || b.reply === f.reply ? null : text(b.reply), route: routeText(b.route), verdict: b.verdict, acceptedAt: b.acceptedAt, commit: b.commit },
    routeChanged: changesOf(f).some((c) => c.dimension === 'route'),
    ...messageEditedData(f),
    diff,
    diffNote,
    // An attempt that replied as the one shown says so rather than repeat a reply that may be long.
    ...attemptsData(
      f,
      f.attempts,
      (a) => a.error ?? a.detail,
      (a, shown) => (a === shown ? { note: 'the reply above' } : a.reply === shown.reply ? { note: `the same reply as attempt ${(f.attempts?.indexOf(shown) ?? 0) + 1}'s` } : a.reply === null ? {} : { reply: text(a.reply) }),
    ),
    ...(f.toolCalls != null && f.toolCalls.length > 0 ? { toolCalls: toolCallData(f.toolCalls) ?? [] } : {}),
    ...traceData(f),
  };
}

/** `live`: a live script's calls ran for real by design, and are not marked (docs/personas.md, "Mocks and real tool calls"). */
function callsText(calls: readonly ObservedToolCall[], live: boolean): string {
  return calls.map((c) => `${turnWords(c.turn)} ${json(c.input)}${c.mocked || live ? '' : ' (not mocked)'}${sourceMark(c)}`).join('; ');
}

function expectedText(c: Check): string {
  switch (c.kind) {
    case 'conversations':
      return c.expected.join(', ');
    case 'terminal':
      return c.expected;
    case 'toolCalled':
    case 'toolNotCalled':
      return c.expected.input === undefined ? `${c.expected.tool}, any input` : `${c.expected.tool} ${json(c.expected.input)} (${c.expected.match})`;
    case 'reply':
      return replyWords(c.expected);
    case 'maxTurnLatency':
      return `at most ${thousands(c.expected)} ms a turn`;
    case 'criterion':
      return c.expected;
  }
}

function observedText(c: Check, live: boolean): string {
  switch (c.kind) {
    case 'conversations':
      return c.observed.length > 0 ? `visited ${c.observed.join(' → ')}` : 'visited none';
    case 'terminal':
      return c.observed ?? 'no outcome';
    case 'toolCalled':
    case 'toolNotCalled':
      if (c.turn !== null) return `called on ${turnWords(c.turn)}${matchMark(c)}`;
      return c.observed.length === 0 ? 'not called' : `other inputs only: ${callsText(c.observed, live)}`;
    case 'reply':
    case 'maxTurnLatency':
      return checkDetail(c);
    case 'criterion':
      return typeof c.score === 'number' && Number.isFinite(c.score)
        ? `score ${c.score.toFixed(2)} (threshold ${c.threshold.toFixed(2)})${c.reused ? `, ${reuseWords(c.reused)}` : ''}${c.rationale ? `: ${c.rationale}` : ''}`
        : 'no score';
  }
}

function checkData(c: Check, live: boolean): CheckData {
  const subject = checkSubject(c);
  return {
    status: c.status,
    name: CHECK_NAMES[c.kind] + (subject && c.kind !== 'criterion' ? ` ${subject}` : ''),
    expected: clip(expectedText(c), 2000),
    observed: clip(observedText(c, live), 2000),
    detail: clip(normalizeBlock(checkDetail(c)), 4000),
    ...(c.kind === 'criterion' && c.members !== undefined ? { members: memberLines(c.members, c.threshold) } : {}),
  };
}

/** A panel's members, one line each: "openai gpt-4o: 0.90 pass: <rationale>", then how many passed. */
function memberLines(members: readonly PanelMember[], threshold: number): string[] {
  return [panelCount(members, threshold), ...members.map((m) => clip(text(`${m.label}: ${memberWords(m, threshold)}`), 600))];
}

function toolCallData(calls: readonly ToolCall[] | null): TurnData['toolCalls'] {
  return calls === null ? null : calls.map((c) => ({ tool: c.tool, input: json(c.input), output: json(c.output), mocked: c.mocked, ...(c.source === 'trace' ? { trace: true } : {}) }));
}

/** At most this many bars per turn (the record keeps at most 50). */
const MAX_BARS = 50;

/** What a turn's record says about its spans, or nothing when it has none of it (records before traces). */
export function traceData(t: { spans?: SpanCounts | null; time?: TimeSplit | null; waterfall?: WaterfallSpan[] | null; latencyMs?: number | null }): { trace?: TraceData } {
  const d: TraceData = {};
  if (t.spans != null) d.spans = spanCountsText(t.spans);
  if (t.time != null) d.split = timeSplitText(t.time);
  if (t.waterfall != null && t.waterfall.length > 0) {
    d.bars = t.waterfall.slice(0, MAX_BARS).map((w) => {
      // A span that started before the request was sent (docs/traces.md, "In the reports") is drawn
      // from 0 to its own end, not shifted to 0 whole; `took` keeps its duration for the label.
      const start = Math.max(0, w.startMs);
      const took = Math.max(0, w.durationMs);
      const dur = Math.max(0, w.startMs + took - start);
      return {
        // A tool span whose name does not say the tool (the AI SDK's `ai.toolCall`) gets it in brackets.
        name: clip(text(w.kind === 'tool' && w.tool !== null && !w.name.includes(w.tool) ? `${w.name} (${w.tool})` : w.name), 200),
        kind: w.kind,
        start,
        dur,
        ...(dur !== took ? { took } : {}),
        depth: Math.max(0, Math.min(8, Math.floor(w.depth))),
        error: w.status === 'error',
      };
    });
    if (t.latencyMs != null) d.latencyMs = t.latencyMs;
  }
  return Object.keys(d).length === 0 ? {} : { trace: d };
}

type BaselineTurn = PersonaBaseline['transcript'][number];

/** The baseline turn matched with this run's turn at the same position (welcome aligned with welcome). */
function baselineTurnData(b: BaselineTurn | undefined, t: Turn): TurnData['baseline'] {
  if (b === undefined) return { message: null, route: null, diff: null, missing: true };
  const same = b.reply === t.reply && b.message === t.message && sameRoute(b.route, t.route);
  if (same) return null;
  const diff = b.reply === t.reply ? null : sideBySide(b.reply, t.reply);
  const meaning = b.reply === t.reply ? null : turnMeaningWords(t);
  return {
    message: b.message !== t.message ? b.message : null,
    ...(b.message !== t.message && b.message !== null ? { messageChanged: messageChanged(t) } : {}),
    route: sameRoute(b.route, t.route) ? null : routeText(b.route),
    diff,
    missing: false,
    // A reply that differs but is not diffed says so, and why (docs/action.md, "report.html").
    ...(b.reply !== t.reply && diff === null ? { diffNote: `not diffed (${notDiffedReason(b.reply, t.reply)}); the baseline's reply is in results.json` } : {}),
    // What the reply is against the baseline's, so that the turn that decided the drift is told from a rewording (docs/meaning.md, "Persona scripts").
    ...(meaning === null ? {} : { meaning }),
  };
}

export function personaData(p: PersonaRecord): PersonaData {
  const base = !p.errored && p.baseline !== null ? p.baseline.transcript : null;
  return {
    kind: 'persona',
    label: p.label,
    persona: p.persona,
    checks: p.checks.map((c) => checkData(c, p.toolMode === 'live')),
    turns: p.turns.map((t, i) => ({
      index: t.index,
      message: t.message === null ? null : text(t.message),
      reply: text(t.reply),
      route: routeText(t.route),
      toolCalls: toolCallData(t.toolCalls),
      outcome: t.outcome,
      errors: t.errors.map((e) => `${e.kind}${e.tool ? ` (${e.tool})` : ''}: ${e.message}`),
      baseline: base === null ? null : baselineTurnData(base[i], t),
      ...(t.source === undefined ? {} : { source: SOURCE_WORDS[t.source] }),
      ...traceData(t),
    })),
    droppedTurns: base === null ? 0 : Math.max(0, base.length - p.turns.length),
    live: p.toolMode === 'live',
    // The message the run stopped on was sent; only the rest were not (persona.ts, stoppedOn).
    unsent: notSent(p).map(text),
    ...unsentWords(p),
    stopped: ((s) => (s === null ? null : { index: s.index, message: text(s.message) }))(stoppedOn(p)),
    ...(p.errorToolCalls !== undefined && p.errorToolCalls.length > 0 ? { stoppedCalls: toolCallData(p.errorToolCalls) ?? [] } : {}),
    visited: p.visited,
    outcome: p.outcome,
    ended: ((e) => (e === null ? null : text(e)))(scriptEndedWords(p)),
    error: p.errored ? text(p.error) : null,
    ...attemptsData(
      p,
      p.attempts,
      (a) => a.error ?? (a.checks.filter((c) => c.status !== 'pass').map((c) => `${CHECK_NAMES[c.kind]}: ${checkDetail(c)}`).join('; ') || 'every check passed'),
      (a) => unlikeShown(p, a),
    ),
    ...decisiveData(p),
    ...(p.simulation ? { simulation: { goal: text(p.simulation.goal), facts: simulationFacts(p, p.simulation).map(text), fault: faultLine(p.simulation) } } : {}),
  };
}

/** The attempt shown of a repeated script (the first that did not error), 1-based; 0 when none. */
function shownNumber(p: PersonaRecord): number {
  return p.attempts === undefined ? 0 : p.attempts.findIndex((a) => !a.errored) + 1;
}

/**
 * A script attempt's first reply unlike the attempt shown's, in words (the attempts table's last
 * column): their turns paired by index, not place, as the comment's decisiveTurn pairs them (an
 * attempt may lack a turn the other has: no welcome, a shorter conversation).
 */
function unlikeShown(p: PersonaRecord, a: PersonaAttempt): Pick<AttemptData, 'note' | 'reply'> {
  const shown = shownNumber(p);
  if (p.attempts?.[shown - 1] === a) return { note: 'the transcript below' };
  const theirsAt = new Map(p.turns.map((t) => [t.index, t]));
  const mineAt = new Map(a.turns.map((t) => [t.index, t]));
  for (const index of [...new Set([...theirsAt.keys(), ...mineAt.keys()])].sort((x, y) => x - y)) {
    const mine = mineAt.get(index);
    const theirs = theirsAt.get(index);
    if (mine !== undefined && theirs !== undefined && mine.reply === theirs.reply) continue;
    return mine === undefined ? { note: `no ${turnWords(index)}` } : { note: turnWords(index), reply: text(mine.reply) };
  }
  return { note: `the same replies as attempt ${shown}'s` };
}

/** Why the messages not sent were not, and the first one's turn number (the comment's words, persona.ts unsentBlock). */
function unsentWords(p: PersonaRecord): Pick<PersonaData, 'unsentHead' | 'unsentFirst'> {
  const unsent = notSent(p);
  if (unsent.length === 0) return {};
  const last = p.turns[p.turns.length - 1];
  const next = last ? last.index + 1 : 1;
  return { unsentHead: `Not sent (${thousands(unsent.length)}), because ${unsentWhy(p)}`, unsentFirst: next + (unsent.length < p.unsent.length ? 1 : 0) };
}

/** The shown attempt's number and the decisive attempt's checks and turn, as the comment has them (persona.ts). */
function decisiveData(p: PersonaRecord): Pick<PersonaData, 'shownAttempt' | 'decisive'> {
  const shown = shownNumber(p);
  if (p.attempts === undefined || p.repeat === undefined || shown === 0) return {};
  const d = p.errored ? null : decisiveAttempt(p);
  if (d === null) return { shownAttempt: shown };
  const t = decisiveTurn(p);
  const both = t !== null && t.shown !== null && t.turn !== null ? { a: t.shown.reply, b: t.turn.reply } : null;
  const diff = both === null ? null : sideBySide(both.a, both.b);
  // Why two replies are shown without their diff, said before their texts may fill the page.
  const note = both !== null && diff === null && both.a !== both.b ? notDiffedReason(both.a, both.b) : null;
  const turn =
    t === null
      ? null
      : {
          name: turnWords(t.index),
          diff,
          ...(note === null ? {} : { note }),
          shown: t.shown === null ? null : text(t.shown.reply),
          reply: t.turn === null ? null : text(t.turn.reply),
        };
  return { shownAttempt: shown, decisive: { n: d.number, verdict: d.verdict, checks: d.attempt.checks.map((c) => checkData(c, p.toolMode === 'live')), turn } };
}

/** The data of a page's items, in order, within MAX_PAGE_TEXT_CHARS (`max`, for the tests) of text. */
export function itemsData(items: readonly Item[], max = MAX_PAGE_TEXT_CHARS): ItemData[] {
  pageLeft = max;
  try {
    return items.map(itemData);
  } finally {
    pageLeft = Number.POSITIVE_INFINITY;
  }
}

export function itemData(item: Item): ItemData {
  return isPersona(item) ? personaData(item) : fixtureData(item);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>`, `&` and U+2028 / U+2029 as
 * \u escapes, so no text can close the element, start a comment, or end a line in old parsers.
 * Still valid JSON: those characters only ever occur inside strings. Every string drops control
 * characters and bidi overrides, as the markup's text does: the script puts them on the page as
 * text, where a U+202E in a route, a persona tag or a tool call would reverse what follows it.
 * Each line of a string but a reply, a message and a diff's texts (shown as written) has its runs
 * of right-to-left text isolated, as the row's summary has (docs/security.md): the script needs no
 * code for it, and a string with no right-to-left character is as it was, to the byte. A tool
 * call's name, input and output are each one isolate, whole, its input and output left to right,
 * as the comment's code span of a call isolates them (escape.ts callSpan): its JSON is not cut into
 * runs, nor turned by an Arabic name or key.
 */
export function scriptJson(value: unknown): string {
  /** The arrays and objects whose texts are shown as written: a diff's, the messages not sent, and all they hold. */
  const asWritten = new WeakSet<object>();
  /** The lists of tool calls and their calls, whose texts are isolated whole. */
  const calls = new WeakSet<object>();
  // Null members are left out (the script reads absent and null alike): a 5,000-item run is smaller.
  return JSON.stringify(value, function (this: object, key: string, v: unknown): unknown {
    if (v === null) return undefined;
    if (typeof v === 'string') {
      const s = stripControl(v);
      if (!hasRightToLeft(s) || writtenText(key) || asWritten.has(this)) return s;
      // A call's name by its first strong character, its input and output, JSON, left to right, each string with right-to-left text apart (words.ts isolatedCall).
      if (!calls.has(this)) return isolatedLines(s);
      return key === 'tool' ? `\u2068${s}\u2069` : isolatedJson(s);
    }
    if (typeof v === 'object' && (key === 'diff' || key === 'unsent' || asWritten.has(this))) asWritten.add(v as object);
    if (typeof v === 'object' && (key === 'toolCalls' || (calls.has(this) && Array.isArray(this)))) calls.add(v as object);
    return v;
  }).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A text the page shows as written, as the comment's code block shows it (docs/security.md): a
 * reply, a message, the message the baseline answered (messageEdited's `baseline`).
 */
function writtenText(key: string): boolean {
  return key === 'reply' || key === 'message' || key === 'baseline';
}

/**
 * Each line of `text` with its runs of right-to-left text isolated (isolateRightToLeft), as a row's
 * summary and the comment isolate them: an opened row's why, a judge's words, a route, a check's
 * expected and observed. Line by line: an isolate ends where its line does.
 */
function isolatedLines(text: string): string {
  return text.split('\n').map(isolateRightToLeft).join('\n');
}
