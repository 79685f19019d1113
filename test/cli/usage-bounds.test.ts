// Token counts an agent reports beyond what any turn spends (docs/latency.md, "Usage"), through the
// real CLI: ignored with the warning, so that results.json stays readable by accept.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

describe('a usage whose counts no model gives', () => {
  it.each([
    ['two counts that sum past what JavaScript holds exactly', { input_tokens: 9007199254740991, output_tokens: 1, cache_read_input_tokens: 9007199254740991 }],
    ['a count of 1e308', { inputTokens: 1e308, outputTokens: 1 }],
    ['a count above a billion', { prompt_tokens: 1_000_000_001, completion_tokens: 1 }],
  ])('%s: ignored with a warning, and the results file is read back by accept', async (_, usage) => {
    const server = await serve((req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, offTrack: [] } };
      return { json: { reply: 'done', route: null, offTrack: [], usage } };
    });
    const cwd = await makeProject({ config: agentConfig(server.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi, assert: { contains: done } }\n' } });
    const r = await cli(['run', '--out', 'r.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/reports token usage in a shape agent-replay does not read \(found an object with [a-z_A-Z, ]+ \(a count above a billion\)\); its tokens are not counted/);
    expect((await readResults(join(cwd, 'r.json'))).fixtures[0]?.usage).toBeNull();
    const accepted = await cli(['accept', '--results', 'r.json'], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('1 accepted');
  });

  it('a billion tokens in a turn is still read', async () => {
    const server = await serve((req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, offTrack: [] } };
      return { json: { reply: 'done', route: null, offTrack: [], usage: { inputTokens: 1_000_000_000, outputTokens: 2 } } };
    });
    const cwd = await makeProject({ config: agentConfig(server.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi, assert: { contains: done } }\n' } });
    expect((await cli(['run', '--out', 'r.json'], cwd)).code).toBe(0);
    expect((await readResults(join(cwd, 'r.json'))).fixtures[0]?.usage).toEqual({ inputTokens: 1_000_000_000, outputTokens: 2 });
  });
});
