// GitHub's runner reading a step's output (actions/runner, ActionCommandManager.cs and
// ActionCommand.cs): each line, split at `\r` and `\n`, is a command when its text after its
// leading white space starts with `::<command>::` (TryParseV2), or else when it holds
// `##[<command>]` anywhere (TryParse), and <command> is one the runner knows.

/** The commands the runner registers (its command extensions, and stop-commands). */
const RUNNER_COMMANDS = new Set(['set-env', 'set-output', 'save-state', 'add-mask', 'add-path', 'add-matcher', 'remove-matcher', 'debug', 'warning', 'error', 'notice', 'group', 'endgroup', 'echo', 'stop-commands']);

export interface RunnerCommand {
  /** The line as printed. */
  line: string;
  /** `::` (`::add-mask::x`) or `##[` (`##[add-mask]x`). */
  form: '::' | '##[';
  name: string;
  /** The text after the command, escapes (`%0A`) as printed. */
  data: string;
}

/** The commands the runner would run from this output: each line as its parsers read it. */
export function runnerCommands(output: string): RunnerCommand[] {
  const found: RunnerCommand[] = [];
  for (const line of output.split(/\r\n|\r|\n/)) {
    // .NET's TrimStart: char.IsWhiteSpace, which counts U+0085 (next line) and not U+FEFF.
    const trimmed = line.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/, '');
    if (trimmed.startsWith('::')) {
      const end = trimmed.indexOf('::', 2);
      const name = end < 0 ? '' : (trimmed.slice(2, end).split(' ')[0] as string);
      if (RUNNER_COMMANDS.has(name)) {
        found.push({ line, form: '::', name, data: trimmed.slice(end + 2) });
        continue;
      }
    }
    const at = line.indexOf('##[');
    const close = at < 0 ? -1 : line.indexOf(']', at);
    const name = close < 0 ? '' : (line.slice(at + 3, close).split(' ')[0] as string);
    if (RUNNER_COMMANDS.has(name)) found.push({ line, form: '##[', name, data: line.slice(close + 1) });
  }
  return found;
}
