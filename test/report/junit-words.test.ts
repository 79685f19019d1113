// JUnit's words where the viewers show them: a not-evaluated fixture's reply in its <skipped>, and
// a failure's and an error's `type` in the product's words (dorny/test-reporter shows "type: message").

import { beforeEach, describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/report/junit.js';
import { fixture, resetLines, run } from './fixtures.js';
import type { FixtureRecord } from '../../src/types.js';

beforeEach(resetLines);

describe('a not-evaluated fixture in JUnit', () => {
  const notEvaluated = (over: Partial<FixtureRecord>): FixtureRecord =>
    fixture('refund-policy', { verdict: 'not_evaluated', detail: 'judge: no usable answer', drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' }, ...over } as Partial<FixtureRecord>);

  it('keeps the reply it could not judge in its <skipped>, escaped, as the terminal and the comment show it', () => {
    const xml = renderJUnit(run([notEvaluated({ reply: 'Refunds take <30> days & "more".' })]));
    expect(xml).toContain('<skipped message="not evaluated (not a failure): judge: no usable answer">');
    expect(xml).toContain('\n\nreply:\nRefunds take &lt;30&gt; days &amp; &quot;more&quot;.</skipped>');
  });

  it('has no body without a reply', () => {
    const xml = renderJUnit(run([notEvaluated({ reply: null })]));
    expect(xml).toContain('<skipped message="not evaluated (not a failure): judge: no usable answer"/>');
  });
});
