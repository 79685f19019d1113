// Whose tokens the reports show (docs/latency.md, "Usage"): the agent's turns' reported usage,
// never the judge's, the meaning judge's or the simulator's calls (counted as calls beside it).
// Every surface says "agent tokens reported", so a reviewer does not read them as the run's bill.
import { describe, expect, it } from 'vitest';
import { renderComment, renderSummary, renderTerminal } from '../../src/report/index.js';
import { renderHtml } from '../../src/report/html.js';
import { baseline, ctx, fixture, run } from './fixtures.js';
import { usageText } from '../../src/report/usage.js';
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

describe('the change against the baselines, in whole percent', () => {
  const against = (now: number, before: number): string | null =>
    usageText(run([fixture('refund', { usage: { inputTokens: now, outputTokens: 0 }, baseline: { ...baseline('refund', 'Reply.'), usage: { inputTokens: before, outputTokens: 0 } } })]));

  it('half a percent either way rounds away from ±0%, the same both ways', () => {
    // 1005 / 1000 - 1 is 0.004999999999999893 in floating point: +0.5% read "±0%" while -0.5% read "-1%".
    expect(against(1005, 1000)).toBe('agent tokens reported: 1k (1k in, 0 out), +1% vs baselines');
    expect(against(995, 1000)).toBe('agent tokens reported: 995 (995 in, 0 out), -1% vs baselines');
    expect(against(1004, 1000)).toContain('±0% vs baselines');
    expect(against(996, 1000)).toContain('±0% vs baselines');
    expect(against(1180, 1000)).toContain('+18% vs baselines');
  });
});

describe("items whose tokens are some turns' alone, left out of the change", () => {
  const kept = (label: string) => ({ ...baseline(label, 'Reply.'), usage: { inputTokens: 1000, outputTokens: 0 } });
  const welcomeOnly = (label: string) => fixture(label, { usage: { inputTokens: 10, outputTokens: 0 }, usagePartial: true, baseline: kept(label) });
  const whole = fixture('whole', { usage: { inputTokens: 1180, outputTokens: 0 }, baseline: kept('whole') });

  it('says how many and why, beside the change or in its place; report.html the same in its card', () => {
    expect(usageText(run([whole, welcomeOnly('a')]))).toBe('agent tokens reported: 1.2k (1.2k in, 0 out), +18% vs baselines (1 item left out: its turns did not all report tokens)');
    expect(usageText(run([welcomeOnly('a'), welcomeOnly('b')]))).toBe('agent tokens reported: 20 (20 in, 0 out), none compared with baselines (2 items left out: their turns did not all report tokens)');
    expect(renderHtml(run([whole, welcomeOnly('a')]))).toContain('agent tokens reported (1.2k in, 0 out, +18% vs baselines; 1 item left out: its turns did not all report tokens)');
  });
});
