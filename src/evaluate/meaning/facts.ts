// The facts of a reply (docs/meaning.md, "Facts"): the numbers, times, amounts, URLs, e-mail
// addresses and codes it tells the user. Two replies whose facts differ are changed in meaning,
// with no model asked. Pure.
//
// Every regular expression is compiled once, here. None can backtrack without bound: each
// repeated part is followed by something it cannot match, and matches start only where a token
// starts (the lookbehinds), so a long run of digits or letters is scanned once.

import type { Fact, FactKind, FactsDifference } from '../../types/meaning.js';
import { asciiDigits, markScriptDigits, stripListMarkers } from './normalize.js';
import { unicodePattern } from '../../patterns.js';

export type { Fact, FactKind, FactsDifference };

/** The kinds in the order a detail names them. */
export const FACT_KINDS: readonly FactKind[] = ['number', 'time', 'amount', 'url', 'email', 'code'];

/** The plural a detail names a kind with ("numbers 30 → 14"). */
export const FACT_WORDS: Record<FactKind, string> = {
  number: 'numbers',
  time: 'times',
  amount: 'amounts',
  url: 'URLs',
  email: 'e-mail addresses',
  code: 'codes',
};

const NON_ASCII = /[^\t\n\r\x20-\x7e]/;

// --- Patterns --------------------------------------------------------------------------------

/** A Markdown link `[text](target)` on one line (bounded: no backtracking without end). */
const SELF_LINK = /\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/g;

