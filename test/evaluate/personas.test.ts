// The pure core of persona scripts: tool-input matching, checks, verdict, drift, acceptance, cost.
import { describe, expect, it } from 'vitest';
import { attemptEndingChange, refusedForEnding } from '../../src/evaluate/ending.js';
import {
  callMatches,
  conversationsCheck,
  decidePersonaAcceptance,
  deterministicChecks,
  estimateCost,
  firstDifferentTurn,
  gateRun,
  jsonSubset,
  personaDrift,
  personaVerdict,
  planAcceptance,
  reportedError,
  replyCheck,
  scriptedEndingChange,
  scriptEndingWords,
  markMockedCalls,
  unmockedToolsOf,
  tallies,
  terminalCheck,
  toolCheck,
  REFUSE_PERSONA_ERRORED,
} from '../../src/evaluate/index.js';
import { DEFAULT_COST } from '../../src/config.js';
import type { Check, JsonValue, PersonaBaseline, PersonaRecord, PersonaScript, ToolCall, Turn } from '../../src/types.js';

const call = (tool: string, input: JsonValue, mocked = true): ToolCall => ({ tool, input, output: null, mocked });

function turn(index: number, over: Partial<Turn> = {}): Turn {
  return {
    index,
    message: index === 0 ? null : `m${index}`,
    reply: `r${index}`,
    route: { conversation: 'c', stage: `s${index}` },
    offTrack: [],
    toolCalls: [],
    outcome: null,
    errors: [],
    durationMs: 1,
    ...over,
  };
}

describe('tool input matching', () => {
  const order = { orderId: '1234', fields: ['status', 'items'], meta: { channel: 'chat', depth: 2 } };

  it.each<[string, JsonValue, boolean]>([
    ['a subset of the keys', { orderId: '1234' }, true],
    ['nested objects, recursively', { meta: { depth: 2 } }, true],
    ['a nested value that differs', { meta: { depth: 3 } }, false],
    ['a key the call does not have', { orderId: '1234', coupon: null }, false],
    ['arrays in any order', { fields: ['items', 'status'] }, true],
    ['an array that is a subset of the actual one', { fields: ['items'] }, true],
    ['an array element the call does not have', { fields: ['price'] }, false],
    ['the number 1234 against the string "1234"', { orderId: 1234 }, false],
    ['the whole input', order, true],
  ])('subset: %s', (_name, input, expected) => {
    expect(callMatches({ tool: 'find_order', input, match: 'subset' }, { tool: 'find_order', input: order })).toBe(expected);
  });

  it.each<[string, JsonValue, boolean]>([
    ['the same value, keys in another order', { meta: { depth: 2, channel: 'chat' }, fields: ['status', 'items'], orderId: '1234' }, true],
    ['fewer keys (extra actual keys fail exact)', { orderId: '1234' }, false],
    ['an array in another order', { orderId: '1234', fields: ['items', 'status'], meta: { channel: 'chat', depth: 2 } }, false],
    ['1 is not "1"', { orderId: 1234, fields: ['status', 'items'], meta: { channel: 'chat', depth: 2 } }, false],
  ])('exact: %s', (_name, input, expected) => {
    expect(callMatches({ tool: 'find_order', input, match: 'exact' }, { tool: 'find_order', input: order })).toBe(expected);
  });

  it('no input matches any call of the tool, and only of that tool', () => {
    expect(callMatches({ tool: 'find_order', match: 'subset' }, { tool: 'find_order', input: null })).toBe(true);
    expect(callMatches({ tool: 'find_order', match: 'exact' }, { tool: 'find_order', input: { x: 1 } })).toBe(true);
    expect(callMatches({ tool: 'find_order', match: 'subset' }, { tool: 'issue_refund', input: order })).toBe(false);
  });

  it('each expected array element needs a distinct actual element', () => {
    expect(jsonSubset([1, 1], [1, 2])).toBe(false);
    expect(jsonSubset([1, 1], [2, 1, 1])).toBe(true);
    // A greedy pairing takes the first actual element for {a: 1} and is stuck; a matching exists.
    expect(jsonSubset([{ a: 1 }, { a: 1, b: 2 }], [{ a: 1, b: 2 }, { a: 1 }])).toBe(true);
  });

  it('scalars compare exactly: no coercion between null, false, 0, "" and "0"', () => {
    for (const [a, b] of [
      [null, false],
      [0, false],
      ['', null],
      ['0', 0],
      [true, 'true'],
    ] as [JsonValue, JsonValue][]) {
      expect(jsonSubset(a, b)).toBe(false);
    }
    expect(jsonSubset({ a: null }, {})).toBe(false);
    expect(jsonSubset({}, { a: 1 })).toBe(true);
    expect(jsonSubset({}, [])).toBe(false);
  });
});

