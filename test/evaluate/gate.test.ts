import { describe, expect, it } from 'vitest';
import { fixtureRecord } from '../support/fixture-record.js';
import { causeLine, causeOf, gate, gateMerged, gateRun, groupCauses, parseFailOn, planAcceptance, verificationOf, DEFAULT_FAIL_ON } from '../../src/evaluate/index.js';
import { FAIL_ON_CONDITIONS, type FixtureRecord, type PersonaRecord } from '../../src/types.js';
import { CLOSED_FIX, HEADERS_FIX, NOT_HTTP_FIX } from '../../src/agent-fixes.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const URL_ = 'https://preview-42.example.com/api/chat';

const rec = (over: Partial<FixtureRecord>): FixtureRecord => fixtureRecord(over, { drift: { reply: 'same', route: 'same', verdict: 'still_passing' } });

const errored = (label: string, errorKind: NonNullable<FixtureRecord['errorKind']>, error: string): FixtureRecord =>
  rec({ label, errored: true, errorKind, error, reply: null, verdict: null, drift: null });

const page = (id: number): string => `<!doctype html><html><head><title>404</title></head><body>request ${id}</body></html>`;

describe('causes', () => {
  it('a redirect: to an address, to a sign-in page, or with no Location', () => {
    const to = (status: number, where: string | null): FixtureRecord =>
      errored('x', 'http', `message turn: agent returned HTTP ${status} after 1 attempt${where === null ? '' : ` (redirects to ${where})`}: moved`);
    const [moved] = groupCauses([to(301, 'https://preview-42.example.com/api/chat')], 'http://preview-42.example.com/api/chat');
    expect([moved?.what, moved?.hint]).toEqual([
      'HTTP 301 from http://preview-42.example.com/api/chat to https://preview-42.example.com/api/chat',
      'redirects are not followed (a message is never sent on to another address): set agent-url (agent.url) to that address',
    ]);
    const [login] = groupCauses([to(302, 'https://auth.example.com/login')], URL_);
    expect(login?.what).toBe(`HTTP 302 from ${URL_} to a sign-in page (https://auth.example.com/login)`);
    expect(login?.hint).toMatch(/^the preview is protected: give the header that lets automation through in agent-headers \(agent.headers\)/);
    const [bare] = groupCauses([to(307, null)], URL_);
    expect([bare?.what, bare?.hint]).toEqual([`HTTP 307 from ${URL_}`, 'the URL redirects, and redirects are not followed: set agent-url (agent.url) to the address it redirects to']);
    // A record from elsewhere whose text is not a URL: named as it is, never a crash.
    expect(groupCauses([to(302, '/login?next=x')], URL_)[0]?.what).toBe(`HTTP 302 from ${URL_} to a sign-in page (/login?next=x)`);
    expect(groupCauses([to(302, 'not-a-url')], URL_)[0]?.what).toBe(`HTTP 302 from ${URL_} to not-a-url`);
    // A path that merely contains the letters is not a sign-in page.
    expect(groupCauses([to(308, 'https://x.example.com/authors/chat')], URL_)[0]?.what).toBe(`HTTP 308 from ${URL_} to https://x.example.com/authors/chat`);
  });

  it('groups HTTP errors by status and URL, bodies and attempts aside', () => {
    const items = [
      errored('a', 'http', `message turn: agent returned HTTP 404 after 1 attempt: ${page(1)}`),
      errored('b', 'http', `welcome turn: agent returned HTTP 404 after 1 attempt: ${page(2)}`),
      errored('c', 'http', 'message turn: agent returned HTTP 500 after 3 attempts: oops'),
      errored('d', 'http', `message turn: agent returned HTTP 404 after 2 attempts: ${page(3)}`),
    ];
    const groups = groupCauses(items, URL_);
    expect(groups.map((g) => [g.what, g.labels])).toEqual([
      [`HTTP 404 from ${URL_}`, ['a', 'b', 'd']],
      [`HTTP 500 from ${URL_}`, ['c']],
    ]);
    expect(causeLine(groups[0]!, 4)).toBe(`3 of 4: HTTP 404 from ${URL_}: check agent-path or agent.url: the path is probably wrong`);
  });

  it("an unread answer's cause gives the fix the agent's client gave, held once (src/agent-fixes.ts)", () => {
    const hint = (error: string): string | null | undefined => causeOf(errored('x', 'network', error), URL_)?.hint;
    expect(hint(`message turn: the agent at 127.0.0.1:9 gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW), after 1 attempt; ${HEADERS_FIX}`)).toBe(HEADERS_FIX);
    expect(hint(`message turn: the agent at 127.0.0.1:9 gave an answer that is not valid HTTP, after 3 attempts; ${NOT_HTTP_FIX}`)).toBe(NOT_HTTP_FIX);
    expect(hint(`message turn: the agent closed the connection without answering (ECONNRESET), after 3 attempts; ${CLOSED_FIX}`)).toBe(CLOSED_FIX);
  });

  it.each([
    ['network', 'message turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:9 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running', `connection refused at ${URL_}`, /agent-url \(agent\.url\)/],
    ['network', "message turn: the agent at 127.0.0.1:9 closed the connection without answering (UND_ERR_SOCKET), after 3 attempts; see the agent's log for a crash on the request, or a proxy in front of it that closes connections", `${URL_} closed the connection without answering`, /agent's log for a crash/],
    ['network', "message turn: the agent closed the connection without answering (ECONNRESET), after 3 attempts; see the agent's log for a crash on the request, or a proxy in front of it that closes connections", `${URL_} closed the connection without answering`, /agent's log for a crash/],
    // Something answered, and not in HTTP: reached, so not "could not reach".
    ['network', "message turn: the agent at 127.0.0.1:9 gave an answer that is not valid HTTP, after 3 attempts; something other than the agent's HTTP server answers there: check the port in agent-url (agent.url)", `${URL_} answered with something that is not HTTP`, /check the port in agent-url/],
    ['network', 'message turn: the agent at 127.0.0.1:9 gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW), after 1 attempt; see what makes the agent, or a proxy in front of it, send that many headers (a cookie set on every answer, a header that grows)', `${URL_} answered with headers of more than 16 KB, the most read`, /send that many headers/],
    ['network', "message turn: the agent at 127.0.0.1:9 gave a body of another length than its Content-Length (UND_ERR_RES_CONTENT_LENGTH_MISMATCH), after 3 attempts; see the agent's log for a crash on the request, or a proxy in front of it that closes connections", `${URL_} answered with a body of another length than its Content-Length`, /agent's log for a crash/],
    // The agent answered and its answer broke off (a stream cut mid-answer): reached, so not "could not reach".
    ['network', "message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn)", `the answer of ${URL_} broke off before its end`, /^the agent answered and its connection closed mid-answer, which is not retried \(the agent had the turn\): see the agent's log/],
    ['network', "message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (ECONNRESET) (not retried: the agent had the turn; anthropic stream, 9 characters received)", `the answer of ${URL_} broke off before its end`, /cuts a long answer \(an idle timeout on a stream\)$/],
    ['invalid_json', 'message turn: response is not valid JSON: <!DOCTYPE html><html lang="en"><div id="root"></div>', `an HTML page instead of JSON from ${URL_}`, /agent-path or agent\.url/],
    ['invalid_json', 'message turn: response is not valid JSON: ok', `a response that is not JSON from ${URL_}`, /agent\.preset/],
    ['http', 'message turn: agent returned HTTP 401 after 1 attempt: unauthorized', `HTTP 401 from ${URL_}`, /agent\.headers/],
    ['http', 'message turn: agent returned HTTP 403 after 1 attempt: forbidden', `HTTP 403 from ${URL_}`, /agent\.headers/],
    // A record written before 2026-12-06, and one written now: one cause.
    // In the item's order of words ("no answer from the agent within ..."), its peer the agent's address.
    ['timeout', 'message turn: agent did not answer within 30000 ms', `no answer from ${URL_} within 30,000 ms`, /agent\.timeoutMs/],
    ['timeout', 'message turn: no answer from the agent within 30000 ms', `no answer from ${URL_} within 30,000 ms`, /agent\.timeoutMs/],
    ['timeout', 'message turn: no connection to the agent opened within 30000 ms (agent.timeoutMs bounds connecting too)', `no connection to ${URL_} opened within 30,000 ms`, /the host never completed the connection/],
    ['timeout', "message turn: the agent's answer (HTTP 200) did not end within 30000 ms (agent.timeoutMs bounds the whole answer, a stream to its end)", `the answer from ${URL_} did not end within 30,000 ms`, /^the agent answered but was still sending: raise agent\.timeoutMs/],
    // The limit grouped, as every count (src/words.ts): as records written since 2026-12-06 say it, and as the cause says both.
    ['timeout', 'message turn: no answer from the agent within 30,000 ms', `no answer from ${URL_} within 30,000 ms`, /agent\.timeoutMs/],
    ['timeout', 'message turn: no connection to the agent opened within 30,000 ms (agent.timeoutMs bounds connecting too)', `no connection to ${URL_} opened within 30,000 ms`, /the host never completed the connection/],
    ['timeout', "message turn: the agent's answer (HTTP 200) did not end within 30,000 ms (agent.timeoutMs bounds the whole answer, a stream to its end)", `the answer from ${URL_} did not end within 30,000 ms`, /^the agent answered but was still sending: raise agent\.timeoutMs/],
    ['http', 'message turn: agent returned HTTP 503 after 3 attempts: booting', `HTTP 503 from ${URL_}`, /wait-for-agent/],
  ] as const)('%s: %s names what was observed and the setting to check', (kind, error, what, hint) => {
    const cause = causeOf(errored('x', kind, error), URL_);
    expect(cause?.what).toBe(what);
    expect(cause?.hint).toMatch(hint);
  });

  // A judge's time limit grouped, as its client writes it since 2026-12-06 ("30,000 ms"), or not, as older
  // records hold it: the same cause, its limit said grouped, and the fix of what it did.
  it("a judge's time limit, grouped or not: one cause, the limit grouped, the deadline's fix", () => {
    const judged = (detail: string) => causeOf({ label: 'x', errored: false, verdict: 'not_evaluated', detail }, URL_);
    for (const ms of ['30000', '30,000']) {
      expect(judged(`judge unreachable: no answer from the judge within ${ms} ms (2 attempts)`)?.hint).toMatch(/^raise judge\.timeoutMs in config\.yml if the judge is slow/);
      expect(judged(`judge unreachable: no connection to the judge opened within ${ms} ms`)?.hint).toMatch(/^the host never completed the connection/);
      expect(judged(`judge gave no usable answer: the judge's answer (HTTP 200) did not end within ${ms} ms`)?.what).toBe("the judge's answer did not end within 30,000 ms");
      const panel = judged(`judge unreachable: panel: 2 of 3 members gave no usable score (2 usable needed): a: HTTP 401: no; b: no connection to the judge opened within ${ms} ms`);
      expect(panel?.hint).toContain('; for the 1 not reached (no connection in time): the host never completed the connection');
      const proxied = judged(`judge unreachable: no answer from the judge within ${ms} ms through the proxy http://proxy.test:8080 (HTTPS_PROXY): the tunnel to judge.test opened, and no answer came through it`);
      expect(proxied?.what).toBe('no answer from the judge within 30,000 ms through the proxy http://proxy.test:8080 (HTTPS_PROXY): the tunnel to judge.test opened, and no answer came through it');
      expect(causeOf(errored('x', 'network', `message turn: could not reach the agent: the proxy http://proxy.test:8080 (HTTPS_PROXY) did not answer CONNECT within ${ms} ms (the connect timeout)`), URL_)?.what).toContain('did not answer CONNECT within 30,000 ms');
    }
  });

  // Any other error is its own words, its numbers left out of the key: a number grouped ("1,500") is one
  // number, as "900" is, and as "1500" is in a record written before 2026-12-06; not a cause of its own.
  it('an error in its own words whose numbers differ, grouped or not: one cause', () => {
    const groups = groupCauses(
      [
        errored('a', 'internal', 'message turn: the reply hook did not return within 1,500 ms: first'),
        errored('b', 'internal', 'message turn: the reply hook did not return within 900 ms: second'),
        errored('c', 'internal', 'message turn: the reply hook did not return within 12,500,000 ms: third'),
        errored('d', 'internal', 'message turn: the reply hook did not return within 1500 ms: fourth'),
      ],
      URL_,
    );
    expect(groups.map((g) => g.labels)).toEqual([['a', 'b', 'c', 'd']]);
  });

  // A cause is read once for all its items (docs/troubleshooting.md): its words whole up to 200
  // characters, an item's reason line's bound; past it, cut where a clause ends, never in a word.
  it("an error's own words, a simulator's or a call that failed: said whole up to 200 characters, past it cut where a clause ends", () => {
    const hook = `message turn: the reply hook threw an error, ${'the hook read the session state '.repeat(4).trim()}, ${'then wrote the reply '.repeat(3).trim()}, and stopped`;
    expect(hook.length).toBeGreaterThan(200);
    // It was its first 159 characters (the turn's name left out): "...then wrote the reply then wr…".
    expect(causeOf(errored('a', 'internal', hook), URL_)?.what).toBe(`the reply hook threw an error, ${'the hook read the session state '.repeat(4).trim()}\u2026`);
    // Each was its first 159 characters, cut in a word.
    const failed = `judge call failed: the request body could not be made: ${'the rubric holds a value JSON cannot write '.repeat(2).trim()}, ${'and more '.repeat(3).trim()}`;
    expect(failed.length).toBeGreaterThan(160);
    expect(causeOf(rec({ verdict: 'not_evaluated', detail: failed }), URL_)?.what).toBe(failed);
    const simulator = `simulator unreachable: ${'the connection to the simulator stalled '.repeat(4).trim()}, and was closed (UND_ERR_SOCKET)`;
    expect(causeOf(rec({ verdict: 'not_evaluated', detail: simulator }), URL_)?.what).toBe(simulator);
  });

  it('connection refused at localhost names the address tried, and the other one, where a dev server may listen alone', () => {
    const local = 'http://localhost:3000/api/chat';
    // The address is the record's, kept from the error: the message is not read for it.
    const refused = (address: string | undefined): FixtureRecord => ({
      ...errored('x', 'network', 'message turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:3000 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running'),
      ...(address === undefined ? {} : { errorAddress: address }),
    });
    const v4 = causeOf(refused('127.0.0.1:3000'), local);
    expect(v4?.what).toBe(`connection refused at ${local} (tried at 127.0.0.1)`);
    expect(v4?.hint).toMatch(/; an agent that listens on IPv6 \(http:\/\/\[::1\]:PORT\/\.\.\.\) only is reached at that address$/);
    const v6 = causeOf(refused('[::1]:3000'), local);
    expect(v6?.what).toBe(`connection refused at ${local} (tried at ::1)`);
    expect(v6?.hint).toMatch(/IPv4 \(http:\/\/127\.0\.0\.1:PORT\/\.\.\.\) only/);
    // Another host: as before; a record without the address (an older one): no address named, and no
    // family in its fix, so a cause of its own, never grouped under the fix of an address it does not know.
    expect(causeOf(refused('127.0.0.1:3000'), URL_)?.hint).not.toMatch(/IPv6/);
    const old = causeOf(errored('x', 'network', 'message turn: could not reach the agent after 3 attempts: connect ECONNREFUSED 127.0.0.1:3000'), local);
    expect(old).toEqual({ key: `refused:${local}`, what: `connection refused at ${local}`, hint: expect.not.stringMatching(/IPv6/) as unknown });
  });

  it('a connection failure in the words of the clients, and in Node\'s of an older record: one cause, its code read before the fix', () => {
    const now = errored('a', 'network', 'message turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:9 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running');
    const before = errored('b', 'network', 'message turn: could not reach the agent after 3 attempts: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)');
    expect(groupCauses([now, before], URL_).map((g) => [g.what, g.labels])).toEqual([[`connection refused at ${URL_}`, ['a', 'b']]]);
    const noRoute = errored('c', 'network', 'message turn: could not reach the agent after 3 attempts: no route to the host 10.0.0.9:443 (EHOSTUNREACH); check agent-url (agent.url) and that the agent is running');
    expect(causeOf(noRoute, URL_)?.what).toBe(`could not reach ${URL_} (EHOSTUNREACH)`);
  });

  it('a 502/503/504 when the agent replied to other items: it is up, so the fix is not to wait for it', () => {
    const down = [errored('a', 'http', 'message turn: agent returned HTTP 503 after 3 attempts: {"error":"db down"}'), errored('b', 'http', 'turn 3: agent returned HTTP 503 after 3 attempts: {"error":"db down"}')];
    // Nothing answered: the preview may still be starting.
    expect(groupCauses(down, URL_)[0]?.hint).toMatch(/wait-for-agent/);
    // Another item got its reply: waiting would not help; the agent fails on these messages.
    const [cause] = groupCauses([rec({ label: 'ok' }), ...down], URL_);
    expect(cause?.labels).toEqual(['a', 'b']);
    expect(cause?.hint).toBe("the agent answered the run's other items, so it is up: it fails on these messages (see the body on each item, and its logs)");
    expect(causeOf(down[0]!, URL_, true)?.hint).toBe(cause?.hint);
  });

  it('names the causes of checks that did not run', () => {
    const judge = causeOf(rec({ verdict: 'not_evaluated', detail: 'judge unreachable: no judge configured (add a judge section to config.yml)' }), URL_);
    expect([judge?.what, judge?.hint]).toEqual(['no judge configured', 'add a judge section to config.yml (judge assertions and criteria need one)']);
    // Two different patterns that do not compile are one cause: the class, not the message.
    const a = causeOf(rec({ verdict: 'not_evaluated', detail: 'pattern does not compile: Invalid regular expression: /(/: Unterminated group' }), URL_);
    const b = causeOf(rec({ verdict: 'not_evaluated', detail: 'pattern does not compile: Invalid regular expression: /[/: Unterminated character class' }), URL_);
    expect(a?.key).toBe(b?.key);
    expect(a?.what).toBe('regex does not compile');
    // A turn's spans that came without the span they hang from: one cause, whatever the trace and turn.
    const part = (detail: string) => causeOf(rec({ verdict: 'not_evaluated', detail }), URL_);
    const x = part('turn 2: spans for trace 4bf92f3577b34da6a3ce929d0e0e4736 incomplete within 5 s: 2 spans came, but not the span 00000000000000aa they hang from; does the agent flush ...');
    const y = part('spans for trace 0af7651916cd43dd8448eb211c80319c incomplete within 5 s: 1 span came, but not the span 00000000000000bb they hang from; does the agent flush ...');
    expect([x?.key, x?.what]).toEqual(['traces:incomplete', "a turn's spans incomplete within 5 s"]);
    expect(y?.key).toBe(x?.key);
    expect(causeOf(rec({ verdict: 'pass' }), URL_)).toBeNull();
  });

  it('a judge or simulator that answered and whose body did not end is a cause of its own, not "unreachable: HTTP 200"', () => {
    const detail = (d: string) => causeOf(rec({ verdict: 'not_evaluated', detail: d }), URL_);
    const stalled = detail("judge unreachable: the judge's answer (HTTP 200) did not end within 200 ms (2 attempts)");
    expect(stalled).toEqual({
      key: 'judge:ended',
      what: "the judge's answer did not end within 200 ms",
      hint: 'the judge answered and its body stopped: a judge or a gateway in front of it that stalls; raise judge.timeoutMs if it is only slow',
    });
    // Another status, the same cause: it answered each time.
    expect(detail("judge unreachable: the judge's answer (HTTP 206) did not end within 200 ms")?.key).toBe('judge:ended');
    expect(detail("judge unreachable: the judge's answer (HTTP 200) broke off before its end: the connection was closed (UND_ERR_SOCKET) after 2 attempts")).toMatchObject({ key: 'judge:broke-off', what: "the judge's answer broke off before its end" });
    expect(detail("simulator unreachable: the simulator's answer (HTTP 200) did not end within 300 ms")).toMatchObject({ key: 'simulator:ended', what: "the simulator's answer did not end within 300 ms", hint: expect.stringMatching(/raise judge\.timeoutMs/) as unknown });
    // The simulator takes the judge's time limit (docs/simulated-users.md): there is no simulator.timeoutMs to raise.
    expect(detail("simulator unreachable: the simulator's answer (HTTP 200) did not end within 300 ms")?.hint).not.toContain('simulator.timeoutMs');
    // Something that is not HTTP answered at its address: reached, a cause of its own.
    expect(detail("judge unreachable: the judge at 127.0.0.1:9 gave an answer that is not valid HTTP after 3 attempts; something other than the judge's HTTP server answers there: check the port in judge.baseUrl")).toEqual({
      key: 'judge:not-http',
      what: 'the judge answered with something that is not HTTP',
      hint: "something other than the judge's HTTP server answers there: check the port in judge-base-url (judge.baseUrl)",
    });
    expect(detail('simulator unreachable: the simulator at 127.0.0.1:9 gave an answer that is not valid HTTP')).toMatchObject({ key: 'simulator:not-http', hint: expect.stringMatching(/simulator\.baseUrl \(else judge-base-url \(judge\.baseUrl\)\)/) as unknown });
    // An HTTP error stays what it was.
    expect(detail('judge unreachable: HTTP 503 after 3 attempts')?.what).toBe('judge unreachable: HTTP 503');
  });

  it('the items of a judge or simulator that answered group under one cause, in the words they are written in since 2026-12-06 ("gave no usable answer") and before ("unreachable")', () => {
    const keyOf = (d: string) => causeOf(rec({ verdict: 'not_evaluated', detail: d }), URL_)?.key;
    const notHttp = "the judge at 127.0.0.1:9 gave an answer that is not valid HTTP; something other than the judge's HTTP server answers there: check the port in judge.baseUrl";
    expect(keyOf(`judge gave no usable answer: ${notHttp}`)).toBe('judge:not-http');
    expect(keyOf(`judge unreachable: ${notHttp}`)).toBe('judge:not-http');
    expect(keyOf("judge gave no usable answer: the judge's answer (HTTP 200) did not end within 200 ms")).toBe('judge:ended');
    expect(keyOf("judge gave no usable answer: the judge's answer (HTTP 200) broke off before its end: the connection was closed (UND_ERR_SOCKET) after 2 attempts")).toBe('judge:broke-off');
    expect(keyOf('judge gave no usable answer: the judge at 127.0.0.1:9 gave a body of another length than its Content-Length (UND_ERR_RES_CONTENT_LENGTH_MISMATCH) after 3 attempts')).toBe('judge:length');
    expect(causeOf(rec({ verdict: 'not_evaluated', detail: 'judge gave no usable answer: the judge at 127.0.0.1:9 gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW)' }), URL_)).toEqual({
      key: 'judge:headers',
      what: 'the judge answered with headers of more than 16 KB, the most read',
      hint: 'see what makes the judge, or a gateway or proxy in front of it, send that many headers',
    });
    expect(keyOf('simulator gave no usable answer: the simulator at 127.0.0.1:9 gave an answer that is not valid HTTP; x')).toBe('simulator:not-http');
    expect(keyOf('simulator unreachable: the simulator at 127.0.0.1:9 gave an answer that is not valid HTTP')).toBe('simulator:not-http');
    expect(keyOf("simulator gave no usable answer: the simulator's answer (HTTP 200) did not end within 300 ms")).toBe('simulator:ended');
    // Grouped: one cause for the items of either wording.
    const items = [`judge gave no usable answer: ${notHttp}`, `judge unreachable: ${notHttp} after 3 attempts`].map((d, i) => rec({ label: `f${i}`, verdict: 'not_evaluated', detail: d }));
    expect(groupCauses(items, URL_).map((g) => [g.key, g.labels])).toEqual([['judge:not-http', ['f0', 'f1']]]);
  });

  it('a judge that answered in a form not read (a TLS alert, no TLS, not JSON, a coding not read, too large) is a cause of its own, in the words of 2026-12-06 and before', () => {
    const causeOfDetail = (d: string) => causeOf(rec({ verdict: 'not_evaluated', detail: d }), URL_);
    const alert = 'it answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); check whether ...';
    expect(causeOfDetail(`judge gave no usable answer: ${alert}`)).toEqual({
      key: 'judge:tls-alert:ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      what: 'the judge answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)',
      hint: 'check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in judge-base-url (judge.baseUrl) is its https:// port (http:// for a plain HTTP one)',
    });
    // Before: "judge unreachable: a connection error (CODE) after 3 attempts", retried; the same cause.
    expect(causeOfDetail('judge unreachable: a connection error (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE) after 3 attempts')?.key).toBe('judge:tls-alert:ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE');
    // OpenSSL 3.2 and later (Node 24) spell the reason "ssl/tls alert": the same alert.
    expect(causeOfDetail('judge gave no usable answer: it answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE); check whether ...')?.what).toBe('the judge answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE)');
    const plain = 'it answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER): the server speaks plain HTTP at that address, not HTTPS: write the URL with http:// in judge.baseUrl';
    expect(causeOfDetail(`judge gave no usable answer: ${plain}`)).toEqual({ key: 'judge:not-tls', what: 'the judge answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER)', hint: 'the server speaks plain HTTP there, not HTTPS: write judge-base-url (judge.baseUrl) with http://' });
    const pairs = [
      [plain, 'judge:not-tls'],
      ['response is not JSON: "<html>sign in</html>"', 'judge:not-json'],
      ['response is encoded as "zstd" (its Content-Encoding), which agent-replay cannot decode: ...', 'judge:encoding'],
      ['response says it is encoded as gzip, but it is not (incorrect header check)', 'judge:encoding'],
      ['response is larger than 8388608 bytes', 'judge:too-large'],
    ];
    for (const [reason, key] of pairs) {
      // Not "the judge answered without a usable score" (its model), nor "judge unreachable" (its address).
      const items = [`judge gave no usable answer: ${reason}`, `judge unreachable: ${reason}`].map((d, i) => rec({ label: `f${i}`, verdict: 'not_evaluated', detail: d }));
      expect(groupCauses(items, URL_).map((g) => [g.key, g.labels])).toEqual([[key, ['f0', 'f1']]]);
    }
    expect(causeOfDetail('simulator gave no usable answer: response is not JSON: "x"')).toMatchObject({ key: 'simulator:not-json', hint: expect.stringMatching(/simulator\.baseUrl \(else judge-base-url \(judge\.baseUrl\)\)/) as unknown });
    // An HTTP error keeps the contract's words.
    expect(causeOfDetail('judge unreachable: HTTP 503 after 3 attempts')?.what).toBe('judge unreachable: HTTP 503');
  });

  it("an agent that answered the TLS handshake with an alert: a cause of its own, for today's words and the records' before", () => {
    const now = errored('a', 'network', "message turn: the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); check whether the server asks ...");
    const before = errored('b', 'network', 'message turn: could not reach the agent after 2 attempts: a connection error (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)');
    const groups = groupCauses([now, before], URL_);
    expect(groups.map((g) => [g.key, g.labels])).toEqual([[`tls-alert:ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE:${URL_}`, ['a', 'b']]]);
    expect(groups[0]?.what).toBe(`${URL_} answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)`);
    expect(groups[0]?.hint).toMatch(/client certificate .* TLS versions .* agent-url \(agent\.url\)/);
  });

  it('tells a judge that answered prose from one that could not be reached', () => {
    const prose = (text: string) => causeOf(rec({ verdict: 'not_evaluated', detail: `judge unreachable: no usable score in output: "${text}"` }), URL_);
    // Two different answers without a score are one cause, and the hint is about the model, not the address.
    expect(prose('I think it is fine')?.key).toBe(prose('Hard to say')?.key);
    expect(prose('I think it is fine')?.what).toBe('the judge answered without a usable score');
    expect(prose('I think it is fine')?.hint).toMatch(/structured output/);
    // A score out of range, or a model that declined, is an answer too; records written before said "judge unreachable: ".
    const answered = causeOf(rec({ verdict: 'not_evaluated', detail: 'judge gave no usable answer: score 1.4 is outside [0,1]' }), URL_);
    expect([answered?.key, answered?.what]).toEqual([prose('Hard to say')?.key, 'the judge answered without a usable score']);
    const none = (detail: string) => causeOf(rec({ verdict: 'not_evaluated', detail }), URL_);
    expect(none('no judge configured (add a judge section to config.yml)')?.what).toBe('no judge configured');
    expect(none('judge unreachable: no judge configured (add a judge section to config.yml)')?.key).toBe(none('no judge configured (add a judge section to config.yml)')?.key);
    const down = causeOf(rec({ verdict: 'not_evaluated', detail: 'judge unreachable: HTTP 503 after 3 retries' }), URL_);
    expect([down?.what, down?.hint]).toEqual(['judge unreachable: HTTP 503', "the judge's endpoint failed: see its status or log, and run it again"]);
  });

  it('groups unmocked calls by tool, whatever input each call had', () => {
    const script = (label: string, error: string): PersonaRecord =>
      ({ label, errored: true, errorKind: 'unmocked_tool', error, verdict: null, checks: [] }) as unknown as PersonaRecord;
    const one = causeOf(script('a', 'turn 1: the agent reported a call to issue_refund {"orderId":"1"} that no mock answered (no mock is declared for it; mocked: false); the script declares mocks'), URL_);
    const two = causeOf(script('b', 'turn 2: the agent reported a call to issue_refund {"orderId":"2","amount":12} that no mock answered (no mock is declared for it; mocked: false)'), URL_);
    expect(one?.what).toBe('a call to issue_refund that no mock answered');
    expect(one?.key).toBe(two?.key);
    // Its input written with spaces (as since agent-replay writes every JSON value), beside a record written before: one cause.
    const spaced = causeOf(script('c', 'turn 2: the agent reported a call to issue_refund {"orderId": "3", "amount": 12} that no mock answered (no mock is declared for it; mocked: false)'), URL_);
    expect(spaced?.key).toBe(one?.key);
  });

  it("reads a persona script's first check that did not run", () => {
    const script = {
      label: 's',
      errored: false,
      verdict: 'not_evaluated',
      checks: [
        { kind: 'outcome', status: 'pass', detail: 'ok' },
        { kind: 'criterion', status: 'not_evaluated', detail: 'judge unreachable: no judge configured (add a judge section to config.yml)' },
      ],
    } as unknown as PersonaRecord;
    expect(causeOf(script, URL_)?.what).toBe('no judge configured');
  });

  it('a connection the judge dropped after it answered other calls of the run is a passing fault: run again, not its settings to check', () => {
    const dropped = rec({ label: 'dropped', verdict: 'not_evaluated', detail: 'judge unreachable: the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET) after 3 attempts' });
    const judged = rec({ label: 'judged', verdict: 'pass', judgeFingerprint: { model: 'openai/gpt-4o-mini' } as FixtureRecord['judgeFingerprint'] });
    const [group] = groupCauses([judged, dropped], URL_);
    expect(group?.labels).toEqual(['dropped']);
    expect(group?.hint).toBe(
      'the judge answered other calls of this run, so judge-base-url (judge.baseUrl), judge.model and the judge key work: it, or a gateway or proxy in front of it, closed these connections (a restart, or connections dropped under load): run it again, and lower judge.concurrency if it recurs',
    );
    // The key says that fix: a judge that answered no other call (its log, causeOf's without evidence) is another group (a merge's shards, each its judge).
    expect(group?.key).toBe(`${causeOf(dropped, URL_)?.key ?? ''}:answered`);
    // "the connection was closed (UND_ERR_CLOSED)", a script's criterion judged: the same evidence, the same fix.
    const closed = rec({ label: 'closed', verdict: 'not_evaluated', detail: 'judge unreachable: the connection was closed (UND_ERR_CLOSED)' });
    const script = { label: 's', errored: false, verdict: 'fail', checks: [{ kind: 'criterion', status: 'fail', detail: 'score 0.2 < 0.7' }] } as unknown as PersonaRecord;
    expect(groupCauses([script, closed], URL_)[0]?.hint).toMatch(/^the judge answered other calls of this run/);
    // No evidence: no call answered, or only scores reused from baselines (no call made): the judge, or a proxy in front of it, closed it,
    // as the agent's cause says it; it was "check judge-base-url (judge.baseUrl), judge.model and the judge key", a model or a key that closes no connection.
    const reused = rec({ label: 'reused', verdict: 'pass', judgeFingerprint: { model: 'openai/gpt-4o-mini' } as FixtureRecord['judgeFingerprint'], judgeReused: { from: 'baseline' } as unknown as FixtureRecord['judgeReused'] });
    for (const items of [[dropped], [reused, dropped]]) expect(groupCauses(items, URL_)[0]?.hint).toBe("see the judge's log for a crash on the request, or a proxy in front of it that closes connections");
    // A refused connection is no drop: its address and that the judge is up, whatever answered (it was its model and key too).
    const refused = rec({ label: 'refused', verdict: 'not_evaluated', detail: 'judge unreachable: connection refused at 127.0.0.1:9 (ECONNREFUSED) after 3 attempts' });
    expect(groupCauses([judged, refused], URL_)[0]?.hint).toBe('nothing listens there: check judge-base-url (judge.baseUrl) and that the judge is running');
    // A host name that did not resolve: its address alone.
    const unresolved = rec({ label: 'unresolved', verdict: 'not_evaluated', detail: 'judge unreachable: the host name judge.test did not resolve (ENOTFOUND) after 3 attempts' });
    expect(groupCauses([unresolved], URL_)[0]?.hint).toBe('check the host name in judge-base-url (judge.baseUrl)');
  });

  it("accept's refusal of an item whose judge dropped the connection gives the run's fix, read over the whole run whatever --only selects", () => {
    const dropped = rec({ label: 'dropped', verdict: 'not_evaluated', detail: 'judge unreachable: the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET) after 3 attempts' });
    const judged = rec({ label: 'judged', verdict: 'pass', judgeFingerprint: { model: 'openai/gpt-4o-mini' } as FixtureRecord['judgeFingerprint'] });
    const refusal = (fixtures: FixtureRecord[]): string | undefined =>
      planAcceptance({ fixtures, commit: null }, new Map(), { only: ['dropped'], acceptedAt: 'T' }).refused.find((r) => r.label === 'dropped')?.reason;
    const hint = groupCauses([judged, dropped], URL_)[0]?.hint;
    expect(hint).toMatch(/^the judge answered other calls of this run/);
    // The words of the run's cause, as the comment and the terminal give them: never the settings that just worked.
    expect(refusal([judged, dropped])).toBe(`not evaluated (judge unreachable: the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET)): ${hint}`);
    expect(refusal([dropped])).toBe("not evaluated (judge unreachable: the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET)): see the judge's log for a crash on the request, or a proxy in front of it that closes connections; then run it again");
    quotedAndSaid(refusal([dropped]) ?? '', 'not evaluated (<cause>): <fix>; then run it again');
  });

  it("a simulator that dropped the connection after answering the script's earlier turns: run again; an answer in a form no cause names: its log, not its settings", () => {
    const script = (label: string, calls: number, fault: string): PersonaRecord =>
      ({ label, errored: false, verdict: 'not_evaluated', checks: [{ kind: 'criterion', status: 'not_evaluated', detail: fault }], simulation: { calls, retries: 2, endedBy: 'simulator_fault', fault } }) as unknown as PersonaRecord;
    const drop = 'simulator unreachable: the connection to 127.0.0.1:9 was closed without an answer (UND_ERR_SOCKET) after 3 attempts';
    // Its third call dropped: the first two answered, in this very conversation.
    expect(causeOf(script('late', 3, drop), URL_)?.hint).toBe(
      "the simulator answered other calls of this run, so simulator.baseUrl (else judge-base-url (judge.baseUrl)), simulator.model (else judge.model) and the simulator's key work: it, or a gateway or proxy in front of it, closed these connections (a restart, or connections dropped under load): run it again, and lower judge.concurrency (the simulator takes the judge's) if it recurs",
    );
    // Its first call: another script's simulator answered in the run, or none did.
    const first = script('first', 1, drop);
    expect(groupCauses([script('also-first', 1, drop), first], URL_)[0]?.hint).toBe("see the simulator's log for a crash on the request, or a proxy in front of it that closes connections");
    const answered = { ...first, label: 'other', verdict: 'pass', checks: [], simulation: { calls: 2, retries: 0, endedBy: 'simulator', fault: null } } as unknown as PersonaRecord;
    expect(groupCauses([answered, first], URL_)[0]?.hint).toMatch(/^the simulator answered other calls of this run/);
    // Reached, answered in a form no cause names: its address works, so its log is the fix, not its settings.
    const unread = causeOf(script('unread', 1, 'simulator gave no usable answer: a form of answer no client names yet'), URL_);
    expect(unread?.hint).toMatch(/^the simulator answered, so its address works: see the reason on each item, and the simulator's log/);
    expect(unread?.hint).not.toMatch(/check simulator\.baseUrl/);
  });
});

describe('the default gate: a regression, or a run that was not verified', () => {
  const closed = [1, 2, 3, 4, 5].map((i) => errored(`f${i}`, 'network', `message turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:9 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running`));

  it('is newly_failing and unverified', () => {
    expect(DEFAULT_FAIL_ON).toEqual(['newly_failing', 'unverified']);
    expect(parseFailOn('', FAIL_ON_CONDITIONS)).toEqual(['newly_failing', 'unverified']);
  });

  it('fails a run whose every item errored, saying "not verified" with the shared cause, never "failing"', () => {
    const g = gateRun({ fixtures: closed, personas: [], agent: { host: 'x', endpoint: URL_ } }, DEFAULT_FAIL_ON);
    expect(g.failed).toBe(true);
    expect(g.unverifiedOnly).toBe(true);
    expect(g.verification.verified).toBe(false);
    expect(g.reason).toBe(
      `not verified: 5 errored (all 5: connection refused at ${URL_}: nothing listens there: check agent-url (agent.url) and that the agent is running; set wait-for-agent (agent.waitForAgent) if it starts slowly)`,
    );
    expect(g.reason).not.toMatch(/fail/);
  });

  it('the lenient gate passes the same run, but it is still not verified', () => {
    const g = gateRun({ fixtures: closed, personas: [] }, ['newly_failing']);
    expect(g.failed).toBe(false);
    expect(g.verification.verified).toBe(false);
  });

  it('a regression leads and "not verified" follows it', () => {
    const regressed = rec({ label: 'r', verdict: 'fail', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } });
    const grey = rec({ label: 'g', verdict: 'not_evaluated', detail: 'judge unreachable: no judge configured (add a judge section to config.yml)' });
    const g = gate([regressed, grey], DEFAULT_FAIL_ON);
    expect(g.failed).toBe(true);
    expect(g.unverifiedOnly).toBe(false);
    expect(g.reason).toBe('1 fixture newly failing (r); not verified: 1 not evaluated (no judge configured: add a judge section to config.yml (judge assertions and criteria need one))');
  });

  it('counts of 1,000 or more in the reason are grouped, as every count (src/words.ts)', () => {
    const regressed = (label: string) => rec({ label, verdict: 'fail', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' } });
    const many = Array.from({ length: 1_234 }, (_, i) => regressed(`f${i}`));
    expect(gate(many, ['newly_failing']).reason).toBe('1,234 fixtures newly failing (f0, f1, f2, f3, f4 and 1,229 more)');
  });

  it('a clean run passes and is verified', () => {
    const g = gateRun({ fixtures: [rec({ label: 'a' }), rec({ label: 'b', verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'still_failing' } })], personas: [] }, DEFAULT_FAIL_ON);
    expect([g.failed, g.verification.verified, g.reason]).toEqual([false, true, 'gate passed']);
  });

  it('an interrupted run is not verified, even with every finished item clean', () => {
    const g = gateRun({ fixtures: [rec({ label: 'a' })], personas: [], interrupted: true }, DEFAULT_FAIL_ON);
    expect([g.failed, g.unverifiedOnly, g.reason]).toEqual([true, true, 'not verified: the run was interrupted']);
    expect(gateRun({ fixtures: [rec({ label: 'a' })], personas: [], interrupted: true }, ['newly_failing']).failed).toBe(false);
  });

  it('an incomplete merge fails the lenient gate too, unless allowed', () => {
    const run = { fixtures: [rec({ label: 'a' })], personas: [], incomplete: { total: 3, suiteHash: 'h', missing: [2], foreign: [] } };
    const lenient = gateMerged(run, ['newly_failing'], false);
    expect([lenient.failed, lenient.unverifiedOnly, lenient.verification.verified]).toEqual([true, true, false]);
    expect(lenient.reason).toMatch(/--allow-incomplete/);
    const allowed = gateMerged(run, DEFAULT_FAIL_ON, true);
    expect([allowed.failed, allowed.verification.verified]).toEqual([false, true]);
    expect(gateMerged(run, DEFAULT_FAIL_ON, false).failed).toBe(true);
  });

  it('verification counts errored and not evaluated items apart', () => {
    const v = verificationOf({ fixtures: [closed[0]!, rec({ label: 'g', verdict: 'not_evaluated', detail: 'regex did not finish within its 100 ms budget' })], personas: [] });
    expect([v.errored, v.notEvaluated, v.causes.length]).toEqual([1, 1, 2]);
  });
});

describe('fail-on: regressed (docs/statistics.md, "The tier")', () => {
  const stats = (tier: NonNullable<FixtureRecord['stats']>['tier']): FixtureRecord['stats'] => ({
    passed: 0,
    total: 3,
    rate: 0,
    ci: [0, 0.56],
    baseline: { passed: 10, total: 10 },
    pDrop: tier === 'regressed' ? 0.0035 : 0.3,
    pRise: 1,
    tier,
    attemptsNeeded: null,
    looks: 1,
    maxLooks: 1,
  });

  it('is met by a regressed item only, whatever newly_failing says; other tiers and items without stats pass it', () => {
    const run = {
      fixtures: [
        rec({ label: 'dropped', verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' }, stats: stats('regressed') }),
        rec({ label: 'likely', stats: stats('likely_regressed') }),
        rec({ label: 'flipped', verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } }),
        rec({ label: 'plain' }),
      ],
    };
    const g = gateRun(run, ['regressed']);
    expect(g.failed).toBe(true);
    expect(g.offenders).toEqual([{ condition: 'regressed', labels: ['dropped'], fixtures: 1, scripts: 0 }]);
    expect(g.reason).toMatch(/whose pass rate regressed \(dropped\)/);
    expect(gateRun({ fixtures: run.fixtures.slice(1) }, ['regressed']).failed).toBe(false);
    expect(parseFailOn('regressed', FAIL_ON_CONDITIONS)).toEqual(['regressed']);
  });
});
