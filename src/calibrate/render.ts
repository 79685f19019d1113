// The calibration's two readable forms (docs/calibration.md, "How to read it"), pure: the terminal
// table (criterion, baselines, agreement, spread, straddling; then the disagreements with their
// baseline files and scores; the baselines without a usable score grouped by cause, and the skipped
// ones by reason with their next step, as a run's report groups its items; a calm line when the
// judge agrees with every accepted verdict) and the same as markdown. Criteria, rationales, labels and reasons are untrusted text: one line each,
// their control characters shown as escapes on the terminal (`\u001b`, as the run's summary shows
// them: docs/security.md, "Agent text is data"), dropped and escaped in markdown.

import { clip, clipShown, codeSpan, escapeFix, escapeInline, oneLine, terminalLine } from '../report/escape.js';
import { columnsOf, padColumns } from '../report/columns.js';
import { formatUsd } from '../report/money.js';
import { judgeFallbackText } from '../report/judge-mode.js';
import { suiteLine } from '../report/blocks.js';
import { listAndMore, plural, shownShellWord, thousands } from '../words.js';
import { hideEndpointTokens } from '../endpoint.js';
import { docsUrl } from '../version.js';
import { cliWords, cliWordsOf } from '../report/terminal.js';
import { criterionShown } from '../report/persona.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import { CALL_FAILED_HINT, CALL_FAILED_HINTS, causeLine, JUDGE_CUT_HINT, judgeFixes, JUDGE_NO_SCORE_HINT, judgeReasonCause, PANEL_CUT_HINT, PANEL_NO_SCORE_HINT, PANEL_NO_SCORE_HINTS } from '../evaluate/index.js';
import { mostShared, sharedLine } from '../report/cause-details.js';
import { unmeasured, type Calibration } from './schema.js';
import { FAILED_BY_ATTEMPTS, SINGLE_JUDGE_CONTRADICTION } from './plan.js';

type Criterion = Calibration['criteria'][number];
type Item = Criterion['items'][number];

const CRITERION_WIDTH = 48;

/**
 * `n` to `decimals` places, its half rounded up as written: 0.305 to two is 0.31, a median of
 * 0.1235 to three 0.124 (toFixed rounds the binary double, and both are stored a hair under: 0.30,
 * 0.123). Medians, thresholds and spreads alike.
 */
function halfUp(n: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(Number((n * scale).toFixed(6))) / scale;
}

/** 0.7, 0.75, 0.333 (at most three decimals, a half rounded up: halfUp). */
function num(n: number): string {
  return String(halfUp(n, 3));
}

/**
 * --min-agreement as a percent with the flag's own decimals: 0.9 is 90, 0.995 is 99.5, 0.6666667 is
 * 66.66667 (not 66.667, which 2/3 is below): the number the agreement is compared with.
 */
function minimumPercent(min: number): string {
  const decimals = /^\d+(?:\.(\d+))?$/.exec(String(min));
  if (decimals === null) return num(min * 100);
  return String(Number((min * 100).toFixed(Math.max(0, (decimals[1] ?? '').length - 2))));
}

/**
 * A whole percent, but never 100% short of every baseline nor 0% above none (199/200 reads 99%, not
 * 100% beside a disagreement), nor on the other side of --min-agreement than the fraction is
 * (179/200 against 0.9 reads 89%, not 90% beside "below 90%"): there the percent is cut, not
 * rounded, to the minimum's decimals (more when that would read 0% above none).
 */
function agreementPercent(agreeing: number, scored: number, min: number | null): string {
  const p = Math.round((agreeing / scored) * 100);
  const whole = agreeing < scored && p === 100 ? 99 : agreeing > 0 && p === 0 ? 1 : p;
  if (min === null) return String(whole);
  // The same comparison as belowMinAgreement's (src/calibrate/summary.ts): the fraction itself.
  const below = agreeing / scored < min;
  const shownMin = minimumPercent(min);
  const minValue = Number(shownMin);
  if (whole < minValue === below) return String(whole);
  const first = shownMin.split('.')[1]?.length ?? 0;
  for (let d = first; d <= first + 6; d++) {
    // Cut, not rounded: agreeing * 100 * 10^d / scored is exact enough for its floor (a whole quotient is exact).
    const cut = Math.floor((agreeing * 100 * 10 ** d) / scored) / 10 ** d;
    if (cut < minValue === below && (agreeing === scored || cut < 100) && (agreeing === 0 || cut > 0)) return cut.toFixed(d);
  }
  return String(whole);
}

function agreementText(c: Criterion, min: number | null): string {
  if (c.agreement === null) return 'no score';
  return `${agreementPercent(c.agreeing, c.scored, min)}% (${c.agreeing}/${c.scored})`;
}

/** A spread to two decimals, its half rounded up as written (halfUp): 0.305 reads 0.31, not 0.30 below "above 0.3". */
function spreadText(spread: number): string {
  return halfUp(spread, 2).toFixed(2);
}

function thresholdText(c: Criterion): string {
  return c.thresholds.length === 1 ? `threshold ${num(c.thresholds[0] as number)}` : `thresholds ${c.thresholds.map(num).join(', ')}`;
}

