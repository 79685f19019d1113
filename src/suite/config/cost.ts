// config.yml `cost:` (docs/semantics.md, "Cost"): the prices the estimate multiplies and the cap it is
// held against; defaults DEFAULT_COST and DEFAULT_SIMULATOR_CALL_USD (src/config.ts).

import * as z from 'zod';
import type { Config } from '../../config.js';
import { usd, type Resolution } from './shared.js';

export const schema = z.strictObject({
  agentTurnUsd: usd.optional(),
  turnsPerFixture: usd.optional(),
  judgeCallUsd: usd.optional(),
  capUsd: usd.optional(),
  simulatorCallUsd: usd.optional(),
});

type CostSection = z.infer<typeof schema>;

/** Each key given replaces the default of `config.cost`. */
export function resolve(config: Config, resolved: CostSection | null | undefined, _written: unknown, _r: Resolution): void {
  const cost = resolved ?? {};
  if (cost.agentTurnUsd !== undefined) config.cost.agentTurnUsd = cost.agentTurnUsd;
  if (cost.turnsPerFixture !== undefined) config.cost.turnsPerFixture = cost.turnsPerFixture;
  if (cost.judgeCallUsd !== undefined) config.cost.judgeCallUsd = cost.judgeCallUsd;
  if (cost.capUsd !== undefined) config.cost.capUsd = cost.capUsd;
  if (cost.simulatorCallUsd !== undefined) config.cost.simulatorCallUsd = cost.simulatorCallUsd;
}
