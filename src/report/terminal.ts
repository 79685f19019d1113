// Compact text for the CLI, read like the PR comment: headline (and the cause shared by most items
// that were not verified), tallies, facts, then the same sections in the same order, persona
// scripts inside them, errored and not evaluated items under their cause. Each item that needs
// attention shows its detail and its reply, or a word diff against the baseline, clipped to a few
// lines with "... N more lines" and where the full text is. Agent text has its controls (ANSI
// escapes included) shown as escapes (`\u001b`), so it cannot move the cursor or recolour the
// terminal, and the reader sees they are there.

import type { Check, FixtureRecord, RunRecord, TurnSource } from '../types.js';
import { clip, clipDetail, clipShown, terminalBlock, terminalCall, terminalLine } from './escape.js';
import { clipKeepingFix } from '../assertions/format.js';
import { begunCalls, BEGUN_WORDS, decisiveReply, namedAttemptReply, otherAttemptsWords } from './item-parts.js';
import { diffText, MARK } from './diff-text.js';
import { MAX_DIFF_CHARS } from './diff.js';
import { tooFewText } from './rates.js';
import {
  ATTENTION_ORDER,
  SCRIPT_MARK_WORDS,
  SECTION_WORDS,
  buildModel,
  estimateText,
  gateFailsText,
  headlineParts,
  headlineText,
  flakyText,
  meaningModelShown,
  personasOf,
  removedWords,
  shortSha,
  rewordedRepeatWords,
  thousands,
  topCauseText,
  turnName,
  viewOf,
  type FixtureView,
  type GateView,
  type Item,
  type ScriptView,
  type ReportModel,
  type SectionKey,
} from './model.js';
import { turnWords } from '../words.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import { checkDetail, checkSubject, checksCount, decisiveTurn, lineChecks, matchMark, messageChanged, messageTurnWords, namedAttemptTurn, sameReplyWords, scriptEndedWords, shownTurns, CHECK_NAMES, CHECK_STATUS_WORDS, type AttemptTurn } from './persona.js';
import { spendText } from './spend.js';
import { faultLine, MESSAGE_SOURCE_WORDS, simulationFacts } from './simulation.js';
import { usageText } from './usage.js';
import { judgeFallbackText } from './judge-mode.js';
import { groupTexts, sharedLine, sharedMeaningLine, sharedMeanings, withMeaningHead, type Own } from './cause-details.js';
import { agreementReport, causeLine, formatAgreement, incompleteText, type AgreementGroup, type CauseGroup } from '../evaluate/index.js';
import { agreementBasis } from './evaluations.js';
import { suiteEditsParts } from './suite-edits.js';

const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  cyan: '\u001b[36m',
  grey: '\u001b[90m',
} as const;

type Colour = keyof typeof ANSI;

const SECTION_STYLE: Record<SectionKey, { mark: string; colour: Colour }> = {
  newly_failing: { mark: '✗', colour: 'red' },
  still_failing: { mark: '✗', colour: 'red' },
  changed: { mark: '~', colour: 'yellow' },
  reworded: { mark: '≈', colour: 'grey' },
  not_evaluated: { mark: '○', colour: 'grey' },
  errored: { mark: '!', colour: 'grey' },
  new: { mark: '+', colour: 'cyan' },
  unchanged: { mark: '=', colour: 'grey' },
};

export interface TerminalOptions {
  color: boolean;
  width?: number;
  /** Where every item's full text is, named under a clipped reply ("results.json"). */
  where?: string;
  /** The gate the run was checked by, said under the headline when it fails on what the headline does not say (model.ts gateFailsText). */
  gate?: GateView | null;
  /** Given the summary's model once it is written, so that what else needs it (the run's next step) builds no second one. */
  onModel?: (model: ReportModel) => void;
}

