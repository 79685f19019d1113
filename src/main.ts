// The Action: inputs -> mode -> outputs (src/index.ts runs it). Everything below throws; only here is setFailed called
// for an unexpected error.
import * as core from '@actions/core';
import { envInputGetter, inputSecrets, readInputs } from './action/inputs.js';
import { readActionContext } from './action/context.js';
import { githubArtifactStore } from './action/artifacts.js';
import * as log from './action/log.js';
import { checkMode } from './action/check.js';
import { acceptMode } from './action/accept.js';
import { reportMode } from './action/report.js';
import { createGitHubApi } from './github/api.js';
import { redactorOfKnown, rememberSecrets } from './secrets.js';
import { tuneRuntime } from './runtime.js';
import { describeFailure, stackOf } from './errors.js';
import { terminalBlock } from './report/escape.js';
import { Interrupted, interruptedBy, interruptExitCode, type InterruptSignal } from './interrupt.js';

/**
 * The Action's mode, run with `env` as its environment in `cwd`. `interruptible`: check mode stops
 * on SIGINT or SIGTERM as a cancelled job's does (a start of the Action); the tests that run the
 * Action in their own process (test/action/harness.ts, runActionHere) run it to its end.
 */
export async function runMode(env: NodeJS.ProcessEnv, cwd: string, interruptible = true): Promise<void> {
  const inputs = readInputs(envInputGetter(env));
  rememberSecrets(inputSecrets(inputs));
  const ctx = await readActionContext(env);
  const fast = env.AGENT_REPLAY_TEST_NO_DELAYS === '1'; // tests only: no retry back-off, no write spacing
  const github = inputs.githubToken
    ? createGitHubApi({
        token: inputs.githubToken,
        baseUrl: ctx.apiUrl,
        graphqlUrl: ctx.graphqlUrl,
        // A wait for a rate limit is said in the job's log (docs/action.md, "GitHub's rate limits").
        log: log.gitHubLog,
        ...(fast ? { retryAfterBaseMs: 0, throttleWrites: false } : {}),
      })
    : null;
  const deps = { env, cwd, github, artifacts: githubArtifactStore(env) };
  if (inputs.mode === 'accept') await acceptMode(inputs, ctx, deps);
  else if (inputs.mode === 'report') await reportMode(inputs, ctx, deps);
  else if (interruptible) await checkInterruptibly((signal) => checkMode(inputs, ctx, { ...deps, engine: { signal } }));
  else await checkMode(inputs, ctx, { ...deps, engine: { signal: new AbortController().signal } });
}

/**
 * A cancelled job (the runner sends SIGINT, then SIGTERM): the check records, uploads and reports
 * what finished, marked interrupted, and the step fails saying so. A second signal stops at once.
 */
async function checkInterruptibly(check: (signal: AbortSignal) => Promise<'interruption reported' | undefined>): Promise<void> {
  const interrupt = new AbortController();
  const onSignal = (signal: InterruptSignal): void => {
    // The next signal gets Node's default: the process ends at once.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    log.warning(`agent-replay: ${signal} received: no new fixture is started; what finished is recorded, marked interrupted`);
    interrupt.abort(new Interrupted(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const said = await check(interrupt.signal);
  const by = interruptedBy(interrupt.signal);
  if (by !== null) {
    // Cancelled while it waited for the agent: the check said so (core.setFailed), and nothing was recorded.
    if (said === 'interruption reported') {
      process.exitCode = interruptExitCode(by);
      return;
    }
    log.failed(`agent-replay: the run was interrupted by ${by}; the results of the fixtures that finished were recorded, marked interrupted`);
    process.exitCode = interruptExitCode(by);
  }
}

/**
 * The Action: its mode, and one `core.setFailed` for whatever it throws. Exported for the layout of
 * GitHub's action templates (src/index.ts calls it; `@github/local-action` imports it).
 */
export async function run(): Promise<void> {
  try {
    tuneRuntime();
    await runMode(process.env, process.cwd());
  } catch (e) {
    reportFailure(e, process.env);
  }
}

/**
 * The last resort: whatever a mode threw, as the step's failure, redacted of every secret the run
 * read (src/secrets.ts: the token inputs, and config.yml's `${NAME}` values once the suite is
 * loaded), and of the token inputs even when the inputs could not be read.
 */
export function reportFailure(e: unknown, env: Record<string, string | undefined>): void {
  const redact = redactorOfKnown([env['INPUT_GITHUB-TOKEN'] ?? '', env['INPUT_JUDGE-API-KEY'] ?? '']);
  const failure = describeFailure(e, 'rerun the job with debug logging enabled to see the stack trace');
  // A message can quote an agent or a file: its control characters are shown as escapes, as on the
  // terminal (log.failed; docs/security.md, "Agent text is data").
  log.failed(redact(`agent-replay: ${failure.message}`));
  if (failure.internal) {
    // A bug: "internal error" in the annotation, the stack only in the debug log.
    core.debug(redact(terminalBlock(stackOf(e))));
    process.exitCode = failure.exitCode;
  }
}
