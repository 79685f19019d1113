// Baseline reply vs new reply, for a reviewer: which sentences changed, and inside a changed
// sentence which words. Built on the `diff` package (Myers' algorithm): sentences are compared
// as units with `diffArrays`, words inside a changed sentence with the package's `Diff` over our
// own tokens (words of every script: REPLY_TOKEN_RE).
// The result is data (lines of segments); diff-text.ts turns it into the text of a ```diff block.

import { Diff, diffArrays, type Change } from 'diff';
import { characterName, showLookalikes, showMarkCharacters } from './lookalike.js';
import { unicodePattern } from '../patterns.js';

export type DiffOpKind = 'equal' | 'delete' | 'insert';

export interface DiffOp {
  kind: DiffOpKind;
  text: string;
}

export type WordDiff = { mode: 'words'; ops: DiffOp[] } | { mode: 'too_large'; aTokens: number; bTokens: number };

export interface WordDiffOptions {
  /** Largest edit distance (in tokens) worth computing; beyond it the texts are "too different". Default 2,000. */
  maxEdits?: number;
}

const DEFAULT_MAX_EDITS = 2000;

/**
 * The word diff's tokens: a word of any script written with spaces (a run of letters, marks,
 * digits and `_`: Latin, Cyrillic, Greek, Arabic, ...), each character of a script written without
 * them (Han, kana, Thai, Lao, Khmer, Myanmar), each line break, each other run of whitespace, each
 * other character. The diff package's own tokenizer (`diffWordsWithSpace`) knows only Latin
 * letters as word characters: a changed Russian word was marked letter by letter
 * (`⟦П⟧р⟦и⟧в⟦е⟧т`), and a reviewer could not read what it had become.
 */
const REPLY_TOKEN_RE = unicodePattern(
  String.raw`\r?\n|[^\S\r\n]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}])[\p{L}\p{M}\p{N}_])+|[\s\S]`,
  'gu',
);
// The other Unicode patterns of this file, built on first use too (patterns.ts).
const WORD_TOKEN_RE = unicodePattern(String.raw`\s+|[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]`, 'gu');
const SPACE_OR_PUNCTUATION = unicodePattern(String.raw`^[\s\p{P}]*$`, 'u');
const PICTOGRAPH_START = unicodePattern(String.raw`^\p{Extended_Pictographic}`, 'u');

class ReplyWordDiff extends Diff<string, string> {
  override tokenize(value: string): string[] {
    return value.match(REPLY_TOKEN_RE()) ?? [];
  }
}

const replyWordDiff = new ReplyWordDiff();

/** Words, single punctuation characters and whitespace runs (the tokens the reviewer sees change). */
export function wordTokens(text: string): string[] {
  return text.match(WORD_TOKEN_RE()) ?? [];
}

function opsOf(changes: readonly Change[]): DiffOp[] {
  return changes.map((c) => ({ kind: c.added ? 'insert' : c.removed ? 'delete' : 'equal', text: c.value }));
}

/**
 * Word diff of `a` (baseline) and `b` (new). The ops concatenate back to `a` (equal + delete) and
 * to `b` (equal + insert); within each changed region deletions come first.
 */
export function wordDiff(a: string, b: string, options: WordDiffOptions = {}): WordDiff {
  if (a === b) return { mode: 'words', ops: a === '' ? [] : [{ kind: 'equal', text: a }] };
  const changes = replyWordDiff.diff(a, b, { maxEditLength: options.maxEdits ?? DEFAULT_MAX_EDITS });
  if (!changes) return { mode: 'too_large', aTokens: wordTokens(a).length, bTokens: wordTokens(b).length };
  return { mode: 'words', ops: cleanup(opsOf(changes)) };
}

/** Joins adjacent ops of the same kind; drops empty ones. */
function merge(ops: readonly DiffOp[]): DiffOp[] {
  const out: DiffOp[] = [];
  for (const op of ops) {
    if (op.text === '') continue;
    const last = out[out.length - 1];
    if (last && last.kind === op.kind) out[out.length - 1] = { kind: op.kind, text: last.text + op.text };
    else out.push({ ...op });
  }
  return out;
}

