// A text cut by length keeps whole characters (src/words.ts, wholeEnd): an emoji, or any character
// beyond the BMP, at the cut is kept whole or left out, never half of it (a lone surrogate, which is
// written as U+FFFD, or `\ud83d` in JSON); a letter is not kept without the accent that follows it,
// nor an emoji sequence parted (a family joined by U+200D, a flag's two regional indicators, a
// keycap, a skin tone), nor any other grapheme cluster (a Korean syllable of its letters, a Hindi
// conjunct). results.json and the comment, of a real run against a loopback agent.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterAll, beforeAll } from 'vitest';
import { headOf, tailOf, wholeEnd } from '../src/words.js';
import { createRegexPool, MAX_MATCH_CHARS } from '../src/assertions/index.js';
import { loadYamlPackage } from '../src/suite/yaml/index.js';
import { readYaml } from '../src/suite/yaml/read.js';
import { clipAtWord, line, quote, showPattern } from '../src/assertions/format.js';
import { describeShape } from '../src/agent/tool-calls.js';
import { snippet } from '../src/agent/http-client.js';
import { clip, clipDetail, clipShown } from '../src/report/escape.js';
import { oneLine } from '../src/judge/parse.js';
import { toolNameOf } from '../src/traces/map.js';
import { freeLabel } from '../src/suite/labels.js';
import type { Span } from '../src/types.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './cli/helpers.js';

useCleanup();

const EMOJI = '\u{1F600}';
/** Half of a surrogate pair: a high one with no low one after it, or a low one with no high one before it. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `n` letters, then an emoji whose first half is the n+1th unit. */
const emojiAt = (n: number, tail = 'tail'): string => `${'a'.repeat(n)}${EMOJI}${tail}`;

describe('wholeEnd and headOf', () => {
  it('steps back over a surrogate pair the cut would split, and over a letter whose accent it would cut off', () => {
    expect(wholeEnd(emojiAt(5), 6)).toBe(5);
    expect(wholeEnd(emojiAt(5), 7)).toBe(7);
    expect(wholeEnd(emojiAt(5), 5)).toBe(5);
    expect(headOf(emojiAt(5), 6)).toBe('aaaaa');
    // e + COMBINING ACUTE ACCENT, cut between them: the e goes too ("cafe" is another word).
    expect(headOf('cafe\u0301!', 4)).toBe('caf');
    expect(headOf('cafe\u0301!', 5)).toBe('cafe\u0301');
    // A heart and its variation selector (U+FE0F), and one after an emoji beyond the BMP.
    expect(headOf('ok \u2764\uFE0F', 4)).toBe('ok ');
    expect(headOf(`ok ${EMOJI}\uFE0F`, 5)).toBe('ok ');
    expect(headOf('abc', 10)).toBe('abc');
    expect(headOf('abc', 0)).toBe('');
  });
});

describe('every cut helper, an emoji at the cut', () => {
  it("format.ts's line, quote and showPattern, and clipAtWord", () => {
    for (const shown of [line(emojiAt(199), 200), quote(emojiAt(79), 80), showPattern(emojiAt(79), 'i', 80), clipAtWord(emojiAt(199, ''), 200)]) {
      expect(shown).not.toMatch(LONE);
      expect(shown).toContain('\u2026');
    }
    expect(line(emojiAt(199), 200)).toBe(`${'a'.repeat(199)}\u2026`);
    expect(line(emojiAt(198), 200)).toBe(`${'a'.repeat(198)}${EMOJI}\u2026`);
  });

  it("tool-calls.ts's describeShape: an object's type cut to 60", () => {
    const shown = describeShape({ type: emojiAt(59) });
    expect(shown).not.toMatch(LONE);
    expect(shown).not.toContain('\\ud83d');
    expect(shown).toContain(`of type "${'a'.repeat(59)}"`);
  });

  it("http-client.ts's snippet, escape.ts's clip, and the judge's oneLine", () => {
    expect(snippet(emojiAt(198, ' more text'))).toBe(`${'a'.repeat(198)}…`);
    expect(snippet(`<html><title>${emojiAt(78)}</title></html>`)).toBe(`an HTML page titled "${'a'.repeat(78)}…"`);
    expect(clip(emojiAt(9), 11)).toBe(`${'a'.repeat(9)}…`);
    expect(clip('cafe\u0301 au lait', 5)).toBe('caf…');
    expect(oneLine(emojiAt(199), 200)).not.toMatch(LONE);
  });

  it("traces' tool name, and a label made free", () => {
    const span = { name: 'execute_tool x', attributes: { 'gen_ai.tool.name': emojiAt(199) } } as unknown as Span;
    expect(toolNameOf(span)).toBe('a'.repeat(199));
    expect(freeLabel(emojiAt(77), new Set([emojiAt(77)]))).toBe(`${'a'.repeat(77)}-2`);
  });
});

