// The CLI as a process: V8's settings, signals, pipes and the exit code. Imported by the entry
// (src/cli.ts) once the compile cache is on. The CLI's only process.exit (the Action's other one
// is src/index.ts's, for an error nothing caught).
import { main, watchesInterrupts } from './main.js';
import { colorOutput } from './output.js';
import { Interrupted, interruptExitCode, type InterruptSignal } from '../interrupt.js';
import { tuneRuntime } from '../runtime.js';
import { workflowCommandGuard } from '../workflow-commands.js';
import { describeFailure, stackOf } from '../errors.js';
import { redactorOfKnown } from '../secrets.js';
import { terminalBlock } from '../report/escape.js';

tuneRuntime();

const argv = process.argv.slice(2);
// SIGINT / SIGTERM: `run` and `demo` stop starting fixtures, write what finished (marked
// interrupted) and exit 130 / 143; a second signal, or a signal during any other command, stops at once.
const interrupt = new AbortController();
const interruptible = watchesInterrupts(argv);
const onSignal = (signal: InterruptSignal): void => {
  if (!interruptible || interrupt.signal.aborted) process.exit(interruptExitCode(signal));
  interrupt.abort(new Interrupted(signal));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// A reader that goes away (`agent-replay report ... | head`) closes the pipe: what is left to
// print is dropped, and the command still finishes (files written, exit status from the gate),
// instead of crashing on EPIPE with a stack trace.
// Every line goes through the guard: an agent's reply printed in a CI log is never read as a
// workflow command (../workflow-commands.ts; docs/security.md, "Agent text is data").
const closed = { stdout: false, stderr: false };
const writer = (name: 'stdout' | 'stderr') => {
  const stream = process[name];
  const inert = workflowCommandGuard();
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    closed[name] = true;
  });
  return (text: string): void => {
    if (!closed[name]) stream.write(inert(text));
  };
};

const stdout = writer('stdout');
const stderr = writer('stderr');

// An error nothing caught (thrown in a callback or a rejected promise no one awaits: a bug) would
// get Node's own stack trace on stderr, past the guard, with exit status 1, the gate's. It is said
// as main() says a bug (src/errors.ts): through the guard, redacted, its control characters shown
// as escapes, "internal error ... please report it", the stack only with AGENT_REPLAY_DEBUG=1, and
// exit status 3 (docs/cli.md, "The gate and the exit status"; docs/security.md, "Agent text is data").
const crash = (e: unknown): void => {
  const debug = process.env.AGENT_REPLAY_DEBUG === '1';
  const failure = describeFailure(e, debug ? 'stack trace below' : 'rerun with AGENT_REPLAY_DEBUG=1 to add the stack trace');
  const redact = redactorOfKnown();
  // On a terminal a progress line may be open: the message starts on a line of its own.
  stderr(redact(`${process.stderr.isTTY === true ? '\n' : ''}agent-replay: ${terminalBlock(failure.message)}\n`));
  if (failure.internal && debug) stderr(redact(`${terminalBlock(stackOf(e))}\n`));
  process.exit(failure.exitCode);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

const code = await main(argv, {
  stdout,
  stderr,
  isTTY: process.stderr.isTTY === true,
  ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
  color: colorOutput(process.env, process.stdout.isTTY === true),
  env: process.env,
  cwd: process.cwd(),
  signal: interrupt.signal,
});
process.exitCode = code;
// An interrupted run abandoned calls still in flight: do not wait for them.
if (interrupt.signal.aborted) process.exit(code);