export function renderTerminal(run: RunRecord, opts: TerminalOptions): string {
  const paint = (colour: Colour, text: string): string => (opts.color ? `${ANSI[colour]}${text}${ANSI.reset}` : text);
  const fit = (text: string): string => (opts.width && opts.width > 0 ? clipShown(text, opts.width) : text);
  const model = buildModel(run);
  const gate = opts.gate ?? null;
  const h = headlineParts(model, gate);
  const t = model.tallies;
  const lines: string[] = [];
  // The fixes name the suite's config file (docs/results-json.md, `configName`).
  const file = run.configName ?? NEW_CONFIG_NAME;

  // Red for a regression; grey when not verified (never a failure); yellow when the gate fails on what
  // the headline does not say (the line under it says what); green otherwise.
  const headColour: Colour = h.icon === '🔴' ? 'red' : h.icon === '🟠' ? 'yellow' : h.icon === '✅' ? 'green' : 'grey';
  lines.push(paint('bold', paint(headColour, fit(`agent-replay: ${headlineText(model)}`))));
  const fails = gateFailsText(model, gate, terminalLine);
  if (fails !== null) lines.push(paint('yellow', fit(`  ${fails}`)));
  // The fix in the CLI's words, never what the cause quotes (an address, an agent's words).
  const cause = topCauseText(model, (hint) => cliWordsOf(hint, file));
  if (cause !== null) lines.push(paint('grey', fit(`  cause: ${terminalLine(clip(cause, 2000))}`)));
  if (run.incomplete != null) lines.push(paint('yellow', fit(terminalLine(incompleteText(run.incomplete)))));
  const flaky = flakyText(model);
  if (flaky !== null) lines.push(paint('yellow', fit(flaky)));
  if (run.interrupted) {
    // With persona scripts among them, what finished are "items", as the comment says (blocks.ts interruptedBlock).
    const noun = run.personas.length > 0 ? 'item' : 'fixture';
    const counted = model.total === 0 ? `no ${noun} finished, so none is counted` : `only the ${model.total} ${model.total === 1 ? `${noun} that finished is` : `${noun}s that finished are`} counted; the others were not replayed`;
    lines.push(paint('yellow', fit(`interrupted: ${counted}`)));
  }
  // What the pull request changed in its own suite (docs/action.md, "The PR comment", "Suite edited"), as the comment says it.
  if (run.suiteEdits !== undefined) {
    const p = suiteEditsParts(run.suiteEdits, (text, max) => terminalLine(clip(text, max)), file);
    lines.push(paint('yellow', fit(`${p.title}.`)), fit(`  ${p.intro}`));
    for (const g of p.groups) lines.push(fit(`  ${g.head}:`), ...g.lines.map((l) => fit(`    - ${l}`)), ...(g.note === undefined ? [] : [fit(`    ${g.note}`)]));
    if (p.unknown !== null) lines.push(fit(`  Not everything could be compared: ${terminalLine(clip(p.unknown, 2000))}`));
  }

  const tallies: [Colour, string][] = [['green', `passed ${t.passed}`]];
  if (t.failed > 0) tallies.push(['red', `failed ${t.failed}`]);
  if (t.notEvaluated > 0) tallies.push(['grey', `not evaluated ${t.notEvaluated} (not a failure)`]);
  if (t.errored > 0) tallies.push(['grey', `errored ${t.errored} (not a failure)`]);
  const talliesPlain = `verdicts: ${tallies.map(([, text]) => text).join('  ')}`;
  lines.push(
    fit(talliesPlain) === talliesPlain ? `verdicts: ${tallies.map(([c, text]) => paint(c, text)).join('  ')}` : fit(talliesPlain),
  );

  lines.push(...agreementLines(run, fit));
  // The run's pass-rate change (docs/statistics.md, "The run").
  if (model.runRate !== null) {
    const r = model.runRate;
    lines.push(fit([`${r.head}: ${r.detail}`, r.mcnemar].filter((x) => x !== null).join(' · ')));
  }
  // Said once, not on each item's line (docs/statistics.md, "Too few attempts, said once").
  if (model.tooFew !== null) lines.push(fit(tooFewText(model.tooFew)));

  const facts = [estimateText(run.estimate)];
  const spent = spendText(run.spend);
  if (spent !== null) facts.push(spent);
  const tokens = usageText(run);
  if (tokens !== null) facts.push(tokens);
  if (run.agent.host) facts.push(`agent ${terminalLine(run.agent.host)}`);
  const sha = shortSha(run.commit);
  if (sha) facts.push(`commit ${terminalLine(sha)}`);
  if (run.judge.name) facts.push(`judge: ${terminalLine(run.judge.name)}`);
  const meaning = meaningModelShown(run);
  if (meaning !== null) facts.push(`meaning judge: ${terminalLine(meaning)}`);
  lines.push(paint('grey', fit(facts.join(' · '))));
  if (run.judge.structured === false) lines.push(paint('grey', fit(judgeFallbackText(run.judge.structuredFallback, terminalLine))));

  // The comment's sections, in its order, persona scripts in them; errored and not evaluated
  // items under their cause. Unchanged items are only counted.
  // The results file as the user named it (--out, --results): a control character in its name shown as an escape.
  const where = terminalLine(opts.where ?? 'results.json');
  const more = { where, file };
  const meanings = sharedMeanings(model, run);
  for (const key of ATTENTION_ORDER) {
    const items = model.sections[key];
    if (items.length === 0) continue;
    const style = SECTION_STYLE[key];
    lines.push('', paint('bold', `${SECTION_WORDS[key].title} (${thousands(items.length)})${SECTION_WORDS[key].suffix}`));
    // A reason the meaning was not checked that several items share: once, under the title.
    const meaning = meanings.bySection.get(key);
    if (meaning !== undefined) lines.push(paint('grey', fit(`  ${terminalLine(cliWordsOf(sharedMeaningLine(meaning), file))}`)));
    let group: CauseGroup | undefined;
    const texts = groupTexts(model, items);
    for (const item of items.slice(0, TERMINAL_ITEMS)) {
      const g = model.causeOf.get(item);
      const text = g === undefined ? undefined : texts.get(g);
      if (g !== undefined && g !== group) {
        const n = items.filter((x) => model.causeOf.get(x) === g).length;
        lines.push(paint('grey', fit(`  ${terminalLine(clip(causeLine({ ...g, hint: g.hint === null ? null : cliWordsOf(g.hint, file), labels: g.labels.slice(0, n) }, items.length), 2000))}`)));
        // The text the group's items share, once; each item below shows only what differs.
        const shared = text === undefined ? null : sharedLine(text, n);
        if (shared !== null) lines.push(fit(`    ${terminalLine(clipKeepingFix(cliWordsOf(shared, file), 300))}`));
      }
      group = g;
      const indent = g === undefined ? '  ' : '    ';
      const own = text?.own.get(item);
      const v = withMeaningHead(viewOf(model, item), meanings.heads.get(item), meanings.after.get(item));
      // A reworded item: one line at most (docs/meaning.md, "In the terminal, JUnit and report.html").
      if (key === 'reworded') {
        const extra = rewordedRepeatWords(v).map((w) => ` · ${w}`).join('');
        lines.push(paint(style.colour, fit(`${indent}${style.mark} ${v.kind === 'script' ? `${SCRIPT_MARK_WORDS} ` : ''}${terminalLine(v.label)} · ${terminalLine(clip(meaningOf(v), 300))}${extra} · ${terminalLine(v.file)}:${v.line}`)));
        continue;
      }
      lines.push(...(v.kind === 'script' ? personaLines(v, style, indent, paint, fit, more, own) : fixtureLines(v, style, indent, paint, fit, more, own)));
    }
    if (items.length > TERMINAL_ITEMS) lines.push(paint('grey', fit(moreLine(items.length - TERMINAL_ITEMS, where))));
  }
  const unchanged = model.sections.unchanged.length;
  if (unchanged > 0) lines.push('', paint('grey', fit(`${SECTION_WORDS.unchanged.title} (${thousands(unchanged)}): not listed; every item is in ${where}`)));
  // Baselines whose item is gone (docs/action.md, "The PR comment", "Removed"): named, the rest counted.
  const removed = model.removed;
  if (removed.length > 0) {
    const named = removedWords(removed, (b) => terminalLine(b.label));
    lines.push('', paint('yellow', fit(`Removed (${thousands(removed.length)}): ${named}: baselines whose fixture or persona script is not in the suite now; nothing was replayed for them`)));
  }
  opts.onModel?.(model);
  return `${lines.join('\n')}\n`;
}

