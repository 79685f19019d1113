// The PR comment, the job summary and the CLI's markdown report: one renderer, three profiles.
//
// Render, then fit: the document is rendered with everything and measured. When it is over the
// limit it is rendered again with less detail:
//   1. without the unchanged table;
//   2. every attention item compact (label, file:line, verdict and drift words, detail line), then
//      the leftover budget buys detail back worst first: diff and replies, else replies only;
//   3. when even the compact items do not fit: compact items worst first while they fit, the rest
//      counted ("… and N more fixtures not shown").
// Each step says what it left out and where the full report is. Every block is balanced by
// construction; a last line-based trim that closes open fences, `<pre>` and `<details>`
// guarantees the limit for any input.

import type { Baseline, FixtureRecord, RunRecord } from '../types.js';
import { DEFAULT_CONTEXT, type AcceptanceView, type ReportContext } from './context.js';
import { wordDiff, type DiffOp } from './diff.js';
import {
  clip,
  codeSpan,
  escapeHtml,
  escapeHtmlInline,
  escapeInline,
  fencedBlock,
  normalizeBlock,
  safeUrl,
  utf8Length,
} from './escape.js';
import { markerLine, metaLine } from './metadata.js';
import {
  SECTION_ORDER,
  SECTION_WORDS,
  acceptableCount,
  buildModel,
  estimateText,
  headlineParts,
  plural,
  routeText,
  shortSha,
  statusWords,
  verdictIcon,
  type ReportModel,
  type SectionKey,
} from './model.js';

export const COMMENT_MAX_CHARS = 65_536;
export const SUMMARY_MAX_BYTES = 1_048_576;

type Kind = 'comment' | 'summary' | 'report';
/** Detail of one attention item: 0 diff and replies, 2 replies only, 3 compact (no replies). */
type Detail = 0 | 2 | 3;

interface Profile {
  kind: Kind;
  max: number;
  measure: (text: string) => number;
  /** Longest reply shown in one block, in characters. */
  maxReplyChars: number;
  /** How the limit is named in the "shortened" note. */
  limitWords: string;
}

const LIMITS = {
  label: 100,
  file: 200,
  detail: 500,
  rationale: 300,
  message: 500,
  ref: 100,
  listed: 30,
} as const;

function thousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function profile(kind: Kind, max: number | undefined): Profile {
  if (kind === 'comment') {
    const m = max ?? COMMENT_MAX_CHARS;
    return {
      kind,
      max: m,
      measure: (s) => s.length,
      maxReplyChars: 4000,
      limitWords: `GitHub's limit of ${thousands(m)} characters per comment`,
    };
  }
  const m = max ?? SUMMARY_MAX_BYTES;
  return {
    kind,
    max: m,
    measure: utf8Length,
    maxReplyChars: 20_000,
    limitWords: kind === 'summary' ? `the job summary limit of ${thousands(m)} bytes` : `the report limit of ${thousands(m)} bytes`,
  };
}

// ---------------------------------------------------------------------------------------------
// Blocks

function hiddenHead(ctx: ReportContext): string {
  return `${markerLine(ctx.marker)}\n${metaLine(ctx)}`;
}

function headline(model: ReportModel): string {
  const h = headlineParts(model);
  return `### ${h.icon} ${[h.lead, ...h.rest].join(' · ')}`;
}

function talliesTable(model: ReportModel): string {
  const t = model.tallies;
  const cols: [string, string][] = [
    ['✅ passed', model.probes > 0 ? `${t.passed} (${plural(model.probes, 'probe', 'probes')})` : String(t.passed)],
  ];
  if (t.failed > 0) cols.push(['❌ failed', String(t.failed)]);
  if (t.notEvaluated > 0) cols.push(['⚪ not evaluated (not a failure)', String(t.notEvaluated)]);
  if (t.errored > 0) cols.push(['⚪ errored (not a failure)', String(t.errored)]);
  return [
    `| ${cols.map((c) => c[0]).join(' | ')} |`,
    `| ${cols.map(() => '---:').join(' | ')} |`,
    `| ${cols.map((c) => c[1]).join(' | ')} |`,
  ].join('\n');
}

