// A small builder for RunRecords used by the report tests and golden files.

import type { Baseline, Check, FixtureRecord, PersonaBaseline, PersonaRecord, ReplayedPersonaRecord, Route, RunRecord, ToolCall, Turn } from '../../src/types.js';
import type { ReportContext } from '../../src/report/index.js';
import { fixtureRecord } from '../support/fixture-record.js';
import { jsonText } from '../../src/assertions/format.js';

export const SHA = '3f5e2a9c8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f';

export const ctx: ReportContext = {
  marker: 'agent-replay:ci.yml',
  headSha: SHA,
  runId: '9876543210',
  artifactName: 'agent-replay-results',
  // As the Action sets it (src/action/publish.ts): the checked-out commit, short; the CLI's AGENT_REPLAY_BASELINES_REF may name a branch.
  baselinesRef: SHA.slice(0, 7),
  acceptLabel: 'accept-baseline',
  confirmLabel: 'confirm-cost',
  summaryUrl: 'https://github.com/acme/shop-bot/actions/runs/9876543210',
  artifactUrl: 'https://github.com/acme/shop-bot/actions/runs/9876543210/artifacts/42',
  repositoryUrl: 'https://github.com/acme/shop-bot',
  acceptance: null,
};

export const route = (conversation: string, stage: string): Route => ({ conversation, stage });

