// Items grouped under one cause (docs/semantics.md, "The gate", Not verified) share most of their
// error text: the cause is said once under the group's heading, with the text its items share,
// and each item then shows only what differs (its turn, or its own text when it has another).
// Likewise a reason the meaning was not checked that items of one section share (docs/meaning.md,
// "On every surface") is said once under the section's heading. Pure: the terminal and the
// markdown reports both use it.

import { isPersona, type Item, type ItemView, type ReportModel, type SectionKey } from './model.js';
import { attemptNamed, CALL_FAILED_HINT, ERROR_IN_200, error200Hint, JUDGE_CUT_HINT, MEANING_SETTINGS, modelDownHint, modelsAnsweredInRun, unfinishedAnswer, uncheckedParts, type CauseGroup } from '../evaluate/index.js';
import { showLookalikes } from './lookalike.js';
import { factsOnlyFix, isFactsOnlyCause } from '../evaluate/meaning/ladder.js';
import { thousands } from '../words.js';
import { docsUrl } from '../version.js';
import { needsBlock } from './item-parts.js';
import { clipKeepingFix, fixStart } from '../assertions/format.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import type { RunRecord } from '../types.js';

/** The text an item's cause was read from: its error, or a not evaluated fixture's detail; null otherwise. */
export function causeTextOf(item: Item): string | null {
  if (item.errored) return item.error ?? null;
  if (isPersona(item)) return null;
  return item.verdict === 'not_evaluated' ? item.detail || null : null;
}

const TURN = /^((?:welcome turn|message turn|turn \d+)(?: \(welcome\))?): /;

/** The text most of `texts` are (the first of equals) and how many are it; [null, 0] for none. */
export function mostShared(texts: readonly string[]): [string | null, number] {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  let best: string | null = null;
  let sharing = 0;
  for (const [text, n] of counts) {
    if (n > sharing) {
      best = text;
      sharing = n;
    }
  }
  return [best, sharing];
}

/** "turn 3: the agent reported ..." -> "turn 3"; null when the text names no turn. */
export function errorTurn(text: string): string | null {
  return TURN.exec(text)?.[1] ?? null;
}

/** "message turn: could not reach ..." -> ["message turn", "could not reach ..."]. */
function splitTurn(text: string): [string | null, string] {
  const m = TURN.exec(text);
  return m ? [m[1] as string, text.slice(m[0].length)] : [null, text];
}

/**
 * What an item under a shared text shows: the turn it happened on, or its own (different) text.
 * `long`: its own text without the turn, too long for its line (needsBlock): the comment shows it
 * whole in the item's block, the terminal bounded on the item's line (groupText).
 */
export type Own = { turn: string | null; text: null; long?: string } | { turn: null; text: string; long?: never };

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
 * of them have, when at least two have it; the turn too when every item has the same. An item
 * whose own text is too long for its line (needsBlock) shows its turn on its line: the cause above
 * sums the text up, the comment's block shows it whole, once, and the terminal (which has no
 * block) shows it bounded below the item's line (its `long`).
 */
export function groupText(items: readonly Item[]): GroupText {
  const g = sharedText(items);
  for (const item of items) {
    const text = causeTextOf(item);
    const own = g.own.get(item);
    if (text === null || !needsBlock(text) || (own !== undefined && own.text === null)) continue;
    const [turn, long] = splitTurn(text.trim());
    g.own.set(item, { turn, text: null, long });
  }
  return g;
}

