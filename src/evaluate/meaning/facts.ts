// The facts of a reply (docs/meaning.md, "Facts"): the numbers, times, amounts, URLs, e-mail
// addresses and codes it tells the user. Two replies whose facts differ are changed in meaning,
// with no model asked. Pure.
//
// Every regular expression is compiled once, here. None can backtrack without bound: each
// repeated part is followed by something it cannot match, and matches start only where a token
// starts (the lookbehinds), so a long run of digits or letters is scanned once.

import type { Fact, FactKind, FactsDifference } from '../../types/meaning.js';
import { asciiDigits, markScriptDigits, stripListMarkers } from './normalize.js';
import { onFirstUse, unicodePattern } from '../../patterns.js';
import { headOf, listAndMore } from '../../words.js';

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

/** Currency signs; `$` may carry a country prefix ("US$", "C$", "HK$"). "円" is the yen as Japanese writes it after the number ("1,500円"). */
const SIGNS = '$€£¥₹₽₩₺₪₫₱฿円';
/**
 * ISO 4217 codes read as a currency next to a number, in capitals. Left out: codes that are also
 * common capitalised words or names ("PHP 8" is a programming language, "ALL", "TOP"); "TRY" is
 * read as the lira or the number it may be (LETTER_AMOUNT_SOURCE: "TRY 3 TIMES").
 */
