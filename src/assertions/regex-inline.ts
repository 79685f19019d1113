// Regex assertions whose matching time has a small bound are matched on the main thread; the
// others in the worker pool (docs/architecture.md, "The regex time budget").
//
// A pattern with at most one quantifier (`*`, `+`, `?`, `{n,m}`), no alternation and no
// back-reference has at most one choice to go back to. At each start position the matcher repeats
// the quantifier's operand at most R times (2 choices for `?`, max for `{min,max}`, up to the text's
// length for `*`), then tries the rest of the pattern after each count, one step per pattern
// character (a lookaround runs its own part once). So its time is bounded by
// 2 x text length x pattern length x R; when that is small it is matched here, in microseconds
// (about 10 ms at worst), with no worker to start: `\b30 days?\b`, `refund(ed)?`, `order #\d+` on a
// short reply.
//
// From V8 13 (Node 24, the runtime GitHub runs actions on), a pattern V8's linear-time engine
// accepts (the `l` flag, enabled by --enable-experimental-regexp-engine: no back-reference, no
// lookahead, no flag u, v or d, no large counted repetition; flag i it refuses, so an ASCII
// pattern's letters are written as classes of both cases instead, regex-case.ts) is matched here too whatever its
// quantifiers, in time proportional to the text's length times the pattern's size, when that
// product is small. The engine refuses what it cannot match in linear time, so nothing it accepts
// can backtrack. Every other pattern goes to the pool, whose budget can stop it; but one that does
// not compile never does: compiling never runs a pattern, so its compile error is told here, in the
// pool's words, with no worker started (60-90 ms) only to say so.

import { setFlagsFromString } from 'node:v8';
import { caseExpanded } from './regex-case.js';
import { compiles } from '../suite/regex-advice.js';
import { shownMatch } from './regex-pool.js';
import type { Assertion, PersonaScript, RegexEvaluator, RegexResult } from '../types.js';

/** The most steps a pattern is matched with on the main thread (about 10 ms at worst, measured). */
export const INLINE_STEPS = 4_000_000;

/**
 * The most a pattern's one quantifier may repeat or choose: `{ counts: 1 }` with none, 2 for `?`,
 * min for `{min}`, max for `{min,max}`, `'text'` (up to the text's length) for `*`, `+` and `{min,}`; null
 * for a pattern the bound does not cover: more than one quantifier, an alternation (`|`) or a
 * back-reference (`\1`, `\k<name>`) outside escapes and character classes, or a `{` that is not a
 * quantifier. A `?` right after `(` is group syntax (`(?:`, `(?=`, `(?<name>`), and right after a
 * quantifier it makes the quantifier lazy. With flag u or v, the braces of `\u{...}` and `\p{...}`
 * belong to the escape. With flag v, a class holding strings (`\q{...}`) or another class, and a
 * property escape `\p{...}` (some match strings: `\p{RGI_Emoji}`), are null.
 */
export function quantifierCounts(pattern: string, flags: string): { counts: number | 'text' } | null {
  const vMode = flags.includes('v');
  const unicode = flags.includes('u') || vMode;
  let counts: number | 'text' | null = null;
  const quantified = (c: number | 'text'): boolean => {
    if (counts !== null) return false;
    counts = c;
    return true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'k' || (next !== undefined && next >= '1' && next <= '9')) return null;
      // With flag v, `\p{RGI_Emoji}` and the like match strings of several lengths: no bound.
      if (vMode && next === 'p') return null;
      // Without flag u or v, `\u{2,}` repeats a `u`: the braces are then read as a quantifier.
      const close = unicode && (next === 'u' || next === 'p' || next === 'P') && pattern[i + 2] === '{' ? pattern.indexOf('}', i + 3) : -1;
      i = close === -1 ? i + 1 : close;
    } else if (c === '[') {
      // A class: it stands for one character. Skipped up to its first unescaped `]`. With flag v a
      // class may hold strings (`[\q{a|aa}]`), alternatives of different lengths to go back over,
      // and classes inside it: no bound then.
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) {
        if (pattern[i] === '\\') {
          if (vMode && (pattern[i + 1] === 'q' || pattern[i + 1] === 'p')) return null;
          i++;
        } else if (vMode && pattern[i] === '[') {
          return null;
        }
      }
    } else if (c === '(') {
      if (pattern[i + 1] === '?') i++;
    } else if (c === '|') {
      return null;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      let q: number | 'text';
      if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
        if (m === null) return null;
        // The most repetitions: {min} repeats min times, {min,max} up to max (each a pass over
        // the operand, so a count of 20,000 is 20,000 steps per start, not one).
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
        if (max !== null && !(max >= min && Number.isSafeInteger(max))) return null;
        q = max === null ? 'text' : Math.max(1, max);
        i += m[0].length - 1;
      } else {
        q = c === '?' ? 2 : 'text';
      }
      if (!quantified(q)) return null;
      // A lazy quantifier (`*?`, `{2,5}?`) has the same counts.
      if (pattern[i + 1] === '?') i++;
    }
  }
  return { counts: counts ?? 1 };
}

