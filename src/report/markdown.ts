// The PR comment, the job summary and the CLI's markdown report: one renderer, three profiles.
//
// Render, then fit: the document is rendered at the richest level of detail and measured; when it
// is over the limit it is rendered again with less detail (0 everything, 1 without the unchanged
// table, 2 without diffs, 3 without replies), then items are kept worst first while they fit and
// the rest are counted. Every block is balanced by construction; a last line-based trim that
// closes open fences, `<pre>` and `<details>` guarantees the limit for any input.

import type { FixtureRecord, RunRecord } from '../types.js';
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
type Level = 0 | 1 | 2 | 3;

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
  const detail = f.errored ? (f.error ?? f.detail) : f.detail;
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

function renderDiff(baseline: string, reply: string, p: Profile): string {
  if (baseline.length > p.maxReplyChars || reply.length > p.maxReplyChars) {
    return '_The replies are too long to diff here; compare them in the full report._';
  }
  const d = wordDiff(normalizeBlock(baseline), normalizeBlock(reply));
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

function detailsBlock(f: FixtureRecord, level: Level, p: Profile): string | null {
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

function itemBlock(f: FixtureRecord, level: Level, p: Profile): string {
  const text = itemLines(f).join('\\\n');
  const details = detailsBlock(f, level, p);
  return details ? `${text}\n\n${details}` : text;
}

function unchangedBlock(model: ReportModel, level: Level): string | null {
  const n = model.unchanged.length;
  if (n === 0) return null;
  const what = plural(n, 'unchanged fixture', 'unchanged fixtures');
  if (level >= 1) return `${what}: listed in the full report.`;
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

function shortenedNote(
  model: ReportModel,
  level: Level,
  omitted: Record<SectionKey, number> | null,
  ctx: ReportContext,
  p: Profile,
): string {
  const attention = SECTION_ORDER.flatMap((k) => model.sections[k]);
  const left: string[] = [];
  if (level >= 1 && model.unchanged.length > 0) left.push('the unchanged list');
  if (level >= 2 && attention.some((f) => f.baseline !== null && f.drift?.reply === 'different')) left.push('the reply diffs');
  if (level >= 3 && attention.some((f) => f.reply !== null)) left.push('the replies');
  const lines: string[] = [];
  const count = omitted ? SECTION_ORDER.reduce((n, k) => n + omitted[k], 0) : 0;
  if (omitted && count > 0) {
    lines.push(`… and ${plural(count, 'more fixture', 'more fixtures')} not shown (${omittedCounts(omitted)}).`);
    left.push(`${count} of the fixtures that need attention`);
  }
  const what = left.length > 1 ? `${left.slice(0, -1).join(', ')} and ${left[left.length - 1]}` : (left[0] ?? '');
  lines.push(
    `> ✂️ Shortened to fit ${p.limitWords}${what ? `: left out ${what}` : ''}. The full report is in ${fullReportWhere(ctx, p)}.`,
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

function renderAtLevel(run: RunRecord, ctx: ReportContext, model: ReportModel, level: Level, p: Profile): string {
  const blocks = headBlocks(run, ctx, model, p);
  for (const key of SECTION_ORDER) {
    const items = model.sections[key];
    if (items.length === 0) continue;
    blocks.push(sectionHeading(key, items.length));
    for (const f of items) blocks.push(itemBlock(f, level, p));
  }
  const unchanged = unchangedBlock(model, level);
  if (unchanged) blocks.push(unchanged);
  if (level > 0) blocks.push(shortenedNote(model, level, null, ctx, p));
  blocks.push('---', ...footerBlocks(run, ctx, model, p));
  return joinBlocks(blocks);
}

/** Level 3 items, worst first, kept while they fit; the rest are counted. */
function renderTrimmed(run: RunRecord, ctx: ReportContext, model: ReportModel, p: Profile): string {
  const head = headBlocks(run, ctx, model, p);
  const unchanged = unchangedBlock(model, 3);
  const footer = ['---', ...footerBlocks(run, ctx, model, p)];
  const allOmitted = {} as Record<SectionKey, number>;
  for (const key of SECTION_ORDER) allOmitted[key] = model.sections[key].length;
  const worstNote = shortenedNote(model, 3, allOmitted, ctx, p);

  const fixed = [...head, ...(unchanged ? [unchanged] : []), worstNote, ...footer];
  let used = p.measure(joinBlocks(fixed));
  const sep = p.measure(SEP);
  const body: string[] = [];
  const omitted = { ...allOmitted };
  let full = false;
  for (const key of SECTION_ORDER) {
    const items = model.sections[key];
    if (items.length === 0 || full) continue;
    let headingPending: string | null = sectionHeading(key, items.length);
    for (const f of items) {
      const block = itemBlock(f, 3, p);
      const cost = p.measure(block) + sep + (headingPending !== null ? p.measure(headingPending) + sep : 0);
      if (used + cost > p.max) {
        full = true;
        break;
      }
      if (headingPending !== null) body.push(headingPending);
      headingPending = null;
      body.push(block);
      used += cost;
      omitted[key]--;
    }
  }
  const note = shortenedNote(model, 3, omitted, ctx, p);
  return joinBlocks([...head, ...body, ...(unchanged ? [unchanged] : []), note, ...footer]);
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
  const model = buildModel(run);
  for (const level of [0, 1, 2, 3] as const) {
    const out = renderAtLevel(run, ctx, model, level, p);
    if (p.measure(out) <= p.max) return out;
  }
  const trimmed = renderTrimmed(run, ctx, model, p);
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
