// A cause group's one fix is true of every item in it (src/evaluate/causes.ts, causeGroups): what the
// fix reads is in the group's key, or the fix says what holds for all (docs/troubleshooting.md, "The agent").

import { describe, expect, it } from 'vitest';
import { groupCauses } from '../../src/evaluate/index.js';
import { CALL_FAILED_HINT, CALL_FAILED_HINTS, error200Hint, memberSettings, PANEL_CUT_HINT, PANEL_NO_SCORE_HINT, PANEL_NO_SCORE_HINTS, JUDGE_CUT_HINT } from '../../src/evaluate/causes.js';
import { escapeInline } from '../../src/report/escape.js';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import type { FixtureRecord } from '../../src/types.js';
import { ctx, fixture, resetLines, run } from '../report/fixtures.js';
import { noSpansCause } from '../../src/traces/index.js';

const URL_ = 'https://preview-42.example.com/api/chat';
const LOCAL = 'http://localhost:3000/api/chat';

function errored(label: string, errorKind: NonNullable<FixtureRecord['errorKind']>, error: string, over: Partial<FixtureRecord> = {}): FixtureRecord {
  return fixture(label, { errored: true, errorKind, error, reply: null, route: null, verdict: null, drift: null, detail: '', ...over } as Partial<FixtureRecord>);
}

/** Each group as [its line's words, its fix, its items]. */
function groups(items: FixtureRecord[], endpoint: string): [string, string | null, string[]][] {
  return groupCauses(items, endpoint).map((g) => [g.what, g.hint, g.labels]);
}

describe("a group's fix reads only what its key holds", () => {
  it('connection refused at localhost: items tried at 127.0.0.1 and at ::1 each get the fix of their address', () => {
    const refused = (label: string, address: string): FixtureRecord =>
      errored(label, 'network', `message turn: could not reach the agent after 1 attempt: connection refused at ${address} (ECONNREFUSED)`, { errorAddress: address });
    // Both were one group under the first item's fix: "an agent that listens on IPv6 ... only", said of the item tried at ::1 too.
    expect(groups([refused('a', '127.0.0.1:3000'), refused('b', '[::1]:3000'), refused('c', '127.0.0.1:3000')], LOCAL)).toEqual([
      [`connection refused at ${LOCAL} (tried at 127.0.0.1)`, expect.stringMatching(/; an agent that listens on IPv6 \(http:\/\/\[::1\]:PORT\/\.\.\.\) only is reached at that address$/), ['a', 'c']],
      [`connection refused at ${LOCAL} (tried at ::1)`, expect.stringMatching(/; an agent that listens on IPv4 \(http:\/\/127\.0\.0\.1:PORT\/\.\.\.\) only is reached at that address$/), ['b']],
    ]);
  });

  it('a tunnel through a proxy that stalled at different steps: each step its own group and fix', () => {
    const stalled = (label: string, step: string): FixtureRecord =>
      errored(label, 'timeout', `message turn: no connection through the proxy http://proxy.corp:3128 (HTTPS_PROXY) to the agent opened within 5,000 ms, ${step} (agent.timeoutMs bounds connecting too)`);
    const found = groups(
      [stalled('a', 'stalled connecting to the proxy'), stalled('b', "stalled waiting for the proxy's answer to CONNECT"), stalled('c', 'stalled in the TLS handshake with preview-42.example.com through the tunnel'), stalled('d', 'stalled connecting to the proxy')],
      URL_,
    );
    // They were one group, "no connection through the proxy ... opened within 5,000 ms", under a's fix, "the proxy did not take the connection".
    expect(found.map(([what, hint, labels]) => [what.replace(/^.* ms, /, ''), hint?.replace(/:.*$/, ''), labels])).toEqual([
      ['stalled connecting to the proxy', 'the proxy did not take the connection (a proxy that is down, or a firewall that drops packets, looks like this)', ['a', 'd']],
      ["stalled waiting for the proxy's answer to CONNECT", "the proxy took the connection and did not answer its CONNECT", ['b']],
      ['stalled in the TLS handshake with preview-42.example.com through the tunnel', 'the proxy opened the tunnel, and preview-42.example.com did not complete the TLS handshake', ['c']],
    ]);
  });

  it('redirects to different addresses: the group names none, and its fix sends the user to each item\'s line; to one address, that address', () => {
    const to = (label: string, where: string): FixtureRecord => errored(label, 'http', `message turn: agent returned HTTP 308 after 1 attempt (redirects to ${where}): moved`);
    resetLines();
    const record = run([to('a', 'https://eu.example.com/api/chat'), to('b', 'https://us.example.com/api/chat')], { agent: { host: 'preview-42.example.com', endpoint: URL_ } });
    const terminal = renderTerminal(record, { color: false }).split('\n');
    // It read "...: set --agent-url (agent.url) to that address", and the line names no address.
    expect(terminal.find((l) => l.startsWith('  cause: '))).toBe(
      `  cause: all 2: HTTP 308 from ${URL_}: redirects are not followed (a message is never sent on to another address): set --agent-url (agent.url) to the address each item's line names`,
    );
    // Each item's line names its own.
    expect(terminal.filter((l) => /redirects to https:\/\/(?:eu|us)\.example\.com/.test(l))).toHaveLength(2);
    const comment = renderComment(record, ctx);
    expect(comment).toContain("to the address each item's line names**");
    expect(comment).not.toContain('to that address');
    // One address: named on the group's line, and "that address" is it.
    expect(groups([to('a', 'https://eu.example.com/api/chat'), to('b', 'https://eu.example.com/api/chat')], URL_)).toEqual([
      [`HTTP 308 from ${URL_} to https://eu.example.com/api/chat`, 'redirects are not followed (a message is never sent on to another address): set agent-url (agent.url) to that address', ['a', 'b']],
    ]);
  });

  it('redirects with an address and without one: each its fix, never "the address each item\'s line names" of an item whose line names none', () => {
    const to = (label: string, where: string | null): FixtureRecord =>
      errored(label, 'http', `message turn: agent returned HTTP 308 after 1 attempt${where === null ? '' : ` (redirects to ${where})`}: moved`);
    // One group, "HTTP 308 from ...", whose fix sent b's line, which names no address, to the address it names.
    expect(groups([to('a', 'https://eu.example.com/api/chat'), to('b', null), to('c', 'https://us.example.com/api/chat')], URL_)).toEqual([
      [`HTTP 308 from ${URL_}`, "redirects are not followed (a message is never sent on to another address): set agent-url (agent.url) to the address each item's line names", ['a', 'c']],
      [`HTTP 308 from ${URL_}`, 'the URL redirects, and redirects are not followed: set agent-url (agent.url) to the address it redirects to', ['b']],
    ]);
  });

  it("a protected preview: each protection's own fix, in a group of its own", () => {
    const refused = (label: string, by: string): FixtureRecord => errored(label, 'http', `message turn: agent returned HTTP 401 after 1 attempt (protected by ${by}): an HTML page titled "Sign in"`);
    // One group under Vercel's bypass header, said of the preview behind basic auth too.
    expect(groups([refused('a', "Vercel's Deployment Protection"), refused('b', 'basic auth')], URL_).map(([what, hint, labels]) => [what, hint?.replace(/:.*$/, ''), labels])).toEqual([
      [`HTTP 401 from ${URL_} (Vercel's Deployment Protection)`, 'the preview is protected', ['a']],
      [`HTTP 401 from ${URL_} (basic auth)`, 'the preview asks for a user and password', ['b']],
    ]);
  });

  it('a redirect to a sign-in page of a protection named, and to one of none known: each its fix', () => {
    const signin = (label: string, where: string): FixtureRecord => errored(label, 'http', `message turn: agent returned HTTP 302 after 1 attempt (redirects to ${where}): moved`);
    const found = groups([signin('c', 'https://team.cloudflareaccess.com/cdn-cgi/access/login) (protected by Cloudflare Access'), signin('d', 'https://auth.example.com/login')], URL_);
    expect(found.map(([, hint, labels]) => [hint, labels])).toEqual([
      [expect.stringMatching(/^the preview is protected: give a service token of Cloudflare Access /), ['c']],
      [expect.stringMatching(/^the preview is protected: give the header that lets automation through /), ['d']],
    ]);
  });

  it('an HTTP 400 that is a web page and one that is the agent\'s own: each its fix', () => {
    const bad = (label: string, body: string): FixtureRecord => errored(label, 'http', `message turn: agent returned HTTP 400 after 1 attempt: ${body}`);
    // Both were "an HTML page answered: check agent-path or agent.url", the first item's.
    expect(groups([bad('a', '<!doctype html><html><body>Bad Request</body></html>'), bad('b', '{"error":"message is required"}')], URL_).map(([, hint, labels]) => [hint, labels])).toEqual([
      ['an HTML page answered: check agent-path or agent.url', ['a']],
      ['the agent rejected the request: check agent.preset or agent.request.body in config.yml', ['b']],
    ]);
  });

  it("a proxy not reached: nothing listens, or its host did not resolve, each its fix", () => {
    const down = (label: string, words: string): FixtureRecord =>
      errored(label, 'network', `message turn: could not reach the proxy http://proxy.corp:3128 (HTTPS_PROXY) after 1 attempt: ${words}; check HTTPS_PROXY, or NO_PROXY for hosts to reach directly`);
    // One group, "nothing listens there: ..." said of the proxy whose host did not resolve.
    const proxies = groups([down('a', 'connection refused at 10.0.0.1:3128 (ECONNREFUSED)'), down('b', 'the host name proxy.corp did not resolve (ENOTFOUND)')], URL_);
    expect(proxies.map(([, hint, labels]) => [hint?.startsWith('nothing listens there: '), labels])).toEqual([
      [true, ['a']],
      [false, ['b']],
    ]);
  });

  it("a certificate refused through a proxy: the proxy's own, or a host's through it, each its fix", () => {
    const certificate = (label: string, whose: string, fix: string): FixtureRecord =>
      errored(label, 'network', `message turn: the TLS certificate ${whose} (HTTPS_PROXY)${whose.startsWith('for') ? ',' : ''} is refused: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT), after 1 attempt; ${fix}`);
    const ownFix = "point NODE_EXTRA_CA_CERTS at the proxy's CA certificate (a PEM file), or name preview-42.example.com in NO_PROXY to reach it directly";
    const inspectFix = `a proxy that inspects TLS presents its own: ${ownFix}`;
    const certificates = groups([certificate('c', 'of the proxy https://proxy.corp:3128', ownFix), certificate('d', 'for preview-42.example.com, through the proxy http://proxy.corp:3128', inspectFix)], URL_);
    expect(certificates.map(([, hint, labels]) => [hint, labels])).toEqual([
      [ownFix, ['c']],
      [inspectFix, ['d']],
    ]);
  });

  it("a judge's proxy refusal: the tunnel's names HTTPS_PROXY, a forwarded request's HTTP_PROXY", () => {
    // A judge's tunnel refused (HTTPS_PROXY) and a request forwarded (HTTP_PROXY): each variable in its fix.
    const judge = (label: string, how: string): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail: `judge unreachable: the proxy refused the ${how}: HTTP 403 Forbidden` });
    expect(groups([judge('e', 'tunnel (CONNECT)'), judge('f', 'request (forwarded)')], URL_).map(([, hint, labels]) => [hint, labels])).toEqual([
      [expect.stringMatching(/^check HTTPS_PROXY, /), ['e']],
      [expect.stringMatching(/^check HTTP_PROXY, /), ['f']],
    ]);
  });
});

