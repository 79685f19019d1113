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

/**
 * Two replies that differ in more than MAX_UNIT_EDITS sentences (or, when only whitespace differs,
 * lines), removed and added together: not diffed (docs/action.md, "The PR comment").
 */
export interface TooDifferent {
  tooDifferent: true;
  whitespaceOnly: boolean;
}

/**
 * The most sentences (or lines) removed plus added that the sentence diff computes: jsdiff's
 * `maxEditLength`. Myers' algorithm takes time in the square of that number (one reply of 2,000
 * short lines against the same lines in reverse order took about a second; a 1 MB one would take
 * most of an hour), and a diff with more changed sentences than this is no easier to read than the
 * two replies.
 */
export const MAX_UNIT_EDITS = 500;

/**
 * A reply longer than this (characters, normalised) is shown, not diffed, in report.html and the
 * terminal; the job summary's limit is the same (profile.ts), the comment's 4,000 (docs/action.md,
 * "The PR comment").
 */
export const MAX_DIFF_CHARS = 20_000;

/** How many pairs of texts replyDiff compared (observable, for tests and diagnostics). */
export const replyDiffs = { count: 0 };

// Made on first use: creating a segmenter loads ICU's sentence rules (~10 ms), which a command that
// never diffs a reply (`--version`, a run with nothing changed) should not pay at start-up
// (docs/performance.md, "What was done").
let sentenceSegmenter: Intl.Segmenter | undefined;
const segmenter = (): Intl.Segmenter => (sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' }));

/** The brackets and quotes a sentence is not split inside; `"` both opens and closes. */
const CLOSE_OF: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '“': '”', '«': '»', '"': '"' };
const OPEN_OF: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{', '”': '“', '»': '«' };
/**
 * The longest bracketed or quoted span held together (characters, marks included): a stray `(`
 * in an untrusted reply then holds at most this much, never the whole reply.
 */
const MAX_HELD = 400;
/** Abbreviations that end in a full stop but do not end a sentence ("Ask Dr. Smith."), tried on a segment's last characters. */
const ABBREVIATION_END = /(?:^|[^A-Za-z0-9.])(?:Mr|Mrs|Ms|Dr|Prof|vs|cf|e\.g|i\.e)\.$/i;
const abbreviationEnds = (segment: string): boolean => ABBREVIATION_END.test(segment.trimEnd().slice(-6));

/**
 * Where a sentence may not end in `line`: `held[p] > 0` when a cut before index `p` would fall
 * inside a bracket or quote whose closing mark follows on the line, at most MAX_HELD characters
 * after the opening one. One pass with a stack of the open marks; a closing mark without its
 * opening one is ignored, and an opening one without its closing one holds nothing.
 */
function heldPositions(line: string): Int32Array {
  const held = new Int32Array(line.length + 2);
  const stack: { ch: string; at: number }[] = [];
  const open = new Map<string, number>(); // how many of each opening mark are on the stack
  const close = (opener: string, at: number): void => {
    if ((open.get(opener) ?? 0) === 0) return;
    for (;;) {
      const top = stack.pop() as { ch: string; at: number };
      open.set(top.ch, (open.get(top.ch) as number) - 1);
      if (top.ch !== opener) continue; // an opening mark never closed inside this pair: dropped
      if (at - top.at <= MAX_HELD) {
        held[top.at + 1] = (held[top.at + 1] as number) + 1;
        held[at + 1] = (held[at + 1] as number) - 1;
      }
      return;
    }
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === '"' && (open.get('"') ?? 0) > 0) close('"', i);
    else if (CLOSE_OF[ch] !== undefined) {
      stack.push({ ch, at: i });
      open.set(ch, (open.get(ch) ?? 0) + 1);
    } else if (OPEN_OF[ch] !== undefined) close(OPEN_OF[ch], i);
  }
  for (let i = 1; i < held.length; i++) held[i] = (held[i] as number) + (held[i - 1] as number);
  return held;
}