/** The steps matching `pattern` against a text of `length` characters takes at most; null: no bound. */
export function inlineSteps(pattern: string, flags: string, length: number): number | null {
  const q = quantifierCounts(pattern, flags);
  if (q === null) return null;
  const counts = q.counts === 'text' ? length + 1 : q.counts;
  return 2 * Math.max(1, length) * Math.max(1, pattern.length) * counts;
}

/** Whether `pattern` is matched against `text` on the main thread. */
export function runsInline(pattern: string, flags: string, text: string): boolean {
  const steps = inlineSteps(pattern, flags, text.length);
  return steps !== null && steps <= INLINE_STEPS;
}

/** The most units (linearSteps) a pattern is matched with by the linear-time engine on the main thread. */
export const LINEAR_STEPS = 200_000;

/**
 * The most the linear-time engine's work on a text of `length` characters may be: the length times
 * the pattern's size, a counted repetition (`{2,5}`) counting its operand that many times (every
 * count is taken as nested in the others, which only overestimates). With about 56 ns per unit at
 * worst (adversarial patterns, Node 24), LINEAR_STEPS is about 11-14 ms (`npm run bench -- regex`, under Node 24).
 */
export function linearSteps(pattern: string, length: number): number {
  let size = Math.max(1, pattern.length);
  for (const m of pattern.matchAll(/\{(\d+)(,(\d*))?\}/g)) {
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? min + 1 : Number(m[3]);
    size *= Math.max(1, min, max);
    if (!Number.isFinite(size) || size > LINEAR_STEPS) return Infinity;
  }
  return Math.max(1, length) * size;
}

/**
 * Whether V8's linear-time engine is used: from V8 13 (Node 24). Node 20's V8 (11.3) gives another
 * match than the backtracking engine on some patterns (280 of 146,760 random pattern and text pairs,
 * some of them a different match); Node 22's (12.4) agrees but is up to 20 times slower.
 */
export function linearEngineUsable(v8: string = process.versions.v8): boolean {
  return Number(v8.split('.')[0]) >= 13;
}

let linearFlagSet = false;

/**
 * `pattern` compiled for V8's linear-time engine, or null: the engine is not used on this Node
 * (linearEngineUsable), the pattern does not compile at all (the usual path reports that), or the
 * engine refuses it (it cannot be matched in linear time: a back-reference, a lookahead, flag u...).
 * The engine refuses flag i: without flag u or v, an ASCII pattern's letters are written as classes
 * of their two cases instead (regex-case.ts), the same matches.
 */
export function linearRegex(pattern: string, flags: string): RegExp | null {
  if (!linearEngineUsable() || !compiles(pattern, flags)) return null;
  if (flags.includes('i')) {
    const expanded = flags.includes('u') || flags.includes('v') ? null : caseExpanded(pattern);
    return expanded === null ? null : linearRegex(expanded, flags.replace('i', ''));
  }
  if (!linearFlagSet) {
    // Adds the `l` flag to the RegExp syntax and nothing else: no other pattern changes engine.
    setFlagsFromString('--enable-experimental-regexp-engine');
    linearFlagSet = true;
  }
  try {
    return new RegExp(pattern, `${flags}l`);
  } catch {
    return null;
  }
}

