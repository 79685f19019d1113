// Words for counts that every layer shares (evaluate/, report/, calibrate/): "3 fixtures", "1,234";
// a list in a sentence ("a, b and c": listWords; cut, the rest counted, "a, b and 3 more":
// listAndMore); a shell word, for the commands a fix or a notice gives to paste (shownShellWord); a
// sentence's capital;
// a text on a terminal's line (terminalLine: a path a message names, whatever layer writes it); a
// value quoted as JSON inside a message (shownJson); the head of a text cut by length, whole characters (headOf).
// Pure; written once here so the layers cannot drift apart on how a count reads.
import { onFirstUse, unicodePattern } from './patterns.js';

/** "1234567" -> "1,234,567": a comma between groups of three digits of an integer written in digits. */
export function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1,234" (the integer part of `n`). */
export function thousands(n: number): string {
  return groupDigits(String(Math.trunc(n)));
}

/**
 * "1 fixture", "3 fixtures", "1,234 fixtures": the count's digits grouped as every other count the
 * reports write (it wrote "1234 fixtures" beside "1,234 probes").
 */
export function plural(n: number, one: string, many: string): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/** A latency in ms as the reports write it: digits grouped ("3,250"), tenths kept when it has them ("3,250.5"). */
export function msWords(ms: number): string {
  const tenths = Number(ms.toFixed(1));
  return `${thousands(tenths)}${String(tenths).slice(String(Math.trunc(tenths)).length)}`;
}

/**
 * A latency or a duration as every surface writes it (docs/latency.md): whole milliseconds below a
 * second once rounded ("450 ms"; 999.5 ms is "1.0 s", never "1000 ms"), then seconds to the tenth
 * ("1.9 s", "12.3 s", "1,234.6 s"), a half tenth rounded up. The tenths are counted in whole numbers,
 * so that 1,950 ms is "2.0 s" as 1,250 ms is "1.3 s" ((1.95).toFixed(1) is "1.9": 1.95 is not held exactly).
 */
export function durationText(ms: number): string {
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  return `${thousands(tenths / 10)}.${tenths % 10} s`;
}

/**
 * A persona script's turn inside a sentence: "turn 3", the welcome turn "turn 0 (welcome)"; a
 * heading's is capitalized ("Turn 0 (welcome)", src/report/model.ts turnName), so the welcome turn
 * reads the same on every surface and in every error (docs/meaning.md, "In the comment").
 */
export function turnWords(index: number): string {
  return index === 0 ? 'turn 0 (welcome)' : `turn ${index}`;
}

/**
 * A list in a sentence, as every message and report writes it: "a", "a and b", "a, b and c" (no
 * comma before the last word; `word` "or": "a, b or c"); '' for none. Written once here so that no
 * surface lists otherwise.
 */
