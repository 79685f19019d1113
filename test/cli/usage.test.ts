// The CLI's manners with a mistyped command line: one line saying what is wrong (with the nearest
// flag or command when one is close), where the help is, exit 2, nothing sent; and help per command
// from the same table that parses.

import { describe, expect, inject, it } from 'vitest';
import { closest, commandHelp, COMMANDS, editDistance, FLAGS, parseArgv, type CommandName } from '../../src/cli/options.js';
import { agentConfig, cli, makeProject, serve, spawnCli as spawnBundle, useCleanup } from './helpers.js';

useCleanup();

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

/** The real CLI in a child process: its exit status and output. */
const spawnCli = (args: string[], cwd: string): ReturnType<typeof spawnBundle> => spawnBundle(CLI, args, cwd, { ...process.env, NO_COLOR: '1' });

const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

describe('usage errors', () => {
  it('a misspelt flag: one line with did-you-mean, the help hint, exit 2, nothing sent (real process)', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    const r = await spawnCli(['run', '--agent-ur', agent.url], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('agent-replay: unknown option --agent-ur for "run"; did you mean --agent-url?\n' + "Run 'agent-replay run --help' for its options.\n");
    expect(r.stdout).toBe('');
    expect(agent.requests).toHaveLength(0);
  });

  it.each([
    [['valdiate'], 'unknown command "valdiate"; did you mean "validate"? Commands: run, validate, accept, report, compare, calibrate, demo, init, probe', "Run 'agent-replay --help' for the commands."],
    [['rnu'], 'unknown command "rnu"; did you mean "run"?', "Run 'agent-replay --help' for the commands."],
    [['version'], 'unknown command "version": agent-replay --version prints the version; commands: run, validate, accept, report, compare, calibrate, demo, init, probe', "Run 'agent-replay --help' for the commands."],
    [['run', '--confirm'], 'unknown option --confirm for "run"; did you mean --confirm-cost?', "Run 'agent-replay run --help' for its options."],
    [['run', '--fail_on', 'failed'], 'unknown option --fail_on for "run"; did you mean --fail-on?', "Run 'agent-replay run --help' for its options."],
    [['report', '--result', 'a.json'], 'unknown option --result for "report"; did you mean --results?', "Run 'agent-replay report --help' for its options."],
    [['probe', 'hi', '--asert', 'contains:x'], 'unknown option --asert for "probe"; did you mean --assert?', "Run 'agent-replay probe --help' for its options."],
    [['run', '--frobnicate'], 'unknown option --frobnicate for "run"', "Run 'agent-replay run --help' for its options."],
    [['validate', '--save', 'x'], '--save is not an option of "validate" (it is one of "probe")', "Run 'agent-replay validate --help' for its options."],
    [['run', '--out'], '--out needs a value: --out FILE', "Run 'agent-replay run --help' for its options."],
    [['run', '--out', '--junit', 'j.xml'], '--out needs a value, got the option "--junit"', "Run 'agent-replay run --help' for its options."],
    [['run', '--confirm-cost=yes'], '--confirm-cost takes no value, got "yes"', "Run 'agent-replay run --help' for its options."],
    [['run', '-x'], 'unknown option -x for "run"', "Run 'agent-replay run --help' for its options."],
    [['run', '-agent-url', 'http://x'], 'unknown option -agent-url for "run"; did you mean --agent-url? (a long option takes two dashes)', "Run 'agent-replay run --help' for its options."],
    [['run', '-shard', '1/2'], 'unknown option -shard for "run"; did you mean --shard?', "Run 'agent-replay run --help' for its options."],
    [['report', '-result=a.json'], 'unknown option -result for "report"; did you mean --results?', "Run 'agent-replay report --help' for its options."],
    [['run', 'now'], 'unexpected argument "now" (run takes no arguments, only flags)', "Run 'agent-replay run --help' for its options."],
    // `--results shards/*.json`: the shell's files after one --results, said as the command to paste.
    [['report', '--results', 's1.json', 's2.json', 'my shard.json'], `unexpected argument "s2.json": --results takes one file; give each its own --results: --results s1.json --results s2.json --results 'my shard.json'`, "Run 'agent-replay report --help' for its options."],
    [['compare', 'a.json'], 'compare needs exactly two results files', "Run 'agent-replay compare --help' for its options."],
    [['--agent-url', 'http://x'], '--agent-url comes after a command', "Run 'agent-replay --help' for the commands."],
    [['run', '--concurrency', 'many'], '--concurrency must be a whole number from 1 to 256, got "many"', "Run 'agent-replay run --help' for its options."],
    // A negative number is the flag's value, said with its range: "write --concurrency=-1" led to that error.
    [['run', '--concurrency', '-1'], '--concurrency must be a whole number from 1 to 256, got "-1"', "Run 'agent-replay run --help' for its options."],
    [['run', '--repeat', '-2'], '--repeat must be a whole number from 1 to 20, got "-2"', "Run 'agent-replay run --help' for its options."],
    // Digits only: Number() would read "1e1" as 10 and "0x5" as 5, ten attempts (and their cost) without a word.
    [['run', '--repeat', '1e1'], '--repeat must be a whole number from 1 to 20, got "1e1"', "Run 'agent-replay run --help' for its options."],
    [['run', '--repeat-max', '0x5'], '--repeat-max must be a whole number from 1 to 20, got "0x5"', "Run 'agent-replay run --help' for its options."],
    [['calibrate', '--repeat', '2.0'], '--repeat must be a whole number from 1 to 20, got "2.0"', "Run 'agent-replay calibrate --help' for its options."],
    [['run', '--concurrency', ' 4'], '--concurrency must be a whole number from 1 to 256, got " 4"', "Run 'agent-replay run --help' for its options."],
    [['run', '--wait-for-agent', '6e1'], '--wait-for-agent must be a whole number of seconds from 0 to 600, got "6e1"', "Run 'agent-replay run --help' for its options."],
    [['run', '--wait-for-agent', '-5'], '--wait-for-agent must be a whole number of seconds from 0 to 600, got "-5"', "Run 'agent-replay run --help' for its options."],
    [['probe', 'hi', '--assert', 'judge:kind', '--threshold', '-.5'], '--threshold must be a score from 0 to 1, got "-.5"', "Run 'agent-replay probe --help' for its options."],
    // A value or an argument with a line break is quoted on the message's one line (terminalLine); before, it split the line.
    [['run', 'no\nw'], 'unexpected argument "no ⏎ w" (run takes no arguments, only flags)', "Run 'agent-replay run --help' for its options."],
    [['ru\nn'], 'unknown command "ru ⏎ n"', "Run 'agent-replay --help' for the commands."],
    [['run', '--confirm-cost=y\nes'], '--confirm-cost takes no value, got "y ⏎ es"', "Run 'agent-replay run --help' for its options."],
    [['run', '--out', '-a\nb'], `--out needs a value, got the option "-a ⏎ b"; for a value that starts with "-" write --out=$'-a\\012b'`, "Run 'agent-replay run --help' for its options."],
    [['run', '--fro\nb'], 'unknown option --fro ⏎ b for "run"', "Run 'agent-replay run --help' for its options."],
    [['run', '--concurrency', '4\n'], '--concurrency must be a whole number from 1 to 256, got "4 ⏎ "', "Run 'agent-replay run --help' for its options."],
    [['run', '--shard', '1/\nx'], '--shard must be i/n with whole numbers 1 <= i <= n <= 256 (e.g. 2/4), got "1/ ⏎ x"', "Run 'agent-replay run --help' for its options."],
    [['calibrate', '--min-agreement', '0.\n9'], '--min-agreement must be a fraction from 0 to 1 (0.9 for 90%), got "0. ⏎ 9"', "Run 'agent-replay calibrate --help' for its options."],
    [['probe', 'hi', '--assert', 'judge:kind', '--threshold', '.\n5'], '--threshold must be a score from 0 to 1, got ". ⏎ 5"', "Run 'agent-replay probe --help' for its options."],
  ])('%j: one line, then the hint', async (argv, message, hint) => {
    const cwd = await makeProject({});
    const r = await cli(argv, cwd);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(3); // the message, the hint, and the final newline
    expect(lines[0]).toContain(`agent-replay: ${message}`);
    expect(lines[1]).toBe(hint);
    // Node's own parser text never reaches the user.
    expect(r.stderr).not.toMatch(/ERR_PARSE_ARGS|Unknown option '|To specify an option argument|Usage:/);
    if (!message.startsWith('unknown option --frob') && !message.startsWith('unknown option -x')) return;
    expect(r.stderr).not.toContain('did you mean');
  });
});

describe('a suite with a problem, in the bundled CLI', () => {
  it('validate places a misspelt key and words a YAML syntax error (the `yaml` package, a chunk imported then)', async () => {
    const cwd = await makeProject({
      config: agentConfig('http://127.0.0.1:9/chat'),
      fixtures: { 'a.yml': 'label: a\nmessage: hi\nmesage: typo\n', 'b.yml': 'label: b\nmessage: "unterminated\n' },
    });
    const r = await spawnCli(['validate'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: \.agent-replay\/fixtures\/a\.yml:3:1: .*mesage/m);
    expect(r.stderr).toMatch(/^error: \.agent-replay\/fixtures\/b\.yml:2:10: invalid YAML: the double quote opened here is never closed/m);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});

describe('help', () => {
  it('prints each note as written, never broken mid-phrase, and gives the exit statuses of docs/cli.md', async () => {
    const cwd = await makeProject({});
    for (const command of COMMAND_NAMES) {
      const r = await cli([command, '--help'], cwd);
      for (const note of COMMANDS[command].notes) expect(r.stdout.split('\n'), `${command}: ${note}`).toContain(note);
    }
    expect((await cli(['run', '--help'], cwd)).stdout).toContain('exits 2 and spends\nnothing;');
    expect((await cli(['probe', '--help'], cwd)).stdout).toContain('an agent not ready after --wait-for-agent, or --save refused');
    expect((await cli(['accept', '--help'], cwd)).stdout).toContain('Exit status: 0 done');
    // Every command's help gives its exit statuses, init's as docs/cli.md ("init") says them.
    for (const command of COMMAND_NAMES) expect((await cli([command, '--help'], cwd)).stdout, command).toMatch(/Exit status: 0|exits 0/);
    expect((await cli(['init', '--help'], cwd)).stdout).toContain('Exit status: 0 done (a file already there is skipped, not an error); 2 a usage error, or a file\ninit could not write');
    // The demo is interruptible as run is (docs/cli.md, "Interrupted runs"): its help says so.
    expect((await cli(['demo', '--help'], cwd)).stdout).toContain('exits 0; 130 (SIGINT) or 143 (SIGTERM)\nwhen interrupted.');
  });

  it("names the suite's config file by either name, config.yml (or config.yaml): a config.yaml suite's flags are said to be set over its own file", () => {
    for (const command of COMMAND_NAMES) {
      const help = commandHelp(command).replace(/\s+/g, ' ');
      expect(help.split('config.yml').length, command).toBe(help.split('config.yml (or config.yaml)').length);
    }
    expect(commandHelp('run').replace(/\s+/g, ' ')).toContain("--agent-url URL the agent's URL, instead of agent.url in config.yml (or config.yaml)");
  });

  it('--markdown says what it writes: the job summary\'s report, not a PR comment (docs/cli.md, "What each command does")', () => {
    for (const command of ['run', 'report'] as const) {
      const help = commandHelp(command).replace(/\s+/g, ' ');
      expect(help, command).toContain('--markdown FILE also write the report as markdown (the job summary)');
      expect(help, command).not.toContain('PR comment');
    }
  });

  it('<command> --help prints that command\'s usage and each of its flags on one line; help <command> is the same', async () => {
    const cwd = await makeProject({});
    for (const command of COMMAND_NAMES) {
      const r = await cli([command, '--help'], cwd);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: agent-replay ${command}`);
      expect((await cli(['help', command], cwd)).stdout).toBe(r.stdout);
      for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
      // Every flag the help shows is accepted by the parser, and every flag the parser accepts is shown.
      const shown = new Set([...r.stdout.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1] as string));
      for (const name of Object.keys(FLAGS)) {
        const args = command === 'probe' ? ['probe', 'hi'] : command === 'compare' ? ['compare', 'a', 'b'] : [command];
        const accepted = (() => {
          try {
            parseArgv([...args, FLAGS[name as keyof typeof FLAGS].type === 'boolean' ? `--${name}` : `--${name}=v`]);
            return true;
          } catch {
            return false;
          }
        })();
        expect(accepted, `${command} --${name}`).toBe(shown.has(name));
      }
    }
  });

  it('run --help lists run\'s flags and not the others\'; --help stays global', async () => {
    const cwd = await makeProject({});
    const run = await cli(['run', '--help'], cwd);
    expect(run.stdout).toMatch(/^ {2}--agent-url URL +the agent's URL/m);
    expect(run.stdout).toMatch(/^ {2}--confirm-cost +run even when/m);
    expect(run.stdout).not.toContain('--save');
    expect(run.stdout).not.toContain('Commands:');
    const validate = await cli(['validate', '-h'], cwd);
    expect(validate.stdout).toContain('--dir DIR');
    expect(validate.stdout).not.toContain('--agent-url');
    const global = await cli(['--help'], cwd);
    expect(global.code).toBe(0);
    for (const command of COMMAND_NAMES) expect(global.stdout).toMatch(new RegExp(`^ {2}${command} +\\S`, 'm'));
    expect(global.stdout).toContain("Run 'agent-replay <command> --help' for a command's options.");
    expect(global.stdout).not.toContain('--agent-url');
  });

  it('agent-replay alone is a usage error, as an unknown command is: one line saying a command is needed, then the help, on stderr; exit 2', async () => {
    const cwd = await makeProject({});
    const alone = await cli([], cwd);
    expect(alone.code).toBe(2);
    expect(alone.stdout).toBe('');
    const [first, blank, ...help] = alone.stderr.split('\n');
    expect(first).toBe(`agent-replay: a command is needed; commands: ${COMMAND_NAMES.join(', ')}`);
    expect(blank).toBe('');
    const global = await cli(['--help'], cwd);
    expect(help.join('\n')).toBe(global.stdout);
    // --help (and help) is asked for: stdout, exit 0.
    expect(global.code).toBe(0);
    expect(global.stderr).toBe('');
    expect(global.stdout).toContain('Usage: agent-replay <command> [options]');
    expect(await cli(['help'], cwd)).toEqual(global);
  });

  it('--version and -v print the version, after a command too', async () => {
    const cwd = await makeProject({});
    for (const argv of [['--version'], ['-v'], ['run', '--version']]) {
      const r = await cli(argv, cwd);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
  });

  it('--help after a misspelt flag still helps (help wins over the mistake)', async () => {
    const cwd = await makeProject({});
    const r = await cli(['run', '--agnt-url', 'x', '--help'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: agent-replay run');
  });
});

describe('did you mean', () => {
  it.each([
    ['kitten', 'sitting', 3],
    ['agent-ur', 'agent-url', 1],
    ['agnet-url', 'agent-url', 1], // a transposition is one edit
    ['', 'abc', 3],
    ['same', 'same', 0],
  ])('editDistance(%s, %s) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('suggests only what is close', () => {
    const flags = Object.keys(COMMANDS.run.flags);
    expect(closest('agenturl', flags)).toBe('agent-url');
    expect(closest('juint', flags)).toBe('junit');
    expect(closest('confirm', flags)).toBe('confirm-cost');
    expect(closest('xyz', flags)).toBeNull();
    expect(closest('o', flags)).toBeNull(); // one letter is too short to guess from
    expect(closest('demp', COMMAND_NAMES)).toBe('demo');
  });
});
