// The gate: the conditions that fail the check (docs/semantics.md, "The gate").

export type FailOnCondition =
  | 'newly_failing'
  | 'unverified'
  | 'failed'
  | 'not_evaluated'
  | 'errored'
  | 'no_baseline'
  | 'reply_changed'
  | 'route_changed'
  | 'meaning_changed'
  | 'flaky'
  | 'slower'
  | 'regressed'
  | 'none';

export const FAIL_ON_CONDITIONS: readonly FailOnCondition[] = [
  'newly_failing',
  'unverified',
  'failed',
  'not_evaluated',
  'errored',
  'no_baseline',
  'reply_changed',
  'route_changed',
  'meaning_changed',
  'flaky',
  'slower',
  'regressed',
  'none',
] as const;
