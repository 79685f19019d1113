// `meaning:` of config.yml (docs/meaning.md, "Configuration"): how a reply that differs from its
// baseline gets its meaning. The schema of the section as written, its defaults, and its
// resolution into `MeaningSettings` (only the keys given: the model keys not given are the
// judge's, resolved when the run starts by src/judge/meaning-config.ts, after the judge's overrides).

import * as z from 'zod';
import { onFirstUse } from '../patterns.js';
import { MEANING_CHECKS, type Config, type MeaningCheck, type MeaningSettings } from '../config.js';
import { JUDGE_PROVIDERS } from '../types.js';
import type { ConfigIssue } from './issues.js';
import { urlIssue, type IssueAt } from './config/shared.js';

export const MEANING_DEFAULTS = {
  /** The meaning judge's score needed for `reworded`. */
  threshold: 0.8,
} as const;

const THRESHOLD_ERROR = `must be a score from 0 to 1 (the meaning judge's score needed for reworded; ${MEANING_DEFAULTS.threshold} when not set)`;

/** The section as written: every key optional; a key not given is the default, or the judge's. */
export const meaningSchema = onFirstUse(() =>
  z
    .strictObject({
      check: z.enum(MEANING_CHECKS).optional(),
      threshold: z.number({ error: THRESHOLD_ERROR }).min(0, { error: THRESHOLD_ERROR }).max(1, { error: THRESHOLD_ERROR }).optional(),
      provider: z.enum(JUDGE_PROVIDERS).optional(),
      baseUrl: z.string().optional(),
      model: z.string().min(1).optional(),
      apiKey: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
);

export type MeaningSection = NonNullable<z.infer<ReturnType<typeof meaningSchema>>>;

/**
 * The section's settings: the keys given (after `${ENV}`; `written` is the file as written, for
 * quoting without a substituted secret). Every problem is added to `errors`, none stops the others.
 */
export function resolveMeaningSection(resolved: MeaningSection, written: MeaningSection, issueAt: IssueAt, errors: ConfigIssue[]): MeaningSettings {
  const out: MeaningSettings = {};
  if (resolved.check !== undefined) out.check = resolved.check;
  if (resolved.threshold !== undefined) out.threshold = resolved.threshold;
  if (resolved.provider !== undefined) out.provider = resolved.provider;
  if (resolved.model !== undefined) out.model = resolved.model;
  if (resolved.apiKey !== undefined) out.apiKey = resolved.apiKey === '' ? null : resolved.apiKey;
  if (resolved.baseUrl !== undefined) {
    const example = resolved.provider === 'anthropic' ? 'https://api.anthropic.com/v1' : 'https://api.openai.com/v1';
    const issue = urlIssue('meaning.baseUrl', written.baseUrl ?? '', resolved.baseUrl, { what: 'the API base address', key: 'baseUrl', example, or: ", or remove it to use the judge's", apiBase: true });
    if (issue === null) out.baseUrl = resolved.baseUrl.replace(/\/+$/, '');
    else errors.push(issueAt(['meaning', 'baseUrl'], issue.message, issue.fix));
  }
  return out;
}

/**
 * `meaning.check` for a run: as written, else `judge` when a judge is configured or `meaning:` names
 * a model of its own, else `facts` (no model call).
 */
export function meaningCheckOf(config: Pick<Config, 'judge' | 'meaning'>): MeaningCheck {
  const m = config.meaning ?? {};
  if (m.check !== undefined) return m.check;
  return config.judge !== null || ownModel(m) ? 'judge' : 'facts';
}

/** `meaning.threshold` for a run. */
export function meaningThresholdOf(config: Pick<Config, 'meaning'>): number {
  return config.meaning?.threshold ?? MEANING_DEFAULTS.threshold;
}

/** Whether `meaning:` names a model of its own (any of provider, baseUrl, model, apiKey). */
export function ownModel(m: MeaningSettings): boolean {
  return m.provider !== undefined || m.baseUrl !== undefined || m.model !== undefined || m.apiKey !== undefined;
}
