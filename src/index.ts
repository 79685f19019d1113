// The Action's entry (action.yml runs dist/index.js, bundled from this file).
import { reportFailure, run } from './main.js';

// An error nothing caught (a bug in a callback, or a promise no one awaits) fails the step as
// run()'s errors do (reportFailure: redacted, its control characters escaped, one annotation, exit
// status 3 for a bug), not as Node's own stack trace, each line of which the runner would read as
// a workflow command when it quotes an agent's text (docs/security.md, "Agent text is data"). The
// process is not ended here (src/cli/process.ts is the only process.exit): what the run does after
// it still happens, and the step keeps the bug's exit status.
let crashed: number | string | undefined;
const crash = (e: unknown): void => {
  reportFailure(e, process.env);
  crashed = process.exitCode ?? 1;
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

await run();
if (crashed !== undefined) process.exitCode = crashed;
