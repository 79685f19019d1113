// Small helpers for detail lines: one line each, values quoted and bounded.

const MAX_QUOTED_CHARS = 80;

/** `"value"` on one line (newlines and tabs shown as \n and \t), at most `max` characters. */
export function quote(value: string, max = MAX_QUOTED_CHARS): string {
  const cut = value.length > max ? `${value.slice(0, max)}\u2026` : value;
  return `"${cut.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/** `/pattern/flags`, bounded like a quoted value. */
export function showPattern(pattern: string, flags: string, max = MAX_QUOTED_CHARS): string {
  const cut = pattern.length > max ? `${pattern.slice(0, max)}\u2026` : pattern;
  return `/${cut.replace(/\r/g, '\\r').replace(/\n/g, '\\n')}/${flags}`;
}

/**
 * A score and a threshold printed with the fewest decimals (at least two) that keep the
 * comparison visible: 0.695 against 0.70 prints as 0.695 < 0.700, never 0.70 < 0.70.
 */
export function formatPair(score: number, threshold: number): [string, string] {
  for (let digits = 2; digits <= 6; digits++) {
    const s = score.toFixed(digits);
    const t = threshold.toFixed(digits);
    if ((s === t) === (score === threshold)) return [s, t];
  }
  return [String(score), String(threshold)];
}

/** One line of free text (a message from elsewhere), bounded. */
export function line(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}\u2026` : flat;
}
