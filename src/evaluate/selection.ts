// Which items a partial run replays (docs/evaluations.md#rerun-and-only): `--rerun results.json` takes the items that
// failed, were not evaluated or errored there; `--only a,b,refund-*` takes labels by glob. Both
// together: the items both select. Pure.

import type { RunRecord } from '../types.js';
import { resultOf } from './compare.js';
import { listAndMore } from '../words.js';

/** A label glob: `*` any run of characters, `?` one character; everything else literal. */
function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  return new RegExp(`^${body}$`);
}

/** `--only` patterns, each with its test: the one matcher of `run --only` and `accept --only` (docs/cli.md). */
export interface OnlyPattern {
  pattern: string;
  matches: (label: string) => boolean;
}

/** The matchers of `--only`'s patterns (parseOnly's list): a label is selected when any matches it. */
export function onlyPatterns(patterns: readonly string[]): OnlyPattern[] {
  return patterns.map((pattern) => {
    const re = globToRegExp(pattern);
    return { pattern, matches: (label) => re.test(label) };
  });
}

/** "a, b,refund-*" -> ["a", "b", "refund-*"]: trimmed, empty entries dropped, each once. */
export function parseOnly(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()).filter((s) => s.length > 0))];
}

/** Labels of the items a record says failed, were not evaluated or errored (fixtures and scripts). */
export function rerunLabels(run: Pick<RunRecord, 'fixtures' | 'personas'>): string[] {
  return [...run.fixtures, ...run.personas].filter((i) => resultOf(i) !== 'pass').map((i) => i.label);
}

export interface SelectionResult {
  /** The suite's labels selected, in suite order. */
  labels: string[];
  /** `--only` patterns that match no label of the suite (a usage error). */
  unmatched: string[];
  /** Labels the rerun record asks for that the suite no longer has (renamed or removed). */
  missing: string[];
}

/**
 * Selects among the suite's labels. `rerun`: the labels to replay again (see rerunLabels), or null;
 * `only`: patterns, or null. A pattern is checked against the whole suite, so that a typo is found
 * even when the rerun leaves nothing for it to match.
 */
export function selectLabels(suiteLabels: readonly string[], rerun: readonly string[] | null, only: readonly string[] | null): SelectionResult {
  const patterns = onlyPatterns(only ?? []);
  const unmatched = patterns.filter((p) => !suiteLabels.some(p.matches)).map((p) => p.pattern);
  const again = rerun === null ? null : new Set(rerun);
  const labels = suiteLabels.filter((l) => (again === null || again.has(l)) && (only === null || patterns.some((p) => p.matches(l))));
  const present = new Set(suiteLabels);
  const missing = rerun === null ? [] : rerun.filter((l) => !present.has(l));
  return { labels, unmatched, missing };
}

/**
 * The usage error of `--only` patterns that match no label of the suite (`unmatched`, selectLabels'):
 * the suite's first 20 labels, then how many more it has, grouped ("a, b and 1,180 more").
 */
export function unmatchedOnlyText(unmatched: readonly string[], suiteLabels: readonly string[]): string {
  const list = unmatched.map((p) => `"${p}"`).join(', ');
  return `--only ${list} ${unmatched.length === 1 ? 'matches' : 'match'} no fixture or persona script label; labels in the suite: ${listAndMore(suiteLabels, 20, (l) => l) || '(none)'}`;
}
