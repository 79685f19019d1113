// Numbers in words (docs/meaning.md, "Facts", "Numbers in words"): a hosted model writes "a 2-year
// warranty" on one call and "a two-year warranty" on the next. Words are no facts, but a number
// that one reply writes in digits and the other in an English word of the same value is no
// difference of facts either: the facts rung leaves it to the meaning judge. Pure; the pattern is
// built on first use, and only for a difference that holds a number a word can say.

import type { Fact, FactsDifference } from '../../types/meaning.js';
import { onFirstUse } from '../../patterns.js';

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** The values a number word says, as a number fact writes them: 0 to 100. */
const SAYABLE = /^(?:\d|[1-9]\d|100)$/;

/**
 * One English number word, case-insensitive, as a whole word (a hyphen after it allowed: "two-year"):
 * zero to nineteen, the tens, a ten and a unit ("twenty-five", "twenty five"), "a hundred" and "one
 * hundred". Not a part of a larger number or of a fraction ("two hundred", "one hundred and five",
 * "two and a half", "two-thirds", "two point five", "a dozen"), nor "no one".
 */
const NUMBER_WORD = onFirstUse(() => {
  const unit = ONES.slice(1, 10).join('|');
  const larger = 'hundreds?|thousands?|millions?|billions?|trillions?|dozens?|point|half|halves|thirds?|quarters?';
  return new RegExp(
    `(?<![\\p{L}\\p{N}_])(?<!(?:hundred|thousand|million|billion|trillion)[ -](?:and[ -])?)(?<!\\bno[ -])` +
      `(?:(?<hundred>(?:a|one)[ -]hundred)(?![ -]and[ -])|(?<tens>${TENS.join('|')})(?:[ -](?<unit>${unit}))?|(?<ones>${ONES.join('|')}))` +
      `(?![\\p{L}\\p{N}_])(?![ -](?:and[ -])?(?:a[ -])?(?:${larger})(?![\\p{L}]))`,
    'giu',
  );
});

/**
 * The value of each number word of `text`, and how many times it is written ("2" → 1 for "two-year");
 * `written`, when given, gets each value's first word as the text writes it ("2" → "two").
 */
function numberWords(text: string, written?: Map<string, string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(NUMBER_WORD())) {
    const g = m.groups ?? {};
    let value: number;
    if (g.hundred !== undefined) value = 100;
    else if (g.tens !== undefined) value = 20 + 10 * TENS.indexOf(g.tens.toLowerCase()) + (g.unit === undefined ? 0 : ONES.indexOf(g.unit.toLowerCase()));
    else value = ONES.indexOf((g.ones ?? '').toLowerCase());
    const key = String(value);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (written !== undefined && !written.has(key)) written.set(key, m[0]);
  }
  return counts;
}

const sayable = (f: Fact): boolean => f.kind === 'number' && SAYABLE.test(f.value);

/** The word every wording of a value from 0 to 100 holds ("thirty" of 30 to 39, "hundred" of 100), in small letters. */
function stemOf(value: number): string {
  if (value === 100) return 'hundred';
  return (value < 20 ? ONES[value] : TENS[Math.floor(value / 10) - 2]) as string;
}

/** Does `text` hold, in any case, the word of one of the numbers of `facts` that a word can say? */
function mayBeSaid(facts: readonly Fact[], text: string): boolean {
  let lower: string | null = null;
  return facts.some((f) => sayable(f) && (lower ??= text.toLowerCase()).includes(stemOf(Number(f.value))));
}

/**
 * A difference without the numbers the other reply writes as a word of the same value ("2" of
 * "2-year" against "two-year"): each unmatched number of one side may be taken by one word of the
 * other side's that this side does not write as often (so "the one you ordered", in both, takes no
 * "1"), only for the kind `number` (not "$2", a time, a code). The same difference when no number
 * is taken; `baseline` and `now` are the replies' texts.
 */
export function withoutNumberWords(diff: FactsDifference, baseline: string, now: string): FactsDifference {
  return taken(diff, baseline, now)?.left ?? diff;
}

/**
 * The number words that withoutNumberWords reads as numbers of the other reply, each once, as the
 * replies write them, with its value: `"two" is read as 2` (docs/meaning.md, "Numbers in words");
 * none when it reads none.
 */
export function numberWordsRead(diff: FactsDifference, baseline: string, now: string): string[] {
  return taken(diff, baseline, now)?.read ?? [];
}

/** withoutNumberWords' difference (`left`) and the words it read (`read`); null when no number is taken. */
function taken(diff: FactsDifference, baseline: string, now: string): { left: FactsDifference; read: string[] } | null {
  if (!(diff.baseline.some(sayable) || diff.now.some(sayable))) return null;
  // Most such differences are a number changed in digits: neither reply writes the word of any of
  // them, which a plain search finds without the pattern.
  if (!(mayBeSaid(diff.baseline, now) || mayBeSaid(diff.now, baseline))) return null;
  const wordsOfBaseline = new Map<string, string>();
  const wordsOfNow = new Map<string, string>();
  const inBaseline = numberWords(baseline, wordsOfBaseline);
  const inNow = numberWords(now, wordsOfNow);
  const read = new Set<string>();
  // The words of a value one reply writes more often than the other, each for one number of the other's.
  const spare = (words: Map<string, number>, others: Map<string, number>): Map<string, number> => new Map([...words].map(([v, n]) => [v, n - (others.get(v) ?? 0)]));
  const take = (facts: Fact[], words: Map<string, number>, written: Map<string, string>): Fact[] =>
    facts.filter((f) => {
      const n = sayable(f) ? (words.get(f.value) ?? 0) : 0;
      if (n <= 0) return true;
      words.set(f.value, n - 1);
      read.add(`"${written.get(f.value) ?? ''}" is read as ${f.value}`);
      return false;
    });
  const left = { baseline: take(diff.baseline, spare(inNow, inBaseline), wordsOfNow), now: take(diff.now, spare(inBaseline, inNow), wordsOfBaseline) };
  return read.size === 0 ? null : { left, read: [...read] };
}
