// Shards (docs/action.md#shards-one-suite-over-a-ci-matrix): which items of the suite `--shard i/n` replays. Pure and deterministic: the
// same suite, n and timings give the same partition on every machine (no locale, no clock, no
// randomness).
// - With timings (label -> milliseconds, from a previous record): balanced by duration with the
//   longest-processing-time greedy rule: items by duration (longest first, then by label), each to
//   the shard with the least time so far (ties: the lowest index). An item the timings do not know
//   gets the median time per turn of the known items times its turns (a fixture is one turn, a
//   persona script its welcome, opening and follow-ups).
// - Without timings (or none of the suite's labels in them): by a stable hash of the label
//   (sha256, first 48 bits, mod n), so adding or removing an item never moves another one.
// `suiteHash` names the whole suite (every label with its definition hash), equal for all shards;
// `partition` names the split itself (every shard's labels), equal for the shards that used the same
// timings, so a merge can tell a shard balanced by other timings (an item then in no shard, or two).

import { listAndMore, listWords, terminalLine } from '../words.js';
import { stableHash } from './definition.js';
import type { RunRecord, ShardInfo } from '../types.js';

const MAX_SHARDS = 256;

/** One item of the suite as the partition sees it. */
export interface ShardItem {
  label: string;
  /** Turns the item asks the agent for (a fixture: 1); scales the estimate of an item without timing. */
  turns: number;
  /** The item's definition hash (definition.ts), for the suite hash. */
  definitionHash: string;
}

/** `i/n` as given to `--shard` or the `shard` input; throws a message quoting the bad value. */
export function parseShard(text: string, source = '--shard'): { index: number; total: number } {
  const m = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || total > MAX_SHARDS || index < 1 || index > total) {
    throw new Error(`${source} must be i/n with whole numbers 1 <= i <= n <= ${MAX_SHARDS} (e.g. 2/4), got "${terminalLine(text)}"`);
  }
  return { index, total };
}

/** Each item's duration in a record (fixtures and persona scripts), for `--timings`. */
export function timingsOf(record: Pick<RunRecord, 'fixtures' | 'personas'>): Map<string, number> {
  const out = new Map<string, number>();
  for (const i of [...record.fixtures, ...record.personas]) if (Number.isFinite(i.durationMs) && i.durationMs >= 0) out.set(i.label, i.durationMs);
  return out;
}

/** The shard (0-based) of a label by its hash alone. */
export function hashShard(label: string, total: number): number {
  return Number.parseInt(stableHash(label).slice(0, 12), 16) % total;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export interface Partition {
  /** Labels of each shard (index 0 is shard 1/n), each in the order the items were given. */
  shards: string[][];
  /** Expected milliseconds of each shard (with timings), else null. */
  expectedMs: number[] | null;
  method: 'timings' | 'hash';
}

/** Partitions the suite's items into `total` shards (see the header for the rules). */
export function partition(items: readonly ShardItem[], total: number, timings: ReadonlyMap<string, number> | null = null): Partition {
  if (!Number.isInteger(total) || total < 1 || total > MAX_SHARDS) throw new RangeError(`shard total must be 1..${MAX_SHARDS}, got ${total}`);
  const known = timings === null ? [] : items.filter((i) => timings.has(i.label));
  const assigned = new Map<string, number>();
  let expectedMs: number[] | null = null;
  if (known.length === 0) {
    for (const i of items) assigned.set(i.label, hashShard(i.label, total));
  } else {
    const t = timings as ReadonlyMap<string, number>;
    const perTurn = median(known.map((i) => (t.get(i.label) as number) / Math.max(1, i.turns)));
    const cost = (i: ShardItem): number => t.get(i.label) ?? perTurn * Math.max(1, i.turns);
    const order = items.map((i) => ({ label: i.label, ms: cost(i) })).sort((a, b) => b.ms - a.ms || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    const load = new Array<number>(total).fill(0);
    for (const { label, ms } of order) {
      let best = 0;
      for (let s = 1; s < total; s++) if ((load[s] as number) < (load[best] as number)) best = s;
      load[best] = (load[best] as number) + ms;
      assigned.set(label, best);
    }
    expectedMs = load;
  }
  const shards: string[][] = Array.from({ length: total }, () => []);
  for (const i of items) (shards[assigned.get(i.label) as number] as string[]).push(i.label);
  return { shards, expectedMs, method: known.length === 0 ? 'hash' : 'timings' };
}

/** The hash of the whole suite: its sorted labels with their definition hashes (equal for every shard). */
export function suiteHash(items: readonly Pick<ShardItem, 'label' | 'definitionHash'>[]): string {
  const lines = items.map((i) => `${i.label}\t${i.definitionHash}`).sort();
  return stableHash(lines.join('\n'));
}

/** Labels of shard `index` (1-based) of `total`, with the record's `shard` field. */
export function selectShard(
  items: readonly ShardItem[],
  shard: { index: number; total: number },
  timings: ReadonlyMap<string, number> | null,
): { labels: Set<string>; info: ShardInfo; method: Partition['method'] } {
  const p = partition(items, shard.total, timings);
  return {
    labels: new Set(p.shards[shard.index - 1]),
    info: { index: shard.index, total: shard.total, suiteHash: suiteHash(items), partition: stableHash(JSON.stringify(p.shards.map((s) => [...s].sort()))) },
    method: p.method,
  };
}

/**
 * A merged selection that names no `--rerun` file nor `--only` pattern (both null): the records it
 * merged were given different ones, or some none (docs/results-json.md, `selection`). Said after
 * what they are ("shards", "a merge of records").
 */
export const MIXED_SELECTION = 'replayed with different --rerun or --only (or none)';

/** The excluded files a sentence names: the first `most`, each as `show` writes it, then how many more ("a.json, b.json and 3 more"). */
export interface FilesShown {
  most: number;
  show: (file: string) => string;
}

const EVERY_FILE: FilesShown = { most: Infinity, show: (file) => file };

/** "incomplete: shard 2/4 missing", "incomplete: shards 2/4 and 3/4 missing; excluded (another suite, shard count or split): b.json (...)". */
export function incompleteText(inc: { total: number; missing: readonly number[]; foreign: readonly string[] }, files: FilesShown = EVERY_FILE): string {
  return `incomplete: ${incompleteParts(inc, files)}`;
}

/** What a merge lacks, without "incomplete: ": "shard 2/4 missing", where a line or a type has said it is incomplete. */
export function incompleteParts(inc: { total: number; missing: readonly number[]; foreign: readonly string[] }, files: FilesShown = EVERY_FILE): string {
  const parts: string[] = [];
  if (inc.missing.length > 0) {
    const list = inc.missing.map((k) => `${k}/${inc.total}`);
    parts.push(`${list.length === 1 ? 'shard' : 'shards'} ${listWords(list)} missing`);
  }
  if (inc.foreign.length > 0) parts.push(`excluded (another suite, shard count or split): ${listAndMore(inc.foreign, files.most, files.show)}`);
  return parts.join('; ');
}
