// Secrets (values that came from `${ENV}` in the config, tokens from inputs) never appear in
// logs, results, comments or summaries. Every text that leaves the process passes through here.

const MIN_SECRET_LENGTH = 4;

/** Returns a function that replaces every occurrence of every secret with `***`. */
export function makeRedactor(secrets: readonly string[]): (text: string) => string {
  const values = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) out = out.split(value).join('***');
    // Texts are often clipped with an ellipsis before they get here (an HTTP body snippet, a
    // quoted match): a secret cut by the clip must not leak its first characters either.
    if (out.includes('\u2026')) {
      for (const value of values) {
        for (let n = value.length - 1; n >= MIN_SECRET_LENGTH; n--) out = out.split(`${value.slice(0, n)}\u2026`).join('***\u2026');
      }
    }
    return out;
  };
}
