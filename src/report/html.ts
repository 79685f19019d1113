// report.html: one self-contained page for a run (docs/action.md#reporthtml). No network: one
// inline stylesheet and one inline script, both allowed by hash in a strict Content-Security-Policy
// (nothing else may load or run). Pure: the same record and extras always give the same bytes.
//
// What the page holds, in the order a reviewer needs it: the headline; what needs attention (the
// newly failing items, then the not evaluated and errored ones), open with their details; then
// the numbers (tallies, agreement per conversation, file and persona tag, coverage, the agreement
// trend as inline SVG; a panel with nothing to show is left out); then filters by verdict and
// drift and every other item as a row in its section. A row's
// detail (side-by-side baseline / new reply with the changed words marked, the persona transcript
// with routes and tool calls) is drawn by the script when the row is opened, from a JSON data block.
//
// Escaping: every text written into the markup goes through `h` (entities for & < > " ', control
// and bidi characters dropped); the data block is JSON with < > & U+2028 U+2029 as \u escapes and
// the same characters dropped from its strings, read with JSON.parse(textContent); the script only
// ever sets textContent.

import type { CoverageResult, DriftVerdict, RunRecord } from '../types.js';
import { agreementReport, formatAgreement, type Agreement, type AgreementGroup, type AgreementReport } from '../evaluate/agreement.js';
import { incompleteText, MIXED_SELECTION } from '../evaluate/shard.js';
import { suiteEditsParts } from './suite-edits.js';
import { causeLine, type CauseGroup } from '../evaluate/index.js';
import type { ReportContext } from './context.js';
import { DEFAULT_CONTEXT } from './context.js';
import { firstLineOf } from '../assertions/format.js';
import { clip, clipDetail, escapeHtml, isolateRightToLeft, normalizeBlock, oneLine, stripControl } from './escape.js';
import { CSP, SCRIPT, STYLE } from './html/assets.js';
import { trendSvg, type HtmlTrendPoint } from './html/chart.js';
import { latencyPanel } from './html/latency.js';
import { forestPanel } from './html/forest.js';
import { forestRows, tooFewText } from './rates.js';
import { agreementBasis } from './evaluations.js';
import { compactCount, usageChangeWords } from './usage.js';
import { spendText } from './spend.js';
import { usageSummary } from '../evaluate/usage.js';
import { itemsData, scriptJson } from './html/data.js';
import { faultLine, liveWords } from './simulation.js';
import { lineChecks, lineWords } from './persona.js';
import { capitalized } from '../words.js';
import { blobUrl } from './item-parts.js';
import { judgeFallbackText } from './judge-mode.js';
import { docsLinks } from '../version.js';
import { meaningOffAfter, withMeaningHead } from './cause-details.js';
import { durationText } from '../words.js';
import {
  buildModel,
  DRIFT_WORDS,
  estimateParts,
  gateFailsText,
  headlineParts,
  headlineText,
  removedWords,
  flakyText,
  isPersona,
  itemsCount,
  probesCount,
  meaningModelShown,
  SCRIPT_MARK,
  SECTION_WORDS,
  shortSha,
  thousands,
  topCauseText,
  viewOf,
  type GateView,
  type Item,
  type ItemView,
  type ReportModel,
  type SectionKey,
} from './model.js';

export type { HtmlTrendPoint } from './html/chart.js';

export interface HtmlExtras {
  /** Agreement to show; default: computed from the record (evaluate/agreement.ts). */
  agreement?: AgreementReport;
  /** Coverage to show; default: the record's own `coverage` (absent when config.yml lists none). */
  coverage?: CoverageResult | null;
  /** Agreement of recorded default-branch runs, oldest first, for the trend chart (check mode's `trend.points`). */
  trend?: readonly HtmlTrendPoint[];
  /**
   * File links to the repository at the run's commit, when known; and the suite's folder, named
   * under the heading as the comment and the job summary name it (docs/action.md, "Two suites in
   * one repository").
   */
  context?: Pick<ReportContext, 'repositoryUrl' | 'headSha' | 'suite' | 'gate'>;
}