describe("a fix that counts a panel's members", () => {
  it('items whose panels count their members otherwise: one group, whose fix names no one item\'s count', () => {
    const panel = (label: string, detail: string): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail });
    const one = panel('a', 'judge unreachable: panel: 2 of 3 members gave no usable score (2 usable needed; 1 unreachable, 1 gave no usable answer): m1: HTTP 503: down; m2: no usable score in output: "fine"');
    const two = panel('b', 'judge unreachable: panel: 3 of 5 members gave no usable score (3 usable needed; 1 unreachable, 2 gave no usable answer): m1: HTTP 503: down; m2: no usable score in output: "fine"; m3: no usable score in output: "ok"');
    // Alone, each says its own count.
    expect(groups([one], URL_)[0]?.[1]).toMatch(/; for the 1 that answered without a usable score: use a judge model /);
    expect(groups([two], URL_)[0]?.[1]).toMatch(/; for the 2 that answered without a usable score: use judge models that follow the prompt \(judge\.panel, else judge\.model\), or endpoints /);
    // Together it said a's "for the 1" of b's two members too; the group's fix is said of more, the endpoints' too.
    expect(groups([one, two], URL_)).toEqual([
      ['judge unreachable: HTTP 503', expect.stringMatching(/^the judges' endpoints failed: see their statuses or logs, and run it again; for those that answered without a usable score: use judge models that follow /), ['a', 'b']],
    ]);
  });
});

