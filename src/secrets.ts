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
    return out;
  };
}