// A cause's line is our words with its fix, which is said whole (docs/troubleshooting.md, "Not evaluated"): a longer bound than an item's detail.
const LIMITS = { label: 200, detail: 300, cause: 1000, file: 200, group: 40, suite: 100 } as const;

/** Text for a quoted attribute value: entities, controls and bidi overrides dropped, one line. */
function attr(text: string): string {
  return escapeHtml(stripControl(oneLine(text)));
}

/**
 * Text for HTML content: attr's, with each run of right-to-left text isolated, as the comment
 * isolates it (escape.ts isolateRightToLeft; docs/meaning.md, "Languages and locales"). Text with
 * no right-to-left character is attr's, to the byte.
 */
function h(text: string): string {
  return isolateRightToLeft(attr(text));
}

/** h of one of our own lines (a cause, a why, a notice): the address of an agent-replay page in it a link (escape.ts). */
function hLinked(text: string): string {
  return isolateRightToLeft(docsLinks(stripControl(oneLine(text)), escapeHtml, (url, label) => `<a href="${escapeHtml(url)}" rel="noreferrer noopener">${escapeHtml(label)}</a>`));
}

type VerdictKey = 'pass' | 'fail' | 'not_evaluated' | 'errored';

function verdictKey(f: Item): VerdictKey {
  if (f.errored) return 'errored';
  return f.verdict ?? 'not_evaluated';
}

function driftKey(f: Item): string {
  return f.errored ? 'errored' : f.drift.verdict;
}

/** The "changed" chip: the item is in the Changed section (model.ts sectionOf), as the comment shows it. */
function changed(v: Pick<ItemView, 'section'>): boolean {
  return v.section === 'changed';
}

/**
 * A row's file: `text`, the words its <summary> shows, and `link`, the link to it at the head
 * commit when the repository's address is known (else null). The link is not put in the summary: a
 * link inside the control that opens the row is mishandled by the keyboard and screen readers
 * (docs/action.md, "Accessibility"); it opens the row's body instead.
 */
function fileRef(f: Item, ctx: HtmlExtras['context']): { text: string; link: string | null } {
  const where = h(clip(f.line > 0 ? `${f.file}:${f.line}` : f.file, LIMITS.file));
  const text = `<span class="file">${where}</span>`;
  const url = ctx === undefined ? null : blobUrl(ctx, f.file, f.line);
  if (!url) return { text, link: null };
  return { text, link: `<a class="file" href="${escapeHtml(url)}" rel="noreferrer noopener">${where}</a>` };
}

/** A row's why line as its <summary> shows it: text, an agent-replay page's address by its label; the opened row links it (its body, assets.ts linked). */
function whyText(why: string): string {
  return docsLinks(stripControl(oneLine(why)), escapeHtml, (_url, label) => escapeHtml(label));
}

function whyLine(f: Item): string {
  if (isPersona(f)) {
    if (f.errored) return f.error;
    const fault = faultLine(f.simulation);
    if (fault !== null) return fault;
    // The comment's words (persona.ts personaSummary): which attempt a repeated script's checks are
    // (docs/fixtures.md, "Reports"), the check by name, and where the user was simulated from.
    const live = f.simulation ? liveWords(f, f.simulation) : null;
    const shown = lineChecks(f);
    return `${lineWords(shown)}${live === null ? '' : ` · ${live}`}`;
  }
  return f.errored ? f.error : f.detail;
}

function row(v: ItemView, index: number, ctx: HtmlExtras['context'], open: boolean): string {
  const f = v.item;
  const verdict = verdictKey(f);
  const why = firstLineOf(normalizeBlock(whyLine(f) ?? '').trim());
  // No link inside the <summary>, a control: the file's goes below it (fileRef), the why line's is the opened body's.
  const file = fileRef(f, ctx);
  const said = why ? whyText(clipDetail(why, LIMITS.detail)) : '';
  const attrs = `data-i="${index}" data-verdict="${verdict}" data-drift="${driftKey(f)}" data-changed="${changed(v) ? 1 : 0}"${v.section === 'reworded' ? ' data-reworded="1"' : ''} data-label="${attr(v.label.toLowerCase())}"`;
  return (
    `<details class="item" ${attrs}${open ? ' open' : ''}><summary>` +
    `<span><span class="pill ${verdict}">${h(v.verdict)}</span></span>` +
    // The script's mark named for what it marks: a screen reader read 🎭 by its Unicode name, "performing arts".
    `<span class="label">${v.kind === 'script' ? `<span role="img" aria-label="persona script">${SCRIPT_MARK}</span> ` : ''}${h(clip(v.label, LIMITS.label))}</span>` +
    `<span class="drift">${h(v.drift.join(' · '))}</span>` +
    file.text +
    (said ? `<span class="why">${said}</span>` : '') +
    `</summary>${file.link === null ? '' : `<p class="src">${file.link}</p>`}<div class="body"></div></details>`
  );
}