export function listWords(parts: readonly string[], word: 'and' | 'or' = 'and'): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} ${word} ${parts[parts.length - 1] as string}`;
}

/** What stands between a cut list's items: ", "; "; " for items that hold commas; " → " for the steps of a path ("a → b and 3 more"). */
type Between = ', ' | '; ' | ' → ';

/**
 * A list cut after its first `most` items, the rest counted: "a, b, c and 4 more" ("a, b" when none
 * is cut; digits grouped as every count, "and 1,234 more"); `show` writes each item shown. No "and"
 * before the last item shown: the count of the rest closes the list. Items that hold commas of
 * their own (a label with what moved, "`faq`: latency, tokens"; JSON) are `between` "; ", and the
 * count is set apart as one of them, "a; b; and 4 more", so that it is not read as the last item's
 * (docs/architecture.md, words.ts).
 */
export function listAndMore<T>(parts: readonly T[], most: number, show: (part: T) => string, between: Between = ', '): string {
  const shown = parts.slice(0, most).map(show);
  return shownAndMore(shown, parts.length - shown.length, between);
}

/**
 * listAndMore's words for a list whose items shown and count of the rest are known apart (a gate
 * read back from a comment keeps fewer labels than it counts): `shown` joined, then "and N more"
 * when `more` is above 0 ("N more" alone when none is shown).
 */
export function shownAndMore(shown: readonly string[], more: number, between: Between = ', '): string {
  if (more <= 0) return shown.join(between);
  if (shown.length === 0) return `${thousands(more)} more`;
  return `${shown.join(between)}${between === '; ' ? between : ' '}and ${thousands(more)} more`;
}

/** `s` with its first letter a capital: words written to follow a colon, opening a sentence of their own (a refusal under its heading, a line's head). */
export function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** `text` as one single-quoted shell word (a quote inside it closes, escapes and reopens the word). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** `text` as one shell word: as it is when the shell reads it so (a path of plain characters), else quoted. Printed, it is shownShellWord's. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9._/@%+=:,-]+$/.test(text) ? text : shellQuote(text);
}

/** What a terminal or a markdown line shows otherwise than it is (src/report/escape.ts): controls, tab, line breaks, bidi overrides. */
// eslint-disable-next-line no-control-regex
const UNSHOWN_RE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/**
 * `text` as one shell word to paste, in every command a fix, a refusal, a next step or a report
 * prints: one that still names it once printed on one line (a terminal shows a control character
 * as `\u001b`, markdown drops it): shellWord, but a word with such a character is written in $'...'
 * (POSIX dollar-single-quotes), each of those characters as its UTF-8 bytes in three-digit octal
 * (`\033`), so that the printed command, pasted into bash, zsh or ksh, names the real file, and the
 * printed line holds no control character for the terminal to act on.
 */
export function shownShellWord(text: string): string {
  return UNSHOWN_RE.test(text) ? dollarQuote(text) : shellWord(text);
}

/** shellQuote, for a script's word (always quoted), but $'...' as shownShellWord writes it when `text` has a character a printed line does not show. */
export function shownShellQuote(text: string): string {
  return UNSHOWN_RE.test(text) ? dollarQuote(text) : shellQuote(text);
}

/** `text` in $'...': a backslash and a quote escaped, each character UNSHOWN_RE matches as its UTF-8 bytes in octal. */
function dollarQuote(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (UNSHOWN_RE.test(ch)) for (const byte of new TextEncoder().encode(ch)) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `$'${out}'`;
}

/** What JSON.stringify leaves as it is and a printed line does not show as it is: DEL and the C1 controls, U+2028 and U+2029 (a line break to a log, a terminal and terminalBlock), bidi overrides and isolates. */
const JSON_UNSHOWN_RE = /[\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/**
 * `value` as JSON.stringify writes it, to quote a name or a value inside a message (`--commit
 * "a\u2028b"`, `the entry "a\nb"`): each character JSON.stringify leaves raw that a line would not
 * show as it is (JSON_UNSHOWN_RE) written as its escape too, as `\n` is, so that the quoted value
 * stays on the message's one line and reads as the JSON it is (docs/security.md, "Agent text is data").
 */
export function shownJson(value: unknown): string {
  // JSON.stringify's undefined (of undefined, a function) passes through, as its callers' `?? 'null'` expect.
  return (JSON.stringify(value) as string | undefined)?.replace(JSON_UNSHOWN_RE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) as string;
}

/**
 * A key of an agent's answer a path may name and a message or a fix may show as it is: letters,
 * digits and `_$@-`, at most 64 (no dot, quote, space, semicolon, backtick or control character).
 */
export const PLAIN_KEY_RE = /^[A-Za-z0-9_$@-]{1,64}$/;
/** How many keys deep an answer is searched for its text (agent/text-path.ts): the most a path it names has. */
export const PLAIN_PATH_KEYS = 4;

/**
 * A dotted path a fix may quote as it is, though an agent's answer chose it (the path its text
 * may be at, agent/text-path.ts): at most PLAIN_PATH_KEYS keys, each PLAIN_KEY_RE's, so at most 259
 * characters; any other is a key the agent sent, never quoted in a fix (evaluate/causes.ts).
 */
export function isPlainPath(path: string): boolean {
  const keys = path.split('.');
  return keys.length <= PLAIN_PATH_KEYS && keys.every((k) => PLAIN_KEY_RE.test(k));
}

/**
 * A label on a line (the accept label, a label from the event): as it is, or quoted as JSON when it
 * holds white space, a control or an invisible format character (shownJson: a line break, an escape
 * sequence's ESC or a U+202E in it as its escape), so that no label starts a line of its own in the
 * log, nor a workflow command there, nor rewrites the terminal (docs/security.md, "Agent text is data").
 */
export const labelWord = (label: string): string => (LABEL_QUOTED_RE.test(label) ? shownJson(label) : label);
/** White space, the C0 and C1 controls, and the invisible format characters (soft hyphen, zero widths, marks, bidi controls, BOM): written out, as a \p{...} class is resolved at every start (docs/performance.md). */
// eslint-disable-next-line no-control-regex
const LABEL_QUOTED_RE = /[\s\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/;

/**
 * A count as a person types it (a flag's or an Action input's value): decimal digits only, else
 * null. `Number` alone reads "1e1" as 10, "0x5" as 5 and "" as 0, so `--repeat 1e1` ran ten
 * attempts without a word.
 */
export function wholeNumberText(text: string): number | null {
  return /^[0-9]+$/.test(text) ? Number(text) : null;
}

/** CONTROL_RE and the carriage return (U+000D), for a terminal once its line breaks are read. */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL_RE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** Line breaks on a terminal: `\r\n` is one, a lone `\r` is a control character (shownControl). */
const TERMINAL_NEWLINE_RE = /\r\n|\n|\u2028|\u2029/g;

/**
 * Text for a terminal (the CLI's summary, probe, accept's refusals, the `gate failed:` line):
 * each control character and bidi override shown as its escape (`\u001b`), so that the reader
 * sees it is there and the terminal never acts on it (docs/security.md, "Agent text is data");
 * tab and newlines as in report/escape.ts's oneLine and normalizeBlock, but for a carriage return not followed by a
 * line feed, which is shown as `\u000d` too: read as a line break, a reply's "a\rb" was printed
 * on two lines, as if the agent had sent a newline.
 */
function shownControl(text: string): string {
  return text.replace(TERMINAL_CONTROL_RE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * oneLine for a terminal: newlines shown as ` ⏎ `, tabs as spaces, controls shown escaped, and
 * each run of right-to-left text isolated, as the comment isolates it (isolateRightToLeft; the
 * text's own isolates are escapes by then, so none can end one early): a log viewer or a terminal
 * that lays out right-to-left text cannot draw the line's own words beside it to its side.
 */
export function terminalLine(text: string): string {
  return isolateRightToLeft(terminalOneLine(text));
}

/**
 * terminalLine for a tool call begun ("find_order {...}"), its name and its input isolated each
 * whole as isolatedCall isolates them, as the comment's code span of the call (report/escape.ts
 * callSpan) and report.html's call are, not run by run.
 */
export function terminalCall(tool: string, input: string): string {
  return isolatedCall(terminalOneLine(tool), terminalOneLine(input));
}

/**
 * terminalLine for a value shown as JSON (probe's off-track signals, shownJson's), isolated whole
 * left to right as isolatedJson isolates a call's input, not run by run: two values in Hebrew
 * joined by "; " were one right-to-left run, drawn in the other order, their quotes turned.
 */
export function terminalJson(json: string): string {
  return isolatedJson(terminalOneLine(json));
}

/**
 * A tool call on one line, its name, a space and its input (each one line, escaped as its surface
 * escapes text): a name with right-to-left text in one isolate by its first strong character, as a
 * run of it is, and an input with right-to-left text in one left-to-right isolate (U+2066 ...
 * U+2069), as JSON is written: its braces, quotes and colons keep their places around an Arabic
 * key or value. Together in one isolate, an Arabic name made the call right-to-left and drew its
 * JSON's braces around the other way; an input isolated by its first strong character drew
 * `{"שם":"x"}` reversed. Text with no right-to-left character is as it was.
 */
export function isolatedCall(tool: string, input: string): string {
  return `${hasRightToLeft(tool) ? FSI + tool + PDI : tool} ${isolatedJson(input)}`;
}

/**
 * A tool's input or output (JSON, one line) with right-to-left text in it in one left-to-right
 * isolate, as isolatedCall isolates an input, each string of it that holds right-to-left text
 * isolated inside (isolatedJsonStrings); else as it is.
 */
export function isolatedJson(json: string): string {
  return hasRightToLeft(json) ? LRI + isolatedJsonStrings(json) + PDI : json;
}

/**
 * `json` (one line) with the characters inside the quotes of each string that holds right-to-left
 * text isolated by their first strong character (U+2068 ... U+2069), its escapes whole inside: in
 * the left-to-right isolate around the JSON, a number after a Hebrew key was the key's (Unicode's
 * bidi algorithm, W7, N1), so `{"נמצא": 3}` was drawn `{"3 :"נמצא}`; isolated, the key is one
 * neutral character to its quotes, colon and number, and they keep their places. A string cut
 * open (clip's "…" in it) is isolated to its end, before the "…". Text outside a string (not
 * JSON) has its runs isolated (isolateRightToLeft). Text with no right-to-left character is as it was.
 */
export function isolatedJsonStrings(json: string): string {
  if (!hasRightToLeft(json)) return json;
  let out = '';
  let from = 0;
  for (let i = 0; i < json.length; i++) {
    if (json[i] !== '"') continue;
    let end = i + 1;
    while (end < json.length && json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
    end = Math.min(end, json.length);
    const closed = end < json.length;
    const innerEnd = !closed && json.endsWith('…') && end - 1 > i ? end - 1 : end;
    const inner = json.slice(i + 1, innerEnd);
    out += isolateRightToLeft(json.slice(from, i + 1)) + (hasRightToLeft(inner) ? FSI + inner + PDI : inner) + json.slice(innerEnd, closed ? end + 1 : end);
    from = closed ? end + 1 : end;
    i = from - 1;
  }
  return out + isolateRightToLeft(json.slice(from));
}

/** terminalLine's text before its right-to-left runs are isolated. */
function terminalOneLine(text: string): string {
  return shownControl(text.replace(TERMINAL_NEWLINE_RE, ' ⏎ ').replace(/\t/g, ' '));
}

/** A right-to-left mark (RLM, ALM) or a character of a right-to-left script: Hebrew, Arabic, Syriac, Thaana, N'Ko, ..., their presentation forms, and those beyond the BMP (by their high surrogates). */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u200F\u061C]|[\uD802\uD803\uD83A\uD83B][\uDC00-\uDFFF]/;
/** A letter that is not right-to-left: a character of the left-to-right direction. */
const LEFT_TO_RIGHT = unicodePattern(String.raw`\p{L}`, 'u');
/** What may follow a run at the text's end and still be its own: spaces and a number ("خلال 30"), not a quote or a stop of ours. */
const NUMBER_TAIL = unicodePattern(String.raw`^(?:\s|\p{N}|[.,\u066B\u066C](?=\p{N}))*$`, 'u');
/**
 * The numbers right after a run, with spaces before each, before anything else ("שלום 30 users",
 * "خلال 30": found"): Unicode's bidi algorithm sets a number after right-to-left text in its
 * direction (W2, W7, N1), so it is drawn on the run's far side, as the text's own paragraph draws it.
 * So is a list of them, a comma or a semicolon between ("שלום 12, 34 users": the spaces and the
 * comma between two numbers take the run's direction too, N1), and a number with one separator
 * inside it ("12:30", "3/5", "1,500.50": W4); a colon right after the run ("שלום: 30 x"), between it
 * and its number (N1); and brackets around them ("שלום (30) x"), a pair whose inside is the run's
 * direction after the run (N0). A stop of ours (" · 3/5") is none of these: it stays outside.
 */
const NUMBER_SOURCE = String.raw`\p{N}+(?:[.,:/\u066B\u066C]\p{N}+)*`;
const NUMBERS_SOURCE = String.raw`${NUMBER_SOURCE}(?:[,;\u060C\u061B]?\s*${NUMBER_SOURCE})*`;
// Each colon and bracket with the backslash markdown escapes it with or none (report/escape.ts).
const NUMBERS_AFTER = unicodePattern(String.raw`^(?:\\?:)?\s*(?:${NUMBERS_SOURCE}|\\?\(\s*${NUMBERS_SOURCE}\s*\\?\)|\\?\[\s*${NUMBERS_SOURCE}\s*\\?\])`, 'u');
/**
 * An opening bracket and numbers right after a run, the bracket closed nowhere after ("שלום (12
 * users"): a browser draws the unpaired bracket with the run and its numbers (N1, W7), "12) שלום";
 * isolated apart, it drew "שלום (12". Closed later ("שלום (12 users)"), the pair is the line's (N0): outside.
 */
const OPEN_NUMBERS_AFTER = unicodePattern(String.raw`^(?:\\?:)?\s*\\?([(\[])\s*${NUMBERS_SOURCE}`, 'u');
const FSI = '\u2068';
const LRI = '\u2066';
const PDI = '\u2069';

/**
 * Whether the first strong character of `text` (a letter, a right-to-left mark) is right-to-left,
 * inside an isolate too: a browser sets an element of dir="auto" (GitHub's paragraphs, lists and
 * code blocks) by it, and does not skip what an isolate holds.
 */
export function startsRightToLeft(text: string): boolean {
  if (!hasRightToLeft(text)) return false;
  for (const c of text) {
    if (RIGHT_TO_LEFT.test(c)) return true;
    if (c === '\u200e' || LEFT_TO_RIGHT().test(c)) return false;
  }
  return false;
}

/** Whether `text` holds a right-to-left character or mark (isolateRightToLeft isolates its runs). */
export function hasRightToLeft(text: string): boolean {
  return RIGHT_TO_LEFT.test(text);
}

/**
 * `text` (escaped, one line, its own bidi controls dropped or shown as escapes: report/escape.ts
 * stripControl, terminalLine) with each run of right-to-left
 * text isolated, first strong character inside (U+2068 FIRST STRONG ISOLATE ... U+2069): a run starts
 * at a right-to-left character and ends at the last one before a left-to-right letter, with the
 * numbers right after it (they are the run's: "خلال 30", "שלום 30 users", whose 30 a browser and
 * a reply's own paragraph draw left of שלום), or at the text's end when only a number and spaces
 * follow it. Isolated, a reply's Arabic is one neutral character to the line around it (Unicode's bidi algorithm, X5c, P2):
 * it cannot make a line that starts with it right-to-left, nor draw the line's " · 3/5" or "where the
 * baseline said" to its side. Text with no right-to-left character is returned as it is.
 */
export function isolateRightToLeft(text: string): string {
  if (!hasRightToLeft(text)) return text;
  const chars = Array.from(text);
  const rtl = chars.map((c) => RIGHT_TO_LEFT.test(c));
  const ltr = chars.map((c, i) => !(rtl[i] as boolean) && LEFT_TO_RIGHT().test(c));
  let out = '';
  let i = 0;
  while (i < chars.length) {
    if (!(rtl[i] as boolean)) {
      out += chars[i] as string;
      i++;
      continue;
    }
    // The run: to its last right-to-left character before a left-to-right letter and the numbers after it, or to the end.
    let last = i;
    let j = i + 1;
    for (; j < chars.length && !(ltr[j] as boolean); j++) if (rtl[j] as boolean) last = j;
    const tail = chars.slice(last + 1, j).join('');
    const end = j === chars.length && NUMBER_TAIL().test(tail) ? j : last + 1 + Array.from(numbersAfter(tail, chars, last + 1)).length;
    out += FSI + chars.slice(i, end).join('') + PDI;
    i = end;
  }
  return out;
}

/**
 * The numbers right after a run that are its (NUMBERS_AFTER), or an opening bracket and numbers
 * left open (OPEN_NUMBERS_AFTER): `tail` is what follows the run, at `from` in `chars`.
 */
function numbersAfter(tail: string, chars: readonly string[], from: number): string {
  const closed = NUMBERS_AFTER().exec(tail)?.[0];
  if (closed !== undefined) return closed;
  const open = OPEN_NUMBERS_AFTER().exec(tail);
  if (open === null) return '';
  return closedAfter(chars, from + Array.from(open[0]).length, open[1] as string) ? '' : open[0];
}

/** Does a bracket `open` ("(" or "[") find its closing one in `chars` from `from` on, brackets of its kind nested between? */
function closedAfter(chars: readonly string[], from: number, open: string): boolean {
  const close = open === '(' ? ')' : ']';
  let depth = 0;
  for (let i = from; i < chars.length; i++) {
    if (chars[i] === open) depth++;
    else if (chars[i] === close && depth-- === 0) return true;
  }
  return false;
}

/** normalizeBlock for a terminal: newlines normalized to `\n`, controls shown escaped. */
export function terminalBlock(text: string): string {
  return shownControl(text.replace(TERMINAL_NEWLINE_RE, '\n'));
}

/** A mark (an accent, an emoji's variation selector) that belongs to the character before it. */
const MARK = unicodePattern(String.raw`^\p{M}`, 'u');

/** U+200D ZERO WIDTH JOINER, which joins the emoji on either side of it into one. */
const ZWJ = 0x200d;

/**
 * Where a cut of `text` after at most `end` UTF-16 units keeps whole characters: never half of a
 * surrogate pair (an emoji's half is no character: written out, it is U+FFFD, or `\ud83d` in JSON),
 * nor a letter without the marks that follow it (an accent, an emoji's variation selector), which
 * would read as another character, nor an emoji sequence (a family joined by U+200D, a flag, a skin
 * tone), nor any other character Unicode makes of several (a Korean syllable of its letters, a
 * Hindi conjunct: splitsCharacter), whose part is another character. Cheap: it looks only at the
 * characters around the cut.
 */
export function wholeEnd(text: string, end: number): number {
  const from = Math.max(0, Math.min(end, text.length));
  if (from === 0 || from === text.length) return from;
  const starts = characterStarts(text, from);
  let at = from;
  while (at > 0 && at < text.length && splitsCharacter(text, at, starts)) {
    at--;
    // No character is that long: a chain of joiners is no emoji, and a cut keeps most of its length.
    if (from - at > LONGEST_CHARACTER) return halfPairAt(text, from) ? from - 1 : from;
  }
  return at;
}

/**
 * The most UTF-16 units a cut walks over to keep one character whole: the longest emoji sequences
 * (a family of four with skin tones, a subdivision's flag) are under 40. A longer run of joiners or
 * marks is hostile text, cut where the bound asks, whole surrogate pairs still.
 */
const LONGEST_CHARACTER = 64;

/** Is `at` inside a surrogate pair? */
function halfPairAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff;
}

/** The first `end` UTF-16 units of `text` at most, whole characters (wholeEnd): every cut of a text by length. */
export function headOf(text: string, end: number): string {
  return text.slice(0, wholeEnd(text, end));
}

/**
 * The last `length` UTF-16 units of `text` at most, whole characters: a cut that would start on the
 * second half of a surrogate pair, or on a mark, starts after it (headOf's counterpart, from the end).
 */
export function tailOf(text: string, length: number): string {
  const from = Math.max(0, text.length - Math.max(0, length));
  if (from === 0 || from === text.length) return text.slice(from);
  const starts = characterStarts(text, from);
  let at = from;
  while (at > 0 && at < text.length && splitsCharacter(text, at, starts)) {
    at++;
    if (at - from > LONGEST_CHARACTER) return text.slice(halfPairAt(text, from) ? from + 1 : from);
  }
  return text.slice(at);
}

/**
 * Would a cut of `text` at `at` (0 < at < length) part a surrogate pair, a letter from a mark after
 * it (an accent; a keycap's U+FE0F and U+20E3), or an emoji sequence: one joined by U+200D (a family,
 * a rainbow flag), an emoji from its skin tone or its tags (a subdivision's flag), a flag's two
 * regional indicators? By a look at the units around the cut; what is left, a Korean syllable
 * written as its letters (U+1100...), a Hindi conjunct (क्ष), Intl.Segmenter's grapheme clusters
 * say (`starts`), asked only beside a character of U+0300 or above.
 */
function splitsCharacter(text: string, at: number, starts: (at: number) => boolean): boolean {
  const code = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  // Below U+0300 on both sides (ASCII, Latin letters): no two such are one character but CR LF, whose CR alone is no other character.
  if (code < 0x300 && before < 0x300) return false;
  if (halfPairAt(text, at)) return true;
  if (code === ZWJ || before === ZWJ) return true;
  const point = text.codePointAt(at) ?? 0;
  // A skin tone (U+1F3FB-U+1F3FF) or a tag (U+E0020-U+E007F) belongs to the emoji before it.
  if ((point >= 0x1f3fb && point <= 0x1f3ff) || (point >= 0xe0020 && point <= 0xe007f)) return true;
  // A flag's pair is counted from the run's start, however far back (the clusters below are a window's).
  if (isRegionalIndicator(point)) return regionalIndicatorsBefore(text, at) % 2 === 1;
  if (code >= 0x300 && MARK().test(text.slice(at, at + 2))) return true;
  return !starts(at);
}

/** Unicode's grapheme clusters (what a reader sees as one character), built on first use: only a cut beside a character of U+0300 or above asks. */
const GRAPHEMES = onFirstUse(() => new Intl.Segmenter('en', { granularity: 'grapheme' }));

/**
 * Whether a character (a grapheme cluster) of `text` starts at an index near `from`, a cut's place:
 * of a window of twice LONGEST_CHARACTER on each side, so that a cut of a long text asks about a few
 * hundred units, and a window that starts inside a character has found its way by the ones a cut
 * walks over. The window is segmented on the first ask, once per cut.
 */
function characterStarts(text: string, from: number): (at: number) => boolean {
  const lo = Math.max(0, from - 2 * LONGEST_CHARACTER);
  let segments: Intl.Segments | undefined;
  return (at) => {
    segments ??= GRAPHEMES().segment(text.slice(lo, from + 2 * LONGEST_CHARACTER));
    return segments.containing(at - lo)?.index === at - lo;
  };
}

/** A regional indicator (U+1F1E6-U+1F1FF): two of them are a flag. */
function isRegionalIndicator(point: number): boolean {
  return point >= 0x1f1e6 && point <= 0x1f1ff;
}

/** How many regional indicators come right before `at`: an odd number leaves one waiting for its pair. */
function regionalIndicatorsBefore(text: string, at: number): number {
  let n = 0;
  for (let i = at - 2; i >= 0 && isRegionalIndicator(text.codePointAt(i) ?? 0); i -= 2) n++;
  return n;
}
