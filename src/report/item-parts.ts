// The parts of an item's rendering that fixtures (items.ts) and persona scripts (persona.ts) both
// use: the detail levels and size limits, file references, labelled text blocks and the reply diff.

import type { ErrorKind, Meaning, PanelMember, PersonaErrorKind, RepeatSummary, ToolCall, Verdict } from '../types.js';
import { panelVerdict } from '../assertions/judge.js';
import { attemptMeaningDetail, decisiveIndex } from '../evaluate/repeat.js';
import type { ReportContext } from './context.js';
import { diffText, MARK } from './diff-text.js';
import { CHARACTER_NAME_LEGEND, lookalikeWords, namesCharacters } from './lookalike.js';
import { citedLinks, clip, codeSpan, escapeHtml, escapeHtmlInline, escapeInline, fencedBlock, leftToRightStart, listItem, LRM, normalizeBlock, oneLine, safeUrl } from './escape.js';
import { validSha } from './metadata.js';
import { ERROR_KIND_WORDS, isPersona, thousands, type Item } from './model.js';
import { MEANING_WORDS } from '../evaluate/meaning/index.js';
import { attemptStanding, fixtureAttemptViews, personaAttemptViews, repliedOtherwiseDetail, type AttemptStanding, type AttemptView } from '../evaluate/variants.js';
import { meaningWords } from '../evaluate/changes.js';
import type { Profile } from './profile.js';
import { CONTINUATION, NBSP, wrapBlock } from './wrap.js';
import { jsonText } from '../assertions/format.js';
import { listAndMore, startsRightToLeft } from '../words.js';

/** Detail of an item shown in full: everything, without the full replies, or its line only. */
export type Level = 'full' | 'diff' | 'brief';

export const LIMITS = {
  label: 100,
  file: 200,
  detail: 300,
  detailBlock: 4000,
  rationale: 300,
  message: 4000,
  messageInline: 200,
  ref: 100,
} as const;

/**
 * Is an item's error or detail too long for its one line (several lines, or over LIMITS.detail
 * characters)? Then it is shown whole once, in a block of its own under the line, and the line
 * says no part of it under a cause that sums it up (cause-details.ts; docs/action.md, "The PR comment").
 */
export function needsBlock(text: string): boolean {
  const normal = normalizeBlock(text);
  return normal.includes('\n') || normal.length > LIMITS.detail;
}

// ---------------------------------------------------------------------------------------------
// The tool calls a cut stream had begun (docs/presets.md, "Streamed replies")

/** What every surface calls the tool calls an errored turn's stream had begun when it was cut short. */
export const BEGUN_WORDS = 'tool calls begun before the answer was cut short';
/** The same words heading a block or a bold label. */
export const BEGUN_TITLE = `T${BEGUN_WORDS.slice(1)}`;

/** Calls named on an item's one line of them; the rest are counted. */
const BEGUN_NAMED = 5;
/** Characters of a begun call's input on that line (the whole input is in results.json and report.html). */
const BEGUN_INPUT = 120;

/**
 * The calls an errored item's cut stream had begun, on one line (`refund {"order": "A1"}, lookup
 * {"q": "A1"}`, its inputs in the comment's one form of JSON, jsonText, clipped, then "and 2 more"),
 * each call said as the surface says text (`say`: a code span, a terminal's escapes); null when
 * there are none.
 */
export function begunCalls(calls: readonly ToolCall[] | null | undefined, say: (tool: string, input: string) => string): string | null {
  if (!calls || calls.length === 0) return null;
  return listAndMore(calls, BEGUN_NAMED, (c) => say(clip(c.tool, LIMITS.label), clip(jsonText(c.input), BEGUN_INPUT)));
}

// ---------------------------------------------------------------------------------------------
// File references: https://github.com/<owner>/<repo>/blob/<head sha>/<path>#L<line>