/** An http(s) URL up to a space or a character a URL does not hold unescaped. */
const URL_PATTERN = /[hH][tT][tT][pP][sS]?:\/\/[^\s<>"'`[\]{}|\\^]+/g;
/** What a sentence puts after a URL: trimmed from its end. */
const URL_TAIL = /[.,;:!?*_~]+$/;

/** An e-mail address: a local part, `@`, a domain of two or more labels (checked: the last has 2+ letters). */
const EMAIL_SOURCE = String.raw`(?<![LN._%+-])[LN._%+-]+@[LN-]+(?:\.[LN-]+)+`;
const TOP_LEVEL_DOMAIN = unicodePattern(String.raw`^\p{L}{2,}$`, 'u');

/** Currency signs; `$` may carry a country prefix ("US$", "C$", "HK$"). */
const SIGNS = '$€£¥₹₽₩₺₪₫₱฿';
/**
 * ISO 4217 codes read as a currency next to a number, in capitals. Left out: codes that are also
 * common capitalised words or names ("PHP 8" is a programming language, "TRY", "ALL", "TOP").
 */
const CURRENCY_CODES = [
  'USD', 'EUR', 'GBP', 'JPY', 'CNY', 'RMB', 'INR', 'CAD', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'ISK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN',
  'RUB', 'UAH', 'BRL', 'MXN', 'ARS', 'CLP', 'COP', 'PEN', 'ZAR', 'NGN', 'KES', 'EGP', 'MAD', 'KRW', 'SGD', 'HKD', 'TWD', 'THB', 'IDR', 'MYR',
  'VND', 'PKR', 'BDT', 'LKR', 'ILS', 'AED', 'SAR', 'QAR', 'KWD',
];
const NUMERAL = String.raw`\d+(?:[.,]\d+)*(?!\d)`;
const CODE_ALTERNATION = CURRENCY_CODES.join('|');
/** A minus: the hyphen-minus (NFKC makes the small and full-width ones it), U+2212, and the en dash that typesetters write for it ("–5 °C"). */
const MINUS = String.raw`[\-\u2212\u2013]`;
/**
 * "€30", "US$ 1,000.00", "EUR 30", "30 EUR", "30€", with a minus where it is written: before the
 * amount ("-$50", "-50 €"), or between its sign or code and its number ("$-50", "USD -50"; right
 * after a code, "USD-50" is a code, as "R-5521" is). Like a number's, an amount's minus follows no
 * letter or digit (the lookbehind): the hyphen of "$40-$50" is a range's, and "- $50" (a space
 * after it) a list's dash.
 */
const AMOUNT_SOURCE = String.raw`(?=[\-\u2212\u2013A-Z${SIGNS}0-9])(?<![LN]|[N][.,])(?:(${MINUS})?(?:([A-Z]{0,2}[${SIGNS}])[ \u00a0]?(${MINUS})?|(${CODE_ALTERNATION})(?![L])(?:[ \u00a0](${MINUS})?)?)(${NUMERAL})|(${MINUS})?(${NUMERAL})[ \u00a0]?([${SIGNS}]|(?:${CODE_ALTERNATION})(?![LN])))`;
/**
 * Emphasis between an amount's sign or code and its number ("USD **120**", "$**5**", "**30** EUR",
 * "**30**€"): taken away before the facts are read, so that the amount is read as it is when the
 * whole amount is emphasised ("**USD 120**") or nothing is (docs/meaning.md, "Facts"). A hosted
 * model bolds the number of a price, and not its currency, on one call and not the next.
 */
const EMPHASIS_AFTER_CURRENCY = new RegExp(String.raw`((?:[A-Z]{0,2}[${SIGNS}]|(?<![A-Za-z0-9])(?:${CODE_ALTERNATION}))[ \u00a0]?)(?:\*{1,3}|_{1,3})(?=${MINUS}?\d)`, 'g');
const EMPHASIS_BEFORE_CURRENCY = new RegExp(String.raw`(\d)(?:\*{1,3}|_{1,3})(?=[ \u00a0]?(?:[${SIGNS}]|(?:${CODE_ALTERNATION})(?![A-Za-z0-9])))`, 'g');

/**
 * An amount written with its currency's word after its number (docs/meaning.md, "Facts"): "5 dollars",
 * "5 US dollars", "a 5-dollar fee", "10 euros", "3 pounds sterling", "3 British pounds", "100 yen",
 * in any case, with a minus as an amount written with its sign has one ("-5 dollars"), and cents
 * after dollars or euros ("5 dollars and 50 cents" is USD 5.5). Read after the amounts with a sign
 * or a code. Each part is followed by something it cannot match (a word ends at a non-letter), so
 * the pattern is scanned once. The groups: a minus, the number, a qualifier, the word, "sterling",
 * the cents. Compiled with the `i` flag: `[A-Z]` and the words match either case.
 */
const WORD_AMOUNT_SOURCE = String.raw`(?=[\-\u2212\u2013N])(?<![LN]|[N][.,])(${MINUS})?(${NUMERAL})[ \u00a0\-](?:(US|UK|British)[ \u00a0])?(dollars?|euros?|pounds?|yen|yuan)(?:[ \u00a0](sterling))?(?:(?:[ \u00a0]and)?[ \u00a0](\d{1,2})[ \u00a0]cents?)?(?![LN])`;
/** What a worded amount needs: a digit, then a currency's word (a cheap test before the pattern). */
const MAY_HAVE_WORD_AMOUNT = /[0-9][ \u00a0-](?:[A-Za-z]{2,7}[ \u00a0])?(?:[dD][oO][lL]|[eE][uU][rR]|[pP][oO][uU]|[yY][eE]|[yY][uU])/;
/**
 * A currency word's code. `$` is USD (SIGN_CODES), and so is "dollar". "yen" and "yuan" are kept
 * as `¥` is (it writes both): "100 yen" is "¥100". "pound" alone is as often a weight ("a 5 pound
 * parcel") and is left a number; "pounds sterling" and "British pounds" are GBP.
 */
function wordCurrency(word: string, qualifier: string | undefined, sterling: string | undefined): string | undefined {
  const w = word.toLowerCase();
  const q = qualifier?.toLowerCase();
  if (w.startsWith('pound')) return q !== 'us' && (q !== undefined || sterling !== undefined) ? 'GBP' : undefined;
  if (sterling !== undefined) return undefined;
  if (w.startsWith('dollar')) return q === undefined || q === 'us' ? 'USD' : undefined;
  if (q !== undefined) return undefined;
  return w.startsWith('euro') ? 'EUR' : '\u00a5';
}

/** A sign's currency where it is not ambiguous ("¥" is yen or yuan, "C$" a Canadian dollar: kept as written). */
const SIGN_CODES: Record<string, string> = { $: 'USD', US$: 'USD', '€': 'EUR', '£': 'GBP', '₹': 'INR', '₽': 'RUB', '₩': 'KRW', '₺': 'TRY', '₪': 'ILS', '₫': 'VND', '₱': 'PHP', '฿': 'THB', RMB: 'CNY' };

/** A 12-hour time: "6pm", "6 p.m.", "12:30 AM". */
const TIME_12_SOURCE = String.raw`(?=\d)(?<![LN:.,])(\d{1,2})(?::([0-5]\d)(?::([0-5]\d))?)?[ \u00a0]?([aApP])\.?[mM]\.?(?![LN])`;
/** A 24-hour time: "18:00", "9:05", "23:59:30". */
const TIME_24_SOURCE = String.raw`(?=\d)(?<![LN:.,])(\d{1,2}):([0-5]\d)(?::([0-5]\d))?(?![N:])`;

interface Patterns {
  email: RegExp;
  amount: RegExp;
  time12: RegExp;
  time24: RegExp;
  wordAmount: RegExp;
}

/**
 * The patterns, compiled once in two forms: for any text (Unicode letter and script classes) and
 * for text that is all ASCII (plain ranges, several times faster), where both forms match the same.
 * In the sources' character classes, `L` stands for a letter and `N` for a digit.
 */
function compile(ascii: boolean): Patterns {
  const classes = ascii ? { L: 'A-Za-z', N: '0-9' } : { L: String.raw`\p{L}`, N: String.raw`\p{N}` };
  // The ASCII forms without the `u` flag: on ASCII text they match the same, and run faster.
  const make = (source: string, flags = ''): RegExp => new RegExp(source.replace(/\[([^\]]*)\]/g, (_m, inner: string) => `[${inner.replace(/[LN]/g, (c) => classes[c as 'L' | 'N'])}]`), (ascii ? 'g' : 'gu') + flags);
  return { email: make(EMAIL_SOURCE), amount: make(AMOUNT_SOURCE), time12: make(TIME_12_SOURCE), time24: make(TIME_24_SOURCE), wordAmount: make(WORD_AMOUNT_SOURCE, 'i') };
}

