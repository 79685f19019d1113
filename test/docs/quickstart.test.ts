// The README's quickstart works as written: its commands, run in order in a fresh git repository
// against a local agent, all succeed and leave only the suite for git to see; the Action's version
// in every workflow snippet of the docs is the one `init` writes; docs/cli.md's Commands block is
// the CLI's option table, every flag a --help prints is in it and every flag it names is one the
// CLI reads, and its --fail-on list names every condition.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_USES } from '../../src/cli/init.js';
import { commandHelp, globalHelp, synopses, type CommandName } from '../../src/cli/options.js';
import { cli, makeProject, scriptedAgent, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

const README = readFileSync('README.md', 'utf8');
const DOCS = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The first ```sh block under "## Quickstart", its commands one per entry (continuations joined, comments dropped). */
function quickstartCommands(): string[] {
  const section = README.slice(README.indexOf('## Quickstart'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md: no ```sh block under ## Quickstart');
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '');
}

/** A command line split as a POSIX shell would (single and double quotes, no expansions used). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? (m[3] as string));
  return words;
}

describe('the README quickstart', () => {
  it('works as written in a fresh git repository, against a local agent, and leaves no run output for git', async () => {
    const commands = quickstartCommands();
    expect(commands.length).toBeGreaterThanOrEqual(4);
    const agent = await serve(scriptedAgent({ 'Can I get my money back?': 'You can return it within 30 days of delivery.' }));
    const cwd = join(await makeProject({}), 'repo');
    await mkdir(cwd);
    const git = (...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q');
    for (const line of commands) {
      const words = shellWords(line);
      expect(words.slice(0, 2), line).toEqual(['npx', 'agent-replay']);
      // The quickstart's local agent is the loopback one here.
      const argv = words.slice(2).map((w) => w.replace('http://localhost:3000/api/chat', agent.url));
      const r = await cli(argv, cwd);
      expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
    }
    expect(existsSync(join(cwd, '.agent-replay/fixtures/refund-policy.yml'))).toBe(true);
    expect(existsSync(join(cwd, '.agent-replay/baselines/example-greeting.json'))).toBe(true);
    const untracked = git('status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).map((l) => l.slice(3));
    expect(untracked.sort()).toEqual(
      [
        '.agent-replay/baselines/example-greeting.json',
        '.agent-replay/config.yml',
        '.agent-replay/fixtures/example-greeting.yml',
        '.agent-replay/fixtures/refund-policy.yml',
        '.github/workflows/agent-replay-accept.yml',
        '.github/workflows/agent-replay-report.yml',
        '.github/workflows/agent-replay.yml',
      ].sort(),
    );
    expect(existsSync(join(cwd, '.agent-replay/results/results.json'))).toBe(true);
  });

  it('pins the Action in every workflow snippet of the docs to the version init writes', () => {
    const pins = DOCS.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/agent-replay\/agent-replay@(v\d[^\s`)'"]*)/g)].map((m) => `${file}: agent-replay/agent-replay@${m[1]}`));
    expect(pins.length).toBeGreaterThan(0);
    for (const pin of pins) expect(pin.replace(/^[^:]+: /, ''), pin).toBe(ACTION_USES);
  });

  it("docs/cli.md's Commands block is the CLI's option table", () => {
    const cliDoc = readFileSync('docs/cli.md', 'utf8');
    const block = /## Commands\n\n```\n([\s\S]*?)```/.exec(cliDoc)?.[1];
    expect(block).toBe(synopses());
  });

  it('every flag a --help prints is in docs/cli.md, and every flag docs/cli.md names is one the CLI reads', () => {
    const flagsOf = (text: string): Set<string> => new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*[a-z]/g)].map((m) => m[0]));
    // The commands, as the global help lists them.
    const commands = [...globalHelp().matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1] as CommandName);
    expect(commands.length).toBeGreaterThanOrEqual(9);
    const help = [globalHelp(), ...commands.map((c) => commandHelp(c))].join('\n');
    const cliDoc = readFileSync('docs/cli.md', 'utf8');
    // The mistyped flag of the page's usage-error example is no flag.
    const documented = flagsOf(cliDoc.replace(/unknown option --[a-z-]+/g, ''));
    const shown = flagsOf(help);
    expect([...shown].filter((f) => !documented.has(f)), 'flags --help prints that docs/cli.md never names').toEqual([]);
    expect([...documented].filter((f) => !shown.has(f)), 'flags docs/cli.md names that no --help prints').toEqual([]);
  });
});
