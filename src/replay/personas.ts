// One persona script replayed (docs/personas.md): one session; the welcome turn when the agent has
// one, the opening, then the follow-ups in order; every turn recorded; an early end leaves the
// rest unsent; an agent failure keeps the turns that completed. Then the checks and the verdict.
// Never throws: whatever goes wrong is this script's errored record.

import type {
  AgentClient,
  Check,
  Judge,
  JudgeFingerprint,
  PersonaBaseline,
  PersonaRecord,
  PersonaScript,
  RegexEvaluator,
  ReplyExpectation,
  ScriptEnding,
  SimulationRecord,
  Simulator,
  Turn,
} from '../types.js';
import {
  criterionCheck,
  criterionNotSent,
  deterministicChecks,
  finalOutcome,
  replyCheck,
  type ReplyOutcome,
  markMockedCalls,
  personaDrift,
  personaVerdict,
  reportedError,
  RUN_DID_NOT_COMPLETE,
  scriptedEndingChange,
  simulatedEnding,
  toolModeOf,
  visitedConversations,
} from '../evaluate/personas.js';
import { noJudgeReason } from '../assertions/judge.js';
import { redactMembers } from './fixture.js';
import { evaluateContains } from '../assertions/contains.js';
import { evaluateRegex } from '../assertions/regex.js';
import { judgeReuseOf, reusableCriterion, type JudgedTranscript } from '../evaluate/reuse.js';
import { transcriptText } from '../judge/prompt.js';
import { knownWordings, plusUsage, scriptLatency, scriptUsage } from '../evaluate/index.js';
import { stableHash } from '../evaluate/definition.js';
import { recordedToolCalls, type Transcript } from './turns.js';
import { converse as converseWith, type MessageSource, type Stop } from './conversation.js';
import { baselineTurns, converseSimulated, writtenForAnotherUser } from './simulated.js';
import { meaningOf, meaningOn, type MeaningRung } from './meaning.js';
import { scriptMeaning } from '../evaluate/meaning/index.js';
import { attemptEndingChange } from '../evaluate/ending.js';
import type { Meaning } from '../types/meaning.js';

export interface PersonaReplayDeps {
  agent: AgentClient;
  judge: Judge | null;
  now: () => number;
  redact: (text: string) => string;
  session: string;
  /** The judge fingerprint of this script (judge model, prompt version, criteria); absent or null: nothing is reused. */
  fingerprint?: JudgeFingerprint | null;
  /** Runs `expect.reply` regexes (the time-limited worker pool fixtures use); absent: those checks are not evaluated. */
  regex?: RegexEvaluator;
  /** config.yml's `personas.unmockedTools`; absent or null: the script's own, else by its mocks. */
  unmockedTools?: 'error' | 'allow' | null;
  /** Plays a simulated script's user (docs/personas.md, "Simulated users"); absent or null: none configured. */
  simulator?: Simulator | null;
  /** Told for each user message sent from a baseline (spend: baselineTurns). */
  onBaselineTurn?: () => void;
  /** How a reply that differs from the baseline's turn gets its meaning (docs/meaning.md); absent or null: none. */
  meaning?: MeaningRung | null;
  /** The suite's config file (Suite.configName), named by the reason with no judge configured (the meaning rung carries its own); absent: config.yml. */
  configName?: string;
}

export async function replayPersona(script: PersonaScript, baseline: PersonaBaseline | null, deps: PersonaReplayDeps): Promise<PersonaRecord> {
  const started = deps.now();
  try {
    return await replayScript(script, baseline, deps, started);
  } catch (e) {
    // A bug in the checks must cost this script only: an errored record with nothing checked.
    const error = deps.redact(`internal error replaying the script: ${(e as Error).message}`);
    return {
      label: script.label,
      file: script.file,
      line: script.line,
      persona: script.persona,
      turns: [],
      unsent: messagesOf(script),
      visited: [],
      outcome: null,
      checks: [],
      baseline,
      errored: true,
      error,
      errorKind: 'internal',
      verdict: null,
      drift: null,
      durationMs: Math.round(deps.now() - started),
      toolMode: toolModeOf(script, deps.unmockedTools ?? null),
    };
  }
}