describe("a panel's members' fix agrees with their count: 1 and 2 (docs/judges.md, \"Panels\")", () => {
  const cut = 'the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read';
  const prose = 'no usable score in output: "I would rather not"';
  const failed = 'judge call failed: request body could not be made';
  const notSent = 'the request was not sent: the judge key (judge.apiKey) holds a line break or a character outside Latin-1';
  const untrusted = 'its TLS certificate is refused: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT)';
  const oneCut = JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of that member's model at its endpoint (judge.panel, else judge.model)");
  /** An item whose panel of 3 (2 usable needed) or 5 (3 needed) gave no usable score: its members' reasons, and the counts of each kind when they failed in more than one way. */
  const panel = (label: string, reasons: string[], kinds = ''): FixtureRecord => {
    const size = reasons.length + (reasons.length > 2 ? 2 : 1);
    const detail = `judge ${reasons[0]?.startsWith('HTTP') === true ? 'unreachable' : 'gave no usable answer'}: panel: ${reasons.length} of ${size} members gave no usable score (${size === 3 ? 2 : 3} usable needed${kinds}): ${reasons.map((r, k) => `m${k}: ${r}`).join('; ')}`;
    return fixture(label, { verdict: 'not_evaluated', detail });
  };
  /** The terminal's cause line and the comment of a run of these items. */
  const rendered = (items: FixtureRecord[]): { cause: string | undefined; comment: string } => {
    resetLines();
    const record = run(items, { agent: { host: 'preview-42.example.com', endpoint: URL_ } });
    return { cause: renderTerminal(record, { color: false }).split('\n').find((l) => l.startsWith('  cause: ')), comment: renderComment(record, ctx) };
  };

  it("members cut beside one without a score: \"that member's model at its endpoint\" for 1, \"those members' models at their endpoints\" for 2", () => {
    // It read "for the 1 cut at the token limit: raise the output-token limit of those members' models at their endpoints".
    const one = rendered([panel('a', [prose, cut])]);
    expect(one.cause).toBe(`  cause: the judge answered without a usable score: ${PANEL_NO_SCORE_HINT}; for the 1 cut at the token limit: ${oneCut}`);
    expect(one.comment).toContain(escapeInline(`for the 1 cut at the token limit: raise the output-token limit of that member's model at its endpoint (judge.panel, else judge.model)`));
    expect(one.comment).not.toContain('those members');
    const two = rendered([panel('a', [prose, cut, cut])]);
    expect(two.cause).toBe(`  cause: the judge answered without a usable score: ${PANEL_NO_SCORE_HINT}; for the 2 cut at the token limit: ${PANEL_CUT_HINT}`);
    expect(two.comment).toContain(escapeInline(`for the 2 cut at the token limit: raise the output-token limit of those members' models at their endpoints (judge.panel, else judge.model)`));
    // Items of 1 and of 2 in one group: "those", which holds for both.
    expect(groups([panel('a', [prose, cut]), panel('b', [prose, cut, cut])], URL_)).toEqual([
      ['the judge answered without a usable score', `${PANEL_NO_SCORE_HINTS}; for those cut at the token limit: ${PANEL_CUT_HINT}`, ['a', 'b']],
    ]);
  });

  it('members that answered without a usable score: "a judge model that follows the prompt" for 1, "judge models that follow the prompt" for 2, first or after another kind', () => {
    const plural = 'use judge models that follow the prompt (judge.panel, else judge.model), or endpoints with structured output';
    // It read "use a judge model that follows the prompt (judge.panel, else judge.model), or an endpoint" of 2 members, each its own model and endpoint.
    const two = rendered([panel('a', [prose, prose])]);
    expect(two.cause).toBe(`  cause: the judge answered without a usable score: ${PANEL_NO_SCORE_HINTS}`);
    expect(two.cause).toContain(`: ${plural} (`);
    expect(two.comment).toContain(escapeInline(plural));
    expect(two.comment).not.toContain('a judge model');
    const after = rendered([panel('a', ['HTTP 503: down', prose, prose], '; 1 unreachable, 2 gave no usable answer')]);
    expect(after.cause).toContain(`; for the 2 that answered without a usable score: ${plural} (`);
    expect(after.comment).toContain(escapeInline(`for the 2 that answered without a usable score: ${plural}`));
    // Of 1, as before.
    expect(rendered([panel('a', [prose, cut])]).cause).toContain(': use a judge model that follows the prompt (judge.panel, else judge.model), or an endpoint with structured output (');
    // Items of 1 (a panel of 2, both usable needed) and of 2 in one group: the plural, which holds for both.
    const ofOne = fixture('a', { verdict: 'not_evaluated', detail: `judge gave no usable answer: panel: 1 of 2 members gave no usable score (2 usable needed): m0: ${prose}` });
    expect(groups([ofOne], URL_)[0]?.[1]).toBe(PANEL_NO_SCORE_HINT);
    expect(groups([ofOne, panel('b', [prose, prose])], URL_)).toEqual([['the judge answered without a usable score', expect.stringMatching(/^use judge models that follow the prompt /), ['a', 'b']]]);
  });

  it('every member that answered cut, beside one whose judge call failed: the cut panel\'s fix for 1 and for 2, and in a group of both', () => {
    const ofOne = panel('a', [cut, failed], '; 1 gave no usable answer, 1 judge call failed');
    const ofTwo = panel('b', [cut, cut, failed], '; 2 gave no usable answer, 1 judge call failed');
    expect(rendered([ofOne]).cause).toBe(`  cause: the judge's answer was cut at its token limit (panel: 1 of 3 members): ${oneCut}; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`);
    expect(rendered([ofTwo]).cause).toBe(`  cause: the judge's answer was cut at its token limit (panel: 2 of 5 members): ${PANEL_CUT_HINT}; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`);
    expect(rendered([ofOne, ofTwo]).cause).toBe(`  cause: all 2: the judge's answer was cut at its token limit: ${PANEL_CUT_HINT}; for those whose judge call failed: ${CALL_FAILED_HINTS}`);
  });

  it('members not reached because their key could not be sent, or their certificate was refused: "its" for 1, "their" for 2', () => {
    // It read "for the 2 not reached (its key could not be sent)", "(its TLS certificate refused, ...)".
    const ways = (label: string, n: number, reason: string): FixtureRecord => panel(label, ['HTTP 503: down', ...Array.from({ length: n }, () => reason)]);
    expect(rendered([ways('a', 1, notSent)]).cause).toContain("; for the 1 not reached (its key could not be sent): set that member's apiKey (judge.panel, else judge.apiKey) again");
    const keys = rendered([ways('a', 2, notSent)]);
    expect(keys.cause).toContain("; for the 2 not reached (their keys could not be sent): set those members' apiKeys (judge.panel, else judge.apiKey) again");
    expect(keys.comment).toContain(escapeInline('for the 2 not reached (their keys could not be sent)'));
    expect(rendered([ways('a', 1, untrusted)]).cause).toContain('; for the 1 not reached (its TLS certificate refused, DEPTH_ZERO_SELF_SIGNED_CERT): point NODE_EXTRA_CA_CERTS');
    expect(rendered([ways('a', 2, untrusted)]).cause).toContain('; for the 2 not reached (their TLS certificates refused, DEPTH_ZERO_SELF_SIGNED_CERT): point NODE_EXTRA_CA_CERTS');
    // Their fix too: it read "point NODE_EXTRA_CA_CERTS at that CA's certificate", "renew the certificate" of 2.
    const expired = 'its TLS certificate is refused: expired (CERT_HAS_EXPIRED)';
    const misnamed = 'its TLS certificate is refused: made out to another host name (ERR_TLS_CERT_ALTNAME_INVALID)';
    expect(rendered([ways('a', 2, untrusted)]).cause).toMatch(/: point NODE_EXTRA_CA_CERTS at their CAs' certificates \(one PEM file holds them all\) in the environment agent-replay runs in$/);
    expect(rendered([ways('a', 2, expired)]).cause).toMatch(/\(their TLS certificates refused, CERT_HAS_EXPIRED\): renew the certificates$/);
    expect(rendered([ways('a', 2, misnamed)]).cause).toMatch(/: use host names the certificates name in the URLs$/);
    const refused = (n: number, reason: string): FixtureRecord =>
      fixture('a', { verdict: 'not_evaluated', detail: `judge unreachable: panel: ${n} of 3 members gave no usable score (2 usable needed): ${Array.from({ length: n }, (_, k) => `m${k}: ${reason}`).join('; ')}` });
    expect(rendered([refused(2, untrusted)]).cause).toMatch(/: point NODE_EXTRA_CA_CERTS at their CAs' certificates \(one PEM file holds them all\) in the environment agent-replay runs in$/);
    // The cause of 2 says it of both: it read "judge unreachable: its TLS certificate is refused: ..." (the first one's words).
    expect(rendered([refused(2, expired)]).cause).toBe('  cause: judge unreachable: their TLS certificates are refused: expired (CERT_HAS_EXPIRED): renew the certificates');
    // Of 1, and a single judge's, as they were.
    expect(rendered([refused(1, expired)]).cause).toBe('  cause: judge unreachable: its TLS certificate is refused: expired (CERT_HAS_EXPIRED): renew the certificate');
    expect(rendered([ways('a', 1, expired)]).cause).toMatch(/\(its TLS certificate refused, CERT_HAS_EXPIRED\): renew the certificate$/);
    expect(rendered([refused(1, misnamed)]).cause).toMatch(/: use a host name the certificate names in the URL$/);
    expect(rendered([fixture('a', { verdict: 'not_evaluated', detail: `judge unreachable: ${untrusted}` })]).cause).toMatch(/: point NODE_EXTRA_CA_CERTS at that CA's certificate \(a PEM file\)/);
    // Items of 1 and of 2 in one group: "those not reached (their keys could not be sent)".
    expect(groups([ways('a', 1, notSent), ways('b', 2, notSent)], URL_)[0]?.[1]).toContain("; for those not reached (their keys could not be sent): set those members' apiKeys (judge.panel, else judge.apiKey) again");
  });
});

describe("a panel's members' fix names their own settings, else the judge's (docs/judges.md, \"Panels\")", () => {
  /** An item whose panel of 3 (or 5) gave no usable score: its members' reasons, the first not reached unless `answered`. */
  const panel = (label: string, reasons: string[], answered = false): FixtureRecord => {
    const size = reasons.length > 2 ? 5 : 3;
    const detail = `judge ${answered ? 'gave no usable answer' : 'unreachable'}: panel: ${reasons.length} of ${size} members gave no usable score (${size === 3 ? 2 : 3} usable needed): ${reasons.map((r, k) => `m${k}: ${r}`).join('; ')}`;
    return fixture(label, { verdict: 'not_evaluated', detail });
  };
  const single = (label: string, reason: string, answered = false): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail: `judge ${answered ? 'gave no usable answer' : 'unreachable'}: ${reason}` });
  /** The terminal's cause line (the CLI's words: --judge-url) and the comment's, of a run of these items. */
  const rendered = (items: FixtureRecord[]): { cause: string | undefined; comment: string } => {
    resetLines();
    const record = run(items, { agent: { host: 'preview-42.example.com', endpoint: URL_ } });
    return { cause: renderTerminal(record, { color: false }).split('\n').find((l) => l.startsWith('  cause: ')), comment: renderComment(record, ctx) };
  };
  const down = 'HTTP 503: down';
  const error200 = 'unexpected response: no choices[0].message.content: an error in the HTTP 200 answer: "Overloaded"';

  it('a refused key (HTTP 401): the members\' key and model, "the judges refused the requests" of 2; a single judge\'s words as they were', () => {
    // It read "check the judge key (...) and that it may use judge.model", for 2 "the judge refused the request".
    expect(rendered([panel('a', ['HTTP 401: no'])]).cause).toBe(
      "  cause: judge unreachable: HTTP 401: the judge refused the request: check that member's apiKey (judge.panel, else judge.apiKey; the key or token its endpoint expects) and that it may use that member's model (judge.panel, else judge.model)",
    );
    const two = rendered([panel('a', ['HTTP 401: no', 'HTTP 403: no'])]);
    expect(two.cause).toBe(
      "  cause: judge unreachable: HTTP 401: the judges refused the requests: check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)",
    );
    expect(two.comment).toContain(escapeInline("check those members' apiKeys (judge.panel, else judge.apiKey;"));
    // After another way: "for the 1 ..." and "for the 2 ...".
    expect(rendered([panel('a', [down, 'HTTP 401: no'])]).cause).toContain("; for the 1 not reached (HTTP 401): the judge refused the request: check that member's apiKey (judge.panel, else judge.apiKey;");
    expect(rendered([panel('a', [down, 'HTTP 401: no', 'HTTP 401: no'])]).cause).toContain("; for the 2 not reached (HTTP 401): the judges refused the requests: check those members' apiKeys");
    // A single judge's, byte for byte.
    expect(rendered([single('a', 'HTTP 401: no')]).cause).toBe('  cause: judge unreachable: HTTP 401: the judge refused the request: check the judge key (the key or token its endpoint expects) and that it may use judge.model');
  });

  it('a path or model not found (HTTP 404), a rate limit (429), a timeout, no connection: each names the members\' own setting', () => {
    expect(rendered([panel('a', ['HTTP 404: no such model'])]).cause).toBe(
      "  cause: judge unreachable: HTTP 404: check that member's baseUrl (judge.panel, else --judge-url (judge.baseUrl)) and that member's model (judge.panel, else judge.model): the path (it is the API's base URL) or the model's name is probably wrong",
    );
    // Each member has its own client, concurrency and retries (src/judge/panel.ts, createConfiguredJudge).
    expect(rendered([panel('a', [down, 'HTTP 429: slow down', 'HTTP 429: slow down'])]).cause).toContain(
      "; for the 2 not reached (HTTP 429): rate limited: lower those members' concurrency (judge.panel, else judge.concurrency), or raise those members' retries (judge.panel, else judge.retries)",
    );
    expect(rendered([panel('a', [down, 'no answer from the judge within 60,000 ms'])]).cause).toContain(
      "; for the 1 not reached (no answer in time): raise that member's timeoutMs (judge.panel, else judge.timeoutMs) in config.yml if the judge is slow, or check that member's baseUrl (judge.panel, else --judge-url (judge.baseUrl)) and that it is up",
    );
    expect(rendered([panel('a', [down, 'connection refused at 127.0.0.1:9 (ECONNREFUSED)'])]).cause).toContain(
      "; for the 1 not reached (connection refused): nothing listens there: check that member's baseUrl (judge.panel, else --judge-url (judge.baseUrl)) and that the judge is running",
    );
    // A single judge's, byte for byte.
    expect(rendered([single('a', 'HTTP 429: slow down')]).cause).toBe('  cause: judge unreachable: HTTP 429: rate limited: lower judge.concurrency, or raise judge.retries');
    expect(rendered([single('a', 'HTTP 404: no')]).cause).toBe("  cause: judge unreachable: HTTP 404: check --judge-url (judge.baseUrl) and judge.model: the path (it is the API's base URL) or the model's name is probably wrong");
    // Of 2, each its own path and model: it read "the path (it is the API's base URL) or the model's name is probably wrong".
    expect(rendered([panel('a', ['HTTP 404: no such model', 'HTTP 404: no such model'])]).cause).toBe(
      "  cause: judge unreachable: HTTP 404: check those members' baseUrls (judge.panel, else --judge-url (judge.baseUrl)) and those members' models (judge.panel, else judge.model): the paths (each the API's base URL) or the models' names are probably wrong",
    );
    expect(rendered([panel('a', [down, 'HTTP 404: no', 'HTTP 404: no'])]).cause).toContain("; for the 2 not reached (HTTP 404): check those members' baseUrls (judge.panel, else --judge-url (judge.baseUrl)) and those members' models (judge.panel, else judge.model): the paths (each");
  });

  it("a single judge that answered other calls of the run and a panel, each with a connection closed: each a group with its fix (run again; the members' logs)", () => {
    const closed = 'the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET)';
    // The judge scored another item of the run (modelsAnsweredInRun): a single judge's dropped connection is a passing fault, a panel member's is not told so.
    const scored = fixture('ok', { verdict: 'pass', judgeFingerprint: { model: 'x' } } as Partial<FixtureRecord>);
    const judge = single('a', closed);
    const members = panel('b', [closed]);
    // One group said "see the judge's log for a crash on the request ..." (the panel's) of the single judge, whose own fix is to run again.
    const apart = groups([scored, judge, members], URL_);
    expect(apart.map(([, hint, labels]) => [hint?.replace(/:.*$/, ''), labels])).toEqual([
      ['the judge answered other calls of this run, so judge-base-url (judge.baseUrl), judge.model and the judge key work', ['a']],
      ["see the judge's log for a crash on the request, or a proxy in front of it that closes connections", ['b']],
    ]);
    expect(groups([scored, members, judge], URL_).map(([, , labels]) => labels)).toEqual([['b'], ['a']]);
    // Without that evidence both fixes are the same: one group.
    expect(groups([judge, members], URL_).map(([, , labels]) => labels)).toEqual([['a', 'b']]);
  });

  it("a merge's judges each read their own calls (their fingerprints' model and address): a judge that answered none is never told it answered other calls", () => {
    const closed = 'the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET)';
    const fp = (model: string, endpoint: string): Pick<FixtureRecord, 'judgeFingerprint'> => ({ judgeFingerprint: { model, endpoint, promptVersion: '1', criteria: [{ criterion: 'c', threshold: 0.7 }] } });
    const a = { model: 'openai/gpt-4o-mini', at: 'http://127.0.0.1:9' };
    const p = { model: 'panel: openai/x, openai/x, openai/x', at: 'http://127.0.0.1:9, http://127.0.0.1:9, http://127.0.0.1:9' };
    const scored = (label: string, j: { model: string; at: string }): FixtureRecord => fixture(label, { verdict: 'pass', ...fp(j.model, j.at) });
    const one = (label: string, j: { model: string; at: string }): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail: `judge unreachable: ${closed}`, ...fp(j.model, j.at) });
    const members = (label: string): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail: `judge unreachable: panel: 2 of 3 members gave no usable score (2 usable needed): m0: ${closed}; m1: ${closed}`, ...fp(p.model, p.at) });
    const log = "see the judge's log for a crash on the request, or a proxy in front of it that closes connections";
    const again = /^the judge answered other calls of this run, so /;
    // Only the panel answered: the single judge's own fix (it read "the judge answered other calls of this run").
    expect(groups([scored('p', p), one('a', a)], URL_)).toEqual([[`judge unreachable: ${closed}`, log, ['a']]]);
    // The same model at another address is another judge.
    expect(groups([scored('b', { ...a, at: 'http://127.0.0.1:8' }), one('a', a)], URL_)[0]?.[1]).toBe(log);
    // Two single judges, one that answered and one that did not, and a panel that answered none: each a group with its own fix.
    const b = { model: 'openai/gpt-4o', at: 'http://127.0.0.1:9' };
    const found = groups([scored('ok', a), one('a', a), one('b', b), members('c')], URL_);
    // b and c under the fix of both, said in the plural as of the panel's 2 members (Cause.apart).
    expect(found.map(([, hint, labels]) => [hint?.replace(/:.*$/, ''), labels])).toEqual([
      ["see the judges' logs for a crash on the requests, or a proxy in front of them that closes connections", ['b', 'c']],
      ['the judge answered other calls of this run, so judge-base-url (judge.baseUrl), judge.model and the judge key work', ['a']],
    ]);
    expect(found[1]?.[1]).toMatch(again);
  });

  it('an HTTP 200 with an error, no usable score, an answer not read: the members\' model, key and address', () => {
    expect(rendered([panel('a', [down, error200])]).cause).toContain(
      "; for the 1 that answered HTTP 200 with an error: read the error the item quotes: check that member's model (judge.panel, else judge.model) and that member's apiKey (judge.panel, else judge.apiKey) at the endpoint",
    );
    expect(rendered([panel('a', [error200, error200], true)]).cause).toContain(
      // Each its own endpoint: it read "at the endpoint" of 2.
      "(panel: 2 of 3 members): read the error the item quotes: check those members' models (judge.panel, else judge.model) and those members' apiKeys (judge.panel, else judge.apiKey) at their endpoints;",
    );
    expect(rendered([panel('a', [down, 'no usable score in output: "fine"'])]).cause).toContain('; for the 1 that answered without a usable score: use a judge model that follows the prompt (judge.panel, else judge.model), or an endpoint');
    expect(rendered([panel('a', [down, 'response is not JSON (text/html)'])]).cause).toContain(
      '; for the 1 whose answer could not be read: check that the baseUrl of that member (judge.panel, else --judge-url (judge.baseUrl)) is the API\'s base URL',
    );
    // A single judge's, byte for byte.
    expect(rendered([single('a', error200, true)]).cause).toBe(`  cause: the judge's endpoint answered HTTP 200 with an error in place of an answer: read the error the item quotes: check judge.model and the judge key at the endpoint; an upstream that failed behind a gateway (OpenRouter, a proxy) passes: run again`);
  });

  it("the members whose judge call failed: \"could not make the requests\" of 2, \"the request\" of 1", () => {
    const failed = 'judge call failed: request body could not be made';
    const item = (label: string, n: number): FixtureRecord =>
      fixture(label, { verdict: 'not_evaluated', detail: `judge unreachable: panel: ${n + 1} of 5 members gave no usable score (3 usable needed; 1 unreachable, ${n} judge call failed): m0: ${down}; ${Array.from({ length: n }, (_, k) => `m${k + 1}: ${failed}`).join('; ')}` });
    // It read "for the 2 whose judge call failed: agent-replay could not make the request".
    expect(rendered([item('a', 2)]).cause).toBe(`  cause: judge unreachable: HTTP 503: the judge's endpoint failed: see its status or log, and run it again; for the 2 whose judge call failed: ${CALL_FAILED_HINTS}`);
    expect(CALL_FAILED_HINTS).toContain('agent-replay could not make the requests, and sent nothing');
    expect(rendered([item('a', 1)]).cause).toBe(`  cause: judge unreachable: HTTP 503: the judge's endpoint failed: see its status or log, and run it again; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`);
  });

  it("2 members' endpoints that failed (5xx), missed their deadline, or whose connection failed: in the plural; 1's and a single judge's words as they were", () => {
    const failed = "the judge's endpoint failed: see its status or log, and run it again";
    // It read "the judge's endpoint failed: see its status or log" of 2.
    expect(rendered([panel('a', [down])]).cause).toBe(`  cause: judge unreachable: HTTP 503: ${failed}`);
    expect(rendered([panel('a', [down, 'HTTP 502: bad gateway'])]).cause).toBe("  cause: judge unreachable: HTTP 503: the judges' endpoints failed: see their statuses or logs, and run it again");
    expect(rendered([panel('a', ['HTTP 401: no', down])]).cause).toContain(`; for the 1 not reached (HTTP 503): ${failed}`);
    expect(rendered([panel('a', ['HTTP 401: no', down, down])]).cause).toContain("; for the 2 not reached (HTTP 503): the judges' endpoints failed: see their statuses or logs, and run it again");
    // It read "... if the judge is slow, or check those members' baseUrls (...) and that it is up" of 2.
    const late = 'no answer from the judge within 60,000 ms';
    expect(rendered([panel('a', [down, late, late])]).cause).toContain(
      "; for the 2 not reached (no answer in time): raise those members' timeoutMs (judge.panel, else judge.timeoutMs) in config.yml if the judges are slow, or check those members' baseUrls (judge.panel, else --judge-url (judge.baseUrl)) and that they are up",
    );
    const unopened = 'no connection to the judge opened within 5,000 ms';
    expect(rendered([panel('a', [down, unopened])]).cause).toContain(
      "; for the 1 not reached (no connection in time): the host never completed the connection (a host that is down, or a firewall that drops packets, looks like this): check that member's baseUrl (judge.panel, else --judge-url (judge.baseUrl)) and that the judge is up; raise that member's timeoutMs (judge.panel, else judge.timeoutMs) if it is only slow",
    );
    expect(rendered([panel('a', [down, unopened, unopened])]).cause).toContain(
      "; for the 2 not reached (no connection in time): the hosts never completed the connections (a host that is down, or a firewall that drops packets, looks like this): check those members' baseUrls (judge.panel, else --judge-url (judge.baseUrl)) and that the judges are up; raise those members' timeoutMs (judge.panel, else judge.timeoutMs) if they are only slow",
    );
    const refused = 'connection refused at 127.0.0.1:9 (ECONNREFUSED)';
    expect(rendered([panel('a', [down, refused, refused])]).cause).toContain("; for the 2 not reached (connection refused): nothing listens there: check those members' baseUrls (judge.panel, else --judge-url (judge.baseUrl)) and that the judges are running");
    const closed = 'the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET)';
    expect(rendered([panel('a', [down, closed])]).cause).toContain("; for the 1 not reached (connection closed): see the judge's log for a crash on the request, or a proxy in front of it that closes connections");
    expect(rendered([panel('a', [down, closed, closed])]).cause).toContain("; for the 2 not reached (connection closed): see the judges' logs for a crash on the requests, or a proxy in front of them that closes connections");
    const unresolved = 'the host name judge.test did not resolve (ENOTFOUND)';
    expect(rendered([panel('a', [down, unresolved, unresolved])]).cause).toContain("; for the 2 not reached (host name not resolved): check the host names in those members' baseUrls (judge.panel, else --judge-url (judge.baseUrl))");
    const notSent = 'the request was not sent: the judge key (judge.apiKey) holds a line break or a character outside Latin-1';
    expect(rendered([panel('a', [down, notSent])]).cause).toContain("set that member's apiKey (judge.panel, else judge.apiKey) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from");
    expect(rendered([panel('a', [down, notSent, notSent])]).cause).toContain("set those members' apiKeys (judge.panel, else judge.apiKey) again without the line break or the character outside Latin-1, where they are written or in the variables they are read from");
    // A single judge's, byte for byte.
    expect(rendered([single('a', down)]).cause).toBe(`  cause: judge unreachable: HTTP 503: ${failed}`);
    expect(rendered([single('a', late)]).cause).toBe("  cause: judge unreachable: no answer from the judge within 60,000 ms: raise judge.timeoutMs in config.yml if the judge is slow, or check --judge-url (judge.baseUrl) and that it is up");
    expect(rendered([single('a', unopened)]).cause).toBe(
      '  cause: judge unreachable: no connection to the judge opened within 5,000 ms: the host never completed the connection (a host that is down, or a firewall that drops packets, looks like this): check --judge-url (judge.baseUrl) and that the judge is up; raise judge.timeoutMs if it is only slow',
    );
    expect(rendered([single('a', refused)]).cause).toBe('  cause: judge unreachable: connection refused at 127.0.0.1:9 (ECONNREFUSED): nothing listens there: check --judge-url (judge.baseUrl) and that the judge is running');
  });

  it("2 members whose answer did not end, broke off or came in a form not read: \"the judges answered and their bodies stopped\"; 1's and a single judge's words as they were", () => {
    const ended = "the judge's answer (HTTP 200) did not end within 200 ms";
    const broke = "the judge's answer (HTTP 200) broke off before its end: the connection was closed (UND_ERR_SOCKET)";
    const prose = 'no usable score in output: "fine"';
    // It read "the judge answered and its body stopped: a judge or a gateway in front of it that stalls; raise those members' timeoutMs (...) if it is only slow" of 2.
    expect(rendered([panel('a', [ended, ended], true)]).cause).toBe(
      "  cause: the judge's answer did not end within 200 ms: the judges answered and their bodies stopped: judges or gateways in front of them that stall; raise those members' timeoutMs (judge.panel, else judge.timeoutMs) if they are only slow",
    );
    expect(rendered([panel('a', [prose, ended, ended], true)]).cause).toContain(
      "; for the 2 whose answer could not be read: the judges answered and their bodies stopped: judges or gateways in front of them that stall; raise those members' timeoutMs (judge.panel, else judge.timeoutMs) if they are only slow",
    );
    expect(rendered([panel('a', [prose, ended], true)]).cause).toContain(
      "; for the 1 whose answer could not be read: the judge answered and its body stopped: a judge or a gateway in front of it that stalls; raise that member's timeoutMs (judge.panel, else judge.timeoutMs) if it is only slow",
    );
    // It read "the judge answered and its connection closed mid-answer: see its log, ..." of 2.
    expect(rendered([panel('a', [broke, broke], true)]).cause).toBe(
      "  cause: the judge's answer broke off before its end: the judges answered and their connections closed mid-answer: see their logs, or those of a gateway or proxy in front of them",
    );
    expect(rendered([panel('a', [prose, broke], true)]).cause).toContain("; for the 1 whose answer could not be read: the judge answered and its connection closed mid-answer: see its log, or that of a gateway or proxy in front of it");
    // An answer in a form not read: the judges' logs and endpoints, of 2 ("see the judge's log" before).
    const of2 = (reason: string): string | undefined => rendered([panel('a', [reason, reason], true)]).cause;
    expect(of2('response is not JSON (text/html)')).toMatch(/is the API's base URL \(an HTML page answers a wrong path\), and see the judges' logs$/);
    expect(of2('the judge at 127.0.0.1:9 gave a body of another length than its Content-Length (UND_ERR_RES_CONTENT_LENGTH_MISMATCH)')).toMatch(/: see the judges' logs, or those of a gateway or proxy in front of them$/);
    expect(of2('the judge at 127.0.0.1:9 gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW)')).toMatch(/: see what makes the judges, or a gateway or proxy in front of them, send that many headers$/);
    expect(of2('the judge at 127.0.0.1:9 gave an answer that is not valid HTTP')).toContain(": something other than the judges' HTTP servers answers there: check the ports in the baseUrl of those members");
    expect(of2('response is encoded as "zstd"')).toContain(": turn off that compression at the judges' endpoints or a proxy in front of them (gzip");
    // A TLS alert and plain HTTP on a TLS port: it read "whether the server asks ..., which TLS versions it accepts, ... is its https:// port", "the server speaks" of 2.
    const alert = 'it answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)';
    const plain = 'it answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER)';
    expect(of2(alert)).toBe(
      "  cause: the judge answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE): check whether the servers ask for a client certificate (agent-replay presents none), which TLS versions they accept (agent-replay offers TLS 1.2 and 1.3), and that the URLs in the baseUrl of those members (judge.panel, else --judge-url (judge.baseUrl)) are their https:// ports (http:// for plain HTTP ones)",
    );
    expect(of2(plain)).toBe("  cause: the judge answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER): the servers speak plain HTTP there, not HTTPS: write the baseUrl of those members (judge.panel, else --judge-url (judge.baseUrl)) with http://");
    expect(rendered([panel('a', [prose, alert, alert], true)]).cause).toContain('; for the 2 whose answer could not be read: check whether the servers ask for a client certificate');
    // Of 1, and a single judge's, as they were.
    expect(rendered([panel('a', [prose, alert], true)]).cause).toContain("; for the 1 whose answer could not be read: check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in the baseUrl of that member (judge.panel, else --judge-url (judge.baseUrl)) is its https:// port");
    expect(rendered([single('a', alert, true)]).cause).toMatch(/: check whether the server asks for a client certificate .*, and that the URL in --judge-url \(judge\.baseUrl\) is its https:\/\/ port \(http:\/\/ for a plain HTTP one\)$/);
    expect(rendered([panel('a', [plain], true)]).cause).toContain(': the server speaks plain HTTP there, not HTTPS: write the baseUrl of that member');
    // A single judge's, byte for byte.
    expect(rendered([single('a', ended, true)]).cause).toBe(
      "  cause: the judge's answer did not end within 200 ms: the judge answered and its body stopped: a judge or a gateway in front of it that stalls; raise judge.timeoutMs if it is only slow",
    );
    expect(rendered([single('a', broke, true)]).cause).toBe("  cause: the judge's answer broke off before its end: the judge answered and its connection closed mid-answer: see its log, or that of a gateway or proxy in front of it");
    expect(rendered([single('a', 'response is not JSON (text/html)', true)]).cause).toBe(
      "  cause: the judge answered with a body that is not JSON: check that --judge-url (judge.baseUrl) is the API's base URL (an HTML page answers a wrong path), and see the judge's log",
    );
  });

  it("2 members whose key could not be sent: the cause says it of both, not in the first one's words; a member of another provider's key is judge.panel alone", () => {
    const carry = 'holds a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)';
    const inherited = `the request was not sent: that member's apiKey (judge.panel, else judge.apiKey) ${carry}`;
    const own = `the request was not sent: that member's apiKey (judge.panel) ${carry}`;
    const prose = 'no usable score in output: "fine"';
    const again = 'again without the line break or the character outside Latin-1';
    // It read "judge unreachable: the request was not sent: that member's apiKey (...) holds ...", the first member's words.
    const two = rendered([panel('a', [inherited, inherited])]);
    expect(two.cause).toBe(
      `  cause: judge unreachable: the requests were not sent: those members' apiKeys (judge.panel, else judge.apiKey) hold a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG): set those members' apiKeys (judge.panel, else judge.apiKey) ${again}, where they are written or in the variables they are read from (a secret pasted with a line break)`,
    );
    expect(two.comment).toContain(escapeInline("the requests were not sent: those members' apiKeys (judge.panel, else judge.apiKey) hold a line break"));
    // Of 1, its own words, as before.
    expect(rendered([panel('a', [inherited, prose])]).cause).toMatch(new RegExp(`^  cause: judge unreachable: the request was not sent: that member's apiKey \\(judge\\.panel, else judge\\.apiKey\\) holds .*: set that member's apiKey \\(judge\\.panel, else judge\\.apiKey\\) ${again}, where it is written`));
    // Members of another provider than the judge's (their reasons name judge.panel alone): it read "(judge.panel, else judge.apiKey)", a key they never take.
    expect(rendered([panel('a', [own, own])]).cause).toBe(
      `  cause: judge unreachable: the requests were not sent: those members' apiKeys (judge.panel) hold a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG): set those members' apiKeys (judge.panel) ${again}, where they are written or in the variables they are read from (a secret pasted with a line break)`,
    );
    expect(rendered([panel('a', [own, prose])]).cause).toMatch(new RegExp(`: set that member's apiKey \\(judge\\.panel\\) ${again}, where it is written`));
    expect(rendered([panel('a', [down, own])]).cause).toContain(`; for the 1 not reached (its key could not be sent): set that member's apiKey (judge.panel) ${again}`);
    // One of each: the rule of both.
    expect(rendered([panel('a', [down, own, inherited])]).cause).toContain(`; for the 2 not reached (their keys could not be sent): set those members' apiKeys (judge.panel, else judge.apiKey) ${again}`);
    // A single judge's, byte for byte.
    expect(rendered([single('a', `the request was not sent: the judge key (judge.apiKey) ${carry}`)]).cause).toBe(
      `  cause: judge unreachable: the request was not sent: the judge key (judge.apiKey) ${carry}: set the judge key (judge.apiKey) ${again}, where it is written or in the variable it is read from (a secret pasted with a line break)`,
    );
  });

  it("a single judge's HTTP 401 and a panel's: each a group with its own fix, in either order; an HTTP 5xx, whose fix names no setting, one group", () => {
    const judge = single('a', 'HTTP 401: bad key');
    const members = panel('b', ['HTTP 401: bad key', 'HTTP 401: bad key']);
    // One group "all 2" said the panel's "those members' apiKeys (judge.panel, else judge.apiKey)" of the single judge too, or the judge key of the panel's members.
    const apart = [
      ['judge unreachable: HTTP 401', 'the judge refused the request: check the judge key (the key or token its endpoint expects) and that it may use judge.model', ['a']],
      [
        'judge unreachable: HTTP 401',
        "the judges refused the requests: check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)",
        ['b'],
      ],
    ];
    expect(groups([judge, members], URL_)).toEqual(apart);
    expect(groups([members, judge], URL_)).toEqual([apart[1], apart[0]]);
    const { comment } = rendered([judge, members]);
    expect(comment).toContain(escapeInline('1 of 2: judge unreachable: HTTP 401: the judge refused the request: check the judge key'));
    expect(comment).toContain(escapeInline("1 of 2: judge unreachable: HTTP 401: the judges refused the requests: check those members' apiKeys"));
    expect(rendered([members, judge]).cause).toBe(`  cause: 1 of 2: judge unreachable: HTTP 401: ${String(apart[1]?.[1])} (and 1 other cause)`);
    expect(groups([single('a', 'HTTP 503: down'), panel('b', ['HTTP 503: down'])], URL_).map(([what, , labels]) => [what, labels])).toEqual([['judge unreachable: HTTP 503', ['a', 'b']]]);
  });

  it("a single judge's and a panel's answer without a usable score, HTTP 200 with an error, or answer not read: each a group with its fix, in either order; a stream's, whose fix names no setting, one group", () => {
    const prose = 'no usable score in output: "fine"';
    const notRead = ['response is not JSON (text/html)', 'it answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER)', 'it answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)', 'response is larger than 8 MiB'];
    for (const reason of [prose, error200, ...notRead]) {
      const judge = single('a', reason, true);
      const members = panel('b', [reason, reason], true);
      // One group "all 2", whose fix named "those members' ..." (or "judge.panel, else judge.model") of the single judge too.
      const alone = [...groups([judge], URL_), ...groups([members], URL_)];
      expect(alone.map(([, hint]) => hint)).toHaveLength(2);
      expect(alone[0]?.[1]).not.toContain('judge.panel');
      expect(groups([judge, members], URL_)).toEqual(alone);
      expect(groups([members, judge], URL_)).toEqual([alone[1], alone[0]]);
    }
    const stream = 'response is a stream of server-sent events (text/event-stream), not one JSON answer';
    expect(groups([single('a', stream, true), panel('b', [stream], true)], URL_).map(([, , labels]) => labels)).toEqual([['a', 'b']]);
  });

  it("members of another provider than the judge's (their reasons begin '(another provider)'): each kind's fix names judge.panel alone, never judge.apiKey, judge.model or judge.baseUrl; beside one of the judge's provider, 'judge.panel, else ...'", () => {
    const other = (r: string): string => `(another provider) ${r}`;
    const cut = 'the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read';
    const prose = 'no usable score in output: "fine"';
    // It read "check that member's apiKey (judge.panel, else judge.apiKey; ...) and that it may use that member's model (judge.panel, else judge.model)": settings it never takes.
    expect(rendered([panel('a', [other('HTTP 401: bad key')])]).cause).toBe(
      "  cause: judge unreachable: HTTP 401: the judge refused the request: check that member's apiKey (judge.panel; the key or token its endpoint expects) and that it may use that member's model (judge.panel)",
    );
    expect(rendered([panel('a', [other('HTTP 403: no'), other('HTTP 403: no')])]).cause).toBe(
      "  cause: judge unreachable: HTTP 403: the judges refused the requests: check those members' apiKeys (judge.panel; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel)",
    );
    // One of each: the rule of both.
    expect(rendered([panel('a', [other('HTTP 401: bad key'), 'HTTP 401: bad key'])]).cause).toBe(
      "  cause: judge unreachable: HTTP 401: the judges refused the requests: check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)",
    );
    expect(rendered([panel('a', [other('HTTP 401: bad'), other('HTTP 404: no')])]).cause).toContain(
      "; for the 1 not reached (HTTP 404): check that member's baseUrl (judge.panel) and that member's model (judge.panel): the path (it is the API's base URL) or the model's name is probably wrong",
    );
    // Its limits are the judge's unless it sets its own (src/config.ts, panelMemberConfig): a 429's fix as before.
    expect(rendered([panel('a', [other('HTTP 429: slow')])]).cause).toBe(
      "  cause: judge unreachable: HTTP 429: rate limited: lower that member's concurrency (judge.panel, else judge.concurrency), or raise that member's retries (judge.panel, else judge.retries)",
    );
    expect(rendered([panel('a', [other(error200), other(error200)], true)]).cause).toContain(
      "read the error the item quotes: check those members' models (judge.panel) and those members' apiKeys (judge.panel) at their endpoints;",
    );
    expect(rendered([panel('a', [other(prose), other(prose)], true)]).cause).toBe(`  cause: the judge answered without a usable score: ${PANEL_NO_SCORE_HINTS.replace('(judge.panel, else judge.model)', '(judge.panel)')}`);
    expect(rendered([panel('a', [other(prose), prose], true)]).cause).toBe(`  cause: the judge answered without a usable score: ${PANEL_NO_SCORE_HINTS}`);
    expect(rendered([panel('a', [other(cut), other(cut)], true)]).cause).toContain("raise the output-token limit of those members' models at their endpoints (judge.panel) (agent-replay asks");
    expect(rendered([panel('a', [prose, other(cut)], true)]).cause).toContain("; for the 1 cut at the token limit: raise the output-token limit of that member's model at its endpoint (judge.panel) (agent-replay asks");
    expect(rendered([panel('a', [other('response is not JSON (text/html)')], true)]).cause).toContain("check that the baseUrl of that member (judge.panel) is the API's base URL");
    // Items of both in one group: the fix true of both, in either order.
    const own = panel('a', [other('HTTP 401: bad key')]);
    const judges = panel('b', ['HTTP 401: bad key', 'HTTP 401: bad key']);
    const both = "check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)";
    expect(rendered([own, judges]).cause).toContain(both);
    expect(rendered([judges, own]).cause).toContain(both);
    // The judge's provider's members, byte for byte.
    expect(rendered([panel('a', ['HTTP 401: bad key'])]).cause).toBe(
      "  cause: judge unreachable: HTTP 401: the judge refused the request: check that member's apiKey (judge.panel, else judge.apiKey; the key or token its endpoint expects) and that it may use that member's model (judge.panel, else judge.model)",
    );
  });

  it("a panel whose every member's call failed: \"could not make the requests\" of 2; a single judge's \"the request\"", () => {
    const failed = 'judge call failed: request body could not be made';
    const all = (label: string, n: number, size: number): FixtureRecord =>
      fixture(label, { verdict: 'not_evaluated', detail: `judge call failed: panel: ${n} of ${size} members gave no usable score (${size === 3 ? 2 : 3} usable needed): ${Array.from({ length: n }, (_, k) => `m${k}: ${failed}`).join('; ')}` });
    // It read "judge call failed (panel: 2 of 3 members): agent-replay could not make the request".
    expect(rendered([all('a', 2, 3)]).cause).toBe(`  cause: judge call failed (panel: 2 of 3 members): ${CALL_FAILED_HINTS}`);
    expect(rendered([all('a', 3, 5), all('b', 2, 3)]).cause).toBe(`  cause: all 2: judge call failed: ${CALL_FAILED_HINTS}`);
    // Of 1 (a panel's count read as it is written), and a single judge's, byte for byte.
    expect(rendered([all('a', 1, 3)]).cause).toBe(`  cause: judge call failed (panel: 1 of 3 members): ${CALL_FAILED_HINT}`);
    expect(rendered([fixture('a', { verdict: 'not_evaluated', detail: failed })]).cause).toBe(`  cause: judge call failed: request body could not be made: ${CALL_FAILED_HINT}`);
  });

  it('items whose panels count the members otherwise, in one group: the words of more, which hold for both', () => {
    expect(groups([panel('a', ['HTTP 401: no']), panel('b', ['HTTP 401: no', 'HTTP 401: no'])], URL_)).toEqual([
      [
        'judge unreachable: HTTP 401',
        "the judges refused the requests: check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)",
        ['a', 'b'],
      ],
    ]);
  });
});

