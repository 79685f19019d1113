// Look-alike letters (docs/action.md, "The PR comment"): a Latin word with one Cyrillic "а"
// (U+0430) in it, or a number with one fullwidth digit, draws exactly like the word it imitates,
// so a diff of the two would read "changed" with nothing to see, and a new link or name would read
// right. Following Unicode's mixed-script detection (UTS #39, "Restriction-Level Detection"), a
// word whose letters come from scripts that are not written together, or whose letters or digits
// mix fullwidth or mathematical forms with plain ones, is suspicious; its odd characters are named
// by their code, `p⟨U+0430⟩ypal`, as invisible characters are (diff.ts). A word written wholly in
// another script than the text's own is named when each of its letters is, in Unicode's confusables
// table (confusables.ts), a look-alike of one of the text's script (UTS #39's "whole-script
// confusables"): `СОРЕ` in Cyrillic in an English reply. A Russian or Greek reply, or an English one
// quoting `Привет`, shows as written.

import { PROTOTYPES } from './confusables.js';
import { unicodePattern } from '../patterns.js';

/** Scripts a letter is tested against, most common first; a letter of none of them is "Other". */
export const SCRIPTS = [
  'Latin', 'Cyrillic', 'Greek', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo', 'Arabic', 'Hebrew',
  'Armenian', 'Georgian', 'Cherokee', 'Coptic', 'Lisu', 'Canadian_Aboriginal', 'Tifinagh', 'Vai', 'Runic',
  'Ogham', 'Gothic', 'Old_Italic', 'Deseret', 'Osage', 'Adlam', 'Nko', 'Syriac', 'Thaana', 'Devanagari',
  'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai',
  'Lao', 'Tibetan', 'Myanmar', 'Khmer', 'Mongolian', 'Ethiopic',
] as const;

/**
 * Scripts written together in one word (UTS #39's "Highly Restrictive" level): Japanese mixes
 * Han, Hiragana and Katakana, Chinese Han and Bopomofo, Korean Han and Hangul, each with Latin.
 */
const WRITTEN_TOGETHER: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/** Characters of no script of their own (digits, marks, Common letters): they join any script. */
const ANY = String.raw`\p{Script=Common}\p{Script=Inherited}\p{M}\p{N}`;
/**
 * Words of one script, or of scripts written together, in plain forms: most words of any reply,
 * decided by one regular expression instead of a look at each letter. Built on first use, like the
 * sentence segmenter (docs/performance.md, "What was done").
 */
const ONE_SCRIPT = unicodePattern(
  `^(?:${[...['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew'].map((s) => [s]), ...WRITTEN_TOGETHER]
    .map((set) => `[${set.map((s) => `\\p{Script=${s}}`).join('')}${ANY}]+`)
    .join('|')})$`,
  'u',
);
const ODD_FORM = /[\uff10-\uff5a]|[\u{1d400}-\u{1d7ff}]/u;
// The Unicode property patterns of this file, built on first use (patterns.ts).
const LETTER = unicodePattern(String.raw`\p{L}`, 'u');
const COMMON = unicodePattern(String.raw`\p{Script=Common}`, 'u');
const LETTER_OR_DIGIT = unicodePattern(String.raw`[\p{L}\p{N}]`, 'u');
const NEUTRAL = unicodePattern(String.raw`^[\p{Script=Common}\p{Script=Inherited}]$`, 'u');
const MARK = unicodePattern(String.raw`\p{M}`, 'u');
/** A word: a run of letters, marks and digits of any script. */
const WORD = unicodePattern(String.raw`[\p{L}\p{M}\p{N}]+`, 'gu');
/** Any character outside ASCII (a code unit above 0x7F: a test of a whole text gives the same answer as `[^\p{ASCII}]` with the u flag). */
const NON_ASCII = /[^\0-\x7f]/;

/** A word that cannot be mixed, decided by two regular expressions instead of a look at each letter. */
function oneScript(word: string): boolean {
  return !ODD_FORM.test(word) && ONE_SCRIPT().test(word);
}

let scriptRes: Array<[string, RegExp]> | undefined;
const scriptCache = new Map<string, string | null>();

