// The demo's example agent and demo judge (src/demo/server.ts, what `agent-replay demo` starts) on
// 127.0.0.1 with an ephemeral port, kept running until the process is stopped. The dogfood workflow
// (.github/workflows/dogfood.yml) starts it in the background and points the Action from the
// checkout at it; test/frameworks/local-action.test.ts does the same under @github/local-action.
//
//   node --import tsx scripts/demo-agent.ts OUT_FILE
//
// Once the server listens, OUT_FILE receives `agent-url=...` and `judge-base-url=...` lines (the
// format of $GITHUB_OUTPUT), written whole: a reader that sees the file sees both lines.
import { renameSync, writeFileSync } from 'node:fs';
import { startDemoServer } from '../src/demo/server.js';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: node --import tsx scripts/demo-agent.ts OUT_FILE\n');
  process.exit(2);
}
const server = await startDemoServer();
writeFileSync(`${out}.partial`, `agent-url=${server.agentUrl}\njudge-base-url=${server.judgeBaseUrl}\n`);
renameSync(`${out}.partial`, out);
process.stdout.write(`demo agent at ${server.agentUrl}, demo judge at ${server.judgeBaseUrl}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.close().then(() => process.exit(0)));