describe("a group's fix reads only what its key holds: traces and certificates", () => {
  const notEvaluated = (label: string, detail: string): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail });
  const ID = '72e05b7f160dab098f269aaf477e8d24';

  it("exports refused at two receivers (a merge's shards): each item's fix names its own receiver", () => {
    const refused = (label: string, port: number): FixtureRecord =>
      notEvaluated(label, noSpansCause(ID, { endpoint: `http://127.0.0.1:${port}/v1/traces`, receiving: true, waitMs: 5000 }, 0, { count: 1, path: '/v1/traces/v1/traces', contentType: null }));
    // One group under the first item's fix: "set OTEL_EXPORTER_OTLP_ENDPOINT to http://127.0.0.1:4318" said of the item whose receiver was at 4319 too.
    expect(groups([refused('a', 4318), refused('b', 4319), refused('c', 4318)], URL_).map(([, hint, labels]) => [hint?.replace(/ \(the SDK adds.*$/, ''), labels])).toEqual([
      ['set OTEL_EXPORTER_OTLP_ENDPOINT to http://127.0.0.1:4318', ['a', 'c']],
      ['set OTEL_EXPORTER_OTLP_ENDPOINT to http://127.0.0.1:4319', ['b']],
    ]);
  });

  it("no spans from a trace store and from the receiver: each its fix", () => {
    const store = notEvaluated('a', noSpansCause(ID, { endpoint: 'tempo (https://tempo.example.com)', receiving: false, waitMs: 5000 }));
    const received = notEvaluated('b', noSpansCause(ID, { endpoint: 'http://127.0.0.1:4318/v1/traces', receiving: true, waitMs: 5000 }));
    // One group, "no spans arrived within 5 s", under the store's fix for the receiver's item too.
    expect(groups([store, received], URL_).map(([what, hint, labels]) => [what, hint?.replace(/ \(.*$/, ''), labels])).toEqual([
      ['no spans arrived within 5 s at tempo (https://tempo.example.com)', 'check that the agent exports its spans to this store', ['a']],
      ['no spans arrived within 5 s', "point the agent's OTEL_EXPORTER_OTLP_ENDPOINT at the receiver", ['b']],
    ]);
  });

  it("a certificate refused whose messages give different fixes for one code: each item's own", () => {
    const refused = (label: string, fix: string): FixtureRecord =>
      errored(label, 'network', `message turn: the agent's TLS certificate is refused, after 1 attempt: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT); ${fix}`);
    const own = "point NODE_EXTRA_CA_CERTS at that CA's certificate (a PEM file) in the environment agent-replay runs in";
    // A record written elsewhere (another shard's tool, an edit) with its own fix: it got the first item's.
    expect(groups([refused('a', own), refused('b', 'ask the platform team for the internal CA')], URL_).map(([, hint, labels]) => [hint, labels])).toEqual([
      [own, ['a']],
      ['ask the platform team for the internal CA', ['b']],
    ]);
  });
});

