// Causes: why items were not verified (errored, or not evaluated), grouped so that five fixtures
// failing on one closed port read as one problem with one fix, not five.
//
// One cause = the same error class, HTTP status and URL; the body the agent sent and the number of
// attempts are left aside (five 404 pages differ only in a request id). Each cause names what was
// observed and the setting to check. Pure: data in, data out.

import type { Check, ErrorKind, PersonaErrorKind } from '../types.js';
import { BROKE_OFF_FIX, CLOSED_FIX, HEADERS_FIX, NOT_HTTP_FIX } from '../agent-fixes.js';
import { tlsAlert, tlsAlertFix, tlsAlertText } from '../tls-alert.js';
import { proxyCertificateFix, tlsProblem } from '../tls-certificate.js';
import { proxyPlainHttpFix } from '../tls-plain.js';
import { baseUrlSetting, ERROR_IN_200, JUDGE_URL_SETTING, MEANING_URL_SETTING, SIMULATOR_URL_SETTING, STREAMED } from '../judge-url-setting.js';
import { docsUrl } from '../version.js';
import { onFirstUse } from '../patterns.js';
import { groupDigits, isPlainPath } from '../words.js';
import { atTopLevel, clipAtClause, firstClause, firstLineOf, FIX_START, fixStart } from '../assertions/format.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

/** What a cause is read from: a fixture or persona record (the gate may hold only part of one). */
export interface CauseItem {
  label: string;
  errored: boolean;
  verdict: string | null;
  errorKind?: string | null;
  error?: string | null;
  /** Where an errored item's connection that failed was tried (`127.0.0.1:3000`), as its record keeps it; absent in older records. */
  errorAddress?: string | null;
  detail?: string | null;
  checks?: readonly Pick<Check, 'status' | 'detail'>[];
  /** A fixture's message turn spans, counted (docs/traces.md); absent without `traces:`. */
  spans?: { count: number } | null;
  /** A script's turns, for their spans and their meaning (modelsAnsweredInRun). */
  turns?: readonly { spans?: { count: number } | null; meaning?: MeaningBy | null }[];
  /** The reply's meaning against its baseline: a meaning judge that answered this run (modelsAnsweredInRun). */
  drift?: { meaning?: MeaningBy | null } | null;
  /** A repeated item's attempts, each with its meaning against attempt 1's (modelsAnsweredInRun). */
  attempts?: readonly { meaning?: MeaningBy | null }[];
  /** The judge as it judged a fixture, and whether its score was reused (no call): a judge that answered this run (modelsAnsweredInRun). */
  judgeFingerprint?: unknown;
  judgeReused?: unknown;
  /** A simulated script's simulator calls and how it ended: a simulator that answered this run (modelsAnsweredInRun). */
  simulation?: { calls: number; endedBy: string } | null;
}

/** What decided a meaning, as far as the causes read it: the meaning judge answered when it did (modelsAnsweredInRun). */
type MeaningBy = { by: string | null };

/**
 * Which model clients answered a call of this run (modelsAnsweredInRun): a connection one of them
 * dropped is then a passing fault, not a setting to check (downHint).
 */
export interface ModelsAnswered {
  /** Any judge (a single judge or a panel) answered a call of the run. */
  judge: boolean;
  /** Which judges did, as their items' fingerprints name them (judgeIdOf): read for an item whose own judge its fingerprint names; absent, `judge` is read. */
  judges?: JudgesAnswered;
  simulator: boolean;
  /** The meaning judge (docs/meaning.md): a meaning it decided, on any item, turn or attempt of the run. */
  meaning: boolean;
}

const NONE_ANSWERED: ModelsAnswered = { judge: false, simulator: false, meaning: false };

/**
 * The judges that answered calls of a run (modelsAnsweredInRun), by the model their items'
 * fingerprints name ("openai/gpt-4o-mini"; a panel's "panel: openai/a, openai/b", judgeModelOf in
 * src/judge/panel.ts), each with the addresses it answered at (undefined: a record from before
 * fingerprints kept them). A merge's shards each keep their own judge's: a single judge of one and a
 * panel of another are two judges. `unnamed`: one answered whose item names no judge, so any may have.
 */
interface JudgesAnswered {
  byModel: Map<string, Set<string | undefined>>;
  unnamed: boolean;
}

/** An item's judge as its fingerprint names it (src/evaluate/definition.ts): its model and, when the record keeps it, its address; null when it names none. */
function judgeIdOf(item: CauseItem): { model: string; endpoint: string | undefined } | null {
  const fp = item.judgeFingerprint as { model?: unknown; endpoint?: unknown } | null | undefined;
  if (fp == null || typeof fp.model !== 'string') return null;
  return { model: fp.model, endpoint: typeof fp.endpoint === 'string' ? fp.endpoint : undefined };
}

/**
 * Did this item's own judge answer a call of the run: one of the same model at the same address
 * (either unknown in an older record: the model alone). Any judge's answer counts only when the
 * item names no judge, or one that answered names none: which judge answered is then not known.
 */
function ownJudgeAnswered(item: CauseItem, models: ModelsAnswered): boolean {
  const judges = models.judges;
  const id = judges === undefined || judges.unnamed ? null : judgeIdOf(item);
  if (judges === undefined || id === null) return models.judge;
  const at = judges.byModel.get(id.model);
  return at !== undefined && (id.endpoint === undefined || at.has(undefined) || at.has(id.endpoint));
}

/**
 * Where a model client answered other calls (downHint): this run's, or this calibration's
 * (src/calibrate/render.ts); null when none is known to have answered.
 */
export type AnsweredIn = 'run' | 'calibration' | null;

/** What a run's items tell about each one's cause (causeOf): read once over all of them, by every reader of a cause. */
export interface RunEvidence {
  /** The agent replied to other items (answeredInRun). */
  answered: boolean;
  /** Other turns had spans (spansInRun). */
  spansCame: boolean;
  /** The model clients that answered calls (modelsAnsweredInRun). */
  models: ModelsAnswered;
}

export const NO_EVIDENCE: RunEvidence = { answered: false, spansCame: false, models: NONE_ANSWERED };

export interface Cause {
  /** The grouping key: error class, HTTP status, URL. */
  key: string;
  /** What was observed, e.g. "HTTP 404 from https://host/api/chat". */
  what: string;
  /** The setting to check, e.g. "check agent-path or agent.url"; null when nothing better than the detail can be said. */
  hint: string | null;
  /**
   * The fix when its group's items are worded differently, so that the group's line names none of
   * their values (causeGroups, sharedWhat): "to the address each item's line names", where the hint
   * says "to that address"; a panel's fix said of 2 or more members, even when its hint says it so
   * already, so that a group of items whose counts differ says it whichever item comes first. Absent
   * when the hint holds either way.
   */
  apart?: string;
  /**
   * What the item's words say in general, for a group whose items' words share none (causeGroups):
   * "could not reach the proxy ..." of a proxy whose host did not resolve. Absent: the item's kind
   * (an errored item's ERROR_KIND_WORDS, else "not evaluated").
   */
  kind?: string;
}

/**
 * An errored item's kind in words, where a viewer shows it before the error (JUnit's `type`,
 * "timeout: message turn: no answer ..."), an errored attempt's on a repeated item's attempts
 * line (src/report/item-parts.ts, attemptsHead), and a cause group's whose items' words share none
 * (causeGroups); the kind as recorded is results.json's `errorKind`.
 */
export const ERROR_KIND_WORDS: Record<ErrorKind | PersonaErrorKind, string> = {
  http: 'HTTP error',
  timeout: 'timeout',
  network: 'network error',
  invalid_json: 'not JSON',
  ended_in_welcome: 'ended in the welcome turn',
  missing_reply: 'no reply',
  agent_error: 'agent error',
  internal: 'errored',
  invalid_response: 'invalid response',
  unmocked_tool: 'unmocked tool',
};

export interface CauseGroup extends Cause {
  /** The items of this cause, in run order. */
  labels: string[];
}

// The judge's address in a fix, held once for its client and the causes (src/judge-url-setting.ts).
export { ERROR_IN_200, JUDGE_URL_SETTING } from '../judge-url-setting.js';

/** What a proxy's refusal reads: a 407, and any other status; `variable` names the proxy (a tunnel's is HTTPS_PROXY's, a forwarded request's HTTP_PROXY's). */
function proxyHint(status: string, variable: string): string {
  return status === '407'
    ? `the proxy wants credentials, or refused those given: check the user and password in ${variable} (http://user:password@host:port)`
    : `check ${variable}, and NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')})`;
}

/** A time limit a reason says ("30,000", or "30000" as records written before 2026-12-06 say it), grouped as every count is (src/words.ts). */
function msGrouped(said: string): string {
  return groupDigits(said.replace(/,/g, ''));
}

/** "the agent" when the record does not know where it was. */
function at(endpoint: string | null): string {
  return endpoint ?? 'the agent';
}

/** The error without the turn it happened on ("message turn: ", "turn 3: "). */
function withoutTurn(text: string): string {
  return text.replace(/^(?:welcome turn|message turn|turn \d+)(?: \(welcome\))?: /, '');
}

/** A page of markup rather than JSON: an SPA shell, a host's 404 page. */
function looksLikeHtml(text: string): boolean {
  return /<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<title>|: an HTML page (?:titled|reading|with no text)\b/i.test(text);
}

/**
 * What lets automation through a preview's protection, by the protection the agent client named
 * (src/http/protection.ts) or none known: the header and where it goes (docs/troubleshooting.md,
 * "The agent").
 */
function protectionHint(protection: string | null): string {
  if (protection === "Vercel's Deployment Protection") {
    return 'the preview is protected: set x-vercel-protection-bypass in agent-headers (agent.headers) to the secret of its Protection Bypass for Automation';
  }
  if (protection === 'Cloudflare Access') {
    return 'the preview is protected: give a service token of Cloudflare Access in agent-headers (agent.headers), as CF-Access-Client-Id and CF-Access-Client-Secret';
  }
  if (protection === 'basic auth') {
    return 'the preview asks for a user and password: give them in agent-url (agent.url) as https://user:password@host/... (sent as basic auth), or an Authorization header in agent-headers (agent.headers)';
  }
  if (protection === "Netlify's password protection") {
    return 'the preview is protected: leave Deploy Previews unprotected, or protect them with Basic-Auth and give its user and password in agent-url (agent.url) as https://user:password@host/...';
  }
  return "the preview is protected: give the header that lets automation through in agent-headers (agent.headers), e.g. Vercel's x-vercel-protection-bypass, Cloudflare Access's CF-Access-Client-Id and CF-Access-Client-Secret";
}

function httpCause(status: number, endpoint: string | null, html: boolean, redirect: string | null, answered: boolean, protection: string | null, file: string): Cause {
  const what = `HTTP ${status} from ${at(endpoint)}`;
  const key = `http:${status}:${endpoint ?? ''}`;
  if (status >= 300 && status < 400) return redirectCause(key, what, redirect, protection);
  if (status === 404) return { key, what, hint: 'check agent-path or agent.url: the path is probably wrong' };
  if (status === 405) return { key, what, hint: 'the URL does not take POST: check agent-path or agent.url' };
  if (status === 401 || status === 403) {
    // A web page, not the agent's JSON: the host's sign-in or access page answered in its place.
    // Each protection's fix is its own: its name is in the key, as in the fix.
    if (protection !== null) return { key: `${key}:protected:${protection}`, what: `${what} (${protection})`, hint: protectionHint(protection) };
    if (html) return { key: `${key}:protected:`, what: `${what}, a web page in place of the agent`, hint: protectionHint(null) };
    // The Action's input beside config.yml's key, as the other fixes name agent-url (agent.url); the terminal says config.yml's.
    return { key, what, hint: 'the agent refused the request: check the key or token it expects in agent-headers (agent.headers)' };
  }
  if (status === 429) return { key, what, hint: 'rate limited: lower agent.concurrency, or raise agent.retries' };
  // A forwarding proxy (HTTP_PROXY, an http:// agent) answers for itself.
  if (status === 407) return { key, what, hint: 'a proxy wants credentials: give them in HTTP_PROXY (http://user:password@host:port)' };
  if (status === 502 || status === 503 || status === 504) {
    // Other items of the run got their replies: the agent is up, so waiting for it would not help.
    if (answered) return { key, what, hint: 'the agent answered the run\'s other items, so it is up: it fails on these messages (see the body on each item, and its logs)' };
    return { key, what, hint: 'the host answered but the agent did not: is the preview up? set wait-for-agent (agent.waitForAgent) if it starts slowly' };
  }
  if (status >= 500) return { key, what, hint: 'the agent failed: see its logs' };
  if (html) return { key: `${key}:html`, what, hint: 'an HTML page answered: check agent-path or agent.url' };
  return { key, what, hint: `the agent rejected the request: check agent.preset or agent.request.body in ${file}` };
}

/** A redirect, which is not followed: to a sign-in page, the preview is protected; else the address to use. */
function redirectCause(key: string, what: string, redirect: string | null, protection: string | null): Cause {
  if (redirect !== null && protection !== null) {
    return { key: `${key}:signin:${protection}`, what: `${what} to a sign-in page of ${protection} (${redirect})`, hint: protectionHint(protection) };
  }
  if (redirect === null) {
    return { key, what, hint: 'the URL redirects, and redirects are not followed: set agent-url (agent.url) to the address it redirects to' };
  }
  // Read from a record, which may come from elsewhere (a shard, an artifact): a text that is not a URL is taken as a path.
  const path = URL.canParse(redirect) ? new URL(redirect).pathname : redirect;
  if (/\/(?:login|log-in|signin|sign-in|sso|auth|oauth|authorize)\b/i.test(path)) {
    return {
      key: `${key}:signin:`,
      what: `${what} to a sign-in page (${redirect})`,
      hint: protectionHint(null),
    };
  }
  const fix = 'redirects are not followed (a message is never sent on to another address): set agent-url (agent.url) to';
  // Apart from a redirect that names no address, whose item's line names none for the fix to send the user to.
  return { key: `${key}:to`, what: `${what} to ${redirect}`, hint: `${fix} that address`, apart: `${fix} the address each item's line names` };
}

/**
 * A proxy that could not be reached (nothing listens, its host does not resolve, no answer): its
 * address and variable are named, never its credentials (the clients name it without them).
 */
function proxyDownCause(proxy: string, variable: string, text: string, toward: string, key: string): Cause {
  const fix = `check ${variable}, or NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')})`;
  const kind = `could not reach the proxy ${proxy} (${variable}), ${toward}`;
  if (/ECONNREFUSED|connection refused/.test(text)) return { key, what: `connection refused at the proxy ${proxy} (${variable}), ${toward}`, hint: `nothing listens there: ${fix}`, kind };
  // Its fix is that of a proxy not reached otherwise, and so is its group: said as that when both are in it (Cause.kind).
  if (/ENOTFOUND|EAI_AGAIN|host not found|host name lookup failed/.test(text)) return { key, what: `the host of the proxy ${proxy} (${variable}) did not resolve, ${toward}`, hint: fix, kind };
  return { key, what: kind, hint: fix, kind };
}

