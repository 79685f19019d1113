// calibration.json, version 1 (docs/calibration.md, "calibration.json"): what `calibrate --out`
// writes. The same schema checks what is written, and what a reader (a later tool, a test) reads.

import * as z from 'zod';
import type { CalibrationEstimate, CalibrationFigures } from './summary.js';

export const CALIBRATION_VERSION = 1;

// Built on first use, not when the module loads: only `calibrate` and readers of calibration.json
// need it, and a CLI start should not pay for it (docs/performance.md, "What was done").
function buildCalibrationSchema() {
  const verdict = z.enum(['pass', 'fail']);
  const kind = z.enum(['fixture', 'persona']);
  const score = z.number().min(0).max(1);
  const where = { kind, label: z.string(), file: z.string(), line: z.number().int().min(1) };

  const baselineCalibrationSchema = z.strictObject({
    ...where,
    baselineFile: z.string(),
    threshold: score,
    accepted: verdict,
    acceptedFrom: z.enum(['stored_result', 'baseline_verdict']),
    scores: z.array(score),
    notUsable: z.array(z.string()),
    median: score.nullable(),
    spread: score.nullable(),
    judged: verdict.nullable(),
    agrees: z.boolean().nullable(),
    straddling: z.boolean(),
    rationale: z.string().nullable(),
  });

  const criterionCalibrationSchema = z.strictObject({
    criterion: z.string(),
    thresholds: z.array(score),
    baselines: z.number().int().min(0),
    scored: z.number().int().min(0),
    agreeing: z.number().int().min(0),
    agreement: score.nullable(),
    spread: score.nullable(),
    straddling: z.number().int().min(0),
    notUsableAnswers: z.number().int().min(0),
    belowMinAgreement: z.boolean(),
    items: z.array(baselineCalibrationSchema),
  });

  return z.strictObject({
    calibrationVersion: z.literal(CALIBRATION_VERSION),
    tool: z.strictObject({ name: z.string(), version: z.string() }),
    calibratedAt: z.string(),
    /** The suite folder, as given. */
    suite: z.string(),
    judge: z.strictObject({
      name: z.string(),
      /** provider/model of config.yml. */
      model: z.string().nullable(),
      /** Where the judge was asked, as a run's judge fingerprint keeps it (docs/evaluations.md); absent in files written before it was kept. */
      endpoint: z.string().optional(),
      promptVersion: z.string(),
      /** Whether the judge asked through the provider's schema mechanism, or fell back and why; null when it has none. */
      structuredOutput: z.union([z.strictObject({ structured: z.literal(true) }), z.strictObject({ structured: z.literal(false), reason: z.string() })]).nullable(),
    }),
    repeat: z.number().int().min(1).max(20),
    minAgreement: score.nullable(),
    estimate: z.strictObject({
      calls: z.number().int().min(0),
      baselines: z.number().int().min(0),
      repeat: z.number().int().min(1),
      judgeCallUsd: z.number().min(0),
      // A panel of judges (docs/judges.md, "Panels"): every member is called; absent for a single judge.
      members: z.number().int().min(3).optional(),
      usd: z.number().min(0),
      capUsd: z.number().min(0),
      aboveCap: z.boolean(),
      confirmed: z.boolean(),
    }),
    spend: z.strictObject({ judgeCalls: z.number().int().min(0), judgeRetries: z.number().int().min(0) }),
    criteria: z.array(criterionCalibrationSchema),
    skipped: z.array(z.strictObject({ criterion: z.string(), ...where, baselineFile: z.string(), reason: z.string() })),
    withoutBaseline: z.array(z.strictObject({ criterion: z.string(), ...where })),
  });
}

let built: ReturnType<typeof buildCalibrationSchema> | undefined;
/** The schema of calibration.json (built once, on first call). */
export const calibrationSchema = (): ReturnType<typeof buildCalibrationSchema> => (built ??= buildCalibrationSchema());

export type Calibration = z.infer<ReturnType<typeof calibrationSchema>>;

// The figures' types and the schema describe the same shape (a compile-time check).
type Assignable<A, B extends A> = B;
export type FiguresFit = Assignable<Pick<Calibration, 'criteria' | 'skipped' | 'withoutBaseline'>, CalibrationFigures>;
export type EstimateFits = Assignable<Calibration['estimate'], CalibrationEstimate>;

/** The criteria whose agreement is below --min-agreement (the calibration then exits 1). */
export function belowMinimum(c: Pick<Calibration, 'criteria'>): string[] {
  return c.criteria.filter((x) => x.belowMinAgreement).map((x) => x.criterion);
}

/**
 * With --min-agreement, the criteria re-judged that got no usable score (a judge that never
 * answered, a key refused): the minimum cannot be shown to hold for them, so the calibration exits
 * 1 as for a criterion below it (docs/calibration.md, "How to read it"); none without a minimum.
 */
export function unmeasured(c: Pick<Calibration, 'criteria' | 'minAgreement'>): string[] {
  if (c.minAgreement === null) return [];
  return c.criteria.filter((x) => x.scored === 0).map((x) => x.criterion);
}

/** Reads calibration.json text: the parsed calibration, or an error naming what is wrong. */
export function parseCalibration(text: string, file: string): Calibration {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON: ${(e as Error).message}`);
  }
  const parsed = calibrationSchema().safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`${file}: not a calibration.json of version ${CALIBRATION_VERSION}: ${first?.path.join('.') || '(top)'}: ${first?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
