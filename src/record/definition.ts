// The SPEC 11 fields each item's entry in results.json carries: `definitionHash` (sha256 of the
// canonical definition, hex, first 16 characters) and `judgeFingerprint` (with the judge prompt's
// version). What goes into them is decided in src/evaluate/definition.ts.

import { createHash } from 'node:crypto';
import type { Fixture, JudgeFingerprint, PersonaScript } from '../types.js';
import { JUDGE_PROMPT_VERSION } from '../judge/prompt.js';
import { fixtureDefinition, fixtureJudgeFingerprint, personaDefinition, personaJudgeFingerprint } from '../evaluate/definition.js';

export function stableHash(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

export function fixtureDefinitionHash(f: Pick<Fixture, 'message' | 'persona' | 'assertion'>): string {
  return stableHash(fixtureDefinition(f));
}

export function personaDefinitionHash(p: Pick<PersonaScript, 'persona' | 'opening' | 'followUps' | 'mocks' | 'expect'>): string {
  return stableHash(personaDefinition(p));
}

/** The evaluation fields of a fixture's entry; `judgeModel` is the configured judge ("provider/model"), or null. */
export function fixtureEvaluationFields(f: Fixture, judgeModel: string | null): { definitionHash: string; judgeFingerprint: JudgeFingerprint | null } {
  return { definitionHash: fixtureDefinitionHash(f), judgeFingerprint: fixtureJudgeFingerprint(f, judgeModel, JUDGE_PROMPT_VERSION) };
}

export function personaEvaluationFields(p: PersonaScript, judgeModel: string | null): { definitionHash: string; judgeFingerprint: JudgeFingerprint | null } {
  return { definitionHash: personaDefinitionHash(p), judgeFingerprint: personaJudgeFingerprint(p, judgeModel, JUDGE_PROMPT_VERSION) };
}
