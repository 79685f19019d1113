// The last line of a fix that moves an item's "-": which of its next lines move with it; and the
// words of a `|` or `>` block whose text is no deeper than its key. Its own module: the loader's fixes use it on every start, while the analysis of a refused file
// (syntax.ts, flow.ts) is loaded with the `yaml` package only when a file is refused
// (docs/performance.md, "2026-12-07 (small hours)").

import { plural, shownJson } from '../../words.js';

/** A fix's last line naming the item's next lines (1-based, in order) to move as its "-" does; '' when none. */
export function alsoMoved(next: readonly number[], shift: number, way: 'left' | 'right' = 'left'): string {
  if (next.length === 0) return '';
  return movedLines(next.length === 1 ? `line ${String(next[0])}` : `lines ${String(next[0])} to ${String(next[next.length - 1])}`, shift, way);
}

/** A fix's last line moving the lines `named` ("line 6", "lines 4 to 7, line 9") by `shift` spaces. */
export function movedLines(named: string, shift: number, way: 'left' | 'right'): string {
  return `\n  and move ${named} ${way} by ${plural(shift, 'space', 'spaces')} too`;
}

/**
 * `message: |`, then its text at the key's column or left of it (line `n`, `here`, indented by
 * `at`): YAML reads the block as empty, and line `n` as `readAs` (a key written wrong, when the
 * file is refused: syntax.ts; a key of its own, or one more item of a list, when it is not:
 * item-file.ts). The fix indents the text 2 spaces deeper than the key, at `keyIndent`.
 */
export function blockTextWords(b: { n: number; here: string; at: number; header: number; key: string; keyIndent: number; indicator: string; readAs: string }): { message: string; fix: string } {
  const key = shownJson(b.key);
  const deep = b.keyIndent + 2;
  return {
    message: `line ${String(b.n)}, the text of the ${b.indicator} block of ${key} on line ${String(b.header)}, is indented by ${b.at === 0 ? 'no spaces' : plural(b.at, 'space', 'spaces')}, no deeper than ${key}, so YAML reads the block as empty and line ${String(b.n)} as ${b.readAs}`,
    fix: `indent the block's text deeper than ${key}: by ${plural(deep, 'space', 'spaces')}, so that line ${String(b.n)} reads\n    ${' '.repeat(deep)}${b.here.trimStart()}\n  and each line of the text after it too`,
  };
}