/**
 * A median beside its threshold, never on the other side of it than it is: 0.6999 against 0.7 reads
 * 0.6999, not 0.7 beside "judged fail". More decimals where three would cross it, up to the
 * millionth a median is kept to (src/calibrate/summary.ts, median).
 */
function medianText(median: number, threshold: number): string {
  const shownThreshold = Number(num(threshold));
  for (let d = 3; d < 6; d++) {
    const shown = halfUp(median, d);
    if (shown < shownThreshold === median < threshold) return String(shown);
  }
  return String(halfUp(median, 6));
}

/** "accepted pass, judged fail: median 0.2 (0.1 .. 0.3) against 0.7". */
function scoreText(b: Item): string {
  if (b.median === null) return `accepted ${b.accepted}, no usable score: ${b.notUsable[0] ?? 'no answer'}`;
  const range = b.scores.length > 1 ? ` (${b.scores.length} scores, ${num(Math.min(...b.scores))} .. ${num(Math.max(...b.scores))})` : '';
  return `accepted ${b.accepted}, judged ${b.judged}: ${b.scores.length > 1 ? 'median ' : ''}${medianText(b.median, b.threshold)}${range} against ${num(b.threshold)}`;
}

/**
 * Where the judge was asked, " at https://api.example/v1" (a panel's addresses, each once, in its
 * members' order), as calibration.json's judge.endpoint keeps it: no credentials, query, fragment
 * or token-looking path segment (src/endpoint.ts); "" in a file written before it was kept.
 */
function addressText(c: Calibration, line: (text: string) => string): string {
  if (c.judge.endpoint === undefined || c.judge.endpoint === '') return '';
  return ` at ${line([...new Set(hideEndpointTokens(c.judge.endpoint).split(', '))].join(', '))}`;
}

/** `line` renders untrusted text on one line: terminalLine on the terminal, oneLine in markdown (escaped after). */
function headline(c: Calibration, line: (text: string) => string): string {
  const baselines = c.criteria.reduce((n, x) => n + x.baselines, 0);
  const each = c.repeat === 1 ? 'once each' : `${c.repeat} times each`;
  return `calibrate: ${plural(c.criteria.length, 'criterion', 'criteria')}, ${plural(baselines, 'baseline', 'baselines')} re-judged ${each} by ${line(c.judge.name)}${addressText(c, line)}: ${plural(c.spend.judgeCalls, 'judge call', 'judge calls')}, ≈ ${formatUsd(c.estimate.usd)} estimated`;
}

/**
 * The judge fell back to the plain prompt: said in one line, as a run says it but for the calibration
 * (docs/judges.md, "Structured output and its fallback"); `quote` renders the endpoint's reason (untrusted text).
 */
function fallbackLine(c: Calibration, quote: (text: string) => string): string | null {
  const mode = c.judge.structuredOutput;
  return mode !== null && !mode.structured ? judgeFallbackText(mode.reason, quote, 'calibration') : null;
}

function disagreements(c: Calibration): { criterion: Criterion; items: Item[] }[] {
  return c.criteria.map((criterion) => ({ criterion, items: criterion.items.filter((b) => b.agrees === false) })).filter((d) => d.items.length > 0);
}

/**
 * Baselines that got a usable score from some answers and none from others (a judge down for part
 * of a --repeat): their median and spread are of the others, said so below the No usable score list.
 */
function partlyScored(c: Calibration): { criterion: Criterion; item: Item }[] {
  return c.criteria.flatMap((criterion) => criterion.items.filter((b) => b.median !== null && b.notUsable.length > 0).map((item) => ({ criterion, item })));
}

/** "2 of 6 answers to 2 baselines": the answers without a usable score among those baselines' answers. */
function partlyText(p: ReturnType<typeof partlyScored>): string {
  const lost = p.reduce((n, { item }) => n + item.notUsable.length, 0);
  const all = p.reduce((n, { item }) => n + item.notUsable.length + item.scores.length, 0);
  return `${lost} of ${plural(all, 'answer', 'answers')} to ${plural(p.length, 'baseline', 'baselines')} that got a usable score from the others`;
}

/** "1 of 3: HTTP 503: overloaded": how many of its answers a baseline lost, and the first reason. */
function partlyItem(item: Item): string {
  return `${item.notUsable.length} of ${item.notUsable.length + item.scores.length}: ${unusableText(item)}`;
}

function unscored(c: Calibration): { criterion: Criterion; item: Item }[] {
  return c.criteria.flatMap((criterion) => criterion.items.filter((b) => b.median === null).map((item) => ({ criterion, item })));
}

/**
 * The straddling baselines the table counts that are listed under Disagreements instead (each is
 * listed once): said beside the Straddling list, so that its count is the table's.
 */
function straddlingElsewhere(c: Calibration): number {
  return c.criteria.reduce((n, x) => n + x.straddling, 0) - straddlers(c).length;
}

function straddlingNote(c: Calibration): string {
  const n = straddlingElsewhere(c);
  return n === 0 ? '' : `; ${n === 1 ? '1 more is' : `${thousands(n)} more are`} listed under Disagreements`;
}

