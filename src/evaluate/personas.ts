// The pure core of persona scripts (docs/personas.md): tool-input matching, the deterministic
// checks, criteria outcomes, the verdict, drift and acceptance. Data in, data out.

import type {
  Check,
  ToolMode,
  JsonValue,
  JudgeResult,
  JudgeReuse,
  Mock,
  ObservedToolCall,
  PersonaBaseline,
  PersonaDrift,
  PersonaErrorKind,
  PersonaRecord,
  PersonaScript,
  ReplyExpectation,
  ScriptEnding,
  SimulationRecord,
  Terminal,
  ToolCall,
  ToolExpectation,
  Turn,
  Verdict,
} from '../types.js';
import { callMatches, jsonEqual } from './match.js';
import { jsonLine, line, quote, showPattern } from '../assertions/format.js';
import { msWords, plural, thousands, turnWords } from '../words.js';
import { judgeOutcome } from '../assertions/judge.js';
import { toolMatch } from '../assertions/tools.js';
import { isRewordedApartFromLatency, rewritesBaseline } from './changes.js';
import { driftVerdict, sameRoute, sameRoutes } from './drift.js';
import { endingChange } from './ending.js';
import { carriedTurnVariants, inStoredOrder, personaAttemptsAgree, sameVariants, variantsFor } from './variants.js';
import { personaBaselineJudgeOf, reuseWords, samePersonaJudge } from './reuse.js';
import { baselineLatency, medianAttempt } from './latency.js';
import { attemptsOnly, attemptsToWrite, storedAttemptsStand } from './attempts.js';
import { usagePerAttempt } from './usage.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

// Matching tool calls lives in src/evaluate/match.ts (shared with the agent-side mocks helpers).

// --- what the turns show ---------------------------------------------------------------------------

/** A conversation name without a leading `conversations:` (the prefix rule). */
export function conversationName(name: string): string {
  return name.startsWith('conversations:') ? name.slice('conversations:'.length) : name;
}

/** Every `route.conversation` of every turn, welcome included, in first-visit order. */
export function visitedConversations(turns: readonly Turn[]): string[] {
  const out: string[] = [];
  for (const t of turns) if (t.route && !out.includes(t.route.conversation)) out.push(t.route.conversation);
  return out;
}

/** The outcome of the turn that ended the conversation, else of the last turn (the same turn: nothing is sent after an end). */
export function finalOutcome(turns: readonly Turn[]): string | null {
  return turns.at(-1)?.outcome ?? null;
}

/** Does any turn report tool calls? */
export function reportsToolCalls(turns: readonly Turn[]): boolean {
  return turns.some((t) => t.toolCalls !== null);
}

export function observedCalls(turns: readonly Turn[]): ObservedToolCall[] {
  return turns.flatMap((t) => (t.toolCalls ?? []).map((c) => ({ ...c, turn: t.index })));
}

// --- checks ----------------------------------------------------------------------------------------

export const NO_TOOL_CALLS_REASON = 'the agent does not report tool calls';
export const NO_OUTCOMES_REASON = 'the agent does not report outcomes';
export const RUN_DID_NOT_COMPLETE = 'the run did not complete';
export const NO_ROUTES_REASON = 'the agent does not report routes';

/** Does any turn have a route (a non-null `route.conversation`)? */
export function reportsRoutes(turns: readonly Turn[]): boolean {
  return turns.some((t) => t.route !== null);
}

function list(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.join(', ');
}

export function conversationsCheck(expected: readonly string[], turns: readonly Turn[]): Check {
  const visited = visitedConversations(turns);
  if (!reportsRoutes(turns)) return { kind: 'conversations', expected: [...expected], observed: visited, status: 'not_evaluated', detail: NO_ROUTES_REASON };
  const names = new Set(visited.map(conversationName));
  const missing = expected.filter((e) => !visited.includes(e) && !names.has(conversationName(e)));
  const detail = `visited: ${list(visited)}; missing: ${list(missing)}`;
  return { kind: 'conversations', expected: [...expected], observed: visited, status: missing.length === 0 ? 'pass' : 'fail', detail };
}

