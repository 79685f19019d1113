// Spend (docs/semantics.md, "Cost") beside the estimate: one calm facts line in the terminal, the
// comment and the summary; never an amount of its own, and nothing for records written before spend
// was counted.

import { describe, expect, it } from 'vitest';
import { renderComment, renderSummary, renderTerminal } from '../../src/report/index.js';
import { spendText } from '../../src/report/spend.js';
import { renderHtml } from '../../src/report/html.js';
import { ctx, mixed } from './fixtures.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

describe('spend beside the estimate', () => {
  it('reads as counts of requests, retries and reuse only when there were some', () => {
    expect(spendText({ agentTurns: 24, agentRetries: 0, judgeCalls: 3, judgeRetries: 0, judgeReused: 0 })).toBe('24 agent turns, 3 judge calls made');
    expect(spendText({ agentTurns: 1, agentRetries: 2, judgeCalls: 0, judgeReused: 0 })).toBe('1 agent turn (2 retries)');
    expect(spendText({ agentTurns: 1200, agentRetries: 1, judgeCalls: 1, judgeRetries: 1, judgeReused: 5 })).toBe(
      '1,200 agent turns (1 retry), 1 judge call made (1 retry), 5 judge results reused',
    );
    expect(spendText(undefined)).toBeNull();
  });

  it("says the agent's requests and their retries beside the turns answered when they differ", () => {
    const base = { judgeCalls: 0, judgeReused: 0 };
    expect(spendText({ ...base, agentTurns: 0, agentRetries: 2, agentRequests: 3 })).toBe('0 agent turns answered in 3 requests (2 retries)');
    quotedAndSaid(spendText({ ...base, agentTurns: 0, agentRetries: 2, agentRequests: 3 }) ?? '', '<n> agent turns answered in <n> requests (<n> retries)');
    expect(spendText({ ...base, agentTurns: 24, agentRetries: 3, agentRequests: 27 })).toBe('24 agent turns answered in 27 requests (3 retries)');
    // A 400 is not retried and not a turn answered.
    expect(spendText({ ...base, agentTurns: 5, agentRetries: 0, agentRequests: 6 })).toBe('5 agent turns answered in 6 requests');
    expect(spendText({ ...base, agentTurns: 1, agentRetries: 0, agentRequests: 1 })).toBe('1 agent turn');
  });

  it('names the meaning calls made, reused and avoided (docs/meaning.md, "Cost"), and nothing when no reply differed', () => {
    const base = { agentTurns: 30, agentRetries: 0, judgeCalls: 0, judgeReused: 0 };
    expect(spendText({ ...base, meaningCalls: 2, meaningReused: 1, meaningAvoided: 27 })).toBe('30 agent turns, meaning: 2 calls made, 1 reused, 27 decided without a model');
    expect(spendText({ ...base, meaningCalls: 0, meaningReused: 0, meaningAvoided: 1 })).toBe('30 agent turns, meaning: 1 decided without a model');
    expect(spendText({ ...base, meaningCalls: 0, meaningReused: 0, meaningAvoided: 0 })).toBe('30 agent turns');
    // The judge's retries count the meaning judge's: said after the meaning calls, as both's.
    expect(spendText({ ...base, judgeCalls: 1, judgeRetries: 26, meaningCalls: 12, meaningAvoided: 8 })).toBe(
      '30 agent turns, 1 judge call made, meaning: 12 calls made, 8 decided without a model, 26 retries of judge and meaning calls',
    );
    expect(spendText({ ...base, judgeRetries: 1, meaningCalls: 2 })).toBe('30 agent turns, meaning: 2 calls made, 1 retry of meaning calls');
  });

  it('sits on the facts line of every surface, next to the estimate', () => {
    const run = { ...mixed(), spend: { agentTurns: 24, agentRetries: 0, judgeCalls: 3, judgeRetries: 0, judgeReused: 0 } };
    const line = (text: string): string => text.split('\n').find((l) => l.includes('estimated')) ?? '';
    for (const out of [renderTerminal(run, { color: false }), renderComment(run, ctx), renderSummary(run, ctx)]) {
      expect(line(out)).toMatch(/≈ \$[\d.]+ estimated \(cap \$[\d.]+\)( · ran above the cap: confirmed)? · 24 agent turns, 3 judge calls made( ·|$)/);
    }
    expect(line(renderTerminal(mixed(), { color: false }))).not.toContain('agent turn');
  });

  it('sits in report.html\'s cost card too, under the estimate, as the other surfaces say it', () => {
    const run = { ...mixed(), spend: { agentTurns: 36, agentRetries: 8, judgeCalls: 9, judgeRetries: 3, judgeReused: 0, simulatorCalls: 6, simulatorRetries: 2 } };
    const html = renderHtml(run);
    // The card said "estimated cost (cap $0.10)" alone: what the run asked for was on every surface but this one.
    expect(html).toMatch(/<span class="k">estimated cost \(cap \$[\d.]+\)(, ran above the cap: confirmed)? · 36 agent turns \(8 retries\), 9 judge calls made \(3 retries\), 6 simulator calls made \(2 retries\)<\/span>/);
    expect(renderHtml(mixed())).not.toContain('agent turn');
  });
});
