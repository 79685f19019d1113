// The progress line on a terminal, with the rest of the CLI's output: the real `main` with a
// terminal's io (isTTY, a width), a real loopback agent, a real interrupt.

import { describe, expect, it } from 'vitest';
import { main, progressPrinter, type CliIO } from '../../src/cli/main.js';
import { Interrupted } from '../../src/interrupt.js';
import type { Progress } from '../../src/replay/index.js';
import { agentConfig, baseline, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();

/** What a terminal shows: stdout and stderr in the order written, carriage returns redrawing the line. */
function terminal(columns?: number): { io: (over: Partial<CliIO>) => CliIO; screen: () => string[] } {
  let written = '';
  return {
    io: (over) => ({
      stdout: (t) => void (written += t),
      stderr: (t) => void (written += t),
      isTTY: true,
      color: false,
      env: {},
      cwd: '/',
      ...(columns !== undefined ? { columns } : {}),
      ...over,
    }),
    // Each line as left on screen: what follows the last carriage return, without the erase sequence.
    screen: () => written.split('\n').map((line) => (line.split('\r').at(-1) ?? '').replaceAll('\x1b[2K', '')),
  };
}

describe('the progress line on a terminal', () => {
  it('fits a narrow terminal, so that redrawing it leaves no rows behind', () => {
    const t = terminal(40);
    const print = progressPrinter(t.io({}));
    const p: Progress = { done: 2, total: 30, passed: 1, failed: 0, notEvaluated: 1, errored: 0, elapsedMs: 1000 };
    print(p);
    print({ ...p, done: 30, passed: 10, failed: 10, notEvaluated: 5, errored: 5 });
    const lines = t.screen().filter((l) => l !== '');
    expect(lines).toEqual(['[30/30] 10 passed · 10 failed · 5 not e']);
    for (const l of lines) expect(l.length).toBeLessThan(40);
  });

  it('on a dumb terminal (TERM=dumb) writes no escape sequence: plain progress lines instead of the redraw', async () => {
    const agent = await serve();
    const fixtures = { 'f.yml': 'fixtures:\n  - { label: one, message: one }\n  - { label: two, message: two }\n' };
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures });
    let written = '';
    const io: CliIO = { stdout: (t) => void (written += t), stderr: (t) => void (written += t), isTTY: true, columns: 100, color: false, env: { TERM: 'dumb' }, cwd };
    expect(await main(['run', '--out', 'results.json'], io)).toBe(0);
    expect(written).not.toContain('\x1b');
    expect(written).not.toContain('\r');
    // The last count, as a pipe sees it, on a line of its own.
    expect(written.split('\n')).toContain('progress: 2/2 · 2 passed · 0 failed');
  });

  it('the load\'s warnings come before the replay, once each, not after the progress line', async () => {
    const agent = await serve();
    // A pattern that does not compile (the fixture is not evaluated) and a baseline of no fixture: two load warnings.
    const fixtures = { 'f.yml': 'fixtures:\n  - { label: one, message: one }\n  - { label: boots, message: boots?, assert: { regex: "boots (in" } }\n' };
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures, baselines: [baseline('gone', 'x', null, 'pass')] });
    const t = terminal(100);
    await main(['run', '--out', 'results.json'], t.io({ cwd }));
    const screen = t.screen();
    const warnings = screen.flatMap((l, i) => (l.startsWith('warning: ') ? [i] : []));
    expect(warnings).toHaveLength(2);
    expect(warnings.map((i) => screen[i])).toEqual([expect.stringContaining('pattern does not compile'), expect.stringContaining('orphan baseline')]);
    const progress = screen.findIndex((l) => l.startsWith('[2/2]'));
    expect(progress).toBeGreaterThan(-1);
    for (const i of warnings) expect(i).toBeLessThan(progress);
  });

  it('the load\'s warnings are printed once beside a configuration error found after the load', async () => {
    // No agent URL: an error found once the suite has loaded, with its warnings.
    const cwd = await makeProject({ fixtures: { 'f.yml': 'label: boots\nmessage: boots?\nassert: { regex: "boots (in" }\n' } });
    const r = await cli(['run', '--out', 'results.json'], cwd);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('warning: ') && l.includes('pattern does not compile'))).toHaveLength(1);
    expect(lines.findIndex((l) => l.startsWith('warning: '))).toBeLessThan(lines.findIndex((l) => l.startsWith('error: ') && l.includes('no agent URL')));
  });

  it('is ended before the summary of an interrupted run, not continued by it', async () => {
    const interrupt = new AbortController();
    // The first two fixtures answer; the third holds its request until the interrupt (Ctrl-C).
    const agent = await serve((req) => {
      const message = String((req.json as { message: unknown }).message);
      if (message === 'three') {
        interrupt.abort(new Interrupted('SIGINT'));
        return 'hang';
      }
      return { json: { reply: `echo: ${message}`, route: { conversation: 'c', stage: message } } };
    });
    const fixtures = { 'f.yml': 'fixtures:\n  - { label: one, message: one }\n  - { label: two, message: two }\n  - { label: three, message: three }\n' };
    const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n  concurrency: 1\n'), fixtures });
    const t = terminal(100);
    const code = await main(['run', '--out', 'results.json'], t.io({ cwd, signal: interrupt.signal }));
    expect(code).toBe(130);
    const screen = t.screen();
    // The counts stay on their own line; the headline starts the next one.
    expect(screen.filter((l) => /^\[2\/3\] 2 passed · 0 failed · ETA \d+s$/.test(l))).toHaveLength(1);
    expect(screen.find((l) => l.includes('agent-replay:'))).toMatch(/^agent-replay: Not verified \(interrupted\)/);
    expect(screen.filter((l) => l.includes('[2/3]') && l.includes('agent-replay'))).toEqual([]);
  });
});
