// Names the agent chose that are an object's own machinery (`__proto__`, `constructor`), end to end
// through the real CLI: kept as the agent sent them in results.json (docs/results-json.md).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

describe('a tool call whose input has a key named __proto__', () => {
  it('is recorded with that key, and read back with it', async () => {
    const input = '{"__proto__": {"orderId": "1234"}, "constructor": 1, "note": "x"}';
    const server = await serve((req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, offTrack: [] } };
      return { headers: { 'content-type': 'application/json' }, body: `{"reply": "done", "route": null, "offTrack": [], "toolCalls": [{"tool": "lookup", "input": ${input}, "output": ${input}, "mocked": false}]}` };
    });
    const cwd = await makeProject({ config: agentConfig(server.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi, assert: { toolCalled: { tool: lookup, input: { constructor: 1 } } } }\n' } });
    const r = await cli(['run', '--out', 'r.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const written = JSON.parse(await readFile(join(cwd, 'r.json'), 'utf8')) as { fixtures: { toolCalls: { input: object; output: object }[] }[] };
    const expected = [['__proto__', { orderId: '1234' }], ['constructor', 1], ['note', 'x']];
    expect(Object.entries(written.fixtures[0]!.toolCalls[0]!.input)).toEqual(expected);
    expect(Object.entries(written.fixtures[0]!.toolCalls[0]!.output)).toEqual(expected);
    // Read back through results.json's schema (accept, report): the same.
    const call = (await readResults(join(cwd, 'r.json'))).fixtures[0]!.toolCalls![0]!;
    expect(Object.entries(call.input as object)).toEqual(expected);
    expect(Object.entries(call.output as object)).toEqual(expected);
  });
});
