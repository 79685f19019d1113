// What every section of config.yml shares (docs/configuration.md): the value shapes its schemas are
// built from, the URL check, and the `Resolution` each section's `resolve` adds its issues to.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { MAX_WAIT_MS, type JsonValue } from '../../config.js';
import { quote, type ConfigIssue } from '../issues.js';
import type { PathSegment, SourceFile } from '../yaml/index.js';
import { referencedNames } from '../env.js';

export function isJsonValue(v: unknown): v is JsonValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJsonValue);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every(isJsonValue);
  return false;
}

// The schemas the sections share, built on first use, by the first section's schema that needs them.
export const positiveInt = onFirstUse(() => z.number().int().min(1));
export const nonNegativeInt = onFirstUse(() => z.number().int().min(0));

/** The most requests a client keeps in flight (as `--concurrency` allows). */
export const MAX_CONCURRENCY = 256;
/** The most retries after a request's first attempt: each may wait its whole timeout. */
export const MAX_RETRIES = 10;
/** Requests in flight at most: 1..MAX_CONCURRENCY. */
export const concurrencyInt = onFirstUse(() => positiveInt().max(MAX_CONCURRENCY));
/** Retries after the first attempt: 0..MAX_RETRIES. */
export const retriesInt = onFirstUse(() => nonNegativeInt().max(MAX_RETRIES));

/** The allowed range of a millisecond setting, in words (also used for flags and inputs). */
export function msRange(min: number): string {
  return `a whole number of milliseconds from ${min} to ${MAX_WAIT_MS} (10 minutes)`;
}

/** A millisecond setting: `min`..MAX_WAIT_MS (a timer beyond 2^31-1 ms would fire at once). */
export function ms(min: number) {
  const error = `must be ${msRange(min)}`;
  return z.number().int().min(min, { error }).max(MAX_WAIT_MS, { error });
}
export const usd = onFirstUse(() => z.number().min(0));
/** What stands for a key or a section a file does not have: it is absent, as an optional schema reads absence. */
export const absent = onFirstUse(() => z.undefined().optional());
export const jsonTemplate = onFirstUse(() =>
  z.custom<JsonValue>(isJsonValue, {
    error: 'must be JSON data (strings, numbers, true/false, null, lists and mappings)',
  }),
);

/** An issue in the config file, at the node of `path` (or without position when there is no file). */
export type IssueAt = (path: readonly PathSegment[], message: string, fix: string) => ConfigIssue;

export function issueMaker(file: string, src: SourceFile | null): IssueAt {
  return (path, message, fix) => {
    const pos = src ? src.valueAt(path) : { line: null, column: null };
    return { file, line: pos.line, column: pos.column, message, fix };
  };
}

/** Issues collected while resolving, and how to place one. */
export interface Resolution {
  src: SourceFile | null;
  issueAt: IssueAt;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /**
   * The values left out of a section for their shape errors (already reported), when the file's
   * shape is wrong somewhere (`checkSoundSections` in config-file.ts): a check that reads one of
   * them, or reads its absence as a default, waits for the fix (see `unsure`).
   */
  leftOut?: readonly (readonly PathSegment[])[];
  /**
   * The agent's preset was given by the flag `--preset` (probe), not by the file: what it brings
   * (its request body, its welcome turn) is said with the flag, not at the file's agent.preset line
   * (docs/cli.md, probe).
   */
  presetFromFlag?: boolean;
}

/**
 * Whether a check that reads `paths` must wait: a value at one of them, inside one or around one
 * was left out for its shape error, so the check would read a default the file does not say and
 * could report a problem the file does not have (docs/troubleshooting.md, "Configuration errors":
 * every error at once, each said once).
 */
export function unsure(r: Resolution, ...paths: (readonly PathSegment[])[]): boolean {
  const prefix = (a: readonly PathSegment[], b: readonly PathSegment[]): boolean => a.length <= b.length && a.every((seg, i) => seg === b[i]);
  return (r.leftOut ?? []).some((left) => paths.some((path) => prefix(left, path) || prefix(path, left)));
}

/**
 * A header value as it is sent: text as given, a number or true/false exactly as written in the
 * file (`X-Version: 1.10` sends 1.10, not the 1.1 that YAML reads).
 */
export function headerValue(value: string | number | boolean, path: readonly PathSegment[], r: Resolution): string {
  const written = typeof value === 'string' || r.src === null ? null : r.src.writtenAt(path);
  return written ?? String(value);
}

/** What is wrong with an address, in words that hold none of it (for a value from `${NAME}`). */
type UrlFault = { text: string; blind: string; write?: string };

