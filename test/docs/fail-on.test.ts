// docs/cli.md, "The gate and the exit status", and the Action's `fail-on` input (docs/action.md)
// name every condition `--fail-on` accepts (src/types/gate.ts): a condition the CLI takes but the
// docs leave out is one a user cannot find.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAIL_ON_CONDITIONS } from '../../src/types.js';
import { parseFailOn } from '../../src/evaluate/gate.js';

const doc = (name: string): string => readFileSync(resolve(import.meta.dirname, '../../docs', name), 'utf8');

describe('the fail-on conditions in the docs', () => {
  it("docs/cli.md's gate list and the Action's fail-on input name every condition", () => {
    const cli = doc('cli.md');
    const gate = cli.slice(cli.indexOf('## The gate and the exit status'), cli.indexOf('## Interrupted runs'));
    const list = gate.slice(gate.indexOf('- `--fail-on` is'), gate.indexOf('- The terminal summary'));
    const input = doc('action.md').split('\n').find((l) => l.startsWith('| `fail-on` |')) ?? '';
    for (const c of FAIL_ON_CONDITIONS) {
      expect(list, `docs/cli.md: ${c}`).toContain(`\`${c}\``);
      expect(input, `docs/action.md: ${c}`).toContain(c);
    }
  });

  it('a condition written with dashes (newly-failing, as the Action\'s outputs are named) is taken, and both docs say so', () => {
    expect(parseFailOn('newly-failing, not-evaluated', FAIL_ON_CONDITIONS)).toEqual(['newly_failing', 'not_evaluated']);
    const cli = doc('cli.md');
    const gate = cli.slice(cli.indexOf('## The gate and the exit status'), cli.indexOf('## Interrupted runs'));
    expect(gate.slice(gate.indexOf('- `--fail-on` is'), gate.indexOf('- The terminal summary'))).toContain('`--fail-on newly-failing`');
    expect(doc('action.md').split('\n').find((l) => l.startsWith('| `fail-on` |'))).toContain('newly-failing');
  });
});
