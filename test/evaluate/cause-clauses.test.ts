// A cause's words (src/evaluate/causes.ts: causeWords, and the error path's first clause) as the
// terminal and the PR comment show its group line: what happened, never cut inside one of its
// parentheses, and one fix, the cause's own (docs/troubleshooting.md, "Not evaluated").

import { describe, expect, it } from 'vitest';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { escapeInline } from '../../src/report/escape.js';
import type { FixtureRecord } from '../../src/types.js';
import { baseline, ctx, fixture, resetLines, run } from '../report/fixtures.js';

function errored(label: string, error: string): FixtureRecord {
  return fixture(label, { errored: true, errorKind: 'agent_error', error, reply: null, route: null, verdict: null, drift: null, detail: '', baseline: baseline(label, `Stored reply of ${label}.`) });
}

function notEvaluated(label: string, detail: string): FixtureRecord {
  return fixture(label, { verdict: 'not_evaluated', detail });
}

/** The run's cause as its group line says it: on the terminal (after "cause: ") and in the comment (after "**Cause**: "). */
function causeLines(items: FixtureRecord[]): { terminal: string; comment: string } {
  resetLines();
  const record = run(items, { agent: { host: '127.0.0.1:3000', endpoint: 'http://127.0.0.1:3000/api/chat' } });
  const terminal = renderTerminal(record, { color: false }).split('\n').find((l) => l.startsWith('  cause: ')) ?? '';
  const comment = renderComment(record, ctx).split('\n').find((l) => l.startsWith('**Cause**: ')) ?? '';
  return { terminal: terminal.slice('  cause: '.length), comment: comment.slice('**Cause**: '.length) };
}

describe("a cause's group line", () => {
  it('an error whose "; " stands inside a parenthesis is said to its end, the parenthesis closed; a "; " outside one still ends it', () => {
    // An ERROR span's message, as the agent wrote it (docs/traces.md, "Errors").
    const error = 'message turn: the agent reported an error (exception, tool lookup_order): order service failed (HTTP 429 from orders-api; given up after 3 tries)';
    const { terminal, comment } = causeLines([errored('a', error), errored('b', error)]);
    // It was cut at the first "; ": "...order service failed (HTTP 429 from orders-api", the "(" never closed.
    const said = 'the agent reported an error (exception, tool lookup_order): order service failed (HTTP 429 from orders-api; given up after 3 tries)';
    expect(terminal).toBe(`all 2: ${said}`);
    expect(comment).toBe(escapeInline(`all 2: ${said}`));
    // Advice after a "; " of its own, outside the parentheses, is still left out.
    const advised = causeLines([errored('a', `${error}; retry later`), errored('b', `${error}; retry later`)]);
    expect(advised.terminal).toBe(`all 2: ${said}`);
  });

  it('an error cut at its first line break says it was cut: the ellipsis, then what closes each bracket and quote the cut left open', () => {
    // An ERROR span's message over two lines: its first line was shown as "failed (code: 500", the "(" never closed.
    const one = causeLines([errored('a', 'message turn: the agent reported an error (exception): failed (code: 500\n details)')]);
    expect(one.terminal).toBe('the agent reported an error (exception): failed (code: 500\u2026)');
    expect(one.comment).toBe(escapeInline('the agent reported an error (exception): failed (code: 500\u2026)'));
    const nested = 'message turn: the agent reported an error (exception): failed (code: 500, body: {"error": "upstream\r\ngone"})';
    const two = causeLines([errored('a', nested), errored('b', nested)]);
    expect(two.terminal).toBe('all 2: the agent reported an error (exception): failed (code: 500, body: {"error": "upstream\u2026"})');
    expect(two.comment).toBe(escapeInline('all 2: the agent reported an error (exception): failed (code: 500, body: {"error": "upstream\u2026"})'));
    // A first line that closes what it opens is shown as it is, with no ellipsis.
    expect(causeLines([errored('a', 'message turn: the agent reported an error (exception): failed (code: 500)\nat line 2')]).terminal).toBe('the agent reported an error (exception): failed (code: 500)');
  });

  it("a judge's or simulator's reason that ends in its own fix says what happened, then the cause's one fix", () => {
    const judge = 'judge unreachable: the request was not sent: the judge key (judge.apiKey) holds a line break or a character outside Latin-1 (UND_ERR_INVALID_ARG); check its value';
    expect(judge.length).toBeLessThanOrEqual(200);
    const fix = 'set the judge key (judge.apiKey) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from (a secret pasted with a line break)';
    const happened = 'judge unreachable: the request was not sent: the judge key (judge.apiKey) holds a line break or a character outside Latin-1 (UND_ERR_INVALID_ARG)';
    // It said "...(UND_ERR_INVALID_ARG); check its value: set the judge key ...": two fixes.
    const j = causeLines([notEvaluated('a', judge), notEvaluated('b', judge)]);
    expect(j.terminal).toBe(`all 2: ${happened}: ${fix}`);
    expect(j.comment).toBe(escapeInline(`all 2: ${happened}: ${fix}`));
    const simulator = "simulator unreachable: the request was not sent: the simulator's key (simulator.apiKey, else the judge's) holds a line break or a character outside Latin-1 (UND_ERR_INVALID_ARG); check its value";
    expect(simulator.length).toBeLessThanOrEqual(200);
    const s = causeLines([notEvaluated('a', simulator), notEvaluated('b', simulator)]);
    expect(s.terminal).toMatch(/^all 2: simulator unreachable: .* \(UND_ERR_INVALID_ARG\): set the simulator's key /);
    expect(s.terminal).not.toContain('check its value');
  });
});

// Items grouped under one cause whose words differ (src/evaluate/causes.ts, causeGroups): the group line
// says what they share, never the first item's count, nor a quote or parenthesis it leaves open.
describe("a group's line over items worded differently", () => {
  it('an attempt count of its own: the words before it', () => {
    const { terminal } = causeLines([errored('a', 'turn 2: the agent reported an error (orders): order service failed after 3 tries'), errored('b', 'turn 1: the agent reported an error (orders): order service failed after 2 tries')]);
    expect(terminal).toBe('all 2: the agent reported an error (orders): order service failed');
  });

  it('a server message of its own, in quotes: none of it', () => {
    const { terminal } = causeLines([errored('a', 'the agent reported an error (orders): "upstream down (retry in 5 s)"'), errored('b', 'the agent reported an error (orders): "upstream down (retry in 9 s)"')]);
    expect(terminal).toBe('all 2: the agent reported an error (orders)');
  });
});