describe('checks', () => {
  it('conversations: the conversations: prefix is ignored on both sides; detail lists visited and missing', () => {
    const turns = [turn(0, { route: { conversation: 'conversations:welcome', stage: 'g' } }), turn(1, { route: { conversation: 'refunds', stage: 's' } })];
    const pass = conversationsCheck(['welcome', 'conversations:refunds'], turns);
    expect(pass).toMatchObject({ status: 'pass', observed: ['conversations:welcome', 'refunds'], detail: 'visited: conversations:welcome, refunds; missing: none' });
    const fail = conversationsCheck(['refunds', 'handoff'], turns);
    expect(fail).toMatchObject({ status: 'fail', detail: 'visited: conversations:welcome, refunds; missing: handoff' });
  });

  it('terminal: the last turn\'s outcome; null while outcomes are reported fails; not reported is not evaluated', () => {
    expect(terminalCheck('handoff', [turn(1), turn(2, { outcome: 'handoff' })], true)).toMatchObject({ status: 'pass', observed: 'handoff' });
    expect(terminalCheck('finish', [turn(1), turn(2, { outcome: 'handoff' })], true)).toMatchObject({ status: 'fail', detail: 'expected finish, ended with handoff' });
    expect(terminalCheck('finish', [turn(1)], true)).toMatchObject({ status: 'fail', detail: 'expected finish: the conversation did not end' });
    expect(terminalCheck('finish', [turn(1)], false)).toMatchObject({ status: 'not_evaluated', detail: 'the agent does not report outcomes' });
  });

  it('toolCalled records the turn of the first match; toolNotCalled fails on any match', () => {
    const turns = [turn(1), turn(2, { toolCalls: [call('find_order', { orderId: '9' })] }), turn(3, { toolCalls: [call('find_order', { orderId: '1234' })] })];
    const called = toolCheck('toolCalled', { tool: 'find_order', input: { orderId: '1234' }, match: 'subset' }, turns);
    expect(called).toMatchObject({ status: 'pass', turn: 3, detail: 'called find_order {"orderId": "1234"} at turn 3' });
    expect(called.kind === 'toolCalled' && called.observed.map((c) => c.turn)).toEqual([2, 3]);
    const any = toolCheck('toolCalled', { tool: 'find_order', match: 'subset' }, turns);
    expect(any).toMatchObject({ status: 'pass', turn: 2 });
    const missing = toolCheck('toolCalled', { tool: 'find_order', input: { orderId: 1234 }, match: 'subset' }, turns);
    expect(missing).toMatchObject({ status: 'fail', turn: null });
    expect(missing.detail).toBe('expected a call of find_order {"orderId": 1234}: find_order was called with {"orderId": "9"}; {"orderId": "1234"}');
    expect(toolCheck('toolNotCalled', { tool: 'issue_refund', match: 'subset' }, turns)).toMatchObject({ status: 'pass', turn: null });
    expect(toolCheck('toolNotCalled', { tool: 'find_order', input: { orderId: '9' }, match: 'exact' }, turns)).toMatchObject({ status: 'fail', turn: 2 });
  });

  it('tool checks are not evaluated when no turn reports tool calls', () => {
    const turns = [turn(1, { toolCalls: null }), turn(2, { toolCalls: null })];
    expect(toolCheck('toolNotCalled', { tool: 'issue_refund', match: 'subset' }, turns)).toMatchObject({ status: 'not_evaluated', detail: 'the agent does not report tool calls' });
  });

  it('each toolCalled and toolNotCalled entry is its own check, in the order of expect', () => {
    const checks = deterministicChecks(
      {
        expect: {
          conversations: ['c'],
          terminal: 'finish',
          toolCalled: [{ tool: 'a', match: 'subset' }, { tool: 'b', match: 'subset' }],
          toolNotCalled: [{ tool: 'c', match: 'subset' }],
          criteria: ['x'],
        },
      },
      [turn(1, { toolCalls: [call('a', {})], outcome: 'finish' })],
      true,
    );
    expect(checks.map((c) => `${c.kind}:${c.status}`)).toEqual(['conversations:pass', 'terminal:pass', 'toolCalled:pass', 'toolCalled:fail', 'toolNotCalled:pass']);
  });
});

