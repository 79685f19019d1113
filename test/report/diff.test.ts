import { describe, expect, it } from 'vitest';
import { diffText, wordDiff, type DiffOp } from '../../src/report/index.js';
import { CODE_WIDTH, CONTINUATION, MARK_CLOSE, MARK_OPEN, stripSentinels, wrapBlock, wrapLine } from '../../src/report/wrap.js';
import { diffBlock } from '../../src/report/item-parts.js';
import { MAX_UNIT_EDITS, sentenceEnds, sentenceUnits } from '../../src/report/diff.js';
import { fixtureData } from '../../src/report/html/data.js';
import { baseline, fixture } from './fixtures.js';
import { profile } from '../../src/report/profile.js';
import { githubHtml } from './helpers.js';

function sides(ops: DiffOp[]): { a: string; b: string } {
  return {
    a: ops.filter((o) => o.kind !== 'insert').map((o) => o.text).join(''),
    b: ops.filter((o) => o.kind !== 'delete').map((o) => o.text).join(''),
  };
}

function plain(ops: DiffOp[]): string {
  return ops.map((o) => (o.kind === 'equal' ? o.text : o.kind === 'delete' ? `[-${o.text}-]` : `{+${o.text}+}`)).join('');
}

describe('wordDiff', () => {
  it.each([
    ['identical', 'same text', 'same text', 'same text'],
    ['one word', 'within 30 days', 'within 14 days', 'within [-30-]{+14+} days'],
    ['insertion', 'keep the receipt', 'keep the receipt and box', 'keep the receipt{+ and box+}'],
    ['both empty', '', '', ''],
    ['from empty', '', 'new', '{+new+}'],
    ['to empty', 'old', '', '[-old-]'],
    ['joined change', 'one two three', 'uno dos tres', '[-one two three-]{+uno dos tres+}'],
  ])('%s', (_name, a, b, expected) => {
    const d = wordDiff(a, b);
    expect(d.mode).toBe('words');
    if (d.mode === 'too_large') return;
    expect(plain(d.ops)).toBe(expected);
    expect(sides(d.ops)).toEqual({ a, b });
  });

  it('reconstructs both sides for unicode, punctuation and newlines', () => {
    for (const [a, b] of [
      ['Grüße 😀\nzweite Zeile\n\nEnde', 'Grüße 🙂\nzweite Zeile, neu\nEnde'],
      ['Hello, world.', 'Hello world!'],
      ['a b c', 'a c'],
    ] as const) {
      const d = wordDiff(a, b);
      if (d.mode === 'too_large') throw new Error('unexpected');
      expect(sides(d.ops)).toEqual({ a, b });
    }
  });

  it('is deterministic', () => {
    expect(wordDiff('a b a b a b c', 'b a b a c c')).toEqual(wordDiff('a b a b a b c', 'b a b a c c'));
  });

  it('says too large when the texts differ beyond the edit guard', () => {
    const a = Array.from({ length: 300 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 300 }, (_, i) => `b${i}`).join(' ');
    expect(wordDiff(a, b, { maxEdits: 50 })).toEqual({ mode: 'too_large', aTokens: 599, bTokens: 599 });
  });

  it('handles a large common prefix and suffix cheaply', () => {
    const common = 'word '.repeat(50_000);
    const d = wordDiff(`${common}old${common}`, `${common}new${common}`, { maxEdits: 10 });
    expect(d.mode).toBe('words');
  });
});

