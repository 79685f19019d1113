// An item's changes against its baseline, decided in one place (docs/architecture.md, "Where an
// item's changes are decided"). Each change dimension is one entry of DIMENSIONS: how it is read
// from a record, the words every surface shows, the fail-on condition it meets, the cause `compare`
// names and how it compares two runs, what an acceptance leaves of it, and how the Changed section
// introduces it. The sections, the headline, the gate, acceptance, `compare`, every renderer and the
// Action's `drifted` output read changesOf (or DIMENSIONS), never the record's fields. Pure.
//
// Records stay results.json schema version 1: `drift` holds the reply (transcript) and route
// comparisons, `slower` is its own field; only the derivation lives here.

import type { Drift, FailOnCondition, FixtureRecord, LatencyThresholds, PersonaDrift, PersonaRecord, Route, Slower } from '../types.js';
import { sameRoute, sameRoutes } from './drift.js';
import { kindOf, type ItemKind } from './kind.js';
import { itemLatencyMs, slowerText, slowerThanBaseline } from './latency.js';

/** The ways an item can differ from its baseline, besides its verdict. */
export type Dimension = 'reply' | 'transcript' | 'route' | 'slower';

/**
 * What changesOf reads of an item: a fixture's or a persona script's record, or a slice of one (the
 * gate's, acceptance's). A script's drift says `transcript`, a fixture's `reply`.
 */
export interface ChangeSubject {
  errored?: boolean;
  drift?: Drift | PersonaDrift | null;
  slower?: Slower | undefined;
}

/** One change of one item. */
export interface Change {
  dimension: Dimension;
  /** How every surface says it, beside the verdict drift: "reply changed", "routes changed", "slower: 1.2 s -> 2.9 s". */
  words: string;
}

/** A fixture's or a persona script's record. */
type Item = FixtureRecord | PersonaRecord;
type ReplayedItem = Extract<FixtureRecord, { errored: false }> | Extract<PersonaRecord, { errored: false }>;

/** The change causes `compare` names for a dimension (docs/evaluations.md#compare). */
export type DimensionCause = 'reply_changed' | 'transcript_changed' | 'route_changed' | 'slower';

/** How a cause is said: its title in a table, and counted ("1 reply changed", "2 replies changed"). */
export interface CauseWords {
  title: string;
  one: string;
  many: string;
}

interface DimensionRule {
  /** The item kinds the dimension applies to. */
  kinds: readonly ItemKind[];
  /** The words of the change when the item has it, else null. Errored items have no changes. */
  of(item: ChangeSubject): string | null;
  /** The fail-on condition the change meets (docs/semantics.md#the-gate). */
  failOn: FailOnCondition;
  /** What `compare` names the change between two runs, and its words. */
  cause: DimensionCause;
  causeWords: CauseWords;
  /**
   * `compare` (docs/evaluations.md#compare): the detail of the change between two runs of one
   * item, or null. `content` changes are looked for before the verdict, `speed` changes last.
   */
  compared: 'content' | 'speed';
  between(before: Item, after: Item, latency: LatencyThresholds): string | null;
  /**
   * True when the change was measured at replay time and cannot be seen by comparing the record
   * with the stored baseline again: accepting an item with it rewrites the baseline even when the
   * reply, route and verdict match (docs/latency.md: accepting a slower item accepts its latency).
   */
  rewritesBaseline: boolean;
  /** The record as it reads once its baseline is accepted: this change gone. */
  settle<T extends ReplayedItem>(item: T): T;
  /**
   * How the Changed section's introduction names the change: a `subject` that "differs from the
   * baseline", or a `clause` after "the check passes now"; `when` the section's items call for it.
   */
  intro: { subject: string; when: 'always' | 'scripts' } | { clause: string; when: 'present' };
}

function scriptDrift(d: Drift | PersonaDrift): d is PersonaDrift {
  return 'transcript' in d;
}

function replayed(item: ChangeSubject): Drift | PersonaDrift | null {
  return item.errored === true ? null : (item.drift ?? null);
}

function routesOf(item: PersonaRecord): (Route | null)[] {
  return item.turns.map((t) => t.route);
}

/**
 * The change dimensions, in the order every surface lists them (a fixture: reply, route, slower; a
 * script: transcript, routes, slower). Adding a dimension is one entry here (docs/architecture.md).
 */
