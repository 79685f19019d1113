#!/usr/bin/env node
// CLI entry: the only process.exit in the project.
import { setFlagsFromString } from 'node:v8';
import { main } from './cli/main.js';

// undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimizing
// tier on background threads, and the process waits for that at exit: ~200 ms of every short run
// for no gain (responses are small). The baseline compiler alone is plenty.
setFlagsFromString('--liftoff-only');

const code = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  isTTY: process.stderr.isTTY === true,
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