export function terminalCheck(expected: Terminal, turns: readonly Turn[], outcomesReported: boolean): Check {
  const observed = finalOutcome(turns);
  if (!outcomesReported) return { kind: 'terminal', expected, observed: null, status: 'not_evaluated', detail: NO_OUTCOMES_REASON };
  if (observed === null) return { kind: 'terminal', expected, observed, status: 'fail', detail: `expected ${expected}: the conversation did not end` };
  const status = observed === expected ? 'pass' : 'fail';
  return { kind: 'terminal', expected, observed, status, detail: `expected ${expected}, ended with ${line(observed)}` };
}

export function toolCheck(kind: 'toolCalled' | 'toolNotCalled', expected: ToolExpectation, turns: readonly Turn[]): Check {
  const observed = observedCalls(turns).filter((c) => c.tool === expected.tool);
  // A turn whose spans never came (docs/traces.md, "When spans do not arrive"): its calls are unknown.
  const unknown = turns.find((t) => t.toolCallsProblem !== undefined);
  if (!reportsToolCalls(turns)) return { kind, expected, observed, turn: null, status: 'not_evaluated', detail: unknown ? `turn ${unknown.index}: ${unknown.toolCallsProblem}` : NO_TOOL_CALLS_REASON };
  // One decision and wording with fixtures' tool assertions (assertions/tools.ts).
  const m = toolMatch(kind, expected, observed, (c) => ` at turn ${c.turn}`);
  // A call seen elsewhere still passes toolCalled; anything else could change with the unknown turn's calls: never failed.
  if (unknown && m.status !== 'pass') return { kind, expected, observed, turn: null, status: 'not_evaluated', detail: `turn ${unknown.index}: ${unknown.toolCallsProblem}` };
  if (unknown && kind === 'toolNotCalled') return { kind, expected, observed, turn: null, status: 'not_evaluated', detail: `turn ${unknown.index}: ${unknown.toolCallsProblem}` };
  return { kind, expected, observed, turn: m.first?.turn ?? null, status: m.status, detail: m.detail };
}

// --- expect.reply ----------------------------------------------------------------------------------

/** What one reply gave: the same outcome a fixture's contains / regex assertion has. */
export interface ReplyOutcome {
  verdict: 'pass' | 'fail' | 'not_evaluated';
  detail: string;
}

type ReplyCheck = Extract<Check, { kind: 'reply' }>;

/** How the conversation stopped, for a turn that was not sent. */
export type ConversationStop = 'complete' | 'ended' | 'errored';

function replyWanted(e: ReplyExpectation): string {
  return 'contains' in e ? `contains ${quote(e.contains)}` : `matches ${showPattern(e.regex, e.flags)}`;
}

/**
 * One `expect.reply` entry against the transcript. `turn` is a message turn number (0 the welcome
 * turn), `last` (the last turn with a non-empty reply, else the last turn) or `any` (some reply
 * matches; the first that does is recorded). A numbered turn that was not sent fails ("turn 3 was
 * not sent: the conversation ended at turn 2"); when the run stopped on an error it is not
 * evaluated (the script is errored anyway). A pattern that does not compile or times out: not evaluated.
 */