/**
 * The fix a client wrote after the proxy's fault named at `at` in `text` (`<what happened>; <the
 * fix>`, fixStart), to the end of the text; null when none is there whole. In a panel's reason the
 * fault is one member's (src/judge/panel.ts: `(2 usable needed; 1 unreachable, ...): <label>:
 * <reason>; <label>: <reason>`): the fix is looked for from the fault on, not at the first "; " (the
 * counts', or the one between members), and one with "; " in it is not told from the next member.
 */
function proxyFixGiven(text: string, at: number): string | null {
  const fault = text.slice(at);
  const start = fixStart(fault);
  if (start < 0) return null;
  const fix = fault.slice(start + 2);
  if (fix.endsWith('\u2026')) return null;
  return PANEL_REASON.test(text) && fix.includes('; ') ? null : fix;
}

/** A panel's reason of members without a usable score (src/judge/panel.ts, unusableReason). */
const PANEL_REASON = /^(?:judge call failed: )?panel: \d+ of \d+ members gave no usable score \(/;

/**
 * A failure the proxy itself is named in (src/http/network.ts, proxyFaultText): its certificate, a
 * certificate refused through it, plain HTTP in answer to its TLS, no answer to CONNECT, a connection it closed or never opened; else
 * a proxy that could not be reached. The fix is the one the message gives (proxyFixGiven), else the proxy's own.
 * Null when the text names no proxy.
 */
function proxyFaultCause(text: string, toward: string, key: string, file: string): Cause | null {
  const cause = proxyFault(text, toward, key, file);
  // Its fix is in its key: it reads the proxy's variable, the host and the fix the message gives, and
  // the step a tunnel stalled at, which differ from item to item (a panel's members), never one item's said for another's.
  return cause === null ? null : { ...cause, key: `${cause.key}\n${cause.hint ?? ''}` };
}

/** proxyFaultCause, its key without its fix. */
function proxyFault(text: string, toward: string, key: string, file: string): Cause | null {
  const named = /the proxy (\S+) \(([A-Za-z_]+)\)/.exec(text);
  if (named === null) return null;
  const proxy = named[1] ?? '';
  const variable = named[2] ?? '';
  const at = `the proxy ${proxy} (${variable})`;
  // A tunnel the proxy opened, closed before an answer: the agent's close or the proxy's, either one.
  if (/, was closed without an answer/.test(text)) {
    return { key: `tunnel-closed:${key}`, what: `the connection ${toward.replace(/^on the way /, '')}, through ${at}, was closed without an answer`, hint: "see the agent's log for a crash on the request, and the proxy's log for a connection it closed" };
  }
  // A judge's detail over its bound keeps what happened and leaves the fix out (src/assertions/format.ts, reasonLine): said here instead.
  // (A detail of a record written before 2026-12-06 may end in a fix cut short: not given either.)
  const given = proxyFixGiven(text, named.index);
  const direct = `or NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')})`;
  const fix = given ?? `check ${variable}, ${direct}`;
  const tls = /the TLS certificate (of the proxy|for (\S+), through the proxy) \S+ \([A-Za-z_]+\),? is refused: (.+?) \(([A-Z_]+)\)/.exec(text);
  if (tls !== null) {
    const whose = tls[2] === undefined ? `of ${at}` : `for ${tls[2]}, through ${at},`;
    // A fix left out is the certificate's own (src/tls-certificate.ts), as the client says it: never the general one.
    const problem = tlsProblem(tls[4]);
    const hint = given ?? (problem === null ? fix : proxyCertificateFix(problem, variable, direct, tls[2] ?? null));
    return { key: `proxy-tls:${tls[4] ?? ''}:${key}`, what: `the TLS certificate ${whose} is refused, ${toward}: ${tls[3] ?? ''} (${tls[4] ?? ''})`, hint };
  }
  // An https:// proxy that answered its own TLS handshake with an alert (src/http/network.ts): the fix is the proxy's, not the server's.
  const alert = tlsAlert(/the proxy \S+ \([A-Za-z_]+\) answered the TLS handshake with an alert: [a-z0-9 ]+ \((ERR_SSL_[A-Z0-9_/]+)\)/.exec(text)?.[1]);
  if (alert !== null) return { key: `proxy-alert:${alert.code}:${key}`, what: `${at} ${tlsAlertText(alert)}, ${toward}`, hint: given ?? `${tlsAlertFix(variable, 'the proxy')}, ${direct}` };
  // An https:// proxy URL for a proxy that speaks plain HTTP (src/http/network.ts): the fix is the proxy variable's scheme, not the server's URL.
  const plain = /the proxy \S+ \([A-Za-z_]+\) answered without TLS \((ERR_SSL_[A-Z0-9_]+)\)/.exec(text)?.[1];
  if (plain !== undefined) return { key: `proxy-not-tls:${key}`, what: `${at} answered without TLS (${plain}), ${toward}`, hint: given ?? proxyPlainHttpFix(variable, direct) };
  const connect = /did not answer CONNECT within (\d[\d,]*) ms/.exec(text);
  if (connect !== null) return { key: `proxy-connect:${key}`, what: `${at} did not answer CONNECT within ${msGrouped(connect[1] ?? '')} ms, ${toward}`, hint: fix };
  if (/closed the connection without answering/.test(text)) return { key: `proxy-closed:${key}`, what: `${at} closed the connection without answering, ${toward}`, hint: fix };
  const opening = /no connection through the proxy \S+ \([A-Za-z_]+\)(?: to [a-z ]+?)? opened within (\d[\d,]*) ms(?:, (stalled (?:connecting to the proxy|waiting for the proxy's answer to CONNECT|in the TLS handshake with (\S+) through the tunnel)))?/.exec(text);
  if (opening !== null) {
    // The step the tunnel stalled at (src/http/network.ts, stallText) says whose it is.
    const step = opening[2];
    const hint =
      step === undefined
        ? `the proxy did not open it, or the server behind it did not answer: ${fix}`
        : step === 'stalled connecting to the proxy'
          ? `the proxy did not take the connection (a proxy that is down, or a firewall that drops packets, looks like this): ${fix}`
          : step.startsWith('stalled waiting')
            ? `the proxy took the connection and did not answer its CONNECT: see the proxy's log; ${fix}`
            : `the proxy opened the tunnel, and ${opening[3] ?? 'the server'} did not complete the TLS handshake: check that the address's port serves https (a plain-HTTP port, or a server that is down behind the proxy, looks like this)`;
    return { key: `proxy-opening:${key}`, what: `no connection through ${at} ${toward.replace(/^on the way /, '')} opened within ${msGrouped(opening[1] ?? '')} ms${step === undefined ? '' : `, ${step}`}`, hint };
  }
  // The connection through the proxy was open (a tunnel, or a forwarded request) and no answer came back in time.
  // "no answer from the agent within ..." ("from the judge ... (2 attempts)"); records written before
  // 2026-12-06 said "agent did not answer within ..." and the judge's "no answer within ...".
  const answer = /(?:did not answer|no answer(?: from [a-z ]+?)?) within (\d[\d,]*) ms through the proxy \S+ \([A-Za-z_]+\): (.+?)(?: \(\d+ attempts\))?$/.exec(text);
  if (answer !== null) {
    // The meaning judge and the simulator take the judge's time limit (docs/meaning.md, docs/simulated-users.md).
    const server = key === 'judge' || key === 'simulator' || key === 'meaning judge' ? key : 'agent';
    return { key: `proxy-answer:${key}`, what: `no answer from ${toward.replace(/^on the way to /, '')} within ${msGrouped(answer[1] ?? '')} ms through ${at}: ${answer[2] ?? ''}`, hint: `raise ${server === 'agent' ? 'agent' : 'judge'}.timeoutMs in ${file} if the ${server} is slow; else see the proxy's log for the request it holds` };
  }
  if (/could not reach the proxy|at the proxy/.test(text)) return proxyDownCause(proxy, variable, text, toward, `proxy-down:${key}`);
  return null;
}

/** The most characters of a reason a cause's words say: an item's reason line's (reasonLine), so that one an item shows whole its cause says whole. */
const CAUSE_REASON_CHARS = 200;

/**
 * A reason as a cause's words say it, once for all its items on every surface: what happened, its
 * own fix (after "; ", outside its parentheses) left out at any length, since the cause says its own
 * after it (a cause has one fix: a reason of 175 characters kept its "; check its value" before the
 * cause's "set the judge key (judge.apiKey) again ..."); whole when that fits CAUSE_REASON_CHARS, else
 * cut where a clause ends (clipAtClause), never in a word: "which no HTTP…" was a key's cause cut at 120 (docs/troubleshooting.md).
 */
function causeWords(reason: string): string {
  const fix = fixStart(reason);
  const happened = fix > 0 && atTopLevel(reason, fix) ? reason.slice(0, fix) : reason;
  return clipAtClause(happened, CAUSE_REASON_CHARS);
}

/** The cause of an errored replay, from its error class and message. */
function errorCause(errorKind: string, error: string, endpoint: string | null, answered: boolean, address: string | null, file: string): Cause {
  const text = withoutTurn(error);
  const url = endpoint ?? '';
  if (errorKind === 'http') {
    const status = /\bHTTP (\d{3})\b/.exec(text);
    const redirect = /\(redirects to (\S+)\)/.exec(text)?.[1] ?? null;
    const protection = /\(protected by ([^)]+)\)/.exec(text)?.[1] ?? null;
    if (status) return httpCause(Number(status[1]), endpoint, looksLikeHtml(text), redirect, answered, protection, file);
    // "8 MiB"; "8 MB" in a record written before 2026-12-06, "8388608 bytes" before 2026-12-05.
    if (/larger than \d+ (?:bytes|MB|MiB)/.test(text)) {
      return {
        key: `too_large:${url}`,
        what: `a response too large from ${at(endpoint)}`,
        hint: 'an answer is read up to 8 MiB, a fixed limit: if the URL serves a file, not the agent, check agent-path or agent.url; else see what makes the agent answer that much (a stream that never ends)',
      };
    }
  }
  if (errorKind === 'network') {
    const refusal = /the proxy refused the (tunnel \(CONNECT\)|request \(forwarded\)): HTTP (\d{3})/.exec(text);
    const proxied = refusal?.[2];
    if (proxied !== undefined) {
      return {
        key: `proxy:${proxied}:${refusal?.[1] ?? ''}:${url}`,
        what: `the proxy refused to connect to ${at(endpoint)} (HTTP ${proxied})`,
        hint: proxyHint(proxied, refusal?.[1] === 'request (forwarded)' ? 'HTTP_PROXY' : 'HTTPS_PROXY'),
      };
    }
    // The proxy itself could not be reached, or failed (its certificate, no answer to CONNECT, a
    // connection it closed): the fix is the proxy's, not agent.url (docs/configuration.md, "Behind a proxy").
    const failedProxy = proxyFaultCause(text, `on the way to ${at(endpoint)}`, url, file);
    if (failedProxy !== null) return failedProxy;
    // The agent answered and its body broke off before its end (src/agent/http-client.ts): reached,
    // so not "could not reach"; not retried, as the agent had the turn (docs/troubleshooting.md, "The agent").
    if (/the agent's answer \(HTTP \d{3}\) broke off before its end/.test(text)) {
      return { key: `broke-off:${url}`, what: `the answer of ${at(endpoint)} broke off before its end`, hint: BROKE_OFF_FIX };
    }
    // A certificate Node refused: the message says what is wrong and the fix (src/http/tls.ts).
    const tls = /the agent's TLS certificate is refused, after [^:]+: (.+?) \(([A-Z_]+)\); (.+)$/.exec(text);
    if (tls) {
      // Its fix is the one the message gives, in the key as in the fix: a record that gives another for the same code is told its own.
      return { key: `tls:${tls[2] ?? ''}:${url}\n${tls[3] ?? ''}`, what: `the TLS certificate of ${at(endpoint)} is refused: ${tls[1] ?? ''} (${tls[2] ?? ''})`, hint: tls[3] ?? null };
    }
    // An https:// URL to a server that speaks plain HTTP there (src/http/tls.ts): up, and the fix is the scheme.
    const plain = /the agent answered without TLS, after [^(]+\(([A-Z_]+)\)/.exec(text);
    if (plain) {
      const http = endpoint !== null && endpoint.startsWith('https://') ? `: http://${endpoint.slice('https://'.length)}` : '';
      return {
        key: `not-tls:${url}`,
        what: `${at(endpoint)} answered without TLS (${plain[1] ?? ''})`,
        hint: `the server speaks plain HTTP there, not HTTPS: write the URL with http:// in agent-url (agent.url)${http}`,
      };
    }
    // A server that answered the TLS handshake with an alert (src/http/tls.ts): there, and the fix is
    // its TLS set-up; records written before 2026-12-06 said "could not reach the agent ...: a
    // connection error (ERR_SSL_..._ALERT_...)": one cause either way.
    const alert = tlsAlert(/\((ERR_SSL_[A-Z0-9_/]+)\)/.exec(text)?.[1]);
    if (alert !== null) {
      return { key: `tls-alert:${alert.code}:${url}`, what: `${at(endpoint)} ${tlsAlertText(alert)}`, hint: tlsAlertFix('agent-url (agent.url)') };
    }
    if (/ECONNREFUSED/.test(text)) {
      // localhost names two addresses, and a dev server may listen on one only (Node's on [::1]):
      // the one refused is the record's address, kept from the error (docs/troubleshooting.md, "The agent").
      const other = /^(127\.0\.0\.1|\[::1\]):\d+$/.exec(address ?? '')?.[1]?.replace(/^\[(.*)\]$/, '$1');
      const local = URL.canParse(url) && new URL(url).hostname === 'localhost' && other !== undefined;
      const family = other === '::1' ? 'IPv4 (http://127.0.0.1:PORT/...)' : 'IPv6 (http://[::1]:PORT/...)';
      // The address tried is in the key as in the fix: items refused at 127.0.0.1 and at ::1 each get their own fix.
      return {
        key: `refused:${url}${local ? `:${other}` : ''}`,
        what: `connection refused at ${at(endpoint)}${local ? ` (tried at ${other})` : ''}`,
        hint:
          'nothing listens there: check agent-url (agent.url) and that the agent is running; set wait-for-agent (agent.waitForAgent) if it starts slowly' +
          (local ? `; an agent that listens on ${family} only is reached at that address` : ''),
      };
    }
    if (/ENOTFOUND|EAI_AGAIN/.test(text)) {
      return { key: `dns:${url}`, what: `the host of ${at(endpoint)} did not resolve`, hint: 'check the host name in agent-url (agent.url)' };
    }
    // "the agent at 127.0.0.1:3000 closed ..." (the address when the error named it); before 2026-12-06, without it.
    if (/the agent(?: at \S+)? closed the connection without answering/.test(text)) {
      return {
        key: `closed:${url}`,
        what: `${at(endpoint)} closed the connection without answering`,
        hint: CLOSED_FIX,
      };
    }
    // Something answered at the agent's address, not in HTTP (another service on its port), or with a
    // body of another length than its header says: reached, so not "could not reach" (docs/troubleshooting.md, "The agent").
    const bad = /the agent at \S+ gave (an answer that is not valid HTTP|a body of another length than its Content-Length|an answer with headers of more than (\d+) KB)/.exec(text);
    if (bad?.[2] !== undefined) {
      return {
        key: `headers:${url}`,
        what: `${at(endpoint)} answered with headers of more than ${bad[2]} KB, the most read`,
        hint: HEADERS_FIX,
      };
    }
    if (bad) {
      const notHttp = bad[1] === 'an answer that is not valid HTTP';
      return {
        key: `${notHttp ? 'not-http' : 'length'}:${url}`,
        what: notHttp ? `${at(endpoint)} answered with something that is not HTTP` : `${at(endpoint)} answered with a body of another length than its Content-Length`,
        hint: notHttp ? NOT_HTTP_FIX : CLOSED_FIX,
      };
    }
    // The code ends the failure's words, before any fix after "; " ("... (EHOSTUNREACH); check agent-url ...").
    const code = /\(([A-Z][A-Z0-9_]+)\)(?:;[^;]*)?\s*$/.exec(text)?.[1] ?? 'network';
    return { key: `network:${code}:${url}`, what: `could not reach ${at(endpoint)} (${code})`, hint: 'check agent-url (agent.url) and that the agent is running' };
  }
  if (errorKind === 'timeout') {
    // A record from an older run may say "agent call timed out after 30000 ms": one cause with today's words.
    const said = /(?:within|timed out after) (\d[\d,]*) ms/.exec(text)?.[1];
    const ms = said === undefined ? undefined : msGrouped(said);
    // The deadline came while the connection was still opening (agent.timeoutMs bounds connecting too).
    const opening = proxyFaultCause(text, `on the way to ${at(endpoint)}`, url, file);
    if (opening !== null) return opening;
    if (/^no connection to the agent opened within/.test(text)) {
      return {
        key: `timeout:connect:${url}`,
        what: `no connection to ${at(endpoint)} opened within ${ms ?? 'its'} ms`,
        hint: 'the host never completed the connection (a host that is down, or a firewall that drops packets, looks like this): check agent-url (agent.url) and that the agent is up; raise agent.timeoutMs if it is only slow',
      };
    }
    // The agent answered, and its answer (a stream) was still coming at the deadline: it is up.
    if (/answer \(HTTP \d{3}\) did not end within/.test(text)) {
      return {
        key: `timeout:ended:${url}`,
        what: `the answer from ${at(endpoint)} did not end within ${ms ?? 'its'} ms`,
        hint: `the agent answered but was still sending: raise agent.timeoutMs in ${file} (it bounds the whole answer, a stream to its end)`,
      };
    }
    return {
      key: `timeout:${url}`,
      what: `no answer from ${at(endpoint)}${ms ? ` within ${ms} ms` : ' in time'}`,
      hint: `raise agent.timeoutMs in ${file} if the agent is slow, or check that it is up`,
    };
  }
  if (errorKind === 'invalid_json') {
    if (looksLikeHtml(text)) {
      return {
        key: `html:${url}`,
        what: `an HTML page instead of JSON from ${at(endpoint)}`,
        hint: 'the URL serves a web page (a site or an SPA), not the agent: check agent-path or agent.url',
      };
    }
    return { key: `invalid_json:${url}`, what: `a response that is not JSON from ${at(endpoint)}`, hint: 'check agent.preset: the agent may speak another protocol' };
  }
  if (errorKind === 'missing_reply') {
    const path = /has no string at "([^"]*)"/.exec(text)?.[1];
    if (path !== undefined) {
      // The line that sets the path, when config.yml does (src/agent/response.ts, noReplyAt): a file and
      // its line, at the message's end, where no key of the answer is (the keys' list ends in ")").
      const set = /; agent\.response\.reply is set at (\S+:\d+)$/.exec(text)?.[1];
      // Where the answer's text is, when the message names it: the path to write (src/agent/response.ts, noReplyAt).
      // Read only where noReplyAt writes it, last before the line that sets the path: the keys the
      // message lists before it are the agent's ("keys: x; its text may be at \"...\""). A path the
      // agent's answer chose is quoted in the fix only when plain (isPlainPath), else named without its words.
      const textAt = /; its text may be at "([^"]*)"\)(?:; \S+ is set at \S+:\d+)?$/.exec(text)?.[1];
      const where = set === undefined ? `in ${file}` : `at ${set}`;
      const hint =
        textAt === undefined
          ? `check agent.preset, or agent.response.reply ${where}`
          : !isPlainPath(textAt)
            ? `the answer's text may be at a key the agent sent (see the item's error): check agent.preset, or agent.response.reply ${where}`
            : `the answer's text may be at "${textAt}": ${set === undefined ? `set agent.response.reply: ${yamlText(textAt)} in ${file}` : `change agent.response.reply at ${set} to ${yamlText(textAt)}`} if that is the reply, or check agent.preset`;
      // One cause per fix too: items whose text is at different paths (or whose path is set at
      // different lines) are each told their own, never the first item's.
      return { key: `missing_reply:${path}\n${hint}`, what: `no reply at "${path}" in the agent's answers`, hint };
    }
  }
  if (errorKind === 'unmocked_tool') {
    const tool = /a call to (\S+)(?: .*?)? that no mock answered/.exec(text)?.[1];
    if (tool !== undefined) return { key: `unmocked_tool:${tool}`, what: `a call to ${tool} that no mock answered`, hint: "add a mock for it to the script's mocks" };
  }
  // Anything else: the message itself (its first line, said as cut when the break leaves a bracket or quote open: firstLineOf; without the advice after a "; " outside its
  // parentheses: firstClause) is the cause; the key leaves out what differs from item to item (a quoted body, numbers: a count grouped,
  // "1,500", is one number, as "1500" in a record written before 2026-12-06 is).
  const first = firstClause(firstLineOf(text).replace(/ after \d+(?:,\d{3})* attempts?/, ''))
    .replace(/:\s*$/, '')
    .trim();
  const what = causeWords(first);
  const stem = first.includes(': ') ? first.slice(0, first.lastIndexOf(': ')) : first;
  return { key: `${errorKind}:${stem.replace(/\d+(?:,\d{3})*/g, '#')}`, what, hint: null };
}

