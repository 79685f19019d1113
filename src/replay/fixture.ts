// One fixture replayed: one message to the agent, its reply redacted, checked by the fixture's
// assertion (or its baseline's judge result reused), and compared with its baseline. Whatever goes
// wrong is this fixture's errored record: replayFixture never throws.

import type { AgentClient, Baseline, ErrorKind, Fixture, FixtureRecord, Judge, Outcome, PanelMember, RegexEvaluator } from '../types.js';
import { evaluateAssertion, judgeOutcome } from '../assertions/index.js';
import { computeDrift, judgeReuseOf, reusableJudge, reuseWords } from '../evaluate/index.js';
import { fixtureEvaluationFields } from '../evaluate/definition.js';
import { JUDGE_PROMPT_VERSION } from '../judge/prompt.js';

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
}

/** What a fixture's record holds whether or not the agent answered. */
type RecordBase = ReturnType<typeof recordBase>;

function recordBase(fixture: Fixture, baseline: Baseline | null, judgeModel: string | null) {
  return {
    label: fixture.label,
    file: fixture.file,
    line: fixture.line,
    message: fixture.message,
    persona: fixture.persona,
    assertion: fixture.assertion,
    baseline,
    threshold: fixture.assertion?.kind === 'judge' ? fixture.assertion.threshold : null,
    ...fixtureEvaluationFields(fixture, judgeModel, JUDGE_PROMPT_VERSION),
  };
}

function erroredRecord(base: RecordBase, errorKind: ErrorKind, message: string, durationMs: number, redact: (text: string) => string): FixtureRecord {
  const error = redact(message);
  // Object.assign, not {...base, ...}: V8 gives every object made by a spread followed by more
  // properties a hidden class of its own (~600 bytes each: 12 MB over 20,000 fixtures).
  return Object.assign({}, base, {
    errored: true as const,
    error,
    errorKind,
    reply: null,
    route: null,
    verdict: null,
    detail: error,
    score: null,
    rationale: null,
    drift: null,
    durationMs,
  });
}

/** Replays one fixture against its stored baseline (null: none); never throws. */
export async function replayFixture(fixture: Fixture, baseline: Baseline | null, deps: FixtureReplayDeps): Promise<FixtureRecord> {
  const started = deps.now();
  try {
    return await replayOne(fixture, baseline, deps, started);
  } catch (e) {
    const base = recordBase(fixture, baseline, deps.judgeModel);
    return erroredRecord(base, 'internal', `internal error replaying the fixture: ${(e as Error).message}`, Math.round(deps.now() - started), deps.redact);
  }
}

async function replayOne(fixture: Fixture, baseline: Baseline | null, deps: FixtureReplayDeps, started: number): Promise<FixtureRecord> {
  const { now, redact } = deps;
  const base = recordBase(fixture, baseline, deps.judgeModel);
  let outcome;
  try {
    outcome = await deps.agent.converse({ session: deps.session(), message: fixture.message, persona: fixture.persona });
  } catch (e) {
    outcome = { kind: 'errored' as const, errorKind: 'internal' as const, error: `internal error calling the agent: ${(e as Error).message}` };
  }
  if (outcome.kind === 'errored') return erroredRecord(base, outcome.errorKind, outcome.error, Math.round(now() - started), redact);
  // Every agent-supplied text is redacted before it is recorded or compared: an agent that
  // echoes a header must not leak it through the reply, the route or a detail line.
  const reply = redact(outcome.reply);
  const route = outcome.route === null ? null : { conversation: redact(outcome.route.conversation), stage: redact(outcome.route.stage) };
  let result: Outcome;
  // A judged reply identical to its baseline's, under the same fingerprint, keeps the baseline's
  // score and rationale with no judge call (only a stored baseline is ever a source): see
  // docs/fixtures.md, "Judge reuse".
  const reusable = fixture.assertion?.kind === 'judge' ? reusableJudge(baseline, { sent: outcome.reply, recorded: reply }, base.judgeFingerprint) : null;
  const judgeReused = reusable !== null && baseline !== null ? judgeReuseOf(baseline) : null;
  try {
    if (reusable !== null && judgeReused !== null && fixture.assertion?.kind === 'judge') {
      // A panel's kept result keeps its members: the verdict is their majority again, as when judged.
      const kept = { ok: true as const, score: reusable.score, rationale: reusable.rationale, ...(reusable.members !== undefined ? { members: reusable.members } : {}) };
      result = judgeOutcome(kept, fixture.assertion.threshold, reuseWords(judgeReused));
    } else {
      // The judge is a third party: it reads the reply as recorded (secrets redacted), as it reads
      // a persona transcript; contains and regex run here, on the reply as the agent sent it.
      const checked = fixture.assertion?.kind === 'judge' ? reply : outcome.reply;
      result = await evaluateAssertion(fixture.assertion, checked, { regex: deps.regex, judge: deps.judge });
    }
  } catch (e) {
    result = { verdict: 'not_evaluated', detail: `check did not run: internal error (${(e as Error).message})` };
  }
  // Object.assign: one hidden class for all records (see erroredRecord).
  return Object.assign({}, base, {
    errored: false as const,
    error: null,
    errorKind: null,
    reply,
    route,
    verdict: result.verdict,
    detail: redact(result.detail),
    score: result.score ?? null,
    threshold: result.threshold ?? base.threshold,
    rationale: result.rationale == null ? null : redact(result.rationale),
    drift: computeDrift(result.verdict, reply, route, baseline),
    ...(judgeReused !== null ? { judgeReused } : {}),
    // A panel of judges: every member's answer, its texts redacted like the rationale.
    ...(result.members !== undefined ? { members: redactMembers(result.members, redact) } : {}),
    // Recorded, never judged: only a latency check looks at it (docs/latency.md).
    ...(outcome.timing === undefined
      ? {}
      : { latencyMs: outcome.timing.latencyMs, firstTokenMs: outcome.timing.firstTokenMs, welcomeLatencyMs: outcome.welcomeLatencyMs ?? null }),
    durationMs: Math.round(now() - started),
  });
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
