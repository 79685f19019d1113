// Render, then fit. The ideal plan shows up to `fullPerSection` items of each section in full and
// the rest of each section in its compact table. When that is over the limit, a plan is bought
// from a budget, worst first and in this order of importance:
//   1. every section's heading and count (always);
//   2. the item's line for the items that would be shown in full;
//   3. their diffs (without the nested full replies or a script's transcript), with at most half of what is left;
//   4. names in the compact tables, section by section;
//   5. the full replies and transcripts, then the unchanged items' names.
// The evaluations' details (agreement tables, coverage, what moved since the previous run, trend)
// are in or out as a whole before that: in when they take at most EVALUATIONS_SHARE of the limit.
// Whatever is not bought is counted, and the notice under the headline says so. A last trim on
// line boundaries, closing open fences and `<details>`, guarantees the limit for any input.

import { levelsOf, tableHead } from './items.js';
import type { Level } from './item-parts.js';
import { assemble, countedLine, isOpen, separatorLength, tableBlock, type Doc, type Plan, type SectionPlan } from './layout.js';
import { ATTENTION_ORDER, SECTION_ORDER, thousands, type Item, type SectionKey } from './model.js';

function emptyPlan(): Plan {
  const empty = (): SectionPlan => ({ levels: [], rows: 0 });
  return {
    newly_failing: empty(),
    still_failing: empty(),
    changed: empty(),
    reworded: empty(),
    new: empty(),
    not_evaluated: empty(),
    errored: empty(),
    unchanged: empty(),
  };
}

export function idealPlan(doc: Doc): Plan {
  const plan = emptyPlan();
  for (const key of SECTION_ORDER) {
    const n = doc.model.sections[key].length;
    const full = key === 'unchanged' ? 0 : Math.min(n, doc.p.fullPerSection);
    // Reworded items show their diff, not the two full replies; the comment lists a bounded number by name.
    if (key === 'reworded') {
      plan[key] = { levels: doc.model.sections[key].slice(0, full).map((f) => (levelsOf(f).includes('diff') ? 'diff' : 'full')), rows: Math.min(n - full, doc.p.rewordedRows) };
      continue;
    }
    plan[key] = { levels: Array.from({ length: full }, () => 'full' as Level), rows: n - full };
  }
  return plan;
}

/**
 * The sections in the order the budget buys them: Reworded (the same meaning in other words) after
 * every other section that needs attention, so that it never crowds them out.
 */
const BUDGET_ORDER: readonly SectionKey[] = [...ATTENTION_ORDER.filter((k) => k !== 'reworded'), 'reworded'];

/** A plan bought from `budget` characters (or bytes) on top of the empty plan. */
function budgetPlan(doc: Doc, budget: number): Plan {
  const { model, p, pieces } = doc;
  const sep = separatorLength(p);
  const levels: Record<SectionKey, Level[]> = { newly_failing: [], still_failing: [], changed: [], reworded: [], new: [], not_evaluated: [], errored: [], unchanged: [] };
  const rows: Record<SectionKey, number> = { newly_failing: 0, still_failing: 0, changed: 0, reworded: 0, new: 0, not_evaluated: 0, errored: 0, unchanged: 0 };
  let left = budget;
  const spend = (cost: number): boolean => {
    if (cost > left) return false;
    left -= cost;
    return true;
  };
  const opened = new Set(ATTENTION_ORDER.filter((k) => isOpen(k, model.sections[k].length)).flatMap((k) => model.sections[k]));
  const blockCost = (f: Item, level: Level): number => p.measure(pieces.block(f, level, opened.has(f))) + sep;

  // 2. Lines of the items shown in full, worst first; the first that does not fit ends the step.
  briefs: for (const key of BUDGET_ORDER) {
    const items = model.sections[key];
    for (const f of items.slice(0, Math.min(items.length, p.fullPerSection))) {
      if (!spend(blockCost(f, 'brief'))) break briefs;
      levels[key].push('brief');
    }
  }

  // 3 and 5. Raise items to `target` worst first, never more detail further down.
  const raise = (target: Level, limit: number): void => {
    let allowance = limit;
    for (const key of BUDGET_ORDER) {
      const items = model.sections[key];
      for (let i = 0; i < levels[key].length; i++) {
        const f = items[i] as Item;
        const current = levels[key][i] as Level;
        if (!levelsOf(f).includes(target) || current === target || (current === 'full' && target === 'diff')) continue;
        if (key === 'reworded' && target === 'full') continue;
        const extra = blockCost(f, target) - blockCost(f, current);
        if (extra > allowance || !spend(extra)) return;
        allowance -= extra;
        levels[key][i] = target;
      }
    }
  };
  raise('diff', left / 2);

  // 4. Names in the compact tables, section by section, then (5) the unchanged ones.
  const listRows = (keys: readonly SectionKey[]): void => {
    for (const key of keys) {
      const all = model.sections[key].slice(levels[key].length);
      const items = key === 'reworded' ? all.slice(0, p.rewordedRows) : all;
      if (items.length === 0) continue;
      const wrapper = p.measure(tableBlock('x'.repeat(60), tableHead(items), [])) + sep - p.measure(countedLine(key, items)) - sep;
      let first = true;
      for (const f of items) {
        const cost = p.measure(pieces.row(f)) + 1 + (first ? wrapper : 0);
        if (!spend(cost)) return;
        first = false;
        rows[key]++;
      }
    }
  };
  listRows(BUDGET_ORDER);
  raise('full', left);
  listRows(['unchanged']);

  const plan = emptyPlan();
  for (const key of SECTION_ORDER) plan[key] = { levels: levels[key], rows: rows[key] };
  return plan;
}

