// Rendering of a comparison of two runs (docs/evaluations.md#compare): markdown for `compare --markdown` (and
// for whoever embeds it) and plain text for the terminal. Every text that came from a record is
// untrusted and escaped here. Pure.

import type { Comparison, GroupComparison, ItemChange, PairedMcNemar } from '../evaluate/compare.js';
import { ATTEMPTS_MOVED_TITLE, CAUSE_WORDS, causeWords, CHANGE_CAUSES, sideWords, verdictMoveDetail } from '../evaluate/compare.js';
import { formatAgreement, type Agreement } from '../evaluate/agreement.js';
import { clip, codeSpan, escapeInline, listItem, terminalLine } from './escape.js';
import { suiteLine } from './blocks.js';
import { cutLine, trimToFit } from './fit.js';
import { profile } from './profile.js';
import { LIMITS } from './item-parts.js';
import { showInvisible } from './diff.js';
import { showLookalikes } from './lookalike.js';
import { mcnemarText, runRateParts, runRateText, signOf, type LeftOut } from './rates.js';
import { capitalized, plural, thousands } from '../words.js';

/**
 * "+12.5 points", "−3 points", "0 points" (only for 0), "+<0.1 points", "n/a"
 * (docs/evaluations.md#compare); written as the run's pass-rate line writes its points (rates.ts
 * points: "0 points" for none, "−" from signOf, not a hyphen).
 */
export function formatDelta(points: number | null): string {
  if (points === null) return 'n/a';
  if (points === 0) return '0 points';
  const r = Math.round(points * 10) / 10;
  if (r === 0) return `${signOf(points)}<0.1 points`;
  const a = Math.abs(r);
  const s = Number.isInteger(a) ? a.toFixed(0) : a.toFixed(1);
  return `${signOf(r)}${s} ${a === 1 ? 'point' : 'points'}`;
}

/** "5 items passed, 1 failed": of items, as agreement is, never read as a repeated run's attempts. */
function besides(a: Agreement): string {
  const parts = [`${plural(a.passed, 'item', 'items')} passed`, `${thousands(a.failed)} failed`];
  if (a.notEvaluated > 0) parts.push(`${thousands(a.notEvaluated)} not evaluated`);
  if (a.errored > 0) parts.push(`${thousands(a.errored)} errored`);
  return parts.join(', ');
}

function runName(ref: Comparison['before'], plain: boolean): string {
  const code = (t: string): string => (plain ? terminalLine(t) : codeSpan(t));
  const what = [ref.file === null ? null : code(ref.file), ref.commit === null ? null : `commit ${code(ref.commit.slice(0, 12))}`, `started ${code(ref.startedAt)}`];
  return what.filter((x): x is string => x !== null).join(', ') + (ref.partial ? (ref.shards ? ` (a part of the suite: ${ref.part === undefined ? 'one shard, or a merge lacking shards' : plain ? terminalLine(ref.part) : escapeInline(ref.part)})` : ' (a partial run: --rerun / --only)') : '');
}

/**
 * The detail without the cause it starts with ("reply changed: ..." → "..."), so the cause is not
 * said twice. It quotes replies and routes: their invisible characters and look-alike letters are
 * named (docs/action.md, "The PR comment"), so that the two sides of "→" cannot read the same.
 */
function detailOnly(c: ItemChange): string {
  return showLookalikes(showInvisible(detailWithoutCause(c)));
}

/** A script's detail that names its turn first, or a repeated script's attempt and turn (evaluate/repeat.ts, attemptMeaningDetail), and the rest. */
const SCRIPT_TURN_NAMED = /^((?:attempt \d+: )?turn \d+(?: \(welcome\))?) (.*)$/;

