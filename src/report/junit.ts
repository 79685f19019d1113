// JUnit XML for CI systems: one testsuite, one testcase per fixture and per persona script
// (classname = file, name = label, file and line where the item is). fail -> <failure> (for a script: its failed checks),
// not evaluated -> <skipped>, errored -> <error>, each naming its cause (the setting to check);
// a passing item of the Changed section (a change against its baseline, or newly passing) keeps
// a <system-out> saying what changed (docs/cli.md, "What each command does"); the suite's properties say
// whether the run was verified and list the causes.
// Every text is XML-escaped and characters XML 1.0 cannot carry are removed.

import type { Check, DriftVerdict, ErrorKind, PersonaErrorKind, RunRecord, ToolCall } from '../types.js';
import { causeLine, incompleteParts, incompleteText, tallies, unverifiedText, type Cause } from '../evaluate/index.js';
import { clip, clipDetail, oneLine } from './escape.js';
import { jsonText } from '../assertions/format.js';
import { suiteFolderNamedBy } from '../suite/suite-folder.js';
import { turnWords } from '../words.js';
import { buildModel, DRIFT_WORDS, ERROR_KIND_WORDS, routeText, viewOf, type FixtureView, type ReportModel, type ScriptView } from './model.js';
import { meaningOffAfter, withMeaningHead } from './cause-details.js';
import { faultLine, simulationFacts, SOURCE_WORDS } from './simulation.js';
import { sourceMark } from './trace.js';
import { checkDetail, criterionShown, decisiveTurn, lineChecks, matchMark, messageChanged, namedAttemptTurn, notSent, scriptEndedWords, stoppedOn } from './persona.js';
import { BEGUN_WORDS, decisiveAttempt, decisiveReply, namedAttemptReply } from './item-parts.js';

// Not allowed in XML 1.0 (incl. lone surrogates), plus C1 controls and DEL which are discouraged.
const XML_INVALID = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// Bidi overrides and isolates: agent text (a reply, a tool call read from spans) that would show the
// rest of its line reversed in a test viewer is dropped, as on every other surface (docs/security.md).
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