/**
 * A plain path (isPlainPath) as config.yml's value is written, so that YAML reads it as that text:
 * as it is, or quoted as JSON when it would read as something else or not at all (`@type`, whose
 * `@` YAML reserves; `0`, a number; `null`, `true`).
 */
function yamlText(path: string): string {
  return /^[A-Za-z_$]/.test(path) && !/^(?:true|false|null|yes|no|on|off|y|n)$/i.test(path) ? path : JSON.stringify(path);
}

/**
 * A judge's or simulator's call that failed at the proxy (src/judge/http.ts): the proxy could not
 * be reached, failed, or refused the tunnel. Null for any other reason.
 */
function proxyCause(reason: string, who: string, toward: string, file: string): Cause | null {
  const refusal = /the proxy refused the (tunnel \(CONNECT\)|request \(forwarded\)): HTTP (\d{3})/.exec(reason);
  const refused = refusal?.[2];
  if (refused === undefined) return proxyFaultCause(reason, toward, who, file);
  // The tunnel's refusal and a forwarded request's name different variables: each in the key, as in the fix.
  return {
    key: `${who}:proxy:${refused}:${refusal?.[1] ?? ''}`,
    what: `the proxy refused to connect ${toward.replace(/^on the way /, '')} (HTTP ${refused})`,
    hint: proxyHint(refused, refusal?.[1] === 'request (forwarded)' ? 'HTTP_PROXY' : 'HTTPS_PROXY'),
  };
}

/**
 * A judge's, simulator's or meaning judge's answer that came (its status and headers) and did not
 * end: its body stalled past the deadline, or its connection closed before the end
 * (src/judge/http.ts); or one that came and was not HTTP, or in a form not read (answerNotRead). It
 * was reached, so it is not "unreachable", and its status is no HTTP error. Null for any other reason.
 * `s`: the settings its fix names, when not the client's own (a panel's members': memberSettings);
 * of 2 or more members, its words in the plural, as downHint's ("the judges answered and their bodies stopped").
 */
export function unfinishedAnswer(reason: string, who: 'judge' | 'simulator' | 'meaning judge', s?: ModelSettings): Cause | null {
  // Of 2 or more of a panel's members, each its own endpoint and answer: said in the plural.
  const more = (s?.members ?? 1) > 1;
  const [whose, them] = more ? [`the ${who}s'`, 'them'] : [`the ${who}'s`, 'it'];
  // Something answered at its address, and not in HTTP (another service on its port), or with a body of another length than its header says (src/judge/http.ts).
  const bad = new RegExp(`^the ${who} at \\S+ gave (an answer that is not valid HTTP|a body of another length than its Content-Length|an answer with headers of more than (\\d+) KB)`).exec(reason);
  if (bad?.[2] !== undefined) {
    return { key: `${who}:headers`, what: `the ${who} answered with headers of more than ${bad[2]} KB, the most read`, hint: `see what makes the ${who}${more ? 's' : ''}, or a gateway or proxy in front of ${them}, send that many headers` };
  }
  if (bad !== null) {
    const setting = s?.url ?? baseUrlSetting(`the ${who}`);
    return bad[1] === 'an answer that is not valid HTTP'
      ? { key: `${who}:not-http`, what: `the ${who} answered with something that is not HTTP`, hint: `something other than ${whose} HTTP server${more ? 's' : ''} answers there: check the port${more ? 's' : ''} in ${setting}` }
      : { key: `${who}:length`, what: `the ${who} answered with a body of another length than its Content-Length`, hint: `see ${logsOf(whose, more)}` };
  }
  const answer = answerNotRead(reason, who, s?.url, more);
  if (answer !== null) return answer;
  const cut = /answer \(HTTP \d{3}\) (?:did not end within (\d[\d,]*) ms|(broke off before its end))/.exec(reason);
  if (cut === null) return null;
  const answered = more ? `the ${who}s answered and their` : `the ${who} answered and its`;
  if (cut[2] !== undefined) {
    return { key: `${who}:broke-off`, what: `the ${who}'s answer broke off before its end`, hint: `${answered} ${more ? 'connections' : 'connection'} closed mid-answer: see ${logsOf(more ? 'their' : 'its', more)}` };
  }
  const stalls = more ? `${who}s or gateways in front of them that stall` : `a ${who} or a gateway in front of it that stalls`;
  return {
    key: `${who}:ended`,
    what: `the ${who}'s answer did not end within ${msGrouped(cut[1] ?? '')} ms`,
    hint: `${answered} ${more ? 'bodies' : 'body'} stopped: ${stalls}; raise ${s === undefined ? 'judge.timeoutMs' : limitOf(s, 'timeoutMs')} if ${more ? 'they are' : 'it is'} only slow`,
  };
}

/** Where a client's answer that did not end well is seen, `whose` its: "the judge's log, or that of a gateway or proxy in front of it"; of 2 or more of a panel's members, "their logs, or those of ... in front of them". */
function logsOf(whose: string, more: boolean): string {
  return more ? `${whose} logs, or those of a gateway or proxy in front of them` : `${whose} log, or that of a gateway or proxy in front of it`;
}

/**
 * A judge's or simulator's certificate Node refused (src/judge/http.ts: "its TLS certificate is
 * refused: <what> (<code>); <fix>"): the certificate's own fix (src/tls-certificate.ts), as the
 * client says it, never the settings' general one. Null for any other reason.
 */
function refusedCertificate(reason: string, who: 'judge' | 'simulator'): Cause | null {
  const problem = tlsProblem(/^its TLS certificate is refused: .+? \(([A-Z_]+)\)/.exec(reason)?.[1]);
  return problem === null ? null : { key: `${who}:tls:${problem.code}`, what: `the ${who}'s TLS certificate is refused: ${problem.what} (${problem.code})`, hint: problem.fix };
}

/**
 * A judge's, simulator's or meaning judge's answer in a form not read (src/judge/http.ts): the TLS
 * handshake answered with an alert, a TLS port that answered without TLS, a body that is not JSON,
 * in a coding not read, or too large. Said "gave no usable answer: ..." since 2026-12-06,
 * "unreachable: ..." before (an alert: "unreachable: a connection error (ERR_SSL_..._ALERT_...)"):
 * one cause either way. Null for any other reason. `url`: where its address is set, when not the client's own (a panel's members');
 * `more`: said of 2 or more of a panel's members, in the plural (unfinishedAnswer).
 */
