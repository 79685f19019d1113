// A long error's fix kept whole on every line that bounds it, what happened cut in its middle (a
// quoted tool input first): assertions/format.ts (fixStart, clipKeepingFix, jsonLine), report/escape.ts (clipDetail).

import { describe, expect, it } from 'vitest';
import { fixStart, jsonLine } from '../../src/assertions/format.js';
import { decodeEventStream } from '../../src/agent/stream.js';
import { reportedError } from '../../src/evaluate/personas.js';
import { renderHtml } from '../../src/report/html.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import type { FixtureRecord, JsonValue, Mock, PersonaRecord } from '../../src/types.js';
import { decodeEntities } from './helpers.js';
import { ctx, fixture, persona, run, toolCall, turn } from './fixtures.js';

const REFUND = { orderId: '2718', amount: 12, reason: 'arrived broken' };
const LONG_NOTE = 'the parcel was left in the rain and the box fell apart '.repeat(8).trim();
const CONFIG = '.agent-replay/config.yml';

/** A script errored on turn 3 by a call to issue_refund that no mock answered, in the evaluator's own words (reportedError). */
function unmocked(call: { input: JsonValue; output?: JsonValue }, script: { mocks: Mock[]; unmockedTools?: 'error' }, configured: 'error' | null = null): PersonaRecord {
  const turns = [
    turn(1, 'Hi', 'Hello', null),
    turn(2, 'Order 2718', 'Found it', null),
    turn(3, 'It arrived broken', 'Refunded', null, { toolCalls: [toolCall('issue_refund', call.input, call.output ?? null, false)] }),
  ];
  const found = reportedError(turns, script, configured, CONFIG);
  if (found === null) throw new Error('the call was answered');
  return persona('refund-unmocked-tool', { turns, errored: true, error: found.error, errorKind: found.errorKind, verdict: null, drift: null, checks: [] });
}

const findOrder: Mock = { tool: 'find_order', match: 'subset', output: { status: 'delivered' } };

/** The item's detail line in the terminal (it has no block: the error without its turn, bounded), and the fix its error ends in. */
function terminalDetail(p: PersonaRecord): { line: string; fix: string; happened: string } {
  const error = p.error ?? '';
  const at = fixStart(error);
  expect(at).toBeGreaterThan(0);
  const fix = error.slice(at);
  const line = renderTerminal(run([], { personas: [p] }), { color: false })
    .split('\n')
    .find((l) => l.startsWith('        the agent reported a call to issue_refund ')) ?? '';
  const end = line.indexOf(fix);
  return { line, fix, happened: end < 0 ? line : line.slice(8, end) };
}

