// config.yml `coverage:` (docs/evaluations.md#coverage): the conversations the agent has, for
// coverage gaps.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import type { Config } from '../../config.js';
import { quote } from '../issues.js';
import type { PathSegment } from '../yaml/index.js';
import type { Resolution } from './shared.js';

export const schema = onFirstUse(() => z.strictObject({ conversations: z.array(z.string()).nullable().optional() }));

type CoverageSection = z.infer<ReturnType<typeof schema>>;

/** Checks `coverage.conversations` as written (each name once) into `config.coverage`; absent: none listed. */
export function resolve(config: Config, _resolved: CoverageSection | null | undefined, written: CoverageSection | null | undefined, r: Resolution): void {
  const coverage = resolveCoverage(written?.conversations ?? null, r);
  if (coverage !== null) config.coverage = coverage;
}

/** coverage.conversations: names, each once (the `conversations:` prefix rule decides what "once" means). */
function resolveCoverage(list: readonly string[] | null, r: Resolution): string[] | null {
  if (list === null) return null;
  const seen = new Map<string, number>();
  list.forEach((name, i) => {
    const at: PathSegment[] = ['coverage', 'conversations', i];
    const bare = name.startsWith('conversations:') ? name.slice('conversations:'.length) : name;
    if (bare.trim() === '') {
      r.errors.push(r.issueAt(at, `coverage.conversations[${i}] is empty`, 'give the name of a conversation as the agent reports it in route.conversation, or remove the entry'));
      return;
    }
    const first = seen.get(bare);
    if (first !== undefined) {
      r.errors.push(r.issueAt(at, `coverage.conversations lists ${quote(name)} twice (also entry ${first + 1})`, 'list each conversation once'));
      return;
    }
    seen.set(bare, i);
  });
  return [...list];
}
