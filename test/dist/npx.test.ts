// Distribution: the package as npm would publish it installs and runs as `npx agent-replay`.
// Packs the tarball (the committed dist/), installs it into a fresh folder from the registry like a
// user would, and runs the bin there (--version, the mocks import, demo, init, validate): nothing of this repository (its node_modules, its sources,
// its devDependencies) is reachable from that folder. One slow test (an install).

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL } from '../../src/version.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

async function temp(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

describe('npx agent-replay', () => {
  it('packs with bin, files and engines, installs from the tarball in an empty folder, and runs --version, the demo, init and validate', { timeout: 240_000 }, async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { bin: Record<string, string>; files: string[]; engines: { node: string } };
    expect(pkg.bin).toEqual({ 'agent-replay': 'dist/cli.js' });
    expect(pkg.engines.node).toMatch(/^>=\d+/);
    const head = (await readFile('dist/cli.js', 'utf8')).slice(0, 40);
    expect(head.startsWith('#!/usr/bin/env node\n')).toBe(true);

    // 1. npm pack, as `npm publish` would
    const packDir = await temp('agent-replay-pack-');
    const packed = await run(npm, ['pack', '--json', '--pack-destination', packDir], { maxBuffer: 16 << 20 });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const shipped = info!.files.map((f) => f.path).sort();
    // The licence, the bundles, the CLI's chunks (what it imports when used: the span sources, ...), the README,
    // and the demo's suite (`agent-replay demo` reads it beside dist/).
    const chunks = (await readdir('dist/chunks')).map((f) => `dist/chunks/${f}`).sort();
    expect(chunks.length).toBeGreaterThan(0);
    expect(shipped.filter((p) => !p.startsWith('examples/'))).toEqual(['LICENSE', 'README.md', ...chunks, 'dist/cli.js', 'dist/mocks.d.ts', 'dist/mocks.js', 'package.json']);
    expect(shipped).toContain('examples/demo/.agent-replay/config.yml');
    expect(shipped.filter((p) => p.startsWith('examples/')).every((p) => p.startsWith('examples/demo/.agent-replay/'))).toBe(true);

    // npx runs the tarball itself, without a project around it (npx --package <tarball>)
    const bare = await temp('agent-replay-bare-');
    const fromTarball = await run(npx, ['--yes', '--package', join(packDir, info!.filename), '--', 'agent-replay', '--version'], {
      cwd: bare,
      env: { ...process.env, npm_config_update_notifier: 'false', NODE_OPTIONS: '' },
    });
    expect(fromTarball.stdout).toBe(`${TOOL.version}\n`);

    // 2. install the tarball into an empty project (a user's repository)
    const project = await temp('agent-replay-user-');
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true }));
    const env = { ...process.env, npm_config_update_notifier: 'false', NODE_OPTIONS: '' };
    await run(npm, ['install', '--no-audit', '--no-fund', '--loglevel', 'error', join(packDir, info!.filename)], { cwd: project, env, maxBuffer: 16 << 20 });

    // The bundle imports only Node's built-ins: installing it fetches no other package.
    expect((await readdir(join(project, 'node_modules'))).filter((n) => !n.startsWith('.'))).toEqual(['agent-replay']);

    // 3. The installed bin (node_modules/.bin/agent-replay) runs; npx runs it too (init, below). The
    // other runs start the bin directly: npm's own start (about 0.4 s of CPU), again each time,
    // would prove nothing more.
    const bin = join(project, 'node_modules', '.bin', 'agent-replay');
    const version = await run(bin, ['--version'], { cwd: project, env });
    expect(version.stdout).toBe(`${TOOL.version}\n`);

    // the agent-side helpers import as agent-replay/mocks, with the engine's matching rule
    const mocks = await run(
      process.execPath,
      ['--input-type=module', '-e', "import { answerFromMocks } from 'agent-replay/mocks'; console.log(JSON.stringify(answerFromMocks([{ tool: 'find_order', input: { id: '1' }, match: 'subset', output: 'shipped' }], 'find_order', { id: '1', x: 2 })))"],
      { cwd: project, env },
    );
    expect(mocks.stdout).toBe('{"mocked":true,"output":"shipped"}\n');

    // the embedded demo runs from the installed package as it does in a checkout (it exits 0)
    const demoOut = await temp('agent-replay-demo-');
    const demo = await run(bin, ['demo', '--out', demoOut], { cwd: project, env, maxBuffer: 16 << 20 });
    expect(demo.stdout).toMatch(/^agent-replay demo: example agent at http:\/\/127\.0\.0\.1:\d+\//);
    expect(demo.stdout).toContain('node_modules/agent-replay/examples/demo/.agent-replay');
    expect(JSON.parse(await readFile(join(demoOut, 'results.json'), 'utf8'))).toMatchObject({ schemaVersion: 1 });

    // init, by npx (--no: never fetch another package; -- ends npx's own options), writes a suite and
    // the three workflows into the user's repository, pinned to this version, and the suite validates
    const init = await run(npx, ['--no', '--', 'agent-replay', 'init'], { cwd: project, env });
    const created = [...init.stdout.matchAll(/^created {2}(\S+)$/gm)].map((m) => m[1]);
    expect(created).toEqual([
      '.agent-replay/config.yml',
      '.agent-replay/fixtures/example-greeting.yml',
      '.github/workflows/agent-replay.yml',
      '.github/workflows/agent-replay-accept.yml',
      '.github/workflows/agent-replay-report.yml',
    ]);
    expect(await readFile(join(project, '.github/workflows/agent-replay.yml'), 'utf8')).toContain(`uses: agent-replay/agent-replay@v${TOOL.version}\n`);
    const initValidate = await run(bin, ['validate'], { cwd: project, env });
    expect(initValidate.stdout).toBe('.agent-replay: 1 fixture, 0 baselines, no configuration errors\n');

    const suite = join(project, 'qa');
    await mkdir(join(suite, 'fixtures'), { recursive: true });
    await writeFile(join(suite, 'config.yml'), 'agent:\n  url: https://preview.example.com/api/chat\ncost: { capUsd: 1 }\n');
    await writeFile(join(suite, 'fixtures', 'greeting.yml'), 'label: greeting\nmessage: hello\nassert: { contains: Welcome }\n');
    const validate = await run(bin, ['validate', '--dir', 'qa'], { cwd: project, env });
    expect(validate.stdout).toBe('qa: 1 fixture, 0 baselines, no configuration errors\n');

    // and a broken suite fails with status 2 and the file and line
    await writeFile(join(suite, 'fixtures', 'broken.yml'), 'label: "bad label!"\nmessage: hi\n');
    const broken = await run(bin, ['validate', '--dir', 'qa'], { cwd: project, env }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(broken?.code).toBe(2);
    expect(broken?.stderr).toContain('qa/fixtures/broken.yml:1');
  });
});