/**
 * The window of a line given to the segmenter at a time. V8's segment iterator costs time in
 * proportion to the whole text on each step, so one long line of many sentences took time in
 * proportion to its length times its sentences; over windows it takes time in proportion to its
 * length. A sentence longer than the window doubles it until the sentence ends inside.
 */
const SEGMENT_WINDOW = 256;
/**
 * What ends Unicode's look ahead past a full stop (a letter, a sentence's end mark, a paragraph
 * separator): a break before the last of these in a window is the break in the whole line.
 */
const LOOKAHEAD_STOP = unicodePattern(String.raw`[\p{L}.!?\u2029\u3002\uFF01\uFF0E\uFF1F]`, 'u');

function lastStop(window: string): number {
  const stop = LOOKAHEAD_STOP();
  for (let i = window.length - 1; i >= 0; i--) if (stop.test(window[i] as string)) return i;
  return -1;
}

/** Where Unicode's sentence breaks (Intl.Segmenter) fall in `line`: the end of each sentence. */
export function sentenceEnds(line: string): number[] {
  const ends: number[] = [];
  let start = 0;
  let size = SEGMENT_WINDOW;
  while (start < line.length) {
    const end = Math.min(line.length, start + size);
    const window = line.slice(start, end);
    const whole = end === line.length;
    const stop = whole ? window.length : lastStop(window);
    let taken = 0;
    for (const { segment, index } of segmenter().segment(window)) {
      const cut = index + segment.length;
      // The window's last sentence may go on past it; a break after the last stop may move.
      if ((cut === window.length && !whole) || cut > stop) break;
      ends.push(start + cut);
      taken++;
      if (size > SEGMENT_WINDOW) break;
    }
    if (taken === 0) size *= 2;
    else {
      start = ends[ends.length - 1] as number;
      size = SEGMENT_WINDOW;
    }
  }
  return ends;
}

/**
 * One line's sentences: Unicode's sentence breaks, except inside a bracket or quote that closes
 * on the line ("Thanks (Hello! See you.) for that." is one sentence) and after a title such as
 * "Dr." (docs/action.md, "The PR comment").
 */
function lineSentences(line: string): string[] {
  const held = heldPositions(line);
  const out: string[] = [];
  let start = 0;
  let from = 0;
  for (const end of sentenceEnds(line)) {
    const segment = line.slice(from, end);
    from = end;
    if (end < line.length && ((held[end] as number) > 0 || abbreviationEnds(segment))) continue;
    out.push(line.slice(start, end));
    start = end;
  }
  return out;
}

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
    for (const sentence of lineSentences(line)) {
      const s = sentence.replace(/\s+$/, '');
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

function diffUnits(a: string[], b: string[], visibleSpace: boolean): DiffLine[] | null {
  const changes = diffArrays(a, b, { maxEditLength: MAX_UNIT_EDITS });
  if (changes === undefined) return null;
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
export function replyDiff(baselineText: string, replyText: string): ReplyDiff | TooDifferent {
  replyDiffs.count += 1;
  // The reply's own ⟦ ⟧ ⟨ ⟩ first: what the diff adds after them is then its own marks only.
  const baseline = showLookalikes(showMarkCharacters(baselineText));
  const reply = showLookalikes(showMarkCharacters(replyText));
  const a = sentenceUnits(baseline);
  const b = sentenceUnits(reply);
  const squeeze = (u: string): string => u.replace(/\s+/g, ' ');
  const whitespaceOnly = a.length === b.length && a.every((u, i) => squeeze(u) === squeeze(b[i] as string));
  const lines = whitespaceOnly ? diffUnits(baseline.split('\n'), reply.split('\n'), true) : diffUnits(a, b, false);
  return lines === null ? { tooDifferent: true, whitespaceOnly } : { lines, whitespaceOnly };
}