/**
 * Items listed per section in the terminal: a screen's worth a reader can scan. The rest are
 * counted in one line; results.json, --markdown and --html list every item.
 */
export const TERMINAL_ITEMS = 50;

/** Lines of a reply or a diff shown under an item; the rest are counted. */
export const TERMINAL_TEXT_LINES = 4;
/** Characters of one such line (a terminal line, not a paragraph). */
const TEXT_LINE_CHARS = 160;

function moreLine(n: number, where: string): string {
  return `  ... and ${thousands(n)} more (every item is in ${where}; --markdown and --html render them all)`;
}

/** A reworded item's words: "reworded (judge 0.93)". */
function meaningOf(v: FixtureView | ScriptView): string {
  return v.changes.find((c) => c.dimension === 'meaning')?.words ?? 'reworded';
}

type Paint = (c: Colour, t: string) => string;
type Fit = (t: string) => string;

/**
 * Agent text as at most TERMINAL_TEXT_LINES terminal lines under `indent`: controls (ANSI
 * escapes included) shown as escapes (terminalBlock), long lines clipped, then "... N more lines
 * (full text in results.json)".
 */
function textLines(text: string, indent: string, where: string, colourOf: (line: string) => Colour | null, paint: Paint, fit: Fit): string[] {
  const all = terminalBlock(text).replace(/\t/g, '  ').split('\n');
  while (all.length > 1 && (all[all.length - 1] as string).trim() === '') all.pop();
  const shown = all.slice(0, TERMINAL_TEXT_LINES);
  const out = shown.map((l) => {
    const line = fit(`${indent}${clip(l, TEXT_LINE_CHARS)}`);
    const colour = colourOf(l);
    return colour === null ? line : paint(colour, line);
  });
  const rest = all.length - shown.length;
  if (rest > 0) out.push(paint('grey', fit(`${indent}... ${thousands(rest)} more ${rest === 1 ? 'line' : 'lines'} (full text in ${where})`)));
  return out;
}