async function replayScript(script: PersonaScript, baseline: PersonaBaseline | null, deps: PersonaReplayDeps, started: number): Promise<PersonaRecord> {
  let transcript: Transcript;
  let simulation: SimulationRecord | null = null;
  // A scripted conversation: who ended it (the agent, the agent on the last message, the script); null otherwise.
  let endedBy: ScriptEnding | null = null;
  try {
    if (script.user) {
      const simulated = await converseSimulated(script, script.user, baseline, { ...deps, simulator: deps.simulator ?? null });
      transcript = simulated.transcript;
      simulation = simulated.simulation;
    } else ({ transcript, endedBy } = await converse(script, deps));
  } catch (e) {
    transcript = { turns: [], unsent: messagesOf(script), failure: { errorKind: 'internal', error: `internal error replaying the script: ${(e as Error).message}` }, outcomesReported: false };
  }
  // A call whose output is a mock's was answered by that mock: recorded as mocked.
  const marked = markMockedCalls(transcript.turns, script.mocks);
  const failure = transcript.failure ?? reportedError(marked, script, deps.unmockedTools ?? null, deps.configName);
  // Each turn whose reply differs from the baseline's gets its meaning (docs/meaning.md, "Persona
  // scripts"), asked while the checks run; a simulated script's compared turns have theirs already.
  // Only while the user said what the baseline's user said: from the first turn whose message is
  // another (a user simulated live, a follow-up edited), a reply answers another message.
  const apart = baseline === null ? -1 : otherMessageAt(marked, baseline);
  const meanings = failure === null && baseline !== null && meaningOn(deps.meaning) ? turnMeanings(marked, baseline, deps.meaning, apart) : null;
  const turns = meanings === null ? marked : await meanings;
  // A simulator fault: the agent was not measured, so no check decides anything (errors still override).
  const fault = failure === null ? (simulation?.fault ?? null) : null;
  let checks: Check[] = deterministicChecks(script, turns, transcript.outcomesReported);
  // Every message was sent (the agent may have ended the conversation on the last), or the turn limit was reached: complete.
  const stop = transcript.failure !== null ? 'errored' : (simulation !== null ? simulation.endedBy === 'max_turns' : endedBy === 'script' || endedBy === 'both') ? 'complete' : 'ended';
  for (const e of script.expect.reply ?? []) checks.push(await replyCheck(e, turns, stop, (reply) => matchReply(e, reply, deps.regex)));
  // The transcript exactly as the judge reads it, hashed: what a kept judge result stands for.
  const judged = failure === null && fault === null && script.expect.criteria.length > 0 && deps.judge !== null ? { turns, hash: stableHash(transcriptText(turns)), redacted: transcript.redacted === true } : null;
  if (fault !== null) {
    checks = checks.map((c) => ({ ...c, status: 'not_evaluated', detail: fault }) as Check);
    checks.push(...script.expect.criteria.map((c) => criterionNotSent(c, script.threshold, fault)));
  } else checks.push(...(await criteria(script, turns, failure === null, deps, baseline, judged)));
  const base = {
    label: script.label,
    file: script.file,
    line: script.line,
    persona: script.persona,
    turns,
    unsent: transcript.unsent,
    visited: visitedConversations(turns),
    outcome: finalOutcome(turns),
    checks,
    baseline,
    toolMode: toolModeOf(script, deps.unmockedTools ?? null),
    ...(judged !== null ? { transcriptHash: judged.hash } : {}),
    // Sums over the turns that were measured; absent when none was (docs/latency.md).
    ...(turns.some((t) => t.latencyMs !== undefined) ? scriptLatency(turns) : {}),
    // The tokens the completed turns reported, and a failing turn's that the agent answered (docs/latency.md, "Usage"); null: none.
    usage: plusUsage(scriptUsage(turns), transcript.failure?.usage),
    ...(simulation !== null ? { simulation } : {}),
  };
  if (failure !== null) {
    // Where a connection that failed was tried, as the transcript's failing turn kept it (docs/results-json.md).
    const tried = transcript.failure?.address;
    const address = tried === undefined ? {} : { errorAddress: deps.redact(tried) };
    // The calls the failing turn's stream had begun when it was cut short, as received and redacted, as a fixture's record keeps them (docs/presets.md, "Streamed replies").
    const begun = transcript.failure?.toolCalls;
    const calls = begun === undefined ? {} : { errorToolCalls: recordedToolCalls(begun, deps.redact) };
    return { ...base, errored: true, error: deps.redact(failure.error), errorKind: failure.errorKind, ...address, ...calls, verdict: null, drift: null, durationMs: Math.round(deps.now() - started) };
  }
  // Mocked mode (docs/traces.md, "When spans do not arrive"): a turn whose calls are unknown may
  // hold an unmocked call, so the script is not evaluated rather than passed; its tool checks say why.
  const unknown = turns.find((t) => t.toolCallsProblem !== undefined);
  if (unknown !== undefined && base.toolMode === 'mocked' && fault === null && personaVerdict(checks) === 'pass') {
    const cause = `turn ${unknown.index}: ${unknown.toolCallsProblem ?? ''} (mocked mode: an unmocked call there could not be seen)`;
    checks = checks.map((c) => (c.kind === 'toolCalled' || c.kind === 'toolNotCalled' ? { ...c, status: 'not_evaluated', detail: cause } : c));
    base.checks = checks;
  }
  const verdict = fault !== null || (unknown !== undefined && base.toolMode === 'mocked' && personaVerdict(checks) === 'pass') ? 'not_evaluated' : personaVerdict(checks);
  // A simulated user written anew (the script's user changed) or a conversation that ended another
  // way than the baseline's is a change even when every reply is the same (docs/simulated-users.md).
  const anew = script.user && baseline !== null ? writtenForAnotherUser(script, script.user, baseline, deps.redact) : null;
  // The number of turns, and how the conversation ended, are the agent's only while the user is the baseline's (docs/meaning.md, "Persona scripts").
  const left = baseline !== null && userLeftBaseline(simulation, turns, baseline);
  // A follow-up removed or added since the baseline: the script sent every message it has, and
  // has fewer or more than the baseline's user sent; the turns it lacks or adds are the script's
  // doing, not the agent's, unless the agent ended the baseline's conversation with messages unsent.
  const resent = !script.user && apart === -1 && stop === 'complete' && baseline !== null ? otherMessageCount(messagesOf(script).length, baseline) : null;
  // The same messages and turns as the baseline's, where the agent ended the conversation and did not, or the reverse.
  const ended = endedBy !== null && apart === -1 && baseline !== null && baseline.transcript.length === turns.length ? scriptedEndingChange(endedBy, baseline, turns.at(-1)?.index ?? 0) : null;
  const ending = anew !== null ? `user simulated afresh: ${anew} changed since the baseline` : left ? null : (resent ?? ended ?? simulatedEnding(simulation ?? undefined, baseline));
  const drift = personaDrift(verdict, turns, baseline, ending, simulation?.endedBy === 'simulator_fault');
  const counts = baseline === null || left || resent !== null ? { baseline: turns.length, now: turns.length } : { baseline: baseline.transcript.length, now: turns.length };
  const byTurns = meanings === null || baseline === null ? null : scriptMeaning(turns.map((t) => ({ index: t.index, meaning: t.meaning ?? null })), counts);
  const meaning: Meaning | null = meanings === null ? byTurns : conversationMeaning(byTurns, ending, apart === -1 ? null : (turns[apart]?.index ?? null));
  return { ...base, ...(endedBy !== null ? { endedBy } : {}), errored: false, error: null, errorKind: null, verdict, drift: meaning === null ? drift : { ...drift, meaning }, durationMs: Math.round(deps.now() - started) };
}