describe("a judge's answer cut at its token limit", () => {
  const notEvaluated = (label: string, detail: string): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail });
  const cut = 'the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read';

  it("a single judge's and a panel's whose members were all cut: each its fix, in a group of its own", () => {
    const single = notEvaluated('a', `judge gave no usable answer: ${cut}`);
    const panel = notEvaluated('b', `judge gave no usable answer: panel: 2 of 3 members gave no usable score (2 usable needed): m0: ${cut}; m1: ${cut}`);
    // One group under the first item's fix: "judge.model" said of the panel, whose members' models are judge.panel's.
    expect(groups([single, panel], URL_).map(([what, hint, labels]) => [what, /of judge\.model at its endpoint/.test(hint ?? ''), /of those members' models/.test(hint ?? ''), labels])).toEqual([
      ["the judge's answer was cut at its token limit", true, false, ['a']],
      ["the judge's answer was cut at its token limit (panel: 2 of 3 members)", false, true, ['b']],
    ]);
  });

  it('a panel whose members were cut, and one whose judge call failed: the limit\'s fix once', () => {
    const panel = notEvaluated('a', `judge gave no usable answer: panel: 3 of 3 members gave no usable score (2 usable needed; 2 gave no usable answer, 1 judge call failed): m0: ${cut}; m1: ${cut}; m2: judge call failed: request body could not be made`);
    const [[, hint] = []] = groups([panel], URL_);
    // It said the limit's fix again after the call's: "...; for the 1 judge call failed: ...; for the 2 cut at the token limit: raise ...".
    expect(hint?.split('raise the output-token limit')).toHaveLength(2);
    expect(hint).toMatch(/; for the 1 whose judge call failed: agent-replay could not make the request/);
  });

  it('a panel whose members were all cut but one whose judge call failed: one sentence, each count and each fix once', () => {
    const panel = (label: string): FixtureRecord =>
      notEvaluated(label, `judge gave no usable answer: panel: 3 of 3 members gave no usable score (2 usable needed; 2 gave no usable answer, 1 judge call failed): m0: ${cut}; m1: ${cut}; m2: judge call failed: request body could not be made`);
    resetLines();
    const terminal = renderTerminal(run([panel('a'), panel('b')], { agent: { host: 'preview-42.example.com', endpoint: URL_ } }), { color: false });
    // It read "...token limit (panel: 2 of 3 members) (panel: 2 gave no usable answer, 1 judge call failed): raise ...; for the 1 judge call failed: ...".
    expect(terminal.split('\n').find((l) => l.startsWith('  cause: '))).toBe(
      `  cause: all 2: the judge's answer was cut at its token limit (panel: 2 of 3 members): ${PANEL_CUT_HINT}; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`,
    );
  });

  it('a panel whose members all answered HTTP 200 with an error but one whose judge call failed: their count once, as a cut panel\'s', () => {
    const error200 = 'unexpected response: no choices[0].message.content: an error in the HTTP 200 answer: "upstream failed"';
    const panel = notEvaluated('a', `judge gave no usable answer: panel: 3 of 3 members gave no usable score (2 usable needed; 2 gave no usable answer, 1 judge call failed): m0: ${error200}; m1: ${error200}; m2: judge call failed: request body could not be made`);
    // It said no count of its own and "(panel: 2 gave no usable answer, 1 judge call failed)", the 1 said again in the fix.
    expect(groups([panel], URL_)).toEqual([
      ["the judge's endpoint answered HTTP 200 with an error in place of an answer (panel: 2 of 3 members)", `${error200Hint(memberSettings(2))}; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`, ['a']],
    ]);
  });
});

