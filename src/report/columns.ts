// The columns a text takes on a terminal, for the CLI's tables (calibrate's criteria): a character
// a terminal draws wide (Chinese, Japanese, Korean, an emoji) takes two, a combining accent or an
// invisible format character none, any other character one; counted per grapheme (a family emoji
// of several code points is one), not per UTF-16 unit as String.length and padEnd count them.
// Pure; the patterns are built on first use (patterns.ts).

import { unicodePattern } from '../patterns.js';

/** Unicode's East Asian Wide and Fullwidth blocks, the ones a terminal draws two columns wide. */
const WIDE = unicodePattern(
  String.raw`^[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]`,
  'u',
);
/** An emoji drawn as one (its own presentation, or asked for with U+FE0F). */
const EMOJI = unicodePattern(String.raw`\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F`, 'u');
/** Marks and format characters: drawn on the character before, or not at all. */
const ZERO = unicodePattern(String.raw`^[\p{Mn}\p{Me}\p{Cf}]+$`, 'u');

let segmenter: Intl.Segmenter | undefined;

/** The terminal columns of one line of text (no newline, no control character). */
export function columnsOf(text: string): number {
  // ASCII, the usual case, is one column a character.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7F]*$/.test(text)) return text.length;
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  let n = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI().test(segment) || WIDE().test(segment)) n += 2;
    else if (!ZERO().test(segment)) n += 1;
  }
  return n;
}

/** `text` followed by spaces up to `columns` terminal columns (padEnd counts UTF-16 units). */
export function padColumns(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - columnsOf(text)));
}
