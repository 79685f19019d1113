// One measured replay, in its own process: the real engine (runCheck: load the suite, replay,
// evaluate) against the bench agent. Prints one JSON line on stdout for bench/run.ts.
//
//   node --import tsx bench/replay-child.ts <suiteDir> <agentUrl> <concurrency>
//
// wallMs runs from just before runCheck to just after it (suite loading included); replayMs is
// the record's own duration (replay only). maxRssKb is the process's peak resident set.

import { runCheck } from '../src/engine.js';
import { tuneRuntime } from '../src/runtime.js';

// The same V8 settings as the CLI's entry (src/cli.ts), so the figures are the CLI's.
tuneRuntime();

const [dir, agentUrl, concurrencyText] = process.argv.slice(2);
if (dir === undefined || agentUrl === undefined || concurrencyText === undefined) {
  process.stderr.write('usage: replay-child.ts <suiteDir> <agentUrl> <concurrency>\n');
  process.exit(2);
}

let peakSampledRss = 0;
const sampler = setInterval(() => {
  peakSampledRss = Math.max(peakSampledRss, process.memoryUsage.rss());
}, 50);
sampler.unref();

const rssBeforeKb = Math.round(process.memoryUsage.rss() / 1024);
const t0 = performance.now();
const result = await runCheck({
  dir,
  env: {},
  overrides: { agentUrl, concurrency: Number(concurrencyText) },
  confirmCost: true,
  failOn: [],
  commit: null,
});
const wallMs = performance.now() - t0;
clearInterval(sampler);

if (result.kind !== 'ran') {
  process.stdout.write(`${JSON.stringify({ error: `runCheck returned ${result.kind}`, detail: result.kind === 'config_errors' ? result.errors.slice(0, 3) : null })}\n`);
  process.exit(1);
}
const items: { errored: boolean; verdict: string | null }[] = [...result.record.fixtures, ...result.record.personas];
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    replayMs: result.record.durationMs,
    // Fixtures and persona scripts alike: one item each.
    fixtures: items.length,
    errored: items.filter((f) => f.errored).length,
    passed: items.filter((f) => !f.errored && f.verdict === 'pass').length,
    rssBeforeKb,
    maxRssKb: process.resourceUsage().maxRSS,
    sampledPeakRssKb: Math.round(peakSampledRss / 1024),
  })}\n`,
);
