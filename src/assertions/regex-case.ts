// Flag i written into the pattern, for V8's linear-time engine, which refuses the flag
// (docs/architecture.md, "The regex time budget"). Without flag u or v, an ASCII letter matches
// under flag i exactly its two ASCII cases: a character's case is folded by toUpperCase, and
// never from outside ASCII into it (so neither the long s nor the Kelvin sign matches s or k).
// \d, \s, \w and \b are the same with or without the flag. So a pattern written in ASCII matches
// under flag i what the same pattern matches without it once each letter is a class of its two
// cases: `refund` -> `[rR][eE][fF][uU][nN][dD]`, `[a-c]` -> `[a-cABC]`, `[^x]` -> `[^xX]`.
// Anything this reading does not cover gives null (the pattern then goes where it went before):
// a character outside ASCII, an escape that stands for a letter or names something (`\x41`,
// `\u0041`, `\cJ`, `\k<n>`, `\p{L}`, an identity escape such as `\e`), a back-reference, and a `{`
// that is not a quantifier.

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const otherCase = (c: number): number => (c <= 90 ? c + 32 : c - 32);
/** Escapes outside a class that stand for no letter: classes, assertions and control characters. */
const PLAIN_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W', 'b', 'B', 'n', 't', 'r', 'f', 'v']);
/** Inside a class `\b` is a backspace and `\B` an identity escape (the letter B). */
const CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W', 'b', 'n', 't', 'r', 'f', 'v']);
/** The characters the control escapes stand for, inside a class (`\b` there is a backspace). */
const CONTROL: Record<string, number> = { b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };

/** The class body (between `[` or `[^` and `]`) with the other case of every letter it holds added; null: not covered. */
function classWithCases(body: string): string | null {
  const members = new Set<number>();
  let i = 0;
  /** One class atom: its code point, or -1 for a class escape (\d, \w...) that is no single character. */
  const atom = (): number | null => {
    const c = body[i] as string;
    if (c !== '\\') {
      i++;
      return c.charCodeAt(0);
    }
    const e = body[i + 1];
    if (e === undefined) return null;
    i += 2;
    if (e === '0' && !/[0-9]/.test(body[i] ?? '')) return 0;
    if (/[A-Za-z0-9]/.test(e)) {
      if (!CLASS_ESCAPES.has(e)) return null;
      return 'dDsSwW'.includes(e) ? -1 : (CONTROL[e] as number);
    }
    return e.charCodeAt(0);
  };
  while (i < body.length) {
    const lo = atom();
    if (lo === null) return null;
    if (body[i] === '-' && i + 1 < body.length) {
      i++;
      const hi = atom();
      if (hi === null) return null;
      // A range with a class escape at one end is a literal `-` in this mode: not covered.
      if (lo === -1 || hi === -1) return null;
      for (let c = lo; c <= hi; c++) if (isLetter(c)) members.add(c);
    } else if (lo !== -1 && isLetter(lo)) {
      members.add(lo);
    }
  }
  let extra = '';
  for (const c of members) if (!members.has(otherCase(c))) extra += String.fromCharCode(otherCase(c));
  if (extra === '') return body;
  // A `-` that ends the class is a literal; followed by more letters it would start a range.
  return endsWithLiteralDash(body) ? `${body.slice(0, -1)}\\-${extra}` : body + extra;
}

/** Whether the class body ends with a `-` that is not escaped. */
function endsWithLiteralDash(body: string): boolean {
  if (!body.endsWith('-')) return false;
  let slashes = 0;
  for (let i = body.length - 2; i >= 0 && body[i] === '\\'; i--) slashes++;
  return slashes % 2 === 0;
}

/** `pattern` with flag i written in; null when the reading above does not cover it (see the head of this file). */
export function caseExpanded(pattern: string): string | null {
  // ASCII only (and no control characters that would need care in a class).
  if (!/^[\x20-\x7e]*$/.test(pattern)) return null;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const e = pattern[i + 1];
      if (e === undefined) return null;
      if (/[A-Za-z]/.test(e) && !PLAIN_ESCAPES.has(e)) return null;
      if (/[1-9]/.test(e)) return null;
      if (e === '0' && /[0-9]/.test(pattern[i + 2] ?? '')) return null;
      out += c + e;
      i++;
    } else if (c === '[') {
      const negated = pattern[i + 1] === '^';
      let j = i + (negated ? 2 : 1);
      // The class ends at the first `]` that is not escaped (a `]` first in the class is such an end in JavaScript).
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length) return null;
      const body = classWithCases(pattern.slice(i + (negated ? 2 : 1), j));
      if (body === null) return null;
      out += `[${negated ? '^' : ''}${body}]`;
      i = j;
    } else if (c === '(' && pattern[i + 1] === '?') {
      // Group syntax, copied as it is: (?: (?= (?! (?<= (?<! and a group's name (?<name>.
      const named = /^\(\?<([A-Za-z_$][\w$]*)>/.exec(pattern.slice(i));
      const head = named?.[0] ?? (/^\(\?(?::|=|!|<=|<!)/.exec(pattern.slice(i))?.[0] ?? null);
      if (head === null) return null;
      out += head;
      i += head.length - 1;
    } else if (c === '{') {
      const q = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i));
      if (q === null) return null;
      out += q[0];
      i += q[0].length - 1;
    } else if (isLetter(c.charCodeAt(0))) {
      out += `[${c}${String.fromCharCode(otherCase(c.charCodeAt(0)))}]`;
    } else {
      out += c;
    }
  }
  return out;
}
