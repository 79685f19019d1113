// config.yml `repeat:` (docs/fixtures.md, "Repeat"): every item runs `count` times unless it has its
// own `repeat`. The shape and the checks are src/suite/repeat.ts's, shared with fixtures and scripts.

import type { Config } from '../../config.js';
import { checkRepeat, repeatSchema } from '../repeat.js';
import type { Resolution } from './shared.js';

export const schema = repeatSchema;

/** Checks the block as written (each problem with its line) into `config.repeat`; absent: each item runs once. */
export function resolve(config: Config, _resolved: unknown, written: unknown, r: Resolution): void {
  const repeat = checkRepeat(written, ['repeat'], '', (path, message, fix) => r.errors.push(r.issueAt(path, message, fix)));
  if (repeat !== null) config.repeat = repeat;
}
