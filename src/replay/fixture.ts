// One fixture replayed: one message to the agent, its reply redacted, checked by the fixture's
// assertion (or its baseline's judge result reused), and compared with its baseline. Whatever goes
// wrong is this fixture's errored record: replayFixture never throws.

import type { AgentClient, AssertionCheck, Baseline, ErroredFixtureRecord, ErrorKind, Fixture, FixtureRecord, Judge, Outcome, PanelMember, RegexEvaluator, ReplayedFixtureRecord } from '../types.js';
import { evaluateChecks, judgeAssertionOf, judgeOutcome } from '../assertions/index.js';
import { answeredAnotherMessage, computeDrift, judgeReuseOf, knownWordings, MESSAGE_EDITED, reusableJudge, reuseWords } from '../evaluate/index.js';
import { fixtureEvaluationFields } from '../evaluate/definition.js';
import { JUDGE_PROMPT_VERSION } from '../judge/prompt.js';
import { meaningOf, meaningOn, type MeaningRung } from './meaning.js';
import { recordedToolCalls } from './turns.js';
import type { Meaning } from '../types/meaning.js';

export interface FixtureReplayDeps {
  agent: AgentClient;
  regex: RegexEvaluator;
  judge: Judge | null;
  /** Monotonic milliseconds, for the duration. */
  now: () => number;
  /** Applied to every text that goes into the record (secrets -> ***). */
  redact: (text: string) => string;
  /** The session id, asked for when the agent is called (one that throws is the fixture's internal error). */
  session: () => string;
  /** The judge in the fixture's judge fingerprint ("provider/model"); null: no judge. */
  judgeModel: string | null;
  /** Where that judge is asked, in the fingerprint; null or absent: not known. */
  judgeEndpoint?: string | null;
  /** How a reply that differs from its baseline gets its meaning (docs/meaning.md); absent or null: none. */
  meaning?: MeaningRung | null;
  /** The suite's config file (Suite.configName), named by the reason with no judge configured (the meaning rung carries its own); absent: config.yml. */
  configName?: string;
  /** Awaited once the agent answered, before the reply is checked (the runner's "replies first"); absent: none. */
  afterReply?: () => Promise<void>;
}

/** What a fixture's record holds whether or not the agent answered. */
type RecordBase = ReturnType<typeof recordBase>;

function recordBase(fixture: Fixture, baseline: Baseline | null, judgeModel: string | null, judgeEndpoint: string | null) {
  return {
    label: fixture.label,
    file: fixture.file,
    line: fixture.line,
    message: fixture.message,
    persona: fixture.persona,
    assertion: fixture.assertion,
    baseline,
    threshold: judgeAssertionOf(fixture.assertion)?.threshold ?? null,
    ...fixtureEvaluationFields(fixture, judgeModel, JUDGE_PROMPT_VERSION, judgeEndpoint),
  };
}

function erroredRecord(
  base: RecordBase,
  errorKind: ErrorKind,
  message: string,
  durationMs: number,
  redact: (text: string) => string,
  traced: Partial<Pick<FixtureRecord, 'traceId' | 'spans' | 'time' | 'waterfall' | 'toolCalls' | 'latencyMs' | 'usage' | 'errorAddress'>> & Partial<Pick<ErroredFixtureRecord, 'reply' | 'route'>> = {},
): FixtureRecord {
  const error = redact(message);
  return fixtureRecord(base, {
    errored: true,
    error,
    errorKind,
    errorAddress: undefined,
    reply: null,
    route: null,
    verdict: null,
    detail: error,
    score: null,
    threshold: base.threshold,
    rationale: null,
    drift: null,
    judgeReused: undefined,
    members: undefined,
    checks: undefined,
    latencyMs: undefined,
    firstTokenMs: undefined,
    welcomeLatencyMs: undefined,
    slower: undefined,
    faster: undefined,
    stats: undefined,
    traceId: undefined,
    spans: undefined,
    time: undefined,
    waterfall: undefined,
    toolCalls: undefined,
    // Every record has the key (docs/latency.md, "Usage"): null is none reported; the tokens of the
    // turns answered before the failure (the welcome turn) are passed in `traced`.
    usage: null,
    usagePartial: undefined,
    durationMs,
    // A turn errored by its spans keeps what they showed, and the reply and route the agent answered
    // with (docs/traces.md, "Fixtures"): no verdict and no drift, as any errored item.
    ...traced,
  });
}

