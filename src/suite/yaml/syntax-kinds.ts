// What the reader asks of a refused file's issues on every path (src/suite/yaml/read.ts), apart from
// the analysis that words them (syntax.ts): that analysis is loaded with the `yaml` package, on first
// need (package.ts), since only a refused file runs it (docs/performance.md, "2026-12-07 (small
// hours): the session's figures").

import type { ConfigIssue } from '../issues.js';
import { isSplitNumberMessage } from './split-number.js';

/** The fix of an error said in the parser's own words (nothing in the text said more). */
export const SYNTAX_FIX = 'fix the YAML syntax here (check indentation, quotes, brackets and that every key is followed by ": ")';

/** A key written twice in one mapping, when the key cannot be named. */
export const DUPLICATE_KEY_MESSAGE = 'invalid YAML: the same key appears twice in one mapping';

/** Is every issue a key written twice, or a number split into keys written twice (the rest of the file can still be read and checked)? */
export function onlyDuplicateKeys(issues: readonly ConfigIssue[]): boolean {
  return issues.length > 0 && issues.every((i) => i.message === DUPLICATE_KEY_MESSAGE || isSplitNumberMessage(i.message) || /^invalid YAML: the key .* appears twice in one mapping(?: \(first on line \d+\))?$/.test(i.message));
}