function straddlers(c: Calibration): { criterion: Criterion; item: Item }[] {
  return c.criteria.flatMap((criterion) => criterion.items.filter((b) => b.straddling && b.agrees !== false).map((item) => ({ criterion, item })));
}

function minimumLine(c: Calibration, line: (text: string) => string): string | null {
  if (c.minAgreement === null) return null;
  const below = c.criteria.filter((x) => x.belowMinAgreement);
  // The flag as a percent with its decimals: --min-agreement 0.995 is 99.5%, not 100%.
  const p = `${minimumPercent(c.minAgreement)}%`;
  // No score at all: the minimum was not measured, and "every criterion with a score" would be
  // said of none (noScoreLine says it for criteria that got none).
  if (scoredAnswers(c) === 0) return c.criteria.length === 0 ? `Nothing was re-judged, so --min-agreement ${c.minAgreement} (${p}) was not checked.` : null;
  const none = unmeasured(c);
  // Some criteria scored, others got no usable score: the minimum is not shown to hold for those (exit 1).
  const without = none.length === 0 ? '' : ` ${plural(none.length, 'criterion', 'criteria')} got no usable score, so --min-agreement fails for ${none.length === 1 ? 'it' : 'them'} (exit 1): ${none.map((x) => `"${clipShown(line(x), 60)}"`).join(', ')}.`;
  // Baselines left out of an agreement (a judge down for part of the run): the minimum holds over the others only.
  const partly = c.criteria.filter((x) => x.scored > 0);
  const missing = partly.reduce((n, x) => n + x.baselines - x.scored, 0);
  const counted = missing === 0 ? '' : ` ${missing} of ${plural(partly.reduce((n, x) => n + x.baselines, 0), 'baseline', 'baselines')} got no usable score and ${missing === 1 ? 'is' : 'are'} not counted in the agreement: see No usable score above.`;
  return below.length === 0
    ? `Every criterion with a score agrees at least ${p} (--min-agreement ${c.minAgreement}).${counted}${without}`
    : `${plural(below.length, 'criterion is', 'criteria are')} below --min-agreement ${c.minAgreement} (${p}): ${below.map((x) => `"${clipShown(line(x.criterion), 60)}"`).join(', ')}. Next: read ${below.length === 1 ? 'its' : 'their'} disagreements above, then rewrite the criterion or correct a baseline accepted by mistake (${docsUrl('calibration.md', 'When to rewrite a criterion')}).${counted}${without}`;
}

/** Baselines that got a usable score, over every criterion. */
function scoredAnswers(c: Calibration): number {
  return c.criteria.reduce((n, x) => n + x.scored, 0);
}

/**
 * Criteria re-judged, and not one usable score (a judge that never answered, a key refused): said
 * in so many words, with the minimum that was not checked (docs/calibration.md, "How to read it").
 */
function noScoreLine(c: Calibration): string | null {
  if (c.criteria.length === 0 || scoredAnswers(c) > 0) return null;
  const min = c.minAgreement === null ? '' : `, and --min-agreement ${c.minAgreement} (${minimumPercent(c.minAgreement)}%) cannot be shown to hold, so it fails (exit 1)`;
  return `No criterion got a usable score, so nothing was measured${min}: see No usable score above.`;
}

/** The model's fixes first (its prompt-following, its token limit), then agent-replay's own, then any other (the judge's address) in the order met; a panel's members' each as said of more of them. */
const FIX_ORDER = [JUDGE_NO_SCORE_HINT, PANEL_NO_SCORE_HINT, PANEL_NO_SCORE_HINTS, JUDGE_CUT_HINT, PANEL_CUT_HINT, CALL_FAILED_HINT, CALL_FAILED_HINTS];

/**
 * The fixes a run's causes give the unusable answers listed (src/evaluate/causes.ts, judgeFixes:
 * one derivation for both), each once however many baselines need it: a panel's members that
 * failed in more than one way get each way's fix (docs/calibration.md, "How to read it"). A
 * connection the judge dropped, when it gave a usable score to another answer of the calibration,
 * gets a run's fix for it (run again), not its settings: they worked.
 */
function noScoreFixes(u: ReturnType<typeof unscored>, c: Calibration, file: string = NEW_CONFIG_NAME): string[] {
  const answeredIn = scoredAnswers(c) > 0 ? 'calibration' : null;
  const found = u.flatMap(({ item }) => item.notUsable.flatMap((reason) => judgeFixes(reason, answeredIn, file)));
  // A panel's members' fix is said as many as they are ("that member's model", "those members'
  // models"): answers of one and of more get the one that holds for all, once.
  const said = new Set(found.map((f) => f.fix));
  const fixes = found.filter((f) => f.fix === f.more || !said.has(f.more));
  const rank = (f: (typeof found)[number]): number => (FIX_ORDER.includes(f.more) ? FIX_ORDER.indexOf(f.more) : FIX_ORDER.length);
  // In the CLI's words, as a run's terminal says them (cliWords): calibrate runs only from the
  // command line (the Action has no calibrate mode), where the judge's address is --judge-url, not
  // the Action's judge-base-url input; its markdown (a step summary) likewise. A key is set in the
  // suite's config file (`file`), as a run's causes name it (causeOf).
  return [...new Set(fixes.sort((a, b) => rank(a) - rank(b)).map((f) => cliWordsOf(f.fix, file)))];
}

