// A fork's pull_request run gets no secrets, so a variable config.yml reads from one is empty: its
// fix says so (src/action/fork-secrets.ts; docs/troubleshooting.md, "The Action"). The loader's
// real issues, from a suite in a temp folder.

import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkSecretFixes } from '../../src/action/fork-secrets.js';
import { loadSuite } from '../../src/suite/index.js';
import { tempDir } from '../support/temp.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

describe("a fork's pull request with a variable its secret gives", () => {
  it('says the fork gets no secrets, with where a fork is checked with them; other errors as they are', async () => {
    const cwd = await tempDir('agent-replay-fork-secrets-');
    await mkdir(join(cwd, '.agent-replay', 'fixtures'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), 'agent:\n  url: https://agent.example/api/chat\n  headers: { Authorization: "Bearer ${AGENT_TOKEN}", X-Tenant: "${TENANT}" }\n');
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'a.yml'), 'label: a\nmessage: hi\n');
    const loaded = await loadSuite({ dir: '.agent-replay', cwd, env: { AGENT_TOKEN: '' } });
    const fixed = forkSecretFixes(loaded.errors);
    expect(fixed.map((e) => e.message)).toEqual(['environment variable AGENT_TOKEN is set but empty', 'environment variable TENANT is not set']);
    quotedAndSaid(fixed[0]!.message, 'environment variable <NAME> is set but empty');
    const quoted = "this pull request comes from a fork, and GitHub gives a fork's pull_request run none of the repository's secrets, so AGENT_TOKEN is empty whatever its secret holds";
    expect(fixed[0]!.fix).toContain(`${quoted}: check a fork's pull request on deployment_status, which runs with them (`);
    expect(readFileSync('docs/troubleshooting.md', 'utf8')).toContain(quoted.replace('AGENT_TOKEN', '<NAME>'));
    // Not set at all is no secret passed empty: as the loader says it.
    expect(fixed[1]).toEqual(loaded.errors[1]);
    expect(loaded.errors[0]!.fix).toContain('check that the secret it comes from exists');
  });
});