/**
 * Whether a simulated script's stored messages stopped at a turn the baseline has: the simulator
 * was asked for it (it wrote it live, was done, or failed) because a reply before it diverged in
 * meaning. From there the conversation is another user's, and how many turns it has is not the
 * agent's doing: a simulator fault that cut it short, or a user who wrote more, is no change in
 * meaning by `turns`. A simulator asked for a turn the baseline lacks (the agent no longer ended
 * the conversation there) is not: that length is the agent's.
 */
function userLeftBaseline(simulation: SimulationRecord | null, turns: readonly Turn[], baseline: PersonaBaseline): boolean {
  if (simulation === null) return false;
  const asked = simulation.liveFromTurn ?? (simulation.endedBy === 'simulator_fault' || (simulation.endedBy === 'simulator' && simulation.calls > 0) ? (turns.at(-1)?.index ?? 0) + 1 : null);
  return asked !== null && baselineTurns(baseline).has(asked);
}

/**
 * "the script has 2 messages, where the baseline's user sent 3" (a follow-up removed), or "the
 * script has 4 messages, where the baseline's user sent 3" (one added): a script that sends
 * another number of messages than its baseline's user did; null when it is the same. Null too
 * when it has more and the baseline keeps that its agent ended the conversation (`endedBy`
 * `agent`, or `both` on the last message): the agent no longer ends it there, and the turns it
 * took are its own ("turns 3 → 4", as for an agent that ends it at another turn). A baseline
 * that does not keep it reads as the script's.
 */