/** Why a baseline got no usable score: the judge client's reason, in the CLI's words (noScoreFixes). */
function unusableText(item: Item): string {
  return cliWords(item.notUsable[0] ?? 'no answer');
}

type Listed = { criterion: Criterion; item: Item };

/**
 * A list's baselines (No usable score, Answers without a usable score) under one cause, the one a
 * run's report groups the same reason under (judgeReasonCause of the first reason, the one
 * shown), in the CLI's words.
 */
interface ReasonGroup {
  what: string;
  entries: Listed[];
}

/** The list grouped by cause, largest group first (ties: first met first), as a run groups its items (src/evaluate/causes.ts, groupCauses). */
function reasonGroups(list: readonly Listed[]): ReasonGroup[] {
  const groups = new Map<string, ReasonGroup>();
  for (const entry of list) {
    const reason = entry.item.notUsable[0] ?? 'no answer';
    const cause = judgeReasonCause(reason);
    const what = cliWords(cause?.what ?? reason);
    // The cause's key and its words: a timeout and a connection refused share a key, not what they say.
    const key = `${cause?.key ?? ''}\n${what}`;
    const group = groups.get(key);
    if (group) group.entries.push(entry);
    else groups.set(key, { what, entries: [entry] });
  }
  return [...groups.values()].sort((a, b) => b.entries.length - a.entries.length);
}

/** Baselines listed on a line of their own under a cause; the rest with a text of their own are named in one line. */
const OWN_SHOWN = 20;

/**
 * One cause's part of a list, as a run's report shows a cause's items (src/report/cause-details.ts):
 * the cause with how many of the list it holds ("all 500: judge unreachable: HTTP 503"; none when
 * the list is one baseline), the text most of them share said once ("each: HTTP 503: overloaded",
 * when two or more share it), the baselines that share it named compactly per criterion and folder,
 * and each other one on its line with its own text (the first OWN_SHOWN; the rest named in one line).
 */
interface GroupLayout {
  head: string | null;
  shared: string | null;
  together: { criterion: Criterion; files: string[] }[];
  own: { entry: Listed; text: string }[];
  rest: { criterion: Criterion; files: string[] }[];
}

function groupLayout(group: ReasonGroup, of: number, text: (item: Item) => string): GroupLayout {
  const texts = group.entries.map((e) => text(e.item));
  const [body, sharing] = mostShared(texts);
  const shared = sharing >= 2 ? body : null;
  // Said once, unless the cause says it already ("judge unreachable: <it>").
  const said = shared !== null && shared !== group.what && !group.what.endsWith(`: ${shared}`);
  const head = of === 1 ? null : causeLine({ key: '', what: group.what, hint: null, labels: group.entries.map((e) => e.item.label) }, of);
  const together: GroupLayout['together'] = [];
  const own: GroupLayout['own'] = [];
  const rest: GroupLayout['rest'] = [];
  const add = (into: GroupLayout['together'], e: Listed): void => {
    const at = into.find((x) => x.criterion === e.criterion);
    if (at) at.files.push(e.item.baselineFile);
    else into.push({ criterion: e.criterion, files: [e.item.baselineFile] });
  };
  group.entries.forEach((e, i) => {
    const t = texts[i] as string;
    if (shared !== null && t === shared) add(together, e);
    else if (own.length < OWN_SHOWN) own.push({ entry: e, text: t });
    else add(rest, e);
  });
  return { head, shared: said ? sharedLine({ shared, sharing }, group.entries.length) : null, together, own, rest };
}

/**
 * Baseline files named compactly: their folder once, then their names (the first 20, then how many
 * more), ".agent-replay/baselines/: f0.json, f1.json and 480 more"; folders apart, "; " between.
 */
function filesText(files: readonly string[], shown: (text: string) => string): string {
  const byDir = new Map<string, string[]>();
  for (const file of files) {
    const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1;
    const dir = file.slice(0, cut);
    const names = byDir.get(dir);
    if (names) names.push(file.slice(cut));
    else byDir.set(dir, [file.slice(cut)]);
  }
  return [...byDir].map(([dir, names]) => `${dir === '' ? '' : `${shown(dir)}: `}${firstLabels(names, shown)}`).join('; ');
}

/** The rest with a text of their own, beyond OWN_SHOWN: "… and 480 more, each with a reason of its own". */
function restText(rest: GroupLayout['rest']): string {
  const n = rest.reduce((k, r) => k + r.files.length, 0);
  return `… and ${thousands(n)} more, each with a reason of its own (calibration.json, written with --out, keeps every reason)`;
}