function answerNotRead(reason: string, who: 'judge' | 'simulator' | 'meaning judge', url?: string, more = false): Cause | null {
  const setting = url ?? baseUrlSetting(`the ${who}`);
  const [endpoint, it] = more ? [`the ${who}s' endpoints`, 'them'] : [`the ${who}'s endpoint`, 'it'];
  // Its own alert ("it answered ...", before 2026-12-06 "a connection error (...)"), not a proxy's (proxyFaultCause).
  const alert = tlsAlert(/^(?:it answered the TLS handshake with an alert: [a-z0-9 ]+ |a connection error )\((ERR_SSL_[A-Z0-9_/]+)\)/.exec(reason)?.[1]);
  if (alert !== null) return { key: `${who}:tls-alert:${alert.code}`, what: `the ${who} ${tlsAlertText(alert)}`, hint: tlsAlertFix(setting, 'the server', more) };
  const plain = /^it answered without TLS \(([A-Z0-9_]+)\)/.exec(reason);
  if (plain !== null) return { key: `${who}:not-tls`, what: `the ${who} answered without TLS (${plain[1] ?? ''})`, hint: `${more ? 'the servers speak' : 'the server speaks'} plain HTTP there, not HTTPS: write ${setting} with http://` };
  if (reason.startsWith(STREAMED)) {
    return { key: `${who}:stream`, what: `the ${who} answered with a stream of server-sent events, not one JSON answer`, hint: `turn streaming off at ${endpoint} or the proxy in front of ${it}: agent-replay sends no "stream": true and reads one JSON body` };
  }
  if (/^response is not JSON\b/.test(reason)) {
    return { key: `${who}:not-json`, what: `the ${who} answered with a body that is not JSON`, hint: `check that ${setting} is the API's base URL (an HTML page answers a wrong path), and see ${more ? `the ${who}s' logs` : `the ${who}'s log`}` };
  }
  if (/^response (?:is encoded as "|says it is encoded as )/.test(reason)) {
    return { key: `${who}:encoding`, what: `the ${who} answered in a coding agent-replay does not read`, hint: `turn off that compression at ${endpoint} or a proxy in front of ${it} (gzip, deflate and br are read) (${docsUrl('judges.md', 'Compressed answers')})` };
  }
  if (/^response is larger than /.test(reason)) {
    return { key: `${who}:too-large`, what: `the ${who}'s answer is larger than agent-replay reads`, hint: `check that ${setting} is the API's base URL, not a file or a stream that never ends` };
  }
  return null;
}

/** A judge's cause with its fixes apart, in the order its hint gives them: its own, then those of a panel's members that failed another way, each once. */
interface JudgeCause extends Cause {
  fixes: JudgeFix[];
}

/** A fix, and the same said of 2 or more of a panel's members (`more`: "those members' models"; the fix itself when its words hold of any count). */
export interface JudgeFix {
  fix: string;
  more: string;
}

/** A cause with one fix, its hint (none when it has none); said of more members, its `apart`. */
function alone(cause: Cause): JudgeCause {
  return { ...cause, fixes: cause.hint === null ? [] : [{ fix: cause.hint, more: cause.apart ?? cause.hint }] };
}

/**
 * Words said of a panel's members, as many as they are: `one` of 1, `more` of 2 or more; one text
 * when it reads right of both. `apart`: of a group's items whose counts or members differ, when not `more`
 * (members of another provider than the judge's: "judge.panel, else ...", true of every member).
 */
type ByCount = string | { one: string; more: string; apart?: string };

function ofCount(words: ByCount, n: number): string {
  return typeof words === 'string' ? words : n === 1 ? words.one : words.more;
}

/** Words said of a group's items whose counts or members differ (ByCount's `apart`, else its words of more). */
function ofApart(words: ByCount): string {
  return typeof words === 'string' ? words : (words.apart ?? words.more);
}

/**
 * The cause with the fix of a panel's members that failed another way after its own, once: "; for
 * the 1 cut at the token limit: <fix>" (docs/judges.md, "Panels"), its words and its fix agreeing
 * with the count ("that member's model", "those members' models"). The count is the item's: a group
 * of items whose counts differ says "for those cut at the token limit" (Cause.apart, causeGroups).
 */
function withMembersFix(cause: JudgeCause, key: string, members: { n: number; words: ByCount }, fix: ByCount): JudgeCause {
  const own = cause.hint ?? settingsFix(JUDGE_SETTINGS);
  const said = ofCount(fix, members.n);
  return {
    key: `${cause.key}:${key}`,
    what: cause.what,
    hint: `${own}; for the ${members.n} ${ofCount(members.words, members.n)}: ${said}`,
    apart: `${cause.apart ?? own}; for those ${ofCount(members.words, 2)}: ${ofApart(fix)}`,
    fixes: [...(cause.hint === null ? [{ fix: own, more: own }] : cause.fixes), { fix: said, more: ofApart(fix) }],
  };
}

/**
 * A model client's settings as a fix names them: the judge's own; the meaning judge's and the
 * simulator's keys, each else the judge's (docs/meaning.md, "Configuration"; docs/simulated-users.md,
 * "The simulator and its redaction"). The time limit, retries and concurrency are the judge's for all three;
 * a panel's members' every setting is their own, else the judge's (memberSettings).
 */
export interface ModelSettings {
  who: 'judge' | 'meaning judge' | 'simulator';
  url: string;
  model: string;
  /** Its key, as a fix names it ("the judge key"). */
  key: string;
  /** Where its key is set, when not the judge's ("meaning.apiKey, else the judge's"). */
  keyAt: string | null;
  /** A panel's members, how many (memberSettings): each setting their own, else the judge's, in words that agree with their count. */
  members?: number;
}

export const JUDGE_SETTINGS: ModelSettings = { who: 'judge', url: JUDGE_URL_SETTING, model: 'judge.model', key: 'the judge key', keyAt: null };
export const MEANING_SETTINGS: ModelSettings = {
  who: 'meaning judge',
  url: MEANING_URL_SETTING,
  model: 'meaning.model (else judge.model)',
  key: "the meaning judge's key",
  keyAt: "meaning.apiKey, else the judge's",
};
export const SIMULATOR_SETTINGS: ModelSettings = { who: 'simulator', url: SIMULATOR_URL_SETTING, model: 'simulator.model (else judge.model)', key: "the simulator's key", keyAt: "simulator.apiKey, else the judge's" };

/**
 * The settings of `n` members of a panel, as a fix names them: each member's own in `judge.panel`,
 * else the judge's (docs/judges.md, "Panels": a member keeps the keys it sets), as the cut
 * members' fix says it (panelCutHint): "that member's model (judge.panel, else judge.model)", of
 * 2 or more "those members' models (...)". `other`: every one of them is of another provider than the
 * judge's, which never takes judge.apiKey, judge.model or judge.baseUrl (src/config.ts, panelMemberConfig): judge.panel alone.
 */
export function memberSettings(n: number, other = false): ModelSettings {
  const [of, s] = n === 1 ? ["that member's", ''] : ["those members'", 's'];
  const [url, model, keyAt] = other ? ['judge.panel', 'judge.panel', 'judge.panel'] : [`judge.panel, else ${JUDGE_URL_SETTING}`, 'judge.panel, else judge.model', 'judge.panel, else judge.apiKey'];
  return { who: 'judge', url: `${of} baseUrl${s} (${url})`, model: `${of} model${s} (${model})`, key: `${of} apiKey${s}`, keyAt, members: n };
}

/** A limit of a client's in a fix: the judge's `judge.<key>` (the meaning judge and the simulator take it too); a panel's members', their own, else the judge's. */
function limitOf(s: ModelSettings, key: 'timeoutMs' | 'retries' | 'concurrency'): string {
  return s.members === undefined ? `judge.${key}` : `${s.members === 1 ? "that member's" : "those members'"} ${key} (judge.panel, else judge.${key})`;
}

/** A model client's settings in a fix of their own: "check <url>, <model> and <key>". */
function settingsFix(s: ModelSettings): string {
  return `check ${s.url}, ${s.model} and ${s.key}${s.keyAt === null ? '' : ` (${s.keyAt})`}`;
}

/**
 * What to do about a judge, meaning judge or simulator not reached, by what it did (compare the
 * agent's, httpCause and errorCause): refused the key (401, 403), found no such path or model
 * (404), rate limited (429), failed (5xx), did not answer in time, refused or closed the connection,
 * its host did not resolve; else its settings to check.
 * `s` names its settings (the time limit, retries and concurrency are the judge's for all but a panel's members, limitOf).
 * `answeredIn`: it answered other calls of this run (modelsAnsweredInRun) or calibration, so a dropped connection is no setting's fault.
 * `file`: the suite's config file, where judge.timeoutMs is raised.
 */
export function downHint(status: string | undefined, reason: string, s: ModelSettings = JUDGE_SETTINGS, answeredIn: AnsweredIn = null, file: string = NEW_CONFIG_NAME): string {
  const judges = s.who === 'judge' ? '' : ` (the ${s.who} takes the judge's)`;
  // Of 2 or more members, each its own endpoint and request (docs/judges.md, "Panels"): said in the plural.
  const more = (s.members ?? 1) > 1;
  const they = more ? `the ${s.who}s are` : `the ${s.who} is`;
  if (status === '401' || status === '403') {
    const expects = more ? 'the keys or tokens their endpoints expect' : 'the key or token its endpoint expects';
    return `the ${s.who}${more ? 's refused the requests' : ' refused the request'}: check ${s.key} (${s.keyAt === null ? '' : `${s.keyAt}; `}${expects}) and that ${more ? 'they' : 'it'} may use ${s.model}`;
  }
  if (status === '404') return `check ${s.url} and ${s.model}: ${more ? "the paths (each the API's base URL) or the models' names are" : "the path (it is the API's base URL) or the model's name is"} probably wrong`;
  if (status === '429') return `rate limited: lower ${limitOf(s, 'concurrency')}, or raise ${limitOf(s, 'retries')}${judges}`;
  if (Number(status) >= 500) return more ? `the ${s.who}s' endpoints failed: see their statuses or logs, and run it again` : `the ${s.who}'s endpoint failed: see its status or log, and run it again`;
  // A certificate Node refused (a panel member's: "openai m1: its TLS certificate is refused: ..."): the certificate's own fix (src/tls-certificate.ts).
  const tls = status === undefined ? tlsProblem(TLS_REFUSED.exec(reason)?.[1]) : null;
  if (tls !== null) return more ? tls.more : tls.fix;
  const deadline = status === undefined ? DEADLINES[s.who]() : null;
  if (deadline?.opened.test(reason) === true) {
    const host = more ? 'the hosts never completed the connections' : 'the host never completed the connection';
    return `${host} (a host that is down, or a firewall that drops packets, looks like this): check ${s.url} and that ${they} up; raise ${limitOf(s, 'timeoutMs')} if ${more ? 'they are' : 'it is'} only slow`;
  }
  if (deadline?.answered.test(reason) === true) return `raise ${limitOf(s, 'timeoutMs')} in ${file} if ${they} slow, or check ${s.url} and that ${more ? 'they are' : 'it is'} up`;
  // A key no HTTP header can carry (src/judge/http.ts, notSentWords): nothing was sent, and the key is the one setting at fault.
  if (status === undefined && KEY_NOT_SENT.test(reason)) return `set ${s.key} (${s.keyAt ?? 'judge.apiKey'}) again without the line break or the character outside Latin-1, where ${more ? 'they are written or in the variables they are' : 'it is written or in the variable it is'} read from (a secret pasted with a line break)`;
  // Its address and key worked for other calls of this run (calibration): a connection it closed is a passing fault, not a setting.
  if (status === undefined && answeredIn !== null && DROPPED.test(reason)) {
    return `the ${s.who} answered other calls of this ${answeredIn}, so ${s.url}, ${s.model} and ${s.key} work: it, or a gateway or proxy in front of it, closed these connections (a restart, or connections dropped under load): run it again, and lower judge.concurrency${judges} if it recurs`;
  }
  // A connection refused, closed, never opened or whose host did not resolve: its address or its server, never its model or key (as the agent's, errorCause).
  const lost = status === undefined ? connectionFix(reason, s) : null;
  return lost ?? settingsFix(s);
}

/** A client's deadline, as its reason says it (src/http/network.ts, deadlineText), at its start or a panel member's: each client's built on its first use. */
function deadlinePatterns(who: ModelSettings['who']): () => { opened: RegExp; answered: RegExp } {
  return onFirstUse(() => ({
    opened: new RegExp(`(?:^|: )no connection to the ${who} opened within \\d[\\d,]* ms`),
    answered: new RegExp(`(?:^|: )no answer from the ${who} within \\d[\\d,]* ms`),
  }));
}

const DEADLINES: Record<ModelSettings['who'], () => { opened: RegExp; answered: RegExp }> = {
  judge: deadlinePatterns('judge'),
  'meaning judge': deadlinePatterns('meaning judge'),
  simulator: deadlinePatterns('simulator'),
};

/** The fix of a connection refused, closed without an answer, never opened, or whose host name did not resolve, at a reason's start or a panel member's; null for another failure. Of 2 or more members, in the plural. */
function connectionFix(reason: string, s: ModelSettings): string | null {
  const more = (s.members ?? 1) > 1;
  const running = `and that ${more ? `the ${s.who}s are` : `the ${s.who} is`} running`;
  if (REFUSED.test(reason)) return `nothing listens there: check ${s.url} ${running}`;
  if (DROPPED.test(reason)) return more ? `see the ${s.who}s' logs for a crash on the requests, or a proxy in front of them that closes connections` : `see the ${s.who}'s log for a crash on the request, or a proxy in front of it that closes connections`;
  if (UNRESOLVED.test(reason)) return `check the host name${more ? 's' : ''} in ${s.url}`;
  // No route, no network, no connection opened in time, any other connection error: its address and its server, as the agent's (unreachedFix).
  if (UNREACHED.test(reason)) return `check ${s.url} ${running}`;
  return null;
}

/** A connection refused, as a client says it (src/http/error-code.ts, CONNECTION_WORDS): "connection refused at 127.0.0.1:9 (ECONNREFUSED)". */
const REFUSED = /(?:^|: )connection refused(?: at \S+)? \(ECONNREFUSED\)/;

/** A host name that did not resolve, as a client says it (src/http/error-code.ts): "the host name judge.test did not resolve (ENOTFOUND)". */
const UNRESOLVED = /(?:^|: )the host name(?: \S+)? did not resolve \((?:ENOTFOUND|EAI_AGAIN)\)/;

/**
 * A connection that never opened otherwise, as a client says it (src/http/error-code.ts, CONNECTION_WORDS,
 * otherNetworkFailureText): "no route to the host 10.0.0.9:443 (EHOSTUNREACH)", "the network is unreachable
 * (to 10.0.0.9:443) (ENETUNREACH)", "no connection to 10.0.0.9:443 opened in time (ETIMEDOUT)", "a connection error (EPROTO)".
 */
const UNREACHED = /(?:^|: )(?:no route to the host(?: \S+)? \(EHOSTUNREACH\)|the network is unreachable(?: \(to \S+\))? \(ENETUNREACH\)|no connection(?: to \S+)? opened in time \(ETIMEDOUT\)|a connection error \([A-Z][A-Z0-9_]*\))/;

/**
 * A connection closed with no answer, as a client says it (src/http/error-code.ts, CONNECTION_WORDS;
 * src/judge/http.ts): "the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET)",
 * "the connection was closed (UND_ERR_CLOSED)"; at the reason's start or a panel member's.
 */
const DROPPED = /(?:^|: )the connection(?: to \S+)? was closed(?: without an answer)? \((?:ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)\)/;

/**
 * A request not sent because its key holds what no HTTP header can carry, as a client says it
 * (src/judge/http.ts), at its start or a panel member's ("that member's apiKey (judge.panel, else
 * judge.apiKey) holds ...", of a member of another provider than the judge's "(judge.panel)"); where its key is set.
 */
const KEY_NOT_SENT = /(?:^|: )the request was not sent: \S.*(?: key|'s apiKey) \(([^)]+)\) holds a line break or a character outside Latin-1/;

/**
 * Where the keys of a panel's members that could not be sent are set, as their own reasons name
 * them (src/judge/client.ts, MEMBER_KEY): "judge.panel" when every such member is of another
 * provider than the judge's, whose key is only its own (docs/judges.md, "Panels"); else null, the
 * members' settings' "judge.panel, else judge.apiKey" (memberSettings).
 */
function memberKeyAt(own: readonly string[]): string | null {
  const places = own.flatMap((r) => {
    const m = KEY_NOT_SENT.exec(r);
    return m?.index === 0 ? [m[1]] : [];
  });
  return places.length > 0 && places.every((at) => at === 'judge.panel') ? 'judge.panel' : null;
}

/** A client's certificate Node refused, as its reason says it (src/judge/http.ts), at its start or a panel member's; its code. */
const TLS_REFUSED = /(?:^|: )its TLS certificate is refused: [^;]+? \(([A-Z_]+)\)/;

/**
 * What a client not reached without a status hit, for its cause's key: its fix read without the run's
 * evidence (downHint), so that a connection dropped is one group whatever answered (the evidence changes its fix, not its group).
 */
function unreachedKind(reason: string, s: ModelSettings, file: string): string {
  return downHint(undefined, reason, s, null, file);
}

/** The status a reason of a client not reached says: one that begins it or a panel member's ("openai m1: HTTP 401: ..."), never one in another's text ("an error in the HTTP 200 answer"). */
function downStatus(reason: string): string | undefined {
  return /(?:^|: )HTTP (\d{3})\b/.exec(reason)?.[1];
}

/**
 * What to do about a meaning judge or simulator not reached (its reason, without "meaning judge
 * unreachable: "): a proxy's refusal or fault is the proxy's (proxyCause); else downHint, with its
 * settings. `answered`: it answered other calls of this run (modelsAnsweredInRun).
 */
export function modelDownHint(reason: string, s: ModelSettings, answered = false, file: string = NEW_CONFIG_NAME): string {
  return proxyCause(reason, s.who, `on the way to the ${s.who}`, file)?.hint ?? downHint(downStatus(reason), reason, s, answered ? 'run' : null, file);
}

/**
 * The cause of a judge that was not reached (a panel's members not reached), by its first status or
 * failure; a panel's by `first`, how the member not reached that says it begins its reason (DOWN_START), when one does.
 * A proxy's refusal or fault is read from a panel's members' own reasons (`own`, memberReasons), never
 * from a label, another member's words, or a server's answer ("HTTP 500: ...") that quote one.
 * `said`: a panel's first member not reached, its own reason, quoted when no status is: what it hit, without the members' labels.
 * `s`: the settings its fix names (a panel's members': memberSettings).
 */
function judgeDown(file: string, reason: string, first?: string, own?: readonly string[], said?: string, answeredIn: AnsweredIn = null, s: ModelSettings = JUDGE_SETTINGS): Cause {
  // A member's status begins its reason ("openai m1: HTTP 401: ..."), never one said in another's ("an error in the HTTP 200 answer").
  const status = downStatus(first ?? reason);
  // The reason of the first item (without its attempt count) says what the judge did.
  const shown = (said ?? reason).replace(/ after \d+(?:,\d{3})* (?:attempts?|retries)/, '').trim();
  const what = status ? `judge unreachable: HTTP ${status}` : `judge unreachable${shown ? `: ${causeWords(shown)}` : ''}`;
  const proxy = own === undefined ? proxyCause(reason, 'judge', 'on the way to the judge', file) : own.reduce<Cause | null>((found, r) => found ?? (/^HTTP \d{3}\b/.test(r) ? null : proxyCause(r, 'judge', 'on the way to the judge', file)), null);
  if (proxy !== null) return proxy;
  const hint = downHint(status, first ?? reason, s, answeredIn, file);
  // Without a status, its fix tells the failures apart (a refused connection, a host that did not resolve): one group each, never one under another's fix.
  // A connection closed by a judge that answered other calls (run it again) and one by a judge that did not (its log): two (a merge's shards, each its judge).
  const told = status === undefined && answeredIn !== null && hint !== unreachedKind(first ?? reason, s, file) ? ':answered' : '';
  return { key: status ? `judge:${status}` : `judge:unreachable:${unreachedKind(first ?? reason, JUDGE_SETTINGS, file)}${told}`, what, hint };
}

/**
 * An HTTP 200 that carries an error (src/judge/structured.ts, ERROR_IN_200), the judge's or the
 * simulator's (their one client): the endpoint's fault, said in its words; not the model's prompt-following.
 */
function error200Cause(s: ModelSettings): Cause {
  return { key: `${s.who}:error-200`, what: `the ${s.who}'s endpoint answered HTTP 200 with an error in place of an answer`, hint: error200Hint(s) };
}

/** Does a client's reason say its HTTP 200 carried an error (ERROR_IN_200: "unexpected response: no choices[0].message.content: an error in the HTTP 200 answer: ...")? */
function isError200(reason: string): boolean {
  return reason.includes(`: ${ERROR_IN_200}: `);
}

/** A judge that answered without a usable score: its address and key work; its model or mechanism does not. */
function noScoreCause(): Cause {
  return { key: 'judge:no-score', what: 'the judge answered without a usable score', hint: JUDGE_NO_SCORE_HINT };
}

/**
 * A panel's members that answered without a usable score: their models are their own (PANEL_NO_SCORE_HINT),
 * a fix not a single judge's, so a key of its own: a single judge's item and a panel's are each a group with its fix.
 */
function panelNoScoreCause(): Cause {
  return { ...noScoreCause(), key: 'judge:no-score:panel', hint: PANEL_NO_SCORE_HINT };
}

/**
 * The cause of a judge check's detail, "judge <kind>: <reason>" (kind: unreachable, gave no usable
 * answer). `answeredIn`: the judge answered other calls of this run or calibration (a single judge's; a panel's members are each their own).
 */
function judgeCause(kind: string, reason: string, answeredIn: AnsweredIn, file: string): JudgeCause {
  const panel = panelCounts(reason, kind);
  if (panel !== null) return panelCause(panel, file);
  // Something answered at the judge's address and not in a form read (not HTTP, an answer that did
  // not end): "judge gave no usable answer: the judge at ... gave ..." since 2026-12-06, "judge
  // unreachable: ..." before; one cause either way.
  const unfinished = unfinishedAnswer(reason, 'judge') ?? refusedCertificate(reason, 'judge');
  if (unfinished !== null) return alone(unfinished);
  if (isError200(reason)) return alone(error200Cause(JUDGE_SETTINGS));
  // The model stopped at its token limit (src/judge/structured.ts, cutWords): its limit, not its prompt-following, is the fix.
  if (isCutReason(reason)) {
    return alone({ key: 'judge:cut', what: "the judge's answer was cut at its token limit", hint: JUDGE_CUT_HINT });
  }
  // The judge answered, but not with a score: its address and key work; its model or mechanism does not.
  if (kind === 'gave no usable answer' || /^no usable score\b/.test(reason)) return alone(noScoreCause());
  return alone(judgeDown(file, reason, undefined, undefined, undefined, answeredIn));
}

/**
 * A panel's cause: each kind of its members without a usable score is one cause, with its fix
 * once (docs/judges.md, "Panels"): those not reached (their status's fix), those that answered
 * without a usable score, those whose answer could not be read (each its own fix: not JSON, a
 * coding not read, ...), those that answered HTTP 200 with an error; the first is the panel's, and
 * the fix of each other kind follows, "; for the 1 that answered HTTP 200 with an error: ...".
 * Members cut at their token limit, and requests agent-replay could not make, are added after
 * (withPanelCut, withPanelCallsFailed). No run's evidence: it changes a single judge's fix of a
 * connection closed (and that cause's key, judgeDown), never the members' (each their own).
 */
function panelCause(panel: PanelCounts, file: string): JudgeCause {
  const { reason } = panel;
  // Each kind's cause, and its fix said of its members (memberSettings: their own settings, else the judge's), of 1 and of more.
  const kinds: { cause: Cause; members: { n: number; words: ByCount }; fix: ByCount }[] = [];
  /**
   * A fix in the members' settings (memberSettings), of 1 and of 2 or more; `other`: each of them of another provider than the judge's (judge.panel alone);
   * `on`: a single judge's cause (its hint the judge's settings') with it as its hint, said of `n` (apart: of more, for a group's items whose counts or
   * members differ: "judge.panel, else ...", true of all). Its key is its own when the fix of 1 is not the single judge's (it names the members'
   * settings: a refused key, a 404, an HTTP 200 with an error, an answer not read): a single judge's item and a panel's are then each a group with
   * its fix; a fix that names none (an HTTP 5xx, a stream) is one group of both.
   */
  const ofMembers = (n: number, fix: (s: ModelSettings) => string, other = false): { fix: ByCount; on: (cause: Cause) => Cause } => {
    const apart = fix(memberSettings(2));
    const byCount = other ? { one: fix(memberSettings(1, true)), more: fix(memberSettings(2, true)), apart } : { one: fix(memberSettings(1)), more: apart };
    const hint = ofCount(byCount, n);
    return { fix: byCount, on: (cause) => ({ ...cause, key: byCount.one === cause.hint ? cause.key : `${cause.key}:panel`, hint, apart }) };
  };
  /** Are the members whose reasons `is` tells all of another provider than the judge's (memberReasons)? */
  const othersAll = (is: (r: string) => boolean): boolean => {
    const of = panel.members.flatMap((r, i) => (is(r) ? [panel.others[i] === true] : []));
    return of.length > 0 && of.every(Boolean);
  };
  if (panel.unreachable > 0) {
    // Members not reached in different ways (a refused key, a timeout): each way's fix, the first's the panel's.
    // The first member's own status, else its own failure, is the panel's: a status in a label or a server's words is none.
    const starts = panel.members.flatMap((r) => DOWN_START.exec(r)?.[0] ?? []);
    // The first member not reached: not one that answered (without a score, an HTTP 200 with an error among them), nor one whose answer was not read, was cut, or was not asked.
    const said = panel.own.find((r) => !isNoScoreReason(r) && !UNREAD_START().test(r) && !isCutReason(r) && !r.startsWith(CALL_FAILED_WORDS));
    // Its words and its fix one member's: a status's, else the first not reached's own (a connection
    // closed, whose fix is its settings'), never its words over the fix of a deadline after it.
    const first = starts.find((way) => way.startsWith('HTTP ')) ?? said ?? starts[0];
    // Told apart by the fix the judge's settings give (downWays); said in the members' own.
    const judged = judgeDown(file, reason, first, panel.own, said);
    const ways = downWays(panel.own, file, panel.others);
    const others = [...ways].filter(([hint]) => hint !== judged.hint);
    const head = ways.get(judged.hint ?? '');
    const n = head?.n ?? Math.max(1, panel.unreachable - others.reduce((sum, [, way]) => sum + way.n, 0));
    // Members whose key could not be sent, each of another provider than the judge's: their key is their own alone (memberKeyAt), in their fix and words.
    const keyAt = memberKeyAt(panel.own);
    const keyed = (way: DownWay | undefined, s: ModelSettings): ModelSettings => (way?.key === 'key-not-sent' && keyAt !== null ? { ...s, keyAt } : s);
    // 2 or more whose key could not be sent: said of them all, not in the first one's words ("that member's apiKey ... holds").
    // 2 or more whose certificates were refused alike: said of them all too, not "its TLS certificate is refused".
    const refused = head?.key.startsWith('tls:') === true && n > 1 ? tlsProblem(head.key.slice('tls:'.length)) : null;
    const down =
      head?.key === 'key-not-sent' && n > 1
        ? { ...judged, what: `judge unreachable: ${keysNotSent(keyed(head, memberSettings(n, head.other)))}` }
        : refused !== null
          ? { ...judged, what: `judge unreachable: their TLS certificates are refused: ${refused.what} (${refused.code})` }
          : judged;
    const own = ofMembers(n, (s) => judgeDown(file, reason, first, panel.own, said, null, keyed(head, s)).hint ?? settingsFix(s), head?.other);
    // Against a single judge's fix without that evidence: one told to run again (it answered other calls) has a key of its own (judgeDown), a member never is.
    kinds.push({ cause: own.on(down), members: { n: panel.unreachable, words: 'not reached' }, fix: own.fix });
    for (const [hint, way] of others) {
      const fix = ofMembers(way.n, (s) => downHint(way.status, way.text, keyed(way, s), null, file), way.other);
      kinds.push({ cause: { key: `judge:${way.key}`, what: down.what, hint }, members: { n: way.n, words: { one: `not reached (${ofCount(way.said, 1)})`, more: `not reached (${ofCount(way.said, 2)})` } }, fix: fix.fix });
    }
  }
  if (panel.noScore > 0) {
    // Members of another provider alone (none untold): their models in judge.panel alone; the hint of more is true of any (Cause.apart).
    const other = panel.noScore === panel.members.filter(answeredNoScore).length && othersAll(answeredNoScore);
    // Of 1, "a judge model that follows the prompt"; of 2 or more, each its own model and endpoint, "judge models that follow the prompt" (PANEL_NO_SCORE_HINTS).
    const of = (hint: string): string => (other ? ofOwn(hint) : hint);
    const fix = { one: of(PANEL_NO_SCORE_HINT), more: of(PANEL_NO_SCORE_HINTS), apart: PANEL_NO_SCORE_HINTS };
    kinds.push({ cause: { ...panelNoScoreCause(), hint: ofCount(fix, panel.noScore), apart: PANEL_NO_SCORE_HINTS }, members: { n: panel.noScore, words: 'that answered without a usable score' }, fix });
  }
  for (const [key, n] of countBy(panel.unread.map((c) => c.cause.key))) {
    const { cause, reason: r } = panel.unread.find((c) => c.cause.key === key) as { cause: Cause; reason: string };
    const other = panel.unread.every((c) => c.cause.key !== key || c.other);
    // "check that the baseUrl of those members (...) is the API's base URL": the verb agrees with the key, of any count.
    const url = (s: ModelSettings): string => `the baseUrl of ${s.members === 1 ? 'that member' : 'those members'} (${s.url.slice(s.url.indexOf('(') + 1)}`;
    const fix = ofMembers(n, (s) => unfinishedAnswer(r, 'judge', { ...s, url: url(s) })?.hint ?? cause.hint ?? settingsFix(s), other);
    kinds.push({ cause: fix.on(cause), members: { n, words: 'whose answer could not be read' }, fix: fix.fix });
  }
  if (panel.error200 > 0) {
    const fix = ofMembers(panel.error200, error200Hint, othersAll((r) => ERROR_200_START().test(r)));
    const cause = fix.on(error200Cause(JUDGE_SETTINGS));
    // Every member that answered did so (those whose request agent-replay could not make were not asked): their count, as a panel's cut members' (the fix after says the others').
    kinds.push({
      cause: panel.error200 === panel.failed - panel.ours ? { ...cause, what: `${cause.what} (panel: ${panel.error200} of ${panel.size} members)` } : cause,
      members: { n: panel.error200, words: 'that answered HTTP 200 with an error' },
      fix: fix.fix,
    });
  }
  const [head, ...rest] = kinds;
  // Only members cut at their token limit (and requests agent-replay could not make): their cause, not "answered without a score".
  if (head === undefined && panel.cut > 0) {
    // Its fix names the members' models, a single judge's judge.model: a cause of its own (judgeCause).
    // One member cut: "that member's model"; a group of items whose counts differ, "those members' models" (Cause.apart).
    const hint = panelCutHint(panel.cut, othersAll(isCutReason));
    return alone({ key: 'judge:cut:panel', what: `the judge's answer was cut at its token limit (panel: ${panel.cut} of ${panel.size} members)`, hint, apart: PANEL_CUT_HINT });
  }
  const fallback = (): Cause => {
    const fix = ofMembers(Math.max(1, panel.failed - panel.ours), (s) => judgeDown(file, reason, undefined, panel.own, undefined, null, s).hint ?? settingsFix(s), othersAll((r) => !r.startsWith(CALL_FAILED_WORDS)));
    return fix.on(judgeDown(file, reason, undefined, panel.own));
  };
  return rest.reduce((cause, kind) => withMembersFix(cause, `panel-${kind.cause.key.replace(/^judge:/, '').replace(/:panel$/, '')}`, kind.members, kind.fix), alone(head?.cause ?? fallback()));
}

/**
 * The ways a panel's members were not reached, by the fix each gets (downHint, in the judge's settings: panelCause says it in the members'): a status
 * that begins a member's own reason (memberReasons), its deadline, its certificate refused, its key
 * that could not be sent, or its connection refused, closed, never opened or whose host did not
 * resolve; how many members, and how it is said. A label or a server's words that say "HTTP 404" or
 * a deadline are no member's way. A proxy's refusal (`the proxy refused the tunnel (CONNECT): HTTP
 * 403`) and a deadline through a proxy are the proxy's (proxyCause), not counted here.
 */
function downWays(own: readonly string[], file: string, others: readonly boolean[]): Map<string, DownWay> {
  const ways = new Map<string, DownWay>();
  for (const [i, r] of own.entries()) {
    const m = DOWN_START.exec(r);
    const lost = m === null ? LOST_WAYS.find((w) => w.words.exec(r)?.index === 0) : undefined;
    if (m === null && lost === undefined) continue;
    const status = m?.[1];
    const hint = downHint(status, m?.[0] ?? r, JUDGE_SETTINGS, null, file);
    const way = ways.get(hint);
    const other = others[i] === true;
    const first = { n: 1, status, text: m?.[0] ?? r, other };
    if (way !== undefined) {
      way.n += 1;
      way.other &&= other;
    }
    else if (lost !== undefined) ways.set(hint, { ...first, key: lost.key, said: lost.said });
    else if (status !== undefined) ways.set(hint, { ...first, key: status, said: `HTTP ${status}` });
    else if (m?.[3] !== undefined) ways.set(hint, { ...first, key: `tls:${m[3]}`, said: { one: `its TLS certificate refused, ${m[3]}`, more: `their TLS certificates refused, ${m[3]}` } });
    else ways.set(hint, { ...first, key: m?.[2] === 'no answer from the judge' ? 'timeout' : 'connect', said: m?.[2] === 'no answer from the judge' ? 'no answer in time' : 'no connection in time' });
  }
  return ways;
}

/** A way a panel's members were not reached (downWays): its key, how many, how it is said, and the first one's status and words, which its fix is read from in the members' settings. */
interface DownWay {
  key: string;
  n: number;
  said: ByCount;
  status: string | undefined;
  text: string;
  /** Each of them of another provider than the judge's (memberReasons): its settings in judge.panel alone (memberSettings). */
  other: boolean;
}

/** How a member's reason begins that says it was not reached otherwise than DOWN_START's (downWays): nothing sent, or a connection that failed (connectionFix). */
const LOST_WAYS: readonly { words: RegExp; key: string; said: ByCount }[] = [
  { words: KEY_NOT_SENT, key: 'key-not-sent', said: { one: 'its key could not be sent', more: 'their keys could not be sent' } },
  { words: REFUSED, key: 'refused', said: 'connection refused' },
  { words: DROPPED, key: 'closed', said: 'connection closed' },
  { words: UNRESOLVED, key: 'unresolved', said: 'host name not resolved' },
  { words: UNREACHED, key: 'unreached', said: 'no connection' },
];

/** 2 or more of a panel's members whose key no HTTP header can carry (src/judge/http.ts, notSentWords), in their settings' words (memberSettings, memberKeyAt). */
function keysNotSent(s: ModelSettings): string {
  return `the requests were not sent: ${s.key} (${s.keyAt ?? 'judge.apiKey'}) hold a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)`;
}

/** How a member's reason that says it was not reached begins (downWays): its status, its deadline, or its certificate refused (its code). */
const DOWN_START = /^(?:HTTP (\d{3})\b|(no connection to the judge opened|no answer from the judge) within \d[\d,]* ms(?! through )|its TLS certificate is refused: [^;]+? \(([A-Z_]+)\))/;

/** How many times each key occurs, in the order first seen. */
function countBy(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/** How a panel's members without a usable score failed, counted (panelCounts). */
interface PanelCounts {
  reason: string;
  failed: number;
  size: number;
  /** Not reached: an HTTP error, no answer in time, no connection. */
  unreachable: number;
  /** Answered without a usable score (isNoScoreReason), an HTTP 200 with an error apart; with those that answered in another way not told here. */
  noScore: number;
  /** Answered HTTP 200 with an error in place of an answer (ERROR_IN_200). */
  error200: number;
  /** Answered, in a form not read: each one's cause (unfinishedAnswer), its own reason, and whether it is of another provider than the judge's. */
  unread: { cause: Cause; reason: string; other: boolean }[];
  /** Cut at their token limit (cutWords). */
  cut: number;
  /** Requests agent-replay could not make (src/judge/panel.ts, CALL_FAILED). */
  ours: number;
  /** Each member's reason, to the end of the panel's (memberReasons). */
  members: string[];
  /** Each member's own reason, to where the next member's label begins (memberReasons). */
  own: string[];
  /** Each member's of another provider than the judge's (memberReasons). */
  others: boolean[];
}

/** How a member's reason that says its answer came in a form not read begins (unfinishedAnswer; src/judge/http.ts): compiled once, when a panel's reason is first read. */
const UNREAD_START = onFirstUse(
  () =>
    new RegExp(
      `^(?:it answered the TLS handshake with an alert|it answered without TLS \\(|response is not JSON\\b|response is encoded as "|response says it is encoded as |response is larger than |${STREAMED.replace(/[()]/g, '\\$&')}|the judge at \\S+ gave |the judge's answer \\(HTTP \\d{3}\\) (?:did not end|broke off))`,
    ),
);

/**
 * How a client's reason for an HTTP 200 that carried an error begins (src/judge/client.ts and
 * structured.ts, noAnswerWords: `unexpected response: no choices[0].message.content: an error in the HTTP 200 answer: "..."`):
 * compiled once, when a panel's reason is first read.
 */
const ERROR_200_START = onFirstUse(() => new RegExp(`^unexpected response: no [^:]*: ${ERROR_IN_200}: `));

/**
 * A member's label before its reason, as src/assertions/judge.ts (memberLabel) writes it: quoted (JSON), or without ": " and "; ";
 * and a member of another provider than the judge's, which its reason begins with saying (src/judge/panel.ts, OTHER_PROVIDER).
 */
const MEMBER_LABEL = /^(?:"(?:[^"\\]|\\.)*"|[^"](?:(?!: |; ).)*): (\(another provider\) )?/;

