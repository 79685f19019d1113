// The comment posted instead of a report when a run is above the cost cap and not confirmed:
// nothing was replayed, nothing was spent; here is the estimate and exactly how to confirm.

import type { Estimate } from '../types.js';
import type { ReportContext } from './context.js';
import { clip, codeSpan } from './escape.js';
import { markerLine, metaLine } from './metadata.js';
import { formatUsdPair } from './money.js';
import { plural } from './model.js';

/** `personaCount`: persona scripts in the run besides the fixtures (SPEC 10: each script is an item). */
export function renderCapRefusal(estimate: Estimate, fixtureCount: number, judgeCalls: number, ctx: ReportContext, personaCount = 0): string {
  const label = codeSpan(clip(ctx.confirmLabel, 100));
  const [estimated, cap] = formatUsdPair(estimate.usd, estimate.capUsd);
  const calls = judgeCalls > 0 ? ` and ${plural(judgeCalls, 'judge call', 'judge calls')}` : '';
  const scripts = personaCount > 0 ? `${calls ? ', ' : ' and '}${plural(personaCount, 'persona script', 'persona scripts')}` : '';
  return [
    `${markerLine(ctx.marker)}\n${metaLine(ctx)}`,
    '### ⏸️ Not run: the estimated cost is above the cap',
    `**≈ ${estimated} estimated** for ${plural(fixtureCount, 'fixture', 'fixtures')}${scripts}${calls}; ` +
      `the cap is **${cap}**. Nothing was replayed and nothing was spent.`,
    'To run it anyway, confirm the cost in one of these ways:',
    [
      `- apply the ${label} label to this pull request;`,
      '- set the action input `confirm-cost: true`;',
      '- run the CLI with `--confirm-cost`.',
    ].join('\n'),
    'Or raise the cap (`cost.capUsd` in `.agent-replay/config.yml`). ' +
      'The estimate is a flat guess per call made before anything runs, not a bill.',
  ].join('\n\n') + '\n';
}
