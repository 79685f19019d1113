// Paths written for Windows (`C:\suite`, `C:/out/r.json`, `\\server\share`) given on macOS or Linux:
// a usage error that says so and gives the path as this system writes it, before anything is
// read, written or sent (docs/cli.md, "Paths written for Windows").

import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { windowsPathRefusal } from '../../src/windows-path.js';
import { agentConfig, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

describe('a Windows path on a system that is not Windows', () => {
  it.each([
    [['validate', '--dir', 'C:\\Users\\me\\suite'], "--dir 'C:\\Users\\me\\suite' is a Windows path (drive C:), and this system is not Windows: here it is a name in the working folder, not drive C:. Give the path as this system writes it: relative to the working folder (--dir .agent-replay), or absolute (/mnt/c/Users/me/suite under WSL)"],
    [['validate', '--dir', '\\\\server\\share\\suite'], "--dir '\\\\server\\share\\suite' is a Windows network path (UNC), which this system does not open: mount the share and give the path under its mount point, or a path relative to the working folder (--dir .agent-replay)"],
    [['run', '--out', 'C:/out/r.json'], '--out C:/out/r.json is a Windows path (drive C:)'],
    [['run', '--markdown', 'd:\\report.md'], "--markdown 'd:\\report.md' is a Windows path (drive D:)"],
    [['report', '--results', 'r.json', '--results', 'E:'], '--results E: is a Windows path (drive E:), and this system is not Windows: here it is a name in the working folder, not drive E:. Give the path as this system writes it: relative to the working folder (--results results.json), or absolute (/mnt/e under WSL)'],
    [['accept', '--dir', 'C:\\suite'], "--dir 'C:\\suite' is a Windows path (drive C:)"],
    [['init', '--workflows', 'C:\\repo\\.github\\workflows'], "--workflows 'C:\\repo\\.github\\workflows' is a Windows path (drive C:)"],
    [['demo', '--out', 'C:\\demo'], 'relative to the working folder (--out demo)'],
  ])('%j: a usage error, nothing read, written or sent', async (argv, message) => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const before = await readdir(cwd);
    const r = await cli(argv, cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agent-replay: --\S+ \S+ is a Windows (network )?path/);
    expect(r.stderr).toContain(message);
    expect(agent.requests).toHaveLength(0);
    expect(await readdir(cwd)).toEqual(before);
  });

  it('is an ordinary path on Windows, and an ordinary name is never refused', () => {
    expect(windowsPathRefusal('C:\\suite', '--dir', '--dir .agent-replay', '\\')).toBeNull();
    expect(windowsPathRefusal('\\\\server\\share', '--dir', '--dir .agent-replay', '\\')).toBeNull();
    for (const p of ['.agent-replay', 'C', 'Cx:/a', 'bots\\shop', '/mnt/c/suite', 'c:d']) expect(windowsPathRefusal(p, '--dir', '--dir .agent-replay', '/')).toBeNull();
  });
});