/** A reply of `n` words in sentences of 12 words; every word distinct enough to be found. */
function prose(n: number): string {
  const vocabulary = 'agent reply refund order delivery receipt policy customer support return window item store card'.split(' ');
  const words = Array.from({ length: n }, (_, i) => `${vocabulary[i % vocabulary.length]}${i}`);
  const sentences: string[] = [];
  for (let i = 0; i < words.length; i += 12) sentences.push(`${words.slice(i, i + 12).join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
  return `${sentences.slice(0, 12).join(' ')}\n\n${sentences.slice(12).join(' ')}`;
}

describe('diffText: the ```diff block', () => {
  it('shows only the two changed words of a 300-word reply', () => {
    const before = prose(300);
    const after = before.replace('order3 ', 'parcel3 ').replace('card237', 'voucher237');
    expect(after.split(/\s+/).length).toBe(300);
    const text = diffText(before, after) as string;
    const marks = [...text.matchAll(/⟦([^⟧]*)⟧/g)].map((m) => m[1]);
    expect(marks).toEqual(['order3', 'parcel3', 'card237', 'voucher237']);
    const lines = text.split('\n');
    // Two changed sentences, each a - line and a + line (wrapped at most once), the rest counted.
    expect(lines.filter((l) => l.startsWith('- ') && !l.startsWith(`- ${CONTINUATION}`))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('+ ') && !l.startsWith(`+ ${CONTINUATION}`))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('@@'))).toEqual(['@@ 18 unchanged sentences @@', '@@ 5 unchanged sentences @@']);
    expect(text).not.toContain('refund100'); // an unchanged sentence
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(CODE_WIDTH);
  });

  it('puts each changed sentence above its replacement, with a gap between the words', () => {
    const text = diffText('Returns are accepted within 30 days of delivery. Keep your receipt.', 'Returns are accepted within 14 days of delivery.\nKeep your receipt and the original box.');
    expect(text).toBe(
      [
        '- Returns are accepted within ⟦30⟧ days of delivery.',
        '+ Returns are accepted within ⟦14⟧ days of delivery.',
        '- Keep your receipt.',
        '+ Keep your receipt⟦ and the original box⟧.',
      ].join('\n'),
    );
  });

  it('shows a rewrite as whole lines, without marks', () => {
    expect(diffText('No.', 'I cannot share that. I can help you compare our plans instead.')).toBe(
      ['- No.', '+ I cannot share that.', '+ I can help you compare our plans instead.'].join('\n'),
    );
  });

  it('makes a change of whitespace only visible', () => {
    expect(diffText('a b\nc', 'a  b\nc')).toBe(['- a⟦·⟧b', '+ a⟦··⟧b', '@@ 1 unchanged line @@'].join('\n'));
  });

  it('wraps long lines with a continuation mark and keeps marks closed on every line', () => {
    const long = `${'word '.repeat(40)}apple ${'more '.repeat(30)}end.`;
    const text = diffText(long, long.replace('apple', 'banana')) as string;
    for (const line of text.split('\n')) {
      expect(line.length).toBeLessThanOrEqual(CODE_WIDTH);
      expect(line).toMatch(/^[-+] /);
      expect(count(line, '⟦')).toBe(count(line, '⟧'));
    }
    expect(text).toContain(`- ${CONTINUATION}`);
    expect(text).toContain('⟦apple⟧');
    expect(text).toContain('⟦banana⟧');
  });

  it('closes the isolates a wrap cuts and reopens them on the next line, nested ones too, within the width', () => {
    const [L, F, P] = ['\u2066', '\u2068', '\u2069'];
    const text = `${L}${F}${'ש'.repeat(100)}${P}${P} tail`;
    const lines = wrapBlock(text).split('\n');
    // Isolates that close right at the cut close on its line: none is reopened empty.
    expect(lines).toEqual([`${L}${F}${'ש'.repeat(95)}${P}${P}`, `${CONTINUATION}${L}${F}${'ש'.repeat(5)}${P}${P} tail`]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(CODE_WIDTH);
    expect(wrapBlock(`${L}${F}${'ש'.repeat(95)}${P}${P} tail ${'x'.repeat(20)}`).split('\n')).toEqual([`${L}${F}${'ש'.repeat(95)}${P}${P}`, `${CONTINUATION}tail ${'x'.repeat(20)}`]);
  });
  it('counts the isolates each cut closes on a long line of several: nested, side by side, a stray closer at a cut', () => {
    const [L, R, F, P] = ['\u2066', '\u2067', '\u2068', '\u2069'];
    // Its third PDI closes nothing: it stays text of the next line, as the line had it.
    const text = `${L}${F}${'ש'.repeat(14)}${P}${P}${P}${R}xxx${L}${'y'.repeat(10)}${P}${P}${R}${L}${'q'.repeat(13)}${P}${'r'.repeat(10)}${P} end`;
    const read = (s: string): string => s.replace(/[\u2066-\u2069]/g, (c) => ({ [L]: 'L', [R]: 'R', [F]: 'F', [P]: 'P' })[c] as string);
    const lines = wrapLine(text, 20);
    expect(lines.map(read)).toEqual([
      `LF${'ש'.repeat(14)}PP`,
      `${CONTINUATION}PRxxxL${'y'.repeat(9)}PP`,
      `${CONTINUATION}RLyPPRL${'q'.repeat(8)}PP`,
      `${CONTINUATION}RL${'q'.repeat(5)}P${'r'.repeat(7)}P`,
      `${CONTINUATION}RrrrP end`,
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
  });
  it('names the invisible characters of a changed word: a zero-width space is never an empty mark', () => {
    expect(diffText('Hello world.', 'Hello\u200b world.')).toBe(['- Hello world.', '+ Hello⟦⟨U+200B⟩⟧ world.'].join('\n'));
    // A bidi control, which escaping drops, is named before it can be dropped.
    expect(diffText('Hello world.', 'Hello\u202e world.')).toBe(['- Hello world.', '+ Hello⟦⟨U+202E⟩⟧ world.'].join('\n'));
    // A no-break space looks like a space: a change of whitespace names it.
    expect(diffText('Hello world.', 'Hello\u00a0world.')).toBe(['- Hello⟦·⟧world.', '+ Hello⟦⟨U+00A0⟩⟧world.'].join('\n'));
    // Inside a changed word, so that "pa\u200bypal" does not read as "paypal".
    const inWord = diffText('Pay at paypal now.', 'Pay at pa\u2060y\ufeffpal now.') as string;
    expect(inWord).toContain('⟨U+2060⟩');
    expect(inWord).toContain('⟨U+FEFF⟩');
    // An emoji sequence keeps its zero-width joiner; an unchanged word keeps its characters as they are.
    expect(diffText('Family: 🙂 here\u200b.', 'Family: 👨\u200d👩 here\u200b.')).toBe(['- Family: ⟦🙂⟧ here\u200b.', '+ Family: ⟦👨\u200d👩⟧ here\u200b.'].join('\n'));
  });

  it('the comment says what ⟨U+…⟩ means beside the diff, and only when it is in it', () => {
    const block = diffBlock('Hello world.', 'Hello\u200b world.', profile('comment', undefined));
    expect(block).toContain('**Baseline → new reply** (`-` baseline, `+` new, ⟦changed words⟧, ⟨U+…⟩ a character you cannot see, a look-alike from another script or one of these marks, by its code):');
    expect(githubHtml(block)).toContain('+ Hello⟦⟨U+200B⟩⟧ world.');
    expect(diffBlock('Hello world.', 'Hello there.', profile('comment', undefined))).not.toContain('U+…');
  });

  it('names ⟦changed words⟧ only above a diff that marks words: a whole-line rewrite has no marks, so no such words', () => {
    const rewrite = diffBlock('We only sell online at the moment.', 'Our flagship store is at Torstraße 1 in Berlin.', profile('comment', undefined));
    expect(rewrite).toContain('**Baseline → new reply** (`-` baseline, `+` new):');
    expect(rewrite).not.toContain('⟦');
    const words = diffBlock('Our warranty lasts 2 years.', 'Our warranty lasts one year.', profile('comment', undefined));
    expect(words).toContain('**Baseline → new reply** (`-` baseline, `+` new, ⟦changed words⟧):');
    // A reply's own ⟦ is shown by its code, so it does not make a rewrite name the marks.
    expect(diffBlock('A plain old sentence here.', 'Totally ⟦different⟧ words now!', profile('comment', undefined))).toContain('(`-` baseline, `+` new, ⟨U+…⟩ a character');
  });

  it('marks a changed word of any script whole, not letter by letter; a script written without spaces by character', () => {
    expect(diffText('Say Привет to them.', 'Say Здравствуйте to them.')).toBe(['- Say ⟦Привет⟧ to them.', '+ Say ⟦Здравствуйте⟧ to them.'].join('\n'));
    expect(diffText('Привет, как дела? Всё хорошо.', 'Привет, как дела? Всё отлично.')).toBe(['@@ 1 unchanged sentence @@', '- Всё ⟦хорошо⟧.', '+ Всё ⟦отлично⟧.'].join('\n'));
    expect(diffText('Το κόστος είναι χαμηλό.', 'Το κόστος είναι υψηλό.')).toBe(['- Το κόστος είναι ⟦χαμηλό⟧.', '+ Το κόστος είναι ⟦υψηλό⟧.'].join('\n'));
    expect(diffText('الطلب جاهز الآن.', 'الطلب متأخر الآن.')).toBe(['- الطلب ⟦جاهز⟧ الآن.', '+ الطلب ⟦متأخر⟧ الآن.'].join('\n'));
    // Japanese has no spaces between words: its characters are compared one by one, as before.
    expect(diffText('東京タワーは333メートルです。', '東京タワーは334メートルです。')).toBe(['- 東京タワーは⟦333⟧メートルです。', '+ 東京タワーは⟦334⟧メートルです。'].join('\n'));
    expect(diffText('今日は晴れです。', '今日は雨です。')).toBe(['- 今日は⟦晴れ⟧です。', '+ 今日は⟦雨⟧です。'].join('\n'));
  });

  it('returns null for equal replies', () => {
    expect(diffText('same', 'same')).toBeNull();
  });
});

describe('a pair too different to diff (MAX_UNIT_EDITS)', () => {
  const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `Line ${i + 1}.`);
  const TOO_DIFFERENT = `@@ too different to diff: more than ${MAX_UNIT_EDITS} sentences removed or added @@`;

  it('diffs short lines reordered while the sentences removed and added stay within the bound', () => {
    // 200 lines in reverse order: 199 removed and 199 added at most, under 500.
    const text = diffText(lines(200).join('\n'), lines(200).reverse().join('\n')) as string;
    expect(text).not.toContain('too different');
    expect(text.split('\n').filter((l) => l.startsWith('- ')).length).toBeGreaterThan(100);
    expect(text.split('\n').filter((l) => l.startsWith('+ ')).length).toBeGreaterThan(100);
  });

  it('over the bound, says so on one @@ line, with no - or + line that could be read as the diff', () => {
    expect(diffText(lines(300).join('\n'), lines(300).reverse().join('\n'))).toBe(TOO_DIFFERENT);
    // Two unrelated replies of many sentences.
    const a = Array.from({ length: 300 }, (_, i) => `We ship parcel ${i} today.`).join(' ');
    const b = Array.from({ length: 300 }, (_, i) => `Your refund ${i} is on its way.`).join(' ');
    expect(diffText(a, b)).toBe(TOO_DIFFERENT);
    // Only whitespace differs, on more lines than the bound: counted in lines.
    const spaced = lines(300).map((l) => l.replace(' ', '  '));
    expect(diffText(lines(300).join('\n'), spaced.join('\n'))).toBe(`@@ too different to diff: more than ${MAX_UNIT_EDITS} lines removed or added @@`);
  });

  it('the comment names no sides above it, and report.html says why the replies are shown whole', () => {
    const [a, b] = [lines(300).join('\n'), lines(300).reverse().join('\n')];
    expect(diffBlock(a, b, profile('comment', undefined))).toBe(`**Baseline → new reply**:\n\n\`\`\`diff\n${TOO_DIFFERENT}\n\`\`\``);
    const data = fixtureData(fixture('reordered', { reply: b, baseline: baseline('reordered', a), drift: { reply: 'different', route: 'same', verdict: 'still_passing' } }));
    expect(data.diff).toBeNull();
    expect(data.diffNote).toBe(`too different to diff (more than ${MAX_UNIT_EDITS} sentences or lines removed or added): shown whole`);
    expect(data.reply).toBe(b);
    expect(data.baseline?.reply).toBe(a);
  });
});

