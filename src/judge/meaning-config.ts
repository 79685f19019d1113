// Which model is the meaning judge (docs/meaning.md, "Configuration"), resolved when the run
// starts, after the command-line and action-input overrides of the judge: `meaning:` of
// config.yml, each model key not given taken from the judge, as a panel member takes them.

import { modelFromJudge, type Config, type JudgeConfig, type MeaningCheck } from '../config.js';
import { meaningCheckOf, meaningThresholdOf, ownModel } from '../suite/meaning-config.js';

export interface MeaningRunConfig {
  check: MeaningCheck;
  threshold: number;
  /** The meaning judge's client settings; null when the check asks no model or no model is configured. */
  judge: JudgeConfig | null;
}

/**
 * The meaning settings of a run. A provider other than the judge's starts from that provider's own
 * address and default model and never gets the judge's API key (a key is only sent to the
 * provider it belongs to). The meaning judge is the judge itself, not its panel: one call per
 * differing reply. Timeouts, retries and concurrency are the judge's.
 */
export function meaningRunConfig(config: Pick<Config, 'judge' | 'meaning'>): MeaningRunConfig {
  const check = meaningCheckOf(config);
  const threshold = meaningThresholdOf(config);
  const m = config.meaning ?? {};
  if (check !== 'judge' || (config.judge === null && !ownModel(m))) return { check, threshold, judge: null };
  // The judge's label (the demo's "not a real model") names the meaning judge too when it is the judge's model.
  const label = !ownModel(m) && config.judge?.label ? config.judge.label.replace(/\bjudge\b/, 'meaning judge') : null;
  return { check, threshold, judge: { ...modelFromJudge(config.judge, m), label } };
}