function card(kind: string, n: string, k: string): string {
  return `<div class="card ${kind}"><span class="n">${h(n)}</span><span class="k">${h(k)}</span></div>`;
}

function cards(model: ReportModel, a: Agreement, run: RunRecord): string {
  const t = model.tallies;
  // With adaptive attempts the estimate is an upper bound: the range and its reason, as the comment
  // and the terminal say them (docs/statistics.md, "The estimate").
  const { range: usd, cap, upTo } = estimateParts(run.estimate);
  // Of items' verdicts, in the comment's words (docs/evaluations.md, "Agreement"): "604 of 606 items
  // passed", never a bare "604 / (604 + 2)" that a repeated run's reader could take for attempts.
  const agreeNote = `agreement: ${agreementBasis(a)}`;
  // How many passes checked nothing, as the comment's tally says them ("604 (601 probes)").
  const probes = model.probes > 0 ? ` (${probesCount(model.probes)})` : '';
  return (
    `<section class="cards" aria-label="Tallies">` +
    card('agree', formatAgreement(a), agreeNote) +
    card('pass', thousands(t.passed), `passed${probes}`) +
    // Zero tallies are not shown, except passed (README "The PR comment").
    (t.failed > 0 ? card('fail', thousands(t.failed), 'failed') : '') +
    (t.notEvaluated > 0 ? card('', thousands(t.notEvaluated), 'not evaluated (not in agreement)') : '') +
    (t.errored > 0 ? card('', thousands(t.errored), 'errored (not in agreement)') : '') +
    card('', thousands(model.total), itemsCount(model)) +
    card('', `≈ ${usd}`, `estimated cost (cap ${cap}${upTo})${run.estimate.aboveCap && run.estimate.confirmed ? ', ran above the cap: confirmed' : ''}${spentNote(run)}`) +
    tokensCard(run) +
    `</section>`
  );
}

/**
 * The run's pass-rate change under the cards, as the comment has it under its agreement line
 * (docs/statistics.md, "The run's pass-rate line"): the interval, and McNemar's test when no item
 * with a baseline is repeated; nothing without the run's stats.
 */
function runRateBlock(model: ReportModel): string {
  const r = model.runRate;
  // The too_few items whose rate did not fall, once (docs/statistics.md, "Too few attempts, said once").
  const t = model.tooFew === null ? '' : `<p class="run-rate">🔍 ${capitalized(tooFewText(model.tooFew, (flag) => `<code>${h(flag)}</code>`))}</p>\n`;
  if (r === null) return t;
  return `<p class="run-rate">📈 <b>${h(capitalized(r.head))}</b>: ${h([r.detail, r.mcnemar].filter((x) => x !== null).join(' · '))}</p>\n${t}`;
}

/**
 * What the run asked for (docs/semantics.md, "Cost"), under the estimate as the other surfaces put
 * it beside it: " · 24 agent turns, 3 judge calls made"; nothing for a record written before spend.
 */
function spentNote(run: RunRecord): string {
  const spent = spendText(run.spend);
  return spent === null ? '' : ` · ${spent}`;
}

/** Tokens the agent reported (docs/latency.md, "Usage"), beside the estimate; nothing when no turn reported any. */
function tokensCard(run: RunRecord): string {
  const u = usageSummary(run.fixtures, Array.isArray(run.personas) ? run.personas : []);
  if (u === null) return '';
  const words = usageChangeWords(u);
  const change = `${words.change === null ? '' : `, ${words.change}`}${words.leftOut === null ? '' : `; ${words.leftOut}`}`;
  return card('', compactCount(u.total.inputTokens + u.total.outputTokens), `agent tokens reported (${compactCount(u.total.inputTokens)} in, ${compactCount(u.total.outputTokens)} out${change})`);
}

