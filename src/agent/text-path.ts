// Where an answer holds its text when the reply path finds none: the path of its likeliest reply
// string, so that a missing reply names the path to write (docs/presets.md, "Any JSON API").

import { PLAIN_KEY_RE, PLAIN_PATH_KEYS } from '../words.js';

/** How deep an answer is searched, and how many of its values at most: an answer is small, but may not be. */
const MAX_DEPTH = PLAIN_PATH_KEYS;
const MAX_VALUES = 500;

/** A value that reads as an identifier, a time or an address rather than a reply: a UUID, a long token with digits, an ISO date, a URL. */
const NOT_TEXT = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{16,}|\d{4}-\d\d-\d\d(?:[T ][\d:.]+(?:Z|[+-][\d:]+)?)?|https?:\/\/\S+)$/i;

/**
 * The dotted path (`data.answer`, `messages.0.content`) of the string in `json` most likely to be
 * its reply: text with a space before a single word, a single word before an identifier, then the
 * longest; null when it holds no non-empty string other than at `except` (the path that was read).
 */
export function likelyTextPath(json: unknown, except: string): string | null {
  return likelyText(json, except)?.path ?? null;
}

/** The string likeliest to be a reply (likelyTextPath): its path, and how it ranks against another's (betterText). */
export interface LikelyText {
  path: string;
  rank: number;
  length: number;
}

/**
 * The likelier of two answers' texts (likelyTextPath's order: text with a space, then a single
 * word, then the longest; the first on a tie), for the lines of an NDJSON answer or a stream's events.
 */
export function betterText(a: LikelyText | null, b: LikelyText | null): LikelyText | null {
  if (a === null || b === null) return a ?? b;
  return b.rank > a.rank || (b.rank === a.rank && b.length > a.length) ? b : a;
}

/** likelyTextPath, with the rank of what it found. */
export function likelyText(json: unknown, except: string): LikelyText | null {
  let best: LikelyText | null = null;
  let seen = 0;
  const visit = (value: unknown, path: string, depth: number): void => {
    if (++seen > MAX_VALUES) return;
    if (typeof value === 'string') {
      const text = value.trim();
      if (text === '' || path === '' || path === except) return;
      const rank = /\s/.test(text) ? 2 : NOT_TEXT.test(text) ? 0 : 1;
      if (best === null || rank > best.rank || (rank === best.rank && text.length > best.length)) best = { path, rank, length: text.length };
      return;
    }
    if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return;
    const entries: [string, unknown][] = Array.isArray(value) ? value.slice(0, 10).map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [key, child] of entries) {
      // An error the answer carries is no reply, whatever its text (`{error: {message: "..."}}`).
      if (!PLAIN_KEY_RE.test(key) || /^errors?$/i.test(key)) continue;
      visit(child, path === '' ? key : `${path}.${key}`, depth + 1);
    }
  };
  visit(json, '', 0);
  return best;
}