function otherMessageCount(messages: number, baseline: PersonaBaseline): string | null {
  const sent = baseline.transcript.filter((t) => t.message !== null).length;
  if (messages === sent || (messages > sent && (baseline.endedBy === 'agent' || baseline.endedBy === 'both'))) return null;
  return `the script has ${messages} ${messages === 1 ? 'message' : 'messages'}, where the baseline's user sent ${sent}`;
}

/**
 * The position in `turns` of the first turn whose user message is not the baseline's at the same
 * turn (a user simulated live or afresh, a follow-up edited), or -1. Turns the baseline does not
 * have are not counted here: the number of turns already differs.
 */
function otherMessageAt(turns: readonly Turn[], baseline: PersonaBaseline): number {
  const stored = baselineTurns(baseline);
  return turns.findIndex((t) => {
    const old = stored.get(t.index);
    return old !== undefined && old.message !== t.message;
  });
}

/**
 * A script's meaning once its turns have theirs (docs/meaning.md, "Persona scripts"): a turn
 * changed in meaning, or a different number of turns, says it; else a conversation that ended
 * another way or whose user was written afresh (`ending`); else, when the user said something else
 * than the baseline's user from turn `otherFrom` on, the doubt that made the simulator take over
 * (`unchecked`) when there was one, or `changed` by `turns`: a reply to another message is never
 * a rewording of the baseline's.
 */
function conversationMeaning(byTurns: Meaning | null, ending: string | null, otherFrom: number | null): Meaning | null {
  if (byTurns?.value === 'changed') return byTurns;
  if (ending !== null) return { value: 'changed', by: 'turns', detail: ending };
  if (otherFrom === null || byTurns?.value === 'unchecked') return byTurns;
  return { value: 'changed', by: 'turns', detail: `the user's message of turn ${otherFrom} is not the baseline's` };
}

/**
 * The turns, each whose reply differs from the baseline's at the same turn with its `meaning`, up to
 * position `apart` (the first turn whose user message is another; -1: none): from there on no turn
 * has one. The meaning judge reads the conversation up to and including that turn's user message
 * (redacted by the judge's client). Turns that already carry a meaning keep it.
 */