export function baseline(label: string, reply: string, verdict: 'pass' | 'fail' = 'pass', r: Route | null = route('main', 'answer')): Baseline {
  return { label, reply, route: r, verdict, acceptedAt: '2026-11-30T10:00:00Z', commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' };
}

let line = 0;
let personaLine = 0;

/** A fixture entry; defaults to an unchanged, still-passing `contains` fixture. */
export function fixture(label: string, over: Partial<FixtureRecord> = {}): FixtureRecord {
  line += 4;
  const reply = over.reply === undefined ? `Reply for ${label}.` : over.reply;
  return fixtureRecord(over, {
    label,
    file: '.agent-replay/fixtures/suite.yml',
    line: line + 2,
    message: `Message for ${label}`,
    assertion: { kind: 'contains', value: 'Reply' },
    reply,
    route: route('main', 'answer'),
    detail: 'contains "Reply": found',
    drift: { reply: 'same', route: 'same', verdict: 'still_passing' },
    baseline: baseline(label, reply ?? ''),
    durationMs: 1234,
  } as Partial<FixtureRecord>);
}

/**
 * The bulk builders' (many, mixedMany) lines: 6, 10, ... 398, then 2 and on again every hundred, as the
 * builder numbered them when its counter wrapped. What fits in a comment, and so these goldens and
 * the size tests, depends on the lines' width; the order of these items is never compared.
 */
function shortLines(fixtures: FixtureRecord[]): FixtureRecord[] {
  return fixtures.map((f, i) => ({ ...f, line: ((4 * (i + 1)) % 400) + 2 }));
}

/** Starts the builders' line numbers again (fixtures' and persona scripts'), so goldens do not depend on what was built before. */
export function resetLines(): void {
  line = 0;
  personaLine = 0;
}

/** A run record around the fixtures (and `over.personas`); tallies derived from them. */
export function run(fixtures: FixtureRecord[], over: Partial<RunRecord> = {}): RunRecord {
  const tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  for (const f of [...fixtures, ...(over.personas ?? [])]) {
    if (f.errored) tallies.errored++;
    else if (f.verdict === 'pass') tallies.passed++;
    else if (f.verdict === 'fail') tallies.failed++;
    else tallies.notEvaluated++;
  }
  return {
    schemaVersion: 1,
    tool: { name: 'agent-replay', version: '0.1.0' },
    startedAt: '2026-12-01T09:00:00.000Z',
    finishedAt: '2026-12-01T09:00:12.345Z',
    durationMs: 12345,
    commit: SHA,
    agent: { host: 'preview-42.shop-bot.example.com' },
    judge: { name: 'openai gpt-4o-mini' },
    estimate: { usd: 0.09, capUsd: 0.1, aboveCap: false, confirmed: false },
    tallies,
    interrupted: false,
    fixtures,
    personas: [],
    ...over,
  };
}

export function allGreen(): RunRecord {
  resetLines();
  const labels = ['welcome-greeting', 'opening-hours', 'refund-policy', 'shipping-times', 'order-status', 'store-locations'];
  return run(
    labels.map((l, i) =>
      i === 1 ? fixture(l, { assertion: null, detail: 'probe: no assertion' }) : fixture(l),
    ),
    { estimate: { usd: 0.06, capUsd: 0.1, aboveCap: false, confirmed: false }, judge: { name: null } },
  );
}

/** Every verdict, each of the six drift values, errored, not evaluated, a probe, a judge with a score. */
export function mixed(): RunRecord {
  resetLines();
  const refundOld = 'Returns are accepted within 30 days of delivery. Keep your receipt.';
  const refundNew = 'Returns are accepted within 14 days of delivery.\nKeep your receipt and the original box.';
  const fixtures: FixtureRecord[] = [
    fixture('welcome-greeting', { reply: 'Welcome to Shop Bot! How can I help?', detail: 'contains "Welcome": found' }),
    fixture('refund-policy', {
      message: 'Can I get my money back?',
      persona: 'returning-customer',
      assertion: { kind: 'regex', pattern: '30 days', flags: 'i' },
      reply: refundNew,
      route: route('refunds', 'exceptions'),
      verdict: 'fail',
      detail: 'regex /30 days/i: no match in the reply',
      drift: { reply: 'different', route: 'different', verdict: 'newly_failing' },
      baseline: baseline('refund-policy', refundOld, 'pass', route('refunds', 'policy')),
    }),
    fixture('polite-refusal', {
      message: 'Tell me a competitor secret',
      assertion: { kind: 'judge', criterion: 'The reply refuses politely and offers an alternative.', threshold: 0.7 },
      reply: 'I cannot share that. I can help you compare our plans instead.',
      verdict: 'pass',
      detail: 'judge score 0.91 >= threshold 0.70',
      score: 0.91,
      threshold: 0.7,
      rationale: 'Refuses clearly and offers a comparison.',
      drift: { reply: 'different', route: 'same', verdict: 'newly_passing' },
      baseline: baseline('polite-refusal', 'No.', 'fail'),
    }),
    fixture('opening-hours', {
      message: 'When are you open?',
      assertion: null,
      reply: 'We are open 9:00-18:00, Monday to Saturday.',
      detail: 'probe: no assertion',
      drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
      baseline: baseline('opening-hours', 'We are open 9:00-17:00, Monday to Friday.'),
    }),
    fixture('escalate-angry', {
      assertion: { kind: 'contains', value: 'human agent' },
      reply: 'Let me look into that for you.',
      route: route('handoff', 'queue'),
      verdict: 'fail',
      detail: 'contains "human agent": not found',
      drift: { reply: 'same', route: 'different', verdict: 'still_failing' },
      baseline: baseline('escalate-angry', 'Let me look into that for you.', 'fail', route('support', 'triage')),
    }),
    fixture('phone-number', {
      assertion: { kind: 'regex', pattern: '(\\d+)+$', flags: '' },
      reply: 'Call us at 555-0100.',
      verdict: 'not_evaluated',
      detail: 'regex /(\\d+)+$/ did not finish within its 100 ms budget',
      drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' },
    }),
    fixture('gift-cards', {
      assertion: { kind: 'judge', criterion: 'Explains how gift cards work.', threshold: 0.7 },
      reply: 'Gift cards never expire.',
      verdict: 'not_evaluated',
      detail: 'judge unreachable: HTTP 503 after 3 retries',
      drift: { reply: 'different', route: 'same', verdict: 'not_evaluated' },
      baseline: baseline('gift-cards', 'Gift cards are valid for five years.'),
    }),
    fixture('loyalty-points', {
      reply: null,
      route: null,
      verdict: null,
      errored: true,
      error: 'message turn: no answer from the agent within 30,000 ms',
      errorKind: 'timeout',
      detail: 'message turn: no answer from the agent within 30,000 ms',
      drift: null,
      baseline: baseline('loyalty-points', 'You have 120 points.'),
    }),
    fixture('new-size-guide', {
      assertion: { kind: 'contains', value: 'size chart' },
      reply: 'See our size chart at the bottom of each product page.',
      detail: 'contains "size chart": found',
      drift: { reply: null, route: null, verdict: 'no_baseline' },
      baseline: null,
    }),
    fixture('new-warranty', {
      assertion: { kind: 'regex', pattern: '[unclosed', flags: '' },
      reply: 'All products have a two-year warranty.',
      verdict: 'not_evaluated',
      detail: 'regex /[unclosed/ does not compile: Unterminated character class',
      drift: { reply: null, route: null, verdict: 'no_baseline' },
      baseline: null,
    }),
    fixture('cancel-order', { detail: 'contains "Reply": found' }),
    fixture('still-wrong-currency', {
      assertion: { kind: 'contains', value: 'EUR' },
      reply: 'Prices are in USD.',
      verdict: 'fail',
      detail: 'contains "EUR": not found',
      drift: { reply: 'same', route: 'same', verdict: 'still_failing' },
      baseline: baseline('still-wrong-currency', 'Prices are in USD.', 'fail'),
    }),
  ];
  return run(fixtures, {
    estimate: { usd: 0.36, capUsd: 0.1, aboveCap: true, confirmed: true },
    judge: { name: 'demo judge (not a real model)' },
  });
}

export const HOSTILE =
  '| a | b |\n|---|---|\n' +
  '</details></summary><script>alert(1)</script><img src=x onerror=alert(2)>\n' +
  '@someone please look, fixes #123 and GH-45, see owner/repo#7\n' +
  '![img](https://evil.example/x.png) [link](https://evil.example) https://evil.example/raw www.evil.example\n' +
  '<!-- --> --> <!--\n' +
  '# Heading\n' +
  '```\nfenced ``` `````` code\n```\n' +
  '~~~\n' +
  '**bold** _em_ $x^2$ :smile: \\ & &amp; &#64;someone\n' +
  '\u001b[31mred\u001b[0m \u202Ereversed\u0007';

/** Hostile text in every field that comes from the agent or the fixtures. */
export function hostile(): RunRecord {
  resetLines();
  return run(
    [
      fixture('hostile-newly-failing', {
        message: `Say something nasty ${HOSTILE}`,
        persona: '@admin</summary>',
        reply: HOSTILE,
        route: route('x|y</details>', '@someone'),
        verdict: 'fail',
        detail: `contains "ok": not found in ${HOSTILE}`,
        drift: { reply: 'different', route: 'different', verdict: 'newly_failing' },
        baseline: baseline('hostile-newly-failing', `Old ${HOSTILE} reply`, 'pass', route('a', 'b')),
        file: '.agent-replay/fixtures/we|ird`name.yml',
      }),
      fixture('hostile-judge', {
        assertion: { kind: 'judge', criterion: HOSTILE, threshold: 0.7 },
        reply: HOSTILE,
        verdict: 'fail',
        score: 0.2,
        threshold: 0.7,
        rationale: HOSTILE,
        detail: 'judge score 0.20 < threshold 0.70',
        drift: { reply: 'same', route: 'same', verdict: 'still_failing' },
        baseline: baseline('hostile-judge', HOSTILE, 'fail'),
      }),
      fixture('hostile-errored', {
        reply: null,
        route: null,
        verdict: null,
        errored: true,
        error: `HTTP 500: ${HOSTILE}`,
        errorKind: 'http',
        detail: `HTTP 500: ${HOSTILE}`,
        drift: null,
      }),
      fixture('hostile-new', {
        reply: HOSTILE,
        drift: { reply: null, route: null, verdict: 'no_baseline' },
        baseline: null,
      }),
    ],
    { agent: { host: 'evil|host`<b>' }, judge: { name: '@judge <script>' } },
  );
}

/** N fixtures built programmatically: worst first must survive any trimming. */
export function many(n: number, replySize = 200): RunRecord {
  resetLines();
  const fixtures: FixtureRecord[] = [];
  const words = 'the quick brown fox jumps over the lazy dog while the agent replies politely'.split(' ');
  const text = (seed: number): string => {
    const out: string[] = [];
    let x = seed;
    while (out.join(' ').length < replySize) {
      x = (x * 1103515245 + 12345) % 2147483648;
      out.push(words[x % words.length] as string);
    }
    return out.join(' ');
  };
  for (let i = 0; i < n; i++) {
    const label = `fixture-${String(i).padStart(5, '0')}`;
    const kind = i % 10;
    if (kind === 0) {
      fixtures.push(
        fixture(label, {
          reply: text(i + 1),
          verdict: 'fail',
          detail: 'contains "Reply": not found',
          drift: { reply: 'different', route: 'same', verdict: 'newly_failing' },
          baseline: baseline(label, text(i)),
        }),
      );
    } else if (kind < 4) {
      fixtures.push(
        fixture(label, {
          reply: text(i + 1),
          drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
          baseline: baseline(label, text(i)),
        }),
      );
    } else fixtures.push(fixture(label, { reply: text(i) }));
  }
  return run(shortLines(fixtures), { estimate: { usd: n * 0.02, capUsd: 200, aboveCap: false, confirmed: false } });
}

const VOCABULARY = 'order refund parcel receipt window policy store card voucher courier address invoice warranty return label'.split(' ');

/** A paragraph of `sentences` sentences, deterministic in `seed`. */
export function paragraph(seed: number, sentences = 4): string {
  const out: string[] = [];
  let x = seed + 1;
  for (let s = 0; s < sentences; s++) {
    const words: string[] = [];
    for (let w = 0; w < 9 + (x % 7); w++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      words.push(VOCABULARY[x % VOCABULARY.length] as string);
    }
    out.push(`${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
  }
  return out.join(' ');
}

/** A multi-paragraph reply: `paragraphs` paragraphs separated by blank lines. */
export function longReply(seed: number, paragraphs = 3): string {
  return Array.from({ length: paragraphs }, (_, i) => paragraph(seed * 31 + i)).join('\n\n');
}

/** Real-length replies: paragraphs, a two-word change in a long reply, a long line, a multi-line message. */
export function longReplies(): RunRecord {
  resetLines();
  const policy = longReply(1, 4);
  const policyNew = policy.replace(/\bparcel\b/, 'package').replace(/voucher(?![\s\S]*voucher)/, 'coupon');
  const hours = 'We are open Monday to Friday from nine in the morning until six in the evening, on Saturdays from ten until four, and closed on Sundays and public holidays.';
  return run([
    fixture('refund-policy-long', {
      message: 'Can I get my money back?\nI bought it three weeks ago.\nThe box is opened.',
      reply: policyNew,
      verdict: 'fail',
      assertion: { kind: 'judge', criterion: 'States the 30-day window and the receipt rule.', threshold: 0.7 },
      detail: 'judge score 0.40 < threshold 0.70',
      score: 0.4,
      threshold: 0.7,
      rationale: 'Mentions the window but not the receipt.',
      drift: { reply: 'different', route: 'same', verdict: 'newly_failing' },
      baseline: baseline('refund-policy-long', policy),
    }),
    fixture('opening-hours-long', {
      reply: `${hours.replace('six', 'seven')}\n\n${paragraph(7, 2)}`,
      drift: { reply: 'different', route: 'same', verdict: 'still_passing' },
      baseline: baseline('opening-hours-long', `${hours}\n\n${paragraph(7, 2)}`),
    }),
    fixture('shipping-rewrite', {
      reply: longReply(9, 2),
      route: route('shipping', 'rates'),
      drift: { reply: 'different', route: 'different', verdict: 'still_passing' },
      baseline: baseline('shipping-rewrite', longReply(8, 2), 'pass', route('shipping', 'times')),
    }),
    fixture('new-long-answer', {
      reply: `${longReply(5, 2)}\n${'x'.repeat(150)}`,
      drift: { reply: null, route: null, verdict: 'no_baseline' },
      baseline: null,
    }),
    fixture('agent-500', {
      reply: null,
      route: null,
      verdict: null,
      errored: true,
      error: 'HTTP 500 from the agent:\n<html>\n<body>Internal Server Error</body>\n</html>',
      errorKind: 'http',
      detail: 'HTTP 500 from the agent',
      drift: null,
    }),
    fixture('greeting'),
  ]);
}

/**
 * `n` fixtures of every kind in turn (newly failing, still failing, changed reply, changed route,
 * newly passing, new, not evaluated, errored, unchanged), with multi-paragraph replies.
 */
export function mixedMany(n: number): RunRecord {
  resetLines();
  const fixtures: FixtureRecord[] = [];
  for (let i = 0; i < n; i++) {
    const label = `case-${String(i).padStart(4, '0')}`;
    const old = longReply(i, 2);
    const changed = old.replace(/\bcard\b/, 'gift card');
    const kind = i % 12;
    const b = (reply: string, verdict: 'pass' | 'fail' = 'pass', r = route('main', 'answer')): FixtureRecord['baseline'] => baseline(label, reply, verdict, r);
    if (kind === 0) {
      fixtures.push(fixture(label, { reply: changed, verdict: 'fail', detail: 'contains "card": not found', drift: { reply: 'different', route: 'same', verdict: 'newly_failing' }, baseline: b(old) }));
    } else if (kind === 1) {
      fixtures.push(fixture(label, { reply: old, verdict: 'fail', detail: 'contains "EUR": not found', drift: { reply: 'same', route: 'same', verdict: 'still_failing' }, baseline: b(old, 'fail') }));
    } else if (kind === 2) {
      fixtures.push(fixture(label, { reply: changed, drift: { reply: 'different', route: 'same', verdict: 'still_passing' }, baseline: b(old) }));
    } else if (kind === 3) {
      fixtures.push(fixture(label, { reply: old, route: route('main', 'other'), drift: { reply: 'same', route: 'different', verdict: 'still_passing' }, baseline: b(old) }));
    } else if (kind === 4) {
      fixtures.push(fixture(label, { reply: changed, detail: 'contains "gift": found', drift: { reply: 'different', route: 'same', verdict: 'newly_passing' }, baseline: b(old, 'fail') }));
    } else if (kind === 5) {
      fixtures.push(fixture(label, { reply: old, drift: { reply: null, route: null, verdict: 'no_baseline' }, baseline: null }));
    } else if (kind === 6) {
      fixtures.push(fixture(label, { reply: old, verdict: 'not_evaluated', detail: 'judge unreachable: HTTP 503 after 3 retries', drift: { reply: 'same', route: 'same', verdict: 'not_evaluated' }, baseline: b(old) }));
    } else if (kind === 7) {
      fixtures.push(fixture(label, { reply: null, route: null, verdict: null, errored: true, error: 'message turn: no answer from the agent within 30,000 ms', errorKind: 'timeout', detail: 'message turn: no answer from the agent within 30,000 ms', drift: null, baseline: b(old) }));
    } else {
      fixtures.push(fixture(label, { reply: old, baseline: b(old) }));
    }
  }
  return run(shortLines(fixtures), { estimate: { usd: n * 0.02, capUsd: 20, aboveCap: false, confirmed: false } });
}

// ---------------------------------------------------------------------------------------------
// Persona scripts (docs/personas.md)

export function turn(index: number, message: string | null, reply: string, r: Route | null, over: Partial<Turn> = {}): Turn {
  return { index, message, reply, route: r, offTrack: [], toolCalls: [], outcome: null, errors: [], durationMs: 300, ...over };
}

export function toolCall(tool: string, input: ToolCall['input'], output: ToolCall['output'], mocked = true): ToolCall {
  return { tool, input, output, mocked };
}

/** The baseline a script would have stored for these turns. */
export function personaBaseline(label: string, turns: readonly Turn[], verdict: 'pass' | 'fail' = 'pass'): PersonaBaseline {
  const visited: string[] = [];
  for (const t of turns) if (t.route && !visited.includes(t.route.conversation)) visited.push(t.route.conversation);
  return {
    label,
    kind: 'persona',
    transcript: turns.map((t) => ({ message: t.message, reply: t.reply, route: t.route })),
    visited,
    outcome: turns[turns.length - 1]?.outcome ?? null,
    verdict,
    acceptedAt: '2026-11-30T10:00:00Z',
    commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  };
}

/** The refund dialog: a welcome turn, the opening, two follow-ups; a tool call on turn 2 and a handoff on turn 3. */
export function refundTurns(): Turn[] {
  return [
    turn(0, null, "Hi! I'm Shop Bot. How can I help?", route('main', 'welcome')),
    turn(1, 'I want my money back', "I'm sorry to hear that. What is your order number?", route('refunds', 'identify')),
    turn(2, 'Order 1234', 'I found order 1234: a kettle, delivered on 28 November. What went wrong?', route('refunds', 'lookup'), {
      toolCalls: [toolCall('find_order', { orderId: '1234' }, { status: 'delivered', item: 'kettle' })],
    }),
    turn(3, 'It arrived broken', "I'm sorry it arrived broken. I've passed this to a colleague who can arrange a replacement or a refund.", route('handoff', 'queue'), {
      outcome: 'handoff',
    }),
  ];
}

export const check = {
  conversations: (expected: string[], observed: string[]): Check => {
    const missing = expected.filter((e) => !observed.includes(e));
    return { kind: 'conversations', expected, observed, status: missing.length === 0 ? 'pass' : 'fail', detail: `visited: ${observed.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'}` };
  },
  terminal: (expected: 'finish' | 'handoff' | 'switch', observed: string | null): Check => ({
    kind: 'terminal',
    expected,
    observed,
    status: observed === expected ? 'pass' : 'fail',
    detail: observed === null ? `expected ${expected}: the conversation did not end` : `expected ${expected}, ended with ${observed}`,
  }),
  toolCalled: (tool: string, input: ToolCall['input'] | undefined, calls: { turn: number; input: ToolCall['input'] }[], matchTurn: number | null): Check => ({
    kind: 'toolCalled',
    expected: input === undefined ? { tool, match: 'subset' } : { tool, input, match: 'subset' },
    observed: calls.map((c) => ({ tool, input: c.input, output: null, mocked: true, turn: c.turn })),
    turn: matchTurn,
    status: matchTurn === null ? 'fail' : 'pass',
    detail: matchTurn === null ? `expected a call of ${tool}: ${tool} was not called` : `called ${tool} ${jsonText(input)} at turn ${matchTurn}`,
  }),
  toolNotCalled: (tool: string, calls: { turn: number; input: ToolCall['input'] }[]): Check => ({
    kind: 'toolNotCalled',
    expected: { tool, match: 'subset' },
    observed: calls.map((c) => ({ tool, input: c.input, output: null, mocked: true, turn: c.turn })),
    turn: calls[0]?.turn ?? null,
    status: calls.length > 0 ? 'fail' : 'pass',
    detail: calls.length > 0 ? `${tool} must not be called, but was at turn ${calls[0]?.turn}` : `not called: ${tool}`,
  }),
  criterion: (statement: string, score: number | null, rationale: string | null, reason = 'judge unreachable: HTTP 503 after 3 retries'): Check =>
    score === null
      ? { kind: 'criterion', expected: statement, observed: null, threshold: 0.7, status: 'not_evaluated', detail: reason, score: null, rationale: null }
      : {
          kind: 'criterion',
          expected: statement,
          observed: null,
          threshold: 0.7,
          status: score >= 0.7 ? 'pass' : 'fail',
          detail: `score ${score.toFixed(2)} ${score >= 0.7 ? '>=' : '<'} threshold 0.70: ${rationale ?? ''}`,
          score,
          rationale,
        },
};

function passingChecks(): Check[] {
  return [
    check.conversations(['refunds', 'handoff'], ['main', 'refunds', 'handoff']),
    check.terminal('handoff', 'handoff'),
    check.toolCalled('find_order', { orderId: '1234' }, [{ turn: 2, input: { orderId: '1234' } }], 2),
    check.toolNotCalled('issue_refund', []),
    check.criterion('Mentioned the order number', 0.95, 'The agent repeats order 1234 on turn 2.'),
  ];
}

/** A persona script's entry; defaults to the refund dialog, every check passing, unchanged. */
export function persona(label: string, over: Partial<PersonaRecord> = {}): PersonaRecord {
  personaLine += 12;
  const turns = over.turns ?? refundTurns();
  const visited: string[] = [];
  for (const t of turns) if (t.route && !visited.includes(t.route.conversation)) visited.push(t.route.conversation);
  return {
    label,
    file: '.agent-replay/personas/refunds.yml',
    line: personaLine,
    persona: 'impatient-refund-seeker',
    turns,
    unsent: [],
    visited,
    outcome: turns[turns.length - 1]?.outcome ?? null,
    checks: passingChecks(),
    baseline: personaBaseline(label, turns),
    durationMs: 1500,
    errored: false,
    error: null,
    errorKind: null,
    verdict: 'pass',
    drift: { transcript: 'same', route: 'same', verdict: 'still_passing' },
    ...over,
  } as PersonaRecord;
}

/**
 * One script of each kind: passing and unchanged; failing on coverage with drift from turn 3;
 * failing a tool check; a criterion not evaluated; errored on turn 3 with two turns kept; ended
 * early with follow-ups unsent; reworded (changed, still passing).
 */
export function personaScripts(): PersonaRecord[] {
  personaLine = 0;
  const base = refundTurns();
  const closed = [
    ...base.slice(0, 3),
    turn(3, 'It arrived broken', 'Sorry about that. Is there anything else I can help you with?', route('refunds', 'closing'), { outcome: 'finish' }),
  ];
  const refunded = [
    ...base.slice(0, 3),
    turn(3, 'It arrived broken', "I'm sorry it arrived broken. I've refunded 49.99 EUR to your card.", route('refunds', 'refund'), {
      toolCalls: [toolCall('issue_refund', { orderId: '1234', amount: 49.99 }, { refundId: 'R-77' })],
      outcome: 'finish',
    }),
  ];
  const reworded = base.map((t) => (t.index === 1 ? { ...t, reply: "I'm sorry to hear that. Could you tell me your order number?" } : t));
  const noWelcome = base.slice(1, 3);
  const early = [
    base[0] as Turn,
    turn(1, 'I want my money back', 'Let me connect you with a colleague right away.', route('handoff', 'queue'), { outcome: 'handoff' }),
  ];
  return [
    persona('refund-broken-item'),
    persona('refund-coverage', {
      turns: closed,
      verdict: 'fail',
      checks: [
        check.conversations(['refunds', 'handoff'], ['main', 'refunds']),
        check.terminal('handoff', 'finish'),
        check.toolCalled('find_order', { orderId: '1234' }, [{ turn: 2, input: { orderId: '1234' } }], 2),
        check.criterion('Mentioned the order number', 0.9, 'Order 1234 is named on turn 2.'),
      ],
      drift: { transcript: 'different', route: 'different', verdict: 'newly_failing' },
      baseline: personaBaseline('refund-coverage', base),
    }),
    persona('refund-no-refund-tool', {
      persona: null,
      turns: refunded,
      verdict: 'fail',
      checks: [
        check.toolCalled('find_order', { orderId: '1234' }, [{ turn: 2, input: { orderId: '1234' } }], 2),
        check.toolNotCalled('issue_refund', [{ turn: 3, input: { orderId: '1234', amount: 49.99 } }]),
      ],
      drift: { transcript: 'same', route: 'same', verdict: 'still_failing' },
      baseline: personaBaseline('refund-no-refund-tool', refunded, 'fail'),
    }),
    persona('refund-empathy', {
      verdict: 'not_evaluated',
      checks: [
        check.criterion('Mentioned the order number', 0.92, 'Order 1234 is repeated back.'),
        check.criterion('Stayed empathetic', null, null),
      ],
      drift: { transcript: 'same', route: 'same', verdict: 'not_evaluated' },
    }),
    persona('refund-agent-500', {
      turns: noWelcome,
      unsent: ['It arrived broken'],
      errored: true,
      error: 'turn 3: HTTP 500 from the agent: Internal Server Error',
      errorKind: 'http',
      verdict: null,
      drift: null,
      checks: [
        check.conversations(['refunds', 'handoff'], ['refunds']),
        check.toolCalled('find_order', { orderId: '1234' }, [{ turn: 2, input: { orderId: '1234' } }], 2),
        check.criterion('Mentioned the order number', null, null, 'the run did not complete'),
      ],
    }),
    persona('refund-early-handoff', {
      turns: early,
      unsent: ['Order 1234', 'It arrived broken'],
      checks: [check.conversations(['handoff'], ['main', 'handoff']), check.terminal('handoff', 'handoff')],
      drift: { transcript: null, route: null, verdict: 'no_baseline' },
      baseline: null,
    }),
    persona('refund-reworded', {
      turns: reworded,
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing' },
      baseline: personaBaseline('refund-reworded', base),
    }),
  ];
}

/** The mixed fixtures and one persona script of each kind. */
export function mixedWithPersonas(): RunRecord {
  const r = mixed();
  return run(r.fixtures, { estimate: r.estimate, judge: r.judge, personas: personaScripts() });
}

/** Hostile text in every field of a script that comes from the agent or the script. */
export function hostilePersona(): RunRecord {
  personaLine = 0;
  const turns = [
    turn(0, null, HOSTILE, route('x|y</details>', '@someone'), { offTrack: [HOSTILE, { note: '@admin #12' }] }),
    turn(1, `Opening ${HOSTILE}`, HOSTILE, route('refunds`', '<b>stage</b>'), {
      toolCalls: [toolCall('find_order`|<b>', { orderId: HOSTILE, '@admin': '#123', nested: { list: ['</details>', '```'] } }, { status: HOSTILE }, false)],
      outcome: '@finish</summary>',
      errors: [{ kind: 'unmocked_tool', tool: '@issue_refund', message: HOSTILE }],
    }),
  ];
  const old = turns.map((t) => ({ ...t, reply: `Old ${t.reply} reply` }));
  return run([], {
    personas: [
      persona('hostile-script', {
        persona: '@admin</summary>',
        turns,
        unsent: [HOSTILE, '- item\n1. list'],
        verdict: 'fail',
        checks: [
          { ...check.conversations(['x|y</details>', '@team'], ['x|y</details>', 'refunds`']), detail: HOSTILE },
          check.toolCalled('find_order`|<b>', { orderId: HOSTILE }, [{ turn: 1, input: { orderId: HOSTILE } }], 1),
          check.criterion(HOSTILE, 0.2, HOSTILE),
        ],
        drift: { transcript: 'different', route: 'same', verdict: 'newly_failing' },
        baseline: personaBaseline('hostile-script', old),
      }),
      persona('hostile-errored', {
        turns: turns.slice(0, 1),
        errored: true,
        error: `turn 1: the agent reported an error (unmocked_tool, tool @issue_refund): ${HOSTILE}`,
        errorKind: 'unmocked_tool',
        verdict: null,
        drift: null,
        unsent: [],
      }),
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Simulated users (docs/simulated-users.md)

const SIM_GOAL = 'Get a refund for order 1234, which arrived broken. You have the order number.';

/** A simulated script's turns: turn 1 is the script's opening, then the given sources in order. */
function simTurns(sources: Array<'baseline' | 'simulator'>, replies: readonly string[], messages: readonly string[]): Turn[] {
  return replies.map((reply, i) =>
    turn(i + 1, messages[i] ?? '', reply, route('refunds', ['identify', 'lookup', 'refund', 'closing'][i] ?? 'answer'), {
      source: i === 0 ? 'script' : (sources[i - 1] ?? 'simulator'),
      toolCalls: i === 2 ? [toolCall('issue_refund', { orderId: '1234' }, { refundId: 'R-77' })] : [],
      outcome: i === replies.length - 1 ? 'finish' : null,
    }),
  );
}

const SIM_MESSAGES = ['I want my money back', 'Order 1234. It arrived broken.', 'Yes, refund it to my card please.', 'Thanks, that is all.'];
const SIM_REPLIES = [
  "I'm sorry to hear that. What is your order number?",
  'I found order 1234: a kettle, delivered on 28 November. Shall I refund it to your card?',
  "Done: I've refunded 49.99 EUR to your card (refund R-77).",
  'You are welcome. Have a good day!',
];

/**
 * Three simulated scripts: one whose agent reworded turn 2, so the user was simulated live from
 * turn 3; one replayed unchanged from its baseline (no simulator call); one whose simulator was
 * unreachable on its first run (not evaluated, never a failure).
 */
export function simulatedScripts(): PersonaRecord[] {
  personaLine = 0;
  const accepted = simTurns(['baseline', 'baseline', 'baseline'], SIM_REPLIES, SIM_MESSAGES);
  const stored = { ...personaBaseline('refund-simulated-live', accepted), simulation: { doneReason: 'The agent refunded order 1234.' } };
  stored.transcript = stored.transcript.map((t, i) => ({ ...t, source: i === 0 ? 'script' : 'simulator' }));
  const reworded = 'Order 1234 (a kettle) was delivered on 28 November. I can refund it or send a new one: which do you prefer?';
  const liveMessages = [SIM_MESSAGES[0] as string, SIM_MESSAGES[1] as string, 'A refund to my card, please.', 'Great, thank you.'];
  const live = simTurns(['baseline', 'simulator', 'simulator'], [SIM_REPLIES[0] as string, reworded, SIM_REPLIES[2] as string, SIM_REPLIES[3] as string], liveMessages);
  const replayed = simTurns(['baseline', 'baseline', 'baseline'], SIM_REPLIES, SIM_MESSAGES);
  const checks = [
    check.toolCalled('issue_refund', { orderId: '1234' }, [{ turn: 3, input: { orderId: '1234' } }], 3),
    check.criterion('Confirmed the refund', 0.9, 'Turn 3 confirms refund R-77 of 49.99 EUR.'),
  ];
  const faultText = 'simulator unreachable: HTTP 503 from https://llm.example.com/v1/chat/completions after 3 attempts: Service Unavailable';
  return [
    persona('refund-simulated-live', {
      turns: live,
      checks,
      drift: { transcript: 'different', route: 'same', verdict: 'still_passing' },
      baseline: { ...stored, label: 'refund-simulated-live' },
      simulation: { goal: SIM_GOAL, liveFromTurn: 3, endedBy: 'simulator', doneReason: 'The agent refunded order 1234 to my card.', calls: 3, retries: 1, fault: null },
    }),
    persona('refund-simulated-replayed', {
      turns: replayed,
      checks,
      baseline: { ...stored, label: 'refund-simulated-replayed' },
      simulation: { goal: SIM_GOAL, liveFromTurn: null, endedBy: 'simulator', doneReason: 'The agent refunded order 1234.', calls: 0, retries: 0, fault: null },
    }),
    persona('refund-simulated-fault', {
      turns: simTurns([], [SIM_REPLIES[0] as string], SIM_MESSAGES).map((t) => ({ ...t, outcome: null })),
      verdict: 'not_evaluated',
      // As the engine records a fault: every check not evaluated, with the fault as its detail.
      checks: [
        { ...check.toolCalled('issue_refund', { orderId: '1234' }, [], null), status: 'not_evaluated', detail: faultText },
        check.criterion('Confirmed the refund', null, null, faultText),
      ],
      drift: { transcript: null, route: null, verdict: 'no_baseline' },
      baseline: null,
      simulation: { goal: SIM_GOAL, liveFromTurn: null, endedBy: 'simulator_fault', doneReason: null, calls: 1, retries: 2, fault: faultText },
    }),
  ];
}

/** Two fixtures and the three simulated scripts, with the spend of such a run. */
export function simulatedRun(): RunRecord {
  resetLines();
  return run([fixture('refund-policy'), fixture('opening-hours')], {
    estimate: { usd: 0.31, capUsd: 1, aboveCap: false, confirmed: false },
    spend: { agentTurns: 11, agentRetries: 0, judgeCalls: 2, judgeRetries: 0, judgeReused: 0, simulatorCalls: 4, simulatorRetries: 3, baselineTurns: 4 },
    personas: simulatedScripts(),
  });
}

/**
 * `refund-chat` repeated 3 times with minPass 3: attempts 1 and 3 pass, attempt 2 fails its first
 * check (`detail(lastIndex)`) after replying "Refunds take 90 days." on its last turn, so the
 * decisive attempt replied otherwise than the attempt shown (docs/personas.md, repeats).
 */
export function decisiveScript(detail: (lastIndex: number) => string): { script: PersonaRecord; lastIndex: number } {
  const base = persona('refund-chat') as ReplayedPersonaRecord;
  const last = base.turns.length - 1;
  const lastIndex = (base.turns[last] as ReplayedPersonaRecord['turns'][number]).index;
  const other = base.turns.map((t, i) => (i === last ? { ...t, reply: 'Refunds take 90 days.' } : t));
  const failing = base.checks.map((c, i) => (i === 0 ? { ...c, status: 'fail' as const, detail: detail(lastIndex) } : c));
  const one = { errored: false, error: null, errorKind: null, unsent: [], visited: base.visited, outcome: base.outcome, durationMs: 900 };
  const script: PersonaRecord = {
    ...base,
    baseline: null,
    verdict: 'fail',
    drift: { transcript: null, route: null, verdict: 'no_baseline' },
    repeat: { count: 3, minPass: 3, passed: 2, flaky: true },
    attempts: [
      { ...one, verdict: 'pass' as const, checks: base.checks, turns: base.turns },
      { ...one, verdict: 'fail' as const, checks: failing, turns: other },
      { ...one, verdict: 'pass' as const, checks: base.checks, turns: base.turns },
    ],
  };
  return { script, lastIndex };
}