/**
 * Two replies as their diff's first lines under `head` (given the words for its marks); when one
 * is longer than MAX_DIFF_CHARS, the new one's first lines under `what` and the reason: the terminal
 * shows TERMINAL_TEXT_LINES lines of a diff, and a reply of a megabyte took most of a second to diff
 * (docs/cli.md, "The gate and the exit status"). Nothing when they differ in nothing shown.
 */
function diffLines(a: string, b: string, what: string, head: (marks: string) => string, indent: string, where: string, paint: Paint, fit: Fit): string[] {
  const [na, nb] = [terminalBlock(a), terminalBlock(b)];
  if (na.length > MAX_DIFF_CHARS || nb.length > MAX_DIFF_CHARS) {
    const why = `not diffed: a reply is longer than ${thousands(MAX_DIFF_CHARS)} characters; the new one follows`;
    return [paint('grey', fit(`${indent}${what} (${why}):`)), ...textLines(b, `${indent}  `, where, () => null, paint, fit)];
  }
  const diff = diffText(na, nb, TEXT_LINE_CHARS);
  if (diff === null) return [];
  const marks = diff.includes(MARK.open) ? ', changed words in ⟦ ⟧' : '';
  return [paint('grey', fit(`${indent}${head(marks)}:`)), ...textLines(diff, `${indent}  `, where, diffColour, paint, fit)];
}

/** The key of a diff against the baseline, as every such diff heads it: "(- baseline, + new, changed words in ⟦ ⟧, user message simulated)". */
function baselineKey(marks: string, source?: TurnSource): string {
  return `(- baseline, + new${marks}${source === undefined ? '' : `, user message ${MESSAGE_SOURCE_WORDS[source]}`})`;
}

/** A diff's line colour: removed red, added green, the rest grey. */
function diffColour(l: string): Colour | null {
  return l.startsWith('- ') ? 'red' : l.startsWith('+ ') ? 'green' : 'grey';
}

/** The reply under a fixture: a word diff against the baseline when it changed, else the reply itself. */
function replyLines(f: FixtureRecord, indent: string, paint: Paint, fit: Fit, where: string): string[] {
  if (f.reply === null) return [];
  const baseline = f.baseline?.reply;
  // An errored fixture with a reply (an ERROR span of its message turn: docs/traces.md, "Fixtures")
  // shows the reply the user saw, never compared.
  if (!f.errored && baseline !== undefined && f.drift?.reply === 'different') {
    const out = diffLines(baseline, f.reply, 'reply vs baseline', (marks) => `reply vs baseline ${baselineKey(marks)}`, indent, where, paint, fit);
    if (out.length > 0) return out;
  }
  if (terminalBlock(f.reply).trim() === '') return [paint('grey', fit(`${indent}reply: (empty)`))];
  return [paint('grey', fit(`${indent}reply:`)), ...textLines(f.reply, `${indent}  `, where, () => null, paint, fit)];
}

