// The facts of replies in other languages and locales (docs/meaning.md, "Languages and locales"):
// how a number's separators are read, digits of other scripts, amounts inside text written
// without spaces (Japanese), and dates, each decided at the ladder's rungs without a model.
import { describe, expect, it } from 'vitest';
import { factsOf, meaningWithoutModel } from '../../src/evaluate/meaning/index.js';

/** The facts of a reply as "kind value" strings. */
const facts = (reply: string): string[] => factsOf(reply).map((f) => `${f.kind} ${f.value}`);

/** What the rungs without a model decide: a meaning's value and detail, or 'judge' when only the meaning judge can. */
function decided(baseline: string, now: string, check: 'judge' | 'facts' = 'judge'): string {
  const m = meaningWithoutModel(baseline, now, [], check);
  if (m === 'judge' || m === null) return String(m);
  return m.detail === null ? m.value : `${m.value}: ${m.detail}`;
}

describe('numbers in locale formats', () => {
  // One amount, 1500.50 euros, as German, French (a plain, a no-break or a narrow no-break space
  // between the groups) and English write it: a rewording that keeps it is never changed by the facts.
  const SAME_AMOUNT = [
    'Der Preis beträgt 1.500,50 €.',
    'Le prix est de 1 500,50 €.',
    'Le prix est de 1\u00a0500,50 €.',
    'Le prix est de 1\u202f500,50\u00a0€.',
    'Le prix est de 1 500,50 EUR.',
    'The price is €1,500.50.',
    'The price is EUR 1,500.50.',
  ];
  it.each(SAME_AMOUNT)('%s is EUR 1500.5', (reply) => {
    expect(facts(reply)).toEqual(['amount EUR 1500.5']);
  });
  it('a rewording between the locales that keeps the amount is not changed in meaning', () => {
    // The meaning judge decides the wording ("formatting" where only the spaces differ).
    for (const a of SAME_AMOUNT) for (const b of SAME_AMOUNT) if (a !== b) expect([a, b, ['judge', 'formatting'].includes(decided(a, b))]).toEqual([a, b, true]);
  });

  it('a plain number with points between its groups and a decimal comma is one number, as its amount is', () => {
    expect(facts('Es sind 1.500,50 Stück.')).toEqual(['number 1500.5']);
    expect(facts('Es sind 1.234.567,8 Stück.')).toEqual(['number 1234567.8']);
    for (const other of ['It is 1,500.50 pieces.', 'Il y a 1\u202f500,50 pièces.', 'Es sind 1500,5 Stück.']) expect(decided('Es sind 1.500,50 Stück.', other)).toBe('judge');
    expect(decided('Es sind 1.500,50 Stück.', 'Es sind 1.500,05 Stück.')).toBe('changed: numbers 1500.5 → 1500.05');
  });

  it('Indian digit grouping (lakhs and crores) is one number', () => {
    expect(facts('कीमत ₹1,50,000 है')).toEqual(['amount INR 150000']);
    expect(facts('Population 1,00,00,000 and 12,34,567.5 units')).toEqual(['number 10000000', 'number 1234567.5']);
    expect(decided('कीमत ₹1,50,000 है', 'कीमत ₹150,000 है')).toBe('judge');
    expect(decided('कीमत ₹1,50,000 है', 'कीमत ₹15,000 है')).toBe('changed: amounts INR 150000 → INR 15000');
  });

  it('one point before three last digits may be a thousands separator or a decimal point: never equal to 1,5, never read as the same as 1500', () => {
    // German "1.500" is 1500, English "1.500" is 1.5: which one a reply means is not written. Its
    // written digits are compared: "1500" and "1,500" have them, so the facts cannot tell and the
    // meaning judge decides (with meaning.check: facts, not checked); "1,5" and "1.5" do not: changed.
    expect(facts('Es sind 1.500 Stück.')).toEqual(['number 1.500']);
    expect(decided('Es sind 1.500 Stück.', 'Es sind 1,5 Stück.')).toBe('changed: numbers 1.500 → 1.5');
    expect(decided('Es sind 1.500 Stück.', 'It is 1.5 pieces.')).toBe('changed: numbers 1.500 → 1.5');
    expect(decided('Es kostet 1.500 €.', 'Es kostet 1,5 €.')).toBe('changed: amounts EUR 1.500 → EUR 1.5');
    expect(decided('Es sind 1.500 Stück.', 'Es sind 1500 Stück.')).toBe('judge');
    expect(decided('Es sind 1.500 Stück.', 'It is 1,500 pieces.')).toBe('judge');
    expect(decided('Es sind 1.500 Stück.', 'Es sind 1500 Stück.', 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided('Es kostet 1.500 €.', 'It costs €1,500.')).toBe('judge');
    expect(decided('Es kostet -1.500 €.', 'It costs -€1,500.')).toBe('judge');
    expect(decided('Es kostet 1.500 €.', 'Es kostet 1.500 € und 1.500 €.')).toBe('changed: amounts none → EUR 1.500');
    // With a decimal comma after it, the point is a thousands separator: no longer ambiguous.
    expect(decided('Es kostet 1.500,00 €.', 'It costs €1,500.')).toBe('judge');
  });

  it('a plain space between digit groups with no currency after them still separates two numbers', () => {
    expect(facts('Wir haben 2 500 Gäste und 3 500 bei uns.')).toEqual(['number 2', 'number 500', 'number 3', 'number 500']);
    expect(facts('Es kostet 2 500 lei.')).toEqual(['amount lei 2500']);
    // "lei" and "leu" are read in either case of their first letter, and no other word ending so is ("bei").
    expect(facts('Es kostet 2 500 Lei, 3 500 bei uns.')).toEqual(['amount lei 2500', 'number 3', 'number 500']);
  });
});

describe('digits of other scripts', () => {
  it.each([
    ['返品は30日以内です。', '返品は３０日以内です。'],
    ['الإرجاع خلال 30 يوماً', 'الإرجاع خلال ٣٠ يوماً'],
    ['वापसी 30 दिनों में', 'वापसी ३० दिनों में'],
  ])('%s against %s is the same number, formatting only', (a, b) => {
    expect(facts(b)).toEqual(['number 30']);
    expect(decided(a, b)).toBe('formatting');
  });
  it('a changed number in another script is a change', () => {
    expect(decided('الإرجاع خلال ٣٠ يوماً', 'الإرجاع خلال ١٤ يوماً')).toBe('changed: numbers 30 → 14');
    expect(decided('返品は３０日以内です。', '返品は１４日以内です。')).toBe('changed: numbers 30 → 14');
  });
});

describe('amounts and times inside text written without spaces', () => {
  it('an amount right after a Japanese or Chinese character is an amount', () => {
    expect(facts('価格は¥1,500です。')).toEqual(['amount ¥ 1500']);
    expect(facts('価格は€30です。')).toEqual(['amount EUR 30']);
    expect(facts('合計はUSD 30です')).toEqual(['amount USD 30']);
    expect(facts('受付は6pmまでです')).toEqual(['time 18:00']);
  });
  it('"円" after a number is the yen, as "¥" and "yen" are', () => {
    expect(facts('価格は1,500円です。')).toEqual(['amount JPY 1500']);
    expect(decided('価格は1,500円です。', '価格は¥1,500です。')).toBe('judge');
    expect(decided('価格は¥1,500です。', 'The price is 1500 yen.')).toBe('judge');
    expect(decided('価格は1,500円です。', '価格は€1,500です。')).toBe('changed: amounts JPY 1500 → EUR 1500');
    expect(decided('価格は¥1,500です。', '価格は€1,500です。')).toBe('changed: amounts ¥ 1500 → EUR 1500');
  });
  it("a currency's word in Arabic, Hindi or Japanese after the number makes an amount, as its English word does", () => {
    expect(facts('السعر ١٥٠٠ ريال')).toEqual(['amount riyals 1500']);
    expect(facts('المبلغ 250 ر.س و 30 د.إ')).toEqual(['amount SAR 250', 'amount AED 30']);
    expect(facts('الرسوم ١٠٠ درهماً أو ٥ دنانير أو ٢٠ جنيهاً')).toEqual(['amount dirhams 100', 'amount dinars 5', 'amount junaih 20']);
    expect(facts('कीमत 1,500 रुपये है')).toEqual(['amount rupees 1500']);
    expect(facts('送料は30ドル、または25ユーロです')).toEqual(['amount dollars 30', 'amount EUR 25']);
    for (const [a, b] of [
      ['السعر ١٥٠٠ ريال', 'السعر SAR 1,500'],
      ['السعر ١٥٠٠ ريال', 'السعر ١٥٠٠ ريالاً'],
      ['कीमत ₹1,500 है', 'कीमत 1500 रुपये है'],
      ['送料は$30です', '送料は30ドルです'],
      ['送料は€25です', '送料は25ユーロです'],
    ]) expect([a, b, decided(a as string, b as string)]).toEqual([a, b, 'judge']);
    expect(decided('السعر ١٥٠٠ ريال', 'السعر ١٥٠٠ درهم')).toBe('changed: amounts riyals 1500 → dirhams 1500');
    expect(decided('السعر ١٥٠٠ ريال', 'السعر EUR 1500')).toBe('changed: amounts riyals 1500 → EUR 1500');
  });
  it('a code next to Latin letters is still no amount', () => {
    expect(facts('REF30€')).toEqual(['code REF30']);
  });
});

describe('dates', () => {
  it('a day written in words beside its month is its number', () => {
    expect(decided('Lieferung am 7. Dezember.', 'Lieferung am 8. Dezember.')).toBe('changed: numbers 7 → 8');
    expect(decided('Livraison le 7 décembre.', 'Livraison le 8 décembre.')).toBe('changed: numbers 7 → 8');
    expect(decided('12月7日に配達します。', '12月8日に配達します。')).toBe('changed: numbers 7 → 8');
  });
  it('a numeric date whose day and month swap places is neither same nor changed by the facts: the meaning judge decides', () => {
    // 07/12/2026 is 7 December in Europe and July 12 in the United States: the facts are multisets of numbers.
    expect(decided('Delivery on 07/12/2026.', 'Delivery on 12/07/2026.')).toBe('judge');
    expect(decided('Delivery on 07/12/2026.', 'Delivery on 12/07/2026.', 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided('Lieferung am 07.12.2026.', 'Delivery on 2026-12-07.')).toBe('judge');
  });
});
