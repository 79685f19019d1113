// A run that is not verified: every surface says "Not verified" (grey, never a failure), names the
// cause shared by most items, and lists the items under their cause.

import { describe, expect, it } from 'vitest';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import type { FixtureRecord } from '../../src/types.js';
import { baseline, ctx, fixture, resetLines, run } from './fixtures.js';
import { expectGolden } from './helpers.js';
import { snippet } from '../../src/agent/http-client.js';

const ENDPOINT = 'https://preview-42.shop-bot.example.com/api/chat';

/** The host's 404 page, different on every request (a request id), as real hosts send it, worded as
 * the agent client words a body in its error. */
const page = (id: string): string => snippet(`<!doctype html><html><head><title>404: This page could not be found</title></head><body>request ${id}</body></html>`);

function errored(label: string, error: string, errorKind: 'http' | 'network' = 'http'): FixtureRecord {
  return fixture(label, { errored: true, errorKind, error, reply: null, route: null, verdict: null, drift: null, detail: '', baseline: baseline(label, `Stored reply of ${label}.`) });
}

/** Five fixtures, four on one wrong path (HTTP 404, bodies differing) and one the agent refused. */
function notVerified(): ReturnType<typeof run> {
  resetLines();
  return run(
    [
      errored('refund-policy', `message turn: agent returned HTTP 404 after 1 attempt: ${page('a1')}`),
      errored('opening-hours', `welcome turn: agent returned HTTP 404 after 1 attempt: ${page('b2')}`),
      errored('order-status', `message turn: agent returned HTTP 401 after 1 attempt: {"error":"missing key"}`),
      errored('shipping-times', `message turn: agent returned HTTP 404 after 1 attempt: ${page('c3')}`),
      errored('store-locations', `message turn: agent returned HTTP 404 after 1 attempt: ${page('d4')}`),
    ],
    { agent: { host: 'preview-42.shop-bot.example.com', endpoint: ENDPOINT }, judge: { name: null } },
  );
}

/** Every fixture on a closed port: one cause, "all 3". */
function allRefused(): ReturnType<typeof run> {
  resetLines();
  const refused = 'welcome turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:3000 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running';
  return run(['a', 'b', 'c'].map((l) => errored(`fixture-${l}`, refused, 'network')), { agent: { host: '127.0.0.1:3000', endpoint: 'http://127.0.0.1:3000/api/chat' }, judge: { name: null } });
}

