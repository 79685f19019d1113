// The anchor and tag written before a YAML value (`- &a 42`, `message: !!str &q Where is #5?`), read
// from the file's lines, for a fix that quotes the value to keep them in front of the quotes
// (yaml-traps.ts, issues.ts); and where a comment starts on a line.

import type { Position } from './yaml/source.js';

/**
 * The anchor and tag at the end of `before`, the text written before a value (`&q`, `!!str &q`), or
 * ''. Neither holds a , [ ] { } (`[ Hi !,` ends an item, not with a tag).
 */
function propsBefore(before: string): string {
  return /(?:^|[ \t])((?:[&!][^\s,[\]{}]*[ \t]+)+)$/.exec(`${before.trimEnd()} `)?.[1]?.trimEnd() ?? '';
}

/**
 * The anchor and tag written before the value at `pos` (`&q`, `!!str &q`), or '': on the value's
 * line, or, for a value that starts its line, at the end of the line above it, its key's or its
 * "-"'s (`message: &q` with the text on the next line), past blank lines, comments alone and the
 * comment after them. `line(n)` is line n of the file.
 */
export function propsAt(line: (n: number) => string | undefined, pos: Position): string {
  if (pos.line === null || pos.column === null) return '';
  const before = (line(pos.line) ?? '').slice(0, pos.column - 1);
  if (before.trim() !== '') return propsBefore(before);
  for (let n = pos.line - 1; n >= 1; n -= 1) {
    const above = (line(n) ?? '').replace(/\r$/, '');
    const hash = above.trimStart().startsWith('#') ? 0 : commentAt(above, 0);
    const written = hash === -1 ? above : above.slice(0, hash);
    if (written.trim() !== '') return propsBefore(written);
  }
  return '';
}

/** The index of the first ` #` (or tab then `#`) in `line` at or after `from`, or -1. */
export function commentAt(line: string, from: number): number {
  for (let i = line.indexOf('#', from); i !== -1; i = line.indexOf('#', i + 1)) {
    if (i > from && (line[i - 1] === ' ' || line[i - 1] === '\t')) return i;
  }
  return -1;
}

/** The anchor and tag as written before a value, with the space after them (`&a `), or ''. */
export function propsLead(props: string): string {
  return props === '' ? '' : `${props} `;
}