/**
 * The address of `file` at `line` in the repository at the head commit, or null without one (or for a
 * path that is not a plain relative one). Each part percent-encoded, `( ) ' ! *` too, so that a link
 * in Markdown or HTML ends where it should; report.html's rows link the same address.
 */
export function blobUrl(ctx: Pick<ReportContext, 'repositoryUrl' | 'headSha'>, file: string, line: number): string | null {
  const repo = safeUrl(ctx.repositoryUrl ?? null);
  if (!repo || !validSha(ctx.headSha ?? undefined)) return null;
  const path = file.replace(/^\.\//, '');
  const parts = path.split('/');
  if (path.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..')) return null;
  const encoded = parts.map((p) => encodeURIComponent(p).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
  const lineRef = Number.isInteger(line) && line > 0 ? `#L${line}` : '';
  return safeUrl(`${repo.replace(/\/+$/, '')}/blob/${ctx.headSha}/${encoded.join('/')}${lineRef}`);
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

type Located = Pick<Item, 'file' | 'line'>;

/** Where an item is defined, as its lines end: `file:line`, or the file alone when the line is not known. */
export function where(f: Located): string {
  return Number.isInteger(f.line) && f.line > 0 ? `${f.file}:${f.line}` : f.file;
}

/** A linked file's words: `name.yml:12`, or the name alone when the line is not known. */
function linkText(f: Located): string {
  return clip(`${baseName(f.file)}${f.line > 0 ? `:${f.line}` : ''}`, LIMITS.file);
}

/** The file reference in markdown: a link showing `name.yml:12`, else the path as code. */
export function fileRef(f: Located, ctx: ReportContext, options: { table?: boolean } = {}): string {
  const url = blobUrl(ctx, f.file, f.line);
  if (!url) return codeSpan(clip(where(f), LIMITS.file), options);
  return `[${escapeInline(linkText(f))}](${url})`;
}

/**
 * The file reference inside raw HTML (a `<summary>`): text, never a link, as a link inside the
 * control that opens the item is one a keyboard or a screen reader cannot reach apart, and a click
 * on it leaves the page (docs/action.md, "Accessibility"); the opened item links it (itemDetails).
 */
export function fileRefHtml(f: Located, ctx: ReportContext): string {
  if (!blobUrl(ctx, f.file, f.line)) return `<code>${escapeHtml(oneLine(clip(where(f), LIMITS.file)).replace(/\s/g, ' '))}</code>`;
  return escapeHtmlInline(linkText(f));
}

/**
 * An item as a `<details>`: `summary`, its line, names its file as text (fileRefHtml) and says the
 * pages of ours that `cited` (the text of its line) cites as text (escapeHtmlInline); the opened
 * body's first line links them, its file first (at the head commit), before `parts`; `open` shows
 * the body without a click. Without the repository's address the file has no link: the summary's
 * path is all.
 */
export function itemDetails(f: Located, ctx: ReportContext, summary: string, parts: readonly string[], open = false, cited = ''): string {
  const links = [...(blobUrl(ctx, f.file, f.line) === null ? [] : [fileRef(f, ctx)]), ...citedLinks(cited)];
  const body = links.length === 0 ? parts : [leftToRightStart(links.join(' · ')), ...parts];
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body.join('\n\n')}\n\n</details>`;
}

// ---------------------------------------------------------------------------------------------
// Text blocks and the reply diff

/**
 * A code block of plain text: normalised, clipped, long lines wrapped. A clipped text says where the
 * rest is, as the terminal's and report.html's cut texts do: results.json, which the run wrote (the
 * Action's results artifact) and which holds every text whole (docs/action.md, "The PR comment").
 */
/** `normalized`: `text` is normalizeBlock's already, with isolates of ours in it (labelled), which normalizing again would drop. */
function textBlock(text: string, max: number, normalized = false): { block: string; note: string } {
  const normal = normalized ? text : normalizeBlock(text);
  const shown = clip(normal, max);
  const note = shown.length < normal.length ? ` (first ${thousands(shown.length)} of ${thousands(normal.length)} characters; the whole text is in results.json)` : '';
  return { block: normalized ? fencedBlock(wrapBlock(shown), 'text', true) : fencedBlock(wrapBlock(shown)), note };
}

/**
 * `text` in a code block under `title`. `normalized`: its parts are normalizeBlock's already and
 * it holds isolates of ours (persona.ts's tool calls), kept.
 */
export function labelled(title: string, text: string, max: number, normalized = false): string {
  if ((normalized ? text : normalizeBlock(text)) === '') return `${title}: _(empty)_`;
  const { block, note } = textBlock(text, max, normalized);
  return `${title}${note}:\n\n${block}`;
}

/**
 * A reply shown as written, with a note under it naming its words that have look-alike letters
 * (lookalike.ts): the block keeps the reply's own characters, and `p⟨U+0430⟩ypal` below says which
 * one is not what it looks like (docs/action.md, "The PR comment").
 */
export function replyBlock(title: string, text: string, max: number): string {
  const block = labelled(title, text, max);
  const words = lookalikeWords(normalizeBlock(text));
  if (words.length === 0) return block;
  return `${block}\n\n_Look-alike letters from another script, by their code:_ ${words.map((w) => codeSpan(clip(w, LIMITS.ref))).join(', ')}`;
}

/**
 * What the marks of a diff below mean: only the marks it shows (docs/action.md, "The PR comment").
 * A rewrite (whole lines, no common words) has no ⟦ ⟧, so it names none; a reply's own ⟦ is
 * shown by its code (lookalike.ts), so a ⟦ in the text is always the diff's.
 */
function legend(text: string, sides = '`-` baseline, `+` new'): string {
  // A pair too different to diff is one `@@` line that says so (diff-text.ts): no sides to name.
  if (!text.split('\n').some((l) => l.startsWith('- ') || l.startsWith('+ '))) return '';
  const wrapped = text.split('\n').some((l) => l.startsWith(`- ${CONTINUATION}`) || l.startsWith(`+ ${CONTINUATION}`));
  const invisible = namesCharacters(text);
  const marked = text.includes(MARK.open);
  return `${sides}${marked ? `, ${MARK.open}changed words${MARK.close}` : ''}${invisible ? `, ${CHARACTER_NAME_LEGEND}` : ''}${wrapped ? `, \`${CONTINUATION.trim()}\` continues a wrapped line` : ''}`;
}

/**
 * Each pair's diff text, once per rendering (one profile): the fitting renders an item at several
 * levels, and the full one and the shorter one show the same diff (fit.ts).
 */
const diffMemo = new WeakMap<Profile, Map<string, Map<string, string | null>>>();

function memoDiff(p: Profile, baseline: string, reply: string): string | null {
  let byBaseline = diffMemo.get(p);
  if (byBaseline === undefined) diffMemo.set(p, (byBaseline = new Map()));
  let byReply = byBaseline.get(baseline);
  if (byReply === undefined) byBaseline.set(baseline, (byReply = new Map()));
  let text = byReply.get(reply);
  if (text === undefined) byReply.set(reply, (text = diffText(normalizeBlock(baseline), normalizeBlock(reply))));
  return text;
}

const inParens = (words: string): string => (words === '' ? '' : ` (${words})`);

/** Are two replies short enough to be diffed in this profile (docs/action.md, "The PR comment")? */
export function diffable(baseline: string, reply: string, p: Profile): boolean {
  return baseline.length <= p.maxReplyChars && reply.length <= p.maxReplyChars;
}

/**
 * Two replies as a diff under a title: the baseline's and this run's by default; `words` names
 * other sides (a repeated script's attempts: persona.ts).
 */
export function diffBlock(baseline: string, reply: string, p: Profile, words: { title: string; sides: string } = { title: '**Baseline → new reply**', sides: '`-` baseline, `+` new' }): string {
  if (!p.diffs) return '';
  if (!diffable(baseline, reply, p)) {
    return '_The replies are too long to diff here; compare them in the full report._';
  }
  const text = memoDiff(p, baseline, reply);
  if (text === null) return '_The replies differ only in characters that are not shown (control characters)._';
  return `${words.title}${inParens(legend(text, words.sides))}:\n\n${diffFence(text)}`;
}

/**
 * A diff's code block, left to right: GitHub sets a code block's direction by its first strong
 * character (dir="auto"), so a diff whose first line's words are right-to-left (a Hebrew reply) was
 * drawn right to left, its signs on the right and an English line's stop before it. Such a block
 * has a left-to-right mark after its first line's sign (the sign stays first: GitHub colours the
 * line by it); any other block is as it was.
 */
function diffFence(text: string): string {
  const body = normalizeBlock(text);
  return fencedBlock(startsRightToLeft(body) ? body.replace(/^(?:[-+ ] )?/, (sign) => `${sign}${LRM}`) : body, 'diff', true);
}

/**
 * The message a baseline answered beside the fixture's message now, for a fixture edited since
 * (docs/meaning.md, "An edited fixture"): a diff of the two (`-` then, `+` now), or both whole
 * when one is too long to diff. `title` heads it ("**Message**, edited since the baseline").
 */
export function messageDiffBlock(title: string, then: string, now: string): string {
  const [a, b] = [normalizeBlock(then), normalizeBlock(now)];
  if (a.length > LIMITS.message || b.length > LIMITS.message) {
    return [labelled(`${title}: the baseline answered`, then, LIMITS.message), labelled('The fixture now says', now, LIMITS.message)].join('\n\n');
  }
  const text = diffText(a, b);
  if (text === null) return `${title}: _the messages differ only in characters that are not shown (control characters)._`;
  return `${title}${inParens(legend(text, '`-` the message the baseline answered, `+` the message now'))}:\n\n${diffFence(text)}`;
}

// ---------------------------------------------------------------------------------------------
// A repeated item's attempts

export const ATTEMPT_WORDS = { pass: '✅ pass', fail: '❌ fail', not_evaluated: '⚪ not evaluated' } as const;

/**
 * "**Attempts** (2/3 passed, 3 needed): 1: ✅ pass · 2: ⚪ errored (HTTP error) · 3: ❌ fail": an
 * attempt without a verdict is errored, with its kind of error in the words JUnit's type uses
 * (model.ts ERROR_KIND_WORDS); an internal error or none known is just "errored". Each attempt's
 * number is a label ("2:"), and its words are joined by no-break spaces: "1 ✅ pass · 2 ❌ fail · 3
 * ❌ fail" beside "1/3 passed" read as counts, "2 failed", and on a phone split as "2 ❌" | "fail".
 */
export function attemptsHead(
  repeat: Pick<RepeatSummary, 'passed' | 'count' | 'minPass'>,
  attempts: readonly { errored: boolean; errorKind: ErrorKind | PersonaErrorKind | null; verdict: Verdict | null }[],
): string {
  const each = attempts.map((a, i) => `${i + 1}: ${a.errored || a.verdict === null ? erroredAttempt(a.errorKind) : ATTEMPT_WORDS[a.verdict]}`.replaceAll(' ', NBSP));
  return `**Attempts** (${thousands(repeat.passed)}/${thousands(repeat.count)} passed, ${thousands(repeat.minPass)} needed): ${each.join(' · ')}`;
}

function erroredAttempt(kind: ErrorKind | PersonaErrorKind | null): string {
  return kind === null || kind === 'internal' ? '⚪ errored' : `⚪ errored (${ERROR_KIND_WORDS[kind]})`;
}

const STANDING_WORDS: Record<AttemptStanding, string> = {
  changed: MEANING_WORDS.changed,
  // A script's attempt that differs by who ended its conversation alone: its replies may be the same.
  ended: 'whose conversation ended otherwise',
  unchecked: 'not checked for meaning',
  unmeasured: 'replied otherwise, meaning not compared',
  reworded: MEANING_WORDS.reworded,
  same: 'replied the same',
};

/**
 * A repeated item's other attempts against the one shown, in the terms acceptance decides on
 * (docs/meaning.md, "Repeats"), counted: "the other attempts, compared with it: 2 changed in
 * meaning, 2 reworded, 1 replied the same". `shown` names the attempt shown in the surface's words
 * ("it", "attempt 1"). Null when every attempt that replied replied the same, or only one replied.
 */
export function otherAttemptsWords(item: Item, shown: string): string | null {
  const others = attemptViews(item).slice(1).map(attemptStanding);
  if (others.every((s) => s === 'same')) return null;
  const order: readonly AttemptStanding[] = ['changed', 'ended', 'unchecked', 'unmeasured', 'reworded', 'same'];
  const counted = order.flatMap((s) => {
    const n = others.filter((o) => o === s).length;
    return n === 0 ? [] : [`${thousands(n)} ${STANDING_WORDS[s]}`];
  });
  return `the other attempts, compared with ${shown}: ${counted.join(', ')}`;
}

/** A repeated item's attempts that replied, as acceptance reads them against the one shown (the first of them). */
function attemptViews(item: Item): AttemptView[] {
  if (isPersona(item)) return item.attempts === undefined ? [] : personaAttemptViews(item.turns, item.attempts);
  return item.attempts === undefined || item.reply === null ? [] : fixtureAttemptViews(item.reply, item.attempts);
}

/**
 * Each other attempt's standing against the one shown, by its number, in the words the item's
 * meaning takes (report.html's attempts table, docs/meaning.md, "Repeats"): "changed in meaning:
 * numbers 30 → 14", a script's "turn 3 changed in meaning: numbers 50 → 90", "reworded (judge
 * 0.93)", "replied otherwise, meaning not compared". An attempt that replied the same has none.
 */
export function attemptStandings(item: Item): Map<number, string> {
  const words = new Map<number, string>();
  for (const v of attemptViews(item).slice(1)) {
    const s = attemptStanding(v);
    if (s === 'same') continue;
    // An ending alone is said in its own words ("the agent ended the conversation on turn 3, where attempt 1's agent did not end it"), not as a meaning.
    words.set(v.number, v.meaning == null ? STANDING_WORDS[s] : s === 'ended' && v.meaning.detail !== null ? v.meaning.detail : meaningWords(v.meaning, isPersona(item)));
  }
  return words;
}

/**
 * The decisive attempt of a repeated fixture whose reply is shown after the item's own: when it
 * replied, and replied another text than the one shown. Null otherwise.
 */
export function decisiveReply(f: {
  errored: boolean;
  reply: string | null;
  verdict: Verdict | null;
  attempts?: readonly { errored: boolean; reply: string | null; verdict: Verdict | null }[];
}): { number: number; verdict: Verdict; reply: string } | null {
  if (f.errored || f.reply === null) return null;
  const d = decisiveAttempt(f);
  return d === null || d.attempt.reply === null || d.attempt.reply === f.reply ? null : { number: d.number, verdict: d.verdict, reply: d.attempt.reply };
}

/**
 * The attempt a repeated fixture's meaning names when it is another's than the shown reply's
 * ("attempt 2: numbers 30 → 14", docs/meaning.md, "Repeats"), beside the shown reply, so that the
 * comment and the terminal show what the line names. That attempt's meaning is against the shown
 * reply, not the baseline: the two are diffed. Null when the meaning names no other attempt, or
 * decisiveReply shows that attempt's reply already.
 */
export function namedAttemptReply(f: {
  errored: boolean;
  reply: string | null;
  verdict: Verdict | null;
  drift?: { meaning?: Meaning | null } | null;
  attempts?: readonly { errored: boolean; reply: string | null; verdict: Verdict | null; meaning?: Meaning | null }[];
}): { number: number; shownNumber: number; shown: string; reply: string } | null {
  const meaning = f.errored ? null : (f.drift?.meaning ?? null);
  if (meaning === null || f.reply === null || f.attempts === undefined) return null;
  const shownNumber = f.attempts.findIndex((a) => !a.errored) + 1;
  // The attempt whose own meaning the item's is, named as evaluate/finish.ts names it: not a detail that only reads so;
  // or, with none (meaning.check off), the one it names as having replied otherwise than the shown one.
  const number = f.attempts.findIndex((a, k) => (a.meaning != null ? a.meaning.value === meaning.value && attemptMeaningDetail(k + 1, a.meaning.detail) === meaning.detail : meaning.value === 'unchecked' && meaning.by === null && repliedOtherwiseDetail(k + 1, shownNumber) === meaning.detail)) + 1;
  const reply = f.attempts[number - 1]?.reply ?? null;
  if (number === 0 || number === shownNumber || reply === null || reply === f.reply) return null;
  return decisiveReply(f)?.number === number ? null : { number, shownNumber, shown: f.reply, reply };
}

/** "the first that failed": the attempt decisiveAttempt names, in words. */
export function firstThat(verdict: Verdict): string {
  return `the first that ${verdict === 'pass' ? 'passed' : verdict === 'fail' ? 'failed' : 'was not evaluated'}`;
}

/**
 * A repeated item whose detail names another attempt than the one shown (the first that replied,
 * or completed): that attempt, the first with the item's verdict (docs/fixtures.md, "What the item
 * shows"). Null when the two are the same attempt.
 */
export function decisiveAttempt<A extends { errored: boolean; verdict: Verdict | null }>(f: {
  verdict: Verdict | null;
  attempts?: readonly A[];
}): { number: number; verdict: Verdict; attempt: A } | null {
  const attempts = f.attempts;
  if (attempts === undefined || f.verdict === null) return null;
  const outcomes = attempts.map((a) => (a.errored || a.verdict === null ? 'errored' : a.verdict));
  const shown = outcomes.findIndex((o) => o !== 'errored');
  if (shown === -1) return null;
  const d = decisiveIndex(outcomes, f.verdict, shown);
  const attempt = attempts[d];
  return d === shown || attempt === undefined ? null : { number: d + 1, verdict: f.verdict, attempt };
}

// ---------------------------------------------------------------------------------------------
// A panel of judges (docs/judges.md, "Panels"): one line per member.

/** A member's words: "0.90 pass: <rationale>", or "no usable score: <reason>". */
export function memberWords(m: PanelMember, threshold: number): string {
  if (m.score === null) return `no usable score: ${m.reason ?? ''}`;
  return `${m.score.toFixed(2)} ${m.score >= threshold ? 'pass' : 'fail'}${m.rationale ? `: ${m.rationale}` : ''}`;
}

/** "2 of 3 members pass (2 needed)". */
export function panelCount(members: readonly PanelMember[], threshold: number): string {
  const v = panelVerdict(members, threshold);
  return `${v.passed} of ${members.length} members pass (${v.needed} needed${v.usable < members.length ? `; ${v.usable} gave a usable score` : ''})`;
}

/**
 * The panel's members in markdown, one line each, under a head that names what they judged
 * (`subject`: a criterion of a script, or nothing for a fixture's one check).
 */
export function panelBlock(members: readonly PanelMember[] | null | undefined, threshold: number | null, subject: string | null = null): string | null {
  if (members == null || members.length === 0 || threshold === null) return null;
  const head = `**Panel**${subject === null ? '' : ` for ${escapeInline(clip(subject, LIMITS.label))}`} · ${panelCount(members, threshold)}:`;
  const lines = members.map((m) => listItem(`${codeSpan(clip(m.label, LIMITS.label))}: ${escapeInline(clip(memberWords(m, threshold), LIMITS.rationale))}`));
  return [head, ...lines].join('\n');
}
