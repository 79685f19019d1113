// Regex assertions that cannot run away are matched on the main thread; the others in the worker
// pool (docs/architecture.md, "The regex time budget").
//
// A pattern with no repetition (no `*`, `+`, `?` or `{n,m}`), no alternation and no back-reference
// has no choice to go back to: matching it tries each start position once, taking at most one step
// per pattern character (a lookaround runs its own part once). Its time is bounded by the text's
// length times the pattern's, so when that product is small it is matched here, in microseconds,
// with no worker to start: `\b30 days\b`, `(?i)refund`. Every other pattern goes to the pool, whose
// budget can stop it.

import { MAX_MATCH_CHARS } from './regex-pool.js';
import type { RegexEvaluator, RegexResult } from '../types.js';

/** The most steps (text length x pattern length) a pattern is matched with on the main thread. */
export const INLINE_STEPS = 4_000_000;

/**
 * True for a pattern that cannot backtrack: outside escapes and character classes it has no
 * quantifier (`*`, `+`, `?`, `{`), no alternation (`|`), and it has no back-reference (`\1`,
 * `\k<name>`). A `?` right after `(` is group syntax (`(?:`, `(?=`, `(?<name>`), not a quantifier.
 * Errs towards false: a `{` that would be a literal, or a quantifier inside a class of a class
 * (flag v), sends the pattern to the pool. With flag u or v, the braces of `\u{...}` and `\p{...}`
 * belong to the escape.
 */
export function cannotBacktrack(pattern: string, flags: string): boolean {
  const unicode = flags.includes('u') || flags.includes('v');
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === 'k' || (next !== undefined && next >= '1' && next <= '9')) return false;
      // With flag u or v, `\u{1F600}` and `\p{L}` hold their braces; without, `\u{2,}` repeats a `u`.
      const close = unicode && (next === 'u' || next === 'p' || next === 'P') && pattern[i + 2] === '{' ? pattern.indexOf('}', i + 3) : -1;
      i = close === -1 ? i + 1 : close;
    } else if (c === '[') {
      // A class: it stands for one character. Skipped up to its first unescaped `]`.
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (c === '(') {
      if (pattern[i + 1] === '?') i++;
    } else if (c === '*' || c === '+' || c === '?' || c === '{' || c === '|') {
      return false;
    }
  }
  return true;
}

/** Whether `pattern` is matched against `text` on the main thread. */
export function runsInline(pattern: string, flags: string, text: string): boolean {
  return text.length * Math.max(1, pattern.length) <= INLINE_STEPS && cannotBacktrack(pattern, flags);
}

/**
 * The evaluator a run uses: patterns that cannot backtrack on a text of ordinary length are matched
 * here (with the results the pool's workers give: the match clipped to MAX_MATCH_CHARS, a compile
 * error's message), the others by `pool`, which starts its workers only for them.
 */
export function withInlineRegex(pool: RegexEvaluator): RegexEvaluator {
  const compiled = new Map<string, RegExp>();
  const inline = (pattern: string, flags: string, text: string): RegexResult => {
    const key = `${flags}/${pattern}`;
    let re = compiled.get(key);
    if (re === undefined) {
      try {
        re = new RegExp(pattern, flags);
      } catch (err) {
        return { kind: 'compile_error', message: err instanceof Error ? err.message : String(err) };
      }
      if (compiled.size >= 256) compiled.delete(compiled.keys().next().value as string);
      compiled.set(key, re);
    }
    re.lastIndex = 0;
    const m = re.exec(text);
    if (m === null) return { kind: 'no_match' };
    const match = m[0];
    return { kind: 'matched', match: match.length > MAX_MATCH_CHARS ? `${match.slice(0, MAX_MATCH_CHARS)}\u2026` : match };
  };
  return {
    test(pattern, flags, text) {
      return runsInline(pattern, flags, text) ? Promise.resolve(inline(pattern, flags, text)) : pool.test(pattern, flags, text);
    },
    warm(count) {
      pool.warm?.(count);
    },
    close() {
      return pool.close();
    },
  };
}