export async function replyCheck(expected: ReplyExpectation, turns: readonly Turn[], stop: ConversationStop, match: (reply: string) => Promise<ReplyOutcome>): Promise<Check> {
  const base = { kind: 'reply' as const, expected };
  const on = async (t: Turn): Promise<ReplyCheck> => {
    const o = await match(t.reply);
    return { ...base, observed: t.reply, turn: t.index, status: o.verdict, detail: `turn ${t.index}: ${o.detail}` };
  };
  const last = turns.at(-1);
  if (typeof expected.turn === 'number') {
    const n = expected.turn;
    const t = turns.find((x) => x.index === n);
    if (t) return on(t);
    const why =
      n === 0 && (turns[0]?.index ?? 1) !== 0 && last !== undefined
        ? 'the agent has no welcome turn'
        : last === undefined
          ? 'no turn completed'
          : stop === 'errored'
            ? `the run stopped at turn ${last.index}`
            : `the conversation ended at turn ${last.index}`;
    return { ...base, observed: null, turn: null, status: stop === 'errored' && n !== 0 ? 'not_evaluated' : 'fail', detail: `turn ${n} was not sent: ${why}` };
  }
  if (last === undefined) return { ...base, observed: null, turn: null, status: 'not_evaluated', detail: 'no turn completed' };
  if (expected.turn === 'last') return on([...turns].reverse().find((t) => t.reply !== '') ?? last);
  let open: ReplyCheck | null = null;
  for (const t of turns) {
    const c = await on(t);
    if (c.status === 'pass') return c;
    // A pattern that does not compile fails the same way on every reply: one answer is enough.
    if (c.status === 'not_evaluated') {
      open = { ...c, observed: null, turn: null };
      break;
    }
  }
  if (open !== null) return open;
  return { ...base, observed: null, turn: null, status: 'fail', detail: `no reply ${replyWanted(expected)} (${plural(turns.length, 'reply', 'replies')} checked)` };
}

/** Every check that needs no judge, in the order of the `expect` block. */
export function deterministicChecks(script: Pick<PersonaScript, 'expect'>, turns: readonly Turn[], outcomesReported: boolean): Check[] {
  const e = script.expect;
  const checks: Check[] = [];
  if (e.conversations.length > 0) checks.push(conversationsCheck(e.conversations, turns));
  if (e.terminal !== null) checks.push(terminalCheck(e.terminal, turns, outcomesReported));
  for (const t of e.toolCalled) checks.push(toolCheck('toolCalled', t, turns));
  for (const t of e.toolNotCalled) checks.push(toolCheck('toolNotCalled', t, turns));
  if (e.maxTurnLatencyMs !== undefined) checks.push(turnLatencyCheck(e.maxTurnLatencyMs, turns));
  return checks;
}

/**
 * `expect.maxTurnLatencyMs` (docs/latency.md): one check over the message turns (the welcome turn
 * apart) that names the slowest; a turn over the budget (strictly more) fails, and the detail
 * names every such turn with its time. No measured turn: not evaluated.
 */
export function turnLatencyCheck(budgetMs: number, turns: readonly Turn[]): Check {
  const measured = turns.filter((t): t is Turn & { latencyMs: number } => t.index > 0 && typeof t.latencyMs === 'number');
  const base = { kind: 'maxTurnLatency' as const, expected: budgetMs };
  if (measured.length === 0) return { ...base, observed: null, turn: null, status: 'not_evaluated', detail: 'no message turn was measured' };
  const slowest = measured.reduce((a, b) => (b.latencyMs > a.latencyMs ? b : a));
  const over = measured.filter((t) => t.latencyMs > budgetMs);
  const observed = { ...base, observed: slowest.latencyMs, turn: slowest.index };
  if (over.length === 0) {
    return { ...observed, status: 'pass', detail: `slowest turn ${slowest.index}: ${msWords(slowest.latencyMs)} ms, within ${thousands(budgetMs)} ms (${plural(measured.length, 'turn', 'turns')})` };
  }
  // Milliseconds written as the report's expected column writes the budget ("at most 3,000 ms a turn").
  const named = over.map((t) => `turn ${t.index} ${msWords(t.latencyMs)} ms`).join(', ');
  return { ...observed, status: 'fail', detail: `${plural(over.length, 'turn', 'turns')} over ${thousands(budgetMs)} ms: ${named}` };
}

/** A criterion's check from the judge's answer: pass iff score >= threshold; no usable score: not evaluated. */
export function criterionCheck(criterion: string, threshold: number, result: JudgeResult, reused: JudgeReuse | null = null): Check {
  const base = { kind: 'criterion' as const, expected: criterion, observed: null, threshold };
  // The same rule and words as a fixture's judge assertion (a panel's answer decided by its members).
  const o = judgeOutcome(result, threshold, reused === null ? null : reuseWords(reused));
  return {
    ...base,
    status: o.verdict,
    detail: o.detail,
    score: o.score ?? null,
    rationale: o.rationale ?? null,
    ...(o.members !== undefined ? { members: o.members } : {}),
    ...(reused !== null && o.verdict !== 'not_evaluated' ? { reused } : {}),
  };
}

