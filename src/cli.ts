#!/usr/bin/env node
// CLI entry: the only process.exit in the project.
import { main } from './cli/main.js';
import { tuneRuntime } from './runtime.js';

tuneRuntime();

const code = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  isTTY: process.stderr.isTTY === true,
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
