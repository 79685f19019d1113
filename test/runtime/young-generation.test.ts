// The young generation's size (src/runtime.ts; docs/performance.md, "2026-12-07: the young
// generation's size"): it keeps the size the start left it at through a long synchronous stretch
// (a large suite's load), and grows to YOUNG_BYTES, no further, once the replay starts. V8's flags
// belong to the process, so a small entry that uses tuneRuntime and the replay's channel is bundled
// and run as a plain child process (not the CLI): it makes objects that survive in one synchronous
// stretch, says the replay starts, then makes more a little at a time, one event-loop turn each, as
// a replay does.
// Node 24's V8 may also shrink the young generation on its own (during the load, or after a full
// collection in the replay, then grow it back) and reports a few pages above its size for a moment
// while a scavenge runs (8.25-11 MB seen): so the probe samples the size at every turn, and the test
// asserts what the tuning decides (no growth in the load; YOUNG_BYTES reached, the next doubling
// never), not one reading at the end. Without the stop the replay reaches 32 MB on Node 20, 64 MB on
// Node 24.

import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { beforeAll, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

const PROBE = `
import { getHeapSpaceStatistics } from 'node:v8';
import { tuneRuntime, YOUNG_BYTES } from ${JSON.stringify(resolve('src/runtime.ts'))};
import { replayStarts } from ${JSON.stringify(resolve('src/replay/starts.ts'))};
const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const kept = [];
const seen = [];
// About 1 KB that survives.
const keep = (n) => { for (let i = 0; i < n; i++) kept.push(new Array(126).fill(i)); };
// Garbage first: the young generation's second half is in use from its first collection on.
for (let i = 0; i < 4096; i++) new Array(126).fill(i);
const out = { youngBytes: YOUNG_BYTES, atStart: young() };
tuneRuntime();
keep(24 * 1024);
out.afterLoad = young();
replayStarts.publish(1);
for (let turn = 0; turn < 64; turn++) {
  keep(512);
  await new Promise((r) => setImmediate(r));
  seen.push(young());
}
out.replayMax = Math.max(...seen);
out.kept = kept.length;
console.log(JSON.stringify(out));
`;

let probe: string;

beforeAll(async () => {
  const dir = await tempDir('agent-replay-young-');
  probe = join(dir, 'probe.mjs');
  await build({
    stdin: { contents: PROBE, resolveDir: process.cwd(), sourcefile: 'probe.mjs', loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: probe,
    target: 'node20',
    logLevel: 'error',
  });
});

it('keeps the start size through a synchronous load and grows to YOUNG_BYTES, no further, during the replay', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [probe], { encoding: 'utf8' });
  const out = JSON.parse(stdout) as { youngBytes: number; atStart: number; afterLoad: number; replayMax: number; kept: number };
  expect(out.kept).toBe(24 * 1024 + 64 * 512);
  // A plain node start leaves the young generation below the replay's size, or this test shows nothing.
  expect(out.atStart).toBeLessThan(out.youngBytes);
  // 24 MB that survive, in one stretch: left alone, V8 would have grown it several times over.
  expect(out.afterLoad).toBeLessThanOrEqual(out.atStart);
  expect(out.replayMax).toBeGreaterThanOrEqual(out.youngBytes);
  expect(out.replayMax).toBeLessThan(2 * out.youngBytes);
});