export function xmlText(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/[&<>"']/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

export function xmlAttr(text: string): string {
  return xmlText(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * A failure's and an error's `type` in the words every surface uses ("newly failing", "timeout"), not
 * the record's values: dorny/test-reporter shows it before the message ("newly failing: ...").
 */
function failureType(drift: DriftVerdict | null): string {
  return drift === null ? 'fail' : DRIFT_WORDS[drift];
}

function errorType(kind: ErrorKind | PersonaErrorKind | null): string {
  return kind === null ? 'errored' : ERROR_KIND_WORDS[kind];
}

function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

/** An item's cause, as the run's verification decided it. */
type CauseOfItem = (item: FixtureView['item'] | ScriptView['item']) => Cause | null;

/** "cause: HTTP 404 from https://host/api/chat: check agent-path or agent.url", for an item not verified. */
function causeText(cause: Cause | null): string | null {
  // A cause with no hint is the detail itself: nothing to add.
  return cause === null || cause.hint === null ? null : `cause: ${cause.what}: ${cause.hint}`;
}

/**
 * An item's status, one line as every surface shows it ("fail 1/3 (flaky) · newly failing · pass rate ..."):
 * a tool name the slower step took from the spans may hold a newline.
 */
function statusLine(v: FixtureView | ScriptView): string {
  return oneLine(v.status.join(' · '));
}

function body(v: FixtureView, cause: Cause | null): string {
  const f = v.item;
  const lines = [statusLine(v), f.errored ? f.error : f.detail];
  const why = causeText(cause);
  if (why !== null) lines.splice(1, 0, why);
  if (f.rationale) lines.push(`judge: ${f.rationale}`);
  if (!f.errored) {
    lines.push(`route: ${routeText(f.route)}`);
    if (f.reply !== null) lines.push('', 'reply:', f.reply);
    if (f.baseline && f.drift?.reply === 'different') lines.push('', 'baseline reply:', f.baseline.reply);
    // The detail may name another attempt than the reply's (docs/fixtures.md, "Reports"): its reply follows.
    const decisive = decisiveReply(f);
    if (decisive !== null) lines.push('', `attempt ${decisive.number}'s reply:`, decisive.reply);
    // The attempt the line's meaning names ("changed in meaning: attempt 2: numbers 30 → 14"), where it is another (docs/meaning.md, "Repeats").
    const named = namedAttemptReply(f);
    if (named !== null) lines.push('', `attempt ${named.number}'s reply:`, named.reply);
  } else if (f.reply !== null) {
    // A fixture errored by its spans keeps the reply the agent answered with (docs/traces.md, "Fixtures").
    lines.push(`route: ${routeText(f.route)}`, '', 'reply:', f.reply);
  }
  // An errored fixture keeps the tool calls of its turn: those its spans showed beside the reply, or,
  // with no reply, those a stream cut short had begun (docs/presets.md, "Streamed replies"), as report.html lists them.
  const calls = f.errored ? (f.toolCalls ?? []) : [];
  if (calls.length > 0) {
    lines.push('', f.reply === null ? `${BEGUN_WORDS}:` : 'tool calls:', ...calls.map((call) => `  ${callText(call)}${sourceMark(call)}`));
  }
  return xmlText(lines.join('\n'));
}

/** `tool refund {"order": "A1"}`: a tool call as a JUnit body names it, a fixture's and a script's alike, its input as its checks write JSON (jsonText). */
function callText(call: ToolCall): string {
  return `tool ${call.tool} ${jsonText(call.input)}`;
}

/**
 * A test case's opening tag, a fixture's and a script's alike: classname the file, name the label,
 * and `file` and `line`, which the test viewers that annotate a pull request read for where the item
 * is (a viewer that has no `file` takes the last dot-part of the classname, `yml`, for one).
 * The classname stays the path as written, though Jenkins splits it at its last dot into package
 * and class: the other viewers show it as it is, and why is in docs/cli.md, "What each command does".
 */
function caseOpen(item: { file: string; label: string; line: number; durationMs: number }): string {
  const file = xmlAttr(item.file);
  const line = Number.isInteger(item.line) && item.line > 0 ? ` line="${item.line}"` : '';
  return `    <testcase classname="${file}" name="${xmlAttr(item.label)}" file="${file}"${line} time="${seconds(item.durationMs)}"`;
}

function testcase(v: FixtureView, causeOf: CauseOfItem): string {
  const f = v.item;
  const open = caseOpen(f);
  const message = (text: string): string => xmlAttr(clipDetail(text, 1000));
  const cause = causeOf(f);
  if (f.errored) {
    const detail = f.error;
    return `${open}>\n      <error message="${message(detail)}" type="${errorType(f.errorKind)}">${body(v, cause)}</error>\n    </testcase>`;
  }
  if (f.verdict === 'fail') {
    return `${open}>\n      <failure message="${message(f.detail)}" type="${failureType(f.drift?.verdict ?? null)}">${body(v, null)}</failure>\n    </testcase>`;
  }
  if (f.verdict !== 'pass') {
    const why = causeText(cause);
    const text = message(`not evaluated (not a failure): ${f.detail}${why === null ? '' : `; ${why}`}`);
    // The reply that could not be judged, where CI shows a skip's text (GitLab's details), as the
    // terminal and the comment show it; a script's transcript likewise below.
    if (f.reply !== null) return `${open}>\n      <skipped message="${text}">${body(v, null)}</skipped>\n    </testcase>`;
    return `${open}>\n      <skipped message="${text}"/>\n    </testcase>`;
  }
  // A pass that changed (docs/cli.md, "What each command does"): the test passed, what changed is its output.
  if (v.section === 'reworded') return rewordedCase(open, v);
  if (v.section === 'changed') return `${open}>\n      <system-out>${body(v, null)}</system-out>\n    </testcase>`;
  return `${open}/>`;
}

/** A check's line; a criterion cut as the comment cuts it (criterionShown), XML-escaped with the line after. */
function checkLine(c: Check): string {
  const mark = c.kind === 'toolCalled' || c.kind === 'toolNotCalled' ? matchMark(c) : '';
  return `${c.kind}${c.kind === 'criterion' ? ` "${criterionShown(c.expected)}"` : ''}: ${c.status === 'not_evaluated' ? 'not evaluated' : c.status} (${checkDetail(c)})${mark}`;
}

function personaBody(v: ScriptView, cause: Cause | null): string {
  const p = v.item;
  // The script's line, as a fixture's body starts and every surface says it: its verdict with k/N and
  // "(flaky)", its drift and its pass rate ("fail 1/3 (flaky) · newly failing · pass rate 9/10 → 1/3 ...",
  // docs/fixtures.md, "Reports"; docs/statistics.md, "Beside the drift"); then the cause and the error.
  const lines = [statusLine(v)];
  const why = causeText(cause);
  if (why !== null) lines.push(why);
  if (p.errored) lines.push(p.error);
  const s = p.simulation;
  if (s) lines.push(`simulated user: goal: ${s.goal}`, `  ${simulationFacts(p, s).join(' · ')}`);
  lines.push(`visited: ${p.visited.join(', ') || 'none'}`, '', 'checks:', ...p.checks.map((c) => `  ${checkLine(c)}`));
  // The checks above are the attempt shown; the first attempt with the script's verdict follows when another.
  const decisive = p.errored ? null : decisiveAttempt(p);
  if (decisive !== null) lines.push('', `attempt ${decisive.number}'s checks:`, ...decisive.attempt.checks.map((c) => `  ${checkLine(c)}`));
  // The reply those checks read, where it is not the transcript's below.
  const dt = decisiveTurn(p);
  if (dt !== null && dt.turn !== null) lines.push(`attempt ${dt.number}'s ${turnWords(dt.index)}: ${dt.turn.reply}`);
  // The attempt's turn the line's meaning names ("attempt 2: turn 3 changed in meaning: ..."), where it is another (docs/meaning.md, "Repeats").
  const named = p.errored ? null : namedAttemptTurn(p);
  if (named !== null && named.turn !== null) lines.push(`attempt ${named.number}'s ${turnWords(named.index)}: ${named.turn.reply}`);
  const shownNumber = dt?.shownNumber ?? named?.shownNumber ?? null;
  lines.push('', shownNumber === null ? 'transcript:' : `transcript (attempt ${shownNumber}):`);
  for (const [i, t] of p.turns.entries()) {
    if (t.message !== null) lines.push(`  [${t.index}] User${t.source === undefined ? '' : ` (${SOURCE_WORDS[t.source]})`}: ${t.message}`);
    // A message that is not the baseline's at this turn, as the comment says it (docs/simulated-users.md, "In the comment and the other reports").
    const was = p.errored ? undefined : p.baseline?.transcript[i];
    if (t.message !== null && was !== undefined && was.message !== null && was.message !== t.message) lines.push(`  [${t.index}] ${messageChanged(t)}; the baseline sent: ${was.message}`);
    for (const call of t.toolCalls ?? []) lines.push(`  [${t.index}] ${callText(call)}${call.mocked || p.toolMode === 'live' ? '' : ' (not mocked)'}${sourceMark(call)}`);
    lines.push(`  [${t.index}] Agent (${routeText(t.route)}): ${t.reply}`);
  }
  const stopped = stoppedOn(p);
  const at = stopped === null ? '  ' : `  [${stopped.index}] `;
  if (stopped !== null) lines.push(`${at}User: ${stopped.message}`);
  // The calls the turn it stopped on had begun when its stream was cut short, under its message, as the comment lists them (docs/presets.md, "Streamed replies").
  for (const call of p.errorToolCalls ?? []) lines.push(`${at}${callText(call)} (begun before the answer was cut short)`);
  if (stopped !== null) lines.push(`${at}the run stopped: no answer to record`);
  for (const m of notSent(p)) lines.push(`  unsent: ${m}`);
  // Who ended a scripted conversation, in the comment's words (docs/personas.md, "Baselines and drift").
  const ended = scriptEndedWords(p);
  if (ended !== null) lines.push(`  ended: ${ended}`);
  return xmlText(lines.join('\n'));
}

/** One test case per script; the failed checks are the failure's message. */
function personaTestcase(v: ScriptView, causeOf: CauseOfItem): string {
  const p = v.item;
  const open = caseOpen(p);
  const message = (text: string): string => xmlAttr(clipDetail(text, 1000));
  if (p.errored) {
    return `${open}>\n      <error message="${message(p.error)}" type="${errorType(p.errorKind)}">${personaBody(v, causeOf(p))}</error>\n    </testcase>`;
  }
  if (p.verdict === 'fail') {
    // A repeated script: the failed checks of the first attempt that failed, named (persona.ts lineChecks).
    const named = lineChecks(p);
    const failed = `${named.prefix}${named.error ?? named.checks.filter((c) => c.status === 'fail').map(checkLine).join('; ')}`;
    return `${open}>\n      <failure message="${message(failed)}" type="${failureType(p.drift.verdict)}">${personaBody(v, null)}</failure>\n    </testcase>`;
  }
  if (p.verdict === 'not_evaluated') {
    // A simulator fault is the reason, not the checks it left unmeasured (docs/simulated-users.md).
    const named = lineChecks(p);
    const skipped = faultLine(p.simulation) ?? `${named.prefix}${named.checks.filter((c) => c.status === 'not_evaluated').map(checkLine).join('; ')}`;
    const why = causeText(causeOf(p));
    const text = message(`not evaluated (not a failure): ${skipped}${why === null ? '' : `; ${why}`}`);
    // Its line and transcript where CI shows a skip's text (GitLab's details), as a not-evaluated
    // fixture's reply: the replies that could not be judged (a simulated script's, who wrote each message).
    return `${open}>\n      <skipped message="${text}">${personaBody(v, null)}</skipped>\n    </testcase>`;
  }
  if (v.section === 'reworded') return rewordedCase(open, v);
  if (v.section === 'changed') return `${open}>\n      <system-out>${personaBody(v, null)}</system-out>\n    </testcase>`;
  return `${open}/>`;
}

/** A reworded item passes; its one line (verdict, "reply changed", how the meaning was decided) is its output (docs/cli.md). */
function rewordedCase(open: string, v: FixtureView | ScriptView): string {
  return `${open}>\n      <system-out>${xmlText(statusLine(v))}</system-out>\n    </testcase>`;
}

/**
 * The suite's properties: whether the run was verified, the "Not verified" line and each cause
 * with its share (one cause = error class, HTTP status and URL), and an incomplete merge.
 */
function properties(run: RunRecord, model: ReportModel): string[] {
  const v = model.verification;
  const props: [string, string][] = [['verified', String(v.verified)]];
  const text = unverifiedText(v);
  if (text !== null) props.push(['not-verified', text]);
  for (const g of v.causes) props.push(['cause', causeLine(g, v.errored + v.notEvaluated)]);
  if (run.incomplete != null) props.push(['incomplete', incompleteText(run.incomplete)]);
  return ['    <properties>', ...props.map(([name, value]) => `      <property name="${name}" value="${xmlAttr(clip(value, 2000))}"/>`), '    </properties>'];
}

export function renderJUnit(run: RunRecord): string {
  const personas = run.personas ?? [];
  const model = buildModel(run);
  // Each item's cause is the group the verification decided it into (src/evaluate/causes.ts,
  // causeGroups), the one the comment and the terminal list it under: never decided again here.
  const causeOfItem: CauseOfItem = (item) => model.decided.get(item) ?? null;
  const t = personas.length === 0 ? model.tallies : tallies([...run.fixtures, ...personas]);
  // An incomplete merge (a shard missing or excluded) is a test case of its own, in error: as a
  // property only, most CI viewers showed a merge without a shard's items as green (docs/cli.md,
  // "report").
  const incomplete = run.incomplete == null ? null : incompleteParts(run.incomplete);
  // Its file is the suite folder whose shards it merges, which the checkout has: without one,
  // mikepenz/action-junit-report looked for a file named `agent-replay.*` anywhere in the
  // repository and annotated the first it found (docs/cli.md, "report"). Records without
  // `suitePath` (made outside a git repository, or by an older agent-replay) name it by their
  // items' files, as the other test cases' `file` and the comment's file references do.
  const folder = run.suitePath ?? [...run.fixtures, ...personas].map((i) => suiteFolderNamedBy(i.file)).find((f) => f !== null);
  const suiteFile = folder === undefined ? '' : ` file="${xmlAttr(folder)}"`;
  const extra = incomplete === null ? 0 : 1;
  const counts = `tests="${run.fixtures.length + personas.length + extra}" failures="${t.failed}" errors="${t.errored + extra}"`;
  const time = `time="${seconds(run.durationMs)}"`;
  const name = xmlAttr(run.tool.name);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // `skipped` is the suite's count only: JUnit's schemas have none on <testsuites> (Jenkins' xUnit
    // plugin rejects a file that has one), and the viewers count skips from the suite or its cases.
    `<testsuites name="${name}" ${counts} ${time}>`,
    `  <testsuite name="${name}" ${counts} skipped="${t.notEvaluated}" ${time} timestamp="${xmlAttr(run.startedAt)}">`,
    ...properties(run, model),
    ...[...run.fixtures, ...personas].map((item) => {
      const v = withMeaningHead(viewOf(model, item), undefined, meaningOffAfter(item, run));
      return v.kind === 'script' ? personaTestcase(v, causeOfItem) : testcase(v, causeOfItem);
    }),
    ...(incomplete === null
      ? []
      : [`    <testcase classname="${name}" name="incomplete merge"${suiteFile} time="0">\n      <error message="${xmlAttr(clip(incomplete, 1000))}" type="incomplete merge"/>\n    </testcase>`]),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
