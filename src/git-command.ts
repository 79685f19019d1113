// git as a child process, for the Action's checkout check (action/checkout.ts) and the CLI's
// `run --base` (cli/suite-edits.ts): one runner, given the environment the caller was given (the
// Action's deps.env, the CLI's io.env), never process.env of its own accord. GIT_OPTIONAL_LOCKS=0:
// reading never takes the index lock that a git command run beside it (an editor, a hook) wants.

// node:child_process is loaded when git first runs, not at every start: a plain `run` runs no git,
// and the module (with the dgram and socket modules it loads) was about 1.3% of a one-fixture run's
// instructions (docs/performance.md, "2026-12-07 (midday): the start's path").
const childProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');

export interface GitOptions {
  /** The environment git runs with (GIT_OPTIONAL_LOCKS=0 is added). */
  env: Record<string, string | undefined>;
  /** Given to git's standard input. */
  input?: Buffer;
  /** Default 30 s. */
  timeoutMs?: number;
}

/** git's standard output; rejects with execFile's error (its `stderr` and `code`) when git fails or is not there. */
export function runGit(cwd: string, args: readonly string[], options: GitOptions): Promise<Buffer> {
  const opts = { cwd, timeout: options.timeoutMs ?? 30_000, maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' as const, env: { ...options.env, GIT_OPTIONAL_LOCKS: '0' } };
  return new Promise((resolve, reject) => {
    // The error carries git's output, as promisify(execFile)'s does: callers quote its stderr.
    const child = childProcess().execFile('git', [...args], opts, (e, stdout, stderr) => (e ? reject(Object.assign(e, { stdout, stderr })) : resolve(stdout)));
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
