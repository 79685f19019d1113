// What to tell the author of a regex assertion about its backslashes, read as JavaScript reads them
// (docs/fixtures.md, Assertions: a regex is a JavaScript RegExp with its flags).
//
// Without the u or v flag, a backslash before a character that has no escape meaning is ignored:
// `\q` is the letter q, `\p{L}` is the text "p{L}". With u or v (Unicode mode) the same backslash
// is a syntax error. So the advice depends on the flags: a pattern that fails only because of the
// flag is told to drop the backslash or the flag, never to add more backslashes; one that compiles
// but holds an ignored backslash is told what it means.

import { shownJson } from '../words.js';

/** Letters that begin an escape in a JavaScript pattern (in either mode); any other letter after `\` is ignored without u. */
const ESCAPE_LETTERS = new Set('dDwWsSbBfnrtvcxu0kpP'.split(''));
/** Characters a backslash may precede in Unicode mode (outside the v flag's class syntax). */
const UNICODE_IDENTITY = new Set('^$\\.*+?()[]{}|/-'.split(''));

export interface RegexNote {
  /** Without the suite prefix; the caller adds `fixture "x": `. */
  message: string;
  fix: string;
}

interface Escape {
  index: number;
  char: string;
}

/** Every `\x` of the pattern, in order (a doubled backslash is one escape of `\`). */
function escapesOf(pattern: string): Escape[] {
  const out: Escape[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue;
    const char = pattern[i + 1];
    if (char === undefined) break;
    out.push({ index: i, char });
    i += 1;
  }
  return out;
}

const shown = (escapes: readonly Escape[]): string => [...new Set(escapes.map((e) => `\\${e.char}`))].join(' and ');

function withoutBackslashes(pattern: string, escapes: readonly Escape[]): string {
  const at = new Set(escapes.map((e) => e.index));
  let out = '';
  for (let i = 0; i < pattern.length; i++) if (!at.has(i)) out += pattern[i];
  return out;
}

const yamlSingle = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * A pattern that does not compile with its flags: why, and the fix that fits the flags. Only for a
 * pattern `new RegExp(pattern, flags)` refused with `error`.
 */
export function regexCompileAdvice(pattern: string, flags: string, error: string): RegexNote {
  const unicodeFlag = flags.includes('v') ? 'v' : flags.includes('u') ? 'u' : null;
  if (unicodeFlag !== null) {
    const stray = escapesOf(pattern).filter((e) => !ESCAPE_LETTERS.has(e.char) && !UNICODE_IDENTITY.has(e.char) && !/\d/.test(e.char));
    const otherFlags = flags.replace(unicodeFlag, '');
    if (stray.length > 0 && compiles(pattern, otherFlags)) {
      const plain = withoutBackslashes(pattern, stray);
      const what = stray.length === 1 ? `${shown(stray)} is not an escape` : `${shown(stray)} are not escapes`;
      return {
        message: `pattern does not compile with the ${unicodeFlag} flag: ${what} in Unicode mode (with u or v, a backslash before a character that has no escape meaning is a syntax error); the fixture is not evaluated at run time`,
        fix: `remove the ${stray.length === 1 ? 'backslash' : 'backslashes'} (regex: ${yamlSingle(plain)}), or remove the ${unicodeFlag} flag (${otherFlags === '' ? 'remove flags' : `flags: "${otherFlags}"`}), without which ${shown(stray)} ${stray.length === 1 ? 'stands' : 'stand'} for ${stray.map((e) => shownJson(e.char)).join(' and ')}`,
      };
    }
  }
  const inline = inlineFlagsFix(pattern, flags);
  return {
    message: `pattern does not compile: ${error}; the fixture is not evaluated at run time`,
    fix: inline ?? COMPILE_FIX,
  };
}

/** The general fix for a pattern that does not compile. */
export const COMPILE_FIX = 'correct the pattern (JavaScript RegExp syntax); escape a literal ( [ { . * + ? with a backslash';

/**
 * `(?i)monday`, the inline flags of PCRE, Python and Go at a pattern's start, which JavaScript does
 * not have: the fix that writes them under `flags:`, when the rest compiles with them. null otherwise.
 */
export function inlineFlagsFix(pattern: string, flags: string): string | null {
  const m = /^\(\?([ims]+)\)/.exec(pattern);
  if (m === null) return null;
  const rest = pattern.slice(m[0].length);
  const all = [...new Set([...flags, ...(m[1] as string)])].join('');
  if (rest === '' || !compiles(rest, all)) return null;
  return `JavaScript has no inline flags such as ${m[0]}: write the pattern without it and the flags apart, regex: ${yamlSingle(rest)}, flags: ${all}`;
}

