// A list in a sentence that is cut, the rest counted, reads one way on every surface: "a, b, c and
// 4 more" (src/words.ts, listAndMore; docs/architecture.md, words.ts). The comment wrote ", and 4
// more" for its flaky items and the terminal ", +4 more"; report.html and the terminal ", and 4
// more" for removed baselines. Items that hold commas of their own (a JSON input) are set apart by
// "; ", and so is the count: "a; b; and 4 more".

import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import type { FixtureRecord, RemovedBaseline } from '../../src/types.js';
import { check, ctx, fixture, persona, resetLines, run } from './fixtures.js';

const flaky = (label: string): FixtureRecord => fixture(label, { repeat: { count: 3, minPass: 2, passed: 2, flaky: true } } as Partial<FixtureRecord>);

describe('the flaky items, past the first 10', () => {
  it('the comment and the terminal name 10, then "and N more"', () => {
    resetLines();
    const r = run(Array.from({ length: 12 }, (_, i) => flaky(`coin-${i}`)));
    const named = Array.from({ length: 10 }, (_, i) => `coin-${i}`);
    expect(renderComment(r, ctx)).toContain(`(passes/attempts shown as k/N): ${named.map((l) => `\`${l}\``).join(', ')} and 2 more\n`);
    expect(renderTerminal(r, { color: false })).toContain(`(attempts disagree; passes/attempts shown as k/N): ${named.join(', ')} and 2 more\n`);
  });
});

describe('the removed baselines, past the first 20', () => {
  it('report.html and the terminal name 20, then "and N more", as the comment counts them', () => {
    resetLines();
    const removed: RemovedBaseline[] = Array.from({ length: 1_025 }, (_, i) => ({ label: `gone-${i}`, kind: 'fixture', file: `.agent-replay/baselines/gone-${i}.json` }));
    const r = run([fixture('kept')], { removed });
    const first = removed.slice(0, 20);
    expect(renderTerminal(r, { color: false })).toContain(`Removed (1,025): ${first.map((b) => b.label).join(', ')} and 1,005 more: baselines whose`);
    expect(renderHtml(r)).toContain(`Removed (1,025): ${first.map((b) => `${b.label} (${b.file})`).join(', ')} and 1,005 more: accepted baselines`);
  });
});

describe("a script's tool check that saw other inputs only", () => {
  it('names 3 calls, "; " between them (their JSON holds commas), then "; and N more"', () => {
    resetLines();
    const calls = Array.from({ length: 5 }, (_, i) => ({ turn: i + 1, input: { orderId: String(i), lang: 'en' } }));
    const script = persona('refund-check', { verdict: 'fail', checks: [check.toolCalled('find_order', { orderId: '9' }, calls, null)], drift: { transcript: 'same', route: 'same', verdict: 'newly_failing' } });
    const md = renderComment(run([], { personas: [script] }), ctx);
    expect(md).toContain('other inputs only: turn 1 `{"orderId": "0", "lang": "en"}`; turn 2 `{"orderId": "1", "lang": "en"}`; turn 3 `{"orderId": "2", "lang": "en"}`; and 2 more');
  });
});
