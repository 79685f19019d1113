// results.json streamed as items finish, end to end: a real loopback agent that answers out of
// order, the engine feeding the stream, the CLI's run --out; and a results path that cannot be
// written, where the summary still prints and the record is kept in the temporary folder.

import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/engine.js';
import { openRecordStream, parseRecord, serializeRecord } from '../../src/record/index.js';
import type { AgentHandler } from '../support/agent-server.js';
import { nativeEcho } from '../support/agent-server.js';
import { agentConfig, cli, makeProject, serve, useCleanup } from './helpers.js';

useCleanup();
const fallbacks: string[] = [];
afterEach(async () => {
  for (const f of fallbacks.splice(0)) await rm(f, { recursive: true, force: true });
});

const N = 240;
const PADDING = 'x'.repeat(600);

/**
 * Answers every message with a long echo, and out of order: a request is held until another one
 * arrives, then the later one is answered first; the last request releases all that are held.
 * (With two workers or more this never waits forever: while one request is held, another
 * worker sends the next; the last arrival releases everything.)
 */
function outOfOrder(total: number): AgentHandler {
  let seen = 0;
  let held: (() => void)[] = [];
  return async (req) => {
    seen++;
    const reply = nativeEcho(req);
    const long = typeof reply === 'object' && 'json' in reply ? { json: { ...(reply.json as object), reply: `${(reply.json as { reply: string }).reply} ${PADDING}` } } : reply;
    if (seen >= total) {
      const all = held.reverse();
      held = [];
      setImmediate(() => all.forEach((release) => release()));
      return long;
    }
    if (held.length === 0) {
      await new Promise<void>((resolve) => held.push(resolve));
      return long;
    }
    const earlier = held;
    held = [];
    setImmediate(() => earlier.forEach((release) => release()));
    return long;
  };
}

const fixturesYaml = (n: number): string =>
  `fixtures:\n${Array.from({ length: n }, (_, i) => `  - { label: q-${String(i).padStart(4, '0')}, message: "Question ${i}: déjà \\"30 days\\"?", assert: { contains: "30 days" } }`).join('\n')}\n`;

const PERSONAS = 'personas:\n  - { label: s-1, opening: "I want a refund", followUps: [ "order 1234" ], expect: { conversations: [ echo ] } }\n  - { label: s-2, opening: "Hello", followUps: [], expect: { conversations: [ echo ] } }\n';

describe('results.json streamed as items finish', () => {
  it('a real run whose items finish out of order: the file is serializeRecord(record), byte for byte, and no temporary file is left', async () => {
    const agent = await serve(outOfOrder(N + 3));
    const cwd = await makeProject({
      config: agentConfig(agent.url, '  start: false\n  concurrency: 4\ncost: { capUsd: 100 }\n'),
      fixtures: { 'a.yml': fixturesYaml(N) },
      personas: { 'p.yml': PERSONAS },
    });
    const target = join(cwd, 'out', 'results.json');
    const stream = openRecordStream(target);
    const finishedOrder: string[] = [];
    const result = await runCheck(
      { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: [], commit: null },
      {
        onItem: (kind, index, record) => {
          finishedOrder.push(`${kind}:${index}`);
          stream.item(kind, index, record);
        },
      },
    );
    expect(result.kind).toBe('ran');
    if (result.kind !== 'ran') return;
    await stream.finish(result.record);
    const text = await readFile(target, 'utf8');
    expect(text).toBe(serializeRecord(result.record));
    expect(text.length).toBeGreaterThan(N * 600);
    // The agent did answer out of order, and the file is in suite order.
    const fixtureOrder = finishedOrder.filter((k) => k.startsWith('fixture:')).map((k) => Number(k.split(':')[1]));
    expect(fixtureOrder).not.toEqual([...fixtureOrder].sort((a, b) => a - b));
    expect(parseRecord(text, 'results.json').fixtures.map((f) => f.label)).toEqual(Array.from({ length: N }, (_, i) => `q-${String(i).padStart(4, '0')}`));
    expect(result.record.personas.map((p) => p.label)).toEqual(['s-1', 's-2']);
    expect(await readdir(join(cwd, 'out'))).toEqual(['results.json']);
  });

  it('run --out: the file holds every item in suite order in serializeRecord layout, and no temporary file is left', async () => {
    const agent = await serve(outOfOrder(N));
    const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n  concurrency: 4\ncost: { capUsd: 100 }\n'), fixtures: { 'a.yml': fixturesYaml(N) } });
    const r = await cli(['run', '--out', 'results.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(join(cwd, 'results.json'), 'utf8');
    // Parsing keeps the keys in the file's order: the same text again means serializeRecord's layout.
    expect(serializeRecord(JSON.parse(text) as never)).toBe(text);
    const record = parseRecord(text, 'results.json');
    expect(record.fixtures.map((f) => f.label)).toEqual(Array.from({ length: N }, (_, i) => `q-${String(i).padStart(4, '0')}`));
    expect(record.fixtures.every((f) => f.reply?.endsWith(PADDING))).toBe(true);
    expect((await readdir(cwd)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('run --out with repeat: a repeated item is written once its attempts are all in, with every attempt, in serializeRecord layout', async () => {
    const n = 60;
    const agent = await serve(outOfOrder(n * 3));
    const cwd = await makeProject({ config: `${agentConfig(agent.url, '  start: false\n  concurrency: 4\n')}cost: { capUsd: 100 }\nrepeat: { count: 3 }\n`, fixtures: { 'a.yml': fixturesYaml(n) } });
    const r = await cli(['run', '--out', 'results.json'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(join(cwd, 'results.json'), 'utf8');
    expect(serializeRecord(JSON.parse(text) as never)).toBe(text);
    const record = parseRecord(text, 'results.json');
    expect(record.fixtures.map((f) => f.label)).toEqual(Array.from({ length: n }, (_, i) => `q-${String(i).padStart(4, '0')}`));
    expect(record.fixtures.every((f) => f.attempts?.length === 3 && f.repeat?.passed === 3)).toBe(true);
    expect((await readdir(cwd)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a results path that cannot be written: the summary prints, the error names the path and the file the record went to, exit 2', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url, '  start: false\n'), fixtures: { 'a.yml': fixturesYaml(3) } });
    await writeFile(join(cwd, 'blocked'), 'a file where a folder should be\n');
    const r = await cli(['run', '--out', 'blocked/results.json'], cwd);
    const fallback = /the record was written to (\S+) instead/.exec(r.stderr)?.[1] ?? null;
    if (fallback !== null) fallbacks.push(dirname(fallback));
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^agent-replay: /);
    expect(r.stdout).toContain('passed 3');
    expect(r.stderr).toContain(`agent-replay: could not write the results to ${join(cwd, 'blocked', 'results.json')}: ${join(cwd, 'blocked')} is a file, not a folder`);
    expect(fallback).toMatch(new RegExp(`^${tmpdir()}/agent-replay-results-[^/]+/results\\.json$`));
    expect(r.stdout).toContain(`results: ${fallback} (not ${join(cwd, 'blocked', 'results.json')}: see below)`);
    const kept = parseRecord(await readFile(fallback as string, 'utf8'), 'fallback');
    expect(kept.fixtures.map((f) => [f.label, f.verdict])).toEqual([
      ['q-0000', 'pass'],
      ['q-0001', 'pass'],
      ['q-0002', 'pass'],
    ]);
    expect(await readFile(join(cwd, 'blocked'), 'utf8')).toBe('a file where a folder should be\n');
    expect((await readdir(cwd)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
