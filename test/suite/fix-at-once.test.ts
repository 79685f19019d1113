// Bad input whose fix is said whole, at once: no fix leads to the next error, and what the fix
// says is a value the setting takes (docs/troubleshooting.md, "Configuration errors").

import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { C, F, OK_FIXTURE, load } from './helpers.js';

describe('a quoted number: the checks read it as the number its fix writes', () => {
  it('repeat: { count: "3", minPass: 5 } says both at once, in config.yml, a fixture and a persona script', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: "3", minPass: 5 }\n',
      ['.agent-replay/personas/s.yml']: 'label: s\nopening: hi\nexpect: { terminal: finish }\nrepeat: { count: "3", max: 2 }\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nrepeat: { count: "3", minPass: 5 }\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:3:18: repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `${C}:3:32: repeat.minPass 5 is not a whole number from 1 to count (3)\n  fix: use minPass: 3, or raise count`,
      `${F}/a.yml:3:18: fixture "a": repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `${F}/a.yml:3:32: fixture "a": repeat.minPass 5 is not a whole number from 1 to count (3)\n  fix: use minPass: 3, or raise count`,
      `.agent-replay/personas/s.yml:4:18: persona script "s": repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `.agent-replay/personas/s.yml:4:28: persona script "s": repeat.max 2 is not a whole number from count (3) to 20\n  fix: use max: 10, or remove max (no extra attempts)`,
    ]);
  });

  it('a quoted number whose number is fine is said once; one the setting does not take as a number is still left to its own error', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nrepeat: { count: "3", minPass: 2 }\njudge:\n  concurrency: "0"\n' });
    expect(r.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '3: repeat.count must be a number, found the string "3"',
      '5: judge.concurrency must be a number, found the string "0"',
    ]);
  });
});
