// A letter swapped for a look-alike from another script (Cyrillic "а" U+0430 for Latin "a", Greek
// "ο" U+03BF for "o", a fullwidth digit) draws like the letter it imitates: a diff of the two would
// read "changed" with nothing to see, and a new link would read right. Such a letter in a word of
// another script is named by its code, as invisible characters are, and so is a word written
// wholly in look-alikes of the reply's script (`СОРЕ` in Cyrillic in an English reply, from
// Unicode's confusables table); text written wholly in one script (a Russian or a Greek reply)
// shows as written (docs/action.md, "The PR comment").
import { describe, expect, it } from 'vitest';
import { diffText, renderComment, renderTerminal } from '../../src/report/index.js';
import { fixtureData } from '../../src/report/html/data.js';
import { routeText } from '../../src/report/model.js';
import { baseline, ctx, fixture, persona, refundTurns, route, run, turn } from './fixtures.js';
import { allCodeBlocks, githubHtml, visibleText } from './helpers.js';

const CYRILLIC_A = '\u0430';
const GREEK_O = '\u03bf';

function replyChanged(label: string, before: string, after: string) {
  return fixture(label, {
    reply: after,
    verdict: 'pass',
    drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
    baseline: baseline(label, before),
  });
}

describe('look-alike letters in a reply diff', () => {
  it('names a Cyrillic letter in a Latin word: the changed word no longer reads the same on both sides', () => {
    expect(diffText('Pay at paypal.com today.', `Pay at p${CYRILLIC_A}ypal.com today.`)).toBe(['- Pay at ⟦paypal⟧.com today.', '+ Pay at ⟦p⟨U+0430⟩ypal⟧.com today.'].join('\n'));
  });

  it('names a Greek letter, and a fullwidth or mathematical digit among plain ones', () => {
    expect(diffText('Search on google.com.', `Search on g${GREEK_O}ogle.com.`)).toContain('⟦g⟨U+03BF⟩ogle⟧');
    expect(diffText('Call 100 now.', 'Call 1\uff100 now.')).toContain('⟦1⟨U+FF10⟩0⟧');
    expect(diffText('Your code is 123.', 'Your code is \u{1d7cf}23.')).toContain('⟦⟨U+1D7CF⟩23⟧');
  });

  it('names the letters of the other script in a new sentence shown whole (a rewrite), not only in marked words', () => {
    const text = diffText('Contact support.', `Please pay the fee at once at p${CYRILLIC_A}ypal.com/verify to keep your account open.`) as string;
    expect(text).toContain('+ Please pay the fee at once at p⟨U+0430⟩ypal.com/verify');
  });

  it('names the minority by the reply: Cyrillic letters in an English reply, a Latin one in a Russian reply', () => {
    expect(diffText('Pay at paypal.com today.', 'Pay at \u0440\u0430\u0443\u0440\u0430l.com today.')).toContain('⟨U+0440⟩⟨U+0430⟩⟨U+0443⟩⟨U+0440⟩⟨U+0430⟩l.com');
    expect(diffText('Привет, как дела?', 'Приветt, как дела?')).toContain('Привет⟦⟨U+0074⟩⟧');
  });

  it("names a reply's own ⟦ ⟧ ⟨ ⟩ by their codes: a reply cannot write what reads as a look-alike's name or a changed word's edge", () => {
    // Typed by the reply, "⟨U+0430⟩" is six letters and two brackets, not a Cyrillic а.
    const forged = diffText('Pay at paypal.com today.', 'Pay at p⟨U+0430⟩ypal.com today.') as string;
    expect(forged).toBe(['- Pay at ⟦paypal⟧.com today.', '+ Pay at ⟦p⟨U+27E8⟩U+0430⟨U+27E9⟩ypal⟧.com today.'].join('\n'));
    expect(forged).not.toContain('p⟨U+0430⟩ypal');
    // A literal ⟦ ⟧ in unchanged text too: every ⟦ of the diff opens a changed word.
    const marks = diffText('Our ⟦policy⟧ is 30 days.', 'Our ⟦policy⟧ is 14 days.') as string;
    expect(marks).toBe(['- Our ⟨U+27E6⟩policy⟨U+27E7⟩ is ⟦30⟧ days.', '+ Our ⟨U+27E6⟩policy⟨U+27E7⟩ is ⟦14⟧ days.'].join('\n'));
  });

  it.each([
    ['a Russian reply', 'Привет! Ваш код: 1234. Всё хорошо.', 'Здравствуйте! Ваш код: 1235. Всё отлично.'],
    ['a Greek reply', 'Το κόστος είναι 30 ευρώ.', 'Το κόστος είναι 35 ευρώ.'],
    ['a Japanese reply with fullwidth digits and Latin', 'iPhone用のケースは３３３円です。', 'iPhone用のケースは３３４円です。'],
    ['an English reply quoting a Russian word', 'Say hello to them.', 'Say Привет to them.'],
    ['an English reply with a Greek letter of its own', 'The angle α is 30 degrees.', 'The angle β is 30 degrees.'],
    ['the micro sign (a symbol, not a Greek letter)', 'Filter 5 µm.', 'Filter 6 µm.'],
  ])('names nothing in %s', (_name, before, after) => {
    const text = diffText(before, after) as string;
    expect(text).not.toBeNull();
    expect(text).not.toContain('U+');
  });
});

