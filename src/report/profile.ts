// The three markdown surfaces differ only in their limits: how much fits and how much is shown.

import { utf8Length } from './escape.js';
import { thousands } from './model.js';

/** GitHub refuses comments longer than this. */
export const COMMENT_MAX_CHARS = 65_536;
/**
 * Room a rendered comment leaves under GitHub's limit for the notice the accept flow may add above
 * the report (a refused label): the comment plus a notice of this many characters still posts.
 */
export const NOTICE_RESERVE_CHARS = 2_000;
export const SUMMARY_MAX_BYTES = 1_048_576;

export type Kind = 'comment' | 'summary' | 'report';

export interface Profile {
  kind: Kind;
  max: number;
  measure: (text: string) => number;
  /** Longest reply shown in one block, in characters. */
  maxReplyChars: number;
  /** Items shown in full per section; the rest go to the section's compact table. */
  fullPerSection: number;
  /** How the limit is named when something is left out. */
  limitWords: string;
  /**
   * Reworded items listed by name in the comment's one collapsed Reworded block, beyond those shown
   * with their diff; the rest are counted (docs/meaning.md, "In the comment"): the block stays small
   * however many replies were reworded.
   */
  rewordedRows: number;
  /**
   * False in a rendering made only to measure how long the report would be at least (fit.ts): every
   * diff block is left out, and no diff is computed.
   */
  diffs: boolean;
}

/** Reworded items the comment lists by name (one line each) after those shown with their diff. */
export const COMMENT_REWORDED_ROWS = 50;

/** Half a screen of items per section in a comment (a 5,000-fixture comment is about two screens, collapsed); the summary is the full report. */
export const COMMENT_FULL_PER_SECTION = 10;

/** `reserve`: room the summary leaves under its limit for what the caller writes beside it (the Action's note above it). */
export function profile(kind: Kind, max: number | undefined, reserve = 0): Profile {
  if (kind === 'comment') {
    const m = max ?? COMMENT_MAX_CHARS;
    return {
      kind,
      max: max ?? COMMENT_MAX_CHARS - NOTICE_RESERVE_CHARS,
      measure: (s) => s.length,
      maxReplyChars: 4000,
      fullPerSection: COMMENT_FULL_PER_SECTION,
      limitWords: `GitHub's limit of ${thousands(m)} characters per comment`,
      rewordedRows: COMMENT_REWORDED_ROWS,
      diffs: true,
    };
  }
  const m = max ?? SUMMARY_MAX_BYTES;
  return {
    kind,
    max: Math.max(0, m - reserve),
    measure: utf8Length,
    maxReplyChars: 20_000,
    fullPerSection: Number.POSITIVE_INFINITY,
    limitWords: kind === 'summary' ? `the job summary limit of ${thousands(m)} bytes` : `the report limit of ${thousands(m)} bytes`,
    rewordedRows: Number.POSITIVE_INFINITY,
    diffs: true,
  };
}