/** What a fixture's record adds to its base: every key, `undefined` for one it does not have. */
type RecordRest = { [K in Exclude<keyof FixtureRecord, Exclude<keyof RecordBase, 'threshold'> | 'repeat' | 'attempts'>]-?: FixtureRecord[K] | undefined } & (
  | Pick<ErroredFixtureRecord, 'errored' | 'error' | 'errorKind' | 'reply' | 'route' | 'verdict' | 'drift'>
  | Pick<ReplayedFixtureRecord, 'errored' | 'error' | 'errorKind' | 'reply' | 'route' | 'verdict' | 'drift'>
);

/**
 * Every replay of a fixture, errored or not, makes its record with this one object literal, its keys
 * always in the same order: one hidden class with its properties in the object for all of them (an
 * object built key by key past a dozen properties, as Object.assign or a spread does, is kept as a
 * hash table by V8: ~1 KB a record, and more for each key added). A key the record does not have is
 * `undefined`, which JSON.stringify leaves out, so results.json is the same as with the key absent.
 * Two exceptions: a repeated item's record is a spread of its shown attempt's with the repeat
 * fields, and `slower`, `faster` and `stats`, keys the literal already has, are set once the item's attempts are in
 * (both in evaluate/finish.ts).
 */
function fixtureRecord(base: RecordBase, rest: RecordRest): FixtureRecord {
  return {
    label: base.label,
    file: base.file,
    line: base.line,
    message: base.message,
    persona: base.persona,
    assertion: base.assertion,
    baseline: base.baseline,
    threshold: rest.threshold,
    definitionHash: base.definitionHash,
    judgeFingerprint: base.judgeFingerprint,
    errored: rest.errored,
    error: rest.error,
    errorKind: rest.errorKind,
    errorAddress: rest.errorAddress,
    reply: rest.reply,
    route: rest.route,
    verdict: rest.verdict,
    detail: rest.detail,
    score: rest.score,
    rationale: rest.rationale,
    drift: rest.drift,
    judgeReused: rest.judgeReused,
    members: rest.members,
    checks: rest.checks,
    latencyMs: rest.latencyMs,
    firstTokenMs: rest.firstTokenMs,
    welcomeLatencyMs: rest.welcomeLatencyMs,
    // Set once the item's attempts are in, when it was slower than its baseline (evaluate/finish.ts).
    slower: rest.slower,
    // Set with slower, when it was faster than its baseline by the same rule mirrored (evaluate/finish.ts).
    faster: rest.faster,
    // Set with slower (evaluate/finish.ts): pass-rate statistics, when the item or its baseline has more than one attempt.
    stats: rest.stats,
    usage: rest.usage,
    usagePartial: rest.usagePartial,
    // Traces (docs/traces.md): undefined until a turn's spans are read.
    traceId: rest.traceId,
    spans: rest.spans,
    time: rest.time,
    waterfall: rest.waterfall,
    toolCalls: rest.toolCalls,
    durationMs: rest.durationMs,
  } as FixtureRecord;
}

/** Replays one fixture against its stored baseline (null: none); never throws. */
export async function replayFixture(fixture: Fixture, baseline: Baseline | null, deps: FixtureReplayDeps): Promise<FixtureRecord> {
  const started = deps.now();
  try {
    return await replayOne(fixture, baseline, deps, started);
  } catch (e) {
    const base = recordBase(fixture, baseline, deps.judgeModel, deps.judgeEndpoint ?? null);
    return erroredRecord(base, 'internal', `internal error replaying the fixture: ${(e as Error).message}`, Math.round(deps.now() - started), deps.redact);
  }
}

