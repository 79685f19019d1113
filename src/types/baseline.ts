// Baselines: what a maintainer accepted (docs/semantics.md, "Baselines and acceptance").

import type { Route } from './fixture.js';
import type { JudgeFingerprint, PanelMember } from './judge.js';
import type { TokenUsage } from './latency.js';
import type { TimeSplit } from './trace.js';
import type { TurnSource } from './persona.js';
import type { BaselineVerdict } from './verdict.js';

/** The most variants a baseline (or a script's turn) keeps: the newest (docs/meaning.md, "Variants"). */
export const MAX_VARIANTS = 10;

/** What a maintainer decided was right. */
export interface Baseline {
  label: string;
  /**
   * The fixture's message the accepted reply answered, and its persona tag when it had one
   * (docs/meaning.md, "An edited fixture"): a run whose fixture says another no longer compares
   * the meaning of the two replies. Absent in baselines accepted before they were kept.
   */
  message?: string;
  persona?: string;
  reply: string;
  /**
   * Replies a maintainer accepted as meaning the same as `reply` (docs/meaning.md, "Variants"):
   * newest first, at most 10, written only by acceptance. Absent: none.
   */
  variants?: string[];
  route: Route | null;
  verdict: BaselineVerdict;
  /** A repeated item's attempts when accepted (docs/statistics.md); absent: 1 of 1 (pass) or 0 of 1 (fail). */
  attempts?: BaselineAttempts;
  /**
   * Judge reuse: the judge's result for this reply when the accepted item was judged, with
   * the fingerprint it was judged under. Absent in baselines accepted before it existed, and for
   * items without a judge assertion.
   */
  judge?: BaselineJudge;
  /**
   * The accepted reply's latency: the fixture's message turn's `latencyMs` (null when it was not
   * measured). Absent in baselines accepted before it existed (docs/latency.md).
   */
  latencyMs?: number | null;
  /** Tokens the accepted item's turns reported (docs/latency.md, "Usage"); null: none; absent in older baselines. */
  usage?: TokenUsage | null;
  /** The accepted message turn's time split from traces (docs/traces.md, "Time"); absent without spans and in older baselines. */
  time?: TimeSplit | null;
  acceptedAt: string;
  commit: string | null;
}

/** The attempts behind an accepted verdict: passes out of attempts made (docs/statistics.md). */
export interface BaselineAttempts {
  passed: number;
  total: number;
}

/** A judge result kept in a baseline: reused while the reply and the fingerprint are the same. */
export interface BaselineJudge {
  score: number;
  rationale: string;
  fingerprint: JudgeFingerprint;
  /** A panel's result: every member's answer (the verdict is their majority); absent for a single judge. */
  members?: PanelMember[];
}

/**
 * Who ended a scripted conversation (docs/personas.md, "Baselines and drift"): `agent`, the agent
 * with messages of the script unsent; `both`, the agent on the script's last message; `script`,
 * the script sent its last message and the agent did not end the conversation.
 */
export type ScriptEnding = 'agent' | 'both' | 'script';

/** A persona baseline: `<baselines>/<label>.json` with `kind: "persona"`. */
export interface PersonaBaseline {
  label: string;
  kind: 'persona';
  transcript: Array<{ message: string | null; reply: string; route: Route | null; source?: TurnSource; variants?: string[]; time?: TimeSplit | null }>;
  /**
   * Scripted follow-ups only: how the accepted conversation ended (docs/personas.md, "Baselines and
   * drift"). Absent for a simulated script (its `simulation` says) and in baselines accepted before
   * it was kept: a run then cannot tell an agent that no longer ends the conversation from a
   * follow-up added since.
   */
  endedBy?: ScriptEnding;
  /**
   * Simulated scripts only: the simulator's `done` reason when it ended the accepted conversation,
   * else null; and the goal and instructions its messages were written for (absent in baselines
   * accepted before they were kept: their messages are replayed whatever the script says now).
   */
  simulation?: { doneReason: string | null; goal?: string; instructions?: string | null; persona?: string | null };
  visited: string[];
  outcome: string | null;
  verdict: BaselineVerdict;
  /** A repeated script's attempts when accepted (docs/statistics.md); absent: 1 of 1 (pass) or 0 of 1 (fail). */
  attempts?: BaselineAttempts;
  /** Judge reuse: the criteria's results for this transcript; absent in older baselines and without criteria. */
  judge?: PersonaBaselineJudge;
  /**
   * The accepted conversation's latency: the sum of its measured turns' `latencyMs`, welcome
   * included (a repeated script's: its attempts' median); null when no turn was measured. Absent
   * in baselines accepted before it existed (docs/latency.md).
   */
  latencyMs?: number | null;
  /** Tokens the accepted script's turns reported (docs/latency.md, "Usage"); null: none; absent in older baselines. */
  usage?: TokenUsage | null;
  acceptedAt: string;
  commit: string | null;
}

/**
 * A persona baseline's judge results: the judge model and prompt version, a hash of the
 * transcript exactly as the judge read it (tool calls included), and each criterion judged, with
 * its threshold, score and rationale. A criterion that was not evaluated is not kept.
 */
export interface PersonaBaselineJudge {
  model: string | null;
  /** The judge's address as its fingerprint keeps it (JudgeFingerprint.endpoint); absent in older baselines. */
  endpoint?: string;
  promptVersion: string;
  transcriptHash: string;
  criteria: Array<{ criterion: string; threshold: number; score: number; rationale: string; members?: PanelMember[] }>;
}
