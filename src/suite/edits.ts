// What a pull request changed in its own suite's fixtures: which fixtures' checks it changed or
// removed, and which fixtures it deleted (docs/action.md, "The PR comment", "Suite edited"). Pure:
// the texts of the changed fixture files at the base and at the head come in, the edits go out.

import type { Assertion, Fixture, FixtureEdit, SingleAssertion } from '../types.js';
import { quote, showPattern } from '../assertions/format.js';
import { describeCall } from '../assertions/tools.js';
import { checkFixtureFile } from './fixtures.js';
import { readYaml, withYamlPackage } from './yaml/index.js';

/** One fixture file the pull request changed: its path in the repository and its text on each side (null: not there). */
export interface ChangedFixtureFile {
  path: string;
  before: string | null;
  after: string | null;
}

/** A check in words, as a reviewer reads it: `contains "30 days"`, `judge "..." (threshold 0.7)`; null for a probe. */
export function assertionWords(a: Assertion | null): string | null {
  if (a === null) return null;
  if (a.kind === 'all') return a.assertions.map(singleWords).join(' and ');
  return singleWords(a);
}

function singleWords(a: SingleAssertion): string {
  switch (a.kind) {
    case 'contains':
      return `contains ${quote(a.value)}`;
    case 'regex':
      return `regex ${showPattern(a.pattern, a.flags)}`;
    case 'judge':
      return `judge ${quote(a.criterion)} (threshold ${a.threshold})`;
    case 'maxLatency':
      return `maxLatencyMs ${a.ms}`;
    case 'toolCalled':
    case 'toolNotCalled':
      return `${a.kind} ${describeCall(a.tool, a.input, a.match)}`;
  }
}

/** The fixtures a file defines, by label (a file that does not read defines none that can be told apart). */
function fixturesOf(path: string, text: string | null): Fixture[] {
  if (text === null) return [];
  const loaded = readYaml(path, text);
  if (loaded.src === null) return [];
  return checkFixtureFile(loaded.src, loaded.data).fixtures;
}

/**
 * The fixtures whose check differs between the base and the head of the changed files (another
 * check, or none: a probe now), and the fixtures deleted (in a changed file at the base, in none
 * at the head: a fixture moved to another file keeps its label and is not deleted). Two checks
 * are compared whole, not as shown: a change past the words' cut is still a change. Files sorted by path.
 */
export async function fixtureEdits(files: readonly ChangedFixtureFile[]): Promise<FixtureEdit[]> {
  return withYamlPackage(() => {
    const before = new Map<string, { fixture: Fixture; file: string }>();
    const after = new Map<string, { fixture: Fixture; file: string }>();
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      for (const fixture of fixturesOf(f.path, f.before)) if (!before.has(fixture.label)) before.set(fixture.label, { fixture, file: f.path });
      for (const fixture of fixturesOf(f.path, f.after)) if (!after.has(fixture.label)) after.set(fixture.label, { fixture, file: f.path });
    }
    const edits: FixtureEdit[] = [];
    for (const [label, was] of before) {
      const now = after.get(label);
      const old = was.fixture.assertion;
      if (now === undefined) {
        edits.push({ label, file: was.file, change: 'deleted', before: assertionWords(old), after: null });
        continue;
      }
      if (JSON.stringify(old) !== JSON.stringify(now.fixture.assertion)) {
        edits.push({ label, file: now.file, change: 'assertion', before: assertionWords(old), after: assertionWords(now.fixture.assertion) });
      }
    }
    return edits;
  });
}
