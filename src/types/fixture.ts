// Fixtures and their assertions (docs/fixtures.md).

import type { ToolExpectation } from './tools.js';
import type { Verdict } from './verdict.js';

/** Where the reply landed, as reported by the agent. */
export interface Route {
  conversation: string;
  stage: string;
}

/** One check on a fixture's reply (docs/fixtures.md, "Assertions"). */
export type SingleAssertion =
  | { kind: 'contains'; value: string }
  | { kind: 'regex'; pattern: string; flags: string }
  | { kind: 'judge'; criterion: string; threshold: number }
  /** The message turn took at most `ms` (docs/latency.md): deterministic, on the client's clock. */
  | { kind: 'maxLatency'; ms: number }
  /**
   * The agent made (toolCalled) or did not make (toolNotCalled) a matching tool call in the message
   * turn (docs/traces.md, "Fixtures"): matched as persona scripts match theirs.
   */
  | ToolAssertion;

/** `assert: {toolCalled: {tool, input?, match?}}` or `{toolNotCalled: ...}`: one call each. */
export type ToolAssertion = ({ kind: 'toolCalled' } & ToolExpectation) | ({ kind: 'toolNotCalled' } & ToolExpectation);

/** A fixture's assertion: one check, or a list of checks that must all pass (`assert: [...]`). */
export type Assertion = SingleAssertion | { kind: 'all'; assertions: SingleAssertion[] };

/** One check of an assertion list, with its own result (the record's `checks`). */
export interface AssertionCheck {
  assertion: SingleAssertion;
  /** Named as a persona script's checks name theirs. */
  status: Verdict;
  detail: string;
  score: number | null;
  threshold: number | null;
  rationale: string | null;
}

/** One user message, an optional persona tag, an optional assertion, a label. */
export interface Fixture {
  label: string;
  message: string;
  persona: string | null;
  assertion: Assertion | null;
  /** Path of the fixture file relative to the repository root (or cwd), with forward slashes. */
  file: string;
  /** 1-based line of the fixture in its file. */
  line: number;
  /** The fixture's own `repeat` (it replaces config.yml's); absent: the global one applies. */
  repeat?: Repeat;
}

/**
 * Repeat (docs/fixtures.md#repeat-measure-flakiness-instead-of-suffering-it): run an item `count` times (each attempt its own session) and pass it when at
 * least `minPass` attempts pass. `count` 1 is an ordinary item.
 */
export interface Repeat {
  count: number;
  minPass: number;
  /**
   * Adaptive attempts (docs/statistics.md, "Adaptive attempts"): up to `max` attempts in batches of
   * `count` while a drop against the baseline is unclear; absent: `count`, no extra attempt.
   */
  max?: number;
}

/**
 * What a repeated item's record says of its attempts (present only when it made more than one):
 * `count` the attempts made, `minPass` the passes they needed (minPass / count of the repeat,
 * scaled to the attempts made).
 */
export interface RepeatSummary extends Omit<Repeat, 'max'> {
  /** Attempts whose verdict was pass: the k of "k/N". */
  passed: number;
  /** The attempts' outcomes (pass, fail, not evaluated, errored) are not all the same. */
  flaky: boolean;
  /**
   * The repeat the item ran with when `max` is above `count` (docs/statistics.md, "Adaptive
   * attempts"): `count` a batch, `minPass` its passes needed, `max`. What defines its attempts,
   * where the attempts made (`count` above) vary from run to run. Absent without `max`, and in older records.
   */
  plan?: { count: number; minPass: number; max: number };
}

/** Why a replay did not produce a reply. */
export type ErrorKind =
  | 'http'
  | 'timeout'
  | 'network'
  | 'invalid_json'
  | 'ended_in_welcome'
  | 'missing_reply'
  /** An ERROR span of the message turn (docs/traces.md, "Errors"). */
  | 'agent_error'
  | 'internal';