/** A list grouped by cause on the terminal: each cause's lines under it, indented (groupLayout). */
function groupedText(list: readonly Listed[], text: (item: Item) => string): string[] {
  const out: string[] = [];
  const criterionText = (c: Criterion): string => `"${clipShown(terminalLine(c.criterion), 60)}"`;
  for (const group of reasonGroups(list)) {
    const g = groupLayout(group, list.length, text);
    const indent = g.head === null ? '  ' : '    ';
    if (g.head !== null) out.push(`  ${clipShown(terminalLine(g.head), 300)}`);
    if (g.shared !== null) out.push(`    ${clipShown(terminalLine(g.shared), 300)}`);
    for (const t of g.together) out.push(`    ${criterionText(t.criterion)}: ${filesText(t.files, terminalLine)}`);
    for (const { entry, text: own } of g.own) out.push(`${indent}${terminalLine(entry.item.baselineFile)}  ${criterionText(entry.criterion)}: ${clipShown(terminalLine(own), 160)}`);
    if (g.rest.length > 0) {
      out.push(`    ${restText(g.rest)}:`);
      for (const r of g.rest) out.push(`      ${criterionText(r.criterion)}: ${filesText(r.files, terminalLine)}`);
    }
  }
  return out;
}

/** The same in markdown: each cause in bold with the text shared below it, then its baselines as a list. */
function groupedMarkdown(list: readonly Listed[], text: (item: Item) => string): string[] {
  const out: string[] = [];
  const name = (file: string): string => codeSpan(file);
  for (const group of reasonGroups(list)) {
    const g = groupLayout(group, list.length, text);
    if (g.head !== null) out.push('', `**${escapeInline(clip(oneLine(g.head), 300))}**${g.shared === null ? '' : `<br>\n${escapeInline(clip(oneLine(g.shared), 300))}`}`, '');
    for (const t of g.together) out.push(`- ${criterionCell(t.criterion.criterion)}: ${filesText(t.files, name)}`);
    for (const { entry, text: own } of g.own) out.push(`- ${codeSpan(entry.item.baselineFile)}: ${criterionCell(entry.criterion.criterion)}: ${cell(clip(oneLine(own), 200))}`);
    if (g.rest.length > 0) out.push(`- ${escapeInline(restText(g.rest))}: ${g.rest.map((r) => `${criterionCell(r.criterion.criterion)}: ${filesText(r.files, name)}`).join('; ')}`);
  }
  return out;
}

function calmLine(c: Calibration): string | null {
  const scored = scoredAnswers(c);
  if (scored === 0 || disagreements(c).length > 0) return null;
  return `The judge agrees with every accepted verdict it scored (${thousands(scored)} of ${thousands(scored)}).`;
}

/** The items named at most, then how many more (as `--only`'s labels are listed: src/evaluate/selection.ts). */
const LABELS_SHOWN = 20;

function firstLabels(labels: readonly string[], shown: (label: string) => string): string {
  return listAndMore(labels, LABELS_SHOWN, shown);
}

/**
 * The Disagreements and Straddling lists, one line a baseline, cut as the other lists are: the first
 * LABELS_SHOWN baselines (each with its own score), then how many more and where each of them is.
 * `out`: the calibration.json written (--out), as shown; null when none was.
 */
function shownFirst<T>(items: readonly T[]): { shown: T[]; more: number } {
  return { shown: items.slice(0, LABELS_SHOWN), more: Math.max(0, items.length - LABELS_SHOWN) };
}

/** The rest of a cut Disagreements or Straddling list, on the list's own last line as the No usable score list's (restText): "… and 480 more, each with its score in calibration.json". */
function moreText(more: number, out: string | null): string {
  return `… and ${thousands(more)} more, each with its score in ${out ?? 'calibration.json: --out calibration.json writes it'}`;
}

/** The disagreements per criterion, but no more than LABELS_SHOWN baselines over all of them. */
function disagreementsShown(c: Calibration): { groups: { criterion: Criterion; items: Item[] }[]; more: number } {
  const d = disagreements(c);
  const { shown, more } = shownFirst(d.flatMap(({ criterion, items }) => items.map((item) => ({ criterion, item }))));
  const groups = d.map(({ criterion }) => ({ criterion, items: shown.filter((x) => x.criterion === criterion).map((x) => x.item) })).filter((g) => g.items.length > 0);
  return { groups, more };
}

/** How items without a baseline get one: the suite replayed and its results accepted, with the suite's folder when it is not the default. */
function acceptStep(c: Calibration): string {
  const dir = c.suite === '.agent-replay' ? '' : ` --dir ${shownShellWord(c.suite)}`;
  return `replay the suite and accept its results: npx agent-replay run${dir}, then npx agent-replay accept${dir}`;
}

/**
 * What gives skipped baselines a known verdict, one step per reason (docs/calibration.md, "What is
 * re-judged"): accepted again from a run with the judge, a baseline keeps the judge's result for
 * each criterion. A reply or transcript accepted unchanged leaves a baseline that keeps none as it
 * is (src/evaluate/acceptance.ts, decideAcceptance), so the baseline is removed first. The first
 * LABELS_SHOWN of a reason's baselines are in its commands; the others, listed above, likewise.
 */
