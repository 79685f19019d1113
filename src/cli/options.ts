// The CLI's option table: every command, its arguments and its flags with one line of help each.
// The same table parses argv and prints `agent-replay --help` and `agent-replay <command> --help`,
// so the help cannot drift from what is accepted. To add a flag: one entry in FLAGS (its type),
// one line under each command that takes it.

import { parseArgs } from 'node:util';
import { FAIL_ON_CONDITIONS } from '../types.js';
import { DEFAULT_FAIL_ON } from '../evaluate/index.js';
import { docsUrl, TOOL } from '../version.js';
import { shownShellWord, terminalLine, wholeNumberText } from '../words.js';
import { UsageError } from '../engine.js';
import { editDistance, nearestName } from '../suite/issues.js';
import { MAX_WAIT_FOR_AGENT_S } from '../agent/ready.js';
import { ASSERT_FORMS } from './probe.js';
import { INIT_TEMPLATES } from './init.js';
import { EITHER_CONFIG_NAME } from '../suite/config-names.js';

interface FlagType {
  type: 'string' | 'boolean';
  /** A string flag that may be given more than once (an array of values). */
  multiple?: true;
  short?: string;
}

/** Every flag of every command, with its type. Which command takes which is in COMMANDS. */
export const FLAGS = {
  dir: { type: 'string' },
  'agent-url': { type: 'string' },
  'judge-url': { type: 'string' },
  concurrency: { type: 'string' },
  out: { type: 'string' },
  markdown: { type: 'string' },
  junit: { type: 'string' },
  html: { type: 'string' },
  'confirm-cost': { type: 'boolean' },
  'fail-on': { type: 'string' },
  commit: { type: 'string' },
  base: { type: 'string' },
  'wait-for-agent': { type: 'string' },
  rerun: { type: 'string' },
  results: { type: 'string', multiple: true },
  only: { type: 'string' },
  shard: { type: 'string' },
  timings: { type: 'string' },
  'allow-incomplete': { type: 'boolean' },
  preset: { type: 'string' },
  workflows: { type: 'string' },
  persona: { type: 'string' },
  assert: { type: 'string' },
  threshold: { type: 'string' },
  save: { type: 'string' },
  repeat: { type: 'string' },
  'repeat-max': { type: 'string' },
  'min-agreement': { type: 'string' },
} as const satisfies Record<string, FlagType>;

export type FlagName = keyof typeof FLAGS;

export type Values = {
  [K in FlagName]?: (typeof FLAGS)[K] extends { multiple: true } ? string[] : (typeof FLAGS)[K]['type'] extends 'boolean' ? boolean : string;
};

/** One flag's line in a command's help: the value's placeholder (string flags) and what it does. */
interface FlagHelp {
  value?: string;
  help: string;
  /** Shown without brackets in the synopsis (the command checks it). */
  required?: true;
  /** Given once per value ("FILE ..." in the synopsis); the flag's type must be `multiple`. */
  repeats?: true;
}

interface CommandSpec {
  /** One line: what the command does. */
  summary: string;
  /** The positional arguments, as shown in the usage line ("" when none). */
  args: string;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number; missing?: string };
  flags: { readonly [K in FlagName]?: FlagHelp };
  /** Lines after the flags: rules worth knowing, the exit status. */
  notes: readonly string[];
}