describe('look-alike letters on every surface', () => {
  const before = 'You can pay the invoice at paypal.com/acme.';
  const after = `You can pay the invoice at p${CYRILLIC_A}ypal.com/acme.`;
  const changed = replyChanged('pay-link', before, after);

  it('the comment names the letter in its diff and says what ⟨U+…⟩ means beside it', () => {
    const md = renderComment(run([changed]), ctx);
    const html = githubHtml(md);
    expect(allCodeBlocks(html).join('\n')).toContain('+ You can pay the invoice at ⟦p⟨U+0430⟩ypal⟧.com/acme.');
    expect(visibleText(html)).toContain('⟨U+…⟩ a character you cannot see, a look-alike from another script or one of these marks, by its code');
  });

  it('the meaning words on the item line name it too: a changed URL does not read the same on both sides of "→"', () => {
    const withMeaning = fixture('pay-link', {
      reply: after,
      verdict: 'pass',
      baseline: baseline('pay-link', before),
      drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail: `urls paypal.com/acme → p${CYRILLIC_A}ypal.com/acme` } },
    });
    const shown = visibleText(githubHtml(renderComment(run([withMeaning]), ctx)));
    expect(shown).toContain('changed in meaning: urls paypal.com/acme → p⟨U+0430⟩ypal.com/acme');
  });

  it('report.html gets the diff with the letter named', () => {
    const data = fixtureData(changed);
    const rows = JSON.stringify(data.diff);
    expect(rows).toContain('p⟨U+0430⟩ypal');
  });

  it('the terminal names it', () => {
    expect(renderTerminal(run([changed]), { color: false })).toContain('p⟨U+0430⟩ypal');
  });

  it('a route name with a look-alike letter is named wherever a route is shown', () => {
    expect(routeText(route(`r${CYRILLIC_A}funds`, 'policy'))).toBe('r⟨U+0430⟩funds / policy');
    expect(routeText(route('возвраты', 'ответ'))).toBe('возвраты / ответ');
    const moved = fixture('refund', {
      reply: 'Refunds take 5 days.',
      verdict: 'pass',
      route: route(`r${CYRILLIC_A}funds`, 'policy'),
      drift: { reply: 'same', route: 'different', verdict: 'still_passing' },
      baseline: baseline('refund', 'Refunds take 5 days.', 'pass', route('refunds', 'policy')),
    });
    expect(visibleText(githubHtml(renderComment(run([moved]), ctx)))).toContain('refunds / policy → r⟨U+0430⟩funds / policy');
  });
});

describe('a reply shown whole, as written, with its look-alike letters named under it', () => {
  const newFixture = () => fixture('pay-link', { reply: `Pay at p${CYRILLIC_A}ypal.com/acme or g${GREEK_O}ogle it.`, verdict: 'pass', drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null });

  it('the comment keeps the reply as written and names the words below it', () => {
    const md = renderComment(run([newFixture()]), ctx);
    const html = githubHtml(md);
    expect(allCodeBlocks(html).join('\n')).toContain(`Pay at p${CYRILLIC_A}ypal.com/acme or g${GREEK_O}ogle it.`);
    expect(md).toContain('_Look-alike letters from another script, by their code:_ `p⟨U+0430⟩ypal`, `g⟨U+03BF⟩ogle`');
  });

  it('report.html carries the same words for the reply it shows whole', () => {
    expect(fixtureData(newFixture()).lookalikes).toEqual(['p⟨U+0430⟩ypal', 'g⟨U+03BF⟩ogle']);
  });

  it('a reply without them has no note', () => {
    const plain = fixture('greeting-ru', { reply: 'Здравствуйте! Чем могу помочь?', verdict: 'pass', drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null });
    expect(renderComment(run([plain]), ctx)).not.toContain('Look-alike');
    expect(fixtureData(plain)).not.toHaveProperty('lookalikes');
  });
});

describe("a persona script's transcript", () => {
  it("names the look-alike words under an agent turn's reply, the reply as written", () => {
    const turns = [...refundTurns().slice(0, 2), turn(2, 'Where do I pay?', `Pay at p${CYRILLIC_A}ypal.com/acme.`, route('refunds', 'policy'))];
    const md = renderComment(run([], { personas: [persona('refund-coverage', { turns, baseline: null, drift: { transcript: null, route: null, verdict: 'no_baseline' } })] }), ctx);
    expect(md).toContain(`Pay at p${CYRILLIC_A}ypal.com/acme.`);
    expect(md).toContain('_Look-alike letters from another script, by their code:_ `p⟨U+0430⟩ypal`');
  });
});