async function turnMeanings(turns: readonly Turn[], baseline: PersonaBaseline, rung: MeaningRung, apart: number): Promise<Turn[]> {
  const compared = apart === -1 ? turns : turns.slice(0, apart);
  const meanings = await meaningsAgainst(compared, baseline.transcript, rung, (t) => t.meaning);
  return turns.map((t, i) => {
    if (i >= compared.length) {
      const { meaning: _dropped, ...rest } = t;
      return rest;
    }
    const meaning = meanings[i] ?? null;
    return meaning === null || t.meaning !== undefined ? t : { ...t, meaning };
  });
}

/**
 * Each turn's meaning against the reference transcript's turn of the same number (null: no such
 * turn, the same reply, or meaning off); `known` gives a turn's meaning already decided.
 */
async function meaningsAgainst(
  turns: readonly Turn[],
  reference: PersonaBaseline['transcript'],
  rung: MeaningRung,
  known: (t: Turn) => Meaning | null | undefined = () => undefined,
): Promise<(Meaning | null)[]> {
  const stored = baselineTurns({ label: '', kind: 'persona', transcript: reference } as PersonaBaseline);
  return Promise.all(
    turns.map(async (t, i): Promise<Meaning | null> => {
      const already = known(t);
      if (already !== undefined) return already;
      const old = stored.get(t.index);
      if (old === undefined || old.reply === t.reply) return null;
      const before = turns.slice(0, i).map((x) => ({ message: x.message, reply: x.reply }));
      return meaningOf(rung, old.reply, t.reply, old.variants ?? [], { before, message: t.message });
    }),
  );
}

/**
 * Repeats (docs/meaning.md, "Repeats"): each attempt's transcript after the first that did not
 * error against that one's, by the same ladder, turn by turn, as a script against its baseline; a
 * turn's variants are the baseline turn's wordings when it replied one of them to the same message.
 * Only while the attempt's user said what attempt 1's did: from the first turn whose user message
 * differs (a simulated user that wrote another one), the replies answer other messages, and neither
 * they nor the number of turns are compared (docs/simulated-users.md, "Repeat"). A scripted
 * attempt of the same messages and turns whose agent ended the conversation where attempt 1's did
 * not, or the reverse, is `changed` by `turns` however its replies are reworded: there is no one
 * ending to accept.
 * Null up to that attempt, for an errored attempt, or with meaning off.
 */
export async function scriptAttemptMeanings(records: readonly PersonaRecord[], rung: MeaningRung | null | undefined, baseline: PersonaBaseline | null = null): Promise<(Meaning | null)[]> {
  // Attempt 1 is the first attempt that did not error (the one the script shows).
  const ref = records.findIndex((r) => !r.errored);
  const first = records[ref];
  if (first === undefined || !meaningOn(rung)) return records.map(() => null);
  const stored = baselineTurns(baseline);
  const reference = first.turns.map((t) => {
    const b = stored.get(t.index);
    const variants = b !== undefined && b.message === t.message ? knownWordings(t.reply, b) : [];
    return { message: t.message, reply: t.reply, route: t.route, ...(variants.length > 0 ? { variants } : {}) };
  });
  return Promise.all(
    records.map(async (r, k) => {
      if (k <= ref || r.errored) return null;
      const apart = r.turns.findIndex((t, i) => i < reference.length && t.message !== reference[i]?.message);
      const turns = apart === -1 ? r.turns : r.turns.slice(0, apart);
      const meanings = await meaningsAgainst(turns, reference, rung);
      const byTurns = scriptMeaning(
        turns.map((t, i) => ({ index: t.index, meaning: meanings[i] ?? null })),
        apart === -1 ? { baseline: reference.length, now: r.turns.length } : { baseline: apart, now: apart },
      );
      // The same messages and turns, where the agent ended the conversation and attempt 1's did not, or the reverse.
      return conversationMeaning(byTurns, attemptEndingChange(r, first, ref + 1), null);
    }),
  );
}

