// config.yml `stats:` (docs/statistics.md, "Configuration"): alpha, checked with the file's line
// beside every other problem of the file, and carried into the finishing policy.
import { describe, expect, it } from 'vitest';
import { policyOf } from '../../src/evaluate/finish.js';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';

describe('config.yml stats.alpha', () => {
  it('defaults to 0.05, takes a configured alpha into the finishing policy', async () => {
    const none = await load({ [`${F}/a.yml`]: OK_FIXTURE });
    expect(none.errors).toEqual([]);
    expect(policyOf(none.suite!.config).alpha).toBe(0.05);
    const set = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'stats:\n  alpha: 0.01\n' });
    expect(set.errors).toEqual([]);
    expect(set.suite!.config.stats).toEqual({ alpha: 0.01 });
    expect(policyOf(set.suite!.config).alpha).toBe(0.01);
  });

  it('an alpha out of range is an error with its line, reported together with the other sections\' errors', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'repeat: { count: 3, minPass: 5 }\nstats:\n  alpha: 0\n' });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${C}:1: repeat.minPass 5 is not a whole number from 1 to count (3)`,
      `${C}:3: stats.alpha must be a probability above 0 and at most 0.5 (0.05 calls a drop at p < 0.05), found the number 0`,
    ]);
    const high = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'stats: { alpha: 0.9 }\n' });
    expect(brief(high.errors)).toEqual([`${C}:1: stats.alpha must be a probability above 0 and at most 0.5 (0.05 calls a drop at p < 0.05), found the number 0.9`]);
    const word = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'stats: { alpha: low, beta: 1 }\n' });
    expect(word.errors.map((e) => e.line)).toEqual([1, 1]);
  });

  it('a .nan alpha (YAML\'s NaN) is said to be no number alpha accepts, with its file, line and fix, never "the number NaN"', async () => {
    for (const nan of ['.nan', '.NaN', '.NAN']) {
      const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `stats:\n  alpha: ${nan}\n` });
      expect(r.suite).toBeNull();
      expect(r.errors).toEqual([
        {
          file: C,
          line: 2,
          column: 10,
          message: `stats.alpha must be a probability above 0 and at most 0.5 (0.05 calls a drop at p < 0.05), found ${nan}, which YAML reads as NaN ("not a number"): not a number stats.alpha accepts`,
          fix: `write a number in place of ${nan}, or remove "alpha" to use its default`,
        },
      ]);
    }
  });

  it('.inf and .nan elsewhere: the same plain words; where text is expected, still the quotes', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: ok\nmessage: .nan\n', [C]: 'cost: { capUsd: .inf }\nrepeat: { count: -.inf }\n' });
    expect(brief(r.errors)).toEqual([
      `${C}:1: cost.capUsd must be a number, found .inf, which YAML reads as infinity: not a number cost.capUsd accepts`,
      `${C}:2: repeat.count must be a number, found -.inf, which YAML reads as minus infinity: not a number repeat.count accepts`,
      `${F}/a.yml:2: fixture "ok": message must be a string, found .nan, which YAML reads as the number NaN`,
    ]);
    for (const e of r.errors) expect(e.message).not.toMatch(/found the number (NaN|-?Infinity)/);
    expect(r.errors.at(-1)?.fix).toBe('put the value in quotes: message: ".nan"');
  });

  it('.nan where a string or a number is taken (a header): plain words, and the fix offers both', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: ok\nmessage: hi\n', [C]: 'agent:\n  url: http://127.0.0.1:1/chat\n  headers:\n    X-Trace: .nan\n' });
    expect(brief(r.errors)).toEqual([
      `${C}:4: agent.headers.X-Trace must be a string or a number or true or false, found .nan, which YAML reads as NaN ("not a number"): not a number agent.headers.X-Trace accepts`,
    ]);
    expect(r.errors[0]?.fix).toBe('write a number in place of .nan, or put the value in quotes: X-Trace: ".nan"');
  });
});
