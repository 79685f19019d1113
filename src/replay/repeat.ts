// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it"): the attempts of one item, each replayed as an ordinary item in its own session,
// made into the item's one record. The item shows (and compares for drift) the first attempt that
// replied (a fixture) or completed (a persona script), else the first attempt; its verdict is the
// attempts' combined verdict (evaluate/repeat.ts); every attempt is kept under `attempts`.

import type {
  Baseline,
  FixtureAttempt,
  FixtureRecord,
  PersonaAttempt,
  PersonaBaseline,
  PersonaRecord,
  Repeat,
  TokenUsage,
} from '../types.js';
import { computeDrift, plusUsage } from '../evaluate/index.js';
import { personaDrift } from '../evaluate/personas.js';
import { combineAttempts, repeatDetail, type AttemptOutcome } from '../evaluate/repeat.js';

/** The session of attempt `k` (1-based): the item's own session when it runs once, else suffixed `-k`. */
export function attemptSession(session: string, k: number, count: number): string {
  return count <= 1 ? session : `${session}-${k}`;
}

function outcomeOf(r: { errored: boolean; verdict: FixtureRecord['verdict'] }): AttemptOutcome {
  return r.errored || r.verdict === null ? 'errored' : r.verdict;
}

/** Index of the attempt an item shows: the first that did not error, else the first. */
function shownIndex(records: readonly { errored: boolean }[]): number {
  const i = records.findIndex((r) => !r.errored);
  return i === -1 ? 0 : i;
}

function sum(records: readonly { durationMs: number }[]): number {
  return records.reduce((n, r) => n + r.durationMs, 0);
}

/** The tokens every attempt reported (each was spent), null when none did (docs/latency.md, "Usage"). */
function usageOfAttempts(records: readonly Pick<FixtureRecord, 'usage'>[]): TokenUsage | null {
  return records.reduce<TokenUsage | null>((u, r) => plusUsage(u, r.usage), null);
}

/** The record of a fixture replayed `records.length` times (each record one attempt, in order). */
export function combineFixtureAttempts(records: readonly FixtureRecord[], repeat: Repeat, baseline: Baseline | null): FixtureRecord {
  const first = records[0];
  if (first === undefined) throw new Error('a repeated fixture has no attempt');
  if (records.length === 1) return first;
  const attempts: FixtureAttempt[] = records.map((r) => ({
    errored: r.errored,
    error: r.error,
    errorKind: r.errorKind,
    reply: r.reply,
    route: r.route,
    verdict: r.verdict,
    detail: r.detail,
    score: r.score,
    rationale: r.rationale,
    ...(r.judgeReused != null ? { judgeReused: r.judgeReused } : {}),
    ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}),
    durationMs: r.durationMs,
    ...(r.members != null ? { members: r.members } : {}),
  }));
  const { verdict, summary } = combineAttempts(records.map(outcomeOf), repeat);
  const k = shownIndex(records);
  const shown = records[k] as FixtureRecord;
  const detail = `${repeatDetail(summary)}; attempt ${k + 1}: ${shown.detail}`;
  const extra = { repeat: summary, attempts, durationMs: sum(records), usage: usageOfAttempts(records) };
  if (verdict === null || shown.errored) return { ...shown, detail, ...extra };
  // The shown attempt's meaning against the baseline stays: it never depends on the verdict.
  const drift = computeDrift(verdict, shown.reply, shown.route, baseline);
  const meaning = shown.drift?.meaning;
  return { ...shown, verdict, detail, drift: meaning == null ? drift : { ...drift, meaning }, ...extra };
}

/** The record of a persona script replayed `records.length` times (each record one attempt, in order). */
export function combinePersonaAttempts(records: readonly PersonaRecord[], repeat: Repeat, baseline: PersonaBaseline | null): PersonaRecord {
  const first = records[0];
  if (first === undefined) throw new Error('a repeated persona script has no attempt');
  if (records.length === 1) return first;
  const attempts: PersonaAttempt[] = records.map((r) => ({
    errored: r.errored,
    error: r.error,
    errorKind: r.errorKind,
    verdict: r.verdict,
    turns: r.turns,
    unsent: r.unsent,
    visited: r.visited,
    outcome: r.outcome,
    checks: r.checks,
    durationMs: r.durationMs,
    // A simulated script: each attempt's own simulation (each started from the baseline).
    ...(r.simulation !== undefined ? { simulation: r.simulation } : {}),
  }));
  const { verdict, summary } = combineAttempts(records.map(outcomeOf), repeat);
  const shown = records[shownIndex(records)] as PersonaRecord;
  const extra = { repeat: summary, attempts, durationMs: sum(records), usage: usageOfAttempts(records) };
  if (verdict === null || shown.errored) return { ...shown, ...extra };
  const drift = personaDrift(verdict, shown.turns, baseline);
  const meaning = shown.drift?.meaning;
  return { ...shown, verdict, drift: meaning == null ? drift : { ...drift, meaning }, ...extra };
}
