// calibrate's fix lines and a run's cause come from one derivation (src/evaluate/causes.ts,
// judgeFixes): for every way a judge, or a panel's members, gave no usable score, the fixes
// calibrate prints under "No usable score" are the run's cause's hint, part for part. Real
// clients against one loopback judge server that answers per model.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCalibrationMarkdown, renderCalibrationText } from '../../src/calibrate/render.js';
import { summarizeCalibration } from '../../src/calibrate/summary.js';
import type { CalibrationTarget } from '../../src/calibrate/plan.js';
import { judgeOutcome } from '../../src/assertions/judge.js';
import { causeOf } from '../../src/evaluate/index.js';
import { judgeFixes, memberReasons, PANEL_CUT_HINT, panelCutHint } from '../../src/evaluate/causes.js';
import { createJudge, createPanelJudge } from '../../src/judge/index.js';
import { escapeInline } from '../../src/report/escape.js';
import { cliWords } from '../../src/report/terminal.js';
import type { Judge, JudgeResult } from '../../src/types.js';
import { hangUp, silence, startServer, type TestServer } from '../judge/server.js';
import { heldTimeout } from '../support/held-timeout.js';
import { tlsFront } from '../support/proxy-server.js';
import { calibrationOf } from './calibration.js';

/** How each model answers: an HTTP 401, nothing (a timeout), prose, an answer cut at its limit, a refusal, an HTTP 200 carrying an error, an HTML page, a score. */
const answers: Record<string, { status: number; body: unknown } | null> = {
  refuses: { status: 401, body: { error: { message: 'invalid api key' } } },
  slow: null,
  prose: { status: 200, body: { choices: [{ message: { role: 'assistant', content: 'I would rather not give a number.' } }] } },
  cut: { status: 200, body: { choices: [{ message: { role: 'assistant', content: '{"rationale": "Polite, and' }, finish_reason: 'length' }] } },
  declines: { status: 200, body: { choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot grade this.' } }] } },
  error200: { status: 200, body: { error: { message: 'Overloaded' } } },
  html: { status: 200, body: '<html><body>Sign in</body></html>' },
  upstream: { status: 500, body: { error: { message: 'upstream: response is not JSON' } } },
  wordy: { status: 500, body: { error: { message: 'upstream: judge call failed: no usable score in output: unexpected response: no content: an error in the HTTP 200 answer: "x": the answer was cut at the model\'s token limit (y)' } } },
  proxied: { status: 500, body: { error: { message: 'gw: the proxy refused the tunnel (CONNECT): HTTP 403' } } },
  echoes: { status: 500, body: { error: { message: 'gw: HTTP 429: no connection to the judge opened within 5 ms' } } },
  // A server's answer unquoted, with "; <word>: " in it (src/judge/http.ts writes `HTTP 500: <its message>`).
  semicolon: { status: 500, body: { error: { message: 'upstream; note: retry later' } } },
  semiscore: { status: 500, body: { error: { message: 'upstream; note: no usable score in output' } } },
  failing: { status: 500, body: { error: { message: 'internal error' } } },
  scores: { status: 200, body: { choices: [{ message: { role: 'assistant', content: '{"rationale": "meets it", "score": 0.9}' } }] } },
};

let server: TestServer;
/** TLS with the test certificate (self-signed, not trusted here) in front of the judge server: Node refuses it. */
let tls: Awaited<ReturnType<typeof tlsFront>>;
beforeAll(async () => {
  server = await startServer([
    (res, req) => {
      const model = (req.body as { model: string }).model;
      // Closes the connection without an answer: "the connection to ... was closed without an answer (UND_ERR_SOCKET)".
      if (model === 'hangs') return hangUp(res, req);
      const a = answers[model];
      // A slow client's deadline passes once this server holds its request (slowDeadlines).
      if (a === null) slowDeadlines.get(String(req.headers.authorization))?.();
      if (a === null || a === undefined) return silence(res, req);
      res.writeHead(a.status, { 'content-type': typeof a.body === 'string' ? 'text/html' : 'application/json' });
      res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
    },
  ]);
  tls = await tlsFront(Number(new URL(server.url).port));
});
afterAll(async () => {
  await tls.close();
  await server.close();
});

/**
 * Each slow client's 250 ms deadline, by its key's header: fired by the server once it holds that
 * client's request, never a real 250 ms timer, which a loaded machine (load 13 on 2 cores) let pass
 * before the connection opened: "no connection to the judge opened within 250 ms", whose fix is
 * not a lone slow judge's ("panel: a timeout and cut: every member's own fix" failed so).
 */
const slowDeadlines = new Map<string, () => void>();

/** A model's client; "<model> as <label>" gives it a label of its own. */
function client(name: string): Judge {
  const [model = name, label = null] = name.split(' as ');
  const baseUrl = model === 'untrusted' ? `https://127.0.0.1:${tls.port}/v1` : server.url;
  const deadline = model === 'slow' ? heldTimeout() : null;
  // A key pasted with a line break, which no HTTP header can carry: the request is not sent. A slow client's key is its own (slowDeadlines).
  const apiKey = model === 'badkey' ? 'sk-k\nsk-k' : deadline === null ? 'sk-k' : `sk-slow-${slowDeadlines.size}`;
  if (deadline !== null) slowDeadlines.set(`Bearer ${apiKey}`, deadline.fire);
  // The members that answer have a deadline no loaded machine reaches.
  const config = { provider: 'openai' as const, baseUrl, model, apiKey, timeoutMs: deadline === null ? 60_000 : 250, retries: 0, backoffMs: 0, concurrency: 2, label };
  return createJudge(config, deadline === null ? {} : { timer: deadline.timer });
}

/** A member whose request agent-replay could not make (it throws: src/judge/panel.ts counts it "judge call failed"). */
const unbuildable: Judge = {
  name: 'unbuildable',
  score: () => Promise.reject(new Error('no boundary could be drawn')),
  scoreTranscript: () => Promise.reject(new Error('no boundary could be drawn')),
  close: () => Promise.resolve(),
};

/** One judge (a model's name), or a panel of them. */
const shapes: Record<string, (string | Judge)[]> = {
  'unreachable (HTTP 401)': ['refuses'],
  'unreachable (a timeout)': ['slow'],
  'no score (prose)': ['prose'],
  'cut at the token limit': ['cut'],
  declined: ['declines'],
  'HTTP 200 with an error': ['error200'],
  'an answer not read (HTML)': ['html'],
  'panel: unreachable and no score': ['refuses', 'prose', 'scores'],
  'panel: a timeout and cut': ['slow', 'cut', 'scores'],
  'panel: no score and cut': ['prose', 'cut', 'scores'],
  'panel: all declined': ['declines', 'declines', 'scores'],
  'panel: all cut': ['cut', 'cut', 'scores'],
  'panel: no score and a request not made': ['prose', unbuildable, 'scores'],
  'panel: unreachable and a request not made': ['refuses', unbuildable, 'scores'],
  'panel of 5: unreachable, no score and cut': ['refuses', 'prose', 'cut', 'scores', 'scores'],
  'panel: HTTP 200 with an error and unreachable': ['error200', 'refuses', 'scores'],
  'panel: a timeout and HTTP 200 with an error': ['slow', 'error200', 'scores'],
  'panel: HTTP 200 with an error and no score': ['error200', 'prose', 'scores'],
  'panel: all HTTP 200 with an error': ['error200', 'error200', 'scores'],
  'panel: an answer not read and no score': ['html', 'prose', 'scores'],
  'panel: an answer not read and unreachable': ['html', 'refuses', 'scores'],
  'panel: an answer not read, HTTP 200 with an error and cut': ['html', 'error200', 'cut'],
  'panel: a timeout and a refused key': ['slow', 'refuses', 'scores'],
  // A member labelled with the words of an answer not read, and a server's error that says them: neither is a member whose answer could not be read.
  'panel: a hostile label and a hostile body': ['refuses as gw: response is not JSON', 'upstream', 'scores'],
  'panel: an answer not read under a hostile label': ['html as gw; response is not JSON', 'refuses', 'scores'],
  // A label and a server's error that say the words of the other kinds: a request not made, no score, an HTTP 200 with an error, cut.
  'panel: hostile words of every other kind': ['refuses as gw: no usable score in output', 'wordy', 'scores'],
  // A label and a server's error that say a status and a deadline: no member not reached that way.
  'panel: hostile words of members not reached': ['slow as gw: HTTP 404', 'echoes', 'scores'],
  // A label and a server's error that quote a proxy's refusal: no member refused by a proxy.
  'panel: hostile words of a proxy': ['refuses as the proxy refused the tunnel (CONNECT): HTTP 403', 'proxied', 'scores'],
  // A server's answer whose "; note: " reads as a member's label: no third member, first or last.
  'panel: a server answer with "; note: " first': ['semicolon', 'slow', 'scores'],
  'panel: a server answer with "; note: " last': ['slow', 'semicolon', 'scores'],
  'panel: a server answer that says a kind after "; note: "': ['semiscore', 'refuses', 'scores'],
  // Every member not reached, each with its server's answer: the one after "; note: " no more than the others.
  'panel: a server answer with "; note: ", a 5xx and a refused key': ['semicolon', 'failing', 'refuses'],
  'panel: cut, then two timeouts': ['cut', 'slow as gw-east', 'slow as gw-west'],
  'unreachable (its TLS certificate refused)': ['untrusted'],
  'unreachable (a connection closed)': ['hangs'],
  'unreachable (its key not sent)': ['badkey'],
  // A member whose key could not be sent, or whose connection was closed, after one refused or slow: each its own fix.
  'panel: a refused key and a key not sent': ['refuses', 'badkey', 'scores'],
  'panel: a timeout and a key not sent': ['slow', 'badkey', 'scores'],
  'panel: a timeout and a connection closed': ['slow', 'hangs', 'scores'],
  // The first member not reached says no status nor deadline, the next a deadline: each its own fix, the cause's words the first's.
  'panel: a connection closed, then a timeout': ['hangs', 'slow', 'scores'],
  'panel: TLS certificates refused': ['untrusted', 'untrusted', 'scores'],
  'panel: a TLS certificate refused and a refused key': ['untrusted', 'refuses', 'scores'],
};

/** The single judge's shape of each model whose fix is the same in a panel (a cut member's is the panel's own: PANEL_CUT_HINT). */
const alone: Record<string, string> = { badkey: 'unreachable (its key not sent)', hangs: 'unreachable (a connection closed)', untrusted: 'unreachable (its TLS certificate refused)', refuses: 'unreachable (HTTP 401)', slow: 'unreachable (a timeout)', prose: 'no score (prose)', declines: 'declined', error200: 'HTTP 200 with an error', html: 'an answer not read (HTML)' };

async function answerOf(shape: (string | Judge)[]): Promise<JudgeResult> {
  const members = shape.map((m) => (typeof m === 'string' ? client(m) : m));
  const judge = members.length === 1 ? (members[0] as Judge) : createPanelJudge(members);
  try {
    return await judge.score('The reply is polite', 'the reply');
  } finally {
    await judge.close();
  }
}

/** The run's cause's fixes: its hint, split where it adds those of a panel's members that failed another way. */
function runFixes(answer: JudgeResult): string[] {
  const detail = judgeOutcome(answer, 0.7).detail;
  const hint = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null)?.hint;
  expect(hint, detail).toBeTypeOf('string');
  return (hint as string).split(/; for the \d+ (?:that answered without a usable score|cut at the token limit|whose judge call failed|that answered HTTP 200 with an error|whose answer could not be read|not reached \([^)]*\)): /);
}

