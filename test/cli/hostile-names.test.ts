// Names the agent chose that are an object's own machinery (`__proto__`, `constructor`), end to end
// through the real CLI: kept as the agent sent them in results.json (docs/results-json.md).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToolCalls } from '../../src/agent/tool-calls.js';
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

describe('a tool call whose input nests a hundred thousand levels deep', () => {
  it('is refused as a tool call with the reason, not an internal error; a call 256 levels deep is read', async () => {
    const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    let depth = 100_000;
    const server = await serve((req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, offTrack: [] } };
      return { headers: { 'content-type': 'application/json' }, body: `{"reply": "done", "route": null, "offTrack": [], "toolCalls": [{"tool": "ok", "input": 1, "output": null, "mocked": false}, {"tool": "lookup", "input": ${deep(depth)}, "output": null, "mocked": false}]}` };
    });
    const cwd = await makeProject({ config: agentConfig(server.url), fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi, assert: [ { contains: done }, { toolCalled: { tool: lookup } } ] }\n' } });
    const r = await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const f = (await readResults(join(cwd, 'r.json'))).fixtures[0]!;
    expect(f.errored).toBe(false);
    expect(f.checks?.map((c) => c.status)).toEqual(['pass', 'not_evaluated']);
    expect(f.checks?.[1]?.detail).toContain('"toolCalls.1" is not a tool call: expected');
    expect(f.checks?.[1]?.detail).toContain('(found a call of "lookup" whose input nests deeper than 256 levels)');

    depth = 256;
    expect((await cli(['run', '--out', 'r2.json'], cwd)).code).toBe(0);
    const read = (await readResults(join(cwd, 'r2.json'))).fixtures[0]!;
    expect(read.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
  });
});

describe('the depth a tool call may nest', () => {
  it('256 levels are read, 257 refused, in an input or an answer joined to its call', () => {
    const nested = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));
    expect(decodeToolCalls([{ tool: 'a', input: nested(256), output: null, mocked: false }]).ok).toBe(true);
    expect(decodeToolCalls([{ tool: 'a', input: 1, output: null, mocked: false }, { tool: 'b', input: nested(257), output: null, mocked: false }])).toEqual({ ok: false, index: 1, found: 'a call of "b" whose input nests deeper than 256 levels' });
    const answered = [{ type: 'tool_use', id: 't1', name: 'c', input: {} }, { type: 'tool_result', tool_use_id: 't1', content: nested(300) }];
    expect(decodeToolCalls(answered)).toMatchObject({ ok: false, index: 0 });
  });
});
