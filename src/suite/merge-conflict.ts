// A merge conflict left in a suite file: git's marker lines (`<<<<<<< HEAD`, `=======`,
// `>>>>>>> their-branch`, and diff3's `||||||| base`) around the two sides of a change. Neither
// YAML nor JSON reads them, and the parser's words for them ("Implicit keys need to be on a single
// line", "Expected double-quoted property name") do not say what they are: said as a conflict, at
// its first line, with the lines to delete to keep either side (docs/troubleshooting.md).

import type { ConfigIssue } from './issues.js';
import { lineRange, lineSpan } from './yaml/moved.js';

const OPEN = /^<{7}(?: (.*))?$/;
const BASE = /^\|{7}(?: .*)?$/;
const MIDDLE = /^={7}$/;
const CLOSE = /^>{7}(?: (.*))?$/;

/** `lines 3 and 5 to 7`, `line 3`: the spans (in order) that are not empty, those that touch joined. */
function lines(spans: readonly [number, number][]): string {
  const said: [number, number][] = [];
  for (const [from, to] of spans) {
    const last = said.at(-1);
    if (from > to) continue;
    if (last !== undefined && from === last[1] + 1) last[1] = to;
    else said.push([from, to]);
  }
  if (said.length === 1) return lineRange(...(said[0] as [number, number]));
  return `lines ${said.map(([from, to]) => lineSpan(from, to)).join(' and ')}`;
}

/** One merge conflict (conflictsIn): its `<<<<<<<` line, what it is and the fix. */
export interface MergeConflict {
  line: number;
  /** `a merge conflict left unresolved at line 3 (git's <<<<<<< HEAD to >>>>>>> feature on line 7), which JSON does not read`. */
  words: string;
  /** `keep one side: to keep ..., delete ...; to keep ..., delete ...`. */
  fix: string;
}

/**
 * The merge conflicts git left in `text` (a file of `kind` "YAML" or "JSON"), in order; empty when
 * there is none. Only a whole conflict is said (its three markers in order); a marker line alone is
 * said by the parser. A text without a `<<<<<<<` is passed over in one look (a suite's every file is asked).
 */
export function conflictsIn(text: string, kind: 'YAML' | 'JSON'): MergeConflict[] {
  if (!text.includes('<<<<<<<')) return [];
  const all = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const out: MergeConflict[] = [];
  for (let n = 0; n < all.length; n += 1) {
    const open = OPEN.exec(all[n] as string);
    if (open === null) continue;
    let base: number | null = null;
    let middle: number | null = null;
    let close: RegExpExecArray | null = null;
    let k = n + 1;
    for (; k < all.length; k += 1) {
      const line = all[k] as string;
      if (middle === null && base === null && BASE.test(line)) base = k;
      else if (middle === null && MIDDLE.test(line)) middle = k;
      else if (middle !== null && (close = CLOSE.exec(line)) !== null) break;
      else if (OPEN.test(line)) break;
    }
    if (middle === null || close === null) continue;
    // 1-based: the markers' lines, and each side's.
    const [a, b, m, c] = [n + 1, (base ?? middle) + 1, middle + 1, k + 1];
    const ours = open[1]?.trim() ?? '';
    const theirs = close[1]?.trim() ?? '';
    const side = (name: string, nth: string, from: number, to: number): string => `${name === '' ? `the ${nth} side` : `the side marked ${name}`} (${from > to ? 'empty' : lines([[from, to]])})`;
    out.push({
      line: a,
      words: `a merge conflict left unresolved at line ${String(a)} (git's ${(all[n] as string).trim()} to ${(all[k] as string).trim()} on line ${String(c)}), which ${kind} does not read`,
      fix: `keep one side: to keep ${side(ours, 'first', a + 1, b - 1)}, delete ${lines([[a, a], [b, c]])}; to keep ${side(theirs, 'second', m + 1, c - 1)}, delete ${lines([[a, m], [c, c]])}`,
    });
    n = k;
  }
  return out;
}

/** The merge conflicts git left in `text` (conflictsIn), one issue of `file` each at its `<<<<<<<` line. */
export function mergeConflicts(file: string, text: string, kind: 'YAML' | 'JSON'): ConfigIssue[] {
  return conflictsIn(text, kind).map(({ line, words, fix }) => ({ file, line, column: 1, message: `invalid ${kind}: ${words}`, fix }));
}