/**
 * A cause's fix names the Action's inputs beside config.yml's keys ("check agent-url (agent.url)",
 * evaluate/causes.ts); on the command line, where this summary is printed, the flags are named
 * instead, and the inputs the CLI has no flag for are left to config.yml (docs/cli.md). It rewrites
 * every phrase it knows in the text it is given: give it a fix alone where one is apart (a cause's
 * hint: topCauseText, causeLine), since a text that quotes an agent, a reply or a path may hold the
 * same phrase. cliWords: for a text with no agent.headers fix in it, or no suite to name.
 */
export function cliWords(text: string): string {
  return cliWordsOf(text, NEW_CONFIG_NAME);
}

/** cliWords, where `file` is the suite's config file (the record's `configName`), named by the fix that sets agent.headers in it. */
export function cliWordsOf(text: string, file: string): string {
  return text
    .replace(/\bagent-url \(agent\.url\)/g, AGENT_URL_FLAG)
    .replace(/\bwait-for-agent \(agent\.waitForAgent\)/g, '--wait-for-agent (agent.waitForAgent)')
    .replace(/\bagent-headers \(agent\.headers\)/g, `agent.headers in ${file}`)
    // The CLI has no agent-path: the path is in the agent's URL.
    .replace(/\bcheck agent-path or agent\.url\b/g, `check ${AGENT_URL_FLAG}`)
    // The judge's address: config.yml's key, or the flag given over it (the meaning judge's too: it is the judge's);
    // a cause and a client's reason name the Action's input (src/judge-url-setting.ts, JUDGE_URL_SETTING); a reason recorded before 2026-12-06, the key alone.
    .replace(/\bjudge-base-url \(judge\.baseUrl\)/g, '--judge-url (judge.baseUrl)')
    .replace(/\b(check|the port in) judge\.baseUrl\b/g, '$1 --judge-url (judge.baseUrl)')
    // The wait's fix (agent/ready.ts) speaks of the Action's preview; on the command line the agent may be local.
    .replace(/\bCheck that the preview deployed and that the agent URL is right\b/g, `Check that the agent is running and that ${AGENT_URL_FLAG} is right`);
}

/** The agent's URL on the command line: the flag, then config.yml's key it is given over; one form in every fix (cliWords). */
const AGENT_URL_FLAG = '--agent-url (agent.url)';

/** A turn ("message turn") that an item under a shared cause text adds to its line (cause-details.ts). */
function ownSuffix(own: Own | undefined): string {
  return own?.turn ? ` · ${terminalLine(clip(own.turn, 80))}` : '';
}

/**
 * The tool calls an errored item's cut stream had begun, on one line under its detail; none when it
 * had begun none. Each call's name and input are isolated apart, as the comment's code span of it isolates them (terminalCall).
 */
function begunLine(calls: FixtureRecord['toolCalls'], indent: string, fit: Fit): string[] {
  const begun = begunCalls(calls, terminalCall);
  return begun === null ? [] : [fit(`${indent}    ${BEGUN_WORDS}: ${begun}`)];
}

/** A repeated item's other attempts against the one shown, as the comment's attempts line says them (item-parts.ts). */
function otherAttemptsLine(item: Item, indent: string, paint: Paint, fit: Fit): string[] {
  const shown = (item.attempts ?? []).findIndex((a) => !a.errored);
  const words = shown === -1 ? null : otherAttemptsWords(item, `attempt ${shown + 1}`);
  return words === null ? [] : [paint('grey', fit(`${indent}    ${words}`))];
}

