// The line `agent-replay accept` prints for each baseline it wrote (docs/cli.md, "What each command
// does"): the label, the verdict stored, why an item that needed no acceptance was written all the
// same, and the file. Pure: the command (main.ts) prints it.

import type { Baseline, PersonaBaseline } from '../types.js';
import { sectionOf, type Item } from '../report/model.js';
import { measurementsMoved } from '../report/blocks.js';
import { meansTheSame } from '../evaluate/variants.js';
import { terminalLine } from '../report/escape.js';

/**
 * "accepted  faq (pass; reworded: its earlier wording kept as a known variant) → path". `item` is the
 * run's record of it, `stored` the baseline file as it was before the write (null: there was none).
 * A reworded item says which wording it stores (docs/meaning.md, "Variants"); an unchanged one says
 * what moved, in the comment's "To refresh" words (report/blocks.ts measurementsMoved).
 */
export function acceptedLine(item: Item | undefined, stored: Baseline | PersonaBaseline | null, written: Baseline | PersonaBaseline, path: string): string {
  // The baseline's path names the suite folder as given: a control character in it shown as an escape (docs/security.md, "Agent text is data").
  return `accepted  ${written.label} (${written.verdict}${item === undefined ? '' : whyWritten(item, stored, written)}) → ${terminalLine(path)}\n`;
}

function whyWritten(item: Item, stored: Baseline | PersonaBaseline | null, written: Baseline | PersonaBaseline): string {
  if (!item.errored && (item.drift?.verdict === 'still_passing' || item.drift?.verdict === 'still_failing') && meansTheSame(item.drift.meaning)) {
    return keptEarlier(item.baseline, written) ? '; reworded: its earlier wording kept as a known variant' : '; reworded: its new wording stored, the earlier one differing only in formatting';
  }
  // Its reply and verdict stand: the file is rewritten for what its measurements say now.
  if (stored === null || sectionOf(item) !== 'unchanged') return '';
  const moved = measurementsMoved(stored, written);
  return `; unchanged, its measurements moved${moved.length === 0 ? '' : `: ${moved.join(', ')}`}`;
}

/** Whether the written baseline keeps the earlier baseline's wording (a reply, or a script turn's) as a variant. */
function keptEarlier(before: Baseline | PersonaBaseline | null, after: Baseline | PersonaBaseline): boolean {
  if (before === null) return false;
  if ('transcript' in before && 'transcript' in after) {
    return before.transcript.some((t, i) => after.transcript[i]?.reply !== t.reply && (after.transcript[i]?.variants ?? []).includes(t.reply));
  }
  return 'reply' in before && 'reply' in after && (after.variants ?? []).includes(before.reply);
}
