// What a failure means to the user: something they can fix (a usage or configuration error, a bad
// file, a missing input, a path the system refuses), or a bug in agent-replay (anything else).
// The entries (cli.ts via cli/main.ts, main.ts) turn the second kind into "internal error" with
// its own exit status and a request to report it, and never show a stack unless asked.

import { TOOL } from './version.js';
import { isGitHubError } from './github/errors.js';

/** Exit statuses of the CLI (and of the Action's process). */
export const EXIT = {
  /** The gate passed. */
  ok: 0,
  /** `fail-on` was met. */
  gate: 1,
  /** Usage or configuration error, a file or input the user must fix, or a run refused by the cost cap. */
  usage: 2,
  /** A bug in agent-replay: an unexpected exception. */
  internal: 3,
} as const;

/** An expected failure the user can fix; its message says what was observed and what to do. */
export class UserError extends Error {
  override name = 'UserError';
}

/** A refusal by the operating system (permission, disk full, missing folder): about the user's machine, not a bug. */
export function isSystemError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

/** True for failures the user can act on; false for bugs (internal errors). */
function isUserFacing(e: unknown): e is Error {
  return e instanceof UserError || isGitHubError(e) || isSystemError(e);
}

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

/**
 * The one-paragraph report of an internal error: what happened, that it is a bug, and how to
 * report it. `stackHint` says how to see the stack trace on this surface.
 */
function internalErrorText(e: unknown, stackHint: string): string {
  return (
    `internal error: ${messageOf(e)}. ` +
    `This is a bug in agent-replay ${TOOL.version}, not a problem with your suite or configuration: ` +
    `please report it to the agent-replay maintainers with the command or workflow you ran and this message (${stackHint}).`
  );
}

/**
 * What an entry says about an error that reached it: the user's to fix (exit status 2), or a bug
 * (internal, exit status 3, with a request to report it).
 */
export function describeFailure(e: unknown, stackHint: string): { internal: boolean; exitCode: number; message: string } {
  if (isUserFacing(e)) return { internal: false, exitCode: EXIT.usage, message: e.message };
  return { internal: true, exitCode: EXIT.internal, message: internalErrorText(e, stackHint) };
}

/** The stack trace of an error, or its text. */
export function stackOf(e: unknown): string {
  return e instanceof Error && e.stack ? e.stack : messageOf(e);
}
