// JUnit's words where the viewers show them: a not-evaluated fixture's reply in its <skipped>, and
// a failure's and an error's `type` in the product's words (dorny/test-reporter shows "type: message").

import { beforeEach, describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/report/junit.js';
import { fixture, persona, resetLines, run } from './fixtures.js';
import type { FixtureRecord, PersonaRecord } from '../../src/types.js';

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

describe('a not-evaluated persona script in JUnit', () => {
  it('keeps its line, checks and transcript in its <skipped>, as a not-evaluated fixture keeps its reply, simulated or not', () => {
    const criterion = { kind: 'criterion', expected: 'offers a refund', status: 'not_evaluated', detail: 'judge: no usable answer' };
    const script = persona('refund-flow', { verdict: 'not_evaluated', checks: [criterion], drift: { transcript: 'same', route: 'same', verdict: 'not_evaluated' } } as unknown as Partial<PersonaRecord>);
    const xml = renderJUnit(run([], { personas: [script] }));
    const skipped = /<skipped message="([^"]*)">([\s\S]*?)<\/skipped>/.exec(xml);
    expect(skipped?.[1]).toBe('not evaluated (not a failure): criterion &quot;offers a refund&quot;: not evaluated (judge: no usable answer)');
    const body = skipped?.[2] ?? '';
    expect(body.split('\n')[0]).toMatch(/^not evaluated · drift unknown/);
    expect(body).toContain('\nchecks:\n  criterion &quot;offers a refund&quot;: not evaluated (judge: no usable answer)\n');
    expect(body).toContain('\ntranscript:\n');
    for (const t of script.turns) expect(body).toContain(`[${t.index}] Agent (`);
  });
});

describe("JUnit's types, which dorny/test-reporter shows before the message", () => {
  const typeOf = (xml: string, tag: 'failure' | 'error'): string | undefined => new RegExp(`<${tag} message="[^"]*" type="([^"]*)"`).exec(xml)?.[1];

  it("say a failure's drift as every surface does: newly failing, not newly_failing", () => {
    const failing = (verdict: 'newly_failing' | 'still_failing' | 'no_baseline') =>
      renderJUnit(run([fixture('refund-policy', { verdict: 'fail', detail: 'contains "30 days": not found', drift: { reply: 'same', route: 'same', verdict } } as Partial<FixtureRecord>)]));
    expect(typeOf(failing('newly_failing'), 'failure')).toBe('newly failing');
    expect(typeOf(failing('still_failing'), 'failure')).toBe('still failing');
    expect(typeOf(failing('no_baseline'), 'failure')).toBe('no baseline');
  });

  it("say an error's kind in words: timeout, HTTP error, not JSON, not the record's values", () => {
    const errored = (errorKind: FixtureRecord['errorKind']) =>
      renderJUnit(run([fixture('refund-policy', { reply: null, route: null, verdict: null, errored: true, error: 'message turn: HTTP 500', errorKind, detail: 'x', drift: null } as Partial<FixtureRecord>)]));
    expect(typeOf(errored('http'), 'error')).toBe('HTTP error');
    expect(typeOf(errored('invalid_json'), 'error')).toBe('not JSON');
    expect(typeOf(errored('missing_reply'), 'error')).toBe('no reply');
    expect(typeOf(errored('internal'), 'error')).toBe('errored');
  });

  it("say a persona script's the same way", () => {
    const failed = persona('refund-flow', { verdict: 'fail', drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } });
    expect(typeOf(renderJUnit(run([], { personas: [failed] })), 'failure')).toBe('newly failing');
    const unmocked = persona('refund-flow', { errored: true, errorKind: 'unmocked_tool', error: 'no mock answers issue_refund', verdict: null } as unknown as Partial<PersonaRecord>);
    expect(typeOf(renderJUnit(run([], { personas: [unmocked] })), 'error')).toBe('unmocked tool');
  });
});

describe("a not-evaluated fixture's cause in JUnit, as the gate reads it", () => {
  it('a connection the judge dropped after it scored another item of the run: run again, not its settings', () => {
    const dropped = fixture('dropped', { verdict: 'not_evaluated', detail: 'judge unreachable: the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET) after 3 attempts', drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' } } as Partial<FixtureRecord>);
    const judged = fixture('judged', { judgeFingerprint: { model: 'openai/gpt-4o-mini' } } as Partial<FixtureRecord>);
    const xml = renderJUnit(run([judged, dropped]));
    // The item's <skipped> says the cause as the run's cause property does, never the settings to check.
    expect(xml).toMatch(/<skipped message="[^"]*; cause: judge unreachable: [^"]*: the judge answered other calls of this run, so judge-base-url \(judge\.baseUrl\), judge\.model and the judge key work/);
    expect(xml).not.toContain('check judge-base-url');
    // No other call answered: the judge, or a proxy in front of it, closed it (it was "check judge-base-url (judge.baseUrl), judge.model and the judge key").
    expect(renderJUnit(run([dropped]))).toContain('<property name="cause" value="judge unreachable: the connection to 127.0.0.1:9 was closed without an answer (ECONNRESET): see the judge&apos;s log for a crash on the request, or a proxy in front of it that closes connections"/>');
  });
});

describe("a script's criterion in JUnit", () => {
  it('is cut after 160 characters with "…" as the comment cuts it, then escaped: never inside an escape nor a surrogate pair', () => {
    // 157 letters, "&", then an emoji (two UTF-16 units) across the cut: kept are the letters and
    // the "&" (escaped whole, &amp;), not half of the emoji; then the "…" (160 characters in all).
    const text = `${'a'.repeat(157)}&\u{1F600}${'b'.repeat(60)}`;
    const criterion = { kind: 'criterion', expected: text, status: 'fail', detail: 'score 0.2 < 0.7' };
    const script = persona('refund-flow', { verdict: 'fail', checks: [criterion], drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } } as unknown as Partial<PersonaRecord>);
    const xml = renderJUnit(run([], { personas: [script] }));
    const shown = `criterion &quot;${'a'.repeat(157)}&amp;…&quot;: fail (score 0.2 &lt; 0.7)`;
    // In the failure's message and in the checks of its body alike.
    expect(xml).toContain(`<failure message="${shown}"`);
    expect(xml).toContain(`\nchecks:\n  ${shown}\n`);
    expect(xml).not.toContain('b'.repeat(60));
    expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('is whole when it fits', () => {
    const criterion = { kind: 'criterion', expected: `${'a'.repeat(159)}&`, status: 'fail', detail: 'score 0.2 < 0.7' };
    const script = persona('refund-flow', { verdict: 'fail', checks: [criterion], drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } } as unknown as Partial<PersonaRecord>);
    expect(renderJUnit(run([], { personas: [script] }))).toContain(`\n  criterion &quot;${'a'.repeat(159)}&amp;&quot;: fail (score 0.2 &lt; 0.7)\n`);
  });
});
