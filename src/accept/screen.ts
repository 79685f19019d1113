// What acceptance writes is read back as the loader will read it, before anything is written:
// a baseline the loader would refuse (a judge score or attempts that contradict the verdict, too
// many wordings) is refused here with the loader's own words, so that accepting never leaves a
// suite that no longer loads (docs/semantics.md, "Baselines and acceptance").

import type { AcceptPlan } from '../evaluate/index.js';
import { checkBaselineFile } from '../suite/baselines.js';
import { serializeBaseline } from '../suite/index.js';
import { withYamlPackage } from '../suite/yaml/package.js';

/** `plan` with every baseline the loader would refuse moved to its refusals. `shownDir`: the baselines folder as messages name it. */
export function screenAccepted(plan: AcceptPlan, shownDir: string): Promise<AcceptPlan> {
  // The loader places a problem with the `yaml` package, loaded when there is one to place.
  return withYamlPackage(() => screen(plan, shownDir));
}

function screen(plan: AcceptPlan, shownDir: string): AcceptPlan {
  const out: AcceptPlan = { ...plan, accepted: [], refused: [...plan.refused] };
  for (const b of plan.accepted) {
    const problem = checkBaselineFile(`${shownDir}/${b.label}.json`, b.label, serializeBaseline(b)).errors[0];
    if (problem === undefined) out.accepted.push(b);
    else out.refused.push({ label: b.label, reason: `its record contradicts itself, so the baseline would not load: ${problem.message.replace(/^(persona )?baseline: /, '')}; was the results file edited? run it again` });
  }
  return out;
}
