// The Action's entry (action.yml runs dist/index.js, bundled from this file).
import { reportFailure, run } from './main.js';

// The step's log gone (the runner's pipe closed: a cancelled job, a killed parent): writes to it
// fail with EPIPE. Nothing can be said there any more; the run goes on without its log, as the
// CLI does (src/cli/process.ts), instead of each failed write raising an error whose report is
// another write to the same closed pipe, in a loop.
const logGone = (e: NodeJS.ErrnoException): void => {
  if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
};
process.stdout.on('error', logGone);
process.stderr.on('error', logGone);

// An error nothing caught (a bug in a callback, or a promise no one awaits) fails the step as
// run()'s errors do (reportFailure: redacted, its control characters escaped, one annotation, exit
// status 3 for a bug), not as Node's own stack trace, each line of which the runner would read as
// a workflow command when it quotes an agent's text (docs/security.md, "Agent text is data"). The
// process is not ended here (src/cli/process.ts is the only process.exit): what the run does after
// it still happens, and the step keeps the bug's exit status. The first such error is reported;
// one raised after it (a consequence, or the report failing) only keeps the status.
let crashed: number | string | undefined;
const crash = (e: unknown): void => {
  if (crashed === undefined) reportFailure(e, process.env);
  crashed = process.exitCode ?? crashed ?? 1;
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

await run();
if (crashed !== undefined) process.exitCode = crashed;
