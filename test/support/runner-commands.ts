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

/** A workflow command's text or property as the runner reads it (ActionCommand.Unescape). */
const unescaped = (text: string): string => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

export interface Annotation {
  name: string;
  /** The text the runner writes into the log. */
  text: string;
  properties: Record<string, string>;
}

/** The annotations (warning, error, notice) of an output, as the runner reads them. */
export function annotations(output: string): Annotation[] {
  return runnerCommands(output)
    .filter((c) => c.form === '::' && ['warning', 'error', 'notice'].includes(c.name))
    .map((c) => {
      const head = c.line.trimStart().slice(2, c.line.trimStart().length - c.data.length - 2);
      const properties: Record<string, string> = {};
      for (const p of head.slice(c.name.length + 1).split(',').filter((x) => x !== '')) {
        const at = p.indexOf('=');
        properties[p.slice(0, at)] = unescaped(p.slice(at + 1));
      }
      return { name: c.name, text: unescaped(c.data), properties };
    });
}

/** What @actions/core writes to stdout while `fn` runs (its workflow commands). */
export function stdoutOf(fn: () => void): string {
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    fn();
  } finally {
    process.stdout.write = write;
  }
  return out;
}
