// `npm run test:frameworks`: agent-replay against the real frameworks (test/frameworks/, with its
// own package.json and lock so the main dev install stays lean). Installs that folder with
// `npm ci` when its node_modules is missing or older than its lock, then typechecks it and runs its tests with the
// root's vitest and test/frameworks/vitest.config.ts. Extra arguments go to vitest (a file filter).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const dir = 'test/frameworks';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const marker = `${dir}/node_modules/.package-lock.json`;
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(`${dir}/package-lock.json`).mtimeMs) {
  execFileSync(npm, ['ci', '--prefix', dir, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}
try {
  // Typecheck against the real frameworks' types (the root typecheck leaves this folder out).
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${dir}/tsconfig.json`, '--noEmit'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', `${dir}/vitest.config.ts`, ...process.argv.slice(2)], { stdio: 'inherit' });
} catch (e) {
  process.exitCode = typeof e.status === 'number' ? e.status : 1;
}