function factsLine(run: RunRecord, ctx: ReportContext): string {
  const parts = [estimateText(run.estimate)];
  if (run.agent.host) parts.push(`agent ${codeSpan(clip(run.agent.host, LIMITS.ref))}`);
  const sha = shortSha(run.commit);
  const ref = ctx.baselinesRef ? codeSpan(clip(ctx.baselinesRef, LIMITS.ref)) : null;
  if (sha && ref) parts.push(`commit ${codeSpan(sha)} against baselines from ${ref}`);
  else if (sha) parts.push(`commit ${codeSpan(sha)}`);
  else if (ref) parts.push(`baselines from ${ref}`);
  if (run.judge.name) parts.push(`judge: ${escapeInline(clip(run.judge.name, LIMITS.ref))}`);
  return parts.join(' · ');
}

function labelList(labels: readonly string[]): string {
  const shown = labels.slice(0, LIMITS.listed).map((l) => codeSpan(clip(l, LIMITS.label)));
  const more = labels.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

const MAX_COMMANDS_CHARS = 20_000;

function acceptanceBlock(a: AcceptanceView): string {
  const lines = ['#### Baseline acceptance', ''];
  if (a.accepted.length > 0) {
    const url = safeUrl(a.commitUrl);
    const sha = shortSha(a.commitSha);
    const commit = url ? ` in [${sha ? codeSpan(sha) : 'this commit'}](${url})` : sha ? ` in commit ${codeSpan(sha)}` : '';
    lines.push(`- ✅ Accepted ${a.accepted.length}${commit}: ${labelList(a.accepted)}`);
  } else {
    lines.push('- Nothing was accepted.');
  }
  if (a.refused.length > 0) {
    lines.push(`- ⛔ Refused ${a.refused.length}:`);
    for (const r of a.refused.slice(0, LIMITS.listed)) {
      lines.push(`  - ${codeSpan(clip(r.label, LIMITS.label))}: ${escapeInline(clip(r.reason, LIMITS.detail))}`);
    }
    if (a.refused.length > LIMITS.listed) lines.push(`  - and ${a.refused.length - LIMITS.listed} more`);
  }
  if (a.skipped.length > 0) lines.push(`- Skipped ${a.skipped.length} unchanged: ${labelList(a.skipped)}`);
  if (a.note) lines.push('', escapeInline(clip(a.note, LIMITS.detail)));
  if (a.commands) {
    const shown = a.commands.length <= MAX_COMMANDS_CHARS ? a.commands : '# too long to show here: download the baseline files from the artifact named above';
    lines.push('', fencedBlock(shown, 'sh'));
  }
  return lines.join('\n');
}

const SECTION_INTRO: Record<SectionKey, string> = {
  newly_failing: 'These passed at the baseline and fail now.',
  changed: 'The reply or the route differs from the baseline.',
  not_evaluated: 'The check did not run, so the reply was not measured. Run it again, or look at the assertion.',
  errored: 'The replay did not complete, so there is no reply to check or accept.',
  new: 'No baseline yet: nothing to compare with.',
};

function sectionHeading(key: SectionKey, count: number): string {
  const w = SECTION_WORDS[key];
  return `#### ${w.icon} ${w.title} (${count})${w.suffix}\n\n${SECTION_INTRO[key]}`;
}

function itemLines(f: FixtureRecord): string[] {
  const where = codeSpan(clip(`${f.file}:${f.line}`, LIMITS.file));
  const head = `${verdictIcon(f)} **${escapeInline(clip(f.label, LIMITS.label))}** · ${statusWords(f).join(' · ')} · ${where}`;
  const lines = [head];
  const detail = f.errored ? f.error : f.detail;
  if (detail) lines.push(escapeInline(clip(detail, LIMITS.detail)));
  if (f.drift?.route === 'different') {
    lines.push(`route: ${escapeInline(routeText(f.baseline?.route))} → ${escapeInline(routeText(f.route))}`);
  }
  const hasScore = typeof f.score === 'number' && Number.isFinite(f.score);
  if (hasScore || f.rationale) {
    // The detail line usually states the score already; add it only when it does not.
    const score = hasScore ? (f.score as number).toFixed(2) : null;
    const threshold = typeof f.threshold === 'number' ? ` (threshold ${f.threshold.toFixed(2)})` : '';
    const scoreText = score !== null && !f.detail.includes(score) ? ` score ${score}${threshold}` : '';
    const why = f.rationale ? `: ${escapeInline(clip(f.rationale, LIMITS.rationale))}` : '';
    if (scoreText || why) lines.push(`judge${scoreText}${why}`);
  }
  return lines;
}

/** Visible whitespace for changes that are only whitespace. */
function visibleWhitespace(text: string): string {
  return /^\s+$/.test(text) ? text.replace(/ /g, '·').replace(/\t/g, '→').replace(/\n/g, '⏎\n') : text;
}

const DIFF_MAX_CELLS = 250_000;

function renderDiff(baseline: string, reply: string, p: Profile): string {
  if (baseline.length > p.maxReplyChars || reply.length > p.maxReplyChars) {
    return '_The replies are too long to diff here; compare them in the full report._';
  }
  // A few hundred thousand cells per reply keeps thousands of diffs fast; beyond it, lines.
  const d = wordDiff(normalizeBlock(baseline), normalizeBlock(reply), { maxCells: DIFF_MAX_CELLS });
  if (d.mode === 'too_large') {
    return `_The replies are too large to diff (${d.aTokens} and ${d.bTokens} words)._`;
  }
  if (d.mode === 'lines') {
    const lines: string[] = [];
    for (const op of d.ops) {
      const prefix = op.kind === 'delete' ? '- ' : op.kind === 'insert' ? '+ ' : '  ';
      for (const line of op.text.replace(/\n$/, '').split('\n')) lines.push(prefix + line);
    }
    return `**Line diff** (word diff too large):\n\n${fencedBlock(lines.join('\n'), 'diff')}`;
  }
  const body = d.ops.map((op: DiffOp) => {
    if (op.kind === 'equal') return escapeHtml(op.text);
    const tag = op.kind === 'delete' ? 'del' : 'ins';
    return `<${tag}>${escapeHtml(visibleWhitespace(op.text))}</${tag}>`;
  });
  return `**Word diff** (<del>removed</del>, <ins>added</ins>):\n\n<pre>${body.join('')}</pre>`;
}

function replyBlock(title: string, reply: string, p: Profile): string {
  const text = normalizeBlock(reply);
  if (text === '') return `${title}: _(empty)_`;
  const shown = clip(text, p.maxReplyChars);
  const note = shown.length < text.length ? ` (first ${thousands(shown.length)} of ${thousands(text.length)} characters)` : '';
  return `${title}${note}:\n\n${fencedBlock(shown)}`;
}

function detailsBlock(f: FixtureRecord, level: Detail, p: Profile): string | null {
  if (level >= 3 || f.errored || f.reply === null) return null;
  const parts: string[] = [];
  const persona = f.persona ? ` (persona ${codeSpan(clip(f.persona, LIMITS.label))})` : '';
  parts.push(`**Message**${persona}: ${escapeInline(clip(f.message, LIMITS.message))}`);
  const base = f.baseline;
  const replyChanged = f.drift?.reply === 'different' && base !== null;
  let summary: string;
  if (base && replyChanged) {
    summary = 'Baseline vs new reply';
    if (level < 2) parts.push(renderDiff(base.reply, f.reply, p));
    parts.push(replyBlock(`**Baseline reply** · route ${escapeInline(routeText(base.route))}`, base.reply, p));
    parts.push(replyBlock(`**New reply** · route ${escapeInline(routeText(f.route))}`, f.reply, p));
  } else {
    summary = base ? 'Reply (same as the baseline)' : 'Reply';
    parts.push(replyBlock(`**Reply** · route ${escapeInline(routeText(f.route))}`, f.reply, p));
  }
  return `<details><summary>${escapeHtmlInline(summary)}</summary>\n\n${parts.join('\n\n')}\n\n</details>`;
}

function itemBlock(f: FixtureRecord, level: Detail, p: Profile): string {
  const text = itemLines(f).join('\\\n');
  const details = detailsBlock(f, level, p);
  return details ? `${text}\n\n${details}` : text;
}

function unchangedBlock(model: ReportModel, table: boolean): string | null {
  const n = model.unchanged.length;
  if (n === 0) return null;
  const what = plural(n, 'unchanged fixture', 'unchanged fixtures');
  if (!table) return `${what}: listed in the full report.`;
  const rows = model.unchanged.map((f) => {
    const cells = [
      escapeInline(clip(f.label, LIMITS.label)),
      `${verdictIcon(f)} ${statusWords(f).join(' · ')}`,
      escapeInline(clip(f.detail, 160)),
      codeSpan(clip(`${f.file}:${f.line}`, LIMITS.file), { table: true }),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    `<details><summary>${what}</summary>`,
    '',
    '| fixture | verdict | detail | file |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    '</details>',
  ].join('\n');
}

function fullReportWhere(ctx: ReportContext, p: Profile): string {
  const links: string[] = [];
  const summary = p.kind === 'comment' ? safeUrl(ctx.summaryUrl) : null;
  const artifact = safeUrl(ctx.artifactUrl);
  if (summary) links.push(`the [job summary](${summary})`);
  if (artifact) links.push(`the [results artifact](${artifact})`);
  if (links.length > 0) return links.join(' and ');
  if (p.kind === 'comment') return 'the job summary and the results artifact of this run';
  return 'results.json (`agent-replay report --results results.json`)';
}

function footerBlocks(run: RunRecord, ctx: ReportContext, model: ReportModel, p: Profile): string[] {
  const blocks: string[] = [];
  const label = codeSpan(clip(ctx.acceptLabel, LIMITS.label));
  const acceptable = acceptableCount(model);
  const how =
    p.kind === 'comment'
      ? `apply the ${label} label to this pull request`
      : `apply the ${label} label to the pull request (or run \`agent-replay accept\`)`;
  if (acceptable > 0) {
    blocks.push(
      `**To accept** the ${plural(acceptable, 'changed or new reply', 'changed or new replies')} above as baselines, ${how}. ` +
        'Only pass and fail replies are accepted; not evaluated and errored fixtures never are.',
    );
  } else {
    blocks.push('Nothing to accept: no pass or fail reply differs from its baseline.');
  }
  const links: string[] = [];
  const summary = p.kind === 'comment' ? safeUrl(ctx.summaryUrl) : null;
  const artifact = safeUrl(ctx.artifactUrl);
  if (summary) links.push(`[job summary](${summary})`);
  if (artifact) links.push(`[results artifact](${artifact})`);
  if (links.length > 0) blocks.push(`Full report: ${links.join(' · ')}`);
  const seconds = (run.durationMs / 1000).toFixed(1);
  blocks.push(
    `<sub>${escapeHtmlInline(`${run.tool.name} ${run.tool.version}`)} · ${plural(model.total, 'fixture', 'fixtures')} in ${seconds} s</sub>`,
  );
  return blocks;
}

function omittedCounts(omitted: Record<SectionKey, number>): string {
  return SECTION_ORDER.filter((k) => omitted[k] > 0)
    .map((k) => `${omitted[k]} ${SECTION_WORDS[k].many}`)
    .join(', ');
}

/** What a shortened rendering left out. */
interface LeftOut {
  unchanged: boolean;
  /** Items whose replies are shown but not their diff. */
  diffs: number;
  /** Items shown compact: neither replies nor diff. */
  replies: number;
  /** Items not shown at all, per section. */
  omitted: Record<SectionKey, number> | null;
}

function hasDiff(f: FixtureRecord): boolean {
  return !f.errored && f.reply !== null && f.baseline !== null && f.drift?.reply === 'different';
}

function hasReply(f: FixtureRecord): boolean {
  return !f.errored && f.reply !== null;
}

function shortenedNote(model: ReportModel, left: LeftOut, ctx: ReportContext, p: Profile): string {
  const what: string[] = [];
  if (left.unchanged && model.unchanged.length > 0) what.push('the unchanged list');
  if (left.diffs > 0) what.push(`the reply diffs of ${plural(left.diffs, 'fixture', 'fixtures')}`);
  if (left.replies > 0) what.push(`the replies and diffs of ${plural(left.replies, 'fixture', 'fixtures')}`);
  const lines: string[] = [];
  const count = left.omitted ? SECTION_ORDER.reduce((n, k) => n + (left.omitted as Record<SectionKey, number>)[k], 0) : 0;
  if (left.omitted && count > 0) {
    lines.push(`… and ${plural(count, 'more fixture', 'more fixtures')} not shown (${omittedCounts(left.omitted)}).`);
    what.push(`${count} of the fixtures that need attention`);
  }
  const list = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}` : (what[0] ?? '');
  lines.push(
    `> ✂️ Shortened to fit ${p.limitWords}${list ? `: left out ${list}` : ''}. The full report is in ${fullReportWhere(ctx, p)}.`,
  );
  return lines.join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Assembly and fitting

const SEP = '\n\n';

function joinBlocks(blocks: readonly string[]): string {
  return `${blocks.join(SEP)}\n`;
}

function headBlocks(run: RunRecord, ctx: ReportContext, model: ReportModel, p: Profile): string[] {
  const blocks: string[] = [];
  if (p.kind === 'comment') blocks.push(hiddenHead(ctx));
  if (ctx.acceptance) blocks.push(acceptanceBlock(ctx.acceptance));
  blocks.push(headline(model), talliesTable(model), factsLine(run, ctx));
  return blocks;
}

interface Attention {
  key: SectionKey;
  f: FixtureRecord;
}

function attentionItems(model: ReportModel): Attention[] {
  return SECTION_ORDER.flatMap((key) => model.sections[key].map((f) => ({ key, f })));
}

/**
 * Assembles the document. `detail[i]` is the detail of attention item i; items from `shown` on
 * are left out and counted.
 */
type BlockFn = (f: FixtureRecord, detail: Detail) => string;

/** Item blocks are rendered once per detail level, however often the fitting asks for them. */
function memoBlocks(p: Profile): BlockFn {
  const cache = new Map<FixtureRecord, (string | undefined)[]>();
  return (f, detail) => {
    let entry = cache.get(f);
    if (!entry) {
      entry = [];
      cache.set(f, entry);
    }
    return (entry[detail] ??= itemBlock(f, detail, p));
  };
}

function assemble(
  run: RunRecord,
  ctx: ReportContext,
  model: ReportModel,
  p: Profile,
  block: BlockFn,
  plan: { table: boolean; detail: readonly Detail[]; shown: number; note: LeftOut | null },
): string {
  const blocks = headBlocks(run, ctx, model, p);
  const items = attentionItems(model);
  let section: SectionKey | null = null;
  items.slice(0, plan.shown).forEach(({ key, f }, i) => {
    if (key !== section) blocks.push(sectionHeading(key, model.sections[key].length));
    section = key;
    blocks.push(block(f, plan.detail[i] ?? 3));
  });
  const unchanged = unchangedBlock(model, plan.table);
  if (unchanged) blocks.push(unchanged);
  if (plan.note) blocks.push(shortenedNote(model, plan.note, ctx, p));
  blocks.push('---', ...footerBlocks(run, ctx, model, p));
  return joinBlocks(blocks);
}

function countOmitted(items: readonly Attention[], from: number): Record<SectionKey, number> {
  const omitted = { newly_failing: 0, changed: 0, not_evaluated: 0, errored: 0, new: 0 } as Record<SectionKey, number>;
  for (const { key } of items.slice(from)) omitted[key]++;
  return omitted;
}

function fit(run: RunRecord, ctx: ReportContext, model: ReportModel, p: Profile): string {
  const items = attentionItems(model);
  const block = memoBlocks(p);
  const rich = items.map(() => 0 as Detail);
  // The replies alone are a lower bound on the full rendering: skip renderings that cannot fit.
  const shownChars = (text: string): number => Math.min(normalizeBlock(text).length, p.maxReplyChars);
  const replyChars = items.reduce(
    (n, { f }) =>
      !hasReply(f) ? n : n + shownChars(f.reply as string) + (hasDiff(f) ? shownChars((f.baseline as Baseline).reply) : 0),
    0,
  );
  for (const table of replyChars > p.max ? [] : [true, false]) {
    const out = assemble(run, ctx, model, p, block, {
      table,
      detail: rich,
      shown: items.length,
      note: table ? null : { unchanged: true, diffs: 0, replies: 0, omitted: null },
    });
    if (p.measure(out) <= p.max) return out;
  }

  // Budget with the longest note this rendering could need, then spend it worst first.
  const worstNote: LeftOut = {
    unchanged: true,
    diffs: items.filter(({ f }) => hasDiff(f)).length,
    replies: items.filter(({ f }) => hasReply(f)).length,
    omitted: countOmitted(items, 0),
  };
  const sep = p.measure(SEP);
  const base = p.measure(assemble(run, ctx, model, p, block, { table: false, detail: [], shown: 0, note: worstNote }));
  const compact = items.map(({ f }) => p.measure(block(f, 3)) + sep);
  const headingCost = (key: SectionKey): number => p.measure(sectionHeading(key, model.sections[key].length)) + sep;
  const allHeadings = SECTION_ORDER.filter((k) => model.sections[k].length > 0).reduce((n, k) => n + headingCost(k), 0);
  const allCompact = compact.reduce((n, c) => n + c, 0);

  if (base + allHeadings + allCompact <= p.max) {
    let budget = p.max - base - allHeadings - allCompact;
    const detail = items.map(() => 3 as Detail);
    let cap: Detail = 0; // detail never increases further down: the worst items get the most
    items.forEach(({ f }, i) => {
      if (!hasReply(f) || cap === 3) return;
      for (const d of [0, 2] as const) {
        if (d < cap) continue;
        const extra = p.measure(block(f, d)) + sep - (compact[i] as number);
        if (extra <= budget) {
          detail[i] = d;
          budget -= extra;
          return;
        }
        cap = d === 0 ? 2 : 3;
      }
    });
    const note: LeftOut = {
      unchanged: true,
      diffs: items.filter(({ f }, i) => hasDiff(f) && detail[i] === 2).length,
      replies: items.filter(({ f }, i) => hasReply(f) && detail[i] === 3).length,
      omitted: null,
    };
    return assemble(run, ctx, model, p, block, { table: false, detail, shown: items.length, note });
  }

  // Compact items worst first while they fit; the rest are counted.
  let used = base;
  let shown = 0;
  let section: SectionKey | null = null;
  for (const [i, { key }] of items.entries()) {
    const cost = (compact[i] as number) + (key !== section ? headingCost(key) : 0);
    if (used + cost > p.max) break;
    used += cost;
    section = key;
    shown++;
  }
  const note: LeftOut = {
    unchanged: true,
    diffs: 0,
    replies: items.slice(0, shown).filter(({ f }) => hasReply(f)).length,
    omitted: countOmitted(items, shown),
  };
  return assemble(run, ctx, model, p, block, { table: false, detail: [], shown, note });
}

/** Longest prefix of `text` (whole code points) that measures at most `max`. */
function prefixWithin(text: string, max: number, measure: (s: string) => number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  const c = text.charCodeAt(end - 1);
  if (end > 0 && c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * Last resort: keep whole lines from the top while they fit, then close whatever is open
 * (code fence, `<pre>`, `<details>`) and append `tail`.
 */
export function trimToFit(text: string, max: number, measure: (s: string) => number, tail: string): string {
  if (measure(text) <= max) return text;
  const lines = text.split('\n');
  let fence: string | null = null;
  let pre = false;
  let details = 0;
  const closers = (f: string | null, inPre: boolean, d: number): string =>
    `${f !== null ? `\n${f}` : ''}${inPre ? '</pre>' : ''}${'\n\n</details>'.repeat(d)}`;
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    let f: string | null = fence;
    let inPre: boolean = pre;
    let d = details;
    if (f !== null) {
      if (line.startsWith(f) && /^`+\s*$/.test(line)) f = null;
    } else if (inPre) {
      if (line.includes('</pre>')) inPre = false;
    } else {
      const open = /^(`{3,})/.exec(line);
      if (open) f = open[1] as string;
      else if (line.startsWith('<pre>') && !line.includes('</pre>')) inPre = true;
      else if (line.startsWith('<details>')) d++;
      else if (line === '</details>') d = Math.max(0, d - 1);
    }
    const next = size + measure(line) + (kept.length > 0 ? 1 : 0);
    if (next + measure(closers(f, inPre, d)) + measure(tail) + 2 > max) break;
    kept.push(line);
    size = next;
    fence = f;
    pre = inPre;
    details = d;
  }
  const out = `${kept.join('\n')}${closers(fence, pre, details)}\n\n${tail}`;
  return measure(out) <= max ? out : prefixWithin(out, max, measure);
}

function render(run: RunRecord, ctx: ReportContext, p: Profile): string {
  const trimmed = fit(run, ctx, buildModel(run), p);
  const tail = `> ✂️ Cut to fit ${p.limitWords}. The full report is in ${fullReportWhere(ctx, p)}.\n`;
  return trimToFit(trimmed, p.max, p.measure, tail);
}

/** The sticky PR comment. Never longer than `maxChars` (default 65,536) UTF-16 units. */
export function renderComment(run: RunRecord, ctx: ReportContext, opts: { maxChars?: number } = {}): string {
  return render(run, ctx, profile('comment', opts.maxChars));
}

/** The job summary: same content without the hidden metadata. Never over `maxChars` UTF-8 bytes (default 1 MiB). */
export function renderSummary(run: RunRecord, ctx: ReportContext, opts: { maxChars?: number } = {}): string {
  return render(run, ctx, profile('summary', opts.maxChars));
}

/** The CLI's `--markdown` report: the summary's content and limit; the context is optional. */
export function renderMarkdownReport(run: RunRecord, ctx: Partial<ReportContext> = {}, opts: { maxChars?: number } = {}): string {
  return render(run, { ...DEFAULT_CONTEXT, ...ctx }, profile('report', opts.maxChars));
}