function count(s: string, needle: string): number {
  return s.split(needle).length - 1;
}

describe('wrap', () => {
  it('wraps at spaces, hard-wraps words longer than a line, and never splits a surrogate pair', () => {
    const lines = wrapBlock(`${'a'.repeat(250)} ${'😀'.repeat(80)}\nshort`).split('\n');
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(CODE_WIDTH);
      expect(line).not.toMatch(/[\ud800-\udbff]$/);
    }
    expect(lines.slice(1, -1).every((l) => l.startsWith(CONTINUATION))).toBe(true);
    expect(lines[lines.length - 1]).toBe('short');
    expect(lines.join('').replaceAll(CONTINUATION, '').replace(/\s/g, '')).toBe(`${'a'.repeat(250)}${'😀'.repeat(80)}short`);
  });

  it('starts a continuation with its text, never "↪  tail": spaces at a cut are dropped, after a hard cut or a run of them', () => {
    // A run of spaces across the cut: the wrap is after all of them.
    expect(wrapBlock(`${'x'.repeat(99)}  tail`).split('\n')).toEqual(['x'.repeat(99), `${CONTINUATION}tail`]);
    expect(wrapBlock(`${'x'.repeat(98)}    tail`).split('\n')).toEqual(['x'.repeat(98), `${CONTINUATION}tail`]);
    // A hard cut right before a marked word closes: the space after it is the wrap's.
    const marked = `${MARK_OPEN}${'x'.repeat(98)}${MARK_CLOSE} tail`;
    expect(wrapLine(marked).map(stripSentinels)).toEqual(['x'.repeat(98), `${CONTINUATION}tail`]);
    // Spaces only after the cut: no empty continuation.
    expect(wrapBlock(`${'x'.repeat(99)}   `)).toBe('x'.repeat(99));
    // A line that wraps at one space is as before.
    expect(wrapBlock(`${'a'.repeat(60)} ${'b'.repeat(60)}`).split('\n')).toEqual(['a'.repeat(60), `${CONTINUATION}${'b'.repeat(60)}`]);
  });

  it('keeps short lines as they are', () => {
    expect(wrapLine('short line')).toEqual(['short line']);
    expect(wrapBlock('a\n\nb')).toBe('a\n\nb');
  });
});