describe('verdict and errors', () => {
  const check = (status: Check['status']): Check => ({ kind: 'terminal', expected: 'finish', observed: null, status, detail: '' });

  it('fail > not evaluated > pass', () => {
    expect(personaVerdict([check('pass'), check('not_evaluated'), check('fail')])).toBe('fail');
    expect(personaVerdict([check('pass'), check('not_evaluated')])).toBe('not_evaluated');
    expect(personaVerdict([check('pass'), check('pass')])).toBe('pass');
  });

  it('in mocked mode an unmocked call or an errors entry is an error, whatever the checks say; the first in turn order wins', () => {
    const mocked = { mocks: [{ tool: 'find_order', match: 'subset' as const, output: { status: 'delivered' } }] };
    expect(reportedError([turn(1), turn(2)], mocked)).toBeNull();
    expect(reportedError([turn(1, { toolCalls: [call('issue_refund', {}, false)] })], mocked)).toEqual({
      errorKind: 'unmocked_tool',
      error:
        "turn 1: the agent reported a call to issue_refund {} that no mock answered (no mock is declared for it; mocked: false); the script declares mocks, so it runs in mocked mode and every tool call must be answered by a mock: declare a mock for issue_refund in mocks (or make the agent answer issue_refund from the request's mocks), or remove the script's mocks to test the agent's tools live",
    });
    expect(reportedError([turn(1), turn(2, { errors: [{ kind: 'timeout', tool: 'crm', message: 'took too long' }] })])).toEqual({
      errorKind: 'agent_error',
      error: 'turn 2: the agent reported an error (timeout, tool crm): took too long',
    });
    // The welcome turn is named as every surface names it, "(welcome)" included.
    expect(reportedError([turn(0, { errors: [{ kind: 'timeout', tool: null, message: 'took too long' }] })])?.error).toBe('turn 0 (welcome): the agent reported an error (timeout): took too long');
    expect(reportedError([turn(0, { toolCalls: [call('issue_refund', {}, false)] })], mocked)?.error).toMatch(/^turn 0 \(welcome\): the agent reported a call to issue_refund \{\} that no mock answered/);
  });

  it('a call counts as answered by a mock when the agent says so, when nothing ran, or when a matching mock has the same output', () => {
    const mocks = [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset' as const, output: { status: 'delivered' } }];
    const ran = (input: JsonValue, output: JsonValue): ToolCall => ({ tool: 'find_order', input, output, mocked: false });
    const at = (c: ToolCall) => reportedError([turn(1, { toolCalls: [c] })], { mocks });
    expect(at({ ...ran({ orderId: '9' }, 'x'), mocked: true })).toBeNull(); // the agent says mocked
    expect(at(call('find_order', { orderId: '9' }))).toBeNull(); // a client-side call: nothing ran (decoded as mocked)
    expect(at(ran({ orderId: '1234', verbose: true }, { status: 'delivered' }))).toBeNull(); // subset input, equal output
    expect(at(ran({ orderId: '1234' }, '{"status":"delivered"}'))).toBeNull(); // the same JSON as text (a tool message)
    expect(at(ran({ orderId: '1234' }, { status: 'lost' }))?.error).toContain('the agent reported a call to find_order {"orderId": "1234"} that no mock answered (its output {"status": "lost"} is not the mock\'s output; mocked: false)');
    expect(at(ran({ orderId: '9' }, { status: 'delivered' }))?.error).toContain("(no mock's input matches it; mocked: false)");
    expect(markMockedCalls([turn(1, { toolCalls: [ran({ orderId: '1234' }, { status: 'delivered' }), ran({ orderId: '9' }, null)] })], mocks)[0]!.toolCalls).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: true },
      { tool: 'find_order', input: { orderId: '9' }, output: null, mocked: false },
    ]);
  });

  it('live mode (no mocks) records real calls without error; unmockedTools on the script or in config.yml overrides the default', () => {
    const real = [turn(1, { toolCalls: [call('find_order', { orderId: '1' }, false)] })];
    expect(reportedError(real, { mocks: [] })).toBeNull();
    expect(unmockedToolsOf({ mocks: [] })).toBe('allow');
    expect(unmockedToolsOf({ mocks: [{ tool: 't', match: 'subset', output: null }] })).toBe('error');
    expect(reportedError(real, { mocks: [], unmockedTools: 'error' })?.error).toBe(
      "turn 1: the agent reported a call to find_order {\"orderId\": \"1\"} that no mock answered (no mock is declared for it; mocked: false); the script sets unmockedTools: error: declare a mock for find_order in mocks (or make the agent answer find_order from the request's mocks), or set unmockedTools: allow to test the agent's tools live",
    );
    expect(reportedError(real, { mocks: [] }, 'error')?.error).toContain('config.yml sets personas.unmockedTools: error');
    expect(reportedError(real, { mocks: [{ tool: 'x', match: 'subset', output: null }], unmockedTools: 'allow' })).toBeNull();
    // The script's own setting wins over config.yml's.
    expect(reportedError(real, { mocks: [], unmockedTools: 'allow' }, 'error')).toBeNull();
  });
});

