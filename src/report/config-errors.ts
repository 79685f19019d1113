// The comment and summary shown when the suite has configuration errors: nothing was replayed.

import { formatIssue, issueCount, type ConfigIssue } from '../suite/issues.js';
import type { ReportContext } from './context.js';
import { markerLine, metaLine } from './metadata.js';
import { suiteLine } from './blocks.js';
import { codeSpan, escapeFix, escapeInline, fencedBlock, listItem, terminalBlock, terminalLine } from './escape.js';
import { shownShellWord, thousands } from '../words.js';
import { COMMENT_MAX_CHARS, NOTICE_RESERVE_CHARS } from './profile.js';

/** Characters the comment's list of errors may take: the rest of GitHub's limit (after a notice's room) is its head and end's. */
const ERRORS_MAX_CHARS = COMMENT_MAX_CHARS - NOTICE_RESERVE_CHARS - 4_000;

export function renderConfigErrors(errors: readonly ConfigIssue[], ctx: ReportContext): string {
  // Up to 50, each whole (a fix's lines to copy are never cut: boundIssues), as many as fit GitHub's limit.
  const shown: string[] = [];
  let used = 0;
  for (const e of errors.slice(0, 50)) {
    const where = `${e.file}${e.line !== null ? `:${e.line}` : ''}${e.column !== null ? `:${e.column}` : ''}`;
    // One code span whatever the name holds (a backtick, a line break as ` ⏎ `): the name as written.
    const item = listItem(`${codeSpan(where)}: ${escapeInline(e.message)}<br>fix: ${fixMarkdown(e.fix)}`);
    if (used + item.length + 1 > ERRORS_MAX_CHARS) break;
    shown.push(item);
    used += item.length + 1;
  }
  const n = issueCount(errors);
  const suite = suiteLine(ctx);
  const lines = [
    markerLine(ctx.marker),
    metaLine({ headSha: ctx.headSha, runId: null, artifactName: null }),
    ...(suite === null ? [] : [suite, '']),
    '## agent-replay: configuration errors',
    '',
    `**${thousands(n)} configuration ${n === 1 ? 'error' : 'errors'}** in the suite. Nothing was sent to the agent and nothing was spent.`,
    '',
    ...shown,
    ...(errors.length > shown.length ? [`- … and ${thousands(errors.length - shown.length)} more (see the job log)`] : []),
    '',
    // The command as typed, with the suite's folder when it is not the default one (docs/cli.md).
    `Run ${codeSpan(`npx agent-replay validate${ctx.suite ? ` --dir ${shownShellWord(ctx.suite)}` : ''}`)} locally to check the suite before pushing.`,
    '',
  ];
  return lines.join('\n');
}

/**
 * A fix in its item of the list. A fix that shows a line as it should read has it on a line of its
 * own, indented by 4 (`so that line 2 reads\n    message: hi`), as the terminal shows it: here a
 * code span, text to copy, when the line has no indentation of its own, else a code block in the
 * item (a span would lose it: GitHub collapses spaces there), with the lines it runs to. Each is
 * the file's text, shown as written and read as nothing (escape.ts); the fix's own words too, copied
 * as written (escapeFix: `"order #5521"` with no invisible word joiner).
 */
function fixMarkdown(fix: string): string {
  const parts = fix.split('\n');
  const out: string[] = [];
  let para = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i === 0 || !part.startsWith('    ')) {
      para += `${para === '' ? '' : ' '}${escapeFix(part.trim())}`;
      continue;
    }
    const lines = [part.slice(4)];
    while (parts[i + 1]?.startsWith('    ')) lines.push((parts[++i] as string).slice(4));
    if (lines.length === 1 && !/^\s/.test(lines[0] as string)) {
      para += ` ${codeSpan((lines[0] as string).trim())}`;
      continue;
    }
    // A block interrupts the paragraph and needs none after it: the list stays one tight list.
    out.push(para, ...fencedBlock(lines.join('\n')).split('\n').map((l) => `  ${l}`));
    para = '';
  }
  if (para !== '') out.push(out.length === 0 ? para : `  ${para}`);
  return out.join('\n');
}

/**
 * An issue as the terminal and the Action's log show it (formatIssue, `file:line:column: message`
 * and its fix): the file's name on its one line (a line break in it as ` ⏎ `), and each control
 * character as its escape, `\u001b` (docs/security.md, "Agent text is data").
 */
export function terminalIssue(issue: ConfigIssue): string {
  return terminalBlock(formatIssue({ ...issue, file: terminalLine(issue.file) }));
}
