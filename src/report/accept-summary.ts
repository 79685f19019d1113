// The accept job's summary (the job's summary page): what the label did, in a few calm lines.
// Every text that came from the pull request, the results artifact or GitHub (labels, branch,
// reasons, notes) is escaped; the caller redacts secrets (docs/action.md, "Accept").

import type { AcceptanceView } from './context.js';
import { clip, clipDetail, codeSpan, escapeDetail, escapeInline, safeUrl } from './escape.js';
import { LIMITS } from './item-parts.js';
import { commandsBlock, labelList, refusedList, suiteLine } from './blocks.js';
import { shortSha } from './model.js';
import { capitalized, plural, thousands } from '../words.js';

/** The reviewed run an acceptance took its replies from, and where it commits. */
export interface AcceptedRun {
  pr: number;
  branch: string;
  /** The commit the replies were recorded at. */
  reviewedSha: string;
  runId: string;
}

/**
 * What became of the reviewed run's comment: updated; not updated (GitHub failed, said in the
 * log); or left as it is because it now shows a newer check's run.
 */
export type AcceptSummaryComment = { kind: 'updated' } | { kind: 'failed' } | { kind: 'newer'; runId: string | null };

export type AcceptSummary =
  /** The plan was carried out: committed (`acceptance.commitSha`), not committed (a fork), or nothing to accept. */
  | { kind: 'acceptance'; run: AcceptedRun; acceptance: AcceptanceView; comment: AcceptSummaryComment }
  /**
   * The label again (or a re-run of the job) once the run was accepted: the accepting commit is the
   * head, or under it with only other suites' baseline commits on top (`headSha`, the head then).
   * `comment`: what became of a comment that did not show that acceptance (the job that committed
   * could not update it); absent when it did.
   */
  | { kind: 'already'; pr: number; runId: string; acceptedSha: string; headSha?: string; comment?: AcceptSummaryComment }
  /** Refused, or stopped by GitHub: `reason` says why, what state the branch is in and the fix. */
  | { kind: 'refused'; pr: number; reason: string }
  /** Another label applied than the step's accept-label: `reason` names both, the workflow file when known, and the fix. */
  | { kind: 'other-label'; pr: number; reason: string }
  /** Another error (said in the log), after the commit or before it. */
  | { kind: 'stopped'; pr: number; committedSha: string | null };

const heading = (pr: number, what: string): string => `## agent-replay accept: ${what} (pull request #${pr})`;

/**
 * The summary of an accept step. `suite`: its suite's folder when it is not the default one, named
 * above it as the comment names it, so that two suites' steps in one job are told apart (docs/action.md,
 * "Two suites in one repository").
 */
export function renderAcceptSummary(s: AcceptSummary, suite: string | null = null): string {
  const line = suiteLine({ suite });
  return line === null ? summaryOf(s) : `${line}\n\n${summaryOf(s)}`;
}

function summaryOf(s: AcceptSummary): string {
  switch (s.kind) {
    case 'already':
      return [
        heading(s.pr, 'already accepted'),
        '',
        `The replies of workflow run ${escapeInline(s.runId)} were already accepted in ${codeSpan(shortSha(s.acceptedSha) as string)}, ${
          s.headSha === undefined || s.headSha === s.acceptedSha
            ? "the pull request's head"
            : `under the pull request's head ${codeSpan(shortSha(s.headSha) as string)}, whose commits on top of it are baseline commits of other suites`
        }: nothing to do, no commit was made.`,
        ...(s.comment === undefined ? [] : ['', alreadyComment(s.comment)]),
        '',
      ].join('\n');
    case 'refused':
      // A reason may quote a tampered artifact's schema errors: clipped, so the summary stays far under GitHub's 1 MiB.
      return [heading(s.pr, 'baselines not accepted'), '', escapeDetail(clipDetail(capitalized(s.reason), LIMITS.detailBlock)), ''].join('\n');
    case 'other-label':
      return [heading(s.pr, 'nothing done'), '', escapeDetail(clipDetail(capitalized(s.reason), LIMITS.detailBlock)), ''].join('\n');
    case 'stopped':
      return [
        heading(s.pr, 'stopped'),
        '',
        s.committedSha === null
          ? 'The accept job stopped on an error (the job\'s log says which) before anything was committed.'
          : `The accept job stopped on an error (the job's log says which) after the baselines were committed in ${codeSpan(shortSha(s.committedSha) as string)}.`,
        '',
      ].join('\n');
    case 'acceptance':
      return acceptance(s.run, s.acceptance, s.comment);
  }
}

/** A comment that did not show the acceptance found on the branch, and what became of it. */
function alreadyComment(comment: AcceptSummaryComment): string {
  switch (comment.kind) {
    case 'updated':
      return 'The comment did not show this acceptance (the accept job that committed could not update it): it does now.';
    case 'failed':
      return "The comment does not show this acceptance and could not be updated (the job's log says why): it still shows the reviewed run until the next check replaces it.";
    case 'newer':
      return `The comment was left as it is: it now shows ${comment.runId !== null ? `workflow run ${escapeInline(comment.runId)}` : 'another check'}, a check newer than the reviewed run.`;
  }
}

function acceptance(run: AcceptedRun, a: AcceptanceView, comment: AcceptSummaryComment): string {
  const from = `the replies recorded at ${codeSpan(shortSha(run.reviewedSha) as string)} by workflow run ${escapeInline(run.runId)}`;
  const lines: string[] = [];
  if (a.accepted.length > 0 && a.commitSha) {
    const sha = codeSpan(shortSha(a.commitSha) as string);
    const url = safeUrl(a.commitUrl);
    lines.push(heading(run.pr, 'baselines accepted'), '');
    lines.push(`Committed ${plural(a.accepted.length, 'baseline', 'baselines')} in ${url ? `[${sha}](${url})` : sha} to the branch ${codeSpan(run.branch)}: ${from}.`);
    lines.push('', `**Accepted (${thousands(a.accepted.length)})**: ${labelList(a.accepted)}`);
  } else if (a.accepted.length > 0) {
    lines.push(heading(run.pr, 'baselines not committed'), '');
    lines.push(`Nothing was pushed: ${plural(a.accepted.length, 'baseline', 'baselines')} from ${from} to accept by hand. ${a.note ? escapeInline(clip(a.note, LIMITS.detailBlock)) : ''}`.trim());
    if (a.commands) lines.push('', commandsBlock(a.commands));
    lines.push('', `**Ready to accept (${thousands(a.accepted.length)})**: ${labelList(a.accepted)}`);
  } else {
    lines.push(heading(run.pr, 'nothing to accept'), '');
    lines.push(`No commit was made: of ${from}, none is a pass or fail reply that differs from its baseline.`);
  }
  const refused = refusedList(a);
  if (refused.length > 0) lines.push('', ...refused);
  if (a.skipped.length > 0) lines.push('', `**Unchanged, nothing to write (${thousands(a.skipped.length)})**: ${labelList(a.skipped)}`);
  if (a.commitSha && a.note) lines.push('', escapeInline(clip(a.note, LIMITS.detailBlock)));
  if (comment.kind === 'failed') lines.push('', 'The comment could not be updated (the job\'s log says why): it still shows the reviewed run until the next check replaces it.');
  if (comment.kind === 'newer') {
    const which = comment.runId !== null ? `workflow run ${escapeInline(comment.runId)}` : 'another check';
    lines.push('', `The comment was left as it is: it now shows ${which}, a check newer than the reviewed run, so this summary is the acceptance's only report.`);
  }
  lines.push('');
  return lines.join('\n');
}
