// A pull request's agent (and a judge) that echo the workflow's secrets back (docs/security.md,
// "Secrets"): the agent-headers input's value and the judge-api-key, sent as they are, come back
// in a reply, an error body, a route and a rationale, plain, URL-encoded and in base64. Check mode
// runs in process against the fake GitHub: no surface it writes (the comment, the job summary, the
// log but its own masks, the files under the workspace, results.json among them) holds them.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer } from '../support/agent-server.js';
import { startServer, type Received } from '../judge/server.js';
import { actionContextOf, gitHubApiOf, makeWorkspace, pullPayload, useServers } from './harness.js';
import { checkMode } from '../../src/action/check.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';

const HEADER = 'hdr-SECRET-abcdef0123456789';
const JUDGE_KEY = 'sk-judge-SECRET-0123456789abc';
const forms = (s: string): string[] => [s, encodeURIComponent(JSON.stringify(s)), Buffer.from(s).toString('base64')];

let gh: FakeGitHub;
let agent: AgentServer;
useServers(
  (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    const h = (req.headers as Record<string, string>)['x-api-key'] ?? '';
    if (body.start === true) return { json: { reply: 'Welcome', route: null, ended: false } };
    if (body.message === 'fail') return { status: 403, body: `bad key ${h}` };
    return { json: { reply: `echo ${forms(h).join(' ')}`, route: { conversation: h, stage: 'answer' }, ended: false } };
  },
  () => {},
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

it('an agent and a judge that echo the agent-headers and judge-api-key inputs: none of them is written anywhere', async () => {
  const judge = await startServer([
    (res, req: Received) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: `auth ${String(req.headers?.authorization)}`, score: 0.9 }) } }] }));
    },
  ]);
  const ws = await makeWorkspace({
    fixtures: 'fixtures:\n  - { label: a, message: one, assert: { judge: "fine" } }\n  - { label: b, message: fail }\n',
    config: `judge: { provider: openai, baseUrl: "${judge.url}", model: m, retries: 0 }\ncost: { capUsd: 5 }\n`,
  });
  writeFileSync(join(ws, 'outputs.txt'), '');
  writeFileSync(join(ws, 'summary.md'), '');
  vi.stubEnv('GITHUB_OUTPUT', join(ws, 'outputs.txt'));
  vi.stubEnv('GITHUB_STEP_SUMMARY', join(ws, 'summary.md'));
  let logged = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => {
    logged += String(t);
    return true;
  });
  gh.addPull('octo', 'shop', { number: 7, headSha: '1'.repeat(40), headRef: 'feature' });
  const inputs = readInputs(
    envInputGetter({ INPUT_MODE: 'check', 'INPUT_AGENT-URL': agent.url, 'INPUT_AGENT-HEADERS': `X-Api-Key: ${HEADER}`, 'INPUT_JUDGE-API-KEY': JUDGE_KEY, 'INPUT_FAIL-ON': 'none', 'INPUT_GITHUB-TOKEN': gh.token }),
  );
  const deps = { env: {}, cwd: ws, github: gitHubApiOf(gh), artifacts: { upload: async (name: string) => ({ kind: 'skipped' as const, name, reason: 'not here' }) } };
  const exitCode = process.exitCode;
  try {
    await checkMode(inputs, await actionContextOf('pull_request', pullPayload(), { GITHUB_RUN_ID: '3003', GITHUB_WORKFLOW: 'ci' }), deps);
  } finally {
    process.exitCode = exitCode;
    vi.restoreAllMocks();
  }
  const comment = gh.comments('octo', 'shop', 7)[0]?.body ?? '';
  // The echoes are there, redacted: the reply, the error body and the judge's rationale.
  expect(comment).toContain('echo *** %22***%22 ***');
  expect(comment).toContain('bad key ***');
  expect(comment).toContain('auth Bearer ***');
  expect(readFileSync(join(ws, 'summary.md'), 'utf8')).toContain('bad key ***');
  // The log's own masks (::add-mask::) name them for the runner to hide; no other line does.
  const log = logged.split('\n').filter((l) => !l.startsWith('::add-mask::'));
  expect(log.join('\n')).toContain('errored');
  const surfaces = [log.join('\n'), comment, ...filesUnder(ws).map((f) => readFileSync(f, 'utf8'))];
  expect(surfaces.some((s) => s.includes('"schemaVersion"'))).toBe(true);
  for (const s of surfaces) for (const secret of [...forms(HEADER), ...forms(JUDGE_KEY)]) expect(s).not.toContain(secret);
  expect(gh.violations).toEqual([]);
}, 60000);