const persona = (over: Partial<PersonaRecord> = {}): PersonaRecord =>
  ({
    label: 'refund',
    file: '.agent-replay/personas/refund.yml',
    line: 1,
    persona: null,
    turns: [turn(0), turn(1), turn(2)],
    unsent: [],
    visited: ['c'],
    outcome: null,
    checks: [],
    baseline: null,
    durationMs: 3,
    errored: false,
    error: null,
    errorKind: null,
    verdict: 'pass',
    drift: { transcript: null, route: null, verdict: 'no_baseline' },
    ...over,
  }) as PersonaRecord;

const stored = (over: Partial<PersonaBaseline> = {}): PersonaBaseline => ({
  label: 'refund',
  kind: 'persona',
  transcript: [turn(0), turn(1), turn(2)].map((t) => ({ message: t.message, reply: t.reply, route: t.route })),
  visited: ['c'],
  outcome: null,
  verdict: 'pass',
  acceptedAt: '2026-11-01T00:00:00.000Z',
  commit: 'a'.repeat(40),
  ...over,
});

describe('drift', () => {
  const turns = [turn(0), turn(1), turn(2)];

  it('no baseline: no_baseline, nothing compared', () => {
    expect(personaDrift('pass', turns, null)).toEqual({ transcript: null, route: null, verdict: 'no_baseline' });
  });

  it('same transcript and routes', () => {
    expect(personaDrift('pass', turns, stored())).toEqual({ transcript: 'same', route: 'same', verdict: 'still_passing' });
  });

  it('a different reply, a different number of turns, a different route sequence', () => {
    expect(personaDrift('fail', [turn(0), turn(1, { reply: 'other' }), turn(2)], stored())).toEqual({ transcript: 'different', route: 'same', verdict: 'newly_failing' });
    expect(personaDrift('pass', [turn(0), turn(1)], stored())).toMatchObject({ transcript: 'different', route: 'different' });
    expect(personaDrift('pass', [turn(0), turn(1), turn(2, { route: null })], stored())).toMatchObject({ transcript: 'same', route: 'different' });
    expect(personaDrift('not_evaluated', turns, stored({ verdict: 'fail' }))).toMatchObject({ verdict: 'not_evaluated' });
  });

  it("a repeated script's attempt against the one shown: who ended it, over the same messages and turns only (docs/meaning.md, \"Repeats\")", () => {
    const ts = (...messages: (string | null)[]) => messages.map((message, index) => ({ message, index }));
    const shown = { turns: ts(null, 'a', 'b'), endedBy: 'both' as const };
    expect(attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'script' }, shown, 1)).toBe("the agent did not end the conversation, where attempt 1's agent ended it on turn 2");
    expect(attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'both' }, { ...shown, endedBy: 'script' }, 2)).toBe("the agent ended the conversation on turn 2, where attempt 2's agent did not end it");
    expect(attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'both' }, shown, 1)).toBeNull();
    // Fewer turns, or another message (a simulated user's), tell it already: no ending is compared.
    expect(attemptEndingChange({ turns: ts(null, 'a'), endedBy: 'agent' }, { ...shown, endedBy: 'script' }, 1)).toBeNull();
    expect(attemptEndingChange({ turns: ts(null, 'a', 'c'), endedBy: 'script' }, shown, 1)).toBeNull();
    // An older record's attempts do not say who ended them.
    expect(attemptEndingChange({ turns: ts(null, 'a', 'b') }, shown, 1)).toBeNull();
    expect(attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'script' }, { turns: shown.turns }, 1)).toBeNull();
    // Acceptance's refusal quoting either wording names an ending (the comment's "To accept" rule says so); a meaning alone does not.
    const refusal = (words: string | null) => `replies differ in meaning across 3 attempts: attempt 2: turn 1 changed in meaning: numbers 3 → 4; attempt 3: ${words}`;
    expect(refusedForEnding(refusal(attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'script' }, shown, 1)))).toBe(true);
    expect(refusedForEnding(refusal(attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'both' }, { ...shown, endedBy: 'script' }, 1)))).toBe(true);
    expect(refusedForEnding('replies differ in meaning across 3 attempts: attempt 2: turn 1 changed in meaning: numbers 3 → 4')).toBe(false);
    expect(refusedForEnding('replies vary across 3 attempts')).toBe(false);
    expect(refusedForEnding(`conversations ended differently across 3 attempts: attempt 2: ${attemptEndingChange({ turns: ts(null, 'a', 'b'), endedBy: 'script' }, shown, 1)}`)).toBe(true);
  });

  it("how a scripted conversation ended, against its baseline's: the agent ending it or not is the change; the script's part is not", () => {
    expect(scriptedEndingChange('script', { endedBy: 'both' }, 3)).toBe("the agent did not end the conversation, where the baseline's agent ended it on turn 3");
    expect(scriptedEndingChange('both', { endedBy: 'script' }, 3)).toBe("the agent ended the conversation on turn 3, where the baseline's agent did not end it");
    expect(scriptedEndingChange('agent', { endedBy: 'script' }, 1200)).toBe("the agent ended the conversation on turn 1,200, where the baseline's agent did not end it");
    // The agent ended it at the same turn; only the script has a message more or fewer there.
    expect(scriptedEndingChange('agent', { endedBy: 'both' }, 3)).toBeNull();
    expect(scriptedEndingChange('both', { endedBy: 'agent' }, 3)).toBeNull();
    expect(scriptedEndingChange('script', { endedBy: 'script' }, 3)).toBeNull();
    // A baseline from before it was kept says nothing.
    expect(scriptedEndingChange('script', {}, 3)).toBeNull();
    expect([scriptEndingWords('agent', 2), scriptEndingWords('both', 3), scriptEndingWords('script', 3)]).toEqual([
      'the agent ended the conversation on turn 2',
      "the agent ended the conversation on turn 3, the script's last message",
      'the script ended the conversation on turn 3, its last message',
    ]);
  });

  it('the first turn that differs', () => {
    expect(firstDifferentTurn(turns, stored())).toBeNull();
    expect(firstDifferentTurn([turn(0), turn(1), turn(2, { reply: 'x' })], stored())).toBe(2);
    expect(firstDifferentTurn([turn(0), turn(1)], stored())).toBe(2);
  });
});

