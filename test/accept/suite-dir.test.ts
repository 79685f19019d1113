// Whether a record is a run of the suite it is accepted into (src/accept/suite-dir.ts): the record
// names its files from the folder it ran in, which it does not record.

import { describe, expect, it } from 'vitest';
import { foreignSuite } from '../../src/accept/suite-dir.js';

const record = (...files: string[]) => ({ fixtures: files.map((file) => ({ file })), personas: [] }) as unknown as Parameters<typeof foreignSuite>[0];

describe('foreignSuite', () => {
  it.each([
    // [the record's first file, --dir as given, the suite's absolute path, of this suite]
    ['.agent-replay/fixtures/f.yml', '.agent-replay', '/repo/.agent-replay', true],
    ['.agent-replay/fixtures/f.yml', '../.agent-replay', '/repo/.agent-replay', true],
    ['bots/shop/personas/p.yml', 'shop', '/repo/bots/shop', true],
    ['.agent-replay/fixtures/f.yml', '../bots/other', '/repo/bots/other', false],
    ['bots/shop/fixtures/f.yml', '../shop', '/repo/x/shop', false],
    ['agent-replay/fixtures/f.yml', '../.agent-replay', '/repo/.agent-replay', false],
    ['fixtures/f.yml', '../.agent-replay', '/repo/.agent-replay', false],
    ['../up/fixtures/f.yml', '../../up', '/up', false],
  ])('%s into --dir %s (%s): %s', (file, dir, path, same) => {
    expect(foreignSuite(record(file), dir, path) === null).toBe(same);
  });

  it('without the suite path, only the folder as given from here', () => {
    expect(foreignSuite(record('.agent-replay/fixtures/f.yml'), '../.agent-replay')).toEqual({ ranIn: '.agent-replay', first: '.agent-replay/fixtures/f.yml' });
  });
});