/**
 * Whether a pattern needs the worker pool whatever the reply (no bound), or may on a long reply
 * (a quantifier whose counts grow with the text): the run starts the pool's workers early for those.
 * A pattern the linear-time engine takes needs it only on a reply longer than its LINEAR_STEPS
 * allow (thousands of characters): the pool is then started when that reply comes. A pattern that
 * does not compile never does: its compile error is told on the main thread (withInlineRegex).
 */
export function mayNeedPool(pattern: string, flags: string): boolean {
  if (!compiles(pattern, flags)) return false;
  const q = quantifierCounts(pattern, flags);
  return (q === null || q.counts === 'text') && linearRegex(pattern, flags) === null;
}

/** How many of a suite's patterns may need the pool (mayNeedPool): fixtures' regex checks and scripts' reply regexes. */
export function poolPatternCount(assertions: readonly (Assertion | null)[], personas: readonly PersonaScript[]): number {
  const checks = assertions.flatMap((a) => (a === null ? [] : a.kind === 'all' ? a.assertions : [a]));
  const fromFixtures = checks.filter((a) => a.kind === 'regex' && mayNeedPool(a.pattern, a.flags)).length;
  const fromScripts = personas.flatMap((p) => p.expect.reply ?? []).filter((e) => 'regex' in e && mayNeedPool(e.regex, e.flags)).length;
  return fromFixtures + fromScripts;
}

/**
 * The evaluator a run uses: a pattern that does not compile gets its compile error here, whatever
 * its bound (no worker is started only to say so), and patterns with a small bound on the reply at
 * hand are matched here, both with the results the pool's workers give (the match clipped to
 * MAX_MATCH_CHARS, the compile error's message); the others by `pool`, which starts its workers
 * only for them.
 */
export function withInlineRegex(pool: RegexEvaluator): RegexEvaluator {
  const compiled = new Map<string, RegExp>();
  const linear = new Map<string, RegExp | null>();
  const remember = <T>(cache: Map<string, T>, key: string, value: T): T => {
    if (cache.size >= 256) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
    return value;
  };
  const matchOf = (re: RegExp, text: string): RegexResult => {
    re.lastIndex = 0;
    const m = re.exec(text);
    if (m === null) return { kind: 'no_match' };
    const match = m[0];
    return { kind: 'matched', match: shownMatch(match) };
  };
  /** The pattern compiled (compiling never runs it), or the compile error a worker reports for it. */
  const compile = (pattern: string, flags: string): RegExp | RegexResult => {
    const key = `${flags}/${pattern}`;
    const known = compiled.get(key);
    if (known !== undefined) return known;
    try {
      return remember(compiled, key, new RegExp(pattern, flags));
    } catch (err) {
      return { kind: 'compile_error', message: err instanceof Error ? err.message : String(err) };
    }
  };
  const linearFor = (pattern: string, flags: string): RegExp | null => {
    const key = `${flags}/${pattern}`;
    const known = linear.get(key);
    return known !== undefined ? known : remember(linear, key, linearRegex(pattern, flags));
  };
  return {
    test(pattern, flags, text) {
      const re = compile(pattern, flags);
      if (!(re instanceof RegExp)) return Promise.resolve(re);
      if (runsInline(pattern, flags, text)) return Promise.resolve(matchOf(re, text));
      // The size is that of what the engine runs: with flag i, the pattern with its letters' cases written in.
      const linearRe = linearFor(pattern, flags);
      if (linearRe !== null && linearSteps(linearRe.source, text.length) <= LINEAR_STEPS) return Promise.resolve(matchOf(linearRe, text));
      return pool.test(pattern, flags, text);
    },
    warm(count) {
      pool.warm?.(count);
    },
    close() {
      return pool.close();
    },
  };
}