function urlFault(value: string): UrlFault | null {
  const noScheme = 'has no scheme (http:// or https://)';
  // `localhost:3000/api/chat`: a host and port without the scheme, which URL reads as the scheme
  // "localhost:" (or refuses, for an IP address): said as it is, with the address to write.
  if (/^[^\s/:?#@]+:\d+(?:[/?#]|$)/.test(value)) return { text: `${noScheme}: write http://${value}`, blind: noScheme, write: `http://${value}` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // `preview.example.com/api/chat`, `api.openai.com/v1`: a host name without the scheme, which URL
    // refuses. Said as a missing scheme, with the address to write (docs/troubleshooting.md,
    // "Configuration errors"); https://, as a host name on the network usually is.
    if (/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?::\d+)?(?:[/?#][^\s@]*)?$/.test(value)) return { text: `${noScheme}: write https://${value}`, blind: noScheme, write: `https://${value}` };
    return { text: 'is not a valid URL', blind: 'is not a valid URL' };
  }
  // The scheme of a value from the environment is not named either: `token:abc` reads as one.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { text: `uses ${url.protocol.replace(/:$/, '')}, not http or https`, blind: 'does not start with http:// or https://' };
  return null;
}

/** http(s) URL check; returns a reason or null. */
export function urlProblem(value: string): string | null {
  return urlFault(value)?.text ?? null;
}

/**
 * The address to write for one given without its scheme (`localhost:3000/api/chat` gives
 * `http://localhost:3000/api/chat`), the one its problem names; null for any other value.
 */
export function urlWithScheme(value: string): string | null {
  return urlFault(value)?.write ?? null;
}

/**
 * An address as written, its password (or a user alone: a token, `https://TOKEN@host/`) shown as
 * `***`, as the redactor shows the agent's (docs/configuration.md, config.yml): written in a judge's,
 * the simulator's or the meaning judge's base address, it is a credential all the same.
 */
function withoutPassword(written: string): string {
  return written.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`}@`;
  });
}

/**
 * A query or fragment in an API's base address (`https://gw.example.com/v1?api-key=...`): the
 * client adds its paths after the address, so the calls would go to `/v1?api-key=.../chat/completions`,
 * and a key in it would be quoted by any error that quotes the address. Neither the query nor the
 * fragment is shown: they may hold a key. A user and password in it (`https://user:pass@gw/v1`)
 * were never sent: said too, the password as `***` (docs/configuration.md, "config.yml").
 */
function apiBaseIssue(name: string, written: string, value: string, names: readonly string[], advice: UrlAdvice): { message: string; fix: string } | null {
  const url = new URL(value);
  const query = url.search !== '' || url.hash !== '';
  if (!query && url.username === '' && url.password === '') return null;
  const shown = quote(withoutPassword(written).replace(/[?#][\s\S]*$/, (rest) => `${rest[0] as string}\u2026`));
  const from = names.length === 0 ? '' : ` (with the value of ${names.join(' and ')})`;
  return {
    message: query
      ? `${name} ${shown}${from} has a query or fragment (? or #): the API's paths are added after the base address, so each call would go to a wrong address`
      : `${name} ${shown}${from} has a user or password (before the @): the API's client does not send them`,
    fix: `give ${advice.what} alone, e.g. ${advice.key}: ${advice.example}; a key goes in apiKey, not in the address`,
  };
}

/** How a URL setting's fix names what belongs there: `give the API base address, e.g. baseUrl: ...`. */
export interface UrlAdvice {
  /** `the full address of the agent` */
  what: string;
  /** The key, as the example line writes it: `url`. */
  key: string;
  example: string;
  /** After the example: `, or remove it to use the judge's`. */
  or?: string;
  /**
   * An API's base address, which the client's paths (`/chat/completions`, `/messages`) are added to:
   * a query or fragment in it would end up in the middle of each call's path.
   */
  apiBase?: boolean;
}

/**
 * The message and fix for the URL setting `name`, written `written` and read `value` (after
 * `${NAME}`), or null when it is an http(s) address. With a reference in it, the variable's value is
 * what is wrong: said so, with how to set it, and never shown (an address may carry a password or
 * a token: docs/configuration.md, "Environment variables and secrets").
 */
export function urlIssue(name: string, written: string, value: string, advice: UrlAdvice): { message: string; fix: string } | null {
  const fault = urlFault(value);
  const names = referencedNames(written);
  if (fault === null) return advice.apiBase === true ? apiBaseIssue(name, written, value, names, advice) : null;
  const shown = quote(withoutPassword(written));
  if (names.length === 0) {
    // The address the message says to write is the fix's too, not an example of another address.
    const example = fault.write === undefined ? `e.g. ${advice.key}: ${advice.example}` : `with its scheme: ${advice.key}: ${fault.write}`;
    return { message: `${name} ${shown} ${fault.text}`, fix: `give ${advice.what}, ${example}${advice.or ?? ''}` };
  }
  const unshown = ' (its value is not shown here: an address may carry a password or a token)';
  const only = names.length === 1 && written.trim() === `\${${names[0] as string}}` ? (names[0] as string) : null;
  if (only !== null) {
    return { message: `${name} ${shown}: the value of ${only} ${fault.blind}`, fix: `set ${only} to ${advice.what}, e.g. ${advice.example}${advice.or?.replace(' it ', ` ${advice.key} `) ?? ''}${unshown}` };
  }
  const vars = names.join(' and ');
  return {
    message: `${name} ${shown} ${fault.blind} with the value of ${vars}`,
    fix: `check the value of ${vars}: with it, ${advice.key} must be ${advice.what}, e.g. ${advice.example}${unshown}`,
  };
}