// Compiled on first use, not when the module loads: a command that never reads facts should not
// pay for the Unicode classes at start-up (docs/performance.md, "What was done").
let compiled: { unicode: Patterns; ascii: Patterns; asciiEmailAt: RegExp } | undefined;
function patternsOf(): { unicode: Patterns; ascii: Patterns; asciiEmailAt: RegExp } {
  if (compiled === undefined) {
    const ascii = compile(true);
    // EMAIL_SOURCE for ASCII text, tried only where a match can start (see replaceAsciiEmails).
    compiled = { unicode: compile(false), ascii, asciiEmailAt: new RegExp(ascii.email.source, 'y') };
  }
  return compiled;
}

/** Anything a fact needs: a digit, an address's `@`, a URL's `://`. A reply without any has no facts. */
const MAY_HAVE_FACTS = /[0-9@]|:\/\//;
/** What an amount needs besides its number: a sign or three capitals. */
const MAY_HAVE_AMOUNT = new RegExp(`[${SIGNS}]|[A-Z]{3}`);
/** What a 12-hour time needs: a digit, then am or pm. */
const MAY_HAVE_TIME_12 = /[0-9][ \u00a0]?[aApP]\.?[mM]/;
const LETTER_OR_DIGIT = unicodePattern(String.raw`[\p{L}\p{N}]`, 'u');
/**
 * Letters a code is made of: Latin, Greek and Cyrillic. Scripts written without spaces between
 * words (Chinese, Japanese, Thai, ...) would make a whole sentence one "code"; their letters, and
 * those of the other scripts, separate tokens instead ("30日" is the number 30).
 */