// `СОРЕ` and `сору` in Cyrillic, `раураӏ` (its last letter the Cyrillic palochka), the Bengali digit
// four (U+09EA) that draws as 8: whole words of look-alikes, per Unicode's confusables table.
const COPE = '\u0421\u041e\u0420\u0415';
const COPE_NAMED = '⟨U+0421⟩⟨U+041E⟩⟨U+0420⟩⟨U+0415⟩';
const PAYPAL = '\u0440\u0430\u0443\u0440\u0430\u04cf';
const PAYPAL_NAMED = '⟨U+0440⟩⟨U+0430⟩⟨U+0443⟩⟨U+0440⟩⟨U+0430⟩⟨U+04CF⟩';
const COPY = '\u0441\u043e\u0440\u0443';
const COPY_NAMED = '⟨U+0441⟩⟨U+043E⟩⟨U+0440⟩⟨U+0443⟩';

describe('a word written wholly in look-alikes of the reply\'s script (whole-script confusables)', () => {
  it('names every letter of a Cyrillic word that reads as an English one: the two sides of the diff no longer read the same', () => {
    expect(diffText('Please COPE with it.', `Please ${COPE} with it.`)).toBe(['- Please COPE with it.', `+ Please ${COPE_NAMED} with it.`].join('\n'));
    expect(diffText('Pay at paypal.com today.', `Pay at ${PAYPAL}.com today.`)).toContain(`+ Pay at ${PAYPAL_NAMED}.com today.`);
  });

  it('names a one-letter word of a script not written alone in English text: the changed word shows what changed', () => {
    expect(diffText('I have a question.', 'I have \u0430 question.')).toContain('⟨U+0430⟩');
    expect(diffText('Pick option a or b.', 'Pick option \u0430 or b.')).toContain('⟨U+0430⟩');
  });

  it('names a number written with a digit of another script that draws as a plain one', () => {
    expect(diffText('Call 888 now.', 'Call 8\u09ea8 now.')).toContain('⟦8⟨U+09EA⟩8⟧');
  });

  it.each([
    ['an English reply quoting a Russian word that does not look English', 'Say hello to them.', 'Say Привет to them.'],
    ['a Russian reply whose word is all look-alikes of Latin ones (its own script)', 'Привет, как дела?', `Привет, ${COPE} дела?`],
    ['a Russian reply with Latin words in it (Latin letters imitate nothing in the table)', 'Ваш API ключ готов.', 'Ваш HTTP ключ готов.'],
    ['a lone Greek letter of look-alike shape (a variable, not a word)', 'Let a be 1.', 'Let \u03b1 be 1.'],
    ['an English reply quoting Russian words whose letters imitate small capitals (ʜ, ʙ, ᴛ), not plain letters', 'They said no to all.', 'They said нет to все.'],
    ['a Chinese reply quoting katakana (written together with Han)', '退款已处理：「工口」。', '退款已处理：「\u30a8\u30ed」。'],
  ])('names nothing in %s', (_name, before, after) => {
    const text = diffText(before, after) as string;
    expect(text).not.toBeNull();
    expect(text).not.toContain('U+');
  });

  it('the comment names it under a reply shown whole, and report.html says the same', () => {
    const shown = fixture('pay-link', { reply: `Pay at ${PAYPAL}.com/acme, then ${COPE} with it.`, verdict: 'pass', drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null });
    const md = renderComment(run([shown]), ctx);
    expect(allCodeBlocks(githubHtml(md)).join('\n')).toContain(`Pay at ${PAYPAL}.com/acme`);
    expect(md).toContain(`_Look-alike letters from another script, by their code:_ \`${PAYPAL_NAMED}\`, \`${COPE_NAMED}\``);
    expect(fixtureData(shown).lookalikes).toEqual([PAYPAL_NAMED, COPE_NAMED]);
  });

  it('the terminal and report.html name it in a changed reply', () => {
    const changed = replyChanged('pay-link', 'Pay at paypal.com/acme.', `Pay at ${PAYPAL}.com/acme.`);
    expect(renderTerminal(run([changed]), { color: false })).toContain(`${PAYPAL_NAMED}.com/acme`);
    expect(JSON.stringify(fixtureData(changed).diff)).toContain(PAYPAL_NAMED);
  });

  it('the meaning words on the item line name it', () => {
    const withMeaning = fixture('pay-link', {
      reply: `Pay at ${PAYPAL}.com/acme.`,
      verdict: 'pass',
      baseline: baseline('pay-link', 'Pay at paypal.com/acme.'),
      drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'facts', detail: `urls paypal.com/acme → ${PAYPAL}.com/acme` } },
    });
    expect(visibleText(githubHtml(renderComment(run([withMeaning]), ctx)))).toContain(`changed in meaning: urls paypal.com/acme → ${PAYPAL_NAMED}.com/acme`);
  });

  it("a route's conversation written in look-alikes is named, the main script counted over the whole route", () => {
    expect(routeText(route(COPY, 'answer'))).toBe(`${COPY_NAMED} / answer`);
    expect(routeText(route('возвраты', 'ответ'))).toBe('возвраты / ответ');
  });
});