describe('a tool call no mock answered: its fix whole on the terminal, what happened within its 300 characters', () => {
  it.each([
    ['the script declares mocks', { mocks: [findOrder] }, null, '; the script declares mocks, so it runs in mocked mode'],
    ['the script sets unmockedTools: error', { mocks: [], unmockedTools: 'error' as const }, null, '; the script sets unmockedTools: error: declare a mock'],
    ["config.yml's personas.unmockedTools: error", { mocks: [] }, 'error' as const, `; ${CONFIG} sets personas.unmockedTools: error: declare a mock`],
  ])('%s: the fix to the end, after the whole call', (_name, script, configured, begins) => {
    const { line, fix, happened } = terminalDetail(unmocked({ input: REFUND }, script, configured));
    expect(fix.startsWith(begins)).toBe(true);
    // Before: cut at 300 characters mid-fix ("...: declare a mock for…").
    expect(line).toContain(`${fix} · on the turns that completed: no checks ran`);
    expect(line).toContain('issue_refund {"orderId": "2718", "amount": 12, "reason": "arrived broken"} that no mock answered');
    expect(line).not.toContain('\u2026');
    expect(happened.length).toBeLessThanOrEqual(300);
  });

  it('a long input is bounded with its quotes closed (jsonLine), so the fix after it is still found and kept whole', () => {
    const p = unmocked({ input: { ...REFUND, note: LONG_NOTE } }, { mocks: [findOrder] });
    // The error's own words: the input's first entries, its object closed (before: `"note": "the parcel ... t…` left open, and the fix not found).
    expect(p.error).toContain('issue_refund {"orderId": "2718", "amount": 12, "reason": "arrived broken", \u2026} that no mock answered (no mock is declared for it; mocked: false); the script declares mocks, ');
    const { line, fix, happened } = terminalDetail(p);
    expect(line).toContain(`; mocked: false)${fix} · on the turns that completed: no checks ran`);
    expect(fix.endsWith("or remove the script's mocks to test the agent's tools live")).toBe(true);
    expect(happened.length).toBeLessThanOrEqual(300);
  });

  it('what happened over 300 characters is cut in its middle, its quoted values first, never at its end', () => {
    // A mock for the call's input whose output differs: the input and the output both quoted (its output ... is not the mock's output).
    const mock: Mock = { tool: 'issue_refund', match: 'subset', input: { orderId: '2718' }, output: { refundId: 'R-2718' } };
    const fields = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field${i}`, `value number ${i}`]));
    const p = unmocked({ input: { orderId: '2718', ...fields }, output: { refundId: 'R-9', ...fields } }, { mocks: [findOrder, mock] });
    const error = p.error ?? '';
    expect(error.slice(0, fixStart(error)).length).toBeGreaterThan(400);
    const { line, fix, happened } = terminalDetail(p);
    expect(happened.length).toBeLessThanOrEqual(300);
    // The call and what went wrong with it both said; the quoted values cut, closed (`, …}`).
    expect(happened).toMatch(/^the agent reported a call to issue_refund \{"orderId": "2718", \u2026\} that no mock answered \(its output \{"refundId": "R-9", "field0": "value number 0", [^}]*\u2026\} is not the mock's output; mocked: false\)$/);
    expect(line).toContain(`${happened}${fix} · on the turns that completed: no checks ran`);
  });
});

describe("an error's fix on the other surfaces, where its line is bounded", () => {
  const fix = 'check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in agent-url (agent.url) is its https:// port (http:// for a plain HTTP one)';
  const errored = (label: string, error: string): FixtureRecord =>
    fixture(label, { reply: null, route: null, verdict: null, errored: true, errorKind: 'network', error, detail: error, drift: null } as Partial<FixtureRecord>);
  const tls = (times: number): string => `the agent answered the TLS handshake with an alert, after 1 attempt: ${'handshake failure '.repeat(times).trim()} (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); ${fix}`;

  it("the comment's and the job summary's line of the text items share keeps the fix whole, what happened clipped to 300", () => {
    const error = tls(20);
    const record = run([errored('a', error), errored('b', error)]);
    for (const page of [renderComment(record, ctx), renderSummary(record, ctx)]) {
      const shared = page.split('\n').find((l) => l.startsWith('each\\: the agent answered the TLS handshake')) ?? '';
      // Before: clipped at 300 characters, in what happened or mid-fix; the fix whole only in the items' blocks.
      const text = decodeEntities(shared.replace(/\\(.)/g, '$1'));
      expect(text).toMatch(/^each: the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure[a-z ]*\u2026; check whether /);
      expect(text.endsWith(`; ${fix}`)).toBe(true);
      expect(text.length - fix.length - 2).toBeLessThanOrEqual('each: '.length + 300);
    }
  });

  it("a stream's line sent without its data: keeps its fix on the terminal, the stray line quoted", () => {
    const decoded = decodeEventStream(`data: Your order:\n${'- one more line of the order summary '.repeat(3)}\n\n`);
    const error = `message turn: ${decoded.ok ? '' : decoded.error}`;
    expect(error.length).toBeGreaterThan(300);
    const terminal = renderTerminal(run([errored('a', error)]), { color: false });
    // Before: cut at 300 characters, "...so the reply would lack…".
    expect(terminal).toMatch(/so the reply would lack them; send each line of a chunk as its own data: line\n/);
  });

  it("report.html's row and JUnit's message attribute keep the fix whole", () => {
    const html = renderHtml(run([errored('a', tls(20))]));
    const why = decodeEntities(/<span class="why">([^<]*)<\/span>/.exec(html)?.[1] ?? '');
    expect(why).toMatch(/^the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure[a-z ]*\u2026; check whether /);
    expect(why.endsWith(`; ${fix}`)).toBe(true);
    expect(why.length - fix.length - 2).toBeLessThanOrEqual(300);
    // JUnit's message is bounded at 1,000 characters: past them, the fix still whole at its end.
    const junit = renderJUnit(run([errored('a', tls(70))]));
    const message = decodeEntities(/<error message="([^"]*)"/.exec(junit)?.[1] ?? '');
    expect(message.endsWith(`\u2026; ${fix}`)).toBe(true);
    expect(message.length - fix.length - 2).toBeLessThanOrEqual(1000);
  });
});

describe('a JSON value on one line, bounded (jsonLine)', () => {
  it('keeps its first entries and closes every string, object and list it cuts, within its bound', () => {
    const note = LONG_NOTE;
    const cases: [JsonValue, string][] = [
      [{ ...REFUND, note }, '{"orderId": "2718", "amount": 12, "reason": "arrived broken", \u2026}'],
      [{ note, orderId: '2718' }, `{"note": "${'the parcel was left in the rain and the box fell apart '.repeat(3)}the parcel was left\u2026", \u2026}`],
      [[Array.from({ length: 100 }, (_, i) => i)], `[[${Array.from({ length: 51 }, (_, i) => i).join(', ')}, \u2026]]`],
      [note, ''],
    ];
    for (const [value, expected] of cases) {
      const shown = jsonLine(value);
      expect(shown.length).toBeLessThanOrEqual(200);
      if (expected !== '') expect(shown).toBe(expected);
      // Closed as written: as many quotes as needed to close each string, brackets balanced.
      expect((shown.match(/"/g) ?? []).length % 2).toBe(0);
      expect(shown.split('{').length).toBe(shown.split('}').length);
      expect(shown.split('[').length).toBe(shown.split(']').length);
    }
    expect(jsonLine({ orderId: '2718' })).toBe('{"orderId": "2718"}');
  });
});