/**
 * Each member's reason in a panel's reason (`...needed): <label>: <reason>; <label>: <reason>`), from
 * where its label ends to the end of the text: members begin after the counts' "): " and after a
 * "; ", and a label ends at its first ": " (one that holds ": " is quoted, memberLabel), so a
 * label or a server's words that say "response is not JSON" are never read as a member's reason.
 * A "; " inside a reason starts no member unless a label and ": " follow it, and never more members
 * than the `count` the panel's reason names ("2 of 3 members"): where more places read as a label,
 * the reason's own are left to it: first those inside a quoted text or a parenthesis of the member
 * before them (a server's answer, quoted when it holds "; ": src/judge/http.ts, serverMessage), the
 * earliest first; then from the last, a "; " that begins a fix of ours (FIX_START), or that follows
 * a server's answer unquoted ("HTTP 500: ...", a record written before 2026-12-07: it runs on to
 * the next member), then the last ones. `own`: each member's reason alone, up to the "; " before the next member's label;
 * `others`: each member's of another provider than the judge's (its reason begins "(another provider) ", said neither in `members` nor in `own`).
 */
export function memberReasons(reason: string, from: number, count = Infinity): { members: string[]; own: string[]; others: boolean[] } {
  const starts = [from];
  for (let at = reason.indexOf('; ', from); at >= 0; at = reason.indexOf('; ', at + 2)) starts.push(at + 2);
  const spans = starts.flatMap((start) => {
    const label = MEMBER_LABEL.exec(reason.slice(start));
    return label === null ? [] : [{ start, at: start + label[0].length, other: label[1] !== undefined }];
  });
  const inReason = (k: number): boolean => {
    const m = spans[k] as { start: number; at: number; other: boolean };
    return FIX_START.test(reason.slice(m.start - 2, m.at)) || SERVER_ANSWER.test(reason.slice((spans[k - 1] as { at: number }).at, m.start));
  };
  // First the places inside a quoted text or a parenthesis of the member before them (a server's
  // answer quoted, `HTTP 500: "upstream; note: ..."`; `(...; given up ...: ...)`), the earliest first:
  // past one a clipped detail left open, every later place reads as inside it.
  let anchor = spans[0]?.at ?? from;
  const nested = spans.filter((m, k) => {
    if (k === 0) return false;
    const inside = !atTopLevel(reason.slice(anchor, m.start), m.start - 2 - anchor);
    if (!inside) anchor = m.at;
    return inside;
  });
  for (const m of nested.slice(0, Math.max(0, spans.length - count))) spans.splice(spans.indexOf(m), 1);
  // Then the last place that is a reason's own, again after each (a server's answer runs on over those left to it).
  let k = spans.length - 1;
  while (spans.length > count && k > 0) {
    if (inReason(k)) {
      spans.splice(k, 1);
      k = spans.length - 1;
    } else k -= 1;
  }
  spans.splice(Math.max(1, count));
  return {
    members: spans.map((m) => reason.slice(m.at)),
    own: spans.map((m, k) => reason.slice(m.at, (spans[k + 1]?.start ?? reason.length + 2) - 2)),
    others: spans.map((m) => m.other),
  };
}

