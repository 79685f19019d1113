// Which model plays simulated users (docs/personas.md, "Simulated users"): `simulator:` of
// config.yml, each key not given taken from the judge, resolved when the run starts (after the
// command-line and action-input overrides of the judge).

import { modelFromJudge, type Config, type JudgeConfig } from '../config.js';

/**
 * The simulator's client settings, or null when neither `simulator:` nor `judge:` is configured.
 * A provider other than the judge's starts from that provider's own address and default model and
 * never gets the judge's API key (a key is only sent to the provider it belongs to).
 */
export function simulatorConfig(config: Pick<Config, 'judge' | 'simulator'>): JudgeConfig | null {
  const s = config.simulator;
  const judge = config.judge;
  if (s === undefined && judge === null) return null;
  const given = s ?? {};
  const all = given.baseUrl === undefined && given.model === undefined && given.apiKey === undefined && given.provider === undefined;
  return {
    ...modelFromJudge(judge, given),
    // The judge's label (the demo's "not a real model") names the simulator too when it is the judge's model.
    label: all && judge?.label ? judge.label.replace(/\bjudge\b/, 'simulator') : null,
  };
}