function detailWithoutCause(c: ItemChange): string {
  const title = CAUSE_WORDS[c.cause].title;
  if (c.detail === title) return '';
  // A script's detail names its turn before the cause ("turn 3 changed in meaning: ...", a repeated
  // script's another attempt's: "attempt 2: turn 3 changed in meaning: ..."): the turn stays, the cause goes.
  const turn = SCRIPT_TURN_NAMED.exec(c.detail);
  if (turn !== null && (turn[2] === title || (turn[2] as string).startsWith(`${title}: `))) return turn[2] === title ? (turn[1] as string) : `${turn[1]}: ${(turn[2] as string).slice(title.length + 2)}`;
  // A verdict's move is the before and after beside it ("pass → errored"): the detail says only
  // what they do not, the error ("HTTP 503 from the agent"; "before: ..." for one fixed since).
  if (c.cause === 'verdict_changed' && c.before !== null && c.after !== null) return verdictMoveDetail(c);
  const rest = c.detail.startsWith(`${title}: `) ? c.detail.slice(title.length + 2) : c.detail.startsWith(`${title} `) ? c.detail.slice(title.length + 1) : c.detail;
  return /^\([^()]*\)$/.test(rest) ? rest.slice(1, -1) : rest;
}

/** "reply changed: \"…\" → \"…\"", "verdict changed: pass → fail"; the cause once. */
function causeAndDetail(c: ItemChange): string {
  const d = detailOnly(c);
  return d === '' ? CAUSE_WORDS[c.cause].title : `${CAUSE_WORDS[c.cause].title}: ${terminalLine(d)}`;
}

function sideWord(c: Pick<ItemChange, 'before' | 'after'>, which: 'before' | 'after'): string {
  const s = c[which];
  // A repeated item shows its passes over attempts.
  return s === null ? '—' : sideWords(s);
}

/** The agreement over the items in both runs says more than the whole runs' when some item is in one run only, or one run replayed part of the suite. */
function showCommon(c: Comparison): boolean {
  return c.onlyBefore.length > 0 || c.onlyAfter.length > 0 || c.before.partial || c.after.partial;
}

/** "66.7% → 75%", or "no item in both runs" (two partial runs of different items). */
function commonText(c: Comparison, arrow: string): string {
  return c.common.before.total === 0 ? 'no item in both runs' : `${formatAgreement(c.common.before)} ${arrow} ${formatAgreement(c.common.after)}`;
}

function swapNote(c: Comparison): string | null {
  return c.swapped ? 'The later run was given first: they were swapped, so that the earlier run (by startedAt) is "before".' : null;
}

/**
 * An item's label as a code span: a label is written in the pull request's files, so a backtick in
 * it cannot close the span, nor a pipe end a table's cell; its look-alike letters and invisible
 * characters are named, as the comment names them (docs/action.md, "The PR comment").
 */
function labelSpan(label: string, table: boolean): string {
  return codeSpan(showLookalikes(showInvisible(clip(label, LIMITS.label))), { table });
}

function groupRows(title: string, groups: readonly GroupComparison[]): string[] {
  if (groups.length === 0) return [];
  const rows = groups.map((g) => {
    const b = g.before === null ? '—' : formatAgreement(g.before);
    const a = g.after === null ? '—' : formatAgreement(g.after);
    const delta = g.before === null || g.after === null ? '' : formatDelta(g.before.percent === null || g.after.percent === null ? null : g.after.percent - g.before.percent);
    return `| ${escapeInline(g.key)} | ${b} | ${a} | ${delta} |`;
  });
  return [`| ${title} | before | after | change |`, '| --- | --- | --- | --- |', ...rows, ''];
}

/** A repeated item whose passes over attempts alone moved (docs/evaluations.md#compare): listed with its k/N, not as a change. */
const MOVED_TITLE = ATTEMPTS_MOVED_TITLE;

/** Which items compare's pass rate of attempts is of. */
const BOTH_RUNS = 'in both runs';

/** The items in both runs left out of the pass rate of attempts, as McNemar's test leaves them out. */
function leftOutOf(c: Comparison): LeftOut {
  return { errored: c.mcnemar.errored, notEvaluated: c.mcnemar.notEvaluated };
}

