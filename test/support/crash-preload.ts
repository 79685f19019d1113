// The uncaught error the crash tests plant (test/cli/crash.test.ts, test/action/crash.test.ts).

/**
 * A module loaded before the CLI or the Action (node --import): once the process has set up its
 * signal handlers, a callback throws, or a promise is rejected, with agent text in its message.
 */
export const crashPreload = (how: 'throw' | 'reject'): string => `
const on = process.on.bind(process);
let armed = false;
process.on = (name, fn) => {
  on(name, fn);
  if (name === 'SIGTERM' && !armed) {
    armed = true;
    const e = new TypeError('the agent said: \\n::add-mask::x\\n##[error]y \\u001b[31mred');
    setImmediate(() => { ${how === 'throw' ? 'throw e;' : 'void Promise.reject(e);'} });
  }
  return process;
};
`;