/** A criterion that was not sent to the judge (no judge, or an errored run). */
export function criterionNotSent(criterion: string, threshold: number, reason: string): Check {
  return { kind: 'criterion', expected: criterion, observed: null, threshold, status: 'not_evaluated', detail: reason, score: null, rationale: null };
}

/** fail if any check failed, else not evaluated if any did not run, else pass. */
export function personaVerdict(checks: readonly Check[]): Verdict {
  if (checks.some((c) => c.status === 'fail')) return 'fail';
  if (checks.some((c) => c.status === 'not_evaluated')) return 'not_evaluated';
  return 'pass';
}

// --- mocked and live mode -------------------------------------------------------------------------

export type UnmockedTools = 'error' | 'allow';

/**
 * How a script treats a tool call no mock answered: its own `unmockedTools`, else config.yml's
 * `personas.unmockedTools`, else by its mocks: a script that declares mocks runs in mocked mode
 * (every call must be answered by a mock: `error`), one without runs live (real calls are recorded
 * and checked: `allow`). See docs/personas.md, "Mocks and real tool calls".
 */
export function unmockedToolsOf(script: Pick<PersonaScript, 'mocks' | 'unmockedTools'>, configured: UnmockedTools | null = null): UnmockedTools {
  return script.unmockedTools ?? configured ?? (script.mocks.length > 0 ? 'error' : 'allow');
}

/**
 * The script's mode as results.json records it (docs/results-json.md): `mocked` when a tool call no
 * mock answered errors the script, `live` when real calls are recorded and checked.
 */
export function toolModeOf(script: Pick<PersonaScript, 'mocks' | 'unmockedTools'>, configured: UnmockedTools | null = null): ToolMode {
  return unmockedToolsOf(script, configured) === 'error' ? 'mocked' : 'live';
}

/** A reported output equals a mock's: deep equality, or the same JSON written as text (tool messages carry text). */
function sameOutput(reported: JsonValue, mocked: JsonValue): boolean {
  if (jsonEqual(reported, mocked)) return true;
  if (typeof reported !== 'string' || typeof mocked === 'string') return false;
  try {
    return jsonEqual(JSON.parse(reported) as JsonValue, mocked);
  } catch {
    return false;
  }
}

/** The mock that answered a call: same tool and input rule as toolCalled, and the reported output equals the mock's. */
export function answeringMock(mocks: readonly Mock[], call: Pick<ToolCall, 'tool' | 'input' | 'output'>): Mock | null {
  return mocks.find((m) => callMatches(m, call) && sameOutput(call.output, m.output)) ?? null;
}

/**
 * Was a call answered by a mock? When the agent says so (`mocked: true`; a vendor format's call
 * with no output, a request for the caller to run a tool, is read as such: nothing ran), or when a
 * mock matches the call and the reported output equals that mock's: vendor formats carry no
 * "mocked" flag, so the output is the evidence.
 */
export function answeredByMock(mocks: readonly Mock[], call: ToolCall): boolean {
  return call.mocked || answeringMock(mocks, call) !== null;
}

/** The turns with every call a mock's output answered marked `mocked: true` (the record says what the evidence shows). */
export function markMockedCalls(turns: readonly Turn[], mocks: readonly Mock[]): Turn[] {
  if (mocks.length === 0) return [...turns];
  return turns.map((t) =>
    t.toolCalls === null || t.toolCalls.every((c) => c.mocked || answeringMock(mocks, c) === null)
      ? t
      : { ...t, toolCalls: t.toolCalls.map((c) => (c.mocked || answeringMock(mocks, c) === null ? c : { ...c, mocked: true })) },
  );
}

/**
 * Errors override a pass: a tool call no mock answered (when unmocked calls are errors: mocked
 * mode) or an `errors` entry makes the script errored whatever its checks say. The first one found,
 * in turn order, is the error. In live mode real calls are recorded and checked, not errors.
 * `file`: the suite's config file, named when its personas.unmockedTools makes a call an error.
 */
