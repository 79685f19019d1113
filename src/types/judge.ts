// What judged an item, and a judge's answer (docs/judges.md).

/**
 * What judged an item: the judge model, the judge prompt's version, and each criterion with its
 * threshold (a fixture's judge assertion has one; a persona script one per criterion, in order).
 */
export interface JudgeFingerprint {
  /** "provider/model" of the configured judge (or the judge's name when it is not configured); null: no judge. */
  model: string | null;
  /**
   * Where the judge was asked: its base address without credentials, query or fragment (a panel's
   * members', in order, joined by ", "). Absent for a judge that is not configured, and in older
   * records and baselines: unknown, never a change (docs/evaluations.md, "What defined each item").
   */
  endpoint?: string;
  promptVersion: string;
  criteria: Array<{ criterion: string; threshold: number }>;
}

/**
 * A judge's answer: a score and its rationale, or why there is none. `answered`: the judge answered
 * but gave no usable score (it declined, gave none, or one out of range), or something answered at
 * its address in a form not read (not HTTP, an answer that did not end or broke off); absent when it
 * could not be asked or nothing answered (docs/judges.md).
 */
export type JudgeResult =
  | { ok: true; score: number; rationale: string; members?: PanelMember[] }
  | { ok: false; reason: string; members?: PanelMember[]; answered?: true };

/**
 * One member's answer in a panel of judges (docs/judges.md, "Panels"): its label ("provider model"
 * unless it has one), and its score and rationale, or the reason it gave no usable score.
 */
export interface PanelMember {
  label: string;
  score: number | null;
  rationale: string | null;
  /** Why this member gave no usable score; null when it gave one. */
  reason: string | null;
}

/** Whether a judge asks through the provider's schema mechanism, or fell back to the plain prompt and why. */
export type JudgeStructuredOutput = { structured: true } | { structured: false; reason: string };

/** The judge providers agent-replay has a client for (config.yml `judge.provider`, the `judge-provider` input). */
export const JUDGE_PROVIDERS = ['openai', 'anthropic'] as const;
export type JudgeProvider = (typeof JUDGE_PROVIDERS)[number];

/** Where a reused judge result came from: the baseline's commit and acceptance time. */
export interface JudgeReuse {
  commit: string | null;
  acceptedAt: string;
}
