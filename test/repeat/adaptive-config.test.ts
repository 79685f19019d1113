// Adaptive attempts' settings (docs/statistics.md, "Adaptive attempts"): repeat.max in config.yml, a
// fixture and a script, checked with every error at once (file:line and the fix), and the run's
// --repeat / --repeat-max applied to every item's repeat.
import { describe, expect, it } from 'vitest';
import { C, F, load } from '../suite/helpers.js';
import { attemptsAtMost, itemRepeat, moreAttemptsFor, policyOf, runRepeat } from '../../src/evaluate/finish.js';

const P = '.agent-replay/personas';
const SCRIPT = (label: string, extra = ''): string => `label: ${label}\nopening: hi\nexpect:\n  conversations: [refunds]\n${extra}`;

describe('repeat.max', () => {
  it('is read in config.yml, on a fixture and on a script; max equal to count is no adaptivity', async () => {
    const r = await load({
      [C]: 'repeat:\n  count: 3\n  minPass: 2\n  max: 10\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 5, max: 20 }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat: { count: 4, max: 4 }\n',
      [`${P}/s.yml`]: SCRIPT('s', 'repeat: { count: 1, max: 6 }\n'),
    });
    expect(r.errors).toEqual([]);
    expect(r.suite?.config.repeat).toEqual({ count: 3, minPass: 2, max: 10 });
    const byLabel = new Map(r.suite!.fixtures.map((f) => [f.label, f]));
    expect(byLabel.get('a')!.repeat).toEqual({ count: 5, minPass: 5, max: 20 });
    expect(byLabel.get('b')!.repeat).toEqual({ count: 4, minPass: 4 });
    expect(r.suite!.personas[0]!.repeat).toEqual({ count: 1, minPass: 1, max: 6 });
  });

  it('bad values: every error at once, with file, line and the fix', async () => {
    const r = await load({
      [C]: 'repeat:\n  count: 3\n  max: 2\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat:\n  count: 3\n  max: 25\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat:\n  count: 0\n  max: 2.5\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nrepeat:\n  count: 3\n  minPass: 4\n  max: 1\n',
      [`${P}/s.yml`]: SCRIPT('s', 'repeat:\n  count: 2\n  max: 0\n'),
    });
    expect(r.suite).toBeNull();
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message} | ${e.fix}`)).toEqual([
      `${C}:3: repeat.max 2 is not a whole number from count (3) to 20 | use max: 10, or remove max (no extra attempts)`,
      `${F}/a.yml:5: fixture "a": repeat.max 25 is not a whole number from count (3) to 20 | use max: 20 or fewer (each attempt is a full replay and is paid for)`,
      `${F}/b.yml:4: fixture "b": repeat.count 0 is not a whole number from 1 to 20 | use e.g. count: 3`,
      `${F}/b.yml:5: fixture "b": repeat.max 2.5 is not a whole number from count to 20 | use e.g. max: 10`,
      `${F}/c.yml:5: fixture "c": repeat.minPass 4 is not a whole number from 1 to count (3) | use minPass: 3, or raise count`,
      `${F}/c.yml:6: fixture "c": repeat.max 1 is not a whole number from count (3) to 20 | use max: 10, or remove max (no extra attempts)`,
      `${P}/s.yml:7: persona script "s": repeat.max 0 is not a whole number from count (2) to 20 | use max: 10, or remove max (no extra attempts)`,
    ]);
  });

  it('a max that is not a number is the schema error, named with its line', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat:\n  count: 3\n  max: many\n' });
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message}`)).toEqual([`${F}/a.yml:5: fixture "a": repeat.max must be a number, found the string "many"`]);
  });
});