export function reportedError(
  turns: readonly Turn[],
  script: Pick<PersonaScript, 'mocks' | 'unmockedTools'> = { mocks: [] },
  configured: UnmockedTools | null = null,
  file: string = NEW_CONFIG_NAME,
): { errorKind: PersonaErrorKind; error: string } | null {
  const mode = unmockedToolsOf(script, configured);
  // Named before the colon as every surface names the turn (turnWords: "turn 0 (welcome)"); the causes and compare read it off that prefix.
  for (const t of turns) {
    const real = mode === 'error' ? (t.toolCalls ?? []).find((c) => !answeredByMock(script.mocks, c)) : undefined;
    if (real) return { errorKind: 'unmocked_tool', error: `${turnWords(t.index)}: ${unmockedWords(real, script, configured, file)}` };
    const entry = t.errors[0];
    if (entry) {
      const what = [entry.kind, entry.tool === null ? null : `tool ${entry.tool}`].filter(Boolean).join(', ');
      return { errorKind: entry.kind === 'unmocked_tool' ? 'unmocked_tool' : 'agent_error', error: `${turnWords(t.index)}: the agent reported an error (${what})${entry.message ? `: ${line(entry.message)}` : ''}` };
    }
  }
  return null;
}

/**
 * What the unmocked call was, which mode said it is an error, and the two ways out: the fix after
 * "; ", whose three beginnings FIX_START knows (src/assertions/format.ts), so that a bounded line keeps it whole.
 */
function unmockedWords(call: ToolCall, script: Pick<PersonaScript, 'mocks' | 'unmockedTools'>, configured: UnmockedTools | null, file: string): string {
  const tool = line(call.tool);
  const input = jsonLine(call.input);
  const sameTool = script.mocks.filter((m) => m.tool === call.tool);
  const why =
    sameTool.length === 0
      ? 'no mock is declared for it'
      : sameTool.some((m) => callMatches(m, call))
        ? `its output ${jsonLine(call.output)} is not the mock's output`
        : "no mock's input matches it";
  const head = `the agent reported a call to ${tool} ${input} that no mock answered (${why}; mocked: false)`;
  const declare = `declare a mock for ${tool} in mocks (or make the agent answer ${tool} from the request's mocks)`;
  if (script.unmockedTools === 'error') return `${head}; the script sets unmockedTools: error: ${declare}, or set unmockedTools: allow to test the agent's tools live`;
  if (script.unmockedTools === undefined && configured === 'error') return `${head}; ${file} sets personas.unmockedTools: error: ${declare}, or set unmockedTools: allow on the script to test the agent's tools live`;
  return `${head}; the script declares mocks, so it runs in mocked mode and every tool call must be answered by a mock: ${declare}, or remove the script's mocks to test the agent's tools live`;
}

// --- drift and acceptance --------------------------------------------------------------------------

/**
 * Transcript (any reply, the number of turns, or a simulated conversation that ended another way
 * or whose user was written anew: `ending`, its words), route sequence, and the six-valued verdict
 * comparison. `cut`: a simulator fault ended the conversation (docs/simulated-users.md, "Faults are
 * not evaluated"): the turns it lacks were never asked of the agent, so the routes are compared on
 * the turns it has.
 */
export function personaDrift(current: Verdict, turns: readonly Turn[], baseline: PersonaBaseline | null, ending: string | null = null, cut = false): PersonaDrift {
  const verdict = driftVerdict(current, baseline);
  if (baseline === null) return { transcript: null, route: null, verdict };
  const b = baseline.transcript;
  const transcript = ending === null && b.length === turns.length && b.every((t, i) => t.reply === turns[i]?.reply) ? 'same' : 'different';
  const route = sameRoutes(
    (cut ? b.slice(0, turns.length) : b).map((t) => t.route),
    turns.map((t) => t.route),
  )
    ? 'same'
    : 'different';
  return { transcript, route, verdict };
}

/**
 * A simulated conversation that ended another way than its baseline's (docs/simulated-users.md):
 * the simulated user was done where the baseline's conversation ended without it (the agent
 * ended it, or the turn limit), or the reverse; the replies may all be the same. Null when it
 * ended the same way, when the baseline does not say (a scripted one), or on a fault.
 */
