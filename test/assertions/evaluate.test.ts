import { afterAll, describe, expect, it } from 'vitest';
import { createRegexPool, evaluateAssertion, formatPair, quote, type AssertionDeps } from '../../src/assertions/index.js';
import type { Assertion, Judge, JudgeResult } from '../../src/types.js';
import { noTranscripts } from '../support/fakes.js';
import { clipAtClause, clipKeepingFix, firstLineOf, fixStart, reasonLine } from '../../src/assertions/format.js';
import { judgedMeaning } from '../../src/evaluate/meaning/ladder.js';
import { docsUrl } from '../../src/version.js';
import { JUDGE_URL_SETTING } from '../../src/evaluate/causes.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { switchableWatchdog } from '../support/held-timeout.js';
import { load } from '../suite/helpers.js';

// Every pattern given to this pool finishes: a budget no loaded machine runs out (the runaway has its own pool).
const regex = createRegexPool({ size: 2, timeoutMs: 60_000 });
const brokenRegex = createRegexPool({ size: 1, timeoutMs: 100, workerSource: "throw new Error('cannot start')" });
afterAll(async () => {
  await regex.close();
  await brokenRegex.close();
});

function fakeJudge(result: JudgeResult | (() => never)): Judge {
  return {
    name: 'fake judge',
    score: async () => (typeof result === 'function' ? result() : result),
    scoreTranscript: noTranscripts,
    close: async () => undefined,
  };
}

const deps: AssertionDeps = { regex, judge: null };

describe('probe', () => {
  it('passes with nothing to check', async () => {
    expect(await evaluateAssertion(null, 'anything', deps)).toEqual({ verdict: 'pass', detail: 'probe: nothing to check' });
  });
});

describe('contains', () => {
  it('passes on a literal, case-sensitive match', async () => {
    const a: Assertion = { kind: 'contains', value: '30 days' };
    expect(await evaluateAssertion(a, 'Refunds within 30 days.', deps)).toEqual({ verdict: 'pass', detail: 'reply contains "30 days"' });
    expect(await evaluateAssertion(a, 'Refunds within 30 Days.', deps)).toEqual({ verdict: 'fail', detail: 'reply does not contain "30 days"' });
  });

  it('a value that looks as the reply does but writes an accented letter otherwise (NFC, NFD) still fails, said why, with the value as the reply writes it', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    // The check saved by a macOS editor (NFD), the reply NFC.
    const fromMac = await evaluateAssertion({ kind: 'contains', value: nfd }, `Our ${nfc} opens at 9.`, deps);
    expect(fromMac).toEqual({
      verdict: 'fail',
      detail: `reply does not contain "${nfd}" as written: its accented letter is a letter plus a combining accent (Unicode NFD, as some macOS editors save text), the reply's one character (NFC); write it as the reply does: contains: "caf\\u00E9"`,
    });
    quotedAndSaid(fromMac.detail, "reply does not contain \"<value>\" as written: its accented letter is a letter plus a combining accent (Unicode NFD, ...), the reply's one character (NFC)", { '<value>': nfd });
    // The reply NFD, the check NFC.
    const fromAgent = await evaluateAssertion({ kind: 'contains', value: nfc }, `Our ${nfd} opens at 9.`, deps);
    expect(fromAgent.detail).toBe(
      `reply does not contain "${nfc}" as written: the reply's accented letter is a letter plus a combining accent (Unicode NFD), the check's one character (NFC); write it as the reply does: contains: "cafe\\u0301"`,
    );
    // The value the fix writes, read by the loader, is the reply's: the check then passes.
    const loaded = await load({ '.agent-replay/fixtures/a.yml': 'label: a\nmessage: hi\nassert:\n  contains: "cafe\\u0301"\n' });
    const value = (loaded.suite?.fixtures[0]?.assertion as { value: string }).value;
    expect(value).toBe(nfd);
    expect((await evaluateAssertion({ kind: 'contains', value }, `Our ${nfd} opens at 9.`, deps)).verdict).toBe('pass');
    // Another text: no such words.
    expect((await evaluateAssertion({ kind: 'contains', value: nfc }, 'Our tea room opens at 9.', deps)).detail).toBe(`reply does not contain "${nfc}"`);
  });

  it('quotes long and multi-line values on one bounded line', async () => {
    const value = `line one\n${'x'.repeat(200)}`;
    const out = await evaluateAssertion({ kind: 'contains', value }, 'nope', deps);
    expect(out.verdict).toBe('fail');
    expect(out.detail).not.toContain('\n');
    expect(out.detail.length).toBeLessThan(120);
    expect(quote('a\nb')).toBe('"a\\nb"');
  });
});

