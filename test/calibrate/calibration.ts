// A calibration.json made of summarized figures, for the renderers' tests.

import type { Calibration } from '../../src/calibrate/schema.js';
import { estimateCalibration, type summarizeCalibration } from '../../src/calibrate/summary.js';

/** A calibration.json of `figures` over `baselines` baselines judged once each, for the renderers. */
export function calibrationOf(figures: ReturnType<typeof summarizeCalibration>, baselines: number, minAgreement: number | null): Calibration {
  return {
    calibrationVersion: 1,
    tool: { name: 'agent-replay', version: '0.0.0' },
    calibratedAt: '2026-12-01T00:00:00.000Z',
    suite: '.agent-replay',
    judge: { name: 'openai m1', model: 'openai/m1', promptVersion: '2', structuredOutput: null },
    repeat: 1,
    minAgreement,
    estimate: estimateCalibration(baselines, 1, { judgeCallUsd: 0.005, capUsd: 5 }, false),
    spend: { judgeCalls: baselines, judgeRetries: 0 },
    ...figures,
  } as Calibration;
}