const FAIL_ON_HELP: FlagHelp = { value: 'LIST', help: `what fails the run, comma-separated: ${FAIL_ON_CONDITIONS.join(', ')} (none alone: no condition fails it, but report still fails an incomplete merge without --allow-incomplete; default ${DEFAULT_FAIL_ON.join(',')}; unverified: an errored or not evaluated item, an interrupted run or an incomplete merge)` };
const DIR: FlagHelp = { value: 'DIR', help: 'the suite folder (default .agent-replay)' };
const AGENT_URL: FlagHelp = { value: 'URL', help: `the agent's URL, instead of agent.url in ${EITHER_CONFIG_NAME}` };
const JUDGE_URL: FlagHelp = { value: 'URL', help: `the judge's base URL, instead of judge.baseUrl in ${EITHER_CONFIG_NAME}` };
const WAIT: FlagHelp = { value: 'SECONDS', help: `poll the agent until it answers, up to ${MAX_WAIT_FOR_AGENT_S} s, before the first call` };
const MARKDOWN: FlagHelp = { value: 'FILE', help: 'also write the report as markdown (the job summary)' };
const JUNIT: FlagHelp = { value: 'FILE', help: 'also write a JUnit XML report' };
const HTML: FlagHelp = { value: 'FILE', help: 'also write a self-contained HTML report' };
/** Each note is one line of the help as written (at most HELP_WIDTH): wrapping would break it mid-phrase. */
const GATE_EXIT = ['Exit status: 0 the gate passed, 1 fail-on was met, 2 a usage or configuration error,', '3 an internal error (a bug: please report it).'] as const;