/** Within each run of changes, all deletions first, then all insertions. */
function groupChanges(ops: readonly DiffOp[]): DiffOp[] {
  const out: DiffOp[] = [];
  let del = '';
  let ins = '';
  const flush = (): void => {
    if (del) out.push({ kind: 'delete', text: del });
    if (ins) out.push({ kind: 'insert', text: ins });
    del = '';
    ins = '';
  };
  for (const op of ops) {
    if (op.kind === 'delete') del += op.text;
    else if (op.kind === 'insert') ins += op.text;
    else {
      flush();
      out.push(op);
    }
  }
  flush();
  return merge(out);
}

/**
 * Readability: a short run of whitespace or punctuation between two changes joins them, so one
 * marked phrase "a b c" → "x y z" instead of three marked words.
 */
function cleanup(tokens: readonly DiffOp[]): DiffOp[] {
  const ops = groupChanges(merge(tokens));
  const out: DiffOp[] = [];
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as DiffOp;
    const prev = ops[k - 1];
    const next = ops[k + 1];
    const joiner = op.kind === 'equal' && prev !== undefined && next !== undefined && prev.kind !== 'equal' && next.kind !== 'equal';
    if (joiner && op.text.length <= 3 && SPACE_OR_PUNCTUATION().test(op.text) && !op.text.includes('\n')) {
      out.push({ kind: 'delete', text: op.text }, { kind: 'insert', text: op.text });
    } else out.push(op);
  }
  return groupChanges(out);
}

// ---------------------------------------------------------------------------------------------
// Reply diff: sentences, then words

/** A piece of one diff line; `marked` pieces are the words that changed. */
export interface Segment {
  text: string;
  marked: boolean;
}

export type DiffLine =
  | { kind: 'delete' | 'insert'; segments: Segment[] }
  /** Unchanged sentences left out between changes (`units`: them, '' for a paragraph break). */
  | { kind: 'skip'; sentences: number; units: string[] };

export interface ReplyDiff {
  lines: DiffLine[];
  /** Only whitespace differs: the lines are whole lines, with whitespace changes made visible. */
  whitespaceOnly: boolean;
}

// Made on first use: creating a segmenter loads ICU's sentence rules (~10 ms), which a command that
// never diffs a reply (`--version`, a run with nothing changed) should not pay at start-up
// (docs/performance.md, "What was done").
let sentenceSegmenter: Intl.Segmenter | undefined;
const segmenter = (): Intl.Segmenter => (sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' }));

/**
 * The units a reply is compared by: each line split into sentences (trailing spaces dropped);
 * an empty line (paragraph break) is the unit ''.
 */
export function sentenceUnits(text: string): string[] {
  const units: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      units.push('');
      continue;
    }
    for (const { segment } of segmenter().segment(line)) {
      const s = segment.replace(/\s+$/, '');
      if (s !== '') units.push(s);
    }
  }
  return units;
}

/** Below this share of unchanged characters a pair is a rewrite: whole lines, no marked words. */
const MIN_COMMON_SHARE = 0.3;
const MAX_WORD_EDITS = 400;

/** The two sides of a changed region with the changed words marked, or null for a rewrite. */
function markWords(a: string, b: string, visibleSpace: boolean): { del: Segment[]; ins: Segment[] } | null {
  const d = wordDiff(a, b, { maxEdits: MAX_WORD_EDITS });
  if (d.mode === 'too_large') return null;
  const common = d.ops.filter((o) => o.kind === 'equal').reduce((n, o) => n + o.text.trim().length, 0);
  if (!visibleSpace && common < MIN_COMMON_SHARE * Math.max(a.trim().length, b.trim().length)) return null;
  const show = (text: string): string => showInvisible(visibleSpace ? showWhitespace(text) : text);
  const del: Segment[] = [];
  const ins: Segment[] = [];
  for (const op of d.ops) {
    if (op.kind !== 'insert') del.push({ text: op.kind === 'equal' ? op.text : show(op.text), marked: op.kind === 'delete' });
    if (op.kind !== 'delete') ins.push({ text: op.kind === 'equal' ? op.text : show(op.text), marked: op.kind === 'insert' });
  }
  return { del, ins };
}

/**
 * Characters that draw nothing (zero-width space and joiners, directional marks, bidi embeddings,
 * overrides and isolates, soft hyphen, byte-order mark, word joiner) or look like a plain space
 * (no-break and other Unicode spaces). The bidi controls are named here before escaping, which
 * would drop them (escape.ts) and leave a change that cannot be seen.
 */