const CURRENCY_CODES = [
  'USD', 'EUR', 'GBP', 'JPY', 'CNY', 'RMB', 'INR', 'CAD', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'ISK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN',
  'RUB', 'UAH', 'BRL', 'MXN', 'ARS', 'CLP', 'COP', 'PEN', 'ZAR', 'NGN', 'KES', 'EGP', 'MAD', 'KRW', 'SGD', 'HKD', 'TWD', 'THB', 'IDR', 'MYR',
  'VND', 'PKR', 'BDT', 'LKR', 'ILS', 'AED', 'SAR', 'QAR', 'KWD', 'ITL', 'LBP', 'SYP',
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
const AMOUNT_SOURCE = String.raw`(?=[\-\u2212\u2013A-Z${SIGNS}0-9])(?<![JN]|[N][.,])(?:(${MINUS})?(?:([A-Z]{0,2}[${SIGNS}])[ \u00a0]?(${MINUS})?|(${CODE_ALTERNATION})(?![J])(?:[ \u00a0](${MINUS})?)?)(${NUMERAL})|(${MINUS})?(${NUMERAL})[ \u00a0]?([${SIGNS}]|(?:${CODE_ALTERNATION})(?![JN])))`;
/**
 * Emphasis between an amount's sign or code and its number ("USD **120**", "$**5**", "**30** EUR",
 * "**30**€"): taken away before the facts are read, so that the amount is read as it is when the
 * whole amount is emphasised ("**USD 120**") or nothing is (docs/meaning.md, "Facts"). A hosted
 * model bolds the number of a price, and not its currency, on one call and not the next.
 */
const EMPHASIS_AFTER_CURRENCY = onFirstUse(() => new RegExp(String.raw`((?:[A-Z]{0,2}[${SIGNS}]|(?<![A-Za-z0-9])(?:${CODE_ALTERNATION}))[ \u00a0]?)(?:\*{1,3}|_{1,3})(?=${MINUS}?\d)`, 'g'));
const EMPHASIS_BEFORE_CURRENCY = onFirstUse(() => new RegExp(String.raw`(\d)(?:\*{1,3}|_{1,3})(?=[ \u00a0]?(?:[${SIGNS}]|(?:${CODE_ALTERNATION})(?![A-Za-z0-9])))`, 'g'));

/**
 * An amount written with its currency's word after its number (docs/meaning.md, "Facts"): "5 dollars",
 * "5 US dollars", "a 5-dollar fee", "10 euros", "3 pounds sterling", "3 British pounds", "100 yen",
 * "5 Canadian dollars", "5 New Zealand dollars", "500 rupees", "20 Swiss francs", "50 pesos", "50
 * Chilean pesos", "5 bucks", "50 cents", "50 pence", "100 baht", "100 Swedish kronor", in any
 * case, with a minus as an amount written with its sign has one ("-5 dollars"), and the hundredths
 * after a whole number of a currency that has them: cents after dollars or euros ("5 dollars and
 * 50 cents" is USD 5.5), pence after pounds ("3 pounds and 50 pence", "3 pounds 50p" are GBP 3.5),
 * or two digits alone at the end of a clause ("2 euros 50." is EUR 2.5, "3 pounds 50" GBP 3.5).
 * Read after the amounts with a sign or a code. Each part is followed by something it cannot match
 * (a word ends at a non-letter), so the pattern is scanned once. The groups: a minus, the number,
 * the character between the number and the words, a qualifier, the word, "sterling" or a peso's
 * country in Spanish order ("1,500 pesos mexicanos" is "1,500 Mexican pesos": SPANISH_PESOS), the
 * hundredths with their word ("cents", "pence") or their "p", and the two digits alone. Compiled
 * with the `i` flag: `[A-Z]` and the words match either case.
 */
const WORD_AMOUNT_SOURCE = String.raw`(?=[\-\u2212\u2013N])(?<![JN]|[N][.,])(${MINUS})?(${NUMERAL})([ \u00a0\-])(?:(US|UK|British|Canadian|Australian|Singapore|New[ \u00a0]Zealand|NZ|Hong[ \u00a0]Kong|HK|New[ \u00a0]Taiwan|Taiwan|Mexican|Argentine|Argentinian|Chilean|Colombian|Philippine|Uruguayan|Dominican|Cuban|Swiss|Indian|Pakistani|Japanese|Chinese|South[ \u00a0]Korean|Korean|Turkish|Italian|New[ \u00a0]Israeli|Israeli|Thai|Russian|Brazilian|Vietnamese|Polish|Swedish|Danish|Norwegian|Icelandic|South[ \u00a0]African|Emirati|UAE|Moroccan|Malaysian|Lebanese|Syrian|Egyptian|Romanian|Moldovan)[ \u00a0])?(dollars?|euros?|pounds?|yen|yuan|rupees?|francs?|pesos?|bucks?|cents?|pence|won|liras?|lire|shekels?|baht|roubles?|rubles?|reais|reals?|dong|z(?:l|\u0142)ot(?:ys?|e|ych)|krona|krone|kronor|kroner|kronur|rand|dirhams?|ringgits?|lei|leu)(?:[ \u00a0](sterling|(?:mexican|argentin|chilen|colombian|filipin|uruguay|dominican|cuban)os?))?(?:(?:[ \u00a0]and)?[ \u00a0](\d{1,2})(?:[ \u00a0](cents?|pence)|(p)(?![JN]|\.[mM]))|[ \u00a0](\d{2})(?=$|[\n.,;:!?)*_"'](?![N])))?(?![JN])`;
/** What a worded amount needs: a digit, then a currency's word (a cheap test before the pattern). */
const MAY_HAVE_WORD_AMOUNT =
  /[0-9][ \u00a0-](?:[A-Za-z]{2,11}[ \u00a0]){0,2}(?:[dD][oO][lL]|[eE][uU][rR]|[pP][oO][uU]|[yY][eE]|[yY][uU]|[rR][uU][pP]|[fF][rR][aA]|[pP][eE][sS]|[bB][uU][cC]|[cC][eE][nN]|[pP][eE][nN]|[wW][oO][nN]|[lL][iI][rR]|[sS][hH][eE]|[bB][aA][hH]|[rR][oO][uU]|[rR][uU][bB]|[rR][eE][aA]|[dD][oO][nN]|[zZ](?:[lL]|\u0142|\u0141)|[kK][rR][oO]|[rR][aA][nN]|[dD][iI][rR]|[rR][iI][nN]|[lL][eE][iIuU])/;
/**
 * "50p" and "50¢" (and "50 ¢"): pence and cents written with their letter or sign, as "50 pence"
 * and "50 cents" are. The "p" is right after the number, in lower case, and no time's ("5p.m.").
 * The groups: a minus, the number, the cent sign (none: the "p").
 */
const SMALL_CHANGE_SOURCE = String.raw`(?=[\-\u2212\u2013N])(?<![JN]|[N][.,])(${MINUS})?(${NUMERAL})(?:[ \u00a0]?(\u00a2)|p)(?![JN]|\.[mM])`;
/** What "50p" or "50¢" needs (a cheap test before the pattern). */
const MAY_HAVE_SMALL_CHANGE = /[0-9]p|\u00a2/;
/**
 * A currency's word in Arabic, Hindi, Japanese, Korean, Chinese or Thai right after the number, as
 * "5 dollars" is in English (docs/meaning.md, "Languages and locales"): "١٥٠٠ ريال" (riyals), "250
 * ر.س" (SAR), "30 د.إ" (AED), "١٠٠ درهم" (dirhams), "٥ دنانير" (dinars), "٢٠ جنيهاً" (Egyptian or
 * Sudanese pounds), "1,500 रुपये" (rupees), "30ドル" (dollars), "25ユーロ" (EUR), "30000원" (KRW),
 * "100元" (the yuan, or Taiwan's or Hong Kong's dollar), "100美元" (USD), "100港元" (HKD), "100欧元"
 * (EUR), "100日元" (JPY), "100韩元" (KRW), "100 บาท" (THB). An Arabic word is matched by its stem,
 * as its endings vary ("ريالاً", "ريالات"); "元" is not the one of "元素" (elements) or "元旦" (New
 * Year's Day: "1月1日元旦" holds no yen). Read only in text that is not all ASCII, after the amounts
 * with a sign or a code. The groups: a minus, the number, the word.
 */
const LOCAL_WORD_AMOUNT_SOURCE = String.raw`(?=[\-\u2212\u2013N])(?<![JN]|[N][.,])(${MINUS})?(${NUMERAL})[ \u00a0]?(\u0631\u064a\u0627\u0644|\u0631\.\u0633|\u062f\.\u0625|\u062f\u0631\u0647\u0645|\u062f\u0631\u0627\u0647\u0645|\u062f\u064a\u0646\u0627\u0631|\u062f\u0646\u0627\u0646\u064a\u0631|\u062c\u0646\u064a\u0647|\u0930\u0941\u092a(?:\u092f|\u090f)|\u0930\u0941\.|\u30c9\u30eb|\u30e6\u30fc\u30ed|\uc6d0|[\u7f8e\u6e2f\u6b27\u6b50\u65e5\u97d3\u97e9]?\u5143(?![\u7d20\u65e6])|\u0e1a\u0e32\u0e17)`;
/** What LOCAL_WORD_AMOUNT_SOURCE needs besides a digit: one of its words' first letters, or "元" (a cheap test before the pattern). */
const MAY_HAVE_LOCAL_WORD_AMOUNT = /[\u0631\u062f\u062c\u0930\u30c9\u30e6\uc6d0\u5143\u0e1a]/;
/**
 * The Han characters a multiplied number may be followed by: a currency's ("円", "元", "美元", "港元",
 * "欧元", "日元", "韩元"), the common counters and units of Japanese and Chinese ("人", "件", "個",
 * "年", "歩", "羽", "杯", "着", "箱", "只", "条", "张", "斤", "世" in "3万世帯", ...), and the words of
 * about, over and under ("多" in "3千多人", "以" in "3万以上", "未満", "超", "強", "程", "近", "左右").
 * A closed list, not an open rule: the characters that follow a multiplier in a word or a name
 * ("千葉", "千代田", "万博", "百貨店") are more, and open, than the counters are.
 */
const MULTIPLIED_HAN_AFTER =
  '円元美港欧歐日韓韩人名件個个台回本枚冊册歳岁年月時时分秒週周歩步点點位次多余餘倍戸户軒社校票部字頭头匹株平米公克吨噸里' +
  '羽杯着足粒缶箱袋束通隻艘機棟階泊食錠席床店語頁坪畳世只条條张張块塊辆輛间間家座份双雙套把支枝根片颗顆斤两兩升亩畝瓦毫' +
  '以未超強强弱程近左';
/**
 * A number with a multiplier written after it in kanji or hangul: "3万" (ten thousands), "1,000万", "1.5万",
 * "3千", "5百" "1億2000万", "1万5000", "3만 5천" (Korean writes a space between them): the groups are the
 * parts, then the digits after the last multiplier (docs/meaning.md, "Languages and locales").
 * Not before a Han character other than a currency's or a counter's (MULTIPLIED_HAN_AFTER): "3千葉" is 3 and Chiba.
 */
const MULTIPLIED = onFirstUse(() => new RegExp(
  String.raw`(?<![0-9.,])((?:[0-9]+(?:[.,][0-9]+)*(?:[\u767e\u5343\ubc31\ucc9c]?[\u4e07\u842c\u5104\u4ebf\u5146\ub9cc\uc5b5]|[\u767e\u5343\ubc31\ucc9c])(?: (?=[0-9]+(?:[.,][0-9]+)*[\u767e\u5343\ubc31\ucc9c\u4e07\u842c\u5104\u4ebf\u5146\ub9cc\uc5b5]))?)+)([0-9]*)(?![0-9])(?!(?![${MULTIPLIED_HAN_AFTER}])[\u3400-\u9fff\uf900-\ufaff])`,
  'g',
));
/** One part of a MULTIPLIED match: its numeral, its small multiplier (hundred, thousand) and its large one (ten thousand, ...). */
const MULTIPLIED_PART = /([0-9]+(?:[.,][0-9]+)*)([\u767e\u5343\ubc31\ucc9c]?)([\u4e07\u842c\u5104\u4ebf\u5146\ub9cc\uc5b5]?) ?/gy;
/** What MULTIPLIED needs (a cheap test before the pattern). */
const MAY_HAVE_MULTIPLIER = /[0-9][\u767e\u5343\u4e07\u842c\u5104\u4ebf\u5146\ubc31\ucc9c\ub9cc\uc5b5]/;
/** The power of ten each multiplier stands for: 百 백 a hundred, 千 천 a thousand, 万 萬 만 ten thousand, 億 亿 억 a hundred million, 兆 a million million. */
const MULTIPLIER_EXPONENTS: Record<string, number> = {
  '\u767e': 2, '\ubc31': 2, '\u5343': 3, '\ucc9c': 3, '\u4e07': 4, '\u842c': 4, '\ub9cc': 4, '\u5104': 8, '\u4ebf': 8, '\uc5b5': 8, '\u5146': 12,
};

/**
 * The number a MULTIPLIED match says, as digits ("3万" is "30000", "1.5万" "15000", "1億2000万"
 * "120000000"); the match as written where a part's numeral is several numbers. Exact: in BigInt.
 */
function multipliedValue(match: string, parts: string, rest: string): string {
  const terms: { digits: string; shift: number }[] = [];
  let scale = 0;
  MULTIPLIED_PART.lastIndex = 0;
  for (let m = MULTIPLIED_PART.exec(parts); m !== null && m[0] !== ''; m = MULTIPLIED_PART.exec(parts)) {
    const values = numbersOf(m[1] as string);
    if (values.length !== 1 || POINT_THOUSANDS.test(m[1] as string)) return match;
    const [int = '', frac = ''] = (values[0] as string).split('.');
    const exponent = (MULTIPLIER_EXPONENTS[m[2] as string] ?? 0) + (MULTIPLIER_EXPONENTS[m[3] as string] ?? 0);
    terms.push({ digits: int + frac, shift: exponent - frac.length });
    scale = Math.max(scale, frac.length - exponent);
  }
  let total = BigInt(rest === '' ? '0' : rest) * 10n ** BigInt(scale);
  for (const t of terms) total += BigInt(t.digits) * 10n ** BigInt(t.shift + scale);
  const digits = total.toString().padStart(scale + 1, '0');
  return canonicalDecimal(digits.slice(0, digits.length - scale), digits.slice(digits.length - scale));
}

/** The characters of a number in kanji (or Chinese characters): digits, 〇 and 零, 两 (two, in Chinese), and the multipliers. */
const KANJI_NUMERAL_CHARS = '\u3007\u96f6\u4e00\u4e8c\u4e24\u5169\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341\u767e\u5343\u4e07\u842c\u5104\u4ebf\u5146';
/** The currencies a number in kanji is read before ("三万円", "两千元", "五百ドル"): what makes one character alone ("千円") a number. */
const KANJI_CURRENCY = String.raw`[\u5186\u5143]|[\u7f8e\u6e2f\u6b27\u6b50\u65e5\u97d3\u97e9]\u5143|\u30c9\u30eb|\u30e6\u30fc\u30ed`;
/**
 * A number in kanji right before a currency or a counter (docs/meaning.md, "Languages and locales"):
 * "三万円", "五百人", "一万五千円", "二〇二六年". Not after a digit, another of its characters, or
 * "数", "何", "幾", "几" ("数万人" is tens of thousands: no number). The groups: the numeral, the
 * currency after it (none: a counter). Built on first use.
 */
const KANJI_NUMBER = onFirstUse(
  () => new RegExp(String.raw`(?<![0-9${KANJI_NUMERAL_CHARS}\u6570\u6578\u4f55\u5e7e\u51e0])([${KANJI_NUMERAL_CHARS}]+)(?=(${KANJI_CURRENCY})|[${MULTIPLIED_HAN_AFTER}])`, 'g'),
);
/** What KANJI_NUMBER needs (a cheap test before the pattern). */
const MAY_HAVE_KANJI_NUMBER = onFirstUse(() => new RegExp(`[${KANJI_NUMERAL_CHARS}]`));

/**
 * A number in kanji as digits (KANJI_NUMBER), or the match as written where it is no clear number:
 * one character alone but before a currency ("一人", "十分" are words; "千円" is JPY 1000, but not
 * "一円" after a Han character, "関東一円" is "all over Kanto"), digits alone written place by place
 * but with a zero or three or more of them ("二〇二六年", "一九九五年"; not "四六時中"), and any
 * numeral not well formed ("十百"). Exact: in BigInt.
 */
function kanjiNumberValue(match: string, numeral: string, currency: string | undefined, at: number, text: string): string {
  const chars = Array.from(numeral);
  if (chars.length === 1 && (currency === undefined || (numeral === '\u4e00' && HAN().test(text[at - 1] ?? '')))) return match;
  const value = kanjiValue(chars);
  return value === undefined ? match : value;
}

const HAN = unicodePattern(String.raw`^\p{sc=Han}$`, 'u');
/** The kanji digits' values (〇 and 零 are zero), and the powers of ten of the small (十 百 千) and large (万 億 兆) multipliers. Built on first use. */
const KANJI_TABLES = onFirstUse(() => ({
  digits: {
    '\u3007': 0, '\u96f6': 0, '\u4e00': 1, '\u4e8c': 2, '\u4e24': 2, '\u5169': 2, '\u4e09': 3, '\u56db': 4, '\u4e94': 5, '\u516d': 6, '\u4e03': 7, '\u516b': 8, '\u4e5d': 9,
  } as Record<string, number>,
  small: { '\u5341': 1, '\u767e': 2, '\u5343': 3 } as Record<string, number>,
  large: { '\u4e07': 4, '\u842c': 4, '\u5104': 8, '\u4ebf': 8, '\u5146': 12 } as Record<string, number>,
}));

function kanjiValue(chars: readonly string[]): string | undefined {
  const { digits, small: smalls, large: larges } = KANJI_TABLES();
  if (chars.every((c) => digits[c] !== undefined)) {
    // Place by place ("二〇二六"): a year or a code, read so only with a zero or three digits or more.
    if (chars.length < 3 && !chars.some((c) => digits[c] === 0)) return undefined;
    return canonicalDecimal(chars.map((c) => digits[c]).join(''), '');
  }
  let total = 0n;
  let section = 0n;
  let digit: bigint | null = null;
  let lastSmall = 99;
  let lastLarge = 99;
  for (const c of chars) {
    const d = digits[c];
    const small = smalls[c];
    const large = larges[c];
    if (d !== undefined) {
      // 零 holds a place ("一千零五十" is 1050); two digits in a row are no number.
      if (d === 0) continue;
      if (digit !== null) return undefined;
      digit = BigInt(d);
    } else if (small !== undefined) {
      if (small >= lastSmall) return undefined;
      section += (digit ?? 1n) * 10n ** BigInt(small);
      digit = null;
      lastSmall = small;
    } else if (large !== undefined) {
      section += digit ?? 0n;
      if (large >= lastLarge || section === 0n) return undefined;
      total += section * 10n ** BigInt(large);
      section = 0n;
      digit = null;
      lastSmall = 99;
      lastLarge = large;
    }
  }
  return String(total + section + (digit ?? 0n));
}

/** How each word of LOCAL_WORD_AMOUNT_SOURCE reads, by its first two characters. */
function localWordReading(word: string): Reading {
  return LOCAL_WORD_READINGS[word.slice(0, 2)] ?? (word.startsWith('\u062f\u0631') ? DIRHAMS : word.startsWith('\u062f\u064a') || word.startsWith('\u062f\u0646') ? DINARS : RUPEES);
}

/** "Rs. 500", "Rs 500", "Rs.500" (and "₨500", which NFKC writes "Rs500"): rupees, as "500 rupees" is. */
const RUPEES_BEFORE_SOURCE = String.raw`(?=R)(?<![JN])Rs\.?[ \u00a0]?(${NUMERAL})(?![JN])`;
/**
 * A currency's letters, read only right next to a number (docs/meaning.md, "Facts"; LETTER_READINGS
 * says what each may be): before it, "TRY 100", "R 49.99", "R1,500", "RM 50", "NIS 50" (with its
 * space: "NIS2" is a code), "kr 100", "kr. 100", "Kr 100", "KR 100", "Rp 50.000", "Rp. 50.000",
 * "Kč 500"; after it, "100 TRY", "50 NIS", "100 kr", "100 Kr", "100 KR", "100 zł", "100 zl", "100
 * ZŁ", "500 Kč", "500,- Kč" (whole crowns, as Czech and Scandinavian prices write them), "12.500
 * Ft". Each as written, never in another case ("try 3 times"). A minus as
 * an amount with a code has one ("TRY -50", "-100 kr"), and a minus sign or an en dash right after
 * the letters too ("R−50": a hyphen there makes a code, "R-5521"). Not after a letter or digit, nor
 * before one ("R2-D2" is a code). Read after the times ("R 10:30" holds a time). The groups: a
 * minus, the letters, a minus after a space, a minus right after them, the number; or a minus, the
 * number, the letters.
 */
const LETTER_AMOUNT_SOURCE = String.raw`(?=[\-\u2212\u2013TRkK0-9]|NIS)(?<![JN]|[N][.,])(?:(${MINUS})?(TRY|RM|Rp\.?|R|NIS(?=[ \u00a0])|[kK]r\.?|KR|K\u010d)(?:[ \u00a0](${MINUS})?|([\u2212\u2013]))?(${NUMERAL})(?![JN]|-[JN]|[.,][N])|(${MINUS})?(${NUMERAL})(?:,-)?[ \u00a0]?(TRY|NIS|[kK]r|KR|z\u0142|zl|Z\u0141|K\u010d|Ft)(?![JN]))`;
/** What LETTER_AMOUNT_SOURCE needs: the letters, then a number, or a number, then the letters (a cheap test before the pattern). */
const MAY_HAVE_LETTER_AMOUNT = /(?:TRY|R[Mp]?\.?|NIS|[kK][rR]\.?|K\u010d)(?:[ \u00a0][-\u2212\u2013]?|[\u2212\u2013])?[0-9]|[0-9](?:,-)?[ \u00a0]?(?:TRY|NIS|[kK][rR]|z\u0142|zl|Z\u0141|K\u010d|Ft)/;
/**
 * Digit groups with plain spaces between them right before a mark written after the number in a
 * language that separates thousands with a space ("1 234,50 Kč", "12 500 Ft", "1 500 kr", "2 000
 * zł", "1 500 lei"), or before a currency's sign or code written after it, as French writes an
 * amount ("1 500,50 €", "1 500,50 EUR", "1 500 $"), or two groups of three or more with nothing
 * after them ("1 234 567 habitants"): one number. Elsewhere a plain space separates numbers ("2 500g",
 * "1 500 pièces"). Starts only at a run's first group (the lookbehind), so a long run is scanned once.
 * A comma and three digits after the groups (the third group: "1 500,505 €", "1 234 567,505") are
 * its decimals, as after a no-break space (DECIMALS_AFTER_OTHER_THOUSANDS): no language writes a
 * comma between thousands after a space between them.
 */
const SPACED_THOUSANDS_SOURCE = String.raw`(?<![N.,]|[N] )([N]{1,3})((?: [N]{3})+)(?:,([N]{3,})(?![N]|[.,][N]))?(?=(?:,[N]{1,2})?(?:[ \u00a0]?(?:K\u010d|Ft|z\u0142|zl|Z\u0141|[kK]r|KR|(?:l|L)e[iu])(?![J])|[ \u00a0]?[${SIGNS}]|[ \u00a0](?:${CODE_ALTERNATION})(?![J]))|(?<=[N] [N]{3} [N]{3}(?:,[N]{3,})?)(?![N]))`;
/** What SPACED_THOUSANDS_SOURCE needs (a cheap test before the pattern). */
const MAY_HAVE_SPACED_THOUSANDS = onFirstUse(() => new RegExp(String.raw`[0-9] [0-9]{3}(?:(?:,[0-9]+)?[ \u00a0]?(?:K\u010d|Ft|z[l\u0142]|Z\u0141|[kK][rR]|[lL]e[iu]|[${SIGNS}]|[A-Z]{3})| [0-9]{3}(?![0-9]))`));

/**
 * How a currency's word or sign reads (docs/meaning.md, "Facts"): the currencies it may be
 * (`codes`), the label a detail names the amount by ("USD 5", "rupees 500", "¥ 100"), and `number`
 * when it may be a plain number too ("3 pounds" may weigh 3 pounds; "50 cents" is the number 50,
 * or the half of a currency whose hundredth is a cent: `cents`).
 */
interface Reading {
  codes: readonly string[];
  label: string;
  number?: true;
  cents?: true;
}

const one = (code: string): Reading => ({ codes: [code], label: code });
/** A plain number that may be two numbers: "1.500" (severalFact). */
const NUMBER: Reading = { codes: [], label: '', number: true };
/** One Reading for each code an amount is written with, so that readingFact keeps its facts ("EUR 1.500"). */
const codeReadings = new Map<string, Reading>();
function codeReading(code: string): Reading {
  let reading = codeReadings.get(code);
  if (reading === undefined) codeReadings.set(code, (reading = one(code)));
  return reading;
}
const RUPEES: Reading = { codes: ['INR', 'PKR', 'LKR', 'NPR'], label: 'rupees' };
/** "dirhams" alone and "درهم": the dirham of the Emirates or of Morocco. */
const DIRHAMS: Reading = { codes: ['AED', 'MAD'], label: 'dirhams' };
/** "ريال": the riyal of Saudi Arabia, Qatar, Oman or Yemen (a rial of Iran is "ریال", another letter). */
const RIYALS: Reading = { codes: ['SAR', 'QAR', 'OMR', 'YER'], label: 'riyals' };
/** "دينار": a dinar of Kuwait, Bahrain, Jordan, Iraq, Libya, Tunisia or Algeria. */
const DINARS: Reading = { codes: ['KWD', 'BHD', 'JOD', 'IQD', 'LYD', 'TND', 'DZD'], label: 'dinars' };
const FRANCS: Reading = { codes: ['CHF', 'XOF', 'XAF'], label: 'francs' };
const PESOS: Reading = { codes: ['MXN', 'ARS', 'CLP', 'COP', 'PHP', 'UYU', 'DOP', 'CUP'], label: 'pesos' };
const POUNDS: Reading = { codes: ['GBP'], label: 'GBP', number: true };
const GBP = one('GBP');
/** The currencies whose hundredth is a cent: "5 dollars and 50 cents" is USD 5.5 (or CAD 5.5, ...); a pound's is a penny. */
const CENT_CURRENCIES = new Set(['USD', 'EUR', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD']);
const CENTS: Reading = { codes: ['USD', 'EUR', 'CAD', 'AUD'], label: 'cents', number: true, cents: true };
/** "50 pence" and "50p": the number 50, or GBP 0.5. */
const PENCE: Reading = { codes: ['GBP'], label: 'pence', number: true, cents: true };
/**
 * "dollars" alone and "bucks": the dollar of the country the reply is written for, which it does
 * not name. Named as written ("dollars 5"), as "rupees 500" is: a detail that said "USD 5" named a
 * country the reply did not.
 */
/** A peso's country written after it, as Spanish writes it (WORD_AMOUNT_SOURCE), by its stem: the qualifier English writes before it. */
const SPANISH_PESOS: Record<string, string> = {
  mexican: 'mexican', argentin: 'argentine', chilen: 'chilean', colombian: 'colombian', filipin: 'philippine', uruguay: 'uruguayan', dominican: 'dominican', cuban: 'cuban',
};
const DOLLAR_WORD: Reading = { codes: ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD'], label: 'dollars' };
/** `$` alone: any dollar, or a peso of a country that writes it with `$` (Mexico, Argentina, Chile, ...). Named as written ("$ 5"), as "¥ 100" is. */
const DOLLAR_SIGN: Reading = { codes: [...DOLLAR_WORD.codes, 'MXN', 'ARS', 'CLP', 'COP', 'UYU', 'DOP', 'CUP'], label: '$' };
/** A dollar's country: "dollar" alone and "buck" are any dollar, as `$` is (AMBIGUOUS_SIGNS); "US dollar" is USD. */
const DOLLARS: Record<string, Reading> = {
  '': DOLLAR_WORD, us: one('USD'), canadian: one('CAD'), australian: one('AUD'), singapore: one('SGD'), 'new zealand': one('NZD'), nz: one('NZD'),
  'hong kong': one('HKD'), hk: one('HKD'), taiwan: one('TWD'), 'new taiwan': one('TWD'),
};
/** "5000 won": KRW, or the number of a count that won ("3 won, 2 lost"), as "3 pounds" may be a weight. */
const WON: Reading = { codes: ['KRW'], label: 'KRW', number: true };
/**
 * "lira" alone: the Turkish lira, or the Italian lira of before the euro (ITL; its plural is
 * "lire", the Turkish one's "lira" or "liras").
 */
const LIRA: Reading = { codes: ['TRY', 'ITL'], label: 'lira' };
/** "lei" (and "leu", one of them): the Romanian or the Moldovan leu. */
const LEI: Reading = { codes: ['RON', 'MDL'], label: 'lei' };
/** "kroner" and "krone" alone: the Danish or the Norwegian krone. */
const KRONER: Reading = { codes: ['DKK', 'NOK'], label: 'kroner' };
/**
 * What a word other than "dollar" and "pound" names, alone ('') or after a qualifier: anything else
 * is no amount ("5 Swiss pesos", "5 real" without "Brazilian"). Looked up as written, then without
 * a last "s" ("reais", "kronor" and "kroner" are their own words).
 */
const WORD_CURRENCIES: Record<string, Record<string, Reading>> = {
  euro: { '': one('EUR') },
  yen: { '': one('JPY'), japanese: one('JPY') },
  yuan: { '': one('CNY'), chinese: one('CNY') },
  rupee: { '': RUPEES, indian: one('INR'), pakistani: one('PKR') },
  franc: { '': FRANCS, swiss: one('CHF') },
  peso: { '': PESOS, mexican: one('MXN'), argentine: one('ARS'), argentinian: one('ARS'), chilean: one('CLP'), colombian: one('COP'), philippine: one('PHP'), uruguayan: one('UYU'), dominican: one('DOP'), cuban: one('CUP') },
  cent: { '': CENTS },
  pence: { '': PENCE },
  won: { '': WON, korean: one('KRW'), 'south korean': one('KRW') },
  lira: { '': LIRA, turkish: one('TRY'), italian: one('ITL'), lebanese: one('LBP'), syrian: one('SYP') },
  lire: { '': one('ITL'), italian: one('ITL') },
  shekel: { '': one('ILS'), israeli: one('ILS'), 'new israeli': one('ILS') },
  baht: { '': one('THB'), thai: one('THB') },
  rouble: { '': one('RUB'), russian: one('RUB') },
  ruble: { '': one('RUB'), russian: one('RUB') },
  reais: { '': one('BRL'), brazilian: one('BRL') },
  real: { brazilian: one('BRL') },
  dong: { '': one('VND'), vietnamese: one('VND') },
  zloty: { '': one('PLN'), polish: one('PLN') },
  zlote: { '': one('PLN'), polish: one('PLN') },
  zlotych: { '': one('PLN'), polish: one('PLN') },
  krona: { '': { codes: ['SEK', 'ISK'], label: 'krona' }, swedish: one('SEK'), icelandic: one('ISK') },
  kronor: { '': one('SEK'), swedish: one('SEK') },
  kronur: { '': one('ISK'), icelandic: one('ISK') },
  krone: { '': KRONER, danish: one('DKK'), norwegian: one('NOK') },
  kroner: { '': KRONER, danish: one('DKK'), norwegian: one('NOK') },
  rand: { '': one('ZAR'), 'south african': one('ZAR') },
  dirham: { '': DIRHAMS, emirati: one('AED'), uae: one('AED'), moroccan: one('MAD') },
  ringgit: { '': one('MYR'), malaysian: one('MYR') },
  lei: { '': LEI, romanian: one('RON'), moldovan: one('MDL') },
  leu: { '': LEI, romanian: one('RON'), moldovan: one('MDL') },
};
/** The pounds of another country than the United Kingdom, by its adjective ("100 Lebanese pounds" is LBP 100, never GBP). */
const OTHER_POUNDS: Record<string, Reading> = { lebanese: one('LBP'), syrian: one('SYP'), egyptian: one('EGP') };
/** A weight's words shortly before "3 pounds" on its line ("a parcel of 3 pounds", "it weighs 3 pounds"): that "pounds" is no price. */
const WEIGHT_BEFORE = /\b(?:weigh(?:s|ed|ing)?|weights?|heavy|heavier|parcels?|packages?|box(?:es)?|bags?|luggage|baggage|suitcases?)\b[^\n]{0,40}$/i;
/** "3 pounds of flour": a weight (so is "a 3-pound bag": the hyphen, read where the pattern matches). */
const WEIGHT_AFTER = /^[ \u00a0]+of\b/i;

/**
 * A currency word's reading, or undefined where it names no currency ("5 UK dollars", "a parcel of
 * 3 pounds"). `weight`: whether the text around says this "pound" is a weight.
 */
function wordReading(word: string, qualifier: string | undefined, sterling: string | undefined, weight: () => boolean): Reading | undefined {
  const w = word.toLowerCase();
  const q = qualifier?.toLowerCase().replace('\u00a0', ' ') ?? '';
  if (w.startsWith('pound')) {
    if (q === 'uk' || q === 'british' || (q === '' && sterling !== undefined)) return GBP;
    if (sterling === undefined && OTHER_POUNDS[q] !== undefined) return OTHER_POUNDS[q];
    return q === '' && !weight() ? POUNDS : undefined;
  }
  if (sterling !== undefined) return undefined;
  if (w.startsWith('dollar') || w.startsWith('buck')) {
    return DOLLARS[q];
  }
  const written = w.replace('\u0142', 'l');
  return (WORD_CURRENCIES[written] ?? (written.endsWith('s') ? WORD_CURRENCIES[written.slice(0, -1)] : undefined))?.[q];
}

/** A number of cents as the amount it makes: "50" is "0.5", "5" is "0.05", "150" is "1.5"; undefined for a numeral kept as written ("1.500"). */
function centsValue(n: string): string | undefined {
  if (!PLAIN.test(n) || POINT_THOUSANDS.test(n)) return undefined;
  const [int = '', frac = ''] = n.split('.');
  const padded = int.padStart(3, '0');
  return canonicalDecimal(padded.slice(0, -2), padded.slice(-2) + frac);
}

/**
 * The work the facts that may be several cost (observable, for tests and diagnostics): `made`, the
 * facts made for a reading and an amount (readingFact); `keys`, the keys of what a fact may be that
 * the comparison built (atomsOf). Each is once for each amount, not once for each time it is written.
 */
export const severalFactsWork = { made: 0, keys: 0 };

/**
 * The facts that may be several, made once for each reading and amount: a reply's "$5" and its
 * baseline's share theirs (a "$" may be 14 currencies), and so the keys the comparison builds for
 * them (atomsOf). Kept in two generations of READING_FACTS_KEPT amounts a reading: a full young
 * one becomes the old one, and an amount found in the old one moves back to the young, so a reply
 * and its baseline of up to that many amounts each share every fact, however long they are.
 */
const readingFacts = new Map<Reading, { young: Map<string, Fact>; old: Map<string, Fact> }>();
const READING_FACTS_KEPT = 1024;

/** The fact of `amount` (canonical, with its minus) read as `reading`: one fact, or one that may be several. */
function readingFact(reading: Reading, amount: string): Fact {
  if (reading.number !== true && reading.codes.length === 1 && !TWO_READINGS.test(amount.startsWith('-') ? amount.slice(1) : amount)) {
    return { kind: 'amount', value: `${reading.label} ${amount}` };
  }
  let kept = readingFacts.get(reading);
  if (kept === undefined) readingFacts.set(reading, (kept = { young: new Map(), old: new Map() }));
  let fact = kept.young.get(amount);
  if (fact === undefined) {
    fact = kept.old.get(amount);
    if (fact === undefined) {
      severalFactsWork.made++;
      fact = severalFact(reading, amount);
    }
    if (kept.young.size >= READING_FACTS_KEPT) readingFacts.set(reading, (kept = { young: new Map(), old: kept.young }));
    kept.young.set(amount, fact);
  }
  return fact;
}

function severalFact(reading: Reading, amount: string): Fact {
  const sign = amount.startsWith('-') ? '-' : '';
  const unsigned = amount.slice(sign.length);
  // "1.500" and "1,500" may each be two numbers (twoReadings): a reply that writes them "1500" is
  // left to the meaning judge (docs/meaning.md, "Languages and locales"); "1,500p" is then GBP 15 or GBP 0.015.
  const two = twoReadings(unsigned);
  const values = reading.cents === true ? (two ?? [unsigned]).flatMap((n) => centsValue(n) ?? []) : (two ?? [unsigned]);
  const amounts = (): Fact[] => reading.codes.flatMap((c) => values.map((v): Fact => ({ kind: 'amount', value: `${c} ${sign}${v}` })));
  if (reading.number === true) {
    const number: Fact = { kind: 'number', value: amount };
    const numbers: Fact[] = two === undefined ? [number] : two.map((v): Fact => ({ kind: 'number', value: `${sign}${v}` }));
    if (values.length === 0) return two !== undefined ? { kind: 'number', value: amount, may: numbers } : number;
    return { kind: 'number', value: amount, may: [...numbers, ...amounts()] };
  }
  return { kind: 'amount', value: `${reading.label} ${amount}`, may: amounts() };
}

/**
 * The numbers a numeral two languages read otherwise may be, or undefined for any other numeral:
 * "1.500" (one point before three last digits) is 1500 where a point separates thousands, or as
 * written, 1.5 in English, compared as written: never 1.5 ("1,5"); "1,500" (one comma) is 1500 in
 * English or 1.5 where a comma is the decimal point, so against "1,5" or "1.5" too the meaning judge decides.
 */
function twoReadings(numeral: string): string[] | undefined {
  if (!TWO_READINGS.test(numeral)) return undefined;
  const [int = '', frac = ''] = numeral.split(/[.,]/);
  return numeral.includes('.') ? [numeral, int + frac] : [int + frac, canonicalDecimal(int, frac)];
}

/**
 * How the letters of LETTER_AMOUNT_SOURCE read (docs/meaning.md, "Facts"). Those that are also an
 * English word or a name may be the plain number too, as "3 won" may count games: "TRY" is the verb
 * in capitals ("TRY 3 TIMES"), "R" the language ("R 4.3"), "RM" a room ("RM 101"), "NIS" the EU
 * directive ("NIS 2"), "Ft" the feet of a title ("a 10 Ft Ladder"). "kr", "Kr" and "KR" (the
 * Scandinavian krona and krone), "zł", "zl" and "ZŁ" (the złoty), "Kč" (the koruna) and "Rp" (the
 * rupiah) are no word, but before a number "Kr" and "KR" may be a name (LETTER_READINGS_BEFORE).
 */
const KR: Reading = { codes: ['SEK', 'NOK', 'DKK', 'ISK'], label: 'kr' };
const PLN: Reading = { codes: ['PLN'], label: 'PLN' };
const LETTER_READINGS: Record<string, Reading> = {
  TRY: { codes: ['TRY'], label: 'TRY', number: true },
  R: { codes: ['ZAR'], label: 'ZAR', number: true },
  RM: { codes: ['MYR'], label: 'MYR', number: true },
  NIS: { codes: ['ILS'], label: 'ILS', number: true },
  kr: KR,
  Kr: KR,
  KR,
  'z\u0142': PLN,
  zl: PLN,
  'Z\u0141': PLN,
  'K\u010d': { codes: ['CZK'], label: 'CZK' },
  Rp: { codes: ['IDR'], label: 'IDR' },
  // "10 Ft" may be ten feet, written as a title writes it.
  Ft: { codes: ['HUF'], label: 'HUF', number: true },
};
/**
 * The letters that are a word or a name too before a number, though not after it: "KR 1" is a key
 * result of an OKR, "Kr 36" krypton's atomic number.
 */
const LETTER_READINGS_BEFORE: Record<string, Reading> = { Kr: { ...KR, number: true }, KR: { ...KR, number: true } };

/** A sign's currency where it is not ambiguous ("US$", "A$", "MX$"; "$", "¥" and "C$" are: AMBIGUOUS_SIGNS). */
const SIGN_CODES: Record<string, string> = {
  US$: 'USD', '円': 'JPY', '€': 'EUR', '£': 'GBP', '₹': 'INR', '₽': 'RUB', '₩': 'KRW', '₺': 'TRY', '₪': 'ILS', '₫': 'VND', '₱': 'PHP', '฿': 'THB', RMB: 'CNY',
  A$: 'AUD', AU$: 'AUD', CA$: 'CAD', NZ$: 'NZD', HK$: 'HKD', S$: 'SGD', MX$: 'MXN', R$: 'BRL', NT$: 'TWD', 'JP¥': 'JPY', 'CN¥': 'CNY',
};
/**
 * A sign that names several currencies: read as any of them ("¥100" is JPY 100 or CNY 100; "C$" is a
 * Canadian dollar or a córdoba; "$" any dollar or a peso).
 */
/**
 * LOCAL_WORD_AMOUNT_SOURCE's words by their first two characters (the others: localWordReading):
 * "جنيه" is the pound of Egypt or Sudan, never GBP alone ("جنيه إسترليني" would say sterling).
 */
const LOCAL_WORD_READINGS: Record<string, Reading> = {
  '\u0631\u064a': RIYALS,
  '\u0631.': one('SAR'),
  '\u062f.': one('AED'),
  '\u062c\u0646': { codes: ['EGP', 'SDG'], label: 'junaih' },
  '\u30c9\u30eb': DOLLAR_WORD,
  '\u30e6\u30fc': one('EUR'),
  '\uc6d0': one('KRW'),
  // "元" alone: the yuan, or the dollar of Taiwan or Hong Kong as their Chinese writes it; named as written, as "¥ 100" is.
  '\u5143': { codes: ['CNY', 'TWD', 'HKD'], label: '\u5143' },
  '\u7f8e\u5143': one('USD'),
  '\u6e2f\u5143': one('HKD'),
  '\u6b27\u5143': one('EUR'),
  '\u6b50\u5143': one('EUR'),
  '\u65e5\u5143': one('JPY'),
  '\u97d3\u5143': one('KRW'),
  '\u97e9\u5143': one('KRW'),
  '\u0e1a\u0e32': one('THB'),
};

const AMBIGUOUS_SIGNS: Record<string, Reading> = { $: DOLLAR_SIGN, '¥': { codes: ['JPY', 'CNY'], label: '¥' }, C$: { codes: ['CAD', 'NIO'], label: 'C$' } };

/** A 12-hour time: "6pm", "6 p.m.", "12:30 AM". */
const TIME_12_SOURCE = String.raw`(?=\d)(?<![JN:.,])(\d{1,2})(?::([0-5]\d)(?::([0-5]\d))?)?[ \u00a0]?([aApP])\.?[mM]\.?(?![JN])`;
/** A 24-hour time: "18:00", "9:05", "23:59:30". */
const TIME_24_SOURCE = String.raw`(?=\d)(?<![JN:.,])(\d{1,2}):([0-5]\d)(?::([0-5]\d))?(?![N:])`;

interface Patterns {
  email: RegExp;
  amount: RegExp;
  time12: RegExp;
  time24: RegExp;
  wordAmount: RegExp;
  rupeesBefore: RegExp;
  letterAmount: RegExp;
  smallChange: RegExp;
  spacedThousands: RegExp;
  localWordAmount: RegExp;
}

/**
 * The patterns, compiled once in two forms: for any text (Unicode letter and script classes) and
 * for text that is all ASCII (plain ranges, several times faster), where both forms match the same.
 * In the sources' character classes, `L` stands for a letter, `N` for a digit and `J` for a letter that
 * joins a token (see compile's `J`).
 */
function compile(ascii: boolean): Patterns {
  // `J`: a letter that joins a number to a word or a code, so that no amount or time starts or ends
  // beside it ("REF30€" is a code): Latin, Greek and Cyrillic, as a code's letters are. The letters
  // of scripts written without spaces (価格は¥1,500です) and of the other scripts separate.
  const classes = ascii ? { L: 'A-Za-z', N: '0-9', J: 'A-Za-z' } : { L: String.raw`\p{L}`, N: String.raw`\p{N}`, J: UNICODE_CODE_LETTER.slice(1, -1) };
  // The ASCII forms without the `u` flag: on ASCII text they match the same, and run faster.
  const make = (source: string, flags = ''): RegExp => new RegExp(source.replace(/\[([^\]]*)\]/g, (_m, inner: string) => `[${inner.replace(/[LNJ]/g, (c) => classes[c as 'L' | 'N' | 'J'])}]`), (ascii ? 'g' : 'gu') + flags);
  return { email: make(EMAIL_SOURCE), amount: make(AMOUNT_SOURCE), time12: make(TIME_12_SOURCE), time24: make(TIME_24_SOURCE), wordAmount: make(WORD_AMOUNT_SOURCE, 'i'), rupeesBefore: make(RUPEES_BEFORE_SOURCE), letterAmount: make(LETTER_AMOUNT_SOURCE), smallChange: make(SMALL_CHANGE_SOURCE), spacedThousands: make(SPACED_THOUSANDS_SOURCE), localWordAmount: make(LOCAL_WORD_AMOUNT_SOURCE) };
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
const THOUSANDS = /^[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/;
/**
 * One comma before three last digits: a thousands separator in English ("1,500" is 1500), a decimal
 * comma in German, French and more (1.5): read by the reply's other numerals and words (writtenAsEnglish).
 */
const COMMA_THOUSANDS = /^[1-9]\d{0,2},\d{3}$/;
/** "1.500" or "1,500": a numeral two languages read as two numbers (twoReadings). */
const TWO_READINGS = /^[1-9]\d{0,2}[.,]\d{3}$/;
const PLAIN = /^\d+(?:\.\d+)?$/;
/** One point before three last digits: a thousands separator in German, French and more ("1.500"), a decimal point in English. */
const POINT_THOUSANDS = /^[1-9]\d{0,2}\.\d{3}$/;
/** A whole number without leading zeros. */
const WHOLE = /^(?:[1-9][0-9]*|0)$/;
/** A decimal comma: "30,5", "2,50", and "0,500" (no language writes a thousands separator after a lone 0). */
const DECIMAL_COMMA = /^\d+,\d{1,2}$|^0,\d+$/;
/** India's digit grouping: groups of two digits, then the last three ("1,50,000" is 150000, "1,00,00,000" 10000000). */
const INDIAN_GROUPS = /^\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?$/;
/** Points between groups of three digits, then a decimal comma: "1.500,50", "1.234.567,8", "1.500,505" (after points, a comma is no thousands separator). */
const POINT_THOUSANDS_DECIMAL_COMMA = /^\d{1,3}(?:\.\d{3})+,\d+$/;

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
 * comma), "1.500" is itself (1500 or 1.5, by the language: compared as written), "1.500,50" is 1500.5
 * (points between groups before a decimal comma), "1,50,000" is 150000 (India's grouping), "1.234.567"
 * is 1234567 (not an IPv4 address's four groups); anything else ("1.2.3", "192.168.100.200") is its
 * digit groups, each a number.
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
  // "1.500,50": points between groups of three digits, then a decimal comma, as German writes it; no
  // other language reads it otherwise, so it is one number, 1500.5 (docs/meaning.md, "Languages and locales").
  // "1,50,000": India's grouping (lakhs, crores), groups of two digits before the last three; read no other way.
  if (INDIAN_GROUPS.test(numeral)) {
    const [int = '', frac = ''] = numeral.replace(/,/g, '').split('.');
    return [canonicalDecimal(int, frac)];
  }
  if (POINT_THOUSANDS_DECIMAL_COMMA.test(numeral)) {
    const [int = '', frac = ''] = numeral.replace(/\./g, '').split(',');
    return [canonicalDecimal(int, frac)];
  }
  // "1.234.567": points between two or more groups of three, as German writes a million; an IPv4
  // address (four groups, none over 255) is its groups.
  if (POINT_GROUPS_WHOLE.test(numeral) && !isIpv4(numeral)) return [numeral.replace(/\./g, '')];
  return numeral.split(/[.,]/).map((group) => canonicalDecimal(group, ''));
}

/** Points between two or more groups of three digits, nothing else: "1.234.567". */
const POINT_GROUPS_WHOLE = /^\d{1,3}(?:\.\d{3}){2,}$/;

/** Four groups of digits, none over 255: "192.168.100.200". */
function isIpv4(numeral: string): boolean {
  const groups = numeral.split('.');
  return groups.length === 4 && groups.every((g) => Number(g) <= 255);
}

/** Points between groups of three digits, twice or more or before a decimal comma: "1.500.000", "1.234,50". Only thousands. */
const POINT_GROUPS = /^\d{1,3}(?:(?:\.\d{3}){2,}(?:,\d{1,2})?|(?:\.\d{3})+,\d{1,2})$/;

/**
 * The numbers an amount's numeral says: as numbersOf, but "1.500.000" and "1.234,50" are one
 * amount, 1500000 and 1234.5, as a language that separates thousands with a point writes them
 * ("Rp 1.500.000", "1.234,50 €"); one point before three last digits is still kept as written.
 */
function amountNumbersOf(numeral: string): string[] {
  if (numeral.length < 7 || !POINT_GROUPS.test(numeral)) return numbersOf(numeral);
  const [int = '', frac = ''] = numeral.replace(/\./g, '').split(',');
  return [canonicalDecimal(int, frac)];
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
/**
 * A comma and three digits after such a group ("1 500,505" with a no-break space): the decimal
 * comma, as no language writes a comma between thousands after a space or an apostrophe between
 * them; made a point, so that the joined "1500,505" is not read as the numbers 1500 and 505.
 */
const DECIMALS_AFTER_OTHER_THOUSANDS = onFirstUse(() => /([0-9][\u00a0\u202f\u2009'\u2019][0-9]{3}),(?=[0-9]{3,}(?![0-9]|[.,][0-9]))/g);

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
  let joined = reply.replace(OTHER_THOUSANDS, '$1');
  if (joined.length !== reply.length && joined.includes(',')) joined = reply.replace(DECIMALS_AFTER_OTHER_THOUSANDS(), '$1.').replace(OTHER_THOUSANDS, '$1');
  // NFKC leaves ASCII text as it is: only other text is normalized (and tested again after).
  const wide = NON_ASCII.test(joined);
  let text = wide ? markScriptDigits(joined).normalize('NFKC') : joined;
  const ascii = !wide || !NON_ASCII.test(text);
  if (!ascii) text = asciiDigits(text);
  // "三万円" is JPY 30000: a number in kanji before a currency or a counter is written in digits.
  if (!ascii && MAY_HAVE_KANJI_NUMBER().test(text)) text = text.replace(KANJI_NUMBER(), kanjiNumberValue);
  if (!MAY_HAVE_FACTS.test(text)) return [];
  // Line endings are formatting (docs/meaning.md, "Formatting"): a list written with \r line endings is still a list.
  if (text.includes('\r')) text = text.replace(CARRIAGE_RETURNS, '\n');
  // A list's numbering is formatting; a lone "30." line is not a list, and its 30 is a fact.
  text = stripListMarkers(text, true);
  // A Markdown link whose text is its own address ([a@b.example](mailto:a@b.example)) states it once.
  if (text.includes('](')) text = text.replace(SELF_LINK, (link, shown: string, target: string) => (target === shown || target === `mailto:${shown}` ? shown : link));
  if (text.includes('*') || text.includes('_')) text = text.replace(EMPHASIS_AFTER_CURRENCY(), '$1').replace(EMPHASIS_BEFORE_CURRENCY(), '$1');
  const out: Fact[] = [];
  const patterns = ascii ? patternsOf().ascii : patternsOf().unicode;
  if (MAY_HAVE_SPACED_THOUSANDS().test(text)) text = text.replace(patterns.spacedThousands, (_m, first: string, groups: string, decimals?: string) => first + groups.replace(/ /g, '') + (decimals === undefined ? '' : `.${decimals}`));
  // "3万円" is JPY 30000: a multiplier in kanji or hangul is written out before the facts are read.
  if (!ascii && MAY_HAVE_MULTIPLIER.test(text)) text = text.replace(MULTIPLIED(), multipliedValue);
  // The text as written, before the facts below are blanked out of it (each blank keeps its
  // length): a hyphen right after an amount's or a time's digit joins a range ("$40-50"), it is no
  // minus of the number after it (docs/meaning.md, "Facts").
  const written = text;
  // "1,500" is 1500 or 1.5 by the language: asked of the reply once, where it writes one (writtenAsEnglish).
  let english: boolean | undefined;
  const asEnglish = (): boolean => (english ??= writtenAsEnglish(written));
  // `codes`: the amount's currencies, known; a currency only comma-thousands countries write ("MX$1,500") reads "1,500" as 1500 in any reply.
  const amountNumerals = (numeral: string, codes?: readonly string[]): string[] =>
    isCommaThousands(numeral) && !(codes !== undefined && codes.every(isCommaThousandsCurrency)) && !asEnglish() ? [numeral] : amountNumbersOf(numeral);

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
      const ambiguous = AMBIGUOUS_SIGNS[currency];
      const iso = SIGN_CODES[currency] ?? currency;
      const numeral = n1 ?? n2 ?? '';
      // "1500,505 €" may be EUR 1500.505 or, as it was read, EUR 1500 and the number 505, as "1500,505" may (joinedGroupFact).
      if (isJoinedCommaGroup(numeral)) {
        out.push(joinedAmountFact(ambiguous ?? codeReading(iso), `${(s1 ?? s2 ?? s3 ?? s4) === undefined ? '' : '-'}${numeral}`, post !== undefined));
        return blank(raw.length);
      }
      const [amount = '', ...rest] = amountNumerals(numeral, ambiguous?.codes ?? [iso]);
      // The sign is part of the amount (docs/meaning.md, "Facts"): "-$50" is not "$50". A zero has none.
      const minus = (s1 ?? s2 ?? s3 ?? s4) !== undefined && /[1-9]/.test(amount) ? '-' : '';
      // "1.500 €" may be EUR 1500 or, as written, EUR 1.500, and "1,500 €" EUR 1500 or EUR 1.5 (twoReadings).
      out.push(ambiguous !== undefined ? readingFact(ambiguous, `${minus}${amount}`) : TWO_READINGS.test(amount) ? readingFact(codeReading(iso), `${minus}${amount}`) : { kind: 'amount', value: `${iso} ${minus}${amount}` });
      for (const n of rest) out.push({ kind: 'number', value: n });
      return blank(raw.length);
    });
  }
  if (MAY_HAVE_WORD_AMOUNT.test(text)) {
    // The groups by position, as for the amounts above; `at` is where the match starts.
    text = text.replace(
      patterns.wordAmount,
      (raw: string, sign: string | undefined, numeral: string, between: string, before: string | undefined, word: string, after: string | undefined, part: string | undefined, partWord: string | undefined, p: string | undefined, bare: string | undefined, at: number) => {
        // After the word, "sterling" or a peso's country in Spanish ("pesos mexicanos"), read as English writes it before ("Mexican pesos").
        const spanish = after === undefined || after.toLowerCase() === 'sterling' ? undefined : SPANISH_PESOS[after.toLowerCase().replace(/os?$/, '')];
        const qualifier = spanish === undefined ? before : before === undefined ? spanish : `${before} ${spanish}`;
        const sterling = spanish === undefined ? after : undefined;
        // "pounds" is a weight after a weight's word ("a parcel of 3 pounds"), before "of" ("3 pounds of flour"), or joined by a hyphen ("a 3-pound bag").
        const weight = (): boolean => between === '-' || WEIGHT_AFTER.test(written.slice(at + raw.length, at + raw.length + 8)) || WEIGHT_BEFORE.test(written.slice(Math.max(0, at - 60), at));
        const reading = wordReading(word, qualifier, sterling, weight);
        if (reading === undefined) return raw;
        const pence = p !== undefined || partWord?.toLowerCase() === 'pence';
        // The hundredths join a whole number of their currency: cents a currency whose hundredth is a
        // cent, pence pounds, two digits alone either. Otherwise cents and pence are read as "3 cents"
        // and "3 pence" alone are, and two digits alone are a number.
        const pounds = reading.codes.length === 1 && reading.codes[0] === 'GBP';
        const cents = reading.number === undefined && reading.codes.every((c) => CENT_CURRENCIES.has(c));
        const hundredths = part ?? bare;
        const joinsTo = (whole: string): boolean => hundredths !== undefined && WHOLE.test(whole) && (bare !== undefined ? pounds || cents : pence ? pounds : cents);
        let joins = false;
        let joinsInList = false;
        // "1500,505 euros" may be EUR 1500.505 (joinedAmountFact): hundredths after it ("1500,505
        // euros 50") join nothing, as after a decimal, and are read alone, or join 505 where it is
        // read as two numbers, 1500 and EUR 505.5; "1500,505 cents" is read as before.
        if (reading.cents !== true && isJoinedCommaGroup(numeral)) {
          const last = numeral.slice(numeral.indexOf(',') + 1);
          joinsInList = joinsTo(last);
          const joined = joinsInList ? readingFact(pounds ? GBP : reading, canonicalDecimal(last, (hundredths as string).padStart(2, '0'))) : undefined;
          out.push(joinedAmountFact(reading, `${sign === undefined ? '' : '-'}${numeral}`, true, joined));
        } else {
          const [whole = '', ...rest] = amountNumerals(numeral, reading.number === true ? undefined : reading.codes);
          joins = joinsTo(whole);
          const amount = joins ? canonicalDecimal(whole, (hundredths as string).padStart(2, '0')) : whole;
          // "3 pounds and 50 pence" is money: GBP 3.5, no longer the number 3 that "3 pounds" alone may be.
          out.push(readingFact(joins && pounds ? GBP : reading, `${sign !== undefined && /[1-9]/.test(amount) ? '-' : ''}${amount}`));
          for (const n of rest) out.push({ kind: 'number', value: n });
        }
        const owner = out[out.length - 1] as Fact;
        if (!joins && part !== undefined) out.push(readingFact(pence ? PENCE : CENTS, canonicalDecimal(part, '')));
        if (!joins && bare !== undefined) pushNumbers(bare, false, out, asEnglish);
        if (joinsInList) {
          // A fact of its own, not the one readingFact keeps for every "50 cents" (joinedHundredths names it).
          const alone: Fact = { ...(out.pop() as Fact) };
          joinedHundredths.set(owner, alone);
          out.push(alone);
        }
        return blank(raw.length);
      },
    );
  }
  if (MAY_HAVE_SMALL_CHANGE.test(text)) {
    text = text.replace(patterns.smallChange, (raw: string, sign: string | undefined, numeral: string, cent: string | undefined) => {
      // "1,500p" is 1500 pence only where the reply writes numbers as English does, as "1,500" is.
      const [amount = '', ...rest] = amountNumerals(numeral);
      out.push(readingFact(cent === undefined ? PENCE : CENTS, `${sign !== undefined && /[1-9]/.test(amount) ? '-' : ''}${amount}`));
      for (const n of rest) out.push({ kind: 'number', value: n });
      return blank(raw.length);
    });
  }
  if (text.includes('Rs')) {
    text = text.replace(patterns.rupeesBefore, (raw: string, numeral: string) => {
      if (isJoinedCommaGroup(numeral)) {
        out.push(joinedAmountFact(RUPEES, numeral, false));
        return blank(raw.length);
      }
      const [amount = '', ...rest] = amountNumerals(numeral);
      out.push(readingFact(RUPEES, amount));
      for (const n of rest) out.push({ kind: 'number', value: n });
      return blank(raw.length);
    });
  }
  if (!ascii && MAY_HAVE_LOCAL_WORD_AMOUNT.test(text)) {
    text = text.replace(patterns.localWordAmount, (raw: string, sign: string | undefined, numeral: string, word: string) => {
      if (isJoinedCommaGroup(numeral)) {
        out.push(joinedAmountFact(localWordReading(word), `${sign === undefined ? '' : '-'}${numeral}`, true));
        return blank(raw.length);
      }
      const [amount = '', ...rest] = amountNumerals(numeral);
      out.push(readingFact(localWordReading(word), `${sign !== undefined && /[1-9]/.test(amount) ? '-' : ''}${amount}`));
      for (const n of rest) out.push({ kind: 'number', value: n });
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
  if (MAY_HAVE_LETTER_AMOUNT.test(text)) {
    text = text.replace(patterns.letterAmount, (raw: string, s1?: string, before?: string, s2?: string, tight?: string, n1?: string, s3?: string, n2?: string, after?: string) => {
      const letters = (before ?? after ?? '').replace('.', '');
      const reading = ((before !== undefined ? LETTER_READINGS_BEFORE[letters] : undefined) ?? LETTER_READINGS[letters]) as Reading;
      const numeral = n1 ?? n2 ?? '';
      // "1500,505 Kč" may be CZK 1500.505 (joinedAmountFact).
      if (isJoinedCommaGroup(numeral)) {
        out.push(joinedAmountFact(reading, `${(s1 ?? s2 ?? tight ?? s3) === undefined ? '' : '-'}${numeral}`, after !== undefined));
        return blank(raw.length);
      }
      const [amount = '', ...rest] = amountNumerals(numeral);
      // Several numbers are a version or a list, no amount: "R 4.3.1" is R the language's version (docs/meaning.md, "Facts").
      if (rest.length > 0) return raw;
      const minus = (s1 ?? s2 ?? tight ?? s3) !== undefined && /[1-9]/.test(amount) ? '-' : '';
      out.push(readingFact(reading, `${minus}${amount}`));
      return blank(raw.length);
    });
  }
  // Where a lone group read with the run before it ends ("1 500": spacedGroupEnd); the runs before it are read.
  let read = 0;
  for (const run of runsWithDigits(text)) {
    if (run.start < read) continue;
    const before = run.start === 0 ? '' : text[run.start - 1];
    const sign = isMinus(before) && (run.start < 2 || !LETTER_OR_DIGIT().test(written[run.start - 2] as string)) ? '-' : '';
    const piece = text.slice(run.start, run.end);
    const groupEnd = spacedGroupEnd(text, run.start, run.end);
    if (groupEnd !== -1) {
      out.push(spacedGroupFact(`${sign}${piece}`, text.slice(run.end + 1, groupEnd)));
      read = groupEnd;
      continue;
    }
    // "12.07." (a point after the day and after the month, no year) is a date, as German writes one:
    // its numbers, as "12.07.2026" is. A dash after another date's point joins a range ("12.07.–15.07.").
    // With one digit for each ("3.2.") it is a date only after a date word ("am 1.5.") or in a range
    // ("1.5.–3.5."): "Version 3.2." is a version.
    const ranged = sign !== '' && written[run.start - 2] === '.';
    const date = (sign === '' || ranged) && text[run.end] === '.' && !isDigit(text[run.end + 1]) ? DAY_MONTH.exec(piece) : null;
    const dated = date !== null && (piece.length > 3 || ranged || isMinus(text[run.end + 1]) || dateWordNear(written, run.start, run.end));
    if (date !== null && dated && !asEnglish()) {
      for (const n of date.slice(1)) out.push({ kind: 'number', value: canonicalDecimal(n as string, '') });
    } else runFacts(piece, sign, out, asEnglish);
  }
  return out;
}

/**
 * "1 500": one to three digits, a plain space and one group of three digits, with a comma and its
 * digits after it or none ("1 500,50", "1 500,505", "1 500,5050"), no other group, digit or letter right
 * before or after it ("1 500 pièces", not "2 500g" or "1 500 000").
 * French, the Nordic languages, Polish or Czech write 1500 so, and English may write two numbers
 * so ("page 1 500 words"): where the group ends, to be read as one fact that may be either
 * (spacedGroupFact), or -1. Plain character tests: it is asked of every run of digits.
 */
function spacedGroupEnd(text: string, start: number, end: number): number {
  if (end - start > 3 || text[end] !== ' ' || text[start] === '0') return -1;
  for (let i = start; i < end; i++) if (!isDigit(text[i])) return -1;
  if (!(isDigit(text[end + 1]) && isDigit(text[end + 2]) && isDigit(text[end + 3]))) return -1;
  let after = end + 4;
  // A comma and its digits after the group ("1 500,50 pièces", "1 500,505 kg", "1 500,5050 kg") end it too.
  if (text[after] === ',' && isDigit(text[after + 1])) for (after += 2; isDigit(text[after]); ) after++;
  const next = text[after];
  if (isCodeChar(next) || ((next === '.' || next === ',' || next === '-') && isCodeChar(text[after + 1])) || (next === ' ' && isDigit(text[after + 1]))) return -1;
  // Not the second group of a longer run ("12 345 678" that SPACED_THOUSANDS_SOURCE did not join).
  if (text[start - 1] === ' ' && isDigit(text[start - 2])) return -1;
  return after;
}

/**
 * The fact of "1 500" (spacedGroupEnd; `first` with its minus): the number 1500, or as written, so
 * that against "1500" the facts cannot tell (the meaning judge decides), against "1 600" or "1 500"
 * they can, and it is never formatting of "1500" (docs/meaning.md, "Languages and locales"). A
 * comma and three digits after the group ("1 500,505") are decimals where a space separates
 * thousands (1500.505), or the thousands of "500,505" read as a second number (splitSpacedGroup).
 */
function spacedGroupFact(first: string, group: string): Fact {
  // With its decimals ("500,50"): the written number keeps its comma, without the zeros a decimal
  // may end with ("1 500,5"); three digits or more after it are kept as written ("1 500,500" may be 1 and 500500).
  const [whole = '', decimals = ''] = group.split(',');
  const fraction = decimals.length >= 3 ? decimals : canonicalDecimal('0', decimals).slice(2);
  const written = fraction === '' ? `${first} ${whole}` : `${first} ${whole},${fraction}`;
  const value = canonicalDecimal(first + whole, decimals);
  return { kind: 'number', value: written, may: [{ kind: 'number', value }, { kind: 'number', value: written }] };
}

/**
 * "1500,505": four or more digits, a comma and three digits, with no separator between the
 * thousands; or "1,5050", "15000,5050": digits, a comma and four or more digits (no language writes
 * a thousands separator before four digits). Character tests, no pattern: it is asked of every numeral (pushNumbers).
 */
function isJoinedCommaGroup(numeral: string): boolean {
  const comma = numeral.indexOf(',');
  const decimals = numeral.length - comma - 1;
  if (comma < 1 || (decimals === 3 ? comma < 4 : decimals < 4) || numeral[0] === '0') return false;
  for (let i = 0; i < numeral.length; i++) if (i !== comma && !isDigit(numeral[i])) return false;
  return true;
}

/**
 * What "1500,505" (isJoinedCommaGroup; `written` with its minus) may be, as "1 500,505" may
 * (spacedGroupFact): 1500.505 where a comma is the decimal point, or the numbers 1500 and 505 as
 * they were read before (its digit groups: partsOfFact). Named as written; never formatting of
 * "1500.505" (docs/meaning.md, "Languages and locales").
 */
function joinedGroupFact(written: string): Fact {
  const [whole = '', decimals = ''] = written.split(',');
  const fact: Fact = { kind: 'number', value: written, may: [{ kind: 'number', value: canonicalDecimal(whole, decimals) }, { kind: 'number', value: written }] };
  partsOfFact.set(fact, [{ kind: 'number', value: whole.startsWith('-') ? `-${canonicalDecimal(whole.slice(1), '')}` : canonicalDecimal(whole, '') }, { kind: 'number', value: canonicalDecimal(decimals, '') }]);
  return fact;
}

/**
 * What "1500,505 €" (`numeral` with its minus) may be, as "1500,505" may (joinedGroupFact): EUR
 * 1500.505, or the two numbers it was read as before (partsOfFact): with the currency before them
 * ("€1500,505") EUR 1500 and the number 505, after them ("1500,505 €", "1500,505 euros") the number
 * 1500 and EUR 505, or `last` where hundredths join 505 ("1500,505 euros 50": 1500 and EUR 505.5).
 * "1500,505 pounds" the number 1500.505 too, as "3 pounds" may be 3. Named as written, as readingFact names it.
 */
function joinedAmountFact(reading: Reading, numeral: string, after: boolean, last?: Fact): Fact {
  const sign = numeral.startsWith('-') ? '-' : '';
  const [whole = '', decimals = ''] = numeral.slice(sign.length).split(',');
  const value = `${sign}${canonicalDecimal(whole, decimals)}`;
  const written: Fact = reading.number === true ? { kind: 'number', value: numeral } : { kind: 'amount', value: `${reading.label} ${numeral}` };
  const amounts = reading.codes.map((c): Fact => ({ kind: 'amount', value: `${c} ${value}` }));
  const fact: Fact = { ...written, may: reading.number === true ? [{ kind: 'number', value }, ...amounts, written] : [...amounts, written] };
  const first = `${sign}${canonicalDecimal(whole, '')}`;
  const second = canonicalDecimal(decimals, '');
  partsOfFact.set(fact, after ? [{ kind: 'number', value: first }, last ?? readingFact(reading, second)] : [readingFact(reading, first), { kind: 'number', value: second }]);
  return fact;
}

/**
 * Hundredths after "1500,505 euros" that join 505 where it is read as two numbers, 1500 and EUR
 * 505.5 (joinedAmountFact's `last`): by the fact of "1500,505 euros", the fact of its "50", read
 * with it in that reading and no fact of its own (splitSpacedGroups).
 */
const joinedHundredths = new WeakMap<Fact, Fact>();

/** A day and a month with a point between them ("12.07", "1.5"), read as a date where a point follows (factsOf). */
const DAY_MONTH = /^(0?[1-9]|[12][0-9]|3[01])\.(0?[1-9]|1[0-2])$/;
/**
 * The words a date follows in the languages that write "1.5." for the 1st of May, with a capital or
 * none: German "am", "vom", "ab", "bis", "zum", "seit", "den"; Danish and Norwegian "den", "d.",
 * "fra", "til", "innen", "inden", "senest"; Czech and Slovak "od", "do", "dne", "dňa"; Polish
 * "od", "do", "dnia". And the words Finnish writes after it: "alkaen", "asti", "saakka",
 * "mennessä" ("1.5. alkaen"). Swedish and Dutch write a day and a month otherwise ("1/5", "1-5"),
 * so none of theirs. Built on first use (patterns.ts).
 */
const DATE_WORD_BEFORE = onFirstUse(() => /(?:^|[^A-Za-z])(?:[Aa]m|[Vv]om|[Aa]b|[Bb]is|[Zz]um|[Ss]eit|[Dd]en|[Dd]\.|[Ff]ra|[Tt]il|[Ii]nnen|[Ii]nden|[Ss]enest|[Oo]d|[Dd]o|[Dd]ne|[Dd]\u0148a|[Dd]nia)[ \u00a0]$/);
const DATE_WORD_AFTER = onFirstUse(() => /^[ \u00a0](?:alkaen|asti|saakka|menness\u00e4)(?![A-Za-z])/);

/** Is the day and month that ends at `end` (its last point's index) right after a date word, or right before a Finnish one (factsOf)? */
function dateWordNear(text: string, start: number, end: number): boolean {
  return DATE_WORD_BEFORE().test(text.slice(Math.max(0, start - 8), start)) || (text[end + 1] === ' ' || text[end + 1] === '\u00a0' ? DATE_WORD_AFTER().test(text.slice(end + 1, end + 11)) : false);
}

/**
 * The currencies only countries that write "1,500" for 1500 and a decimal point use: the Mexican
 * and the Philippine peso ("MX$1,500", "MXN 1,500", "1,500 Mexican pesos", "₱1,500"), read so in a
 * reply in any language (docs/meaning.md, "Languages and locales"). "pesos" alone is not: Argentina,
 * Chile, Colombia and Uruguay write 1500 "1.500", and "1,500" is 1.5 there.
 */
function isCommaThousandsCurrency(code: string): boolean {
  return code === 'MXN' || code === 'PHP';
}

/** "1,500": COMMA_THOUSANDS, its comma tested first (a numeral's length and one character: the common numeral costs no pattern). */
function isCommaThousands(numeral: string): boolean {
  return numeral.length >= 5 && numeral.length <= 7 && numeral[numeral.length - 4] === ',' && COMMA_THOUSANDS.test(numeral);
}

/** A numeral only a language with a decimal comma writes: "1,5", "2,50", "1,5050", "0,500", "1.500,50", "1.500.000". */
// Each repeated part starts at a numeral's first digit (the lookbehinds), so a long run of groups is scanned once.
const DECIMAL_COMMA_WRITTEN = /\d,(?:\d{1,2}(?!\d)|\d{4})|(?<![\d.,])0,\d|(?<![\d.])\d{1,3}(?:\.\d{3})+,\d|\d\.\d{3}\.\d{3}(?!\d)/;
/** A numeral only English writes: commas between groups of three before a decimal point ("1,500.50"), or two or more ("1,500,000"). */
const ENGLISH_NUMERAL = /(?<![\d,])\d{1,3}(?:,\d{3})+\.\d|\d,\d{3},\d{3}(?!\d)/;
/**
 * Common English words that German, French, Spanish, Italian, Portuguese, Dutch, Polish and the
 * Scandinavian languages do not write ("is", "we", "of", "to", "in", "will", "was", "not", "for" are
 * theirs too), in lower case or with a capital ("It", never "IT").
 */
const ENGLISH_WORD = /\b(?:[Tt]he|[Ii]t|[Aa]nd|[Aa]re|[Yy]ou|[Yy]our|[Oo]ur|[Ww]ith|[Tt]his|[Tt]hat|[Tt]hese|[Hh]ave|[Hh]as|[Ff]rom|[Ww]hich|[Tt]here|[Tt]heir|[Ww]ould|[Cc]ould|[Ss]hould|[Pp]lease)\b/;
/** A Latin letter English does not write ("ä", "é", "ñ", "ł", "ø"): the reply is in another language written with Latin letters. */
const OTHER_LATIN = unicodePattern(String.raw`(?![A-Za-z])\p{sc=Latin}`, 'u');
/** The scripts of languages that write a decimal point and a thousands comma, as English does: Chinese, Japanese, Korean, Thai, Hebrew, Arabic, and India's. */
const POINT_DECIMAL_SCRIPT = unicodePattern(
  String.raw`[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}\p{sc=Hebrew}\p{sc=Arabic}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}]`,
  'u',
);

/**
 * Does a reply write its numbers as English does, "1,500" for 1500 (docs/meaning.md, "Languages and
 * locales")? Not where it writes a decimal comma anywhere ("2,5"); yes where it writes a numeral only
 * English writes ("1,500.50", "1,500,000"), or is in a script whose languages write numbers so
 * (Japanese, Chinese, Korean, Thai, Hebrew, Arabic, Hindi, ...), or writes an English word
 * (ENGLISH_WORD) and no Latin letter English does not write. Asked only of a reply that writes "1,500".
 */
function writtenAsEnglish(text: string): boolean {
  if (DECIMAL_COMMA_WRITTEN.test(text)) return false;
  if (ENGLISH_NUMERAL.test(text)) return true;
  if (NON_ASCII.test(text) && POINT_DECIMAL_SCRIPT().test(text)) return true;
  return ENGLISH_WORD.test(text) && !(NON_ASCII.test(text) && OTHER_LATIN().test(text));
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

function isMinus(c: string | undefined): boolean {
  return c === '-' || c === '\u2212' || c === '\u2013';
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

/**
 * The numbers a numeral says, pushed to `out`; `signed`: its first one has a minus (a zero has none);
 * `english`: whether the reply writes numbers as English does ("1,500" is then 1500, else 1500 or 1.5).
 */
function pushNumbers(numeral: string, signed: boolean, out: Fact[], english: () => boolean): void {
  if (isJoinedCommaGroup(numeral)) {
    out.push(joinedGroupFact(signed ? `-${numeral}` : numeral));
    return;
  }
  if (isCommaThousands(numeral) && !english()) {
    out.push(readingFact(NUMBER, signed ? `-${numeral}` : numeral));
    return;
  }
  const values = numbersOf(numeral);
  for (let i = 0; i < values.length; i++) {
    const n = values[i] as string;
    const value = signed && i === 0 && /[1-9]/.test(n) ? `-${n}` : n;
    // "1.500" may be 1500 or, as written, 1.5 in English (severalFact).
    out.push(values.length === 1 && n.includes('.') && POINT_THOUSANDS.test(n) ? readingFact(NUMBER, value) : { kind: 'number', value });
  }
}

/** The facts of one run of letters, digits and hyphens (`sign`: a minus written right before it; `english`: as pushNumbers). */
function runFacts(run: string, sign: string, out: Fact[], english: () => boolean): void {
  if (!HAS_DIGIT.test(run)) return;
  const numbers = (numeral: string, signed: boolean): void => pushNumbers(numeral, signed, out, english);
  if (!HAS_LETTER().test(run)) {
    const parts = run.split('-');
    for (let i = 0; i < parts.length; i++) pushNumbers(parts[i] as string, i === 0 && sign !== '', out, english);
    return;
  }
  const unit = NUMBER_WITH_UNIT().exec(run);
  if (unit !== null) {
    numbers(unit[1] as string, sign !== '');
    return;
  }
  if (/[.,]/.test(run)) {
    // A version or a sentence without a space ("v1.2.3"): each piece on its own.
    for (const piece of run.split(/[.,]/)) runFacts(piece, '', out, english);
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
 * Do two replies tell the same facts, each written alike (the formatting rung's test: docs/meaning.md,
 * "Formatting")? Stricter than sameFacts: "1,500" that may be 1500 or 1.5 tells what "1500" tells,
 * but is not written as it is, so the two replies are no formatting of each other.
 */
export function sameFactsAsWritten(a: string | readonly Fact[], b: readonly Fact[]): boolean {
  const facts = typeof a === 'string' ? factsOf(a) : a;
  return noFactsDiffer(compareExact(facts, b)) && noFactsDiffer(compareFacts(facts, b));
}

/**
 * The two multisets' differences, each in the order of its reply; both empty when the facts are the same.
 * A fact of `now` that the baseline has too is matched from the end, so that the extra ones of a
 * value in `now` are its first ones. A fact that may be several (`may`: "3 pounds" is the number 3
 * or GBP 3) is matched to one fact of the other side that it may be, each fact used once
 * (matchAmbiguous); the difference names it by its `value`, without `may`.
 */
export function compareFacts(baseline: readonly Fact[], now: readonly Fact[]): FactsDifference {
  if (!(baseline.some(isAmbiguous) || now.some(isAmbiguous))) return compareExact(baseline, now);
  // Most replies with "$5" in them tell the facts of their baseline, in its order or another: they
  // pair up at once, at any size, and skip the search.
  if (pairUp(baseline, now)) return { baseline: [], now: [] };
  const diff = splitSpacedGroups(matchAmbiguous(baseline, now));
  return { baseline: diff.baseline.map(plain), now: diff.now.map(plain) };
}

/** A fact as a difference names it: its kind and value, without what it may be. */
const plain = (f: Fact): Fact => (f.may === undefined ? f : { kind: f.kind, value: f.value });

/** A fact of "1 500" (spacedGroupFact): a number whose value holds its space. */
const isSpacedGroup = (f: Fact): boolean => f.kind === 'number' && f.value.includes(' ');

/**
 * The facts a fact that may be several numbers is, read so, kept where it is made: "1500,505"
 * (joinedGroupFact) the numbers 1500 and 505, "1500,505 €" EUR 1500 and the number 505.
 */
const partsOfFact = new WeakMap<Fact, readonly Fact[]>();
/** Is `f` a fact that may be several numbers (splitSpacedGroups)? */
const hasParts = (f: Fact): boolean => isSpacedGroup(f) || partsOfFact.has(f);

/**
 * "1 500" (spacedGroupFact) read as two numbers, 1 and 500: "1 500,5" as 1 and 500.5, "1 500,505"
 * as 1 and "500,505", which may be 500505 or 500.505 as a lone "500,505" may (pushNumbers), and
 * "1 500,5050" as 1 and "500,5050", which may be 500.505 or 500 and 5050 (joinedGroupFact).
 */
function splitSpacedGroup(f: Fact): Fact[] {
  const [first = '', group = ''] = f.value.split(' ');
  const [whole = '', decimals = ''] = group.split(',');
  const second = decimals.length === 3 ? readingFact(NUMBER, group) : decimals.length > 3 ? joinedGroupFact(group) : { kind: 'number' as const, value: canonicalDecimal(whole, decimals) };
  return [{ kind: 'number', value: first }, second];
}

/**
 * A difference that names "1 500" (spacedGroupFact), where "1 500" read as the two numbers 1 and 500
 * leaves nothing that differs ("page 1 500 words" against "page 1: 500 words"; so "1500,505", read
 * as 1500 and 505, against "1500, 505": partsOfFact): none, for the facts
 * cannot tell (the meaning judge decides; never formatting, as "1 500" is not written as "1" and "500").
 * Any other difference as it is. The difference's facts keep what they may be ("500,505" against "500.505").
 */
function splitSpacedGroups(diff: FactsDifference): FactsDifference {
  if (!(diff.baseline.some(hasParts) || diff.now.some(hasParts))) return diff;
  const baseline: Fact[] = [];
  const now: Fact[] = [];
  splitInto(diff.baseline, baseline, now);
  splitInto(diff.now, now, baseline);
  // No spaced group is left to split: compareFacts reads the split facts once.
  return noFactsDiffer(compareFacts(baseline, now)) ? { baseline: [], now: [] } : diff;
}

/**
 * The facts of one side of a difference, read as their parts (splitSpacedGroups), pushed to `out`.
 * Hundredths read with the last part ("1500,505 euros 50": joinedHundredths) are no fact of their
 * own; where they are not in the difference they were matched to a fact of the other reply, which
 * this reading leaves over: pushed to `other`.
 */
function splitInto(facts: readonly Fact[], out: Fact[], other: Fact[]): void {
  let joined: Set<Fact> | undefined;
  for (const f of facts) {
    const h = joinedHundredths.get(f);
    if (h !== undefined) (joined ??= new Set()).add(h);
  }
  for (const f of facts) {
    if (joined?.delete(f) === true) continue;
    out.push(...(partsOfFact.get(f) ?? (isSpacedGroup(f) ? splitSpacedGroup(f) : [f])));
  }
  if (joined !== undefined) other.push(...joined);
}

const isAmbiguous = (f: Fact): boolean => f.may !== undefined;

/** The first fact a fact may be ("$5": USD 5, "5 dollars": USD 5, "3 pounds": the number 3); a fact that is one fact, itself. */
const firstReading = (f: Fact): Fact => f.may?.[0] ?? f;

/**
 * Whether the facts of each side pair up, each with one of the other side's whose first reading is
 * equal: then they are a matching of them all (two facts that may both be one fact may be the same),
 * and nothing differs. Pairwise for a few facts, by counting keys for many (as compareExact). False
 * says only that the search must decide.
 */
function pairUp(baseline: readonly Fact[], now: readonly Fact[]): boolean {
  if (baseline.length !== now.length) return false;
  if (baseline.length * now.length <= 1024) {
    const used = new Array<boolean>(now.length).fill(false);
    for (const f of baseline) {
      const a = firstReading(f);
      let j = now.length - 1;
      for (; j >= 0; j--) {
        const b = firstReading(now[j] as Fact);
        if (!used[j] && b.value === a.value && b.kind === a.kind) break;
      }
      if (j < 0) return false;
      used[j] = true;
    }
    return true;
  }
  const counts = new Map<string, number>();
  for (const g of now) {
    const k = keyOf(firstReading(g));
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  for (const f of baseline) {
    const k = keyOf(firstReading(f));
    const n = counts.get(k) ?? 0;
    if (n === 0) return false;
    counts.set(k, n - 1);
  }
  return true;
}

function compareExact(baseline: readonly Fact[], now: readonly Fact[]): FactsDifference {
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

/** The steps the matching of facts that may be several may take: a base, and this many per fact (a hostile reply's facts are compared in bounded time). */
const MATCH_STEPS_BASE = 4096;
const MATCH_STEPS_PER_FACT = 64;

/** Facts of one side not matched yet that may be the same facts: one group for every "5 pounds" of a reply. */
interface Group {
  /** The keys of the facts each member may be. */
  atoms: string[];
  /** The indices of its facts, in the reply's order. */
  members: number[];
  /** How many of them are not matched yet. */
  left: number;
  /** A group of `now`: how many of its facts each group of the baseline is matched to (made on the first). */
  from: Map<number, number> | undefined;
}

/** What a fact that may be several may be, as keys, and the key of a group of such facts. */
interface Atoms {
  atoms: string[];
  key: string;
}
/** Built once for each such fact: readingFact makes one for each reading and amount, shared by every reply that writes it. */
const atomsOfFact = new WeakMap<Fact, Atoms>();

function atomsOf(f: Fact, may: readonly Fact[]): Atoms {
  let made = atomsOfFact.get(f);
  if (made === undefined) {
    const atoms = may.map(keyOf);
    severalFactsWork.keys += atoms.length;
    made = { atoms, key: atoms.join('\u0001') };
    atomsOfFact.set(f, made);
  }
  return made;
}

/**
 * The facts not matched yet, grouped by what they may be: a fact that is one fact by its key, one
 * that may be several by itself (readingFact shares one for each amount), then by its keys (atomsOf).
 */
function groupsOf(facts: readonly Fact[], matched: readonly boolean[]): Group[] {
  const groups = new Map<string, Group>();
  const byFact = new Map<Fact, Group>();
  for (let i = 0; i < facts.length; i++) {
    if (matched[i]) continue;
    const f = facts[i] as Fact;
    let g = f.may === undefined ? undefined : byFact.get(f);
    if (g === undefined) {
      const single = f.may === undefined ? keyOf(f) : undefined;
      const { atoms, key } = single !== undefined ? { atoms: [single], key: single } : atomsOf(f, f.may as readonly Fact[]);
      g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { atoms, members: [], left: 0, from: undefined }));
      if (single === undefined) byFact.set(f, g);
    }
    g.members.push(i);
    g.left++;
  }
  return [...groups.values()];
}

/**
 * compareFacts where some facts may be several: a largest matching of the baseline's facts to the
 * reply's, each to one of the other side that shares a fact it may be. A fact that is one fact is
 * first matched to an equal one, from the end as compareExact does (some largest matching holds
 * that pair). The others are grouped by what they may be, and matched group to group by augmenting
 * paths (a breadth-first search from a baseline group through the reply's groups it may be and
 * back through what they are matched to), each path carrying as many facts as it can. The search
 * is bounded (MATCH_STEPS_*): past it, what is not matched yet is a difference, as the rule errs on
 * the side of a change (docs/meaning.md, "Facts").
 */
function matchAmbiguous(baseline: readonly Fact[], now: readonly Fact[]): FactsDifference {
  const matchedBaseline = new Array<boolean>(baseline.length).fill(false);
  const matchedNow = new Array<boolean>(now.length).fill(false);
  const single = new Map<string, number[]>();
  for (let j = 0; j < now.length; j++) {
    const g = now[j] as Fact;
    if (g.may !== undefined) continue;
    const key = keyOf(g);
    const list = single.get(key);
    if (list === undefined) single.set(key, [j]);
    else list.push(j);
  }
  for (let i = 0; i < baseline.length; i++) {
    const f = baseline[i] as Fact;
    if (f.may !== undefined) continue;
    const j = single.get(keyOf(f))?.pop();
    if (j === undefined) continue;
    matchedBaseline[i] = true;
    matchedNow[j] = true;
  }
  const left = groupsOf(baseline, matchedBaseline);
  const right = groupsOf(now, matchedNow);
  if (left.length > 0 && right.length > 0) augment(left, right, MATCH_STEPS_BASE + MATCH_STEPS_PER_FACT * (baseline.length + now.length));
  // The baseline's first facts of a group are the matched ones, the reply's last ones (as compareExact).
  for (const g of left) for (const i of g.members.slice(0, g.members.length - g.left)) matchedBaseline[i] = true;
  for (const g of right) for (const j of g.members.slice(g.left)) matchedNow[j] = true;
  return { baseline: baseline.filter((_, i) => !matchedBaseline[i]), now: now.filter((_, j) => !matchedNow[j]) };
}

/** Matches `left` (the baseline's groups) to `right` (the reply's) as far as `steps` allow: `left` and `from` say what is matched. */
function augment(left: Group[], right: Group[], steps: number): void {
  const byAtom = new Map<string, number[]>();
  for (let r = 0; r < right.length; r++) {
    for (const atom of (right[r] as Group).atoms) {
      const list = byAtom.get(atom);
      if (list === undefined) byAtom.set(atom, [r]);
      else list.push(r);
    }
  }
  // Per search: where each group was reached from (its stamp says whether it was, in this search).
  const seenLeft = new Int32Array(left.length).fill(-1);
  const seenRight = new Int32Array(right.length).fill(-1);
  const parentOfRight = new Int32Array(right.length);
  const parentOfLeft = new Int32Array(left.length);
  const queue = new Int32Array(left.length);
  const none: number[] = [];
  let stamp = 0;
  for (let s = 0; s < left.length; s++) {
    const source = left[s] as Group;
    while (source.left > 0) {
      stamp++;
      seenLeft[s] = stamp;
      queue[0] = s;
      let tail = 1;
      let found = -1;
      for (let head = 0; head < tail && found === -1; head++) {
        const l = queue[head] as number;
        for (const atom of (left[l] as Group).atoms) {
          for (const r of byAtom.get(atom) ?? none) {
            if (--steps < 0) return;
            if (seenRight[r] === stamp) continue;
            seenRight[r] = stamp;
            parentOfRight[r] = l;
            const g = right[r] as Group;
            if (g.left > 0) {
              found = r;
              break;
            }
            for (const [l2, n] of g.from ?? []) {
              if (--steps < 0) return;
              if (n > 0 && seenLeft[l2] !== stamp) {
                seenLeft[l2] = stamp;
                parentOfLeft[l2] = r;
                queue[tail++] = l2;
              }
            }
          }
          if (found !== -1) break;
        }
      }
      if (found === -1) break;
      // The path: s -> r1 <- l1 -> r2 ... -> found. As many facts as its narrowest step carries.
      let carried = Math.min(source.left, (right[found] as Group).left);
      for (let r = found, l = parentOfRight[r] as number; l !== s; r = parentOfLeft[l] as number, l = parentOfRight[r] as number) {
        carried = Math.min(carried, (right[parentOfLeft[l] as number] as Group).from?.get(l) ?? 0);
      }
      for (let r = found, l = parentOfRight[r] as number; ; r = parentOfLeft[l] as number, l = parentOfRight[r] as number) {
        shift(right[r] as Group, l, carried);
        if (l === s) break;
        shift(right[parentOfLeft[l] as number] as Group, l, -carried);
      }
      source.left -= carried;
      (right[found] as Group).left -= carried;
    }
  }
}

/** `n` more (or fewer) of group `l`'s facts matched to `g`'s. */
function shift(g: Group, l: number, n: number): void {
  const from = (g.from ??= new Map());
  const m = (from.get(l) ?? 0) + n;
  if (m === 0) from.delete(l);
  else from.set(l, m);
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
  return listAndMore(values, MAX_VALUES, (v) => (v.length > MAX_VALUE_CHARS ? `${headOf(v, MAX_VALUE_CHARS - 1)}\u2026` : v));
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
