// The Action's step log. GitHub's runner reads every line of the step's stdout and stderr, and runs
// one that starts with `::` after its leading white space or holds `##[` as a workflow command
// (`::add-mask::`, `::stop-commands::`). The Action's own commands (annotations, masks, the failure)
// come from @actions/core, which escapes the text they quote onto one line. Its plain lines do not:
// `core.info` writes its text as it is, and a line that quotes outside text (a label, a branch or
// a deployment's name from the event, a file name from the pull request or an artifact, an
// artifact's entry name, a server's message) goes through the CLI's guard here (../workflow-commands.ts;
// docs/security.md, "Agent text is data"). An ordinary line is written as it is.

import * as core from '@actions/core';
import { inertText } from '../workflow-commands.js';
import type { OctokitLog } from '../github/octokit.js';

/** A line of the step's log (a text with line breaks: several lines). */
export function info(text: string): void {
  core.info(inertText(text));
}

/** What the GitHub client says: its waits for rate limits in the log, its own warnings (Octokit's) on stderr, all guarded. */
export const gitHubLog: OctokitLog = {
  debug: (message) => core.debug(message),
  info,
  warn: (message) => console.warn(inertText(message)),
  error: (message) => console.error(inertText(message)),
};