function bar(percent: number | null): string {
  const w = percent === null ? 0 : Math.round(percent * 0.6);
  return `<svg class="bar" width="60" height="8" aria-hidden="true"><rect class="bg" width="60" height="8" rx="2"/><rect class="fg" width="${w}" height="8" rx="2"/></svg>`;
}

/**
 * A group's table, its first column headed by what a group is ("conversation"): a column with no
 * heading is read with none. The bar's column, which draws the agreement figure beside it, is
 * hidden from a screen reader, its heading and its cells: an empty heading named nothing.
 */
function groupTable(title: string, head: string, groups: readonly AgreementGroup[], open: boolean): string {
  if (groups.length === 0) return '';
  const shown = groups.slice(0, LIMITS.group);
  const more = groups.length - shown.length;
  const rows = shown
    .map((g) => {
      const aside = [g.notEvaluated ? `${thousands(g.notEvaluated)} not evaluated` : '', g.errored ? `${thousands(g.errored)} errored` : ''].filter(Boolean).join(', ');
      // A file's path may break after a slash (a narrow window); a conversation's name stays whole.
      return `<tr><td>${h(clip(g.key, 80)).replace(/\//g, '/<wbr>')}</td><td class="num">${h(formatAgreement(g))}</td><td aria-hidden="true">${bar(g.percent)}</td><td class="num">${thousands(g.passed)} / ${thousands(g.passed + g.failed)}</td><td class="aside">${h(aside)}</td></tr>`;
    })
    .join('');
  const tail = more > 0 ? `<p class="meta">and ${thousands(more)} more</p>` : '';
  return `<details${open ? ' open' : ''}><summary>${h(title)} (${groups.length})</summary><table><thead><tr><th scope="col">${h(head)}</th><th scope="col" class="num">agreement</th><th class="bar" aria-hidden="true"></th><th scope="col" class="num">passed / decided</th><th scope="col">left out</th></tr></thead><tbody>${rows}</tbody></table>${tail}</details>`;
}

/**
 * The agreement per group; nothing when no group has a figure (the card shows the overall one). A
 * file is a fixture's or a persona script's: "By file", as the comment's "Agreement by conversation
 * and file" and the terminal's "by file" say it.
 */
function agreementPanel(a: AgreementReport): string {
  if (a.byConversation.length === 0 && a.byFile.length === 0 && a.byPersona.length === 0) return '';
  const o = a.overall;
  const lead = `<p><b>${h(formatAgreement(o))}</b> agreement: ${h(agreementBasis(o))}.</p>`;
  const groups = groupTable('By conversation', 'conversation', a.byConversation, true) + groupTable('By file', 'file', a.byFile, false) + groupTable('By persona tag', 'persona tag', a.byPersona, false);
  return `<div class="panel"><h3>Agreement</h3>${lead}${groups}</div>`;
}

function names(list: readonly string[], cls: string): string {
  const shown = list.slice(0, 60);
  const more = list.length > shown.length ? `<li>and ${thousands(list.length - shown.length)} more</li>` : '';
  return `<ul class="names ${cls}">${shown.map((n) => `<li>${h(clip(n, 80))}</li>`).join('')}${more}</ul>`;
}

/** Coverage of the listed conversations; nothing when config.yml lists none. */
function coveragePanel(c: CoverageResult | null): string {
  if (c === null) return '';
  const visitedListed = c.listed.length - c.gaps.length;
  const lead = `<p><b>${thousands(visitedListed)} of ${thousands(c.listed.length)}</b> listed conversations visited.</p>`;
  const gaps = c.gaps.length > 0 ? `<p>Gaps: never visited by any item, any turn (${c.gaps.length})</p>${names(c.gaps, 'gap')}` : '<p>No gaps: every listed conversation was visited.</p>';
  const unknown = c.unknown.length > 0 ? `<p>Visited but not listed (${c.unknown.length})</p>${names(c.unknown, '')}` : '';
  return `<div class="panel"><h3>Coverage</h3>${lead}${gaps}${unknown}</div>`;
}

