import type { Outcome } from '../types.js';
import { quote } from './format.js';

/** Literal, case-sensitive `reply.includes(value)`. */
export function evaluateContains(value: string, reply: string): Outcome {
  return reply.includes(value)
    ? { verdict: 'pass', detail: `reply contains ${quote(value)}` }
    : { verdict: 'fail', detail: `reply does not contain ${quote(value)}${encodedOtherwise(value, reply)}` };
}

/** Text outside ASCII: only such a text can be written in another Unicode normalization form. */
const NOT_ASCII = /[\u0080-\uFFFF]/;

/**
 * Why a reply that shows the value does not contain it (docs/fixtures.md, "Assertions"): the two
 * write an accented letter otherwise, as one character (Unicode NFC) or as a letter and a
 * combining accent (NFD, as some macOS editors save text), and so look the same. The check stays
 * literal; the words say why, and the value as the reply writes it, its letters outside ASCII
 * escaped for a double-quoted YAML value, which no editor rewrites. Empty otherwise, and for ASCII
 * texts at once.
 */
function encodedOtherwise(value: string, reply: string): string {
  if (!NOT_ASCII.test(value) && !NOT_ASCII.test(reply)) return '';
  if (!reply.normalize('NFC').includes(value.normalize('NFC'))) return '';
  const checkNfc = value === value.normalize('NFC');
  const how = checkNfc
    ? "the reply's accented letter is a letter plus a combining accent (Unicode NFD), the check's one character (NFC)"
    : 'its accented letter is a letter plus a combining accent (Unicode NFD, as some macOS editors save text), the reply\'s one character (NFC)';
  const escaped = yamlEscaped(value.normalize(checkNfc ? 'NFD' : 'NFC'));
  return ` as written: ${how}${escaped.length > 60 ? '' : `; write it as the reply does: contains: "${escaped}"`}`;
}

/** `text` inside YAML's double quotes: a quote and a backslash escaped, and every character outside printable ASCII as \uXXXX (\UXXXXXXXX past U+FFFF). */
function yamlEscaped(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else out += code > 0xffff ? `\\U${code.toString(16).toUpperCase().padStart(8, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}