describe('regex', () => {
  it('passes, fails, and says what matched', async () => {
    const a: Assertion = { kind: 'regex', pattern: '30 days', flags: 'i' };
    expect(await evaluateAssertion(a, 'Within 30 Days of purchase.', deps)).toEqual({ verdict: 'pass', detail: '/30 days/i matched "30 Days"' });
    expect(await evaluateAssertion(a, 'Within a month.', deps)).toEqual({ verdict: 'fail', detail: '/30 days/i did not match' });
  });

  it('a pattern that looks as the reply does but writes an accented letter otherwise (NFC, NFD) still fails, said why in the words contains uses, with the pattern as the reply writes it', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    // The pattern saved by a macOS editor (NFD), the reply NFC.
    const fromMac = await evaluateAssertion({ kind: 'regex', pattern: `\\b${nfd} OPENS`, flags: 'i' }, `Our ${nfc} opens at 9.`, deps);
    expect(fromMac).toEqual({
      verdict: 'fail',
      detail: `/\\b${nfd} OPENS/i did not match as written: its accented letter is a letter plus a combining accent (Unicode NFD, as some macOS editors save text), the reply's one character (NFC); write it as the reply does: regex: "\\\\bcaf\\u00E9 OPENS"`,
    });
    quotedAndSaid(fromMac.detail, '/<pattern>/<flags> did not match as written: ...', { '<pattern>': `\\b${nfd} OPENS`, '<flags>': 'i' });
    // The words contains says for the same two texts.
    const why = (detail: string) => detail.split(' as written: ')[1]?.split('; write it')[0];
    expect(why(fromMac.detail)).toBe(why((await evaluateAssertion({ kind: 'contains', value: nfd }, `Our ${nfc} opens at 9.`, deps)).detail));
    // The reply NFD, the pattern NFC.
    const fromAgent = await evaluateAssertion({ kind: 'regex', pattern: `${nfc} opens`, flags: '' }, `Our ${nfd} opens at 9.`, deps);
    expect(fromAgent.detail).toBe(
      `/${nfc} opens/ did not match as written: the reply's accented letter is a letter plus a combining accent (Unicode NFD), the check's one character (NFC); write it as the reply does: regex: "cafe\\u0301 opens"`,
    );
    // The pattern the fix writes, read by the loader, is the reply's: the check then passes.
    const loaded = await load({ '.agent-replay/fixtures/a.yml': 'label: a\nmessage: hi\nassert:\n  regex: "\\\\bcaf\\u00E9 OPENS"\n  flags: i\n' });
    const assertion = loaded.suite?.fixtures[0]?.assertion as Assertion;
    expect(assertion).toEqual({ kind: 'regex', pattern: `\\b${nfc} OPENS`, flags: 'i' });
    expect((await evaluateAssertion(assertion, `Our ${nfc} opens at 9.`, deps)).verdict).toBe('pass');
    // Another text, or a pattern in ASCII: no such words.
    expect((await evaluateAssertion({ kind: 'regex', pattern: nfc, flags: '' }, 'Our tea room opens at 9.', deps)).detail).toBe(`/${nfc}/ did not match`);
    expect((await evaluateAssertion({ kind: 'regex', pattern: 'caf\\u00e9', flags: '' }, `Our ${nfd} opens at 9.`, deps)).detail).toBe('/caf\\u00e9/ did not match');
  });

  it('is not evaluated when the pattern does not compile', async () => {
    const out = await evaluateAssertion({ kind: 'regex', pattern: '(30 days', flags: '' }, '30 days', deps);
    expect(out.verdict).toBe('not_evaluated');
    expect(out.detail).toMatch(/^pattern does not compile: Invalid regular expression: .*Unterminated group/);
    quotedAndSaid(out.detail, 'pattern does not compile: <reason>');
  });

  it('is not evaluated when the pattern runs over its budget, and the pool keeps working', async () => {
    // The short budget only for the runaway, which never finishes; then the watchdog is held, so the
    // pattern that finishes is ended by its answer only.
    const watchdog = switchableWatchdog();
    const short = createRegexPool({ size: 1, timeoutMs: 100, watchdog: watchdog.timer });
    try {
      const out = await evaluateAssertion({ kind: 'regex', pattern: '^(a+)+$', flags: '' }, `${'a'.repeat(40)}!`, { regex: short, judge: null });
      expect(out).toEqual({ verdict: 'not_evaluated', detail: 'regex did not finish within its 100 ms budget' });
      quotedAndSaid(out.detail, 'regex did not finish within its <ms> ms budget');
      watchdog.hold();
      const after = await evaluateAssertion({ kind: 'regex', pattern: 'days', flags: '' }, '30 days', { regex: short, judge: null });
      expect(after).toEqual({ verdict: 'pass', detail: '/days/ matched "days"' });
    } finally {
      await short.close();
    }
  });

  it('is not evaluated when the worker fails to start', async () => {
    const out = await evaluateAssertion({ kind: 'regex', pattern: 'a', flags: '' }, 'a', { regex: brokenRegex, judge: null });
    expect(out).toEqual({ verdict: 'not_evaluated', detail: 'regex worker failed: worker did not start: cannot start' });
    quotedAndSaid(out.detail, 'regex worker failed: <reason>');
    quotedAndSaid(out.detail, 'worker did not start: <reason>');
  });

  it('is not evaluated when the evaluator itself throws', async () => {
    const throwing = { test: () => Promise.reject(new Error('kaput')), close: async () => undefined };
    const out = await evaluateAssertion({ kind: 'regex', pattern: 'a', flags: '' }, 'a', { regex: throwing, judge: null });
    expect(out).toEqual({ verdict: 'not_evaluated', detail: 'regex worker failed: kaput' });
  });

  it("says a budget of 1,000 ms or more grouped, as every count (src/words.ts): regex.timeoutMs of 2500 is '2,500 ms'", async () => {
    const slow = { test: () => Promise.resolve({ kind: 'timeout' as const, budgetMs: 2500 }), close: async () => undefined };
    const out = await evaluateAssertion({ kind: 'regex', pattern: '^(a+)+$', flags: '' }, 'a', { regex: slow, judge: null });
    expect(out).toEqual({ verdict: 'not_evaluated', detail: 'regex did not finish within its 2,500 ms budget' });
  });
});