function skippedGroups(c: Calibration): { reason: string; list: Calibration['skipped']; step: string }[] {
  const byReason = new Map<string, Calibration['skipped']>();
  for (const x of c.skipped) {
    const list = byReason.get(x.reason);
    if (list) list.push(x);
    else byReason.set(x.reason, [x]);
  }
  const dir = c.suite === '.agent-replay' ? '' : ` --dir ${shownShellWord(c.suite)}`;
  return [...byReason].map(([reason, list]) => {
    // A script skipped for two criteria is one baseline: once.
    const baselines = [...new Map(list.map((x) => [x.label, x.baselineFile])).entries()];
    const shown = baselines.slice(0, LABELS_SHOWN);
    const one = baselines.length === 1;
    const what = list[0]?.kind === 'persona' ? 'transcript' : 'reply';
    const more = baselines.length > LABELS_SHOWN ? ` (the first ${LABELS_SHOWN} of ${thousands(baselines.length)}; the others, listed above, likewise)` : '';
    // A fixture's baseline keeps a judge result only when it agrees with the fixture's verdict (src/suite/baselines.ts refuses one that does not).
    // A judged fixture whose verdict and kept judge result contradict (src/calibrate/plan.ts): the judge is its only check, so no other check limits accept.
    const contradiction = reason === SINGLE_JUDGE_CONTRADICTION;
    // A fixture skipped as failed by its attempts is a lone judge's (plan.ts, acceptedSingleJudge): no other check to fail beside it.
    const limit = what === 'reply' && !contradiction && reason !== FAILED_BY_ATTEMPTS ? `; while another check fails and the judge passes, accept refuses ${one ? 'it' : 'those'}, since a fixture's baseline keeps only a judge result that agrees with its verdict` : '';
    const corrected = contradiction ? `if "fail" is right (a baseline corrected by hand), remove the judge block from ${one ? 'its baseline' : 'their baselines'} and calibrate reads ${one ? 'its verdict' : 'their verdicts'}; else, ` : '';
    // A repeated item failed by its attempts while the attempt shown passed keeps none again (src/evaluate/acceptance.ts, baselineJudgeOf; src/evaluate/reuse.ts).
    const shownFirst = `the attempt shown (the first that ${what === 'transcript' ? 'completed' : 'replied'})`;
    const byAttempts =
      reason === FAILED_BY_ATTEMPTS
        ? `; a ${what} accepted from a run that again fails by its attempts while ${shownFirst} passes keeps none either: accept from a run whose attempt shown fails where its attempts fail, or passes where they pass`
        : '';
    const step =
      `${corrected}to calibrate against ${one ? 'it' : 'them'}, remove ${one ? 'its baseline' : 'their baselines'} and accept ${one ? 'it' : 'them'} again from a run with the judge, ` +
      `so that ${one ? 'its new baseline keeps' : 'their new baselines keep'} the judge's result for each criterion (a ${what} accepted unchanged leaves a baseline as it is${byAttempts}; read the run's ${one ? 'result' : 'results'} first: accepting says ${one ? 'its verdict is' : 'their verdicts are'} right${limit}): ` +
      `rm ${shown.map(([, file]) => shownShellWord(file)).join(' ')}, then npx agent-replay run${dir} --only ${shownShellWord(shown.map(([label]) => label).join(','))}, then npx agent-replay accept${dir}${more}`;
    return { reason, list, step };
  });
}

/** A reason's skipped baselines per criterion, in the order met (filesText names them compactly). */
function skippedByCriterion(list: Calibration['skipped']): { criterion: string; files: string[] }[] {
  const out: { criterion: string; files: string[] }[] = [];
  for (const x of list) {
    const at = out.find((o) => o.criterion === x.criterion);
    if (at) at.files.push(x.baselineFile);
    else out.push({ criterion: x.criterion, files: [x.baselineFile] });
  }
  return out;
}

/** The head of a reason's skipped baselines, as a cause's: "all 500: <reason>", "2 of 3: <reason>". */
function skippedHead(g: { reason: string; list: Calibration['skipped'] }, of: number): string {
  return causeLine({ key: '', what: g.reason, hint: null, labels: g.list.map((x) => x.label) }, of);
}

/**
 * What the forms say of where the calibration ran: `suite`, the suite's folder in its repository when
 * it is not the default one; `out`, the --out file; `configName`, the suite's config file
 * (Suite.configName), which the fixes name; absent: config.yml.
 */
export interface CalibrationContext {
  suite?: string | null;
  out?: string | null;
  configName?: string;
}