describe("a panel whose every member's judge call failed", () => {
  it('its count, not its reason naming each member, before the fix: "judge call failed" once', () => {
    const panel = (label: string): FixtureRecord =>
      fixture(label, { verdict: 'not_evaluated', detail: 'judge call failed: panel: 2 of 3 members gave no usable score (2 usable needed): m0: judge call failed: request body could not be made; m1: judge call failed: request body could not be made' });
    resetLines();
    const terminal = renderTerminal(run([panel('a'), panel('b')], { agent: { host: 'preview-42.example.com', endpoint: URL_ } }), { color: false });
    // It read "judge call failed: panel: 2 of 3 members gave no usable score (2 usable needed): m0: judge call failed: ...; m1: judge call failed: ...: agent-replay could not ...".
    // Each member's request: "could not make the requests" (it read "the request").
    expect(terminal.split('\n').find((l) => l.startsWith('  cause: '))).toBe(`  cause: all 2: judge call failed (panel: 2 of 3 members): ${CALL_FAILED_HINTS}`);
    // Beside a single judge's call that failed: one group, in the words both share.
    const single = fixture('c', { verdict: 'not_evaluated', detail: 'judge call failed: request body could not be made' });
    expect(groups([panel('a'), single], URL_)).toEqual([['judge call failed', CALL_FAILED_HINTS, ['a', 'c']]]);
  });

  it("beside a single judge's call that failed, in either order: one group, \"could not make the requests\" (its first item's words before)", () => {
    const of = (label: string, n: number): FixtureRecord =>
      fixture(label, { verdict: 'not_evaluated', detail: `judge call failed: panel: ${n} of 3 members gave no usable score (2 usable needed): ${Array.from({ length: n }, (_, k) => `m${k}: judge call failed: request body could not be made`).join('; ')}` });
    const single = fixture('c', { verdict: 'not_evaluated', detail: 'judge call failed: request body could not be made' });
    // The single judge's first: it read "agent-replay could not make the request" of the panel's 2 requests too.
    expect(groups([single, of('a', 2)], URL_)).toEqual([['judge call failed', CALL_FAILED_HINTS, ['c', 'a']]]);
    expect(groups([of('a', 2), single], URL_)).toEqual([['judge call failed', CALL_FAILED_HINTS, ['a', 'c']]]);
    // A panel's 1 member beside it: the words of more, whichever comes first (the single judge's first read "the request").
    expect(groups([single, of('a', 1)], URL_)).toEqual([['judge call failed', CALL_FAILED_HINTS, ['c', 'a']]]);
    expect(groups([of('a', 1), single], URL_)).toEqual([['judge call failed', CALL_FAILED_HINTS, ['a', 'c']]]);
    resetLines();
    const terminal = (items: FixtureRecord[]): string | undefined => renderTerminal(run(items, { agent: { host: 'preview-42.example.com', endpoint: URL_ } }), { color: false }).split('\n').find((l) => l.startsWith('  cause: '));
    expect(terminal([single, of('a', 2)])).toBe(`  cause: all 2: judge call failed: ${CALL_FAILED_HINTS}`);
    expect(terminal([of('a', 2), single])).toBe(`  cause: all 2: judge call failed: ${CALL_FAILED_HINTS}`);
    // Alone, each its own words: a single judge's, byte for byte.
    expect(terminal([single])).toBe(`  cause: judge call failed: request body could not be made: ${CALL_FAILED_HINT}`);
    expect(terminal([of('a', 1)])).toBe(`  cause: judge call failed (panel: 1 of 3 members): ${CALL_FAILED_HINT}`);
  });

  it("panels of 1 and 2 members cut, in either order: the words of more", () => {
    const cut = 'the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read';
    const of = (label: string, n: number): FixtureRecord =>
      fixture(label, { verdict: 'not_evaluated', detail: `judge gave no usable answer: panel: ${n} of 3 members gave no usable score (2 usable needed): ${Array.from({ length: n }, (_, k) => `m${k}: ${cut}`).join('; ')}` });
    expect(groups([of('a', 1), of('b', 2)], URL_)).toEqual([["the judge's answer was cut at its token limit", PANEL_CUT_HINT, ['a', 'b']]]);
    expect(groups([of('b', 2), of('a', 1)], URL_)).toEqual([["the judge's answer was cut at its token limit", PANEL_CUT_HINT, ['b', 'a']]]);
  });
});