export const DIMENSIONS = {
  reply: {
    kinds: ['fixture'],
    of: (item) => {
      const d = replayed(item);
      return d !== null && !scriptDrift(d) && d.reply === 'different' ? 'reply changed' : null;
    },
    failOn: 'reply_changed',
    cause: 'reply_changed',
    causeWords: { title: 'reply changed', one: 'reply changed', many: 'replies changed' },
    compared: 'content',
    between: (before, after) => {
      if (kindOf(before) !== 'fixture' || kindOf(after) !== 'fixture') return null;
      const [b, a] = [(before as FixtureRecord).reply, (after as FixtureRecord).reply];
      return b !== null && a !== null && b !== a ? `reply changed: ${changeSnippet(b, a)}` : null;
    },
    rewritesBaseline: false,
    settle: (item) => (kindOf(item) === 'fixture' ? { ...item, drift: { ...item.drift, reply: 'same' } } : item),
    intro: { subject: 'the reply', when: 'always' },
  },
  transcript: {
    kinds: ['script'],
    of: (item) => {
      const d = replayed(item);
      return d !== null && scriptDrift(d) && d.transcript === 'different' ? 'transcript changed' : null;
    },
    // A script's reply drift is its transcript drift.
    failOn: 'reply_changed',
    cause: 'transcript_changed',
    causeWords: { title: 'transcript changed', one: 'transcript changed', many: 'transcripts changed' },
    compared: 'content',
    between: (before, after) => {
      if (kindOf(before) !== 'script' || kindOf(after) !== 'script') return null;
      const [b, a] = [(before as PersonaRecord).turns, (after as PersonaRecord).turns];
      if (b.length !== a.length) return `transcript changed (${b.length} -> ${a.length} turns)`;
      return b.some((t, i) => t.reply !== a[i]?.reply) ? 'transcript changed' : null;
    },
    rewritesBaseline: false,
    settle: (item) => (kindOf(item) === 'script' ? { ...item, drift: { ...item.drift, transcript: 'same' } } : item),
    intro: { subject: "a script's transcript", when: 'scripts' },
  },
  route: {
    kinds: ['fixture', 'script'],
    of: (item) => {
      const d = replayed(item);
      if (d === null || d.route !== 'different') return null;
      return scriptDrift(d) ? 'routes changed' : 'route changed';
    },
    failOn: 'route_changed',
    cause: 'route_changed',
    causeWords: { title: 'route changed', one: 'route changed', many: 'routes changed' },
    compared: 'content',
    between: (before, after) => {
      if (kindOf(before) === 'script' && kindOf(after) === 'script') {
        return sameRoutes(routesOf(before as PersonaRecord), routesOf(after as PersonaRecord)) ? null : 'route changed';
      }
      if (kindOf(before) !== 'fixture' || kindOf(after) !== 'fixture') return null;
      const [b, a] = [before as FixtureRecord, after as FixtureRecord];
      if (b.reply === null || a.reply === null || sameRoute(b.route, a.route)) return null;
      const show = (r: Route | null): string => (r === null ? 'no route' : `${r.conversation}/${r.stage}`);
      return `route changed (${show(b.route)} -> ${show(a.route)})`;
    },
    rewritesBaseline: false,
    settle: (item) => ({ ...item, drift: { ...item.drift, route: 'same' } }),
    intro: { subject: 'the route', when: 'always' },
  },
  slower: {
    kinds: ['fixture', 'script'],
    // Beside the drift, like it (docs/latency.md): "slower: 1.2 s -> 2.9 s".
    of: (item) => (item.errored === true || item.slower == null ? null : `slower: ${slowerText(item.slower)}`),
    failOn: 'slower',
    cause: 'slower',
    causeWords: { title: 'slower', one: 'item slower', many: 'items slower' },
    compared: 'speed',
    // The same result, only slower, by config.yml's `latency` thresholds (docs/latency.md).
    between: (before, after, latency) => {
      if (before.errored || after.errored) return null;
      const s = slowerThanBaseline(itemLatencyMs(after), itemLatencyMs(before), latency);
      return s === null ? null : `slower: ${slowerText(s)}`;
    },
    rewritesBaseline: true,
    // The baseline now holds the item's latency: it is no longer slower than it.
    settle: (item) => {
      const { slower: _slower, ...rest } = item;
      return rest as typeof item;
    },
    intro: { clause: 'the item is slower than its baseline', when: 'present' },
  },
} as const satisfies Record<Dimension, DimensionRule>;

/** Every dimension, in the order surfaces list them. */
export const DIMENSION_ORDER = Object.keys(DIMENSIONS) as Dimension[];

function ruleOf(d: Dimension): DimensionRule {
  return DIMENSIONS[d];
}

/** An item's changes against its baseline, in DIMENSION_ORDER; none for an errored item or one without a baseline. */
export function changesOf(item: ChangeSubject): Change[] {
  const changes: Change[] = [];
  for (const dimension of DIMENSION_ORDER) {
    const words = ruleOf(dimension).of(item);
    if (words !== null) changes.push({ dimension, words });
  }
  return changes;
}

