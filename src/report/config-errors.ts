// The comment and summary shown when the suite has configuration errors: nothing was replayed.

import { issueCount, type ConfigIssue } from '../suite/issues.js';
import type { ReportContext } from './context.js';
import { markerLine, metaLine } from './metadata.js';
import { escapeInline } from './escape.js';

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
      return `- \`${where.replace(/`/g, "'")}\`: ${escapeInline(e.message)}<br>fix: ${escapeInline(e.fix)}`;
    }),
    ...(errors.length > shown.length ? [`- … and ${errors.length - shown.length} more (see the job log)`] : []),
    '',
    'Run `agent-replay validate` locally to check the suite before pushing.',
    '',
  ];
  return lines.join('\n');
}
