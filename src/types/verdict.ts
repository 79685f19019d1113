// Verdicts and drift (docs/semantics.md, "Verdicts" and "Drift").

import type { PanelMember } from './judge.js';
import type { Meaning } from './meaning.js';

export type Verdict = 'pass' | 'fail' | 'not_evaluated';
export type BaselineVerdict = 'pass' | 'fail';

export type DriftVerdict =
  | 'still_passing'
  | 'still_failing'
  | 'newly_passing'
  | 'newly_failing'
  | 'no_baseline'
  | 'not_evaluated';

export const DRIFT_VERDICTS: readonly DriftVerdict[] = [
  'still_passing',
  'still_failing',
  'newly_passing',
  'newly_failing',
  'no_baseline',
  'not_evaluated',
] as const;

export interface Drift {
  reply: 'same' | 'different' | null;
  route: 'same' | 'different' | null;
  verdict: DriftVerdict;
  /**
   * When the reply differs from the baseline's: what it means for the user (docs/meaning.md); null
   * when not computed (no baseline reply, the same reply, meaning.check off; but a repeated item's
   * attempt that replied otherwise than the baseline reply shown: docs/meaning.md, "Repeats"). Absent in older records.
   */
  meaning?: Meaning | null;
}

export interface PersonaDrift {
  /** Any reply or the number of turns differs. */
  transcript: 'same' | 'different' | null;
  /** The sequence of routes differs. */
  route: 'same' | 'different' | null;
  verdict: DriftVerdict;
  /** The script's meaning: its worst turn's, or `changed` by `turns` (docs/meaning.md, "Persona scripts"). Absent in older records. */
  meaning?: Meaning | null;
}

/**
 * Result of running one assertion against a reply. `detail` always says why. A check that ran to
 * the end passes or fails (a judge's score and rationale with it); one that did not run is not
 * evaluated and carries no score: it is never a pass or a fail.
 */
export type Outcome =
  | {
      verdict: 'pass' | 'fail';
      detail: string;
      /** Judge assertions only. */
      score?: number;
      threshold?: number;
      rationale?: string;
      /** A panel of judges: every member's answer. */
      members?: PanelMember[];
    }
  | {
      verdict: 'not_evaluated';
      detail: string;
      /** Judge assertions only: the threshold the score would have been held against. */
      score?: null;
      threshold?: number;
      rationale?: null;
      /** A panel of judges: every member's answer (too few of them usable). */
      members?: PanelMember[];
    };
