// What defines an item, hashed, and what judged it (docs/evaluations.md, 'What defined each item'):
// so that compare can tell "the fixture was edited" and "the judge changed" apart from "the agent
// answered differently". What is hashed is canonical JSON (keys sorted, undefined dropped); the
// hash is sha256, hex, its first 16 characters. Each item's entry in results.json carries
// `definitionHash` and `judgeFingerprint` (with the judge prompt's version). Pure: node:crypto's
// hash has no side effect.

import { hash } from 'node:crypto';
import type { Fixture, JsonValue, JudgeFingerprint, PersonaScript, SingleAssertion } from '../types.js';
import { judgeAssertionOf } from '../assertions/list.js';
import { sameEndpoint } from '../endpoint.js';

/** sha256 of a canonical text, hex, first 16 characters. */
export function stableHash(canonical: string): string {
  // The one-shot hash: the same digest without a Hash object per item (one per fixture of a run).
  return hash('sha256', canonical, 'hex').slice(0, 16);
}

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  // A value already canonical is its own text: JSON.stringify writes it in one call, where the
  // general path calls it once per key and once per value (a fixture's definition is built in
  // key order for this). Anything else takes the general path, which gives the same text.
  return isCanonical(value) ? JSON.stringify(value) : sortedJson(value);
}

/**
 * The general canonical text (canonicalJson's slow path, and what its fast path must equal).
 * Keys in UTF-16 code unit order (sort's own order for strings); a key whose value is undefined is
 * left out, an undefined array element written null.
 */
