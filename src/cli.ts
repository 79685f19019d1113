#!/usr/bin/env node
// CLI entry. On Node 22.1 and later, the code Node compiles for the CLI's modules is kept in Node's
// compile cache (in the system's temp folder), so a second start on the same machine does not
// compile them again: about a tenth of a start. Writing the cache costs a first start about as
// much, so it stays off where the CLI starts once on a fresh machine: in CI (the CI variable set,
// as GitHub Actions and other CI services set it). NODE_DISABLE_COMPILE_CACHE=1 turns it off
// anywhere (docs/performance.md, "2026-12-03: the compile cache"). The cache must be on before the
// modules load, hence the one dynamic import: everything else is src/cli/process.ts. Node 20 has
// no compile cache. A Node older than package.json's engines gets one line and exit 2 before
// anything loads (./node-version.ts).
import module from 'node:module';
import { nodeTooOld } from './node-version.js';

const tooOld = nodeTooOld(process.versions.node);
if (tooOld !== null) {
  process.stderr.write(`${tooOld}\n`);
  process.exitCode = 2;
} else {
  const ci = process.env.CI;
  if (ci === undefined || ci === '' || ci === 'false' || ci === '0') (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  await import('./cli/process.js');
}
