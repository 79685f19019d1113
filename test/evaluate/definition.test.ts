// definitionHash and judge fingerprint (docs/evaluations.md, "What defined each item"): stable for
// the same definition whatever the key order or place in the file, changed by each field it covers,
// and never by the judge's criteria.

import { describe, expect, it } from 'vitest';
import { fixtureDefinitionHash, personaDefinitionHash, fixtureEvaluationFields, personaEvaluationFields } from '../../src/evaluate/definition.js';
import { canonicalJson, judgeDifferences, sameJudge } from '../../src/evaluate/index.js';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';
import type { Fixture, PersonaScript } from '../../src/types.js';

const FIXTURE: Fixture = { label: 'refund', file: 'f.yml', line: 3, message: 'I want a refund', persona: 'angry', assertion: { kind: 'contains', value: 'refund' } };

const SCRIPT: PersonaScript = {
  label: 'refund-broken',
  file: 'p.yml',
  line: 1,
  persona: 'impatient',
  opening: 'I want my money back',
  followUps: ['Order 1234', 'It arrived broken'],
  maxTurns: 10,
  threshold: 0.7,
  mocks: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered' } }],
  expect: {
    conversations: ['refunds', 'handoff'],
    terminal: 'handoff',
    toolCalled: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset' }],
    toolNotCalled: [{ tool: 'issue_refund', match: 'subset' }],
    criteria: ['Mentioned the order number'],
  },
};

