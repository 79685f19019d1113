// config.yml `cost:` (docs/semantics.md, "Cost"): the prices the estimate multiplies and the cap it is
// held against; defaults DEFAULT_COST and DEFAULT_SIMULATOR_CALL_USD (src/config.ts).

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { DEFAULT_COST, DEFAULT_SIMULATOR_CALL_USD, type Config } from '../../config.js';
import { usd, type Resolution } from './shared.js';

export const schema = onFirstUse(() =>
  z.strictObject({
    agentTurnUsd: usd().optional(),
    // At least the one message turn every fixture sends (docs/semantics.md, "Cost").
    turnsPerFixture: z.number().min(1).optional(),
    judgeCallUsd: usd().optional(),
    capUsd: usd().optional(),
    simulatorCallUsd: usd().optional(),
  }),
);

type CostSection = z.infer<ReturnType<typeof schema>>;

/** Each key given replaces the default of `config.cost`. */
export function resolve(config: Config, resolved: CostSection | null | undefined, _written: unknown, _r: Resolution): void {
  const cost = resolved ?? {};
  if (cost.agentTurnUsd !== undefined) config.cost.agentTurnUsd = cost.agentTurnUsd;
  if (cost.turnsPerFixture !== undefined) config.cost.turnsPerFixture = cost.turnsPerFixture;
  if (cost.judgeCallUsd !== undefined) config.cost.judgeCallUsd = cost.judgeCallUsd;
  if (cost.capUsd !== undefined) config.cost.capUsd = cost.capUsd;
  if (cost.simulatorCallUsd !== undefined) config.cost.simulatorCallUsd = cost.simulatorCallUsd;
}

/**
 * From untrusted code (a fork's commit run with the workflow's keys, docs/security.md, "Forks and
 * deployment_status") the section may make the estimate stricter, never looser: a price below its
 * default, fewer agent turns per fixture than are sent, or a cap above the default is not applied,
 * with a warning at its line, naming the file (`file`: config.yml, or config.yaml). The workflow's
 * `cost-cap` input, applied after, still sets the cap.
 */
export function holdForUntrusted(config: Config, resolved: CostSection | null | undefined, untrustedSuite: string, file: string, r: Resolution): void {
  if (!resolved) return;
  const held = (key: keyof CostSection, given: number, why: string, kept: string): void => {
    // The number as written (0.0000001, not 1e-7).
    const shown = r.src?.writtenAt(['cost', key]) ?? String(given);
    r.warnings.push(
      r.issueAt(
        ['cost', key],
        `cost.${key} ${shown} is not applied (${why}): the commit is ${untrustedSuite}, whose ${file} may make the estimate stricter, not looser; ${kept}`,
        'raise the cap with the cost-cap input in the workflow file, or apply the confirm-cost label (the confirm-label input) to the pull request after reading the estimate',
      ),
    );
  };
  const prices = [
    ['agentTurnUsd', DEFAULT_COST.agentTurnUsd],
    ['judgeCallUsd', DEFAULT_COST.judgeCallUsd],
    ['simulatorCallUsd', DEFAULT_SIMULATOR_CALL_USD],
  ] as const;
  for (const [key, floor] of prices) {
    const given = resolved[key];
    if (given === undefined || given >= floor) continue;
    config.cost[key] = floor;
    held(key, given, 'below the default price', `the estimate uses ${String(floor)}`);
  }
  const sent = config.agent.start !== null ? 2 : 1;
  if (resolved.turnsPerFixture !== undefined && resolved.turnsPerFixture < sent) {
    config.cost.turnsPerFixture = null;
    held('turnsPerFixture', resolved.turnsPerFixture, `fewer than the ${String(sent)} turns each fixture sends`, `the estimate counts ${String(sent)}`);
  }
  if (resolved.capUsd !== undefined && resolved.capUsd > DEFAULT_COST.capUsd) {
    config.cost.capUsd = DEFAULT_COST.capUsd;
    held('capUsd', resolved.capUsd, 'above the default cap', `the cap is ${String(DEFAULT_COST.capUsd)}`);
  }
}

