// What a run leaves to accept, as the report's "To accept" line counts it (docs/cli.md, "What each
// command does"): kept apart from the report's layout so that the terminal's next step after a run
// loads no more than the terminal summary does.

import { acceptanceKind, changesOf, personaAcceptanceKind, type Change } from '../evaluate/index.js';
import type { RunRecord } from '../types.js';
import { buildModel, personasOf, rateMoved, viewOf, type Item, type ReportModel } from './model.js';

/** In Changed with the same verdict, pass rate, reply and route as its baseline: only slower. */
export function onlySlower(item: Item, model: ReportModel): boolean {
  const view = viewOf(model, item);
  return view.section === 'changed' && slowerOnly(item, view.changes);
}

/** A Changed item's `changes` (changesOf) are its latency alone. */
function slowerOnly(item: Item, changes: readonly Change[]): boolean {
  const d = item.errored ? null : item.drift;
  return d?.verdict !== 'newly_passing' && !rateMoved(item) && changes.length > 0 && changes.every((c) => c.dimension === 'slower');
}

/**
 * The items whose new or changed pass/fail result accept would store: acceptable, and neither
 * reworded nor unchanged (those need no acceptance). The "To accept" line counts them (blocks.ts),
 * as does the terminal's next step after a run (docs/cli.md).
 */
export function resultsToAccept(model: ReportModel, acceptable: ReadonlyMap<Item, unknown>): Item[] {
  const skip = new Set<Item>([...model.sections.reworded, ...model.sections.unchanged]);
  return [...acceptable.keys()].filter((f) => !skip.has(f));
}

/**
 * How many new or changed pass/fail results `agent-replay accept` would store as baselines, as the
 * report's "To accept" line counts them, an item only slower left out: the terminal's next step
 * after a run (docs/cli.md, "What each command does"). Counted item by item on the terminal summary's
 * `model` (no second one), no decided baseline kept: a large run's peak memory stays its summary's; a
 * new item's baseline is not even built (acceptanceKind, personaAcceptanceKind).
 */
export function newResultsToAccept(run: RunRecord, model: ReportModel = buildModel(run)): number {
  const skip = new Set<Item>([...model.sections.reworded, ...model.sections.unchanged]);
  // Only a changed item can be only slower: its changes are read for this count, no view built (a
  // view per item of a large run is what the lazy views spare).
  const changed = new Set<Item>(model.sections.changed);
  const slower = (item: Item): boolean => changed.has(item) && slowerOnly(item, changesOf(item));
  let n = 0;
  for (const f of run.fixtures) if (!skip.has(f) && !slower(f) && acceptanceKind(f, run.commit) === 'accept') n += 1;
  for (const s of personasOf(run)) if (!skip.has(s) && !slower(s) && personaAcceptanceKind(s, run.commit) === 'accept') n += 1;
  return n;
}
