// Output that cannot be read as a workflow command. GitHub's runner reads every line a step prints,
// on stdout and stderr: a line that starts with `::` after its leading white space (`::add-mask::`,
// `::set-output`, `::stop-commands::`, `::error::`) and a line that holds `##[` anywhere (the older
// form, `##[add-mask]`) are commands, whatever printed them. The CLI prints agent replies, error
// bodies and file text, and writes no workflow command of its own, so every line it writes is made
// inert (src/cli/process.ts); the Action's log lines quote labels, branch names, file and artifact
// entry names and servers' messages, and go through the same guard (src/action/log.ts), while its
// own commands come from @actions/core, which escapes what they quote. An invisible word joiner
// (U+2060, not white space to the runner) goes before such a `::` and between the two `#`
// (docs/security.md, "Agent text is data"). A line break is `\n` or `\r`, as the runner splits
// lines; leading white space is what the runner's TrimStart takes away, which also counts U+0085
// (next line), a character JavaScript's \s does not.

const WJ = '\u2060';

/** `::` after a line break and the white space after it; `##[` anywhere. */
const COMMAND_RE = /([\r\n](?:[^\S\r\n]|\u0085)*)::|##\[/g;
/** A text that ends at the start of a line or in its leading white space. */
const AT_LINE_START_RE = /(^|[\r\n])(?:[^\S\r\n]|\u0085)*$/;

/**
 * A writer's filter: each text written through it comes out with no line the runner reads as a
 * command. It remembers whether the last text ended at the start of a line (or in its leading
 * white space), so a line written in pieces is guarded as one.
 */
export function workflowCommandGuard(): (text: string) => string {
  let atLineStart = true;
  return (text) => {
    if (text === '') return text;
    // A "\n" before the text stands for the start of a line when the previous text ended there.
    const marked = atLineStart ? `\n${text}` : text;
    const out = marked.replace(COMMAND_RE, (_m: string, lead: string | undefined) => (lead === undefined ? `#${WJ}#[` : `${lead}${WJ}::`));
    const started = atLineStart;
    atLineStart = AT_LINE_START_RE.test(marked);
    return started ? out.slice(1) : out;
  };
}

/**
 * `text` made inert as one write of a guarded stream that starts at the start of a line: a log line
 * of @actions/core (`core.info` writes its text and a line break, after a line break), whatever
 * line breaks the text holds.
 */
export function inertText(text: string): string {
  return workflowCommandGuard()(text);
}