/** Does the item meet a fail-on condition through one of its changes (reply_changed, route_changed, slower)? */
export function meetsChange(item: ChangeSubject, condition: FailOnCondition): boolean {
  return changesOf(item).some((c) => ruleOf(c.dimension).failOn === condition);
}

/** Did the verdict change since the baseline (newly failing or newly passing)? */
function verdictChanged(item: ChangeSubject): boolean {
  const v = replayed(item)?.verdict;
  return v === 'newly_failing' || v === 'newly_passing';
}

/**
 * Drifted (the Action's `drifted` output, docs/action.md): the item differs from its baseline in
 * any change dimension or in its verdict. Every item of the Changed section is drifted, and so is a
 * failing item whose reply, route or speed changed.
 */
export function isDrifted(item: ChangeSubject): boolean {
  return verdictChanged(item) || changesOf(item).length > 0;
}

/** How many fixtures and persona scripts of a run drifted (the Action's `drifted` output). */
export function driftedCount(run: { fixtures: readonly ChangeSubject[]; personas?: readonly ChangeSubject[] | null }): number {
  return run.fixtures.filter(isDrifted).length + (run.personas ?? []).filter(isDrifted).length;
}

/** Would accepting the item rewrite its baseline although its reply, route and verdict match it (a slower item)? */
export function rewritesBaseline(item: ChangeSubject): boolean {
  return changesOf(item).some((c) => ruleOf(c.dimension).rewritesBaseline);
}

/** The record as it reads once its baseline is accepted: no change left, the verdict still passing or still failing. */
export function asAccepted<T extends ReplayedItem>(item: T): T {
  let out = item;
  for (const d of DIMENSION_ORDER) out = ruleOf(d).settle(out);
  const verdict = item.verdict === 'pass' ? 'still_passing' : 'still_failing';
  return { ...out, drift: { ...out.drift, verdict } };
}

/**
 * The first change between two runs of one item that `compare` names, among the dimensions
 * compared at `stage` ("content" before the verdict, "speed" last); null when none.
 */
export function changeBetween(before: Item, after: Item, stage: DimensionRule['compared'], latency: LatencyThresholds): { cause: DimensionCause; detail: string } | null {
  for (const d of DIMENSION_ORDER) {
    const rule = ruleOf(d);
    if (rule.compared !== stage) continue;
    const detail = rule.between(before, after, latency);
    if (detail !== null) return { cause: rule.cause, detail };
  }
  return null;
}

/**
 * The Changed section's introduction (docs/semantics.md#where-an-item-is-shown), from the dimensions
 * its items call for: "The reply or the route differs from the baseline, or the check passes now."
 */
export function changedIntro(items: readonly ChangeSubject[], hasScripts: boolean): string {
  const subjects: string[] = [];
  const clauses = ['the check passes now'];
  for (const d of DIMENSION_ORDER) {
    const intro = ruleOf(d).intro;
    if ('subject' in intro) {
      if (intro.when === 'always' || hasScripts) subjects.push(intro.subject);
    } else if (items.some((i) => changesOf(i).some((c) => c.dimension === d))) {
      clauses.push(intro.clause);
    }
  }
  const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  return `${capital(orList(subjects))} differs from the baseline, ${clauses.length === 1 ? 'or ' : ''}${orList(clauses, ', or ')}.`;
}

/** "a", "a or b", "a, b or c" (`last` joins the last two). */
function orList(parts: readonly string[], last = ' or '): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')}${last}${parts[parts.length - 1]}`;
}

/** Characters of context kept on each side of a changed part, and the longest part shown. */
const SNIPPET_CONTEXT = 24;
const SNIPPET_PART = 80;

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What changed between two texts, one line: the differing middle of each with a little context,
 * e.g. `"…open 9:00-17:00, Monday…" -> "…open 9:00-18:00, Monday…"`.
 */
function changeSnippet(before: string, after: string): string {
  const a = flat(before);
  const b = flat(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const part = (t: string): string => {
    const from = Math.max(0, start - SNIPPET_CONTEXT);
    const to = Math.min(t.length, t.length - end + SNIPPET_CONTEXT);
    let middle = t.slice(from, to);
    if (middle.length > SNIPPET_PART) middle = `${middle.slice(0, SNIPPET_PART - 1)}…`;
    const text = `${from > 0 ? '…' : ''}${middle}${to < t.length && !middle.endsWith('…') ? '…' : ''}`;
    return t === '' ? '(empty)' : JSON.stringify(text);
  };
  return `${part(a)} -> ${part(b)}`;
}
