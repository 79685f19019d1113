// The Action's entry (action.yml runs dist/index.js, bundled from this file).
import { reportFailure, run } from './main.js';
import * as log from './action/log.js';
import { recordWritesSettled } from './action/record-writes.js';

// The step's log gone (the runner's pipe closed: a cancelled job, a killed parent): writes to it
// fail with EPIPE. Nothing can be said there any more; the run goes on without its log, as the
// CLI does (src/cli/process.ts), instead of each failed write raising an error whose report is
// another write to the same closed pipe, in a loop.
const logGone = (e: NodeJS.ErrnoException): void => {
  if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
};
process.stdout.on('error', logGone);
process.stderr.on('error', logGone);

// An error nothing caught (a bug in a callback, or a promise no one awaits) ends the step: what
// the run would do after it is unknown (a comment from a half-made report, a wait that never ends).
// It is said as run()'s errors are (reportFailure: one annotation, redacted, its control characters
// escaped, "internal error ... please report it", the stack only in the debug log), not as Node's
// own stack trace, each line of which the runner would read as a workflow command when it quotes an
// agent's text (docs/security.md, "Agent text is data"). The process then exits with the bug's
// status, 3, once a results.json being written is in place (./action/record-writes.ts), or after
// RECORD_WAIT_MS without it (a hung file system), saying so. One raised after the first (a
// consequence, or the report failing) is not reported again (docs/cli.md, "The gate and the exit status").
const RECORD_WAIT_MS = 5_000;
/** Tests only: how long the end waits for a results.json being written, in milliseconds. */
const recordWaitMs = (): number => {
  const ms = Number(process.env.AGENT_REPLAY_TEST_RECORD_WAIT_MS);
  return process.env.AGENT_REPLAY_TEST_RECORD_WAIT_MS !== undefined && Number.isFinite(ms) && ms >= 0 ? ms : RECORD_WAIT_MS;
};
let ending = false;
const crash = (e: unknown): void => {
  if (ending) return;
  ending = true;
  try {
    reportFailure(e, process.env);
  } finally {
    const code = typeof process.exitCode === 'number' && process.exitCode !== 0 ? process.exitCode : 3;
    const waitMs = recordWaitMs();
    void recordWritesSettled(waitMs).then((unfinished) => {
      for (const file of unfinished) {
        log.warning(`agent-replay: ${file} was still being written ${waitMs / 1000} s after the internal error; the step ends without waiting longer (a slow or hung disk?): the record may be missing or incomplete`);
      }
      process.exit(code);
    });
  }
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

// A run that stops without finishing (a promise it waits for never settles, and nothing is left
// to do) would end with Node's exit status 13 for an unsettled top-level await: it is a bug, said
// and ended as one.
let finished = false;
process.on('beforeExit', () => {
  if (!finished) crash(new Error('the run stopped before it finished: something it waited for never happened'));
});

await run();
finished = true;
