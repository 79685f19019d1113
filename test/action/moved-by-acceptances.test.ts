// The accept flow's reading of a head moved by other suites' baseline commits (docs/action.md, "Two
// suites in one repository"), at module level against the fake GitHub (no Action child): a file in
// a `baselines` folder is another suite's only when its folder holds what a suite holds at the head
// (a config.yml or config.yaml, a fixtures or personas folder), whatever the commit's message says.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movedByAcceptances } from '../../src/action/accept.js';
import { startHarness, type Harness } from '../github/helpers.js';

const HEAD = '1'.repeat(40);
const SALES = 'apps/sales/.agent-replay';
const ctx = { owner: 'octo', repo: 'shop' };
const found = { headSha: HEAD, runId: 1001 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ retries: 0 });
});
afterAll(async () => {
  await h.gh.close();
});

/** The branch at the reviewed head, then one commit on top that reads as the acceptance of `label` for the suite in `folder` and writes its baseline. */
function acceptedOnTop(branch: string, files: Record<string, string>, folder: string, label: string, oid: string): void {
  h.gh.setBranch('octo/shop', branch, HEAD, { [`${SALES}/config.yml`]: 'agent:\n  retries: 0\n', ...files });
  h.gh.pushOnTop('octo/shop', branch, oid, `Accept agent-replay baselines: ${label}`, {
    body: `Accepted the replies recorded at ${HEAD} (workflow run 1001) for the suite in ${folder}:\n\n- ${label} (pass)`,
    files: { [`${folder}/baselines/${label}.json`]: '{"label":"x"}\n' },
  });
}

describe('movedByAcceptances: a baselines folder of no suite', () => {
  it('refuses a folder that holds no config.yml or config.yaml, fixtures or personas folder at the head (a file named fixtures is no folder), naming the file and the folder', async () => {
    const oid = '5'.repeat(40);
    acceptedOnTop('notes-branch', { 'notes/fixtures': 'not a folder\n', 'notes/readme.md': '# notes\n' }, 'notes', 'system', oid);
    expect(await movedByAcceptances(h.api, ctx, found, oid, SALES, SALES)).toEqual({
      byOthers: false,
      ours: null,
      why: "the commits on top of it read as baseline commits, but they change notes/baselines/system.json, which is not another suite's baseline (notes holds no config.yml or config.yaml, fixtures or personas folder at 5555555, so it is not a suite's folder)",
    });
  });

  it('takes a folder with a personas folder only (its settings from the inputs) as a suite', async () => {
    const oid = '6'.repeat(40);
    acceptedOnTop('bot-branch', { 'apps/bot/personas/refund.yml': 'label: refund\n' }, 'apps/bot', 'refund', oid);
    expect(await movedByAcceptances(h.api, ctx, found, oid, SALES, SALES)).toEqual({ byOthers: true, ours: null, why: null });
  });
});