/**
 * Between two repeated runs, the pass rate of attempts under McNemar's test of verdicts, in the
 * run's own line's words and figures (docs/evaluations.md#compare): "**Pass rate of attempts 76.7%
 * → 60%**: −16.7 points (95% interval of the change: ...) over 6 items in both runs, beyond noise".
 */
function passRateLines(c: Comparison): string[] {
  if (c.passRate === null) return [];
  const r = runRateParts(c.passRate, leftOutOf(c), BOTH_RUNS);
  return ['', `**${capitalized(r.head)}**: ${r.detail}.`];
}

/**
 * McNemar's exact test over the paired items (docs/evaluations.md#compare): "over 12 items with a
 * verdict in both runs, 3 newly failing, 1 newly passing: p = 0.63, within noise".
 */
export function pairedText(m: PairedMcNemar): string {
  return `over ${plural(m.pairs, 'item', 'items')} with a verdict in both runs, ${mcnemarText(m)}`;
}

/**
 * The items in both runs the test leaves out, so that it reads beside "Broken: 3" where the 3
 * errored (docs/evaluations.md#compare): "not counted: 3 items errored in a run (not checked, so
 * neither pass nor fail)"; null when none.
 */
export function unpairedText(m: PairedMcNemar): string | null {
  const parts: string[] = [];
  if (m.errored > 0) parts.push(`${plural(m.errored, 'item', 'items')} errored in a run`);
  if (m.notEvaluated > 0) parts.push(`${plural(m.notEvaluated, 'item', 'items')} not evaluated in a run`);
  return parts.length === 0 ? null : `not counted: ${parts.join(', ')} (not checked, so neither pass nor fail)`;
}

/**
 * Fixed or broken items, split as the test counts them (docs/evaluations.md#compare): "5 (1 newly
 * failing, 4 errored now)", "2 (1 newly passing, 1 errored before)"; the bare count when none errored.
 */
function movedText(c: Comparison, movement: 'fixed' | 'broken'): string {
  const moved = c.changes.filter((x) => x.movement === movement);
  const errored = moved.filter((x) => (movement === 'broken' ? x.after : x.before)?.result === 'errored').length;
  if (errored === 0) return thousands(moved.length);
  const flipped = `${thousands(moved.length - errored)} newly ${movement === 'broken' ? 'failing' : 'passing'}`;
  return `${thousands(moved.length)} (${flipped}, ${thousands(errored)} errored ${movement === 'broken' ? 'now' : 'before'})`;
}

/**
 * The suites of the two runs, for the markdown (a comment a workflow posts) and the terminal, as
 * the driver reads their records' `suitePath`: `suite`, the one suite both are of when it is in
 * another folder than the default one, named above the heading as a run's report names it; `runs`,
 * each run's suite when they are of two (docs/action.md, "Two suites in one repository").
 */
export interface CompareSuites {
  suite?: string | null;
  runs?: { before: string; after: string } | null;
}

/** The comparison as markdown: agreement, why it changed, groups, changed items, items in one run only, coverage. */
export function renderCompareMarkdown(c: Comparison, suites: CompareSuites = {}, opts: { maxBytes?: number } = {}): string {
  // The bound and the words of `run --markdown` (profile.ts, 'report'): a file for $GITHUB_STEP_SUMMARY,
  // which GitHub drops whole over 1 MiB; cut on a line, what was left out said where to read it all
  // (docs/cli.md, "What each command does").
  const p = profile('report', opts.maxBytes);
  const { text, starts } = compareMarkdown(c, suites);
  const tail = (kept: number): string =>
    cutLine(p.limitWords, starts.filter((s) => s >= kept).length, starts.length, (n) => (n === 1 ? 'item' : 'items'), 'The full comparison is in what `agent-replay compare` prints (and in its `--out` file, when given).');
  return trimToFit(text, p.max, p.measure, tail);
}

