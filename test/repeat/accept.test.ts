// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it"): acceptance
// refuses a repeated item whose attempts differ in meaning ("replies differ in meaning across N attempts"),
// through the CLI, against a real loopback agent that answers per attempt.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { agentConfig, cli, listTree, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

useCleanup();

/** The attempt number at the end of a repeated item's session id ("...-wobbly-2" -> 2). */
const attemptOf = (body: Record<string, unknown>): number => Number(/-(\d+)$/.exec(String(body.session))?.[1] ?? '0');

/** Native protocol; messages starting with "wobbly" are answered with the attempt number in the reply. */
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  const message = String(body.message);
  const reply = message.startsWith('wobbly') ? `answer ${attemptOf(body)}` : `steady answer to ${message}`;
  return { json: { reply, route: { conversation: 'c', stage: 's' }, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: steady, message: hello, assert: { contains: steady }, repeat: { count: 3 } }
  - { label: wobbly, message: wobbly, assert: { contains: answer }, repeat: { count: 3, minPass: 2 } }
`;
const PERSONAS = `personas:
  - { label: calm, opening: hi, expect: { conversations: [c] }, repeat: { count: 2 } }
  - { label: jumpy, opening: wobbly opening, expect: { conversations: [c] }, repeat: { count: 2 } }
`;

describe('accept a repeated run', () => {
  it('accepts items whose attempts agree and refuses the others with "replies differ in meaning across N attempts"', async () => {
    const agent = await serve(handler);
    const cwd = await makeProject({ config: `${agentConfig(agent.url)}cost: { capUsd: 1 }\n`, fixtures: { 'f.yml': FIXTURES }, personas: { 'p.yml': PERSONAS } });
    const run = await cli(['run', '--out', 'r.json', '--fail-on', 'none'], cwd);
    expect(run.code, run.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r.json'));
    // The wobbly items passed (every attempt's reply has "answer"; every transcript visits c), and still differ.
    expect(record.fixtures.map((f) => [f.label, f.verdict, f.repeat?.passed])).toEqual([['steady', 'pass', 3], ['wobbly', 'pass', 3]]);
    expect(record.personas.map((p) => [p.label, p.verdict])).toEqual([['calm', 'pass'], ['jumpy', 'pass']]);

    const r = await cli(['accept', '--results', 'r.json'], cwd);
    expect(r.code).toBe(0);
    // "answer 1" / "answer 2" / "answer 3": the numbers differ, so the facts rule refuses with no model call.
    expect(r.stdout).toContain('refused   wobbly: replies differ in meaning across 3 attempts: attempt 2: numbers 1 → 2; attempt 3: numbers 1 → 3');
    quotedAndSaid(r.stdout, 'replies differ in meaning across <N> attempts: attempt 2: numbers 30 → 14', { '30 → 14': '1 → 2' });
    expect(r.stdout).toContain('refused   jumpy: replies differ in meaning across 2 attempts: attempt 2: turn 1 changed in meaning: numbers 1 → 2');
    expect(r.stdout).toContain('2 accepted, 2 refused, 0 unchanged');
    expect(await listTree(join(cwd, '.agent-replay', 'baselines'))).toEqual(['calm.json', 'steady.json']);
    // The baseline is the reply every attempt gave.
    expect(JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'steady.json'), 'utf8'))).toMatchObject({ reply: 'steady answer to hello', verdict: 'pass' });
  });
});
