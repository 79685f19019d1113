// Labels name fixtures and their baseline files, so they must be safe file names.

import path from 'node:path';
import { unicodePattern } from '../patterns.js';
import { headOf, shownJson, terminalLine } from '../words.js';

export const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

export const LABEL_RULE = '1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit';

export function isValidLabel(s: string): boolean {
  return LABEL_RE.test(s);
}

/** Latin letters that have no decomposition into a letter and its accents, written as their ASCII form. */
const LATIN_ASCII: Record<string, string> = { ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'Th', ı: 'i' };

/** Accents and other marks, which NFKD splits from their letters (`ü` is `u` and a mark). */
const MARKS = unicodePattern(String.raw`\p{M}+`, 'gu');
/** What is not a letter or digit of any script. */
const NOT_LETTER_OR_DIGIT = unicodePattern(String.raw`[^\p{L}\p{N}]`, 'gu');
/** A letter or digit of any script. */
const LETTER_OR_DIGIT = unicodePattern(String.raw`[\p{L}\p{N}]`, 'u');
/** Latin letters of LATIN_ASCII. */
// Written as escapes: a regular expression literal keeps its characters as written in the bundle, and
// one non-ASCII character makes V8 decode the whole chunk's UTF-8 on its slow path (docs/performance.md).
const LATIN_SPECIAL = /[\u00DF\u1E9E\u00E6\u00C6\u0153\u0152\u00F8\u00D8\u0111\u0110\u00F0\u00D0\u0142\u0141\u00FE\u00DE\u0131]/g; // ßẞæÆœŒøØđĐðÐłŁþÞı

function hasNonAscii(s: string): boolean {
  for (const c of s) if ((c.codePointAt(0) ?? 0) > 0x7f) return true;
  return false;
}

/**
 * A valid label close to `s`, to suggest in a fix (`../../etc/passwd` -> `etc-passwd`, `ü-name` ->
 * `u-name`); null when `s` has letters or digits outside A-Z and 0-9 with no such form (`заказ`): a
 * label with them dropped is not one its author could have meant (docs/fixtures.md, labels).
 */
export function suggestLabel(s: string): string | null {
  const ascii = s
    .replace(LATIN_SPECIAL, (c) => LATIN_ASCII[c] ?? c)
    .normalize('NFKD')
    .replace(MARKS(), '');
  if (hasNonAscii(ascii.replace(NOT_LETTER_OR_DIGIT(), ''))) return null;
  const slug = ascii
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 80);
  return slug === '' ? 'my-fixture' : slug;
}

/** The suite's labels by their lower case (labels are unique also in case: docs/fixtures.md, "A fixture"), as written. */
export type TakenLabels = ReadonlyMap<string, string>;

const NONE_TAKEN: TakenLabels = new Map();

/** `labels` by their lower case, for a fix never to suggest one of them (labelFix, windowsNameIssue). */
export function takenLabels(labels: Iterable<string>): TakenLabels {
  const out = new Map<string, string>();
  for (const l of labels) if (!out.has(l.toLowerCase())) out.set(l.toLowerCase(), l);
  return out;
}

/**
 * Where freeLabel's count resumes for each label it numbers: every number below it is taken. Kept by
 * a caller that asks for many labels while what is taken only grows (freeLabelFixes: each label a
 * fix offers is passed over by the next), so that thousands of labels that reduce alike (`a!`,
 * `a?`, ...) cost a step each, not a count up from -2 each.
 */
export type NextFree = Map<string, number>;

/**
 * `label` when the suite does not use it (in any case), else the first of `label-2`, `label-3`, ...
 * (cut to 80 characters) it does not use: a suggested label that is another item's would only move
 * the error to a duplicate label. With `next`, the count starts where the last one for `label` ended.
 */
export function freeLabel(label: string, taken: Pick<TakenLabels, 'has'>, numbered: (n: number) => string = (n) => `${headOf(label, 80 - `-${n}`.length)}-${n}`, next?: NextFree): string {
  if (!taken.has(label.toLowerCase())) return label;
  // The label and its second numbered form name the count (a Windows device name is numbered otherwise).
  const key = `${label.toLowerCase()}\n${numbered(2).toLowerCase()}`;
  for (let n = next?.get(key) ?? 2; ; n++) {
    const free = numbered(n);
    if (!taken.has(free.toLowerCase())) {
      next?.set(key, n);
      return free;
    }
  }
}

/**
 * " (refund-policy is used already)" after a suggestion made free by freeLabel, naming the label it
 * would have been; " (cafe is offered for "café" at <file>:<line>)" when another invalid label's fix
 * offers it (`offered`: those labels by their lower case, with the words naming the label they are offered for).
 */