/** A server's answer a member's reason quotes after its status (src/judge/http.ts: `HTTP 500: <its message>`): its words run to where the next member begins. */
const SERVER_ANSWER = /^HTTP \d{3}\b[^:;]*?: /;

/**
 * How a panel's reason (src/judge/panel.ts, unusableReason: `panel: 2 of 3 members gave no usable
 * score (2 usable needed; 1 unreachable, 1 gave no usable answer): <label>: <reason>; ...`) counts
 * its members without a usable score, by kind: the counts after the majority needed say how many
 * were not reached when the members failed in more than one way; else `kind`, the detail's, says
 * it ("judge unreachable": all of them but those whose reason says they answered, as a record
 * written before 2026-12-06 has it; without one, calibrate's: none when one answered). Null for a
 * reason that is no panel's.
 */
function panelCounts(reason: string, kind?: string): PanelCounts | null {
  const counts = /^panel: (\d+) of (\d+) members gave no usable score \(\d+ usable needed(?:; ([^)]*))?\)/.exec(reason);
  if (counts === null) return null;
  const failed = Number(counts[1]);
  // Each member by the words its own reason begins with, never by words in a label or a server's error.
  const { members, own, others } = memberReasons(reason, counts[0].length + 2, failed);
  const error200 = members.filter((r) => ERROR_200_START().test(r)).length;
  const unread = members.flatMap((r, i) => {
    const cause = UNREAD_START().test(r) ? unfinishedAnswer(r, 'judge') : null;
    return cause === null ? [] : [{ cause, reason: r, other: others[i] === true }];
  });
  const cut = members.filter(isCutReason).length;
  const ours = members.filter((r) => r.startsWith(CALL_FAILED_WORDS)).length;
  // A member whose HTTP 200 carried an error is said "unexpected response: ...: an error in the HTTP 200 answer": counted as that, not as one without a score.
  const noScore = members.filter(answeredNoScore).length;
  const told = noScore + error200 + unread.length + cut;
  const byKind = counts[3];
  const unreachable =
    byKind !== undefined ? Number(/(\d+) unreachable/.exec(byKind)?.[1] ?? 0) : kind === 'gave no usable answer' || (kind !== 'unreachable' && told > 0) ? 0 : Math.max(0, failed - ours - told);
  // Members that answered in a way not told here: without a usable score, as their kind says.
  const untold = Math.max(0, failed - unreachable - ours - told);
  return { reason, failed, size: Number(counts[2]), unreachable, noScore: noScore + untold, error200, unread, cut, ours, members, own, others };
}

/** A member's reason that says it answered without a usable score, other than an HTTP 200 that carried an error (counted as that: ERROR_200_START). */
function answeredNoScore(reason: string): boolean {
  return isNoScoreReason(reason) && !ERROR_200_START().test(reason);
}

/**
 * A panel some of whose members, not all of those without a usable score, were cut at their token
 * limit: the cause of the others, and the limit's fix for those, once (docs/judges.md, "Panels").
 */
function withPanelCut(cause: JudgeCause, reason: string): JudgeCause {
  const panel = panelCounts(reason);
  const cut = panel?.cut ?? 0;
  // A panel whose members without a score were all cut (and requests not made) has the limit's fix already (panelCause).
  if (cut === 0 || cause.key === 'judge:cut:panel' || cause.key.startsWith('judge:cut:panel:')) return cause;
  // Each of them of another provider than the judge's: its model in judge.panel alone; of a group's items, the words true of all (ByCount's apart).
  const other = panel !== null && panel.members.every((r, i) => !isCutReason(r) || panel.others[i] === true);
  return withMembersFix(cause, 'panel-cut', { n: cut, words: 'cut at the token limit' }, { one: panelCutHint(1, other), more: panelCutHint(2, other), apart: PANEL_CUT_HINT });
}

/**
 * A panel whose members failed in more than one way (src/judge/panel.ts: `(2 usable needed; 1
 * unreachable, 1 judge call failed)`): the cause of the others, and the fix of the members whose
 * request agent-replay could not make after theirs, each once (docs/judges.md, "Panels"): their count is
 * said once, in their fix ("for the 1 whose judge call failed"), the others' words keep theirs. Else the cause as it is.
 */
function withPanelCallsFailed(cause: JudgeCause, reason: string): JudgeCause {
  const counts = /^panel: \d+ of \d+ members gave no usable score \(\d+ usable needed; ([^)]*)\)/.exec(reason)?.[1];
  const ours = counts === undefined ? undefined : /(\d+) judge call failed/.exec(counts)?.[1];
  if (ours === undefined) return cause;
  return withMembersFix(cause, 'panel-call-failed', { n: Number(ours), words: 'whose judge call failed' }, { one: CALL_FAILED_HINT, more: CALL_FAILED_HINTS });
}

/**
 * The cause of a judge check's detail, as src/assertions/judge.ts writes it ("judge call failed:
 * ...", "judge unreachable: ...", "judge gave no usable answer: ..."), its fixes apart; null for
 * any other detail.
 */
function judgeCheckCause(detail: string, answeredIn: AnsweredIn, file: string): JudgeCause | null {
  // A fault of ours (a request body that could not be made, src/judge/client.ts): nothing was sent, so no setting of the judge's is at fault.
  // Records written before 2026-12-06 said "judge unreachable: " before it.
  const callFailed = /^(?:judge unreachable: )?(judge call failed: .*)$/.exec(detail)?.[1];
  if (callFailed !== undefined) return alone(callFailedCause('judge', callFailed));
  const judge = /^judge (unreachable|gave no usable answer): (.*)$/.exec(detail);
  if (judge === null) return null;
  const reason = judge[2] ?? '';
  return withPanelCut(withPanelCallsFailed(judgeCause(judge[1] ?? '', reason, answeredIn, file), reason), reason);
}

/**
 * The fixes a run's cause gives a judge's reason (a client's, or a panel's), each apart and in the
 * order its hint gives them, for calibrate, which keeps the reasons of its answers without a usable
 * score and no check's detail (src/calibrate/render.ts). The detail is the one a run writes for the
 * reason (src/assertions/judge.ts): "judge call failed: ..." as it is; "judge gave no usable answer:
 * ..." when the judge answered (without a usable score, or cut at its token limit), or a panel's
 * members did that no other way than by a request agent-replay could not make; else "judge
 * unreachable: ...". `answeredIn`: `'calibration'` when the judge gave a usable score to another
 * answer of the calibration (a connection it dropped then reads run-again, as a run's). `file`: the
 * suite's config file, which a fix that sets a key names (causeOf). Each fix comes with its words
 * of 2 or more of a panel's members (JudgeFix.more), which calibrate says once for answers of one and of more.
 */
export function judgeFixes(reason: string, answeredIn: AnsweredIn = null, file: string = NEW_CONFIG_NAME): JudgeFix[] {
  return judgeReasonCheckCause(reason, answeredIn, file)?.fixes ?? [];
}

/**
 * The cause a run's report groups a judge's reason under (its key and what it says; judgeFixes
 * gives its fixes apart), read from the same detail: calibrate groups its answers without a usable
 * score by it, as a run groups its items (src/calibrate/render.ts). Null for a reason no cause reads.
 */
