// Progress lines: redrawn in place on a terminal, sparse plain lines in CI logs.

import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { capRefusalText, progressPrinter, reportContext, type CliIO } from '../../src/cli/main.js';
import { formatUsdPair } from '../../src/report/index.js';
import type { Progress } from '../../src/replay/index.js';

function io(isTTY: boolean): CliIO & { err: string[] } {
  const err: string[] = [];
  return { err, stdout: () => undefined, stderr: (t) => void err.push(t), isTTY, color: false, env: {}, cwd: '/' };
}

const p = (done: number, elapsedMs: number, over: Partial<Progress> = {}): Progress => ({
  done,
  total: 4,
  passed: done,
  failed: 0,
  notEvaluated: 0,
  errored: 0,
  elapsedMs,
  ...over,
});

describe('progressPrinter', () => {
  it('redraws one line on a terminal and ends it with a newline', () => {
    const out = io(true);
    const print = progressPrinter(out);
    print(p(1, 1000));
    print(p(4, 4000, { passed: 2, failed: 1, errored: 1 }));
    expect(out.err[0]).toBe('\r\x1b[2K[1/4] 1 passed · 0 failed · ETA 3s');
    expect(out.err[1]).toBe('\r\x1b[2K[4/4] 2 passed · 1 failed · 1 errored\n');
  });

  it('on a dumb terminal (TERM=dumb) prints the plain lines, never the redraw', () => {
    const out = { ...io(true), env: { TERM: 'dumb' } };
    const print = progressPrinter(out);
    print(p(1, 1000));
    print(p(2, 5000)); // too soon
    print(p(4, 6000));
    expect(out.err).toEqual(['progress: 1/4 · 1 passed · 0 failed · ETA 3s\n', 'progress: 4/4 · 4 passed · 0 failed\n']);
  });

  it('prints plain lines at most every 10 s, and always the last one', () => {
    const out = io(false);
    const print = progressPrinter(out);
    print(p(1, 1000)); // first line
    print(p(2, 5000)); // too soon
    print(p(3, 12_000));
    print(p(4, 12_500, { notEvaluated: 1, passed: 3 })); // the end
    expect(out.err).toEqual([
      'progress: 1/4 · 1 passed · 0 failed · ETA 3s\n',
      'progress: 3/4 · 3 passed · 0 failed · ETA 4s\n',
      'progress: 4/4 · 3 passed · 0 failed · 1 not evaluated\n',
    ]);
  });
});

describe('cost cap text', () => {
  it('shows the estimate and the cap with enough decimals to tell them apart', () => {
    expect(formatUsdPair(0.04, 0.01)).toEqual(['$0.04', '$0.01']);
    expect(formatUsdPair(0.1004, 0.1)).toEqual(['$0.1004', '$0.10']);
    const text = capRefusalText({ usd: 0.125, capUsd: 0.1, aboveCap: true, confirmed: false }, 5, 5, { dir: 'suite' });
    expect(text).toContain('the estimated cost $0.125 for 5 fixtures and 5 judge calls is above the cost cap $0.10.');
    const justAbove = capRefusalText({ usd: 0.105, capUsd: 0.1, aboveCap: true, confirmed: false }, 5, 1, { dir: 'suite' });
    expect(justAbove).toContain('the estimated cost $0.105 for 5 fixtures and 1 judge call is above the cost cap $0.10.');
    expect(text).toContain('--confirm-cost');
    expect(text).toContain('cost.capUsd in suite/config.yml');
  });
});

describe('report context', () => {
  it('links file references only when the repository is known (inside GitHub Actions)', () => {
    expect(reportContext(null, {}).repositoryUrl).toBeNull();
    expect(reportContext(null, { GITHUB_REPOSITORY: 'acme/shop-bot' }).repositoryUrl).toBe('https://github.com/acme/shop-bot');
    expect(reportContext(null, { GITHUB_REPOSITORY: 'acme/shop-bot', GITHUB_SERVER_URL: 'https://ghe.example.com' }).repositoryUrl).toBe('https://ghe.example.com/acme/shop-bot');
  });

  it("AGENT_REPLAY_BASELINES_REF names the baselines' ref; every AGENT_REPLAY_ variable src reads (not the tests' own) is in docs/cli.md's table", () => {
    expect(reportContext(null, { AGENT_REPLAY_BASELINES_REF: 'main' }).baselinesRef).toBe('main');
    expect(reportContext(null, {}).baselinesRef).toBeNull();
    const root = join(import.meta.dirname, '..', '..');
    const read = new Set(
      readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .flatMap((f) => [...readFileSync(join(root, 'src', f), 'utf8').matchAll(/env\.(AGENT_REPLAY_\w+)/g)].map((m) => m[1] as string))
        .filter((name) => !name.startsWith('AGENT_REPLAY_TEST_')),
    );
    expect(read).toContain('AGENT_REPLAY_BASELINES_REF');
    const section = /\n## Environment variables\n([\s\S]*?)\n## /.exec(readFileSync(join(root, 'docs', 'cli.md'), 'utf8'))?.[1] ?? '';
    for (const name of read) expect(section, name).toContain(`| \`${name}\` |`);
  });
});
