// config.yml `personas:` (docs/personas.md): how a script without its own `unmockedTools` treats a
// tool call no mock answered.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import type { Config } from '../../config.js';
import type { Resolution } from './shared.js';

export const schema = onFirstUse(() => z.strictObject({ unmockedTools: z.enum(['error', 'allow']).nullable().optional() }));

type PersonasSection = z.infer<ReturnType<typeof schema>>;

/** Sets `config.personas` when the section is given; absent: every default. */
export function resolve(config: Config, resolved: PersonasSection | null | undefined, _written: unknown, _r: Resolution): void {
  if (resolved) config.personas = { unmockedTools: resolved.unmockedTools ?? null };
}