/** An attempt's turn against the shown attempt's there: their diff, or its reply when the shown attempt has no such turn; nothing when it has none. */
function attemptTurnLines(dt: AttemptTurn, indent: string, where: string, paint: Paint, fit: Fit): string[] {
  if (dt.turn === null) return [];
  if (dt.shown !== null) {
    const what = `attempt ${dt.number}'s ${turnWords(dt.index)} vs attempt ${dt.shownNumber}'s`;
    return diffLines(dt.shown.reply, dt.turn.reply, what, (marks) => `${what} (- attempt ${dt.shownNumber}, + attempt ${dt.number}${marks})`, `${indent}    `, where, paint, fit);
  }
  return [paint('grey', fit(`${indent}    attempt ${dt.number}'s ${welcomeBeforeResult(dt.index)} (attempt ${dt.shownNumber} has no such turn):`)), ...textLines(dt.turn.reply, `${indent}      `, where, () => null, paint, fit)];
}

/** A fixture: its line (mark, label, status, file), its detail, then its reply or diff. */
function fixtureLines(v: FixtureView, style: { mark: string; colour: Colour }, indent: string, paint: Paint, fit: Fit, o: { where: string; file: string }, own?: Own): string[] {
  const f = v.item;
  const head = `${indent}${style.mark} ${terminalLine(v.label)} · ${terminalLine(cliWordsOf(v.status.join(' · '), o.file))} · ${terminalLine(v.file)}:${v.line}${ownSuffix(own)}`;
  const lines = [paint(style.colour, fit(head))];
  // Under a cause: its own text, or (too long for a line, the comment's block holds it) bounded as the item's own detail is.
  const said = own === undefined ? (f.errored ? f.error : f.detail) : (own.text ?? own.long);
  // An error's fix, or a check's (a judge's: "in judge-base-url (judge.baseUrl)"), is said in the CLI's words, as its cause above (cliWords).
  const detail = said ? cliWordsOf(said, o.file) : said;
  if (detail) lines.push(fit(`${indent}    ${terminalLine(clipKeepingFix(detail, 300))}`));
  // The calls its stream had begun when it was cut short, with their inputs (docs/presets.md, "Streamed replies").
  if (f.errored && f.reply === null) lines.push(...begunLine(f.toolCalls, indent, fit));
  lines.push(...otherAttemptsLine(f, indent, paint, fit));
  lines.push(...replyLines(f, `${indent}    `, paint, fit, o.where));
  // The detail may name another attempt than the reply's (the first with the item's verdict): its reply follows.
  const decisive = decisiveReply(f);
  if (decisive !== null) {
    lines.push(paint('grey', fit(`${indent}    attempt ${decisive.number}'s reply (${decisive.verdict === 'not_evaluated' ? 'not evaluated' : decisive.verdict}):`)), ...textLines(decisive.reply, `${indent}      `, o.where, () => null, paint, fit));
  }
  // The attempt the line's meaning names ("attempt 2: numbers 30 → 14"), where it is another: against the shown reply (docs/meaning.md, "Repeats").
  const named = namedAttemptReply(f);
  if (named !== null) {
    const what = `attempt ${named.number}'s reply vs attempt ${named.shownNumber}'s`;
    lines.push(...diffLines(named.shown, named.reply, what, (marks) => `${what} (- attempt ${named.shownNumber}, + attempt ${named.number}${marks})`, `${indent}    `, o.where, paint, fit));
  }
  return lines;
}

/** "by file: a.yml 100% · b.yml 50%" (n/a groups included), at most 12 groups. */
function groupsLine(what: string, groups: readonly AgreementGroup[]): string | null {
  if (groups.length === 0) return null;
  const shown = groups.slice(0, 12).map((g) => `${terminalLine(clip(g.key, 80))} ${formatAgreement(g)}`);
  const more = groups.length > shown.length ? ` · and ${thousands(groups.length - shown.length)} more` : '';
  return `  by ${what}: ${shown.join(' · ')}${more}`;
}

/** Agreement (docs/evaluations.md#agreement): the overall line, one line per kind of group, and coverage gaps. */
function agreementLines(run: RunRecord, fit: (t: string) => string): string[] {
  const r = agreementReport({ fixtures: run.fixtures, personas: personasOf(run) as RunRecord['personas'] });
  const lines = [fit(`agreement: ${formatAgreement(r.overall)} (${agreementBasis(r.overall)})`)];
  for (const [what, groups] of [['conversation', r.byConversation], ['file', r.byFile], ['persona', r.byPersona]] as const) {
    const line = groupsLine(what, groups);
    if (line) lines.push(fit(line));
  }
  const cov = run.coverage;
  if (cov) {
    const gaps = cov.gaps.length > 0 ? `never visited: ${cov.gaps.map((g) => terminalLine(clip(g, 80))).join(', ')}` : 'every listed conversation visited';
    const unknown = cov.unknown.length > 0 ? ` · not listed: ${cov.unknown.map((g) => terminalLine(clip(g, 80))).join(', ')}` : '';
    lines.push(fit(`coverage: ${gaps}${unknown}`));
  }
  return lines;
}