export const COMMANDS = {
  run: {
    summary: 'replay the suite against the agent: verdicts, drift, cost, and the gate',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: {
      dir: DIR,
      'agent-url': AGENT_URL,
      'judge-url': JUDGE_URL,
      concurrency: { value: 'N', help: `items replayed at once, 1 to 256; default agent.concurrency of ${EITHER_CONFIG_NAME}` },
      out: { value: 'FILE', help: `where results.json goes (default DIR/results/results.json: a folder git ignores)` },
      markdown: MARKDOWN,
      junit: JUNIT,
      html: HTML,
      'confirm-cost': { help: 'run even when the estimated cost is above the cost cap' },
      'fail-on': FAIL_ON_HELP,
      commit: { value: 'SHA', help: 'the commit recorded with the results, 7 to 40 hex digits (default: on a pull request event in GitHub Actions its head, else GITHUB_SHA, else git HEAD)' },
      base: { value: 'REV', help: 'say what the working tree changed in the suite since this git revision (main, origin/main)' },
      'wait-for-agent': WAIT,
      rerun: { value: 'FILE', help: 'replay only what failed, was not evaluated or errored in that results file' },
      only: { value: 'LABELS', help: 'replay only these labels, comma-separated; * and ? globs (refund-*,greeting)' },
      shard: { value: 'i/n', help: 'replay shard i of n of the suite (merge the shards with report)' },
      timings: { value: 'FILE', help: 'balance --shard by the durations in this results file (else by a hash)' },
      repeat: { value: 'N', help: "attempts per item, 1 to 20, instead of repeat.count (minPass keeps its fraction of count)" },
      'repeat-max': { value: 'M', help: 'at most M attempts per item, 1 to 20: extra attempts only where a drop is unclear' },
    },
    notes: [
      ...GATE_EXIT,
      'A run refused by the cost cap, or an agent not ready after --wait-for-agent, exits 2 and spends',
      'nothing; an interrupted run exits 130 (SIGINT) or 143 (SIGTERM) and records what finished.',
    ],
  },
  validate: {
    summary: 'check the configuration, fixtures and baselines; nothing is sent',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: { dir: DIR },
    notes: ['Exit status: 0 no configuration errors, 2 configuration errors (each named with its file and line).'],
  },
  accept: {
    summary: "write a run's replies as the new baselines",
    args: '',
    positionals: { min: 0, max: 0 },
    flags: {
      results: { value: 'FILE', help: 'the results file whose replies become baselines (default DIR/results/results.json)' },
      dir: DIR,
      only: { value: 'LABELS', help: 'accept only these labels, comma-separated; * and ? globs, as run --only (refund-*,greeting)' },
    },
    // docs/cli.md, "What each command does": a refusal is listed, a file not written exits 2.
    notes: [
      'Nothing is written when a label or glob of --only matches nothing in the results file.',
      'Exit status: 0 done (a refused item is listed, not an error); 2 a usage or configuration error,',
      'a label or glob of --only that matches nothing, or a baseline file that could not be written.',
    ],
  },
  report: {
    summary: 'merge recorded results (shards, a fork\'s run) and render them; replays nothing',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: {
      results: { value: 'FILE', help: 'a results file; give it once per shard or run (required)', required: true, repeats: true },
      markdown: MARKDOWN,
      out: { value: 'FILE', help: 'write the merged results file' },
      junit: JUNIT,
      html: HTML,
      'fail-on': FAIL_ON_HELP,
      'allow-incomplete': { help: 'do not fail the gate when a shard is missing' },
    },
    notes: GATE_EXIT,
  },
  compare: {
    summary: 'agreement before and after between two runs, and why they differ',
    args: 'BEFORE.json AFTER.json',
    positionals: { min: 2, max: 2, missing: 'compare needs exactly two results files: agent-replay compare BEFORE.json AFTER.json' },
    flags: {
      dir: { value: 'DIR', help: `the suite folder whose ${EITHER_CONFIG_NAME} sets what is slower (latency:; default .agent-replay)` },
      markdown: { value: 'FILE', help: 'also write the comparison as markdown' },
      out: { value: 'FILE', help: 'also write the comparison as JSON' },
    },
    notes: ['The earlier run (by startedAt) is always "before". Exit status: 0, or 2 for a usage error.'],
  },
  calibrate: {
    summary: 're-judge the accepted baselines: does the judge agree, per criterion',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: {
      dir: DIR,
      'judge-url': JUDGE_URL,
      repeat: { value: 'N', help: 'judge each baseline N times, 1 to 20 (default 1): its score is the median, its spread max - min' },
      'min-agreement': { value: 'P', help: "exit 1 when a criterion's agreement is below P (a fraction from 0 to 1) or it got no usable score" },
      'confirm-cost': { help: 'run even when the estimated cost (baselines x N judge calls) is above the cost cap' },
      out: { value: 'FILE', help: 'also write the calibration as JSON (calibration.json)' },
      markdown: { value: 'FILE', help: 'also write the calibration as markdown' },
    },
    notes: [
      'Asks the agent nothing.',
      'Exit status: 0 done; 1 a criterion below --min-agreement, or with no usable score under it;',
      '2 a usage or configuration error, or the cost cap refused it (nothing sent); 3 an internal error.',
    ],
  },
  demo: {
    summary: 'the embedded example agent and suite, end to end',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: { out: { value: 'DIR', help: 'write results.json and the reports there (default a new temporary folder)' } },
    notes: ['The demo shows every verdict and drift value on purpose and exits 0; 130 (SIGINT) or 143 (SIGTERM)', 'when interrupted.'],
  },
  init: {
    summary: 'write a starting suite and the workflows; never overwrites a file',
    args: '',
    positionals: { min: 0, max: 0 },
    flags: {
      dir: { value: 'DIR', help: 'the suite folder to create (default .agent-replay)' },
      preset: { value: 'NAME', help: `the agent's API: ${INIT_TEMPLATES.join(', ')} (default: the preset of a ${EITHER_CONFIG_NAME} already there, else native)` },
      workflows: { value: 'DIR', help: 'where the workflow files go (default .github/workflows)' },
    },
    // docs/cli.md, "init": the exit statuses.
    notes: [
      'Exit status: 0 done (a file already there is skipped, not an error); 2 a usage error, or a file',
      'init could not write (named with the reason; the others are still written).',
    ],
  },
  probe: {
    summary: 'send one message in a fresh session: reply, route trace and verdict',
    args: '"message"',
    positionals: { min: 1, max: 1, missing: 'probe needs a message: agent-replay probe "Can I get my money back?"' },
    flags: {
      dir: DIR,
      'agent-url': AGENT_URL,
      'judge-url': JUDGE_URL,
      'wait-for-agent': WAIT,
      persona: { value: 'P', help: 'the persona tag sent with the message' },
      assert: { value: 'CHECK', help: `the check: ${ASSERT_FORMS}` },
      threshold: { value: '0.7', help: 'the passing score of a judge assertion, 0 to 1' },
      save: { value: 'LABEL', help: 'write the probe as fixtures/LABEL.yml (never over an existing file)' },
      preset: { value: 'NAME', help: `the agent's API for this probe, instead of agent.preset in ${EITHER_CONFIG_NAME}` },
    },
    // docs/cli.md, "What each command does" (probe): the exit statuses.
    notes: [
      'Exit status: 0 pass or not evaluated, 1 fail or the agent call errored (no reply), 2 a usage or',
      'configuration error, an agent not ready after --wait-for-agent, or --save refused (nothing sent).',
    ],
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** What argv asks for: a command with its values, the global help / version, or no command at all (a usage error). */
export type Parsed =
  | { kind: 'help'; command: CommandName | null }
  | { kind: 'no-command' }
  | { kind: 'version' }
  | { kind: 'command'; command: CommandName; values: Values; positionals: string[] };

/**
 * A usage error of argv: the message is one line; `command` (when known) names whose help to point to.
 */
export class ArgvError extends UsageError {
  override name = 'ArgvError';
  constructor(
    message: string,
    readonly command: CommandName | null,
  ) {
    super(message);
  }
}

const HELP_NAMES = new Set(['help', 'h']);
const VERSION_NAMES = new Set(['version', 'v']);

/** Reads argv against the table; throws an ArgvError (one line, with did-you-mean) when it does not fit. */
export function parseArgv(argv: readonly string[]): Parsed {
  // Not strict: every token is checked below, so that no error is Node's parser text.
  const allFlags = Object.fromEntries(Object.entries(FLAGS).map(([k, v]) => [k, { type: v.type, multiple: v.type === 'string' }]));
  const { tokens } = parseArgs({
    args: [...argv],
    options: { ...allFlags, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const positionals = tokens.filter((t) => t.kind === 'positional').map((t) => t.value);
  const first = positionals[0];
  let command: CommandName | null = null;
  if (first !== undefined) {
    if (first === 'help') {
      const topic = positionals[1];
      if (topic === undefined) return { kind: 'help', command: null };
      if (!isCommand(topic)) throw unknownCommand(topic);
      return { kind: 'help', command: topic };
    }
    if (!isCommand(first)) throw unknownCommand(first);
    command = first;
  }
  const options = tokens.filter((t) => t.kind === 'option');
  // `-agent-url` (one dash before a long name), which Node reads as the short options -a -g -e ...:
  // said as the word written, with the long option it stands for, before its letters can be read
  // as -h or -v (`-shard` holds an h) (docs/cli.md, "Commands": the nearest flag).
  const word = command === null ? undefined : options.map((t) => argv[t.index]).find((w) => w !== undefined && /^-[^-\d].*[^=]/.test(w) && w.split('=')[0]!.length > 2);
  if (command !== null && word !== undefined) throw singleDash(word, command);
  if (options.some((t) => HELP_NAMES.has(t.name))) return { kind: 'help', command };
  if (options.some((t) => VERSION_NAMES.has(t.name))) return { kind: 'version' };
  if (command === null) {
    const option = options[0];
    if (option !== undefined) throw new ArgvError(`${terminalLine(option.rawName)} comes after a command: agent-replay <command> ${terminalLine(option.rawName)} ...; commands: ${COMMAND_NAMES.join(', ')}`, null);
    return { kind: 'no-command' };
  }
  const spec: CommandSpec = COMMANDS[command];
  const values: Record<string, string | boolean | string[]> = {};
  for (const t of options) {
    const flagHelp = Object.hasOwn(spec.flags, t.name) ? spec.flags[t.name as FlagName] : undefined;
    if (flagHelp === undefined) throw unknownFlag(t.rawName, t.name, command);
    const type: FlagType = FLAGS[t.name as FlagName];
    if (type.type === 'boolean') {
      if (t.value !== undefined) throw new ArgvError(`--${t.name} takes no value, got "${terminalLine(t.value)}"`, command);
      values[t.name] = true;
      continue;
    }
    const shown = `--${t.name} ${flagHelp.value ?? 'VALUE'}`;
    if (t.value === undefined) throw new ArgvError(`--${t.name} needs a value: ${shown}`, command);
    if (t.value === '') throw new ArgvError(`--${t.name} needs a value, got an empty one: ${shown}`, command);
    // A negative number (`--concurrency -1`) is a value, not an option: no option is named by
    // digits, and the flag's own check then says the range (docs/cli.md).
    if (!t.inlineValue && t.value.startsWith('-') && t.value.length > 1 && !/^-\.?\d/.test(t.value)) {
      throw new ArgvError(`--${t.name} needs a value, got the option "${terminalLine(t.value)}"; for a value that starts with "-" write --${t.name}=${shownShellWord(t.value)}`, command);
    }
    if ('multiple' in type) values[t.name] = [...((values[t.name] as string[] | undefined) ?? []), t.value];
    else values[t.name] = t.value;
  }
  const args = positionals.slice(1);
  if (args.length < spec.positionals.min) throw new ArgvError(spec.positionals.missing ?? `${command} needs ${spec.args}`, command);
  if (args.length > spec.positionals.max) {
    const extra = args[spec.positionals.max] as string;
    // `report --results shards/*.json`: the shell gave the files after one --results, which takes
    // one file; say how to give each, as a command to paste (docs/cli.md, "Commands").
    const repeated = Object.entries(spec.flags).find(([name, f]: [string, FlagHelp]) => f.repeats === true && Array.isArray(values[name]))?.[0];
    if (repeated !== undefined && spec.positionals.max === 0) {
      const files = [...(values[repeated] as string[]), ...args].map((a) => `--${repeated} ${shownShellWord(a)}`).join(' ');
      throw new ArgvError(`unexpected argument "${terminalLine(extra)}": --${repeated} takes one file; give each its own --${repeated}: ${files}`, command);
    }
    const hint = command === 'probe' ? ' (quote the message: it is one argument)' : spec.positionals.max === 0 ? ` (${command} takes no arguments, only flags)` : '';
    throw new ArgvError(`unexpected argument "${terminalLine(extra)}"${hint}`, command);
  }
  return { kind: 'command', command, values: values as Values, positionals: args };
}

function unknownCommand(name: string): ArgvError {
  const list = COMMAND_NAMES.join(', ');
  // `agent-replay version`, as git and npm take it: the flag that does it, not a list of commands.
  if (name === 'version') return new ArgvError(`unknown command "version": agent-replay --version prints the version; commands: ${list}`, null);
  const guess = closest(name, COMMAND_NAMES);
  return new ArgvError(guess === null ? `unknown command "${terminalLine(name)}"; commands: ${list}` : `unknown command "${terminalLine(name)}"; did you mean "${guess}"? Commands: ${list}`, null);
}

function unknownFlag(raw: string, name: string, command: CommandName): ArgvError {
  const own = Object.keys(COMMANDS[command].flags);
  if (Object.hasOwn(FLAGS, name)) {
    const takers = COMMAND_NAMES.filter((c) => Object.hasOwn(COMMANDS[c].flags, name));
    return new ArgvError(`--${name} is not an option of "${command}" (it is one of ${takers.map((c) => `"${c}"`).join(', ')})`, command);
  }
  const guess = closest(name, [...own, 'help']);
  const dym = guess === null ? '' : `; did you mean --${guess}?`;
  return new ArgvError(`unknown option ${terminalLine(raw)} for "${command}"${dym}`, command);
}

function singleDash(word: string, command: CommandName): ArgvError {
  const name = word.slice(1).split('=')[0] as string;
  const own = Object.keys(COMMANDS[command].flags);
  const guess = own.includes(name) ? name : closest(name, [...own, 'help']);
  const dym = guess === null ? '' : `; did you mean --${guess}? (a long option takes two dashes)`;
  return new ArgvError(`unknown option ${terminalLine(word.split('=')[0] as string)} for "${command}"${dym}`, command);
}

/** The one edit distance of every "did you mean" (suite/issues.ts). */
export { editDistance };

/** The command or flag nearest to `input` (nearestName, suite/issues.ts), its `_` read as `-`. Null when nothing is that close. */
/**
 * A count flag's value (`--concurrency`, `--repeat`, `--repeat-max`, `--wait-for-agent`): decimal
 * digits from `min` to `max`, else the usage error every such flag words the same way
 * (`--repeat must be a whole number from 1 to 20, got "-2"`); `unit` names what is counted.
 */
export function wholeNumberFlag(flag: string, text: string, min: number, max: number, unit?: string): number {
  const n = wholeNumberText(text);
  if (n === null || n < min || n > max) throw new UsageError(`--${flag} must be a whole number${unit === undefined ? '' : ` of ${unit}`} from ${min} to ${max}, got "${terminalLine(text)}"`);
  return n;
}

export function closest(input: string, candidates: readonly string[]): string | null {
  return nearestName(input.replace(/_/g, '-'), candidates);
}

/** The line under a usage error: where the fix is. */
export function helpHint(command: CommandName | null): string {
  return command === null ? "Run 'agent-replay --help' for the commands." : `Run 'agent-replay ${command} --help' for its options.`;
}

function synopsis(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  return `agent-replay ${command}${spec.args ? ` ${spec.args}` : ''}${Object.keys(spec.flags).length > 0 ? ' [options]' : ''}`;
}

/** No help line is longer than this. */
const HELP_WIDTH = 100;

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/** `agent-replay <command> --help`: usage, each flag on one line, the notes. */
export function commandHelp(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  const rows: [string, string][] = Object.entries(spec.flags).map(([name, f]) => [`--${name}${f.value ? ` ${f.value}` : ''}`, f.help]);
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = [
    `agent-replay ${command}: ${spec.summary}`,
    '',
    `Usage: ${synopsis(command)}`,
    '',
    'Options:',
    ...rows.flatMap(([left, help]) => wrap(help, HELP_WIDTH - 2 - width).map((part, i) => `  ${(i === 0 ? left : '').padEnd(width)}${part}`)),
  ];
  if (spec.notes.length > 0) lines.push('', ...spec.notes.flatMap((note) => wrap(note, HELP_WIDTH)));
  return `${lines.join('\n')}\n`;
}

/**
 * Every command's synopsis, `agent-replay run [--dir DIR] [--agent-url URL] ...`, wrapped under
 * its command at HELP_WIDTH: the Commands block of docs/cli.md (a test keeps the two equal).
 */
export function synopses(): string {
  return `${COMMAND_NAMES.map((command) => {
    const spec: CommandSpec = COMMANDS[command];
    const head = `agent-replay ${command}${spec.args ? ` ${spec.args}` : ''}`;
    const parts = Object.entries(spec.flags).map(([name, f]: [string, FlagHelp]) => {
      const flag = `--${name}${f.value ? ` ${f.value}` : ''}${f.repeats ? ' ...' : ''}`;
      return f.required ? flag : `[${flag}]`;
    });
    const lines: string[] = [];
    let line = head;
    for (const part of parts) {
      if (line.length + 1 + part.length > HELP_WIDTH) {
        lines.push(line);
        line = `${' '.repeat(head.length)} ${part}`;
      } else line = `${line} ${part}`;
    }
    lines.push(line);
    return lines.join('\n');
  }).join('\n')}\n`;
}

/**
 * `agent-replay` alone: a usage error (stderr, exit 2, as an unknown command), said in one line
 * before the global help, which lists the commands (docs/cli.md, "Commands").
 */
export function noCommandText(): string {
  return `agent-replay: a command is needed; commands: ${COMMAND_NAMES.join(', ')}\n\n${globalHelp()}`;
}

/** `agent-replay --help`: the commands, one line each, and where each one's options are. */
export function globalHelp(): string {
  const width = Math.max(...COMMAND_NAMES.map((c) => c.length)) + 2;
  return [
    `agent-replay ${TOOL.version}: replay chatbot fixtures, judge verdicts and drift`,
    '',
    'Usage: agent-replay <command> [options]',
    '',
    'Commands:',
    ...COMMAND_NAMES.map((c) => `  ${c.padEnd(width)}${COMMANDS[c].summary}`),
    '',
    "Run 'agent-replay <command> --help' for a command's options.",
    'agent-replay --version prints the version.',
    `Every command and option in full: ${docsUrl('cli.md')}`,
    '',
  ].join('\n');
}
