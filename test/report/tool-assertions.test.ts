// Fixture tool assertions (docs/traces.md, "Fixtures") in every surface: the check's detail shown
// where other fixture checks show theirs. Goldens: tools.* (a passing toolCalled, a failing
// toolNotCalled, and one not evaluated because the agent reports no tool calls).

import { describe, expect, it } from 'vitest';
import { evaluateToolAssertion, FIXTURE_NO_TOOL_CALLS } from '../../src/assertions/tools.js';
import { renderHtml } from '../../src/report/html.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import type { RunRecord, ToolAssertion, ToolCall } from '../../src/types.js';
import { baseline, ctx, fixture, resetLines, route, run } from './fixtures.js';
import { expectGolden } from './helpers.js';
import { docsUrl } from '../../src/version.js';

const CALL: ToolCall = { tool: 'issue_refund', input: { orderId: '1234', amount: 40 }, output: null, mocked: true };

function toolsRun(): RunRecord {
  resetLines();
  const called: ToolAssertion = { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' };
  const notCalled: ToolAssertion = { kind: 'toolNotCalled', tool: 'issue_refund', match: 'subset' };
  const found: ToolCall = { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false };
  const pass = evaluateToolAssertion(called, [found]);
  const fail = evaluateToolAssertion(notCalled, [CALL]);
  const unknown = evaluateToolAssertion(called, null);
  return run([
    fixture('order-status', { assertion: called, reply: 'Order 1234 was delivered.', verdict: pass.verdict, detail: pass.detail, toolCalls: [found] }),
    fixture('refund-guard', {
      assertion: notCalled,
      reply: 'I have refunded 40 EUR.',
      route: route('refunds', 'done'),
      verdict: fail.verdict,
      detail: fail.detail,
      toolCalls: [CALL],
      baseline: baseline('refund-guard', 'A colleague will review the refund.', 'pass', route('refunds', 'handoff')),
      drift: { reply: 'different', route: 'different', verdict: 'newly_failing' },
    }),
    fixture('plain-text-agent', { assertion: called, reply: 'Your order is on its way.', verdict: unknown.verdict, detail: unknown.detail, drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' } }),
  ]);
}

const TOOLS = toolsRun();

describe('fixture tool assertions in the surfaces', () => {
  it('decide as persona scripts do, and say why a check did not run', () => {
    expect(TOOLS.fixtures.map((f) => [f.label, f.verdict, f.detail])).toEqual([
      // The input said once: the expectation already says it as the call had it.
      ['order-status', 'pass', 'called find_order {"orderId": "1234"}'],
      ['refund-guard', 'fail', 'issue_refund must not be called, but was (input {"orderId": "1234", "amount": 40})'],
      ['plain-text-agent', 'not_evaluated', FIXTURE_NO_TOOL_CALLS],
    ]);
    // A call that matched with more input than expected (subset) still shows what it was called with.
    const more: ToolCall = { tool: 'find_order', input: { orderId: '1234', verbose: true }, output: null, mocked: false };
    expect(evaluateToolAssertion({ kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' }, [more]).detail).toBe(
      'called find_order {"orderId": "1234"} (input {"orderId": "1234", "verbose": true})',
    );
  });

  it("a long input is written as every surface writes JSON, so that the comment's detail wraps between its values, not inside an address", () => {
    const input = { orderId: '1234-5678-9012', customer: { email: 'someone.with.a.long.name@example.com', country: 'DE' }, items: ['kettle', 'toaster'] };
    const expected: ToolAssertion = { kind: 'toolCalled', tool: 'find_order', input, match: 'subset' };
    const call: ToolCall = { tool: 'find_order', input: { ...input, orderId: '1234-5678-9099' }, output: null, mocked: false };
    const out = evaluateToolAssertion(expected, [call]);
    expect(out.detail).toBe(
      'expected a call of find_order {"orderId": "1234-5678-9012", "customer": {"email": "someone.with.a.long.name@example.com", "country": "DE"}, "items": ["kettle", "toaster"]}: ' +
        'find_order was called with {"orderId": "1234-5678-9099", "customer": {"email": "someone.with.a.long.name@example.com", "country": "DE"}, "items": ["kettle", "toaster"]}',
    );
    resetLines();
    const record = run([fixture('long-input', { assertion: expected, reply: 'Found it.', verdict: out.verdict, detail: out.detail, toolCalls: [call], baseline: baseline('long-input', 'Found it.'), drift: { reply: 'same', route: 'same', verdict: 'newly_failing' } })]);
    const comment = renderComment(record, ctx);
    // The detail's code block wraps at 100 columns at a space: compact JSON had none, and cut the address in two.
    const block = /\*\*Detail\*\*:\n\n```text\n([\s\S]*?)\n```/.exec(comment)?.[1] ?? '';
    expect(block.split('\n').length).toBeGreaterThan(1);
    expect(block.split('\n').filter((l) => l.includes('someone.with.a.long.name@example.com'))).toHaveLength(2);
    expect(renderTerminal(record, { color: false })).toContain('"email": "someone.with.a.long.name@example.com"');
  });

  it('PR comment, job summary, terminal and JUnit show each detail as for any fixture check (goldens)', () => {
    expectGolden('tools.comment.md', renderComment(TOOLS, ctx));
    expectGolden('tools.summary.md', renderSummary(TOOLS, ctx));
    expectGolden('tools.terminal.txt', renderTerminal(TOOLS, { color: false }));
    expectGolden('tools.junit.xml', renderJUnit(TOOLS));
  });

  it('report.html names the assertion and shows its detail', () => {
    const html = renderHtml(TOOLS, {});
    expect(html).toContain('tool called: find_order {\\"orderId\\": \\"1234\\"}');
    expect(html).toContain('tool not called: issue_refund');
    expect(html).toContain('issue_refund must not be called, but was');
    expect(html).toContain('the agent does not report tool calls: map agent.response.toolCalls');
    // The page the cause cites is a link in the markup (the script links it in the detail alike).
    expect(html).toContain(`or see <a href="${docsUrl('traces.md', 'Fixtures')}" rel="noreferrer noopener">docs/traces.md#fixtures</a> for an agent`);
  });
});
