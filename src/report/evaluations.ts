// Evaluations over runs (docs/evaluations.md#in-the-pr-comment-and-job-summary) in the markdown reports: calm by design. One line in the
// headline area (agreement, what changed since the previous run, coverage gaps), the details
// further down: agreement per conversation, fixture file and persona tag (collapsed in the
// comment, open in the summary), coverage, the labels that moved since the previous run, and the
// trend of the default branch (a row; the summary also draws it as a Mermaid chart).
//
// Everything from the record or a previous run is untrusted text: escaped like agent text.

import {
  agreementReport,
  formatAgreement,
  type Agreement,
  type AgreementGroup,
  ATTEMPTS_MOVED_TITLE,
  type AttemptsMove,
  type Comparison,
  sideWords,
  type ItemChange,
  verdictMoveDetail,
} from '../evaluate/index.js';
import type { CoverageResult, RunRecord } from '../types.js';
import type { PreviousRunView, ReportContext, TrendView } from './context.js';
import { clip, codeSpan, escapeHtmlInline, escapeInline, listItem } from './escape.js';
import { LIMITS } from './item-parts.js';
import { personasOf, plural, shortSha, thousands } from './model.js';
import type { Profile } from './profile.js';
import { labelList } from './blocks.js';

/** Rows of one group table, and labels or conversations listed, before "and N more". */
export const LISTED_ROWS = 30;

/**
 * "17 of 20 items passed; 2 not evaluated and 1 errored left out of the denominator" (what the
 * percentage is of). Items, said: beside the run's pass rate of attempts, "3 of 6 passed" of a run
 * of 30 attempts read as attempts (docs/evaluations.md#agreement).
 */
export function agreementBasis(a: Pick<Agreement, 'percent' | 'passed' | 'failed' | 'notEvaluated' | 'errored'>): string {
  const decided = a.passed + a.failed;
  const head = a.percent === null ? 'nothing passed or failed' : `${thousands(a.passed)} of ${thousands(decided)} ${decided === 1 ? 'item' : 'items'} passed`;
  const out: string[] = [];
  if (a.notEvaluated > 0) out.push(`${thousands(a.notEvaluated)} not evaluated`);
  if (a.errored > 0) out.push(`${thousands(a.errored)} errored`);
  if (out.length === 0) return head;
  return `${head}; ${out.join(' and ')} left out of the denominator`;
}

/** The run's items, also for a record written before persona scripts existed. */
function itemsOf(run: RunRecord): Pick<RunRecord, 'fixtures' | 'personas'> {
  return { fixtures: run.fixtures, personas: personasOf(run) as RunRecord['personas'] };
}

/**
 * "2 fixed · 1 broken · 3 changed · 4 reworded · 2 pass rates of attempts moved", or "nothing
 * changed". Reworded items (the same
 * meaning, other words) are counted apart, as the run's sections count them, never as changed
 * (docs/evaluations.md, "In the PR comment and job summary").
 */
export function sinceCounts(c: Comparison): string {
  const changed = changedOthers(c).length;
  const reworded = rewordedOnly(c).length;
  const parts: string[] = [];
  if (c.fixed.length > 0) parts.push(`${thousands(c.fixed.length)} fixed`);
  if (c.broken.length > 0) parts.push(`${thousands(c.broken.length)} broken`);
  if (changed > 0) parts.push(`${thousands(changed)} changed`);
  if (reworded > 0) parts.push(`${thousands(reworded)} reworded`);
  // A repeated item whose attempts alone moved (4/5 -> 3/5) is no change of verdict, nor "nothing changed" (docs/evaluations.md#compare).
  const moved = c.attemptsMoved.length;
  if (moved > 0) parts.push(`${thousands(moved)} ${moved === 1 ? 'pass rate' : 'pass rates'} of attempts moved`);
  return parts.length === 0 ? 'nothing changed' : parts.join(' · ');
}

/** Changes whose result did not move and whose first cause is a rewording. */
function rewordedOnly(c: Comparison): ItemChange[] {
  return c.changes.filter((ch) => ch.movement !== 'fixed' && ch.movement !== 'broken' && ch.cause === 'reworded');
}

/** Changes that are neither fixed, broken nor reworded (other result moves, reply or route changes, items added or removed). */
function changedOthers(c: Comparison): ItemChange[] {
  return c.changes.filter((ch) => ch.movement !== 'fixed' && ch.movement !== 'broken' && ch.cause !== 'reworded');
}

function coverageOf(run: RunRecord): CoverageResult | null {
  return run.coverage ?? null;
}

/**
 * The one line in the headline area: agreement, then (when known) what changed since the
 * previous run and how many listed conversations were never visited.
 */
