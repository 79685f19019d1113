// Assembles the document from a plan: which items of each section are shown in full (and how
// much of them), which are rows of the section's compact table, and which are only counted.
// The order is fixed: hidden head, acceptance outcome, headline, notice of what is left out,
// tallies, facts, the evaluations line, the sections in their order, the evaluations' details
// (evaluations.ts), footer.

import type { Baseline, PersonaBaseline, RunRecord } from '../types.js';
import { causeLine, changedIntro, type CauseGroup } from '../evaluate/index.js';
import type { ReportContext } from './context.js';
import { causeMarkdown, suiteLine, factsLine, judgeFallbackLine, footerBlocks, runRateLine, fullReportWhere, headline, hiddenHead, acceptanceBlock, incompleteBlock, interruptedBlock, flakyBlock, removedBlock, suiteEditsBlock, talliesTable, type CallToAction } from './blocks.js';
import { itemBlock, itemRow, levelsOf, rewordedBlock, rewordedLine, tableHead } from './items.js';
import { diffable, LIMITS, type Level } from './item-parts.js';
import { clipDetail, escapeDetail, escapeInline, leftToRightStart } from './escape.js';
import { groupTexts, sharedLine, sharedMeaningLine, withMeaningHead, type Own, type SharedMeanings } from './cause-details.js';
import { evaluationBlocks, evaluationLine } from './evaluations.js';
import { isPersona, itemsNoun, rateMoved, SECTION_ORDER, SECTION_WORDS, thousands, viewOf, type Item, type ItemView, type ReportModel, type SectionKey } from './model.js';
import type { Profile } from './profile.js';
import { latencyChartBlock } from './latency-chart.js';
import { capitalized, listWords } from '../words.js';
import { onlySlower, resultsToAccept } from './to-accept.js';

export interface SectionPlan {
  /** The first `levels.length` items are shown in full, at these levels. */
  levels: readonly Level[];
  /** The next `rows` items are rows of the compact table; the rest are only counted. */
  rows: number;
}

export type Plan = Record<SectionKey, SectionPlan>;

const SECTION_INTRO: Record<SectionKey, string> = {
  newly_failing: 'These passed at the baseline and fail now.',
  still_failing: 'These failed at the baseline too.',
  // Composed from the change dimensions its items call for (changedIntro, evaluate/changes.ts).
  changed: '',
  reworded: 'Same meaning, other words: decided by formatting, a known variant or the meaning judge. Accepting one keeps the old wording as a variant, unless the two differ only in formatting.',
  new: 'No baseline yet: nothing to compare with.',
  not_evaluated: 'The check did not run, so the reply was not measured. Run it again, or look at the assertion.',
  errored: 'The replay did not complete, so there is no reply to check or accept.',
  unchanged: '',
};

/** Renders pieces once, however often the fitting asks for them. */
export class Pieces {
  private readonly blocks = new Map<Item, Map<string, string>>();
  private readonly rows = new Map<Item, string>();
  private sketch: Pieces | undefined;

  constructor(
    private readonly ctx: ReportContext,
    private readonly p: Profile,
    private readonly model: Pick<ReportModel, 'views'>,
    /** Items under a cause whose text is said once (cause-details.ts): what each shows instead. */
    private readonly owns: ReadonlyMap<Item, Own> = new Map(),
    /** A reason the meaning was not checked, said once per section (cause-details.ts). */
    readonly meanings: SharedMeanings = { bySection: new Map(), heads: new Map(), after: new Map() },
  ) {}

  /**
   * The same pieces with every diff block left out and no diff computed (profile.ts, `diffs`): what
   * they measure is a floor of what these measure, for the fitting to tell whether a plan can fit
   * before it computes a diff (fit.ts).
   */
  withoutDiffs(): Pieces {
    this.sketch ??= new Pieces(this.ctx, { ...this.p, diffs: false }, this.model, this.owns, this.meanings);
    return this.sketch;
  }

  /** The item's view as its section shows it: its meaning's cause cut when the section says it once. */
  private view(f: Item): ItemView {
    return withMeaningHead(viewOf(this.model, f), this.meanings.heads.get(f), this.meanings.after.get(f));
  }

