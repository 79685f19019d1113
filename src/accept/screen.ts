// What acceptance writes is read back as the loader will read it, before anything is written:
// a baseline the loader would refuse (attempts or a judge result that contradict the verdict, from
// a record edited by hand; anything else would be agent-replay's own fault) is refused here with the
// loader's own words, so that accepting never leaves a suite that no longer loads
// (docs/semantics.md, "Baselines and acceptance").

import type { AcceptPlan, StoredBaseline } from '../evaluate/index.js';
import { checkBaselineFile, verdictContradicted } from '../suite/baselines.js';
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
    else out.refused.push({ label: b.label, reason: refusal(b, problem.message.replace(/^(persona )?baseline: /, '')) });
  }
  return out;
}

/**
 * Why `b` is not written. A tally or judge result that does not stand behind the verdict came from the
 * record, since acceptance writes none (a results file edited by hand); anything else the loader refuses
 * is agent-replay's own doing, and is said so, without blaming the file.
 */
function refusal(b: StoredBaseline, problem: string): string {
  if (verdictContradicted(b)) return `its record contradicts itself, so the baseline would not load: ${problem}; was the results file edited? run it again`;
  return `the baseline it would write would not load: ${problem}; nothing was written for it: run it again, and report it with this message if it happens again`;
}