/** The comparison's markdown, and where each item's line starts in it (a changed item's row, an item in one run only), for the cut's count. */
function compareMarkdown(c: Comparison, suites: CompareSuites): { text: string; starts: number[] } {
  const top = suiteLine({ suite: suites.suite ?? null });
  const lines: string[] = [...(top === null ? [] : [top, '']), '## agent-replay: compare two runs', ''];
  // The index of each item's line, pushed next.
  const itemLines: number[] = [];
  const item = (line: string): string => {
    itemLines.push(lines.length);
    return line;
  };
  const note = swapNote(c);
  if (note) lines.push(`> ${note}`, '');
  const of = (which: 'before' | 'after'): string => (suites.runs ? `, suite ${codeSpan(clip(suites.runs[which], LIMITS.ref))}` : '');
  lines.push(`- **Before**: ${runName(c.before, false)}${of('before')}`, `- **After**: ${runName(c.after, false)}${of('after')}`, '');
  const { before: ab, after: aa } = c.agreement;
  const unpaired = unpairedText(c.mcnemar);
  lines.push(
    `**Agreement**: ${formatAgreement(ab)} → ${formatAgreement(aa)} (${formatDelta(c.agreement.deltaPoints)})`,
    '',
    `Before: ${besides(ab)}. After: ${besides(aa)}. Not evaluated and errored items are left out of agreement.`,
    '',
    `**McNemar**: ${pairedText(c.mcnemar)}.${unpaired === null ? '' : ` ${capitalized(unpaired)}.`}`,
    ...passRateLines(c),
    '',
    `**Why**: ${escapeInline(c.summary)}${c.unchanged > 0 ? ` (${thousands(c.unchanged)} unchanged)` : ''}.`,
  );
  if (showCommon(c)) {
    lines.push('', `Over the items in both runs only: ${commonText(c, '→')}.`);
  }
  if (c.fixed.length > 0 || c.broken.length > 0) {
    lines.push('', `Fixed: ${movedText(c, 'fixed')}. Broken: ${movedText(c, 'broken')}.`);
  }
  lines.push('');
  lines.push(...groupRows('conversation', c.groups.byConversation), ...groupRows('file', c.groups.byFile), ...groupRows('persona', c.groups.byPersona));
  const changed = c.changes.filter((x) => x.cause !== 'added' && x.cause !== 'removed');
  if (changed.length > 0) {
    lines.push('### Changed items', '', '| item | before | after | first cause | detail |', '| --- | --- | --- | --- | --- |');
    for (const x of changed) {
      lines.push(item(`| ${labelSpan(x.label, true)}${x.kind === 'persona' ? ' (script)' : ''} | ${sideWord(x, 'before')} | ${sideWord(x, 'after')} | ${CAUSE_WORDS[x.cause].title} | ${escapeInline(detailOnly(x))} |`));
    }
    lines.push('');
  }
  // A pass rate of attempts that moved alone: its k/N on each side, under a title that does not call it a change of verdict.
  if (c.attemptsMoved.length > 0) {
    lines.push(`### ${MOVED_TITLE}`, '', '| item | before | after |', '| --- | --- | --- |');
    for (const x of c.attemptsMoved) lines.push(item(`| ${labelSpan(x.label, true)}${x.kind === 'persona' ? ' (script)' : ''} | ${sideWord(x, 'before')} | ${sideWord(x, 'after')} |`));
    lines.push('');
  }
  const only = (title: string, cause: 'added' | 'removed', which: 'before' | 'after'): void => {
    const list = c.changes.filter((x) => x.cause === cause);
    if (list.length === 0) return;
    lines.push(`### ${title}`, '');
    for (const x of list) lines.push(item(listItem(`${labelSpan(x.label, false)}${x.kind === 'persona' ? ' (script)' : ''}: ${sideWord(x, which)}`)));
    lines.push('');
  };
  only('Only in the before run', 'removed', 'before');
  only('Only in the after run', 'added', 'after');
  if (c.coverage !== null) {
    const { change, before, after } = c.coverage;
    const names = (xs: readonly string[]): string => (xs.length === 0 ? 'none' : xs.map(escapeInline).join(', '));
    lines.push(
      '### Coverage',
      '',
      `Gaps: ${before.gaps.length} → ${after.gaps.length} (new: ${names(change.newGaps)}; closed: ${names(change.closedGaps)}). ` +
        `Unknown conversations: ${before.unknown.length} → ${after.unknown.length} (new: ${names(change.newUnknown)}).`,
      '',
    );
  }
  // Each line's offset in the text, the lines joined by a line break.
  const offsets: number[] = [];
  lines.reduce((at, l) => (offsets.push(at), at + l.length + 1), 0);
  return { text: `${lines.join('\n').replace(/\n+$/, '')}\n`, starts: itemLines.map((i) => offsets[i] as number) };
}

