// The last line of a fix that moves an item's "-": which of its next lines move with it; the
// words of a `|` or `>` block whose text is no deeper than its key; and a line's indentation. Its
// own module: the loader's fixes use it on every start, while the analysis of a refused file
// (syntax.ts, flow.ts) is loaded with the `yaml` package only when a file is refused
// (docs/performance.md, "2026-12-07 (small hours)").

import { listWords, plural, shownJson } from '../../words.js';

/** The number of spaces a line starts with: its indentation (a tab is not one of them). */
export function indentOf(line: string): number {
  return (/^ */.exec(line) as RegExpExecArray)[0].length;
}

/** A line that is blank, or a comment alone. */
export function isBlank(line: string): boolean {
  return /^\s*(?:#.*)?$/.test(line);
}

/** A fix's last line naming the item's next lines (1-based, in order) to move as its "-" does; '' when none. */
export function alsoMoved(next: readonly number[], shift: number, way: 'left' | 'right' = 'left'): string {
  if (next.length === 0) return '';
  return movedLines(lineRange(next[0] as number, next[next.length - 1] as number), shift, way);
}

/** A fix's last line moving the lines `named` ("line 6", "lines 4 to 7, line 9") by `shift` spaces. */
export function movedLines(named: string, shift: number, way: 'left' | 'right'): string {
  return `\n  and move ${named} ${way} by ${plural(shift, 'space', 'spaces')} too`;
}

/**
 * `message: |`, then its text at the key's column or left of it (line `n`, `here`, indented by
 * `at`): YAML reads the block as empty, and line `n` as `readAs` (a key written wrong, when the
 * file is refused: syntax.ts; a key of its own, or one more item of a list, when it is not:
 * item-file.ts). The fix indents the text 2 spaces deeper than the key, at `keyIndent`. `key`: null
 * for a list item's `- |` (the "-" at `keyIndent`).
 */
export function blockTextWords(b: { n: number; here: string; at: number; header: number; key: string | null; keyIndent: number; indicator: string; readAs: string }): { message: string; fix: string } {
  const key = b.key === null ? 'the "-"' : shownJson(b.key);
  const deep = b.keyIndent + 2;
  return {
    message: `line ${String(b.n)}, the text of the ${b.indicator} block of ${key} on line ${String(b.header)}, is indented by ${spacesWord(b.at)}, no deeper than ${key}, so YAML reads the block as empty and line ${String(b.n)} as ${b.readAs}`,
    fix: `indent the block's text deeper than ${key}: by ${plural(deep, 'space', 'spaces')}, so that line ${String(b.n)} reads\n    ${' '.repeat(deep)}${b.here.trimStart()}\n  and each line of the text after it too`,
  };
}

/** An indentation in words: "no spaces", "1 space", "4 spaces". */
export function spacesWord(n: number): string {
  return n === 0 ? 'no spaces' : plural(n, 'space', 'spaces');
}

/**
 * A list item's "-" with nothing after it on line `from` (at `dash`, 0-based), and its lines
 * `first` to `to` (the first indented by `at`) no deeper than it: the item is read as empty, and
 * `readAs` says what YAML makes of line `first`. The fix indents the item's lines 2 spaces deeper
 * than the "-" (keysMoved), or, when it is one line, writes it after the "-". `more`: the next items
 * of the same list written the same way (their "-" at `dash`, their lines at `at`), named in the
 * message and each fixed alike. `cut`: a syntax error on the line after `to`, which may be the
 * item's too: no fix writes the item as one line then.
 */
export function emptyItemWords(lines: readonly string[], w: { from: number; first: number; to: number; at: number; dash: number; readAs: string; cut?: boolean }, more: readonly { from: number; first: number; to: number }[] = []): { message: string; fix: string } {
  const text = (lines[w.first - 1] as string).trimStart();
  const deep = w.dash + 2;
  const alone = w.to === w.first && more.length === 0 && w.cut !== true ? `\n  or write it after the "-", so that line ${String(w.from)} reads\n    ${' '.repeat(w.dash)}- ${text}` : '';
  const reads = (m: { first: number; to: number }): string => `line ${String(m.first)} reads\n    ${' '.repeat(deep)}${(lines[m.first - 1] as string).trimStart()}${keysMoved(lines, m.first, m.to, w.at, deep)}`;
  const others = more.length === 0 ? '' : `; ${linesWord(more.map((m) => m.first))} under the "-" on ${linesWord(more.map((m) => m.from))} ${more.length === 1 ? 'is' : 'are'} written the same way`;
  return {
    message: `the "-" on line ${String(w.from)} has nothing after it, and line ${String(w.first)} under it is indented by ${spacesWord(w.at)}, no deeper than the "-", so YAML reads the item as empty and ${w.readAs}${others}`,
    fix: `indent ${more.length === 0 ? 'the item\'s lines deeper than the "-"' : 'each item\'s lines deeper than its "-"'}: by ${plural(deep, 'space', 'spaces')}, so that ${reads(w)}${more.map((m) => `\n  and ${reads(m)}`).join('')}${alone}`,
  };
}

/** A span of lines without the word "line": "5", "5 to 8". */
export function lineSpan(from: number, to: number): string {
  return from === to ? String(from) : `${String(from)} to ${String(to)}`;
}

/** A span of lines in words: "line 5", "lines 5 to 8" (every fix and message that names a span writes it so). */
export function lineRange(from: number, to: number): string {
  return `${from === to ? 'line' : 'lines'} ${lineSpan(from, to)}`;
}

/** Lines in words: "line 5", "lines 5 and 8", "lines 5, 8 and 11". */
export function linesWord(ns: readonly number[]): string {
  return ns.length === 1 ? `line ${String(ns[0])}` : `lines ${listWords(ns.map(String))}`;
}

/** A key with nothing after its `:` but a block's `|` or `>` or a comment: its value is on the lines under it. */
const KEY_OPEN = /:[ \t]*(?:[|>][-+0-9]*)?[ \t]*(?:#.*)?$/;

/**
 * The item's lines after its first (`first`, at `at`) up to `to`, which move with it to `deep`: a
 * key at the first's column moves there, one already there stays, and a line under a key (deeper
 * than it, as the mapping of an `assert:`) keeps its place relative to its key. Every line that
 * moves, moves by deep - at: the fix's last line naming them, '' when none.
 */
export function keysMoved(lines: readonly string[], first: number, to: number, at: number, deep: number): string {
  const moving: number[] = [];
  let key = at;
  let shift = deep - at;
  let open = KEY_OPEN.test(lines[first - 1] as string);
  for (let k = first + 1; k <= to; k += 1) {
    const line = lines[k - 1] as string;
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    // A key of the item: at the first line's column, or at the item's, and not under a key whose value is below it.
    if ((indent === at || indent === deep) && !(open && indent > key)) {
      key = indent;
      shift = deep - indent;
      open = KEY_OPEN.test(line);
    }
    if (shift !== 0) moving.push(k);
  }
  if (moving.length === 0) return '';
  const runs: string[] = [];
  for (let i = 0; i < moving.length; ) {
    let j = i;
    while (j + 1 < moving.length && (moving[j + 1] as number) === (moving[j] as number) + 1) j += 1;
    runs.push(i === j ? `line ${String(moving[i])}` : `lines ${String(moving[i])} to ${String(moving[j])}`);
    i = j + 1;
  }
  return movedLines(listWords(runs), deep - at, 'right');
}