export function simulatedEnding(simulation: Pick<SimulationRecord, 'endedBy' | 'doneReason'> | undefined, baseline: PersonaBaseline | null): string | null {
  if (simulation === undefined || baseline?.simulation === undefined) return null;
  if (simulation.endedBy === 'simulator_fault' || simulation.endedBy === 'agent_fault') return null;
  const before = baseline.simulation.doneReason !== null;
  const now = simulation.doneReason !== null;
  if (before === now) return null;
  if (now) return "ended by the simulated user, where the baseline's conversation ended without it";
  return `${simulation.endedBy === 'agent' ? 'ended by the agent' : 'ended at the turn limit'}, where the baseline's conversation ended by the simulated user`;
}

/**
 * Who ended a scripted conversation whose last turn is `turn`, in the words every report gives it
 * (docs/personas.md, "Baselines and drift"): "the agent ended the conversation on turn 2" (messages
 * of the script left unsent), "... on turn 3, the script's last message", "the script ended the
 * conversation on turn 3, its last message" (the agent did not end it).
 */
export function scriptEndingWords(endedBy: ScriptEnding, turn: number): string {
  if (endedBy === 'script') return `the script ended the conversation on turn ${thousands(turn)}, its last message`;
  return `the agent ended the conversation on turn ${thousands(turn)}${endedBy === 'both' ? ", the script's last message" : ''}`;
}

/**
 * A scripted conversation of the baseline's messages and turns that the agent ended where the
 * baseline's agent did not, or the reverse, its last turn `turn` (docs/personas.md, "Baselines and
 * drift"); the replies may all be the same. Null when both ended it alike, or the baseline does
 * not keep how its conversation ended.
 */
export function scriptedEndingChange(now: ScriptEnding, baseline: Pick<PersonaBaseline, 'endedBy'>, turn: number): string | null {
  return endingChange(now, baseline.endedBy, turn, "the baseline's");
}

/** The turn number of the first turn that differs from the baseline (reply, route, or one side has no such turn), or null. */
export function firstDifferentTurn(turns: readonly Turn[], baseline: PersonaBaseline): number | null {
  const b = baseline.transcript;
  // Turn numbers: the welcome turn is 0 when there is one (its message is null), the opening is 1.
  const hasWelcome = turns[0] !== undefined ? turns[0].index === 0 : b[0]?.message === null;
  for (let i = 0; i < Math.max(turns.length, b.length); i++) {
    const t = turns[i];
    const old = b[i];
    if (!t || !old || t.reply !== old.reply || !sameRoute(t.route, old.route)) return t?.index ?? (hasWelcome ? i : i + 1);
  }
  return null;
}

export const REFUSE_PERSONA_ERRORED = 'errored: the run did not complete';

/** Why a script's run cannot be accepted as it is, or the agreement of its attempts (their turns' variants) when it can. */
function personaAcceptable(record: PersonaRecord): { reason: string } | { agreement: { variants: string[][] } | null; verdict: 'pass' | 'fail' } {
  if (record.errored) return { reason: REFUSE_PERSONA_ERRORED };
  // A repeated script whose attempts' transcripts differ in meaning (or, with no meaning recorded, in any way) has no one transcript to accept.
  const agreement = record.attempts !== undefined ? personaAttemptsAgree(record.turns, record.attempts) : null;
  if (agreement?.kind === 'refuse') return { reason: agreement.reason };
  if (record.verdict !== 'pass' && record.verdict !== 'fail') return { reason: 'not evaluated: run it again' };
  return { agreement, verdict: record.verdict };
}

/** The stored transcript's messages, replies and routes, turn by turn, are the run's (variants aside). */
function sameTurnsStored(current: PersonaBaseline, turns: PersonaRecord['turns']): boolean {
  return current.transcript.length === turns.length && current.transcript.every((t, i) => t.message === turns[i]?.message && t.reply === turns[i]?.reply && sameRoute(t.route, turns[i]?.route ?? null));
}

