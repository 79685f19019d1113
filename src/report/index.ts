// Pure renderers: PR comment, job summary, CLI markdown and terminal text, JUnit XML.
// They take data and return strings; no I/O, no clock, no mutation of their inputs.

export type { AcceptanceView, ReportContext } from './context.js';
export { DEFAULT_CONTEXT } from './context.js';
export { renderComment, renderSummary, renderMarkdownReport, COMMENT_MAX_CHARS, NOTICE_RESERVE_CHARS, SUMMARY_MAX_BYTES } from './markdown.js';
export { renderCapRefusal, renderCapRefusalText } from './cap.js';
export { renderAcceptSummary, type AcceptSummary, type AcceptedRun, type AcceptSummaryComment } from './accept-summary.js';
export { cliWords, renderTerminal } from './terminal.js';
export { renderJUnit } from './junit.js';
export { parseCommentMetadata, hasMarker, type CommentMetadata } from './metadata.js';
export { escapeInline, codeSpan, fencedBlock, utf8Length, oneLine, terminalLine } from './escape.js';
export { wordDiff, replyDiff, type DiffOp, type WordDiff, type WordDiffOptions } from './diff.js';
export { diffText } from './diff-text.js';
export { formatUsd, formatUsdPair, usdDecimal } from './money.js';
export { renderCompareMarkdown, renderCompareText, formatDelta, compareCauseLine } from './compare.js';