describe('judge', () => {
  const a: Assertion = { kind: 'judge', criterion: 'Refuses politely.', threshold: 0.7 };

  it('is not evaluated when no judge is configured', async () => {
    expect(await evaluateAssertion(a, 'reply', deps)).toEqual({
      verdict: 'not_evaluated',
      detail: 'no judge configured (add a judge section to config.yml)',
      score: null,
      threshold: 0.7,
      rationale: null,
    });
  });

  it('passes at or above the threshold and fails below it, keeping score and rationale', async () => {
    const pass = await evaluateAssertion(a, 'r', { regex, judge: fakeJudge({ ok: true, score: 0.82, rationale: 'polite refusal' }) });
    expect(pass).toEqual({ verdict: 'pass', detail: 'score 0.82 >= threshold 0.70: polite refusal', score: 0.82, threshold: 0.7, rationale: 'polite refusal' });
    const fail = await evaluateAssertion(a, 'r', { regex, judge: fakeJudge({ ok: true, score: 0.4, rationale: 'rude' }) });
    expect(fail).toEqual({ verdict: 'fail', detail: 'score 0.40 < threshold 0.70: rude', score: 0.4, threshold: 0.7, rationale: 'rude' });
  });

  it('passes when the score equals the threshold', async () => {
    const out = await evaluateAssertion(a, 'r', { regex, judge: fakeJudge({ ok: true, score: 0.7, rationale: 'just enough' }) });
    expect(out.verdict).toBe('pass');
    expect(out.detail).toBe('score 0.70 >= threshold 0.70: just enough');
  });

  it('never prints a comparison that looks false', async () => {
    const out = await evaluateAssertion(a, 'r', { regex, judge: fakeJudge({ ok: true, score: 0.6999, rationale: 'close' }) });
    expect(out.verdict).toBe('fail');
    expect(out.detail).toBe('score 0.6999 < threshold 0.7000: close');
    expect(formatPair(1, 0.7)).toEqual(['1.00', '0.70']);
  });

  it('is not evaluated when the judge gives no usable answer or throws', async () => {
    const out = await evaluateAssertion(a, 'r', { regex, judge: fakeJudge({ ok: false, reason: 'HTTP 503 after 3 attempts' }) });
    expect(out).toEqual({ verdict: 'not_evaluated', detail: 'judge unreachable: HTTP 503 after 3 attempts', score: null, threshold: 0.7, rationale: null });
    const thrown = await evaluateAssertion(a, 'r', {
      regex,
      judge: fakeJudge(() => {
        throw new Error('socket hang up');
      }),
    });
    expect(thrown.verdict).toBe('not_evaluated');
    expect(thrown.detail).toBe('judge unreachable: socket hang up');
  });
});