describe('acceptance', () => {
  it('pass and fail are accepted as persona baselines; unchanged when nothing differs', () => {
    const d = decidePersonaAcceptance(persona({ verdict: 'fail', endedBy: 'script', drift: { transcript: null, route: null, verdict: 'no_baseline' } } as Partial<PersonaRecord>), '2026-12-01T00:00:00.000Z', 'b'.repeat(40));
    expect(d).toEqual({ kind: 'accept', baseline: stored({ verdict: 'fail', endedBy: 'script', acceptedAt: '2026-12-01T00:00:00.000Z', commit: 'b'.repeat(40) }) });
    expect(decidePersonaAcceptance(persona(), 'now', null, stored())).toEqual({ kind: 'unchanged' });
  });

  it('keeps how a scripted conversation ended; a baseline from before it is not rewritten only to add it, one that says otherwise is', () => {
    const ended = persona({ unsent: ['Thanks'] });
    expect(decidePersonaAcceptance(ended, 'now', null, null)).toMatchObject({ kind: 'accept', baseline: { endedBy: 'agent' } });
    // The same transcript: an older baseline stays as it is; one that keeps the other ending is rewritten.
    expect(decidePersonaAcceptance(ended, 'now', null, stored())).toEqual({ kind: 'unchanged' });
    expect(decidePersonaAcceptance(ended, 'now', null, stored({ endedBy: 'agent' }))).toEqual({ kind: 'unchanged' });
    expect(decidePersonaAcceptance(ended, 'now', null, stored({ endedBy: 'script' }))).toMatchObject({ kind: 'accept', baseline: { endedBy: 'agent' } });
    // The agent ended it on the script's last message: both did, kept as such, and told from the script alone.
    const both = persona({ endedBy: 'both' });
    expect(decidePersonaAcceptance(both, 'now', null, null)).toMatchObject({ kind: 'accept', baseline: { endedBy: 'both' } });
    expect(decidePersonaAcceptance(both, 'now', null, stored({ endedBy: 'both' }))).toEqual({ kind: 'unchanged' });
    expect(decidePersonaAcceptance(both, 'now', null, stored({ endedBy: 'script' }))).toMatchObject({ kind: 'accept', baseline: { endedBy: 'both' } });
    expect(decidePersonaAcceptance(persona({ endedBy: 'script' }), 'now', null, stored({ endedBy: 'both' }))).toMatchObject({ kind: 'accept', baseline: { endedBy: 'script' } });
    // A record from before it was kept, every message sent: whether the agent ended it on the last is not known, so none is written.
    const older = decidePersonaAcceptance(persona(), 'now', null, null);
    expect(older.kind === 'accept' ? older.baseline.endedBy : 'not accepted').toBeUndefined();
    // A simulated script's ending is its `simulation`'s, not this.
    const simulated = persona({ unsent: [], simulation: { goal: 'g', liveFromTurn: 1, endedBy: 'agent', doneReason: null, calls: 1, retries: 0, fault: null } } as Partial<PersonaRecord>);
    const d = decidePersonaAcceptance(simulated, 'now', null, null);
    expect(d.kind === 'accept' ? d.baseline.endedBy : 'not accepted').toBeUndefined();
  });

  it('errored and not evaluated are refused with their reasons', () => {
    const errored = persona({ errored: true, error: 'turn 3: agent returned HTTP 500', errorKind: 'http', verdict: null, drift: null } as Partial<PersonaRecord>);
    expect(decidePersonaAcceptance(errored, 'now', null)).toEqual({ kind: 'refuse', reason: REFUSE_PERSONA_ERRORED });
    expect(REFUSE_PERSONA_ERRORED).toBe('errored: the run did not complete');
    expect(decidePersonaAcceptance(persona({ verdict: 'not_evaluated' } as Partial<PersonaRecord>), 'now', null)).toEqual({ kind: 'refuse', reason: 'not evaluated: run it again' });
  });

  it('planAcceptance handles fixtures and scripts together, and --only across both', () => {
    const plan = planAcceptance({ fixtures: [], personas: [persona(), persona({ label: 'other', verdict: 'not_evaluated' } as Partial<PersonaRecord>)], commit: null }, new Map(), {
      only: ['refund', 'other', 'ghost'],
      acceptedAt: 'now',
    });
    expect(plan.accepted.map((b) => b.label)).toEqual(['refund']);
    expect(plan.refused).toEqual([{ label: 'other', reason: 'not evaluated: run it again' }]);
    expect(plan.unknown).toEqual(['ghost']);
  });
});