/**
 * decidePersonaAcceptance's kind alone, for counting (the run's next step, src/report/to-accept.ts),
 * as acceptanceKind is a fixture's: a script with no baseline, or whose transcript is not its
 * baseline's, that can be accepted is accepted whatever it replied (only the same transcript can
 * leave a baseline unchanged), so its turns' variants and the baseline it would write are not built.
 */
export function personaAcceptanceKind(record: PersonaRecord, commit: string | null): PersonaAcceptDecision['kind'] {
  if (record.baseline !== null && sameTurnsStored(record.baseline, record.turns)) return decidePersonaAcceptance(record, '', commit).kind;
  return 'reason' in personaAcceptable(record) ? 'refuse' : 'accept';
}

export type PersonaAcceptDecision = { kind: 'accept'; baseline: PersonaBaseline } | { kind: 'unchanged' } | { kind: 'refuse'; reason: string };

/**
 * As for fixtures: the current verdict decides; not evaluated and errored are refused. Variants
 * are kept per turn, by each turn's meaning (docs/meaning.md, "Variants"); a repeated script whose
 * attempts differ in meaning is refused, one whose attempts differ in wording only gives each turn
 * the other attempts' replies as variants (docs/meaning.md, "Repeats").
 */
export function decidePersonaAcceptance(record: PersonaRecord, acceptedAt: string, commit: string | null, current: PersonaBaseline | null = record.baseline): PersonaAcceptDecision {
  const checked = personaAcceptable(record);
  if ('reason' in checked) return { kind: 'refuse', reason: checked.reason };
  const { agreement, verdict } = checked;
  const carried = carriedTurnVariants(current, record.baseline, { verdict, turns: record.turns });
  // A repeated script keeps its median attempt's turn times, beside its median latency (docs/traces.md, "Slower").
  const timed = medianAttempt(record.attempts)?.turns ?? record.turns;
  const transcript = record.turns.map((t, i) => ({
    message: t.message,
    reply: t.reply,
    ...variantsOf(inStoredOrder(current?.transcript[i]?.message === t.message ? current.transcript[i] : null, t.reply, variantsFor(t.reply, [...(agreement?.variants[i] ?? []), ...(carried[i] ?? [])]))),
    route: t.route === null ? null : { conversation: t.route.conversation, stage: t.route.stage },
    // A simulated script's message turns keep who wrote them; a message replayed from the baseline
    // keeps the baseline's own source (it was written by the simulator, or by the script).
    ...(t.source !== undefined ? { source: t.source === 'baseline' ? (current?.transcript[i]?.source ?? 'simulator') : t.source } : {}),
    // Where the turn's time went, from its spans (docs/traces.md, "Slower"): only when read.
    ...(timed[i]?.time != null ? { time: timed[i]?.time } : {}),
  }));
  const simulation = record.simulation !== undefined ? storedSimulation(record.simulation, record.persona) : null;
  const endedBy = scriptedEnding(record);
  const judge = personaBaselineJudgeOf(record);
  const sameTranscript = current !== null && sameTurnsStored(current, record.turns);
  if (
    current !== null &&
    // A slower script is rewritten: accepting it accepts its new latency (docs/latency.md).
    !rewritesBaseline(record) &&
    (judge === null || current.judge === undefined || samePersonaJudge(current.judge, judge)) &&
    current.verdict === verdict &&
    storedAttemptsStand(current, { verdict, repeat: record.repeat, stats: record.stats }) &&
    current.outcome === record.outcome &&
    current.visited.length === record.visited.length &&
    current.visited.every((v, i) => v === record.visited[i]) &&
    sameTranscript &&
    current.transcript.every((t, i) => sameVariants(t.variants, transcript[i]?.variants)) &&
    // A baseline from before the ending was kept is not rewritten only to add it.
    (current.endedBy === undefined || current.endedBy === endedBy) &&
    (current.simulation?.doneReason ?? null) === (simulation?.doneReason ?? null) &&
    // A baseline from before the goal was kept is not rewritten only to add it (the run read it as unchanged).
    (current.simulation?.goal === undefined || (current.simulation.goal === simulation?.goal && (current.simulation.instructions ?? null) === (simulation.instructions ?? null))) &&
    // Nor one from before the persona was kept only to add that.
    (current.simulation?.persona === undefined || current.simulation.persona === (simulation?.persona ?? null))
  ) {
    return { kind: 'unchanged' };
  }
  // The same transcript, or one that only changed wording against the stored one, keeps its tally
  // and its tokens, whatever else rewrites the file (docs/statistics.md, "A baseline's attempts").
  const sameMeasurement = current !== null && (sameTranscript || (sameTurns(record.baseline?.transcript ?? null, current.transcript) && isRewordedApartFromLatency(record)));
  const tally = attemptsToWrite(current, { verdict, repeat: record.repeat, stats: record.stats, perAttempt: usagePerAttempt(record) }, sameMeasurement);
  return {
    kind: 'accept',
    baseline: {
      label: record.label,
      kind: 'persona',
      transcript,
      ...(endedBy !== undefined ? { endedBy } : {}),
      ...(simulation !== null ? { simulation } : {}),
      visited: [...record.visited],
      outcome: record.outcome,
      verdict,
      ...attemptsOnly(tally),
      ...(judge !== null ? { judge } : {}),
      ...baselineLatency(record),
      // The script's tokens (docs/latency.md, "Usage"); only when reported; kept with a kept tally.
      ...(tally.usage !== undefined ? { usage: tally.usage } : {}),
      acceptedAt,
      commit,
    },
  };
}