export function evaluationLine(run: RunRecord, ctx: ReportContext): string {
  const overall = agreementReport(itemsOf(run)).overall;
  const parts = [`📊 **Agreement ${formatAgreement(overall)}**: ${escapeInline(agreementBasis(overall))}`];
  const prev = ctx.previous;
  if (prev && 'comparison' in prev) parts.push(`since the previous run: ${sinceCounts(prev.comparison)}`);
  const cov = coverageOf(run);
  if (cov && cov.gaps.length > 0) parts.push(`coverage: ${plural(cov.gaps.length, 'conversation never visited', 'conversations never visited')}`);
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------------
// Details

/**
 * A group's numbers in one cell ("75% · 3 passed, 1 failed, 1 left out"): two columns fit a
 * 390 px phone, where five (agreement, passed, failed, left out) scrolled sideways.
 */
function groupCell(g: AgreementGroup): string {
  const left = g.notEvaluated + g.errored;
  return `${formatAgreement(g)} · ${thousands(g.passed)} passed, ${thousands(g.failed)} failed, ${thousands(left)} left out`;
}

function groupTable(title: string, groups: readonly AgreementGroup[], asCode: boolean): string[] {
  if (groups.length === 0) return [];
  const shown = groups.slice(0, LISTED_ROWS);
  const name = (g: AgreementGroup): string => (asCode ? codeSpan(clip(g.key, LIMITS.file), { table: true }) : escapeInline(clip(g.key, LIMITS.label)));
  const rows = [`| ${title} | agreement |`, '| --- | --- |', ...shown.map((g) => `| ${name(g)} | ${groupCell(g)} |`)];
  if (groups.length > shown.length) rows.push(`| _and ${thousands(groups.length - shown.length)} more_ | |`);
  return [rows.join('\n')];
}

/** The per-group tables: conversation, fixture file, persona tag. */
function groupTables(run: RunRecord): string[] {
  const r = agreementReport(itemsOf(run));
  return [...groupTable('conversation', r.byConversation, false), ...groupTable('file', r.byFile, true), ...groupTable('persona', r.byPersona, false)];
}

function coverageLines(run: RunRecord, prev: PreviousRunView | null | undefined): string[] {
  const cov = coverageOf(run);
  if (!cov) return [];
  const lines: string[] = [];
  const visited = cov.listed.length - cov.gaps.length;
  lines.push(`**Coverage**: ${thousands(visited)} of ${plural(cov.listed.length, 'listed conversation', 'listed conversations')} visited.`);
  if (cov.gaps.length > 0) lines.push(`- Never visited (gaps): ${labelList(cov.gaps)}`);
  if (cov.unknown.length > 0) lines.push(`- Visited but not listed in \`coverage.conversations\`: ${labelList(cov.unknown)}`);
  const change = prev && 'comparison' in prev ? prev.comparison.coverage?.change : null;
  if (change) {
    const moves: string[] = [];
    if (change.newGaps.length > 0) moves.push(`new gaps ${labelList(change.newGaps)}`);
    if (change.closedGaps.length > 0) moves.push(`gaps closed ${labelList(change.closedGaps)}`);
    if (change.newUnknown.length > 0) moves.push(`newly unknown ${labelList(change.newUnknown)}`);
    if (change.goneUnknown.length > 0) moves.push(`no longer unknown ${labelList(change.goneUnknown)}`);
    lines.push(`- Since the previous run: ${moves.length > 0 ? moves.join('; ') : 'no change'}.`);
  }
  return [lines.join('\n')];
}

const RESULT_WORDS: Record<string, string> = { pass: 'pass', fail: 'fail', not_evaluated: 'not evaluated', errored: 'errored' };

/** "- `label`: pass → fail · reply changed" (the result's move, when it moved, then the first cause). */
function changeItem(ch: ItemChange): string {
  const b = ch.before?.result;
  const a = ch.after?.result;
  const moved = b !== undefined && a !== undefined && b !== a ? `${RESULT_WORDS[b] ?? b} → ${RESULT_WORDS[a] ?? a}` : '';
  // A verdict's change is the move itself ("pass → errored"): beside it only the error, as compare says it.
  const detail = escapeInline(clip(ch.cause === 'verdict_changed' && moved !== '' ? verdictMoveDetail(ch) : ch.detail, LIMITS.detail));
  return listItem(`${codeSpan(clip(ch.label, LIMITS.label))}: ${[moved, detail].filter((x) => x !== '').join(' · ')}`);
}

function changeList(title: string, changes: readonly ItemChange[]): string[] {
  if (changes.length === 0) return [];
  const lines = [`**${title} (${thousands(changes.length)})**`, '', ...changes.slice(0, LISTED_ROWS).map(changeItem)];
  if (changes.length > LISTED_ROWS) lines.push(`- and ${thousands(changes.length - LISTED_ROWS)} more`);
  return [lines.join('\n')];
}

/** The repeated items whose pass rate of attempts alone moved, listed as the changes are: "- `a`: pass 4/5 → pass 3/5". */
function movedList(moved: readonly AttemptsMove[]): string[] {
  if (moved.length === 0) return [];
  const line = (m: AttemptsMove): string => listItem(`${codeSpan(clip(m.label, LIMITS.label))}: ${sideWords(m.before)} → ${sideWords(m.after)}`);
  const lines = [`**${ATTEMPTS_MOVED_TITLE} (${thousands(moved.length)})**`, '', ...moved.slice(0, LISTED_ROWS).map(line)];
  if (moved.length > LISTED_ROWS) lines.push(`- and ${thousands(moved.length - LISTED_ROWS)} more`);
  return [lines.join('\n')];
}

function runName(runId: string): string {
  return /^[0-9]{1,20}$/.test(runId) ? `run ${runId}` : 'the previous run';
}

function previousBlocks(prev: PreviousRunView, p: Profile): string[] {
  if ('unavailable' in prev) return [`_Since the previous run: not compared (${escapeInline(clip(prev.unavailable, LIMITS.detail))})._`];
  const c = prev.comparison;
  const from = formatAgreement(c.agreement.before);
  const to = formatAgreement(c.agreement.after);
  const head = `**Since the previous run** (${runName(prev.runId)}): ${sinceCounts(c)} · agreement ${from} → ${to}`;
  if (c.changes.length === 0 && c.attemptsMoved.length === 0) return [head];
  const byLabel = (a: ItemChange, b: ItemChange): number => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
  const fixed = c.changes.filter((ch) => ch.movement === 'fixed').sort(byLabel);
  const broken = c.changes.filter((ch) => ch.movement === 'broken').sort(byLabel);
  const lists = [...changeList('Broken', broken), ...changeList('Fixed', fixed), ...changeList('Changed', changedOthers(c)), ...changeList('Reworded', rewordedOnly(c)), ...movedList(c.attemptsMoved)];
  const why = `Why: ${escapeInline(c.summary)}.`;
  if (p.kind === 'comment') return [head, `<details><summary>What moved since the previous run</summary>\n\n${[why, ...lists].join('\n\n')}\n\n</details>`];
  return [head, why, ...lists];
}

/** "82% → 85% → 91%" (n/a points included as "n/a"). */
export function trendText(t: TrendView): string {
  return t.points.map((pt) => formatAgreement(pt.agreement)).join(' → ');
}

function branchName(branch: string): string {
  return codeSpan(clip(branch, LIMITS.ref));
}

function trendRow(t: TrendView, run: RunRecord): string {
  const n = t.points.length;
  const what = t.includesThisRun ? `last ${plural(n, 'recorded run', 'recorded runs')}, this one last` : `last ${plural(n, 'recorded run', 'recorded runs')}`;
  const here = t.includesThisRun ? '' : ` · this run: ${formatAgreement(agreementReport(itemsOf(run)).overall)}`;
  return `📈 **Agreement on ${branchName(t.branch)}** (${what}): ${trendText(t)}${here}`;
}

/** A Mermaid label: no quotes, brackets or markup; short. */
function chartLabel(text: string): string {
  return text.replace(/[^A-Za-z0-9._/-]/g, '_').slice(0, 40);
}

/** The trend as a Mermaid `xychart-beta` line chart (GitHub renders it); points with n/a left out. */
export function trendChart(t: TrendView): string | null {
  const points = t.points.filter((pt) => pt.agreement.percent !== null);
  if (points.length === 0) return null;
  const labels = points.map((pt, i) => `"${chartLabel(shortSha(pt.commit) ?? `#${i + 1}`)}"`);
  const values = points.map((pt) => String(Math.round((pt.agreement.percent as number) * 10) / 10));
  return [
    '```mermaid',
    'xychart-beta',
    `  title "Agreement on ${chartLabel(t.branch)} (%)"`,
    `  x-axis [${labels.join(', ')}]`,
    '  y-axis "agreement (%)" 0 --> 100',
    `  line [${values.join(', ')}]`,
    '```',
  ].join('\n');
}

/**
 * The details, below the sections: group tables (collapsed in the comment), coverage, what moved
 * since the previous run, and the trend. `brief`: only the lines, no tables or lists (when room is
 * short); the full report has them.
 */
export function evaluationBlocks(run: RunRecord, ctx: ReportContext, p: Profile, brief = false): string[] {
  const blocks: string[] = [];
  if (!brief) {
    const tables = groupTables(run);
    if (tables.length > 0) {
      const r = agreementReport(itemsOf(run));
      const title = r.byPersona.length > 0 ? 'Agreement by conversation, file and persona' : 'Agreement by conversation and file';
      const scripts = personasOf(run).length > 0 ? ' A persona script counts in every conversation it visited.' : '';
      const intro = `Agreement is passed / (passed + failed); not evaluated and errored are left out.${scripts}`;
      if (p.kind === 'comment') blocks.push(`<details><summary>${escapeHtmlInline(title)}</summary>\n\n${intro}\n\n${tables.join('\n\n')}\n\n</details>`);
      else blocks.push(`**${title}.** ${intro}`, ...tables);
    }
    blocks.push(...coverageLines(run, ctx.previous));
  }
  if (ctx.previous) blocks.push(...(brief ? previousBlocks(ctx.previous, p).slice(0, 1) : previousBlocks(ctx.previous, p)));
  if (ctx.trend && ctx.trend.points.length > 0) {
    blocks.push(trendRow(ctx.trend, run));
    const chart = p.kind === 'comment' || brief ? null : trendChart(ctx.trend);
    if (chart) blocks.push(chart);
  }
  return blocks;
}
