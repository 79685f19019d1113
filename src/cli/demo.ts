// `agent-replay demo` (and `npm start`): the embedded example agent and demo judge (demo/server.ts)
// on loopback, the example suite under examples/demo, end to end, with the report printed.

import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listAndMore, thousands } from '../words.js';
import { runCheck } from '../engine.js';
import { CONDITION_WORDS, DEFAULT_FAIL_ON, unverifiedCounts, type GateResult } from '../evaluate/index.js';
import { startDemoServer, DEMO_JUDGE_LABEL } from '../demo/server.js';
import { checkOutputFolder, emitRun, interruptedExit, printConfigIssues, progressPrinter, type CliIO } from './output.js';
import { UserError } from '../errors.js';
import { oneLine, terminalLine } from '../report/escape.js';

/**
 * The folder of this module: src/cli/ in development, dist/chunks/ when bundled (scripts/package.mjs:
 * dist/cli.js and its chunks), its links resolved. Not process.argv[1], the script started: under a
 * test runner that is the runner's, in a node_modules that may be another checkout's.
 */
function moduleDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  try {
    return realpathSync(here);
  } catch {
    return here;
  }
}

/** Finds examples/demo/.agent-replay above this module (dist/ when bundled, src/ in development). */
export function findDemoSuite(from: string = moduleDir()): string {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, 'examples', 'demo', '.agent-replay');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new UserError('the demo suite (examples/demo/.agent-replay) is missing from this installation; reinstall agent-replay');
    dir = parent;
  }
}

/** `suite`: the demo suite's folder (a test's copy); by default the installation's (findDemoSuite). */
export async function runDemo(options: { out: string | null; suite?: string }, io: CliIO): Promise<number> {
  const suiteDir = options.suite ?? findDemoSuite();
  if (options.out) checkOutputFolder(options.out, io);
  const outDir = options.out ? resolve(io.cwd, options.out) : await mkdtemp(join(tmpdir(), 'agent-replay-demo-'));
  const server = await startDemoServer();
  try {
    io.stdout(`agent-replay demo: example agent at ${server.agentUrl}, ${DEMO_JUDGE_LABEL} at ${server.judgeBaseUrl}\n`);
    // The installation's folder, whatever its name holds: a control character shown as an escape (docs/security.md, "Agent text is data").
    io.stdout(`suite: ${terminalLine(suiteDir)}\n\n`);
    // Run from the example project's root (examples/demo), as a real run from a repository's root:
    // its files then read ".agent-replay/fixtures/store.yml" in every part of the report, wherever
    // the demo was started (docs/cli.md, "demo"); relative to the working folder they read
    // "../../.npm/_npx/.../examples/demo/.agent-replay/fixtures/store.yml".
    const result = await runCheck(
      {
        dir: basename(suiteDir),
        cwd: dirname(suiteDir),
        env: io.env,
        overrides: { agentUrl: server.agentUrl, judge: { baseUrl: server.judgeBaseUrl } },
        confirmCost: false,
        failOn: DEFAULT_FAIL_ON,
        commit: null,
      },
      { onProgress: progressPrinter(io), signal: io.signal, ...io.engine },
    );
    if (result.kind === 'config_errors') {
      // As every command says them: each name they quote shown, never sent to the terminal.
      printConfigIssues(io, result.errors, []);
      return 2;
    }
    if (result.kind === 'refused') {
      throw new Error(`the demo suite is above its cost cap (${result.estimate.usd} > ${result.estimate.capUsd})`);
    }
    const written = await emitRun(result.record, { out: join(outDir, 'results.json'), markdown: join(outDir, 'report.md'), junit: join(outDir, 'junit.xml'), html: join(outDir, 'report.html') }, io);
    if (result.record.interrupted) return interruptedExit(result.record, result.suite, io);
    if (!written) return 2;
    io.stdout(closingWords(result.gate, suiteDir));
    return 0;
  } finally {
    await server.close();
  }
}

/**
 * The demo's last words (docs/cli.md, "demo"): what the default gate would do with a real run like
 * it, one line per condition met with its items, no brackets inside brackets. The cause of the
 * items not verified is said once, at the top of the summary.
 */
export function closingWords(gate: GateResult, suiteDir: string): string {
  const lines = [
    '',
    `The demo shows every verdict and drift value on purpose, for fixtures and persona scripts alike; the comments in its files say why: ${terminalLine(suiteDir)}`,
    `With the default gate, --fail-on ${DEFAULT_FAIL_ON.join(',')}, a real run would exit ${gate.failed ? '1:' : '0.'}`,
  ];
  if (gate.failed) {
    for (const o of gate.offenders) {
      if (o.condition === 'unverified') continue;
      lines.push(`  ${thousands(o.labels.length)} ${CONDITION_WORDS[o.condition]}: ${listAndMore(o.labels, 5, oneLine)}`);
    }
    const unverified = unverifiedCounts(gate.verification);
    if (gate.offenders.some((o) => o.condition === 'unverified') || gate.verification.interrupted || gate.verification.incomplete) {
      lines.push(`  not verified: ${unverified.join(', ')}`);
    }
  }
  lines.push('The demo itself exits 0.');
  return `${lines.join('\n')}\n`;
}
