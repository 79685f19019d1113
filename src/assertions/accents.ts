// A check whose text looks as the reply does but writes an accented letter otherwise
// (docs/fixtures.md, "Assertions"): `contains` and `regex` compare text as written, and say why.

/** Text outside ASCII: only such a text can be written in another Unicode normalization form. */
export const NOT_ASCII = /[\u0080-\uFFFF]/;

/**
 * The words after a failed check's detail when its text and the reply write an accented letter
 * otherwise, as one character (Unicode NFC) or as a letter and a combining accent (NFD, as some
 * macOS editors save text), and so look the same. `checkNfc`: the check's text is the NFC one;
 * `asReply`: the check's text as the reply writes it, which the fix gives (for `key`) with its
 * letters outside ASCII escaped for a double-quoted YAML value, which no editor rewrites.
 */
export function writtenOtherwise(key: 'contains' | 'regex', checkNfc: boolean, asReply: string): string {
  const how = checkNfc
    ? "the reply's accented letter is a letter plus a combining accent (Unicode NFD), the check's one character (NFC)"
    : "its accented letter is a letter plus a combining accent (Unicode NFD, as some macOS editors save text), the reply's one character (NFC)";
  const escaped = yamlEscaped(asReply);
  return ` as written: ${how}${escaped.length > 60 ? '' : `; write it as the reply does: ${key}: "${escaped}"`}`;
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