/**
 * A pattern that compiles but holds a backslash JavaScript ignores (no u or v flag): what it
 * means. null when there is nothing to say.
 */
export function regexMeaningNote(pattern: string, flags: string): RegexNote | null {
  if (flags.includes('u') || flags.includes('v')) return null;
  const escapes = escapesOf(pattern);
  const property = escapes.find((e) => (e.char === 'p' || e.char === 'P') && pattern[e.index + 2] === '{');
  if (property) {
    const end = pattern.indexOf('}', property.index);
    const written = pattern.slice(property.index, end === -1 ? undefined : end + 1);
    return {
      message: `without the u flag ${written} matches the text ${shownJson(written.slice(1))}, not a Unicode property`,
      fix: `add the u flag (flags: "${flags}u") to match by Unicode property`,
    };
  }
  const ignored = escapes.filter((e) => /[A-Za-z]/.test(e.char) && !ESCAPE_LETTERS.has(e.char));
  if (ignored.length === 0) return null;
  return {
    message: `without the u flag ${shown(ignored)} ${ignored.length === 1 ? 'is the letter' : 'are the letters'} ${ignored.map((e) => shownJson(e.char)).join(' and ')} (the backslash does nothing)`,
    fix: `write regex: ${yamlSingle(withoutBackslashes(pattern, ignored))} to say so; for a class of characters use \\d (digit), \\w (word character) or \\s (space)`,
  };
}

/** Whether `pattern` compiles with `flags` (compiling never runs it: safe on the main thread). */
export function compiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/** Where a pattern written as `/body/flags` ends its body: the last slash, with no unescaped slash before it but the first. null when it is not written so. */
function slashForm(pattern: string): { body: string; flags: string } | null {
  if (!pattern.startsWith('/')) return null;
  for (let i = 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      i += 1;
      continue;
    }
    if (pattern[i] !== '/') continue;
    const after = pattern.slice(i + 1);
    // Only flag letters, each once, may follow the closing slash: `/api/v1` is a path, not /pattern/flags.
    if (!/^[dgimsuyv]*$/.test(after) || new Set(after).size !== after.length) return null;
    const body = pattern.slice(1, i);
    return body === '' ? null : { body, flags: after };
  }
  return null;
}

/**
 * The YAML a fix writes a value in: double quotes, as the docs do; single quotes for a backslash or a
 * quote (kept as written there); a control character (a line break) only as a double-quoted escape.
 */
function yamlText(text: string): string {
  if ([...text].some((c) => c < ' ')) return shownJson(text);
  return /[\\"]/.test(text) ? yamlSingle(text) : `"${text}"`;
}

/**
 * A pattern written between slashes, as JavaScript source and `probe --assert regex:/30 days/i`
 * write one (`regex: "/30 days/i"`, `regex: "/api/"`): `regex` takes the pattern alone and `flags`
 * its flags (docs/fixtures.md, "Assertions"), so the slashes and the letters after the last one are
 * matched as text. A warning, not an error: a reply may hold the slashes on purpose (a path such as
 * `/api/`), and escaping them (`\/api\/`) says so. null for any other pattern.
 */
export function regexSlashesNote(pattern: string, flags: string): RegexNote | null {
  const form = slashForm(pattern);
  if (form === null) return null;
  const all = [...new Set(flags + form.flags)].join('');
  const written = `regex: ${yamlText(form.body)}${all === '' ? '' : `, flags: ${all}`}`;
  const shownPattern = yamlText(pattern);
  if (form.flags === '') {
    return {
      message: `regex ${shownPattern} is written /pattern/, as in JavaScript, but regex takes the pattern alone: its slashes are matched as text, so a reply matches only if it holds them`,
      fix: `write the pattern alone: ${written} (to match the slashes themselves, escape them: regex: ${yamlSingle(`\\/${form.body}\\/`)})`,
    };
  }
  const letters = form.flags.length === 1 ? `the letter ${form.flags}` : `the letters ${form.flags}`;
  return {
    message: `regex ${shownPattern} is written /pattern/flags, as in JavaScript, but regex takes the pattern alone and flags its flags: its slashes and ${letters} are matched as text, so a reply matches only if it holds them`,
    fix: `write the pattern alone and its flags under flags: ${written}`,
  };
}