describe('a cut from the end, an emoji at the cut', () => {
  it('tailOf starts after the half of a surrogate pair, or a mark, the cut would start on', () => {
    expect(tailOf(`${EMOJI}abc`, 4)).toBe('abc');
    expect(tailOf(`${EMOJI}abc`, 5)).toBe(`${EMOJI}abc`);
    expect(tailOf('cafe\u0301x', 2)).toBe('x');
    expect(tailOf('abc', 0)).toBe('');
    expect(tailOf('abc', 9)).toBe('abc');
  });

  beforeAll(async () => {
    await loadYamlPackage();
  });
  /** The messages of the errors of a file whose second line is `line`. */
  const errorsOf = (line: string): string[] => readYaml('f.yml', `label: a\n${line}\n`).errors.map((e) => e.message);

  it("a YAML value that ends at a quote inside it: the 30 characters it names before the quote, whole", () => {
    const word = `${EMOJI}${'a'.repeat(29)}`;
    for (const line of [`message: "${word}"hi" now"`, `message: '${word}'s fine'`, `message: "${word}" he said`]) {
      const [message] = errorsOf(line);
      expect(message).toContain(`after "${'a'.repeat(29)}"`);
      expect(message).not.toContain('\\ud');
    }
  });

  const pools: ReturnType<typeof createRegexPool>[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it("a regex's match the worker sends back, cut to MAX_MATCH_CHARS", async () => {
    const p = createRegexPool({ size: 1, timeoutMs: 30_000 });
    pools.push(p);
    const r = await p.test('a+.*', 'u', emojiAt(MAX_MATCH_CHARS - 1));
    expect(r).toEqual({ kind: 'matched', match: `${'a'.repeat(MAX_MATCH_CHARS - 1)}…` });
  });
});

/** A family (woman, ZWJ, woman, ZWJ, girl), a rainbow flag (white flag, VS16, ZWJ, rainbow), two flags, a keycap, a thumb with its skin tone. */
const FAMILY = '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}';
const RAINBOW = '\u{1F3F3}\uFE0F\u200D\u{1F308}';
const FLAGS = '\u{1F1E9}\u{1F1EA}\u{1F1EB}\u{1F1F7}';
const KEYCAP = '1\uFE0F\u20E3';
const THUMB = '\u{1F44D}\u{1F3FD}';

describe('an emoji sequence at the cut', () => {
  it('headOf keeps a sequence joined by U+200D, a flag, a keycap and a skin tone whole, or leaves it out', () => {
    for (const seq of [FAMILY, RAINBOW, KEYCAP, THUMB, FLAGS.slice(0, 4)]) {
      for (let cut = 1; cut < seq.length; cut++) expect(headOf(`ab${seq}cd`, 2 + cut), `${seq} cut at ${cut}`).toBe('ab');
      expect(headOf(`ab${seq}cd`, 2 + seq.length)).toBe(`ab${seq}`);
    }
    // Two flags: a cut between them keeps the first, never its second half with the next one's first.
    expect(headOf(`ab${FLAGS}`, 6)).toBe(`ab${FLAGS.slice(0, 4)}`);
    expect(headOf(`ab${FLAGS}`, 8)).toBe(`ab${FLAGS.slice(0, 4)}`);
    expect(headOf(`a${FLAGS}`, 7)).toBe(`a${FLAGS.slice(0, 4)}`);
  });

  it('tailOf starts after a sequence the cut would start inside', () => {
    for (const seq of [FAMILY, RAINBOW, KEYCAP, THUMB, FLAGS.slice(0, 4)]) {
      for (let cut = 1; cut < seq.length; cut++) expect(tailOf(`ab${seq}cd`, 2 + seq.length - cut), `${seq} cut at ${cut}`).toBe('cd');
    }
    expect(tailOf(`${FLAGS}ab`, 6)).toBe(`${FLAGS.slice(4)}ab`);
  });

  it('a run of joiners or marks no character is that long is cut near the bound asked, not left out whole', () => {
    // An agent's hostile reply: 4,000 emoji joined by U+200D, or a letter with 4,000 accents.
    const joined = Array.from({ length: 4000 }, () => '\u{1F600}').join('\u200D');
    const marked = `a${'\u0301'.repeat(4000)}`;
    for (const text of [joined, marked]) {
      const head = headOf(text, 300);
      expect(head.length).toBeGreaterThanOrEqual(299);
      expect(head.length).toBeLessThanOrEqual(300);
      expect(JSON.stringify(head)).not.toMatch(/\\ud[89ab]/);
      const tail = tailOf(text, 300);
      expect(tail.length).toBeGreaterThanOrEqual(299);
      expect(JSON.stringify(tail)).not.toMatch(/\\ud[c-f]/);
    }
  });

  it('in results.json and the comment: an agent\'s error body cut by length keeps a family and a flag whole, or leaves them out', async () => {
    // The body's first 199 characters end inside each sequence (http-client.ts snippet).
    const bodies: Record<string, string> = { family: `${'a'.repeat(196)}${FAMILY} broke`, flag: `${'b'.repeat(197)}${FLAGS} broke` };
    const server = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
      return { status: 500, headers: { 'content-type': 'text/plain' }, body: bodies[String(body.message)] ?? '' };
    });
    const cwd = await makeProject({
      config: agentConfig(server.url),
      fixtures: { 'f.yml': 'fixtures:\n  - label: family\n    message: family\n  - label: flag\n    message: flag\n' },
    });
    const r = await cli(['run', '--out', 'r.json', '--markdown', 'r.md', '--commit', 'c'.repeat(40), '--fail-on', 'none'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    const markdown = await readFile(join(cwd, 'r.md'), 'utf8');
    const cut = { family: `${'a'.repeat(196)}\u2026`, flag: `${'b'.repeat(197)}\u2026` };
    for (const f of record.fixtures) {
      expect(f.error).toContain(cut[f.label as keyof typeof cut]);
      expect(f.error).not.toMatch(/[\u200D\u{1F1E6}-\u{1F1FF}]/u);
    }
    expect(markdown).toContain(cut.family);
    expect(markdown).toContain(cut.flag);
    expect(markdown).not.toMatch(/[\u200D\u{1F1E6}-\u{1F1FF}\u{1F469}]/u);
  });
});

describe('a character Unicode makes of several letters, at the cut (Intl.Segmenter\'s grapheme clusters)', () => {
  /** 각 written as its three letters (U+1100 U+1161 U+11A8, as macOS saves Korean names), and a Hindi conjunct, क्षि. */
  const HANGUL = '\u1100\u1161\u11A8';
  const CONJUNCT = '\u0915\u094D\u0937\u093F';
  const clusters = (text: string): number[] => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((s) => s.index);

  it("the comment's clip, a detail's clipDetail and the terminal's clipShown keep it whole or leave it out", () => {
    // Was: 각 cut to ᄀ or 가 (another syllable), as a family emoji is never cut.
    for (const seq of [HANGUL, FAMILY]) {
      for (let cut = 1; cut < seq.length; cut++) {
        const max = 4 + cut;
        expect(clip(`ab ${seq} and more`, max), `${seq} cut at ${cut}`).toBe('ab …');
        expect(clipShown(`ab ${seq} and more`, max)).toBe('ab …');
        expect(clipDetail(`ab ${seq} and more`, max)).toBe('ab …');
      }
      expect(clip(`ab ${seq} and more`, 4 + seq.length)).toBe(`ab ${seq}…`);
    }
    // A conjunct is one character where the Unicode version Node's ICU knows says so (15.1 on): cut as it says.
    const text = `ab ${CONJUNCT} and more`;
    for (let max = 4; max < 4 + CONJUNCT.length; max++) {
      const kept = clip(text, max).slice(0, -1);
      expect(kept.length).toBe(Math.max(...clusters(text).filter((i) => i <= max - 1)));
    }
  });

  it('tailOf starts after one the cut would start inside', () => {
    for (let cut = 1; cut < HANGUL.length; cut++) expect(tailOf(`ab${HANGUL}cd`, 2 + HANGUL.length - cut)).toBe('cd');
    expect(tailOf(`ab${HANGUL}cd`, 2 + HANGUL.length)).toBe(`${HANGUL}cd`);
  });
});
