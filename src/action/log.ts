// The Action's step log. GitHub's runner reads every line of the step's stdout and stderr, and runs
// one that starts with `::` after its leading white space or holds `##[` as a workflow command
// (`::add-mask::`, `::stop-commands::`). The Action's own commands (annotations, masks, the failure)
// come from @actions/core, which escapes the text they quote onto one line. Its plain lines do not:
// `core.info` writes its text as it is, and a line that quotes outside text (a label, a branch or
// a deployment's name from the event, a file name from the pull request or an artifact, an
// artifact's entry name, a server's message) goes through the CLI's guard here (../workflow-commands.ts;
// docs/security.md, "Agent text is data"), each control character of it shown as the terminal
// shows it (terminalBlock, as below). An ordinary line is written as it is.
//
// An annotation's text (a warning, an error, a notice, the step's failure) is written by the runner
// into the log as it is, but for @actions/core's escapes of %, \r and \n: an ESC or another control
// character of a file's name, a label or an agent's text would reach the log, whose viewer draws
// ANSI colours and moves. Its text (and its title) is shown here as the terminal shows it
// (terminalBlock: the character as its escape, `\u001b`); its `file` is the file's real path, which
// the runner only carries, for GitHub to link the annotation to it.

import * as core from '@actions/core';
import { inertText } from '../workflow-commands.js';
import { terminalBlock } from '../report/escape.js';
import type { OctokitLog } from '../github/octokit.js';

/** A line of the step's log (a text with line breaks: several lines). */
export function info(text: string): void {
  core.info(inertText(terminalBlock(text)));
}

/** An annotation's properties, its title shown as its text is. */
function shownProperties(properties: core.AnnotationProperties | undefined): core.AnnotationProperties {
  return properties?.title === undefined ? { ...properties } : { ...properties, title: terminalBlock(properties.title) };
}

/** A warning annotation (core.warning), its text shown as the terminal shows it. */
export function warning(text: string, properties?: core.AnnotationProperties): void {
  core.warning(terminalBlock(text), shownProperties(properties));
}

/** An error annotation (core.error), its text shown as the terminal shows it. */
export function error(text: string, properties?: core.AnnotationProperties): void {
  core.error(terminalBlock(text), shownProperties(properties));
}

/** A notice annotation (core.notice), its text shown as the terminal shows it. */
export function notice(text: string, properties?: core.AnnotationProperties): void {
  core.notice(terminalBlock(text), shownProperties(properties));
}

/** The step's failure (core.setFailed: an error annotation and exit code 1), its text shown as the terminal shows it. */
export function failed(text: string): void {
  core.setFailed(terminalBlock(text));
}

/**
 * What the GitHub client says: its waits for rate limits in the log, its own warnings (Octokit's) on
 * stderr, all guarded; its debug lines (a request's method and address, a server's message: the
 * runner writes them into the log when debug logging is on) shown as the terminal shows them.
 */
export const gitHubLog: OctokitLog = {
  debug: (message) => core.debug(terminalBlock(message)),
  info,
  warn: (message) => console.warn(inertText(terminalBlock(message))),
  error: (message) => console.error(inertText(terminalBlock(message))),
};