/** The script of a letter (Unicode's Script property); null for a digit or a letter of no script (Common). */
function scriptOf(ch: string): string | null {
  const known = scriptCache.get(ch);
  if (known !== undefined) return known;
  let script: string | null = null;
  if (LETTER().test(ch) && !COMMON().test(ch)) {
    scriptRes ??= SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script=${s}}$`, 'u')]);
    script = scriptRes.find(([, re]) => re.test(ch))?.[0] ?? 'Other';
  }
  if (scriptCache.size < 10_000) scriptCache.set(ch, script);
  return script;
}

/** How many letters of `text` each script has (scriptOf), ASCII letters counted without a look-up. */
function scriptCounts(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (script: string | null, n: number): void => {
    if (script !== null && n > 0) out.set(script, (out.get(script) ?? 0) + n);
  };
  let latin = 0;
  // Letters of one script come in runs: counted by the run, not one Map update a letter.
  let run: string | null = null;
  let inRun = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) latin++;
      continue;
    }
    const cp = c >= 0xd800 && c < 0xdc00 ? (text.codePointAt(i) ?? c) : c;
    if (cp > 0xffff) i++;
    const script = scriptOf(String.fromCodePoint(cp));
    if (script === null) continue;
    if (script !== run) {
      add(run, inRun);
      [run, inRun] = [script, 0];
    }
    inRun++;
  }
  add(run, inRun);
  add('Latin', latin);
  return out;
}

/**
 * How a Latin letter or a digit is drawn: `wide` for the fullwidth forms (U+FF10–U+FF5A: `ｐ`,
 * `１`), `math` for the mathematical alphanumerics (U+1D400–U+1D7FF: `𝐩`), `plain` for ASCII;
 * null for any other character, whose form is its own (a Japanese reply's fullwidth digits beside
 * its kana are as written).
 */
function formOf(ch: string): string | null {
  const cp = ch.codePointAt(0) ?? 0;
  if (/^[A-Za-z0-9]$/.test(ch)) return 'plain';
  if (cp >= 0xff10 && cp <= 0xff5a) return 'wide';
  if (cp >= 0x1d400 && cp <= 0x1d7ff) return 'math';
  return null;
}

type Kind = 'letter' | 'digit';

interface Char {
  ch: string;
  at: number;
  kind: Kind;
  script: string | null;
  form: string | null;
}

function charsOf(word: string, at: number): Char[] {
  const out: Char[] = [];
  let i = at;
  for (const ch of word) {
    if (LETTER_OR_DIGIT().test(ch)) out.push({ ch, at: i, kind: LETTER().test(ch) ? 'letter' : 'digit', script: scriptOf(ch), form: formOf(ch) });
    i += ch.length;
  }
  return out;
}

/** Letters (or digits) of one word drawn in more than one form: `ｐaypal`, `1０0`. */
function mixedForms(chars: readonly Char[], kind: Kind): boolean {
  return new Set(chars.flatMap((c) => (c.kind === kind && c.form !== null ? [c.form] : []))).size > 1;
}

function mixedScripts(scripts: ReadonlySet<string>): boolean {
  if (scripts.size < 2) return false;
  return !WRITTEN_TOGETHER.some((set) => [...scripts].every((s) => set.includes(s)));
}

interface Prototype {
  /** The look-alike's script. */
  from: string;
  /** The script of the letter it imitates; `Common` for a digit 0-9. */
  to: string;
}

let prototypes: Map<number, Prototype> | undefined;

/**
 * Unicode's confusables table (confusables.ts) by code point, built on first use: only the
 * look-alikes of a plain letter or digit (ASCII). One that imitates a small capital (Cyrillic н as
 * ʜ, в as ʙ) or an accented letter makes no word read as a plain one: `нет` quoted in an English
 * reply reads as Russian, not as a Latin word (docs/action.md, "The PR comment").
 */
function table(): Map<number, Prototype> {
  if (prototypes === undefined) {
    prototypes = new Map();
    for (const [key, pairs] of Object.entries(PROTOTYPES)) {
      const [from, to] = key.split('>') as [string, string];
      for (const pair of pairs.split(' ')) {
        const [source, prototype] = pair.split('>') as [string, string];
        if (prototype.length <= 4 && parseInt(prototype, 16) < 0x80) prototypes.set(parseInt(source, 16), { from, to });
      }
    }
  }
  return prototypes;
}

const neutralCache = new Map<number, boolean>();

/** A character of no script of its own (a digit, a mark, a Common letter), by code point, cached. */
function neutral(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39;
  let known = neutralCache.get(cp);
  if (known === undefined) {
    known = NEUTRAL().test(String.fromCodePoint(cp));
    if (neutralCache.size < 10_000) neutralCache.set(cp, known);
  }
  return known;
}

/** A text's letters by script (scriptCounts) and the script most of them are written in (null: none). */
interface TextScripts {
  counts: ReadonlyMap<string, number>;
  main: string | null;
}

function textScripts(text: string): TextScripts {
  const counts = scriptCounts(text);
  let main: string | null = null;
  for (const [script, n] of counts) if (main === null || n > (counts.get(main) ?? 0)) main = script;
  return { counts, main };
}

const NONE: readonly number[] = [];

/**
 * The offsets of a word's letters when it is written wholly in look-alikes (UTS #39's whole-script
 * confusables): its letters and digits all of one script and all in Unicode's confusables table,
 * imitating letters of one other script or digits, with digits, marks and letters of no script
 * beside them, two letters or digits at least for Greek (a lone `α` or `β` is how maths names a variable),
 * in a text written mostly in the script they imitate, less in their own, and not in one written
 * together with it: `СОРЕ` in an English reply. In a Russian one it is the reply's own: most words
 * of a Russian or Greek reply stop at their first letter.
 */
function wholeOffsets(word: string, at: number, inText: () => TextScripts): readonly number[] {
  let script: string | null = null;
  let letters = 0;
  let marks = 0;
  const prototypes = table();
  for (let i = 0; i < word.length; ) {
    const cp = word.codePointAt(i) ?? 0;
    i += cp > 0xffff ? 2 : 1;
    const p = prototypes.get(cp);
    if (p !== undefined) {
      if (script === null) {
        const { counts, main } = inText();
        if (main === null || (counts.get(p.from) ?? 0) >= (counts.get(main) ?? 0) || !mixedScripts(new Set([main, p.from]))) return NONE;
      } else if (p.from !== script) {
        return NONE;
      }
      if (p.to !== 'Common' && p.to !== inText().main) return NONE;
      script = p.from;
    } else if (!neutral(cp)) {
      return NONE;
    } else if (cp >= 0x80 && MARK().test(String.fromCodePoint(cp))) {
      marks++;
    }
    letters++;
  }
  // One letter alone is a word too (Cyrillic а for "a"), but not a Greek one: `α` alone is how
  // maths and science name a variable or an angle.
  if (script === null || letters - marks < (script === 'Greek' ? 2 : 1)) return NONE;
  const out: number[] = [];
  let i = at;
  for (const ch of word) {
    if (prototypes.has(ch.codePointAt(0) ?? 0)) out.push(i);
    i += ch.length;
  }
  return out;
}

/** The value most frequent in `text`, then in the word, then first in the word. */
function main(values: readonly string[], inText: ReadonlyMap<string, number>): string {
  const inWord = new Map<string, number>();
  for (const v of values) inWord.set(v, (inWord.get(v) ?? 0) + 1);
  let best = values[0] as string;
  for (const v of inWord.keys()) {
    const [t, w] = [inText.get(v) ?? 0, inWord.get(v) ?? 0];
    const [bt, bw] = [inText.get(best) ?? 0, inWord.get(best) ?? 0];
    if (t > bt || (t === bt && w > bw)) best = v;
  }
  return best;
}

function formCounts(chars: readonly Char[]): Map<string, number> {
  const forms = new Map<string, number>();
  for (const c of chars) if (c.form !== null) forms.set(c.form, (forms.get(c.form) ?? 0) + 1);
  return forms;
}

/**
 * The positions (UTF-16 offsets) of `text`'s look-alike characters: in each word (a run of letters,
 * marks and digits) that mixes scripts not written together, the letters not of its main script;
 * in each whose letters, or whose digits, mix fullwidth or mathematical forms with plain ones, those
 * not of their main form. A word's main script (or form) is the one of its own most used in the whole text: in an
 * English reply `раураl` names its four Cyrillic letters, in a Russian one `Приветt` its Latin `t`.
 * A word written wholly in look-alikes of the text's main script names all its letters (wholeOffsets).
 */
export function lookalikeOffsets(text: string): number[] {
  // Plain ASCII has nothing to name; most replies stop here.
  if (!NON_ASCII.test(text)) return [];
  // The text's letters by script, and its letters and digits by form, each counted once, and only
  // for a text with a word that needs them.
  let inText: TextScripts | undefined;
  const scripts = (): TextScripts => (inText ??= textScripts(text));
  let formsInText: Map<string, number> | undefined;
  const textForms = (): Map<string, number> => (formsInText ??= formCounts(charsOf(text, 0)));
  const out: number[] = [];
  for (const m of text.matchAll(WORD())) {
    if (!NON_ASCII.test(m[0])) continue;
    if (oneScript(m[0])) {
      for (const at of wholeOffsets(m[0], m.index, scripts)) out.push(at);
      continue;
    }
    const chars = charsOf(m[0], m.index);
    const own = chars.flatMap((c) => (c.script === null ? [] : [c.script]));
    const mixed = mixedScripts(new Set(own));
    if (!mixed && !mixedForms(chars, 'letter') && !mixedForms(chars, 'digit')) {
      for (const at of wholeOffsets(m[0], m.index, scripts)) out.push(at);
      continue;
    }
    const script = mixed ? main(own, scripts().counts) : null;
    const form = (kind: Kind): string | null => {
      const forms = chars.flatMap((c) => (c.kind === kind && c.form !== null ? [c.form] : []));
      return new Set(forms).size > 1 ? main(forms, textForms()) : null;
    };
    const forms = { letter: form('letter'), digit: form('digit') };
    for (const c of chars) {
      const odd = forms[c.kind];
      if ((script !== null && c.script !== null && c.script !== script) || (odd !== null && c.form !== null && c.form !== odd)) out.push(c.at);
    }
  }
  return out;
}

/** The brackets around a character's name (an invisible character or a look-alike). */
export const CHARACTER_NAME = { open: '⟨', close: '⟩' } as const;

/**
 * What `⟨U+…⟩` means, said beside a diff that shows one (the comment's words above it, report.html's
 * under its table; docs/action.md, "The PR comment").
 */
export const CHARACTER_NAME_LEGEND = `${CHARACTER_NAME.open}U+…${CHARACTER_NAME.close} a character you cannot see, a look-alike from another script or one of these marks, by its code`;

/** Does a diff's text name a character by its code? */
export function namesCharacters(text: string): boolean {
  return text.includes(`${CHARACTER_NAME.open}U+`);
}

/** `⟨U+0430⟩`: a character by its code. */
export function characterName(ch: string): string {
  return `${CHARACTER_NAME.open}U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}${CHARACTER_NAME.close}`;
}

/** The characters the diff marks text with: ⟦ ⟧ around changed words (diff-text.ts), ⟨ ⟩ around a code. */
const MARK_CHARACTERS = /[\u27E6-\u27E9]/g;

/**
 * `text` with the diff's own mark characters named by their code, for a reply that holds them
 * itself (docs/action.md, "The PR comment"): a reply cannot write what reads as a mark, so a literal
 * `⟨U+0430⟩` in it reads `⟨U+27E8⟩U+0430⟨U+27E9⟩`, not a Cyrillic а, and a literal `⟦` is no
 * changed word's edge.
 */
export function showMarkCharacters(text: string): string {
  return text.replace(MARK_CHARACTERS, characterName);
}

/** `text` with its look-alike characters named: `pаypal` (Cyrillic а) reads `p⟨U+0430⟩ypal`. */
export function showLookalikes(text: string): string {
  const at = lookalikeOffsets(text);
  if (at.length === 0) return text;
  let out = '';
  let from = 0;
  for (const i of at) {
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    out += text.slice(from, i) + characterName(ch);
    from = i + ch.length;
  }
  return out + text.slice(from);
}

/**
 * The words of `text` that have look-alike characters, each with them named (`p⟨U+0430⟩ypal`),
 * once each, in order, at most `max`: what a note under a reply shown as written lists.
 */
export function lookalikeWords(text: string, max = 5): string[] {
  const at = new Set(lookalikeOffsets(text));
  if (at.size === 0) return [];
  const words: string[] = [];
  for (const m of text.matchAll(WORD())) {
    let named = '';
    let odd = false;
    let i = m.index;
    for (const ch of m[0]) {
      odd ||= at.has(i);
      named += at.has(i) ? characterName(ch) : ch;
      i += ch.length;
    }
    if (odd && !words.includes(named)) words.push(named);
    if (words.length === max) break;
  }
  return words;
}