function takenWords(close: string, free: string, taken: TakenLabels, offered: TakenLabels = NONE_TAKEN): string {
  if (close === free) return '';
  const other = taken.has(close.toLowerCase()) ? undefined : offered.get(close.toLowerCase());
  return other === undefined ? ` (${taken.get(close.toLowerCase()) ?? close} is used already)` : ` (${close} is offered for ${other})`;
}

/** The labels `taken` and `offered` hold, for freeLabel to pass over both (not copied: a suite may offer thousands). */
function takenOrOffered(taken: TakenLabels, offered: TakenLabels): Pick<TakenLabels, 'has'> {
  return offered.size === 0 ? taken : { has: (key) => taken.has(key) || offered.has(key) };
}

/**
 * A valid label close to `s` (suggestLabel) that neither `taken` nor `offered` (another invalid
 * label's fix) holds (freeLabel), with the words naming the one it would have been (" (refund-policy
 * is used already)"); null when there is none.
 */
export function freeSuggestion(s: string, taken: TakenLabels = NONE_TAKEN, offered: TakenLabels = NONE_TAKEN, next?: NextFree): { label: string; note: string } | null {
  const suggestion = suggestLabel(s);
  if (suggestion === null) return null;
  const free = freeLabel(suggestion, takenOrOffered(taken, offered), undefined, next);
  return { label: free, note: takenWords(suggestion, free, taken, offered) };
}

/**
 * The fix for an invalid label: a valid one close to it that the suite does not use (`taken`), or
 * what a label may hold when none is.
 */
export function labelFix(s: string, taken: TakenLabels = NONE_TAKEN, offered: TakenLabels = NONE_TAKEN, next?: NextFree): string {
  const free = freeSuggestion(s, taken, offered, next);
  if (free !== null) return `rename it, e.g. label: ${free.label}${free.note}`;
  const letter = [...s.normalize('NFKD')].find((c) => LETTER_OR_DIGIT().test(c) && hasNonAscii(c) && !Object.hasOwn(LATIN_ASCII, c)) ?? '';
  return `rename it in the characters a label allows (A-Z a-z 0-9 . _ -): ${shownJson(letter)} and the other letters outside A-Z have no form there to suggest`;
}

/**
 * Names Windows keeps for devices, alone or before a dot (`nul.txt` is NUL too): a file of that name
 * cannot be created there, and git cannot check it out. Case does not matter (docs/fixtures.md, "A fixture").
 */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?=\.|$)/i;

/**
 * Why a label (valid by LABEL_RULE) names a baseline file Windows refuses, with the fix (a label
 * the suite does not use, `taken`); null when it does not.
 */
export function windowsNameIssue(label: string, taken: TakenLabels = NONE_TAKEN, offered: TakenLabels = NONE_TAKEN, next?: NextFree): { message: string; fix: string; label: string } | null {
  const device = WINDOWS_DEVICE.exec(label)?.[0];
  if (device === undefined) return null;
  const numbered = (n: number): string => headOf(`${device}-${n}${label.slice(device.length)}`, 80);
  const suggestion = numbered(1);
  const free = freeLabel(suggestion, takenOrOffered(taken, offered), numbered, next);
  return {
    label: free,
    message: `label ${shownJson(label)} names its baseline file ${label}.json, which cannot be created on Windows (nor checked out there by git): ${device} is one of the names Windows keeps for devices (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9), alone or before a dot`,
    fix: `rename it, e.g. label: ${free}${takenWords(suggestion, free, taken, offered)}`,
  };
}

/**
 * The baseline file of `label` (`<baselinesDir>/<label>.json`, relative if `baselinesDir` is).
 * Throws on an invalid label, one that names a file Windows refuses, or a path outside `baselinesDir`. */
export function baselinePath(baselinesDir: string, label: string): string {
  if (!isValidLabel(label)) {
    throw new Error(`invalid label ${shownJson(label)}: a label is ${LABEL_RULE}`);
  }
  const windows = windowsNameIssue(label);
  if (windows !== null) throw new Error(`${windows.message}; ${windows.fix}`);
  const root = path.resolve(baselinesDir);
  // Joined by hand: the bundler rewrites path.resolve(<dynamic>, <literal>) into an asset path.
  const fileName = `${label}.json`;
  const file = path.normalize(root + path.sep + fileName);
  const rel = path.relative(root, file);
  // Never met by a label from a suite, a record or a pull request: LABEL_RE admits no separator and
  // begins with a letter or digit (no `..`), so `<label>.json` is one name inside `baselinesDir`.
  // Kept as the last guard before a file is written, a bug in agent-replay if it ever throws.
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel) || rel.includes(path.sep)) {
    throw new Error(`baseline path for label ${shownJson(label)} escapes ${terminalLine(baselinesDir)}`);
  }
  return path.join(baselinesDir, fileName);
}