/** An `expect.reply` entry on one reply: contains as for fixtures; a regex in the time-limited worker pool. */
async function matchReply(e: ReplyExpectation, reply: string, regex: RegexEvaluator | undefined): Promise<ReplyOutcome> {
  if ('contains' in e) return evaluateContains(e.contains, reply);
  if (regex === undefined) return { verdict: 'not_evaluated', detail: 'no regex worker pool' };
  return evaluateRegex(e.regex, e.flags, reply, regex);
}

function messagesOf(script: PersonaScript): string[] {
  return [...(script.opening !== null ? [script.opening] : []), ...script.followUps];
}

/**
 * The script's messages in order (replay/conversation.ts); the conversation stops after the last, at
 * an end, or at the first failure. With the transcript, who ended it: the agent with messages
 * unsent, the agent on the last message (`both`: it and the script ended it at that turn), or the
 * script after its last; null when the agent failed.
 */
async function converse(script: PersonaScript, deps: PersonaReplayDeps): Promise<{ transcript: Transcript; endedBy: ScriptEnding | null }> {
  const session = deps.agent.session({ session: deps.session, persona: script.persona, mocks: script.mocks });
  const messages = messagesOf(script);
  const source: MessageSource = {
    next: async (t) => {
      const message = messages[t - 1];
      return message === undefined ? { kind: 'end' } : { kind: 'send', message, recorded: message, source: null };
    },
    unsentFrom: (t) => messages.slice(t - 1),
  };
  const { transcript, stop } = await converseWith(session, source, deps);
  return { transcript, endedBy: scriptEnding(stop, transcript.unsent.length) };
}

/** Who ended a scripted conversation that stopped so, with `unsent` messages left; null: the agent failed. */
function scriptEnding(stop: Stop, unsent: number): ScriptEnding | null {
  if (stop === 'agent_fault') return null;
  if (stop === 'source') return 'script';
  return unsent > 0 ? 'agent' : 'both';
}

/**
 * One judge call per criterion, in order, with the whole transcript; none when the run did not
 * complete. A criterion whose baseline result stands for this transcript (docs/fixtures.md, "Judge reuse") is reused instead.
 */
async function criteria(
  script: PersonaScript,
  turns: readonly Turn[],
  completed: boolean,
  deps: PersonaReplayDeps,
  baseline: PersonaBaseline | null,
  judged: JudgedTranscript | null,
): Promise<Check[]> {
  const out: Check[] = [];
  for (const criterion of script.expect.criteria) {
    const kept = judged === null ? null : reusableCriterion(baseline, judged, deps.fingerprint ?? null, { criterion, threshold: script.threshold });
    if (!completed) out.push(criterionNotSent(criterion, script.threshold, RUN_DID_NOT_COMPLETE));
    else if (deps.judge === null) out.push(criterionNotSent(criterion, script.threshold, noJudgeReason(deps.configName)));
    else if (kept !== null && baseline !== null) {
      const check = criterionCheck(criterion, script.threshold, { ok: true, ...kept }, judgeReuseOf(baseline));
      out.push(check.kind === 'criterion' ? redactCriterion(check, deps.redact) : check);
    } else {
      let check: Check;
      try {
        check = criterionCheck(criterion, script.threshold, await deps.judge.scoreTranscript(criterion, turns));
      } catch (e) {
        check = criterionCheck(criterion, script.threshold, { ok: false, reason: (e as Error).message });
      }
      out.push(check.kind === 'criterion' ? redactCriterion(check, deps.redact) : check);
    }
  }
  return out;
}

/** A criterion's texts redacted (a judge, or each member of a panel, may quote a secret of the transcript). */
function redactCriterion(check: Extract<Check, { kind: 'criterion' }>, redact: (text: string) => string): Check {
  return {
    ...check,
    detail: redact(check.detail),
    rationale: check.rationale === null ? null : redact(check.rationale),
    ...(check.members !== undefined ? { members: redactMembers(check.members, redact) } : {}),
  };
}