  block(f: Item, level: Level, open = false): string {
    let entry = this.blocks.get(f);
    if (!entry) this.blocks.set(f, (entry = new Map()));
    const key = `${level}${open ? '+open' : ''}`;
    let block = entry.get(key);
    if (block === undefined) {
      const v = this.view(f);
      block = v.section === 'reworded' ? rewordedBlock(v, level, this.ctx, this.p) : itemBlock(v, level, this.ctx, this.p, open, this.owns.get(f));
      entry.set(key, block);
    }
    return block;
  }

  row(f: Item): string {
    let row = this.rows.get(f);
    if (row === undefined) {
      const v = this.view(f);
      this.rows.set(f, (row = v.section === 'reworded' ? rewordedLine(v, this.ctx) : itemRow(v, this.ctx)));
    }
    return row;
  }
}

/** Where a section holds persona scripts, its introduction says what it means for them too. */
const SECTION_INTRO_WITH_SCRIPTS: Partial<Record<SectionKey, string>> = {
  not_evaluated: 'A check did not run, so it measured nothing. Run it again, or look at the assertion or the script.',
  errored: 'The replay did not complete, so there is nothing to accept; a script shows the turns that completed and its checks on them, not a verdict.',
};

/** Why an item whose pass rate moved is in Changed (docs/statistics.md, "In the reports"). */
const RATE_MOVED_INTRO = "A pass rate that regressed, likely regressed or improved against the baseline's attempts counts as a change.";

export function sectionHeading(key: SectionKey, items: readonly Item[]): string {
  const w = SECTION_WORDS[key];
  const head = `#### ${w.icon} ${w.title} (${thousands(items.length)})${w.suffix}`;
  const scripts = items.some(isPersona);
  const intro = key === 'changed' ? changedIntro(items, scripts) + (items.some(rateMoved) ? ` ${RATE_MOVED_INTRO}` : '') : ((scripts ? SECTION_INTRO_WITH_SCRIPTS[key] : undefined) ?? SECTION_INTRO[key]);
  return intro ? `${head}\n\n${intro}` : head;
}

export function tableBlock(summary: string, head: string, rows: readonly string[]): string {
  return `<details><summary>${summary}</summary>\n\n${head}\n${rows.join('\n')}\n\n</details>`;
}

/** `items` are the ones counted: they name themselves fixtures, persona scripts or items. */
export function countedLine(key: SectionKey, items: readonly Item[], more = true): string {
  const n = items.length;
  const what = `${thousands(n)} ${more ? 'more ' : ''}${SECTION_WORDS[key].count} ${itemsNoun(items, n)}`;
  return `_${more ? '… and ' : ''}${what}, only counted here: see the full report._`;
}

/** A few newly failing fixtures are shown open: their diff is the first thing a reviewer needs. */
export const OPEN_NEWLY_FAILING = 3;

export function isOpen(key: SectionKey, sectionSize: number): boolean {
  return key === 'newly_failing' && sectionSize <= OPEN_NEWLY_FAILING;
}

/**
 * The Reworded section (docs/meaning.md, "In the comment"): its heading, then one collapsed block
 * with each item's line and diff, then one line per further item, then the count of the rest.
 */
function rewordedBlocks(items: readonly Item[], plan: SectionPlan, pieces: Pieces): string[] {
  const inner: string[] = plan.levels.map((level, i) => pieces.block(items[i] as Item, level));
  const listed = items.slice(plan.levels.length, plan.levels.length + plan.rows);
  if (listed.length > 0) inner.push(listed.map((f) => pieces.row(f)).join('\n'));
  const counted = items.slice(plan.levels.length + listed.length);
  if (counted.length > 0) inner.push(countedLine('reworded', counted, counted.length < items.length));
  const d = plan.levels.length;
  // The diffs inside are said as many as they are: "each" only when every item has its diff here.
  const diffs = d === 0 ? '' : d === items.length ? '; each diff inside' : d === 1 ? '; the first diff inside' : `; the first ${thousands(d)} diffs inside`;
  const summary = `${thousands(items.length)} reworded ${itemsNoun(items)}: name, how it was decided and file${diffs}`;
  return [sectionHeading('reworded', items), `<details><summary>${summary}</summary>\n\n${inner.join(SEP)}\n\n</details>`];
}

