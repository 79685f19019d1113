// results.json, schema version 1 (SPEC section 9). The same schema validates what we write and
// what we read back from untrusted places (an artifact downloaded by the accept flow, a shard).

import { z } from 'zod';
import type { RunRecord } from '../types.js';
// One label rule, one route and one baseline schema: the suite's.
import { LABEL_RE, LABEL_RULE } from '../suite/labels.js';
import { baselineSchema, routeSchema } from '../suite/baselines.js';

export const labelSchema = z.string().regex(LABEL_RE, `label must be ${LABEL_RULE}`);
const verdictSchema = z.enum(['pass', 'fail', 'not_evaluated']);
const driftVerdictSchema = z.enum(['still_passing', 'still_failing', 'newly_passing', 'newly_failing', 'no_baseline', 'not_evaluated']);
const sameDifferent = z.enum(['same', 'different']).nullable();

export const assertionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('contains'), value: z.string() }),
  z.strictObject({ kind: z.literal('regex'), pattern: z.string(), flags: z.string() }),
  z.strictObject({ kind: z.literal('judge'), criterion: z.string(), threshold: z.number().min(0).max(1) }),
]);

/** A baseline file's schema; in a record its label is also checked (a baseline file's is its name). */
export const baselineRecordSchema = baselineSchema.extend({ label: labelSchema });

const fixtureRecordBase = {
  label: labelSchema,
  file: z.string(),
  line: z.number().int().nonnegative(),
  message: z.string(),
  persona: z.string().nullable(),
  assertion: assertionSchema.nullable(),
  detail: z.string(),
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  rationale: z.string().nullable(),
  baseline: baselineRecordSchema.nullable(),
  durationMs: z.number().nonnegative(),
};

/** Errored (no reply, no verdict, no drift) or replayed (a reply, a verdict, its drift): never both. */
export const fixtureRecordSchema = z.discriminatedUnion('errored', [
  z.strictObject({
    ...fixtureRecordBase,
    errored: z.literal(true),
    error: z.string(),
    errorKind: z.enum(['http', 'timeout', 'network', 'invalid_json', 'ended_in_welcome', 'missing_reply', 'internal']),
    reply: z.null({ error: 'an errored fixture has no reply' }),
    route: z.null({ error: 'an errored fixture has no route' }),
    verdict: z.null({ error: 'an errored fixture has no verdict' }),
    drift: z.null({ error: 'an errored fixture has no drift' }),
  }),
  z.strictObject({
    ...fixtureRecordBase,
    errored: z.literal(false),
    error: z.null(),
    errorKind: z.null(),
    reply: z.string(),
    route: routeSchema.nullable(),
    verdict: verdictSchema,
    drift: z.strictObject({ reply: sameDifferent, route: sameDifferent, verdict: driftVerdictSchema }),
  }),
]);

export const runRecordSchema = z.strictObject({
  schemaVersion: z.literal(1),
  tool: z.strictObject({ name: z.string(), version: z.string() }),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().nonnegative(),
  commit: z.string().nullable(),
  agent: z.strictObject({ host: z.string().nullable() }),
  judge: z.strictObject({ name: z.string().nullable() }),
  estimate: z.strictObject({ usd: z.number(), capUsd: z.number(), aboveCap: z.boolean(), confirmed: z.boolean() }),
  tallies: z.strictObject({
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    notEvaluated: z.number().int().nonnegative(),
    errored: z.number().int().nonnegative(),
  }),
  // Added within schema version 1: records written before it have no such field.
  interrupted: z.boolean().default(false),
  fixtures: z.array(fixtureRecordSchema),
});

// Compile-time proof that the schema and the domain type agree.
type Parsed = z.infer<typeof runRecordSchema>;
const _typeCheck: (r: Parsed) => RunRecord = (r) => r;
const _typeCheckBack: (r: RunRecord) => Parsed = (r) => r;
void _typeCheck;
void _typeCheckBack;