/**
 * The comparison for a terminal: plain text, one line per changed item. The suites are named as
 * the markdown names them: the one suite in another folder on a line of its own first, each run's
 * on its line when they are of two.
 */
export function renderCompareText(c: Comparison, suites: CompareSuites = {}): string {
  const out: string[] = [];
  if (suites.suite) out.push(`suite: ${terminalLine(clip(suites.suite, LIMITS.ref))}`);
  const note = swapNote(c);
  if (note) out.push(note);
  const of = (which: 'before' | 'after'): string => (suites.runs ? `, suite ${terminalLine(clip(suites.runs[which], LIMITS.ref))}` : '');
  out.push(`before: ${runName(c.before, true)}${of('before')}`, `after:  ${runName(c.after, true)}${of('after')}`);
  out.push(`agreement: ${formatAgreement(c.agreement.before)} → ${formatAgreement(c.agreement.after)} (${formatDelta(c.agreement.deltaPoints)})`);
  out.push(`  before: ${besides(c.agreement.before)}`, `  after:  ${besides(c.agreement.after)}`);
  if (showCommon(c)) out.push(`  over the items in both runs only: ${commonText(c, '→')}`);
  const unpaired = unpairedText(c.mcnemar);
  out.push(`  mcnemar: ${pairedText(c.mcnemar)}${unpaired === null ? '' : `; ${unpaired}`}`);
  if (c.passRate !== null) out.push(`  ${runRateText(c.passRate, leftOutOf(c), BOTH_RUNS)}`);
  out.push(`why: ${terminalLine(c.summary)}${c.unchanged > 0 ? ` (${thousands(c.unchanged)} unchanged)` : ''}`);
  const rows = [...c.changes.map((x) => ({ x, what: causeAndDetail(x) })), ...c.attemptsMoved.map((x) => ({ x, what: MOVED_TITLE.toLowerCase() }))];
  const shown = rows.map(({ x }) => terminalLine(showLookalikes(showInvisible(x.label))));
  const width = Math.max(0, ...shown.map((l) => l.length));
  for (const [i, { x, what }] of rows.entries()) {
    out.push(`  ${shown[i]!.padEnd(width)}  ${sideWord(x, 'before')} → ${sideWord(x, 'after')}  ${what}`);
  }
  if (c.coverage !== null) {
    const ch = c.coverage.change;
    const names = (xs: readonly string[]): string => (xs.length === 0 ? 'none' : xs.map(terminalLine).join(', '));
    out.push(
      `coverage: gaps ${c.coverage.before.gaps.length} → ${c.coverage.after.gaps.length} (new: ${names(ch.newGaps)}; closed: ${names(ch.closedGaps)})` +
        ` · unknown conversations ${c.coverage.before.unknown.length} → ${c.coverage.after.unknown.length} (new: ${names(ch.newUnknown)})`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** "2 items added; 1 reply changed": the counts of a comparison, in cause order. */
export function compareCauseLine(c: Comparison): string {
  const parts = CHANGE_CAUSES.filter((k) => c.causes[k] > 0).map((k) => causeWords(k, c.causes[k]));
  return parts.length === 0 ? 'nothing changed' : parts.join('; ');
}
