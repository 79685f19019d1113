// Meaning: whether a reply that differs from its baseline tells the user something different
// (docs/meaning.md). The ladder in evaluate/meaning/ decides it; records and baselines carry it.

/** A kind of fact the facts rung compares (docs/meaning.md, "Facts"). */
export type FactKind = 'number' | 'time' | 'amount' | 'url' | 'email' | 'code';

/** One fact as compared: its kind and its canonical value ("1000", "18:00", "EUR 30", "https://example.com/refunds", "SAVE10"). */
export interface Fact {
  kind: FactKind;
  value: string;
  /**
   * A wording that may be one of several facts ("3 pounds": the number 3 or GBP 3; "¥100": JPY 100
   * or CNY 100): every fact it may be, `value` the one a detail names it by. Read by the comparison
   * (docs/meaning.md, "Facts"), never recorded: a FactsDifference holds `kind` and `value` only.
   */
  may?: readonly Fact[];
}

/** The facts of the baseline that the reply lacks, and those of the reply that the baseline lacks (multisets). */
export interface FactsDifference {
  baseline: Fact[];
  now: Fact[];
}

export type MeaningValue = 'formatting' | 'variant' | 'changed' | 'reworded' | 'unchecked';
/**
 * What decided: a rung of the ladder, `turns` (a script with another number of turns), `message` (a
 * fixture whose baseline answered another message: docs/meaning.md, "An edited fixture"), or null
 * (not decided: unchecked).
 */
export type MeaningBy = 'normalize' | 'variant' | 'facts' | 'judge' | 'turns' | 'message' | null;

/** A differing reply's meaning, as results.json records it (docs/meaning.md, "The meaning of one reply, as recorded"). */
export interface Meaning {
  value: MeaningValue;
  by: MeaningBy;
  /** One line: the facts that differ ("numbers 30 → 14"), the judge's difference, why it was not checked; null when there is nothing to say. */
  detail: string | null;
  /** When decided by the facts: the baseline's facts the reply lacks, and the reply's the baseline lacks. */
  facts?: FactsDifference;
  /** When decided by the judge: its score from 0 (a different meaning) to 1 (the same). */
  score?: number;
  /** When the judge was asked: true when its answer came from an earlier identical call of the run. */
  reused?: boolean;
}
