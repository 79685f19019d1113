// The keys of an agent's JSON quoted in an error (describeShape: "the response is an object (keys:
// ...)", "found an object of type ... (keys: ...)"): the agent chose them, so each surface that
// shows the error, and the cause built from it, writes them escaped for its context
// (docs/security.md, "Agent text is data"): the PR comment, the job summary, the --markdown report,
// report.html and JUnit XML. results.json keeps them as data (JSON); the terminal and the Action's
// annotations are tested in test/cli/welcome-warning.test.ts. The messages are the readers' own.
import { describe, expect, it } from 'vitest';
import { NATIVE_MAPPING } from '../../src/config.js';
import { noReplyAt, readToolCalls } from '../../src/agent/response.js';
import { renderComment, renderMarkdownReport, renderSummary } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJUnit } from '../../src/report/junit.js';
import { count, expectBalancedTags, githubHtml, outsideCode, visibleText } from './helpers.js';
import { ctx, fixture, persona, run } from './fixtures.js';

/** An agent's answer whose keys would close a <details>, start emphasis, colour a terminal, run a script, mention someone. */
const ANSWER = JSON.parse('{"</details>`**x**": 1, "\\u001b[31m": 2, "<script>alert(1)</script>": 3, "@octocat #12": 4, "type": "</summary><img src=x>"}') as Record<string, unknown>;

const noReply = `message turn: ${noReplyAt(ANSWER, 'reply', undefined)}`;
const calls = readToolCalls({ toolCalls: [ANSWER] }, NATIVE_MAPPING);
const notACall = `turn 1: ${calls.ok ? '' : calls.error}`;

function record(): ReturnType<typeof run> {
  return run(
    [fixture('keys', { reply: null, route: null, verdict: null, errored: true, error: noReply, errorKind: 'missing_reply', detail: noReply, drift: null })],
    { personas: [persona('keys-script', { errored: true, error: notACall, errorKind: 'invalid_response', verdict: null, drift: null, unsent: [] })] },
  );
}

describe("an agent's JSON keys quoted in an error", () => {
  it('are quoted by the readers as sent (the test would prove nothing otherwise)', () => {
    expect(noReply).toContain('(keys: </details>`**x**, \u001b[31m, <script>alert(1)</script>, @octocat #12, type)');
    expect(notACall).toContain('found an object of type "</summary><img src=x>" (keys: </details>`**x**');
  });

  for (const [surface, render] of [
    ['the PR comment', () => renderComment(record(), ctx)],
    ['the job summary', () => renderSummary(record(), ctx)],
    ['the --markdown report', () => renderMarkdownReport(record(), ctx)],
  ] as const) {
    it(`${surface}: shown as text, with no tag, emphasis, mention or control character of their own`, () => {
      const md = render();
      const html = githubHtml(md);
      expect(html).not.toContain('\u001b');
      expect(html).not.toMatch(/<script|<img|<strong>x<\/strong>/);
      // No <details> or <summary> closed early by a key.
      expect(count(html, '</details>')).toBe(count(html, /<details[ >]/));
      expect(count(html, '</summary>')).toBe(count(html, '<summary>'));
      expect(outsideCode(html)).not.toMatch(/@octocat|#12\b/);
      // Shown as sent (less the control character), in the item's line and in the cause.
      const visible = visibleText(html).replace(/\u2060/g, '');
      expect(visible).toContain('</details>`**x**, [31m, <script>alert(1)</script>, @octocat #12, type');
      expect(visible).toContain('"</summary><img src=x>"');
    });
  }

  it('report.html: escaped in the page and in its data, no control character', () => {
    const html = renderHtml(record());
    expect(html).not.toContain('\u001b');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('</details>`');
    expect(html).not.toContain('<img src=x>');
    expect(html).toContain('&lt;/details&gt;`**x**');
  });

  it('JUnit XML: escaped in attributes and text, no control character, every tag balanced', () => {
    const xml = renderJUnit(record());
    expect(xml).not.toContain('\u001b');
    expect(xml).not.toMatch(/<script|<img|<\/details>|<\/summary>/);
    expect(xml).toContain('&lt;/details&gt;`**x**, [31m, &lt;script&gt;alert(1)&lt;/script&gt;');
    expectBalancedTags(xml);
  });
});
