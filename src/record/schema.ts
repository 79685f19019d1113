// results.json, schema version 1 (docs/results-json.md). The same schema validates what we write and
// what we read back from untrusted places (an artifact downloaded by the accept flow, a shard).

import * as z from 'zod';
import { toolOutput } from './tool-output.js';
import { JUDGE_PROVIDERS, TIERS, type RunRecord } from '../types.js';
// One label rule, one route and one baseline schema: the suite's.
import { LABEL_RE, LABEL_RULE } from '../suite/labels.js';
import { CONFIG_NAMES } from '../suite/config-names.js';
import { hideEndpointTokens } from '../endpoint.js';
import { baselineSchemas } from '../suite/baselines.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Is `value` JSON data: null, booleans, finite numbers, strings, arrays and plain objects of them? Walked with a stack of its own. */
function isJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false;
      continue;
    }
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
      continue;
    }
    if (typeof v !== 'object') return false;
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const item of Object.values(v)) stack.push(item);
  }
  return true;
}

// Built on first use, not when the module loads: a run that never reads a record back (the CLI's
// `run`, `demo`) does not pay for building these schemas at start-up (docs/performance.md, "What
// was done"). z.lazy builds them once and then validates exactly as the schema itself.
function buildRunRecordSchema() {
  const { baselineSchema, judgeFingerprintSchema, panelMemberSchema, personaBaselineSchema, routeSchema, timeSplitSchema, tokenUsageSchema, turnSourceSchema } = baselineSchemas();
  const labelSchema = z.string().regex(LABEL_RE, `label must be ${LABEL_RULE}`);
  const verdictSchema = z.enum(['pass', 'fail', 'not_evaluated']);
  const driftVerdictSchema = z.enum(['still_passing', 'still_failing', 'newly_passing', 'newly_failing', 'no_baseline', 'not_evaluated']);
  const sameDifferent = z.enum(['same', 'different']).nullable();
  // Meaning of a reply that differs from its baseline's (docs/meaning.md, "The meaning of one reply, as recorded").
  const factSchema = z.strictObject({ kind: z.enum(['number', 'time', 'amount', 'url', 'email', 'code']), value: z.string() });
  const meaningSchema = z
    .strictObject({
      value: z.enum(['formatting', 'variant', 'changed', 'reworded', 'unchecked']),
      by: z.enum(['normalize', 'variant', 'facts', 'judge', 'turns', 'message']).nullable(),
      detail: z.string().nullable(),
      facts: z.strictObject({ baseline: z.array(factSchema), now: z.array(factSchema) }).optional(),
      score: z.number().min(0).max(1).optional(),
      reused: z.boolean().optional(),
    })
    .nullable()
    .optional();
  const errorKindSchema = z.enum(['http', 'timeout', 'network', 'invalid_json', 'ended_in_welcome', 'missing_reply', 'agent_error', 'internal']);

  /** A judge's score, or the threshold it is held to: 0..1 (docs/judges.md). */
  const judgeScore = z.number().min(0).max(1);

  const matchModeSchema = z.enum(['exact', 'subset']);
  /** A tool expectation's keys: the persona checks' `expected` has the same (jsonValueSchema is defined below, so read lazily). */
  function toolExpectationShape() {
    return { tool: z.string(), input: z.lazy(() => jsonValueSchema).optional(), match: matchModeSchema };
  }

  const singleAssertionSchema = z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('contains'), value: z.string() }),
    z.strictObject({ kind: z.literal('regex'), pattern: z.string(), flags: z.string() }),
    z.strictObject({ kind: z.literal('judge'), criterion: z.string(), threshold: z.number().min(0).max(1) }),
    // Added within schema version 1 (docs/latency.md): `assert: {maxLatencyMs}`.
    z.strictObject({ kind: z.literal('maxLatency'), ms: z.number().int().min(1) }),
    // Added within schema version 1 (docs/traces.md, "Fixtures"): `assert: {toolCalled | toolNotCalled}`.
    z.strictObject({ kind: z.literal('toolCalled'), ...toolExpectationShape() }),
    z.strictObject({ kind: z.literal('toolNotCalled'), ...toolExpectationShape() }),
  ]);
  // Added within schema version 1 (docs/fixtures.md): an assertion list, `assert: [...]`.
  const assertionSchema = z.union([singleAssertionSchema, z.strictObject({ kind: z.literal('all'), assertions: z.array(singleAssertionSchema).min(1) })]);
  /** One check of an assertion list with its own result. */
  const assertionCheckSchema = z.strictObject({
    assertion: singleAssertionSchema,
    status: verdictSchema,
    detail: z.string(),
    score: judgeScore.nullable(),
    threshold: judgeScore.nullable(),
    rationale: z.string().nullable(),
  });

  // Added within schema version 1: optional so that older records still parse (judgeFingerprintSchema, exported above).
  /** Where a reused judge result came from. */
  const judgeReuseSchema = z.strictObject({ commit: z.string().nullable(), acceptedAt: z.string() });
  const evaluationFields = {
    definitionHash: z.string().nullable().optional(),
    judgeFingerprint: judgeFingerprintSchema.nullable().optional(),
  };
  const coverageResultSchema = z.strictObject({
    listed: z.array(z.string()),
    visited: z.array(z.string()),
    gaps: z.array(z.string()),
    unknown: z.array(z.string()),
  });
  const selectionSchema = z.strictObject({
    rerunOf: z.string().nullable(),
    only: z.array(z.string()).nullable(),
    labels: z.array(z.string()),
  });

  // Added within schema version 1: present only on items that ran more than once.
  // `max` is kept only when above `count` (docs/results-json.md): one that is not was edited by hand.
  const maxAboveCount = (r: { count: number; max?: number | undefined }): boolean => r.max === undefined || r.max > r.count;
  const maxAboveCountError = { error: 'max must be above count', path: ['max'] };
  const repeatSummarySchema = z
    .strictObject({
      count: z.number().int().min(2),
      minPass: z.number().int().min(1),
      passed: z.number().int().nonnegative(),
      flaky: z.boolean(),
      plan: z.strictObject({ count: z.number().int().min(1), minPass: z.number().int().min(1), max: z.number().int().min(2) }).refine(maxAboveCount, maxAboveCountError).optional(),
    })
    .refine((r) => r.passed <= r.count, { error: 'passed must not exceed count', path: ['passed'] });
  const fixtureAttemptSchema = z.strictObject({
    errored: z.boolean(),
    error: z.string().nullable(),
    errorKind: errorKindSchema.nullable(),
    reply: z.string().nullable(),
    meaning: meaningSchema,
    route: routeSchema.nullable(),
    verdict: verdictSchema.nullable(),
    detail: z.string(),
    score: judgeScore.nullable(),
    rationale: z.string().nullable(),
    judgeReused: judgeReuseSchema.nullable().optional(),
    latencyMs: z.number().nonnegative().nullable().optional(),
    // Within schema version 1: this attempt's time split from its spans (docs/traces.md, "Slower").
    time: timeSplitSchema.nullable().optional(),
    // Within schema version 1: this attempt's tokens (docs/latency.md, "Usage"); absent when none were reported.
    usage: tokenUsageSchema.nullable().optional(),
    // Within schema version 1: this attempt's tokens are its welcome turn's alone (docs/latency.md, "Usage").
    usagePartial: z.literal(true).optional(),
    durationMs: z.number().nonnegative(),
    // Within schema version 1: a panel of judges' members (absent for a single judge).
    members: z.array(panelMemberSchema).nullable().optional(),
    // Within schema version 1: an assertion list's checks on this attempt (absent otherwise, and in older records).
    checks: z.array(assertionCheckSchema).optional(),
    // Within schema version 1 (docs/presets.md, "Streamed replies"): an errored attempt's calls begun by its cut stream, absent otherwise and in older records.
    toolCalls: z.lazy(() => z.array(toolCallSchema)).optional(),
  });

  /** A baseline file's schema; in a record its label is also checked (a baseline file's is its name). */
  const baselineRecordSchema = baselineSchema.extend({ label: labelSchema });

  /** A measured time in ms (docs/latency.md); null: not measured for this item; absent in older records. */
  const latencyValue = z.number().nonnegative().nullable().optional();
  /** Present only on an item slower than its baseline (docs/latency.md). */
  const slowerStepSchema = z.strictObject({ kind: z.enum(['model', 'tool', 'other']), name: z.string().nullable(), baselineMs: z.number().nonnegative(), latencyMs: z.number().nonnegative() });
  const slowerSchema = z.strictObject({ baselineMs: z.number().nonnegative(), latencyMs: z.number().nonnegative(), step: slowerStepSchema.nullable().optional() }).optional();
  /** Present only on an item faster than its baseline by the latency rule mirrored (docs/latency.md, "Views"). */
  const fasterSchema = z.strictObject({ baselineMs: z.number().nonnegative(), latencyMs: z.number().nonnegative() }).optional();
  /** Traces (docs/traces.md): the sent trace id, the turn's span counts and its time split; absent in older records. */
  const traceIdValue = z.string().regex(/^[0-9a-f]{32}$/).nullable().optional();
  const spanCountsValue = z.strictObject({ count: z.number().int().nonnegative(), ignored: z.number().int().nonnegative(), late: z.number().int().nonnegative() }).nullable().optional();
  const timeSplitValue = timeSplitSchema.nullable().optional();
  const waterfallValue = z
    .array(
      z.strictObject({
        name: z.string(),
        kind: z.enum(['model', 'tool', 'other']),
        tool: z.string().nullable(),
        startMs: z.number(),
        durationMs: z.number().nonnegative(),
        depth: z.number().int().nonnegative(),
        status: z.enum(['unset', 'ok', 'error']),
      }),
    )
    .max(50)
    .nullable()
    .optional();
  /** Tokens reported (docs/latency.md, "Usage"); null: none reported; absent in older records. */
  const usageValue = tokenUsageSchema.nullable().optional();

  /** A probability: a p-value, a rate, a bound of an interval. */
  const probability = z.number().min(0).max(1);
  const interval = z.tuple([probability, probability]);
  const tallySchema = z.strictObject({ passed: z.number().int().nonnegative(), total: z.number().int().nonnegative() });

  /** An item's pass-rate statistics (docs/statistics.md); within schema version 1, absent in older records. */
  const itemStatsSchema = z
    .strictObject({
      passed: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      rate: probability.nullable(),
      ci: interval,
      baseline: tallySchema,
      pDrop: probability,
      pRise: probability,
      tier: z.enum(TIERS),
      attemptsNeeded: z.number().int().min(1).nullable(),
      looks: z.number().int().min(1),
      maxLooks: z.number().int().min(1),
      // Within schema version 1: stats.alpha the tier was decided with, absent in older records.
      alpha: z.number().gt(0).max(0.5).optional(),
    })
    .optional();

  /** The run's pass-rate change (docs/statistics.md, "The run"); within schema version 1, absent in older records. */
  const runStatsSchema = z
    .strictObject({
      items: z.number().int().nonnegative(),
      before: probability,
      now: probability,
      diff: z.number().min(-1).max(1),
      ci: z.tuple([z.number().min(-1).max(1), z.number().min(-1).max(1)]),
      // Within schema version 1: the bootstrap's seed, absent in older records.
      seed: z.string().optional(),
      mcnemar: z.strictObject({ newlyFailing: z.number().int().nonnegative(), newlyPassing: z.number().int().nonnegative(), p: probability }).optional(),
      // Within schema version 1: the pooled tally's test beside the interval, absent in older records.
      pooled: z.strictObject({ before: tallySchema, now: tallySchema, p: probability }).optional(),
    })
    .optional();

  const fixtureRecordBase = {
    label: labelSchema,
    file: z.string(),
    line: z.number().int().nonnegative(),
    message: z.string(),
    persona: z.string().nullable(),
    assertion: assertionSchema.nullable(),
    // Within schema version 1 (docs/results-json.md): absent in older records and for other errors.
    errorAddress: z.string().nullable().optional(),
    // Within schema version 1 (docs/latency.md): absent in older records and from unmeasured clients.
    latencyMs: latencyValue,
    firstTokenMs: latencyValue,
    usage: usageValue,
    // Within schema version 1 (docs/latency.md, "Usage"): `usage` is some turns' alone; absent otherwise.
    usagePartial: z.literal(true).optional(),
    welcomeLatencyMs: latencyValue,
    checks: z.array(assertionCheckSchema).optional(),
    slower: slowerSchema,
    faster: fasterSchema,
    traceId: traceIdValue,
    spans: spanCountsValue,
    time: timeSplitValue,
    waterfall: waterfallValue,
    // Tool calls of the message turn (docs/traces.md); the schema is defined with the persona turns' below.
    toolCalls: z.lazy(() => z.array(toolCallSchema)).nullable().optional(),
    detail: z.string(),
    score: judgeScore.nullable(),
    threshold: judgeScore.nullable(),
    rationale: z.string().nullable(),
    baseline: baselineRecordSchema.nullable(),
    durationMs: z.number().nonnegative(),
    ...evaluationFields,
    repeat: repeatSummarySchema.optional(),
    attempts: z.array(fixtureAttemptSchema).optional(),
    stats: itemStatsSchema,
    // Within schema version 1: absent in older records.
    judgeReused: judgeReuseSchema.nullable().optional(),
    // Within schema version 1: a panel of judges' members (absent for a single judge).
    members: z.array(panelMemberSchema).nullable().optional(),
  };

  /**
   * Errored (no verdict, no drift; no reply but for an agent_error's, docs/traces.md "Fixtures") or
   * replayed (a reply, a verdict, its drift): never both.
   */
  const fixtureRecordSchema = z.discriminatedUnion('errored', [
    z.strictObject({
      ...fixtureRecordBase,
      errored: z.literal(true),
      error: z.string(),
      errorKind: errorKindSchema,
      // Within schema version 1: a fixture errored by an ERROR span of its message turn keeps the
      // reply and route the agent answered with (docs/traces.md, "Fixtures").
      reply: z.string().nullable(),
      route: routeSchema.nullable(),
      verdict: z.null({ error: 'an errored fixture has no verdict' }),
      drift: z.null({ error: 'an errored fixture has no drift' }),
    }).superRefine((f, ctx) => {
      if (f.errorKind === 'agent_error') return;
      if (f.reply !== null) ctx.addIssue({ code: 'custom', path: ['reply'], message: 'an errored fixture has no reply (only an agent_error keeps the one it answered)' });
      if (f.route !== null) ctx.addIssue({ code: 'custom', path: ['route'], message: 'an errored fixture has no route (only an agent_error keeps the one it answered)' });
    }),
    z.strictObject({
      ...fixtureRecordBase,
      errored: z.literal(false),
      error: z.null(),
      errorKind: z.null(),
      reply: z.string(),
      route: routeSchema.nullable(),
      verdict: verdictSchema,
      drift: z.strictObject({ reply: sameDifferent, route: sameDifferent, verdict: driftVerdictSchema, meaning: meaningSchema }),
    }),
  ]);

  // ---- persona scripts (docs/personas.md) ----

  // Objects keep every key the agent sent, `__proto__` too: checked by one walk and kept as JSON.parse
  // made them (every key an own key). Not a recursive schema of namedRecord: it copied every object
  // with a parse of its own, and zod's memo of a recursive schema, kept per parse, was built again for
  // each object (60,000 tool calls read back in 1.66 s instead of 1.07 s; docs/performance.md).
  const jsonValueSchema = z.custom<Json>(isJson, { error: 'must be JSON data (null, true/false, numbers, strings, lists and objects)' });

  const toolExpectationSchema = z.strictObject(toolExpectationShape());
  const replyTurnSchema = z.union([z.number().int().nonnegative(), z.literal('last'), z.literal('any')]);
  const replyExpectationSchema = z.union([
    z.strictObject({ contains: z.string(), turn: replyTurnSchema }),
    z.strictObject({ regex: z.string(), flags: z.string(), turn: replyTurnSchema }),
  ]);
  // A record written before tool outputs had one shape may hold JSON text: read as the value (tool-output.ts).
  const toolCallSchema = z.strictObject({
    tool: z.string(),
    input: jsonValueSchema,
    output: jsonValueSchema.transform(toolOutput),
    mocked: z.boolean(),
    // Within schema version 1 (docs/traces.md, "Attribution"): absent means the response.
    source: z.enum(['response', 'trace', 'both']).optional(),
  });
  const observedToolCallSchema = toolCallSchema.extend({ turn: z.number().int().nonnegative() });
  const agentErrorEntrySchema = z.strictObject({ kind: z.string(), tool: z.string().nullable(), message: z.string() });

  /** How a simulated script's conversation went (docs/personas.md, "Simulated users"). */
  const simulationRecordSchema = z.strictObject({
    goal: z.string(),
    instructions: z.string().nullable().optional(),
    liveFromTurn: z.number().int().min(1).nullable(),
    endedBy: z.enum(['simulator', 'agent', 'max_turns', 'simulator_fault', 'agent_fault']),
    doneReason: z.string().nullable(),
    calls: z.number().int().nonnegative(),
    retries: z.number().int().nonnegative(),
    fault: z.string().nullable(),
  });

  const turnSchema = z.strictObject({
    index: z.number().int().nonnegative(),
    message: z.string().nullable(),
    reply: z.string(),
    route: routeSchema.nullable(),
    meaning: meaningSchema,
    offTrack: z.array(z.unknown()),
    toolCalls: z.array(toolCallSchema).nullable(),
    outcome: z.string().nullable(),
    errors: z.array(agentErrorEntrySchema),
    durationMs: z.number().nonnegative(),
    latencyMs: latencyValue,
    firstTokenMs: latencyValue,
    // Within schema version 1 (docs/personas.md, "Simulated users"): message turns of simulated scripts only.
    source: turnSourceSchema.optional(),
    usage: usageValue,
    usageUnread: z.literal(true).optional(),
    traceId: traceIdValue,
    spans: spanCountsValue,
    time: timeSplitValue,
    waterfall: waterfallValue,
    toolCallsProblem: z.string().optional(),
  });

  const checkStatusSchema = z.enum(['pass', 'fail', 'not_evaluated']);
  const checkBase = { status: checkStatusSchema, detail: z.string() };
  const checkSchema = z.discriminatedUnion('kind', [
    z.strictObject({ ...checkBase, kind: z.literal('conversations'), expected: z.array(z.string()), observed: z.array(z.string()) }),
    z.strictObject({ ...checkBase, kind: z.literal('terminal'), expected: z.enum(['finish', 'handoff', 'switch']), observed: z.string().nullable() }),
    z.strictObject({
      ...checkBase,
      kind: z.enum(['toolCalled', 'toolNotCalled']),
      expected: toolExpectationSchema,
      observed: z.array(observedToolCallSchema),
      turn: z.number().int().nonnegative().nullable(),
    }),
    // Added within schema version 1: `expect.reply` checks.
    z.strictObject({
      ...checkBase,
      kind: z.literal('reply'),
      expected: replyExpectationSchema,
      observed: z.string().nullable(),
      turn: z.number().int().nonnegative().nullable(),
    }),
    // Added within schema version 1 (docs/latency.md): `expect.maxTurnLatencyMs`.
    z.strictObject({
      ...checkBase,
      kind: z.literal('maxTurnLatency'),
      expected: z.number().int().min(1),
      observed: z.number().nonnegative().nullable(),
      turn: z.number().int().min(1).nullable(),
    }),
    z.strictObject({
      ...checkBase,
      kind: z.literal('criterion'),
      expected: z.string(),
      observed: z.null(),
      score: judgeScore.nullable(),
      threshold: judgeScore,
      rationale: z.string().nullable(),
      // Within schema version 1: absent in older records.
      reused: judgeReuseSchema.nullable().optional(),
      // Within schema version 1: a panel of judges' members (absent for a single judge).
      members: z.array(panelMemberSchema).optional(),
    }),
  ]);

  const personaErrorKindSchema = z.union([errorKindSchema, z.enum(['invalid_response', 'unmocked_tool'])]);

  const personaBaselineRecordSchema = personaBaselineSchema.extend({ label: labelSchema });

  const personaRecordBase = {
    label: labelSchema,
    file: z.string(),
    line: z.number().int().nonnegative(),
    persona: z.string().nullable(),
    turns: z.array(turnSchema),
    stats: itemStatsSchema,
    // Within schema version 1 (docs/results-json.md): absent in older records and for other errors.
    errorAddress: z.string().nullable().optional(),
    latencyMs: latencyValue,
    firstTokenMs: latencyValue,
    slower: slowerSchema,
    faster: fasterSchema,
    usage: usageValue,
    unsent: z.array(z.string()),
    // Within schema version 1 (docs/personas.md, "Baselines and drift"): a scripted script's that did not error; absent otherwise and in older records.
    endedBy: z.enum(['agent', 'both', 'script']).optional(),
    visited: z.array(z.string()),
    outcome: z.string().nullable(),
    checks: z.array(checkSchema),
    baseline: personaBaselineRecordSchema.nullable(),
    durationMs: z.number().nonnegative(),
    // Added within schema version 1 (docs/results-json.md): older records have no mode.
    toolMode: z.enum(['mocked', 'live']).optional(),
    // Within schema version 1 (docs/presets.md, "Streamed replies"): an errored script's failing turn's calls begun, absent otherwise and in older records.
    errorToolCalls: z.array(toolCallSchema).optional(),
    ...evaluationFields,
    repeat: repeatSummarySchema.optional(),
    attempts: z
      .array(
        z.strictObject({
          errored: z.boolean(),
          error: z.string().nullable(),
          errorKind: personaErrorKindSchema.nullable(),
          verdict: verdictSchema.nullable(),
          turns: z.array(turnSchema),
          unsent: z.array(z.string()),
          // Within schema version 1: who ended this attempt's scripted conversation (endedBy above), absent otherwise and in older records.
          endedBy: z.enum(['agent', 'both', 'script']).optional(),
          visited: z.array(z.string()),
          outcome: z.string().nullable(),
          checks: z.array(checkSchema),
          // Within schema version 1: this attempt's transcript as the judge read it, hashed (absent in older records).
          transcriptHash: z.string().nullable().optional(),
          // Within schema version 1: the calls begun by this attempt's failing turn (errorToolCalls above), absent otherwise and in older records.
          errorToolCalls: z.array(toolCallSchema).optional(),
          durationMs: z.number().nonnegative(),
          simulation: simulationRecordSchema.optional(),
          meaning: meaningSchema,
        }),
      )
      .optional(),
    transcriptHash: z.string().nullable().optional(),
    // Within schema version 1: simulated scripts only.
    simulation: simulationRecordSchema.optional(),
  };

  /** Errored (no verdict, no drift; transcript and checks kept) or replayed (a verdict and its drift). */
  const personaRecordSchema = z.discriminatedUnion('errored', [
    z.strictObject({
      ...personaRecordBase,
      errored: z.literal(true),
      error: z.string(),
      errorKind: personaErrorKindSchema,
      verdict: z.null({ error: 'an errored persona script has no verdict' }),
      drift: z.null({ error: 'an errored persona script has no drift' }),
    }),
    z.strictObject({
      ...personaRecordBase,
      errored: z.literal(false),
      error: z.null(),
      errorKind: z.null(),
      verdict: verdictSchema,
      drift: z.strictObject({ transcript: sameDifferent, route: sameDifferent, verdict: driftVerdictSchema, meaning: meaningSchema }),
    }),
  ]);

  return z.strictObject({
    schemaVersion: z.literal(1),
    tool: z.strictObject({ name: z.string(), version: z.string() }),
    startedAt: z.string(),
    finishedAt: z.string(),
    durationMs: z.number().nonnegative(),
    commit: z.string().nullable(),
    // Within schema version 1 (docs/results-json.md): absent outside a git repository and in older records.
    suitePath: z.string().min(1).optional(),
    // Within schema version 1: the suite's config file when it is not config.yml; absent: config.yml (and older records).
    configName: z.enum(CONFIG_NAMES as [string, ...string[]]).optional(),
    // endpoint: one written before tokens in a path were hidden is read as it is written now, as a judge's (docs/security.md, "Secrets").
    agent: z.strictObject({ host: z.string().nullable(), endpoint: z.string().transform(hideEndpointTokens).nullable().optional() }),
    // structured / structuredFallback added within schema version 1: older records have neither.
    // names: within schema version 1, a merge's judges listed (absent for one judge).
    judge: z.strictObject({ name: z.string().nullable(), names: z.array(z.string()).min(2).optional(), structured: z.boolean().optional(), structuredFallback: z.string().optional() }),
    // Within schema version 1 (docs/simulated-users.md): absent when the run had no simulator.
    simulator: z.strictObject({ name: z.string(), structured: z.boolean().optional(), structuredFallback: z.string().optional() }).optional(),
    // provider, endpoint: within schema version 1 (docs/results-json.md), absent without a meaning judge and in older records;
    // an endpoint written before tokens in a path were hidden is read as it is written now (docs/security.md, "Secrets").
    // models, promptVersions: within schema version 1, a merge's listed, as judge.names.
    meaning: z
      .strictObject({
        check: z.enum(['judge', 'facts', 'off']),
        model: z.string().nullable(),
        models: z.array(z.string()).min(2).optional(),
        provider: z.enum(JUDGE_PROVIDERS).optional(),
        endpoint: z.string().transform(hideEndpointTokens).optional(),
        promptVersion: z.string(),
        promptVersions: z.array(z.string()).min(2).optional(),
      })
      .optional(),
    // meaningCalls: within schema version 1 (docs/meaning.md, "Costs").
    estimate: z.strictObject({ usd: z.number(), capUsd: z.number(), aboveCap: z.boolean(), confirmed: z.boolean(), meaningCalls: z.number().int().nonnegative().optional(), adaptive: z.strictObject({ items: z.number().int().min(1), lowUsd: z.number() }).optional() }),
    tallies: z.strictObject({
      passed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      notEvaluated: z.number().int().nonnegative(),
      errored: z.number().int().nonnegative(),
    }),
    // Added within schema version 1: records written before it have no such field.
    interrupted: z.boolean().default(false),
    fixtures: z.array(fixtureRecordSchema),
    // Added within schema version 1 (docs/personas.md): records written before it have none.
    personas: z.array(personaRecordSchema).default([]),
    // Within schema version 1 (docs/latency.md): absent when no turn was measured and in older records.
    latency: z.strictObject({ turns: z.number().int().min(1), p50Ms: z.number().nonnegative(), p95Ms: z.number().nonnegative() }).nullable().optional(),
    usage: usageValue,
    stats: runStatsSchema,
    // Added within schema version 1 (docs/evaluations.md): absent in older records.
    coverage: coverageResultSchema.nullable().optional(),
    selection: selectionSchema.nullable().optional(),
    // Within schema version 1 (docs/results-json.md): absent when every baseline has its item, and in older records.
    removed: z.array(z.strictObject({ label: labelSchema, kind: z.enum(['fixture', 'persona']), file: z.string() })).optional(),
    spend: z
      .strictObject({
        agentTurns: z.number().int().nonnegative(),
        agentRetries: z.number().int().nonnegative(),
        // Within schema version 1 (docs/semantics.md, "Cost"): absent in older records.
        agentRequests: z.number().int().nonnegative().optional(),
        judgeCalls: z.number().int().nonnegative(),
        judgeRetries: z.number().int().nonnegative().optional(),
        judgeReused: z.number().int().nonnegative(),
        // Within schema version 1 (docs/personas.md, "Simulated users").
        simulatorCalls: z.number().int().nonnegative().optional(),
        simulatorRetries: z.number().int().nonnegative().optional(),
        baselineTurns: z.number().int().nonnegative().optional(),
        // Within schema version 1 (docs/meaning.md, "Cost").
        meaningCalls: z.number().int().nonnegative().optional(),
        meaningReused: z.number().int().nonnegative().optional(),
        meaningAvoided: z.number().int().nonnegative().optional(),
      })
      .optional(),
    // Within schema version 1: absent for a whole run and in older records.
    shard: z.strictObject({ index: z.number().int().min(1), total: z.number().int().min(1).max(256), suiteHash: z.string(), partition: z.string().optional() })
      .refine((s) => s.index <= s.total, { error: 'shard index must not exceed the shard total' })
      .optional(),
    // Within schema version 1 (docs/results-json.md): absent in older records.
    repeat: z
      .strictObject({
        count: z.number().int().min(1),
        minPass: z.number().int().min(1),
        max: z.number().int().min(2).optional(),
        flags: z.strictObject({ count: z.number().int().min(1).optional(), max: z.number().int().min(1).optional(), changed: z.number().int().nonnegative().optional() }).optional(),
      })
      .refine(maxAboveCount, maxAboveCountError)
      .optional(),
    // Within schema version 1 (docs/results-json.md): absent when the pull request did not edit the suite, and in older records.
    suiteEdits: z
      .strictObject({
        base: z.string(),
        fixtures: z.array(
          z.strictObject({
            label: z.string(),
            kind: z.literal('persona').optional(),
            file: z.string(),
            change: z.enum(['assertion', 'deleted', 'script', 'repeat']),
            before: z.string().nullable(),
            after: z.string().nullable(),
          }),
        ),
        // Within schema version 1 (docs/action.md, "Suite edited"): absent when config.yml's settings did not change, and in older records.
        config: z
          .array(
            z.strictObject({
              file: z.string(),
              setting: z.string().nullable(),
              change: z.enum(['setting', 'secret', 'unreadable']),
              before: z.string().nullable(),
              after: z.string().nullable(),
              default: z.enum(['before', 'after', 'both']).optional(),
            }),
          )
          .optional(),
        baselines: z.array(z.strictObject({ file: z.string(), status: z.string() })),
        // Within schema version 1 (docs/action.md, "Suite edited"): absent when no workflow file changed, from git, and in older records.
        // `action` and `by`: a file of a local action, or one a `run:` step names (absent in older records).
        workflows: z.array(z.strictObject({ file: z.string(), status: z.string(), action: z.string().optional(), by: z.string().optional() })).optional(),
        unknown: z.string().nullable(),
        source: z.literal('git').optional(),
        rev: z.string().optional(),
      })
      .optional(),
    incomplete: z
      .strictObject({
        total: z.number().int().min(1).max(256),
        suiteHash: z.string(),
        missing: z.array(z.number().int().min(1)),
        foreign: z.array(z.string()),
      })
      // What a merge writes (docs/action.md, "Shards"): a merge lacks some shard of its total, or excluded a file.
      .refine((inc) => inc.missing.every((k) => k <= inc.total), { error: 'a missing shard must not exceed the shard total' })
      .refine((inc) => new Set(inc.missing).size === inc.missing.length, { error: 'a missing shard is listed twice' })
      .refine((inc) => inc.missing.length > 0 || inc.foreign.length > 0, { error: 'an incomplete merge lacks a shard or excluded a file: missing and foreign are both empty' })
      .optional(),
  });
}

export const runRecordSchema = z.lazy(buildRunRecordSchema);

// Compile-time proof that the schema and the domain type agree.
type Parsed = z.infer<typeof runRecordSchema>;
const _typeCheck: (r: Parsed) => RunRecord = (r) => r;
const _typeCheckBack: (r: RunRecord) => Parsed = (r) => r;
void _typeCheck;
void _typeCheckBack;
