// Whose tokens the reports show (docs/latency.md, "Usage"): the agent's turns' reported usage,
// never the judge's, the meaning judge's or the simulator's calls (counted as calls beside it).
// Every surface says "agent tokens reported", so a reviewer does not read them as the run's bill.
import { describe, expect, it } from 'vitest';
import { renderComment, renderSummary, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { ctx, fixture, run } from './fixtures.js';
import { githubHtml, visibleText } from './helpers.js';

const record = () => run([fixture('refund', { usage: { inputTokens: 9100, outputTokens: 3300 } })]);

describe('the tokens line says whose tokens they are', () => {
  it('the comment and the job summary', () => {
    expect(visibleText(githubHtml(renderComment(record(), ctx)))).toContain('· agent tokens reported: 12.4k (9.1k in, 3.3k out) ·');
    expect(renderSummary(record(), ctx)).toContain('agent tokens reported: 12.4k (9.1k in, 3.3k out)');
  });

  it('the terminal', () => {
    expect(renderTerminal(record(), { color: false })).toContain('· agent tokens reported: 12.4k (9.1k in, 3.3k out)');
  });

  it('report.html', () => {
    expect(renderHtml(record())).toContain('<span class="n">12.4k</span><span class="k">agent tokens reported (9.1k in, 3.3k out)</span>');
  });
});
