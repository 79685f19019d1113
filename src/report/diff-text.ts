// The text of a ```diff block: `-` lines (baseline) and `+` lines (new) that GitHub colours red and
// green, the changed words between ⟦ and ⟧ (they survive inside a code block, where no markup
// does), unchanged sentences counted on `@@` lines, every line at most 100 characters.

import { MAX_UNIT_EDITS, replyDiff, type DiffLine, type Segment } from './diff.js';
import { CODE_WIDTH, MARK_CLOSE, MARK_OPEN, stripSentinels, wrapLine } from './wrap.js';
import { plural, thousands } from '../words.js';

export const MARK = { open: '⟦', close: '⟧' } as const;

function lineText(segments: readonly Segment[]): string {
  if (segments.length === 0) return `${MARK_OPEN}¶${MARK_CLOSE}`; // an added or removed blank line
  return segments.map((s) => (s.marked ? `${MARK_OPEN}${stripSentinels(s.text)}${MARK_CLOSE}` : stripSentinels(s.text))).join('');
}

function render(line: DiffLine, unit: { one: string; many: string }, width: number): string[] {
  if (line.kind === 'skip') return [`@@ ${plural(line.sentences, unit.one, unit.many)} @@`];
  const sign = line.kind === 'delete' ? '-' : '+';
  return wrapLine(lineText(line.segments), width, `${sign} `, `${sign} `);
}

/** The body of the ```diff block for two replies (already normalised), or null when they are equal. */
export function diffText(baseline: string, reply: string, width = CODE_WIDTH): string | null {
  if (baseline === reply) return null;
  const d = replyDiff(baseline, reply);
  // Over the bound, one `@@` line says so: no `-` or `+` line that could be read as the diff (docs/action.md, "The PR comment").
  if ('tooDifferent' in d) return `@@ too different to diff: more than ${thousands(MAX_UNIT_EDITS)} ${d.whitespaceOnly ? 'lines' : 'sentences'} removed or added @@`;
  const unit = d.whitespaceOnly ? { one: 'unchanged line', many: 'unchanged lines' } : { one: 'unchanged sentence', many: 'unchanged sentences' };
  return d.lines
    .flatMap((l) => render(l, unit, width))
    .join('\n')
    .replaceAll(MARK_OPEN, MARK.open)
    .replaceAll(MARK_CLOSE, MARK.close);
}
