// The comment and summary shown when the suite has configuration errors: nothing was replayed.

import { issueCount, type ConfigIssue } from '../suite/issues.js';
import type { ReportContext } from './context.js';
import { markerLine, metaLine } from './metadata.js';
import { codeSpan, escapeInline } from './escape.js';

export function renderConfigErrors(errors: readonly ConfigIssue[], ctx: ReportContext): string {
  const shown = errors.slice(0, 50);
  const n = issueCount(errors);
  const lines = [
    markerLine(ctx.marker),
    metaLine({ headSha: ctx.headSha, runId: null, artifactName: null }),
    '## agent-replay: configuration errors',
    '',
    `**${n} configuration ${n === 1 ? 'error' : 'errors'}** in the suite. Nothing was sent to the agent and nothing was spent.`,
    '',
    ...shown.map((e) => {
      const where = `${e.file}${e.line !== null ? `:${e.line}` : ''}${e.column !== null ? `:${e.column}` : ''}`;
      return `- \`${where.replace(/`/g, "'")}\`: ${escapeInline(e.message)}<br>fix: ${fixInline(e.fix)}`;
    }),
    ...(errors.length > shown.length ? [`- … and ${errors.length - shown.length} more (see the job log)`] : []),
    '',
    'Run `agent-replay validate` locally to check the suite before pushing.',
    '',
  ];
  return lines.join('\n');
}

/**
 * A fix on one line of the list. A fix that shows a line as it should read has it on a line of its
 * own, indented by 4 (`so that line 2 reads\n    message: hi`): here it is a code span, so that
 * the comment shows it as the terminal does, text to copy.
 */
function fixInline(fix: string): string {
  return fix
    .split('\n')
    .map((part, i) => (i > 0 && part.startsWith('    ') ? codeSpan(part.trim()) : escapeInline(part.trim())))
    .join(' ');
}