describe('sentenceUnits: the sentences a reply diff compares', () => {
  it.each([
    ['a parenthesised sentence', 'Thanks (Hello! See you.) for that. Bye.', ['Thanks (Hello! See you.) for that.', 'Bye.']],
    ['a quoted one', 'He said "Stop! Now." and left. Ok.', ['He said "Stop! Now." and left.', 'Ok.']],
    ['curly quotes', 'She wrote “Hi! Bye.” to me. Then left.', ['She wrote “Hi! Bye.” to me.', 'Then left.']],
    ['nested brackets', 'Open (a [b! c] d) e. Next.', ['Open (a [b! c] d) e.', 'Next.']],
    ['a closing mark without its opening one', 'Closed) early. Then more.', ['Closed) early.', 'Then more.']],
    ['an unbalanced bracket holds nothing', 'Unbalanced (oops! Then more. And more.', ['Unbalanced (oops!', 'Then more.', 'And more.']],
    ['a bracket closed after the line is not held', 'See (this! Next line', ['See (this!', 'Next line']],
    ['abbreviations', 'Ask Dr. Smith. He knows. Use e.g. Berlin. Mr. Brown too.', ['Ask Dr. Smith.', 'He knows.', 'Use e.g. Berlin.', 'Mr. Brown too.']],
    ['decimals, ?! and an ellipsis', 'It costs 3.50 EUR. Fine?! Yes... ok. Wait... What?', ['It costs 3.50 EUR.', 'Fine?!', 'Yes... ok.', 'Wait...', 'What?']],
  ])('%s', (_name, text, units) => {
    expect(sentenceUnits(text)).toEqual(units);
  });

  it('diffs a changed parenthesised sentence as one sentence, not from inside the brackets', () => {
    expect(diffText('Thanks (Hello! See you.) for that.', 'Thanks (Hello! See you soon.) for that.')).toBe(
      ['- Thanks (Hello! See you.) for that.', '+ Thanks (Hello! See you⟦ soon⟧.) for that.'].join('\n'),
    );
  });

  it('a stray bracket in an untrusted reply never holds more than 400 characters together', () => {
    expect(sentenceUnits(`(${'Go on. '.repeat(2000).trimEnd()})`)).toHaveLength(2000);
    // Deeply nested, all open before any closes: each pair spans the whole line, so none holds.
    const deep = `${'('.repeat(20_000)}${'Go. '.repeat(20_000).trimEnd()}${')'.repeat(20_000)}`;
    expect(sentenceUnits(deep)).toHaveLength(20_000);
  });

  it('finds the same breaks as the Unicode segmenter run over the whole line, though it segments a window at a time', () => {
    const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
    for (const line of [
      `Go.${' '.repeat(300)}lower case goes on. Next.`,
      `Go. ${') '.repeat(200)}lower. X.`,
      `A. ${'1 '.repeat(500)}b. C.`,
      `${'x'.repeat(5000)}. Y. ${'Z. '.repeat(300)}`,
      'Go. '.repeat(1000),
      `${'(Hi! Hi! Hi!) '.repeat(200)}end`,
    ]) {
      expect(sentenceEnds(line)).toEqual([...segmenter.segment(line)].map((s) => s.index + s.segment.length));
    }
  });
});
