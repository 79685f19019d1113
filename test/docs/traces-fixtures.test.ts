// docs/traces.md, "Fixtures": the example fixture and each form its comments show load as written.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { F, load } from '../suite/helpers.js';
import { evaluateToolAssertion } from '../../src/assertions/tools.js';
import type { ToolAssertion } from '../../src/types.js';

const page = readFileSync(new URL('../../docs/traces.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('## Fixtures'));
const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;

describe('docs/traces.md, Fixtures', () => {
  it('the example and its commented forms are valid fixtures with the documented assertions', async () => {
    const forms = [...example.matchAll(/^#(?: or:)?\s+assert: (.+)$/gm)].map((m) => m[1]!);
    expect(forms).toHaveLength(2);
    const files: Record<string, string> = { [`${F}/order-status.yml`]: example };
    forms.forEach((form, i) => (files[`${F}/form-${i}.yml`] = `label: form-${i}\nmessage: Where is order 1234?\nassert: ${form}\n`));
    const r = await load(files);
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures.map((f) => f.assertion)).toEqual([
      { kind: 'toolNotCalled', tool: 'issue_refund', match: 'subset' },
      {
        kind: 'all',
        assertions: [
          { kind: 'contains', value: 'delivered' },
          { kind: 'toolCalled', tool: 'find_order', match: 'subset' },
          { kind: 'toolNotCalled', tool: 'issue_refund', match: 'subset' },
        ],
      },
      { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' },
    ]);
  });

  it("quotes a tool check's lines as a fixture's check writes them, its JSON spaced as on every surface", () => {
    const flat = section.replace(/\s*\n\s*/g, ' ');
    const check: ToolAssertion = { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' };
    const said = (input: Record<string, unknown>): string => evaluateToolAssertion(check, [{ tool: 'find_order', input: input as never, output: null, mocked: false }]).detail;
    expect(flat).toContain(`\`${said({ orderId: '1234' })}\``);
    expect(flat).toContain(`\`${said({ orderId: '1234', verbose: true })}\``);
  });
});
