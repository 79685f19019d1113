import { describe, expect, it } from 'vitest';
import { C, F, load } from '../suite/helpers.js';
import { editsAllowed, suggest } from '../../src/suite/issues.js';
import { closest } from '../../src/cli/options.js';

const P = '.agent-replay/personas';
const SCRIPT = (label: string, extra = ''): string => `label: ${label}\nopening: hi\nexpect:\n  conversations: [refunds]\n${extra}`;

describe('repeat: config.yml and per item', () => {
  it('global repeat applies to the config; per-item repeat is on the item; minPass defaults to count', async () => {
    const r = await load({
      [C]: 'repeat:\n  count: 3\n  minPass: 2\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat: { count: 5 }\n',
      [`${P}/s.yml`]: SCRIPT('s', 'repeat: { count: 2, minPass: 1 }\n'),
    });
    expect(r.errors).toEqual([]);
    expect(r.suite?.config.repeat).toEqual({ count: 3, minPass: 2 });
    const byLabel = new Map(r.suite!.fixtures.map((f) => [f.label, f]));
    expect(byLabel.get('a')!.repeat).toBeUndefined();
    expect(byLabel.get('b')!.repeat).toEqual({ count: 5, minPass: 5 });
    expect(r.suite!.personas[0]!.repeat).toEqual({ count: 2, minPass: 1 });
  });

  it('no repeat anywhere: nothing is set', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: a\nmessage: hi\n' });
    expect(r.suite?.config.repeat).toBeUndefined();
    expect('repeat' in r.suite!.fixtures[0]!).toBe(false);
  });

  it('bad values are errors with file, line and the fix', async () => {
    const r = await load({
      [C]: 'repeat:\n  count: 50\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat:\n  count: 3\n  minPass: 4\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat:\n  count: 0\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nrepeat:\n  count: 2.5\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nrepeat:\n  cont: 2\n',
      [`${F}/e.yml`]: 'label: e\nmessage: hi\nrepeat: 3\n',
      [`${P}/s.yml`]: SCRIPT('s', 'repeat:\n  count: 2\n  minPass: 0\n'),
    });
    expect(r.suite).toBeNull();
    expect(r.errors.map((e) => `${e.file}:${e.line}: ${e.message} | ${e.fix}`)).toEqual([
      `${C}:2: repeat.count 50 is not a whole number from 1 to 20 | use count: 20 or fewer (each attempt is a full replay and is paid for)`,
      `${F}/a.yml:5: fixture "a": repeat.minPass 4 is not a whole number from 1 to count (3) | use minPass: 3, or raise count`,
      `${F}/b.yml:4: fixture "b": repeat.count 0 is not a whole number from 1 to 20 | use e.g. count: 3`,
      `${F}/c.yml:4: fixture "c": repeat.count 2.5 is not a whole number from 1 to 20 | use e.g. count: 3`,
      `${F}/d.yml:4: fixture "d": unknown key "cont" in repeat (and the required "count" is missing); allowed keys: count, minPass, max | did you mean "count"? rename the key, so that line 4 reads\n      count: 2`,
      `${F}/e.yml:3: fixture "e": repeat must be a mapping, found the number 3 | write it as repeat: { count: 3 } (3 attempts, every one must pass; add minPass to need fewer)`,
      `${P}/s.yml:7: persona script "s": repeat.minPass 0 is not a whole number from 1 to count (2) | use minPass: 1, or raise count`,
    ]);
  });

  it('names alpha for stats: { alfa }: a 5-letter key is found within two edits, one rule for every "did you mean" (suite/issues.ts, editsAllowed)', async () => {
    const r = await load({ [C]: 'stats:\n  alfa: 0.01\n' });
    expect(r.errors.filter((e) => e.file === C).map((e) => `${e.line}: ${e.fix}`)).toEqual(['2: did you mean "alpha"? rename the key, so that line 2 reads\n      alpha: 0.01']);
    // The same rule for the CLI's hints; a 4-letter word stays at one edit, so two edits never name another 4-letter key.
    expect(suggest('alfa', ['alpha'])).toBe('alpha');
    expect(closest('alfa', ['alpha'])).toBe('alpha');
    expect(suggest('data', ['path'])).toBeNull();
    expect(editsAllowed('alfa', 'alpha')).toBe(2);
    expect(editsAllowed('url', 'uri')).toBe(1);
  });
});