const CHECK_MARK: Record<Check['status'], { mark: string; colour: Colour }> = {
  pass: { mark: '✓', colour: 'green' },
  fail: { mark: '✗', colour: 'red' },
  not_evaluated: { mark: '○', colour: 'grey' },
};

/**
 * A check's detail after its subject: a reply check on a numbered turn says "turn 2" in its subject
 * (`reply contains "$50", turn 2`), so its detail's own "turn 2: " is not said again, nor the turn
 * of "turn 2 was not sent: ..." (`reply contains "$50", turn 2: not sent: ...`).
 */
function withoutTurn(c: Check, detail: string): string {
  if (c.kind !== 'reply' || typeof c.expected.turn !== 'number') return detail;
  const turn = turnWords(c.expected.turn);
  if (detail.startsWith(`${turn}: `)) return detail.slice(turn.length + 2);
  return detail.startsWith(`${turn} was not sent: `) ? `not sent: ${detail.slice(turn.length + ' was not sent: '.length)}` : detail;
}

/**
 * A reply check's turn on the terminal's check line, where its result in brackets follows it (or an
 * attempt's turn, before "(attempt 1 has no such turn)"): the welcome turn "turn 0, the welcome
 * (fail)", not "turn 0 (welcome) (fail)", two brackets in a row (docs/personas.md, "The checks";
 * docs/fixtures.md, "Reports"); another turn as turnWords says it.
 */
function welcomeBeforeResult(index: number): string {
  return index === 0 ? 'turn 0, the welcome' : turnWords(index);
}