function sectionBlocks(key: SectionKey, items: readonly Item[], plan: SectionPlan, pieces: Pieces, model: ReportModel, endpoint: string | null): string[] {
  if (items.length === 0) return [];
  if (key === 'reworded') return rewordedBlocks(items, plan, pieces);
  const blocks = [sectionHeading(key, items)];
  // A reason the meaning was not checked that several items share: said once, under the heading.
  const meaning = pieces.meanings.bySection.get(key);
  if (meaning !== undefined) blocks.push(`${escapeInline(sharedMeaningLine(meaning, LIMITS.detail))}.`);
  const open = isOpen(key, items.length);
  // Errored and not evaluated items come grouped by cause (model.ts): each group under its cause.
  let cause: CauseGroup | undefined;
  const texts = groupTexts(model, items);
  plan.levels.forEach((level, i) => {
    const item = items[i] as Item;
    const group = model.causeOf.get(item);
    if (group !== undefined && group !== cause) {
      const labels = items.filter((x) => model.causeOf.get(x) === group).map((x) => x.label);
      // The text the group's items share, once under the cause; each item shows only what differs.
      const text = texts.get(group);
      const shared = text === undefined ? null : sharedLine(text, labels.length);
      const sharedText = shared === null ? '' : `<br>\n${escapeDetail(clipDetail(shared, LIMITS.detail))}`;
      blocks.push(leftToRightStart(`**${causeMarkdown(causeLine({ ...group, labels }, items.length), endpoint, group.hint)}**${sharedText}`));
    }
    cause = group;
    blocks.push(pieces.block(item, level, open));
  });
  const listed = items.slice(plan.levels.length, plan.levels.length + plan.rows);
  if (listed.length > 0) {
    const more = plan.levels.length > 0 ? 'more ' : '';
    const word = SECTION_WORDS[key].count;
    const summary = `${thousands(listed.length)} ${more}${word} ${itemsNoun(listed)}: name, verdict, drift and file`;
    blocks.push(tableBlock(summary, tableHead(listed), listed.map((f) => pieces.row(f))));
  }
  const counted = items.slice(plan.levels.length + listed.length);
  if (counted.length > 0) blocks.push(countedLine(key, counted, counted.length < items.length));
  return blocks;
}

/**
 * Where each item's part of the document starts, in the document's order: its block, its table row,
 * or the line that counts it (`text`, assembled from `plan`). A cut before that offset leaves the
 * item out (fit.ts, cutLine); a part not found reads as at the end.
 */
export function itemStarts(doc: Doc, plan: Plan, text: string): number[] {
  const starts: number[] = [];
  let at = 0;
  const find = (piece: string, n: number): void => {
    const i = text.indexOf(piece, at);
    if (i !== -1) at = i + piece.length;
    for (let k = 0; k < n; k++) starts.push(i === -1 ? text.length : i);
  };
  for (const key of SECTION_ORDER) {
    const items = doc.model.sections[key];
    const s = plan[key];
    // As sectionBlocks and rewordedBlocks render them: the Reworded block's items are never open.
    const open = key !== 'reworded' && isOpen(key, items.length);
    s.levels.forEach((level, i) => find(doc.pieces.block(items[i] as Item, level, open), 1));
    const listed = items.slice(s.levels.length, s.levels.length + s.rows);
    for (const f of listed) find(doc.pieces.row(f), 1);
    const counted = items.slice(s.levels.length + listed.length);
    if (counted.length > 0) find(countedLine(key, counted, counted.length < items.length), counted.length);
  }
  return starts;
}