export function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : sortedJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  let out = '';
  for (const k of Object.keys(record).sort()) {
    const v = record[k];
    if (v === undefined) continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(k)}:${sortedJson(v)}`;
  }
  return `{${out}}`;
}

/**
 * Whether JSON.stringify writes a value as sortedJson does: made of strings, numbers, booleans and
 * null (undefined, a function, a symbol or a bigint anywhere refuses it), plain arrays and plain
 * objects (not a Date, a Map or a class's instance, whose toJSON JSON.stringify would call) whose
 * keys are in strictly ascending order. Numbers need no check: both write them with JSON.stringify
 * (-0 as 0, 1e21 as 1e+21, NaN and Infinity as null).
 */
export function isCanonical(value: unknown): boolean {
  if (typeof value !== 'object') return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (value === null) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto === Array.prototype) {
    // An array's iterator reads a hole as undefined, which is refused as an undefined element is.
    for (const v of value as unknown[]) if (!isCanonical(v)) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  // for...in rather than Object.keys: no array of keys per object. A key it also finds on the
  // prototype (Object.prototype given an enumerable property) can only refuse the fast path: the
  // own keys JSON.stringify writes are then still in order and checked.
  let previous: string | undefined;
  for (const k in value) {
    if (previous !== undefined && k <= previous) return false;
    if (!isCanonical((value as Record<string, unknown>)[k])) return false;
    previous = k;
  }
  return true;
}

/**
 * A fixture's definition: its message, its persona tag (sent to the agent) and its assertion's
 * kind and value (contains text; pattern and flags). A judge assertion contributes its kind only:
 * its criterion and threshold belong to the judge fingerprint. Label, file and line are not part
 * of it (moving a fixture does not change it).
 */
function fixtureDefinition(f: Pick<Fixture, 'message' | 'persona' | 'assertion'>): string {
  const a = f.assertion;
  const assertion = a === null ? null : a.kind === 'all' ? { assertions: a.assertions.map(checkDefinition), kind: a.kind } : checkDefinition(a);
  // Keys written in sorted order, here and in checkDefinition: canonicalJson's fast path.
  return canonicalJson({ assertion, item: 'fixture', message: f.message, persona: f.persona });
}

/** One check's part of a fixture's definition (a latency budget and a tool expectation are part of it). */
function checkDefinition(a: SingleAssertion): JsonValue {
  switch (a.kind) {
    case 'contains':
      return { kind: a.kind, value: a.value };
    case 'regex':
      return { flags: a.flags, kind: a.kind, pattern: a.pattern };
    case 'judge':
      return { kind: a.kind };
    case 'maxLatency':
      return { kind: a.kind, ms: a.ms };
    // The tool, its input (absent: any call) and the match mode (docs/traces.md, "Fixtures").
    case 'toolCalled':
    case 'toolNotCalled':
      return a.input === undefined ? { kind: a.kind, match: a.match, tool: a.tool } : { input: a.input, kind: a.kind, match: a.match, tool: a.tool };
  }
}

/**
 * A persona script's definition: what it sends (persona handle, opening, follow-ups, mocks), how it
 * treats unmocked tool calls (when set), and its
 * expectations other than criteria (conversations, terminal, toolCalled, toolNotCalled, reply,
 * maxTurnLatencyMs). Criteria
 * and their threshold belong to the judge fingerprint; maxTurns is a limit checked when loading.
 */
function personaDefinition(p: Pick<PersonaScript, 'persona' | 'opening' | 'followUps' | 'mocks' | 'unmockedTools' | 'expect' | 'user'>, simulatorPromptVersion: string | null = null): string {
  const { conversations, terminal, toolCalled, toolNotCalled } = p.expect;
  return canonicalJson({
    item: 'persona',
    persona: p.persona,
    // A simulated script has no opening when the simulator writes it too (null is left out).
    ...(p.opening !== null ? { opening: p.opening } : {}),
    followUps: p.followUps,
    // A simulated user (docs/personas.md, "Simulated users"): goal, instructions, turn limit and the
    // simulator prompt's version, so that compare sees a change of any of them.
    ...(p.user ? { user: { goal: p.user.goal, instructions: p.user.instructions, maxTurns: p.user.maxTurns, promptVersion: simulatorPromptVersion } } : {}),
    mocks: p.mocks as unknown as JsonValue,
    // Only when set, so a script written before the setting existed keeps its definition.
    ...(p.unmockedTools !== undefined ? { unmockedTools: p.unmockedTools } : {}),
    // expect.reply only when the script has one, for the same reason.
    expect: {
      conversations,
      terminal,
      toolCalled,
      toolNotCalled,
      ...(p.expect.reply !== undefined && p.expect.reply.length > 0 ? { reply: p.expect.reply as unknown as JsonValue } : {}),
      ...(p.expect.maxTurnLatencyMs !== undefined ? { maxTurnLatencyMs: p.expect.maxTurnLatencyMs } : {}),
    },
  });
}

/** A fixture's judge fingerprint: null unless its assertion is (or its list holds) a judge assertion. */
function fixtureJudgeFingerprint(f: Pick<Fixture, 'assertion'>, model: string | null, promptVersion: string, endpoint: string | null): JudgeFingerprint | null {
  const a = judgeAssertionOf(f.assertion);
  if (a === null) return null;
  return { model, ...(endpoint !== null ? { endpoint } : {}), promptVersion, criteria: [{ criterion: a.criterion, threshold: a.threshold }] };
}

/** A script's judge fingerprint: null when it has no criteria. */
function personaJudgeFingerprint(p: Pick<PersonaScript, 'expect' | 'threshold'>, model: string | null, promptVersion: string, endpoint: string | null): JudgeFingerprint | null {
  if (p.expect.criteria.length === 0) return null;
  return { model, ...(endpoint !== null ? { endpoint } : {}), promptVersion, criteria: p.expect.criteria.map((criterion) => ({ criterion, threshold: p.threshold })) };
}

/**
 * Same judge: same model, prompt version, criteria and thresholds, in order, and the same address
 * when both say theirs (sameEndpoint: one from before addresses were kept is not another judge for
 * lacking it, nor one from before tokens in a path were hidden for holding one).
 */
export function sameJudge(a: JudgeFingerprint | null, b: JudgeFingerprint | null): boolean {
  if (a === null || b === null) return a === b;
  const rest = (f: JudgeFingerprint): string => canonicalJson({ ...f, endpoint: undefined });
  return rest(a) === rest(b) && sameEndpoint(a.endpoint, b.endpoint);
}

/** What differs between two fingerprints, in words ("model", "criterion", "threshold", "judge prompt version"). */
export function judgeDifferences(a: JudgeFingerprint | null, b: JudgeFingerprint | null): string[] {
  if (a === null || b === null) return a === b ? [] : [a === null ? 'a judge is now used' : 'no judge is used any more'];
  const out: string[] = [];
  if (a.model !== b.model) out.push(`model ${a.model ?? 'none'} → ${b.model ?? 'none'}`);
  if (a.endpoint !== undefined && b.endpoint !== undefined && !sameEndpoint(a.endpoint, b.endpoint)) out.push(`endpoint ${a.endpoint} → ${b.endpoint}`);
  if (a.promptVersion !== b.promptVersion) out.push(`judge prompt version ${a.promptVersion} → ${b.promptVersion}`);
  const crit = (f: JudgeFingerprint): string => canonicalJson(f.criteria.map((c) => c.criterion));
  const thr = (f: JudgeFingerprint): string => canonicalJson(f.criteria.map((c) => c.threshold));
  if (crit(a) !== crit(b)) out.push(a.criteria.length === 1 && b.criteria.length === 1 ? 'criterion' : 'criteria');
  if (thr(a) !== thr(b)) out.push(a.criteria.length === 1 && b.criteria.length === 1 ? `threshold ${a.criteria[0]?.threshold} → ${b.criteria[0]?.threshold}` : 'thresholds');
  return out;
}

export function fixtureDefinitionHash(f: Pick<Fixture, 'message' | 'persona' | 'assertion'>): string {
  return stableHash(fixtureDefinition(f));
}

export function personaDefinitionHash(p: Pick<PersonaScript, 'persona' | 'opening' | 'followUps' | 'mocks' | 'expect' | 'user'>, simulatorPromptVersion: string | null = null): string {
  return stableHash(personaDefinition(p, simulatorPromptVersion));
}

/**
 * The evaluation fields of a fixture's entry; `judgeModel` is the configured judge ("provider/model"),
 * or null; `promptVersion` the judge prompt's version (JUDGE_PROMPT_VERSION in src/judge/prompt.ts);
 * `judgeEndpoint` where the judge is asked (judgeEndpointOf in src/judge/panel.ts), or null.
 */
export function fixtureEvaluationFields(
  f: Fixture,
  judgeModel: string | null,
  promptVersion: string,
  judgeEndpoint: string | null = null,
): { definitionHash: string; judgeFingerprint: JudgeFingerprint | null } {
  return { definitionHash: fixtureDefinitionHash(f), judgeFingerprint: fixtureJudgeFingerprint(f, judgeModel, promptVersion, judgeEndpoint) };
}

export function personaEvaluationFields(
  p: PersonaScript,
  judgeModel: string | null,
  promptVersion: string,
  simulatorPromptVersion: string | null = null,
  judgeEndpoint: string | null = null,
): { definitionHash: string; judgeFingerprint: JudgeFingerprint | null } {
  return { definitionHash: personaDefinitionHash(p, simulatorPromptVersion), judgeFingerprint: personaJudgeFingerprint(p, judgeModel, promptVersion, judgeEndpoint) };
}
