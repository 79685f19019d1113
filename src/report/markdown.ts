// The PR comment, the job summary and the CLI's markdown report: one renderer, three profiles
// (profile.ts). The pieces live by concern:
//   model.ts      sections, counts and words (no markup); fixtures and persona scripts are items
//   items.ts      one item in full, shorter, or as a table row; file links
//   persona.ts    a persona script's body: checks, first difference, transcript
//   diff.ts       sentence and word diff of two replies (the `diff` package); diff-text.ts, wrap.ts
//   blocks.ts     headline, tallies, facts, acceptance outcome, footer
//   evaluations.ts  agreement, coverage, since the previous run, trend (docs/evaluations.md): a line and details
//   layout.ts     the document from a plan, and the notice of what the plan leaves out
//   fit.ts        choosing the plan that fits the limit; the last-resort trim

import { decideAcceptance, decidePersonaAcceptance, type AcceptDecision, type PersonaAcceptDecision } from '../evaluate/index.js';
import type { Baseline, PersonaBaseline, RunRecord } from '../types.js';
import { fullReportWhere } from './blocks.js';
import { DEFAULT_CONTEXT, type ReportContext } from './context.js';
import { cutLine, fit, trimToFit } from './fit.js';
import { evaluationsOf, itemStarts, Pieces, type Doc } from './layout.js';
import { ownTexts, sharedMeanings } from './cause-details.js';
import { afterAcceptance, buildModel, itemsNoun, personasOf, SECTION_ORDER, type Item } from './model.js';
import { profile, type Profile } from './profile.js';

export { COMMENT_MAX_CHARS, NOTICE_RESERVE_CHARS, SUMMARY_MAX_BYTES } from './profile.js';

/**
 * Decided once per run: the items accept would store, each with the baseline it would write, and
 * the passes and fails it would still refuse (a repeated item whose attempts differ in meaning),
 * with the reason accept gives. The "To accept" line names what they would change (blocks.ts).
 */
function acceptDecisions(run: RunRecord): { acceptable: Map<Item, Baseline | PersonaBaseline>; refused: Map<Item, string> } {
  const acceptable = new Map<Item, Baseline | PersonaBaseline>();
  const refused = new Map<Item, string>();
  const decided = (item: Item, d: AcceptDecision | PersonaAcceptDecision): void => {
    if (d.kind === 'accept') acceptable.set(item, d.baseline);
    else if (d.kind === 'refuse' && !item.errored && (item.verdict === 'pass' || item.verdict === 'fail')) refused.set(item, d.reason);
  };
  for (const f of run.fixtures) decided(f, decideAcceptance(f, '', run.commit));
  for (const s of personasOf(run)) decided(s, decidePersonaAcceptance(s, '', run.commit));
  return { acceptable, refused };
}

function render(record: RunRecord, ctx: ReportContext, p: Profile): string {
  // Once baselines are committed, the report compares the run with them.
  const a = ctx.acceptance;
  const run = a && a.commitSha && a.accepted.length > 0 ? afterAcceptance(record, a.accepted, a.commitSha) : record;
  const { acceptable, refused } = acceptDecisions(run);
  const model = buildModel(run);
  const doc: Doc = { run, ctx, model, p, pieces: new Pieces(ctx, p, model, ownTexts(model), sharedMeanings(model, run)), acceptable, refused, evaluations: evaluationsOf(run, ctx, p) };
  const fitted = fit(doc);
  // The last resort's line counts the items it left out (docs/cli.md, "What each command does").
  const items = SECTION_ORDER.flatMap((k) => model.sections[k]);
  let starts: number[] | undefined;
  const tail = (kept: number): string => {
    starts ??= itemStarts(doc, fitted.plan, fitted.text);
    const left = starts.filter((s) => s >= kept).length;
    return cutLine(p.limitWords, left, starts.length, (n) => itemsNoun(items, n), `The full report is in ${fullReportWhere(ctx, p)}.`);
  };
  return trimToFit(fitted.text, p.max, p.measure, tail);
}

/**
 * The sticky PR comment. Never longer than `maxChars` UTF-16 units; by default GitHub's 65,536 less
 * NOTICE_RESERVE_CHARS, so that the accept flow's notice still fits above it.
 */
export function renderComment(run: RunRecord, ctx: ReportContext, opts: { maxChars?: number } = {}): string {
  return render(run, ctx, profile('comment', opts.maxChars));
}

/**
 * The job summary: same content without the hidden metadata. Never over `maxChars` UTF-8 bytes
 * (default 1 MiB) less `reserveBytes`, the room kept for what is written beside it.
 */
export function renderSummary(run: RunRecord, ctx: ReportContext, opts: { maxChars?: number; reserveBytes?: number } = {}): string {
  return render(run, ctx, profile('summary', opts.maxChars, opts.reserveBytes));
}

/** The CLI's `--markdown` report: the summary's content and limit; the context is optional. */
export function renderMarkdownReport(run: RunRecord, ctx: Partial<ReportContext> = {}, opts: { maxChars?: number } = {}): string {
  return render(run, { ...DEFAULT_CONTEXT, ...ctx }, profile('report', opts.maxChars));
}
