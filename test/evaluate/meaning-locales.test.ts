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

/**
 * `base` against each of `same`: the meaning judge decides between its readings (unchecked with
 * meaning.check: facts); against each key of `changed`: changed, with its detail; against itself
 * with "!" for its last point: formatting.
 */
function judgedBetweenReadings(base: string, same: readonly string[], changed: Record<string, string>): void {
  for (const other of same) expect([other, decided(base, other), decided(base, other, 'facts')]).toEqual([other, 'judge', 'unchecked: the facts are the same and meaning.check is facts, which asks no model']);
  for (const [other, detail] of Object.entries(changed)) expect([other, decided(base, other)]).toEqual([other, `changed: ${detail}`]);
  expect(decided(base, base.replace(/\.$/, ' !'))).toBe('formatting');
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
    // The meaning judge decides the wording ("formatting" where only the separators differ).
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

  it('one group of three after a plain space with no currency after it may be 1500 or two numbers: named as written, never formatting of "1500"', () => {
    expect(facts('Wir haben 2 500 Gäste und 3 500 bei uns.')).toEqual(['number 2 500', 'number 3 500']);
    expect(facts('Es kostet 2 500 lei.')).toEqual(['amount lei 2500']);
    // "lei" and "leu" are read in either case of their first letter, and no other word ending so is ("bei").
    expect(facts('Es kostet 2 500 Lei, 3 500 bei uns.')).toEqual(['amount lei 2500', 'number 3 500']);
    // A unit joined to the group, a third group or a digit after it: as before; a decimal comma: "1 500" with it (below).
    expect(facts('Il faut 2 500g et 1 500,5 l.')).toEqual(['number 2', 'number 500', 'number 1 500,5']);
    expect(facts('Appelez le 555 123 4567.')).toEqual(['number 555', 'number 123', 'number 4567']);
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

describe('"1,500": 1500 in English, 1.5 where a comma is the decimal point', () => {
  it('is 1500 in a reply written as English writes numbers: "1,500" -> "1500" stays formatting', () => {
    expect(facts('The parcel weighs 1,500 kg.')).toEqual(['number 1500']);
    expect(decided('The parcel weighs 1,500 kg.', 'The parcel weighs 1500 kg.')).toBe('formatting');
    // Its other numerals say so too, without a word of English: "1,500.50" and "2,000,000" are written only so.
    expect(decided('Total: 1,500 kg, 2,000,000 units', 'Total: 1500 kg, 2000000 units')).toBe('formatting');
    expect(decided('Total: 1,500 kg, 1,500.50 EUR', 'Total: 1500 kg, 1500.50 EUR')).toBe('formatting');
    expect(decided('It costs €1,500 and ships with your order.', 'It costs €1500 and ships with your order.')).toBe('formatting');
    expect(decided('The parcel weighs 1,500 kg.', 'The parcel weighs 1,600 kg.')).toBe('changed: numbers 1500 → 1600');
  });
  it('may be 1500 or 1.5 elsewhere: never formatting against "1500", the meaning judge decides', () => {
    // A German "1,500 kg" is 1.5 kg to the gram; read as 1500 it was formatting against "1500 kg", a false same.
    expect(facts('Das Paket wiegt 1,500 kg.')).toEqual(['number 1,500']);
    expect(decided('Das Paket wiegt 1,500 kg.', 'Das Paket wiegt 1500 kg.')).toBe('judge');
    expect(decided('Das Paket wiegt 1,500 kg.', 'Das Paket wiegt 1500 kg.', 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided('Das Paket wiegt 1,500 kg.', 'Das Paket wiegt 1,5 kg.')).toBe('judge');
    expect(decided('Das Paket wiegt 1,500 kg.', 'Das Paket wiegt 1,500 kg!')).toBe('formatting');
    expect(decided('Das Paket wiegt 1,500 kg.', 'Das Paket wiegt 2,500 kg.')).toBe('changed: numbers 1,500 → 2,500');
    expect(decided('Das Paket wiegt 1,500 kg.', 'Das Paket wiegt -1,500 kg.')).toBe('changed: numbers 1,500 → -1,500');
    // A German litre of fuel, and an amount in a reply with no English word.
    expect(facts('Der Liter kostet 1,799 €.')).toEqual(['amount EUR 1,799']);
    expect(decided('Der Liter kostet 1,799 €.', 'Der Liter kostet 1799 €.')).toBe('judge');
    expect(decided('Der Liter kostet 1,799 €.', 'Der Liter kostet 1,899 €.')).toBe('changed: amounts EUR 1,799 → EUR 1,899');
    expect(decided('Total: $1,500', 'Total: $1500')).toBe('judge');
  });
  it('is 1500 in an amount of Mexican or Philippine pesos, whose countries write it so, in any language', () => {
    expect(facts('El total es MX$1,500.')).toEqual(['amount MXN 1500']);
    expect(facts('El total es de 1,500 MXN.')).toEqual(['amount MXN 1500']);
    expect(facts('Ang kabuuan ay ₱1,500.')).toEqual(['amount PHP 1500']);
    expect(decided('El total es MX$1,500.', 'El total es MX$1500.')).toBe('formatting');
    expect(decided('El total es MX$1,500.', 'El total es MX$2,500.')).toBe('changed: amounts MXN 1500 → MXN 2500');
    // The country after the word, as Spanish writes it, as before it in English ("1,500 Mexican pesos").
    expect(facts('El total es 1,500 pesos mexicanos.')).toEqual(['amount MXN 1500']);
    expect(facts('El total es 1,500 Pesos Mexicanos y 20 pesos filipinos, 1.500 pesos argentinos, 1 peso chileno.')).toEqual(['amount MXN 1500', 'amount PHP 20', 'amount ARS 1.500', 'amount CLP 1']);
    expect(decided('El total es 1,500 pesos mexicanos.', 'El total es 1500 pesos mexicanos.')).toBe('formatting');
    expect(decided('El total es 1,500 pesos mexicanos.', 'The total is MXN 1,500.')).toBe('judge');
    expect(decided('El total es 1,500 pesos mexicanos.', 'El total es 1,5 pesos mexicanos.')).toBe('changed: amounts MXN 1500 → MXN 1.5');
    expect(decided('Son 50 pesos chilenos.', 'Son 50 pesos mexicanos.')).toBe('changed: amounts CLP 50 → MXN 50');
    // "pesos" alone may be Argentina's, Chile's, Colombia's or Uruguay's, where "1,500" is 1.5: the judge decides.
    expect(facts('El total es de 1,500 pesos.')).toEqual(['amount pesos 1,500']);
    expect(decided('El total es de 1,500 pesos.', 'El total es de 1500 pesos.')).toBe('judge');
    expect(decided('El total es $1,500.', 'El total es $1500.')).toBe('judge');
  });
  it('is no known variant of "1500" either', () => {
    const m = meaningWithoutModel('Das Paket wiegt 1.500 kg.', 'Das Paket wiegt 1,500 kg.', ['Das Paket wiegt 1500 kg.'], 'judge');
    expect(m).toBe('judge');
    expect(meaningWithoutModel('Das Paket wiegt 1.500 kg.', 'Das Paket wiegt 1,500 kg!', ['Das Paket wiegt 1,500 kg.'], 'judge')).toMatchObject({ value: 'variant' });
  });
  it('"1,500p" and "1,500¢" follow the same rule as "1,500"', () => {
    // Pence and cents are each a number too ("50p" may be 50 or GBP 0.5): named as written.
    expect(facts('Kosten: 1,500p')).toEqual(['number 1,500']);
    expect(facts('The cost is 1,500p')).toEqual(['number 1500']);
    expect(decided('Kosten: 1,500p', 'Kosten: 1500p')).toBe('judge');
    expect(decided('Kosten: 1,500¢', 'Kosten: 1500¢')).toBe('judge');
    expect(decided('Kosten: 1,500p', 'Kosten: 2,500p')).toBe('changed: numbers 1,500 → 2,500');
    expect(decided('Kosten: 1,500¢', 'Kosten: 15 $')).toBe('judge');
    expect(decided('The cost is 1,500p', 'The cost is 1500p')).toBe('formatting');
  });
  it('a decimal comma elsewhere in the reply outweighs its English words', () => {
    expect(facts('The parcel weighs 1,500 kg and the box 2,5 kg.')).toEqual(['number 1,500', 'number 2.5']);
    expect(facts('Das Paket: 0,500 kg.')).toEqual(['number 0.5']);
  });
});

describe('a day and a month with a point after each, without a year', () => {
  it('"12.07." is the date, its numbers 12 and 7, not the decimal 12.07', () => {
    expect(facts('Lieferung am 12.07. an Ihre Adresse.')).toEqual(['number 12', 'number 7']);
    expect(facts('Geöffnet vom 12.07.–15.07.')).toEqual(['number 12', 'number 7', 'number 15', 'number 7']);
    expect(decided('Lieferung am 12.07.', 'Lieferung am 12.7.')).toBe('judge');
    expect(decided('Lieferung am 12.07.', 'Lieferung am 13.07.')).toBe('changed: numbers 12 → 13');
  });
  it('in English, or where it can be no day and month, it is the decimal', () => {
    expect(facts('The total is 12.07.')).toEqual(['number 12.07']);
    expect(decided('The total is 12.07.', 'The total is 12.7.')).toBe('changed: numbers 12.07 → 12.7');
    expect(facts('Es sind 45.07. und 12.13.')).toEqual(['number 45.07', 'number 12.13']);
  });
  it('one digit for both the day and the month, with no date word before it, is a version or a decimal', () => {
    expect(facts('Bitte installieren Sie Version 3.2.')).toEqual(['number 3.2']);
    expect(decided('Bitte installieren Sie Version 3.2.', 'Version 3.2 ist installiert.')).not.toMatch(/^changed/);
    expect(decided('Bewertung: 4.5.', 'Bewertung: 5.4.')).toBe('changed: numbers 4.5 → 5.4');
    // A date word before it, or two digits for the day or the month, keeps the date.
    expect(facts('Geöffnet ab 1.5. und am 3.5.')).toEqual(['number 1', 'number 5', 'number 3', 'number 5']);
    expect(facts('Lieferung: 01.5. oder 3.05.')).toEqual(['number 1', 'number 5', 'number 3', 'number 5']);
    expect(facts('Geöffnet 1.5.–3.5.')).toEqual(['number 1', 'number 5', 'number 3', 'number 5']);
    expect(decided('Lieferung am 1.5.', 'Lieferung am 01.05.')).toBe('judge');
    // Known limit (docs/meaning.md): two digits for the month keep the date.
    expect(facts('Bitte installieren Sie Python 3.12.')).toEqual(['number 3', 'number 12']);
  });
});

describe('a day and a month of one digit each after the date words of other languages', () => {
  // Danish and Norwegian, Czech, Slovak, Polish and Finnish write "1.5." for the 1st of May too:
  // after their date words it is a date, so against "01.05." the meaning judge decides (it was
  // the decimal 1.5, and the facts said changed), and against another day it is changed.
  it.each([
    ['Tilbudet gælder fra 1.5. til 3.5.', 'Tilbudet gælder fra 01.05. til 03.05.', 'Tilbudet gælder fra 2.5. til 3.5.'],
    ['Butikken er stengt d. 1.5.', 'Butikken er stengt d. 01.05.', 'Butikken er stengt d. 2.5.'],
    ['Søknaden må sendes innen 1.5.', 'Søknaden må sendes innen 01.05.', 'Søknaden må sendes innen 2.5.'],
    ['Sleva platí od 1.5. do 3.5.', 'Sleva platí od 01.05. do 03.05.', 'Sleva platí od 2.5. do 3.5.'],
    ['Zľava platí dňa 1.5.', 'Zľava platí dňa 01.05.', 'Zľava platí dňa 2.5.'],
    ['Promocja trwa od 1.5. do 3.5.', 'Promocja trwa od 01.05. do 03.05.', 'Promocja trwa od 2.5. do 3.5.'],
    ['Tarjous on voimassa 1.5. alkaen.', 'Tarjous on voimassa 01.05. alkaen.', 'Tarjous on voimassa 2.5. alkaen.'],
    ['Tilaukset 1.5. mennessä.', 'Tilaukset 01.05. mennessä.', 'Tilaukset 2.5. mennessä.'],
  ])('"%s" holds a date', (reply, same, other) => {
    expect(facts(reply).slice(0, 2)).toEqual(['number 1', 'number 5']);
    expect(decided(reply, same)).toBe('judge');
    expect(decided(reply, other)).toBe('changed: numbers 1 → 2');
  });
  it('elsewhere, and in English, one digit each is still a version or a decimal', () => {
    expect(facts('Karakter: 4.5.')).toEqual(['number 4.5']);
    expect(facts('Opdater til version 3.2.')).toEqual(['number 3.2']);
    expect(facts('Please do 4.5.')).toEqual(['number 4.5']);
    expect(facts('Verze 3.2. je nainstalována.')).toEqual(['number 3.2']);
  });
});

describe('digit groups of three with plain spaces or points and nothing after them', () => {
  it('several groups are one number', () => {
    expect(facts('Il y a 1 234 567 habitants.')).toEqual(['number 1234567']);
    expect(facts('Es sind 1.234.567 Einwohner.')).toEqual(['number 1234567']);
    expect(facts('Es sind 1.234.567,5 und 1 234 567,5 Einwohner.')).toEqual(['number 1234567.5', 'number 1234567.5']);
    expect(decided('Es sind 1.234.567 Einwohner.', 'Es sind 1.234.568 Einwohner.')).toBe('changed: numbers 1234567 → 1234568');
  });
  it('an IPv4 address is still its groups', () => {
    expect(facts('Server 192.168.100.200 is up')).toEqual(['number 192', 'number 168', 'number 100', 'number 200']);
  });
  // French, Norwegian, Swedish, Polish and Czech write 1500 with a plain space as often as with a
  // no-break one; English may write two numbers so ("page 1 500 words"). Either way, never a false same.
  it.each([
    ['Il y a 1 500 pièces en stock.', 'Il y a 1500 pièces en stock.', 'Il y a 1 600 pièces en stock.'],
    ['Vi har 1 500 stykker på lager.', 'Vi har 1500 stykker på lager.', 'Vi har 2 500 stykker på lager.'],
    ['Det finns 1 500 exemplar i lager.', 'Det finns 1\u00a0500 exemplar i lager.', 'Det finns 1 050 exemplar i lager.'],
    ['Mamy 1 500 sztuk w magazynie.', 'Mamy 1500 sztuk w magazynie.', 'Mamy 15 sztuk w magazynie.'],
    ['Skladem je 1 500 kusů.', 'Skladem je 1500 kusů.', 'Skladem je -1 500 kusů.'],
  ])('"%s" is 1500 or two numbers: against 1500 the judge decides, against another number it is changed', (reply, same, other) => {
    expect(decided(reply, same)).toBe('judge');
    expect(decided(reply, same, 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided(reply, reply.replace('.', '!'))).toBe('formatting');
    expect(decided(reply, other)).toMatch(/^changed: numbers 1 500 → /);
  });
  it('"1 500" against "1,500", "1.500" and the two numbers 1 and 500', () => {
    expect(decided('Il y a 1 500 pièces.', 'There are 1,500 pieces.')).toBe('judge');
    expect(decided('Il y a 1 500 pièces.', 'Es sind 1.500 Stück.')).toBe('judge');
    // Read as the two numbers 1 and 500, it tells what a rewording that parts them tells: the facts cannot tell.
    expect(decided('Page 1 500 words.', 'Page 1: 500 words.')).toBe('judge');
    expect(decided('Page 1 500 words.', 'Page 1 and 500 words.', 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided('Page 1 500 words.', 'Page 2: 500 words.')).toBe('changed: numbers 1 500 → 2, 500');
  });
  it('"1 500,50" with no currency is read as "1 500" is: 1500.5 or the numbers 1 and 500.5, never a false same', () => {
    expect(facts('Il y a 1 500,50 pièces.')).toEqual(['number 1 500,5']);
    expect(facts('Il y a 1 500,00 pièces, -2 500,5 l, 1 500,5050 et 1 500,5g.')).toEqual(['number 1 500', 'number -2 500,5', 'number 1 500,5050', 'number 1', 'number 500.5']);
    for (const same of ['Il y a 1500,50 pièces.', 'Es sind 1.500,50 Stück.', 'There are 1,500.50 pieces.', 'Il y a 1 et 500,5 pièces.']) expect([same, decided('Il y a 1 500,50 pièces.', same)]).toEqual([same, 'judge']);
    expect(decided('Il y a 1 500,50 pièces.', 'Il y a 1500,50 pièces.', 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided('Il y a 1 500,50 pièces.', 'Il y a 1 500,50 pièces !')).toBe('formatting');
    expect(decided('Il y a 1 500,50 pièces.', 'Il y a 1 600,50 pièces.')).toBe('changed: numbers 1 500,5 → 1 600,5');
    expect(decided('Il y a 1 500,50 pièces.', 'Il y a 1 et 500,6 pièces.')).toBe('changed: numbers 1 500,5 → 1, 500.6');
  });
  it('"1 500,505" (three digits after the comma) may be 1500.505 or the numbers 1 and 500,505: the judge decides between its readings', () => {
    // French writes 1500.505 "1 500,505"; "page 1 500,505 words" is 1 and 500,505 (500505 or 500.505).
    expect(facts('Le colis pèse 1 500,505 kg.')).toEqual(['number 1 500,505']);
    expect(facts('Le colis pèse -1 500,500 kg.')).toEqual(['number -1 500,500']);
    // Where the separators can mean one thing, one number: a no-break space or points before the comma.
    for (const one of ['Le colis pèse 1\u00a0500,505 kg.', 'Le colis pèse 1\u202f500,505 kg.', 'Das Paket wiegt 1.500,505 kg.']) expect(facts(one)).toEqual(['number 1500.505']);
    // Never changed where a reading is the other reply's: the judge decides (unchecked with meaning.check: facts).
    const base = 'Le colis pèse 1 500,505 kg.';
    for (const same of ['Le colis pèse 1\u00a0500,505 kg.', 'Das Paket wiegt 1.500,505 kg.', 'The parcel weighs 1,500.505 kg.', 'The parcel weighs 1500.505 kg.', 'Le colis pèse 1 et 500,505 kg.', 'Le colis pèse 1 et 500.505 kg.']) {
      expect([same, decided(base, same)]).toEqual([same, 'judge']);
    }
    expect(decided(base, 'The parcel weighs 1,500.505 kg.', 'facts')).toBe('unchecked: the facts are the same and meaning.check is facts, which asks no model');
    expect(decided('Page 1 500,505 words.', 'Page 1: 500,505 words.')).toBe('judge');
    expect(decided('Il y a 1 500,500 pièces.', 'Il y a 1 500,5 pièces.')).toBe('judge');
    // Never the same where no reading is the other reply's, though both normalize to "1500505".
    expect(decided(base, 'Le colis pèse 1500505 kg.')).toBe('changed: numbers 1 500,505 → 1500505');
    expect(decided(base, 'Le colis pèse 1 500 505 kg.')).toBe('changed: numbers 1 500,505 → 1500505');
    expect(decided(base, 'Le colis pèse 1 500,506 kg.')).toBe('changed: numbers 1 500,505 → 1 500,506');
    expect(decided(base, 'Le colis pèse 1 et 500,506 kg.')).toBe('changed: numbers 1 500,505 → 1, 500,506');
    // Formatting only where it is written alike.
    expect(decided(base, 'Le colis pèse 1 500,505 kg !')).toBe('formatting');
    expect(decided(base, 'Le colis pèse 1\u00a0500,505 kg !')).toBe('judge');
  });
  it('"1500,505" (no separator before the comma) may be 1500.505 or the numbers 1500 and 505: the judge decides between its readings', () => {
    expect(facts('Le colis pèse 1500,505 kg.')).toEqual(['number 1500,505']);
    expect(facts('Le colis pèse -1500,505 kg, 01500,505 et 15000,5050.')).toEqual(['number -1500,505', 'number 1500', 'number 505', 'number 15000,5050']);
    judgedBetweenReadings(
      'Le colis pèse 1500,505 kg.',
      ['Le colis pèse 1 500,505 kg.', 'Le colis pèse 1\u00a0500,505 kg.', 'Das Paket wiegt 1.500,505 kg.', 'The parcel weighs 1,500.505 kg.', 'The parcel weighs 1500.505 kg.', 'Le colis pèse 1500 et 505 kg.'],
      {
        'Le colis pèse 1500505 kg.': 'numbers 1500,505 → 1500505',
        'Le colis pèse 1500,506 kg.': 'numbers 1500,505 → 1500,506',
        'Le colis pèse -1500,505 kg.': 'numbers 1500,505 → -1500,505',
        'Le colis pèse 1500 et 506 kg.': 'numbers 1500,505 → 1500, 506',
      },
    );
  });
  it('"1 500,505 €" (a plain space before a currency) is one amount, EUR 1500.505, as "1 500,50 €" is; "1 234 567,505" one number', () => {
    expect(facts('Le prix est de 1 500,505 €.')).toEqual(['amount EUR 1500.505']);
    expect(facts('Le prix est de 1 500,505 EUR, 12 500,505 Kč et 1 234 567,505 kg.')).toEqual(['amount EUR 1500.505', 'amount CZK 12500.505', 'number 1234567.505']);
    expect(decided('Le prix est de 1 500,505 €.', 'Le prix est de 1\u00a0500,505 €.')).toBe('formatting');
    expect(decided('Il y a 1 234 567,505 kg.', 'Il y a 1\u00a0234\u00a0567,505 kg.')).toBe('formatting');
    for (const same of ['Der Preis beträgt 1.500,505 €.', 'The price is €1,500.505.']) expect([same, decided('Le prix est de 1 500,505 €.', same)]).toEqual([same, 'judge']);
    expect(decided('Le prix est de 1 500,505 €.', 'Le prix est de 1 500,506 €.')).toBe('changed: amounts EUR 1500.505 → EUR 1500.506');
    // Four decimals or more too ("1 500,5055 €" was 1, EUR 500 and 5055).
    expect(facts('Le prix est de 1 500,5055 €.')).toEqual(['amount EUR 1500.5055']);
  });
  it('"1500,505 €" (no separator before the comma) may be EUR 1500.505 or the number 1500 and EUR 505, as "1500,505" may', () => {
    expect(facts('Le prix est de 1500,505 €, 1500,505 Euro, -1500,505 Kč.')).toEqual(['amount EUR 1500,505', 'amount EUR 1500,505', 'amount CZK -1500,505']);
    expect(facts('Rs 1500,505 और 1500,505 रुपये')).toEqual(['amount rupees 1500,505', 'amount rupees 1500,505']);
    expect(decided('Rs 1500,505', 'Rs 1500.505')).toBe('judge');
    judgedBetweenReadings(
      'Le prix est de 1500,505 €.',
      ['Le prix est de 1 500,505 €.', 'Le prix est de 1\u00a0500,505 €.', 'Der Preis beträgt 1.500,505 €.', 'The price is €1,500.505.', 'Le prix est de 1500 et 505 €.'],
      {
        // The currency after the two numbers is the second one's: "1500 € et 505" was the judge's.
        'Le prix est de 1500 € et 505.': 'numbers none → 505; amounts EUR 1500,505 → EUR 1500',
        'Le prix est de 1500505 €.': 'amounts EUR 1500,505 → EUR 1500505',
        'Le prix est de 1500,506 €.': 'amounts EUR 1500,505 → EUR 1500,506',
        'Le prix est de -1500,505 €.': 'amounts EUR 1500,505 → EUR -1500,505',
        'Le prix est de 1500,505 $.': 'amounts EUR 1500,505 → $ 1500,505',
      },
    );
    expect(decided('It costs $1500,505.', 'It costs $1,500.505.')).toBe('judge');
    expect(decided('Cena 1500,505 Kč.', 'Cena 1 500,505 Kč.')).toBe('judge');
    // Was changed: read as EUR 1500 and 505, "1500 et 505 euros" told the numbers 1500 and EUR 505.
    for (const [base, other] of [
      ['Le prix est de 1500,505 euros.', 'Le prix est de 1500 et 505 euros.'],
      ['Cena 1500,505 Kč.', 'Cena 1500 a 505 Kč.'],
    ]) expect([other, decided(base as string, other as string)]).toEqual([other, 'judge']);
    // A currency before them is the first one's.
    expect(decided('It costs €1500,505.', 'It costs €1500 and 505.')).toBe('judge');
    expect(decided('It costs €1500,505.', 'It costs 1500 and €505.')).toBe('changed: numbers none → 1500; amounts EUR 1500,505 → EUR 505');
  });
  it('hundredths after "1500,505 euros" join nothing, as after a decimal: "1500,505 euros 50" is EUR 1500,505 and 50', () => {
    // They joined 1500, read apart from its 505: "1500,505 euros 50" was EUR 1500.5 and the number 505, a reading no reader has.
    expect(facts('Le total est 1500,505 euros 50.')).toEqual(['amount EUR 1500,505', 'number 50']);
    expect(facts('Le total est 1500,505 euros 50 cents, 1,5050 euros 50 et 1500,505 pounds 50p.')).toEqual(['amount EUR 1500,505', 'number 50', 'amount EUR 1,5050', 'number 1500,505', 'number 50', 'number 50']);
    const base = 'Le total est 1500,505 euros 50.';
    for (const same of ['Le total est 1500,505 € et 50.', 'Le total est 1500.505 € et 50.']) expect([same, decided(base, same)]).toEqual([same, 'judge']);
    // A false same before: both read as EUR 1500.5 and 505.
    expect(decided(base, 'Le total est 1500.5 EUR et 505.')).toBe('changed: numbers 50 → 505; amounts EUR 1500,505 → EUR 1500.5');
    expect(decided(base, 'Le total est 1500,505 euros 51.')).toBe('changed: numbers 50 → 51');
  });
  it('read as two numbers, "1500,505 euros 50" is 1500 and EUR 505.50: against "1500 et 505,50 euros" the judge decides', () => {
    // Was changed: its list reading was EUR 1500 and 505, and its 50 a number of its own.
    const base = 'Le total est 1500,505 euros 50.';
    for (const same of ['Le total est 1500 et 505,50 euros.', 'Le total est 1500 et 505.50 €.']) expect([same, decided(base, same)]).toEqual([same, 'judge']);
    expect(decided('Total: 1500,505 euros and 50 cents.', 'Total: 1500 and 505.50 euros.')).toBe('judge');
    expect(decided('Total: 1500,505 pounds 50p.', 'Total: 1500 and £505.50.')).toBe('judge');
    // Its 50 read with 505 is no fact of its own: a 50 matched in the other reply is left over.
    expect(decided(base, 'Le total est 1500 et 505,50 euros, et 50.')).toBe('changed: numbers none → 1500; amounts EUR 1500,505 → EUR 505.5');
    expect(decided('Le total est 1500,505 euros 50, et 50.', 'Le total est 1500 et 505,50 euros, et 50.')).toBe('judge');
    expect(decided(base, 'Le total est 1500 € et 505,50 €.')).toBe('changed: numbers 50 → none; amounts EUR 1500,505 → EUR 1500, EUR 505.5');
  });
  it('four decimals or more after a decimal comma: "1 234 567,5050" and "1.234.567,5050" are 1234567.505, as "1 234 567,50" is 1234567.5', () => {
    // They were 1234567 and 5050, and 1, 234, 567 and 5050: never what a French or German reader sees.
    expect(facts('Il y a 1 234 567,5050 pièces, 1.234.567,5050 Stück, 1\u00a0234\u00a0567,5050 kg et 1 234 567,50 l.')).toEqual(['number 1234567.505', 'number 1234567.505', 'number 1234567.505', 'number 1234567.5']);
    expect(facts('Le prix est de 1 234 567,5050 €, 1.234,5050 €, 1 500,5050 EUR et 1\u00a0500,5050 €.')).toEqual(['amount EUR 1234567.505', 'amount EUR 1234.505', 'amount EUR 1500.505', 'amount EUR 1500.505']);
    const base = 'Il y a 1 234 567,5050 pièces.';
    for (const same of ['Il y a 1 234 567,505 pièces.', 'Es sind 1.234.567,5050 Stück.', 'It is 1,234,567.505 pieces.']) expect([same, decided(base, same)]).toEqual([same, 'judge']);
    expect(decided(base, 'Il y a 1 234 567,50 pièces.')).toBe('changed: numbers 1234567.505 → 1234567.5');
    // A false same before: read as 1234567 and 5050.
    expect(decided(base, 'Il y a 1234567 et 5050 pièces.')).toBe('changed: numbers 1234567.505 → 1234567, 5050');
    expect(decided('Es sind 1.234.567,5050 Stück.', 'Es sind 1, 234, 567 und 5050 Stück.')).toBe('changed: numbers 1234567.505 → 1, 234, 567, 5050');
  });
  it('"1,5050" and "1 500,5050" (no separator, or a plain space, before the comma) may be 1.505 and 1500.505 or their numbers: the judge decides', () => {
    expect(facts('Es sind 1,5050 Stück, 15000,5050 kg und 1 500,5050 l.')).toEqual(['number 1,5050', 'number 15000,5050', 'number 1 500,5050']);
    // "500,5050" in "1 500,5050" read as two numbers is read as alone: 500.505, or 500 and 5050 (it was 500.505 only).
    expect(decided('Il y a 1 500,5050 pièces.', 'Il y a 1500 et 5050 pièces.')).toBe('changed: numbers 1 500,5050 → 1500, 5050');
    // A reply that writes "1,5050" writes a decimal comma: its "1,500" may be 1.5 (it was 1500, an English numeral).
    expect(facts('The total is 1,5050 and 1,500.')).toEqual(['number 1,5050', 'number 1,500']);
    expect(decided('The total is 1,5050 and 1,500.', 'The total is 1,5050 and 1.5.')).toBe('judge');
    judgedBetweenReadings('Es sind 1,5050 Stück.', ['Es sind 1,505 Stück.', 'Es sind 1.505 Stück.', 'Es sind 1 und 5050 Stück.'], {
      'Es sind 1,5051 Stück.': 'numbers 1,5050 → 1,5051',
      'Es sind 15050 Stück.': 'numbers 1,5050 → 15050',
    });
    judgedBetweenReadings('Il y a 1 500,5050 pièces.', ['Il y a 1500,505 pièces.', 'Il y a 1.500,505 pièces.', 'Il y a 1 et 500,505 pièces.', 'Il y a 1, 500 et 5050 pièces.'], {
      'Il y a 1 500,5051 pièces.': 'numbers 1 500,5050 → 1 500,5051',
      'Il y a 1 500,50 pièces.': 'numbers 1 500,5050 → 1 500,5',
    });
  });
});

describe('multipliers in kanji and hangul, and the currencies of Korea, China and Thailand', () => {
  it('"3万円" is JPY 30000', () => {
    expect(facts('価格は3万円です。')).toEqual(['amount JPY 30000']);
    expect(facts('1万5000円、1億2000万円、1,000万円、3千円、1.5万人')).toEqual(['amount JPY 15000', 'amount JPY 120000000', 'amount JPY 10000000', 'amount JPY 3000', 'number 15000']);
    expect(decided('価格は3万円です。', '価格は30,000円です。')).toBe('judge');
    expect(decided('価格は3万円です。', '価格は3,000円です。')).toBe('changed: amounts JPY 30000 → JPY 3000');
  });
  it('a multiplier before a Han character that is no counter or currency is no multiplier ("3千葉" is 3 and Chiba)', () => {
    expect(facts('3千葉に行きます')).toEqual(['number 3']);
    expect(facts('3千人、5百年、2万件、3千多人、5千ドル')).toEqual(['amount dollars 5000', 'number 3000', 'number 500', 'number 20000', 'number 3000']);
  });
  it.each([
    ['公園には約3千羽のハトがいます。', '公園には約3,000羽のハトがいます。', 'number 3000'],
    ['1日に5千杯のコーヒーを販売しています。', '1日に5,000杯のコーヒーを販売しています。', 'number 5000'],
    ['参加者は3万以上でした。', '参加者は30,000以上でした。', 'number 30000'],
    ['対象は約2万世帯です。', '対象は約20,000世帯です。', 'number 20000'],
    ['仓库里有5千只鸡。', '仓库里有5,000只鸡。', 'number 5000'],
    ['每天卖出3万张票。', '每天卖出30,000张票。', 'number 30000'],
    ['销量在3千左右。', '销量在3,000左右。', 'number 3000'],
  ])('"%s": a multiplier before a common counter or a word of about, over or under is read', (reply, digits, fact) => {
    expect(facts(reply)).toContain(fact);
    expect(decided(reply, digits)).toBe('judge');
  });
  it('a number in kanji before a currency or a counter is its number: "三万円" is JPY 30000', () => {
    expect(facts('価格は三万円です。')).toEqual(['amount JPY 30000']);
    expect(facts('参加者は五百人でした。送料は一万五千円、予算は一億二千万円です。')).toEqual(['amount JPY 15000', 'amount JPY 120000000', 'number 500']);
    expect(facts('二〇二六年と一九九五年に、約千円で。')).toEqual(['amount JPY 1000', 'number 2026', 'number 1995']);
    expect(facts('价格是两千元,共一千零五十个。')).toEqual(['amount 元 2000', 'number 1050']);
    expect(decided('価格は三万円です。', '価格は30,000円です。')).toBe('judge');
    expect(decided('価格は三万円です。', '価格は3万円です。')).toBe('judge');
    expect(decided('価格は三万円です。', '価格は三千円です。')).toBe('changed: amounts JPY 30000 → JPY 3000');
    expect(decided('参加者は五百人でした。', '参加者は500人でした。')).toBe('judge');
    expect(decided('参加者は五百人でした。', '参加者は六百人でした。')).toBe('changed: numbers 500 → 600');
  });
  it('a word written with a numeral is no number: one character alone, a vague count, a numeral not well formed', () => {
    // "十分" is "enough", "一人で" "alone", "関東一円" "all over Kanto", "数万人" "tens of thousands", "四六時中" "all day".
    for (const reply of ['準備は十分です。', '一人で行きます。', '関東一円で販売しています。', '数万人が来ました。', '四六時中働いています。', '第三回の会議です。', '十百円']) {
      expect([reply, facts(reply)]).toEqual([reply, []]);
    }
    expect(decided('準備は十分です。', '準備は大丈夫です。')).toBe('judge');
  });
  it('원 after a number is KRW, 元 the yuan (or the dollar of Taiwan or Hong Kong), บาท THB', () => {
    expect(facts('가격은 3만 원입니다')).toEqual(['amount KRW 30000']);
    expect(facts('가격은 30,000원입니다')).toEqual(['amount KRW 30000']);
    expect(decided('가격은 ₩30,000입니다', '가격은 3만 원입니다')).toBe('judge');
    expect(decided('가격은 ₩30,000입니다', '가격은 3만 5천 원입니다')).toBe('changed: amounts KRW 30000 → KRW 35000');
    expect(facts('价格是100元,或100美元,或100欧元')).toEqual(['amount 元 100', 'amount USD 100', 'amount EUR 100']);
    expect(facts('1月1日元旦,3元素')).toEqual(['number 1', 'number 1', 'number 3']);
    expect(decided('价格是¥100', '价格是100元')).toBe('judge');
    expect(decided('价格是€100', '价格是100元')).toBe('changed: amounts EUR 100 → 元 100');
    expect(facts('ราคา 100 บาท')).toEqual(['amount THB 100']);
    expect(decided('ราคา ฿100', 'ราคา 100 บาท')).toBe('judge');
    expect(decided('ราคา ฿100', 'ราคา 200 บาท')).toBe('changed: amounts THB 100 → THB 200');
  });
});

describe('points that can only separate thousands are formatting', () => {
  it('"1.500,50 €" against "1 500,50 €" is formatting, as "1,500" against "1500" is', () => {
    expect(decided('Der Preis beträgt 1.500,50 €.', 'Der Preis beträgt 1 500,50 €.')).toBe('formatting');
    expect(decided('Der Preis beträgt 1.500,50 €.', 'Der Preis beträgt 1\u00a0500,50 €.')).toBe('formatting');
    expect(decided('Es sind 1.234.567 Einwohner.', 'Es sind 1 234 567 Einwohner.')).toBe('formatting');
    // One point may be a decimal point: not formatting.
    expect(decided('Es sind 1.500 Stück.', 'Es sind 1500 Stück.')).toBe('judge');
    expect(decided('Der Preis beträgt 1.500,50 €.', 'Der Preis beträgt 1.500,05 €.')).toBe('changed: amounts EUR 1500.5 → EUR 1500.05');
  });
});