describe('tallies, gate and estimate', () => {
  it('one script is one item in the tallies and the gate', () => {
    const run = {
      fixtures: [],
      personas: [
        persona({ label: 'p1', verdict: 'fail', drift: { transcript: 'different', route: 'same', verdict: 'newly_failing' } } as Partial<PersonaRecord>),
        persona({ label: 'p2', errored: true, error: 'x', errorKind: 'unmocked_tool', verdict: null, drift: null } as Partial<PersonaRecord>),
      ],
    };
    expect(tallies(run.personas)).toEqual({ passed: 0, failed: 1, notEvaluated: 0, errored: 1 });
    expect(gateRun(run, ['newly_failing'])).toMatchObject({ failed: true, offenders: [{ condition: 'newly_failing', labels: ['p1'] }] });
    expect(gateRun(run, ['reply_changed']).offenders).toEqual([{ condition: 'reply_changed', labels: ['p1'], fixtures: 0, scripts: 1 }]);
    expect(gateRun(run, ['errored']).offenders).toEqual([{ condition: 'errored', labels: ['p2'], fixtures: 0, scripts: 1 }]);
    expect(gateRun(run, ['route_changed']).failed).toBe(false);
  });

  it('every turn (the welcome only when the agent has one) x agentTurnUsd + each criterion x judgeCallUsd', () => {
    const script = { opening: 'hi', followUps: ['a', 'b'], expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: ['x', 'y'] } } as Pick<PersonaScript, 'opening' | 'followUps' | 'expect'>;
    const cost = { ...DEFAULT_COST, agentTurnUsd: 0.01, judgeCallUsd: 0.005, capUsd: 0.05 };
    expect(estimateCost([], cost, false, { welcomeTurn: true }, [script]).usd).toBe(0.05); // 4 turns + 2 criteria
    expect(estimateCost([], cost, false, { welcomeTurn: false }, [script]).usd).toBe(0.04);
    expect(estimateCost([null], cost, false, { welcomeTurn: true }, [script])).toMatchObject({ usd: 0.07, aboveCap: true });
  });
});

