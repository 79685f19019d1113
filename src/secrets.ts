// Secrets (values that came from `${ENV}` in the config, tokens from inputs) never appear in
// logs, results, comments or summaries. Every text that leaves the process passes through here.
//
// A secret is also found in the forms it takes once an agent, a judge or a proxy has echoed it
// inside JSON or a URL: each character may be written as itself, as a JSON escape (`\/`, `\"`,
// `\\`, `\n`, `\u00e9`, surrogate pairs for astral characters) or percent-encoded (`%2F`, the
// UTF-8 bytes of a non-ASCII character, `+` for a space). Forms may mix within one occurrence;
// hex digits may be upper or lower case. A text encoded more than once (JSON inside a JSON string,
// a URL parameter encoded twice, JSON then percent-encoded) is found too: an escape's backslash
// may be doubled any number of times or itself percent-encoded, and `%` may be written `%25`.

const MIN_SECRET_LENGTH = 4;

/** Short JSON escapes besides `\uXXXX`. */
const JSON_SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A hex number in either case: `2f` -> `2[fF]`. */
function hexPattern(hex: string): string {
  return hex.replace(/[a-f]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/**
 * The backslashes that start a JSON escape, as the text was encoded once or more: one, two or
 * three (JSON inside a JSON string), `%5C` (JSON then percent-encoded), ...
 */
const ESCAPE = '(?:\\\\|%5[cC])+';
/** The `%` of a percent-encoded byte, encoded once or more: `%`, `%25`, `%2525`, ... */
const PERCENT = '%(?:25)*';

/** Every way one character (a code point) of a secret may be written. */
function charPattern(char: string): string {
  const forms = [escapeRegExp(char)];
  const short = JSON_SHORT_ESCAPES[char];
  if (short !== undefined) {
    // The escaped letter itself may be percent-encoded (`%5C%22` for `\"`).
    const letter = short.slice(1);
    forms.push(`${ESCAPE}(?:${escapeRegExp(letter)}|${PERCENT}${hexPattern(letter.charCodeAt(0).toString(16).padStart(2, '0'))})`);
  }
  // JSON: one \uXXXX per UTF-16 code unit.
  let units = '';
  for (let i = 0; i < char.length; i++) units += `${ESCAPE}u${hexPattern(char.charCodeAt(i).toString(16).padStart(4, '0'))}`;
  forms.push(units);
  // URL: one %XX per UTF-8 byte; a space may be `+` (forms).
  forms.push([...Buffer.from(char, 'utf8')].map((b) => `${PERCENT}${hexPattern(b.toString(16).padStart(2, '0'))}`).join(''));
  if (char === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/** One pattern matching a secret in any of its forms. */
function secretPattern(secret: string): string {
  return [...secret].map(charPattern).join('');
}

/**
 * An Authorization value's usual schemes, then one word, the credentials. Only these: a secret of
 * two ordinary words (a passphrase) must not make its second word a secret of its own.
 */
const AUTH_SCHEME = /^\s*(?:bearer|basic|token|bot|key|api-?key|jwt|ssws)[ \t]+(\S+)\s*$/i;

/**
 * The texts a secret stands for: itself and, for a header value of the form `Scheme credentials`
 * (`Bearer sk-...`, `Token ...`, `Basic dXNlcjpwYXNz`), the credentials alone, which a server
 * quotes without the scheme ("invalid token sk-..."); for `Basic`, also the decoded `user:password`
 * and the password (docs/security.md, "Secrets"). Each is also looked for inside base64 (base64Forms).
 */
export function secretForms(secret: string): string[] {
  const forms = [secret];
  const m = AUTH_SCHEME.exec(secret);
  if (m !== null) {
    const credentials = m[1] as string;
    forms.push(credentials);
    if (/^\s*basic\s/i.test(secret) && /^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) {
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon !== -1 && !decoded.includes('\uFFFD')) forms.push(decoded, decoded.slice(colon + 1));
    }
  }
  return forms;
}

/**
 * A secret shorter than this is not looked for inside base64: its few characters there would hide
 * ordinary text (docs/security.md, "Secrets").
 */
const MIN_BASE64_SECRET_LENGTH = 12;

/**
 * A secret as it reads inside the base64 of a longer text (basic auth's `user:key` from a key sent
 * as a bearer token, a server's encoded echo): for each of the three places it may start in a
 * 3-byte group, the characters its bytes alone decide (the first one to three and the last depend
 * on the bytes around it), in standard and URL-safe base64.
 */
export function base64Forms(secret: string): string[] {
  if (secret.length < MIN_BASE64_SECRET_LENGTH) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>();
  for (const [shift, skip] of [[0, 0], [1, 2], [2, 3]] as const) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
    const core = text.slice(skip, (shift + bytes.length) % 3 === 0 ? text.length : -1);
    out.add(core).add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out];
}

/**
 * Every text the runner should mask for one secret in the job log: its forms (secretForms) and, for
 * each, the base64 forms the redactor looks for (base64Forms), so an echo that reaches the log some
 * other way than through our redacted outputs is masked too (docs/security.md, "Secrets").
 */
export function maskForms(secret: string): string[] {
  const forms = secretForms(secret);
  return [...new Set([...forms, ...forms.flatMap(base64Forms)])].filter((f) => f.length > 0);
}

/**
 * A secret's base64 form as written, or echoed inside JSON or a URL: of its characters only `+`
 * and `/` have other forms there (`%2B`, `\/`, `%2F`). Cheap to compile, unlike secretPattern.
 */
function base64Pattern(form: string): string {
  return form.replace(/[+/]/g, (c) => (c === '+' ? `(?:\\+|${PERCENT}2[bB])` : `(?:/|${ESCAPE}/|${PERCENT}2[fF])`));
}

/** Returns a function that replaces every occurrence of every secret, in every form, with `***`. */
export function makeRedactor(secrets: readonly string[]): (text: string) => string {
  const written = [...new Set(secrets.flatMap(secretForms).filter((s) => s.length >= MIN_SECRET_LENGTH))];
  const inBase64 = [...new Set(written.flatMap(base64Forms))].filter((f) => !written.includes(f));
  // Longest first, so that a secret containing another is replaced whole.
  const values = [...written, ...inBase64].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  const literal = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  // Every form but the secret as written has a `\` or a `%` in it, or a `+` for a space
  // (charPattern). A text with none of them can hold a secret only as written: the pattern of
  // every form, which V8 takes 15 to 40 ms to compile for one 40-character token (more than all
  // of an Action run's redacting otherwise), is built and compiled only for a text that may need it.
  const encoded = values.some((v) => v.includes(' ')) ? /[\\%+]/ : /[\\%]/;
  let anyForm: RegExp | undefined;
  return (text) => {
    const out = encoded.test(text) ? text.replace((anyForm ??= new RegExp(values.map((v) => (inBase64.includes(v) ? base64Pattern(v) : secretPattern(v))).join('|'), 'g')), '***') : text.replace(literal, '***');
    return out.includes('\u2026') ? redactClipped(out, values) : out;
  };
}

/**
 * Texts are often clipped with an ellipsis before they get here (an HTTP body snippet, a quoted
 * match): a secret cut by the clip must not leak its first characters either. Before each `…`, the
 * longest beginning (at least MIN_SECRET_LENGTH characters, not the whole) of any of `values` is
 * replaced with `***`. One pass over the text, looking back from each ellipsis only: splitting the
 * whole text once per secret and per length took 16 ms of each Action run (a comment holds many
 * clipped replies; a 40-character token is 36 lengths).
 */
function redactClipped(text: string, values: readonly string[]): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('\u2026'); at !== -1; at = text.indexOf('\u2026', at + 1)) {
    let cut = 0;
    for (const value of values) {
      for (let n = Math.min(value.length - 1, at - from); n > Math.max(cut, MIN_SECRET_LENGTH - 1); n--) {
        if (text.startsWith(value.slice(0, n), at - n)) {
          cut = n;
          break;
        }
      }
    }
    if (cut === 0) continue;
    out += `${text.slice(from, at - cut)}***`;
    from = at;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Every secret this process has read (the token inputs, config.yml's `${NAME}` values, the agent
 * headers, a trace store's key...), remembered where they are read, so that the last-resort error
 * handlers (main.ts, cli/main.ts) redact an unexpected error's message and stack of all of them,
 * not only of the inputs they know by name (docs/security.md, "Secrets").
 */
const known = new Set<string>();

/** Adds secrets to the process's registry (empty values are ignored). */
export function rememberSecrets(values: Iterable<string>): void {
  for (const v of values) if (v.length > 0) known.add(v);
}

/** The secrets remembered so far. */
export function knownSecrets(): string[] {
  return [...known];
}

/** A redactor of every secret remembered so far, and of `extra`. */
export function redactorOfKnown(extra: readonly string[] = []): (text: string) => string {
  return makeRedactor([...known, ...extra]);
}