/** The terminal form: reads in ten seconds, details below the table. */
export function renderCalibrationText(c: Calibration, context: CalibrationContext = {}): string {
  const out_ = context.out === undefined || context.out === null ? null : terminalLine(context.out);
  const fallback = fallbackLine(c, (reason) => clipShown(terminalLine(reason), 300));
  // The suite's folder in its repository when it is not the default one, as its markdown and compare's terminal name it.
  const suite = context.suite ? [`suite: ${terminalLine(clip(context.suite, 200))}`] : [];
  const out: string[] = [...suite, headline(c, terminalLine), ...(fallback === null ? [] : [fallback]), ''];
  if (c.criteria.length === 0) {
    out.push('Nothing to re-judge: no judged fixture or persona criterion has a baseline with a known accepted verdict.');
  } else {
    const rows = c.criteria.map((x) => [clipShown(terminalLine(x.criterion), CRITERION_WIDTH), String(x.baselines), agreementText(x, c.minAgreement), x.spread === null ? '-' : spreadText(x.spread), x.scored === 0 ? '-' : String(x.straddling)]);
    const head = ['criterion', 'baselines', 'agreement', 'spread', 'straddling'];
    // Padded by the columns a terminal draws, not by UTF-16 units: a criterion in Japanese or with
    // an emoji keeps the table's columns in line (src/report/columns.ts).
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => columnsOf(r[i] as string))));
    const line = (cells: string[]): string => `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : padColumns(cell, widths[i] as number))).join('  ')}`.trimEnd();
    out.push(line(head), ...rows.map(line));
  }
  const d = disagreements(c);
  if (d.length > 0) {
    out.push('', `Disagreements (${d.reduce((n, x) => n + x.items.length, 0)}): the judge's verdict is not the accepted one`);
    const cut = disagreementsShown(c);
    for (const { criterion, items } of cut.groups) {
      out.push(`  "${terminalLine(criterion.criterion)}" (${thresholdText(criterion)})`);
      for (const b of items) {
        out.push(`    ${terminalLine(b.baselineFile)}  ${scoreText(b)}`);
        if (b.rationale !== null) out.push(`      judge: ${clipShown(terminalLine(b.rationale), 160)}`);
      }
    }
    if (cut.more > 0) out.push(`  ${moreText(cut.more, out_)}`);
  }
  const s = straddlers(c);
  if (s.length > 0 || straddlingElsewhere(c) > 0) {
    out.push('', `Straddling (${s.length + straddlingElsewhere(c)}): the score sits within 0.1 of the threshold, so a small change flips it${straddlingNote(c)}`);
    const cut = shownFirst(s);
    for (const { criterion, item } of cut.shown) out.push(`  ${terminalLine(item.baselineFile)}  "${clipShown(terminalLine(criterion.criterion), 60)}"  ${scoreText(item)}`);
    if (cut.more > 0) out.push(`  ${moreText(cut.more, out_)}`);
  }
  const u = unscored(c);
  if (u.length > 0) {
    out.push('', `No usable score (${thousands(u.length)}): counted, never a score; left out of the agreement`, ...groupedText(u, unusableText));
    for (const fix of noScoreFixes(u, c, context.configName)) out.push(`  fix: ${fix}`);
  }
  const p = partlyScored(c);
  if (p.length > 0) {
    out.push('', `Answers without a usable score (${partlyText(p)}): counted, never a score; those baselines' median and spread are of the others`);
    out.push(...groupedText(p, partlyItem));
    // Each fix once over both lists: the No usable score list's are not said again.
    const said = new Set(noScoreFixes(u, c, context.configName));
    for (const fix of noScoreFixes(p, c, context.configName)) if (!said.has(fix)) out.push(`  fix: ${fix}`);
  }
  if (c.skipped.length > 0) {
    out.push('', `Skipped (${c.skipped.length}): the accepted verdict is not known, nothing was asked`);
    // One baseline: its line; more: grouped by reason as the lists above are by cause, the reason said once.
    const one = c.skipped.length === 1 ? c.skipped[0] : undefined;
    if (one !== undefined) out.push(`  ${terminalLine(one.baselineFile)}  "${clipShown(terminalLine(one.criterion), 60)}": ${terminalLine(one.reason)}`);
    for (const g of skippedGroups(c)) {
      if (one === undefined) {
        out.push(`  ${terminalLine(skippedHead(g, c.skipped.length))}`);
        for (const x of skippedByCriterion(g.list)) out.push(`    "${clipShown(terminalLine(x.criterion), 60)}": ${filesText(x.files, terminalLine)}`);
      }
      out.push(`${one === undefined ? '    ' : '  '}next: ${terminalLine(g.step)}`);
    }
  }
  if (c.withoutBaseline.length > 0) {
    const labels = [...new Set(c.withoutBaseline.map((x) => x.label))];
    out.push('', `Not calibrated: ${plural(labels.length, 'judged item has', 'judged items have')} no baseline yet (${firstLabels(labels, terminalLine)}); to calibrate against ${labels.length === 1 ? 'it' : 'them'}, ${acceptStep(c)}.`);
  }
  const notes = [calmLine(c), noScoreLine(c), minimumLine(c, terminalLine), c.repeat === 1 && scoredAnswers(c) > 0 ? 'Spread needs repeats: --repeat 3 asks the judge three times per baseline.' : null].filter((x): x is string => x !== null);
  if (notes.length > 0) out.push('', ...notes);
  return `${out.join('\n')}\n`;
}

function cell(text: string): string {
  return escapeInline(text);
}

/**
 * A criterion in the markdown form, cut (with "…") as the run's report cuts a script's criterion
 * (report/persona.ts criterionShown, the one limit, as JUnit's): a criterion is the suite's text, of
 * any length, and this markdown goes to a job summary, which GitHub drops whole over its limit.
 */
function criterionCell(text: string): string {
  return cell(criterionShown(text));
}