async function replayOne(fixture: Fixture, baseline: Baseline | null, deps: FixtureReplayDeps, started: number): Promise<FixtureRecord> {
  const { now, redact } = deps;
  let outcome;
  try {
    outcome = await deps.agent.converse({ session: deps.session(), message: fixture.message, persona: fixture.persona });
  } catch (e) {
    outcome = { kind: 'errored' as const, errorKind: 'internal' as const, error: `internal error calling the agent: ${(e as Error).message}` };
  }
  if (deps.afterReply !== undefined) await deps.afterReply();
  // After the reply, not before the request: the request goes out without waiting for the
  // definition hash and the rest of the record's base (docs/performance.md).
  const base = recordBase(fixture, baseline, deps.judgeModel, deps.judgeEndpoint ?? null);
  // The tokens of the turns the agent answered before it failed stay counted (docs/latency.md, "Usage").
  if (outcome.kind === 'errored') {
    // A stream cut early keeps the tool calls it had begun, as received and redacted (docs/presets.md, "Streamed replies").
    const begun = outcome.toolCalls === undefined || outcome.toolCalls.length === 0 ? {} : { toolCalls: recordedToolCalls(outcome.toolCalls, redact) };
    const kept = { ...(outcome.usage === undefined ? {} : { usage: outcome.usage }), ...(outcome.address === undefined ? {} : { errorAddress: redact(outcome.address) }), ...begun };
    return erroredRecord(base, outcome.errorKind, outcome.error, Math.round(now() - started), redact, kept);
  }
  // Every agent-supplied text is redacted before it is recorded or compared: an agent that
  // echoes a header must not leak it through the reply, the route or a detail line.
  const reply = redact(outcome.reply);
  const route = outcome.route === null ? null : { conversation: redact(outcome.route.conversation), stage: redact(outcome.route.stage) };
  let result: Outcome;
  let checks: AssertionCheck[] | null = null;
  const timing = outcome.timing;
  // The message turn's tool calls as recorded (redacted, as a script's turn): tool assertions read
  // them, as persona checks read a transcript's (docs/traces.md, "Fixtures"); null: not reported.
  const toolCalls = outcome.toolCalls == null ? null : recordedToolCalls(outcome.toolCalls, redact);
  // What the message turn's spans showed (docs/traces.md, "Fixtures"); undefined without a span reader.
  const traced = {
    traceId: outcome.traceId,
    spans: outcome.spans,
    time: outcome.time,
    waterfall: outcome.waterfall?.map((w) => ({ ...w, name: redact(w.name), tool: w.tool === null ? null : redact(w.tool) })) ?? outcome.waterfall,
    toolCalls: toolCalls !== null && toolCalls.length > 0 ? toolCalls : undefined,
  };
  // Errors override a pass (docs/traces.md, "Errors"): an ERROR span of the message turn errors the fixture with its message.
  const spanError = outcome.errors?.[0];
  if (spanError !== undefined) {
    const what = [spanError.kind, spanError.tool === null ? null : `tool ${spanError.tool}`].filter(Boolean).join(', ');
    return erroredRecord(base, 'agent_error', `message turn: the agent reported an error (${what}): ${spanError.message}`, Math.round(now() - started), redact, { ...traced, reply, route, latencyMs: timing?.latencyMs, usage: outcome.usage ?? null });
  }
  // A judged reply identical to its baseline's, under the same fingerprint, keeps the baseline's
  // score and rationale with no judge call (only a stored baseline is ever a source): see
  // docs/fixtures.md, "Judge reuse". In an assertion list, its judge check is reused the same way.
  const judgeCheck = judgeAssertionOf(fixture.assertion);
  const reusable = judgeCheck !== null ? reusableJudge(baseline, { sent: outcome.reply, recorded: reply }, base.judgeFingerprint) : null;
  const judgeReused = reusable !== null && baseline !== null ? judgeReuseOf(baseline) : null;
  try {
    const reusedJudge =
      reusable !== null && judgeReused !== null && judgeCheck !== null
        ? // A panel's kept result keeps its members: the verdict is their majority again, as when judged.
          judgeOutcome(
            { ok: true as const, score: reusable.score, rationale: reusable.rationale, ...(reusable.members !== undefined ? { members: reusable.members } : {}) },
            judgeCheck.threshold,
            reuseWords(judgeReused),
          )
        : null;
    // The judge is a third party: it reads the reply as recorded (secrets redacted), as it reads
    // a persona transcript; contains and regex run here, on the reply as the agent sent it.
    const evaluated = await evaluateChecks(
      fixture.assertion,
      { reply: outcome.reply, recorded: reply, latencyMs: timing?.latencyMs ?? null, reusedJudge, toolCalls, toolCallsProblem: outcome.toolCallsProblem ?? null },
      { regex: deps.regex, judge: deps.judge, ...(deps.configName !== undefined ? { configName: deps.configName } : {}) },
    );
    result = evaluated.outcome;
    checks = evaluated.checks;
  } catch (e) {
    result = { verdict: 'not_evaluated', detail: `check did not run: internal error (${(e as Error).message})` };
  }
  // The reply's meaning against the baseline's (docs/meaning.md): computed only when both exist and
  // differ, after the verdict, which it never changes. The judge reads the user's message redacted.
  const drift = computeDrift(result.verdict, reply, route, baseline);
  // A baseline that answered another message (the fixture's message or persona edited since: docs/meaning.md,
  // "An edited fixture"): its reply is no wording of this one's, so no meaning is asked and none can read reworded.
  const meaning =
    baseline !== null && answeredAnotherMessage(baseline, fixture)
      ? baseline.reply !== reply && meaningOn(deps.meaning)
        ? { value: 'changed' as const, by: 'message' as const, detail: MESSAGE_EDITED }
        : null
      : await meaningOf(deps.meaning, baseline?.reply ?? null, reply, baseline?.variants ?? [], { before: [], message: fixture.message });
  return fixtureRecord(base, {
    errored: false,
    error: null,
    errorKind: null,
    errorAddress: undefined,
    reply,
    route,
    verdict: result.verdict,
    detail: redact(result.detail),
    score: result.score ?? null,
    threshold: result.threshold ?? base.threshold,
    rationale: result.rationale == null ? null : redact(result.rationale),
    drift: meaning === null ? drift : { reply: drift.reply, route: drift.route, verdict: drift.verdict, meaning },
    judgeReused: judgeReused ?? undefined,
    // A panel of judges: every member's answer, its texts redacted like the rationale.
    members: result.members !== undefined ? redactMembers(result.members, redact) : undefined,
    checks: checks === null ? undefined : checks.map((c) => redactedCheck(c, redact)),
    // Recorded, never judged: only a latency check looks at it (docs/latency.md).
    latencyMs: timing?.latencyMs,
    firstTokenMs: timing?.firstTokenMs,
    welcomeLatencyMs: timing === undefined ? undefined : (outcome.welcomeLatencyMs ?? null),
    slower: undefined,
    faster: undefined,
    stats: undefined,
    // The message turn's trace id (docs/traces.md, "traceparent").
    // Absent when the turn reported or made none (docs/results-json.md): records without calls keep their shape.
    ...traced,
    // The tokens the agent reported for this item (docs/latency.md, "Usage"); never judged.
    usage: outcome.usage ?? null,
    // The welcome turn reported tokens and the message turn none, or none read, or the welcome
    // turn's unread beside the message turn's: `usage` is one turn's alone, left out of the change
    // against the baselines (docs/latency.md, "Usage").
    usagePartial: outcome.messageUsage === null || outcome.welcomeUsageUnread === true ? true : undefined,
    durationMs: Math.round(now() - started),
  });
}