/** The script's line (its section's mark, label, status, file, checks or error), its open checks, then its first difference. */
function personaLines(v: ScriptView, style: { mark: string; colour: Colour }, indent: string, paint: Paint, fit: Fit, o: { where: string; file: string }, own?: Own): string[] {
  const p = v.item;
  // An errored script's checks ran on the turns that completed (docs/personas.md, "How verdicts combine"): not the script's result.
  // A repeated script's line names the first attempt with its verdict, and lists that attempt's open checks below.
  const named = lineChecks(p);
  const checks = `${p.errored ? 'on the turns that completed: ' : ''}${named.prefix}${named.error === null ? checksCount(named.checks) : clipKeepingFix(cliWordsOf(named.error, o.file), 300)}`;
  const last = p.turns[p.turns.length - 1];
  // Who ended a scripted conversation, in the comment's words (persona.ts, scriptEndedWords), and what it left unsent.
  const ended = scriptEndedWords(p);
  const unsent = ended === null ? '' : ` · ended: ${ended}${p.unsent.length > 0 ? `, ${thousands(p.unsent.length)} not sent` : ''}`;
  // In the CLI's words, as its checks' lines say it (a simulator's fix names --judge-url, not the Action's input).
  const fault = p.errored ? null : faultLine(p.simulation);
  const said = own === undefined ? p.error : (own.text ?? own.long);
  const error = said ? cliWordsOf(said, o.file) : said;
  const detail = p.errored ? (error ? `${terminalLine(clipKeepingFix(error, 300))} · ${checks}` : checks) : fault !== null ? `${terminalLine(clipDetail(cliWordsOf(fault, o.file), 300))} · ${checks}` : `${checks}${unsent}`;
  const head = `${indent}${style.mark} ${SCRIPT_MARK_WORDS} ${terminalLine(v.label)} · ${terminalLine(cliWordsOf(v.status.join(' · '), o.file))} · ${terminalLine(v.file)}:${v.line}${ownSuffix(own)}`;
  const lines = [paint(style.colour, fit(head)), fit(`${indent}    ${terminalLine(detail)}`)];
  // The calls the turn it stopped on had begun when its stream was cut short, as a fixture's (docs/presets.md, "Streamed replies").
  if (p.errored) lines.push(...begunLine(p.errorToolCalls, indent, fit));
  lines.push(...otherAttemptsLine(p, indent, paint, fit));
  // A simulated user (docs/simulated-users.md): from which turn it was live, how it ended, its calls.
  if (p.simulation) lines.push(paint('grey', fit(`${indent}    simulated user: ${terminalLine(clip(simulationFacts(p, p.simulation).join(' · '), 600))}`)));
  for (const c of named.checks) {
    if (c.status === 'pass') continue;
    const subject = checkSubject(c, welcomeBeforeResult);
    // The call that decided a tool check, when it was seen only in spans (docs/traces.md, "In the reports").
    const mark = c.kind === 'toolCalled' || c.kind === 'toolNotCalled' ? matchMark(c) : '';
    // The result in words after the name, as the comment says it: ✗ and ○ alone are marks a screen reader names.
    const text = `${indent}    ${CHECK_MARK[c.status].mark} ${CHECK_NAMES[c.kind]}${subject ? ` ${terminalLine(clip(subject, 120))}` : ''} (${CHECK_STATUS_WORDS[c.status]}): ${terminalLine(clipDetail(cliWordsOf(withoutTurn(c, checkDetail(c)), o.file), 300))}${mark}`;
    lines.push(paint(CHECK_MARK[c.status].colour, fit(text)));
  }
  // A repeated script's checks above may be another attempt's than the transcript's: the reply they read, where it differs.
  const dt = decisiveTurn(p);
  if (dt !== null) lines.push(...attemptTurnLines(dt, indent, o.where, paint, fit));
  // The attempt's turn the line's meaning names ("attempt 2: turn 3 changed in meaning: ..."), where it is another (docs/meaning.md, "Repeats").
  const meant = namedAttemptTurn(p);
  if (meant !== null) lines.push(...attemptTurnLines(meant, indent, o.where, paint, fit));
  // The turn that decided the drift comes first, when it is not the first difference (docs/meaning.md,
  // "Persona scripts"); the first difference, a rewording or a message or route change then, follows.
  const shown = shownTurns(p);
  const d = shown.first;
  const apart = shown.meaning;
  if (apart !== null) {
    const words = terminalLine(clip(apart.words, 300));
    lines.push(...diffLines(apart.baseline.reply, apart.turn.reply, words, (marks) => `${words} ${baselineKey(marks, apart.turn.source)}`, `${indent}    `, o.where, paint, fit));
  }
  if (shown.message !== null) lines.push(paint('grey', fit(`${indent}    ${terminalLine(clip(messageTurnWords(shown.message), 300))}`)));
  if (d !== null && d.baseline && d.current && d.baseline.reply !== d.current.reply) {
    const was = shown.firstWas;
    const asked = d.baseline.message !== d.current.message ? `, ${messageChanged(d.current).replace(/^T/, 't')}` : '';
    // The turn as every surface names it (turnName): the welcome turn "Turn 0 (welcome)".
    const what = `${turnName(d.turn)} reply vs baseline${was === null ? '' : `, ${was}`}${asked}`;
    const source = d.current.source;
    lines.push(...diffLines(d.baseline.reply, d.current.reply, what, (marks) => `${what} ${baselineKey(marks, source)}`, `${indent}    `, o.where, paint, fit));
  } else if (d !== null) {
    // After a colon, as the same reply's words: "Turn 0 (welcome) (this run ...)" read as two brackets in a row.
    const what = d.current === null ? ': this run has no such turn' : d.baseline === null ? ': the baseline has no such turn' : `: ${terminalLine(clip(sameReplyWords(d.baseline, d.current), 300))}`;
    lines.push(paint('grey', fit(`${indent}    first difference from the baseline: ${turnName(d.turn)}${what}`)));
  } else if (!p.errored && p.baseline === null && last && v.section !== 'unchanged' && !(dt !== null && dt.shown !== null && dt.index === last.index)) {
    const whose = dt === null ? '' : `attempt ${dt.shownNumber}'s `;
    lines.push(paint('grey', fit(`${indent}    ${whose}last reply, ${turnName(last.index)}:`)), ...textLines(last.reply, `${indent}      `, o.where, () => null, paint, fit));
  }
  return lines;
}

