// `fail-on: meaning_changed` through the real CLI (docs/semantics.md#the-gate): `report` over a
// recorded run exits 1 when an item changed in meaning, 0 when the replies only reworded or the
// meaning was not checked; the terminal shows the Reworded section.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../support/temp.js';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/types.js';
import { meaningRun } from '../report/meaning-fixtures.js';
import { cli, useCleanup } from './helpers.js';

useCleanup();

async function write(record: RunRecord): Promise<string> {
  const dir = await tempDir('ar-meaning-');
  await writeFile(join(dir, 'results.json'), JSON.stringify(record));
  return dir;
}

describe('fail-on meaning_changed', () => {
  it('is met by a run with items changed in meaning, and names them', async () => {
    const cwd = await write(meaningRun());
    const r = await cli(['report', '--results', 'results.json', '--fail-on', 'newly_failing,meaning_changed'], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('changed in meaning');
    expect(r.stderr).toContain('refund-window');
    expect(r.stdout).toContain('Reworded (4)');
    // `report` applies the gate before it renders: the line under the headline names what fails it.
    expect(r.stdout).toContain('\n  The check fails (fail-on meaning_changed): 3 items (2 fixtures, 1 persona script) changed in meaning (refund-window, receipt-needed, refund-dialog)\n');
  });

  it('is not met when the replies were only reworded or their meaning was not checked', async () => {
    const all = meaningRun();
    const quiet: RunRecord = { ...all, fixtures: all.fixtures.filter((f) => !['refund-window', 'receipt-needed'].includes(f.label)), personas: all.personas.filter((p) => p.label !== 'refund-dialog') };
    const cwd = await write(quiet);
    const r = await cli(['report', '--results', 'results.json', '--fail-on', 'newly_failing,meaning_changed'], cwd);
    expect(r.stderr).not.toContain('gate failed');
    expect(r.code).toBe(0);
  });
});
