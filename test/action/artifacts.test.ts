// The results artifact's upload through @actions/artifact, against a loopback artifact service
// (its twirp API and a blob store that accepts what is put). The library logs through its own
// @actions/core, not through the Action's guard: what it prints is read with the rules of GitHub's
// runner (test/support/runner-commands.ts), and a name or a path it would print as a workflow
// command is refused before it is given one (src/action/artifacts.ts).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { githubArtifactStore } from '../../src/action/artifacts.js';
import { runnerCommands } from '../support/runner-commands.js';
import { tempDir } from '../support/temp.js';

let server: Server;
let url: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push(`${req.method} ${path}`);
      const json = (body: unknown): void => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (path === '/twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact') json({ ok: true, signed_upload_url: `${url}/blob/artifact.zip` });
      else if (path === '/twirp/github.actions.results.api.v1.ArtifactService/FinalizeArtifact') json({ ok: true, artifact_id: '42' });
      else if (req.method === 'PUT' && path.startsWith('/blob/')) res.writeHead(201).end();
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** A runtime token as the runner gives one: a JWT whose scope names the run and the job (not verified by the client). */
const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
const TOKEN = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ scp: 'Actions.Results:run-backend-id:job-backend-id' })}.`;

/** The upload, with what it printed on stdout (where @actions/core writes the step's log). */
async function upload(name: string, files: string[]): Promise<{ result: Awaited<ReturnType<ReturnType<typeof githubArtifactStore>['upload']>>; printed: string }> {
  // The library reads the runner's variables from process.env, as the Action's env is.
  const env = { ACTIONS_RUNTIME_TOKEN: TOKEN, ACTIONS_RESULTS_URL: `${url}/` };
  const saved = { ACTIONS_RUNTIME_TOKEN: process.env.ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL: process.env.ACTIONS_RESULTS_URL };
  Object.assign(process.env, env);
  const store = githubArtifactStore(env);
  let printed = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    return { result: await store.upload(name, files), printed };
  } finally {
    process.stdout.write = write;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The commands in `printed` that are not @actions/core's own debug lines. */
const commands = (printed: string): string[] => runnerCommands(printed).filter((c) => c.form === '##[' || c.name !== 'debug').map((c) => c.line);

it("uploads the Action's results artifact, and what @actions/artifact prints holds no workflow command", async () => {
  const dir = await tempDir('agent-replay-artifact-');
  await writeFile(join(dir, 'results.json'), '{}');
  const { result, printed } = await upload(`agent-replay-results-${'1'.repeat(40)}-attempt-2`, [join(dir, 'results.json')]);
  expect(result).toEqual({ kind: 'uploaded', name: `agent-replay-results-${'1'.repeat(40)}-attempt-2`, id: 42 });
  expect(printed).toContain(`Artifact agent-replay-results-${'1'.repeat(40)}-attempt-2 successfully finalized. Artifact ID 42`);
  expect(commands(printed)).toEqual([]);
});

it('refuses a name or a path @actions/artifact would print as a workflow command: nothing is sent, nothing printed', async () => {
  const dir = await tempDir('agent-replay-artifact-');
  await writeFile(join(dir, 'results.json'), '{}');
  const hostile = join(dir, 'x##[add-mask]secret');
  await mkdir(hostile);
  await writeFile(join(hostile, 'results.json'), '{}');
  const sent = requests.length;

  // Before the fix the library printed "Uploading artifact: ...##[add-mask]secret.zip", a mask command.
  const named = await upload('agent-replay-results-##[add-mask]secret', [join(dir, 'results.json')]);
  expect(commands(named.printed)).toEqual([]);
  expect(named.result).toEqual({
    kind: 'skipped',
    name: 'agent-replay-results-##[add-mask]secret',
    reason: `the artifact name "agent-replay-results-##[add-mask]secret" holds other characters than letters, digits, '.', '_' and '-': @actions/artifact writes it to the step's log as it is, where a workflow command could be read in it, so nothing was uploaded. This is a bug in agent-replay: please report it`,
  });
  const pathed = await upload('agent-replay-results-x', [join(hostile, 'results.json')]);
  expect(pathed.result).toMatchObject({ kind: 'skipped', reason: expect.stringContaining(`the path ${JSON.stringify(hostile)} holds "##[" or a line break`) });
  expect(named.printed + pathed.printed).toBe('');
  expect(requests.length).toBe(sent);
});