describe('definitionHash of a fixture', () => {
  const h = fixtureDefinitionHash(FIXTURE);

  it('is 16 hex characters, the same every time, and independent of label, file and line', () => {
    expect(h).toMatch(/^[0-9a-f]{16}$/);
    expect(fixtureDefinitionHash({ ...FIXTURE })).toBe(h);
    const moved: Fixture = { ...FIXTURE, label: 'other', file: 'g.yml', line: 99 };
    expect(fixtureDefinitionHash(moved)).toBe(h);
  });

  it.each([
    ['message', { message: 'I want a refund!' }],
    ['persona tag', { persona: 'calm' }],
    ['persona tag removed', { persona: null }],
    ['contains text', { assertion: { kind: 'contains', value: 'Refund' } }],
    ['assertion kind', { assertion: { kind: 'regex', pattern: 'refund', flags: '' } }],
    ['no assertion', { assertion: null }],
  ] as const)('changes with the %s', (_, over) => {
    expect(fixtureDefinitionHash({ ...FIXTURE, ...over } as Fixture)).not.toBe(h);
  });

  it('changes with a message or a check re-saved in Unicode NFD (as some macOS editors save text): it looks the same, but other bytes are sent or looked for', () => {
    const [nfc, nfd] = ['Is the caf\u00e9 open?', 'Is the cafe\u0301 open?'];
    expect(fixtureDefinitionHash({ ...FIXTURE, message: nfd })).not.toBe(fixtureDefinitionHash({ ...FIXTURE, message: nfc }));
    const check = (value: string): Fixture => ({ ...FIXTURE, assertion: { kind: 'contains', value } });
    expect(fixtureDefinitionHash(check(nfd))).not.toBe(fixtureDefinitionHash(check(nfc)));
  });

  it('changes with a regex pattern and with its flags', () => {
    const re = { ...FIXTURE, assertion: { kind: 'regex' as const, pattern: 'ref(und)?', flags: 'i' } };
    const r = fixtureDefinitionHash(re);
    expect(fixtureDefinitionHash({ ...re, assertion: { kind: 'regex', pattern: 'refund', flags: 'i' } })).not.toBe(r);
    expect(fixtureDefinitionHash({ ...re, assertion: { kind: 'regex', pattern: 'ref(und)?', flags: '' } })).not.toBe(r);
  });

  it('does not change with a judge criterion or threshold: those are the judge fingerprint', () => {
    const j = { ...FIXTURE, assertion: { kind: 'judge' as const, criterion: 'Polite', threshold: 0.7 } };
    const jh = fixtureDefinitionHash(j);
    expect(fixtureDefinitionHash({ ...j, assertion: { kind: 'judge', criterion: 'Very polite', threshold: 0.9 } })).toBe(jh);
    expect(jh).not.toBe(h);
    const a = fixtureEvaluationFields(j, 'openai/gpt-4o-mini', JUDGE_PROMPT_VERSION);
    expect(a.judgeFingerprint).toEqual({ model: 'openai/gpt-4o-mini', promptVersion: JUDGE_PROMPT_VERSION, criteria: [{ criterion: 'Polite', threshold: 0.7 }] });
    const b = fixtureEvaluationFields({ ...j, assertion: { kind: 'judge', criterion: 'Polite', threshold: 0.8 } }, 'openai/gpt-4o-mini', JUDGE_PROMPT_VERSION);
    expect(sameJudge(a.judgeFingerprint, b.judgeFingerprint)).toBe(false);
    expect(judgeDifferences(a.judgeFingerprint, b.judgeFingerprint)).toEqual(['threshold 0.7 → 0.8']);
    expect(judgeDifferences(a.judgeFingerprint, fixtureEvaluationFields(j, 'anthropic/claude-haiku-4-5', JUDGE_PROMPT_VERSION).judgeFingerprint)).toEqual([
      'model openai/gpt-4o-mini → anthropic/claude-haiku-4-5',
    ]);
  });

  it('changes with a tool assertion\'s kind, tool, input and match mode (docs/traces.md, "Fixtures"); the other kinds keep their hashes', () => {
    const t = { ...FIXTURE, assertion: { kind: 'toolCalled' as const, tool: 'find_order', input: { orderId: '1234' }, match: 'subset' as const } };
    const th = fixtureDefinitionHash(t);
    const variants: Fixture['assertion'][] = [
      { kind: 'toolNotCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' },
      { kind: 'toolCalled', tool: 'issue_refund', input: { orderId: '1234' }, match: 'subset' },
      { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1235' }, match: 'subset' },
      { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'exact' },
      { kind: 'toolCalled', tool: 'find_order', match: 'subset' },
      { kind: 'all', assertions: [{ kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' }] },
    ];
    const hashes = variants.map((assertion) => fixtureDefinitionHash({ ...t, assertion }));
    expect(new Set([th, h, ...hashes]).size).toBe(variants.length + 2);
    // The same expectation with its input keys in another order is the same definition.
    expect(fixtureDefinitionHash({ ...t, assertion: { ...t.assertion, input: { orderId: '1234' } } })).toBe(th);
    // Hashes of the kinds that existed before tool assertions, as computed before them: records keep comparing.
    expect(h).toBe('180aa1de1576554e');
    const list: Fixture['assertion'] = { kind: 'all', assertions: [{ kind: 'regex', pattern: 'a', flags: 'i' }, { kind: 'maxLatency', ms: 2000 }, { kind: 'judge', criterion: 'x', threshold: 0.7 }] };
    expect(fixtureDefinitionHash({ ...FIXTURE, assertion: list })).toBe('699d71d99be2476c');
    expect(fixtureDefinitionHash({ ...FIXTURE, assertion: null })).toBe('c10baed837b5c3b1');
  });

  it('has no judge fingerprint without a judge assertion', () => {
    expect(fixtureEvaluationFields(FIXTURE, 'openai/gpt-4o-mini', JUDGE_PROMPT_VERSION).judgeFingerprint).toBeNull();
  });
});

describe('definitionHash of a persona script', () => {
  const h = personaDefinitionHash(SCRIPT);

  it('is stable, also when the keys of a mock or tool input come in another order', () => {
    expect(personaDefinitionHash(structuredClone(SCRIPT))).toBe(h);
    const reordered: PersonaScript = {
      ...SCRIPT,
      mocks: [{ output: { status: 'delivered' }, match: 'subset', input: { orderId: '1234' }, tool: 'find_order' }],
      label: 'renamed',
      line: 40,
    };
    expect(personaDefinitionHash(reordered)).toBe(h);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });

  it.each([
    ['opening', { opening: 'Refund please' }],
    ['follow-ups', { followUps: ['Order 1234'] }],
    ['follow-up order', { followUps: ['It arrived broken', 'Order 1234'] }],
    ['persona handle', { persona: null }],
    ['mocks', { mocks: [] }],
    ['expected conversations', { expect: { ...SCRIPT.expect, conversations: ['refunds'] } }],
    ['terminal', { expect: { ...SCRIPT.expect, terminal: 'finish' } }],
    ['toolCalled', { expect: { ...SCRIPT.expect, toolCalled: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'exact' }] } }],
    ['toolNotCalled', { expect: { ...SCRIPT.expect, toolNotCalled: [] } }],
  ] as const)('changes with the %s', (_, over) => {
    expect(personaDefinitionHash({ ...SCRIPT, ...over } as PersonaScript)).not.toBe(h);
  });

  it('does not change with the criteria, their threshold or maxTurns; the judge fingerprint does', () => {
    const other: PersonaScript = { ...SCRIPT, threshold: 0.9, maxTurns: 5, expect: { ...SCRIPT.expect, criteria: ['Stayed empathetic', 'Another'] } };
    expect(personaDefinitionHash(other)).toBe(h);
    const a = personaEvaluationFields(SCRIPT, 'm', JUDGE_PROMPT_VERSION).judgeFingerprint;
    const b = personaEvaluationFields(other, 'm', JUDGE_PROMPT_VERSION).judgeFingerprint;
    expect(a?.criteria).toEqual([{ criterion: 'Mentioned the order number', threshold: 0.7 }]);
    expect(sameJudge(a, b)).toBe(false);
    expect(judgeDifferences(a, b)).toEqual(['criteria', 'thresholds']);
    expect(personaEvaluationFields({ ...SCRIPT, expect: { ...SCRIPT.expect, criteria: [] } }, 'm', JUDGE_PROMPT_VERSION).judgeFingerprint).toBeNull();
  });
});