describe('a run that is not verified', () => {
  it('reads a record from an older run as it is: its words then ("agent call timed out after 30000 ms"), under the cause they name', () => {
    resetLines();
    const old = 'agent call timed out after 30000 ms';
    const record = run(
      [fixture('loyalty-points', { errored: true, errorKind: 'timeout', error: old, detail: old, reply: null, route: null, verdict: null, drift: null, baseline: baseline('loyalty-points', 'You have 120 points.') })],
      { agent: { host: '127.0.0.1:3000', endpoint: 'http://127.0.0.1:3000/api/chat' }, judge: { name: null } },
    );
    const term = renderTerminal(record, { color: false });
    expect(term).toContain('no answer from http://127.0.0.1:3000/api/chat within 30,000 ms: raise agent.timeoutMs in config.yml');
    expect(term).toContain(old);
    expect(renderComment(record, ctx)).toContain('agent call timed out after 30000 ms');
    expect(renderJUnit(record)).toContain(`<error message="${old}" type="timeout">`);
  });

  it('comment', () => expectGolden('not-verified.comment.md', renderComment(notVerified(), ctx)));
  it('job summary', () => expectGolden('not-verified.summary.md', renderSummary(notVerified(), ctx)));
  it('terminal', () => expectGolden('not-verified.terminal.txt', renderTerminal(notVerified(), { color: false })));
  it('junit', () => expectGolden('not-verified.junit.xml', renderJUnit(notVerified())));

  it('says "Not verified" in grey, names the largest cause with the setting to check, and never says failure', () => {
    const md = renderComment(notVerified(), ctx);
    expect(md).toContain('### ⚪ Not verified: 5 errored\n**Cause**: 4 of 5\\: HTTP 404 from `https://preview-42.shop-bot.example.com/api/chat`\\: check agent-path or agent.url');
    expect(md).not.toMatch(/🔴|❌ failed|newly failing/);
    const term = renderTerminal(notVerified(), { color: true });
    // Grey (90), not red (31), for the headline.
    expect(term.split('\n')[0]).toBe('\u001b[1m\u001b[90magent-replay: Not verified: 5 errored\u001b[0m\u001b[0m');
    expect(renderJUnit(notVerified())).toContain('<property name="verified" value="false"/>');
  });

  it('groups the items under their cause, largest first, bodies and attempts aside', () => {
    const lines = renderTerminal(notVerified(), { color: false }).split('\n');
    const start = lines.indexOf('Errored (5): not a failure');
    expect(lines.slice(start + 1).filter((l) => /^ {2}\S/.test(l) || /^ {4}! /.test(l)).map((l) => l.trim().split(' · ')[0])).toEqual([
      '4 of 5: HTTP 404 from https://preview-42.shop-bot.example.com/api/chat: check --agent-url (agent.url): the path is probably wrong',
      '! refund-policy',
      '! opening-hours',
      '! shipping-times',
      '! store-locations',
      '1 of 5: HTTP 401 from https://preview-42.shop-bot.example.com/api/chat: the agent refused the request: check the key or token it expects in agent.headers in config.yml',
      '! order-status',
    ]);
  });

  it('one cause for every item reads "all N"', () => {
    const t = renderTerminal(allRefused(), { color: false });
    expect(t.split('\n').slice(0, 2)).toEqual([
      'agent-replay: Not verified: 3 errored',
      '  cause: all 3: connection refused at http://127.0.0.1:3000/api/chat: nothing listens there: check --agent-url (agent.url) and that the agent is running; set --wait-for-agent (agent.waitForAgent) if it starts slowly',
    ]);
    // The items' own error, said once for all of them, names the flag too, not the Action's input.
    expect(t).toContain('    each: welcome turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:3000 (ECONNREFUSED); nothing listens there: check --agent-url (agent.url) and that the agent is running\n');
    expect(t).not.toMatch(/check agent-url/);
    // An item whose error is its own (not shared) likewise.
    resetLines();
    const refused = 'message turn: could not reach the agent after 3 attempts: connection refused at 127.0.0.1:3000 (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running';
    const one = renderTerminal(run([errored('solo', refused, 'network')], { agent: { host: '127.0.0.1:3000', endpoint: 'http://127.0.0.1:3000/api/chat' }, judge: { name: null } }), { color: false });
    expect(one).toContain('check --agent-url (agent.url) and that the agent is running');
    expect(one).not.toMatch(/check agent-url/);
  });
});

describe("the terminal's cause lines, in the CLI's words", () => {
  it("say the fix in the CLI's words and what the cause quotes as it was said: an agent's words that read like a fix are not rewritten", () => {
    resetLines();
    // The agent's own error, quoted as the cause (its first clause), holds the Action's words for a setting.
    const quoted = 'message turn: the agent answered with an error: the upstream says check agent-url (agent.url) and agent-headers (agent.headers)';
    const text = renderTerminal(
      run([
        fixture('refund-policy', { errored: true, errorKind: 'agent_error', error: quoted, reply: null, route: null, verdict: null, drift: null, detail: '', baseline: baseline('refund-policy', 'Stored.') }),
        fixture('opening-hours', { errored: true, errorKind: 'agent_error', error: quoted, reply: null, route: null, verdict: null, drift: null, detail: '', baseline: baseline('opening-hours', 'Stored.') }),
        errored('order-status', 'message turn: agent returned HTTP 401 after 1 attempt: {"error":"missing key"}'),
      ]),
      { color: false },
    );
    // the line under the headline and the group's line
    const causeLines = text.split('\n').filter((l) => /^ {2}(?:cause: )?2 of 3: /.test(l));
    expect(causeLines).toHaveLength(2);
    for (const line of causeLines) {
      expect(line).toContain('the upstream says check agent-url (agent.url) and agent-headers (agent.headers)');
      expect(line).not.toContain('--agent-url');
    }
    // A fix of ours beside it is still said in the CLI's words.
    expect(text).toContain('check the key or token it expects in agent.headers in config.yml');
  });
});

