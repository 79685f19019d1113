import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/secrets.js';
import { urlCredentialSecrets } from '../../src/suite/url-credentials.js';
import { prng } from '../support/prng.js';

const TOKEN = 'ab/c"d\\e f+g&h=i?j#k%l<m>n';

describe('makeRedactor: every form a secret takes', () => {
  const redact = makeRedactor([TOKEN]);
  const formUrlencoded = new URLSearchParams({ t: TOKEN }).toString().slice(2);
  it.each([
    ['as written', TOKEN],
    ['JSON.stringify', JSON.stringify(TOKEN).slice(1, -1)],
    ['JSON with / escaped as \\/ (PHP, some Java encoders)', JSON.stringify(TOKEN).slice(1, -1).replace(/\//g, '\\/')],
    ['JSON with every character as \\uXXXX', [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['JSON \\u escapes in upper-case hex', TOKEN.replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)],
    ['Go-style JSON (<, >, & as \\u003c, \\u003e, \\u0026)', JSON.stringify(TOKEN).slice(1, -1).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)],
    ['encodeURIComponent', encodeURIComponent(TOKEN)],
    ['encodeURIComponent, lower-case hex', encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['form encoding (+ for a space)', formUrlencoded],
    ['encodeURI (fewer characters escaped)', encodeURI(TOKEN)],
    ['every byte percent-encoded', [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')],
    ['JSON inside a JSON string (escaped twice)', JSON.stringify(JSON.stringify(TOKEN)).slice(3, -3)],
    ['JSON escaped three times', JSON.stringify(JSON.stringify(JSON.stringify(TOKEN))).slice(7, -7)],
    ['\\u escapes escaped again', JSON.stringify([...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).slice(1, -1)],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(TOKEN))],
    ['JSON, then percent-encoded', encodeURIComponent(JSON.stringify(TOKEN).slice(1, -1))],
  ])('%s', (_name, form) => {
    expect(form).not.toBe(''); // the table holds real forms
    const text = `before ${form} after`;
    expect(redact(text)).toBe('before *** after');
  });

  it('inside a JSON document that an agent echoed', () => {
    const body = JSON.stringify({ error: 'bad header', got: `Bearer ${TOKEN}` });
    const out = redact(body);
    expect(out).toBe('{"error":"bad header","got":"Bearer ***"}');
  });

  it('inside a URL query string', () => {
    const url = `https://example.com/cb?token=${encodeURIComponent(TOKEN)}&x=1`;
    expect(redact(url)).toBe('https://example.com/cb?token=***&x=1');
  });

  it('non-ASCII and astral characters: UTF-16 escapes and UTF-8 percent bytes', () => {
    const secret = 'clé-😀-secrète';
    const r = makeRedactor([secret]);
    const asciiJson = secret.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(asciiJson).toContain('\\ud83d\\ude00');
    for (const form of [secret, asciiJson, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) {
      expect(r(`[${form}]`)).toBe('[***]');
    }
  });

  it('several secrets, the longer first, each in its own form', () => {
    const r = makeRedactor(['tok-1234', 'tok-1234-extended', 'p@ss w/rd']);
    expect(r('a tok-1234-extended b tok-1234 c p%40ss+w%2Frd d p@ss w\\/rd')).toBe('a *** b *** c *** d ***');
  });

  it('leaves other text alone, ignores too-short secrets and keeps the ellipsis rule', () => {
    const r = makeRedactor(['abc', 'sekret-value']);
    expect(r('abc %61bc sekret-valu e')).toBe('abc %61bc sekret-valu e');
    expect(r('clipped: sekret-val\u2026')).toBe('clipped: ***\u2026');
    expect(makeRedactor([])('unchanged \\/ %2F')).toBe('unchanged \\/ %2F');
  });

  it('a secret clipped before each of several ellipses loses its beginning at each, the longest beginning of any secret', () => {
    const r = makeRedactor(['ghp_0123456789abcdef', 'sk-live-XYZW']);
    expect(r('a ghp_0123\u2026 b sk-live-X\u2026 c ghp_0\u2026 d ghp\u2026 e \u2026 ghp_0123456789abcde\u2026')).toBe('a ***\u2026 b ***\u2026 c ***\u2026 d ghp\u2026 e \u2026 ***\u2026');
    // Two secrets sharing a beginning: the longer beginning before the ellipsis goes whole.
    expect(makeRedactor(['abcdZZZZZZZZ', 'abcdefgh'])('x abcdefg\u2026')).toBe('x ***\u2026');
    expect(r('\u2026\u2026 no secret here\u2026')).toBe('\u2026\u2026 no secret here\u2026');
  });

  it('clipped secrets: the same text as replacing each beginning before an ellipsis, longest first (seeded generated texts)', () => {
    const next = prng(20261205);
    const secret = 'tok_9f8e7d6c5b4a';
    // The rule written the plain way, one length at a time over the whole text.
    const plain = (text: string): string => {
      let out = text.replaceAll(secret, '***');
      for (let n = secret.length - 1; n >= 4; n--) out = out.split(`${secret.slice(0, n)}\u2026`).join('***\u2026');
      return out;
    };
    const r = makeRedactor([secret]);
    const parts = [secret, 'x', ' ', '\u2026', 'tok', 'tok_', 'zz'];
    for (let i = 0; i < 300; i++) {
      let text = '';
      for (let k = 0; k < 12; k++) {
        const part = parts[Math.floor(next() * parts.length)] as string;
        text += part === secret ? secret.slice(0, 1 + Math.floor(next() * secret.length)) : part;
      }
      expect(r(text), JSON.stringify(text)).toBe(plain(text));
    }
  });

  it('a text with no backslash, percent sign or plus is redacted as with every form looked for (seeded generated texts)', () => {
    // Such a text is matched against the secrets as written only: the pattern of every form is
    // compiled for a text that has one of those characters. The reference forces it: a backslash
    // at the end, which no form can end with (it must be followed by u and hex digits, or a letter).
    const next = prng(20261206);
    const secrets = ['tok_9f8e7d6c5b4a', 'Bearer sk-live-0a1b2c3d', '9f8e7d6c', 'a.b*c(d)'];
    const r = makeRedactor(secrets);
    const parts = [...secrets, 'sk-live-0a1b2c3d', 'tok_', '9f8e', ' ', 'x', '\u2026', '.', '*', 'Bearer', 'sk-'];
    for (let i = 0; i < 400; i++) {
      let text = '';
      for (let k = 0; k < 10; k++) text += parts[Math.floor(next() * parts.length)] as string;
      expect(/[\\%+]/.test(text)).toBe(false);
      expect(r(text), JSON.stringify(text)).toBe(r(`${text}\\`).slice(0, -1));
    }
  });

  it('a secret with a space, written with + for the space and nothing else encoded', () => {
    expect(makeRedactor(['two words secret'])('a two+words+secret b')).toBe('a *** b');
  });

  it('regular-expression characters in a secret are literal', () => {
    const r = makeRedactor(['a.b*c(d)[e]{2}|f^$']);
    expect(r('x a.b*c(d)[e]{2}|f^$ y aXbbbc(d)ee|f')).toBe('x *** y aXbbbc(d)ee|f');
  });
});

describe('makeRedactor: an Authorization value', () => {
  it('redacts the credentials of `Scheme credentials` alone, as a server quotes them without the scheme', () => {
    const redact = makeRedactor(['Bearer sk-lit-ABCDEF123456', 'Token ghp_0123456789']);
    expect(redact('invalid token sk-lit-ABCDEF123456')).toBe('invalid token ***');
    expect(redact('{"key":"ghp_0123456789"}')).toBe('{"key":"***"}');
    expect(redact('Authorization: Bearer sk-lit-ABCDEF123456')).toBe('Authorization: ***');
  });

  it('redacts a Basic value decoded, and its password', () => {
    const basic = Buffer.from('preview:pa55-w0rd').toString('base64');
    const redact = makeRedactor([`Basic ${basic}`]);
    expect(redact(`got ${basic}`)).toBe('got ***');
    expect(redact('you are preview:pa55-w0rd')).toBe('you are ***');
    expect(redact('password pa55-w0rd')).toBe('password ***');
  });

  it('leaves the words of a secret that is not an Authorization value alone', () => {
    const redact = makeRedactor(['correct horsebattery']);
    expect(redact('a horsebattery')).toBe('a horsebattery');
  });
});

describe('makeRedactor: a secret inside base64 of a longer text', () => {
  const KEY = 'sk-agent-7Hq2Lm9Px4Rt/+x?';
  const redact = makeRedactor([KEY]);
  // Every place the key may start in a 3-byte group, and every place it may end.
  const texts = ['', 'u', 'us', 'user:'].flatMap((before) => ['', 'a', 'ab', 'abc'].map((after) => `${before}${KEY}${after}`));

  it.each([
    ['base64', (t: string) => Buffer.from(t).toString('base64')],
    ['base64url', (t: string) => Buffer.from(t).toString('base64url')],
    ['base64, percent-encoded', (t: string) => encodeURIComponent(Buffer.from(t).toString('base64'))],
    ['base64 in JSON with / escaped as \\/', (t: string) => Buffer.from(t).toString('base64').replace(/\//g, '\\/')],
  ])('%s: basic auth of user:key, wherever the key falls', (_name, encode) => {
    for (const text of texts) {
      const encoded = encode(text);
      const out = redact(`Authorization: Basic ${encoded}`);
      expect(out, text).toContain('***');
      // What is left around *** is decided by the bytes around the key: none of the key's own characters.
      expect(out.length, text).toBeLessThan(`Authorization: Basic ${encoded}`.length - 12);
      expect(out, text).not.toContain(encode(KEY).slice(4, -4));
    }
  });

  it('a secret shorter than 12 characters is not looked for inside base64, and base64 of other text is left alone', () => {
    const short = makeRedactor(['sk-12345678']);
    const encoded = Buffer.from('user:sk-12345678').toString('base64');
    expect(short(encoded)).toBe(encoded);
    const other = Buffer.from('user:another-key-entirely').toString('base64');
    expect(redact(other)).toBe(other);
  });
});

describe('urlCredentialSecrets: the keys an address carries', () => {
  it('a query value named as a credential or looking like a token, and a path segment that looks like one; names and settings stay', () => {
    expect(urlCredentialSecrets('https://x.example/hooks/AbCdEf0123456789XyZw/chat?api_key=sk%2Dlit-1&code=abcd1&model=gpt-4o-mini&stream=true&v=2024-06-01')).toEqual([
      'sk%2Dlit-1',
      'sk-lit-1',
      'abcd1',
      'AbCdEf0123456789XyZw',
    ]);
    expect(urlCredentialSecrets('https://x.example/v1/chat?session=Zx9Yw8Vu7Ts6Rq5Po4Nm')).toEqual(['Zx9Yw8Vu7Ts6Rq5Po4Nm']);
    // A `${NAME}` is a secret once substituted, not as the reference written.
    expect(urlCredentialSecrets('https://x.example/chat?api_key=${API_KEY}')).toEqual([]);
    // An address that does not parse is read all the same: its error quotes it.
    expect(urlCredentialSecrets('https://x.example:99999/chat?token=tok-12345')).toEqual(['tok-12345']);
  });
});