const UNICODE_CODE_LETTER = String.raw`[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}]`;
const HAS_LETTER = unicodePattern(UNICODE_CODE_LETTER, 'u');
const HAS_DIGIT = /[0-9]/;
/** A number with its unit or suffix right after it: "10kg", "1st", "30-day", "2-year-old". The letters are not a code. */
const NUMBER_WITH_UNIT = unicodePattern(String.raw`^([0-9]+(?:[.,][0-9]+)*)-?${UNICODE_CODE_LETTER}+(?:-${UNICODE_CODE_LETTER}+)*$`, 'u');
const THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const PLAIN = /^\d+(?:\.\d+)?$/;
/** One point before three last digits: a thousands separator in German, French and more ("1.500"), a decimal point in English. */
const POINT_THOUSANDS = /^[1-9]\d{0,2}\.\d{3}$/;
/** A whole number without leading zeros. */
const WHOLE = /^(?:[1-9][0-9]*|0)$/;
const DECIMAL_COMMA = /^\d+,\d{1,2}$/;

// --- Canonical values ------------------------------------------------------------------------

/** "0030" is "30", "1000.50" is "1000.5", "7.00" is "7". Strings, not floats: a card number keeps every digit. */
function canonicalDecimal(integer: string, fraction: string): string {
  const int = integer.length > 1 && integer[0] === '0' ? integer.replace(/^0+(?=\d)/, '') : integer;
  const frac = fraction === '' ? '' : fraction.replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/**
 * The numbers a numeral says: "1,000.00" is 1000 (a comma before groups of three digits separates
 * thousands), "7.50" is 7.5, "30,5" is 30.5 (a comma before one or two last digits is a decimal
 * comma), "1.500" is itself (1500 or 1.5, by the language: compared as written); anything else
 * ("1.2.3", "1.000,50") is its digit groups, each a number.
 */
export function numbersOf(numeral: string): string[] {
  // The most common numeral, a whole number without leading zeros, is itself.
  if (WHOLE.test(numeral)) return [numeral];
  // "1.500" is 1500 where a point separates thousands (German writes 1.5 as "1,5"): kept as written.
  if (POINT_THOUSANDS.test(numeral)) return [numeral];
  if (THOUSANDS.test(numeral)) {
    const [int, frac = ''] = numeral.replace(/,/g, '').split('.');
    return [canonicalDecimal(int as string, frac)];
  }
  if (PLAIN.test(numeral)) {
    const [int, frac = ''] = numeral.split('.');
    return [canonicalDecimal(int as string, frac)];
  }
  if (DECIMAL_COMMA.test(numeral)) {
    const [int, frac = ''] = numeral.split(',');
    return [canonicalDecimal(int as string, frac)];
  }
  return numeral.split(/[.,]/).map((group) => canonicalDecimal(group, ''));
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** "18:00", or "18:00:30" when the seconds are not zero. */
function timeValue(hours: number, minutes: number, seconds: number): string {
  return `${pad(hours)}:${pad(minutes)}${seconds === 0 ? '' : `:${pad(seconds)}`}`;
}

/** scheme://host/path: lower-case scheme and host, the path as written without a last `/`; query and fragment left out. */
function urlValue(raw: string): string {
  // A baseline and its new reply mostly give the same links: each is parsed once.
  let value = urlValues.get(raw);
  if (value === undefined) {
    if (urlValues.size >= 256) urlValues.clear();
    value = parseUrlValue(raw);
    urlValues.set(raw, value);
  }
  return value;
}

const urlValues = new Map<string, string>();

function parseUrlValue(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return raw;
  }
}

/** The URL without what the sentence put after it: trailing punctuation, a `)` it did not open. */
function trimUrl(raw: string): string {
  let url = raw.replace(URL_TAIL, '');
  while (url.endsWith(')') && count(url, ')') > count(url, '(')) url = url.slice(0, -1).replace(URL_TAIL, '');
  return url;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

// --- Extraction ------------------------------------------------------------------------------

/** Spaces in place of a fact's characters, so that later patterns do not read them again. */
function blank(length: number): string {
  return ' '.repeat(length);
}

/** A thousands separator other than a comma: a no-break, narrow no-break or thin space, or an apostrophe, before a group of three digits. */
// Its digit before it is matched and put back (a pattern that starts with a lookbehind is tried at every position).
const OTHER_THOUSANDS = /([0-9])[\u00a0\u202f\u2009'\u2019](?=[0-9]{3}(?![0-9]))/g;

/** A line ending other than \n: \r\n (Windows) or a lone \r. */
const CARRIAGE_RETURNS = /\r\n?/g;

/**
 * The facts of a reply, in the order they appear within each kind (docs/meaning.md, "Facts"):
 * URLs (scheme, host, path), e-mail addresses, amounts (a currency sign, code or word with a number),
 * times (12-hour read as 24-hour), codes (3 or more letters, digits and hyphens, with a letter and a
 * digit), and numbers written with digits of any script. The digits of a URL, an address, an
 * amount, a time or a code are not numbers again. Numbers in words ("thirty") are not facts.
 */
export function factsOf(reply: string): Fact[] {
  // Superscript digits kept apart (markScriptDigits): NFKC alone reads "10⁶" as 106.
  // A no-break, narrow or thin space or an apostrophe between digit groups separates thousands
  // ("1 000 €", "CHF 1'000"), taken away before NFKC makes those spaces plain ones.
  const joined = reply.replace(OTHER_THOUSANDS, '$1');
  // NFKC leaves ASCII text as it is: only other text is normalized (and tested again after).
  const wide = NON_ASCII.test(joined);
  let text = wide ? markScriptDigits(joined).normalize('NFKC') : joined;
  const ascii = !wide || !NON_ASCII.test(text);
  if (!ascii) text = asciiDigits(text);
  if (!MAY_HAVE_FACTS.test(text)) return [];
  // Line endings are formatting (docs/meaning.md, "Formatting"): a list written with \r line endings is still a list.
  if (text.includes('\r')) text = text.replace(CARRIAGE_RETURNS, '\n');
  // A list's numbering is formatting; a lone "30." line is not a list, and its 30 is a fact.
  text = stripListMarkers(text, true);
  // A Markdown link whose text is its own address ([a@b.example](mailto:a@b.example)) states it once.
  if (text.includes('](')) text = text.replace(SELF_LINK, (link, shown: string, target: string) => (target === shown || target === `mailto:${shown}` ? shown : link));
  if (text.includes('*') || text.includes('_')) text = text.replace(EMPHASIS_AFTER_CURRENCY, '$1').replace(EMPHASIS_BEFORE_CURRENCY, '$1');
  const out: Fact[] = [];
  const patterns = ascii ? patternsOf().ascii : patternsOf().unicode;
  // The text as written, before the facts below are blanked out of it (each blank keeps its
  // length): a hyphen right after an amount's or a time's digit joins a range ("$40-50"), it is no
  // minus of the number after it (docs/meaning.md, "Facts").
  const written = text;

  if (text.includes('://')) {
    text = text.replace(URL_PATTERN, (raw) => {
      const url = trimUrl(raw);
      out.push({ kind: 'url', value: urlValue(url) });
      return blank(url.length) + raw.slice(url.length);
    });
  }
  if (text.includes('@')) {
    const email = (raw: string): string => {
      const domain = raw.slice(raw.lastIndexOf('.') + 1);
      if (!TOP_LEVEL_DOMAIN().test(domain)) return raw;
      out.push({ kind: 'email', value: raw.toLowerCase() });
      return blank(raw.length);
    };
    text = ascii ? replaceAsciiEmails(text, email) : text.replace(patterns.email, email);
  }
  if (MAY_HAVE_AMOUNT.test(text)) {
    // The groups by position (named groups would build an object for every match): a minus before
    // the sign (s1), the sign (pre), a minus after it (s2), a code, a minus after the code (s3), the
    // number after them (n1); or a minus (s4), the number (n2) and the sign or code after it (post).
    text = text.replace(patterns.amount, (raw: string, s1?: string, pre?: string, s2?: string, code?: string, s3?: string, n1?: string, s4?: string, n2?: string, post?: string) => {
      const currency = (pre ?? code ?? post ?? '').trim();
      const [amount = '', ...rest] = numbersOf(n1 ?? n2 ?? '');
      // The sign is part of the amount (docs/meaning.md, "Facts"): "-$50" is not "$50". A zero has none.
      const minus = (s1 ?? s2 ?? s3 ?? s4) !== undefined && /[1-9]/.test(amount) ? '-' : '';
      out.push({ kind: 'amount', value: `${SIGN_CODES[currency] ?? currency} ${minus}${amount}` });
      for (const n of rest) out.push({ kind: 'number', value: n });
      return blank(raw.length);
    });
  }
  if (MAY_HAVE_WORD_AMOUNT.test(text)) {
    text = text.replace(patterns.wordAmount, (raw: string, sign?: string, numeral?: string, qualifier?: string, word?: string, sterling?: string, cents?: string) => {
      const currency = wordCurrency(word as string, qualifier, sterling);
      if (currency === undefined) return raw;
      const [whole = '', ...rest] = numbersOf(numeral as string);
      // Cents join a whole number of dollars or euros; after a decimal, or after pounds, they are a number of their own.
      const joined = cents !== undefined && currency !== 'GBP' && WHOLE.test(whole) ? canonicalDecimal(whole, cents.padStart(2, '0')) : undefined;
      const amount = joined ?? whole;
      out.push({ kind: 'amount', value: `${currency} ${sign !== undefined && /[1-9]/.test(amount) ? '-' : ''}${amount}` });
      for (const n of rest) out.push({ kind: 'number', value: n });
      if (cents !== undefined && joined === undefined) pushNumbers(cents, false, out);
      return blank(raw.length);
    });
  }
  if (MAY_HAVE_TIME_12.test(text)) {
    text = text.replace(patterns.time12, (raw, h: string, m: string | undefined, sec: string | undefined, half: string) => {
      const hour = Number(h);
      if (hour < 1 || hour > 12) return raw;
      const pm = half === 'p' || half === 'P';
      out.push({ kind: 'time', value: timeValue((hour % 12) + (pm ? 12 : 0), m === undefined ? 0 : Number(m), sec === undefined ? 0 : Number(sec)) });
      return blank(raw.length);
    });
  }
  if (text.includes(':')) {
    text = text.replace(patterns.time24, (raw, h: string, m: string, s: string | undefined) => {
      const hour = Number(h);
      if (hour > 24) return raw;
      out.push({ kind: 'time', value: timeValue(hour, Number(m), s === undefined ? 0 : Number(s)) });
      return blank(raw.length);
    });
  }
  for (const run of runsWithDigits(text)) {
    const before = run.start === 0 ? '' : text[run.start - 1];
    const sign = (before === '-' || before === '\u2212' || before === '\u2013') && (run.start < 2 || !LETTER_OR_DIGIT().test(written[run.start - 2] as string)) ? '-' : '';
    runFacts(text.slice(run.start, run.end), sign, out);
  }
  return out;
}

const ASCII_LOCAL_CHAR = /^[A-Za-z0-9._%+-]$/;

/**
 * `text.replace(patternsOf().ascii.email, replace)`, without trying the pattern at every word: a match
 * holds an `@`, and its local part is the whole run of local-part characters before that `@` (the
 * pattern's lookbehind), so for each `@` the pattern is tried once, where that run starts, and not
 * within what an earlier match took.
 */
function replaceAsciiEmails(text: string, replace: (raw: string) => string): string {
  let result = '';
  let copied = 0;
  let end = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', Math.max(at + 1, end))) {
    let start = at;
    while (start > 0 && ASCII_LOCAL_CHAR.test(text[start - 1] as string)) start--;
    if (start === at || start < end) continue;
    const emailAt = patternsOf().asciiEmailAt;
    emailAt.lastIndex = start;
    const m = emailAt.exec(text);
    if (m === null) continue;
    end = start + m[0].length;
    const replaced = replace(m[0]);
    if (replaced === m[0]) continue;
    result += text.slice(copied, start) + replaced;
    copied = end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

const DIGITS = /[0-9]+/g;
const ASCII_CODE_CHAR = /^[A-Za-z0-9]$/;

/** A letter a code is made of (Latin, Greek, Cyrillic: see CODE_LETTER) or an ASCII digit. */
function isCodeChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  return c.charCodeAt(0) < 128 ? ASCII_CODE_CHAR.test(c) : HAS_LETTER().test(c);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * The runs of code letters and digits that hold a digit (a run without one holds no fact), with
 * hyphens inside them and `.` or `,` between two digits. Found from their digits outwards, so
 * that the text's words without digits cost one scan by a plain pattern, and each run is read once.
 */
function* runsWithDigits(text: string): Generator<{ start: number; end: number }> {
  DIGITS.lastIndex = 0;
  for (let m = DIGITS.exec(text); m !== null; m = DIGITS.exec(text)) {
    let start = m.index;
    for (;;) {
      const c = text[start - 1];
      if (isCodeChar(c)) start--;
      else if (c === '-' && isCodeChar(text[start - 2])) start--;
      else if ((c === '.' || c === ',') && isDigit(text[start]) && isDigit(text[start - 2])) start--;
      else break;
    }
    let end = m.index + m[0].length;
    for (;;) {
      const c = text[end];
      if (isCodeChar(c)) end++;
      else if (c === '-' && isCodeChar(text[end + 1])) end++;
      else if ((c === '.' || c === ',') && isDigit(text[end - 1]) && isDigit(text[end + 1])) end++;
      else break;
    }
    DIGITS.lastIndex = end;
    yield { start, end };
  }
}

/** The facts of one run of letters, digits and hyphens (`sign`: a minus written right before it). */
/** The numbers a numeral says, pushed to `out`; `signed`: its first one has a minus (a zero has none). */
function pushNumbers(numeral: string, signed: boolean, out: Fact[]): void {
  const values = numbersOf(numeral);
  for (let i = 0; i < values.length; i++) {
    const n = values[i] as string;
    out.push({ kind: 'number', value: signed && i === 0 && /[1-9]/.test(n) ? `-${n}` : n });
  }
}

function runFacts(run: string, sign: string, out: Fact[]): void {
  if (!HAS_DIGIT.test(run)) return;
  const numbers = (numeral: string, signed: boolean): void => pushNumbers(numeral, signed, out);
  if (!HAS_LETTER().test(run)) {
    const parts = run.split('-');
    for (let i = 0; i < parts.length; i++) pushNumbers(parts[i] as string, i === 0 && sign !== '', out);
    return;
  }
  const unit = NUMBER_WITH_UNIT().exec(run);
  if (unit !== null) {
    numbers(unit[1] as string, sign !== '');
    return;
  }
  if (/[.,]/.test(run)) {
    // A version or a sentence without a space ("v1.2.3"): each piece on its own.
    for (const piece of run.split(/[.,]/)) runFacts(piece, '', out);
    return;
  }
  if (run.length >= 3) {
    out.push({ kind: 'code', value: run.toUpperCase() });
    return;
  }
  // "v2", "x3": too short for a code; its digits are a number.
  for (const digits of run.match(/[0-9]+/g) ?? []) numbers(digits, false);
}

// --- Comparison ------------------------------------------------------------------------------

const keyOf = (f: Fact): string => `${f.kind}\u0000${f.value}`;

/** No fact on either side that the other lacks: a FactsDifference that says the replies tell the same facts. */
export function noFactsDiffer(d: FactsDifference): boolean {
  return d.baseline.length === 0 && d.now.length === 0;
}

/** Do two replies tell the same facts (docs/meaning.md, "Facts")? `b` may be given as its facts, read already. */
export function sameFacts(a: string, b: string | readonly Fact[]): boolean {
  return noFactsDiffer(compareFacts(factsOf(a), typeof b === 'string' ? factsOf(b) : b));
}

/**
 * The two multisets' differences, each in the order of its reply; both empty when the facts are the same.
 * A fact of `now` that the baseline has too is matched from the end, so that the extra ones of a
 * value in `now` are its first ones.
 */
export function compareFacts(baseline: readonly Fact[], now: readonly Fact[]): FactsDifference {
  // A reply tells a handful of facts: comparing each pair costs less than keys in a map. Many facts: the map.
  if (baseline.length * now.length > 1024) return compareByKeys(baseline, now);
  const matched: boolean[] = new Array<boolean>(now.length).fill(false);
  const lost: Fact[] = [];
  for (const f of baseline) {
    let j = now.length - 1;
    for (; j >= 0; j--) {
      const g = now[j] as Fact;
      if (!matched[j] && g.value === f.value && g.kind === f.kind) break;
    }
    if (j >= 0) matched[j] = true;
    else lost.push(f);
  }
  const gained: Fact[] = [];
  for (let j = 0; j < now.length; j++) if (!matched[j]) gained.push(now[j] as Fact);
  return { baseline: lost, now: gained };
}

/** compareFacts by counting keys: the same differences, for replies with many facts. */
function compareByKeys(baseline: readonly Fact[], now: readonly Fact[]): FactsDifference {
  const counts = new Map<string, number>();
  for (const f of now) counts.set(keyOf(f), (counts.get(keyOf(f)) ?? 0) + 1);
  const lost: Fact[] = [];
  for (const f of baseline) {
    const k = keyOf(f);
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else lost.push(f);
  }
  const gained: Fact[] = [];
  for (const f of now) {
    const k = keyOf(f);
    const n = counts.get(k) ?? 0;
    if (n > 0) {
      counts.set(k, n - 1);
      gained.push(f);
    }
  }
  return { baseline: lost, now: gained };
}

const MAX_VALUES = 5;
const MAX_VALUE_CHARS = 60;

function shown(values: readonly string[]): string {
  if (values.length === 0) return 'none';
  const clipped = values.slice(0, MAX_VALUES).map((v) => (v.length > MAX_VALUE_CHARS ? `${v.slice(0, MAX_VALUE_CHARS - 1)}\u2026` : v));
  return values.length > MAX_VALUES ? `${clipped.join(', ')} and ${values.length - MAX_VALUES} more` : clipped.join(', ');
}

/** One line naming what differs, kind by kind: "numbers 30 → 14", "codes SAVE10 → none; URLs … → …". */
export function factsDetail(diff: FactsDifference): string {
  const parts: string[] = [];
  for (const kind of FACT_KINDS) {
    const was = diff.baseline.filter((f) => f.kind === kind).map((f) => f.value);
    const now = diff.now.filter((f) => f.kind === kind).map((f) => f.value);
    if (was.length > 0 || now.length > 0) parts.push(`${FACT_WORDS[kind]} ${shown(was)} \u2192 ${shown(now)}`);
  }
  return parts.join('; ');
}
