// The judge's structured output on the surfaces (docs/configuration.md, "Structured output"): said
// only when the judge fell back to the plain prompt.

/** What the run's judge did instead of structured output, in words; `quote` renders the endpoint's reason (untrusted text). */
export function judgeFallbackText(reason: string | undefined, quote: (text: string) => string): string {
  return `judge: the endpoint refused structured output${reason ? ` (${quote(reason)})` : ''}; the judge used the plain prompt for the rest of the run`;
}