/**
 * The markdown form (a PR comment, a job summary): every untrusted string escaped. `suite`: the
 * suite's folder in its repository when it is not the default one, named above the heading as a
 * run's report names it (docs/action.md, "Two suites in one repository").
 */
export function renderCalibrationMarkdown(c: Calibration, context: CalibrationContext = {}): string {
  const out_ = context.out === undefined || context.out === null ? null : oneLine(context.out);
  const fallback = fallbackLine(c, (reason) => codeSpan(clip(oneLine(reason), 300)));
  const suite = suiteLine({ suite: context.suite ?? null });
  const out: string[] = [...(suite === null ? [] : [suite, '']), '## Judge calibration', '', escapeInline(headline(c, oneLine).replace(/^calibrate: /, '')), ...(fallback === null ? [] : ['', fallback]), ''];
  if (c.criteria.length === 0) {
    out.push('Nothing to re-judge: no judged fixture or persona criterion has a baseline with a known accepted verdict.');
  } else {
    out.push('| criterion | baselines | agreement | spread | straddling |', '| --- | ---: | ---: | ---: | ---: |');
    for (const x of c.criteria) {
      out.push(`| ${criterionCell(x.criterion)} | ${x.baselines} | ${cell(agreementText(x, c.minAgreement))} | ${x.spread === null ? '\\-' : spreadText(x.spread)} | ${x.scored === 0 ? '\\-' : x.straddling} |`);
    }
  }
  const d = disagreements(c);
  if (d.length > 0) {
    out.push('', `### Disagreements (${d.reduce((n, x) => n + x.items.length, 0)})`, '');
    const cut = disagreementsShown(c);
    for (const { criterion, items } of cut.groups) {
      out.push(`- **${criterionCell(criterion.criterion)}** (${cell(thresholdText(criterion))})`);
      for (const b of items) out.push(`  - ${codeSpan(b.baselineFile)}: ${cell(scoreText(b))}${b.rationale === null ? '' : `; judge: ${cell(clip(oneLine(b.rationale), 200))}`}`);
    }
    if (cut.more > 0) out.push(`- ${cell(moreText(cut.more, out_))}`);
  }
  const s = straddlers(c);
  if (s.length > 0 || straddlingElsewhere(c) > 0) {
    out.push('', `### Straddling (${s.length + straddlingElsewhere(c)})`, '');
    if (straddlingElsewhere(c) > 0) out.push(`The score sits within 0.1 of the threshold${straddlingNote(c)}.`, '');
    const cut = shownFirst(s);
    for (const { criterion, item } of cut.shown) out.push(`- ${codeSpan(item.baselineFile)}: ${criterionCell(criterion.criterion)}: ${cell(scoreText(item))}`);
    if (cut.more > 0) out.push(`- ${cell(moreText(cut.more, out_))}`);
  }
  const u = unscored(c);
  if (u.length > 0) {
    out.push('', `### No usable score (${thousands(u.length)})`, ...(u.length === 1 ? [''] : []), ...groupedMarkdown(u, unusableText));
    for (const fix of noScoreFixes(u, c, context.configName)) out.push('', `Fix: ${escapeFix(fix)}`);
  }
  const p = partlyScored(c);
  if (p.length > 0) {
    out.push('', `### Answers without a usable score (${escapeInline(partlyText(p))})`, '', "Counted, never a score; those baselines' median and spread are of the others.", ...(p.length === 1 ? [''] : []), ...groupedMarkdown(p, partlyItem));
    const said = new Set(noScoreFixes(u, c, context.configName));
    for (const fix of noScoreFixes(p, c, context.configName)) if (!said.has(fix)) out.push('', `Fix: ${escapeFix(fix)}`);
  }
  if (c.skipped.length > 0) {
    out.push('', `### Skipped: accepted verdict unknown (${c.skipped.length})`, '');
    const one = c.skipped.length === 1 ? c.skipped[0] : undefined;
    if (one !== undefined) out.push(`- ${codeSpan(one.baselineFile)}: ${criterionCell(one.criterion)}: ${cell(one.reason)}`);
    skippedGroups(c).forEach((g, i) => {
      if (one === undefined) {
        out.push(...(i === 0 ? [] : ['']), `**${escapeInline(skippedHead(g, c.skipped.length))}**`, '');
        for (const x of skippedByCriterion(g.list)) out.push(`- ${criterionCell(x.criterion)}: ${filesText(x.files, (file) => codeSpan(file))}`);
      }
      out.push('', `Next: ${escapeFix(g.step)}`);
    });
  }
  if (c.withoutBaseline.length > 0) {
    const labels = [...new Set(c.withoutBaseline.map((x) => x.label))];
    out.push('', `Not calibrated, no baseline yet: ${firstLabels(labels, cell)}; to calibrate against ${labels.length === 1 ? 'it' : 'them'}, ${cell(acceptStep(c))}.`);
  }
  const notes = [calmLine(c), noScoreLine(c), minimumLine(c, oneLine)].filter((x): x is string => x !== null);
  if (notes.length > 0) out.push('', ...notes.map(escapeInline));
  return `${out.join('\n')}\n`;
}