function trendPanel(points: readonly HtmlTrendPoint[] | undefined): string {
  const svg = trendSvg(points ?? []);
  if (svg === null) return '';
  return `<div class="panel"><h3>Agreement trend (default branch)</h3>${svg}</div>`;
}

function chips(name: string, options: readonly { value: string; text: string; n: number }[]): string {
  return options
    .map((o, i) => `<label class="chip"><input type="radio" name="${name}" value="${o.value}"${i === 0 ? ' checked' : ''}><span>${h(o.text)} <b>${thousands(o.n)}</b></span></label>`)
    .join('');
}

function filters(views: readonly ItemView[]): string {
  const items = views.map((v) => v.item);
  const count = (p: (f: Item) => boolean): number => items.filter(p).length;
  const verdicts: Array<[string, string]> = [
    ['pass', 'pass'],
    ['fail', 'fail'],
    ['not_evaluated', 'not evaluated'],
    ['errored', 'errored'],
  ];
  // The verdict drift's own words (model.ts), worst first; an errored item was not compared.
  const order: readonly DriftVerdict[] = ['newly_failing', 'still_failing', 'newly_passing', 'still_passing', 'no_baseline', 'not_evaluated'];
  const drifts: Array<[string, string]> = [...order.map((k): [string, string] => [k, DRIFT_WORDS[k]]), ['errored', 'not compared']];
  const v = [{ value: 'all', text: 'all', n: items.length }, ...verdicts.map(([value, text]) => ({ value, text, n: count((f) => verdictKey(f) === value) })).filter((o) => o.n > 0)];
  const d = [
    { value: 'all', text: 'all', n: items.length },
    { value: 'changed', text: 'changed', n: views.filter(changed).length },
    // The same meaning in other words (docs/meaning.md): its own chip, as its own section.
    { value: 'reworded', text: 'reworded', n: views.filter((x) => x.section === 'reworded').length },
    ...drifts.map(([value, text]) => ({ value, text, n: count((f) => driftKey(f) === value) })),
  ].filter((o, i) => i === 0 || o.n > 0);
  return (
    `<nav class="filters" aria-label="Filters">` +
    `<fieldset><legend>Verdict</legend>${chips('verdict', v)}</fieldset>` +
    `<fieldset><legend>Drift</legend>${chips('drift', d)}</fieldset>` +
    `<input type="search" id="ar-search" placeholder="Filter by label" aria-label="Filter by label">` +
    `<span class="shown" id="ar-shown" role="status">${thousands(items.length)} of ${thousands(items.length)} shown</span>` +
    `</nav>`
  );
}

function metaLine(run: RunRecord): string {
  const parts = [
    shortSha(run.commit) ? `commit ${shortSha(run.commit)}` : null,
    `started ${run.startedAt}`,
    durationText(run.durationMs),
    run.agent.host ? `agent ${run.agent.host}` : null,
    run.judge.name ? `judge ${run.judge.name}` : null,
    meaningModelShown(run) !== null ? `meaning judge ${meaningModelShown(run) as string}` : null,
    `${run.tool.name} ${run.tool.version}`,
  ].filter((p): p is string => p !== null);
  return `<p class="meta">${parts.map(h).join(' · ')}</p>`;
}

/**
 * The judge fell back from structured output to the plain prompt (docs/configuration.md,
 * "Structured output"): one calm line under the meta line, as the summary and the terminal say it.
 */
function judgeModeLine(run: RunRecord): string {
  if (run.judge.structured !== false) return '';
  return `\n<p class="meta judge-mode">${h(judgeFallbackText(run.judge.structuredFallback, (reason) => `"${clip(oneLine(reason), 300)}"`))}</p>`;
}

