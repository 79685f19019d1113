// A tool check naming a tool the turn never called (docs/traces.md, "Fixtures"): a typo or a renamed
// tool. toolCalled's failure says which tools were called, and the near name; toolNotCalled, which
// passes, says when a tool of a near name was called, since the typo would hide that call.
import { describe, expect, it } from 'vitest';
import { evaluateToolAssertion, toolMatch } from '../../src/assertions/tools.js';
import type { ToolCall } from '../../src/types.js';

const call = (tool: string, input: ToolCall['input'] = {}): ToolCall => ({ tool, input, output: null, mocked: false, source: 'trace' });

describe('a tool check of a tool never called', () => {
  it('toolCalled: the failure names the tools called and the near one', () => {
    const calls = [call('lookup_order', { orderId: '1234' }), call('refund_policy'), call('lookup_order')];
    expect(evaluateToolAssertion({ kind: 'toolCalled', tool: 'lookup_ordr', match: 'subset' }, calls)).toEqual({
      verdict: 'fail',
      detail: 'expected a call of lookup_ordr: lookup_ordr was not called; the tools called: lookup_order, refund_policy (did you mean lookup_order?)',
    });
    // No near name: the tools alone.
    expect(evaluateToolAssertion({ kind: 'toolCalled', tool: 'issue_refund', match: 'subset' }, [call('lookup_order')]).detail).toBe('expected a call of issue_refund: issue_refund was not called; the tool called: lookup_order');
    // No call at all: as before.
    expect(evaluateToolAssertion({ kind: 'toolCalled', tool: 'issue_refund', match: 'subset' }, []).detail).toBe('expected a call of issue_refund: issue_refund was not called');
    // Many tools: five named, the rest counted.
    const many = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7'].map((t) => call(t));
    expect(toolMatch('toolCalled', { tool: 'zzzzzz', match: 'subset' }, many, () => '').detail).toBe('expected a call of zzzzzz: zzzzzz was not called; the tools called: a1, b2, c3, d4, e5 and 2 more');
    // Their count grouped, as every count (was "and 1000 more").
    const thousand = Array.from({ length: 1_005 }, (_, i) => call(`tool_${String(i).padStart(4, '0')}`));
    expect(toolMatch('toolCalled', { tool: 'zzzzzz', match: 'subset' }, thousand, () => '').detail).toMatch(/tool_0004 and 1,000 more$/);
  });

  it('toolCalled of a tool called with other inputs only: five inputs, "; " between them (JSON holds commas), then "; and N more", grouped', () => {
    const calls = Array.from({ length: 1_005 }, (_, i) => call('lookup_order', { orderId: String(i), lang: 'en' }));
    // Was: "...; +1000 more".
    expect(toolMatch('toolCalled', { tool: 'lookup_order', input: { orderId: 'x' }, match: 'subset' }, calls, () => '').detail).toBe(
      'expected a call of lookup_order {"orderId": "x"}: lookup_order was called with {"orderId": "0", "lang": "en"}; {"orderId": "1", "lang": "en"}; {"orderId": "2", "lang": "en"}; {"orderId": "3", "lang": "en"}; {"orderId": "4", "lang": "en"}; and 1,000 more',
    );
  });

  it('toolNotCalled: still a pass, which says when a tool of a near name was called', () => {
    expect(evaluateToolAssertion({ kind: 'toolNotCalled', tool: 'isue_refund', match: 'subset' }, [call('issue_refund')])).toEqual({
      verdict: 'pass',
      detail: "not called: isue_refund (but issue_refund was: is the check's tool name right?)",
    });
    expect(evaluateToolAssertion({ kind: 'toolNotCalled', tool: 'issue_refund', match: 'subset' }, [call('lookup_order')])).toEqual({ verdict: 'pass', detail: 'not called: issue_refund' });
  });
});

describe("a list's checks that did not run for one reason", () => {
  it('say the reason once; failures are each said', async () => {
    const { listDetail } = await import('../../src/assertions/list.js');
    const why = 'no spans for trace 4bf92f3577b34da6a3ce929d0e0e4736 within 5 s: none came to http://127.0.0.1:4318/v1/traces for this request; does the agent export there, with a span for each request it answers?';
    expect(listDetail([{ status: 'not_evaluated', detail: why }, { status: 'not_evaluated', detail: why }, { status: 'pass', detail: 'reply contains "30"' }])).toBe(`2 of 3 checks not evaluated: ${why}`);
    expect(listDetail([{ status: 'fail', detail: 'x was not called' }, { status: 'fail', detail: 'x was not called' }])).toBe('2 of 2 checks failed: x was not called; x was not called');
  });
});
