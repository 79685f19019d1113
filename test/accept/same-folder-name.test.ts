// Two suites of one repository whose folders have the same name (apps/a/.agent-replay and
// apps/b/.agent-replay, each with the same fixture): the record named its files from the folder it
// ran in (.agent-replay/fixtures/f.yml), which both suites' paths end with, so a run of apps/a was
// accepted into apps/b from the root and from apps/b. The record now keeps the suite's path in the
// repository (`suitePath`, docs/results-json.md), and accept matches by it.

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../support/fork-clone.js';
import { agentConfig, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

const FIXTURES = 'fixtures:\n  - { label: greeting, message: hi, assert: { contains: Hello } }\n';

describe('accept in a repository with two suite folders of the same name', () => {
  it('matches a run to its suite by its path in the repository, from the root and from each subfolder', async () => {
    const agent = await serve(scriptedAgent({ hi: 'Hello from a' }));
    const root = await makeProject({});
    git(root, 'init', '-q');
    for (const app of ['a', 'b']) {
      await mkdir(join(root, 'apps', app, '.agent-replay', 'fixtures'), { recursive: true });
      await writeFile(join(root, 'apps', app, '.agent-replay', 'config.yml'), agentConfig(agent.url));
      await writeFile(join(root, 'apps', app, '.agent-replay', 'fixtures', 'f.yml'), FIXTURES);
    }
    const a = join(root, 'apps', 'a');
    const b = join(root, 'apps', 'b');
    expect((await cli(['run', '--fail-on', 'none'], a)).code).toBe(0);
    const results = join(a, '.agent-replay', 'results', 'results.json');
    expect((await readResults(results)).suitePath).toBe('apps/a/.agent-replay');
    const baselineOf = (app: string): string => join(root, 'apps', app, '.agent-replay', 'baselines', 'greeting.json');

    // Into apps/b: refused from the root and from apps/b, naming the --dir that is the run's suite.
    const fromRoot = await cli(['accept', '--results', 'apps/a/.agent-replay/results/results.json', '--dir', 'apps/b/.agent-replay'], root);
    expect(fromRoot.code).toBe(2);
    expect(fromRoot.stderr).toContain(
      'apps/a/.agent-replay/results/results.json: it is a run of the suite in apps/a/.agent-replay of the repository (its suitePath), not of apps/b/.agent-replay; its replies would be written where that suite does not read them, so nothing was written: give --dir apps/a/.agent-replay\n',
    );
    const fromB = await cli(['accept', '--results', '../a/.agent-replay/results/results.json'], b);
    expect(fromB.code).toBe(2);
    expect(fromB.stderr).toContain('not of apps/b/.agent-replay; its replies would be written where that suite does not read them, so nothing was written: give --dir ../a/.agent-replay\n');
    expect(existsSync(baselineOf('b'))).toBe(false);
    // A --dir with a line break in its name is named on the message's one line.
    const broken = await cli(['accept', '--results', 'apps/a/.agent-replay/results/results.json', '--dir', 'apps/b\nx'], root);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('(its suitePath), not of apps/b ⏎ x; its replies would be written where that suite does not read them');

    // Into apps/a: accepted from the root, from apps/a and from a folder inside it.
    expect((await cli(['accept', '--results', 'apps/a/.agent-replay/results/results.json', '--dir', 'apps/a/.agent-replay'], root)).code).toBe(0);
    expect(JSON.parse(await readFile(baselineOf('a'), 'utf8'))).toMatchObject({ reply: 'Hello from a' });
    expect((await cli(['accept'], a)).stdout).toContain('0 accepted, 0 refused, 1 unchanged');
    await mkdir(join(a, 'src'));
    expect((await cli(['accept', '--dir', '../.agent-replay', '--results', '../.agent-replay/results/results.json'], join(a, 'src'))).stdout).toContain('1 unchanged');

    // A record written before suitePath is matched by the folder its files name, as before.
    const old = JSON.parse(await readFile(results, 'utf8'));
    delete old.suitePath;
    await writeFile(join(root, 'old.json'), JSON.stringify(old));
    expect((await cli(['accept', '--results', '../../old.json'], a)).stdout).toContain('1 unchanged');
    const oldBroken = await cli(['accept', '--results', 'old.json', '--dir', 'apps/b\nx'], root);
    expect(oldBroken.code).toBe(2);
    expect(oldBroken.stderr).toContain('(its first item is .agent-replay/fixtures/f.yml), not of apps/b ⏎ x; its replies');
  });
});