export function judgeReasonCause(reason: string, file: string = NEW_CONFIG_NAME): Cause | null {
  const cause = judgeReasonCheckCause(reason, null, file);
  return cause === null ? null : { key: cause.key, what: cause.what, hint: cause.hint };
}

/** The detail a run writes for a judge's reason (judgeFixes), read as its check's cause. */
function judgeReasonCheckCause(reason: string, answeredIn: AnsweredIn, file: string): JudgeCause | null {
  const panel = panelCounts(reason);
  const answered = panel === null ? isNoScoreReason(reason) || isCutReason(reason) : panel.unreachable === 0;
  const detail = reason.startsWith(CALL_FAILED_WORDS) ? reason : `judge ${answered ? 'gave no usable answer' : 'unreachable'}: ${reason}`;
  return judgeCheckCause(detail, answeredIn, file);
}

/**
 * The cause of a check that did not run, from its detail line. `spansCame`: other turns of the run
 * had spans (`spansInRun`); `answered`: the model clients that answered calls of this run (`modelsAnsweredInRun`).
 */
function notEvaluatedCause(detail: string, spansCame: boolean, answered: ModelsAnswered, file: string): Cause {
  // A turn's spans never came (docs/traces.md, "When spans do not arrive"): one cause for every trace id.
  const spans = /^(?:turn \d+: )?no spans for trace [0-9a-f]{32} within ([^:]+?)(?::| at )/.exec(detail);
  // They came, after the wait (docs/traces.md, "When a turn's spans are complete"): the agent exports
  // and continues the traceparent, too late for the turn (the cause reworded at the run's end, traces/observer.ts).
  if (spans && /: \d[\d,]* spans? came to \S+ after it; /.test(detail)) {
    return {
      key: 'traces:late',
      what: `a turn's spans came after the wait of ${spans[1] ?? ''}`,
      hint: `have the agent flush its spans before it replies (forceFlush), or raise traces.waitMs (${docsUrl('traces.md', "When a turn's spans are complete")})`,
    };
  }
  // Exports the receiver refused: the agent's endpoint or protocol is wrong (docs/traces.md, "When spans do not arrive").
  const refused = spans ? /: none came to \S+, and \d[\d,]* exports? came (?:to (\S+) instead|as .+?) \(refused, (404|415)\); (set OTEL_EXPORTER_OTLP_.*?)(?= \(mocked mode: |$)/.exec(detail) : null;
  if (spans && refused) {
    // Its fix names the receiver's address (a merge's shards each had their own): in the key as in the fix.
    return {
      key: `traces:refused:${refused[2] ?? ''}\n${refused[3] ?? ''}`,
      what: refused[1] !== undefined ? `no spans arrived within ${spans[1] ?? ''}: the agent exported them to ${refused[1]}, not /v1/traces` : `no spans arrived within ${spans[1] ?? ''}: the agent exported them in an encoding the receiver does not read`,
      hint: `${refused[3] ?? ''} (${docsUrl('traces.md', 'Receive: an OTLP/HTTP receiver')})`,
    };
  }
  if (spans && / of traces agent-replay did not send came to /.test(detail)) {
    return {
      key: 'traces:other-traces',
      what: `no spans of the run's traces arrived within ${spans[1] ?? ''}, though spans of other traces did`,
      hint: `start the agent's spans under the incoming traceparent, as HTTP instrumentation does (${docsUrl('traces.md', 'Set-up')}, point 2)`,
    };
  }
  // The agent exports under the traceparent, for other turns: the turns without spans are requests
  // it makes no span for, as a welcome turn answered without the model (docs/traces.md, "When spans do not arrive").
  if (spans && spansCame) {
    return {
      key: 'traces:no-spans',
      what: `no spans arrived within ${spans[1] ?? ''} for some turns, though other turns of the run had theirs`,
      hint: `give every request of the agent a span of its own, the welcome turn's too: a server span around the handler, as HTTP instrumentation makes (${docsUrl('traces.md', 'When spans do not arrive')})`,
    };
  }
  // A trace store had nothing (query mode): there is no receiver to point the agent at.
  const store = spans ? /^(?:turn \d+: )?no spans for trace [0-9a-f]{32} within [^:]+? at (.+?): does the agent export to this store/.exec(detail) : null;
  if (spans && store) {
    // A store's fix, not a receiver's: a cause of its own.
    return {
      key: 'traces:no-spans:store',
      what: `no spans arrived within ${spans[1] ?? ''} at ${storeNamed(store[1] ?? '')}`,
      hint: `check that the agent exports its spans to this store (traces.query.url names it), or raise traces.waitMs for the store to index them (${docsUrl('traces.md', 'When spans do not arrive')})`,
    };
  }
  if (spans) {
    return {
      key: 'traces:no-spans',
      what: `no spans arrived within ${spans[1] ?? ''}`,
      hint: `point the agent's OTEL_EXPORTER_OTLP_ENDPOINT at the receiver (or check traces.query), or raise traces.waitMs (${docsUrl('traces.md', 'When spans do not arrive')})`,
    };
  }
  // Some of a turn's spans came, not the span they hang from (docs/traces.md, "When a turn's spans are complete").
  const part = /^(?:turn \d+: )?spans for trace [0-9a-f]{32} incomplete within ([^:]+?)(?::| at )/.exec(detail);
  if (part) {
    return {
      key: 'traces:incomplete',
      what: `a turn's spans incomplete within ${part[1] ?? ''}`,
      hint: `flush the agent's spans before it replies (forceFlush), or raise traces.waitMs (${docsUrl('traces.md', "When a turn's spans are complete")})`,
    };
  }
  // A retried turn whose trace has spans, none under the attempt that answered (docs/traces.md,
  // "Retried requests"): one cause for every trace id and span count, the receiver's or the store's.
  const unattached = /^(?:turn \d+: )?no spans of the answered attempt for trace [0-9a-f]{32} within ([^:]+?)(?:| at (.+?)): the turn was retried, /.exec(detail);
  if (unattached) {
    const receiver = / and export them to (\S+)\?$/.exec(detail)?.[1];
    const where = receiver ?? storeNamed(unattached[2] ?? '');
    const start = `start the agent's spans under each request's incoming traceparent, a retried request's too (${docsUrl('traces.md', 'Retried requests')})`;
    return {
      key: `traces:not-under-attempt:${receiver === undefined ? 'store:' : ''}${where}`,
      what: `no spans of the answered attempt within ${unattached[1] ?? ''}${receiver === undefined ? ` at ${where}` : ''}: the turn was retried, and none of its trace's spans is under the traceparent of the attempt that answered`,
      hint: receiver === undefined ? `${start}, or raise traces.waitMs for the store to index them` : `${start}, and export them to ${receiver}`,
    };
  }
  // Records written before 2026-12-04 said "judge unreachable: " before both of these.
  if (/^(?:judge unreachable: )?no judge configured/.test(detail)) {
    return { key: 'judge:none', what: 'no judge configured', hint: `add a judge section to ${file} (judge assertions and criteria need one)` };
  }
  const judge = judgeCheckCause(detail, answered.judge ? 'run' : null, file);
  if (judge !== null) return { key: judge.key, what: judge.what, hint: judge.hint, ...(judge.apart === undefined ? {} : { apart: judge.apart }), ...(judge.kind === undefined ? {} : { kind: judge.kind }) };
  // A simulated user's simulator could not play the user (docs/personas.md, "Simulated users").
  // "simulator gave no usable answer": something answered at its address, not in a form read (since 2026-12-06; "simulator unreachable" before).
  // A simulated script's turn its baseline could not replay, with no model to write it: a setting to add, none to check.
  if (/^(?:simulator unreachable: )?no simulator (?:is )?configured/.test(detail)) {
    return { key: 'simulator:none', what: 'no simulator configured', hint: `add a simulator section to ${file}, or a judge section (the simulator then takes the judge's model): a simulated script whose agent no longer answers as its baseline did needs one (${docsUrl('simulated-users.md', 'The simulator and its redaction')})` };
  }
  // Its endpoint answered HTTP 200 with an error in place of an answer (a gateway's upstream failed):
  // the endpoint's fault, as the judge's (error200Cause), not its model's prompt-following.
  if (/^simulator answered no usable JSON: /.test(detail) && isError200(detail)) return error200Cause(SIMULATOR_SETTINGS);
  // It answered, and its model did not follow the prompt (prose, an empty message, a refusal, an
  // answer that says two things): its address and key work, its model does not, as a judge's answer
  // with no usable score (src/simulator/parse.ts, src/simulator/client.ts).
  const unfollowed = /^simulator (answered no usable JSON|wrote an empty message|gave \d+ different answers in one|named "done" or "message" twice in one object)\b/.exec(detail)?.[1];
  if (unfollowed !== undefined) {
    const said = unfollowed.startsWith('answered') || unfollowed.startsWith('wrote') ? unfollowed : 'gave an answer that says two things';
    return { key: `simulator:${said}`, what: `simulator ${said}`, hint: SIMULATOR_UNFOLLOWED_HINT };
  }
  const simulator = /^simulator (unreachable|gave no usable answer|call failed)(?::\s*(.*))?$/.exec(detail);
  // A fault of ours (a request body that could not be made, src/simulator/client.ts): nothing was sent, so no setting of the simulator's is at fault.
  if (simulator?.[1] === 'call failed') return callFailedCause('simulator', detail);
  if (simulator) {
    // The model stopped at its token limit (src/simulator/client.ts): its limit is the fix, as the judge's.
    if (isCutReason(simulator[2] ?? '')) return { key: 'simulator:cut', what: "the simulator's message was cut at its token limit", hint: SIMULATOR_CUT_HINT };
    const proxied = proxyCause(simulator[2] ?? '', 'simulator', 'on the way to the simulator', file);
    if (proxied !== null) return proxied;
    const unfinished = unfinishedAnswer(simulator[2] ?? '', 'simulator') ?? refusedCertificate(simulator[2] ?? '', 'simulator');
    if (unfinished !== null) return unfinished;
    const status = downStatus(simulator[2] ?? '');
    const kind = simulator[1] === 'unreachable' ? `unreachable${status ? `: HTTP ${status}` : ''}` : (simulator[1] ?? '');
    const what = status || simulator[1] !== 'unreachable' ? `simulator ${kind}` : simulator[2] === undefined ? detail : `simulator unreachable: ${causeWords(simulator[2])}`;
    // Not reached: the fix for what it did (a refused key, a timeout, a 5xx, a connection dropped after
    // other calls it answered), with the simulator's settings. Reached, with an answer in a form no
    // cause above names: its address answered, so its log says more than its settings.
    const hint = simulator[1] === 'unreachable' ? downHint(status, simulator[2] ?? '', SIMULATOR_SETTINGS, answered.simulator ? 'run' : null, file) : SIMULATOR_UNREAD_HINT;
    // Not reached without a status: its fix tells the failures apart, as the judge's (judgeDown).
    return { key: `simulator:${status ?? (simulator[1] === 'unreachable' ? `unreachable:${unreachedKind(simulator[2] ?? '', SIMULATOR_SETTINGS, file)}` : simulator[1])}`, what, hint };
  }
  if (/^(?:regex\b.*|pattern) does not compile/.test(detail)) {
    return { key: 'regex:compile', what: 'regex does not compile', hint: 'fix the pattern in the fixture file named on each item' };
  }
  if (/^regex\b.*did not finish within/.test(detail)) {
    return { key: 'regex:timeout', what: 'regex over its time budget', hint: `simplify the pattern, or raise regex.timeoutMs in ${file}` };
  }
  if (/^regex worker failed/.test(detail)) return { key: 'regex:worker', what: 'regex worker failed', hint: 'run it again; lower regex.workers if memory is short' };
  // A trace store's failure names the URL asked, which holds the turn's trace id (docs/traces.md,
  // "Query: a trace store"): one store that refuses or cannot be reached is one cause, not one per turn.
  if (/\bGET \S*[0-9a-f]{32}\S* failed: /.test(detail)) {
    const general = detail.replace(/\b[0-9a-f]{32}\b/g, '<trace id>');
    return { key: `not_evaluated:${general}`, what: general, hint: null };
  }
  return { key: `not_evaluated:${detail}`, what: detail, hint: null };
}

/** A trace store as a cause names it, "tempo (https://...)" (src/traces/index.ts); records written before 2026-12-07 (late evening) said "tempo at https://...". */
function storeNamed(store: string): string {
  return store.replace(/^(tempo|jaeger|langfuse) at (\S+)$/, '$1 ($2)');
}

/**
 * What to do about a judge's, a meaning judge's or a simulator's call that failed before anything
 * was sent ("judge call failed: ...": a request body agent-replay could not make): agent-replay's
 * fault, not a setting's (docs/troubleshooting.md, "Not evaluated").
 */
export const CALL_FAILED_HINT = 'agent-replay could not make the request, and sent nothing: run it again, and report it with this message if it happens again';

/** CALL_FAILED_HINT of 2 or more of a panel's members ("for the 2 whose judge call failed: ..."): each its own request. */
export const CALL_FAILED_HINTS = CALL_FAILED_HINT.replace('the request,', 'the requests,');

/**
 * A call agent-replay could not make, one cause for each client's: its first item's words, with
 * CALL_FAILED_HINT; a panel's every member's, by their count, not its reason that names them each
 * ("judge call failed: panel: 2 of 3 members ...: m0: judge call failed: ...; m1: judge call failed: ...").
 */
function callFailedCause(who: 'judge' | 'simulator', detail: string): Cause {
  const panel = /^judge call failed: panel: ((\d+) of \d+ members) gave no usable score \(/.exec(detail);
  if (panel === null) return { key: `${who}:call-failed`, what: causeWords(detail), hint: CALL_FAILED_HINT };
  // Each member its own request: of 2 or more, "the requests"; a group of items whose counts differ, a single judge's among them, too (Cause.apart).
  return { key: `${who}:call-failed`, what: `judge call failed (panel: ${panel[1] ?? ''})`, hint: panel[2] === '1' ? CALL_FAILED_HINT : CALL_FAILED_HINTS, apart: CALL_FAILED_HINTS };
}

/**
 * A model endpoint's HTTP 200 with an error (a gateway's upstream failed), the judge's, the meaning
 * judge's or the simulator's, with its settings: its message says what; a passing one goes on a run again.
 */
export function error200Hint(s: ModelSettings): string {
  // Of 2 or more of a panel's members, each its own endpoint: "at their endpoints".
  const at = (s.members ?? 1) > 1 ? 'their endpoints' : 'the endpoint';
  return `read the error the item quotes: check ${s.model} and ${s.key}${s.keyAt === null ? '' : ` (${s.keyAt})`} at ${at}; an upstream that failed behind a gateway (OpenRouter, a proxy) passes: run again`;
}

/** The judge's (error200Hint). */
export const JUDGE_ERROR_200_HINT = error200Hint(JUDGE_SETTINGS);

/** A judge's answer cut at its token limit: a reasoning model may spend it thinking (docs/judges.md, "What the judge reads"). */
export const JUDGE_CUT_HINT = `raise the output-token limit of judge.model at its endpoint (agent-replay asks Anthropic for 256 tokens and sets none for OpenAI-compatible endpoints), or choose a model that answers with the JSON alone, without long reasoning (${docsUrl('judges.md', 'What the judge reads')})`;

/** A simulator's message cut at its token limit (Anthropic's 512: src/simulator/client.ts, SIMULATOR_MAX_TOKENS): not sent to the agent (docs/simulated-users.md, "Faults are not evaluated"). */
export const SIMULATOR_CUT_HINT = `raise the output-token limit of simulator.model (else judge.model) at its endpoint (agent-replay asks Anthropic for 512 tokens and sets none for OpenAI-compatible endpoints), or choose a model that answers with the JSON alone, without long reasoning (${docsUrl('simulated-users.md', 'Faults are not evaluated')})`;

/** A panel's members cut at their token limit: each member's model is its own (docs/judges.md, "Panels"). */
export const PANEL_CUT_HINT = JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of those members' models at their endpoints (judge.panel, else judge.model)");

/**
 * PANEL_CUT_HINT said of `n` members cut: of 1, "that member's model at its endpoint"; else "those members' models at their endpoints".
 * `other`: each of another provider than the judge's, its model in judge.panel alone (ofOwn).
 */
export function panelCutHint(n: number, other = false): string {
  const hint = n === 1 ? JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of that member's model at its endpoint (judge.panel, else judge.model)") : PANEL_CUT_HINT;
  return other ? ofOwn(hint) : hint;
}

/** A panel's fix said of members of another provider than the judge's, which never take judge.model (src/config.ts, panelMemberConfig): "(judge.panel)". */
function ofOwn(hint: string): string {
  return hint.replace('(judge.panel, else judge.model)', '(judge.panel)');
}

/** A simulator that answered, in a form no cause names (src/judge/http.ts): it was reached, so its log says more than its address or key. */
export const SIMULATOR_UNREAD_HINT = `the simulator answered, so its address works: see the reason on each item, and the simulator's log or that of a gateway or proxy in front of it (${docsUrl('simulated-users.md', 'Faults are not evaluated')})`;

/** A simulator that answered, not with one message or `done` (docs/simulated-users.md, "Faults are not evaluated"): its model is the fix, not its address or key. */
export const SIMULATOR_UNFOLLOWED_HINT = `use a simulator model (simulator.model, else judge.model) that follows the prompt and answers with the JSON alone, or an endpoint with structured output (${docsUrl('simulated-users.md', 'Faults are not evaluated')})`;

export const JUDGE_NO_SCORE_HINT = `use a judge model that follows the prompt, or an endpoint with structured output (${docsUrl('judges.md', 'Structured output and its fallback')})`;

/** JUDGE_NO_SCORE_HINT of a panel's member: its model is its own (docs/judges.md, "Panels"), as the cut members' fix says it (panelCutHint). */
export const PANEL_NO_SCORE_HINT = JUDGE_NO_SCORE_HINT.replace('follows the prompt,', 'follows the prompt (judge.panel, else judge.model),');

/** PANEL_NO_SCORE_HINT of 2 or more of a panel's members, each its own model and endpoint: "use judge models that follow the prompt (...), or endpoints" (PANEL_CUT_HINT). */
export const PANEL_NO_SCORE_HINTS = PANEL_NO_SCORE_HINT.replace('a judge model that follows the prompt', 'judge models that follow the prompt').replace('or an endpoint', 'or endpoints');

/** How a client's reason that says the model answered without a usable score begins (isNoScoreReason). */
const NO_SCORE_WORDS = '(?:no usable score in output|score .*? is (?:not a number|outside \\[0,1\\])|the answer (?:gives \\d+ different scores|names "score" twice)|unexpected response: |the judge model declined: )';

/**
 * A judge client's reason (judge/client.ts, judge/parse.ts) that says the model answered and gave
 * no score that can be read: prose, a score not a number or outside 0 to 1, two scores, no content,
 * a refusal (a run's "judge gave no usable answer: the judge model declined: ...", judgeCause).
 */
export function isNoScoreReason(reason: string): boolean {
  return NO_SCORE_START().test(reason);
}

/** NO_SCORE_WORDS at a reason's start, compiled once, when a reason is first read. */
const NO_SCORE_START = onFirstUse(() => new RegExp(`^${NO_SCORE_WORDS}`));

/** How a member's request agent-replay could not make reads (src/judge/panel.ts, CALL_FAILED). */
const CALL_FAILED_WORDS = 'judge call failed: ';

/** How a client's reason that says the model stopped at its token limit begins (src/judge/structured.ts, cutWords). */
const CUT_WORDS = "the answer was cut at the model's token limit (";

/** A judge client's reason that says the model stopped at its token limit (src/judge/structured.ts, cutWords). */
export function isCutReason(reason: string): boolean {
  return reason.startsWith(CUT_WORDS);
}

/**
 * Why this item is not verified; null when it is (it has a pass or fail verdict). `answered`: the
 * agent replied to other items of the run (`answeredInRun`), which changes the fix a 502/503/504 reads;
 * `models`: the judge and the simulator answered calls of the run (`modelsAnsweredInRun`), which
 * changes the fix a dropped connection reads. A simulated script's own earlier simulator calls count too.
 * `file`: the suite's config file (the record's `configName`, docs/results-json.md), which a fix
 * that sets a key names: passed down to where each fix is written, never put in by rewriting its
 * words, so that a name the fix quotes (an agent's path, a proxy's words) is kept as it came.
 */
export function causeOf(item: CauseItem, endpoint: string | null, answered = false, spansCame = false, models: ModelsAnswered = NONE_ANSWERED, file: string = NEW_CONFIG_NAME): Cause | null {
  if (item.errored) return errorCause(item.errorKind ?? 'internal', item.error ?? 'the replay did not complete', endpoint, answered, item.errorAddress ?? null, file);
  if (item.verdict !== 'not_evaluated') return null;
  const check = item.checks?.find((c) => c.status === 'not_evaluated');
  // The item's own judge, never another's of the run (a merge's panel for a single judge): its fix says that judge answered other calls.
  const own = { ...models, judge: ownJudgeAnswered(item, models), simulator: models.simulator || simulatorAnswered(item) };
  return notEvaluatedCause(check?.detail ?? item.detail ?? 'the check did not run', spansCame, own, file);
}

/**
 * Did the judge, the simulator or the meaning judge answer a call of the run: a fixture's judge score
 * it asked for (not reused), a script's criterion judged (not reused); a simulated script's simulator
 * call that came back with a message or done (one before the call that failed, in a script it failed
 * in); a meaning the meaning judge decided (an item's, a script's turn's or an attempt's: one it
 * reused came from an earlier call of the same run).
 */
export function modelsAnsweredInRun(items: readonly CauseItem[]): ModelsAnswered {
  const judges: JudgesAnswered = { byModel: new Map(), unnamed: false };
  let judge = false;
  for (const item of items) {
    if (!judgeAnswered(item)) continue;
    judge = true;
    const id = judgeIdOf(item);
    if (id === null) judges.unnamed = true;
    else judges.byModel.set(id.model, (judges.byModel.get(id.model) ?? new Set()).add(id.endpoint));
  }
  return { judge, judges, simulator: items.some(simulatorAnswered), meaning: items.some(meaningJudged) };
}

/** What a run's items tell about each one's cause (RunEvidence). */
export function runEvidence(items: readonly CauseItem[]): RunEvidence {
  return { answered: answeredInRun(items), spansCame: spansInRun(items), models: modelsAnsweredInRun(items) };
}

function meaningJudged(i: CauseItem): boolean {
  const judged = (m: MeaningBy | null | undefined): boolean => m?.by === 'judge';
  return judged(i.drift?.meaning) || i.turns?.some((t) => judged(t.meaning)) === true || i.attempts?.some((a) => judged(a.meaning)) === true;
}

function judgeAnswered(i: CauseItem): boolean {
  const scored = !i.errored && (i.verdict === 'pass' || i.verdict === 'fail') && i.judgeFingerprint != null && i.judgeReused == null;
  return scored || i.checks?.some(criterionJudged) === true;
}

function criterionJudged(c: NonNullable<CauseItem['checks']>[number]): boolean {
  const k = c as { kind?: unknown; reused?: unknown };
  return k.kind === 'criterion' && c.status !== 'not_evaluated' && k.reused == null;
}

function simulatorAnswered(i: CauseItem): boolean {
  const s = i.simulation;
  if (s == null) return false;
  return s.endedBy === 'simulator_fault' ? s.calls > 1 : s.calls > 0;
}

/** Did the agent reply to any item of the run: one that is not errored completed its replay. */
export function answeredInRun(items: readonly CauseItem[]): boolean {
  return items.some((i) => !i.errored);
}

/** Did any turn of the run read spans (docs/traces.md): the agent exports, and continues the traceparent. */
export function spansInRun(items: readonly CauseItem[]): boolean {
  return items.some((i) => (i.spans?.count ?? 0) > 0 || (i.turns ?? []).some((t) => (t.spans?.count ?? 0) > 0));
}

/** Unverified items grouped by cause, largest group first (ties: first seen first). */
export function groupCauses(items: readonly CauseItem[], endpoint: string | null, file: string = NEW_CONFIG_NAME): CauseGroup[] {
  return causeGroups(items, endpoint, file).groups;
}

/** The groups of groupCauses, and the one each unverified item went into: the cause decided once per item, which the reports list it under (src/report/model.ts). */
export interface CauseGroups {
  groups: CauseGroup[];
  of: ReadonlyMap<CauseItem, CauseGroup>;
}

/** groupCauses, with the group of each item it grouped. */
export function causeGroups(items: readonly CauseItem[], endpoint: string | null, file: string = NEW_CONFIG_NAME): CauseGroups {
  const groups = new Map<string, CauseGroup>();
  const of = new Map<CauseItem, CauseGroup>();
  // A group whose items' causes are worded differently (a deadline, an address, an attempt count of their own): each wording, once.
  const worded = new Map<CauseGroup, Set<string>>();
  // A group's fix for when its words are its items' shared ones (Cause.apart): the first item's that has one, wherever it comes, so that the group's words never depend on its items' order.
  const apartOf = new Map<CauseGroup, string>();
  // What its items' words say in general (Cause.kind), each once, and whether they errored, each way once (whatever their order): said when their words share none.
  const kinds = new Map<CauseGroup, { said: Set<string>; errored: Set<boolean> }>();
  // Read over every item, and only once an item has a cause: a verified run (every item has a pass
  // or fail verdict, causeOf's null) reads none of it (docs/performance.md).
  let evidence: RunEvidence | null = null;
  for (const item of items) {
    if (!item.errored && item.verdict !== 'not_evaluated') continue;
    evidence ??= runEvidence(items);
    const cause = causeOf(item, endpoint, evidence.answered, evidence.spansCame, evidence.models, file);
    if (cause === null) continue;
    const kind = cause.kind ?? (item.errored ? (ERROR_KIND_WORDS[item.errorKind as ErrorKind] ?? 'errored') : 'not evaluated');
    let group = groups.get(cause.key);
    if (group) {
      kinds.get(group)?.said.add(kind);
      kinds.get(group)?.errored.add(item.errored);
      if (cause.apart !== undefined && !apartOf.has(group)) apartOf.set(group, cause.apart);
      group.labels.push(item.label);
      if (cause.what !== group.what || worded.has(group)) worded.set(group, (worded.get(group) ?? new Set([group.what])).add(cause.what));
      // A fix worded by its item (a panel's count of members): the group's says what holds for all.
      else if (cause.hint !== group.hint) worded.set(group, new Set([group.what]));
    } else {
      const { apart, kind: _kind, ...said } = cause;
      groups.set(cause.key, (group = { ...said, labels: [item.label] }));
      if (apart !== undefined) apartOf.set(group, apart);
      kinds.set(group, { said: new Set([kind]), errored: new Set([item.errored]) });
    }
    of.set(item, group);
  }
  // The group says what all its items share, and a fix true of that; each item's line says its own (docs/troubleshooting.md, "Not evaluated").
  // Words that share none (a proxy's host that did not resolve, and one not reached otherwise): what their kinds share, else that they errored or were not evaluated.
  for (const [group, whats] of worded) {
    const kind = kinds.get(group);
    group.what = sharedWhat([...whats]) ?? sharedWhat([...(kind?.said ?? [])]) ?? erroredWords(kind?.errored ?? new Set([true]));
    group.hint = apartOf.get(group) ?? group.hint;
  }
  return { groups: [...groups.values()].sort((a, b) => b.labels.length - a.labels.length), of };
}

/** A group's items, by whether they errored (causeGroups): "errored", "not evaluated", or of items of both "errored or not evaluated". */
function erroredWords(errored: ReadonlySet<boolean>): string {
  if (errored.size > 1) return 'errored or not evaluated';
  return errored.has(false) ? 'not evaluated' : 'errored';
}

/**
 * What the causes of one group say alike (causeGroups), when their items' words differ (`no answer
 * from the judge within 30,000 ms` and `... 60,000 ms`, `connection refused at 127.0.0.1:9` and
 * `... :11434`, `(2 attempts)` and `(3 attempts)`): their words up to the first that differs, not
 * inside a parenthesis or a quote left open there, without a trailing "within", "at", "after" and
 * the like: `no answer from the judge`. Null when they share none.
 */
function sharedWhat(whats: readonly string[]): string | null {
  const [first = '', ...others] = whats;
  let shared = first;
  for (const other of others) {
    let k = 0;
    while (k < shared.length && k < other.length && shared[k] === other[k]) k += 1;
    // Never inside a word: "127.0.0.1:9" and "127.0.0.1:11434" share "127.0.0.1:" but no address.
    if (!wordEnds(shared, k) || !wordEnds(other, k)) k = Math.max(0, shared.lastIndexOf(' ', k - 1));
    shared = shared.slice(0, k);
  }
  // A parenthesis or a quote the shared words leave open is cut before it opened, the outermost first.
  const opened: number[] = [];
  for (let i = 0; i < shared.length; i += 1) {
    const c = shared[i];
    if (c === '(') opened.push(i);
    else if (c === ')' && shared[opened.at(-1) ?? -1] === '(') opened.pop();
    else if (c === '"') {
      if (shared[opened.at(-1) ?? -1] === '"') opened.pop();
      else opened.push(i);
    }
  }
  if (opened.length > 0) shared = shared.slice(0, opened[0]);
  shared = shared.replace(SHARED_TAIL, '');
  return shared === '' ? null : shared;
}

/** Does a word of `text` end at `at`: its end, a space, or a clause's mark before a space ("ms," in "ms, given up"). */
function wordEnds(text: string, at: number): boolean {
  const c = text[at];
  if (c === undefined || c === ' ') return true;
  return (c === ',' || c === ';' || c === ':') && (text[at + 1] ?? ' ') === ' ';
}

/** What shared words do not end in (sharedWhat): a clause's mark, or a word that leads to the part that differed. */
const SHARED_TAIL = /(?:[\s,:;]|\s(?:within|at|after|before|from|to|of|in|for|by|with|on|and|or|than|the|a|an))+$/;

/** "all 5: HTTP 404 from https://host/api/chat: check agent-path or agent.url" ("3 of 5: ..."). */
export function causeLine(group: CauseGroup, of: number): string {
  const n = group.labels.length;
  const text = `${group.what}${group.hint ? `: ${group.hint}` : ''}`;
  if (n === 1 && of === 1) return text;
  return `${n === of ? `all ${n}` : `${n} of ${of}`}: ${text}`;
}