describe('expect.reply and conversations without routes', () => {
  const contains = (text: string) => async (reply: string) => (reply.includes(text) ? { verdict: 'pass' as const, detail: `reply contains "${text}"` } : { verdict: 'fail' as const, detail: `reply does not contain "${text}"` });
  const turns = [turn(0, { reply: 'Welcome' }), turn(1, { reply: 'Refunds take 30 days' }), turn(2, { reply: 'ok' }), turn(3, { reply: '' })];

  it('any (the default): the first reply that matches, with its turn; none: fail naming how many were checked', async () => {
    expect(await replyCheck({ contains: '30 days', turn: 'any' }, turns, 'complete', contains('30 days'))).toEqual({
      kind: 'reply',
      expected: { contains: '30 days', turn: 'any' },
      observed: 'Refunds take 30 days',
      turn: 1,
      status: 'pass',
      detail: 'turn 1: reply contains "30 days"',
    });
    expect(await replyCheck({ contains: 'sorry', turn: 'any' }, turns, 'complete', contains('sorry'))).toMatchObject({ status: 'fail', turn: null, observed: null, detail: 'no reply contains "sorry" (4 replies checked)' });
  });

  it('a turn number checks that reply (0 the welcome turn); last is the last turn with a reply', async () => {
    expect(await replyCheck({ contains: 'Welcome', turn: 0 }, turns, 'complete', contains('Welcome'))).toMatchObject({ status: 'pass', turn: 0 });
    expect(await replyCheck({ contains: '30 days', turn: 2 }, turns, 'complete', contains('30 days'))).toMatchObject({ status: 'fail', turn: 2, observed: 'ok', detail: 'turn 2: reply does not contain "30 days"' });
    expect(await replyCheck({ contains: 'ok', turn: 'last' }, turns, 'complete', contains('ok'))).toMatchObject({ status: 'pass', turn: 2 });
  });

  it('a turn not sent fails when the agent ended the conversation, is not evaluated when the run stopped on an error', async () => {
    const ended = turns.slice(0, 3);
    expect(await replyCheck({ contains: 'x', turn: 3 }, ended, 'ended', contains('x'))).toMatchObject({ status: 'fail', turn: null, detail: 'turn 3 was not sent: the conversation ended at turn 2' });
    expect(await replyCheck({ contains: 'x', turn: 3 }, ended, 'errored', contains('x'))).toMatchObject({ status: 'not_evaluated', detail: 'turn 3 was not sent: the run stopped at turn 2' });
    expect(await replyCheck({ contains: 'x', turn: 0 }, turns.slice(1), 'complete', contains('x'))).toMatchObject({ status: 'fail', detail: 'turn 0 was not sent: the agent has no welcome turn' });
  });

  it('a pattern that does not compile is not evaluated, tried once', async () => {
    let calls = 0;
    const broken = async () => {
      calls++;
      return { verdict: 'not_evaluated' as const, detail: 'pattern does not compile: bad' };
    };
    expect(await replyCheck({ regex: '(', flags: '', turn: 'any' }, turns, 'complete', broken)).toMatchObject({ status: 'not_evaluated', detail: 'turn 0: pattern does not compile: bad', turn: null });
    expect(calls).toBe(1);
  });

  it('conversations is not evaluated when no turn has a route: the agent does not report routes', () => {
    expect(conversationsCheck(['refunds'], [turn(1, { route: null }), turn(2, { route: null })])).toEqual({
      kind: 'conversations',
      expected: ['refunds'],
      observed: [],
      status: 'not_evaluated',
      detail: 'the agent does not report routes',
    });
    expect(conversationsCheck(['refunds'], [turn(1, { route: null }), turn(2)]).status).toBe('fail');
  });
});