/**
 * What a simulated script's baseline keeps of its run (docs/simulated-users.md): the done reason,
 * and the goal, instructions and persona the messages were written for (the simulator is shown all
 * three; a record from before instructions were kept gives the done reason alone, so the stored
 * messages keep being replayed).
 */
function storedSimulation(s: NonNullable<PersonaRecord['simulation']>, persona: string | null): NonNullable<PersonaBaseline['simulation']> {
  return s.instructions === undefined ? { doneReason: s.doneReason } : { doneReason: s.doneReason, goal: s.goal, instructions: s.instructions, persona };
}

/**
 * How a scripted conversation that completed ended, as its baseline keeps it (docs/personas.md,
 * "Baselines and drift"): the record's `endedBy`; undefined for a simulated script (its
 * `simulation` says). An older record without it: `agent` when messages of the script were left
 * unsent, else undefined (whether the agent ended it on the last message is not known).
 */
function scriptedEnding(record: Pick<PersonaRecord, 'simulation' | 'unsent' | 'endedBy'>): PersonaBaseline['endedBy'] {
  if (record.simulation !== undefined) return undefined;
  return record.endedBy ?? (record.unsent.length > 0 ? 'agent' : undefined);
}

/** Are two stored transcripts the same conversation (each turn's message and reply)? */
function sameTurns(a: PersonaBaseline['transcript'] | null, b: PersonaBaseline['transcript']): boolean {
  return a !== null && a.length === b.length && a.every((t, i) => t.message === b[i]?.message && t.reply === b[i]?.reply);
}

/** `{variants}` when there are any: a turn without keeps the bytes it always had. */
function variantsOf(variants: string[]): { variants?: string[] } {
  return variants.length > 0 ? { variants } : {};
}

// --- cost ------------------------------------------------------------------------------------------

/** Agent turns one script costs: the welcome turn (only when the agent has one), the opening, the follow-ups. */
export function personaTurns(script: Pick<PersonaScript, 'followUps' | 'user'>, welcomeTurn: boolean): number {
  // A simulated user may take every turn it is allowed (docs/personas.md, "Simulated users").
  return (welcomeTurn ? 1 : 0) + (script.user ? script.user.maxTurns : 1 + script.followUps.length);
}

/**
 * Simulator calls a script may make at most: one per message turn of a simulated user but the
 * scripted `opening` (the simulator writes the others; none is asked after the last turn), none
 * for a scripted one.
 */
export function simulatorCallsOf(script: Pick<PersonaScript, 'user' | 'opening'>): number {
  return script.user ? script.user.maxTurns - (script.opening !== null ? 1 : 0) : 0;
}
