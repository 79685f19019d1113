// What the renderers need to know besides the run record: where the comment lives, where the
// baselines came from, which labels to name, where the full report is.

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

export interface ReportContext {
  /** Workflow key for the hidden sticky marker, e.g. "agent-replay:ci.yml". */
  marker: string;
  headSha: string | null;
  runId: string | null;
  artifactName: string | null;
  /** Branch or sha the baselines came from. */
  baselinesRef: string | null;
  acceptLabel: string;
  confirmLabel: string;
  summaryUrl: string | null;
  artifactUrl: string | null;
  acceptance?: AcceptanceView | null;
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
  acceptance: null,
};