// Seed 000, "An example": fixture refund-policy, regex 30 days, baseline pass. The drift column
// belongs to evaluate/; here, the verdict each replay produces.
describe('seed 000: refund-policy with regex "30 days"', () => {
  const assertion: Assertion = { kind: 'regex', pattern: '30 days', flags: '' };
  const rows = [
    { replay: 'reply mentions 30 days, worded differently', reply: 'You have 30 days from delivery to ask for a refund.', evaluator: () => regex, verdict: 'pass' },
    { replay: 'reply no longer mentions 30 days', reply: 'Refunds are handled case by case; contact support.', evaluator: () => regex, verdict: 'fail' },
    { replay: 'the regex worker failed to start', reply: 'You can return items within 30 days.', evaluator: () => brokenRegex, verdict: 'not_evaluated' },
  ] as const;
  it.each(rows)('$replay -> $verdict', async ({ reply, evaluator, verdict }) => {
    const out = await evaluateAssertion(assertion, reply, { regex: evaluator(), judge: null });
    expect(out.verdict).toBe(verdict);
    expect(out.detail.length).toBeGreaterThan(0);
  });
});

describe("a client's reason in an item's detail (reasonLine)", () => {
  const what = `the proxy https://proxy.corp:3128 (HTTPS_PROXY) answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)`;
  it('whole when it fits; over the bound, what happened without its fix (the cause line says it), never a fix cut mid-sentence', () => {
    expect(reasonLine('HTTP 503 after 3 attempts: overloaded')).toBe('HTTP 503 after 3 attempts: overloaded');
    expect(reasonLine(`${what}; check whether the proxy asks for a client certificate (agent-replay presents none), which TLS versions it accepts`)).toBe(what);
  });
  it("a server's own \"; see\" or \"; check\" (its message after its status, a model's output in quotes) is not taken for our fix: the reason is clipped at a word, with its mark", () => {
    // The judge's reason quotes the server's message after its status (src/judge/http.ts): kept as far as the bound, never cut silently at its "; see".
    const server = `HTTP 500 after 3 attempts: bad input; see logs at the dashboard for request ${'abcdef '.repeat(30).trim()}`;
    const clipped = reasonLine(server);
    expect(clipped).toMatch(/^HTTP 500 after 3 attempts: bad input; see logs at the dashboard for request (?:abcdef )+abcdef\u2026$/);
    expect(fixStart(server)).toBe(-1);
    // A model's output, quoted: its "; check" is the model's.
    const output = `no usable score in output: "I cannot score this; check the rubric first, ${'then more words '.repeat(15).trim()}"`;
    expect(fixStart(output)).toBe(-1);
    expect(reasonLine(output)).toMatch(/^no usable score in output: "I cannot score this; check the rubric first, .*\u2026$/);
    // Our own fix after a quoted text is still found.
    const ours = `response is encoded as "x; see y" (its Content-Encoding); check ${JUDGE_URL_SETTING}`;
    expect(ours.slice(fixStart(ours))).toBe(`; check ${JUDGE_URL_SETTING}`);
  });
  // fixStart read neither parenthesis: a "; " inside ours hid where the server's text begins, and a
  // "; see" inside one was taken for the fix, the line then cut with the parenthesis left open.
  it('a parenthesis is read as one: its "; " neither hides the server\'s text after it nor starts the fix', () => {
    // The judge's words for a retry still waiting for a slot at its deadline (src/http/retry.ts): the
    // server's "; see" was our fix, and the detail read "...cover the wait): overloaded", the rest dropped.
    const slot = `HTTP 503 after 1 attempt (the next attempt waited 29,000 ms for a free slot (at most 4 requests in flight, all taken) until the time budget of 30,000 ms, timeoutMs x attempts, was spent; given up unsent: raise timeoutMs or retries to cover the wait): overloaded; see https://status.example.com`;
    expect(fixStart(slot)).toBe(-1);
    expect(reasonLine(slot)).toMatch(/\u2026$/);
    // Our fix after a parenthesis that holds a "; see" of its own is the one found, never one inside it.
    const what = `the agent at 127.0.0.1:3000 gave an answer that is not HTTP (e.g. a TLS port spoken to in plain HTTP; see its first bytes) ${'and more words '.repeat(3).trim()}`;
    const fix = 'check that agent.url names the port the agent serves HTTP on';
    expect(fixStart(`${what}; ${fix}`)).toBe(what.length);
    expect(reasonLine(`${what}; ${fix}`)).toBe(what);
  });
  it('a reason with no fix (a panel\'s members) or a long what: clipped at a word boundary', () => {
    const members = `panel: 2 of 3 members gave no usable score: openai m1: no usable score in output: "${'word '.repeat(10)}"; openai m2: no usable score in output: "${'more '.repeat(20)}"`;
    const clipped = reasonLine(members);
    expect(clipped.length).toBeLessThanOrEqual(201);
    // A quoted text (the model's output) is cut at a word, not where the clause before it ends: what it said is kept as far as it fits.
    expect(clipped).toMatch(/; openai m2: no usable score in output: "(?:more )*more…$/);
  });
  // The judge's words for a timeout whose retry's Retry-After passed the budget (src/judge/http.ts):
  // the word cut left the aside open, "...given up after 2 attempts (the…".
  it('a cut that would fall inside a parenthesis opened past half of the bound is made where its clause ends, before it, as the cause line cuts', () => {
    const why = "(the server's Retry-After asks for 60,000 ms, more than the 59,000 ms left of the time budget of 90,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait)";
    const what = 'no answer from the judge within 30,000 ms through the proxy http://proxy:3128 (HTTPS_PROXY): the tunnel to api.openai.com opened, and no answer came through it, given up after 2 attempts';
    expect(reasonLine(`${what} ${why}`)).toBe(`${what}\u2026`);
    expect(reasonLine(`${what} ${why}`)).toBe(clipAtClause(`${what} ${why}`, 200));
    // One opened before half of the bound is cut at a word still: a clause cut would keep too little.
    const early = `no answer from the judge within 30,000 ms, given up after 2 attempts ${why}`;
    expect(reasonLine(early)).toBe(`no answer from the judge within 30,000 ms, given up after 2 attempts (the server's Retry-After asks for 60,000 ms, more than the 59,000 ms left of the time budget of 90,000 ms, timeoutMs x attempts;\u2026`);
  });
});

describe("a cause's words over their bound cut where a clause ends (clipAtClause), never in a word", () => {
  const key = 'the request was not sent: the judge key (judge.apiKey) holds a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)';
  it('whole when they fit; over the bound, up to the last clause that ends within it, with the mark', () => {
    expect(clipAtClause(key, key.length)).toBe(key);
    // A cut at 120 read "...outside Latin-1, which no HTTP…".
    expect(clipAtClause(key, 120)).toBe('the request was not sent: the judge key (judge.apiKey) holds a line break or a character outside Latin-1\u2026');
    for (let max = 100; max <= key.length - 1; max++) expect(clipAtClause(key, max).length).toBeLessThanOrEqual(max);
  });
  it('never inside a parenthesis or a quoted text: a clause there is not one of the whole', () => {
    const text = `the agent at 127.0.0.1:3000 gave an answer that is not HTTP (it wrote "a; b, c: d, e, f, g, h, i" and then, ${'more words '.repeat(6).trim()}) and closed`;
    expect(clipAtClause(text, 100)).toBe('the agent at 127.0.0.1:3000 gave an answer that is not HTTP\u2026');
  });
  it('at a word when no clause ends past half of the bound', () => {
    const text = `judge call failed: ${'the model x '.repeat(20).trim()}`;
    expect(clipAtClause(text, 100)).toMatch(/^judge call failed: (?:the model x )+the(?: model)?\u2026$/);
    expect(clipAtClause(text, 100).length).toBeLessThanOrEqual(100);
  });
});

describe("a detail's fix kept whole, what happened clipped (clipKeepingFix: the terminal's detail and a meaning judge's reason)", () => {
  const fix = 'check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts';
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  const unchecked = (reason: string): string | null => judgedMeaning({ ok: false, reason, reused: false }, 0.8).detail;

  it('never splits a surrogate pair at the cut, and counts the ellipsis in the bound', () => {
    for (let max = 195; max <= 205; max++) {
      const text = `no usable score in output: "x${'\u{1F642}'.repeat(120)}"; ${fix}`;
      const out = clipKeepingFix(text, max, { flat: true });
      // The quoted output is cut in its middle, its closing quote kept (middleCut): no quote left open before the fix.
      expect(out.endsWith(`\u2026"; ${fix}`)).toBe(true);
      expect(lone.test(out)).toBe(false);
      expect(out.length - fix.length - 2).toBeLessThanOrEqual(max);
    }
    const detail = unchecked(`meaning judge unreachable: "x${'\u{1F642}'.repeat(120)}"; ${fix}`) ?? '';
    expect(lone.test(detail)).toBe(false);
  });

  it('keeps a cited address whole, not counted in the bound, and the fix at the end whole after it', () => {
    const url = docsUrl('troubleshooting.md', 'Not evaluated');
    const what = `meaning judge unreachable: ${'bad request '.repeat(13).trim()} (${url})`;
    expect(what.indexOf(url)).toBeLessThan(200);
    expect(what.length).toBeGreaterThan(200);
    // The address is not counted: what happened fits, and nothing is cut.
    expect(unchecked(`${what};  ${fix}`)).toBe(`${what}; ${fix}`);
    // Past the bound even without the address: the address kept whole, the cut at a word after it.
    const longer = unchecked(`${what} and ${'more '.repeat(20).trim()}; ${fix}`) ?? '';
    expect(longer).toMatch(/^meaning judge unreachable: (?:bad request ){12}bad request \(https:\/\/\S+\) and (?:more )*more\u2026; check whether /);
    expect(longer).toContain(`(${url}) and more`);
    expect(longer.length - url.length - fix.length - 2).toBeLessThanOrEqual(200);
    expect(longer.endsWith(`; ${fix}`)).toBe(true);
  });

  it('cuts at a word (mid-word only with no space past half); as given on the terminal, one line when flat', () => {
    const what = `the agent failed: ${'handshake failure '.repeat(20).trim()}`;
    expect(clipKeepingFix(`${what}; ${fix}`, 60)).toBe(`the agent failed: handshake failure handshake failure\u2026; ${fix}`);
    expect(clipKeepingFix(`${'x'.repeat(70)} y`, 60)).toBe(`${'x'.repeat(59)}\u2026`);
    // The terminal shows a newline as it is (terminalLine's ⏎) and a quoted value's spaces as written; a flat line has neither.
    expect(clipKeepingFix('expected "a  b"\nsaw none', 60)).toBe('expected "a  b"\nsaw none');
    expect(clipKeepingFix('expected "a  b"\nsaw none', 60, { flat: true })).toBe('expected "a b" saw none');
  });
});

describe("a text's first line, cut at its line break (firstLineOf): what it left open closed (docs/traces.md, \"Errors\")", () => {
  it('closes each bracket and quote, innermost first; a bracket inside a quote is quoted text, so a cut in the quote closes the quote alone', () => {
    expect(firstLineOf('failed (code: 500\n details)')).toBe('failed (code: 500\u2026)');
    expect(firstLineOf('failed (body: {"error": "upstream\ngone"})')).toBe('failed (body: {"error": "upstream\u2026"})');
    expect(firstLineOf('reply does not contain "refund (within\n 30 days)"')).toBe('reply does not contain "refund (within\u2026"');
    expect(firstLineOf('expected "a \\" (b"\nmore')).toBe('expected "a \\" (b"');
    expect(firstLineOf('one line (whole)')).toBe('one line (whole)');
  });
});