/** What the plan leaves out, said right under the headline; null when everything is shown. */
export function noticeBlock(model: ReportModel, plan: Plan, ctx: ReportContext, p: Profile): string | null {
  const partial: string[] = [];
  // Of the sections shown in part: how many of each are rows of its table, and whether any is only counted.
  const tabled: string[] = [];
  let allTabled = true;
  const counted: string[] = [];
  let noFullReplies = 0;
  let noReplies = 0;
  // Shown without their full replies, and with no diff either: their replies are too long to diff here.
  let noDiffable = 0;
  let noTranscripts = 0;
  // Reworded items the comment only counts because it names a bounded number of them (docs/meaning.md, "In the comment"), not to fit.
  let rewordedCapped: string | null = null;
  for (const key of SECTION_ORDER) {
    const items = model.sections[key];
    const s = plan[key];
    // Reworded items are one collapsed block whose diffs are extras (docs/meaning.md): only those left uncounted are said.
    if (key === 'reworded') {
      const n = items.length - s.levels.length - s.rows;
      if (n > 0 && s.rows >= p.rewordedRows) {
        const shown = [s.levels.length > 0 ? `${thousands(s.levels.length)} with their diff` : '', `${thousands(s.rows)}${s.levels.length > 0 ? ' more' : ''} by name`].filter(Boolean);
        rewordedCapped = `Of ${thousands(items.length)} reworded, the comment shows ${listWords(shown)} (it names no more than ${thousands(p.rewordedRows)}); ${thousands(n)} ${n === 1 ? 'is' : 'are'} only counted.`;
      } else if (n > 0) counted.push(`${thousands(n)} ${SECTION_WORDS[key].count}`);
      continue;
    }
    const n = items.length - s.levels.length - s.rows;
    if (key !== 'unchanged' && s.levels.length < items.length) {
      partial.push(`${thousands(s.levels.length)} of ${thousands(items.length)} ${SECTION_WORDS[key].count}`);
      if (s.rows > 0) tabled.push(`${thousands(s.rows)} more ${SECTION_WORDS[key].count}`);
      if (n > 0) allTabled = false;
    }
    if (n > 0) counted.push(`${thousands(n)} ${SECTION_WORDS[key].count}`);
    s.levels.forEach((level, i) => {
      const item = items[i] as Item;
      if (level === 'full' || levelsOf(item).length === 1) return;
      if (isPersona(item)) noTranscripts++;
      else if (level === 'diff') {
        if (item.baseline !== null && item.reply !== null && !diffable(item.baseline.reply, item.reply, p)) noDiffable++;
        else noFullReplies++;
      } else noReplies++;
    });
  }
  if (partial.length === 0 && counted.length === 0 && rewordedCapped === null && noFullReplies + noReplies + noDiffable + noTranscripts === 0) return null;
  const sentences: string[] = [];
  if (partial.length > 0) {
    // The table is said only of the rows it has: the rest of a section may be only counted (said next).
    // One story: items shown in detail (each its own block), more listed by name only, the rest only counted.
    const where = (their: string): string => `listed by name only, in a table at the end of ${their} section`;
    const one = tabled.length === 1 && tabled[0]?.startsWith('1 ') === true;
    if (allTabled) sentences.push(`Shown in detail: ${listWords(partial)}; the others are ${where('their')}.`);
    else if (tabled.length > 0) sentences.push(`Shown in detail: ${listWords(partial)}; ${listWords(tabled)} ${one ? `is ${where('its')}` : `are ${where('their')}`}.`);
    else sentences.push(`Shown in detail: ${listWords(partial)}.`);
  }
  const size: string[] = [];
  if (counted.length > 0) size.push(`${listWords(counted)} are only counted`);
  const left: string[] = [];
  const fixturesWord = (n: number): string => (n === 1 ? 'fixture' : 'fixtures');
  if (noTranscripts > 0) left.push(`the transcripts of ${thousands(noTranscripts)} persona ${noTranscripts === 1 ? 'script' : 'scripts'}`);
  if (noFullReplies > 0) left.push(`the whole replies of ${thousands(noFullReplies)} ${fixturesWord(noFullReplies)} (their diffs are shown)`);
  if (noReplies > 0) left.push(`the replies and diffs of ${thousands(noReplies)} ${fixturesWord(noReplies)}`);
  if (noDiffable > 0) left.push(`the replies of ${thousands(noDiffable)} ${fixturesWord(noDiffable)} too long to diff`);
  // What is left out is of the items shown in detail: said so when the notice has named them.
  const ofDetailed = left.length > 0 && partial.length > 0;
  if (left.length > 0) size.push(`${ofDetailed ? 'of those shown in detail, ' : ''}${listWords(left)} are left out`);
  if (size.length > 0) sentences.push(`${capitalized(size.join(ofDetailed ? ' and, ' : ' and '))}, to fit ${p.limitWords}.`);
  if (rewordedCapped !== null) sentences.push(rewordedCapped);
  sentences.push(`Everything is in ${fullReportWhere(ctx, p)}.`);
  return `> ✂️ ${sentences.join(' ')}`;
}

const SEP = '\n\n';

export function separatorLength(p: Profile): number {
  return p.measure(SEP);
}

