// The last line of a fix that moves an item's "-": which of its next lines move with it. Its own
// module: the loader's fixes use it on every start, while the analysis of a refused file
// (syntax.ts, flow.ts) is loaded with the `yaml` package only when a file is refused
// (docs/performance.md, "2026-12-07 (small hours)").

import { plural } from '../../words.js';

/** A fix's last line naming the item's next lines (1-based, in order) to move as its "-" does; '' when none. */
export function alsoMoved(next: readonly number[], shift: number, way: 'left' | 'right' = 'left'): string {
  if (next.length === 0) return '';
  const named = next.length === 1 ? `line ${String(next[0])}` : `lines ${String(next[0])} to ${String(next[next.length - 1])}`;
  return `\n  and move ${named} ${way} by ${plural(shift, 'space', 'spaces')} too`;
}
