// A number split by a comma inside `{ }` (`cost: { capUsd: 1,000 }`): in a flow mapping a comma
// ends a value, so YAML reads the key's value as 1 and `000` as another key, with no value, which a
// checker would say as an unknown key "0" (YAML reads 000 as the number 0) or as a key written
// twice (`1,000,000`). Said as the one slip it is, at the number, with the line as it should read
// (docs/configuration.md, "How YAML is read"). Pure: reads one line of text.

import { shownJson } from '../../words.js';

/** A number written with commas after a key in `{ }`, as the line shows it. */
export interface SplitNumber {
  /** The key whose value it is (`capUsd`). */
  key: string;
  /** 1-based column where the number starts. */
  column: number;
  /** The number as written (`1,000`). */
  written: string;
  /** The value YAML read for the key (`1`). */
  read: string;
  /** The digits after each comma, which YAML read as keys (`000`). */
  keys: string[];
  /** The number meant: the digits grouped in threes joined (`1000`), or one other part after a decimal point (`2,50` is `2.50`); null when the line does not say, or says two (`readings`). */
  meant: string | null;
  /** The line with `meant` in place of the number; null when there is no `meant`. */
  fixed: string | null;
  /**
   * The numbers it may be, as `meant` would be: `meant` alone, none, or two where a 0 leads three
   * digits (`0,500`: 0.500, or 500 with the odd 0 dropped), which the setting's range and type
   * choose between (splitNumberAs).
   */
  readings: string[];
}

/** The split number read as `meant`, one of its readings, with the line as it then reads. */
export function splitNumberAs(split: SplitNumber, line: string, meant: string): SplitNumber {
  const start = split.column - 1;
  return { ...split, meant, fixed: `${line.slice(0, start)}${meant}${line.slice(start + split.written.length)}` };
}

/**
 * The number split by commas that the key of digits at `column` (1-based) of `line` is part of:
 * a key's number value, a comma with no space around it, and digits up to the next `,` or `}` or the
 * line's end (the keys have no ": " of their own). null when the line shows no such number.
 */
export function splitNumberAt(line: string | null, column: number | null): SplitNumber | null {
  if (line === null || column === null) return null;
  const at = column - 1;
  // The key of digits itself, then nothing but the end of its entry.
  if (!/^\d+[ \t]*(?:[,}]|#|$)/.test(line.slice(at))) return null;
  // Back from it: `key: 1,` or `key: 1,000,` (the parts before are keys of digits too).
  const before = /(?:^|[{,][ \t]*)(?:"([^"]+)"|'([^']+)'|([^\s"'{},:#[\]][^{},:#]*?))[ \t]*:[ \t]+(-?\d+)((?:,\d+)*),$/.exec(line.slice(0, at));
  if (before === null) return null;
  const key = before[1] ?? before[2] ?? before[3] ?? '';
  const read = before[4] as string;
  const start = at - ((before[5] as string).length + 1 + read.length);
  // The whole number: on past the key at `column` to the last part joined by a comma.
  const rest = /^\d+(?:,\d+)*/.exec(line.slice(start + read.length + 1))?.[0] ?? '';
  const keys = rest.split(',');
  const written = `${read},${rest}`;
  const thousands = /^-?\d{1,3}$/.test(read) && keys.every((k) => k.length === 3);
  const decimal = keys.length === 1 ? `${read}.${keys[0] as string}` : null;
  // `0,500`: no one groups digits after a 0; a decimal comma, or the digits with an odd 0 before them.
  const zero = /^-?0$/.test(read);
  const joined = !thousands ? null : !zero ? `${read}${keys.join('')}` : decimal !== null ? String(Number(`${read}${keys[0] as string}`)) : null;
  // `0,000` is 0 either way: one reading, the whole number.
  const readings = joined !== null && decimal !== null && zero && Number(joined) !== Number(decimal) ? [decimal, joined] : joined !== null ? [joined] : decimal !== null ? [decimal] : [];
  const meant = readings.length === 1 ? (readings[0] as string) : null;
  const fixed = meant === null ? null : `${line.slice(0, start)}${meant}${line.slice(start + written.length)}`;
  return { key, column: start + 1, written, read, keys, meant, fixed, readings };
}

const SPLIT_TAIL = ' inside { }, where a comma ends a value';

/** Is this a split number's message (a file whose only syntax errors are such keys written twice is still read)? */
export function isSplitNumberMessage(message: string): boolean {
  return message.endsWith(SPLIT_TAIL);
}

/**
 * Whether two of the parts after the commas read as the same key (`1,000,000`: 0 twice), which the
 * `yaml` parser says as a key written twice: said there (yamlSyntaxIssues), and not again by the checker.
 */
export function splitWritesKeyTwice(split: SplitNumber): boolean {
  return new Set(split.keys.map(Number)).size < split.keys.length;
}

/**
 * The words for a split number, at its line (`line`); `range`, when the number meant is not one the
 * setting takes, what it takes, with `name`, the setting as messages name it (`agent.concurrency`),
 * and `instead`, when it is a decimal where a whole number belongs (`minPass: 2,5`), the whole
 * numbers it takes to write in its place (none when there are none to say): a decimal point would
 * be the next error. A number with two readings (`0,500`) and no `meant` is told both, or with
 * `range`, that the setting takes neither.
 */
export function splitNumberWords(split: SplitNumber, line: number | null, range: { name: string; words: string; instead: readonly number[] | null } | null = null): { message: string; fix: string } {
  const more = split.keys.length === 1 ? `another key ${shownJson(split.keys[0])}` : `the keys ${split.keys.map((k) => shownJson(k)).join(' and ')}`;
  const message = `${split.key}: ${split.written} reads as ${split.read} and ${more}${SPLIT_TAIL}`;
  const two = split.meant === null && split.readings.length === 2 ? (split.readings as [string, string]) : null;
  if (two !== null && range === null) {
    return { message, fix: `write ${two.map((r) => `${split.key}: ${r}`).join(' or ')}, whichever is meant: with a decimal point in place of the comma, or without the 0 and the comma` };
  }
  if (split.meant === null && two === null) return { message, fix: `write the number without commas: digits are not grouped in YAML, and a decimal point is written "."` };
  const not = two !== null ? `which neither ${two[0]} nor ${two[1]} is` : `which ${split.meant as string} is not`;
  if (range !== null && range.instead !== null) {
    const example = range.instead.length === 0 ? '' : `, e.g. ${range.instead.map((v) => `${split.key}: ${String(v)}`).join(' or ')}`;
    return { message, fix: `write a whole number in place of ${split.written} (${range.name} is ${range.words}, ${not})${example}` };
  }
  if (range !== null) return { message, fix: `${two !== null ? `write a number in place of ${split.written}` : `write the number ${how(split)}`}; ${range.name} is ${range.words}, ${not}` };
  const shown = split.fixed !== null && line !== null ? `, so that line ${String(line)} reads\n    ${split.fixed.trimEnd()}` : '';
  return { message, fix: `write ${split.key}: ${split.meant as string}, ${how(split)}${shown}` };
}

/** How the number meant is written from the number split: `with a decimal point in place of the comma`, `without the comma`. */
function how(split: SplitNumber): string {
  if (split.meant?.includes('.') === true) return 'with a decimal point in place of the comma';
  // `0,500` read as 500: its odd 0 dropped too.
  if (split.readings.length === 2) return 'without the 0 and the comma';
  return `without ${split.keys.length === 1 ? 'the comma' : 'the commas'}`;
}
