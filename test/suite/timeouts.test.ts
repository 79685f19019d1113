import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { C, F, OK_FIXTURE, load } from './helpers.js';

// Node's timers hold at most 2^31-1 ms and fire after 1 ms beyond that: a millisecond setting
// over 10 minutes is refused where it is written, with the allowed range.
describe('millisecond settings are limited to 10 minutes', () => {
  it('every ms key of config.yml: above 600000 is an error with file:line and the range', async () => {
    const r = await load({
      [F + '/a.yml']: OK_FIXTURE,
      [C]: [
        'agent:',
        '  timeoutMs: 3000000000',
        '  backoffMs: 600001',
        'judge:',
        '  timeoutMs: 2147483648',
        '  backoffMs: 1000000',
        'regex: { timeoutMs: 900000 }',
        '',
      ].join('\n'),
    });
    expect(r.suite).toBeNull();
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:14: agent.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 3000000000\n  fix: set agent.timeoutMs to a value in that range`,
      `${C}:3:14: agent.backoffMs must be a whole number of milliseconds from 0 to 600000 (10 minutes), found the number 600001\n  fix: set agent.backoffMs to a value in that range`,
      `${C}:5:14: judge.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 2147483648\n  fix: set judge.timeoutMs to a value in that range`,
      `${C}:6:14: judge.backoffMs must be a whole number of milliseconds from 0 to 600000 (10 minutes), found the number 1000000\n  fix: set judge.backoffMs to a value in that range`,
      `${C}:7:21: regex.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 900000\n  fix: set regex.timeoutMs to a value in that range`,
    ]);
  });

  it('exactly 10 minutes is allowed, and so are the lower bounds', async () => {
    const r = await load({
      [F + '/a.yml']: OK_FIXTURE,
      [C]: 'agent: { timeoutMs: 600000, backoffMs: 0 }\njudge: { timeoutMs: 1, backoffMs: 600000 }\nregex: { timeoutMs: 600000 }\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.agent.timeoutMs).toBe(600_000);
    expect(r.suite!.config.judge!.backoffMs).toBe(600_000);
    expect(r.suite!.config.regex.timeoutMs).toBe(600_000);
  });

  it('zero or a negative timeout states the same range', async () => {
    const r = await load({ [F + '/a.yml']: OK_FIXTURE, [C]: 'agent:\n  timeoutMs: 0\n' });
    expect(r.errors.map((e) => e.message)).toEqual([
      'agent.timeoutMs must be a whole number of milliseconds from 1 to 600000 (10 minutes), found the number 0',
    ]);
  });

  it('flags and action inputs (overrides) are held to the same range', async () => {
    const r = await load(
      { [F + '/a.yml']: OK_FIXTURE },
      { overrides: { agentTimeoutMs: 3_000_000_000, regexTimeoutMs: 600_001, judge: { timeoutMs: 2 ** 31, backoffMs: -1 } } },
    );
    expect(r.suite).toBeNull();
    expect(r.errors.map(formatIssue)).toEqual([
      'command-line options: agent timeout (ms) must be a whole number of milliseconds from 1 to 600000 (10 minutes), got 3000000000\n  fix: pass agent timeout (ms) from 1 to 600000',
      'command-line options: regex timeout (ms) must be a whole number of milliseconds from 1 to 600000 (10 minutes), got 600001\n  fix: pass regex timeout (ms) from 1 to 600000',
      'command-line options: judge timeout (ms) must be a whole number of milliseconds from 1 to 600000 (10 minutes), got 2147483648\n  fix: pass judge timeout (ms) from 1 to 600000',
      'command-line options: judge backoff (ms) must be a whole number of milliseconds from 0 to 600000 (10 minutes), got -1\n  fix: pass judge backoff (ms) from 0 to 600000',
    ]);
    const ok = await load({ [F + '/a.yml']: OK_FIXTURE }, { overrides: { agentTimeoutMs: 600_000, judge: { timeoutMs: 600_000 } } });
    expect(ok.errors).toEqual([]);
    expect(ok.suite!.config.agent.timeoutMs).toBe(600_000);
    expect(ok.suite!.config.judge!.timeoutMs).toBe(600_000);
  });
});