function sharedText(items: readonly Item[]): GroupText {
  const parts = items.map((item) => {
    const text = causeTextOf(item);
    return { item, text, split: text === null ? null : splitTurn(text.trim()) };
  });
  const [body, sharing] = mostShared(parts.flatMap((p) => (p.split ? [p.split[1]] : [])));
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
export function sharedLine(g: Pick<GroupText, 'shared' | 'sharing'>, of: number): string | null {
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

/**
 * A cause of "meaning not checked" that two or more items of one section share (docs/meaning.md,
 * "On every surface"): said once under the section's heading, and each of those items then reads
 * only "meaning not checked" (a script's "turn 3 meaning not checked").
 */
export interface SharedMeaning {
  /** The cause as the items' lines would say it, look-alike letters named (model.ts). */
  cause: string;
  /** Per item that has it, the words it shows instead: the head without the cause. */
  heads: Map<Item, string>;
  /** How many items of the section are listed (the denominator of "3 of the 5"). */
  of: number;
  /**
   * What to do about the cause, when it is ours to say (meaning.check facts, a meaning judge
   * unreachable or whose request could not be made); with meaning.check off, that it is, the user's
   * own choice (meaningOffWords); null otherwise.
   */
  fix: string | null;
}

/**
 * The meaning cause most items of `items` share, when at least two do; null otherwise. `judged`:
 * the run had a judge configured (its record's `judge.name`), which decides what the fix says;
 * `answered`: whether the meaning judge decided another meaning of the run (modelsAnsweredInRun), which
 * changes the fix a dropped connection reads, asked only for that fix; `file`: the suite's config file (the record's
 * `configName`), which the fix names; `off`: the run had meaning.check off, said in place of a fix.
 */
export function sharedMeaning(items: readonly Item[], judged: boolean, answered: () => boolean = () => false, file = NEW_CONFIG_NAME, off = false): SharedMeaning | null {
  const parts = new Map<Item, { head: string; cause: string }>();
  for (const item of items) {
    const p = uncheckedOf(item);
    const own = p === null || item.repeat == null ? p : attemptApart(p);
    if (own !== null) parts.set(item, own);
  }
  const [cause, sharing] = mostShared([...parts.values()].map((p) => p.cause));
  if (cause === null || sharing < 2) return null;
  const heads = new Map<Item, string>();
  for (const [item, p] of parts) if (p.cause === cause) heads.set(item, p.head);
  // A meaning judge that answered, and whose answer did not end, broke off or was not HTTP, was
  // reached: said as a judge's cause says it ("the meaning judge's answer did not end within 200 ms"),
  // not "unreachable" (the cause's words since 2026-12-06, "gave no usable answer: ..."; before, "unreachable: ...").
  const reached = MEANING_JUDGE_ASKED.test(cause) ? unfinishedAnswer(cause.replace(MEANING_JUDGE_ASKED, ''), 'meaning judge') : null;
  // A meaning judge that could not be reached, whose reason says its own fix ("its TLS certificate is
  // refused: ...; point NODE_EXTRA_CA_CERTS ..."), gets no second one after it.
  const down = MEANING_JUDGE_DOWN.test(cause) && fixStart(cause) <= 0;
  const fix =
    isFactsOnlyCause(cause)
      ? factsOnlyFix(judged, file)
      : reached !== null
        ? reached.hint
        : down
          ? modelDownHint(cause.replace(MEANING_JUDGE_DOWN, ''), MEANING_SETTINGS, answered(), file)
          : MEANING_JUDGE_CUT.test(cause)
            ? MEANING_JUDGE_CUT_FIX
            : MEANING_JUDGE_ASKED.test(cause) && cause.includes(`: ${ERROR_IN_200}: `)
            ? error200Hint(MEANING_SETTINGS)
            : MEANING_JUDGE_NO_SCORE.test(cause)
            ? MEANING_JUDGE_NO_SCORE_FIX
            : MEANING_JUDGE_CALL_FAILED.test(cause)
              ? CALL_FAILED_HINT
              : null;
  // meaning.check off: the user's choice, said as it is; nothing to fix.
  return { cause: showLookalikes(reached?.what ?? cause), heads, of: items.length, fix: off ? meaningOffWords(file) : fix };
}

/** The item's unchecked meaning as its line says it, head and cause (uncheckedParts); null when it has none. */
function uncheckedOf(item: Item): { head: string; cause: string } | null {
  const m = item.errored ? null : (item.drift?.meaning ?? null);
  return m === null ? null : uncheckedParts(m, isPersona(item));
}

/**
 * A repeated item's unchecked meaning with the attempt it names kept on the item's line (its head,
 * "meaning not checked: attempt 2"), so that the cause items share is the cause alone: each item's
 * own attempt, not the first's, and one item's attempt 2 shares it with another's attempt 4 or with
 * an item run once. The head and cause still read as the item's words ("meaning not checked:
 * attempt 2: <cause>"). Null when the attempt is all it names: nothing to share.
 */
function attemptApart(p: { head: string; cause: string }): { head: string; cause: string } | null {
  const named = attemptNamed(p.cause);
  if (named === null) return p;
  return named.rest === '' ? null : { head: `${p.head}: ${named.attempt}`, cause: named.rest };
}

/**
 * The shared line's words when the run had meaning.check off (its record's `meaning`; an older
 * record has none), after the cause: "meaning.check is off in config.yml". The meaning of every
 * attempt that replied otherwise was left out by the user's choice, and there is nothing to fix.
 */
function meaningOffWords(file: string): string {
  return `meaning.check is off in ${file}`;
}

/**
 * With meaning.check off, what an item whose meaning was not checked says after its meaning's words
 * where no shared line says it (withMeaningHead's `after`): the comment's and the terminal's item
 * alone in its section, report.html's and JUnit's every item. Undefined otherwise.
 */
export function meaningOffAfter(item: Item, run: Pick<RunRecord, 'meaning' | 'configName'>): string | undefined {
  return run.meaning?.check === 'off' && uncheckedOf(item) !== null ? meaningOffWords(run.configName ?? NEW_CONFIG_NAME) : undefined;
}

/** A meaning judge that could not be reached (judge/meaning.ts): the fix for what it did, with its settings (evaluate/causes.ts, downHint). */
const MEANING_JUDGE_DOWN = /^meaning judge unreachable: /;
/** A meaning judge request agent-replay could not make (judge/meaning.ts): nothing was sent, so no setting is at fault. */
const MEANING_JUDGE_CALL_FAILED = /^meaning judge call failed: /;
/** A meaning judge asked that gave nothing usable: nothing answered, or something did, in a form not read (judge/meaning.ts). */
const MEANING_JUDGE_ASKED = /^meaning judge (?:unreachable|gave no usable answer): /;
/**
 * A meaning model that answered, and not in the form asked for (judge/meaning.ts): prose or an
 * object with no score, a score not a number or outside 0 to 1, two scores, no content. Not an
 * answer the endpoint sent that no model wrote (TLS, not JSON, too large): those say their own fix.
 */
const MEANING_JUDGE_NO_SCORE = /^meaning judge gave no usable answer: (?:"|score |the answer (?:gives \d+ different scores|names "score" twice)|the model's thinking|the only score|no choices\[0\]|no meaning_verdict tool call)/;
/** A meaning model stopped at its token limit (judge/structured.ts, cutWords): its limit is the fix, as the judge's (evaluate/causes.ts). */
const MEANING_JUDGE_CUT = /^meaning judge gave no usable answer: the answer was cut at the model's token limit\b/;
const MEANING_JUDGE_CUT_FIX = JUDGE_CUT_HINT.replace('judge.model', 'meaning.model (else judge.model)');
const MEANING_JUDGE_NO_SCORE_FIX = `use a meaning judge model that follows the prompt (meaning.model, else judge.model), or an endpoint with structured output (${docsUrl('judges.md', 'Structured output and its fallback')})`;

/**
 * The shared meaning's line: "Meaning not checked for all 4: CAUSE", "… for 3 of the 5: CAUSE"; then
 * "; FIX" when there is one. The cause is bounded to `max` characters (a reason's own fix kept
 * whole, clipKeepingFix), the fix after it never: it is what the reader acts on.
 */
export function sharedMeaningLine(s: SharedMeaning, max = 300): string {
  const n = s.heads.size;
  const line = `Meaning not checked for ${n === s.of ? `all ${thousands(n)}` : `${thousands(n)} of the ${thousands(s.of)}`}: ${clipKeepingFix(s.cause, max)}`;
  return s.fix === null ? line : `${line}; ${s.fix}`;
}

/**
 * The item's view with its meaning's words cut to `head` (the cause is said above it), or, for an
 * item whose cause no shared line says, with `after` said after them (meaningOffWords); the view
 * itself when it has no meaning words.
 */
export function withMeaningHead(v: ItemView, head: string | undefined, after?: string): ItemView {
  const c = head === undefined && after === undefined ? undefined : v.changes.find((x) => x.dimension === 'meaning');
  if (c === undefined) return v;
  const words = head ?? `${c.words}; ${after as string}`;
  const swap = (w: string): string => (w === c.words ? words : w);
  return { ...v, changes: v.changes.map((x) => (x === c ? { ...x, words } : x)), drift: v.drift.map(swap), status: v.status.map(swap) };
}

/**
 * Per section, its shared meaning cause; per item, the head it shows instead of its words; and per
 * item whose unchecked meaning no shared line says, what its line says after its words (with
 * meaning.check off, meaningOffWords: an item alone reads as truly as a group's line).
 */
export interface SharedMeanings {
  bySection: ReadonlyMap<SectionKey, SharedMeaning>;
  heads: ReadonlyMap<Item, string>;
  after: ReadonlyMap<Item, string>;
}

/** The shared meaning causes of every section of the model, for `run` (its judge, config file and meaning.check: sharedMeaning's `judged`, `file` and `off`). */
export function sharedMeanings(model: Pick<ReportModel, 'sections'>, run: Pick<RunRecord, 'judge' | 'meaning' | 'configName'>): SharedMeanings {
  const bySection = new Map<SectionKey, SharedMeaning>();
  const heads = new Map<Item, string>();
  const after = new Map<Item, string>();
  // Over every item of the run, a reworded one's meaning the judge decided among them: read only
  // for the fix of a meaning judge that could not be reached, not for every run (docs/performance.md).
  let answeredInRun: boolean | undefined;
  const answered = (): boolean => (answeredInRun ??= modelsAnsweredInRun(Object.values(model.sections).flat()).meaning);
  for (const [key, items] of Object.entries(model.sections) as [SectionKey, Item[]][]) {
    // Reworded items have no unchecked meaning; unchanged items are only counted.
    if (key === 'reworded' || key === 'unchanged') continue;
    const s = sharedMeaning(items, run.judge.name !== null, answered, run.configName ?? NEW_CONFIG_NAME, run.meaning?.check === 'off');
    if (s !== null) bySection.set(key, s);
    for (const [item, head] of s?.heads ?? []) heads.set(item, head);
    // meaning.check off: an item whose meaning was not checked and that no shared line speaks for says so on its own line.
    if (run.meaning?.check !== 'off') continue;
    for (const item of items) {
      const words = heads.has(item) ? undefined : meaningOffAfter(item, run);
      if (words !== undefined) after.set(item, words);
    }
  }
  return { bySection, heads, after };
}