function notices(run: RunRecord, total: number): string {
  const out: string[] = [];
  if (run.shard != null) out.push(`Shard ${run.shard.index}/${run.shard.total} of the suite: this run replayed only its part; the merge of all shards reports the whole suite.`);
  if (run.incomplete != null) out.push(`${incompleteText(run.incomplete)}: this report merges only the shards it was given; the items of a missing shard are not counted and not removed.`);
  if (run.interrupted) out.push(`The run was interrupted: it lists only the ${thousands(total)} items that finished, and the gate was not applied.`);
  const s = run.selection;
  if (s) {
    const why = [s.rerunOf ? `a rerun of what did not pass in ${s.rerunOf}` : '', s.only ? `--only ${s.only.join(',')}` : ''].filter(Boolean).join(', ');
    // Both null only in a merge of shards given different ones (docs/results-json.md): its labels say what was replayed.
    out.push(`Part of the suite: ${why || `shards ${MIXED_SELECTION}`}; ${thousands(s.labels.length)} ${s.labels.length === 1 ? 'item' : 'items'} replayed.`);
  }
  // Baselines whose item is gone (docs/action.md, "The PR comment"): named, as in the comment.
  const removed = run.removed ?? [];
  if (removed.length > 0) {
    const named = removedWords(removed, (b) => `${b.label} (${b.file})`);
    out.push(`Removed (${thousands(removed.length)}): ${named}: accepted baselines whose fixture or persona script is not in the suite now; nothing was replayed for them.`);
  }
  return out.map((n) => `<p class="notice">${hLinked(n)}</p>`).join('') + suiteEditsNotice(run);
}

/**
 * What the pull request changed in its own suite (docs/action.md, "The PR comment", "Suite
 * edited"), in the comment's words: its labels, files and checks each in a <code>.
 */
function suiteEditsNotice(run: RunRecord): string {
  if (run.suiteEdits === undefined) return '';
  const p = suiteEditsParts(run.suiteEdits, (text, max) => `<code>${h(clip(text, max))}</code>`, run.configName);
  const groups = p.groups.map((g) => `<p>${g.head}:</p><ul>${g.lines.map((l) => `<li>${l}</li>`).join('')}</ul>${g.note === undefined ? '' : `<p>${g.note}</p>`}`).join('');
  const unknown = p.unknown === null ? '' : `<p>Not everything could be compared: ${h(clip(p.unknown, LIMITS.detail))}</p>`;
  return `<div class="notice suite-edits"><p><b>${p.title}.</b> ${p.intro}</p>${groups}${unknown}</div>`;
}

/** The flaky items named in the header; nothing when none. */
function flakyNotice(model: ReportModel): string {
  const text = flakyText(model);
  return text === null ? '' : `<p class="notice">${hLinked(text)}</p>`;
}

/**
 * The page's order of sections: what needs attention first (newly failing, then what was not
 * verified), then the rest worst first. Each item is still in exactly one section.
 */
export const HTML_SECTION_ORDER: readonly SectionKey[] = ['newly_failing', 'not_evaluated', 'errored', 'still_failing', 'changed', 'reworded', 'new', 'unchanged'];

/** The sections shown first, open, above the numbers. */
const FIRST_SECTIONS: ReadonlySet<SectionKey> = new Set(['newly_failing', 'not_evaluated', 'errored']);

/** In each first section, this many rows are open on load (their details drawn); the rest are one click away. */
export const OPEN_ROWS = 20;

/**
 * "bad" (something newly fails), "grey" (nothing regressed, the run not verified: never a failure),
 * "warn" (none of these, and the gate fails on what the headline does not say), else "good".
 */
function headlineState(model: ReportModel, gate: GateView | null): 'bad' | 'grey' | 'warn' | 'good' {
  if (model.sections.newly_failing.length > 0 || model.tiers.regressed > 0) return 'bad';
  const parts = headlineParts(model, gate);
  if (model.total === 0 || parts.unverified) return 'grey';
  return parts.icon === '🟠' ? 'warn' : 'good';
}

/** The headline; under it what the gate fails on that it does not say, and the cause shared by most unverified items. */
function headlineBlock(model: ReportModel, gate: GateView | null): string {
  const cause = topCauseText(model);
  const fails = gateFailsText(model, gate, (text) => `<code>${h(clip(text, LIMITS.label))}</code>`, (text) => `<b>${text}</b>`);
  return (
    `<p class="headline ${headlineState(model, gate)}">${h(headlineText(model))}</p>` +
    (fails === null ? '' : `<p class="gate">${fails}</p>`) +
    (cause === null ? '' : `<p class="cause"><b>Cause</b>: ${hLinked(clip(cause, LIMITS.cause))}</p>`)
  );
}

