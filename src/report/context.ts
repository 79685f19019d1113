// What the renderers need to know besides the run record: where the comment lives, where the
// baselines came from, which labels to name, where the full report is, and (docs/evaluations.md) the run this
// comment showed before and the agreement trend of the default branch.

import type { Agreement, Comparison } from '../evaluate/index.js';
import type { GateView } from './model.js';

export interface AcceptanceView {
  accepted: string[];
  refused: { label: string; reason: string }[];
  /** Fixtures left alone because nothing changed. */
  skipped: string[];
  commitSha: string | null;
  commitUrl: string | null;
  /** E.g. "Commits made with the workflow token do not start new workflow runs." */
  note: string | null;
  /** Shell commands to run by hand (a fork the workflow cannot push to), shown as a code block. */
  commands?: string | null;
}

// How the comment reads after acceptance (blocks.ts): with a commit, "Baselines accepted in <sha>"
// and the report compares the run with the accepted baselines; with accepted labels but no commit
// (a fork), "Baselines not committed" with the note and the commands; with nothing accepted,
// "Baselines not accepted" with the note as the reason.

/**
 * The run the sticky comment showed before this one, compared with this run (compareRuns), or the
 * reason it could not be read (its artifact expired, for example): one calm line then. `runId` is
 * null when the run is not known (the comment naming it is past the comments read).
 */
export type PreviousRunView = { runId: string; comparison: Comparison } | { runId: string | null; unavailable: string };

/** One recorded run of the default branch (check mode on `push`), for the trend. */
export interface TrendPoint {
  runId: string;
  commit: string | null;
  startedAt: string;
  agreement: Agreement;
}

/** The agreement of the last recorded runs of the default branch, oldest first. */
export interface TrendView {
  branch: string;
  points: TrendPoint[];
  /** This run is itself a recorded run of that branch (a push): it is the last point. */
  includesThisRun: boolean;
}

export interface ReportContext {
  /** Workflow key for the hidden sticky marker, e.g. "agent-replay:ci.yml". */
  marker: string;
  /**
   * The suite folder the run is of, named above the report when a repository has several
   * (docs/action.md, "Two suites in one repository"); absent or null: not named.
   */
  suite?: string | null;
  headSha: string | null;
  runId: string | null;
  artifactName: string | null;
  /** Branch or sha the baselines came from. */
  baselinesRef: string | null;
  acceptLabel: string;
  confirmLabel: string;
  summaryUrl: string | null;
  artifactUrl: string | null;
  /**
   * The repository's web address, e.g. "https://github.com/acme/shop-bot". With a valid
   * `headSha` it makes file references links to blob/<headSha>/<path>#L<line>; without, plain text.
   */
  repositoryUrl?: string | null;
  acceptance?: AcceptanceView | null;
  /** Absent or null: no previous run (the first run on this pull request, or none looked up). */
  previous?: PreviousRunView | null;
  /** Absent or null: no recorded runs of the default branch (or the lookup failed). */
  trend?: TrendView | null;
  /**
   * The gate the run was checked by, when this report is the check's (docs/action.md, "The PR
   * comment", "A check that fails"). Absent or null: no gate is said (the accept flow's comment).
   */
  gate?: GateView | null;
}

export const DEFAULT_CONTEXT: ReportContext = {
  marker: 'agent-replay',
  headSha: null,
  runId: null,
  artifactName: null,
  baselinesRef: null,
  acceptLabel: 'accept-baseline',
  confirmLabel: 'confirm-cost',
  summaryUrl: null,
  artifactUrl: null,
  repositoryUrl: null,
  acceptance: null,
  previous: null,
  trend: null,
};