/**
 * Can the ideal plan fit, asked before its diffs are computed (a diff is the costly piece, and one
 * that is not shown should not be computed): its rendering without any diff block is a floor of its
 * size; then, worst first, each item's diff is added to it, until it is over the limit. The pieces
 * are the plan's own, so the result is exactly the ideal's size when it fits.
 */
function idealMayFit(doc: Doc, plan: Plan): boolean {
  const { p, pieces, model } = doc;
  const floorPieces = pieces.withoutDiffs();
  let size = p.measure(assemble({ ...doc, pieces: floorPieces }, plan));
  if (size > p.max) return false;
  for (const key of BUDGET_ORDER) {
    const items = model.sections[key];
    // As the section renders them (layout.ts): the Reworded block's items are never open.
    const open = key !== 'reworded' && isOpen(key, items.length);
    const levels = plan[key].levels;
    for (let i = 0; i < levels.length; i++) {
      const f = items[i] as Item;
      const level = levels[i] as Level;
      size += p.measure(pieces.block(f, level, open)) - p.measure(floorPieces.block(f, level, open));
      if (size > p.max) return false;
    }
  }
  return true;
}

/** The evaluations' details may take at most this share of the limit; beyond it only their lines are shown. */
export const EVALUATIONS_SHARE = 0.2;

/** The document fitted, and the plan it was assembled from (what each section shows: layout.ts itemStarts). */
export function fit(docIn: Doc): { text: string; plan: Plan } {
  const { p } = docIn;
  // The evaluations' details are bought first, whole or not at all: they are bounded (LISTED_ROWS)
  // and cheap next to the items, but never crowd the items out of a small limit.
  const ev = docIn.evaluations;
  const size = (blocks: readonly string[]): number => blocks.reduce((n, b) => n + p.measure(b) + separatorLength(p), 0);
  const detail = size(ev.full) - size(ev.brief);
  const doc: Doc = { ...docIn, evaluations: { ...ev, use: detail <= p.max * EVALUATIONS_SHARE ? 'full' : 'brief' } };
  // The ideal plan's table rows alone (one line each) are a lower bound of its size: when they are
  // already over the limit, the ideal (every item in full, which is costly for a large run) is not
  // rendered at all; the result is the same.
  const plan = idealPlan(doc);
  const rowsOnly = SECTION_ORDER.reduce((n, key) => {
    const items = doc.model.sections[key];
    let sum = n;
    for (let i = items.length - plan[key].rows; i < items.length && sum <= p.max; i++) sum += p.measure(doc.pieces.row(items[i] as Item)) + 1;
    return sum;
  }, 0);
  const ideal = rowsOnly > p.max || !idealMayFit(doc, plan) ? null : assemble(doc, plan);
  if (ideal !== null && p.measure(ideal) <= p.max) return { text: ideal, plan };
  const base = p.measure(assemble(doc, emptyPlan()));
  // The notice and the counts change length with the plan: start with some slack and widen it
  // until the rendering fits.
  let slack = 400;
  let out = { text: ideal ?? '', plan };
  for (let attempt = 0; attempt < 6; attempt++) {
    const budget = budgetPlan(doc, Math.max(0, p.max - base - slack));
    out = { text: assemble(doc, budget), plan: budget };
    const size = p.measure(out.text);
    if (size <= p.max) return out;
    slack += size - p.max + 400;
  }
  return out;
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
 * The last line of a document trimToFit cut (docs/cli.md, "What each command does"): the limit, how
 * many of its `total` items the cut left out (`noun` names them by a count; none left out: not said),
 * then `where`, the sentence saying where the whole of it is.
 */
export function cutLine(limitWords: string, left: number, total: number, noun: (n: number) => string, where: string): string {
  const out = left > 0 ? `: ${thousands(left)} of ${thousands(total)} ${noun(total)} left out` : '';
  return `> ✂️ Cut to fit ${limitWords}${out}. ${where}\n`;
}

/**
 * Last resort: keep whole lines from the top while they fit, then close whatever is open
 * (code fence, `<details>`) and append `tail`: given the length of `text` kept (a prefix of it),
 * so that it can count what was left out; its words for nothing kept are the longest it says.
 */
export function trimToFit(text: string, max: number, measure: (s: string) => number, tailOf: (kept: number) => string): string {
  if (measure(text) <= max) return text;
  const tail = tailOf(0);
  const lines = text.split('\n');
  let fence: string | null = null;
  let details = 0;
  const closers = (f: string | null, d: number): string => `${f !== null ? `\n${f}` : ''}${'\n\n</details>'.repeat(d)}`;
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    let f: string | null = fence;
    let d = details;
    if (f !== null) {
      if (line.startsWith(f) && /^`+\s*$/.test(line)) f = null;
    } else {
      const open = /^(`{3,})/.exec(line);
      if (open) f = open[1] as string;
      else if (/^<details[ >]/.test(line)) d++;
      else if (line === '</details>') d = Math.max(0, d - 1);
    }
    const next = size + measure(line) + (kept.length > 0 ? 1 : 0);
    if (next + measure(closers(f, d)) + measure(tail) + 2 > max) break;
    kept.push(line);
    size = next;
    fence = f;
    details = d;
  }
  const shown = kept.join('\n');
  const out = `${shown}${closers(fence, details)}\n\n${tailOf(shown.length)}`;
  return measure(out) <= max ? out : prefixWithin(out, max, measure);
}