describe('--repeat and --repeat-max', () => {
  it('are checked with the other flags: ranges, and max not below count', async () => {
    const bad = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\n' }, { overrides: { repeat: 21, repeatMax: 0 } });
    expect(bad.errors.map((e) => e.message)).toEqual(['--repeat must be a whole number from 1 to 20, got 21', '--repeat-max must be a whole number from 1 to 20, got 0']);
    const below = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\n' }, { overrides: { repeat: 5, repeatMax: 3 } });
    expect(below.errors.map((e) => `${e.message} | ${e.fix}`)).toEqual(['--repeat-max 3 is below --repeat 5 | pass --repeat-max 5 or more, or a smaller --repeat']);
    const ok = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\n' }, { overrides: { repeat: 3, repeatMax: 10 } });
    expect(ok.errors).toEqual([]);
    expect(ok.suite!.config.repeatFlags).toEqual({ count: 3, max: 10 });
  });

  it("apply to every item's repeat: count N keeps minPass's fraction (rounded up), max never below count", () => {
    const flags = (repeatFlags: { count?: number; max?: number }, repeat: { count: number; minPass: number; max?: number } | null = null) =>
      policyOf({ repeat, repeatFlags });
    // No repeat configured: every attempt must pass.
    expect(itemRepeat({}, flags({ count: 10 }))).toEqual({ count: 10, minPass: 10 });
    // 2 of 3 becomes 7 of 10 (two thirds of 10, rounded up); max 10 kept.
    expect(itemRepeat({}, flags({ count: 10 }, { count: 3, minPass: 2, max: 10 }))).toEqual({ count: 10, minPass: 7 });
    expect(itemRepeat({}, flags({ count: 5 }, { count: 3, minPass: 2, max: 10 }))).toEqual({ count: 5, minPass: 4, max: 10 });
    expect(itemRepeat({}, flags({ count: 12 }, { count: 3, minPass: 3, max: 10 }))).toEqual({ count: 12, minPass: 12 });
    // An item's own repeat is resolved first, then the flags.
    expect(itemRepeat({ repeat: { count: 4, minPass: 1 } }, flags({ max: 10 }, { count: 3, minPass: 3 }))).toEqual({ count: 4, minPass: 1, max: 10 });
    expect(itemRepeat({ repeat: { count: 6, minPass: 6 } }, flags({ max: 3 }))).toEqual({ count: 6, minPass: 6 });
    expect(itemRepeat({}, flags({ count: 3, max: 10 }))).toEqual({ count: 3, minPass: 3, max: 10 });
  });

  it('--repeat below a configured count without max makes that many attempts, none extra (a count is never read as a max)', () => {
    // config.yml `repeat: {count: 5, minPass: 3}` run with `--repeat 1`: 1 attempt needing 1 pass, not
    // adaptive up to 5, so the estimate counts 1 attempt and the item is tested at alpha (1 look), not alpha / 5.
    const policy = policyOf({ repeat: { count: 5, minPass: 3 }, repeatFlags: { count: 1 } });
    expect(itemRepeat({}, policy)).toEqual({ count: 1, minPass: 1 });
    expect(itemRepeat({ repeat: { count: 5, minPass: 5 } }, policyOf({ repeat: null, repeatFlags: { count: 2 } }))).toEqual({ count: 2, minPass: 2 });
    const baseline5of5 = { verdict: 'pass', attempts: { passed: 5, total: 5 } } as unknown as Parameters<typeof attemptsAtMost>[1];
    expect(attemptsAtMost({}, baseline5of5, policy)).toBe(1);
    // A failing attempt against 5 of 5 gets no more: nothing but --repeat-max or repeat.max asks for extra attempts.
    expect(moreAttemptsFor({}, [{ errored: false, verdict: 'fail' }], baseline5of5, policy)).toBe(0);
    // A configured max still stands, as does --repeat-max.
    expect(itemRepeat({}, policyOf({ repeat: { count: 5, minPass: 3, max: 10 }, repeatFlags: { count: 1 } }))).toEqual({ count: 1, minPass: 1, max: 10 });
    expect(itemRepeat({}, policyOf({ repeat: { count: 5, minPass: 3 }, repeatFlags: { count: 1, max: 4 } }))).toEqual({ count: 1, minPass: 1, max: 4 });
  });

  it("are kept in the run's record with the repeat an item without its own ran with (docs/results-json.md, `repeat`)", () => {
    expect(runRepeat(policyOf({}), [])).toEqual({ count: 1, minPass: 1 });
    expect(runRepeat(policyOf({ repeat: { count: 3, minPass: 2, max: 10 } }), [{ repeat: { count: 5, minPass: 5 } }])).toEqual({ count: 3, minPass: 2, max: 10 });
    expect(runRepeat(policyOf({ repeat: { count: 3, minPass: 2 }, repeatFlags: { count: 5 } }), [{}])).toEqual({ count: 5, minPass: 4, flags: { count: 5, changed: 0 } });
    expect(runRepeat(policyOf({ repeatFlags: { count: 3, max: 10 } }), [])).toEqual({ count: 3, minPass: 3, max: 10, flags: { count: 3, max: 10, changed: 0 } });
  });

  it("count the items whose own repeat the flags changed, by which a merge tells shards run alike (docs/action.md, \"Shards\")", () => {
    // --repeat 3 beside config.yml's repeat: 3 changes an item without its own nothing, nor one whose own is 3 attempts.
    const policy = policyOf({ repeat: { count: 3, minPass: 2 }, repeatFlags: { count: 3 } });
    expect(runRepeat(policy, [{}, { repeat: { count: 3, minPass: 2 } }])).toEqual({ count: 3, minPass: 2, flags: { count: 3, changed: 0 } });
    // An item's own 5 attempts (made 3), or its own adaptive max (kept by --repeat, replaced by --repeat-max), are changed.
    expect(runRepeat(policy, [{}, { repeat: { count: 5, minPass: 5 } }, { repeat: { count: 3, minPass: 2, max: 9 } }]).flags).toEqual({ count: 3, changed: 1 });
    expect(runRepeat(policyOf({ repeatFlags: { max: 6 } }), [{ repeat: { count: 3, minPass: 2, max: 9 } }, { repeat: { count: 2, minPass: 1 } }]).flags).toEqual({ max: 6, changed: 2 });
  });
});
