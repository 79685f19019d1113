// Items grouped under one cause (docs/semantics.md, "The gate", Not verified) share most of their
// error text: the cause is said once under the group's heading, with the text its items share,
// and each item then shows only what differs (its turn, or its own text when it has another).
// Pure: the terminal and the markdown reports both use it.

import { isPersona, type Item, type ReportModel } from './model.js';
import type { CauseGroup } from '../evaluate/index.js';

/** The text an item's cause was read from: its error, or a not evaluated fixture's detail; null otherwise. */
export function causeTextOf(item: Item): string | null {
  if (item.errored) return item.error ?? null;
  if (isPersona(item)) return null;
  return item.verdict === 'not_evaluated' ? item.detail || null : null;
}

const TURN = /^((?:welcome turn|message turn|turn \d+)(?: \(welcome\))?): /;

/** "message turn: could not reach ..." -> ["message turn", "could not reach ..."]. */
function splitTurn(text: string): [string | null, string] {
  const m = TURN.exec(text);
  return m ? [m[1] as string, text.slice(m[0].length)] : [null, text];
}

/** What an item under a shared text shows: the turn it happened on, or its own (different) text. */
export type Own = { turn: string | null; text: null } | { turn: null; text: string };

export interface GroupText {
  /** The text the group's items share, said once under the cause; null when fewer than two share one. */
  shared: string | null;
  /** How many of the group's items have exactly that text. */
  sharing: number;
  /**
   * Per item, what to show instead of its own text: its turn ("message turn") when its text is the
   * shared one (null when the turn is shared too), or its whole text when it differs. Items absent
   * from the map show their text as usual.
   */
  own: Map<Item, Own>;
}

/**
 * The shared text of one cause group's items: the text (without the turn it happened on) that most
 * of them have, when at least two have it; the turn too when every item has the same.
 */
export function groupText(items: readonly Item[]): GroupText {
  const parts = items.map((item) => {
    const text = causeTextOf(item);
    return { item, text, split: text === null ? null : splitTurn(text.trim()) };
  });
  const counts = new Map<string, number>();
  for (const p of parts) if (p.split) counts.set(p.split[1], (counts.get(p.split[1]) ?? 0) + 1);
  let body: string | null = null;
  let sharing = 0;
  for (const [text, n] of counts) {
    if (n > sharing) {
      body = text;
      sharing = n;
    }
  }
  const own = new Map<Item, Own>();
  if (body === null || sharing < 2) return { shared: null, sharing: 0, own };
  const turns = new Set(parts.map((p) => p.split?.[0] ?? null));
  const sameTurn = sharing === items.length && turns.size === 1 ? ([...turns][0] ?? null) : null;
  const shared = sameTurn === null ? body : `${sameTurn}: ${body}`;
  for (const p of parts) {
    if (p.split === null) continue;
    if (p.split[1] !== body) own.set(p.item, { turn: null, text: p.text as string });
    else own.set(p.item, { turn: sameTurn === null ? p.split[0] : null, text: null });
  }
  return { shared, sharing, own };
}

/** The shared line's words: "each: TEXT", or "5 of them: TEXT" when some items differ (each shown with its own). */
export function sharedLine(g: GroupText, of: number): string | null {
  if (g.shared === null) return null;
  return g.sharing === of ? `each: ${g.shared}` : `${g.sharing} of them: ${g.shared}`;
}

/** Every cause group of the model, with the items of one section under it (those of `items`). */
export function groupTexts(model: Pick<ReportModel, 'causeOf'>, items: readonly Item[]): Map<CauseGroup, GroupText> {
  const members = new Map<CauseGroup, Item[]>();
  for (const item of items) {
    const g = model.causeOf.get(item);
    if (g === undefined) continue;
    const list = members.get(g);
    if (list) list.push(item);
    else members.set(g, [item]);
  }
  return new Map([...members].map(([g, list]) => [g, groupText(list)]));
}

/** What each item under a shared cause text shows instead of its text, over every section of the model. */
export function ownTexts(model: Pick<ReportModel, 'causeOf' | 'sections'>): Map<Item, Own> {
  const owns = new Map<Item, Own>();
  for (const items of Object.values(model.sections)) {
    for (const text of groupTexts(model, items).values()) for (const [item, own] of text.own) owns.set(item, own);
  }
  return owns;
}
