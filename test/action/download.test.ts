// The results artifact read back (src/action/download.ts) from the fake GitHub, whose requests are
// checked against GitHub's OpenAPI description: an archive larger than the 256 MB its entries may
// inflate to is refused by its listed size before it is downloaded, and a download that passes
// the cap (the listing was wrong) is stopped there (docs/action.md, "Accept: the label commits
// the reviewed replies").

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadRunRecord } from '../../src/action/download.js';
import { MAX_TOTAL_BYTES } from '../../src/action/zip.js';
import { startHarness, type Harness } from '../github/helpers.js';
import { artifactZip } from '../support/zip.js';

const O = 'octo';
const R = 'shop';
const RUN = 77;
const NAME = 'agent-replay-results';

let h: Harness | undefined;
afterEach(async () => {
  await h?.gh.close();
  h = undefined;
});

const zipRequests = (harness: Harness): string[] => harness.gh.requests.map((r) => r.path).filter((p) => p.includes('/zip') || p.includes('/_fake/blobs/'));

describe('downloadRunRecord: the archive is bounded before it is held', () => {
  it('an artifact listed above 256 MB is refused without downloading it', async () => {
    h = await startHarness();
    h.gh.addArtifact(O, R, RUN, { name: NAME, zip: Buffer.from('not downloaded'), listedSize: MAX_TOTAL_BYTES + 1 });
    const d = await downloadRunRecord(h.api, { owner: O, repo: R, runId: RUN, artifact: NAME, checkRun: false });
    expect(d).toEqual({ kind: 'unreadable', detail: 'the archive is too large (268,435,457 bytes listed, at most 268,435,456)' });
    expect(zipRequests(h)).toEqual([]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('exactly at the cap is downloaded and read', async () => {
    h = await startHarness();
    const zip = await artifactZip([{ name: 'a.txt', data: 'no results here' }, { name: 'b.txt', data: 'nor here' }]);
    const a = h.gh.addArtifact(O, R, RUN, { name: NAME, zip });
    const d = await downloadRunRecord(h.api, { owner: O, repo: R, runId: RUN, artifact: NAME, checkRun: false, maxZipBytes: zip.length });
    expect(d).toEqual({ kind: 'no_results' });
    expect(zipRequests(h)).toEqual([`/repos/${O}/${R}/actions/artifacts/${a.id}/zip`, `/_fake/blobs/artifacts/${a.id}.zip`]);
  });

  it('a download longer than listed, by its Content-Length, is refused unread', async () => {
    h = await startHarness();
    const zip = await artifactZip([{ name: 'results.json', data: randomBytes(5000) }]);
    h.gh.addArtifact(O, R, RUN, { name: NAME, zip, listedSize: 100 });
    const d = await downloadRunRecord(h.api, { owner: O, repo: R, runId: RUN, artifact: NAME, checkRun: false, maxZipBytes: 1000 });
    expect(d).toEqual({ kind: 'unreadable', detail: 'the archive is larger than its listed 100 bytes (over 1,000 bytes, at most 1,000 are read)' });
    expect(h.gh.violations).toEqual([]);
  });

  it('a download without a length that never ends is read up to the cap, then stopped', async () => {
    h = await startHarness();
    const zip = await artifactZip([{ name: 'results.json', data: '{}' }]);
    const a = h.gh.addArtifact(O, R, RUN, { name: NAME, zip, listedSize: zip.length, endless: true });
    const d = await downloadRunRecord(h.api, { owner: O, repo: R, runId: RUN, artifact: NAME, checkRun: false, maxZipBytes: 1024 * 1024 });
    expect(d).toEqual({ kind: 'unreadable', detail: `the archive is larger than its listed ${zip.length} bytes (over 1,048,576 bytes, at most 1,048,576 are read)` });
    // One try: stopping is not a failure that is retried.
    expect(zipRequests(h)).toEqual([`/repos/${O}/${R}/actions/artifacts/${a.id}/zip`, `/_fake/blobs/artifacts/${a.id}.zip`]);
    expect(h.gh.violations).toEqual([]);
  });
});
