// The main thread's worst case with V8's linear-time engine (src/assertions/regex-inline.ts), run by
// bench/run.ts under Node 24 (the engine is not used on older V8): adversarial patterns, each on the
// longest text of "a" its bound (LINEAR_STEPS) still lets the main thread match, ending in "!" so
// that nothing matches early. Each pattern is compiled and run once first: the figure is the match alone.
// Prints one JSON line: {"worstMs", "of", "v8"} or {"skipped": reason}.

import { LINEAR_STEPS, linearEngineUsable, linearRegex, linearSteps } from '../src/assertions/regex-inline.js';

// [pattern, flags]; with flag i the engine runs the pattern with its letters' cases written in (regex-case.ts).
const cases: [string, string][] = [
  ['^(a+)+$', 'i'],
  ['(a|a?)+b', 'i'],
  ['^(a+)+$', ''],
  ['(a|a?)+b', ''],
  ['(\\w+\\s?)*$', ''],
  ['(x+x+)+y', ''],
  ['(.*){1,15}c', ''],
  ['(?:a?){15}a{15}c', ''],
  ['(.*a){12}c', ''],
  ['((a?)(a?)(a?)(a?)(a?)(a?)(a?)(a?))*c', ''],
  ['(?:(?:a|b)*(?:a|c)*)*z', ''],
  ['$', ''],
  ['[\\s\\S]*[\\s\\S]*[\\s\\S]*[\\s\\S]*c', ''],
];

if (!linearEngineUsable()) {
  process.stdout.write(`${JSON.stringify({ skipped: `V8 ${process.versions.v8} does not use the linear-time engine` })}\n`);
} else {
  let worst = 0;
  let of = '';
  for (const [pattern, flags] of cases) {
    const re = linearRegex(pattern, flags);
    if (re === null) continue;
    let length = 1;
    while (linearSteps(re.source, length + 1) <= LINEAR_STEPS) length++;
    const text = `${'a'.repeat(length - 1)}!`;
    re.exec(text);
    const t = performance.now();
    re.exec(text);
    const took = performance.now() - t;
    if (took > worst) {
      worst = took;
      of = `/${pattern}/${flags} on ${length} characters`;
    }
  }
  process.stdout.write(`${JSON.stringify({ worstMs: worst, of, v8: process.versions.v8, patterns: cases.length })}\n`);
}
