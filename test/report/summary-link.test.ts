// No link inside a <summary> (docs/action.md, "Accessibility"): the control that opens an item is
// not also a link, which a keyboard or a screen reader cannot reach apart from it and a click on
// which leaves the page. The summary names the item's file as text; the opened body's first line
// links it. Every kind of item: a fixture, a persona script, a reworded item, the items under a
// cause; in the comment and in the job summary, which share the rendering.

import { describe, expect, it } from 'vitest';
import { renderComment, renderMarkdownReport, renderSummary } from '../../src/report/index.js';
import type { FixtureRecord, RunRecord } from '../../src/types.js';
import { baseline, ctx, fixture, mixed, mixedWithPersonas, persona, resetLines, run, SHA } from './fixtures.js';
import { docsUrl } from '../../src/version.js';
import { meaningRun } from './meaning-fixtures.js';
import { githubHtml } from './helpers.js';

/** Two errored on one cause and two not evaluated on another: each said once above its items. */
function underCauses(): RunRecord {
  resetLines();
  const errored = (label: string, error: string): FixtureRecord =>
    fixture(label, { errored: true, errorKind: 'http', error, reply: null, route: null, verdict: null, drift: null, detail: '', baseline: baseline(label, `Stored reply of ${label}.`) });
  const unjudged = (label: string): FixtureRecord => fixture(label, { verdict: 'not_evaluated', detail: 'judge unreachable: HTTP 503 after 3 retries', baseline: baseline(label, `Stored reply of ${label}.`) });
  return run([errored('refund-policy', 'message turn: agent returned HTTP 404 after 1 attempt'), errored('opening-hours', 'welcome turn: agent returned HTTP 404 after 1 attempt'), unjudged('gift-cards'), unjudged('store-credit')]);
}

const RUNS: [string, () => RunRecord][] = [
  ['fixtures', mixed],
  ['persona scripts', mixedWithPersonas],
  ['reworded items', meaningRun],
  ['items under a cause', underCauses],
];

const LINK = new RegExp(`^<p><a href="https://github\\.com/acme/shop-bot/blob/${SHA}/\\.agent-replay/[^"]+#L(\\d+)">([^<]+)</a></p>$`);

describe('no link inside a <summary>', () => {
  it.each(RUNS)('%s: the summary names the file as text, the opened body links it first (comment and job summary)', (_name, record) => {
    for (const md of [renderComment(record(), ctx), renderSummary(record(), ctx)]) {
      const html = githubHtml(md);
      for (const [, summary] of html.matchAll(/<summary>([\s\S]*?)<\/summary>/g)) expect(summary, summary).not.toContain('<a ');
      // An item's summary has its label in bold; the body's first line follows it.
      const items = [...html.matchAll(/<summary>([^\n]*?<b>[\s\S]*?)<\/summary>\n([^\n]*)/g)];
      expect(items.length).toBeGreaterThanOrEqual(3);
      for (const [, summary, first] of items) {
        const link = LINK.exec(first ?? '');
        expect(link, `${summary}\nthen: ${first}`).not.toBeNull();
        // The summary says the same file and line, as words.
        expect(summary).toContain(` · ${link?.[2]}`);
        expect(link?.[2]).toMatch(new RegExp(`:${link?.[1]}$`));
      }
    }
  });

  it("a page of agent-replay's that the item's line cites is text there, and the opened item links it after its file (fixture and script)", () => {
    resetLines();
    const url = docsUrl('traces.md', 'Fixtures');
    const cited = `the agent does not report tool calls: map agent.response.toolCalls to where its response lists them, or see ${url} for an agent that answers with text alone`;
    const record = run([fixture('plain-text-agent', { verdict: 'not_evaluated', detail: cited, baseline: baseline('plain-text-agent', 'Reply for plain-text-agent.') })], {
      personas: [persona('refund-dialog', { errored: true, error: `turn 2: ${cited}`, errorKind: 'http', verdict: null, drift: null })],
    });
    for (const md of [renderComment(record, ctx), renderSummary(record, ctx)]) {
      const html = githubHtml(md).replace(/\u2060|&#8288;/g, '');
      const items = [...html.matchAll(/<summary>([^\n]*?<b>[\s\S]*?)<\/summary>\n([^\n]*)/g)];
      expect(items.map((m) => /<b>([^<]*)<\/b>/.exec(m[1] ?? '')?.[1])).toEqual(['plain-text-agent', 'refund-dialog']);
      for (const [, summary, first] of items) {
        expect(summary).not.toContain('<a ');
        expect(summary).toContain('or see docs/traces.md#fixtures for an agent');
        expect(first).toMatch(new RegExp(`^<p><a href="https://github\\.com/acme/shop-bot/blob/${SHA}/[^"]+">[^<]+</a> · <a href="${url}">docs/traces\\.md#fixtures</a></p>$`));
      }
    }
  });

  it('without the repository (the CLI), the summary keeps the path as code and the body adds no line', () => {
    const md = renderMarkdownReport(mixed());
    expect(md).toContain('<code>.agent-replay/fixtures/suite.yml:10</code><br>regex /30 days/i: no match in the reply</summary>\n\n**Message** (persona `returning-customer`)');
  });
});