/**
 * Repeats (docs/meaning.md, "Repeats"): each attempt's reply after the first that replied against
 * that one's, by the same ladder, whose variants are the baseline's wordings when it replied one of
 * them. Null up to that attempt and wherever a reply is missing or the same.
 */
export async function fixtureAttemptMeanings(
  fixture: Fixture,
  records: readonly FixtureRecord[],
  rung: MeaningRung | null | undefined,
  baseline: Baseline | null = null,
): Promise<(Meaning | null)[]> {
  // Attempt 1 is the first attempt that replied (the one the item shows); an attempt errored by its
  // spans keeps its reply (docs/traces.md, "Fixtures") but is errored: it has no meaning.
  const ref = records.findIndex((r) => !r.errored && r.reply !== null);
  const first = ref === -1 ? null : (records[ref] as FixtureRecord).reply;
  // The wordings of a baseline that answered another message are not this message's (docs/meaning.md, "An edited fixture").
  const known = knownWordings(first, answeredAnotherMessage(baseline, fixture) ? null : baseline);
  return Promise.all(records.map((r, k) => (k <= ref || r.errored ? null : meaningOf(rung, first, r.reply, known, { before: [], message: fixture.message }))));
}

/** A list check as recorded: its detail and rationale redacted like the item's. */
function redactedCheck(c: AssertionCheck, redact: (text: string) => string): AssertionCheck {
  return { assertion: c.assertion, status: c.status, detail: redact(c.detail), score: c.score, threshold: c.threshold, rationale: c.rationale === null ? null : redact(c.rationale) };
}

/** A panel's members with their texts redacted (a judge may quote a secret the reply carried). */
export function redactMembers(members: readonly PanelMember[], redact: (text: string) => string): PanelMember[] {
  return members.map((m) => ({
    label: m.label,
    score: m.score,
    rationale: m.rationale === null ? null : redact(m.rationale),
    reason: m.reason === null ? null : redact(m.reason),
  }));
}