const INVISIBLE_RE = /[\u00A0\u00AD\u180E\u2000-\u200F\u202A-\u202F\u205F\u2060-\u2069\u3000\uFEFF]/g;

/**
 * A changed word's invisible characters named, e.g. `⟨U+200B⟩`: a reply that only gained a
 * zero-width space would otherwise show as an empty mark. A zero-width joiner that joins an emoji
 * sequence is kept.
 */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE_RE, (ch: string, i: number) => {
    if (ch === '\u200D' && PICTOGRAPH_START().test(text.slice(i + 1))) return ch;
    return characterName(ch);
  });
}

/** Spaces and tabs made visible, for changes that are only whitespace. */
export function showWhitespace(text: string): string {
  return /^\s*$/.test(text) ? text.replace(/ /g, '·').replace(/\t/g, '→') : text;
}

/** Splits segments at '\n' into lines of segments. */
function splitLines(segments: readonly Segment[]): Segment[][] {
  const lines: Segment[][] = [[]];
  for (const s of segments) {
    s.text.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') (lines[lines.length - 1] as Segment[]).push({ text: part, marked: s.marked });
    });
  }
  return lines;
}

function plainLine(text: string): Segment[] {
  return text === '' ? [] : [{ text, marked: false }];
}

/** One changed region: removed units `r`, added units `a`. */
function changedRegion(r: readonly string[], a: readonly string[], visibleSpace: boolean): DiffLine[] {
  const out: DiffLine[] = [];
  if (r.length === a.length) {
    // Sentence for sentence: each removed line right above its replacement.
    r.forEach((old, i) => {
      const neu = a[i] as string;
      const marks = markWords(old, neu, visibleSpace);
      out.push({ kind: 'delete', segments: marks ? marks.del : plainLine(old) });
      out.push({ kind: 'insert', segments: marks ? marks.ins : plainLine(neu) });
    });
    return out;
  }
  const marks = r.length > 0 && a.length > 0 ? markWords(r.join('\n'), a.join('\n'), visibleSpace) : null;
  const del = marks ? splitLines(marks.del) : r.map(plainLine);
  const ins = marks ? splitLines(marks.ins) : a.map(plainLine);
  for (const segments of del) out.push({ kind: 'delete', segments });
  for (const segments of ins) out.push({ kind: 'insert', segments });
  return out;
}

function diffUnits(a: string[], b: string[], visibleSpace: boolean): DiffLine[] {
  const changes = diffArrays(a, b);
  const lines: DiffLine[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = (): void => {
    if (removed.length > 0 || added.length > 0) lines.push(...changedRegion(removed, added, visibleSpace));
    removed = [];
    added = [];
  };
  for (const c of changes) {
    if (c.removed) removed.push(...c.value);
    else if (c.added) added.push(...c.value);
    else {
      flush();
      const sentences = c.value.filter((u) => u !== '').length;
      if (sentences > 0) lines.push({ kind: 'skip', sentences, units: c.value });
    }
  }
  flush();
  return lines;
}

/**
 * The diff a reviewer reads: changed sentences as `-` / `+` lines with the changed words marked,
 * unchanged sentences counted. When only whitespace differs, whole lines with it made visible.
 * Look-alike letters are named on both sides before comparing (lookalike.ts), so a word that
 * changed only by one shows the change, and a new sentence cannot pass one off as a Latin letter.
 */
export function replyDiff(baselineText: string, replyText: string): ReplyDiff {
  // The reply's own ⟦ ⟧ ⟨ ⟩ first: what the diff adds after them is then its own marks only.
  const baseline = showLookalikes(showMarkCharacters(baselineText));
  const reply = showLookalikes(showMarkCharacters(replyText));
  const a = sentenceUnits(baseline);
  const b = sentenceUnits(reply);
  const squeeze = (u: string): string => u.replace(/\s+/g, ' ');
  if (a.length !== b.length || a.some((u, i) => squeeze(u) !== squeeze(b[i] as string))) return { lines: diffUnits(a, b, false), whitespaceOnly: false };
  return { lines: diffUnits(baseline.split('\n'), reply.split('\n'), true), whitespaceOnly: true };
}