/**
 * A panel's members' fix in a single judge's words: each setting the judge's alone (`judge.model`,
 * not "that member's model (judge.panel, else judge.model)"), said of one; to compare a member's
 * fix with the same failure's of a single judge.
 */
function asSingle(fix: string): string {
  return fix
    .replace('the judges refused the requests', 'the judge refused the request')
    .replace("the judges' endpoints failed: see their statuses or logs", "the judge's endpoint failed: see its status or log")
    .replace('the keys or tokens their endpoints expect', 'the key or token its endpoint expects')
    .replace('that they may use', 'that it may use')
    .replace(/(?:that member's|those members') apiKeys? \(judge\.panel, else judge\.apiKey; /g, 'the judge key (')
    .replace(/(?:that member's|those members') apiKeys? \(judge\.panel, else judge\.apiKey\) again/g, 'the judge key (judge.apiKey) again')
    .replace(/(?:that member's|those members') apiKeys? \(judge\.panel, else judge\.apiKey\)/g, 'the judge key')
    .replace(/(?:that member's|those members') \w+ \(judge\.panel, else (judge-base-url \(judge\.baseUrl\)|judge\.\w+)\)/g, '$1')
    .replace(/the baseUrl of (?:that member|those members) \(judge\.panel, else (judge-base-url \(judge\.baseUrl\))\)/g, '$1')
    .replace('use judge models that follow the prompt (judge.panel, else judge.model), or endpoints', 'use a judge model that follows the prompt, or an endpoint')
    .replace('follows the prompt (judge.panel, else judge.model),', 'follows the prompt,')
    .replace('could not make the requests,', 'could not make the request,')
    .replace("at their CAs' certificates (one PEM file holds them all)", "at that CA's certificate (a PEM file)")
    .replace('use host names the certificates name in the URLs', 'use a host name the certificate names in the URL')
    .replace('at their endpoints; an upstream', 'at the endpoint; an upstream');
}

/** A setting of the judge's named bare in a fix, not as a panel member's own's fallback ("(judge.panel, else judge.model)"). */
function bareSettings(fix: string): string[] {
  return fix.replace(/\(judge\.panel, else (?:judge-base-url \(judge\.baseUrl\)|judge\.\w+)[;)]/g, '').match(/judge\.(?:model|apiKey|baseUrl|timeoutMs|concurrency|retries)\b/g) ?? [];
}

function target(label: string): CalibrationTarget {
  return { criterion: 'The reply is polite', threshold: 0.7, kind: 'fixture', label, file: 'f.yml', line: 1, baselineFile: `.agent-replay/baselines/${label}.json`, accepted: 'pass', acceptedFrom: 'baseline_verdict', material: { kind: 'reply', reply: label } };
}

/** The fixes calibrate prints, on the terminal and in markdown (there escaped). */
function calibrateFixes(answers: readonly JudgeResult[]): string[] {
  const figures = summarizeCalibration({ targets: answers.map((_, k) => target(`b${k}`)), skipped: [], withoutBaseline: [] }, answers.map((a) => [a]), null);
  const c = calibrationOf(figures, answers.length, null);
  const text = renderCalibrationText(c).split('\n').flatMap((l) => (l.startsWith('  fix: ') ? [l.slice('  fix: '.length)] : []));
  const md = renderCalibrationMarkdown(c).split('\n').flatMap((l) => (l.startsWith('Fix: ') ? [l.slice('Fix: '.length)] : []));
  expect(md).toEqual(text.map(escapeInline));
  return text;
}

describe("calibrate's fixes are the run's cause's, for every way a judge gives no usable score", () => {
  const got = new Map<string, JudgeResult>();
  beforeAll(async () => {
    for (const [name, shape] of Object.entries(shapes)) got.set(name, await answerOf(shape));
  });

  it.each(Object.keys(shapes))('%s', (name) => {
    const answer = got.get(name) as JudgeResult;
    expect(answer.ok).toBe(false);
    const run = runFixes(answer);
    // Each fix once, the model's first: the same fixes as the run's hint gives, in the CLI's words
    // as a run's terminal says them (--judge-url, not the Action's judge-base-url input).
    expect([...calibrateFixes([answer])].sort()).toEqual([...new Set(run.map(cliWords))].sort());
    expect(calibrateFixes([answer])).toHaveLength(run.length);
    expect(calibrateFixes([answer]).join('\n')).not.toContain('judge-base-url');
  });

  // Each member's own fix, whatever the others did: one's HTTP 200 with an error, or an answer not
  // read, never takes the place of the others' (src/judge/panel.ts counts the members by kind).
  // Said in the members' settings, each their own else the judge's (docs/judges.md, "Panels"): a fix never names the judge's alone.
  it.each(Object.keys(shapes).filter((name) => name.startsWith('panel')))("%s: every member's own fix, in the members' settings", (name) => {
    const run = runFixes(got.get(name) as JudgeResult);
    const own = (shapes[name] ?? []).flatMap((m) => (typeof m === 'string' && alone[m] !== undefined ? runFixes(got.get(alone[m]) as JudgeResult) : []));
    expect(run.map(asSingle)).toEqual(expect.arrayContaining(own));
    expect(run.flatMap(bareSettings)).toEqual([]);
    expect(calibrateFixes([got.get(name) as JudgeResult])).toEqual(expect.arrayContaining(own.length === 0 ? [] : run.map(cliWords)));
  });

  // Each status family its fix (compare the agent's, src/evaluate/causes.ts httpCause): a refused key is no slow judge, a timeout no key.
  it('a refused key and a timeout: each its own fix', () => {
    const [refused] = runFixes(got.get('unreachable (HTTP 401)') as JudgeResult);
    expect(refused).toBe('the judge refused the request: check the judge key (the key or token its endpoint expects) and that it may use judge.model');
    const [slow] = runFixes(got.get('unreachable (a timeout)') as JudgeResult);
    expect(slow).toBe('raise judge.timeoutMs in config.yml if the judge is slow, or check judge-base-url (judge.baseUrl) and that it is up');
  });

  // A member whose key no HTTP header can carry sent nothing (src/judge/http.ts): the key's fix, beside the others' own, once.
  it('a member whose key could not be sent: its fix after the first member\'s', () => {
    const detail = judgeOutcome(got.get('panel: a timeout and a key not sent') as JudgeResult, 0.7).detail;
    const cause = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
    expect(cause?.what).toBe('judge unreachable: no answer from the judge within 250 ms');
    // Each in that member's settings, its own else the judge's (it read "raise judge.timeoutMs ...", "set the judge key (judge.apiKey) again").
    expect(cause?.hint).toBe(
      "raise that member's timeoutMs (judge.panel, else judge.timeoutMs) in config.yml if the judge is slow, or check that member's baseUrl (judge.panel, else judge-base-url (judge.baseUrl)) and that it is up; for the 1 not reached (its key could not be sent): set that member's apiKey (judge.panel, else judge.apiKey) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from (a secret pasted with a line break)",
    );
  });

  // A member whose certificate Node refused: the certificate's fix, as a single judge's, never the settings' general one.
  it("a panel's members whose TLS certificate was refused: the certificate's fix", () => {
    // Self-signed (or, where the test CA is trusted, made out to agent.test and judge.test, not 127.0.0.1): the certificate's own fix either way.
    const [certificate] = runFixes(got.get('unreachable (its TLS certificate refused)') as JudgeResult);
    expect(certificate).toMatch(/^point NODE_EXTRA_CA_CERTS at that CA's certificate|^use a host name the certificate names/);
    // Of the 2 members refused, in the plural (it read "at that CA's certificate" of both).
    const two = runFixes(got.get('panel: TLS certificates refused') as JudgeResult);
    expect(two[0]).toMatch(/^point NODE_EXTRA_CA_CERTS at their CAs' certificates \(one PEM file holds them all\)|^use host names the certificates name in the URLs$/);
    expect(two.map(asSingle)).toEqual([certificate]);
    expect(runFixes(got.get('panel: a TLS certificate refused and a refused key') as JudgeResult)).toEqual([
      "the judge refused the request: check that member's apiKey (judge.panel, else judge.apiKey; the key or token its endpoint expects) and that it may use that member's model (judge.panel, else judge.model)",
      certificate,
    ]);
  });

  // Members are read from where their label ends (src/evaluate/causes.ts, memberReasons): a label or a
  // server's words that say "response is not JSON" count no member whose answer could not be read, and a
  // label with ": " or "; " in it, quoted, hides no member's.
  it('a hostile label or body: the members counted by their own reasons', () => {
    const hostile = got.get('panel: a hostile label and a hostile body') as JudgeResult;
    const detail = judgeOutcome(hostile, 0.7).detail;
    expect(detail).toContain('"gw: response is not JSON": HTTP 401');
    expect(detail).toContain('openai upstream: HTTP 500: upstream: response is not JSON');
    expect(runFixes(hostile).map(asSingle)).toEqual([
      'the judge refused the request: check the judge key (the key or token its endpoint expects) and that it may use judge.model',
      "the judge's endpoint failed: see its status or log, and run it again",
    ]);
    const unread = got.get('panel: an answer not read under a hostile label') as JudgeResult;
    expect(judgeOutcome(unread, 0.7).detail).toContain('"gw; response is not JSON": response is not JSON: ');
    expect(runFixes(unread).map(asSingle)).toEqual([...runFixes(got.get('unreachable (HTTP 401)') as JudgeResult), ...runFixes(got.get('an answer not read (HTML)') as JudgeResult)]);
  });

  // The counts of members that answered HTTP 200 with an error, were cut, gave no score, or whose request
  // agent-replay could not make are read from each member's own reason too, not from its label or a server's words.
  it('a label and a body with the words of every other kind: two members not reached, each its fix', () => {
    const wordy = got.get('panel: hostile words of every other kind') as JudgeResult;
    const detail = judgeOutcome(wordy, 0.7).detail;
    expect(detail).toContain('"gw: no usable score in output": HTTP 401');
    expect(detail).toContain('openai wordy: HTTP 500: upstream: judge call failed: ');
    const cause = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
    expect(cause?.what).not.toMatch(/HTTP 200 with an error|without a usable score|cut at|judge call failed/);
    expect(runFixes(wordy).map(asSingle)).toEqual([
      'the judge refused the request: check the judge key (the key or token its endpoint expects) and that it may use judge.model',
      "the judge's endpoint failed: see its status or log, and run it again",
    ]);
  });

  // The ways members were not reached are read from each member's own reason too (src/evaluate/causes.ts,
  // downWays): a label "gw: HTTP 404" and a body that says HTTP 429 and a deadline add no fix of theirs.
  it('a label and a body that say a status and a deadline: each member not reached by its own way', () => {
    const downs = got.get('panel: hostile words of members not reached') as JudgeResult;
    const detail = judgeOutcome(downs, 0.7).detail;
    expect(detail).toContain('"gw: HTTP 404": no answer from the judge within 250 ms');
    expect(detail).toContain('openai echoes: HTTP 500: gw: HTTP 429: no connection to the judge opened within 5 ms');
    const cause = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
    // The first status a member's own reason begins with is the panel's, as without a hostile label.
    expect(cause?.what).toBe('judge unreachable: HTTP 500');
    expect(runFixes(downs).map(asSingle)).toEqual(["the judge's endpoint failed: see its status or log, and run it again", ...runFixes(got.get('unreachable (a timeout)') as JudgeResult)]);
    expect(cause?.hint).toContain('; for the 1 not reached (no answer in time): ');
    expect(calibrateFixes([downs])).toEqual(runFixes(downs).map(cliWords));
  });

  // A proxy's refusal is read from each member's own reason too (src/evaluate/causes.ts, judgeDown): a label
  // and a server's words that quote one are no proxy's, and each member gets the fix of its own status.
  it("a label and a body that quote a proxy's refusal: each member's own status, no proxy's fix", () => {
    const quoted = got.get('panel: hostile words of a proxy') as JudgeResult;
    const detail = judgeOutcome(quoted, 0.7).detail;
    expect(detail).toContain('"the proxy refused the tunnel (CONNECT): HTTP 403": HTTP 401');
    expect(detail).toContain('openai proxied: HTTP 500: gw: the proxy refused the tunnel (CONNECT): HTTP 403');
    const cause = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
    expect(cause?.what).toBe('judge unreachable: HTTP 401');
    expect(cause?.hint).not.toMatch(/proxy/i);
    expect(runFixes(quoted).map(asSingle)).toEqual([...runFixes(got.get('unreachable (HTTP 401)') as JudgeResult), "the judge's endpoint failed: see its status or log, and run it again"]);
    expect(calibrateFixes([quoted])).toEqual(runFixes(quoted).map(cliWords));
  });

  // A member's own reason with "; <word>: " in it (a server's answer unquoted) starts no member of its
  // own: the panel's reason names how many members it holds (src/evaluate/causes.ts, memberReasons).
  it('a server\'s answer with "; note: " in it: no member of its own', () => {
    const first = got.get('panel: a server answer with "; note: " first') as JudgeResult;
    const reason = first.ok ? '' : first.reason;
    expect(reason).toContain('openai semicolon: HTTP 500: "upstream; note: retry later"; openai slow: no answer from the judge within 250 ms');
    const from = reason.indexOf('): ') + 3;
    expect(memberReasons(reason, from, 2).own).toEqual(['HTTP 500: "upstream; note: retry later"', 'no answer from the judge within 250 ms']);
    // A record written before 2026-12-07 says the server's answer unquoted: still no member of its own.
    const unquoted = reason.replace('"upstream; note: retry later"', 'upstream; note: retry later');
    expect(memberReasons(unquoted, from, 2).own).toEqual(['HTTP 500: upstream; note: retry later', 'no answer from the judge within 250 ms']);
    const last = got.get('panel: a server answer with "; note: " last') as JudgeResult;
    const lastReason = last.ok ? '' : last.reason;
    expect(memberReasons(lastReason, lastReason.indexOf('): ') + 3, 2).own).toEqual(['no answer from the judge within 250 ms', 'HTTP 500: "upstream; note: retry later"']);
    // A fix of ours with ": " in it after "; " is its reason's, too.
    const fixed = 'panel: 2 of 3 members gave no usable score (2 usable needed): a: no connection to the judge opened within 5 ms; check judge.baseUrl: it may be down; b: HTTP 401: no';
    expect(memberReasons(fixed, fixed.indexOf('): ') + 3, 2).own).toEqual(['no connection to the judge opened within 5 ms; check judge.baseUrl: it may be down', 'HTTP 401: no']);
    // Three members not reached, each with a server's answer, one with "; note: " in it: the last
    // member, the refused key, is one of them (its fix given), not words of the 5xx before it.
    const three = got.get('panel: a server answer with "; note: ", a 5xx and a refused key') as JudgeResult;
    const threeReason = three.ok ? '' : three.reason;
    expect(threeReason).toContain('openai semicolon: HTTP 500: "upstream; note: retry later"; openai failing: HTTP 500: internal error; openai refuses: HTTP 401: invalid api key');
    expect(memberReasons(threeReason, threeReason.indexOf('): ') + 3, 3).own).toEqual(['HTTP 500: "upstream; note: retry later"', 'HTTP 500: internal error', 'HTTP 401: invalid api key']);
    expect(runFixes(three).map(asSingle)).toEqual(["the judge's endpoint failed: see its status or log, and run it again", ...runFixes(got.get('unreachable (HTTP 401)') as JudgeResult)]);
    expect(calibrateFixes([three])).toEqual(runFixes(three).map(cliWords));
    // Our own words in a parenthesis with "; <words>: " in them (a 429 given up on its Retry-After,
    // src/http/retry.ts attemptsText) are that member's too, never the last member's place.
    const given = 'panel: 3 of 3 members gave no usable score (2 usable needed): a: HTTP 429 after 1 attempt (the server\'s Retry-After asks for 3,600,000 ms, more than the 6,000 ms left of the time budget of 6,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait): slow down; b: HTTP 500: down; c: HTTP 401: no';
    expect(memberReasons(given, given.indexOf('): ') + 3, 3).own.map((r) => r.slice(0, 8))).toEqual(['HTTP 429', 'HTTP 500', 'HTTP 401']);
    const givenHint = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: `judge unreachable: ${given}` }, null)?.hint ?? '';
    expect(asSingle(givenHint)).toContain(runFixes(got.get('unreachable (HTTP 401)') as JudgeResult)[0]);
    // Its words after "; note: " say no usable score: no member answered without one, so no fix for that.
    const says = got.get('panel: a server answer that says a kind after "; note: "') as JudgeResult;
    expect(runFixes(says).map(asSingle)).toEqual(["the judge's endpoint failed: see its status or log, and run it again", ...runFixes(got.get('unreachable (HTTP 401)') as JudgeResult)]);
    expect(calibrateFixes([says])).toEqual(runFixes(says).map(cliWords));
  });

  // A panel whose first member not reached says no status: the cause quotes that member's own reason,
  // what it hit, never the panel's counts and the members' labels cut at 120 characters.
  it("a panel's members not reached without a status: the first one's own reason, without labels", () => {
    for (const [name, label] of [['panel: a timeout and cut', 'openai slow'], ['panel: cut, then two timeouts', 'gw-east']] as const) {
      const answer = got.get(name) as JudgeResult;
      // Its deadline passed once the server held its request (slowDeadlines): no answer, on a loaded machine too.
      const own = answer.members?.find((m) => m.label === label)?.reason ?? '';
      expect(own).toBe('no answer from the judge within 250 ms');
      const detail = judgeOutcome(answer, 0.7).detail;
      expect(detail).toContain(`${label}: ${own}`);
      const cause = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
      expect(cause?.what, name).toBe(`judge unreachable: ${own}`);
      expect(cause?.what).not.toContain(label);
    }
  });

  // The cause's words and its fix are the same member's: a connection closed first says its own
  // reason and its settings' fix, and the timeout after it its own fix after that, never the timeout's fix under the first's words.
  it("a panel's first member not reached says no status nor deadline: its words and its fix, then the deadline's", () => {
    const answer = got.get('panel: a connection closed, then a timeout') as JudgeResult;
    const detail = judgeOutcome(answer, 0.7).detail;
    const cause = causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
    expect(cause?.what).toMatch(/^judge unreachable: the connection to 127\.0\.0\.1:\d+ was closed without an answer \(UND_ERR_SOCKET\)$/);
    expect(runFixes(answer).map(asSingle)).toEqual([...runFixes(got.get('unreachable (a connection closed)') as JudgeResult), ...runFixes(got.get('unreachable (a timeout)') as JudgeResult)]);
  });

  it('every shape at once: each fix the runs give, printed once', () => {
    const all = [...got.values()];
    const run = new Set(all.flatMap(runFixes));
    // Answers with one member cut and with two: the limit's fix once, "those members' models" (it holds for all), not "that member's model" too;
    // so every members' fix said of one and of more (judgeFixes: each fix, and it said of more).
    expect(run.has(PANEL_CUT_HINT) && run.has(panelCutHint(1))).toBe(true);
    // A single judge's fix (said of one only: its `more` is itself) is kept beside the members' said of more.
    const fixes = all.flatMap((a) => (a.ok ? [] : judgeFixes(a.reason)));
    const single = new Set(fixes.flatMap((f) => (f.more === f.fix ? [f.fix] : [])));
    for (const { fix, more } of fixes) if (more !== fix && run.has(more) && !single.has(fix)) run.delete(fix);
    expect(run.has(panelCutHint(1))).toBe(false);
    expect(calibrateFixes(all).sort()).toEqual([...new Set([...run].map(cliWords))].sort());
  });
});