/** What is shared by every rendering of one run: the model, the pieces, the acceptable fixtures. */
export interface Doc {
  run: RunRecord;
  ctx: ReportContext;
  model: ReportModel;
  p: Profile;
  pieces: Pieces;
  /**
   * Items the accept label would store (evaluate's acceptance rule for fixtures, docs/personas.md
   * for scripts), each with the baseline it would write.
   */
  acceptable: ReadonlyMap<Item, Baseline | PersonaBaseline>;
  /** Items with a pass or fail the accept label would refuse (attempts that differ in meaning: docs/meaning.md, "Repeats"), with accept's reason. */
  refused: ReadonlyMap<Item, string>;
  /** The evaluations (docs/evaluations.md), rendered once: the line under the facts and the details below the sections. */
  evaluations: Evaluations;
}

export interface Evaluations {
  line: string;
  full: readonly string[];
  brief: readonly string[];
  /** Which details are shown: all of them, or only their lines (fit.ts decides). */
  use: 'full' | 'brief';
}

export function evaluationsOf(run: RunRecord, ctx: ReportContext, p: Profile): Evaluations {
  return { line: evaluationLine(run, ctx), full: evaluationBlocks(run, ctx, p), brief: evaluationBlocks(run, ctx, p, true), use: 'full' };
}

export function assemble(doc: Doc, plan: Plan): string {
  const { run, ctx, model, p, pieces } = doc;
  const blocks: string[] = [];
  if (p.kind === 'comment') blocks.push(hiddenHead(ctx, model));
  const suite = suiteLine(ctx);
  if (suite !== null) blocks.push(suite);
  if (ctx.acceptance) blocks.push(acceptanceBlock(ctx.acceptance));
  blocks.push(headline(model, run.agent.endpoint ?? null, ctx.gate ?? null));
  const incomplete = incompleteBlock(run);
  if (incomplete) blocks.push(incomplete);
  const interrupted = interruptedBlock(run, model);
  if (interrupted) blocks.push(interrupted);
  const flaky = flakyBlock(model);
  if (flaky) blocks.push(flaky);
  const notice = noticeBlock(model, plan, ctx, p);
  if (notice) blocks.push(notice);
  const edits = suiteEditsBlock(run);
  if (edits) blocks.push(edits);
  const ev = doc.evaluations;
  blocks.push(talliesTable(model), factsLine(run, ctx));
  const fallback = judgeFallbackLine(run);
  if (fallback !== null) blocks.push(fallback);
  blocks.push(ev.line);
  const rate = runRateLine(model, p.kind);
  if (rate !== null) blocks.push(rate);
  for (const key of SECTION_ORDER) blocks.push(...sectionBlocks(key, model.sections[key], plan[key], pieces, model, run.agent.endpoint ?? null));
  const removed = removedBlock(model);
  if (removed !== null) blocks.push(removed);
  blocks.push(...(ev.use === 'full' ? ev.full : ev.brief));
  // The job summary and the markdown report chart turn latency against the baselines' (docs/latency.md, "Views").
  const chart = p.kind === 'comment' ? null : latencyChartBlock(run);
  if (chart !== null) blocks.push(chart);
  const shown = SECTION_ORDER.flatMap((k) => model.sections[k].slice(0, plan[k].levels.length));
  const reworded = new Set(model.sections.reworded);
  // An unchanged item the label would still rewrite (its pass rate, latency, judge or known wordings moved) is no
  // new or changed pass/fail result: said apart, by name, since the comment shows no unchanged item.
  const unchanged = new Set(model.sections.unchanged);
  const needed = (f: Item): boolean => doc.acceptable.has(f) && !reworded.has(f) && !unchanged.has(f);
  const acceptable = resultsToAccept(model, doc.acceptable);
  const cta: CallToAction = {
    acceptable: acceptable.length,
    // Changed only by being slower: accepting stores its latency, not a new pass/fail result (docs/latency.md).
    slower: acceptable.filter((f) => onlySlower(f, model)),
    shownInFull: shown.filter(needed).length,
    reworded: model.sections.reworded.flatMap((item) => {
      const baseline = doc.acceptable.get(item);
      return baseline === undefined ? [] : [{ item, baseline }];
    }),
    refreshed: model.sections.unchanged.flatMap((item) => {
      const baseline = doc.acceptable.get(item);
      return baseline === undefined ? [] : [{ item, baseline }];
    }),
    // An unchanged item keeps its baseline whether refused or not: only the others are news to the reader.
    refused: [...doc.refused].flatMap(([item, reason]) => (unchanged.has(item) ? [] : [{ item, reason }])),
  };
  blocks.push('---', ...footerBlocks(run, ctx, model, p, cta));
  return `${blocks.join(SEP)}\n`;
}
