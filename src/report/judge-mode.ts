// The judge's structured output on the surfaces (docs/configuration.md, "Structured output"): said
// only when the judge fell back to the plain prompt.

/**
 * What the judge did instead of structured output, in words; `quote` renders the endpoint's reason
 * (untrusted text). `within` names what the fallback held for: a run's reports say "the run",
 * `calibrate` (no run) "the calibration" (docs/calibration.md).
 */
export function judgeFallbackText(reason: string | undefined, quote: (text: string) => string, within: 'run' | 'calibration' = 'run'): string {
  return `judge: the endpoint refused structured output${reason ? ` (${quote(reason)})` : ''}; the judge used the plain prompt for the rest of the ${within}`;
}