describe('a group whose items\' words share none', () => {
  it("a proxy whose host did not resolve and one not reached otherwise: the group says what both are, each item's line its own", () => {
    const down = (label: string, words: string): FixtureRecord =>
      errored(label, 'network', `message turn: could not reach the proxy http://proxy.corp:3128 (HTTPS_PROXY) after 1 attempt: ${words}; check HTTPS_PROXY, or NO_PROXY for hosts to reach directly`);
    const items = [down('a', 'the host name proxy.corp did not resolve (ENOTFOUND)'), down('b', 'no route to the host 10.0.0.1:3128 (EHOSTUNREACH)')];
    // It said a's "the host of the proxy ... did not resolve" of b too, whose host resolved.
    expect(groups(items, URL_).map(([what, , labels]) => [what, labels])).toEqual([[`could not reach the proxy http://proxy.corp:3128 (HTTPS_PROXY), on the way to ${URL_}`, ['a', 'b']]]);
    resetLines();
    const terminal = renderTerminal(run(items, { agent: { host: 'preview-42.example.com', endpoint: URL_ } }), { color: false });
    expect(terminal).not.toContain('the host of the proxy http://proxy.corp:3128 (HTTPS_PROXY) did not resolve');
    // Each item's line says its own.
    expect(terminal).toContain('the host name proxy.corp did not resolve (ENOTFOUND)');
    expect(terminal).toContain('no route to the host 10.0.0.1:3128 (EHOSTUNREACH)');
  });

  it("an errored item and one not evaluated under one key, whose words share none: the group says both, in either order", () => {
    // An errorKind this version does not know (a results.json of another version), whose key meets a not-evaluated detail's.
    const err = errored('a', 'not_evaluated' as never, '1 broke: x');
    const not = fixture('b', { verdict: 'not_evaluated', detail: '# broke' });
    // It said "errored" when the errored item came first, "not evaluated" when the other did.
    expect(groups([err, not], URL_).map(([what, , labels]) => [what, labels])).toEqual([['errored or not evaluated', ['a', 'b']]]);
    expect(groups([not, err], URL_).map(([what, , labels]) => [what, labels])).toEqual([['errored or not evaluated', ['b', 'a']]]);
    // Of one way alone, as before.
    expect(groups([errored('c', 'not_evaluated' as never, '2 broke: y'), err], URL_)[0]?.[0]).toBe('errored');
  });

  it("an error no cause names, whose items' messages share no word: the group says their kind", () => {
    const own = (label: string, error: string): FixtureRecord => errored(label, 'agent_error', error);
    // Their key leaves the numbers out ("# of # tools failed"), and the group said a's "2 of 3 tools failed" of b too.
    expect(groups([own('a', '2 of 3 tools failed: lookup_order'), own('b', '3 of 3 tools failed: refund')], URL_).map(([what, , labels]) => [what, labels])).toEqual([['agent error', ['a', 'b']]]);
  });
});