/** An errored or not evaluated section's rows, each cause group under its cause ("all 5: HTTP 404 from ..."). */
function rowsByCause(model: ReportModel, list: readonly Item[], rowOf: (f: Item, i: number) => string): string {
  let current: CauseGroup | undefined;
  return list
    .map((f, i) => {
      const group = model.causeOf.get(f);
      let head = '';
      if (group !== undefined && group !== current) {
        const labels = list.filter((x) => model.causeOf.get(x) === group).map((x) => x.label);
        head = `<h3 class="cause">${hLinked(clip(causeLine({ ...group, labels }, list.length), LIMITS.cause))}</h3>\n`;
      }
      current = group;
      return head + rowOf(f, i);
    })
    .join('\n');
}

/** The whole page for one run. */
export function renderHtml(run: RunRecord, extras: HtmlExtras = {}): string {
  const model = buildModel(run);
  const ordered: Item[] = HTML_SECTION_ORDER.flatMap((k) => model.sections[k]);
  const agreement = extras.agreement ?? agreementReport({ fixtures: run.fixtures, personas: Array.isArray(run.personas) ? run.personas : [] });
  const coverage = extras.coverage !== undefined ? extras.coverage : (run.coverage ?? null);
  const ctx = extras.context ?? { repositoryUrl: DEFAULT_CONTEXT.repositoryUrl ?? null, headSha: run.commit };
  let index = 0;
  const section = (k: SectionKey): string => {
    const w = SECTION_WORDS[k];
    const first = FIRST_SECTIONS.has(k);
    const list = model.sections[k];
    const rowOf = (f: Item, i: number): string => row(withMeaningHead(viewOf(model, f), undefined, meaningOffAfter(f, run)), index++, ctx, first && i < OPEN_ROWS);
    const rows = k === 'errored' || k === 'not_evaluated' ? rowsByCause(model, list, rowOf) : list.map(rowOf).join('\n');
    const closed = first && list.length > OPEN_ROWS ? `<p class="meta">The first ${OPEN_ROWS} are open; click a row to open the other ${thousands(list.length - OPEN_ROWS)}.</p>` : '';
    return `<section class="section${first ? ' first' : ''}" data-section="${k}"><h2>${h(w.title + w.suffix)} <span class="n">${thousands(list.length)}</span></h2>\n${closed}${rows}\n</section>`;
  };
  const present = HTML_SECTION_ORDER.filter((k) => model.sections[k].length > 0);
  const firstSections = present.filter((k) => FIRST_SECTIONS.has(k)).map(section).join('\n');
  const otherSections = present.filter((k) => !FIRST_SECTIONS.has(k)).map(section).join('\n');
  const panels = forestPanel(forestRows(ordered)) + agreementPanel(agreement) + coveragePanel(coverage) + trendPanel(extras.trend) + latencyPanel(ordered, run.latency);
  const data = scriptJson({ items: itemsData(ordered) });
  const suite = extras.context?.suite ? clip(extras.context.suite, LIMITS.suite) : null;
  const title = `agent-replay · ${suite === null ? '' : `${suite} · `}${headlineText(model)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(clip(title, 200))}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="wrap">
<header>
<h1>agent-replay report</h1>
${suite === null ? '' : `<p class="meta suite">Suite <code>${h(suite)}</code></p>\n`}${metaLine(run)}${judgeModeLine(run)}
${headlineBlock(model, extras.context?.gate ?? null)}
${notices(run, model.total)}${flakyNotice(model)}
</header>
<main>
${firstSections}
<h2 class="hidden-heading">The numbers</h2>
${cards(model, agreement.overall, run)}
${runRateBlock(model)}${panels ? `<section class="panels">${panels}</section>` : ''}
${filters(ordered.map((f) => viewOf(model, f)))}
${otherSections}
<p class="empty" id="ar-none"${ordered.length === 0 ? '' : ' hidden'}>${ordered.length === 0 ? 'No items ran.' : 'No item matches these filters.'}</p>
</main>
</div>
<script type="application/json" id="ar-data">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
